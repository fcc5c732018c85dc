// bench_device.cpp — the GPU's description and the copy-bandwidth ceiling.
// NVML (the driver's management library) gives the driver version and live
// clocks; it is opened at run time so that a machine without the NVIDIA
// driver still starts tilescope.
#include <dlfcn.h>

#include <algorithm>
#include <vector>

#include "trace/trace.h"
#include "kernels/cuda/bench_device.cuh"
#include "kernels/cuda/bench_timing.cuh"
#include "kernels/cuda/cuda_check.cuh"
#include "kernels/cuda/device_buffer.cuh"

namespace ts::gpu {
namespace {

// The few NVML entry points used, declared by hand (nvml.h is not part of the toolkit here).
using NvmlDevice = struct nvmlDevice_st*;
constexpr unsigned kNvmlClockSm = 1, kNvmlClockMem = 2;

class Nvml {
 public:
  Nvml() {
    lib_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib_) return;
    init_ = reinterpret_cast<int (*)()>(dlsym(lib_, "nvmlInit_v2"));
    shutdown_ = reinterpret_cast<int (*)()>(dlsym(lib_, "nvmlShutdown"));
    driver_ = reinterpret_cast<int (*)(char*, unsigned)>(dlsym(lib_, "nvmlSystemGetDriverVersion"));
    by_bus_ = reinterpret_cast<int (*)(const char*, NvmlDevice*)>(dlsym(lib_, "nvmlDeviceGetHandleByPciBusId_v2"));
    clock_ = reinterpret_cast<int (*)(NvmlDevice, unsigned, unsigned*)>(dlsym(lib_, "nvmlDeviceGetClockInfo"));
    ok_ = init_ && shutdown_ && driver_ && by_bus_ && clock_ && init_() == 0;
    if (!ok_) return;
    char bus[64] = {};
    ok_ = cudaDeviceGetPCIBusId(bus, sizeof bus, 0) == cudaSuccess && by_bus_(bus, &device_) == 0;
    cudaGetLastError();  // a failure here only means no NVML figures
  }
  ~Nvml() {
    if (ok_) shutdown_();
    if (lib_) dlclose(lib_);
  }
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  std::string driver_version() const {
    char buf[96] = {};
    return ok_ && driver_(buf, sizeof buf) == 0 ? std::string(buf) : std::string();
  }
  double clock_mhz(unsigned type) const {
    unsigned mhz = 0;
    return ok_ && clock_(device_, type, &mhz) == 0 ? double(mhz) : 0.0;
  }

 private:
  void* lib_ = nullptr;
  bool ok_ = false;
  NvmlDevice device_ = nullptr;
  int (*init_)() = nullptr;
  int (*shutdown_)() = nullptr;
  int (*driver_)(char*, unsigned) = nullptr;
  int (*by_bus_)(const char*, NvmlDevice*) = nullptr;
  int (*clock_)(NvmlDevice, unsigned, unsigned*) = nullptr;
};

std::string version_string(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

}  // namespace

int fp32_lanes_per_sm(int cc) {
  switch (cc) {
    case 70: case 72: case 75: case 80: return 64;
    case 86: case 87: case 89: case 90: return 128;
    default: return cc >= 100 ? 128 : 0;
  }
}

BenchDevice read_bench_device(const std::string& cublas_version) {
  BenchDevice d;
  cudaDeviceProp prop{};
  TS_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  d.name = prop.name;
  d.compute_capability = prop.major * 10 + prop.minor;
  d.sm_count = prop.multiProcessorCount;
  d.fp32_lanes_per_sm = fp32_lanes_per_sm(d.compute_capability);
  int khz = 0;
  TS_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));  // the peak (boost) clock
  d.sm_clock_max_mhz = khz / 1000.0;
  TS_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, 0));
  d.mem_clock_mhz = khz / 1000.0;
  int runtime = 0, driver_api = 0;
  TS_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  TS_CUDA_CHECK(cudaDriverGetVersion(&driver_api));
  d.cuda_runtime = version_string(runtime);
  const Nvml nvml;
  d.driver = nvml.driver_version();
  if (d.driver.empty()) d.driver = "unknown (CUDA " + version_string(driver_api) + " driver)";
  if (const double mem = nvml.clock_mhz(kNvmlClockMem); mem > 0) d.mem_clock_mhz = mem;
  d.cublas = cublas_version;
  d.date = utc_now_iso8601();
  return d;
}

double read_sm_clock_mhz() { return Nvml().clock_mhz(kNvmlClockSm); }

double measure_copy_bandwidth(std::size_t bytes, cudaStream_t stream) {
  DeviceBuffer src, dst;
  float* s = src.get<float>(bytes / sizeof(float));
  float* d = dst.get<float>(bytes / sizeof(float));
  TS_CUDA_CHECK(cudaMemsetAsync(s, 0x3c, bytes, stream));  // any bytes: a copy does not look at them
  const Timing t = time_launches([&] { TS_CUDA_CHECK(cudaMemcpyAsync(d, s, bytes, cudaMemcpyDeviceToDevice, stream)); },
                                 3, 10, stream);
  return 2.0 * double(bytes) / (t.median_ms * 1e6);
}

}  // namespace ts::gpu
