// Which kernels -O2's attention path (emit_cuda_attn.c) takes, label unit:
// kernels/attention.py as written (f16 and bf16, causal and not, a few tile
// shapes) gets the path's kernel; variants with an op the plan does not take
// (a row vector stored after the loop, a scan along the rows, a row
// vector broadcast along the columns, a third load in the loop) compile through the general path as before, without a
// diagnostic at small tiles, and at tiles the general path cannot run they
// get its diagnostic (never a crash).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "plan_support.h"
#include "unit_support.h"

namespace {

const char *const kMarker = "two dots per iteration (attention)";

std::string attention_source() { return mt_plan::kernel_source("attention.py"); }

using mt_plan::replaced;

int occurrences(const std::string &s, const std::string &what) {
    int n = 0;
    for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + what.size()))
        n++;
    return n;
}

struct Result {
    bool ok;
    std::string cuda, diagnostics;
};

Result compile(const std::string &path, const std::string &sig, int head, int bm, int bn,
               bool causal, int num_warps) {
    std::string h = std::to_string(head), m = std::to_string(bm), n = std::to_string(bn);
    std::vector<mt_define> defs = {{"HEAD_DIM", h.c_str()},
                                   {"BLOCK_M", m.c_str()},
                                   {"BLOCK_N", n.c_str()},
                                   {"CAUSAL", causal ? "True" : "False"}};
    mt_options o{};
    o.path = path.c_str();
    o.kernel = "attn_fwd_kernel";
    o.signature = sig.c_str();
    o.defines = defs.data();
    o.ndefines = (int)defs.size();
    o.opt_level = 2;
    o.num_warps = num_warps;
    o.python = MT_TEST_PYTHON;
    o.shim = MT_TEST_SHIM;
    mt_compilation *c = mt_compile(&o);
    Result r{false, "", ""};
    const char *cu = mt_ok(c) ? mt_emit(c, MT_EMIT_CUDA) : nullptr;
    if (cu) r.cuda = cu;
    r.ok = mt_ok(c) && cu;
    r.diagnostics = mt_diagnostics(c);
    mt_free(c);
    return r;
}

const char *const kF16 = "*fp16:16, *fp16:16, *fp16:16, *fp16:16, fp32, i32";
const char *const kBF16 = "*bf16, *bf16, *bf16, *bf16, fp32, i32";

TEST(AttnPlan, TakesTheKernel) {
    std::string path = mt_unit::write_kernel("attn_plan", "attention.py", attention_source());
    struct Case {
        const char *sig;
        int head, bm, bn, warps;
        bool causal;
        const char *mma;
    } cases[] = {{kF16, 64, 64, 64, 4, false, "mt_attn_mma_f16("},
                 {kF16, 64, 64, 64, 4, true, "mt_attn_mma_f16("},
                 {kF16, 128, 128, 64, 8, true, "mt_attn_mma_f16("},
                 {kF16, 32, 16, 16, 0, false, "mt_attn_mma_f16("},
                 {kBF16, 64, 128, 32, 4, false, "mt_attn_mma_bf16("}};
    for (const Case &c : cases) {
        Result r = compile(path, c.sig, c.head, c.bm, c.bn, c.causal, c.warps);
        ASSERT_TRUE(r.ok) << r.diagnostics;
        EXPECT_EQ(r.diagnostics, "");
        EXPECT_NE(r.cuda.find(kMarker), std::string::npos) << c.head << " " << c.bm << " " << c.bn;
        EXPECT_NE(r.cuda.find(c.mma), std::string::npos);
        EXPECT_NE(r.cuda.find("mt_attn_ldsm4_trans("), std::string::npos);
    }
}

