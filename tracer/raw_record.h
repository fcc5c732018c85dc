// raw_record.h — what the tracer's device patches write, one fixed-size record
// per patched instruction a thread executes, and the log they append to.
// Plain data, compiled by nvcc (tracer/patches/, --compile-as-tools-patch) and
// g++ (the injection library, the assembler) alike: nothing here may need
// either compiler's library.
//
// The patches append with one atomic counter per launch. A thread's patches
// run in its program order and each takes the next slot, so a thread's records
// are in its program order in the log; the threads interleave arbitrarily.
// The counter keeps counting past the capacity (those records are not
// written), so the host knows how many a launch needed when it overflowed.
#pragma once

#include <stdint.h>

namespace ts::tracer {

// What a record says happened.
enum RecordKind : uint8_t {
  kRecordGlobal = 1,          // a global access: address is the device address
  kRecordShared = 2,          // a shared access: address is the offset in the block's shared window
  kRecordLocal = 3,           // a local access (spills): address is the offset in the local window
  kRecordBarrier = 4,         // the thread arrived at a barrier (aux: barrier index)
  kRecordCpAsync = 5,         // cp.async: address is the global source (0: zero-fill), aux the shared destination
  kRecordPipelineCommit = 6,  // cp.async.commit_group
  kRecordPipelineWait = 7,    // cp.async.wait_group (aux: groups it waits for; 0: all)
  kRecordBlockEnter = 8,
  kRecordBlockExit = 9,
  kRecordMatrixShared = 10,   // ldmatrix/stmatrix: address is a shared offset, aux the number of matrices
};

// How an access touched memory.
enum AccessKind : uint8_t { kAccessLoad = 0, kAccessStore = 1, kAccessAtomic = 2 };

// RawRecord::flags bits.
// value[] holds the bytes moved: a store's new value (the Sanitizer API hands
// it to the patch), a global load's or a cp.async source's bytes (the patch
// reads them just before the instruction does).
inline constexpr uint8_t kRecordHasValue = 1u << 0;

// 48 bytes, naturally aligned, the same layout on host and device.
struct RawRecord {
  uint64_t address;   // see RecordKind
  uint64_t pc;        // the patched instruction's program counter
  uint32_t value[4];  // up to 16 bytes moved (kRecordHasValue), little-endian as in memory
  uint32_t block;     // linear block id, x fastest: blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)
  uint32_t aux;       // see RecordKind
  uint16_t thread;    // thread in its block, x fastest (blocks have at most 1024 threads)
  uint8_t kind;       // RecordKind
  uint8_t access;     // AccessKind (accesses only)
  uint8_t bytes;      // bytes accessed by this thread: 1, 2, 4, 8 or 16 (cp.async: 4, 8 or 16)
  uint8_t flags;      // kRecordHasValue
  uint16_t reserved;
};
static_assert(sizeof(RawRecord) == 48, "the device and host agree on 48-byte records");

// The callback data of the traced launch (sanitizerSetCallbackData): the
// patches of any other launch see a null pointer and record nothing.
struct RawDeviceLog {
  unsigned long long count;     // records appended, including those past capacity
  unsigned long long capacity;  // records `records` holds
  RawRecord* records;
};

}  // namespace ts::tracer
