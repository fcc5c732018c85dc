// tracer_inject.cpp — libtilescope_tracer.so: loaded into a program with
// LD_PRELOAD by `tilescope record --exec`, it traces one kernel launch of the
// program with the Compute Sanitizer API and writes a raw launch file
// (tracer/raw_file.h) for tilescope to assemble.
//
// It subscribes from a global constructor (with CUDA_INJECTION64_PATH and
// InitializeInjection() the process crashed after that function returned;
// LD_PRELOAD and a load-time subscription work). Then:
//   - every module loaded gets the patches (tracer/patches/, from the fatbin
//     beside this library or TILESCOPE_TRACER_PATCHES) at every global, shared
//     and local access, barrier, cp.async, pipeline commit and wait, ldmatrix,
//     block entry and exit; its cubin's static shared symbols are kept;
//   - every launch but the chosen one runs with a null log: its patches
//     return at once and record nothing;
//   - the chosen launch gets a device log of TILESCOPE_TRACER_CAPACITY
//     records, and copies of the allocations whose sizes are listed (A, B, C)
//     are taken before it;
//   - at the next synchronization, free or copy of memory (the API calls'
//     callbacks), launch or the context's end, the log and the copies after
//     the launch are read back, on the launch's stream so after it, and the
//     file is written (again at exit, with the launches that followed).
// Allocations come from the resource callbacks (freed ones are dropped).
//
// Environment (set by tilescope):
//   TILESCOPE_TRACER_OUT       the raw file to write (unset: the library does nothing)
//   TILESCOPE_TRACER_KERNEL    ECMAScript regex a kernel's name must contain (mangled or demangled)
//   TILESCOPE_TRACER_LAUNCH    which matching launch to trace, from 0 (default 0)
//   TILESCOPE_TRACER_CAPACITY  records the device log holds (default 2^24)
//   TILESCOPE_TRACER_SNAPSHOT  comma-separated allocation sizes in bytes to copy before and after
//   TILESCOPE_TRACER_PATCHES   the patches' fatbin
#include <cuda.h>
#include <cxxabi.h>
#include <dlfcn.h>
#include <sanitizer.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "tracer/cubin_shared.h"
#include "tracer/raw_file.h"
#include "tracer/raw_record.h"

namespace ts::tracer {
namespace {

// Our own calls make no allocations of the program's.
thread_local bool g_inside = false;
struct Inside {
  Inside() { g_inside = true; }
  ~Inside() { g_inside = false; }
};

bool check(SanitizerResult r, const char* what) {
  if (r == SANITIZER_SUCCESS) return true;
  const char* text = "unknown error";
  sanitizerGetResultString(r, &text);
  std::fprintf(stderr, "tilescope tracer: %s failed: %s\n", what, text);
  return false;
}
#define TRACER_CHECK(call) check((call), #call)

std::string demangle(const char* name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(name, nullptr, nullptr, &status), std::free);
  return status == 0 && d ? std::string(d.get()) : std::string(name);
}

std::uint64_t env_number(const char* name, std::uint64_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v, &end, 10);
  if (*end != '\0') {
    std::fprintf(stderr, "tilescope tracer: %s=%s is not a whole number; using %llu\n", name, v,
                 static_cast<unsigned long long>(fallback));
    return fallback;
  }
  return n;
}

// The fatbin beside this library.
std::string default_patches() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&default_patches), &info) == 0 || !info.dli_fname) return "";
  std::string self = info.dli_fname;
  const auto slash = self.rfind('/');
  return (slash == std::string::npos ? std::string(".") : self.substr(0, slash)) + "/tilescope_tracer_patches.fatbin";
}

struct Pending {
  CUcontext context = nullptr;
  Sanitizer_StreamHandle stream = nullptr;
  RawDeviceLog* log = nullptr;  // device
  RawRecord* records = nullptr;  // device
};