// A load whose `other` is zero copies its masked groups with cp.async's
// zero fill; a nonzero `other` keeps the element-wise copy for them. Where
// p's f32-to-f16 cast feeds the second dot alone, the pack rounds the f32
// fragments (the cast is not emitted in the loop).
TEST(AttnPlan, CopiesZeroFillWhereOtherIsZero) {
    const std::string src = attention_source();
    std::string zero = mt_unit::write_kernel("attn_plan_zf", "attention.py", src);
    std::string one = mt_unit::write_kernel(
        "attn_plan_zf1", "attention.py",
        replaced(
            src,
            "        k = tl.load(K + base + cols[:, None] * HEAD_DIM + offs_d[None, :], mask=cols[:, None] < N_CTX,\n"
            "                    other=0.0)\n",
            "        k = tl.load(K + base + cols[:, None] * HEAD_DIM + offs_d[None, :], mask=cols[:, None] < N_CTX,\n"
            "                    other=1.0)\n"));
    for (int warps : {4, 8}) {
        Result z = compile(zero, kF16, 64, 16 * warps, 64, false, warps);
        ASSERT_TRUE(z.ok) << z.diagnostics;
        EXPECT_NE(z.cuda.find("mt_attn_cp16z(mt_dst, &K["), std::string::npos);
        EXPECT_NE(z.cuda.find("mt_attn_cp16z(mt_dst, &V["), std::string::npos);
        EXPECT_EQ(z.cuda.find("mt_attn_cp16(mt_dst, &K["), std::string::npos);
        /* no f16 round trip of p in the loop: the only ones left are the
         * epilogue's casts of the result, one per body (wgmma, mma.sync) */
        EXPECT_EQ(occurrences(z.cuda, "__half2float(__float2half_rn("), 2);
        Result o = compile(one, kF16, 64, 16 * warps, 64, false, warps);
        ASSERT_TRUE(o.ok) << o.diagnostics;
        EXPECT_NE(o.cuda.find(kMarker), std::string::npos);
        EXPECT_NE(o.cuda.find("mt_attn_cp16(mt_dst, &K["), std::string::npos);
        EXPECT_EQ(o.cuda.find("mt_attn_cp16z(mt_dst, &K["), std::string::npos);
        EXPECT_NE(o.cuda.find("mt_attn_cp16z(mt_dst, &V["), std::string::npos);
    }
}

TEST(AttnPlan, OtherKernelsTakeTheGeneralPath) {
    const std::string src = attention_source();
    const std::vector<std::pair<std::string, std::string>> variants = {
        /* a row vector stored after the loop (as the tutorial's M for the backward) */
        {"    acc = acc / l_i[:, None]\n",
         "    tl.store(O + base + offs_m * 0 + offs_m, m_i.to(O.dtype.element_ty), mask=offs_m < N_CTX)\n"
         "    acc = acc / l_i[:, None]\n"},
        /* a scan along the rows */
        {"        p = tl.math.exp2(qk - m_ij[:, None])\n",
         "        p = tl.cumsum(tl.math.exp2(qk - m_ij[:, None]), 1) * 0.01\n"},
        /* a third block loaded in the loop */
        {"        acc = tl.dot(p.to(v.dtype), v, acc)\n",
         "        w = tl.load(V + base + cols[:, None] * HEAD_DIM + offs_d[None, :], mask=cols[:, None] < N_CTX,\n"
         "                    other=0.0)\n"
         "        acc = tl.dot(p.to(v.dtype), v, acc) + w\n"}};
    int i = 0;
    for (const auto &v : variants) {
        std::string path = mt_unit::write_kernel("attn_plan_" + std::to_string(i++), "attention.py",
                                                 replaced(src, v.first, v.second));
        Result small = compile(path, kF16, 32, 16, 16, false, 0);
        ASSERT_TRUE(small.ok) << small.diagnostics;
        EXPECT_EQ(small.diagnostics, "");
        EXPECT_EQ(small.cuda.find(kMarker), std::string::npos) << v.second;
        EXPECT_EQ(small.cuda.find("mt_attn_"), std::string::npos);
        // (64, 64) blocks: a bounding box of more than 1024 elements, spread
        // over the threads by the blocked emitter (CUDA-core dots)
        Result big = compile(path, kF16, 64, 64, 64, false, 4);
        ASSERT_TRUE(big.ok) << big.diagnostics;
        EXPECT_EQ(big.cuda.find(kMarker), std::string::npos) << v.second;
        EXPECT_EQ(big.cuda.find("mt_attn_"), std::string::npos);
        EXPECT_NE(big.cuda.find("extern __shared__ __align__(16) unsigned char mt_smem[];"),
                  std::string::npos);
    }
}

// A (BM,) vector against a (BM, BN) block broadcasts along the columns (the
// plan must not take it as a row vector): not the attention path (the
// general path's diagnostic: the vector is rows in one use, columns in
// another).
TEST(AttnPlan, RowVectorAlongColumnsIsNotTaken) {
    std::string path = mt_unit::write_kernel(
        "attn_plan_cols", "attention.py",
        replaced(attention_source(), "        p = tl.math.exp2(qk - m_ij[:, None])\n",
                 "        p = tl.math.exp2(qk - m_ij)\n"));
    Result r = compile(path, kF16, 64, 64, 64, false, 4);
    EXPECT_EQ(r.cuda.find(kMarker), std::string::npos);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.diagnostics.find("error"), std::string::npos);
}

}  // namespace
