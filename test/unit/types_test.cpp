// Type inference (DESIGN 5): the type rules of types.c, asked directly, and
// the types the frontend infers for kernel source (printed SSA at -O0).
#include <gtest/gtest.h>

#include <string>

#include "unit_support.h"

namespace {

using namespace mt_unit;

// The result of op_result_type: a type string, or "error: <message>".
class Rules : public ::testing::Test {
  protected:
    void SetUp() override { a = arena_new(); }
    void TearDown() override { arena_free(a); }
    std::string rule(Op op, std::vector<Type> args, std::vector<int> present = {},
                     Attrs at = Attrs{}) {
        Type t[3] = {};
        int p[3] = {1, 1, 1};
        for (size_t i = 0; i < args.size(); i++) t[i] = args[i];
        for (size_t i = 0; i < present.size(); i++) p[i] = present[i];
        Type out{};
        const char *err = nullptr;
        if (!op_result_type(a, op, t, p, &at, &out, &err)) return std::string("error: ") + err;
        return type_str(a, out);
    }
    Arena *a = nullptr;
};

TEST_F(Rules, ArithmeticPromotesI32WithF32ToF32) {
    EXPECT_EQ(rule(OP_ADD, {i32(), i32()}), "i32");
    EXPECT_EQ(rule(OP_ADD, {i32(), f32()}), "f32");
    EXPECT_EQ(rule(OP_SUB, {f32(), i32()}), "f32");
    EXPECT_EQ(rule(OP_MUL, {vec(i32(), 8), f32()}), "vector<8 x f32>");
    EXPECT_EQ(rule(OP_MAXIMUM, {i32(), f32()}), "f32");
    EXPECT_EQ(rule(OP_MINIMUM, {i32(), i32()}), "i32");
    EXPECT_EQ(rule(OP_NEG, {vec(i32(), 4)}), "vector<4 x i32>");
    EXPECT_EQ(rule(OP_SELECT, {boolean(), i32(), f32()}), "f32");
}

TEST_F(Rules, DivisionIsAlwaysF32) {
    EXPECT_EQ(rule(OP_DIV, {i32(), i32()}), "f32");
    EXPECT_EQ(rule(OP_DIV, {blk(i32(), 4, 1), vec(i32(), 8)}), "block<4x8 x f32>");
    EXPECT_EQ(rule(OP_DIV, {f32(), f32()}), "f32");
}

TEST_F(Rules, BoolTakesPartInPromotionThroughCasts) {
    // Triton promotes a bool to the other operand's dtype; the frontend
    // inserts that cast, so an SSA op whose operand skipped it is invalid
    EXPECT_EQ(rule(OP_ADD, {boolean(), i32()}),
              "error: add computes in i32 but operand 0 is bool (a cast is missing)");
    EXPECT_EQ(rule(OP_ADD, {boolean(), f32()}), "f32");  // the seed's implicit conversion, as C's
    EXPECT_EQ(rule(OP_NEG, {boolean()}), "bool");
    EXPECT_EQ(rule(OP_AND, {boolean(), boolean()}), "bool");
    EXPECT_EQ(rule(OP_AND, {i32(), boolean()}),
              "error: and computes in i32 but operand 1 is bool (a cast is missing)");
    EXPECT_EQ(rule(OP_AND, {i32(), i32()}), "i32");
    EXPECT_EQ(rule(OP_AND, {f32(), f32()}), "error: and needs integers or bools (got f32 and f32)");
}

TEST_F(Rules, ComparisonsGiveBoolOfTheBroadcastShape) {
    EXPECT_EQ(rule(OP_CMP_LT, {i32(), f32()}), "bool");
    EXPECT_EQ(rule(OP_CMP_LT, {vec(i32(), 8), i32()}), "vector<8 x bool>");
    EXPECT_EQ(rule(OP_CMP_GE, {blk(i32(), 4, 1), vec(f32(), 8)}), "block<4x8 x bool>");
    EXPECT_EQ(rule(OP_CMP_EQ, {blk(i32(), 1, 8), blk(i32(), 4, 1)}), "block<4x8 x bool>");
    EXPECT_EQ(rule(OP_CMP_EQ, {boolean(), boolean()}), "bool");
    EXPECT_EQ(rule(OP_CMP_LT, {boolean(), boolean()}), "bool");  // Triton compares int1 values
    EXPECT_EQ(rule(OP_CMP_LT, {ptr_f32(), ptr_f32()}),
              "error: cmp_lt needs numbers (got ptr<f32> and ptr<f32>)");
}

TEST_F(Rules, BroadcastFailureNamesBothShapes) {
    EXPECT_EQ(rule(OP_ADD, {vec(i32(), 4), vec(i32(), 8)}),
              "error: cannot broadcast the operand shapes of add: (4,) and (8,)");
    EXPECT_EQ(rule(OP_MUL, {blk(f32(), 4, 8), blk(f32(), 2, 8)}),
              "error: cannot broadcast the operand shapes of mul: (4, 8) and (2, 8)");
    EXPECT_EQ(rule(OP_CMP_LT, {blk(i32(), 4, 8), vec(i32(), 4)}),
              "error: cannot broadcast the operand shapes of cmp_lt: (4, 8) and (4,)");
    // NumPy: a rank-1 block aligns with the last dimension
    EXPECT_EQ(rule(OP_ADD, {blk(i32(), 4, 8), vec(i32(), 8)}), "block<4x8 x i32>");
}

TEST_F(Rules, PointerOffsetsAreI32) {
    EXPECT_EQ(rule(OP_ADDPTR, {ptr_f32(), i32()}), "ptr<f32>");
    EXPECT_EQ(rule(OP_ADDPTR, {ptr_f32(), blk(i32(), 4, 8)}), "block<4x8 x ptr<f32>>");
    EXPECT_EQ(rule(OP_ADDPTR, {ptr_f32(), f32()}),
              "error: a pointer offset must be an integer (got f32)");
    EXPECT_EQ(rule(OP_ADDPTR, {ptr_f32(), ptr_f32()}),
              "error: a pointer offset must be an integer (got ptr<f32>)");
    EXPECT_EQ(rule(OP_ADDPTR, {ptr_f32(), boolean()}),
              "error: a pointer offset must be an integer (got bool)");
    EXPECT_EQ(rule(OP_ADDPTR, {i32(), i32()}), "error: addptr needs a pointer (got i32)");
    EXPECT_EQ(rule(OP_ADD, {ptr_f32(), i32()}), "error: add needs numbers (got ptr<f32> and i32)");
    EXPECT_EQ(rule(OP_MUL, {ptr_f32(), i32()}), "error: mul needs numbers (got ptr<f32> and i32)");
}

TEST_F(Rules, LoadOtherAndStoreValueMustConvertToThePointee) {
    EXPECT_TRUE(dtype_convertible(DT_I32, DT_F32));
    EXPECT_TRUE(dtype_convertible(DT_F32, DT_I32));
    EXPECT_TRUE(dtype_convertible(DT_BOOL, DT_BOOL));
    // Triton casts a load's other and a store's value to the pointee
    EXPECT_TRUE(dtype_convertible(DT_BOOL, DT_F32));
    EXPECT_TRUE(dtype_convertible(DT_F32, DT_BOOL));
    EXPECT_FALSE(dtype_convertible(DT_NONE, DT_F32));
    EXPECT_EQ(rule(OP_LOAD, {ptr_f32(), boolean(), i32()}), "f32");
    EXPECT_EQ(rule(OP_LOAD, {vec(ptr_f32(), 8), vec(boolean(), 8), f32()}), "vector<8 x f32>");
    EXPECT_EQ(rule(OP_LOAD, {ptr_f32(), boolean(), boolean()}), "f32");
    EXPECT_EQ(rule(OP_LOAD, {ptr_f32(), boolean(), ptr_f32()}),
              "error: a load's 'other' (ptr<f32>) cannot convert to the pointee f32");
    EXPECT_EQ(rule(OP_LOAD, {ptr_f32(), Type{}, f32()}, {1, 0, 1}),
              "error: a load's 'other' needs a mask");
    EXPECT_EQ(rule(OP_STORE, {ptr_f32(), i32(), Type{}}, {1, 1, 0}), "none");
    EXPECT_EQ(rule(OP_STORE, {ptr_f32(), boolean(), Type{}}, {1, 1, 0}), "none");
    EXPECT_EQ(rule(OP_STORE, {vec(ptr_f32(), 8), vec(ptr_f32(), 8), Type{}}, {1, 1, 0}),
              "error: cannot store vector<8 x ptr<f32>> through vector<8 x ptr<f32>>");
}

TEST_F(Rules, MathFunctionsNeedF32OrF64AsTriton) {
    EXPECT_EQ(rule(OP_EXP, {f32()}), "f32");
    EXPECT_EQ(rule(OP_EXP, {vec(f32(), 16)}), "vector<16 x f32>");
    EXPECT_EQ(rule(OP_LOG, {type_scalar(DT_F64)}), "f64");
    EXPECT_EQ(
        rule(OP_EXP, {i32()}),
        "error: exp needs an f32 or f64 operand, as Triton's math functions (got i32; convert with .to(tl.float32))");
    EXPECT_EQ(
        rule(OP_SQRT, {type_scalar(DT_F16)}),
        "error: sqrt needs an f32 or f64 operand, as Triton's math functions (got f16; convert with .to(tl.float32))");
    EXPECT_EQ(rule(OP_SQRT_RN, {type_scalar(DT_F64)}),
              "error: sqrt_rn needs an f32 operand, as Triton (got f64)");
    EXPECT_EQ(rule(OP_FMA, {type_scalar(DT_F16), type_scalar(DT_F16), type_scalar(DT_F16)}), "f16");
}

TEST_F(Rules, ReductionsNeedRank1) {
    EXPECT_EQ(rule(OP_SUM, {vec(f32(), 128)}), "f32");
    EXPECT_EQ(rule(OP_MAX, {vec(i32(), 64)}), "i32");
    EXPECT_EQ(rule(OP_SUM, {blk(f32(), 4, 8)}),
              "error: sum needs a rank-1 block of numbers (got block<4x8 x f32>)");
    EXPECT_EQ(rule(OP_MIN, {f32()}), "error: min needs a rank-1 block of numbers (got f32)");
    EXPECT_EQ(rule(OP_MAX, {vec(ptr_f32(), 8)}),
              "error: max needs a rank-1 block of numbers (got vector<8 x ptr<f32>>)");
    EXPECT_EQ(rule(OP_SUM, {vec(type_scalar(DT_F16), 8)}), "f16");
}

// ---- The frontend's inference on kernel source ----------------------------

struct Inferred {
    bool ok;
    std::string text;  // SSA at -O0, or the diagnostics
};

Inferred infer(const std::string &body, const std::string &tag) {
    CompileArgs a;
    a.path = write_kernel(tag, "k.py", kernel_text("x, n, s", body));
    a.signature = "*fp32, i32, fp32";
    a.opt_level = 0;
    Compiled c = compile(a);
    return {c.ok, c.ok ? c.ssa : c.diagnostics};
}

TEST(TypeInference, PromotionAndDivision) {
    Inferred r = infer(
        "    o = tl.arange(0, 8)\n"
        "    tl.store(x + o, (o + s) / n)\n"
        "    tl.store(x + o, o / n)\n",
        "types_promote");
    ASSERT_TRUE(r.ok) << r.text;
    EXPECT_EQ(r.text,
              "%0 = arange {start=0, end=8} : vector<8 x i32>\n"
              "%1 = add %0, s : vector<8 x f32>\n"
              "%2 = div %1, n : vector<8 x f32>\n"
              "%3 = addptr x, %0 : vector<8 x ptr<f32>>\n"
              "store %3, %2, none\n"
              "%4 = div %0, n : vector<8 x f32>\n"
              "%5 = addptr x, %0 : vector<8 x ptr<f32>>\n"
              "store %5, %4, none\n");
}

TEST(TypeInference, ComparisonIsBoolOfBroadcastShape) {
    Inferred r = infer(
        "    o = tl.arange(0, 8)\n"
        "    m = o[:, None] < o[None, :]\n"
        "    tl.store(x + o[:, None] * 8 + o[None, :], 1.0, mask=m)\n",
        "types_cmp");
    ASSERT_TRUE(r.ok) << r.text;
    EXPECT_NE(r.text.find("%8 = cmp_lt %6, %7 : block<8x8 x bool>\n"), std::string::npos) << r.text;
}

TEST(TypeInference, BroadcastFailureNamesBothShapes) {
    Inferred r =
        infer("    o = tl.arange(0, 8)[:, None] + tl.arange(0, 4)[:, None]\n", "types_bcast");
    ASSERT_FALSE(r.ok);
    EXPECT_NE(
        r.text.find(
            "k.py:7:9: error: cannot broadcast the operand shapes of '+': (8, 1) and (4, 1)\n"),
        std::string::npos)
        << r.text;
}

TEST(TypeInference, PointerPlusI32IsAddptr) {
    Inferred r = infer("    tl.store(x + n, 1.0)\n    tl.store(n + x, 2.0)\n", "types_ptr_ok");
    ASSERT_TRUE(r.ok) << r.text;
    EXPECT_EQ(
        r.text,
        "%0 = addptr x, n : ptr<f32>\nstore %0, 1.0, none\n%1 = addptr x, n : ptr<f32>\nstore %1, 2.0, none\n");
}

TEST(TypeInference, PointerPlusF32Rejected) {
    Inferred r = infer("    p = x + s\n", "types_ptr_f32");
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.text.find("k.py:7:9: error: a pointer offset must be an integer (got f32)"),
              std::string::npos)
        << r.text;
}