class Tracer {
 public:
  Tracer() {
    const char* out = std::getenv("TILESCOPE_TRACER_OUT");
    if (!out || !*out) return;
    out_ = out;
    if (const char* k = std::getenv("TILESCOPE_TRACER_KERNEL"); k && *k) {
      try {
        kernel_ = std::regex(k);
      } catch (const std::regex_error& e) {
        std::fprintf(stderr, "tilescope tracer: TILESCOPE_TRACER_KERNEL=%s is no regex: %s\n", k, e.what());
        return;
      }
    }
    wanted_ = env_number("TILESCOPE_TRACER_LAUNCH", 0);
    capacity_ = std::max<std::uint64_t>(1, env_number("TILESCOPE_TRACER_CAPACITY", 1ull << 24));
    if (const char* s = std::getenv("TILESCOPE_TRACER_SNAPSHOT")) {
      for (const char* p = s; *p;) {
        char* end = nullptr;
        const unsigned long long n = std::strtoull(p, &end, 10);
        if (end == p) break;
        snapshot_sizes_.push_back(n);
        p = *end == ',' ? end + 1 : end;
      }
    }
    const char* patches = std::getenv("TILESCOPE_TRACER_PATCHES");
    patches_ = patches && *patches ? patches : default_patches();
    Sanitizer_SubscriberHandle handle;
    if (const SanitizerResult r = sanitizerSubscribe(&handle, &Tracer::callback, this); r != SANITIZER_SUCCESS) {
      // Said to tilescope in OUT.error (it reads it when no raw file comes): another tool attached, or a
      // driver that refuses the API.
      const char* text = "unknown error";
      sanitizerGetResultString(r, &text);
      if (std::FILE* f = std::fopen((out_ + ".error").c_str(), "w")) {
        std::fprintf(f, "the Compute Sanitizer API refused the tracer (%s): is another tool (compute-sanitizer, "
                        "Nsight) attached, or does this driver not support it?\n", text);
        std::fclose(f);
      }
      std::fprintf(stderr, "tilescope tracer: sanitizerSubscribe failed: %s\n", text);
      return;
    }
    for (auto domain : {SANITIZER_CB_DOMAIN_RESOURCE, SANITIZER_CB_DOMAIN_LAUNCH, SANITIZER_CB_DOMAIN_SYNCHRONIZE,
                        SANITIZER_CB_DOMAIN_RUNTIME_API, SANITIZER_CB_DOMAIN_DRIVER_API})
      TRACER_CHECK(sanitizerEnableDomain(1, handle, domain));
    enabled_ = true;
  }

  // At exit: whatever is still pending, and a file in any case (no launch
  // matched: the kernels that ran, for tilescope's message).
  ~Tracer() {
    if (!enabled_) return;
    std::lock_guard lock(mu_);
    flush();
    if (!written_) {
      raw_.allocations = seen_;  // no launch matched: every allocation the program made, freed or not
      write(false);
    } else if (raw_.launches.size() > launches_written_) {
      write(true);  // again, with the launches after the traced one (a split-k GEMM's reduction)
    }
  }

  static void callback(void* self, Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid, const void* data) {
    if (g_inside) return;
    auto* t = static_cast<Tracer*>(self);
    std::lock_guard lock(t->mu_);
    Inside inside;
    if (domain == SANITIZER_CB_DOMAIN_RESOURCE) t->resource(cbid, data);
    else if (domain == SANITIZER_CB_DOMAIN_LAUNCH && cbid == SANITIZER_CBID_LAUNCH_BEGIN)
      t->launch_begin(*static_cast<const Sanitizer_LaunchData*>(data));
    else if (domain == SANITIZER_CB_DOMAIN_RUNTIME_API || domain == SANITIZER_CB_DOMAIN_DRIVER_API)
      t->api_call(*static_cast<const Sanitizer_CallbackData*>(data));
    else if (domain == SANITIZER_CB_DOMAIN_SYNCHRONIZE) t->flush();
  }

 private:
  // With the traced launch not yet read back: before the program frees or copies memory (a program
  // may free its matrices after an event synchronization, which makes no synchronize callback), and
  // after any synchronization call. Not when the launch call returns: the kernel may not be queued
  // yet, and the log would be read before it ran.
  void api_call(const Sanitizer_CallbackData& d) {
    if (!pending_ || !d.functionName) return;
    const char* f = d.functionName;
    const bool before = d.callbackSite == SANITIZER_API_ENTER &&
                        (std::strstr(f, "Free") || std::strstr(f, "Memcpy") || std::strstr(f, "Destroy"));
    const bool after = d.callbackSite == SANITIZER_API_EXIT && std::strstr(f, "Synchronize");
    if (before || after) flush();
  }

