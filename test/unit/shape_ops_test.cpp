// Shape ops (issue 13): the verifier's shape rules on hand-built SSA, and
// one expected diagnostic per rejected use of tl.reshape, tl.trans,
// tl.permute, tl.expand_dims, tl.broadcast_to, tl.broadcast, tl.join,
// tl.split and x.T (the kernel k(x, n) of diagnostics_test.cpp, body from
// line 7).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "unit_support.h"

namespace {

using namespace mt_unit;

Attrs dims_attr(std::vector<int> shape) {
    Attrs at{};
    at.rank = static_cast<int>(shape.size());
    for (size_t i = 0; i < shape.size() && i < 2; i++) at.shape[i] = shape[i];
    return at;
}

TEST(ShapeVerifier, ReshapeKeepsTheElementCount) {
    Ssa ok;
    Operand a = ok.typed(OP_ARANGE, {}, range_attr(0, 32));
    Operand m = ok.op(OP_RESHAPE, blk(i32(), 4, 8), {a}, dims_attr({4, 8}));
    ok.op(OP_RESHAPE, vec(i32(), 32), {m}, dims_attr({32}));
    EXPECT_VALID(ok);

    Ssa bad;
    Operand b = bad.typed(OP_ARANGE, {}, range_attr(0, 32));
    bad.op(OP_RESHAPE, blk(i32(), 4, 4), {b}, dims_attr({4, 4}));
    EXPECT_REJECTED(bad, "cannot change the number of elements");

    Ssa typed;  // the recorded type must be the rule's
    Operand c = typed.typed(OP_ARANGE, {}, range_attr(0, 32));
    typed.op(OP_RESHAPE, blk(i32(), 8, 4), {c}, dims_attr({4, 8}));
    EXPECT_NE(typed.verify(), "");
}

Attrs remap_attr(std::vector<int> shape, std::vector<int> dims, std::vector<int> strides, int off) {
    Attrs at{};
    at.rank = static_cast<int>(shape.size());
    for (size_t i = 0; i < shape.size(); i++) at.shape[i] = shape[i];
    at.nv = static_cast<int>(dims.size());
    for (size_t i = 0; i < dims.size(); i++) at.vdims[i] = dims[i], at.vstride[i] = strides[i];
    at.voff = off;
    return at;
}

// remap (the rank lowering's element move): its type rule and text, and
// its place among the shape ops (a bounding box where its rank-2 shapes do
// not broadcast, as a reshape's)
TEST(ShapeVerifier, Remap) {
    Ssa ok;
    Operand a = ok.typed(OP_ARANGE, {}, range_attr(0, 32));
    Operand m = ok.typed(OP_RESHAPE, {a}, dims_attr({4, 8}));
    ok.typed(OP_REMAP, {m}, remap_attr({8, 4}, {2, 4, 4}, {-16, 1, 4}, 16));
    EXPECT_VALID(ok);
    EXPECT_NE(ok.print().find("remap %1 {shape=(8, 4), dims=[2, 4, 4], strides=[-16, 1, 4], "
                              "offset=16} : block<8x4 x i32>"),
              std::string::npos)
        << ok.print();
    EXPECT_TRUE(shape_needs_box(ok.f));  // (4, 8) and (8, 4)
    EXPECT_TRUE(shape_moves_elements(OP_REMAP));

    Ssa same;  // one shape: no box
    Operand b = same.typed(OP_ARANGE, {}, range_attr(0, 32));
    Operand n = same.typed(OP_RESHAPE, {b}, dims_attr({4, 8}));
    same.typed(OP_REMAP, {n}, remap_attr({4, 8}, {8, 4}, {1, 8}, 0));
    EXPECT_VALID(same);
    EXPECT_FALSE(shape_needs_box(same.f));

    Ssa part;  // a part of the block, rank 1: a box (not the tile's flat view)
    Operand p0 = part.typed(OP_ARANGE, {}, range_attr(0, 32));
    Operand p1 = part.typed(OP_RESHAPE, {p0}, dims_attr({4, 8}));
    part.typed(OP_REMAP, {p1}, remap_attr({8}, {8}, {4}, 1));
    EXPECT_VALID(part);
    EXPECT_TRUE(shape_needs_box(part.f));

    Ssa count;
    Operand c = count.typed(OP_ARANGE, {}, range_attr(0, 32));
    count.op(OP_REMAP, blk(i32(), 8, 4), {c}, remap_attr({8, 4}, {2, 4}, {1, 2}, 0));
    EXPECT_REJECTED(count, "the index dimensions hold 8 elements");

    Ssa outside;
    Operand d = outside.typed(OP_ARANGE, {}, range_attr(0, 32));
    outside.op(OP_REMAP, vec(i32(), 32), {d}, remap_attr({32}, {32}, {-1}, 30));
    EXPECT_REJECTED(outside, "reads outside");
}

// tl.dot's batched form {batch=B}: rank-2 operands (B*M, K) and (B*K, N),
// accumulator (B*M, N)
TEST(ShapeVerifier, BatchedDot) {
    Attrs dot{};
    dot.flag = DOT_IEEE;
    dot.axis = 2;
    Ssa ok;
    Operand x = ok.typed(OP_ZEROS, {}, shape_attr({32, 16}, DT_F32));
    Operand y = ok.typed(OP_ZEROS, {}, shape_attr({32, 64}, DT_F32));
    Operand c = ok.typed(OP_ZEROS, {}, shape_attr({32, 64}, DT_F32));
    ok.typed(OP_DOT, {x, y, c}, dot);
    EXPECT_VALID(ok);
    EXPECT_NE(ok.print().find("input_precision=ieee, max_num_imprecise_acc=0, batch=2}"),
              std::string::npos)
        << ok.print();

    Ssa bad;  // the accumulator of one batch
    Operand x2 = bad.typed(OP_ZEROS, {}, shape_attr({32, 16}, DT_F32));
    Operand y2 = bad.typed(OP_ZEROS, {}, shape_attr({32, 64}, DT_F32));
    Operand c2 = bad.typed(OP_ZEROS, {}, shape_attr({16, 64}, DT_F32));
    bad.op(OP_DOT, blk(f32(), 16, 64), {x2, y2, c2}, dot);
    EXPECT_REJECTED(bad, "the accumulator has shape (16, 64)");
}

TEST(ShapeVerifier, TransNeedsRankTwo) {
    Ssa ok;
    Operand z = ok.typed(OP_ZEROS, {}, shape_attr({4, 8}, DT_F32));
    ok.op(OP_TRANS, blk(f32(), 8, 4), {z});
    EXPECT_VALID(ok);

    Ssa bad;
    Operand a = bad.typed(OP_ARANGE, {}, range_attr(0, 8));
    bad.op(OP_TRANS, vec(i32(), 8), {a});
    EXPECT_REJECTED(bad, "needs a block of rank 2 or more");
}

TEST(ShapeVerifier, BroadcastRepeatsOnlyOnes) {
    Ssa ok;
    Operand z = ok.typed(OP_ZEROS, {}, shape_attr({1, 8}, DT_F32));
    ok.op(OP_BROADCAST, blk(f32(), 4, 8), {z}, dims_attr({4, 8}));
    ok.op(OP_BROADCAST, blk(f32(), 2, 2), {cf(1.0)}, dims_attr({2, 2}));
    EXPECT_VALID(ok);

    Ssa bad;
    Operand y = bad.typed(OP_ZEROS, {}, shape_attr({2, 8}, DT_F32));
    bad.op(OP_BROADCAST, blk(f32(), 4, 8), {y}, dims_attr({4, 8}));
    EXPECT_REJECTED(bad, "dimension 0 is 2, not 1 or 4");
}

TEST(ShapeVerifier, JoinAndSplit) {
    Ssa ok;
    Operand a = ok.typed(OP_ZEROS, {}, shape_attr({8}, DT_F32));
    Operand j = ok.op(OP_JOIN, blk(f32(), 8, 2), {a, a});
    Attrs hi{};
    hi.axis = 1;
    ok.op(OP_SPLIT, vec(f32(), 8), {j}, hi);
    EXPECT_VALID(ok);

    Ssa mixed;
    Operand x = mixed.typed(OP_ZEROS, {}, shape_attr({8}, DT_F32));
    Operand y = mixed.typed(OP_ZEROS, {}, shape_attr({8}, DT_I32));
    mixed.op(OP_JOIN, blk(f32(), 8, 2), {x, y});
    EXPECT_REJECTED(mixed, "needs two values of one type and shape");

    Ssa rank3;
    Operand r = rank3.typed(OP_ZEROS, {}, shape_attr({4, 2}, DT_F32));
    rank3.op(OP_JOIN, shaped(f32(), {4, 2, 2}), {r, r});
    EXPECT_VALID(rank3);
    Ssa rank5;
    Operand r4 = rank5.typed(OP_ZEROS, {}, shape_attr({4, 2, 2, 2}, DT_F32));
    rank5.op(OP_JOIN, shaped(f32(), {4, 2, 2, 2}), {r4, r4});
    EXPECT_REJECTED(rank5, "blocks have at most 4 dimensions");

    Ssa not2;
    Operand s = not2.typed(OP_ZEROS, {}, shape_attr({8, 4}, DT_F32));
    not2.op(OP_SPLIT, vec(f32(), 8), {s}, Attrs{});
    EXPECT_REJECTED(not2, "last dimension is 2");
}

// ---- Diagnostics ------------------------------------------------------------

const std::vector<DiagnosticCase> &cases() {
    static const std::vector<DiagnosticCase> all = {
        {"ReshapeCount", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n    v = tl.reshape(o, (3, 3))\n",
         "k.py:8:9: error: tl.reshape cannot change the number of elements: vector<8 x i32> has 8, the shape (3, 3) has 9\n"
         "        v = tl.reshape(o, (3, 3))\n"
         "            ^\n"},
        {"ReshapeRank5", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 32)\n    v = tl.reshape(o, (2, 2, 2, 2, 2))\n",
         "k.py:8:23: error: tl.reshape: blocks have at most 4 dimensions (the shape has 5)\n"
         "        v = tl.reshape(o, (2, 2, 2, 2, 2))\n"
         "                          ^\n"},
        {"ReshapePointersToRank3", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n    v = tl.reshape(x + o, (2, 2, 2))\n",
         "k.py:8:9: error: tl.reshape of a block of pointers of rank 3 or more is not supported "
         "(reshape the offsets instead)\n"
         "        v = tl.reshape(x + o, (2, 2, 2))\n"
         "            ^\n"},
        {"BroadcastPointersToAnotherRank", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n    v = tl.broadcast_to(x + o, (4, 8))\n",
         "k.py:8:9: error: tl.broadcast_to cannot broadcast vector<8 x ptr<f32>> to (4, 8): the ranks differ\n"
         "        v = tl.broadcast_to(x + o, (4, 8))\n"
         "            ^\n"},
        {"BroadcastPointersToASmallerShape", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 4)\n    v = tl.broadcast_to(x + o[:, None], (1, 8))\n",
         "k.py:8:9: error: tl.broadcast_to cannot broadcast block<4x1 x ptr<f32>> to (1, 8): dimension 0 is 4, not 1 or 1\n"
         "        v = tl.broadcast_to(x + o[:, None], (1, 8))\n"
         "            ^\n"},
        {"CatWithoutReordering", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n    tl.store(x + tl.arange(0, 16), tl.cat(tl.load(x + o), tl.load(x + o)))\n",
         "k.py:8:36: error: tl.cat needs can_reorder=True (Triton's cat may reorder the elements)\n"
         "        tl.store(x + tl.arange(0, 16), tl.cat(tl.load(x + o), tl.load(x + o)))\n"
         "                                       ^\n"},
        {"CatOfTwoDtypes", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n    tl.store(x + tl.arange(0, 16), tl.cat(tl.load(x + o), o, can_reorder=True))\n",
         "k.py:8:36: error: tl.cat needs two blocks of one shape and dtype (got vector<8 x f32> and vector<8 x i32>)\n"
         "        tl.store(x + tl.arange(0, 16), tl.cat(tl.load(x + o), o, can_reorder=True))\n"
         "                                       ^\n"},
        {"CatOfTwoDimensionalBlocks", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)[:, None] * 4 + tl.arange(0, 4)[None, :]\n"
         "    tl.store(x + o, tl.cat(tl.load(x + o), tl.load(x + o), True))\n",
         "k.py:8:21: error: tl.cat concatenates two 1-D blocks, as Triton's (got block<8x4 x f32> and block<8x4 x f32>)\n"
         "        tl.store(x + o, tl.cat(tl.load(x + o), tl.load(x + o), True))\n"
         "                        ^\n"},
        {"PermuteNotAPermutation", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n    v = tl.permute(o[:, None], (0, 0))\n",
         "k.py:8:9: error: tl.permute: the dims must be a permutation of 0, ..., 1\n"
         "        v = tl.permute(o[:, None], (0, 0))\n"
         "            ^\n"},
        {"PermuteLength", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n    v = tl.permute(o[:, None], 1, 0, 2)\n",
         "k.py:8:9: error: tl.permute: the dims must have as many entries as the block has dimensions (2, got 3)\n"
         "        v = tl.permute(o[:, None], 1, 0, 2)\n"
         "            ^\n"},
        {"TransRank1", "x, n", "*fp32, i32", "    o = tl.arange(0, 8)\n    v = tl.trans(o)\n",
         "k.py:8:9: error: tl.trans: the dims must have as many entries as the block has dimensions (1, got 2)\n"
         "        v = tl.trans(o)\n"
         "            ^\n"},
        {"DotTRank1", "x, n", "*fp32, i32", "    o = tl.arange(0, 8)\n    v = o.T\n",
         "k.py:8:9: error: '.T': the dims must have as many entries as the block has dimensions (1, got 2)\n"
         "        v = o.T\n"
         "            ^\n"},
        {"SplitNotTwo", "x, n", "*fp32, i32", "    o = tl.arange(0, 8)\n    a, b = tl.split(o)\n",
         "k.py:8:12: error: tl.split needs a block whose last dimension is 2 (got vector<8 x i32>)\n"
         "        a, b = tl.split(o)\n"
         "               ^\n"},
        {"JoinDtypes", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n    v = tl.join(o, o.to(tl.float32))\n",
         "k.py:8:9: error: tl.join needs two values of one type and shape (got vector<8 x i32> and vector<8 x f32>)\n"
         "        v = tl.join(o, o.to(tl.float32))\n"
         "            ^\n"},
        {"JoinRank5", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n    v = tl.join(o[:, None, None, None], o[:, None, None, None])\n",
         "k.py:8:9: error: tl.join of block<8x1x1x1 x i32>: blocks have at most 4 dimensions\n"
         "        v = tl.join(o[:, None, None, None], o[:, None, None, None])\n"
         "            ^\n"},
        {"BroadcastToRank", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n    v = tl.broadcast_to(o, (8, 4))\n",
         "k.py:8:9: error: tl.broadcast_to cannot broadcast vector<8 x i32> to (8, 4): the ranks differ\n"
         "        v = tl.broadcast_to(o, (8, 4))\n"
         "            ^\n"},
        {"BroadcastToDimension", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n    v = tl.broadcast_to(o[None, :], (2, 4))\n",
         "k.py:8:9: error: tl.broadcast_to cannot broadcast block<1x8 x i32> to (2, 4): dimension 1 is 8, not 1 or 4\n"
         "        v = tl.broadcast_to(o[None, :], (2, 4))\n"
         "            ^\n"},
        {"BroadcastIncompatible", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n    a, b = tl.broadcast(o, tl.arange(0, 4))\n",
         "k.py:8:12: error: tl.broadcast: the shapes (8,) and (4,) are incompatible\n"
         "        a, b = tl.broadcast(o, tl.arange(0, 4))\n"
         "               ^\n"},
        {"ExpandDimsDuplicate", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n    v = tl.expand_dims(n, (0, -2))\n",
         "k.py:8:27: error: tl.expand_dims received duplicate axes (0)\n"
         "        v = tl.expand_dims(n, (0, -2))\n"
         "                              ^\n"},
        {"ExpandDimsAxis", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n    v = tl.expand_dims(o, 2)\n",
         "k.py:8:27: error: tl.expand_dims: invalid axis 2 (expected -2 <= axis < 2)\n"
         "        v = tl.expand_dims(o, 2)\n"
         "                              ^\n"},
        {"UnpackCount", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 2)\n    a, b, c = tl.split(tl.join(o, o))\n",
         "k.py:8:5: error: cannot unpack a tuple of 2 values into 3 names\n"
         "        a, b, c = tl.split(tl.join(o, o))\n"
         "        ^\n"},
        {"NonSquareTransposeTooLargeAtO1",
         "x, n",
         "*fp32, i32",
         "    i = tl.arange(0, 16)\n    j = tl.arange(0, 128)\n"
         "    v = tl.load(x + i[:, None] * 128 + j[None, :])\n"
         "    tl.store(x + j[:, None] * 16 + i[None, :], tl.trans(v))\n",
         "k.py:9:26: error: the tile (128, 128) needs 16384 threads, more than the 1024 of a CUDA block (at "
         "-O1 a transpose or reshape between two rank-2 shapes runs one thread per element of the "
         "bounding box of the kernel's blocks: the box at most 1024 elements; -O2 spreads it over the "
         "threads)\n"
         "        v = tl.load(x + i[:, None] * 128 + j[None, :])\n"
         "                             ^\n",
         {},
         nullptr,
         "",
         1},
    };
    return all;
}

