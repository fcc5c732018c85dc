// cmd_timeline.cpp — `tilescope timeline`: run one launch at full size on the
// GPU recording only which SM ran each block and when, and summarise its SM
// timeline: co-residency, waves, the tail, achieved occupancy over time.
//
//   tilescope timeline --kernel tiled --tile 32 --size 4096 --json -o t32.json
//   tilescope timeline --load t32.json            (no GPU needed)
//   tilescope timeline --load t32.json --ncu ncu.csv --json
//       next to Nsight Compute's measurement of the same launch
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

#include "app/cli/commands.h"
#include "app/cli/record_options.h"
#include "app/core/analysis/ncu_import.h"
#include "trace/launch_json.h"
#include "app/core/occupancy_json.h"
#include "app/core/replay.h"
#include "app/core/timeline.h"
#include "app/core/timeline_vs_ncu.h"
#include "app/core/timing_file.h"
#include "kernels/catalog.h"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/timing_request.h"

namespace ts::cli {
namespace {

struct TimelineOptions {
  RecordOptions launch;  // --kernel --tile --size --m --k --n --seed
  std::string load, output, ncu;
  int bins = 50;
  bool json = false;
};

TimelineShape shape_of(const TimingRecording& r) {
  return {r.sm_count, r.warps_per_block(), r.max_warps_per_sm, r.api_blocks_per_sm};
}

double theoretical(const TimingRecording& r) {
  return r.max_warps_per_sm ? double(r.api_blocks_per_sm * r.warps_per_block()) / r.max_warps_per_sm : 0.0;
}

nlohmann::json summary_json(const TimingRecording& r, const Timeline& tl, int bins) {
  return {{"launch", launch_to_json(r.launch)},
          {"device",
           {{"name", r.launch.device_name},
            {"sm_count", r.sm_count},
            {"compute_capability", r.compute_capability},
            {"max_warps_per_sm", r.max_warps_per_sm}}},
          {"timed_kernel", kernel_resources_to_json(r.timed_kernel)},
          {"api_blocks_per_sm", r.api_blocks_per_sm},
          {"theoretical_occupancy", theoretical(r)},
          {"elapsed_ms", r.elapsed_ms},
          {"check", {{"cells", r.checked_cells}, {"worst_error_to_bound", r.worst_error_to_bound}}},
          {"timeline",
           {{"blocks", tl.blocks.size()},
            {"duration_ns", tl.duration_ns},
            {"achieved_occupancy", tl.achieved_occupancy},
            {"occupancy_over_launch", tl.occupancy_over_launch},
            {"max_coresident_blocks_per_sm", tl.max_coresident},
            {"sms_used", tl.sms_used},
            {"waves", tl.waves},
            {"waves_observed", tl.waves_observed},
            {"last_block_start_ns", tl.last_start_ns},
            {"tail_ns", tl.tail_ns},
            {"tail_occupancy", tl.tail_occupancy},
            {"timer_step_ns", tl.timer_step_ns}}},
          {"occupancy_over_time",
           {{"bins", bins},
            {"bin_ns", double(tl.duration_ns) / bins},
            {"values", occupancy_series(tl, 0, tl.duration_ns, bins)}}}};
}

void print_summary(const TimingRecording& r, const Timeline& tl, int bins) {
  const LaunchInfo& L = r.launch;
  const double ms = 1e-6;
  std::printf("%s %s M=%d N=%d K=%d on %s (%s): %zu blocks of %llu threads on %d SMs, %.3f ms\n",
              L.kernel.c_str(), tiling_label(L).c_str(), L.m, L.n, L.k, L.device_name.c_str(), L.date.c_str(),
              r.blocks.size(), static_cast<unsigned long long>(L.block.count()), r.sm_count, r.elapsed_ms);
  std::printf("theoretical: %d blocks/SM x %d warps = %.1f%% (CUDA occupancy API; the timed kernel: %d registers, "
              "%d B shared)\n",
              r.api_blocks_per_sm, r.warps_per_block(), 100.0 * theoretical(r), r.timed_kernel.registers_per_thread,
              r.timed_kernel.static_shared_bytes);
  std::printf("co-resident blocks on one SM: at most %u; SMs used: %u of %d\n", tl.max_coresident, tl.sms_used,
              r.sm_count);
  std::printf("waves: %.2f (blocks / (blocks per SM x SMs)); the longest lane ran %u blocks one after another\n",
              tl.waves, tl.waves_observed);
  std::printf("achieved occupancy: %.1f%% over each SM's active time (Nsight Compute's definition), %.1f%% over "
              "the whole launch\n",
              100.0 * tl.achieved_occupancy, 100.0 * tl.occupancy_over_launch);
  std::printf("tail: the last block started at %.3f ms; the last %.3f ms (%.1f%%) ran at %.1f%% occupancy\n",
              double(tl.last_start_ns) * ms, double(tl.tail_ns) * ms,
              tl.duration_ns ? 100.0 * double(tl.tail_ns) / double(tl.duration_ns) : 0.0, 100.0 * tl.tail_occupancy);
  std::printf("timer step: %llu ns; C checked at %d cells (worst error %.3g of the fp32 bound)\n",
              static_cast<unsigned long long>(tl.timer_step_ns), r.checked_cells, r.worst_error_to_bound);
  std::printf("occupancy over time (%d bins of %.3f ms):", bins, double(tl.duration_ns) / bins * ms);
  for (double v : occupancy_series(tl, 0, tl.duration_ns, bins)) std::printf(" %.0f", 100.0 * v);
  std::printf("\n");
}

std::string percent(const nlohmann::json& fraction) {
  if (!fraction.is_number()) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * fraction.get<double>());
  return buf;
}

void print_ncu(const nlohmann::json& c) {
  std::printf("Nsight Compute, launch %d: achieved occupancy %s (timeline %s), theoretical %s (API %s), SMs active "
              "%s of the time (timeline %s)\n",
              c["ncu_launch_id"].get<int>(), percent(c["achieved_occupancy"]["ncu"]).c_str(),
              percent(c["achieved_occupancy"]["timeline"]).c_str(), percent(c["theoretical_occupancy"]["ncu"]).c_str(),
              percent(c["theoretical_occupancy"]["api"]).c_str(), percent(c["sm_active_fraction"]["ncu"]).c_str(),
              percent(c["sm_active_fraction"]["timeline"]).c_str());
}

int run(const TimelineOptions& o) {
  TimingRecording rec;
  try {
    if (!o.load.empty()) {
      rec = load_timing(o.load);
    } else {
      RecordParams p;
      if (std::string err = to_record_params(o.launch, p); !err.empty()) return fail(err);
      if (std::string why = timing_request_error(p.kernel, p.tile, p.m, p.n, p.k); !why.empty()) return fail(why);
      const gpu::DeviceStatus st = gpu::probe();
      if (!st.available) return fail("a timeline is recorded on a GPU: " + st.reason + " (use --load FILE to view one)");
      rec = gpu::record_timing(p.kernel, p.tile, p.m, p.n, p.k, p.seed);
    }
    // Timing files written before the recorder set a tiling hold zeros (which
    // say TILE=T): a rung's, which TILE does not say, is its fixed one from the catalog.
    if (const auto kind = find_kernel(rec.launch.kernel); kind && is_rung(*kind) && rec.launch.tiling.block_m == 0)
      rec.launch.tiling = kernel_tiling(*kind, rec.launch.tile);
    const Timeline tl = build_timeline(rec.blocks, shape_of(rec));
    nlohmann::json ncu = nullptr;
    if (!o.ncu.empty()) {
      std::ifstream in(o.ncu);
      if (!in) return fail("cannot open " + o.ncu);
      ncu = timeline_vs_ncu(rec, tl, in);
    }
    if (!o.output.empty()) save_timing(rec, o.output);
    if (o.json) {
      nlohmann::json j = summary_json(rec, tl, o.bins);
      if (!o.output.empty()) j["saved_to"] = o.output;
      if (!ncu.is_null()) j["ncu"] = ncu;
      std::printf("%s\n", j.dump(2).c_str());
    } else {
      print_summary(rec, tl, o.bins);
      if (!ncu.is_null()) print_ncu(ncu);
      if (!o.output.empty()) std::printf("saved the per-block timing to %s\n", o.output.c_str());
    }
  } catch (const TimingFileError& e) {
    return fail(e.what());
  } catch (const NcuImportError& e) {
    return fail(o.ncu + ": " + e.what());
  } catch (const std::invalid_argument& e) {
    return fail(std::string("impossible timing: ") + e.what());
  } catch (const gpu::GpuError& e) {
    return fail(std::string("GPU error: ") + e.what());
  } catch (const std::bad_alloc&) {
    return fail("out of memory; try a smaller size");
  }
  return 0;
}

}  // namespace

Command add_timeline_command(CLI::App& parent) {
  auto* app = parent.add_subcommand(
      "timeline", "Record one full-size launch's per-block SM and timing on the GPU, and summarise its SM timeline");
  auto o = std::make_shared<TimelineOptions>();
  o->launch.size = 4096;  // full size: only the per-block timing is kept
  add_launch_options(*app, o->launch);
  app->add_option("--load", o->load, "Summarise a saved timing recording instead of recording");
  app->add_option("-o,--output", o->output, "Save the per-block timing (JSON) for the app or --load");
  app->add_option("--ncu", o->ncu, "Nsight Compute's CSV (--csv --print-units base) of the same launch, to compare");
  app->add_option("--bins", o->bins, "Slices of the occupancy-over-time series")->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app->add_flag("--json", o->json, "Print JSON");
  return {app, [o]() { return run(*o); }};
}

}  // namespace ts::cli
