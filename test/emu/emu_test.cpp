// Generated CUDA units (kernel + launcher) at -O1 and -O2, run on the CPU
// emulation of fake_cuda/ and checked against references written here.
#include <gtest/gtest.h>

#include "../support/random.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "bacc_o1.h"
#include "bacc_o2.h"
#include "clamp_o1.h"
#include "clamp_o2.h"
#include "madd_big_o2.h"
#include "madd_o1.h"
#include "madd_o2.h"
#include "mm128_o2.h"
#include "mm16_o1.h"
#include "mm16_o2.h"
#include "mm32_o2.h"
#include "mm64_o2.h"
#include "mm64x32_o2.h"
#include "outer_relu_o1.h"
#include "outer_relu_o2.h"
#include "outer_relu64_o2.h"
#include "outer_relu16_o2.h"
#include "outer_affine_o1.h"
#include "outer_affine_o2.h"
#include "outer_affine64_o2.h"
#include "outer_affine16_o2.h"
#include "outer_hoisted_o1.h"
#include "outer_hoisted_o2.h"
#include "outer_hoisted64_o2.h"
#include "outer_hoisted16_o2.h"
#include "outer_step2_o1.h"
#include "outer_step2_o2.h"
#include "outer_step264_o2.h"
#include "outer_step216_o2.h"
#include "outer_kmask_o1.h"
#include "outer_kmask_o2.h"
#include "outer_kmask64_o2.h"
#include "outer_kmask16_o2.h"
#include "outer_cast_o2.h"
#include "outer_f16_o2.h"
#include "outer_f1664_o2.h"
#include "outer_f16_other_o2.h"
#include "outer_f16_other64_o2.h"
#include "nested_o1.h"
#include "nested_o2.h"
#include "rowsum_o1.h"
#include "rowsum_o2.h"
#include "rowsum1k_o1.h"
#include "rowsum1k_o2.h"
#include "rsum_o1.h"
#include "rsum_o2.h"
#include "seedmm64_o2.h"
#include "seedmm_o1.h"
#include "seedmm_o2.h"
#include "silu_o1.h"
#include "silu_o2.h"
#include "softmax64_o1.h"
#include "softmax64_o2.h"
#include "softmax_o1.h"
#include "softmax_o2.h"
#include "twoc_o1.h"
#include "twoc_o2.h"
#include "vadd1024_o1.h"
#include "vadd1024_o2.h"
#include "vadd256_o1.h"
#include "vadd256_o2.h"
#include "vadd4096_o2.h"
#include "softmax_h_o2.h"
#include "softmax_h16_o2.h"
#include "colsum_h_o2.h"
#include "colsum_o2.h"
#include "transpose_h_o2.h"
#include "softmax_w1_o2.h"
#include "softmax_w8_o2.h"
#include "mm64_w2_o2.h"
#include "madd_w1_o2.h"
#include "madd_row_w8_o2.h"
#include "transpose_o1.h"
#include "transpose_o2.h"
#include "transpose_big_o2.h"
#include "biasrelu_o1.h"
#include "biasrelu_o2.h"
#include "biasrelu_big_o2.h"
#include "rowscale_o1.h"
#include "rowscale_o2.h"
#include "longrow_o1.h"
#include "longrow_o2.h"
#include "staticmm_o1.h"
#include "staticmm_o2.h"
#include "intred_o1.h"
#include "intred_o2.h"
#include "carvec_o1.h"
#include "carvec_o2.h"

