// Typed kernels (typed/typed.py): -O1 --emit=ssa against typed/<case>.ssa,
// byte for byte. These files are ours (not the seed's conformance cases):
// regenerate one only after checking the new SSA against Triton's semantics.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "process.h"

namespace {

struct TypedCase {
    const char *name;
    const char *kernel;
    const char *signature;
    std::vector<std::string> defines;
};

const std::vector<TypedCase> typed_cases = {
    {"half_scale", "half_scale_kernel", "*fp16, *fp16, i32, fp16", {"BLOCK=64"}},
    {"int_ops", "int_ops_kernel", "*i8, *i32, i32", {"BLOCK=64"}},
    {"mixed_sigmoid", "mixed_kernel", "*bf16, *u8, *fp16, i32", {"BLOCK=64", "ACT=sigmoid"}},
    {"mixed_relu", "mixed_kernel", "*bf16, *u8, *fp16, i32", {"BLOCK=64", "ACT=\"relu\""}},
};

class TypedGolden : public ::testing::TestWithParam<size_t> {};

TEST_P(TypedGolden, SsaMatches) {
    const TypedCase &c = typed_cases[GetParam()];
    std::string dir = MT_TYPED_DIR;
    std::vector<std::string> argv = {MT_TEST_COMPILER, dir + "/typed.py", "--kernel", c.kernel,
                                     "--signature",    c.signature,       "-O1",      "--emit=ssa"};
    for (auto &d : c.defines) argv.insert(argv.end(), {"-D", d});
    auto r = mt_test::run_process(argv);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.out, mt_test::read_file(dir + "/" + c.name + ".ssa"));
}

INSTANTIATE_TEST_SUITE_P(Typed, TypedGolden, ::testing::Range<size_t>(0, typed_cases.size()),
                         [](const ::testing::TestParamInfo<size_t> &i) {
                             return std::string(typed_cases[i.param].name);
                         });

}  // namespace
