// A kernel the user wrote is compiled with the system compiler, recorded on
// the emulator and held to what tilescope's own kernels are held to. Every
// case shares the compiled objects through the build tree's cache.
#include <gtest/gtest.h>

#include <cstring>

#include "app/core/analysis/memory_stats.h"
#include "trace/model/reference.h"
#include "kernels/catalog.h"
#include "kernels/recorder.h"
#include "kernels/user/cpu_compiler.h"
#include "tests/kernels/user_kernel_support.h"

namespace ts {
namespace {

class UserKernel : public ::testing::Test {
 protected:
  void SetUp() override { test::use_test_kernel_cache(); }
};

TEST_F(UserKernel, TiledCopyIsRightAtARaggedSize) {
  const RecordParams p = test::user_params(test::tiled_copy_file(), "matmul_tiled", 8, 37, 29, 45);
  const Trace t = record(p);
  EXPECT_EQ(check_matmul(t.a, t.b, t.c, p.m, p.n, p.k), "");
  ASSERT_TRUE(t.launch.user_kernel);
  EXPECT_EQ(t.launch.user_kernel->entry, "matmul_tiled");
  EXPECT_EQ(t.launch.grid, (Dim3{4, 5, 1}));  // ceil(29 / 8) x ceil(37 / 8)
  const ArrayLayout& as = t.launch.array(ArrayId::As);
  EXPECT_TRUE(as.present);
  EXPECT_EQ(as.rows, 8u);
  EXPECT_EQ(as.cols, 8u);
  EXPECT_EQ(t.launch.iteration_rule.barriers_per_iteration, 2u);  // derived from its barriers
  EXPECT_EQ(t.launch.iteration_rule.iterations, 6u);              // ceil(45 / 8)
}

// A kernel whose shared arrays have names of its own, three of them, the
// third the block's tile of C staged through shared memory (transposed): the
// regions carry its names, places and shapes; every access lands in its
// region at the row and column the source wrote; the banks and wavefronts are
// the hand count (examples/kernels/staged_output.cu's comment says why).
TEST_F(UserKernel, FreelyNamedRegionsIncludingAStagedOutputTile) {
  const RecordParams p = test::user_params(test::example_file("staged_output.cu"), "matmul_staged", 8, 16, 16, 16);
  const Trace t = record(p);
  EXPECT_EQ(check_matmul(t.a, t.b, t.c, p.m, p.n, p.k), "");
  const LaunchInfo& L = t.launch;
  ASSERT_EQ(L.buffers.size(), 3u);
  ASSERT_EQ(L.regions.size(), 3u);
  const char* names[] = {"sa", "sb", "sc"};
  for (std::uint32_t r = 0; r < 3; ++r) {
    EXPECT_EQ(L.regions[r].name, names[r]);
    EXPECT_EQ(L.regions[r].offset, 256 * r);  // 8 x 8 floats each, in declaration order
    EXPECT_EQ(L.regions[r].rows, 8u);
    EXPECT_EQ(L.regions[r].cols, 8u);
    EXPECT_EQ(L.memory_name(L.region_id(r)), names[r]);
  }
  const std::uint32_t sa = *L.find_memory("sa"), sb = *L.find_memory("sb"), sc = *L.find_memory("sc");
  // Thread (tx, ty) stores sa[ty][tx], sb[ty][tx] and sc[tx][ty], and reads sc[tx][ty].
  std::uint64_t checked = 0;
  for (std::uint64_t th = 0; th < t.thread_count(); ++th) {
    const ThreadCoord c = t.thread_coord(th);
    for (const Event& e : t.thread_events(th)) {
      ASSERT_EQ(e.space() == Space::Shared, L.is_region(e.array));
      const MatrixCoord at = L.coord(e.array, e.index);
      if (e.op() == Op::Store && (e.array == sa || e.array == sb)) {
        EXPECT_EQ(at, (MatrixCoord{c.thread.y, c.thread.x}));
        ++checked;
      } else if (e.array == sc) {
        EXPECT_EQ(at, (MatrixCoord{c.thread.x, c.thread.y}));
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 256u * (2 * 2 + 2));  // 256 threads: 2 iterations of two stores, sc's store and load
  // By hand: 4 blocks of 2 warps. A warp's sa and sb stores (4 rows of 8
  // consecutive words) take one wavefront; its reads of sa[ty][k] (4 words of
  // 4 banks, broadcast) and sb[k][tx] (8 consecutive words) one each, 8 per
  // iteration; sc[tx][ty] puts lanes tx and tx + 4 (32 words apart) in the same
  // bank: 2 wavefronts, 1 conflict, for its store and its load.
  const MemoryStats s = analyze_memory(t, 1);
  const auto expect = [&](std::uint32_t id, Op op, std::uint64_t requests, std::uint64_t wavefronts, std::uint64_t conflicts) {
    const AccessTotals& a = s.by_array[id][static_cast<int>(op)];
    EXPECT_EQ(a.requests, requests) << L.memory_name(id) << " " << op_name(op);
    EXPECT_EQ(a.wavefronts, wavefronts) << L.memory_name(id) << " " << op_name(op);
    EXPECT_EQ(a.bank_conflicts, conflicts) << L.memory_name(id) << " " << op_name(op);
  };
  expect(sa, Op::Store, 16, 16, 0);
  expect(sb, Op::Store, 16, 16, 0);
  expect(sa, Op::Load, 128, 128, 0);
  expect(sb, Op::Load, 128, 128, 0);
  expect(sc, Op::Store, 8, 16, 8);
  expect(sc, Op::Load, 8, 16, 8);
}

// The same source, as the catalog's kernel and as a user's file: the same trace.
TEST_F(UserKernel, TiledCopyEqualsTheBuiltInTiledEventForEvent) {
  for (const auto [m, n, k] : {std::array{64, 64, 64}, std::array{37, 29, 45}}) {
    const RecordParams user = test::user_params(test::tiled_copy_file(), "matmul_tiled", 16, m, n, k);
    RecordParams own = user;
    own.user.reset();
    own.kernel = KernelKind::Tiled;
    own.tile = 16;
    const Trace a = record(own), b = record(user);
    ASSERT_EQ(a.thread_offsets, b.thread_offsets);
    ASSERT_EQ(a.events.size(), b.events.size());
    EXPECT_EQ(std::memcmp(a.events.data(), b.events.data(), a.events.size() * sizeof(Event)), 0);
    EXPECT_EQ(a.c, b.c);
    EXPECT_EQ(a.launch.grid, b.launch.grid);
    for (int arr = 0; arr < kArrayCount; ++arr) {
      EXPECT_EQ(a.launch.array(ArrayId(arr)).rows, b.launch.array(ArrayId(arr)).rows) << arr;
      EXPECT_EQ(a.launch.array(ArrayId(arr)).cols, b.launch.array(ArrayId(arr)).cols) << arr;
      EXPECT_EQ(a.launch.array(ArrayId(arr)).base, b.launch.array(ArrayId(arr)).base) << arr;
    }
    const IterationRule &ra = a.launch.iteration_rule, &rb = b.launch.iteration_rule;
    EXPECT_EQ(std::memcmp(&ra, &rb, sizeof ra), 0);
  }
}

TEST_F(UserKernel, SecondCompileComesFromTheCache) {
  const RecordParams p = test::user_params(test::tiled_copy_file(), "matmul_tiled", 8, 8, 8, 8);
  compile_for_emulator(*p.user);
  const CompiledCpuKernel again = compile_for_emulator(*p.user);
  EXPECT_TRUE(again.cached);
  EXPECT_NE(again.entry, nullptr);
}

TEST_F(UserKernel, SyntaxErrorNamesTheUsersFileAndLine) {
  const std::string file = test::source_tree() + "/tests/kernels/data/syntax_error.cu";
  const std::string what = test::record_error(test::user_params(file, "broken", 4, 8, 8, 8), RecordError::Kind::KernelCompile);
  EXPECT_NE(what.find(file + ":5:"), std::string::npos) << what;
  EXPECT_EQ(what.find("<tilescope wrapper>:"), std::string::npos) << what;  // no error in tilescope's own lines
}

TEST_F(UserKernel, MissingEntryIsSaidSo) {
  const std::string what = test::record_error(test::user_params(test::tiled_copy_file(), "matmul_tiling", 8, 8, 8, 8),
                                        RecordError::Kind::KernelCompile);
  EXPECT_NE(what.find("defines no kernel matmul_tiling("), std::string::npos) << what;
}

TEST_F(UserKernel, MissingCompilerIsSaidSo) {
  setenv("TILESCOPE_CXX", "/nonexistent/c++", 1);
  const std::string what = test::record_error(test::user_params(test::tiled_copy_file(), "matmul_tiled", 8, 8, 8, 8),
                                        RecordError::Kind::KernelUnavailable);
  unsetenv("TILESCOPE_CXX");
  EXPECT_NE(what.find("no C++ compiler"), std::string::npos) << what;
}

TEST_F(UserKernel, WrongResultNamesTheWorstCell) {
  const RecordParams p = test::user_params(test::example_file("missing_barrier.cu"), "matmul_tiled", 16, 64, 64, 64);
  const Trace t = record(p);  // it runs: only its result is wrong
  const std::string wrong = check_matmul(t.a, t.b, t.c, p.m, p.n, p.k);
  EXPECT_NE(wrong.find("but A x B gives"), std::string::npos) << wrong;
  EXPECT_EQ(wrong.rfind("C[", 0), 0u) << wrong;
}

TEST_F(UserKernel, OutOfBoundsStopsTheEmulator) {
  const std::string what =
      test::record_error(test::user_params(test::example_file("missing_bounds_check.cu"), "matmul_tiled", 16, 50, 50, 50),
                   RecordError::Kind::EmulatorFailed);
  EXPECT_NE(what.find("access outside"), std::string::npos) << what;
}

// A block of 16 x 16 threads over TILE 8 tiles: thread (8, 0) writes As[0][8],
// past the 8 x 8 tile the kernel declared; the finding says that shape.
TEST_F(UserKernel, OutOfBoundsFindingNamesTheDeclaredTileShape) {
  RecordParams p = test::user_params(test::example_file("first_tiled.cu"), "matmul_tiled", 8, 16, 16, 16);
  p.user->block = {16, 16, 1};
  p.check.mode = emu::CheckMode::Continue;
  emu::CheckReport report;
  record(p, &report);
  ASSERT_FALSE(report.findings.empty());
  const emu::Finding& f = report.findings.front();
  EXPECT_EQ(f.kind, emu::FindingKind::OutOfBounds);
  EXPECT_NE(f.text.find("As[0][8]"), std::string::npos) << f.text;
  EXPECT_NE(f.text.find("(As is 8 x 8)"), std::string::npos) << f.text;
}

// A user's kernel is counted as compiled too: per warp, the 9 reads of As in
// tests/kernels/data/row_reads_user.cu are 5 loads (one 16-byte load of words
// 0..3, one 8-byte load of 4 and 5, word 7, word 1 read again, and the read
// whose lanes are a row apart).
TEST_F(UserKernel, RowReadsAreCountedAsCompiled) {
  const std::string file = test::source_tree() + "/tests/kernels/data/row_reads_user.cu";
  const RecordParams p = test::user_params(file, "row_reads", 8, 16, 16, 8);
  const Trace t = record(p);
  const MemoryStats s = analyze_memory(t, 1);
  const std::uint64_t warps = 4 * 2;  // 2 x 2 blocks of 2 warps
  const AccessTotals& source = s.by_array[static_cast<int>(ArrayId::As)][static_cast<int>(Op::Load)];
  EXPECT_EQ(source.requests, warps * 9);
  EXPECT_EQ(s.compiled_loads[static_cast<int>(ArrayId::As)].requests, warps * 5);
}

// A user's cp.async copies of 4 bytes cost their writes a wavefront per
// further line of A a warp reads (tests/kernels/data/copy_rows_user.cu): each
// warp's copy of a k-tile reads 4 rows of A, 256 bytes apart (4 lines: 3 more
// wavefronts), and writes As[tx][ty], words 8 tx + ty, which put lanes
// tx and tx + 4 on one bank (2 ways): 5 wavefronts, 4 of them conflicts.
TEST_F(UserKernel, CopiesFromSeveralLinesCostTheirWritesMore) {
  const std::string file = test::source_tree() + "/tests/kernels/data/copy_rows_user.cu";
  const RecordParams p = test::user_params(file, "copy_rows", 8, 16, 16, 64);
  const Trace t = record(p);
  EXPECT_EQ(check_matmul(t.a, t.b, t.c, 16, 16, 64), "");
  const MemoryStats s = analyze_memory(t, 1);
  const std::uint64_t copies = 4 * 2 * (64 / 8);  // 2 x 2 blocks of 2 warps, 8 k-tiles
  const AccessTotals& write = s.by_array[static_cast<int>(ArrayId::As)][static_cast<int>(Op::Store)];
  EXPECT_EQ(write.requests, copies);
  EXPECT_EQ(write.wavefronts, copies * 5);
  EXPECT_EQ(write.bank_conflicts, copies * 4);
  // The reads themselves: 4 lines, 4 sectors each copy.
  const AccessTotals& read = s.by_array[static_cast<int>(ArrayId::A)][static_cast<int>(Op::Load)];
  EXPECT_EQ(read.requests, copies);
  EXPECT_EQ(read.sectors, copies * 4);
}

// Past what a trace holds is the size's fault (TooLarge), not the kernel's: two
// barriers a k-step of 2 pass 4095 barriers before K = 8192; a kernel without
// barriers steps by the block tile's width, 4095 steps at most; and more events
// than the limit.
TEST_F(UserKernel, PastWhatATraceHoldsIsTooLarge) {
  const RecordParams barriers = test::user_params(test::tiled_copy_file(), "matmul_tiled", 2, 1, 1, 8192);
  std::string what = test::record_error(barriers, RecordError::Kind::TooLarge);
  EXPECT_NE(what.find("more than 4095 barriers"), std::string::npos) << what;
  const std::string naive = test::source_tree() + "/tests/kernels/data/naive_user.cu";
  what = test::record_error(test::user_params(naive, "matmul_naive", 2, 3, 3, 8192), RecordError::Kind::TooLarge);
  EXPECT_NE(what.find("make 4096 of them"), std::string::npos) << what;
  const RecordParams p = test::user_params(naive, "matmul_naive", 2, 3, 3, 8190);
  const Trace t = record(p);
  EXPECT_EQ(t.launch.iteration_rule.iterations, 4095u);
  EXPECT_EQ(check_matmul(t.a, t.b, t.c, p.m, p.n, p.k), "");
  RecordParams big = test::user_params(test::tiled_copy_file(), "matmul_tiled", 8, 64, 64, 64);
  big.event_limit = 1000;
  what = test::record_error(big, RecordError::Kind::TooLarge);
  EXPECT_NE(what.find("more than the recording limit of 1000 events"), std::string::npos) << what;
}

TEST(UserKernelSpec, BadDefineIsRefusedBeforeCompiling) {
  RecordParams p = test::user_params("x.cu", "f", 8, 8, 8, 8);
  p.user->defines = {"1TILE=4"};
  EXPECT_THROW(validate(p), RecordError);
}

}  // namespace
}  // namespace ts
