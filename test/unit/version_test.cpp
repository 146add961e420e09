// Loop versioning at -O2 (emit_cuda_version.c, DESIGN 13b): which runtime
// loops that load and store get two versions, and the run-time test of the
// benchmark suite's layer norm. Their execution is checked by
// emu.EmuVersion.* and exec.*O2.layer_norm_loops / running_sum.
#include <gtest/gtest.h>

#include <string>

#include "unit_support.h"

namespace {

using namespace mt_unit;

size_t count(const std::string &s, const std::string &what) {
    size_t n = 0;
    for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) n++;
    return n;
}

const char *const kVersioned = "// two versions of the loop (DESIGN 13b)";

Compiled compile_loop(const std::string &tag, const std::string &params, const std::string &sig,
                      const std::string &body, int opt = 2) {
    CompileArgs a;
    a.path = write_kernel(tag, "k.py", kernel_text(params, body));
    a.signature = sig;
    a.opt_level = opt;
    return compile(a);
}

TEST(Version, TheSuitesLayerNormThirdLoop) {
    CompileArgs a;
    a.path = std::string(MT_TEST_SOURCE_DIR) + "/../bench/suite/norms.py";
    a.kernel = "layer_norm_fwd_kernel";
    a.signature =
        "*fp32:16, *fp32:16, *fp32:16, *fp32:16, *fp32:16, *fp32:16, i32:16, i32:16, fp32";
    a.defines = {{"BLOCK_SIZE", "2048"}};
    Compiled r = compile(a);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_EQ(count(r.cuda, kVersioned), 1u) << r.cuda;
    // the two loops that only load stay unrolled by 8
    EXPECT_EQ(count(r.cuda, "#pragma unroll 8\n"), 2u) << r.cuda;
    // the stored elements of Y against the loaded ones of X, W and B, over
    // every iteration: rows of N elements from X + row * stride
    const char *test =
        "    const long long v38_last = ((long long)N - 1) / 2048 * 2048;\n"
        "    const bool v38_apart =\n"
        "        mt_fits(v1, (long long)v1 + v38_last + 2047, 32) &&\n"
        "        mt_fits(0, v38_last + 2047, 32) &&\n"
        "        mt_apart(Y, v1, (long long)v1 + v38_last + 2047, 4, X, v1, (long long)v1 + v38_last + "
        "2047, 4) &&\n"
        "        mt_apart(Y, v1, (long long)v1 + v38_last + 2047, 4, W, 0, v38_last + 2047, 4) &&\n"
        "        mt_apart(Y, v1, (long long)v1 + v38_last + 2047, 4, B, 0, v38_last + 2047, 4);\n"
        "    if (v38_apart) {\n"
        "        for (; v38_c + 2048 < N; v38_c += 4096) {\n";
    EXPECT_NE(r.cuda.find(test), std::string::npos) << r.cuda;
    // the group's loads into slots, then read from them; the loop as written after
    EXPECT_NE(r.cuda.find("float (&v43)[8] = v43_g[mt_u];"), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("const float (&v43)[8] = v43_g[mt_u];"), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("    for (; v38_c < N; v38_c += 2048) {\n"), std::string::npos) << r.cuda;
    EXPECT_LT(r.cuda.find("mt_ld16(&B["), r.cuda.find("*(uint4 *)&Y["));
    // -O1 keeps the loop
    a.opt_level = 1;
    a.signature = "*fp32, *fp32, *fp32, *fp32, *fp32, *fp32, i32, i32, fp32";
    a.defines = {{"BLOCK_SIZE", "256"}};
    r = compile(a);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_EQ(count(r.cuda, "two versions"), 0u) << r.cuda;
}

// A runtime step and stride: the index up to stop - 1, the product by the
// stride's sign; the group of loop_unroll_factor iterations.
TEST(Version, RuntimeStepStrideAndUnrollFactor) {
    Compiled r = compile_loop("ver_step", "x, y, n, s, xs", "*fp32, *fp32, i32, i32, i32",
                              "    lanes = tl.arange(0, 64)\n"
                              "    for i in tl.range(0, n, s, loop_unroll_factor=2):\n"
                              "        v = tl.load(x + (i + lanes) * xs, mask=i + lanes < n)\n"
                              "        tl.store(y + i + lanes, v * 2.0, mask=i + lanes < n)\n");
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_EQ(count(r.cuda, kVersioned), 1u) << r.cuda;
    EXPECT_NE(r.cuda.find("groups of 2 iterations"), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("_last = (long long)n - 1;"), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("(xs >= 0 ? 0 : (long long)xs * ("), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("#pragma unroll 2\n"), std::string::npos)
        << r.cuda;  // the loop as written
}