namespace {

std::vector<float> random_vec(size_t n, unsigned seed, float lo = -2.0f, float hi = 2.0f) {
    return mt_test::random_floats(n, seed, lo, hi);
}

// Exact float comparison that treats NaN as equal to NaN.
bool same(float a, float b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

bool close(float got, float want, float tol) {
    if (std::isnan(want)) return std::isnan(got);
    if (std::isinf(want)) return got == want;
    return std::fabs(got - want) <= tol * (1.0f + std::fabs(want));
}

using VAdd = cudaError_t (*)(cudaStream_t, const float *, const float *, float *, int32_t);

TEST(Emu, VectorAdd) {
    struct {
        const char *name;
        VAdd f;
    } variants[] = {{"vadd256_o1", launch_vadd256_o1},
                    {"vadd256_o2", launch_vadd256_o2},
                    {"vadd1024_o1", launch_vadd1024_o1},
                    {"vadd1024_o2", launch_vadd1024_o2},
                    {"vadd4096_o2", launch_vadd4096_o2}};
    for (int n : {0, 1, 3, 1000, 1024, 5000, 4096 * 2 + 5}) {
        for (int offset : {0, 1}) {  // 1: pointers not 16-byte aligned
            auto x = random_vec(n + 8, 1), y = random_vec(n + 8, 2);
            for (auto &v : variants) {
                std::vector<float> out(n + 8, -7.0f);
                ASSERT_EQ(
                    v.f(nullptr, x.data() + offset, y.data() + offset, out.data() + offset, n), 0)
                    << v.name;
                for (int i = 0; i < n; i++)
                    ASSERT_TRUE(same(out[i + offset], x[i + offset] + y[i + offset]))
                        << v.name << " n=" << n << " i=" << i;
                for (int i = n + offset; i < n + 8; i++)
                    ASSERT_EQ(out[i], -7.0f) << v.name << ": wrote past the end";
            }
        }
    }
}

TEST(Emu, NegativeSizeIsRefused) {
    float x = 0;
    EXPECT_EQ(launch_vadd1024_o2(nullptr, &x, &x, &x, -5), cudaErrorInvalidValue);
}

// tl.maximum / tl.minimum without propagate_nan: NaN propagates at -O1 (the
// seed's), is ignored at -O2 (Triton's PropagateNan.NONE).
float maximum(float a, float b, int opt = 1) {
    if (opt >= 2) return std::isnan(a) ? b : std::isnan(b) ? a : (a > b ? a : b);
    return std::isnan(a) ? a : std::isnan(b) ? b : (a > b ? a : b);
}
float minimum(float a, float b, int opt = 1) {
    if (opt >= 2) return std::isnan(a) ? b : std::isnan(b) ? a : (a < b ? a : b);
    return std::isnan(a) ? a : std::isnan(b) ? b : (a < b ? a : b);
}

TEST(Emu, ClampWithNaNAndInf) {
    using F = cudaError_t (*)(cudaStream_t, const float *, float *, int32_t, float, float);
    F fs[] = {launch_clamp_o1, launch_clamp_o2};
    int n = 2000;
    auto x = random_vec(n, 3);
    x[0] = NAN, x[1] = INFINITY, x[2] = -INFINITY, x[3] = 0.5f, x[4] = -0.5f;
    for (float lo : {-0.5f, NAN}) {
        float hi = 0.5f;
        for (int k = 0; k < 2; k++) {
            F f = fs[k];
            int opt = k + 1;
            std::vector<float> out(n);
            ASSERT_EQ(f(nullptr, x.data(), out.data(), n, lo, hi), 0);
            for (int i = 0; i < n; i++) {
                float want = x[i] < lo ? lo : minimum(maximum(x[i], lo, opt), hi, opt);
                ASSERT_TRUE(same(out[i], want)) << i << ": " << out[i] << " vs " << want;
            }
        }
    }
}

TEST(Emu, Silu) {
    using F = cudaError_t (*)(cudaStream_t, const float *, float *, int32_t);
    for (F f : {launch_silu_o1, launch_silu_o2}) {
        int n = 777;
        auto x = random_vec(n, 4, -10, 10);
        std::vector<float> out(n);
        ASSERT_EQ(f(nullptr, x.data(), out.data(), n), 0);
        for (int i = 0; i < n; i++)
            ASSERT_TRUE(close(out[i], x[i] / (1.0f + std::exp(-x[i])), 1e-6f)) << i;
    }
}

using RowFn = cudaError_t (*)(cudaStream_t, mytriton_grid, const float *, float *, int32_t);

void check_softmax(RowFn f, int block, int rows, int cols, bool specials) {
    auto x = random_vec((size_t)rows * cols, 5, -5, 5);
    if (specials && cols > 3) {
        x[0] = -INFINITY;        // row 0: a -inf entry
        x[cols + 1] = INFINITY;  // row 1: +inf gives NaN entries (inf - inf)
        x[2 * cols + 2] = NAN;   // row 2: NaN ignored by max, propagates through exp
    }
    std::vector<float> out((size_t)rows * cols, -3.0f);
    mytriton_grid g = {rows, 1, 1};
    ASSERT_EQ(f(nullptr, g, x.data(), out.data(), cols), 0);
    (void)block;
    for (int r = 0; r < rows; r++) {
        float m = -INFINITY;
        for (int c = 0; c < cols; c++) m = std::fmax(m, x[r * cols + c]);
        double s = 0;
        for (int c = 0; c < cols; c++) s += std::exp((double)(x[r * cols + c] - m));
        for (int c = 0; c < cols; c++) {
            float want = (float)(std::exp((double)(x[r * cols + c] - m)) / s);
            ASSERT_TRUE(close(out[r * cols + c], want, 1e-5f))
                << "row " << r << " col " << c << ": " << out[r * cols + c] << " vs " << want;
        }
    }
}

TEST(Emu, Softmax) {
    for (RowFn f :
         {launch_softmax_o1, launch_softmax_o2, launch_softmax_w1_o2, launch_softmax_w8_o2}) {
        check_softmax(f, 1024, 5, 1024, true);
        check_softmax(f, 1024, 3, 1000, true);
        check_softmax(f, 1024, 2, 1, false);
    }
    for (RowFn f : {launch_softmax64_o1, launch_softmax64_o2}) {
        check_softmax(f, 64, 4, 64, true);
        check_softmax(f, 64, 3, 37, true);
    }
}

TEST(Emu, SoftmaxSpecialized) {
    // n unhinted: 16-byte accesses only at run time, elements one by one
    check_softmax(launch_softmax_h_o2, 1024, 3, 781, true);
    check_softmax(launch_softmax_h_o2, 1024, 3, 1024, true);
    check_softmax(launch_softmax_h_o2, 1024, 2, 1, false);
    // n:16 (a multiple of 16): the mask is constant along 16-byte groups
    for (int cols : {1024, 784, 16}) check_softmax(launch_softmax_h16_o2, 1024, 3, cols, true);
}

TEST(Emu, ColSumRuntimeLoop) {
    using F = cudaError_t (*)(cudaStream_t, const float *, float *, int32_t, int32_t);
    struct Case {
        F f;
        int M, N;
    };
    // colsum_h_o2: N:16 (multiples of 16); colsum_o2: any N
    for (Case c : {Case{launch_colsum_h_o2, 37, 48}, Case{launch_colsum_h_o2, 5, 272},
                   Case{launch_colsum_h_o2, 0, 16}, Case{launch_colsum_h_o2, 1, 64},
                   Case{launch_colsum_o2, 13, 300}, Case{launch_colsum_o2, 6, 3},
                   Case{launch_colsum_o2, 4, 256}}) {
        auto x = random_vec((size_t)c.M * c.N + 1, 31);
        std::vector<float> out((size_t)c.N + 1, -3.0f);
        ASSERT_EQ(c.f(nullptr, x.data(), out.data(), c.M, c.N), 0);
        for (int n = 0; n < c.N; n++) {
            float want = 0;
            for (int m = 0; m < c.M; m++) want += x[(size_t)m * c.N + n];
            ASSERT_EQ(out[n], want) << c.M << "x" << c.N << " column " << n;
        }
        ASSERT_EQ(out[c.N], -3.0f);
    }
}

TEST(Emu, RowSum) {
    for (RowFn f : {launch_rowsum_o1, launch_rowsum_o2, launch_rowsum1k_o1, launch_rowsum1k_o2}) {
        for (int cols : {256, 100, 1, 1001, 1023}) {
            if (cols > 256 && (f == launch_rowsum_o1 || f == launch_rowsum_o2)) continue;
            int rows = 6;
            auto x = random_vec((size_t)rows * cols, 6);
            std::vector<float> out(rows, -1.0f);
            mytriton_grid g = {rows, 1, 1};
            ASSERT_EQ(f(nullptr, g, x.data(), out.data(), cols), 0);
            for (int r = 0; r < rows; r++) {
                double s = 0;
                for (int c = 0; c < cols; c++) s += x[r * cols + c];
                ASSERT_TRUE(close(out[r], (float)s, 1e-5f)) << r;
            }
        }
    }
}

TEST(Emu, MatrixAdd2D) {
    using F =
        cudaError_t (*)(cudaStream_t, const float *, const float *, float *, int32_t, int32_t);
    for (F f : {launch_madd_o1, launch_madd_o2, launch_madd_big_o2, launch_madd_w1_o2,
                launch_madd_row_w8_o2}) {
        for (auto mn :
             std::vector<std::pair<int, int>>{{33, 70}, {16, 32}, {1, 1}, {0, 5}, {130, 257}}) {
            int M = mn.first, N = mn.second;
            auto x = random_vec((size_t)M * N + 1, 7), y = random_vec((size_t)M * N + 1, 8);
            std::vector<float> out((size_t)M * N + 1, -9.0f);
            ASSERT_EQ(f(nullptr, x.data(), y.data(), out.data(), M, N), 0);
            for (int i = 0; i < M * N; i++)
                ASSERT_TRUE(same(out[i], x[i] + y[i])) << M << "x" << N << " at " << i;
            ASSERT_EQ(out[(size_t)M * N], -9.0f);
        }
    }
}

using MM = cudaError_t (*)(cudaStream_t, const float *, const float *, float *, int32_t, int32_t,
                           int32_t);

TEST(Emu, MatmulRuntimeK) {
    struct {
        const char *name;
        MM f;
    } variants[] = {{"mm16_o1", launch_mm16_o1},       {"mm16_o2", launch_mm16_o2},
                    {"mm32_o2", launch_mm32_o2},       {"mm64_o2", launch_mm64_o2},
                    {"mm64_w2_o2", launch_mm64_w2_o2}, {"mm128_o2", launch_mm128_o2},
                    {"mm64x32_o2", launch_mm64x32_o2}, {"seedmm_o1", launch_seedmm_o1},
                    {"seedmm_o2", launch_seedmm_o2},   {"seedmm64_o2", launch_seedmm64_o2}};
    struct {
        int M, N, K;
    } sizes[] = {{37, 53, 29},
                 {64, 64, 64},
                 {130, 70, 33},
                 {5, 7, 0},
                 {1, 1, 1},
                 {16, 16, 17},
                 {129, 129, 20},
                 // full chunks then a partial one, vector-aligned rows (-O2's versioned loop)
                 {64, 64, 52},
                 {48, 96, 36},
                 // even grids of 16 x 16 programs (four per block), ragged and short loops
                 {62, 30, 33},
                 {32, 32, 7},
                 {96, 32, 40}};
    for (auto s : sizes) {
        auto a = random_vec((size_t)s.M * s.K + 1, 9), b = random_vec((size_t)s.K * s.N + 1, 10);
        for (auto &v : variants) {
            std::vector<float> c((size_t)s.M * s.N + 1, -5.0f);
            ASSERT_EQ(v.f(nullptr, a.data(), b.data(), c.data(), s.M, s.N, s.K), 0) << v.name;
            for (int i = 0; i < s.M; i++)
                for (int j = 0; j < s.N; j++) {
                    double want = 0, mag = 0;
                    for (int k = 0; k < s.K; k++) {
                        want += (double)a[i * s.K + k] * b[k * s.N + j];
                        mag += std::fabs((double)a[i * s.K + k] * b[k * s.N + j]);
                    }
                    ASSERT_NEAR(c[i * s.N + j], want, 1e-5 * (1 + mag))
                        << v.name << " " << s.M << "x" << s.N << "x" << s.K << " at " << i << ","
                        << j;
                }
            ASSERT_EQ(c[(size_t)s.M * s.N], -5.0f) << v.name;
        }
    }
}

// Outer-product loops (issue 14): each variation at -O1 (one thread per
// element) and -O2 (staged through shared memory) against the loop's sum
// in double, k over the loop's range with the operands' transforms.
TEST(Emu, OuterProduct) {
    using XF = double (*)(double);
    struct Var {
        const char *name;
        MM o1, o2, o2big, o2small;
        int start, step, extra;  // range(start, K + extra, step)
        XF fx, fy;
    };
    XF id = [](double v) { return v; };
    Var vars[] = {
        {"relu", launch_outer_relu_o1, launch_outer_relu_o2, launch_outer_relu64_o2,
         launch_outer_relu16_o2, 0, 1, 0, [](double v) { return v > 0 ? v : 0.0; }, id},
        {"affine", launch_outer_affine_o1, launch_outer_affine_o2, launch_outer_affine64_o2,
         launch_outer_affine16_o2, 0, 1, 0, [](double v) { return v * 0.5 + 1.0; },
         [](double v) { return std::fabs(v); }},
        {"hoisted", launch_outer_hoisted_o1, launch_outer_hoisted_o2, launch_outer_hoisted64_o2,
         launch_outer_hoisted16_o2, 0, 1, 0, id, id},
        {"step2", launch_outer_step2_o1, launch_outer_step2_o2, launch_outer_step264_o2,
         launch_outer_step216_o2, 1, 2, 0, id, id},
        {"kmask", launch_outer_kmask_o1, launch_outer_kmask_o2, launch_outer_kmask64_o2,
         launch_outer_kmask16_o2, 0, 1, 5, id, id},
    };
    struct {
        int M, N, K;
    } sizes[] = {{37, 53, 29},
                 {64, 64, 64},
                 {130, 70, 33},
                 {5, 7, 0},
                 {1, 1, 1},
                 {16, 16, 17},
                 {67, 65, 2},
                 // full chunks then a partial one, vector-aligned rows (-O2's versioned loop)
                 {64, 64, 52},
                 {96, 64, 48},
                 // even grids of 16 x 16 programs (four per block), ragged and short loops
                 {62, 30, 33},
                 {32, 32, 7},
                 {96, 32, 40}};
    for (auto s : sizes) {
        // one spare element past each operand: reading it would be a bug
        auto a = random_vec((size_t)s.M * s.K + 1, 21), b = random_vec((size_t)s.K * s.N + 1, 22);
        for (auto &v : vars) {
            std::vector<double> want((size_t)s.M * s.N), mag((size_t)s.M * s.N);
            for (int i = 0; i < s.M; i++)
                for (int j = 0; j < s.N; j++)
                    for (int k = v.start; k < s.K + v.extra; k += v.step) {
                        if (k >= s.K) continue;  // masked: x = y = 0
                        double p = v.fx(a[(size_t)i * s.K + k]) * v.fy(b[(size_t)k * s.N + j]);
                        want[(size_t)i * s.N + j] += p;
                        mag[(size_t)i * s.N + j] += std::fabs(p);
                    }
            for (MM f : {v.o1, v.o2, v.o2big, v.o2small}) {
                std::vector<float> c((size_t)s.M * s.N + 1, -5.0f);
                ASSERT_EQ(f(nullptr, a.data(), b.data(), c.data(), s.M, s.N, s.K), 0) << v.name;
                for (size_t e = 0; e < want.size(); e++)
                    ASSERT_NEAR(c[e], want[e], 1e-5 * (1 + mag[e]))
                        << v.name << " " << s.M << "x" << s.N << "x" << s.K << " at " << e;
                ASSERT_EQ(c[(size_t)s.M * s.N], -5.0f) << v.name;
            }
        }
        // an integer row operand converted to f32
        std::vector<int32_t> ai((size_t)s.M * s.K + 1);
        for (size_t e = 0; e < ai.size(); e++) ai[e] = (int32_t)(e * 7919 % 11) - 5;
        std::vector<float> c((size_t)s.M * s.N + 1, -5.0f);
        ASSERT_EQ(launch_outer_cast_o2(nullptr, ai.data(), b.data(), c.data(), s.M, s.N, s.K), 0);
        for (int i = 0; i < s.M; i++)
            for (int j = 0; j < s.N; j++) {
                double want = 0, mag = 0;
                for (int k = 0; k < s.K; k++) {
                    double p = (double)ai[(size_t)i * s.K + k] * b[(size_t)k * s.N + j];
                    want += p, mag += std::fabs(p);
                }
                ASSERT_NEAR(c[(size_t)i * s.N + j], want, 1e-5 * (1 + mag))
                    << "cast at " << i << "," << j;
            }
        ASSERT_EQ(c[(size_t)s.M * s.N], -5.0f);
    }
}

// 16-bit operands (kernels/outer.py outer_f16_kernel, outer_f16_other_kernel):
// the raw f16 of the prefetch converted at the store to shared memory, and
// `other` in the load's dtype where a mask along k fails inside the tile.
TEST(Emu, OuterProductF16) {
    using MM16 = cudaError_t (*)(cudaStream_t, const mytriton_fp16 *, const mytriton_fp16 *,
                                 float *, int32_t, int32_t, int32_t);
    auto h = [](float v) { return mytriton_fp16_to_float(mytriton_fp16_from_float(v)); };
    struct {
        int M, N, K;
    } sizes[] = {{37, 53, 29},
                 {64, 64, 64},
                 {130, 70, 33},
                 {5, 7, 0},
                 {1, 1, 1},
                 {16, 16, 17},
                 {67, 65, 2},
                 // full chunks then a partial one, vector-aligned rows (-O2's versioned loop)
                 {64, 64, 52},
                 {96, 64, 48}};
    for (auto s : sizes) {
        auto af = random_vec((size_t)s.M * s.K + 1, 31), bf = random_vec((size_t)s.K * s.N + 1, 32);
        std::vector<mytriton_fp16> a(af.size()), b(bf.size());
        for (size_t e = 0; e < a.size(); e++) a[e] = mytriton_fp16_from_float(af[e]);
        for (size_t e = 0; e < b.size(); e++) b[e] = mytriton_fp16_from_float(bf[e]);
        for (int other = 0; other < 2; other++) {
            std::vector<double> want((size_t)s.M * s.N), mag((size_t)s.M * s.N);
            for (int i = 0; i < s.M; i++)
                for (int j = 0; j < s.N; j++)
                    for (int k = 0; k < s.K; k++) {
                        double x = mytriton_fp16_to_float(a[(size_t)i * s.K + k]);
                        double y = mytriton_fp16_to_float(b[(size_t)k * s.N + j]);
                        if (other) {
                            if (k % 3 == 1) x = h(0.1f);
                            x = 2 * std::fabs(x);
                            if (k % 5 == 2) y = h(-0.3f);
                        }
                        want[(size_t)i * s.N + j] += x * y;
                        mag[(size_t)i * s.N + j] += std::fabs(x * y);
                    }
            MM16 fs[2] = {other ? launch_outer_f16_other_o2 : launch_outer_f16_o2,
                          other ? launch_outer_f16_other64_o2 : launch_outer_f1664_o2};
            for (MM16 f : fs) {
                std::vector<float> c((size_t)s.M * s.N + 1, -5.0f);
                ASSERT_EQ(f(nullptr, a.data(), b.data(), c.data(), s.M, s.N, s.K), 0);
                for (size_t e = 0; e < want.size(); e++)
                    ASSERT_NEAR(c[e], want[e], 1e-5 * (1 + mag[e]))
                        << "other " << other << " " << s.M << "x" << s.N << "x" << s.K << " at "
                        << e;
                ASSERT_EQ(c[(size_t)s.M * s.N], -5.0f);
            }
        }
    }
}

TEST(Emu, RuntimeLoops) {
    using Sum = cudaError_t (*)(cudaStream_t, const float *, float *, int32_t);
    for (Sum f : {launch_rsum_o1, launch_rsum_o2}) {
        for (int K : {0, 1, 1000}) {
            auto x = random_vec(K + 1, 11);
            float out = -1;
            ASSERT_EQ(f(nullptr, x.data(), &out, K), 0);
            float want = 0;
            for (int k = 0; k < K; k++) want += x[k];
            EXPECT_FLOAT_EQ(out, want) << K;
        }
    }
    using Count = cudaError_t (*)(cudaStream_t, float *, int32_t, int32_t);
    for (Count f : {launch_nested_o1, launch_nested_o2}) {
        for (auto mn : std::vector<std::pair<int, int>>{{0, 5}, {3, 0}, {7, 9}, {100, 3}}) {
            float out = -1;
            ASSERT_EQ(f(nullptr, &out, mn.first, mn.second), 0);
            EXPECT_EQ(out, (float)(mn.first * mn.second));
        }
    }
    using Two = cudaError_t (*)(cudaStream_t, const float *, float *, int32_t);
    for (Two f : {launch_twoc_o1, launch_twoc_o2}) {
        for (int n : {0, 1, 2, 9, 100}) {
            auto x = random_vec(n + 1, 12);
            float out = -1;
            ASSERT_EQ(f(nullptr, x.data(), &out, n), 0);
            int total = 0;
            float scaled = 0;
            for (int i = 1; i < n; i += 2) total += i, scaled += x[i] * 0.5f;
            EXPECT_FLOAT_EQ(out, scaled + total) << n;
        }
    }
    using Acc = cudaError_t (*)(cudaStream_t, const float *, float *, int32_t);
    for (Acc f : {launch_bacc_o1, launch_bacc_o2}) {
        for (int chunks : {0, 1, 5}) {
            auto x = random_vec(64 * chunks + 1, 13);
            std::vector<float> out(64, -1);
            ASSERT_EQ(f(nullptr, x.data(), out.data(), chunks), 0);
            for (int l = 0; l < 64; l++) {
                float want = 0;
                for (int c = 0; c < chunks; c++) want += x[c * 64 + l];
                EXPECT_FLOAT_EQ(out[l], want);
            }
        }
    }
}

using Mat2 = cudaError_t (*)(cudaStream_t, const float *, float *, int32_t, int32_t);

TEST(Emu, Transpose) {
    for (auto mn : std::vector<std::pair<int, int>>{{48, 80}, {16, 16}, {64, 32}, {0, 16}}) {
        // transpose_h_o2: M:16, N:16, aligned 16-byte stores along rows
        int M = mn.first, N = mn.second;
        auto x = random_vec((size_t)M * N + 1, 21);
        std::vector<float> out((size_t)M * N + 1, -4.0f);
        ASSERT_EQ(launch_transpose_h_o2(nullptr, x.data(), out.data(), M, N), 0);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++)
                ASSERT_EQ(out[(size_t)j * M + i], x[(size_t)i * N + j]) << M << "x" << N;
        ASSERT_EQ(out[(size_t)M * N], -4.0f);
    }
    for (Mat2 f : {launch_transpose_o1, launch_transpose_o2, launch_transpose_big_o2}) {
        for (auto mn :
             std::vector<std::pair<int, int>>{{33, 70}, {64, 64}, {1, 5}, {0, 3}, {100, 1}}) {
            int M = mn.first, N = mn.second;
            auto x = random_vec((size_t)M * N + 1, 20);
            std::vector<float> out((size_t)M * N + 1, -4.0f);
            ASSERT_EQ(f(nullptr, x.data(), out.data(), M, N), 0);
            for (int i = 0; i < M; i++)
                for (int j = 0; j < N; j++)
                    ASSERT_EQ(out[(size_t)j * M + i], x[(size_t)i * N + j]) << M << "x" << N;
            ASSERT_EQ(out[(size_t)M * N], -4.0f);
        }
    }
}

TEST(Emu, BiasRelu) {
    using F =
        cudaError_t (*)(cudaStream_t, const float *, const float *, float *, int32_t, int32_t);
    const F fs[] = {launch_biasrelu_o1, launch_biasrelu_o2, launch_biasrelu_big_o2};
    for (int k = 0; k < 3; k++) {
        F f = fs[k];
        int opt = k == 0 ? 1 : 2;
        for (auto mn : std::vector<std::pair<int, int>>{{9, 70}, {32, 256}, {3, 300}}) {
            int M = mn.first, N = mn.second;
            auto x = random_vec((size_t)M * N, 21), bias = random_vec(N, 22);
            x[0] = NAN;
            std::vector<float> out((size_t)M * N, -4.0f);
            ASSERT_EQ(f(nullptr, x.data(), bias.data(), out.data(), M, N), 0);
            for (int i = 0; i < M; i++)
                for (int j = 0; j < N; j++)
                    ASSERT_TRUE(same(out[(size_t)i * N + j],
                                     maximum(x[(size_t)i * N + j] + bias[j], 0.0f, opt)))
                        << i << "," << j;
        }
    }
}

TEST(Emu, RankOneValueAsRows) {
    using F =
        cudaError_t (*)(cudaStream_t, const float *, const float *, float *, int32_t, int32_t);
    for (F f : {launch_rowscale_o1, launch_rowscale_o2}) {
        int M = 37, N = 20;
        auto x = random_vec((size_t)M * N, 23), sc = random_vec(M, 24);
        std::vector<float> out((size_t)M * N, -4.0f);
        ASSERT_EQ(f(nullptr, x.data(), sc.data(), out.data(), M, N), 0);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++)
                ASSERT_EQ(out[(size_t)i * N + j], x[(size_t)i * N + j] * (sc[i] * 2.0f))
                    << i << "," << j;
    }
}