TEST(TypeInference, PointerPlusPointerRejected) {
    Inferred r = infer("    p = x + x\n", "types_ptr_ptr");
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.text.find("k.py:7:9: error: cannot add two pointers"), std::string::npos) << r.text;
}

TEST(TypeInference, PointerTimesAnythingRejected) {
    for (const char *expr : {"x * 2", "2 * x", "n - x", "x / 2", "x // 2", "x << 1", "-x"}) {
        Inferred r = infer(std::string("    p = ") + expr + "\n", "types_ptr_mul");
        ASSERT_FALSE(r.ok) << expr;
        EXPECT_NE(r.text.find("k.py:7:9: error: "), std::string::npos) << r.text;
        EXPECT_NE(r.text.find("pointer"), std::string::npos) << r.text;
    }
}

TEST(TypeInference, PointerMinusOffsetIsAddptr) {
    // Triton: ptr - offset is ptr + (-offset)
    Inferred r = infer("    tl.store(x - n, 1.0)\n", "types_ptr_sub");
    ASSERT_TRUE(r.ok) << r.text;
    EXPECT_EQ(r.text, "%0 = neg n : i32\n%1 = addptr x, %0 : ptr<f32>\nstore %1, 1.0, none\n");
}

TEST(TypeInference, LoadOtherConvertsToThePointee) {
    Inferred ok =
        infer("    v = tl.load(x, mask=n < 3, other=0)\n    tl.store(x, v)\n", "types_other_ok");
    ASSERT_TRUE(ok.ok) << ok.text;
    EXPECT_NE(ok.text.find("load x, %0, 0.0 : f32"), std::string::npos)
        << ok.text;  // the int 0 becomes 0.0
    // Triton casts a runtime 'other' to the pointee
    Inferred b = infer("    v = tl.load(x, mask=n < 3, other=n < 2)\n    tl.store(x, v)\n",
                       "types_other_bool");
    ASSERT_TRUE(b.ok) << b.text;
    EXPECT_NE(b.text.find("cast %1 {dtype=f32} : f32"), std::string::npos) << b.text;
}

