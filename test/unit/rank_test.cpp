// Blocks of rank 3 and 4 and their lowering (compiler/src/passes/rank.c): the type
// rules of the ops it makes (remap, trans with a permutation, the batched
// dot), the SSA it produces, and its diagnostics.
#include <gtest/gtest.h>

#include <string>

#include "unit_support.h"

namespace {

using namespace mt_unit;

Attrs remap_attr(std::initializer_list<int> shape, std::initializer_list<int> dims,
                 std::initializer_list<int> strides, int offset) {
    Attrs at{};
    at.rank = 0;
    for (int d : shape) at.shape[at.rank++] = d;
    int k = 0;
    for (int d : dims) at.vdims[k++] = d;
    at.nv = k;
    k = 0;
    for (int s : strides) at.vstride[k++] = s;
    at.voff = offset;
    return at;
}

TEST(RankVerifier, RemapReadsInsideItsOperand) {
    Ssa ok; /* the transpose of an (8, 4) block, held as (4, 8) */
    Operand z = ok.typed(OP_ZEROS, {}, shape_attr({8, 4}, DT_F32));
    ok.op(OP_REMAP, blk(f32(), 4, 8), {z}, remap_attr({4, 8}, {4, 8}, {1, 4}, 0));
    EXPECT_VALID(ok);

    Ssa outside;
    Operand y = outside.typed(OP_ZEROS, {}, shape_attr({8, 4}, DT_F32));
    outside.op(OP_REMAP, blk(f32(), 4, 8), {y}, remap_attr({4, 8}, {4, 8}, {1, 4}, 1));
    EXPECT_REJECTED(outside, "remap reads outside block<8x4 x f32> (elements 1 to 32)");

    Ssa count;
    Operand w = count.typed(OP_ZEROS, {}, shape_attr({8, 4}, DT_F32));
    count.op(OP_REMAP, blk(f32(), 4, 8), {w}, remap_attr({4, 8}, {4, 4}, {1, 4}, 0));
    EXPECT_REJECTED(count, "the index dimensions hold 16 elements, the result (4, 8) 32");

    Ssa pointers({{"x", ptr_f32()}});
    pointers.op(OP_REMAP, vec(ptr_f32(), 4), {opd_param(0)}, remap_attr({4}, {4}, {0}, 0));
    EXPECT_REJECTED(pointers, "remap needs a block of rank 1 or 2");
}

TEST(RankVerifier, TransWithPermutation) {
    Attrs perm{};
    perm.rank = 3;
    perm.perm[0] = 2, perm.perm[1] = 0, perm.perm[2] = 1;
    Ssa ok;
    Operand z = ok.typed(OP_ZEROS, {}, shape_attr({2, 4, 8}, DT_F32));
    ok.op(OP_TRANS, shaped(f32(), {8, 2, 4}), {z}, perm);
    EXPECT_VALID(ok);

    Attrs twice = perm;
    twice.perm[1] = 2;
    Ssa bad;
    Operand y = bad.typed(OP_ZEROS, {}, shape_attr({2, 4, 8}, DT_F32));
    bad.op(OP_TRANS, shaped(f32(), {8, 8, 4}), {y}, twice);
    EXPECT_REJECTED(bad, "the permutation of block<2x4x8 x f32> is not one of its axes");
}

TEST(RankVerifier, BatchedDot) {
    Attrs batch{};
    batch.axis = 2;
    Ssa ok; /* two (16, 16) x (16, 32) products */
    Operand x = ok.typed(OP_ZEROS, {}, shape_attr({32, 16}, DT_F16));
    Operand y = ok.typed(OP_ZEROS, {}, shape_attr({32, 32}, DT_F16));
    Operand c = ok.typed(OP_ZEROS, {}, shape_attr({32, 32}, DT_F32));
    ok.op(OP_DOT, blk(f32(), 32, 32), {x, y, c}, batch);
    EXPECT_VALID(ok);

    Ssa bad;
    Operand x2 = bad.typed(OP_ZEROS, {}, shape_attr({32, 16}, DT_F16));
    Operand y2 = bad.typed(OP_ZEROS, {}, shape_attr({16, 32}, DT_F16));
    Operand c2 = bad.typed(OP_ZEROS, {}, shape_attr({32, 32}, DT_F32));
    bad.op(OP_DOT, blk(f32(), 32, 32), {x2, y2, c2}, batch);
    EXPECT_REJECTED(bad, "not compatible for a batched product");
}

// The SSA after the rank lowering of a kernel body (-O2).
std::string lowered(const std::string &tag, const std::string &params, const std::string &sig,
                    const std::string &body) {
    CompileArgs a;
    a.path = write_kernel("rank_" + tag, "k.py", kernel_text(params, body));
    a.signature = sig;
    Compiled r = compile(a);
    EXPECT_TRUE(r.ok) << r.diagnostics;
    EXPECT_TRUE(r.ssa.find("x2x") == std::string::npos) << "a rank-3 type is left:\n" << r.ssa;
    return r.ssa;
}

const char *kOffsets3 =
    "    a = tl.arange(0, 2)[:, None, None]\n"
    "    b = tl.arange(0, 4)[None, :, None]\n"
    "    c = tl.arange(0, 8)[None, None, :]\n"
    "    o = a * 32 + b * 8 + c\n";

TEST(RankLowering, IndexChainsAreRecomputedAtTheFold) {
    std::string ssa =
        lowered("copy", "x, y", "*fp32, *fp32",
                std::string(kOffsets3) + "    tl.store(y + o, tl.load(x + o) + 1.0)\n");
    /* one (8, 8) tile: the rows (a, b) from one arange divided and reduced */
    EXPECT_NE(ssa.find("arange {start=0, end=8} : vector<8 x i32>"), std::string::npos) << ssa;
    EXPECT_NE(ssa.find("floordiv"), std::string::npos) << ssa;
    EXPECT_NE(ssa.find("mod"), std::string::npos) << ssa;
    EXPECT_NE(ssa.find("load"), std::string::npos) << ssa;
    EXPECT_EQ(ssa.find("remap"), std::string::npos) << ssa;
    EXPECT_EQ(ssa.find("reshape"), std::string::npos) << ssa;
}

TEST(RankLowering, LastAxisReductionReadsTheFold) {
    std::string ssa = lowered("red2", "x, y", "*fp32, *fp32",
                              std::string(kOffsets3) +
                                  "    v = tl.load(x + o)\n"
                                  "    tl.store(y + o, v - tl.max(v, axis=2)[:, :, None])\n");
    EXPECT_NE(ssa.find("max %"), std::string::npos) << ssa;
    EXPECT_NE(ssa.find("{axis=1} : vector<8 x f32>"), std::string::npos) << ssa;
    EXPECT_EQ(ssa.find("remap"), std::string::npos) << ssa;
}

TEST(RankLowering, OtherAxesAreRemappedLast) {
    std::string ssa = lowered("red0", "x, y", "*fp32, *fp32",
                              std::string(kOffsets3) +
                                  "    v = tl.sum(tl.load(x + o), axis=0)\n"
                                  "    tl.store(y + tl.arange(0, 4)[:, None] * 8 + "
                                  "tl.arange(0, 8)[None, :], v)\n");
    EXPECT_NE(ssa.find("remap %"), std::string::npos) << ssa;
    EXPECT_NE(ssa.find("{shape=(32, 2), dims=[4, 8, 2], strides=[8, 1, 32], offset=0}"),
              std::string::npos)
        << ssa;
}

TEST(RankLowering, BatchedDot) {
    std::string ssa = lowered("dot", "x, y, z", "*fp16, *fp16, *fp32",
                              "    b = tl.arange(0, 2)[:, None, None]\n"
                              "    r = tl.arange(0, 16)[None, :, None]\n"
                              "    c = tl.arange(0, 16)[None, None, :]\n"
                              "    o = b * 256 + r * 16 + c\n"
                              "    tl.store(z + o, tl.dot(tl.load(x + o), tl.load(y + o)))\n");
    EXPECT_NE(ssa.find("batch=2} : block<32x16 x f32>"), std::string::npos) << ssa;
}

const std::vector<DiagnosticCase> &cases() {
    static const std::vector<DiagnosticCase> all = {
        {"CarriedPointersBroadcast", "x, n", "*fp32, i32",
         "    p = x + tl.arange(0, 2)[:, None, None] * 8\n"
         "    for i in range(n):\n"
         "        p += 1\n"
         "    tl.store(p + tl.arange(0, 4)[None, :, None], 1.0)\n",
         "k.py:10:14: error: a block of pointers of rank 3 that is not an address computed from "
         "a pointer and offsets (here a loop-carried or branch value) cannot be broadcast or "
         "rearranged yet\n"
         "        tl.store(p + tl.arange(0, 4)[None, :, None], 1.0)\n"
         "                 ^\n"},
        {"DotRanksDiffer", "x", "*fp16",
         "    a = tl.zeros((2, 16, 16), tl.float16)\n    b = tl.zeros((16, 16), tl.float16)\n"
         "    c = tl.dot(a, b)\n",
         "k.py:9:9: error: tl.dot: both operands must have the same rank (got block<2x16x16 x "
         "f16> and block<16x16 x f16>)\n"
         "        c = tl.dot(a, b)\n"
         "            ^\n"},
        {"DotBatchesDiffer", "x", "*fp16",
         "    a = tl.zeros((2, 16, 16), tl.float16)\n    b = tl.zeros((4, 16, 16), tl.float16)\n"
         "    c = tl.dot(a, b)\n",
         "k.py:9:9: error: tl.dot: the batch dimensions differ ((2, 16, 16) and (4, 16, 16))\n"
         "        c = tl.dot(a, b)\n"
         "            ^\n"},
    };
    return all;
}

class RankDiagnostic : public ::testing::TestWithParam<size_t> {};

TEST_P(RankDiagnostic, MatchesExpectedText) {
    const DiagnosticCase &c = cases()[GetParam()];
    bool ok = true;
    EXPECT_EQ(case_diagnostics(c, "diag_rank_", &ok), c.expected);
    EXPECT_FALSE(ok);
}

INSTANTIATE_TEST_SUITE_P(Rejected, RankDiagnostic, ::testing::Range<size_t>(0, cases().size()),
                         [](const ::testing::TestParamInfo<size_t> &info) {
                             return std::string(cases()[info.param].name);
                         });

}  // namespace