// The same transpose at -O2 (NonSquareTransposeTooLargeAtO1 above): its
// (128, 128) box spread over the threads by the blocked emitter, the
// operand guarded to its own (16, 128) shape, the exchange in the dynamic
// shared pool.
TEST(ShapeBox, NonSquareTransposeAtO2) {
    std::string path =
        write_kernel("shape_box_trans", "k.py",
                     kernel_text("x, n",
                                 "    i = tl.arange(0, 16)\n    j = tl.arange(0, 128)\n"
                                 "    v = tl.load(x + i[:, None] * 128 + j[None, :])\n"
                                 "    tl.store(x + j[:, None] * 16 + i[None, :], tl.trans(v))\n"));
    CompileArgs a;
    a.path = path;
    a.signature = "*fp32, i32";
    Compiled r = compile(a);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_NE(r.cuda.find("__launch_bounds__(256)"), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("extern __shared__ __align__(16) unsigned char mt_smem[];"),
              std::string::npos);
    EXPECT_NE(r.cuda.find("float *const shape_smem_"), std::string::npos);
    EXPECT_NE(r.cuda.find(" < 16) shape_smem_"), std::string::npos);    // the operand's rows
    EXPECT_NE(r.cuda.find("const int mt_p = ((("), std::string::npos);  // the result's columns
}

class ShapeDiagnostic : public ::testing::TestWithParam<size_t> {};

TEST_P(ShapeDiagnostic, MatchesExpectedText) {
    const DiagnosticCase &c = cases()[GetParam()];
    bool ok = true;
    EXPECT_EQ(case_diagnostics(c, "diag_shape_", &ok), c.expected);
    EXPECT_FALSE(ok);
}

INSTANTIATE_TEST_SUITE_P(Rejected, ShapeDiagnostic, ::testing::Range<size_t>(0, cases().size()),
                         [](const ::testing::TestParamInfo<size_t> &info) {
                             return std::string(cases()[info.param].name);
                         });

}  // namespace