TEST(Emu, LongRowSumWithStaticRange) {
    for (RowFn f : {launch_longrow_o1, launch_longrow_o2}) {
        for (int cols : {768, 700, 5}) {
            int rows = 3;
            auto x = random_vec((size_t)rows * cols, 25);
            std::vector<float> out(rows, -1.0f);
            mytriton_grid g = {rows, 1, 1};
            ASSERT_EQ(f(nullptr, g, x.data(), out.data(), cols), 0);
            for (int r = 0; r < rows; r++) {
                double s = 0;
                for (int c = 0; c < cols; c++) s += x[(size_t)r * cols + c];
                ASSERT_TRUE(close(out[r], (float)s, 1e-5f)) << r;
            }
        }
    }
}

TEST(Emu, StaticKMatmul) {
    using F =
        cudaError_t (*)(cudaStream_t, const float *, const float *, float *, int32_t, int32_t);
    for (F f : {launch_staticmm_o1, launch_staticmm_o2}) {
        int M = 20, N = 35, K = 8;
        auto a = random_vec((size_t)M * K, 26), b = random_vec((size_t)K * N, 27);
        std::vector<float> c((size_t)M * N, -1.0f);
        ASSERT_EQ(f(nullptr, a.data(), b.data(), c.data(), M, N), 0);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double want = 0;
                for (int k = 0; k < K; k++) want += (double)a[i * K + k] * b[k * N + j];
                ASSERT_NEAR(c[i * N + j], want, 1e-5);
            }
    }
}

