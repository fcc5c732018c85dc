// tracer_patches.cu — the device side of the tracer: the functions the
// Compute Sanitizer API calls at every patched instruction of the traced
// kernel. Each appends one RawRecord (tracer/raw_record.h) to the launch's
// log; a launch that is not traced has a null log and records nothing.
// Built as a tools patch, never linked into a program:
//   nvcc --fatbin --compile-as-tools-patch -arch=sm_90 -I<sanitizer>/include -I<repo> \
//        -o tilescope_tracer_patches.fatbin tracer/patches/tracer_patches.cu
// (cmake/TilescopeTracer.cmake does this for the build's architectures.)
#include <sanitizer_patching.h>

#include "tracer/raw_record.h"

using namespace ts::tracer;

namespace {

// The next slot of the log, or null when the log is full (the counter still
// counts: the host reports how many records the launch needed).
__device__ __forceinline__ RawRecord* next_record(void* userdata, uint8_t kind, uint64_t pc) {
  auto* log = static_cast<RawDeviceLog*>(userdata);
  if (log == nullptr) return nullptr;
  const unsigned long long i = atomicAdd(&log->count, 1ull);
  if (i >= log->capacity) return nullptr;
  RawRecord* r = &log->records[i];
  r->pc = pc;
  r->kind = kind;
  r->block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  r->thread = static_cast<uint16_t>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
  r->address = 0;
  r->aux = 0;
  r->access = kAccessLoad;
  r->bytes = 0;
  r->flags = 0;
  r->reserved = 0;
  return r;
}

// Up to 16 bytes into the record's value, byte by byte (any alignment).
__device__ __forceinline__ void copy_value(RawRecord* r, const void* from, uint32_t bytes) {
  if (from == nullptr) return;
  const auto* src = static_cast<const unsigned char*>(from);
  unsigned char* dst = reinterpret_cast<unsigned char*>(r->value);
  const uint32_t n = bytes < 16 ? bytes : 16;
  for (uint32_t i = 0; i < 16; ++i) dst[i] = i < n ? src[i] : 0;
  r->flags |= kRecordHasValue;
}

__device__ __forceinline__ uint8_t access_of(uint32_t flags) {
  const bool read = flags & SANITIZER_MEMORY_DEVICE_FLAG_READ;
  const bool write = flags & SANITIZER_MEMORY_DEVICE_FLAG_WRITE;
  if (read && write) return kAccessAtomic;
  return write ? kAccessStore : kAccessLoad;
}

// A memory access: a store's value comes from the API (pData); a global
// load's is read here, before the instruction reads it (not a prefetch).
__device__ __forceinline__ void record_access(void* userdata, uint64_t pc, uint8_t kind, uint64_t address,
                                              const void* generic, uint32_t bytes, uint32_t flags, const void* pData) {
  RawRecord* r = next_record(userdata, kind, pc);
  if (r == nullptr) return;
  r->address = address;
  r->bytes = static_cast<uint8_t>(bytes);
  r->access = access_of(flags);
  if (r->access == kAccessStore) copy_value(r, pData, bytes);
  else if (r->access == kAccessLoad && generic != nullptr && !(flags & SANITIZER_MEMORY_DEVICE_FLAG_PREFETCH))
    copy_value(r, generic, bytes);
}

}  // namespace

extern "C" __device__ __noinline__ SanitizerPatchResult TracerGlobalAccess(void* userdata, uint64_t pc, void* ptr,
                                                                          uint32_t accessSize, uint32_t flags,
                                                                          const void* pData) {
  record_access(userdata, pc, kRecordGlobal, reinterpret_cast<uint64_t>(ptr), ptr, accessSize, flags, pData);
  return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult TracerSharedAccess(void* userdata, uint64_t pc, void* ptr,
                                                                          uint32_t accessSize, uint32_t flags,
                                                                          const void* pData) {
  // ptr is an offset in the shared window, not an address to read.
  record_access(userdata, pc, kRecordShared, reinterpret_cast<uint64_t>(ptr), nullptr, accessSize, flags, pData);
  return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult TracerLocalAccess(void* userdata, uint64_t pc, void* ptr,
                                                                         uint32_t accessSize, uint32_t flags,
                                                                         const void* pData) {
  record_access(userdata, pc, kRecordLocal, reinterpret_cast<uint64_t>(ptr), nullptr, accessSize, flags, nullptr);
  (void)pData;
  return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult TracerBarrier(void* userdata, uint64_t pc, uint32_t barIndex,
                                                                     uint32_t threadCount, uint32_t flags) {
  if (RawRecord* r = next_record(userdata, kRecordBarrier, pc)) r->aux = barIndex;
  (void)threadCount;
  (void)flags;
  return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult TracerMemcpyAsync(void* userdata, uint64_t pc, void* src,
                                                                         uint32_t dst, uint32_t accessSize) {
  RawRecord* r = next_record(userdata, kRecordCpAsync, pc);
  if (r == nullptr) return SANITIZER_PATCH_SUCCESS;
  r->address = reinterpret_cast<uint64_t>(src);  // 0: a zero-fill (src-size 0)
  r->aux = dst;
  r->bytes = static_cast<uint8_t>(accessSize);
  copy_value(r, src, accessSize);  // the bytes the copy will move
  return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult TracerPipelineCommit(void* userdata, uint64_t pc) {
  next_record(userdata, kRecordPipelineCommit, pc);
  return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult TracerPipelineWait(void* userdata, uint64_t pc,
                                                                          uint32_t groups) {
  if (RawRecord* r = next_record(userdata, kRecordPipelineWait, pc)) r->aux = groups;
  return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult TracerBlockEnter(void* userdata, uint64_t pc) {
  next_record(userdata, kRecordBlockEnter, pc);
  return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult TracerBlockExit(void* userdata, uint64_t pc) {
  next_record(userdata, kRecordBlockExit, pc);
  return SANITIZER_PATCH_SUCCESS;
}

// ldmatrix / stmatrix: each thread gives one row address of one of `count` matrices.
extern "C" __device__ __noinline__ SanitizerPatchResult TracerMatrixAccess(void* userdata, uint64_t pc,
                                                                          uint32_t address, uint32_t accessSize,
                                                                          uint32_t flags, uint32_t count,
                                                                          const void* pNewValue) {
  RawRecord* r = next_record(userdata, kRecordMatrixShared, pc);
  if (r == nullptr) return SANITIZER_PATCH_SUCCESS;
  r->address = address;
  r->bytes = static_cast<uint8_t>(accessSize);
  r->access = access_of(flags);
  r->aux = count;
  if (r->access == kAccessStore) copy_value(r, pNewValue, accessSize);
  return SANITIZER_PATCH_SUCCESS;
}
