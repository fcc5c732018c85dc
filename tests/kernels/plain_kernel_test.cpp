// A CUDA file as written (kernels/user/plain_kernel.h): its entry's parameters
// bound by name before any launch — matrices by @A/@B/@C or by their names,
// sizes by M/N/K, scalars by --arg checked for their types — and every
// refusal naming the parameter; the launch shape's flags.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "kernels/user/plain_kernel.h"
#include "kernels/user/user_kernel.h"

namespace ts {
namespace {

const std::string kExample = TILESCOPE_SOURCE_TREE "/examples/cuda/sgemm_blocktile_float4.cu";

PlainKernel example(std::vector<std::string> args) {
  PlainKernel k;
  k.file = kExample;
  k.entry = "sgemm_blocktile_float4";
  k.args = std::move(args);
  return k;
}

// The message of the UserKernelError binding throws, checking its kind.
std::string bind_error(const PlainKernel& k, UserKernelError::Kind want = UserKernelError::Kind::BadSpec) {
  try {
    bind_plain_kernel(k, 64, 64, 64);
  } catch (const UserKernelError& e) {
    EXPECT_EQ(e.kind(), want) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "bound without an error";
  return {};
}

template <class T>
T value_of(const BoundParam& p) {
  EXPECT_EQ(p.value.size, sizeof(T)) << p.name;
  T v{};
  std::memcpy(&v, p.value.bytes, sizeof v);
  return v;
}

TEST(PlainKernel, TheExampleBindsByNameAndByItsParametersNames) {
  const auto bound = bind_plain_kernel(example({"alpha=2", "beta=0.5"}), 128, 96, 64);
  ASSERT_EQ(bound.size(), 8u);  // int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C
  EXPECT_EQ(value_of<int>(bound[0]), 128);
  EXPECT_EQ(value_of<int>(bound[1]), 96);
  EXPECT_EQ(value_of<int>(bound[2]), 64);
  EXPECT_EQ(value_of<float>(bound[3]), 2.0f);
  EXPECT_EQ(bound[4].matrix, 'A');
  EXPECT_EQ(bound[5].matrix, 'B');
  EXPECT_EQ(value_of<float>(bound[6]), 0.5f);
  EXPECT_EQ(bound[7].matrix, 'C');
  EXPECT_EQ(bound[7].shown, "@C");
  EXPECT_TRUE(plain_kernel_takes_beta(bound));
  EXPECT_DOUBLE_EQ(plain_kernel_alpha(bound), 2.0);
}

TEST(PlainKernel, ExplicitBindingsWinOverNames) {
  // The sizes and the matrices can be bound against their names: A to B's matrix, M to 7.
  const auto bound = bind_plain_kernel(example({"alpha=1", "beta=0", "A=@B", "B=@A", "M=7"}), 128, 96, 64);
  EXPECT_EQ(value_of<int>(bound[0]), 7);
  EXPECT_EQ(bound[4].matrix, 'B');
  EXPECT_EQ(bound[5].matrix, 'A');
}

TEST(PlainKernel, EveryRefusalNamesTheParameter) {
  EXPECT_NE(bind_error(example({"alpha=1"})).find("'float beta' of sgemm_blocktile_float4 is not bound"),
            std::string::npos);
  EXPECT_NE(bind_error(example({"alpha=1", "beta=0", "gamma=3"})).find("--arg gamma=3: sgemm_blocktile_float4 has no "
                                                                      "such parameter (it takes int M, int N"),
            std::string::npos);
  EXPECT_NE(bind_error(example({"alpha=x", "beta=0"})).find("--arg alpha=x: 'float alpha' takes a finite number"),
            std::string::npos);
  EXPECT_NE(bind_error(example({"alpha=1", "beta=0", "A=7"})).find("'const float * A' of sgemm_blocktile_float4 is "
                                                                 "bound to '7': bind it to one of the matrices"),
            std::string::npos);
  EXPECT_NE(bind_error(example({"alpha=1", "beta=0", "M=3000000000"})).find("'int M' takes a whole number"),
            std::string::npos);
  EXPECT_NE(bind_error(example({"alpha", "beta=0"})).find("NAME=VALUE"), std::string::npos);
}

TEST(PlainKernel, AnEntryTheSourceDoesNotShowIsNamed) {
  PlainKernel k = example({});
  k.entry = "no_such_kernel";
  EXPECT_NE(bind_error(k, UserKernelError::Kind::NoEntry).find("shows no kernel __global__ void no_such_kernel"),
            std::string::npos);
  k.file = "/nonexistent/kernel.cu";
  try {
    bind_plain_kernel(k, 4, 4, 4);
    ADD_FAILURE() << "a missing file bound";
  } catch (const UserKernelError& e) {
    EXPECT_EQ(e.kind(), UserKernelError::Kind::NoFile) << e.what();
  }
}

TEST(PlainKernel, TemplatesUnsupportedScalarsAndEveryScalarKind) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "tilescope-plain-kernel-test";
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "kinds.cu").string();
  std::ofstream(file) << "template <int T>\n__global__ void kinds(float* C, long long big, unsigned u, double d, "
                         "bool flag, std::size_t s) {}\n"
                         "__global__ void half_kernel(float* C, __half h) {}\n";
  PlainKernel k;
  k.file = file;
  k.entry = "kinds<4>";
  k.args = {"big=-9000000000", "u=4000000000", "d=0.25", "flag=true", "s=18000000000000000000"};
  const auto bound = bind_plain_kernel(k, 1, 1, 1);
  ASSERT_EQ(bound.size(), 6u);
  EXPECT_EQ(value_of<long long>(bound[1]), -9000000000LL);
  EXPECT_EQ(value_of<unsigned>(bound[2]), 4000000000u);
  EXPECT_EQ(value_of<double>(bound[3]), 0.25);
  EXPECT_EQ(value_of<bool>(bound[4]), true);
  EXPECT_EQ(value_of<unsigned long long>(bound[5]), 18000000000000000000ull);
  EXPECT_FALSE(plain_kernel_takes_beta(bound));
  EXPECT_DOUBLE_EQ(plain_kernel_alpha(bound), 1.0);
  k.entry = "half_kernel";
  k.args = {"h=1"};
  EXPECT_NE(bind_error(k).find("'__half h' takes a parameter of one of these types"), std::string::npos);
}

TEST(PlainKernel, LaunchDimensions) {
  EXPECT_EQ(parse_dims("4,2"), (Dim3{4, 2, 1}));
  EXPECT_EQ(parse_dims("16x16"), (Dim3{16, 16, 1}));
  EXPECT_EQ(parse_dims("256"), (Dim3{256, 1, 1}));
  EXPECT_EQ(parse_dims("2,3,4"), (Dim3{2, 3, 4}));
  for (const char* bad : {"", "0,1", "4,", "x4", "1,2,3,4", "-1", "4;4", "4, 4", "99999999999"})
    EXPECT_FALSE(parse_dims(bad).has_value()) << bad;
}

}  // namespace
}  // namespace ts
