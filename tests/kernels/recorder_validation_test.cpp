// Requests that cannot be recorded are refused up front, with a reason.
#include <gtest/gtest.h>

#include <algorithm>

#include "kernels/catalog.h"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/recorder.h"
#include "tests/kernels/refusal.h"

namespace ts {
namespace {

RecordError::Kind refusal(const RecordParams& p) {
  try {
    validate(p);
  } catch (const RecordError& e) {
    EXPECT_NE(std::string(e.what()), "");
    return e.kind();
  }
  ADD_FAILURE() << "accepted";
  return RecordError::Kind::InvalidParams;
}

TEST(RecordValidation, TileMustBeAPowerOfTwoUpTo32) {
  for (int tile : {0, 1, 3, 12, 64, -16}) {
    RecordParams p;
    p.tile = tile;
    EXPECT_EQ(refusal(p), RecordError::Kind::InvalidParams) << tile;
  }
}

TEST(RecordValidation, SizesMustBePositive) {
  RecordParams p;
  p.m = 0;
  EXPECT_EQ(refusal(p), RecordError::Kind::InvalidParams);
  p.m = 4;
  p.k = -3;
  EXPECT_EQ(refusal(p), RecordError::Kind::InvalidParams);
}

TEST(RecordValidation, BeyondTheMemoryBasedLimit) {
  RecordParams p;
  p.m = p.n = p.k = 4096;
  try {
    validate(p);
    FAIL() << "accepted N = 4096";
  } catch (const RecordError& e) {
    EXPECT_EQ(e.kind(), RecordError::Kind::TooLarge);
    EXPECT_NE(std::string(e.what()).find("recording limit"), std::string::npos) << e.what();
  }
  p.m = p.n = p.k = 64;
  p.event_limit = 1000;
  EXPECT_EQ(refusal(p), RecordError::Kind::TooLarge);
}

std::string refusal_message(const RecordParams& p) {
  return test::refusal_message([&] { validate(p); }, RecordError::Kind::TooLarge);
}

// What the loader would refuse is refused before recording, with the numbers.
TEST(RecordValidation, GridBeyondCudaLimits) {
  RecordParams p;
  p.kernel = KernelKind::Naive;
  p.tile = 2;
  p.m = 140000;
  p.n = p.k = 1;
  const std::string why = refusal_message(p);
  EXPECT_NE(why.find("70000"), std::string::npos) << why;  // grid.y = 140000 / 2
  EXPECT_NE(why.find("65535"), std::string::npos) << why;
  p.m = 131070;  // grid.y = 65535: allowed
  EXPECT_NO_THROW(validate(p));
}

// The kernels compute row * K + col in int: a matrix of 2^31 or more elements
// is refused before any run (a focused trace or the counters would otherwise
// allocate it and index past it), though an event's 32-bit index would hold it.
TEST(RecordValidation, AMatrixPastIntIndexingIsRefused) {
  RecordParams p;
  p.kernel = KernelKind::Tiled;
  p.tile = 16;
  p.m = 70000;
  p.k = 32000;  // A: 2.24e9 elements
  p.n = 16;
  const std::string why = test::refusal_message([&] { validate_trace_fits(p); }, RecordError::Kind::TooLarge);
  EXPECT_NE(why.find("A (M x K) would have 2240000000 elements; the kernels index each matrix with int (at most "
                     "2147483647)"),
            std::string::npos)
      << why;
  p.m = 67000;  // 2.144e9: within int
  EXPECT_NO_THROW(validate_trace_fits(p));
}

TEST(RecordValidation, HugeProductsReachTheLimitNotAnOverflow) {
  // M*N*K far past 2^64: the counts saturate instead of wrapping below the limit.
  const EventCounts c = expected_counts(KernelKind::Tiled, 2, 2147483647, 2147483647, 2147483647);
  EXPECT_EQ(c.total(), ~std::uint64_t{0});
  RecordParams p;
  p.kernel = KernelKind::Naive;
  p.tile = 32;
  p.m = p.n = p.k = 65535;  // each matrix below 2^32 elements, 5.6e14 events
  const std::string why = refusal_message(p);
  EXPECT_NE(why.find("recording limit"), std::string::npos) << why;
  // A saturated count is not printed as the number 2^64 - 1.
  p.kernel = KernelKind::Tiled;
  p.tile = 2;
  p.m = p.n = 2147483647;
  p.k = 1;
  const std::string saturated = refusal_message(p);
  EXPECT_NE(saturated.find("needs 2^64 events or more;"), std::string::npos) << saturated;
  EXPECT_EQ(saturated.find("18446744073709551615"), std::string::npos) << saturated;
}

// K's limit is the kernel's own: an event holds 12 bits of k-iteration and 12
// of barriers passed (at most 4095 each). The naive kernels pass no barrier, so
// 4095 iterations of TILE; tiled passes two an iteration, double-buffer one
// an iteration after one before.
TEST(RecordValidation, KLimitFollowsTheKernelsOwnBarriers) {
  const auto params = [](KernelKind kind, int tile, int n, int k) {
    RecordParams p;
    p.kernel = kind;
    p.tile = tile;
    p.m = 1;
    p.n = n;
    p.k = k;
    p.device = DeviceChoice::Cpu;
    return p;
  };
  const auto shape_refusal = [](const RecordParams& p) -> std::string {
    try {
      validate_shape(p);
    } catch (const RecordError& e) {
      EXPECT_EQ(e.kind(), RecordError::Kind::TooLarge) << e.what();
      return e.what();
    }
    return {};
  };
  EXPECT_EQ(shape_refusal(params(KernelKind::Naive, 2, 1, 8190)), "");  // 4095 iterations
  EXPECT_NE(shape_refusal(params(KernelKind::Naive, 2, 1, 8191)).find("4096 k-iterations"), std::string::npos);
  EXPECT_EQ(shape_refusal(params(KernelKind::NaiveRow, 32, 1, 131040)), "");
  EXPECT_EQ(shape_refusal(params(KernelKind::Tiled, 2, 1, 4094)), "");  // 4094 barriers
  EXPECT_NE(shape_refusal(params(KernelKind::Tiled, 2, 1, 4095)).find("4096 barriers per thread"), std::string::npos);
  EXPECT_EQ(shape_refusal(params(KernelKind::DoubleBuffer, 16, 4, 4094 * 16)), "");  // 4094 + 1 barriers
  EXPECT_NE(shape_refusal(params(KernelKind::DoubleBuffer, 16, 4, 4094 * 16 + 4)).find("4096 barriers per thread"),
            std::string::npos);

  // At the naive kernel's limit the trace holds: the store of C is step 4095, and C is right.
  const RecordParams p = params(KernelKind::Naive, 2, 1, 8190);
  const Trace t = record(p);
  std::uint32_t last = 0;
  for (const Event& e : t.events.span()) last = std::max<std::uint32_t>(last, e.iter);
  EXPECT_EQ(last, 4095u);
  double want = 0;
  for (int k = 0; k < p.k; ++k) want += double(t.a[k]) * double(t.b[k]);
  EXPECT_NEAR(t.c[0], want, 1e-3);
}

TEST(RecordValidation, DefaultLimitIsMemoryBased) {
  const std::uint64_t limit = default_event_limit();
  EXPECT_GT(limit, 0u);
  EXPECT_LE(limit * sizeof(Event), 8ull << 30);
}

TEST(RecordValidation, GpuRequestedWithoutGpu) {
  if (gpu::probe().available) GTEST_SKIP() << "a GPU is present";
  RecordParams p;
  p.device = DeviceChoice::Gpu;
  try {
    record(p);
    FAIL() << "recorded on a GPU that is not there";
  } catch (const RecordError& e) {
    EXPECT_EQ(e.kind(), RecordError::Kind::NoGpu);
  }
}

TEST(RecordValidation, AutoFallsBackToTheEmulator) {
  if (gpu::probe().available) GTEST_SKIP() << "a GPU is present";
  RecordParams p;
  p.m = p.n = p.k = 8;
  p.tile = 4;
  const Trace t = record(p);
  EXPECT_EQ(t.launch.recorder, "emulator");
  EXPECT_EQ(t.launch.device_name, "CPU emulator");
}

}  // namespace
}  // namespace ts