TEST(Emu, IntegerReductions) {
    using F = cudaError_t (*)(cudaStream_t, const int32_t *, int32_t *, int32_t);
    for (F f : {launch_intred_o1, launch_intred_o2}) {
        for (int n : {512, 100, 1}) {
            std::vector<int32_t> x(512);
            std::mt19937 g(28);
            for (auto &v : x) v = (int32_t)(g() % 2001) - 1000;
            int32_t out[3] = {0, 0, 0};
            ASSERT_EQ(f(nullptr, x.data(), out, n), 0);
            int32_t s = 0, mx = INT32_MIN, mn = INT32_MAX;
            for (int i = 0; i < n; i++) s += x[i], mx = std::max(mx, x[i]), mn = std::min(mn, x[i]);
            EXPECT_EQ(out[0], s) << n;
            EXPECT_EQ(out[1], mx) << n;
            EXPECT_EQ(out[2], mn) << n;
        }
    }
}

TEST(Emu, CarriedBlockAndScalarWithReduction) {
    using F = cudaError_t (*)(cudaStream_t, const float *, float *, int32_t);
    for (F f : {launch_carvec_o1, launch_carvec_o2}) {
        for (int n : {0, 1, 4}) {
            auto x = random_vec((size_t)256 * n + 1, 29);
            std::vector<float> out(256, -1.0f);
            ASSERT_EQ(f(nullptr, x.data(), out.data(), n), 0);
            std::vector<float> acc(256, 0.0f);
            double total = 0;
            for (int i = 0; i < n; i++)
                for (int l = 0; l < 256; l++)
                    acc[l] = maximum(acc[l], x[(size_t)i * 256 + l]),
                    total += x[(size_t)i * 256 + l];
            for (int l = 0; l < 256; l++)
                ASSERT_TRUE(close(out[l], acc[l] + (float)total, 1e-5f)) << l;
        }
    }
}

}  // namespace
