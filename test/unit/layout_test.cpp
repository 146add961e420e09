// The layout stage (layout.c, DESIGN 8b): the tile's blocked layout in
// Triton's terms, each value's encoding, the conversions, --emit=layout,
// and the verifier's rejections of layouts that do not hold what an op
// reads. The CUDA the emitters print from these plans is executed by the
// exec, lang_* and emu suites.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "unit_support.h"

extern "C" {
#include "driver/compile.h"
}

namespace {

using namespace mt_unit;

Compiled emit_layout(const std::string &path, const std::string &kernel, const std::string &sig,
                     std::vector<std::pair<std::string, std::string>> defines, int opt,
                     int num_warps = 0) {
    CompileArgs a;
    a.path = path;
    a.kernel = kernel;
    a.signature = sig;
    a.defines = std::move(defines);
    a.opt_level = opt;
    a.num_warps = num_warps;
    return compile(a);
}

Compiled emit_snippet(const std::string &tag, const std::string &params, const std::string &sig,
                      const std::string &body, int opt = 2, int num_warps = 0) {
    return emit_layout(write_kernel(tag, "k.py", kernel_text(params, body)), "k", sig, {}, opt,
                       num_warps);
}

bool has(const std::string &s, const std::string &what) {
    return s.find(what) != std::string::npos;
}

const std::string kSuite = std::string(MT_TEST_SOURCE_DIR) + "/../bench/suite/";

// The seed's runtime-K matmul form: register micro-tiles of 8 x 4 over
// 128 threads; rows in runs of 4 repeated twice, the accumulator loop's
// operands staged through shared memory; the CUDA block and the thread
// coordinates the emitter prints are the plan's.
TEST(Layout, OuterProductTile) {
    Compiled r = emit_layout(kSuite + "matmul.py", "matmul_runtime_k_kernel",
                             "*fp32, *fp32, *fp32, i32, i32, i32", {{"BM", "64"}, {"BN", "64"}}, 2);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_TRUE(has(r.layout, "the tile (64, 64), 128 threads, 8 x 4 elements per thread"))
        << r.layout;
    EXPECT_TRUE(has(r.layout,
                    "#blocked = #mt.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], "
                    "warpsPerCTA = [4, 1], order = [1, 0]}>  // repeated 2 x 1 over the tile"))
        << r.layout;
    EXPECT_TRUE(has(r.layout, "#rows = #mt.slice<{dim = 1, parent = #blocked}>")) << r.layout;
    EXPECT_TRUE(has(r.layout,
                    ": block<64x64 x f32>  // #blocked; operands staged through #shared "
                    "per chunk of k {"))
        << r.layout;
    EXPECT_TRUE(has(r.layout, "load %15, %16, 0.0 : block<64x1 x f32>  // #rows")) << r.layout;
    EXPECT_TRUE(has(r.layout, "arange {start=0, end=64} : vector<64 x i32>  // #index"))
        << r.layout;
    EXPECT_TRUE(has(r.cuda, "__launch_bounds__(128)")) << r.cuda;
    EXPECT_TRUE(has(r.cuda, "const int tx = threadIdx.x % 16;")) << r.cuda;
}

// A rank-1 streaming kernel: 16-byte groups of 4 f32 per thread; f16
// groups of 8; with num_warps the threads are 32 * num_warps.
TEST(Layout, FlatTiles) {
    const char *body =
        "    offs = tl.program_id(0) * 4096 + tl.arange(0, 4096)\n"
        "    tl.store(y + offs, tl.load(x + offs) * 2)\n";
    Compiled r = emit_snippet("layout_flat", "x, y", "*fp32:16, *fp32:16", body);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_TRUE(has(r.layout, "the tile (4096,), 1024 threads, 1 x 4 elements per thread"))
        << r.layout;
    EXPECT_TRUE(has(r.layout,
                    "#flat = #mt.blocked<{sizePerThread = [4], threadsPerWarp = [32], "
                    "warpsPerCTA = [32], order = [0]}>"))
        << r.layout;
    EXPECT_TRUE(has(r.layout, "load ") && has(r.layout, "// #flat")) << r.layout;
    r = emit_snippet("layout_flat16", "x, y", "*fp16:16, *fp16:16", body, 2, 4);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_TRUE(has(r.layout, "the tile (4096,), 128 threads, 1 x 32 elements per thread"))
        << r.layout;
    EXPECT_TRUE(has(r.layout, "sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4]"))
        << r.layout;
    EXPECT_TRUE(has(r.layout, "repeated 4 times over the tile")) << r.layout;
    EXPECT_TRUE(has(r.cuda, "__launch_bounds__(128)")) << r.cuda;
}

// Reductions: along an axis of the tile where the elements are (each
// thread's, then warp shuffles; the row result a slice), a scan along an
// axis through shared memory, the flat block-wide one through warp
// shuffles.
TEST(Layout, ReductionConversions) {
    Compiled r = emit_snippet("layout_rows", "x, y", "*fp32, *fp32",
                              "    r = tl.arange(0, 32)\n"
                              "    c = tl.arange(0, 64)\n"
                              "    v = tl.load(x + r[:, None] * 64 + c[None, :])\n"
                              "    tl.store(y + r, tl.sum(v, axis=1))\n");
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_TRUE(has(r.layout,
                    "sum %7 {axis=1} : vector<32 x f32>  // #rows <- warp shuffles, then "
                    "#shared across warps"))
        << r.layout;
    EXPECT_TRUE(has(r.cuda, "__shfl_xor_sync")) << r.cuda;
    r = emit_snippet("layout_scan", "x, y", "*fp32, *fp32",
                     "    r = tl.arange(0, 32)\n"
                     "    c = tl.arange(0, 8)\n"
                     "    v = tl.load(x + r[:, None] * 8 + c[None, :])\n"
                     "    tl.store(y + r[:, None] * 8 + c[None, :], tl.cumsum(v, axis=1))\n");
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_TRUE(has(r.layout, "#blocked <- convert_layout through #shared (along the axis)"))
        << r.layout;
    r = emit_snippet("layout_flatsum", "x, y", "*fp32, *fp32",
                     "    v = tl.load(x + tl.arange(0, 1024))\n"
                     "    tl.store(y, tl.sum(v, axis=0))\n");
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_TRUE(has(r.layout, ": f32  // #uniform <- warp shuffles, then #shared across warps"))
        << r.layout;
}

// An element move is a conversion through shared memory; -O1 runs one
// thread per element, one element each.
// Exchanges compared element by element: a (512, 2) tile keeps each row's
// pair in one thread (sizePerThread [2, 2], chosen because it keeps the
// most exchanges in the thread), so split, join and the reshape of
// tl.interleave permute registers and need no shared memory; at -O1 (one
// element per thread) they go through shared memory.
TEST(Layout, ExchangesStayInTheThread) {
    const char *body =
        "    o = tl.arange(0, 512)\n"
        "    z = tl.load(x + o[:, None] * 2 + tl.arange(0, 2)[None, :])\n"
        "    re, im = tl.split(z)\n"
        "    w = tl.interleave(im, re * 2.0)\n"
        "    tl.store(y + tl.arange(0, 1024), w)\n";
    Compiled r = emit_snippet("layout_regs", "x, y", "*fp32, *fp32", body);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_TRUE(has(r.layout,
                    "#blocked = #mt.blocked<{sizePerThread = [2, 2], threadsPerWarp = "
                    "[32, 1], warpsPerCTA = [8, 1], order = [1, 0]}>"))
        << r.layout;
    EXPECT_TRUE(has(r.layout, "split %") &&
                has(r.layout,
                    ": vector<512 x f32>  // #rows <- in the thread: a permutation "
                    "of its registers"))
        << r.layout;
    EXPECT_TRUE(has(r.layout, ": block<512x2 x f32>  // #blocked <- in the thread")) << r.layout;
    EXPECT_TRUE(has(r.layout, "reshape %") &&
                has(r.layout, ": vector<1024 x f32>  // #flat <- in the thread"))
        << r.layout;
    EXPECT_FALSE(has(r.cuda, "__shared__")) << r.cuda;
    r = emit_snippet("layout_regs_o1", "x, y", "*fp32, *fp32", body, 1);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_FALSE(has(r.layout, "in the thread")) << r.layout;
    EXPECT_TRUE(has(r.cuda, "__shared__")) << r.cuda;
}

// A thread holding whole rows of a (1024, 2) tile holds rows one every
// 256 (Triton's sizePerThread [1, 2] repeated 4 times), so that one 8-byte
// access covers 256 consecutive bytes across a warp, and a store of the
// rows 128: the split and join stay in the thread. Not where that would
// move the interleave's reshape out of the threads (the test above).
TEST(Layout, WholeRowsSpreadOneByOne) {
    Compiled r = emit_layout(kSuite + "pairs.py", "magnitude_kernel", "*fp32, *fp32, *fp32, i32",
                             {{"BLOCK", "1024"}}, 2);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_TRUE(has(r.layout,
                    "#blocked = #mt.blocked<{sizePerThread = [1, 2], threadsPerWarp = "
                    "[32, 1], warpsPerCTA = [8, 1], order = [1, 0]}>  // repeated 4 x 1"))
        << r.layout;
    EXPECT_TRUE(has(r.layout, "split %") &&
                has(r.layout, ": vector<1024 x f32>  // #rows <- in the thread"))
        << r.layout;
    EXPECT_TRUE(has(r.cuda, "v3[i] = (v1 + (i * 256 + ty));")) << r.cuda;
    EXPECT_FALSE(has(r.cuda, "__shared__")) << r.cuda;
}

TEST(Layout, ExchangesAndOneThreadPerElement) {
    const char *body =
        "    r = tl.arange(0, 16)\n"
        "    c = tl.arange(0, 32)\n"
        "    v = tl.load(x + r[:, None] * 32 + c[None, :])\n"
        "    t = tl.trans(v)\n"
        "    tl.store(y + c[:, None] * 16 + r[None, :], t)\n";
    Compiled r = emit_snippet("layout_trans", "x, y", "*fp32, *fp32", body);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_TRUE(has(r.layout, "trans ") &&
                has(r.layout, "// #blocked <- convert_layout through #shared (exchange)"))
        << r.layout;
    EXPECT_TRUE(has(r.layout, "a bounding box")) << r.layout;
    r = emit_snippet("layout_trans_o1", "x, y", "*fp32, *fp32", body, 1);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_TRUE(has(r.layout,
                    "the tile (32, 32), 1024 threads, 1 x 1 elements per thread (one "
                    "thread per element, emit_cuda.c)"))
        << r.layout;
    EXPECT_TRUE(has(r.layout,
                    "sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = "
                    "[32, 1]"))
        << r.layout;
}

// A tile whose sides are not powers of two (Triton rejects such blocks;
// mytriton runs them): threadIdx.x row-major over the threads, no warp
// layout claimed, at -O1 and -O2.
TEST(Layout, TilesOfOtherSides) {
    for (int opt : {1, 2}) {
        Compiled r = emit_snippet("layout_odd", "x, y", "*fp32, *fp32",
                                  "    z = tl.full((16, 3), 2.0, tl.float32)\n"
                                  "    r = tl.arange(0, 16)[:, None]\n"
                                  "    tl.store(y + r * 3 + tl.zeros((1, 3), tl.int32), z)\n",
                                  opt);
        ASSERT_TRUE(r.ok) << r.diagnostics;
        EXPECT_TRUE(has(r.layout, "the tile (16, 3), 48 threads, 1 x 1 elements per thread"))
            << r.layout;
        EXPECT_TRUE(has(r.layout,
                        "#blocked = #mt.blocked<{sizePerThread = [1, 1], threads = [16, "
                        "3], order = [1, 0]}>"))
            << r.layout;
        EXPECT_TRUE(has(r.layout,
                        "#flat = #mt.blocked<{sizePerThread = [1], threads = [48], "
                        "order = [0]}>"))
            << r.layout;
    }
}

// dot.py's matmul with (64, 64) f16 tiles, as the tensor-core path plans it.
const std::string kDotPy = std::string(MT_TEST_SOURCE_DIR) + "/lang_dot/kernels/dot.py";
const char *const kDotSig = "*fp16, *fp16, *fp32, i32, i32, i32, i32, i32, i32, i32, i32, i32";
const std::vector<std::pair<std::string, std::string>> kDot64 = {
    {"BLOCK_M", "64"},  {"BLOCK_N", "64"},     {"BLOCK_K", "32"}, {"GROUP_M", "4"},
    {"ACC", "float32"}, {"PRECISION", "tf32"}, {"PLUS", "False"}, {"ACTIVATION", "none"}};

// The tensor-core matmul path's plan: the accumulator in mma.sync
// fragments over a 2 x 2 warp grid (wgmma's warpgroup in the sm_90a body),
// each operand's ring of padded or swizzled buffers, the copies into them,
// the dot reading them, the epilogue in the accumulator's layout and the
// address blocks computed at each use.
TEST(Layout, TensorCoreMatmul) {
    Compiled r = emit_layout(kDotPy, "matmul_kernel", kDotSig, kDot64, 2);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    const std::string &l = r.layout;
    EXPECT_TRUE(has(l, "a (64, 32) x (32, 64) f16 dot per iteration of the loop at %")) << l;
    EXPECT_TRUE(has(l,
                    "#mma = #mt.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], "
                    "instrShape = [16, 8]}>  // 128 threads"))
        << l;
    EXPECT_TRUE(has(l, "#a = #mt.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>")) << l;
    EXPECT_TRUE(
        has(l, "#smem_a = #mt.padded_shared<{shape = [64, 32], rowLength = 40, buffers = 3}>"))
        << l;
    EXPECT_TRUE(has(l,
                    "#mma_sm90a = #mt.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], "
                    "instrShape = [16, 64, 16]}>"))
        << l;
    EXPECT_TRUE(has(l,
                    "#smem_a_sm90a = #mt.nvmma_shared<{swizzlingByteWidth = 64, shape = [64, "
                    "32], buffers = "))
        << l;
    EXPECT_TRUE(has(l, ": block<64x32 x f16>  // #smem_a <- copy into the ring")) << l;
    EXPECT_TRUE(has(l,
                    ": block<64x64 x f32>  // #mma <- tensor cores: #a from #smem_a, #b from "
                    "#smem_b"))
        << l;
    EXPECT_TRUE(has(l,
                    "block<64x32 x ptr<f16>>, block<32x64 x ptr<f16>>  // #mma, #at_use, "
                    "#at_use {"))
        << l;
    EXPECT_TRUE(has(l, ": block<64x64 x ptr<f32>>  // #at_use")) << l;
}

// The attention path: q, k and v in rings (k read transposed), S and the
// output accumulator in #mma, the row statistics in its row slice, made by
// reductions within the lanes of a row; p enters the second dot from the
// registers that hold it.
TEST(Layout, AttentionOnTensorCores) {
    Compiled r = emit_layout(
        std::string(MT_TEST_SOURCE_DIR) + "/lang_apps/kernels/attention.py", "attn_fwd_kernel",
        "*fp16, *fp16, *fp16, *fp16, fp32, i32",
        {{"HEAD_DIM", "64"}, {"BLOCK_M", "64"}, {"BLOCK_N", "32"}, {"CAUSAL", "False"}}, 2, 4);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    const std::string &l = r.layout;
    EXPECT_TRUE(has(l,
                    "attention: S = q (64, 64) x trans(k) (64, 32), then p (64, 32) x v (32, "
                    "64)"))
        << l;
    EXPECT_TRUE(has(l, "#mma = #mt.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1]")) << l;
    EXPECT_TRUE(has(l, "#smem_k = #mt.padded_shared<{shape = [32, 64], rowLength = 72, buffers = "))
        << l;
    EXPECT_TRUE(has(l, "// #smem_k, transposed")) << l;
    EXPECT_TRUE(has(l, "#a from #smem_q, #b from #smem_k, transposed")) << l;
    EXPECT_TRUE(has(l, "#b from #smem_v")) << l;
    EXPECT_TRUE(has(l, "#a from the registers of %")) << l;
    EXPECT_TRUE(has(l, "// #mma_rows <- in the thread, then shuffles among the lanes of a row"))
        << l;
}

// ---- The verifier, on hand-built SSA -----------------------------------------

struct Planned {
    MtContext *ctx = mt_context_new("k.py");
    TileInfo t{};
    ~Planned() { mt_context_free(ctx); }
};

// Analyzes the kernel's tile and chooses its layout (the caller may then
// corrupt a value's layout before layout_plan).
void analyze(Ssa &s, Planned &p) {
    ASSERT_TRUE(shape_analyze(p.ctx, s.f, 1024, &p.t)) << sb_str(&p.ctx->diagnostics);
    ASSERT_EQ(layout_choose(s.a, s.f, &p.t, 0), nullptr);
}

// x[r, c] loaded as a 16 x 16 tile, its row sums added to each row's
// first column block: %rows (16, 1), %tile (16, 16).
struct RowSums {
    Ssa s{{{"x", ptr_f32()}, {"y", ptr_f32()}}};
    Operand r, c, rows, offs, tile, sum, sum2, scaled, out;
    RowSums() {
        r = s.typed(OP_ARANGE, {}, range_attr(0, 16));
        c = s.typed(OP_ARANGE, {}, range_attr(0, 16));
        rows = s.typed(OP_EXPAND_DIMS, {r}, axis_attr(1));
        Operand cols = s.typed(OP_EXPAND_DIMS, {c}, axis_attr(0));
        offs = s.typed(OP_ADD, {s.typed(OP_MUL, {rows, ci(16)}), cols});
        tile = s.typed(OP_LOAD, {s.typed(OP_ADDPTR, {param(0), offs}), none(), none()});
        Attrs along{};
        along.axis = 1;
        along.flag = RED_AXIS;
        sum = s.typed(OP_SUM, {tile}, along);
        sum2 = s.typed(OP_EXPAND_DIMS, {sum}, axis_attr(1));
        scaled = s.typed(OP_MUL, {sum2, cf(0.5)});
        out = s.typed(OP_ADD, {tile, scaled});
        s.store(s.typed(OP_ADDPTR, {param(1), offs}), out);
    }
};

// --emit=explain: each tl.dot's path on the CUDA backend, as notes at
// the dot's line: the per-dot tensor cores of the blocked emitter and how
// its warps tile the result, or the CUDA cores and why.
Compiled explain_dot(const std::string &tag, const std::string &dt, int m, int n, int k,
                     const std::string &precision, int opt, int num_warps = 0) {
    std::string body =
        "    rm = tl.arange(0, M)\n"
        "    rn = tl.arange(0, N)\n"
        "    rk = tl.arange(0, K)\n"
        "    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])\n"
        "    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])\n"
        "    c = tl.dot(a, b, input_precision=P)\n"
        "    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)\n";
    CompileArgs a;
    a.path = write_kernel(tag, "k.py",
                          kernel_text("a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, "
                                      "K: tl.constexpr, P: tl.constexpr",
                                      body));
    a.signature = "*" + dt + ", *" + dt + ", *fp32";
    a.defines = {{"M", std::to_string(m)},
                 {"N", std::to_string(n)},
                 {"K", std::to_string(k)},
                 {"P", precision}};
    a.opt_level = opt;
    a.num_warps = num_warps;
    a.explain = true;
    return compile(a);
}

TEST(Explain, EachDotSaysItsPath) {
    Compiled r = explain_dot("explain_tc", "bf16", 64, 64, 64, "tf32", 2, 4);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_TRUE(has(r.explain,
                    "k.py:12:9: note: tl.dot (64 x 64) @ (64 x 64) bf16 -> f32: tensor cores: "
                    "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32, 2 x 2 warps of 32 x 32, "
                    "operands staged in shared memory\n"))
        << r.explain;
    EXPECT_TRUE(has(r.cuda, "/* tl.dot on tensor cores: ")) << "the note and the kernel agree";

    r = explain_dot("explain_ieee", "fp32", 64, 64, 64, "ieee", 2, 4);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_TRUE(has(r.explain,
                    "tl.dot (64 x 64) @ (64 x 64) f32 (ieee) -> f32: CUDA cores: "
                    "input_precision=\"ieee\""))
        << r.explain;
    EXPECT_FALSE(has(r.cuda, "/* tl.dot on tensor cores: "));

    r = explain_dot("explain_x3", "fp32", 64, 64, 64, "tf32x3", 2, 4);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_TRUE(has(r.explain, "f32 (tf32x3) -> f32: CUDA cores: input_precision=\"tf32x3\""))
        << r.explain;

    r = explain_dot("explain_small", "fp16", 16, 16, 16, "tf32", 2);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_TRUE(has(r.explain, "-> f32: tensor cores: mma.sync by warps")) << r.explain;

    r = explain_dot("explain_o1", "fp16", 16, 16, 16, "tf32", 1);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_TRUE(has(r.explain, "CUDA cores: -O1 keeps the seed's K loop")) << r.explain;
}

TEST(LayoutVerify, AcceptsThePlanOfAnalyzedTiles) {
    RowSums k;
    EXPECT_VALID(k.s);
    Planned p;
    analyze(k.s, p);
    LayoutPlan *plan = layout_plan(k.s.a, k.s.f, &p.t, 4, 1, "test");
    EXPECT_TRUE(layout_verify(p.ctx, k.s.f, plan)) << sb_str(&p.ctx->diagnostics);
    EXPECT_EQ(p.t.layout[k.sum2.id], LAYOUT_ROWS);
    /* (a sum along the tile's rows: where the elements are) */
    EXPECT_EQ(plan->conv[k.sum.id], CONV_SHUFFLE);
    EXPECT_EQ(plan->nconv[CONV_SHUFFLE], 1);
    EXPECT_EQ(plan->nconv[CONV_AXIS], 0);
}

TEST(LayoutVerify, RejectsASliceReadAsTheOtherSlice) {
    RowSums k;
    Planned p;
    analyze(k.s, p);
    p.t.layout[k.scaled.id] = LAYOUT_COLS; /* the product of a (16, 1) value as columns */
    LayoutPlan *plan = layout_plan(k.s.a, k.s.f, &p.t, 4, 1, "test");
    EXPECT_FALSE(layout_verify(p.ctx, k.s.f, plan));
    std::string d = sb_str(&p.ctx->diagnostics);
    EXPECT_TRUE(has(d, "layout: %" + std::to_string(k.sum2.id) +
                           " is #rows, but mul reads it as #cols without a conversion"))
        << d;
}

TEST(LayoutVerify, RejectsALayoutThatDoesNotCoverTheValue) {
    RowSums k;
    Planned p;
    analyze(k.s, p);
    p.t.layout[k.sum.id] = LAYOUT_TILE; /* the rank-1 row sums as the whole tile */
    LayoutPlan *plan = layout_plan(k.s.a, k.s.f, &p.t, 4, 1, "test");
    EXPECT_FALSE(layout_verify(p.ctx, k.s.f, plan));
    std::string d = sb_str(&p.ctx->diagnostics);
    EXPECT_TRUE(has(d, "layout: %" + std::to_string(k.sum.id) +
                           " (vector<16 x f32>) is #blocked, which does not cover it in the tile "
                           "(16, 16)"))
        << d;
}

TEST(LayoutVerify, RejectsAThreadCountOtherThanTheBlocks) {
    RowSums k;
    Planned p;
    analyze(k.s, p);
    LayoutPlan *plan = layout_plan(k.s.a, k.s.f, &p.t, 4, 1, "test");
    plan->wpc[0] *= 2;
    EXPECT_FALSE(layout_verify(p.ctx, k.s.f, plan));
    EXPECT_TRUE(has(sb_str(&p.ctx->diagnostics), "not the tile (16, 16)"));
}

// ---- The verifier on a tensor-core plan ------------------------------------

// The tensor-core plan of dot.py's matmul (from its SSA after the passes,
// through mt_compile_rewrite's hook), corrupted by `corrupt`, verified.
struct TcCase {
    void (*corrupt)(Arena *a, const Function *f, LayoutTc *tc) = nullptr;
    bool planned = false, verified = false;
    std::string diagnostics;
};

int verify_tc(Arena *a, Function *f, void *user) {
    TcCase *c = static_cast<TcCase *>(user);
    TileInfo t{};
    const MmaPlan *P = cuda_mma_plan(a, f, 4, 0, &t);
    if (!P) return 1;
    c->planned = true;
    LayoutTc *tc = ARENA_NEW(a, LayoutTc);
    *tc = *cuda_mma_layout(a, f, P);
    if (c->corrupt) {
        unsigned char *e = ARENA_ARRAY(a, unsigned char, f->nvalues + 1);
        memcpy(e, tc->enc, static_cast<size_t>(f->nvalues) + 1);
        tc->enc = e;
        c->corrupt(a, f, tc);
    }
    MtContext *ctx = mt_context_new("k.py");
    c->verified = layout_verify(ctx, f, layout_plan_tc(a, f, &t, tc, "test")) != 0;
    c->diagnostics = sb_str(&ctx->diagnostics);
    mt_context_free(ctx);
    return 1;
}

TcCase run_tc(void (*corrupt)(Arena *, const Function *, LayoutTc *)) {
    TcCase c;
    c.corrupt = corrupt;
    std::vector<mt_define> defs;
    for (auto &d : kDot64) defs.push_back({d.first.c_str(), d.second.c_str()});
    mt_options o{};
    o.path = kDotPy.c_str();
    o.kernel = "matmul_kernel";
    o.signature = kDotSig;
    o.defines = defs.data();
    o.ndefines = static_cast<int>(defs.size());
    o.opt_level = 2;
    o.python = MT_TEST_PYTHON;
    o.shim = MT_TEST_SHIM;
    mt_compilation *m = mt_compile_rewrite(&o, verify_tc, &c);
    EXPECT_TRUE(mt_ok(m)) << mt_diagnostics(m);
    mt_free(m);
    EXPECT_TRUE(c.planned);
    return c;
}

// The value the first staged load defines.
int staged_load(const Function *f, const LayoutTc *tc) {
    for (int v = 0; v < f->nvalues; v++)
        if (tc->enc[v] == TC_STAGED) return v;
    return -1;
}

TEST(LayoutVerify, AcceptsTheTensorCorePlan) {
    TcCase c = run_tc(nullptr);
    EXPECT_TRUE(c.verified) << c.diagnostics;
}

TEST(LayoutVerify, RejectsARingWithoutItsCopy) {
    TcCase c = run_tc([](Arena *, const Function *f, LayoutTc *tc) {
        tc->enc[staged_load(f, tc)] = TC_AT_USE; /* no longer staged: no copy */
    });
    EXPECT_FALSE(c.verified);
    EXPECT_TRUE(has(c.diagnostics, "#smem_a does not hold a staged load")) << c.diagnostics;
}

TEST(LayoutVerify, RejectsAStagedLoadWithoutARing) {
    TcCase c = run_tc([](Arena *, const Function *, LayoutTc *tc) {
        tc->body[0].nrings = 1; /* B's copy has nowhere to go */
    });
    EXPECT_FALSE(c.verified);
    EXPECT_TRUE(has(c.diagnostics, "a staged load has no ring")) << c.diagnostics;
}

TEST(LayoutVerify, RejectsACarriedValueChangingItsEncoding) {
    TcCase c = run_tc([](Arena *, const Function *f, LayoutTc *tc) {
        for (int i = 0; i < f->body.items.len; i++) { /* the accumulator's region argument */
            const Inst *in = static_cast<const Inst *>(f->body.items.items[i]);
            if (in->op != OP_FOR) continue;
            for (int k = 0; k < in->loop->ncarried; k++)
                if (tc->enc[in->loop->args[k]] == TC_ACC) tc->enc[in->loop->args[k]] = TC_AT_USE;
        }
    });
    EXPECT_FALSE(c.verified);
    EXPECT_TRUE(has(c.diagnostics, "a loop's carried value changes its encoding")) << c.diagnostics;
}

TEST(LayoutVerify, RejectsWarpsOtherThanTheBlocks) {
    TcCase c = run_tc([](Arena *, const Function *, LayoutTc *tc) { tc->body[0].wm *= 2; });
    EXPECT_FALSE(c.verified);
    EXPECT_TRUE(has(c.diagnostics, "#mma v2: 4 x 2 warps in 128 threads, the CUDA block 128"))
        << c.diagnostics;
}

TEST(LayoutVerify, RejectsRingsAboveTheSharedMemory) {
    TcCase c =
        run_tc([](Arena *, const Function *, LayoutTc *tc) { tc->body[0].ring[1].buffers = 64; });
    EXPECT_FALSE(c.verified);
    EXPECT_TRUE(has(c.diagnostics, "#mma v2: its rings take ")) << c.diagnostics;
}

// ---- The verifier on a permutation of registers ------------------------------

struct RegsCase {
    bool planned = false, verified = false;
    std::string diagnostics;
};

// The (512, 2) split and join of ExchangesStayInTheThread, planned from its
// SSA after the passes, its first CONV_REGS map made to read an operand
// the op does not have, verified.
int corrupt_regs(Arena *a, Function *f, void *user) {
    RegsCase *c = static_cast<RegsCase *>(user);
    MtContext *ctx = mt_context_new("k.py");
    TileInfo t{};
    if (shape_analyze(ctx, f, 65536, &t) && !layout_choose(a, f, &t, 0)) {
        LayoutPlan *p = layout_plan(a, f, &t, layout_access_group(f), 1, "test");
        for (int v = 0; v < f->nvalues && !c->planned; v++)
            if (p->conv[v] == CONV_REGS && f->defs[v]->nargs == 1) {
                p->regs[v][0] = LAYOUT_MAX_SLOTS; /* operand 1, element 0 */
                c->planned = true;
            }
        c->verified = layout_verify(ctx, f, p) != 0;
    }
    c->diagnostics = sb_str(&ctx->diagnostics);
    mt_context_free(ctx);
    return 1;
}

TEST(LayoutVerify, RejectsAPermutationReadingAMissingOperand) {
    std::string path = write_kernel("layout_regs_bad", "k.py",
                                    kernel_text("x, y",
                                                "    o = tl.arange(0, 512)\n"
                                                "    z = tl.load(x + o[:, None] * 2 + tl.arange(0, "
                                                "2)[None, :])\n"
                                                "    re, im = tl.split(z)\n"
                                                "    tl.store(y + o, re + im)\n"));
    mt_options o{};
    o.path = path.c_str();
    o.kernel = "k";
    o.signature = "*fp32, *fp32";
    o.opt_level = 2;
    o.python = MT_TEST_PYTHON;
    o.shim = MT_TEST_SHIM;
    RegsCase c;
    mt_compilation *m = mt_compile_rewrite(&o, corrupt_regs, &c);
    EXPECT_TRUE(mt_ok(m)) << mt_diagnostics(m);
    mt_free(m);
    ASSERT_TRUE(c.planned);
    EXPECT_FALSE(c.verified);
    EXPECT_TRUE(has(c.diagnostics,
                    "permutation of registers reads an element its operands do "
                    "not hold"))
        << c.diagnostics;
}

// A (1, 1) block in the tensor-core path's epilogue: one element
// broadcast, held as a slice of the accumulator (it had been rejected as
// an internal error).
TEST(Layout, TensorCoreEpilogueOfOneElement) {
    const char *body =
        "    rm = tl.arange(0, 128)\n"
        "    rn = tl.arange(0, 128)\n"
        "    rk = tl.arange(0, 32)\n"
        "    acc = tl.zeros((128, 128), dtype=tl.float32)\n"
        "    for k in range(0, K, 32):\n"
        "        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :])\n"
        "        b = tl.load(B + (k + rk)[:, None] * 128 + rn[None, :])\n"
        "        acc += tl.dot(a, b)\n"
        "    one = tl.load(S + tl.zeros((1, 1), dtype=tl.int32))\n"
        "    tl.store(C + rm[:, None] * 128 + rn[None, :], acc * one)\n";
    Compiled r =
        emit_snippet("layout_tc_one", "A, B, C, S, K", "*fp16, *fp16, *fp32, *fp32, i32", body);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_TRUE(has(r.layout, "tl.dot on tensor cores")) << r.layout;
    EXPECT_TRUE(has(r.layout, ": block<1x1 x f32>  // #mma_rows")) << r.layout;
}

}  // namespace