// Loops kept as written: the same elements loaded and stored (in place),
// an atomic, a reduction, an address of a carried pointer or of loaded
// indices, a region in the body, loop_unroll_factor=1.
TEST(Version, LoopsKeptAsWritten) {
    struct {
        const char *tag;
        const char *body;
    } cases[] = {
        {"ver_inplace",
         "    for i in range(0, n, 64):\n"
         "        c = i + tl.arange(0, 64)\n"
         "        tl.store(x + c, tl.load(x + c, mask=c < n) * 2.0, mask=c < n)\n"},
        {"ver_atomic",
         "    for i in range(0, n, 64):\n"
         "        c = i + tl.arange(0, 64)\n"
         "        v = tl.load(x + c, mask=c < n)\n"
         "        tl.atomic_add(y + c, v, mask=c < n)\n"
         "        tl.store(y + n + c, v, mask=c < n)\n"},
        {"ver_reduce",
         "    for i in range(0, n, 64):\n"
         "        c = i + tl.arange(0, 64)\n"
         "        v = tl.load(x + c, mask=c < n)\n"
         "        tl.store(y + c, v - tl.sum(v, axis=0), mask=c < n)\n"},
        {"ver_carried",
         "    p = x + tl.arange(0, 64)\n"
         "    for i in range(0, n, 64):\n"
         "        c = i + tl.arange(0, 64)\n"
         "        tl.store(y + c, tl.load(p), mask=c < n)\n"
         "        p += 64\n"},
        {"ver_gather",
         "    for i in range(0, n, 64):\n"
         "        c = i + tl.arange(0, 64)\n"
         "        j = tl.load(x + c, mask=c < n).to(tl.int32)\n"
         "        tl.store(y + c, tl.load(x + j, mask=c < n), mask=c < n)\n"},
        {"ver_region",
         "    for i in range(0, n, 64):\n"
         "        c = i + tl.arange(0, 64)\n"
         "        v = tl.load(x + c, mask=c < n)\n"
         "        if i % 128 == 0:\n"
         "            v = v * 2.0\n"
         "        tl.store(y + c, v, mask=c < n)\n"},
        {"ver_factor1",
         "    for i in tl.range(0, n, 64, loop_unroll_factor=1):\n"
         "        c = i + tl.arange(0, 64)\n"
         "        tl.store(y + c, tl.load(x + c, mask=c < n), mask=c < n)\n"},
    };
    for (auto &c : cases) {
        Compiled r = compile_loop(c.tag, "x, y, n", "*fp32, *fp32, i32", c.body);
        ASSERT_TRUE(r.ok) << c.tag << r.diagnostics;
        EXPECT_EQ(count(r.cuda, "two versions"), 0u) << c.tag << "\n" << r.cuda;
    }
    // the same loop without the reason is versioned
    Compiled r = compile_loop("ver_plain", "x, y, n", "*fp32, *fp32, i32",
                              "    for i in range(0, n, 64):\n"
                              "        c = i + tl.arange(0, 64)\n"
                              "        tl.store(y + c, tl.load(x + c, mask=c < n), mask=c < n)\n");
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_EQ(count(r.cuda, kVersioned), 1u) << r.cuda;
}

// A 64-bit row offset (i32 values widened and multiplied): the i32 columns
// are tested in 32 bits where the int arithmetic computes them, the 64-bit
// sum in the bits mt_apart's byte addresses allow.
TEST(Version, WidenedOffsets) {
    Compiled r = compile_loop(
        "ver_wide", "x, y, n, stride", "*fp32, *fp32, i32, i32",
        "    row = tl.program_id(0).to(tl.int64) * stride\n"
        "    for i in range(0, n, 64):\n"
        "        c = i + tl.arange(0, 64)\n"
        "        tl.store(y + row + c, tl.load(x + row + c, mask=c < n), mask=c < n)\n");
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_EQ(count(r.cuda, kVersioned), 1u) << r.cuda;
    EXPECT_NE(r.cuda.find("        mt_fits(0, v4_last + 63, 32) &&\n"
                          "        mt_fits(v3, (long long)v3 + v4_last + 63, 58) &&\n"
                          "        mt_apart(y, v3, "),
              std::string::npos)
        << r.cuda;
}

}  // namespace
