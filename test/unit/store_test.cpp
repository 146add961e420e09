// Stores of narrow floats in the -O2 blocked emitter (emit_cuda_blocked.c):
// x.to(dt) stored through a pointer to dt is rounded once, by the store.
// The stored bits are checked on the GPU by the lang_* and oracle suites
// and on the CPU by the emulation (test/emu); here, the CUDA text.
#include <gtest/gtest.h>

#include <string>

#include "unit_support.h"

namespace {

using namespace mt_unit;

Compiled emit_o2(const std::string &tag, const std::string &params, const std::string &sig,
                 const std::string &body) {
    CompileArgs a;
    a.path = write_kernel(tag, "k.py", kernel_text(params, body));
    a.signature = sig;
    return compile(a);
}

size_t count(const std::string &s, const std::string &what) {
    size_t n = 0;
    for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) n++;
    return n;
}

// r compiled, with one conversion to the narrow float (`to`) and none back
// (`back`): the stored value rounded once.
void expect_rounded_once(const Compiled &r, const char *to, const char *back) {
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_EQ(count(r.cuda, to), 1u) << r.cuda;
    EXPECT_EQ(count(r.cuda, back), 0u) << r.cuda;
}

const char *kScaled =
    "    offs = tl.program_id(0) * 1024 + tl.arange(0, 1024)\n"
    "    y = tl.load(x + offs) * 3.0\n"
    "    tl.store(out + offs, y.to(out.dtype.element_ty))\n";

// The cast feeding only the store is not emitted: the store's conversion
// is the only one.
TEST(Store, CastToTheStoredDtypeRoundsOnce) {
    expect_rounded_once(emit_o2("store_once_f16", "x, out", "*fp32:16, *fp16:16", kScaled),
                        "__float2half_rn(", "__half2float(");
    expect_rounded_once(emit_o2("store_once_bf16", "x, out", "*fp32:16, *bf16:16", kScaled),
                        "__float2bfloat16_rn(", "__bfloat162float(");
}

// A cast rounding toward zero keeps its rounding: the store's own
// conversion (to nearest) of the rounded value.
TEST(Store, CastTowardZeroIsKept) {
    Compiled r =
        emit_o2("store_rtz", "x, out", "*fp32:16, *fp16:16",
                "    offs = tl.program_id(0) * 1024 + tl.arange(0, 1024)\n"
                "    y = tl.load(x + offs) * 3.0\n"
                "    tl.store(out + offs, y.to(tl.float16, fp_downcast_rounding='rtz'))\n");
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_NE(r.cuda.find("__float2half_rz("), std::string::npos) << r.cuda;
}

// A cast also used by arithmetic is emitted for that use (rounded, then
// computed on); the store still converts the unrounded operand once.
TEST(Store, CastWithOtherUsesStaysForThem) {
    Compiled r = emit_o2("store_reused", "x, out, out2", "*fp32:16, *fp16:16, *fp32:16",
                         "    offs = tl.program_id(0) * 1024 + tl.arange(0, 1024)\n"
                         "    h = (tl.load(x + offs) * 3.0).to(tl.float16)\n"
                         "    tl.store(out + offs, h)\n"
                         "    tl.store(out2 + offs, h.to(tl.float32) + 1.0)\n");
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_EQ(count(r.cuda, "__half2float(__float2half_rn("), 1u) << r.cuda;
    EXPECT_EQ(count(r.cuda, "__float2half_rn("), 2u) << r.cuda;
}

// A scalar cast is emitted in place and stays the store's operand (its
// variable is read); a store of a wider float to a narrow pointer rounds
// once too (no cast in the source: the store's implicit conversion).
TEST(Store, ScalarAndImplicitConversions) {
    Compiled r = emit_o2("store_scalar", "x, out", "*fp32:16, *fp16:16",
                         "    offs = tl.arange(0, 1024)\n"
                         "    s = tl.sum(tl.load(x + offs), axis=0).to(tl.float16)\n"
                         "    tl.store(out + tl.program_id(0), s)\n");
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_EQ(count(r.cuda, "__half2float(__float2half_rn("), 1u) << r.cuda;

    expect_rounded_once(emit_o2("store_implicit", "x, out", "*fp32:16, *fp16:16",
                                "    offs = tl.program_id(0) * 1024 + tl.arange(0, 1024)\n"
                                "    tl.store(out + offs, tl.load(x + offs) * 3.0)\n"),
                        "__float2half_rn(", "__half2float(");
}

}  // namespace
