// occupancy.h — the occupancy calculator: how many blocks of a kernel fit on
// one SM, which per-SM resource binds, and the theoretical occupancy.
//
// The rules are the CUDA occupancy calculator's (CUDA C++ Programming Guide,
// "Occupancy"; cuda_occupancy.h): warps are allocated whole; registers are
// allocated per warp in units of 256 from one of four SM sub-partitions;
// shared memory per block is the kernel's static plus dynamic bytes plus the
// driver's per-block reserve, rounded up to the allocation unit, and the SM's
// shared memory is whatever carve-out of the unified L1/shared array the
// driver configured. The GPU test checks the result against
// cudaOccupancyMaxActiveBlocksPerMultiprocessor.
//
// Part of trace/model: the kernels' side fills its inputs (the compiler's and
// the CUDA runtime's numbers) and sizes focused waves with it; the app shows it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ts {

// One GPU's per-SM limits: a preset's (from its compute capability) or the
// CUDA runtime's (from cudaDeviceProp). Sizes in bytes.
struct SmLimits {
  int compute_capability = 0;  // 90 for 9.0
  int sm_count = 0;
  int warp_size = 32;
  int max_threads_per_block = 1024;
  int max_threads_per_sm = 0;
  int max_blocks_per_sm = 0;
  int registers_per_sm = 65536;
  int max_registers_per_block = 65536;
  int max_registers_per_thread = 255;
  int register_allocation_unit = 256;  // registers, rounded per warp
  int register_sub_partitions = 4;     // a warp's registers come from one quarter of the file
  int shared_per_sm = 0;               // the largest carve-out
  int max_shared_per_block = 48 * 1024;  // without opting in
  int max_shared_per_block_optin = 48 * 1024;
  int reserved_shared_per_block = 0;     // the driver's own, per block (1 KiB from 8.0 on)
  int shared_allocation_unit = 128;
  std::vector<int> carveout_steps;  // the shared-memory sizes the L1/shared split offers, ascending
  int barriers_per_block_slot = 0;  // named barriers per resident-block slot (9.0+), 0: not a limit

  int max_warps_per_sm() const { return warp_size ? max_threads_per_sm / warp_size : 0; }
};

// Per-SM limits of a compute capability (NVIDIA's documented values); false
// for an architecture tilescope does not know.
bool limits_for_compute_capability(int compute_capability, SmLimits& out);

// What one block of a kernel needs, and where those numbers came from.
struct KernelResources {
  int threads_per_block = 0;
  int registers_per_thread = 0;
  int static_shared_bytes = 0;
  int dynamic_shared_bytes = 0;
  int barriers = 1;    // named barriers (ptxas "used N barriers"); counts only from 9.0 on
  std::string source;  // e.g. "ptxas, sm_90, at build time" or "CUDA runtime"
  int min_compute_capability = 0;  // the oldest GPU it runs on (80: TF32 mma.sync), 0: any
};

enum class OccupancyLimit : std::uint8_t { Threads, Warps, Registers, SharedMemory, Blocks, Barriers };
inline constexpr OccupancyLimit kAllOccupancyLimits[] = {
    OccupancyLimit::Threads,      OccupancyLimit::Warps,  OccupancyLimit::Registers,
    OccupancyLimit::SharedMemory, OccupancyLimit::Blocks, OccupancyLimit::Barriers};
const char* limit_name(OccupancyLimit limit);  // "threads", "warps", "registers", "shared_memory", ...

// The shared-memory limit with the SM's carve-out set to one step.
struct CarveoutStep {
  int shared_bytes = 0;
  int blocks = 0;  // blocks per SM that the shared memory alone allows
};

struct Occupancy {
  static constexpr int kUnlimited = 1 << 30;  // a resource the kernel does not use

  // Blocks per SM allowed by each resource alone (kUnlimited when unused).
  int by_threads = 0, by_warps = 0, by_registers = 0, by_shared = 0, by_blocks = 0, by_barriers = 0;
  int blocks_per_sm = 0;
  OccupancyLimit limiting_factor = OccupancyLimit::Threads;  // the first that binds, in kAllOccupancyLimits order
  std::vector<OccupancyLimit> binding;                       // every limit equal to blocks_per_sm
  std::string unlaunchable;  // why not even one block fits ("" when one does)

  int warps_per_block = 0;
  int active_warps_per_sm = 0;
  int max_warps_per_sm = 0;
  double occupancy = 0;  // active warps / max warps, 0..1

  int registers_per_warp = 0;   // allocated: rounded up to the allocation unit
  int registers_per_block = 0;  // allocated
  int shared_per_block = 0;     // allocated: static + dynamic + reserve, rounded up
  int shared_per_sm = 0;        // the carve-out this calculation assumed

  // The shared-memory limit at every carve-out step, and the smallest step
  // that still gives blocks_per_sm (the driver picks a step per launch;
  // Nsight Compute shows it as "Shared Memory Configuration Size").
  std::vector<CarveoutStep> carveouts;
  int smallest_sufficient_carveout = 0;

  int limit_value(OccupancyLimit limit) const;
};

// carveout_bytes < 0: the largest carve-out, which is what the occupancy API
// assumes with no preference set. Otherwise the SM's shared memory is that
// many bytes, rounded up to the next step (as cudaFuncAttributePreferredSharedMemoryCarveout
// does), and at least the step one block needs.
Occupancy compute_occupancy(const SmLimits& sm, const KernelResources& kernel, int carveout_bytes = -1);

// A one-line reason if the inputs are impossible (negative counts, a block
// over the per-block limits); empty when they are fine.
std::string check_resources(const SmLimits& sm, const KernelResources& kernel);

}  // namespace ts
