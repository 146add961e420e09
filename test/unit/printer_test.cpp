// The SSA printer's constants follow Python's repr().
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "internal.h"

namespace {

std::string repr(double v) {
    char buf[40];
    py_float_repr(v, buf);
    return buf;
}

TEST(Printer, FloatReprMatchesPython) {
    EXPECT_EQ(repr(0.0), "0.0");
    EXPECT_EQ(repr(-0.0), "-0.0");
    EXPECT_EQ(repr(1e-05), "1e-05");
    EXPECT_EQ(repr(0.0001), "0.0001");
    EXPECT_EQ(repr(0.5), "0.5");
    EXPECT_EQ(repr(1.0), "1.0");
    EXPECT_EQ(repr(100.0), "100.0");
    EXPECT_EQ(repr(0.1), "0.1");
    EXPECT_EQ(repr(1e16), "1e+16");
    EXPECT_EQ(repr(1e15), "1000000000000000.0");
    EXPECT_EQ(repr(123456789.125), "123456789.125");
    EXPECT_EQ(repr(-2.5e-300), "-2.5e-300");
    EXPECT_EQ(repr(0.30000000000000004), "0.30000000000000004");
    EXPECT_EQ(repr(INFINITY), "inf");
    EXPECT_EQ(repr(-INFINITY), "-inf");
    EXPECT_EQ(repr(NAN), "nan");
}

TEST(Printer, ConstantOperands) {
    Arena *a = arena_new();
    EXPECT_STREQ(const_repr(a, const_i32(0)), "0");
    EXPECT_STREQ(const_repr(a, const_i32(-7)), "-7");
    EXPECT_STREQ(const_repr(a, const_bool(1)), "True");
    EXPECT_STREQ(const_repr(a, const_bool(0)), "False");
    EXPECT_STREQ(const_repr(a, const_f32(-INFINITY)), "-inf");
    arena_free(a);
}

TEST(Printer, Types) {
    Arena *a = arena_new();
    int32_t d1[1] = {64}, d2[2] = {4, 8};
    EXPECT_STREQ(type_str(a, type_scalar(DT_I32)), "i32");
    EXPECT_STREQ(type_str(a, type_ptr(DT_F32)), "ptr<f32>");
    EXPECT_STREQ(type_str(a, type_with_shape(type_scalar(DT_F32), 1, d1)), "vector<64 x f32>");
    EXPECT_STREQ(type_str(a, type_with_shape(type_ptr(DT_F32), 2, d2)), "block<4x8 x ptr<f32>>");
    arena_free(a);
}

}  // namespace
