// The diagnostics of atomics and random numbers (issue 13): what Triton
// rejects (semantic.py: bad sem / scope strings, atomics on dtypes it does
// not support, a first argument that is not a pointer) and what mytriton
// cannot express, each as file:line:col: error: message, the line and a
// caret. Kernels as diagnostics_more_test.cpp writes them:
//   1 import triton
//   2 import triton.language as tl
//   3
//   4
//   5 @triton.jit
//   6 def k(x, y, n, z8, f, i16):
//   7     <body>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "unit_support.h"

namespace {

using namespace mt_unit;

struct AtomCase {
    const char *name;
    const char *body;
    const char *expected;
};

const char *const kParams = "x, y, n, z8, f, i16";
const char *const kSignature = "*i32, *fp16, i32, *i8, *fp32, *i16";

const std::vector<AtomCase> &cases() {
    static const std::vector<AtomCase> all = {
        {"BadSem", "    tl.atomic_add(x, 1, sem=\"seq_cst\")\n",
         "k.py:7:25: error: tl.atomic_add: sem \"seq_cst\" is not supported (one of \"acq_rel\", \"acquire\", "
         "\"release\", \"relaxed\")\n"
         "        tl.atomic_add(x, 1, sem=\"seq_cst\")\n"
         "                            ^\n"},
        {"BadScope", "    tl.atomic_cas(x, 0, 1, scope=\"device\")\n",
         "k.py:7:28: error: tl.atomic_cas: scope \"device\" is not supported (one of \"gpu\", \"cta\", \"sys\")\n"
         "        tl.atomic_cas(x, 0, 1, scope=\"device\")\n"
         "                               ^\n"},
        {"SemNotString", "    tl.atomic_and(x, 1, sem=1)\n",
         "k.py:7:25: error: tl.atomic_and: sem must be a compile-time string (got an int)\n"
         "        tl.atomic_and(x, 1, sem=1)\n"
         "                            ^\n"},
        {"NotAPointer", "    tl.atomic_add(n, 1)\n",
         "k.py:7:19: error: tl.atomic_add needs a pointer or a block of pointers (got i32)\n"
         "        tl.atomic_add(n, 1)\n"
         "                      ^\n"},
        {"MaxOfFp16", "    tl.atomic_max(y, 1.0)\n",
         "k.py:7:19: error: tl.atomic_max on ptr<f16>: this atomic does not support fp16 or bf16 (only "
         "atomic_add does)\n"
         "        tl.atomic_max(y, 1.0)\n"
         "                      ^\n"},
        {"XchgOfFp16", "    tl.atomic_xchg(y, 1.0)\n",
         "k.py:7:20: error: tl.atomic_xchg on ptr<f16>: atomic_xchg does not support fp16 or bf16\n"
         "        tl.atomic_xchg(y, 1.0)\n"
         "                       ^\n"},
        {"AddOfInt16", "    tl.atomic_add(i16, 1)\n",
         "k.py:7:19: error: tl.atomic_add on ptr<i16>: atomics need elements of 32 or 64 bits (of 16 bits: "
         "atomic_add of fp16 / bf16, atomic_cas)\n"
         "        tl.atomic_add(i16, 1)\n"
         "                      ^\n"},
        {"CasOfInt8", "    tl.atomic_cas(z8, 0, 1)\n",
         "k.py:7:19: error: tl.atomic_cas on ptr<i8>: atomic_cas only supports elements of 16, 32 or 64 bits\n"
         "        tl.atomic_cas(z8, 0, 1)\n"
         "                      ^\n"},
        {"BitwiseOfFloat", "    tl.atomic_or(f, 1.0)\n",
         "k.py:7:18: error: tl.atomic_or on ptr<f32>: bitwise atomics need integers\n"
         "        tl.atomic_or(f, 1.0)\n"
         "                     ^\n"},
        {"BlockValueScalarPointer", "    tl.atomic_add(x, tl.arange(0, 8))\n",
         "k.py:7:22: error: tl.atomic_add: the value is a block (vector<8 x i32>) but the pointer is ptr<i32>: the "
         "pointer decides the shape\n"
         "        tl.atomic_add(x, tl.arange(0, 8))\n"
         "                         ^\n"},
        {"MaskNotBool", "    tl.atomic_add(x, 1, mask=n)\n",
         "k.py:7:25: error: tl.atomic_add: the mask must be bool (got i32)\n"
         "        tl.atomic_add(x, 1, mask=n)\n"
         "                            ^\n"},
        {"SeedNotInteger", "    r = tl.randint(x, n)\n",
         "k.py:7:20: error: tl.randint: the seed must be an integer (got ptr<i32>)\n"
         "        r = tl.randint(x, n)\n"
         "                       ^\n"},
        {"OffsetsNotIntegers", "    r = tl.rand(n, 1.5)\n",
         "k.py:7:9: error: tl.rand: the offsets must be integers (got f32)\n"
         "        r = tl.rand(n, 1.5)\n"
         "            ^\n"},
    };
    return all;
}

class AtomDiagnostic : public ::testing::TestWithParam<size_t> {};

TEST_P(AtomDiagnostic, MatchesExpectedText) {
    const AtomCase &c = cases()[GetParam()];
    std::string text = kernel_text(kParams, c.body);
    std::string path = write_kernel(std::string("diag_atom_") + c.name, "k.py", text);
    CompileArgs a;
    a.path = path;
    a.signature = kSignature;
    Compiled r = compile(a);
    EXPECT_FALSE(r.ok);
    std::string dir = path.substr(0, path.size() - 4);
    std::string got = r.diagnostics;
    for (size_t at; (at = got.find(dir)) != std::string::npos;) got.erase(at, dir.size());
    EXPECT_EQ(got, c.expected) << "kernel:\n" << text;
}

INSTANTIATE_TEST_SUITE_P(Diag, AtomDiagnostic, ::testing::Range<size_t>(0, cases().size()),
                         [](const ::testing::TestParamInfo<size_t> &info) {
                             return std::string(cases()[info.param].name);
                         });

}  // namespace
