// Reductions along an axis and scans (issue 13): the verifier's checks of
// their attributes (AT_REDUCE), the SSA text, and the frontend's
// diagnostics.
#include <gtest/gtest.h>

#include <string>

#include "unit_support.h"

namespace {

using namespace mt_unit;

Attrs red(int axis, int flags) {
    Attrs at{};
    at.axis = axis;
    at.flag = RED_AXIS | flags;
    return at;
}

TEST(Reduce, AxisReductionTypes) {
    Ssa s;
    Operand x = s.typed(OP_ZEROS, {}, shape_attr({4, 8}, DT_F32));
    s.typed(OP_SUM, {x}, red(1, 0));                 // vector<4 x f32>
    s.typed(OP_MAX, {x}, red(0, RED_KEEP_DIMS));     // block<1x8 x f32>
    s.typed(OP_MIN, {x}, red(-1, 0));                // f32
    s.typed(OP_ARGMAX, {x}, red(1, RED_KEEP_DIMS));  // block<4x1 x i32>
    s.typed(OP_CUMSUM, {x}, red(0, RED_REVERSE));    // block<4x8 x f32>
    s.typed(OP_CUMPROD, {x}, red(1, 0));
    EXPECT_VALID(s);
    std::string text = s.print();
    EXPECT_NE(text.find("%1 = sum %0 {axis=1} : vector<4 x f32>"), std::string::npos) << text;
    EXPECT_NE(text.find("%2 = max %0 {axis=0, keep_dims} : block<1x8 x f32>"), std::string::npos)
        << text;
    EXPECT_NE(text.find("%3 = min %0 {axis=None} : f32"), std::string::npos) << text;
    EXPECT_NE(text.find("%4 = argmax %0 {axis=1, keep_dims} : block<4x1 x i32>"), std::string::npos)
        << text;
    EXPECT_NE(text.find("%5 = cumsum %0 {axis=0, reverse} : block<4x8 x f32>"), std::string::npos)
        << text;
    EXPECT_NE(text.find("%6 = cumprod %0 {axis=1} : block<4x8 x f32>"), std::string::npos) << text;
}

TEST(Reduce, FullRank1ReductionPrintsAsBefore) {
    Ssa s;
    Operand x = s.typed(OP_ZEROS, {}, shape_attr({8}, DT_F32));
    s.typed(OP_SUM, {x});
    s.typed(OP_ARGMIN, {x}, red(0, 0));
    EXPECT_VALID(s);
    std::string text = s.print();
    EXPECT_NE(text.find("%1 = sum %0 : f32"), std::string::npos) << text;
    EXPECT_NE(text.find("%2 = argmin %0 {axis=0} : i32"), std::string::npos) << text;
}

TEST(Reduce, AxisOutOfRange) {
    Ssa s;
    Operand x = s.typed(OP_ZEROS, {}, shape_attr({4, 8}, DT_F32));
    s.op(OP_SUM, f32(), {x}, red(2, 0));
    EXPECT_REJECTED(s, "sum: axis 2 is out of range for a block of rank 2");
    Ssa v;
    Operand y = v.typed(OP_ZEROS, {}, shape_attr({8}, DT_F32));
    v.op(OP_CUMSUM, vec(f32(), 8), {y}, red(-1, 0));
    EXPECT_REJECTED(v, "cumsum: axis -1 is out of range for a block of rank 1");
}

TEST(Reduce, WrongResultType) {
    Ssa s;
    Operand x = s.typed(OP_ZEROS, {}, shape_attr({4, 8}, DT_F32));
    s.op(OP_SUM, vec(f32(), 8), {x}, red(1, 0));
    EXPECT_REJECTED(s, "vector<4 x f32>");
    Ssa t;
    Operand y = t.typed(OP_ZEROS, {}, shape_attr({4, 8}, DT_F32));
    t.op(OP_ARGMAX, vec(f32(), 4), {y}, red(1, 0));
    EXPECT_REJECTED(t, "vector<4 x i32>");
}

TEST(Reduce, FlagsOfTheWrongKind) {
    Ssa s;
    Operand x = s.typed(OP_ZEROS, {}, shape_attr({4, 8}, DT_F32));
    s.op(OP_CUMSUM, blk(f32(), 4, 8), {x}, red(1, RED_KEEP_DIMS));
    EXPECT_REJECTED(s, "cumsum: a scan has no keep_dims");
    Ssa t;
    Operand y = t.typed(OP_ZEROS, {}, shape_attr({4, 8}, DT_F32));
    t.op(OP_MAX, vec(f32(), 4), {y}, red(1, RED_REVERSE));
    EXPECT_REJECTED(t, "max: a reduction has no reverse");
    Ssa u;
    Operand z = u.typed(OP_ZEROS, {}, shape_attr({8}, DT_F32));
    u.op(OP_CUMSUM, vec(f32(), 8), {z});
    EXPECT_REJECTED(u, "cumsum needs an axis attribute");
}

TEST(Reduce, XorSumAndXorShuffle) {
    Ssa s;
    Operand x = s.typed(OP_ZEROS, {}, shape_attr({4, 8}, DT_I32));
    s.typed(OP_XOR_SUM, {x}, red(1, 0));  // vector<4 x i32>
    Attrs m{};
    m.axis = 7;
    s.typed(OP_XOR_SHUFFLE, {x}, m);  // block<4x8 x i32>
    EXPECT_VALID(s);
    std::string text = s.print();
    EXPECT_NE(text.find("%1 = xor_sum %0 {axis=1} : vector<4 x i32>"), std::string::npos) << text;
    EXPECT_NE(text.find("%2 = xor_shuffle %0 {index=7} : block<4x8 x i32>"), std::string::npos)
        << text;
    Ssa f;
    Operand y = f.typed(OP_ZEROS, {}, shape_attr({8}, DT_F32));
    f.op(OP_XOR_SUM, f32(), {y}, red(0, 0));
    EXPECT_REJECTED(f, "xor_sum needs a block of integers (got vector<8 x f32>)");
    Ssa g;
    Operand z = g.typed(OP_ZEROS, {}, shape_attr({8}, DT_F32));
    Attrs big{};
    big.axis = 8;
    g.op(OP_XOR_SHUFFLE, vec(f32(), 8), {z}, big);
    EXPECT_REJECTED(g, "xor_shuffle: index 8 is out of range for vector<8 x f32>");
}

// ---- Diagnostics ---------------------------------------------------------------

using Case = DiagnosticCase;

const std::vector<Case> &cases() {
    static const std::vector<Case> all = {
        {"SumAxisOutOfRange", "x", "*fp32",
         "    o = tl.arange(0, 8)\n"
         "    v = tl.load(x + o[:, None] * 8 + o[None, :])\n"
         "    tl.store(x + o, tl.sum(v, axis=2))\n",
         "k.py:9:31: error: tl.sum: axis 2 is out of range for a block of rank 2 (expected -2 <= axis < 2)\n"
         "        tl.store(x + o, tl.sum(v, axis=2))\n"
         "                                  ^\n"},
        {"CumsumAxisNone", "x", "*fp32",
         "    o = tl.arange(0, 8)\n"
         "    tl.store(x + o, tl.cumsum(tl.load(x + o), axis=None))\n",
         "k.py:8:47: error: tl.cumsum: the axis must be a compile-time int\n"
         "        tl.store(x + o, tl.cumsum(tl.load(x + o), axis=None))\n"
         "                                                  ^\n"},
        {"ArgmaxNeedsAxis", "x, y", "*fp32, *i32",
         "    o = tl.arange(0, 8)\n"
         "    tl.store(y, tl.argmax(tl.load(x + o)))\n",
         "k.py:8:17: error: tl.argmax() missing required argument 'axis'\n"
         "        tl.store(y, tl.argmax(tl.load(x + o)))\n"
         "                    ^\n"},
        {"ReduceOfScalar", "x, n", "*fp32, i32", "    tl.store(x, tl.max(n, axis=0))\n",
         "k.py:7:17: error: tl.max needs a block (got i32)\n"
         "        tl.store(x, tl.max(n, axis=0))\n"
         "                    ^\n"},
        {"UnpackTooMany", "x", "*fp32",
         "    o = tl.arange(0, 8)\n"
         "    a, b, c = tl.max(tl.load(x + o), 0, return_indices=True)\n",
         "k.py:8:5: error: cannot unpack a tuple of 2 values into 3 names\n"
         "        a, b, c = tl.max(tl.load(x + o), 0, return_indices=True)\n"
         "        ^\n"},
        {"ReduceWithANonFunction", "x", "*fp32",
         "    o = tl.arange(0, 8)\n"
         "    tl.store(x, tl.reduce(tl.load(x + o), 0, tl.maximum))\n",
         "k.py:8:46: error: tl.reduce: combine_fn must be a @triton.jit function (got a function)\n"
         "        tl.store(x, tl.reduce(tl.load(x + o), 0, tl.maximum))\n"
         "                                                 ^\n"},
        {"CombinerArity",
         "x",
         "*fp32",
         "    o = tl.arange(0, 8)\n"
         "    tl.store(x, tl.reduce(tl.load(x + o), 0, one))\n",
         "k.py:8:17: error: one() takes 1 positional argument but 2 were given\n"
         "        tl.store(x, tl.reduce(tl.load(x + o), 0, one))\n"
         "                    ^\n",
         {},
         nullptr,
         "\n\n@triton.jit\ndef one(a):\n    return a\n"},
        {"CombinerReturnsTooFew",
         "x",
         "*fp32",
         "    o = tl.arange(0, 8)\n"
         "    v = tl.load(x + o)\n"
         "    a, b = tl.associative_scan((v, v), 0, one)\n",
         "k.py:9:43: error: tl.associative_scan: combine_fn must return 2 values\n"
         "        a, b = tl.associative_scan((v, v), 0, one)\n"
         "                                              ^\n",
         {},
         nullptr,
         "\n\n@triton.jit\ndef one(a, b, c, d):\n    return a\n"},
        {"XorSumOfFloats", "x", "*fp32",
         "    o = tl.arange(0, 8)\n"
         "    tl.store(x, tl.xor_sum(tl.load(x + o)))\n",
         "k.py:8:28: error: tl.xor_sum is only supported for integers (got vector<8 x f32>)\n"
         "        tl.store(x, tl.xor_sum(tl.load(x + o)))\n"
         "                               ^\n"},
        {"SortAlongTheFirstAxis", "x", "*fp32",
         "    o = tl.arange(0, 8)\n"
         "    v = tl.load(x + o[:, None] * 8 + o[None, :])\n"
         "    tl.store(x + o[:, None] * 8 + o[None, :], tl.sort(v, dim=0))\n",
         "k.py:9:58: error: tl.sort: only the last dimension can be sorted, as Triton (got dim 0 of block<8x8 x f32>)\n"
         "        tl.store(x + o[:, None] * 8 + o[None, :], tl.sort(v, dim=0))\n"
         "                                                             ^\n"},
        {"FlipDimOutOfRange", "x", "*fp32",
         "    o = tl.arange(0, 8)\n"
         "    tl.store(x + o, tl.flip(tl.load(x + o), 1))\n",
         "k.py:8:45: error: tl.flip: dim 1 is out of range for a block of rank 1\n"
         "        tl.store(x + o, tl.flip(tl.load(x + o), 1))\n"
         "                                                ^\n"},
        {"SortOfScalar", "x, n", "*fp32, i32", "    tl.store(x, tl.sort(n))\n",
         "k.py:7:25: error: tl.sort needs a block (got i32)\n"
         "        tl.store(x, tl.sort(n))\n"
         "                            ^\n"},
        {"HistogramOfFloats", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n"
         "    tl.store(x + o, tl.histogram(tl.load(x + o), 8))\n",
         "k.py:8:34: error: tl.histogram needs a rank-1 block of integers (got vector<8 x f32>)\n"
         "        tl.store(x + o, tl.histogram(tl.load(x + o), 8))\n"
         "                                     ^\n"},
        {"HistogramBinsNotAPowerOfTwo", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n"
         "    tl.store(x + tl.arange(0, 4), tl.histogram(o, 6))\n",
         "k.py:8:51: error: tl.histogram: num_bins must be a power of two (got 6)\n"
         "        tl.store(x + tl.arange(0, 4), tl.histogram(o, 6))\n"
         "                                                      ^\n"},
        {"HistogramMaskOfIntegers", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n"
         "    tl.store(x + tl.arange(0, 4), tl.histogram(o, 4, mask=o))\n",
         "k.py:8:54: error: tl.histogram: the mask must be a block of bools of the input's shape "
         "(got vector<8 x i32>)\n"
         "        tl.store(x + tl.arange(0, 4), tl.histogram(o, 4, mask=o))\n"
         "                                                         ^\n"},
        {"SortDescendingAtRuntime", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n"
         "    tl.store(x + o, tl.sort(tl.load(x + o), descending=n > 0))\n",
         "k.py:8:45: error: tl.sort: descending must be a compile-time bool\n"
         "        tl.store(x + o, tl.sort(tl.load(x + o), descending=n > 0))\n"
         "                                                ^\n"},
    };
    return all;
}

std::string compile_and_strip(const std::string &path, const CompileArgs &a) {
    Compiled r = compile(a);
    std::string dir = path.substr(0, path.rfind('/') + 1);
    std::string got = r.diagnostics;
    for (size_t at; (at = got.find(dir)) != std::string::npos;) got.erase(at, dir.size());
    return got;
}

class ReduceDiagnostic : public ::testing::TestWithParam<size_t> {};

TEST_P(ReduceDiagnostic, MatchesExpectedText) {
    const Case &c = cases()[GetParam()];
    std::string text = kernel_text(c.params, c.body) + c.after;
    std::string path = write_kernel(std::string("diag_red_") + c.name, "k.py", text);
    CompileArgs a;
    a.path = path;
    a.signature = c.signature;
    a.opt_level = c.opt_level;
    EXPECT_EQ(compile_and_strip(path, a), c.expected) << "kernel:\n" << text;
}

INSTANTIATE_TEST_SUITE_P(Rejected, ReduceDiagnostic, ::testing::Range<size_t>(0, cases().size()),
                         [](const ::testing::TestParamInfo<size_t> &info) {
                             return std::string(cases()[info.param].name);
                         });

}  // namespace
