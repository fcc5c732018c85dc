// user_kernel.h — a kernel the user wrote in tilescope's vocabulary
// (<tilescope/kernel.h>), compiled on demand and recorded like the project's own.
//
//   UserKernelSpec spec{"my.cu", "my_matmul", {16, 16, 1}, 0, 0, {"TILE=16"}};
//   spec.args = {"alpha=2"};                         // the entry's scalars after M, N, K (user_args.h)
//   const Trace t = record(params_with(spec));      // kernels/recorder.h
//
// The emulator build: the system C++ compiler makes a shared object from a
// generated wrapper (the user's source after a #line, inside the emulator's
// namespace, and one exported entry point), loaded with dlopen. The GPU build:
// NVRTC compiles the same wrapper in the recorded mode (kernels/cuda/). Both
// are cached by content hash (compile_cache.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "trace/dim3.h"
#include "trace/event.h"

namespace ts {

struct UserKernelSpec {
  std::string file;                  // the kernel's source file
  std::string entry;                 // the function: void NAME(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K, ...)
  Dim3 block{16, 16, 1};             // threads per block
  int tile_rows = 0, tile_cols = 0;  // the cells of C one block computes; 0: the block's shape
  std::vector<std::string> defines;  // "NAME=VALUE" (or "NAME"), in order
  std::int64_t file_stamp = 0;       // the file's modification time when asked: a changed file is a new request
  std::vector<std::string> args;     // "NAME=VALUE": the entry's scalars after M, N, K, by name (user_args.h)

  int rows_per_block() const { return tile_rows ? tile_rows : static_cast<int>(block.y); }
  int cols_per_block() const { return tile_cols ? tile_cols : static_cast<int>(block.x); }
  // grid = ceil(N / COLS) x ceil(M / ROWS)
  Dim3 grid(int m, int n) const;
  // "my.cu:my_matmul", for titles and messages.
  std::string label() const;
  friend bool operator==(const UserKernelSpec&, const UserKernelSpec&) = default;
};

// Why a user kernel could not be built. The message is one or more lines the
// user can act on: the compiler's own diagnostics keep their FILE:LINE.
class UserKernelError : public std::runtime_error {
 public:
  enum class Kind {
    BadSpec,     // a malformed -D, --arg, block or tile, or an --arg the entry cannot take: a usage error
    NoFile,      // the source file cannot be read
    NoCompiler,  // no C++ compiler (or no NVRTC) to build it with
    Compile,     // the compiler refused the source
    NoEntry,     // the source defines no function of that name and signature
  };
  UserKernelError(Kind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// The flags as typed (the CLI's --kernel-file --entry --block --block-tile -D
// --arg, the app's Open kernel form) -> spec, with its file's stamp; returns an
// error message, empty when valid. block: "XxY"; block_tile: "ROWSxCOLS" or
// empty. The args' names and types are checked against the source when it is compiled.
std::string user_spec_from_flags(const std::string& file, const std::string& entry, const std::string& block,
                                 const std::string& block_tile, const std::vector<std::string>& defines,
                                 const std::vector<std::string>& args, UserKernelSpec& spec);

// Checks the spec's shape, defines and the form of its args; throws UserKernelError(BadSpec).
void validate_user_spec(const UserKernelSpec& spec);

// The source the compiler sees: <tilescope/kernel.h> in the given mode, the
// defines, the user's file inside the mode's namespace after a #line naming
// it, and an entry point that calls the entry with A, B, C, M, N, K and then
// extra_args (bind_user_args's literals). recorded_mode: the instrumented CUDA
// build (NVRTC). entry_marker names the pseudo-file of the entry point's
// lines, so that a missing entry is told apart from an error in the user's code.
std::string user_kernel_wrapper(const UserKernelSpec& spec, const std::string& source,
                                const std::vector<std::string>& extra_args, bool recorded_mode);
inline constexpr const char* kEntryMarker = "<tilescope entry point>";
// What the compilers' "defines no kernel NAME..." says an entry looks like.
inline constexpr const char* kEntrySignature =
    "(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K, then any scalars given by --arg NAME=VALUE)";

// The directories the wrapper is compiled against: the one holding
// tilescope/kernel.h, and the one its own includes are relative to.
// $TILESCOPE_INCLUDE_DIR, else <exe>/../include/tilescope when installed, else the source tree.
std::vector<std::filesystem::path> user_kernel_include_dirs();

// The file's text; throws UserKernelError(NoFile).
std::string read_kernel_source(const std::string& file);

// The source file's modification time (0 when it cannot be read).
std::int64_t kernel_file_stamp(const std::string& file);

}  // namespace ts
