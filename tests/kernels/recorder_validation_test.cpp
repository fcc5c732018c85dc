// Requests that cannot be recorded are refused up front, with a reason.
#include <gtest/gtest.h>

#include "kernels/catalog.h"
#include "kernels/cuda/gpu_runtime.h"
#include "kernels/recorder.h"

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
  try {
    validate(p);
  } catch (const RecordError& e) {
    EXPECT_EQ(e.kind(), RecordError::Kind::TooLarge) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "accepted";
  return {};
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
