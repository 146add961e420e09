// Which matmul forms -O2's tensor-core path (emit_cuda_mma.c) takes, label
// unit: the kernels of kernels/matmul_forms.py and kernels/grouped_gemm.py
// (scalars read at kernel entry, addresses cast to pointers, an early
// return, loops around the K loop) get the path, in f16 and in TF32; forms
// it does not take (a store inside the loop over tiles before the K loop, a
// scalar load after a store, a block load in a level around it) keep the
// general path, without a diagnostic.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "plan_support.h"
#include "unit_support.h"

namespace {

const char *const kTensorCores = "(-O2 tl.dot on tensor cores";

std::string source(const char *file) { return mt_plan::kernel_source(file); }

using mt_plan::replaced;

// Compiles `kernel` of `file` at -O2 with constexprs NAME=VALUE; the
// caller frees it.
mt_compilation *compile(const std::string &file, const char *kernel, const char *sig,
                        const std::vector<std::string> &defines) {
    static std::vector<std::string> names, values; /* (mt_define points into them) */
    names.clear();
    values.clear();
    for (const std::string &d : defines) {
        names.push_back(d.substr(0, d.find('=')));
        values.push_back(d.substr(d.find('=') + 1));
    }
    std::vector<mt_define> defs;
    for (size_t i = 0; i < names.size(); i++) defs.push_back({names[i].c_str(), values[i].c_str()});
    mt_options o{};
    o.path = file.c_str();
    o.kernel = kernel;
    o.signature = sig;
    o.defines = defs.data();
    o.ndefines = (int)defs.size();
    o.opt_level = 2;
    o.python = MT_TEST_PYTHON;
    o.shim = MT_TEST_SHIM;
    return mt_compile(&o);
}

// The first line of the kernel's layout (its path), or the diagnostics.
std::string path_of(const std::string &file, const char *kernel, const char *sig,
                    const std::vector<std::string> &defines) {
    mt_compilation *c = compile(file, kernel, sig, defines);
    const char *layout = mt_ok(c) ? mt_emit(c, MT_EMIT_LAYOUT) : nullptr;
    const char *cuda = layout ? mt_emit(c, MT_EMIT_CUDA) : nullptr;
    std::string r = layout && cuda ? std::string(layout).substr(0, std::string(layout).find('\n'))
                                   : "error: " + std::string(mt_diagnostics(c));
    if (*mt_diagnostics(c)) r += " / " + std::string(mt_diagnostics(c));
    mt_free(c);
    return r;
}

struct Form {
    std::string kernel, sig;
    std::vector<std::string> defines;
};

const char *const kPersistentSig = "*fp16, *fp16, *fp16, i32, i32, i32, i32, i32, i32";

// The kernels of matmul_forms.py on f16 (128 x 128 x 64 tiles) or f32 (TF32,
// 64 x 64 x 32): "T" in a signature is the element type.
std::vector<Form> forms(bool f16) {
    auto sig = [&](std::string s) {
        for (size_t at = s.find('T'); at != std::string::npos; at = s.find('T', at))
            s.replace(at, 1, f16 ? "fp16" : "fp32");
        return s;
    };
    std::string bm = f16 ? "BM=128" : "BM=64", bn = f16 ? "BN=128" : "BN=64",
                bk = f16 ? "BK=64" : "BK=32";
    return {{"scaled_matmul_kernel",
             sig("*T, *T, *T, *fp32, i32, i32, i32, i32, i32, i32"),
             {bm, bn, bk}},
            {"table_matmul_kernel",
             "*i64, *i64, *i64, i32, i32, i32",
             {bm, bn, bk, f16 ? "DTYPE=tl.float16" : "DTYPE=tl.float32"}},
            {"expert_matmul_kernel", sig("*T, *T, *T, *i32, i32, i32"), {bm, bn, bk}},
            {"persistent_matmul_kernel",
             sig("*T, *T, *T, i32, i32, i32, i32, i32, i32"),
             {bm, bn, bk, "GROUP_M=8", "NUM_SMS=132"}}};
}

TEST(MmaPlan, TakesTheMatmulForms) {
    std::string mf =
        mt_unit::write_kernel("mma_plan_forms", "matmul_forms.py", source("matmul_forms.py"));
    for (bool f16 : {true, false})
        for (const Form &f : forms(f16)) {
            std::string p = path_of(mf, f.kernel.c_str(), f.sig.c_str(), f.defines);
            EXPECT_NE(p.find(kTensorCores), std::string::npos)
                << f.kernel << (f16 ? " f16: " : " f32: ") << p;
        }
}

// Pointers recomputed from the loop index each iteration (the expert and
// persistent forms: `a_ptr + rows[:, None] * K + (k + ks)[None, :]`) are
// affine in it: their copies are hoisted as a carried pointer's are, the
// group indexes computed once before the loop and advanced by the index's
// coefficient times the step (BK for A, BK * N for B), not recomputed and
// compared element by element each iteration.
TEST(MmaPlan, IndexAffinePointersAreHoisted) {
    std::string mf =
        mt_unit::write_kernel("mma_plan_affine", "matmul_forms.py", source("matmul_forms.py"));
    mt_compilation *c =
        compile(mf, "expert_matmul_kernel", "*fp16:16, *fp16:16, *fp16:16, *i32, i32:16, i32:16",
                {"BM=128", "BN=128", "BK=64"});
    const char *cuda = mt_ok(c) ? mt_emit(c, MT_EMIT_CUDA) : nullptr;
    std::string text = cuda ? cuda : mt_diagnostics(c);
    mt_free(c);
    for (const char *want :
         {"const int mt_d0 = (int)mt_t * 64;", "const int mt_d1 = (int)mt_t * (N * 64);",
          "&mt_p0[mt_b0[mt_s]]", "&mt_p1[mt_b1[mt_s]]", "const int mt_k = mt_start;"})
        EXPECT_NE(text.find(want), std::string::npos) << want << "\n" << text;
    EXPECT_EQ(text.find("mt_i[q] == mt_i[0] + q"), std::string::npos) << text;
}

TEST(MmaPlan, TakesTheGroupedGemmTutorialForm) {
    std::string gg =
        mt_unit::write_kernel("mma_plan_gg", "grouped_gemm.py", source("grouped_gemm.py"));
    std::string p = path_of(gg, "grouped_gemm_kernel", "*i64, *i64, *i64, *i32, *i32, i32",
                            {"PROGRAMS=132", "BM=128", "BN=128", "BK=64"});
    EXPECT_NE(p.find(kTensorCores), std::string::npos) << p;
}

TEST(MmaPlan, OtherFormsTakeTheGeneralPath) {
    const std::string src = source("matmul_forms.py");
    struct Variant {
        const char *what, *from, *to;
    } variants[] = {
        /* a store in the loop over tiles before the K loop */
        {"a store before the K loop",
         "        acc = tl.zeros((BM, BN), dtype=tl.float32)\n        for ki in range(tl.cdiv(K, BK)):\n",
         "        acc = tl.zeros((BM, BN), dtype=tl.float32)\n        tl.store(c_ptr + tile_id, 0.0)\n"
         "        for ki in range(tl.cdiv(K, BK)):\n"},
        /* a scalar loaded after a store (kernel entry would read it first) */
        {"a scalar load after a store", "        done += 1\n",
         "        done += tl.load(c_ptr + tile_id).to(tl.int32)\n"},
        /* a block loaded in the loop over tiles, outside the K loop */
        {"a block load around the K loop",
         "        acc = tl.zeros((BM, BN), dtype=tl.float32)\n        for ki in range(tl.cdiv(K, BK)):\n",
         "        acc = tl.zeros((BM, BN), dtype=tl.float32) + tl.load(c_ptr + cols)[None, :]\n"
         "        for ki in range(tl.cdiv(K, BK)):\n"},
    };
    int n = 0;
    for (const Variant &v : variants) {
        std::string file = mt_unit::write_kernel(("mma_plan_other" + std::to_string(n++)).c_str(),
                                                 "matmul_forms.py", replaced(src, v.from, v.to));
        std::string p = path_of(file, "persistent_matmul_kernel", kPersistentSig,
                                {"BM=64", "BN=64", "BK=32", "GROUP_M=8", "NUM_SMS=132"});
        EXPECT_EQ(p.find(kTensorCores), std::string::npos) << v.what << ": " << p;
        EXPECT_EQ(p.find("error"), std::string::npos) << v.what << ": " << p;
    }
}

}  // namespace
