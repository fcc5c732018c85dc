// user_args.h — a user kernel's scalar parameters after A, B, C, M, N, K (an
// alpha, a beta, a leading dimension) and their values from --arg NAME=VALUE.
//
//   TS_DEVICE void sgemm(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K, float alpha, float beta)
//   tilescope record --kernel-file sgemm.cu --entry sgemm --arg alpha=2 --arg beta=0 ...
//
// The entry's parameter list is read from the source (user_kernel.h's wrapper
// then passes each value as a literal of its parameter's type); each value is
// checked against that type, never pasted into the generated code as typed.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/user/user_kernel.h"

namespace ts {

struct EntryParam {
  std::string text;  // as written, whitespace collapsed, without its default: "const float alpha"
  std::string type;  // without const, e.g. "float", "unsigned int", "float *"; empty when unreadable
  std::string name;  // empty: unnamed (a declaration's)
  bool has_default = false;
};

// The parameters of `void ENTRY(...)` in source, comments, literals and
// preprocessor lines skipped: its definition's, else its first declaration's;
// a default given by any declaration counts. nullopt: the source shows none
// (a macro may still make one: then the compiler judges the call).
std::optional<std::vector<EntryParam>> find_entry_params(std::string_view source, const std::string& entry);

// "const float alpha, int lda": the parameters as written, for messages.
std::string param_list_text(const std::vector<EntryParam>& params);

// "" or why the --arg list is malformed: each NAME=VALUE with NAME a C
// identifier and VALUE one word, no NAME twice.
std::string check_arg_forms(const std::vector<std::string>& args);

// What the wrapper passes the entry after M, N, K.
struct BoundArgs {
  // In parameter order, each of its parameter's type: "2.0f", "static_cast<int>(64ull)".
  std::vector<std::string> literals;
  // The entry takes a beta (C = alpha A B + beta C, BLAS's names): C starts at
  // 0 rather than NaN (tilescope's mark of a cell never written), so that beta C adds nothing.
  bool c_starts_zero = false;
};

// Binds spec.args to the entry's parameters after the sixth, by name; a
// parameter without one keeps its default. Throws UserKernelError(BadSpec)
// naming the parameter: an --arg naming none, one without a value or default,
// a value its type cannot hold, a type that is not a supported scalar.
BoundArgs bind_user_args(const UserKernelSpec& spec, std::string_view source);

// The value `--arg NAME=VALUE` gave NAME, if any.
std::optional<std::string> arg_value(const std::vector<std::string>& args, std::string_view name);

// What C is held to, as a multiple of A x B: the number bound to a parameter
// named alpha (BLAS's name; C starts at 0, so beta C adds nothing), else 1.
double result_scale(const std::vector<std::string>& args);

// A scalar parameter's value as the bytes of its type (the host's layout is the
// device's: LP64, IEEE 754), for a launch through the driver API
// (kernels/cuda/plain_file.h). nullopt when `type` is not a supported scalar
// or cannot hold `value`: then why says what it takes.
struct ScalarBytes {
  unsigned char bytes[8] = {};
  std::size_t size = 0;
};
std::optional<ScalarBytes> scalar_bytes(const std::string& type, std::string_view value, std::string& why);

// " --arg alpha=2 --arg beta=0", for titles and panels (and " -D TILE=16" for defines).
std::string flags_text(const std::vector<std::string>& defines, const std::vector<std::string>& args);

}  // namespace ts
