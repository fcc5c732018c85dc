// A user kernel on the GPU: NVRTC compiles it in the recorded mode, the driver
// API runs it. A copy of kernels/tiled.h records, event for event, the trace
// of the built-in tiled kernel on the GPU, and the emulator's trace of the
// same file (C's values within float rounding). The compile cases need
// libnvrtc only; the recordings need a GPU.
#include <gtest/gtest.h>

#include <cstring>

#include "trace/model/reference.h"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/cuda/user_kernel_gpu.h"
#include "kernels/recorder.h"
#include "tests/kernels/event_equality.h"
#include "tests/kernels/user_kernel_support.h"

namespace ts {
namespace {

TEST(UserKernelNvrtc, SyntaxErrorNamesTheUsersFileAndLine) {
  test::use_test_kernel_cache();
  const std::string file = test::source_tree() + "/tests/kernels/data/syntax_error.cu";
  try {
    gpu::compile_for_gpu(*test::user_params(file, "broken", 4, 8, 8, 8).user, 90);
    ADD_FAILURE() << "NVRTC compiled a syntax error";
  } catch (const UserKernelError& e) {
    EXPECT_EQ(e.kind(), UserKernelError::Kind::Compile);
    EXPECT_NE(std::string(e.what()).find(file + "(5)"), std::string::npos) << e.what();
  }
}

TEST(UserKernelNvrtc, TiledCopyCompilesAndIsCached) {
  test::use_test_kernel_cache();
  const UserKernelSpec spec = *test::user_params(test::tiled_copy_file(), "matmul_tiled", 16, 8, 8, 8).user;
  gpu::compile_for_gpu(spec, 90);
  EXPECT_TRUE(gpu::compile_for_gpu(spec, 90).cached);
}

// The scalars after M, N, K reach NVRTC's build as literals (TS_USER_RECORDED_KERNEL's arguments after the entry).
TEST(UserKernelNvrtc, ScalarArgsCompile) {
  test::use_test_kernel_cache();
  UserKernelSpec sgemm = *test::user_params(test::example_file("sgemm_alpha_beta.cu"), "sgemm", 16, 8, 8, 8).user;
  sgemm.args = {"alpha=2", "beta=0.5"};
  EXPECT_TRUE(gpu::compile_for_gpu(sgemm, 90).c_starts_zero);
  UserKernelSpec ld = *test::user_params(test::source_tree() + "/tests/kernels/data/leading_dim_user.cu", "matmul_ld",
                                         8, 8, 8, 8).user;
  ld.args = {"lda=8"};
  EXPECT_FALSE(gpu::compile_for_gpu(ld, 90).c_starts_zero);
}

class UserKernelGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    test::use_test_kernel_cache();
    const gpu::DeviceStatus st = gpu::probe();
    if (!st.available) GTEST_SKIP() << st.reason;
  }
};

TEST_F(UserKernelGpu, TiledCopyEqualsTheBuiltInTiledAndTheEmulator) {
  for (const auto [m, n, k] : {std::array{64, 64, 64}, std::array{37, 29, 45}, std::array{50, 70, 33}}) {
    for (int tile : {8, 16}) {
      RecordParams user = test::user_params(test::tiled_copy_file(), "matmul_tiled", tile, m, n, k);
      user.device = DeviceChoice::Gpu;
      RecordParams own = user;
      own.user.reset();
      own.kernel = KernelKind::Tiled;
      own.tile = tile;
      RecordParams emulated = user;
      emulated.device = DeviceChoice::Cpu;
      const Trace on_gpu = record(user), builtin = record(own), emu = record(emulated);
      SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + " TILE " +
                   std::to_string(tile));
      EXPECT_EQ(on_gpu.launch.recorder, "gpu");
      EXPECT_EQ(check_matmul(on_gpu.a, on_gpu.b, on_gpu.c, m, n, k), "");
      // Every event equal; C's values within float rounding (NVRTC and nvcc need not
      // contract the same multiply-adds, and the emulator rounds each one).
      EXPECT_EQ(on_gpu.thread_offsets, builtin.thread_offsets);
      EXPECT_EQ(on_gpu.thread_offsets, emu.thread_offsets);
      ASSERT_NO_FATAL_FAILURE(test::expect_same_events(on_gpu, builtin, 1e-5f));
      ASSERT_NO_FATAL_FAILURE(test::expect_same_events(on_gpu, emu, 1e-5f));
      const ArrayLayout& as = on_gpu.launch.array(ArrayId::As);
      EXPECT_EQ(as.rows, static_cast<std::uint32_t>(tile));
      EXPECT_EQ(as.cols, static_cast<std::uint32_t>(tile));
      EXPECT_EQ(std::memcmp(&on_gpu.launch.iteration_rule, &emu.launch.iteration_rule, sizeof(IterationRule)), 0);
    }
  }
}