  void resource(Sanitizer_CallbackId cbid, const void* data) {
    switch (cbid) {
      case SANITIZER_CBID_RESOURCE_MODULE_LOADED: module_loaded(*static_cast<const Sanitizer_ResourceModuleData*>(data)); break;
      case SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_ALLOC:
      case SANITIZER_CBID_RESOURCE_MEMORY_ALLOC_ASYNC: {
        const auto& m = *static_cast<const Sanitizer_ResourceMemoryData*>(data);
        if (m.flags & SANITIZER_MEMORY_FLAG_MODULE) break;  // a module's __device__ variables
        live_.push_back({m.address, m.size, ""});
        seen_.push_back(live_.back());
        break;
      }
      case SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_FREE:
      case SANITIZER_CBID_RESOURCE_MEMORY_FREE_ASYNC: {
        const auto& m = *static_cast<const Sanitizer_ResourceMemoryData*>(data);
        std::erase_if(live_, [&](const RawAllocation& a) { return a.address == m.address; });
        break;
      }
      case SANITIZER_CBID_RESOURCE_CONTEXT_DESTROY_STARTING: flush(); break;
      default: break;
    }
  }

  void module_loaded(const Sanitizer_ResourceModuleData& m) {
    if (!patches_added_) {
      if (!TRACER_CHECK(sanitizerAddPatchesFromFile(patches_.c_str(), nullptr))) {
        std::fprintf(stderr, "tilescope tracer: the patches %s were not loaded (built for this GPU's architecture?)\n",
                     patches_.c_str());
        return;
      }
      patches_added_ = true;
    }
    static const std::pair<Sanitizer_InstructionId, const char*> kPatches[] = {
        {SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS, "TracerGlobalAccess"},
        {SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS, "TracerSharedAccess"},
        {SANITIZER_INSTRUCTION_LOCAL_MEMORY_ACCESS, "TracerLocalAccess"},
        {SANITIZER_INSTRUCTION_BARRIER, "TracerBarrier"},
        {SANITIZER_INSTRUCTION_MEMCPY_ASYNC, "TracerMemcpyAsync"},
        {SANITIZER_INSTRUCTION_PIPELINE_COMMIT, "TracerPipelineCommit"},
        {SANITIZER_INSTRUCTION_PIPELINE_WAIT, "TracerPipelineWait"},
        {SANITIZER_INSTRUCTION_BLOCK_ENTER, "TracerBlockEnter"},
        {SANITIZER_INSTRUCTION_BLOCK_EXIT, "TracerBlockExit"},
        {SANITIZER_INSTRUCTION_MATRIX_MEMORY_ACCESS, "TracerMatrixAccess"},
    };
    for (const auto& [id, name] : kPatches) TRACER_CHECK(sanitizerPatchInstructions(id, m.module, name));
    TRACER_CHECK(sanitizerPatchModule(m.module));
    for (auto& [kernel, shared] : cubin_shared(m.pCubin, m.cubinSize)) shared_[kernel] = std::move(shared);
    // The module's ELF, for the traced function's SASS and line table (tilescope disassembles it).
    if (m.pCubin && m.cubinSize)
      cubins_[m.module].assign(reinterpret_cast<const std::uint8_t*>(m.pCubin),
                               reinterpret_cast<const std::uint8_t*>(m.pCubin) + m.cubinSize);
  }

  bool matches(const char* name) const {
    if (!kernel_) return true;
    return std::regex_search(name, *kernel_) || std::regex_search(demangle(name), *kernel_);
  }

