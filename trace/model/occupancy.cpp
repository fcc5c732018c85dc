// occupancy.cpp — the occupancy calculator and the per-SM limits of each
// compute capability.
#include "trace/model/occupancy.h"

#include <algorithm>

namespace ts {
namespace {

constexpr int kKiB = 1024;

int round_up(int value, int unit) { return unit > 0 ? (value + unit - 1) / unit * unit : value; }
int ceil_div(int a, int b) { return (a + b - 1) / b; }

std::vector<int> kib_steps(std::initializer_list<int> kib) {
  std::vector<int> bytes;
  for (int k : kib) bytes.push_back(k * kKiB);
  return bytes;
}

// The carve-out step holding `bytes`, or -1 when even the largest is too small.
int step_at_least(const SmLimits& sm, int bytes) {
  for (int step : sm.carveout_steps)
    if (step >= bytes) return step;
  return sm.carveout_steps.empty() && bytes <= sm.shared_per_sm ? sm.shared_per_sm : -1;
}

int blocks_in(int shared_bytes, int per_block) {
  return per_block > 0 ? shared_bytes / per_block : Occupancy::kUnlimited;
}

}  // namespace

// Values: CUDA C++ Programming Guide, "Compute Capabilities" (technical
// specifications per compute capability), and the per-architecture tables of
// cuda_occupancy.h in CUDA 13.0 (allocation units, carve-out steps, resident
// blocks of 12.0).
bool limits_for_compute_capability(int cc, SmLimits& out) {
  SmLimits s;
  s.compute_capability = cc;
  s.reserved_shared_per_block = cc >= 80 ? kKiB : 0;
  s.shared_allocation_unit = cc >= 80 ? 128 : 256;
  switch (cc) {
    case 75:  // Turing: 32 or 64 KiB of shared memory
      s.max_threads_per_sm = 1024;
      s.max_blocks_per_sm = 16;
      s.shared_per_sm = 64 * kKiB;
      s.max_shared_per_block_optin = 64 * kKiB;
      s.carveout_steps = kib_steps({32, 64});
      break;
    case 80:  // A100
      s.max_threads_per_sm = 2048;
      s.max_blocks_per_sm = 32;
      s.shared_per_sm = 164 * kKiB;
      s.max_shared_per_block_optin = 163 * kKiB;
      s.carveout_steps = kib_steps({0, 8, 16, 32, 64, 100, 132, 164});
      break;
    case 86:  // GA10x
    case 89:  // Ada
    case 120:  // consumer Blackwell
      s.max_threads_per_sm = 1536;
      s.max_blocks_per_sm = cc == 86 ? 16 : 24;
      s.shared_per_sm = 100 * kKiB;
      s.max_shared_per_block_optin = 99 * kKiB;
      s.carveout_steps = kib_steps({0, 8, 16, 32, 64, 100});
      s.barriers_per_block_slot = cc == 120 ? 1 : 0;
      break;
    case 90:  // Hopper
      s.max_threads_per_sm = 2048;
      s.max_blocks_per_sm = 32;
      s.shared_per_sm = 228 * kKiB;
      s.max_shared_per_block_optin = 227 * kKiB;
      s.carveout_steps = kib_steps({0, 8, 16, 32, 64, 100, 132, 164, 196, 228});
      s.barriers_per_block_slot = 2;
      break;
    default: return false;
  }
  out = s;
  return true;
}

const char* limit_name(OccupancyLimit limit) {
  switch (limit) {
    case OccupancyLimit::Threads: return "threads";
    case OccupancyLimit::Warps: return "warps";
    case OccupancyLimit::Registers: return "registers";
    case OccupancyLimit::SharedMemory: return "shared_memory";
    case OccupancyLimit::Blocks: return "blocks";
    case OccupancyLimit::Barriers: return "barriers";
  }
  return "?";
}

int Occupancy::limit_value(OccupancyLimit limit) const {
  switch (limit) {
    case OccupancyLimit::Threads: return by_threads;
    case OccupancyLimit::Warps: return by_warps;
    case OccupancyLimit::Registers: return by_registers;
    case OccupancyLimit::SharedMemory: return by_shared;
    case OccupancyLimit::Blocks: return by_blocks;
    case OccupancyLimit::Barriers: return by_barriers;
  }
  return 0;
}

std::string check_resources(const SmLimits& sm, const KernelResources& k) {
  if (sm.max_threads_per_sm <= 0 || sm.warp_size <= 0 || sm.registers_per_sm <= 0 || sm.max_blocks_per_sm <= 0)
    return "the GPU's limits are incomplete";
  if (k.threads_per_block <= 0) return "a block needs at least one thread";
  if (k.registers_per_thread < 0) return "registers per thread cannot be negative";
  if (k.static_shared_bytes < 0 || k.dynamic_shared_bytes < 0) return "shared memory cannot be negative";
  if (k.barriers < 0) return "barriers cannot be negative";
  if (k.min_compute_capability > sm.compute_capability) {
    const auto cc = [](int c) { return std::to_string(c / 10) + "." + std::to_string(c % 10); };
    return "the kernel needs compute capability " + cc(k.min_compute_capability) + " or newer; this GPU has " +
           cc(sm.compute_capability);
  }
  return {};
}

Occupancy compute_occupancy(const SmLimits& sm, const KernelResources& k, int carveout_bytes) {
  Occupancy o;
  o.max_warps_per_sm = sm.max_warps_per_sm();
  if (std::string why = check_resources(sm, k); !why.empty()) {
    o.unlaunchable = why;
    return o;
  }
  o.warps_per_block = ceil_div(k.threads_per_block, sm.warp_size);

  // Threads and warps: warps are allocated whole, so a 4-thread block costs a
  // warp slot. A block over the per-block thread limit does not launch at all.
  const bool block_too_big = k.threads_per_block > sm.max_threads_per_block;
  o.by_threads = block_too_big ? 0 : sm.max_threads_per_sm / k.threads_per_block;
  o.by_warps = block_too_big ? 0 : o.max_warps_per_sm / o.warps_per_block;
  o.by_blocks = sm.max_blocks_per_sm;

  // Registers: per warp, rounded to the allocation unit, drawn from one
  // sub-partition; a block must also pass the per-block check as if its warps
  // were spread over all sub-partitions.
  o.registers_per_warp = round_up(k.registers_per_thread * sm.warp_size, sm.register_allocation_unit);
  o.registers_per_block = o.registers_per_warp * o.warps_per_block;
  const int parts = std::max(1, sm.register_sub_partitions);
  const int registers_checked = o.registers_per_warp * round_up(o.warps_per_block, parts);
  if (o.registers_per_warp == 0) {
    o.by_registers = Occupancy::kUnlimited;
  } else if (k.registers_per_thread > sm.max_registers_per_thread || registers_checked > sm.max_registers_per_block) {
    o.by_registers = 0;
  } else {
    const int warps_per_part = sm.registers_per_sm / parts / o.registers_per_warp;
    o.by_registers = warps_per_part * parts / o.warps_per_block;
  }

  // Shared memory: static + dynamic + the driver's reserve, rounded up.
  const int used = k.static_shared_bytes + k.dynamic_shared_bytes;
  o.shared_per_block = round_up(used + sm.reserved_shared_per_block, sm.shared_allocation_unit);
  const int per_block_limit =
      (used > sm.max_shared_per_block ? sm.max_shared_per_block_optin : sm.max_shared_per_block) +
      sm.reserved_shared_per_block;
  const int one_block_step = step_at_least(sm, o.shared_per_block);
  if (o.shared_per_block > per_block_limit || one_block_step < 0) {
    o.by_shared = 0;
    o.shared_per_sm = sm.shared_per_sm;
  } else {
    int carveout = sm.shared_per_sm;
    if (carveout_bytes >= 0) {
      const int step = step_at_least(sm, carveout_bytes);
      carveout = std::max(step < 0 ? sm.shared_per_sm : step, one_block_step);
    }
    o.shared_per_sm = carveout;
    o.by_shared = blocks_in(carveout, o.shared_per_block);
  }
  for (int step : sm.carveout_steps) o.carveouts.push_back({step, blocks_in(step, o.shared_per_block)});

  // Named barriers (9.0 on): a fixed number per resident-block slot.
  o.by_barriers = sm.barriers_per_block_slot > 0 && k.barriers > 0
                      ? sm.barriers_per_block_slot * sm.max_blocks_per_sm / k.barriers
                      : Occupancy::kUnlimited;

  o.blocks_per_sm = Occupancy::kUnlimited;
  for (OccupancyLimit l : kAllOccupancyLimits) o.blocks_per_sm = std::min(o.blocks_per_sm, o.limit_value(l));
  for (OccupancyLimit l : kAllOccupancyLimits)
    if (o.limit_value(l) == o.blocks_per_sm) o.binding.push_back(l);
  o.limiting_factor = o.binding.front();

  if (o.blocks_per_sm == 0) {
    if (o.by_threads == 0 || o.by_warps == 0)
      o.unlaunchable = "a block of " + std::to_string(k.threads_per_block) + " threads is over the limit of " +
                       std::to_string(std::min(sm.max_threads_per_block, sm.max_threads_per_sm));
    else if (o.by_registers == 0)
      o.unlaunchable = std::to_string(k.registers_per_thread) + " registers per thread do not fit one block";
    else if (o.by_shared == 0)
      o.unlaunchable = std::to_string(o.shared_per_block) + " bytes of shared memory per block are over the limit";
    else
      o.unlaunchable = std::string("the ") + limit_name(o.limiting_factor) + " limit allows no block";
  }

  o.active_warps_per_sm = o.blocks_per_sm * o.warps_per_block;
  o.occupancy = o.max_warps_per_sm ? double(o.active_warps_per_sm) / o.max_warps_per_sm : 0.0;
  o.smallest_sufficient_carveout = o.shared_per_sm;
  for (const CarveoutStep& c : o.carveouts)
    if (c.blocks >= o.blocks_per_sm && c.shared_bytes >= one_block_step) {
      o.smallest_sufficient_carveout = c.shared_bytes;
      break;
    }
  return o;
}

}  // namespace ts