TEST(TypeInference, StoreValueConvertsToThePointee) {
    Inferred ok = infer("    tl.store(x, n)\n", "types_store_ok");
    ASSERT_TRUE(ok.ok) << ok.text;
    EXPECT_EQ(ok.text, "store x, n, none\n");
    Inferred b = infer("    tl.store(x, n < 3)\n", "types_store_bool");
    ASSERT_TRUE(b.ok) << b.text;
    EXPECT_EQ(b.text,
              "%0 = cmp_lt n, 3 : bool\n%1 = cast %0 {dtype=f32} : f32\nstore x, %1, none\n");
}

TEST(TypeInference, MathFunctionsNeedF32OrF64) {
    Inferred ok = infer("    tl.store(x, tl.exp(s))\n", "types_exp_ok");
    ASSERT_TRUE(ok.ok) << ok.text;
    Inferred bad = infer("    tl.store(x, tl.exp(n))\n", "types_exp_bad");
    ASSERT_FALSE(bad.ok);
    EXPECT_NE(
        bad.text.find(
            "k.py:7:17: error: tl.exp needs an f32 or f64 operand, as Triton's math functions (got i32"),
        std::string::npos)
        << bad.text;
}

TEST(TypeInference, ReductionsNeedRank1) {
    Inferred ok = infer("    tl.store(x, tl.sum(tl.load(x + tl.arange(0, 8))))\n", "types_sum_ok");
    ASSERT_TRUE(ok.ok) << ok.text;
    EXPECT_NE(ok.text.find("= sum %2 : f32"), std::string::npos) << ok.text;
    /* a rank-2 block reduces along an axis, or entirely (axis=None) */
    Inferred all =
        infer("    tl.store(x, tl.sum(tl.zeros((4, 8), tl.float32)))\n", "types_sum_all");
    ASSERT_TRUE(all.ok) << all.text;
    EXPECT_NE(all.text.find("= sum %0 {axis=None} : f32"), std::string::npos) << all.text;
    Inferred bad = infer("    tl.store(x, tl.sum(tl.program_id(0)))\n", "types_sum_bad");
    ASSERT_FALSE(bad.ok);
    EXPECT_NE(bad.text.find("k.py:7:17: error: tl.sum needs a block (got i32)"), std::string::npos)
        << bad.text;
}

