// assemble_test.cpp — the tracer's assembler (tracer/assemble.h) from
// synthetic records, without a GPU. The main check is a round trip: the
// emulator's trace of tilescope's tiled kernel is written out as the records
// the device patches would append (threads interleaved at random, barriers as
// arrivals), and the assembled trace must equal the emulator's event for event.
//   ctest --test-dir build -R tracer_assemble
#include <gtest/gtest.h>

#include <bit>
#include <random>

#include "app/core/trace_validation.h"
#include "kernels/recorder.h"
#include "trace/launch_json.h"
#include "tracer/assemble.h"

namespace ts::tracer {
namespace {

constexpr std::uint64_t kBase[3] = {0x7f0000100000ull, 0x7f0000200000ull, 0x7f0000300000ull};

Trace emulator_tiled(int tile, int size) {
  RecordParams p;
  p.kernel = KernelKind::Tiled;
  p.tile = tile;
  p.m = p.n = p.k = size;
  p.device = DeviceChoice::Cpu;
  p.seed = 7;
  return record(p);
}

RawRecord access(std::uint32_t kind, std::uint64_t address, std::uint8_t acc, std::uint8_t bytes) {
  RawRecord r{};
  r.kind = static_cast<std::uint8_t>(kind);
  r.address = address;
  r.access = acc;
  r.bytes = bytes;
  return r;
}

RawLaunch skeleton(const Trace& t) {
  RawLaunch raw;
  raw.traced = true;
  raw.launches = {"_Z6warmupv", "_Z12tiled_kernelPKfS0_Pfiii"};
  raw.launch_index = 1;
  raw.kernel = raw.launches[1];
  raw.device_name = "synthetic";
  raw.grid = t.launch.grid;
  raw.block = t.launch.block;
  const std::vector<float>* values[3] = {&t.a, &t.b, &t.c};
  for (int i = 0; i < 3; ++i) {
    raw.allocations.push_back({kBase[i], values[i]->size() * 4, ""});
    std::vector<std::uint8_t> bytes(values[i]->size() * 4);
    std::memcpy(bytes.data(), values[i]->data(), bytes.size());
    raw.snapshots.push_back({static_cast<std::uint32_t>(i), i == 2, std::move(bytes)});
  }
  for (const Region& g : t.launch.regions) raw.shared_symbols.push_back({g.name, g.offset, g.bytes});
  return raw;
}

// The records the patches would write for trace t's events, threads interleaved by `seed`.
RawLaunch raw_from_trace(const Trace& t, unsigned seed) {
  RawLaunch raw = skeleton(t);
  const LaunchInfo& L = t.launch;
  const std::uint32_t per_block = L.threads_per_block();
  std::vector<std::vector<RawRecord>> per_thread(t.thread_count());
  for (std::uint64_t th = 0; th < t.thread_count(); ++th) {
    std::uint32_t epoch = 0;
    std::uint64_t n = 0;
    for (const Event& e : t.thread_events(th)) {
      RawRecord r{};
      while (epoch < e.epoch) {
        r = access(kRecordBarrier, 0, 0, 0);
        per_thread[th].push_back(r);
        ++epoch;
      }
      EXPECT_EQ(e.width, 0) << "the tiled kernel makes scalar accesses";
      const bool shared = L.is_region(e.array);
      r = access(shared ? kRecordShared : kRecordGlobal,
                 shared ? L.address(e.array, e.index) : kBase[e.array] + std::uint64_t{e.index} * 4,
                 e.op() == Op::Store ? kAccessStore : kAccessLoad, 4);
      // Stores carry their value (the API gives it); half the global loads do, the rest come from the copies.
      if (e.op() == Op::Store || (!shared && ++n % 2)) {
        r.flags = kRecordHasValue;
        r.value[0] = std::bit_cast<std::uint32_t>(e.value);
      }
      per_thread[th].push_back(r);
    }
  }
  std::vector<std::size_t> next(per_thread.size(), 0);
  std::vector<std::uint64_t> live;
  for (std::uint64_t th = 0; th < per_thread.size(); ++th)
    if (!per_thread[th].empty()) live.push_back(th);
  std::mt19937 rng(seed);
  while (!live.empty()) {
    const std::size_t pick = rng() % live.size();
    const std::uint64_t th = live[pick];
    RawRecord r = per_thread[th][next[th]++];
    r.block = static_cast<std::uint32_t>(th / per_block);
    r.thread = static_cast<std::uint16_t>(th % per_block);
    r.pc = 0x100 + next[th] * 16;
    raw.records.push_back(r);
    if (next[th] == per_thread[th].size()) live.erase(live.begin() + pick);
  }
  raw.records_needed = raw.capacity = raw.records.size();
  return raw;
}

AssembleOptions square(int size) {
  AssembleOptions o;
  o.m = o.n = o.k = size;
  return o;
}

TEST(TracerAssemble, TheEmulatorsTiledTraceComesBackEventForEvent) {
  const Trace want = emulator_tiled(8, 32);
  const RawLaunch raw = raw_from_trace(want, 1);
  AssembleReport report;
  const Trace got = assemble_trace(raw, square(32), &report);

  EXPECT_EQ(got.launch.kernel, "tiled_kernel");
  EXPECT_EQ(got.launch.grid, want.launch.grid);
  EXPECT_EQ(got.launch.block, want.launch.block);
  ASSERT_EQ(got.launch.buffers.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    Buffer b = want.launch.buffers[i];
    b.base = kBase[i];
    EXPECT_EQ(got.launch.buffers[i], b) << i;
  }
  EXPECT_EQ(got.launch.regions, want.launch.regions);
  const IterationRule& g = got.launch.iteration_rule;
  const IterationRule& w = want.launch.iteration_rule;
  EXPECT_EQ(g.barriers_per_iteration, w.barriers_per_iteration);
  EXPECT_EQ(g.tile, w.tile);
  EXPECT_EQ(g.iterations, w.iterations);
  EXPECT_EQ(report.shared_base, 0u);
  EXPECT_EQ(report.outside_global + report.outside_shared, 0u);
  EXPECT_EQ(got.a, want.a);
  EXPECT_EQ(got.b, want.b);
  EXPECT_EQ(got.c, want.c);
  ASSERT_EQ(got.thread_offsets, want.thread_offsets);
  ASSERT_EQ(got.events.size(), want.events.size());
  for (std::size_t i = 0; i < got.events.size(); ++i) {
    const Event& x = got.events[i];
    const Event& y = want.events[i];
    ASSERT_TRUE(x.array == y.array && x.index == y.index && x.flags == y.flags && x.width == y.width &&
                x.async == y.async && x.epoch == y.epoch && x.iter == y.iter && x.value == y.value)
        << "event " << i << ": array " << int(x.array) << "/" << int(y.array) << " index " << x.index << "/"
        << y.index << " epoch " << x.epoch << "/" << y.epoch << " iter " << x.iter << "/" << y.iter << " value "
        << x.value << "/" << y.value;
  }
  EXPECT_NO_THROW(validate_trace(got, 1ull << 40));
}

// The launch's TracerInfo: the launches, the demangled name, and only the
// limits that apply (the tiled kernel reads every element of A and B and
// stores every element of C); it survives the launch description's JSON.
TEST(TracerAssemble, TheLaunchSaysWhereItCameFromAndWhatWasNotSeen) {
  const Trace want = emulator_tiled(4, 8);
  RawLaunch raw = raw_from_trace(want, 4);
  raw.launches.push_back("_Z6reducePf");  // a launch after the traced one (written again at exit)
  const Trace got = assemble_trace(raw, square(8));
  ASSERT_TRUE(got.launch.traced());
  const TracerInfo& t = *got.launch.tracer;
  EXPECT_EQ(t.source, "exec");
  EXPECT_EQ(t.symbol, "tiled_kernel(float const*, float const*, float*, int, int, int)");
  EXPECT_EQ(t.launches, (std::vector<std::string>{"warmup", "tiled_kernel", "reduce"}));
  EXPECT_EQ(t.launch_index, 1u);
  ASSERT_EQ(t.limits.size(), 1u) << t.limits.front();
  EXPECT_NE(t.limits[0].find("a shared load's value is the last one stored"), std::string::npos);
  EXPECT_EQ(launch_from_json(launch_to_json(got.launch)).tracer, got.launch.tracer);

  // Half of A never read, C's stores going to a workspace instead: both said, with the numbers.
  raw = raw_from_trace(want, 4);
  raw.allocations.push_back({0x7f0000900000ull, 4096, ""});
  std::erase_if(raw.records, [](const RawRecord& r) {
    return r.kind == kRecordGlobal && r.address >= kBase[0] && r.address < kBase[0] + 32 * 4;
  });
  for (RawRecord& r : raw.records)
    if (r.kind == kRecordGlobal && r.address >= kBase[2] && r.access == kAccessStore)
      r.address = 0x7f0000900000ull + (r.address - kBase[2]);
  raw.records_needed = raw.capacity = raw.records.size();
  const Trace partial = assemble_trace(raw, square(8));
  const auto& limits = partial.launch.tracer->limits;
  ASSERT_GE(limits.size(), 3u);
  EXPECT_NE(limits[0].find("32 elements of A (of 64) were never seen read: copies by the Tensor Memory Accelerator"),
            std::string::npos)
      << limits[0];
  EXPECT_NE(limits[1].find("64 elements of C (of 64) were not stored by this launch: it stored 64 values to other "
                           "buffers (named partials), partial sums that another launch reduces into C (split-k)"),
            std::string::npos)
      << limits[1];
  ASSERT_EQ(partial.launch.buffers.size(), 4u);
  EXPECT_EQ(partial.launch.buffers[3].name, "partials");

  // The same workspace named by the program: kept as named, and the sentence does not say "(named partials)".
  raw.allocations.back().name = "workspace";
  const Trace named = assemble_trace(raw, square(8));
  ASSERT_EQ(named.launch.buffers.size(), 4u);
  EXPECT_EQ(named.launch.buffers[3].name, "workspace");
  const auto& named_limits = named.launch.tracer->limits;
  ASSERT_GE(named_limits.size(), 2u);
  EXPECT_NE(named_limits[1].find("it stored 64 values to other buffers, partial sums that another launch reduces"),
            std::string::npos)
      << named_limits[1];
}

TEST(TracerAssemble, AnotherInterleavingGivesTheSameTrace) {
  const Trace want = emulator_tiled(4, 8);
  const Trace one = assemble_trace(raw_from_trace(want, 2), square(8));
  const Trace two = assemble_trace(raw_from_trace(want, 3), square(8));
  ASSERT_EQ(one.events.size(), two.events.size());
  EXPECT_EQ(0, std::memcmp(one.events.data(), two.events.data(), one.events.size() * sizeof(Event)));
}

TEST(TracerAssemble, AnOverflowedLogIsRefusedWithItsNumbers) {
  RawLaunch raw = raw_from_trace(emulator_tiled(4, 8), 1);
  raw.capacity = 100;
  raw.records.resize(100);
  try {
    assemble_trace(raw, square(8));
    FAIL() << "an overflowed log was assembled";
  } catch (const AssembleError& e) {
    EXPECT_EQ(e.kind(), AssembleError::Kind::Overflow);
    const std::string what = e.what();
    EXPECT_NE(what.find(std::to_string(raw.records_needed)), std::string::npos) << what;
    EXPECT_NE(what.find("capacity of 100"), std::string::npos) << what;
  }
}

TEST(TracerAssemble, AccessesOutsideEveryAllocationAndRegionAreCountedAndListed) {
  const Trace t = emulator_tiled(4, 8);
  RawLaunch raw = raw_from_trace(t, 1);
  raw.records.push_back(access(kRecordGlobal, 0xdead0000, kAccessLoad, 4));
  raw.records.push_back(access(kRecordShared, 0x7000, kAccessLoad, 4));  // past the static regions: "dynamic"
  raw.records.push_back(access(kRecordGlobal, kBase[0] - 4, kAccessStore, 4));
  raw.records_needed = raw.capacity = raw.records.size();
  AssembleReport report;
  const Trace got = assemble_trace(raw, square(8), &report);
  EXPECT_EQ(report.outside_global, 2u);
  EXPECT_EQ(report.outside_global_addresses, (std::vector<std::uint64_t>{0xdead0000, kBase[0] - 4}));
  EXPECT_EQ(got.launch.regions.back().name, "dynamic");  // the rest of the window the launch touched
  EXPECT_TRUE(got.launch.regions.back().raw);
  bool listed = false;
  for (const std::string& line : report.lines()) listed |= line.find("0xdead0000") != std::string::npos;
  EXPECT_TRUE(listed);
  EXPECT_NO_THROW(validate_trace(got, 1ull << 40));
}

// One thread of one block: the smallest launch, for hand-written records.
RawLaunch one_thread(int size) {
  Trace t;
  t.launch.grid = t.launch.block = Dim3{};
  t.a.assign(std::size_t(size) * size, 1.5f);
  t.b.assign(std::size_t(size) * size, 2.5f);
  t.c.assign(std::size_t(size) * size, 3.5f);
  return skeleton(t);
}

TEST(TracerAssemble, SharedSymbolsBecomeNamedRegionsAtTheBaseTheAccessesSay) {
  RawLaunch raw = one_thread(8);
  raw.shared_symbols = {{"_ZZ6kernelPfE4tile", 0, 4096}, {"scratch", 4096, 120}};
  // Accesses at window offset 1024 + symbol offset: the reserved first KiB of sm_80 and later.
  raw.records = {access(kRecordShared, 1024 + 4 * 33, kAccessStore, 4), access(kRecordShared, 1024 + 4096 + 8, kAccessLoad, 4),
                 access(kRecordGlobal, kBase[2], kAccessStore, 4)};
  raw.records_needed = raw.capacity = raw.records.size();
  AssembleReport report;
  const Trace got = assemble_trace(raw, square(8), &report);
  EXPECT_EQ(report.shared_base, 1024u);
  ASSERT_EQ(got.launch.regions.size(), 2u);
  const Region& tile = got.launch.regions[0];
  EXPECT_EQ(tile.name, "tile");
  EXPECT_EQ(tile.offset, 1024u);
  EXPECT_EQ(tile.rows, 32u);  // 1024 words: 32 x 32
  EXPECT_EQ(tile.cols, 32u);
  const Region& scratch = got.launch.regions[1];
  EXPECT_EQ(scratch.name, "scratch");
  EXPECT_EQ(scratch.rows, 1u);  // 30 words: one row
  EXPECT_EQ(scratch.cols, 30u);
  ASSERT_EQ(got.events.size(), 3u);
  EXPECT_EQ(got.events[0].array, 3);
  EXPECT_EQ(got.events[0].index, 33u);
  EXPECT_EQ(got.events[1].array, 4);
  EXPECT_EQ(got.events[1].index, 2u);
  EXPECT_EQ(got.events[2].value, 3.5f) << "a store without its value takes C's after the launch";
  EXPECT_NO_THROW(validate_trace(got, 1ull << 40));
}

TEST(TracerAssemble, CpAsyncIsAnAsyncGlobalLoadAndSharedStoreAndVectorsAreOneEventPerFloat) {
  RawLaunch raw = one_thread(8);
  raw.shared_symbols = {{"sa", 0, 256}};
  RawRecord copy = access(kRecordCpAsync, kBase[0] + 16, 0, 16);  // A[4..7] -> sa words 4..7
  copy.aux = 16;
  RawRecord fill = access(kRecordCpAsync, 0, 0, 8);  // zero-fill of sa words 8, 9
  fill.aux = 32;
  RawRecord wait = access(kRecordPipelineWait, 0, 0, 0);
  RawRecord bar = access(kRecordBarrier, 0, 0, 0);
  RawRecord read = access(kRecordShared, 16, kAccessLoad, 16);
  raw.records = {copy, fill, wait, bar, read, access(kRecordLocal, 8, kAccessStore, 4)};
  raw.records_needed = raw.capacity = raw.records.size();
  AssembleReport report;
  const Trace got = assemble_trace(raw, square(8), &report);
  ASSERT_EQ(got.events.size(), 4u + 4u + 2u + 4u);
  for (int i = 0; i < 4; ++i) {
    const Event& g = got.events[i];
    EXPECT_TRUE(g.array == 0 && g.index == 4u + i && g.op() == Op::Load && g.is_async() && g.width == 2) << i;
    EXPECT_EQ(g.value, 1.5f);
    const Event& s = got.events[4 + i];
    EXPECT_TRUE(s.array == 3 && s.index == 4u + i && s.op() == Op::Store && s.is_async() && s.space() == Space::Shared);
    const Event& r = got.events[10 + i];
    EXPECT_TRUE(r.array == 3 && r.index == 4u + i && r.op() == Op::Load && r.epoch == 1 && r.width == 2) << i;
    EXPECT_EQ(r.value, 1.5f) << "a shared load takes the value copied in before the barrier";
  }
  EXPECT_TRUE(got.events[8].is_padding());
  EXPECT_TRUE(got.events[9].is_padding());
  EXPECT_EQ(report.local, 1u);
  EXPECT_EQ(report.waits, 1u);
  EXPECT_EQ(report.cp_async, 2u);
  EXPECT_NO_THROW(validate_trace(got, 1ull << 40));
}

TEST(TracerAssemble, OtherAllocationsTouchedBecomeBuffersOfRoleOther) {
  RawLaunch raw = one_thread(8);
  raw.allocations.push_back({0x7f0000900000ull, 4096, ""});
  raw.allocations.push_back({0x7f0000a00000ull, 64, "bias"});
  raw.allocations.push_back({0x7f0000b00000ull, 64, ""});  // untouched: no buffer
  raw.records = {access(kRecordGlobal, 0x7f0000900000ull + 40, kAccessStore, 4),
                 access(kRecordGlobal, 0x7f0000a00000ull, kAccessAtomic, 4)};
  raw.records_needed = raw.capacity = raw.records.size();
  AssembleReport report;
  const Trace got = assemble_trace(raw, square(8), &report);
  ASSERT_EQ(got.launch.buffers.size(), 5u);
  EXPECT_EQ(got.launch.buffers[3].name, "alloc3");
  EXPECT_EQ(got.launch.buffers[3].role, BufferRole::Other);
  EXPECT_EQ(got.launch.buffers[3].cols, 1024u);
  EXPECT_EQ(got.launch.buffers[4].name, "bias");
  EXPECT_EQ(got.events[0].index, 10u);
  EXPECT_EQ(report.atomics, 1u);
  EXPECT_NO_THROW(validate_trace(got, 1ull << 40));
}

TEST(TracerAssemble, OperandsFoundBySizeAndNamedExplicitly) {
  RawLaunch raw = one_thread(8);
  AssembleOptions o;
  o.m = 8, o.n = 4, o.k = 8;  // C and B are 8 x 4 now: only A (8 x 8) has a candidate of its size
  try {
    assemble_trace(raw, o);
    FAIL();
  } catch (const AssembleError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.kind(), AssembleError::Kind::Operands);
    EXPECT_NE(what.find("no allocation is C (8 x 4 floats, 128 bytes)"), std::string::npos) << what;
    EXPECT_NE(what.find("tiled_kernel  (traced)"), std::string::npos) << what;
    EXPECT_NE(what.find("2: 0x7f0000300000, 256 bytes"), std::string::npos) << what;
  }
  // Named: B and A swapped.
  AssembleOptions named = square(8);
  named.a_allocation = 1;
  named.b_allocation = 0;
  raw.records = {access(kRecordGlobal, kBase[0], kAccessLoad, 4)};
  raw.records_needed = raw.capacity = 1;
  const Trace got = assemble_trace(raw, named);
  EXPECT_EQ(got.events[0].array, 1) << "allocation 0 is B when named so";
  EXPECT_EQ(got.launch.buffers[0].base, kBase[1]);
}

TEST(TracerAssemble, ColumnMajorOperandsAsCublasHasThem) {
  RawLaunch raw = one_thread(8);
  raw.records = {access(kRecordGlobal, kBase[0] + 4 * 9, kAccessLoad, 4)};
  raw.records_needed = raw.capacity = 1;
  AssembleOptions o = square(8);
  o.order = MatrixOrder::ColMajor;
  const Trace got = assemble_trace(raw, o);
  EXPECT_EQ(got.launch.buffers[0].order, MatrixOrder::ColMajor);
  EXPECT_EQ(got.launch.coord(0, got.events[0].index), (MatrixCoord{1, 1}));
  EXPECT_NO_THROW(validate_trace(got, 1ull << 40));
}

TEST(TracerAssemble, NoTracedLaunchListsTheKernelsThatRan) {
  RawLaunch raw = one_thread(8);
  raw.traced = false;
  try {
    assemble_trace(raw, square(8));
    FAIL();
  } catch (const AssembleError& e) {
    EXPECT_EQ(e.kind(), AssembleError::Kind::NotTraced);
    EXPECT_NE(std::string(e.what()).find("0: warmup"), std::string::npos) << e.what();
  }
}

TEST(TracerAssemble, ARecordOfAThreadOutsideTheLaunchIsMalformed) {
  RawLaunch raw = one_thread(8);
  RawRecord r = access(kRecordGlobal, kBase[0], kAccessLoad, 4);
  r.thread = 1;
  raw.records = {r};
  raw.records_needed = raw.capacity = 1;
  EXPECT_THROW(assemble_trace(raw, square(8)), AssembleError);
}

TEST(TracerAssemble, ShortSymbolNames) {
  EXPECT_EQ(short_symbol_name("_ZZ6kernelPfE4tile"), "tile");
  EXPECT_EQ(short_symbol_name("_ZN2ts3gpu12plain_kernelILi1ELi16EEEvPKfS3_Pfiii"), "plain_kernel");
  EXPECT_EQ(short_symbol_name("sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize32x32x8_stage3", 20),
            "sm80_xmma_gemm_f32f3");
  // Past 32 characters a long name keeps its head and its tail: a family's kernels differ at the end.
  const std::string gemm = "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize32x32x8_stage3_warpsize1x2x1_ffma_aligna4_"
                           "alignc4_execute_kernel__5x_cublas";
  const std::string split = "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize32x32x8_stage3_warpsize1x2x1_ffma_aligna4_"
                            "alignc4_execute_split_k_kernel__5x_cublas";
  EXPECT_EQ(short_symbol_name(gemm), "sm80_xmma_gemm_f32f32_f32f32_f32-ignc4_execute_kernel__5x_cublas");
  EXPECT_EQ(short_symbol_name(split), "sm80_xmma_gemm_f32f32_f32f32_f32-ecute_split_k_kernel__5x_cublas");
  EXPECT_EQ(short_symbol_name(gemm).size(), 64u);
  EXPECT_EQ(short_symbol_name(""), "kernel");
  // CUTLASS's generic wrapper (what cuBLAS launches at some shapes) is named by the operation it runs.
  EXPECT_EQ(short_symbol_name("_ZN7cutlass7Kernel2I41cutlass_80_simt_sgemm_64x64_8x5_nn_align1EEvNT_6ParamsE"), "cutlass_80_simt_sgemm_64x64_8x5_nn_align1");
  EXPECT_EQ(short_symbol_name("void cutlass::Kernel2<foo::bar<3>, int>(int)"), "bar");
}

}  // namespace
}  // namespace ts::tracer
