// trace_compare.cpp — hold a traced launch (`record --exec`) to tilescope's
// instrumented recording of the same kernel, sizes and seed: the same launch
// shape and A, B, C tables, and each thread's events equal as multisets of
// (epoch, load/store, where): a global access by its buffer id and index, a
// shared one by its byte offset in the window, counted from the lowest offset
// each trace touched (the two recorders may number the window from different
// origins; release cubins name no shared variables, so the tracer's regions
// need not match the instrumented As and Bs). Prints what differs; the
// iterations (the recorders' readings of the k-loop) are noted, not compared.
//   tracer_trace_compare INSTRUMENTED.tstrace TRACED.tstrace   (exit 0: equal)
#include <algorithm>
#include <cstdio>
#include <tuple>
#include <vector>

#include "app/core/trace_file.h"

namespace {

using Key = std::tuple<std::uint32_t, int, int, std::uint64_t>;  // epoch, store, memory (buffer id or -1), place

std::uint64_t lowest_shared(const ts::Trace& t) {
  std::uint64_t low = ~0ull;
  for (const ts::Event& e : t.events.span())
    if (e.space() == ts::Space::Shared) low = std::min(low, t.launch.address(e.array, e.index));
  return low;
}

std::vector<Key> keys(const ts::Trace& t, std::uint64_t thread, std::uint64_t low) {
  std::vector<Key> v;
  for (const ts::Event& e : t.thread_events(thread)) {
    const bool shared = e.space() == ts::Space::Shared;
    v.emplace_back(e.epoch, e.op() == ts::Op::Store, shared ? -1 : int(e.array),
                   shared ? t.launch.address(e.array, e.index) - low : e.index);
  }
  std::sort(v.begin(), v.end());
  return v;
}

void print_key(const char* side, const Key& k) {
  std::printf("      %s epoch %u %s %s %llu\n", side, std::get<0>(k), std::get<1>(k) ? "store" : "load",
              std::get<2>(k) < 0 ? "shared +" : ("buffer " + std::to_string(std::get<2>(k)) + " index").c_str(),
              static_cast<unsigned long long>(std::get<3>(k)));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: tracer_trace_compare INSTRUMENTED.tstrace TRACED.tstrace\n");
    return 2;
  }
  ts::Trace want, got;
  try {
    want = ts::load_trace(argv[1]);
    got = ts::load_trace(argv[2]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tracer_trace_compare: %s\n", e.what());
    return 2;
  }
  const ts::LaunchInfo& W = want.launch;
  const ts::LaunchInfo& G = got.launch;
  int differences = 0;
  auto differ = [&](bool same, const std::string& what) {
    if (!same) ++differences, std::printf("differs: %s\n", what.c_str());
  };
  differ(W.grid == G.grid && W.block == G.block, "the launch shape");
  differ(W.m == G.m && W.n == G.n && W.k == G.k, "M, N, K");
  for (ts::BufferRole role : {ts::BufferRole::A, ts::BufferRole::B, ts::BufferRole::C}) {
    const ts::Buffer* w = W.buffer_with_role(role);
    const ts::Buffer* g = G.buffer_with_role(role);
    differ(w && g && w->rows == g->rows && w->cols == g->cols && w->ld == g->ld && w->order == g->order &&
               W.role_id(role) == G.role_id(role),
           std::string("buffer ") + std::string(ts::role_name(role)));
  }
  std::printf("buffers: instrumented %zu, traced %zu\n", W.buffers.size(), G.buffers.size());
  for (const auto* t : {&W, &G})
    for (const ts::Region& r : t->regions)
      std::printf("  %s region %s: offset %u, %u bytes, %ux%u%s\n", t == &W ? "instrumented" : "traced",
                  r.name.c_str(), r.offset, r.bytes, r.rows, r.cols, r.raw ? " (raw)" : "");
  // The iterations are an interpretation, not an event: the instrumented recorder knows the kernel's k-loop,
  // the tracer counts barrier intervals (a kernel without barriers is one). Said, not counted.
  if (W.iteration_rule.iterations != G.iteration_rule.iterations)
    std::printf("note: iterations %u (instrumented, the kernel's k-loop) and %u (traced, barrier intervals)\n",
                W.iteration_rule.iterations, G.iteration_rule.iterations);
  const std::uint64_t wlow = lowest_shared(want), glow = lowest_shared(got);
  std::printf("lowest shared window offset: instrumented %llu, traced %llu\n", static_cast<unsigned long long>(wlow),
              static_cast<unsigned long long>(glow));
  std::printf("events: instrumented %zu, traced %zu\n", want.events.size(), got.events.size());
  if (want.thread_count() != got.thread_count()) {
    std::printf("differs: %llu threads against %llu\n", static_cast<unsigned long long>(want.thread_count()),
                static_cast<unsigned long long>(got.thread_count()));
    return 1;
  }
  std::uint64_t same_threads = 0, shown = 0;
  for (std::uint64_t th = 0; th < want.thread_count(); ++th) {
    const std::vector<Key> w = keys(want, th, wlow), g = keys(got, th, glow);
    if (w == g) {
      ++same_threads;
      continue;
    }
    if (shown++ >= 8) continue;
    std::printf("  thread %llu: %zu events against %zu\n", static_cast<unsigned long long>(th), w.size(), g.size());
    std::vector<Key> only_w, only_g;
    std::set_difference(w.begin(), w.end(), g.begin(), g.end(), std::back_inserter(only_w));
    std::set_difference(g.begin(), g.end(), w.begin(), w.end(), std::back_inserter(only_g));
    for (std::size_t i = 0; i < std::min<std::size_t>(4, only_w.size()); ++i) print_key("only instrumented:", only_w[i]);
    for (std::size_t i = 0; i < std::min<std::size_t>(4, only_g.size()); ++i) print_key("only traced:      ", only_g[i]);
  }
  std::printf("threads with the same events: %llu of %llu\n", static_cast<unsigned long long>(same_threads),
              static_cast<unsigned long long>(want.thread_count()));
  const bool events_equal = same_threads == want.thread_count();
  if (events_equal || differences != 0) {
    std::printf("%s\n", events_equal && differences == 0 ? "EQUAL" : "DIFFERENT");
    return events_equal && differences == 0 ? 0 : 1;
  }
  // ldmatrix: each thread supplies the address of one 16-byte row and the warp shares the words out, so a
  // thread's shared reads as compiled are not the words it holds after. Held per warp instead.
  const std::uint64_t per_block = want.launch.threads_per_block();
  std::uint64_t same_warps = 0, warps = 0;
  for (std::uint64_t block = 0; block * per_block < want.thread_count(); ++block)
    for (std::uint64_t lane0 = 0; lane0 < per_block; lane0 += 32) {
      std::vector<Key> w, g;
      for (std::uint64_t th = block * per_block + lane0; th < block * per_block + std::min(lane0 + 32, per_block); ++th) {
        const std::vector<Key> tw = keys(want, th, wlow), tg = keys(got, th, glow);
        w.insert(w.end(), tw.begin(), tw.end());
        g.insert(g.end(), tg.begin(), tg.end());
      }
      std::sort(w.begin(), w.end());
      std::sort(g.begin(), g.end());
      ++warps;
      same_warps += w == g;
    }
  std::printf("warps with the same events: %llu of %llu\n", static_cast<unsigned long long>(same_warps),
              static_cast<unsigned long long>(warps));
  const bool per_warp = same_warps == warps;
  std::printf("%s\n", per_warp ? "EQUAL per warp (each thread's words differ: the warp shares them out, as ldmatrix "
                                  "does)"
                                : "DIFFERENT");
  return per_warp ? 0 : 1;
}