TEST(TypeInference, WhereCastsItsConditionToBool) {
    // Triton: a non-bool condition is compared with 0
    Inferred r = infer("    tl.store(x, tl.where(n, 1.0, 2.0))\n", "types_where");
    ASSERT_TRUE(r.ok) << r.text;
    EXPECT_NE(r.text.find("cast n {dtype=bool} : bool"), std::string::npos) << r.text;
    Inferred bad = infer("    tl.store(x, tl.where(x, 1.0, 2.0))\n", "types_where_ptr");
    ASSERT_FALSE(bad.ok);
    EXPECT_NE(bad.text.find("error: tl.where needs a bool condition (got ptr<f32>)"),
              std::string::npos)
        << bad.text;
}

TEST(TypeInference, LoopValuesKeepTheirTypes) {
    // seed: a LoopIndex is i32, a LoopCarry has its initial value's type, a
    // LoopResult the carried output's type
    Inferred r = infer(
        "    acc = tl.zeros((8,), tl.float32)\n"
        "    for i in range(n):\n"
        "        acc += tl.load(x + tl.arange(0, 8) + i)\n"
        "    tl.store(x + tl.arange(0, 8), acc)\n",
        "types_loop");
    ASSERT_TRUE(r.ok) << r.text;
    EXPECT_NE(r.text.find("%8 = for %1 in range(0, n, 1) iter_args(%2 = %0) : vector<8 x f32> {\n"),
              std::string::npos)
        << r.text;
}

}  // namespace