  void launch_begin(const Sanitizer_LaunchData& d) {
    flush();  // a traced launch before this one is complete on its stream
    const char* name = d.functionName ? d.functionName : "?";
    raw_.launches.emplace_back(name);
    const bool chosen = !traced_ && matches(name) && matching_++ == wanted_;
    if (!chosen) {
      TRACER_CHECK(sanitizerSetCallbackData(d.function, nullptr));
      return;
    }
    traced_ = true;
    raw_.traced = true;
    raw_.launch_index = static_cast<std::uint32_t>(raw_.launches.size() - 1);
    raw_.kernel = name;
    raw_.grid = {d.gridDim_x, d.gridDim_y, d.gridDim_z};
    raw_.block = {d.blockDim_x, d.blockDim_y, d.blockDim_z};
    raw_.capacity = capacity_;
    char device[256] = "";
    if (cuDeviceGetName(device, sizeof device, d.device) == CUDA_SUCCESS) raw_.device_name = device;
    int static_shared = 0;
    if (cuFuncGetAttribute(&static_shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, d.function) == CUDA_SUCCESS)
      raw_.static_shared_bytes = static_cast<std::uint32_t>(static_shared);
    if (auto it = shared_.find(name); it != shared_.end()) raw_.shared_symbols = it->second.symbols;
    if (auto it = cubins_.find(d.module); it != cubins_.end()) raw_.cubin = std::move(it->second);
    cubins_.clear();  // only the traced function's module is kept
    std::uint64_t pc = 0, size = 0;
    if (TRACER_CHECK(sanitizerGetFunctionPcAndSize(d.module, name, &pc, &size))) {
      raw_.function_pc = pc;
      raw_.function_size = size;
    }
    raw_.allocations = live_;
    snapshot(d.hStream, false);

    Pending p;
    p.context = d.context;
    p.stream = d.hStream;
    if (!TRACER_CHECK(sanitizerAlloc(d.context, reinterpret_cast<void**>(&p.records), capacity_ * sizeof(RawRecord))) ||
        !TRACER_CHECK(sanitizerAlloc(d.context, reinterpret_cast<void**>(&p.log), sizeof(RawDeviceLog)))) {
      std::fprintf(stderr, "tilescope tracer: no device memory for %llu records; the launch runs untraced\n",
                   static_cast<unsigned long long>(capacity_));
      TRACER_CHECK(sanitizerSetCallbackData(d.function, nullptr));
      return;
    }
    RawDeviceLog host{0, capacity_, p.records};
    TRACER_CHECK(sanitizerMemcpyHostToDeviceAsync(p.log, &host, sizeof host, d.hStream));
    TRACER_CHECK(sanitizerSetCallbackData(d.function, p.log));
    pending_ = p;
  }

  // Copies of the allocations of the listed sizes, on the traced stream.
  void snapshot(Sanitizer_StreamHandle stream, bool after) {
    for (std::uint32_t i = 0; i < raw_.allocations.size(); ++i) {
      const RawAllocation& a = raw_.allocations[i];
      if (std::find(snapshot_sizes_.begin(), snapshot_sizes_.end(), a.bytes) == snapshot_sizes_.end()) continue;
      RawSnapshot s{i, after, std::vector<std::uint8_t>(a.bytes)};
      if (TRACER_CHECK(sanitizerMemcpyDeviceToHost(s.bytes.data(), reinterpret_cast<void*>(a.address), a.bytes, stream)))
        raw_.snapshots.push_back(std::move(s));
    }
  }

  // Reads the traced launch back (stream-ordered: after it) and writes the file.
  void flush() {
    if (!pending_) return;
    const Pending p = *pending_;
    pending_.reset();
    RawDeviceLog host{};
    if (TRACER_CHECK(sanitizerMemcpyDeviceToHost(&host, p.log, sizeof host, p.stream))) {
      raw_.records_needed = host.count;
      raw_.records.resize(std::min<std::uint64_t>(host.count, capacity_));
      if (!raw_.records.empty())
        TRACER_CHECK(sanitizerMemcpyDeviceToHost(raw_.records.data(), p.records,
                                                 raw_.records.size() * sizeof(RawRecord), p.stream));
      snapshot(p.stream, true);
    }
    TRACER_CHECK(sanitizerFree(p.context, p.records));
    TRACER_CHECK(sanitizerFree(p.context, p.log));
    write(true);
  }

  void write(bool traced) {
    raw_.traced = traced && raw_.traced;
    try {
      write_raw_launch(raw_, out_);
      launches_written_ = raw_.launches.size();
    } catch (const RawFileError& e) {
      std::fprintf(stderr, "tilescope tracer: %s\n", e.what());
    }
    written_ = true;
  }

  bool enabled_ = false, patches_added_ = false, traced_ = false, written_ = false;
  std::string out_, patches_;
  std::optional<std::regex> kernel_;
  std::uint64_t wanted_ = 0, matching_ = 0, capacity_ = 0;
  std::size_t launches_written_ = 0;
  std::vector<std::uint64_t> snapshot_sizes_;
  std::mutex mu_;
  std::vector<RawAllocation> live_;
  std::vector<RawAllocation> seen_;  // every allocation, in order, for the message when no launch matches
  std::map<std::string, KernelShared> shared_;
  std::map<CUmodule, std::vector<std::uint8_t>> cubins_;  // every module loaded so far, until the traced launch
  std::optional<Pending> pending_;
  RawLaunch raw_;
};

// The subscription at load time (see the top of this file).
Tracer g_tracer;

}  // namespace
}  // namespace ts::tracer
