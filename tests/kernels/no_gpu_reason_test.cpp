// Without a GPU the message says what is missing (no driver, no GPU, an old
// driver), never CUDA's "driver version is insufficient" for a machine that
// has no driver at all.
#include <gtest/gtest.h>

#include "kernels/cuda/gpu_runtime.h"
#include "kernels/cuda/no_gpu_reason.h"

namespace ts::gpu {
namespace {

const std::string kCudaText = "CUDA driver version is insufficient for CUDA runtime version";

TEST(NoGpuReason, NoDriverIsSaidPlainly) {
  for (CountFailure f : {CountFailure::InsufficientDriver, CountFailure::NoDevice}) {
    const std::string why = no_gpu_reason(f, false, kCudaText);
    EXPECT_NE(why.find("no NVIDIA driver found"), std::string::npos) << why;
    EXPECT_EQ(why.find("insufficient"), std::string::npos) << why;
  }
}

TEST(NoGpuReason, DriverWithoutGpuOrTooOld) {
  EXPECT_NE(no_gpu_reason(CountFailure::NoDevice, true, "no CUDA-capable device is detected").find("no NVIDIA GPU found"),
            std::string::npos);
  const std::string old = no_gpu_reason(CountFailure::InsufficientDriver, true, kCudaText);
  EXPECT_NE(old.find("older than"), std::string::npos) << old;
  EXPECT_NE(no_gpu_reason(CountFailure::Other, true, "unknown error").find("unknown error"), std::string::npos);
}

TEST(NoGpuReason, ThisMachinesProbe) {
  const DeviceStatus st = probe();
  if (st.available) GTEST_SKIP() << "a GPU is present: " << st.name;
  EXPECT_EQ(st.reason.find("insufficient"), std::string::npos) << st.reason;
#if defined(TILESCOPE_HAVE_CUDA)
  if (!nvidia_driver_present()) {
    EXPECT_NE(st.reason.find("no NVIDIA driver found"), std::string::npos) << st.reason;
  }
#endif
}

}  // namespace
}  // namespace ts::gpu
