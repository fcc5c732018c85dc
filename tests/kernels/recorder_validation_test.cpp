// Requests that cannot be recorded are refused up front, with a reason.
#include <gtest/gtest.h>

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