// Regions named freely (sa, sb and the staged output tile sc): the GPU's
// recording names them as the emulator does, with the same shapes, and every
// event is equal.
TEST_F(UserKernelGpu, FreelyNamedRegionsEqualTheEmulatorEventForEvent) {
  for (const auto [m, n, k] : {std::array{16, 16, 16}, std::array{37, 29, 45}}) {
    RecordParams gpu = test::user_params(test::example_file("staged_output.cu"), "matmul_staged", 8, m, n, k);
    gpu.device = DeviceChoice::Gpu;
    RecordParams cpu = gpu;
    cpu.device = DeviceChoice::Cpu;
    const Trace on_gpu = record(gpu), emu = record(cpu);
    SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k));
    EXPECT_EQ(on_gpu.launch.recorder, "gpu");
    EXPECT_EQ(check_matmul(on_gpu.a, on_gpu.b, on_gpu.c, m, n, k), "");
    ASSERT_EQ(on_gpu.launch.regions.size(), 3u);
    for (std::size_t r = 0; r < 3; ++r) {
      EXPECT_EQ(on_gpu.launch.regions[r].name, emu.launch.regions[r].name);
      EXPECT_EQ(on_gpu.launch.regions[r].rows, emu.launch.regions[r].rows);
      EXPECT_EQ(on_gpu.launch.regions[r].cols, emu.launch.regions[r].cols);
      // (Their offsets are where the compiler put them on the GPU, in any order.)
    }
    EXPECT_EQ(on_gpu.thread_offsets, emu.thread_offsets);
    // sc holds C's sums: within float rounding, as C's are.
    const std::uint32_t sc = *emu.launch.find_memory("sc");
    ASSERT_NO_FATAL_FAILURE(test::expect_same_events(on_gpu, emu, 1e-5f, nullptr, {sc}));
  }
}

// A blog's SGEMM listing with alpha and beta (C starts at 0 on both: beta C
// adds nothing), and a leading dimension used for indexing with a defaulted
// alpha: the GPU's recording equals the emulator's event for event, C within
// float rounding, and C is alpha A x B.
TEST_F(UserKernelGpu, ScalarArgsEqualTheEmulatorEventForEvent) {
  struct Case {
    std::string file, entry;
    std::vector<std::string> args;
    double alpha;
  };
  const Case cases[] = {
      {test::example_file("sgemm_alpha_beta.cu"), "sgemm", {"alpha=2", "beta=0.5"}, 2.0},
      {test::source_tree() + "/tests/kernels/data/leading_dim_user.cu", "matmul_ld", {"lda=45"}, 1.0},
      {test::source_tree() + "/tests/kernels/data/leading_dim_user.cu", "matmul_ld", {"lda=45", "alpha=-0.5"}, -0.5},
  };
  for (const Case& c : cases) {
    RecordParams gpu = test::user_params(c.file, c.entry, 16, 37, 29, 45);
    gpu.user->args = c.args;
    gpu.device = DeviceChoice::Gpu;
    RecordParams cpu = gpu;
    cpu.device = DeviceChoice::Cpu;
    const Trace on_gpu = record(gpu), emu = record(cpu);
    SCOPED_TRACE(c.entry + " " + c.args.back());
    EXPECT_EQ(on_gpu.launch.recorder, "gpu");
    EXPECT_EQ(check_matmul(on_gpu.a, on_gpu.b, on_gpu.c, 37, 29, 45, c.alpha), "");
    ASSERT_TRUE(on_gpu.launch.user_kernel);
    EXPECT_EQ(on_gpu.launch.user_kernel->args, c.args);
    EXPECT_EQ(on_gpu.thread_offsets, emu.thread_offsets);
    ASSERT_NO_FATAL_FAILURE(test::expect_same_events(on_gpu, emu, 1e-5f));
  }
}

TEST_F(UserKernelGpu, OutOfBoundsIsReported) {
  RecordParams p = test::user_params(test::example_file("missing_bounds_check.cu"), "matmul_tiled", 16, 50, 50, 50);
  p.device = DeviceChoice::Gpu;
  try {
    record(p);
    ADD_FAILURE() << "recorded an out-of-bounds kernel without a word";
  } catch (const RecordError& e) {
    EXPECT_EQ(e.kind(), RecordError::Kind::GpuFailed) << e.what();
    EXPECT_NE(std::string(e.what()).find("outside its arrays"), std::string::npos) << e.what();
  }
}

// Past what a trace holds, on the GPU as on the emulator: too large (the
// CLI's exit 1), not a GPU fault. TILE 2 at K = 8192 makes 8192 barriers (an
// event counts 4095); a recording limit of 1000 events at 64^3 is passed.
TEST_F(UserKernelGpu, PastWhatATraceHoldsIsTooLarge) {
  RecordParams barriers = test::user_params(test::tiled_copy_file(), "matmul_tiled", 2, 1, 1, 8192);
  barriers.device = DeviceChoice::Gpu;
  std::string what = test::record_error(barriers, RecordError::Kind::TooLarge);
  EXPECT_NE(what.find("more barriers than a trace can hold"), std::string::npos) << what;
  RecordParams big = test::user_params(test::tiled_copy_file(), "matmul_tiled", 8, 64, 64, 64);
  big.device = DeviceChoice::Gpu;
  big.event_limit = 1000;
  what = test::record_error(big, RecordError::Kind::TooLarge);
  EXPECT_NE(what.find("more than the recording limit of 1000 events"), std::string::npos) << what;
  big.event_limit = 0;  // the default limit: it records
  const Trace t = record(big);
  EXPECT_EQ(check_matmul(t.a, t.b, t.c, 64, 64, 64), "");
}

}  // namespace
}  // namespace ts
