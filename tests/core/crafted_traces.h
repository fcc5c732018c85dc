// crafted_traces.h — hostile trace files with valid checksums, made the way an
// attacker would: a small, honest trace is built by hand (no recorder needed),
// one claim in it is changed into a lie, and the file is encoded with an
// encoder of its own (independent of save_trace) so that the header's counts
// can lie too. Used by the validation tests and to seed the fuzzers.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "trace/launch_json.h"
#include "trace/trace.h"

namespace ts::crafted {

// A naive-kernel trace of M x N x K, one thread per cell of C (blocks of
// bx x by threads): each thread loads A's row and B's column and stores C.
inline Trace honest(std::uint32_t m = 5, std::uint32_t n = 4, std::uint32_t k = 6, std::uint32_t tile = 2,
                    std::uint32_t bx = 2, std::uint32_t by = 2) {
  Trace t;
  LaunchInfo& L = t.launch;
  L.kernel = "naive";
  L.tile = static_cast<int>(tile);
  L.m = static_cast<int>(m);
  L.n = static_cast<int>(n);
  L.k = static_cast<int>(k);
  L.block = {bx, by, 1};
  L.grid = {(n + bx - 1) / bx, (m + by - 1) / by, 1};
  L.iteration_rule = {0, tile, k, n, (k + tile - 1) / tile, 0, 0};
  L.recorder = "emulator";
  L.device_name = "CPU emulator";
  L.date = "2026-01-02T03:04:05Z";
  L.seed = 42;
  auto set = [&](ArrayId id, std::uint64_t base, std::uint32_t rows, std::uint32_t cols) {
    L.set_array(id, {true, base, rows, cols, cols});
  };
  set(ArrayId::A, 0x10000000, m, k);
  set(ArrayId::B, 0x20000000, k, n);
  set(ArrayId::C, 0x30000000, m, n);
  for (std::uint32_t i = 0; i < m * k; ++i) t.a.push_back(float(i % 7) - 3);
  for (std::uint32_t i = 0; i < k * n; ++i) t.b.push_back(float(i % 5) - 2);
  t.c.assign(std::size_t{m} * n, 0.0f);
  std::vector<Event> ev;
  const std::uint64_t threads = L.thread_count();
  t.thread_offsets.push_back(0);
  for (std::uint64_t th = 0; th < threads; ++th) {
    const std::uint32_t per_block = bx * by, block = static_cast<std::uint32_t>(th / per_block);
    const std::uint32_t in_block = static_cast<std::uint32_t>(th % per_block);
    const std::uint32_t row = (block / L.grid.x) * by + in_block / bx, col = (block % L.grid.x) * bx + in_block % bx;
    if (row < m && col < n) {
      float sum = 0;
      for (std::uint32_t kk = 0; kk < k; ++kk) {
        const std::uint32_t ia = row * k + kk, ib = kk * n + col;
        const auto it = static_cast<std::uint16_t>(kk / tile);
        ev.push_back(Event{.index = ia, .value = t.a[ia], .epoch = 0, .iter = it, .array = static_cast<std::uint8_t>(ArrayId::A), .flags = 0, .width = 0, .async = 0});
        ev.push_back(Event{.index = ib, .value = t.b[ib], .epoch = 0, .iter = it, .array = static_cast<std::uint8_t>(ArrayId::B), .flags = 0, .width = 0, .async = 0});
        sum += t.a[ia] * t.b[ib];
      }
      t.c[row * n + col] = sum;
      ev.push_back(Event{.index = row * n + col, .value = sum, .epoch = 0,
                         .iter = static_cast<std::uint16_t>(L.iteration_rule.iterations),
                         .array = static_cast<std::uint8_t>(ArrayId::C), .flags = kFlagStore, .width = 0, .async = 0});
    }
    t.thread_offsets.push_back(ev.size());
  }
  t.events = EventBuffer(ev.size());
  if (!ev.empty()) std::memcpy(t.events.data(), ev.data(), ev.size() * sizeof(Event));
  return t;
}

// The header's counts, when a lie wants them to differ from the sections.
struct Counts {
  std::uint64_t a, b, c, threads, timings, events;
};

// Version 1 of the file format (see trace_file.h), with a valid checksum.
inline std::vector<std::byte> encode(const Trace& t, const Counts* header = nullptr, const std::string* json_text = nullptr) {
  const std::string json = json_text ? *json_text : launch_to_json(t.launch).dump();
  std::vector<std::byte> out;
  auto put = [&](const void* p, std::size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    out.insert(out.end(), b, b + n);
  };
  auto pad = [&] { out.resize(out.size() + (16 - out.size() % 16) % 16); };
  const Counts real{t.a.size(), t.b.size(), t.c.size(), t.thread_count(), t.block_timing.size(), t.events.size()};
  const Counts& c = header ? *header : real;
  const std::uint32_t version = 1, json_bytes = static_cast<std::uint32_t>(json.size());
  put("TSCTRACE", 8);
  put(&version, 4);
  put(&json_bytes, 4);
  for (std::uint64_t x : {c.a, c.b, c.c, c.threads, c.timings, c.events}) put(&x, 8);
  put(json.data(), json.size());
  pad();
  put(t.a.data(), t.a.size() * 4);
  put(t.b.data(), t.b.size() * 4);
  put(t.c.data(), t.c.size() * 4);
  const std::uint64_t zero = 0;
  if (t.thread_offsets.empty()) put(&zero, 8);
  else put(t.thread_offsets.data(), t.thread_offsets.size() * 8);
  put(t.block_timing.data(), t.block_timing.size() * sizeof(BlockTiming));
  pad();
  // Version 1's event layout: epoch (13 bits) | array << 13, iter (14 bits) | flags << 14.
  for (const Event& e : t.events.span()) {
    const std::uint16_t epoch_array = static_cast<std::uint16_t>(e.epoch | e.array << 13);
    const std::uint16_t iter_flags = static_cast<std::uint16_t>(e.iter | e.flags << 14);
    put(&e.index, 4);
    put(&e.value, 4);
    put(&epoch_array, 2);
    put(&iter_flags, 2);
  }
  const auto crc = static_cast<std::uint32_t>(crc32_z(0, reinterpret_cast<const Bytef*>(out.data()), out.size()));
  const std::uint32_t end = 0x444E4554;  // "TEND"
  put(&crc, 4);
  put(&end, 4);
  return out;
}

struct Case {
  std::string name;
  std::vector<std::byte> bytes;
};

// Every lie in a trace's content the validation must refuse, as an edit of
// the honest trace.
struct Lie {
  std::string name;
  std::function<void(Trace&)> edit;
};

inline std::vector<Lie> lies() {
  std::vector<Lie> out;
  auto lie = [&](std::string name, std::function<void(Trace&)> edit) { out.push_back({std::move(name), std::move(edit)}); };
  // The attacks of the issue.
  lie("iterations_0xFFFFFFFF", [](Trace& t) { t.launch.iteration_rule.iterations = 0xFFFFFFFFu; });
  lie("iterations_0x7FFFFFFF", [](Trace& t) { t.launch.iteration_rule.iterations = 0x7FFFFFFFu; });
  lie("grid_past_cuda_limits", [](Trace& t) { t.launch.grid = {1u << 30, 4096, 4096}; t.launch.block = {32, 32, 1}; });
  lie("threads_wrap_2_64", [](Trace& t) {  // 2^30 x 2^15 x 2^15 blocks of 2^10 threads: 2^70, 0 mod 2^64
    t.launch.grid = {1u << 30, 1u << 15, 1u << 15};
    t.launch.block = {32, 32, 1};
    t.thread_offsets = {0};
    t.events = EventBuffer();
  });
  lie("shared_65535_square", [](Trace& t) { t.launch.set_array(ArrayId(3), {true, 0, 65535, 65535, 65535}); });
  lie("device_name_20000", [](Trace& t) { t.launch.device_name.assign(20000, 'W'); });
  lie("date_20000", [](Trace& t) { t.launch.date.assign(20000, '9'); });
  lie("kernel_control_chars", [](Trace& t) { t.launch.kernel = "naive\x1b[2J\x07"; });
  // Similar lies in other fields.
  lie("device_name_newline", [](Trace& t) { t.launch.device_name = "GPU\nrm -rf"; });
  lie("kernel_empty", [](Trace& t) { t.launch.kernel.clear(); });
  lie("recorder_unknown", [](Trace& t) { t.launch.recorder = "oracle"; });
  lie("tile_0", [](Trace& t) { t.launch.tile = 0; });
  lie("tile_5000", [](Trace& t) { t.launch.tile = 5000; });
  lie("m_negative", [](Trace& t) { t.launch.m = -5; });
  lie("matrix_2_32_elements", [](Trace& t) { t.launch.m = 65536; t.launch.k = 65536; });
  lie("grid_y_65536", [](Trace& t) { t.launch.grid.y = 65536; });
  lie("grid_zero", [](Trace& t) { t.launch.grid.x = 0; });
  lie("block_2048", [](Trace& t) { t.launch.block = {2048, 1, 1}; });
  lie("block_z_65", [](Trace& t) { t.launch.block = {1, 1, 65}; });
  lie("rule_tile_0", [](Trace& t) { t.launch.iteration_rule.tile = 0; });
  lie("rule_k_differs", [](Trace& t) { t.launch.iteration_rule.k = 7; });
  lie("rule_iterations_off_by_one", [](Trace& t) { t.launch.iteration_rule.iterations += 1; });
  lie("rule_barriers_past_epoch", [](Trace& t) { t.launch.iteration_rule.barriers_per_iteration = 5000; });
  lie("layout_c_ld", [](Trace& t) { t.launch.buffers[2].ld = 9; });
  lie("layout_a_absent", [](Trace& t) { t.launch.buffers.erase(t.launch.buffers.begin()); t.launch.regions.clear(); });
  lie("layout_base_wraps", [](Trace& t) { t.launch.buffers[1].base = ~0ull - 8; });
  lie("shared_cols_past_ld", [](Trace& t) { t.launch.set_array(ArrayId(4), {true, 0, 4, 8, 4}); });
  lie("shared_zero_ld", [](Trace& t) { t.launch.set_array(ArrayId(4), {true, 0, 4, 0, 0}); });
  lie("timing_sm_5000", [](Trace& t) { t.block_timing.assign(t.launch.grid.count(), BlockTiming{5000, 0, 1, 2}); });
  lie("timing_ends_before_start", [](Trace& t) { t.block_timing.assign(t.launch.grid.count(), BlockTiming{0, 0, 9, 2}); });
  lie("timing_count", [](Trace& t) { t.block_timing.assign(1, BlockTiming{}); });
  lie("offsets_backwards", [](Trace& t) { std::swap(t.thread_offsets[1], t.thread_offsets[2]); });
  lie("offsets_start_past_0", [](Trace& t) { t.thread_offsets[0] = 1; });
  lie("event_index_past_array", [](Trace& t) { t.events[3].index = 1000; });
  lie("event_array_7", [](Trace& t) { t.events[3].array = 7; });
  lie("event_shared_absent", [](Trace& t) { t.events[3].array = 3; });
  lie("event_iteration_past_rule", [](Trace& t) { t.events[3].iter = 100; });
  lie("event_padding_on_global_load", [](Trace& t) { t.events[3].flags = kFlagPadding; });
  lie("blocks_without_events", [](Trace& t) {  // 3 iterations per block with no events at all
    t.events = EventBuffer();
    t.thread_offsets.assign(t.thread_offsets.size(), 0);
  });
  lie("a_shorter_than_m_k", [](Trace& t) { t.a.pop_back(); });
  lie("c_longer_than_m_n", [](Trace& t) { t.c.push_back(0); });
  lie("threads_more_than_launch", [](Trace& t) { t.thread_offsets.push_back(t.thread_offsets.back()); });
  return out;
}

// Every lie above in a file whose checksum is valid, and lies in the header's
// counts (names starting "header_"), which the file's layout may refuse first.
inline std::vector<Case> hostile_cases() {
  std::vector<Case> out;
  for (const Lie& l : lies()) {
    Trace t = honest();
    l.edit(t);
    out.push_back({l.name, encode(t)});
  }
  auto header_lie = [&](std::string name, const std::function<void(Counts&)>& edit) {
    const Trace t = honest();
    Counts c{t.a.size(), t.b.size(), t.c.size(), t.thread_count(), t.block_timing.size(), t.events.size()};
    edit(c);
    out.push_back({std::move(name), encode(t, &c)});
  };
  header_lie("header_events_2_31", [](Counts& c) { c.events = 1ull << 31; });
  header_lie("header_events_2_40", [](Counts& c) { c.events = 1ull << 40; });
  header_lie("header_threads_past_file", [](Counts& c) { c.threads = 0xFFFFFFFFu; });
  return out;
}

}  // namespace ts::crafted
