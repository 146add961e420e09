// tl.dot's diagnostics: each rejected use (Triton's semantic.dot rules and
// the backends' limits) with its whole output: `k.py:LINE:COL: error: ...`,
// the source line and the caret. The kernel prologue is unit_support.h's
// (the body starts at line 7).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "unit_support.h"

namespace {

using namespace mt_unit;

#define LOADS                                                 \
    "    r16 = tl.arange(0, 16)\n"                            \
    "    r32 = tl.arange(0, 32)\n"                            \
    "    a = tl.load(x + r16[:, None] * 32 + r32[None, :])\n" \
    "    b = tl.load(x + r32[:, None] * 16 + r16[None, :])\n"

const std::vector<DiagnosticCase> &cases() {
    static const std::vector<DiagnosticCase> all = {
        {"OperandDtypesDiffer", "x, y", "*fp16, *fp32",
         "    r = tl.arange(0, 16)\n"
         "    a = tl.load(x + r[:, None] * 16 + r[None, :])\n"
         "    b = tl.load(y + r[:, None] * 16 + r[None, :])\n"
         "    c = tl.dot(a, b)\n",
         "k.py:10:9: error: tl.dot: both operands must be of one dtype (got f16 and f32)\n"
         "        c = tl.dot(a, b)\n"
         "            ^\n"},
        {"Uint8Operands", "x", "*u8",
         "    r = tl.arange(0, 32)\n"
         "    a = tl.load(x + r[:, None] * 32 + r[None, :])\n"
         "    c = tl.dot(a, a)\n",
         "k.py:9:9: error: tl.dot: only int8 integer operands are supported\n"
         "        c = tl.dot(a, a)\n"
         "            ^\n"},
        {"Int16Operands", "x", "*i16",
         "    r = tl.arange(0, 16)\n"
         "    a = tl.load(x + r[:, None] * 16 + r[None, :])\n"
         "    c = tl.dot(a, a)\n",
         "k.py:9:16: error: tl.dot: unsupported lhs dtype i16 (int8, float16, bfloat16, float32, float64, or two "
         "fp8 operands)\n"
         "        c = tl.dot(a, a)\n"
         "                   ^\n"},
        {"ShapesIncompatible", "x", "*fp16", LOADS "    c = tl.dot(a, a)\n",
         "k.py:11:9: error: tl.dot: the shapes (16, 32) and (16, 32) are not compatible for a matrix product (K: 32 "
         "and 16)\n"
         "        c = tl.dot(a, a)\n"
         "            ^\n"},
        {"Rank1Operand", "x", "*fp16",
         "    r = tl.arange(0, 16)\n"
         "    a = tl.load(x + r)\n"
         "    c = tl.dot(a, a)\n",
         "k.py:9:16: error: tl.dot needs blocks of rank 2 or 3 (got vector<16 x f16>)\n"
         "        c = tl.dot(a, a)\n"
         "                   ^\n"},
        {"TooSmall", "x", "*fp16",
         "    r = tl.arange(0, 8)\n"
         "    a = tl.load(x + r[:, None] * 8 + r[None, :])\n"
         "    c = tl.dot(a, a)\n",
         "k.py:9:9: error: tl.dot needs M >= 16, N >= 16 and K >= 16 (got M=8, N=8, K=8)\n"
         "        c = tl.dot(a, a)\n"
         "            ^\n"},
        {"Int8KTooSmall", "x", "*i8",
         "    r = tl.arange(0, 16)\n"
         "    a = tl.load(x + r[:, None] * 16 + r[None, :])\n"
         "    c = tl.dot(a, a)\n",
         "k.py:9:9: error: tl.dot needs M >= 16, N >= 16 and K >= 32 (got M=16, N=16, K=16)\n"
         "        c = tl.dot(a, a)\n"
         "            ^\n"},
        {"OutDtypeBf16", "x", "*bf16", LOADS "    c = tl.dot(a, b, out_dtype=tl.bfloat16)\n",
         "k.py:11:22: error: tl.dot: out_dtype=bfloat16 is unsupported (use float32 or float16 and cast with "
         "'.to(tl.bfloat16)')\n"
         "        c = tl.dot(a, b, out_dtype=tl.bfloat16)\n"
         "                         ^\n"},
        {"AccumulatorDtype", "x", "*fp16",
         LOADS "    acc = tl.zeros((16, 16), dtype=tl.float16)\n"
               "    c = tl.dot(a, b, acc)\n",
         "k.py:12:22: error: tl.dot: the accumulator's dtype (f16) must be out_dtype (f32)\n"
         "        c = tl.dot(a, b, acc)\n"
         "                         ^\n"},
        {"AccumulatorShape", "x", "*fp16",
         LOADS "    acc = tl.zeros((16, 32), dtype=tl.float32)\n"
               "    c = tl.dot(a, b, acc)\n",
         "k.py:12:22: error: tl.dot: the accumulator must be a (16, 16) block (got block<16x32 x f32>)\n"
         "        c = tl.dot(a, b, acc)\n"
         "                         ^\n"},
        {"Int8AccumulatorNeedsOutDtype", "x", "*i8",
         "    r16 = tl.arange(0, 16)\n"
         "    r32 = tl.arange(0, 32)\n"
         "    a = tl.load(x + r16[:, None] * 32 + r32[None, :])\n"
         "    b = tl.load(x + r32[:, None] * 16 + r16[None, :])\n"
         "    acc = tl.zeros((16, 16), dtype=tl.int32)\n"
         "    c = tl.dot(a, b, acc)\n",
         "k.py:12:22: error: tl.dot: the accumulator's dtype (i32) must be out_dtype (f32): pass "
         "out_dtype=tl.int32 with an int8 dot\n"
         "        c = tl.dot(a, b, acc)\n"
         "                         ^\n"},
        {"UnknownPrecision", "x", "*fp32", LOADS "    c = tl.dot(a, b, input_precision=\"fast\")\n",
         "k.py:11:22: error: tl.dot: input_precision must be one of tf32, tf32x3, ieee (got \"fast\")\n"
         "        c = tl.dot(a, b, input_precision=\"fast\")\n"
         "                         ^\n"},
        {"Bf16x3NotYet", "x", "*fp32", LOADS "    c = tl.dot(a, b, input_precision=\"bf16x3\")\n",
         "k.py:11:22: error: tl.dot: input_precision \"bf16x3\" is not supported yet (tf32, tf32x3, ieee)\n"
         "        c = tl.dot(a, b, input_precision=\"bf16x3\")\n"
         "                         ^\n"},
        {"PrecisionAndAllowTf32", "x", "*fp32",
         LOADS "    c = tl.dot(a, b, input_precision=\"ieee\", allow_tf32=True)\n",
         "k.py:11:46: error: tl.dot: only one of input_precision and allow_tf32 can be specified\n"
         "        c = tl.dot(a, b, input_precision=\"ieee\", allow_tf32=True)\n"
         "                                                 ^\n"},
        {"ImpreciseAccAboveK", "x, y", "*fp8e4nv, *fp8e5",
         "    r16 = tl.arange(0, 16)\n"
         "    r32 = tl.arange(0, 32)\n"
         "    a = tl.load(x + r16[:, None] * 32 + r32[None, :])\n"
         "    b = tl.load(y + r32[:, None] * 16 + r16[None, :])\n"
         "    c = tl.dot(a, b, max_num_imprecise_acc=64)\n",
         "k.py:11:22: error: tl.dot: max_num_imprecise_acc (64) must be <= K (32)\n"
         "        c = tl.dot(a, b, max_num_imprecise_acc=64)\n"
         "                         ^\n"},
        {"MatmulOfScalars", "x, n", "*fp32, i32", "    v = n @ n\n",
         "k.py:7:9: error: '@' needs blocks of rank 2 or 3 (got i32)\n"
         "        v = n @ n\n"
         "            ^\n"},
        {"TileTooLargeAtO1",
         "x",
         "*fp16",
         "    r = tl.arange(0, 64)\n"
         "    a = tl.load(x + r[:, None] * 64 + r[None, :])\n"
         "    c = tl.dot(a, a)\n"
         "    tl.store(x + r[:, None] * 64 + r[None, :], c)\n",
         "k.py:8:26: error: the tile (64, 64) of a kernel with tl.dot needs 4096 threads, more than the 1024 of a "
         "CUDA block (at -O1 a dot runs one thread per element of the bounding box of its blocks: BLOCK_M * "
         "BLOCK_N and the operands' shapes at most 1024 elements; -O2 spreads it over the threads)\n"
         "        a = tl.load(x + r[:, None] * 64 + r[None, :])\n"
         "                             ^\n",
         {},
         nullptr,
         "",
         1},
    };
    return all;
}

class DotDiagnostic : public ::testing::TestWithParam<size_t> {};

TEST_P(DotDiagnostic, MatchesExpectedText) {
    const DiagnosticCase &c = cases()[GetParam()];
    std::string text = kernel_text(c.params, c.body) + c.after;
    std::string path = write_kernel(std::string("dotdiag_") + c.name, "k.py", text);
    std::string dir = path.substr(0, path.size() - 4);
    CompileArgs a;
    a.path = path;
    a.signature = c.signature;
    a.defines = c.defines;
    a.grid = c.grid;
    a.opt_level = c.opt_level;
    Compiled r = compile(a);
    EXPECT_FALSE(r.ok);
    std::string got = r.diagnostics;
    for (size_t at; (at = got.find(dir)) != std::string::npos;) got.erase(at, dir.size());
    EXPECT_EQ(got, c.expected) << "kernel:\n" << text;
}

INSTANTIATE_TEST_SUITE_P(Rejected, DotDiagnostic, ::testing::Range<size_t>(0, cases().size()),
                         [](const ::testing::TestParamInfo<size_t> &info) {
                             return std::string(cases()[info.param].name);
                         });

// Accepted forms: the SSA of tl.dot (attributes, the implicit zero
// accumulator, out_dtype, '@', allow_tf32) and the CUDA at -O1 / -O2.
Compiled accepted(const char *tag, const char *sig, const std::string &body, int opt = 2) {
    std::string path = write_kernel(tag, "k.py", kernel_text("x, y", body));
    CompileArgs a;
    a.path = path;
    a.signature = sig;
    a.opt_level = opt;
    return compile(a);
}

TEST(DotAccepted, SsaOfEachForm) {
    Compiled r =
        accepted("dot_ssa", "*fp16, *fp32",
                 LOADS
                 "    c = tl.dot(a, b, out_dtype=tl.float16)\n"
                 "    d = tl.dot(a, b, input_precision=\"IEEE\", max_num_imprecise_acc=4)\n"
                 "    e = a @ b\n"
                 "    r = tl.arange(0, 16)\n"
                 "    tl.store(y + r[:, None] * 16 + r[None, :], c + d + e)\n");
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_NE(r.ssa.find("zeros {shape=(16, 16), dtype=f16} : block<16x16 x f16>"),
              std::string::npos)
        << r.ssa;
    EXPECT_NE(r.ssa.find("{input_precision=tf32, max_num_imprecise_acc=0} : block<16x16 x f16>"),
              std::string::npos)
        << r.ssa;
    EXPECT_NE(r.ssa.find("{input_precision=ieee, max_num_imprecise_acc=4} : block<16x16 x f32>"),
              std::string::npos)
        << r.ssa;
}

TEST(DotAccepted, Int8WithOutDtypeAndAllowTf32) {
    Compiled r = accepted("dot_i8", "*i8, *i32",
                          "    r16 = tl.arange(0, 16)\n"
                          "    r32 = tl.arange(0, 32)\n"
                          "    a = tl.load(x + r16[:, None] * 32 + r32[None, :])\n"
                          "    b = tl.load(x + r32[:, None] * 16 + r16[None, :])\n"
                          "    acc = tl.zeros((16, 16), dtype=tl.int32)\n"
                          "    acc = tl.dot(a, b, acc, allow_tf32=False, out_dtype=tl.int32)\n"
                          "    tl.store(y + r16[:, None] * 16 + r16[None, :], acc)\n");
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_NE(r.ssa.find("{input_precision=ieee, max_num_imprecise_acc=0} : block<16x16 x i32>"),
              std::string::npos)
        << r.ssa;
    EXPECT_NE(r.cuda.find("mt_mma_s8"), std::string::npos);  // -O2: mma.sync m16n8k32
}

TEST(DotAccepted, CudaCoresAtO1TensorCoresAtO2) {
    std::string body = LOADS
        "    c = tl.dot(a, b)\n"
        "    r = tl.arange(0, 16)\n"
        "    tl.store(y + r[:, None] * 16 + r[None, :], c)\n";
    Compiled o1 = accepted("dot_o1", "*fp16, *fp32", body, 1);
    Compiled o2 = accepted("dot_o2", "*fp16, *fp32", body, 2);
    ASSERT_TRUE(o1.ok && o2.ok) << o1.diagnostics << o2.diagnostics;
    EXPECT_EQ(o1.cuda.find("mma.sync"), std::string::npos);
    EXPECT_NE(o2.cuda.find("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"), std::string::npos);
    EXPECT_NE(o2.cuda.find("ldmatrix.sync.aligned.m8n8.x4.shared.b16"), std::string::npos);
    EXPECT_NE(o2.cuda.find("#else"), std::string::npos);  // the CUDA-core fallback
}

// -O2's tensor-core path of large tiles (emit_cuda_mma.c) takes the
// tutorial matmul of kernels/dot.py for f16/bf16 with an f32 accumulator;
// every other dot kernel keeps the one-thread-per-element path and its
// limit (and -O1 is unchanged).
Compiled tutorial(const char *el, const char *acc, int bm, int bn, int bk, int opt,
                  const char *precision = "tf32", const char *warp_specialize = "False") {
    CompileArgs a;
    a.path = std::string(MT_TEST_SOURCE_DIR) + "/lang_dot/kernels/dot.py";
    a.kernel = "matmul_kernel";
    std::string e = std::string("*") + el;
    a.signature = e + ", " + e + ", " + e + ", i32, i32, i32, i32, i32, i32, i32, i32, i32";
    a.defines = {{"BLOCK_M", std::to_string(bm)},
                 {"BLOCK_N", std::to_string(bn)},
                 {"BLOCK_K", std::to_string(bk)},
                 {"GROUP_M", "8"},
                 {"ACC", acc},
                 {"PRECISION", precision},
                 {"PLUS", "False"},
                 {"ACTIVATION", "leaky_relu"},
                 {"WARP_SPECIALIZE", warp_specialize}};
    a.opt_level = opt;
    return compile(a);
}

TEST(DotTensorCorePath, LargeF16TileInFragments) {
    Compiled r = tutorial("fp16", "float32", 128, 128, 32, 2);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_NE(r.cuda.find("__launch_bounds__(128)"), std::string::npos);  // 4 warps
    EXPECT_NE(r.cuda.find("float mt_acc[4][8][4];"), std::string::npos)
        << r.cuda;  // 64 x 64 per warp
    EXPECT_NE(r.cuda.find("mt_cp_async16(mt_dst"), std::string::npos);
    EXPECT_NE(r.cuda.find("mt_cp_async_wait<1>();"), std::string::npos);  // 3 stages
    EXPECT_NE(r.cuda.find("mt_ldsm4_trans(mt_fb"), std::string::npos);
    EXPECT_NE(r.cuda.find("mt_mma16816_f16(mt_acc"), std::string::npos);
    EXPECT_NE(r.cuda.find("extern __shared__"), std::string::npos);
}

// A block whose mask is all true is copied by bare cp.async: the mask's
// comparisons are monotone in the block's coordinates (the tutorial's
// offs_k < K - k * BLOCK_K), so the whole block's mask is its value at
// the corner where it is tightest, once per iteration.
TEST(DotTensorCorePath, WholeBlockMaskFromItsCorner) {
    Compiled r = tutorial("fp16", "float32", 128, 128, 32, 2);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_NE(r.cuda.find("if (__builtin_expect(mt_u0 && (31 < (K - (mt_k * 32))), 1)) {"),
              std::string::npos)
        << r.cuda;
    EXPECT_NE(r.cuda.find("if (__builtin_expect(mt_u1 && (31 < (K - (mt_k * 32))), 1)) {"),
              std::string::npos);
    // each group from the iteration's base pointer, its shared offset group
    // 0's plus a constant step (the layout check verifies the step)
    EXPECT_NE(r.cuda.find("const __half *const mt_p0 = a_ptr + mt_d0;"), std::string::npos);
    EXPECT_NE(r.cuda.find("mt_cp_async16(&mt_sa[mt_q0 + mt_s * "), std::string::npos);
    EXPECT_NE(r.cuda.find("], &mt_p0[mt_b0[mt_s]]);"), std::string::npos);
    EXPECT_EQ(r.cuda.find("mt_q0[mt_s]"), std::string::npos);
}

// A mask that is not monotone along the block (a remainder) has no corner:
// every group checks its elements.
TEST(DotTensorCorePath, NonMonotoneMaskChecksEveryGroup) {
    std::string path =
        write_kernel("dot_mask_mod", "k.py",
                     kernel_text("a, b, c, K",
                                 "    r = tl.arange(0, 64)\n"
                                 "    kk = tl.arange(0, 32)\n"
                                 "    acc = tl.zeros((64, 64), dtype=tl.float32)\n"
                                 "    pa = a + r[:, None] * K + kk[None, :]\n"
                                 "    pb = b + kk[:, None] * 64 + r[None, :]\n"
                                 "    for k in range(0, tl.cdiv(K, 32)):\n"
                                 "        m = (kk % 5)[None, :] < K - k * 32\n"
                                 "        x = tl.load(pa, mask=m, other=0.0)\n"
                                 "        y = tl.load(pb)\n"
                                 "        acc += tl.dot(x, y)\n"
                                 "        pa += 32\n"
                                 "        pb += 32 * 64\n"
                                 "    tl.store(c + r[:, None] * 64 + r[None, :], acc)\n"));
    CompileArgs a;
    a.path = path;
    a.signature = "*fp16, *fp16, *fp32, i32";
    a.opt_level = 2;
    Compiled r = compile(a);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    ASSERT_NE(r.cuda.find("mt_mma16816_f16(mt_acc"), std::string::npos)
        << r.cuda;  // the tensor-core path
    EXPECT_EQ(r.cuda.find("__builtin_expect(mt_u0"), std::string::npos) << r.cuda;  // A: no corner
    EXPECT_NE(r.cuda.find("if (__builtin_expect(mt_u1 && true, 1)) {"),
              std::string::npos);  // B: unmasked
}

TEST(DotTensorCorePath, Bf16Tile128x256) {
    Compiled r = tutorial("bf16", "float32", 128, 256, 64, 2);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_NE(r.cuda.find("mt_mma16816_bf16(mt_acc"), std::string::npos);
    EXPECT_NE(r.cuda.find("float mt_acc[8][8][4];"), std::string::npos) << r.cuda;  // 1 x 4 warps
}

// TF32 and int8: m16n8k8 / m16n8k32, A by ldmatrix, B by vector loads
// (the warp's columns permuted in groups of 32)
TEST(DotTensorCorePath, Tf32AndInt8Tiles) {
    Compiled t = tutorial("fp32", "float32", 128, 128, 32, 2);
    ASSERT_TRUE(t.ok) << t.diagnostics;
    EXPECT_NE(t.cuda.find("float mt_acc[4][8][4];"), std::string::npos) << t.cuda;
    EXPECT_NE(t.cuda.find("mt_ldb_tf32(mt_fb"), std::string::npos);
    EXPECT_NE(t.cuda.find("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"), std::string::npos);
    EXPECT_EQ(t.cuda.find("mt_split_tf32(mt_ab[r], mt_as[r])"), std::string::npos);
    Compiled x3 = tutorial("fp32", "float32", 64, 128, 32, 2, "tf32x3");
    ASSERT_TRUE(x3.ok) << x3.diagnostics;
    EXPECT_NE(x3.cuda.find("mt_split_tf32(mt_ab[r], mt_as[r])"), std::string::npos);
    Compiled i8 = tutorial("i8", "int32", 128, 128, 64, 2);
    ASSERT_TRUE(i8.ok) << i8.diagnostics;
    EXPECT_NE(i8.cuda.find("int mt_acc[4][8][4];"), std::string::npos) << i8.cuda;
    EXPECT_NE(i8.cuda.find("mt_ldb_s8(mt_fb"), std::string::npos);
    EXPECT_NE(i8.cuda.find("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"), std::string::npos);
    // 32 x 32 with 4 warps: no warp grid with 32 columns per warp, the small tiles' path
    Compiled small = tutorial("fp32", "float32", 32, 32, 16, 2);
    ASSERT_TRUE(small.ok) << small.diagnostics;
    EXPECT_EQ(small.cuda.find("mt_ldb_tf32"), std::string::npos);
    EXPECT_NE(small.cuda.find("mt_mma_tf32(c, a, b)"), std::string::npos);
}

// sm_90a (emit_cuda_wgmma.c): the same kernels get a wgmma body under
// MT_WGMMA_SM90 when the warps form warpgroups over 64-row blocks; the
// mma.sync body stays the #else.
TEST(DotTensorCorePath, WgmmaBranch128x256) {
    Compiled r = tutorial("fp16", "float32", 128, 256, 64, 2);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_NE(r.cuda.find("#if MT_WGMMA_SM90"), std::string::npos) << r.cuda;
    // 4 warps: one warpgroup, two 64-row blocks of 256 columns
    EXPECT_NE(r.cuda.find("float mt_acc[2][32][4];"), std::string::npos);
    EXPECT_NE(r.cuda.find("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16"),
              std::string::npos);
    EXPECT_NE(r.cuda.find("mt_wgmma_n256_f16(mt_acc[1]"), std::string::npos);
    // the proxy fence follows the element-wise copies' stores, in the
    // thread that stored (cp.async's writes need none: Triton's rule)
    size_t fence = r.cuda.find("mt_fence_proxy_async();");
    ASSERT_NE(fence, std::string::npos);
    EXPECT_NE(r.cuda.substr(fence - 200, 200).find("mt_dst[q] = mt_m[q] ?"), std::string::npos);
    // the descriptors from a warp-uniform warpgroup index, in the loop
    size_t loop = r.cuda.find("for (int mt_t = 0; mt_t < mt_n; mt_t++) {");
    EXPECT_GT(r.cuda.find("const int mt_wu = __shfl_sync(0xffffffffu, mt_wg, 0);"), loop);
    EXPECT_NE(r.cuda.find("mt_wgmma_wait<1>();"), std::string::npos);
    EXPECT_NE(r.cuda.find("mt_swz(mt_gr * 128 + mt_gc * 2, 7)"),
              std::string::npos);                                         // A: 128B swizzle
    EXPECT_NE(r.cuda.find("float mt_acc[8][8][4];"), std::string::npos);  // the mma.sync #else
}

// tl.range(..., warp_specialize=True): the wgmma body is warp-specialized, a producer warpgroup (a __noinline__
// function of its own, for ptxas's register allocation) fills the ring
// and arrives on each slot's full mbarrier; the computing warps wait for
// it, issue the wgmma's and arrive on the empty mbarrier of the slot the
// previous iteration read; the epilogue's barrier leaves the producer out;
// the mma.sync body returns from the producer's threads (an sm_90 device
// running plain sm_90 code).
TEST(DotTensorCorePath, WgmmaWarpSpecialized) {
    Compiled r = tutorial("fp16", "float32", 128, 256, 64, 2, "tf32", "True");
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_NE(r.cuda.find("__launch_bounds__(MT_ARCH_SM90 ? 256 : 128)"), std::string::npos)
        << r.cuda;
    size_t fn = r.cuda.find("_producer(");
    ASSERT_NE(fn, std::string::npos);
    EXPECT_NE(r.cuda.rfind("static __device__ __noinline__ void ", fn), std::string::npos);
    EXPECT_NE(r.cuda.find("const int mt_g = mt_s * 128 + ((int)threadIdx.x - 128);"),
              std::string::npos);
    EXPECT_NE(r.cuda.find("mt_mbar_arrive_cp_async(&mt_bar[mt_st]);"), std::string::npos);
    // 3 stages, and a fourth buffer: one block per SM either way
    EXPECT_NE(r.cuda.find("if (mt_t >= 4) mt_mbar_wait(&mt_bar[4 + mt_st], ((mt_t / 4) - 1) & 1);"),
              std::string::npos);
    EXPECT_NE(r.cuda.find("mt_mbar_wait(&mt_bar[mt_st], (mt_t / 4) & 1);"), std::string::npos);
    EXPECT_NE(r.cuda.find("if (mt_t > 0) mt_mbar_arrive(&mt_bar[4 + (mt_t + 3) % 4]);"),
              std::string::npos);
    EXPECT_NE(r.cuda.find("mt_bar_sync(1, 128);"), std::string::npos);
    EXPECT_NE(r.cuda.find("if ((int)threadIdx.x >= 128) return;"), std::string::npos);
    // no block-wide barrier in the wgmma loop
    size_t body = r.cuda.find("// sm_90a:"), loop = r.cuda.find("for (int mt_t = 0;", body);
    size_t end = r.cuda.find("mt_wgmma_wait<0>();", loop);
    ASSERT_NE(end, std::string::npos);
    EXPECT_EQ(r.cuda.substr(loop, end - loop).find("__syncthreads"), std::string::npos);
    // without the hint: every warp copies and computes, no producer
    Compiled plain = tutorial("fp16", "float32", 128, 256, 64, 2);
    ASSERT_TRUE(plain.ok) << plain.diagnostics;
    EXPECT_NE(plain.cuda.find("__launch_bounds__(128)"), std::string::npos);
    EXPECT_EQ(plain.cuda.find("_producer("), std::string::npos);
    EXPECT_NE(plain.cuda.find("#if MT_WGMMA_SM90"), std::string::npos);
}

TEST(DotTensorCorePath, WgmmaBf16SwizzleFollowsTheTile) {
    // BK = 32: A rows of 64 bytes (64B swizzle); 4 warps: one warpgroup, 2 m64 blocks
    Compiled r = tutorial("bf16", "float32", 128, 128, 32, 2);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_NE(r.cuda.find("mt_wgmma_n128_bf16(mt_acc[1]"), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("mt_swz(mt_gr * 64 + mt_gc * 2, 3)"), std::string::npos);
    // BM = 32: no 64-row block, mma.sync alone
    Compiled small = tutorial("fp16", "float32", 32, 64, 32, 2);
    ASSERT_TRUE(small.ok) << small.diagnostics;
    EXPECT_EQ(small.cuda.find("MT_WGMMA_SM90"), std::string::npos);
    EXPECT_NE(small.cuda.find("mt_mma16816_f16(mt_acc"), std::string::npos);
}

TEST(DotTensorCorePath, OtherKernelsKeepTheirPath) {
    // f64 operands: no tensor cores; the (128, 128) box spread over the
    // threads by the blocked emitter, a CUDA-core dot of register micro-tiles
    // with its operands in the dynamic shared pool
    Compiled f64 = tutorial("fp64", "float64", 128, 128, 32, 2, "ieee");
    ASSERT_TRUE(f64.ok) << f64.diagnostics;
    EXPECT_NE(f64.cuda.find("extern __shared__ __align__(16) unsigned char mt_smem[];"),
              std::string::npos)
        << f64.cuda;
    EXPECT_NE(f64.cuda.find("double mt_s[8][8];"), std::string::npos) << f64.cuda;
    EXPECT_NE(f64.cuda.find("= fma(mt_x[i], mt_y[j], mt_s[i][j]);"), std::string::npos);
    EXPECT_EQ(f64.cuda.find("mma"), std::string::npos);
    // ... and at -O1 one thread per element: the limit applies
    Compiled f64o1 = tutorial("fp64", "float64", 128, 128, 32, 1, "ieee");
    EXPECT_FALSE(f64o1.ok);
    EXPECT_NE(f64o1.diagnostics.find("needs 16384 threads"), std::string::npos)
        << f64o1.diagnostics;
    // f32 ieee: the large-tile path's stages with CUDA-core fmaf, no tensor cores
    Compiled f32 = tutorial("fp32", "float32", 128, 128, 32, 2, "ieee");
    ASSERT_TRUE(f32.ok) << f32.diagnostics;
    EXPECT_NE(f32.cuda.find("(CUDA-core fmaf)"), std::string::npos);
    EXPECT_NE(f32.cuda.find("mt_lds_f4(&mt_sa["), std::string::npos);
    EXPECT_EQ(f32.cuda.find("mt_mma_tile_tf32(mt_acc"), std::string::npos);
    EXPECT_EQ(f32.cuda.find("fmaf(mt_tf32_hw("), std::string::npos);  // the fallback: no TF32
    // -O1: unchanged
    Compiled o1 = tutorial("fp16", "float32", 128, 128, 32, 1);
    EXPECT_FALSE(o1.ok);
    // an f16 accumulator: the shared-memory mma path of emit_cuda.c
    Compiled acc16 = tutorial("fp16", "float16", 32, 32, 16, 2);
    ASSERT_TRUE(acc16.ok) << acc16.diagnostics;
    EXPECT_EQ(acc16.cuda.find("mt_mma16816"), std::string::npos);
    EXPECT_NE(acc16.cuda.find("mt_ldsm_x4"), std::string::npos);
}

}  // namespace
