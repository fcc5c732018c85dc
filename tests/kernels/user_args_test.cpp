// A user entry's scalars after M, N, K (--arg NAME=VALUE): the parameter list
// found in the source, each value checked against its type and passed as a
// literal of it, every refusal naming the parameter; recorded on the emulator
// (a listing's alpha and beta, a leading dimension used for indexing), kept in
// the trace's launch description, and part of the compiled object's name.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "trace/model/reference.h"
#include "kernels/recorder.h"
#include "kernels/user/cpu_compiler.h"
#include "kernels/user/user_args.h"
#include "tests/kernels/user_kernel_support.h"
#include "trace/launch_json.h"

namespace ts {
namespace {

// A listing's signature with every supported kind of scalar after M, N, K.
const char* const kScalars = R"(#include <tilescope/kernel.h>
TS_DEVICE void f(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K, int lda, unsigned n, long long big,
                 std::size_t s, double d, bool b, float x) {}
)";

UserKernelSpec spec_with(const std::string& entry, std::vector<std::string> args) {
  UserKernelSpec s;
  s.file = "listing.cu";
  s.entry = entry;
  s.args = std::move(args);
  return s;
}

// The BadSpec message binding args to source's entry ends in.
std::string bind_error(const std::string& source, const std::string& entry, std::vector<std::string> args) {
  try {
    bind_user_args(spec_with(entry, std::move(args)), source);
  } catch (const UserKernelError& e) {
    EXPECT_EQ(e.kind(), UserKernelError::Kind::BadSpec) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "bound without a word";
  return {};
}

TEST(EntryParams, FoundPastCommentsLiteralsAndDirectivesOverLines) {
  const std::string source = R"src(#include <tilescope/kernel.h>
#define NOT_IT void f(int q)
// void f(InMatrix A) in a comment
const char* text = "void f(float no)";
TS_DEVICE void f(InMatrix A, InMatrix B, OutMatrix C,
                 int M, int N, int K, /* then the scalars: */ const float alpha,
                 unsigned int n_, std::size_t ld = sizeof(float) * 2,
                 bool flag = (1 < 2)) {
  const int separated = 1'000;
}
)src";
  const auto p = find_entry_params(source, "f");
  ASSERT_TRUE(p);
  ASSERT_EQ(p->size(), 10u);
  EXPECT_EQ((*p)[0].type, "InMatrix");
  EXPECT_EQ((*p)[0].name, "A");
  EXPECT_EQ((*p)[6].text, "const float alpha");
  EXPECT_EQ((*p)[6].type, "float");
  EXPECT_EQ((*p)[6].name, "alpha");
  EXPECT_FALSE((*p)[6].has_default);
  EXPECT_EQ((*p)[7].type, "unsigned int");
  EXPECT_EQ((*p)[7].name, "n_");
  EXPECT_EQ((*p)[8].type, "std::size_t");
  EXPECT_TRUE((*p)[8].has_default);
  EXPECT_EQ((*p)[9].name, "flag");
  EXPECT_TRUE((*p)[9].has_default);
}

// The definition names the parameters; a declaration before it may give the default.
TEST(EntryParams, TheDefinitionsNamesAndAnyDeclarationsDefaults) {
  const std::string source =
      "TS_DEVICE void f(InMatrix, InMatrix, OutMatrix, int, int, int, float = 2.0f);\n"
      "TS_DEVICE void f(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K, float alpha) {}\n";
  const auto p = find_entry_params(source, "f");
  ASSERT_TRUE(p);
  ASSERT_EQ(p->size(), 7u);
  EXPECT_EQ((*p)[6].name, "alpha");
  EXPECT_TRUE((*p)[6].has_default);
  EXPECT_FALSE(find_entry_params("TS_DEVICE void g(int x) { f(1); }\n", "f"));
  EXPECT_FALSE(find_entry_params("TS_DEVICE void ff(int x);\n", "f"));
}

TEST(BindArgs, EachValueIsALiteralOfItsParametersType) {
  const BoundArgs b = bind_user_args(spec_with("f", {"x=0.1", "b=true", "d=-2.5e-3", "s=0", "big=-9223372036854775808",
                                                     "n=4294967295", "lda=-2147483648"}),
                                     kScalars);
  const std::vector<std::string> want = {"static_cast<int>(-2147483648ll)",
                                         "static_cast<unsigned int>(4294967295ull)",
                                         "static_cast<long long>((-9223372036854775807ll - 1))",
                                         "static_cast<unsigned long long>(0ll)",
                                         "-0.0025",
                                         "true",
                                         "0.1f"};
  EXPECT_EQ(b.literals, want);  // in the parameters' order, whatever the args' order
  EXPECT_FALSE(b.c_starts_zero);
  EXPECT_EQ(bind_user_args(spec_with("f", {"x=2", "b=0", "d=1", "s=18446744073709551615", "big=+7", "n=0", "lda=64"}),
                           kScalars)
                .literals,
            (std::vector<std::string>{
                "static_cast<int>(64ull)", "static_cast<unsigned int>(0ll)", "static_cast<long long>(7ull)",
                "static_cast<unsigned long long>(18446744073709551615ull)", "1.0", "false", "2.0f"}));
}

TEST(BindArgs, ABetaMakesCStartAtZeroAndADefaultStays) {
  const std::string source =
      "TS_DEVICE void g(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K, float alpha, float beta = 0) {}\n";
  const BoundArgs b = bind_user_args(spec_with("g", {"alpha=2"}), source);
  EXPECT_EQ(b.literals, std::vector<std::string>{"2.0f"});
  EXPECT_TRUE(b.c_starts_zero);
  // An entry of six parameters takes no args, and the source's own entry point is left to the compiler.
  EXPECT_TRUE(bind_user_args(spec_with("h", {}),
                             "TS_DEVICE void h(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {}")
                  .literals.empty());
  EXPECT_TRUE(bind_user_args(spec_with("h", {}), "MAKE_ENTRY(h)").literals.empty());
}

TEST(BindArgs, EveryRefusalNamesTheParameter) {
  const std::string sgemm =
      "TS_DEVICE void sgemm(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K, float alpha, float beta) {}\n";
  const auto expect = [](const std::string& what, const std::string& needle) {
    EXPECT_NE(what.find(needle), std::string::npos) << what;
  };
  expect(bind_error(sgemm, "sgemm", {"alpha=1", "gamma=1"}),
         "--arg gamma=1: sgemm (listing.cu) has no parameter gamma after A, B, C, M, N, K; it takes float alpha, "
         "float beta");
  expect(bind_error(sgemm, "sgemm", {"alpha=1"}),
         "sgemm (listing.cu) takes float beta: give it a value with --arg beta=VALUE");
  expect(bind_error(sgemm, "sgemm", {"alpha=two", "beta=0"}), "--arg alpha=two: float alpha takes a finite number");
  expect(bind_error(sgemm, "sgemm", {"alpha=inf", "beta=0"}), "float alpha takes a finite number");
  expect(bind_error(sgemm, "sgemm", {"alpha=0x10", "beta=0"}), "float alpha takes a finite number");
  expect(bind_error(sgemm, "sgemm", {"alpha=1e39", "beta=0"}), "float alpha takes a number float can hold");
  expect(bind_error(sgemm, "sgemm", {"alpha=1e-50", "beta=0"}), "not so small that it rounds to 0");
  expect(bind_error(sgemm, "sgemm", {"alpha=1", "alpha=2", "beta=0"}), "--arg alpha is given twice");
  expect(bind_error(kScalars, "f", {"lda=1.5"}),
         "--arg lda=1.5: int lda takes a whole number from -2147483648 to 2147483647");
  expect(bind_error(kScalars, "f", {"lda=2147483648"}), "int lda takes a whole number");
  expect(bind_error(kScalars, "f", {"lda=1", "n=-1"}), "unsigned n takes a whole number from 0 to 4294967295");
  expect(bind_error(kScalars, "f", {"lda=1", "n=1", "big=1", "s=1", "d=1", "b=yes"}),
         "bool b takes true, false, 1 or 0");
  expect(bind_error("TS_DEVICE void p(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K, float* scratch) {}",
                    "p", {}),
         "p (listing.cu) takes 'float * scratch' after A, B, C, M, N, K: tilescope binds only scalars there");
  expect(bind_error("TS_DEVICE void q(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K, float alpha = 1, "
                    "float beta = 0) {}",
                    "q", {"beta=1"}),
         "--arg beta=1: float alpha comes before beta and keeps its default; give it too (--arg alpha=VALUE)");
  expect(bind_error("TS_DEVICE void h(InMatrix A, InMatrix B, OutMatrix C, int M, int N, int K) {}", "h", {"alpha=1"}),
         "h (listing.cu) has no parameter alpha after A, B, C, M, N, K (it takes none)");
  expect(bind_error("MAKE_ENTRY(h)", "h", {"alpha=1"}), "found no void h(...) in listing.cu");
}

TEST(BindArgs, MalformedArgsAreRefusedBeforeAnySourceIsRead) {
  const auto refused = [](const std::string& arg, const std::string& needle) {
    const std::string what = check_arg_forms({arg});
    EXPECT_NE(what.find(needle), std::string::npos) << arg << ": " << what;
    UserKernelSpec s = spec_with("f", {arg});
    EXPECT_THROW(validate_user_spec(s), UserKernelError) << arg;
  };
  refused("alpha", "--arg alpha: an argument is NAME=VALUE");
  refused("alpha=", "an argument is NAME=VALUE");
  refused("=2", "NAME must be a parameter's name");
  refused("1x=2", "NAME must be a parameter's name");
  refused("alpha=1 2", "VALUE is one number or true/false");
  EXPECT_EQ(check_arg_forms({"alpha=2", "beta=-0.5", "lda=64"}), "");
  // Well formed, but no code: its value is refused against its type when bound, never pasted.
  EXPECT_EQ(check_arg_forms({"alpha=1;exit(1)"}), "");
  EXPECT_NE(bind_error(kScalars, "f", {"x=1;exit(1)", "lda=1", "n=1", "big=1", "s=1", "d=1", "b=1"})
                .find("--arg x=1;exit(1): float x takes a finite number"),
            std::string::npos);
}

TEST(BindArgs, TheWrapperPassesTheLiteralsAfterMNK) {
  const UserKernelSpec s = spec_with("sgemm", {"alpha=2", "beta=0.5"});
  const std::vector<std::string> literals = {"2.0f", "0.5f"};
  const std::string gpu = user_kernel_wrapper(s, "TS_DEVICE void sgemm();", literals, true);
  EXPECT_NE(gpu.find("TS_USER_RECORDED_KERNEL(sgemm, 2.0f, 0.5f)\n"), std::string::npos) << gpu;
  const std::string emu = user_kernel_wrapper(s, "TS_DEVICE void sgemm();", literals, false);
  EXPECT_NE(emu.find("p.m, p.n, p.k, 2.0f, 0.5f);"), std::string::npos) << emu;
  const std::string plain = user_kernel_wrapper(spec_with("sgemm", {}), "", {}, true);
  EXPECT_NE(plain.find("TS_USER_RECORDED_KERNEL(sgemm)\n"), std::string::npos) << plain;
}

TEST(ResultScale, IsTheNumberBoundToAlpha) {
  EXPECT_EQ(result_scale({}), 1.0);
  EXPECT_EQ(result_scale({"beta=3", "alpha=-0.5"}), -0.5);
  EXPECT_EQ(result_scale({"alpha=2.0f"}), 2.0);
  EXPECT_EQ(flags_text({"TILE=16"}, {"alpha=2"}), " -D TILE=16 --arg alpha=2");
}

TEST(LaunchJson, ArgsRoundTripAndOlderFilesHaveNone) {
  LaunchInfo L;
  L.kernel = "sgemm";
  L.user_kernel = UserKernelInfo{"sgemm.cu", "sgemm", {"TILE=16"}, 16, 16, {"alpha=2", "beta=0.5"}};
  nlohmann::json j = launch_to_json(L);
  EXPECT_EQ(j["user_kernel"]["args"], nlohmann::json({"alpha=2", "beta=0.5"}));
  ASSERT_TRUE(launch_from_json(j).user_kernel);
  EXPECT_EQ(*launch_from_json(j).user_kernel, *L.user_kernel);
  j["user_kernel"].erase("args");  // a file written before --arg
  EXPECT_TRUE(launch_from_json(j).user_kernel->args.empty());
  L.user_kernel->args.clear();
  EXPECT_FALSE(launch_to_json(L)["user_kernel"].contains("args"));  // none: the file is as before
  j["user_kernel"]["args"] = "alpha=2";
  EXPECT_THROW(launch_from_json(j), nlohmann::json::exception);
  j["user_kernel"]["args"] = nlohmann::json::array({2});
  EXPECT_THROW(launch_from_json(j), nlohmann::json::exception);
}

class UserArgs : public ::testing::Test {
 protected:
  void SetUp() override { test::use_test_kernel_cache(); }
};

// A blog's SGEMM listing, C = alpha A B + beta C: C starts at 0, so with any
// beta it is alpha A x B, within float rounding of the double reference; each
// thread reads its cell of C once (the beta term).
TEST_F(UserArgs, ABlogsSgemmWithAlphaAndBetaRecordsAlphaTimesAB) {
  for (const char* beta : {"0", "0.5"}) {
    RecordParams p = test::user_params(test::example_file("sgemm_alpha_beta.cu"), "sgemm", 16, 37, 29, 45);
    p.user->args = {"alpha=2", std::string("beta=") + beta};
    const Trace t = record(p);
    SCOPED_TRACE(beta);
    EXPECT_EQ(check_matmul(t.a, t.b, t.c, p.m, p.n, p.k, 2.0), "");
    EXPECT_NE(check_matmul(t.a, t.b, t.c, p.m, p.n, p.k), "");  // it is not A x B
    ASSERT_TRUE(t.launch.user_kernel);
    EXPECT_EQ(t.launch.user_kernel->args, p.user->args);
    std::uint64_t c_loads = 0;
    for (const Event& e : t.events.span()) c_loads += e.array_id() == ArrayId::C && e.op() == Op::Load;
    EXPECT_EQ(c_loads, 37u * 29u);
  }
}

// lda is used for indexing: with lda < K A's rows overlap, and C is the product
// of those rows (computed here in double), times alpha; alpha's default is 1.
TEST_F(UserArgs, ALeadingDimensionIndexesAAndAlphasDefaultIsKept) {
  const std::string file = test::source_tree() + "/tests/kernels/data/leading_dim_user.cu";
  RecordParams p = test::user_params(file, "matmul_ld", 8, 13, 11, 24);
  p.user->args = {"lda=24"};
  Trace t = record(p);
  EXPECT_EQ(check_matmul(t.a, t.b, t.c, p.m, p.n, p.k), "");
  p.user->args = {"lda=10", "alpha=-3"};
  t = record(p);
  for (int r = 0; r < p.m; ++r)
    for (int c = 0; c < p.n; ++c) {
      double ref = 0, mag = 0;
      for (int k = 0; k < p.k; ++k) {
        const double x = double(t.a[std::size_t(r) * 10 + k]) * t.b[std::size_t(k) * p.n + c];
        ref += x;
        mag += std::fabs(x);
      }
      EXPECT_NEAR(t.c[std::size_t(r) * p.n + c], -3 * ref, 2.0 * p.k * std::ldexp(1.0, -24) * 3 * mag) << r << " " << c;
    }
  std::uint32_t last_a = 0;  // row 12 of A starts at 120: the last A read is 120 + 23
  for (const Event& e : t.events.span())
    if (e.array_id() == ArrayId::A) last_a = std::max(last_a, e.index);
  EXPECT_EQ(last_a, 12u * 10 + 23);
}

TEST_F(UserArgs, TheValuesArePartOfTheCompiledObjectsName) {
  const auto spec = [](const char* alpha) {
    UserKernelSpec s = *test::user_params(test::example_file("sgemm_alpha_beta.cu"), "sgemm", 16, 8, 8, 8).user;
    s.args = {std::string("alpha=") + alpha, "beta=0"};
    return s;
  };
  const CompiledCpuKernel two = compile_for_emulator(spec("2"));
  EXPECT_TRUE(two.c_starts_zero);
  EXPECT_NE(compile_for_emulator(spec("3")).object, two.object);
  EXPECT_TRUE(compile_for_emulator(spec("2")).cached);
}

// Through record(): a refusal is a spec error (the CLI's usage exit).
TEST_F(UserArgs, RefusalsAreInvalidParams) {
  RecordParams p = test::user_params(test::example_file("sgemm_alpha_beta.cu"), "sgemm", 16, 8, 8, 8);
  p.user->args = {"alpha=2"};
  std::string what = test::record_error(p, RecordError::Kind::InvalidParams);
  EXPECT_NE(what.find("takes float beta"), std::string::npos) << what;
  p.user->args = {"alpha=2", "alpha=3"};
  what = test::record_error(p, RecordError::Kind::InvalidParams);
  EXPECT_NE(what.find("given twice"), std::string::npos) << what;
}

}  // namespace
}  // namespace ts
