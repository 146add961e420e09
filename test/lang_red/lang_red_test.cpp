// Reductions along an axis, argmax/argmin and scans (issue 13): the kernels
// of test/oracle/kernels/red.py against references written here from their
// Python source. Built three ways (CMakeLists.txt): the host backend
// (HostO1/HostO2), CUDA on a GPU (CudaO1/CudaO2, skipped without one), the
// MLIR backend on a GPU (Mlir, MT_RED_MLIR: built with a CUDA compiler and
// mlir-opt of MLIR 19; skipped without a GPU) and the generated CUDA on
// test/emu's CPU emulation (MT_RED_EMU: O1/O2).
//
// Tolerances: integers, maxima, minima and indices exact; float sums are
// combined in order along the axis by the host backend and -O1, by each
// thread's elements, then a tree over the threads at -O2 CUDA (Triton's
// order), so they are compared with a double reference within a relative
// 1e-5 (1e-4
// for the layer norm, whose variance subtracts), plus Triton's approximate
// exp at -O2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#if MT_RED_EMU
#include "lang_red_emu.h"
#else
#include "mytriton_lang_red_o1.h"
#include "mytriton_lang_red_o2.h"
#endif
#if MT_RED_MLIR
#include "mytriton_lang_red_mlir.h"
#endif
#if MT_RED_CUDA
#include <cuda_runtime_api.h>
#endif

namespace {

enum class B { Host, Cuda };

// Buffers for one launch: host vectors as they are (host backend, emulated
// CUDA), or device copies written back by finish() (CUDA).
struct Runner {
    B b;
    std::vector<std::function<void()>> back;
    std::vector<void *> frees;
    explicit Runner(B b_) : b(b_) {}
    template <class T>
    T *buf(std::vector<T> &v) {
#if MT_RED_CUDA
        if (b == B::Cuda) {
            T *d = nullptr;
            if (cudaMalloc((void **)&d, v.size() * sizeof(T)) != cudaSuccess) return nullptr;
            cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
            frees.push_back(d);
            back.push_back(
                [d, &v] { cudaMemcpy(v.data(), d, v.size() * sizeof(T), cudaMemcpyDeviceToHost); });
            return d;
        }
#endif
        return v.data();
    }
    void finish() {
#if MT_RED_CUDA
        if (b == B::Cuda) {
            cudaDeviceSynchronize();
            for (auto &f : back) f();
        }
#endif
    }
    ~Runner() {
#if MT_RED_CUDA
        for (void *p : frees) cudaFree(p);
#endif
    }
};

#if MT_RED_EMU
#define RUN(r, name, ...) ((int)launch_##name(nullptr, __VA_ARGS__))
#elif MT_RED_CUDA
#define RUN(r, name, ...)                                      \
    ((r).b == B::Host ? (int)launch_##name##_host(__VA_ARGS__) \
                      : (int)launch_##name(nullptr, __VA_ARGS__))
#else
#define RUN(r, name, ...) ((int)launch_##name##_host(__VA_ARGS__))
#endif
// the MLIR backend's launcher of red_<case>_m (opt 0)
#if MT_RED_MLIR
#define RUN_MLIR(r, c, ...) ((int)launch_red_##c##_m_mlir(nullptr, __VA_ARGS__))
#else
#define RUN_MLIR(r, c, ...) (-1)
#endif
// launches red_<case>_o1 or _o2 (opt 0: the MLIR backend's) and waits for it
#define LAUNCH(r, opt, c, ...)                                      \
    do {                                                            \
        int rc_ = (opt) == 0   ? RUN_MLIR(r, c, __VA_ARGS__)        \
                  : (opt) == 1 ? RUN(r, red_##c##_o1, __VA_ARGS__)  \
                               : RUN(r, red_##c##_o2, __VA_ARGS__); \
        ASSERT_EQ(rc_, 0);                                          \
        (r).finish();                                               \
    } while (0)

std::vector<float> rand_f(size_t n, unsigned seed, float lo, float hi) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<float> d(lo, hi);
    std::vector<float> v(n);
    for (auto &x : v) x = d(g);
    return v;
}
std::vector<int32_t> rand_i(size_t n, unsigned seed, int lo, int hi) {
    std::mt19937 g(seed);
    std::uniform_int_distribution<int> d(lo, hi);
    std::vector<int32_t> v(n);
    for (auto &x : v) x = d(g);
    return v;
}
::testing::AssertionResult near(double got, double want, double rel, double abs_tol = 1e-6) {
    if (std::fabs(got - want) <= abs_tol + rel * std::fabs(want))
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "got " << got << ", want " << want;
}

#if MT_RED_CUDA
bool have_gpu() {
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}
#endif

}  // namespace

#if MT_RED_MLIR
#define RED_NEED_MLIR() \
    if (!have_gpu()) GTEST_SKIP() << "no CUDA device"
#else
#define RED_NEED_MLIR() \
    GTEST_SKIP() << "built without the MLIR backend (mlir-opt of MLIR 19 and CUDA)"
#endif

#if MT_RED_EMU
#define RED_CASE(name)                          \
    static void name##_case(B b, int opt);      \
    TEST(O1, name) { name##_case(B::Cuda, 1); } \
    TEST(O2, name) { name##_case(B::Cuda, 2); } \
    static void name##_case(B b, int opt)
#elif MT_RED_CUDA
#define RED_CASE(name)                                     \
    static void name##_case(B b, int opt);                 \
    TEST(HostO1, name) { name##_case(B::Host, 1); }        \
    TEST(HostO2, name) { name##_case(B::Host, 2); }        \
    TEST(CudaO1, name) {                                   \
        if (!have_gpu()) GTEST_SKIP() << "no CUDA device"; \
        name##_case(B::Cuda, 1);                           \
    }                                                      \
    TEST(CudaO2, name) {                                   \
        if (!have_gpu()) GTEST_SKIP() << "no CUDA device"; \
        name##_case(B::Cuda, 2);                           \
    }                                                      \
    TEST(Mlir, name) {                                     \
        RED_NEED_MLIR();                                   \
        name##_case(B::Cuda, 0);                           \
    }                                                      \
    static void name##_case(B b, int opt)
#else
#define RED_CASE(name)                              \
    static void name##_case(B b, int opt);          \
    TEST(HostO1, name) { name##_case(B::Host, 1); } \
    TEST(HostO2, name) { name##_case(B::Host, 2); } \
    static void name##_case(B b, int opt)
#endif

static const int M = 37;

#define ROW_SUM(c, BN)                                                \
    do {                                                              \
        auto x = rand_f((size_t)M * (BN), 1, -2, 2);                  \
        std::vector<float> y(M + 4, -1.0f);                           \
        Runner r(b);                                                  \
        LAUNCH(r, opt, c, r.buf(x), r.buf(y), M);                     \
        for (int i = 0; i < M; i++) {                                 \
            double s = 0, mag = 0;                                    \
            for (int j = 0; j < (BN); j++) {                          \
                s += x[(size_t)i * (BN) + j];                         \
                mag += std::fabs(x[(size_t)i * (BN) + j]);            \
            }                                                         \
            /* (a sum near 0: the rounding of the terms' size) */     \
            EXPECT_TRUE(near(y[i], s, 1e-5, 1e-6 + 1e-6 * mag)) << i; \
        }                                                             \
        EXPECT_EQ(y[M], -1.0f);                                       \
    } while (0)

RED_CASE(RowSum) { ROW_SUM(row_sum, 16); }

// A row of 1024 over 2 warps: each thread's 16, lane shuffles, then the
// two warps' partials.
RED_CASE(RowSumAcrossWarps) { ROW_SUM(row_sum_warps, 1024); }

#define COL_SUM(c, BM, BN)                                                \
    do {                                                                  \
        const int P = (M + (BM)-1) / (BM);                                \
        auto x = rand_i((size_t)M * (BN), 2, -1000, 1000);                \
        std::vector<int32_t> y((size_t)P *(BN), -1);                      \
        Runner r(b);                                                      \
        LAUNCH(r, opt, c, r.buf(x), r.buf(y), M);                         \
        for (int p = 0; p < P; p++)                                       \
            for (int j = 0; j < (BN); j++) {                              \
                int32_t s = 0;                                            \
                for (int i = p * (BM); i < p * (BM) + (BM) && i < M; i++) \
                    s += x[(size_t)i * (BN) + j];                         \
                EXPECT_EQ(y[(size_t)p * (BN) + j], s) << p << "," << j;   \
            }                                                             \
    } while (0)

RED_CASE(ColSumInt) { COL_SUM(col_sum, 8, 16); }

// Columns of 256 rows over 4 warps (one thread per row pair: the rows
// span the lanes and the warps), and of 64 rows where 2 threads share a
// row (16 rows of threads to a warp).
RED_CASE(ColSumAcrossWarps) {
    COL_SUM(col_sum_warps, 256, 4);
    COL_SUM(col_sum_lanes, 64, 16);
}

RED_CASE(RowNormalizeKeepDims) {
    const int BN = 32;
    auto x = rand_f((size_t)M * BN, 3, 0.5f, 2.0f);
    std::vector<float> y((size_t)M * BN, -1.0f);
    Runner r(b);
    LAUNCH(r, opt, row_normalize, r.buf(x), r.buf(y), M);
    for (int i = 0; i < M; i++) {
        double s = 0;
        for (int j = 0; j < BN; j++) s += x[(size_t)i * BN + j];
        for (int j = 0; j < BN; j++)
            EXPECT_TRUE(near(y[(size_t)i * BN + j], x[(size_t)i * BN + j] / s, 2e-5))
                << i << "," << j;
    }
}

RED_CASE(SoftmaxRows) {
    const int BN = 64;
    auto x = rand_f((size_t)M * BN, 4, -4, 4);
    std::vector<float> y((size_t)M * BN, -1.0f);
    Runner r(b);
    LAUNCH(r, opt, softmax_rows, r.buf(x), r.buf(y), M);
    for (int i = 0; i < M; i++) {
        double mx = -1e30, s = 0;
        for (int j = 0; j < BN; j++) mx = std::max(mx, (double)x[(size_t)i * BN + j]);
        for (int j = 0; j < BN; j++) s += std::exp(x[(size_t)i * BN + j] - mx);
        for (int j = 0; j < BN; j++)
            EXPECT_TRUE(near(y[(size_t)i * BN + j], std::exp(x[(size_t)i * BN + j] - mx) / s, 2e-5))
                << i << "," << j;
    }
}

#define MAX_IDX(c, BM_, BN_)                                           \
    do {                                                               \
        const int BM = (BM_), BN = (BN_), P = (M + BM - 1) / BM;       \
        auto xi = rand_i((size_t)M * BN, 5, -4, 4);                    \
        std::vector<float> x(xi.begin(), xi.end());                    \
        std::vector<float> v(M, -1.0f);                                \
        std::vector<int32_t> ix(M, -1), a((size_t)P *BN, -1);          \
        Runner r(b);                                                   \
        LAUNCH(r, opt, c, r.buf(x), r.buf(v), r.buf(ix), r.buf(a), M); \
        check_max_idx(BM, BN, x, v, ix, a);                            \
    } while (0)

void check_max_idx(int BM, int BN, const std::vector<float> &x, const std::vector<float> &v,
                   const std::vector<int32_t> &ix, const std::vector<int32_t> &a) {
    const int P = (M + BM - 1) / BM;
    for (int i = 0; i < M; i++) {
        int best = 0;
        for (int j = 1; j < BN; j++)
            if (x[(size_t)i * BN + j] > x[(size_t)i * BN + best]) best = j;
        EXPECT_EQ(v[i], x[(size_t)i * BN + best]) << i;
        EXPECT_EQ(ix[i], best) << i;
    }
    for (int p = 0; p < P; p++)
        for (int j = 0; j < BN; j++) {
            auto at = [&](int k) {
                int i = p * BM + k;
                return i < M ? x[(size_t)i * BN + j] : 0.0f;
            };
            int best = 0;
            for (int k = 1; k < BM; k++)
                if (at(k) < at(best)) best = k;
            EXPECT_EQ(a[(size_t)p * BN + j], best) << p << "," << j;
        }
}

RED_CASE(MaxWithIndicesAndArgmin) { MAX_IDX(max_idx, 8, 16); }

// Rows of 1024 over 4 warps: each partial travels with its index.
RED_CASE(MaxWithIndicesAcrossWarps) { MAX_IDX(max_idx_warps, 1, 1024); }

void check_ties(int BN, const std::vector<int32_t> &x, const std::vector<int32_t> &i1,
                const std::vector<int32_t> &i2) {
    for (int i = 0; i < M; i++) {
        int hi = 0, lo = 0;
        for (int j = 1; j < BN; j++) {
            if (x[(size_t)i * BN + j] > x[(size_t)i * BN + hi]) hi = j;
            if (x[(size_t)i * BN + j] < x[(size_t)i * BN + lo]) lo = j;
        }
        EXPECT_EQ(i1[i], hi) << i;
        EXPECT_EQ(i2[i], lo) << i;
    }
}

#define TIES(c, BN)                                           \
    do {                                                      \
        auto x = rand_i((size_t)M * (BN), 6, 0, 2);           \
        std::vector<int32_t> i1(M, -1), i2(M, -1);            \
        Runner r(b);                                          \
        LAUNCH(r, opt, c, r.buf(x), r.buf(i1), r.buf(i2), M); \
        check_ties((BN), x, i1, i2);                          \
    } while (0)

RED_CASE(ArgmaxTiesFirstIndex) { TIES(argmax_ties, 32); }

// Ties across the lanes and the 8 warps of a row of 1024: the first index.
RED_CASE(ArgmaxTiesAcrossWarps) { TIES(argmax_ties_warps, 1024); }

// The scans of scans_kernel over tiles of BM x BN (rows of M), exact.
void check_scans(int BM, int BN, const std::vector<int32_t> &x, const std::vector<int32_t> &a,
                 const std::vector<int32_t> &bb, const std::vector<int32_t> &c,
                 const std::vector<int32_t> &d) {
    auto X = [&](int i, int j) { return i < M ? x[(size_t)i * BN + j] : 0; };
    for (int i = 0; i < M; i++) {
        int t0 = i / BM * BM;
        for (int j = 0; j < BN; j++) {
            int32_t ea = 0, eb = 0, ec = 1, ed = 1;
            for (int k = 0; k <= j; k++) ea += X(i, k);
            for (int k = i; k < t0 + BM; k++) eb += X(k, j);
            for (int k = t0; k <= i; k++) ec *= X(k, j);
            for (int k = j; k < BN; k++) ed *= X(i, k);
            size_t e = (size_t)i * BN + j;
            EXPECT_EQ(a[e], ea) << i << "," << j;
            EXPECT_EQ(bb[e], eb) << i << "," << j;
            EXPECT_EQ(c[e], ec) << i << "," << j;
            EXPECT_EQ(d[e], ed) << i << "," << j;
        }
    }
}

RED_CASE(ScansBothAxes) {
    const int BM = 4, BN = 8;
    auto x = rand_i((size_t)M * BN, 7, -3, 3);
    size_t n = (size_t)M * BN;
    std::vector<int32_t> a(n, -1), bb(n, -1), c(n, -1), d(n, -1);
    Runner r(b);
    LAUNCH(r, opt, scans, r.buf(x), r.buf(a), r.buf(bb), r.buf(c), r.buf(d), M);
    check_scans(BM, BN, x, a, bb, c, d);
}

// Axes of 16 and 64 elements: at -O2 the CUDA backends scan them in shared
// memory by doubling steps, forward and reversed (products of -1, 0, 1).
RED_CASE(ScansInSteps) {
    const int BM = 16, BN = 64;
    auto x = rand_i((size_t)M * BN, 11, -1, 1);
    size_t n = (size_t)M * BN;
    std::vector<int32_t> a(n, -1), bb(n, -1), c(n, -1), d(n, -1);
    Runner r(b);
    LAUNCH(r, opt, scans_wide, r.buf(x), r.buf(a), r.buf(bb), r.buf(c), r.buf(d), M);
    check_scans(BM, BN, x, a, bb, c, d);
}

RED_CASE(ReduceAllAndKeepDims) {
    const int BM = 8, BN = 16, P = 3;
    auto x = rand_f((size_t)P * BM * BN, 8, -2, 2);
    std::vector<float> s(P, -1.0f), m(P, -1.0f);
    Runner r(b);
    LAUNCH(r, opt, reduce_all, r.buf(x), r.buf(s), r.buf(m));
    for (int p = 0; p < P; p++) {
        double t = 0;
        float hi = -1e30f;
        for (int e = 0; e < BM * BN; e++) {
            t += x[(size_t)p * BM * BN + e];
            hi = std::max(hi, x[(size_t)p * BM * BN + e]);
        }
        EXPECT_TRUE(near(s[p], t, 1e-5, 1e-5)) << p;
        EXPECT_EQ(m[p], hi) << p;
    }
}

RED_CASE(LayerNormRows) {
    const int BN = 64;
    const float eps = 1e-5f;
    auto x = rand_f((size_t)M * BN, 9, -3, 3), w = rand_f(BN, 10, 0.5f, 1.5f),
         bias = rand_f(BN, 11, -1, 1);
    std::vector<float> y((size_t)M * BN, -1.0f);
    Runner r(b);
    LAUNCH(r, opt, layer_norm, r.buf(x), r.buf(w), r.buf(bias), r.buf(y), M, eps);
    for (int i = 0; i < M; i++) {
        double mean = 0, var = 0;
        for (int j = 0; j < BN; j++) mean += x[(size_t)i * BN + j];
        mean /= BN;
        for (int j = 0; j < BN; j++)
            var += (x[(size_t)i * BN + j] - mean) * (x[(size_t)i * BN + j] - mean);
        var /= BN;
        double rstd = 1.0 / std::sqrt(var + eps);
        for (int j = 0; j < BN; j++)
            EXPECT_TRUE(near(y[(size_t)i * BN + j],
                             (x[(size_t)i * BN + j] - mean) * rstd * w[j] + bias[j], 1e-4, 1e-5))
                << i << "," << j;
    }
}

RED_CASE(VectorCumsumArgmax) {
    const int BLOCK = 128, P = 3;
    auto x = rand_f((size_t)P * BLOCK, 12, -2, 2);
    std::vector<float> c((size_t)P * BLOCK, -1.0f);
    std::vector<int32_t> a(P, -1);
    Runner r(b);
    LAUNCH(r, opt, vec_scan, r.buf(x), r.buf(c), r.buf(a));
    for (int p = 0; p < P; p++) {
        double s = 0;
        int best = 0;
        for (int k = 0; k < BLOCK; k++) {
            s += x[(size_t)p * BLOCK + k];
            EXPECT_TRUE(near(c[(size_t)p * BLOCK + k], s, 1e-5, 1e-5)) << p << "," << k;
            if (x[(size_t)p * BLOCK + k] > x[(size_t)p * BLOCK + best]) best = k;
        }
        EXPECT_EQ(a[p], best) << p;
    }
}

// tl.histogram: values from -3 to 20 in 16 bins (those outside count
// nowhere), and of the first n elements of each block (mask=)
RED_CASE(Histogram) {
    const int BLOCK = 64, BINS = 16, P = 3, n = 45;
    auto x = rand_i((size_t)P * BLOCK, 31, -3, 20);
    std::vector<int32_t> h((size_t)P * BINS, -1), g((size_t)P * BINS, -1);
    Runner r(b);
    LAUNCH(r, opt, histogram, r.buf(x), r.buf(h), r.buf(g), n);
    for (int p = 0; p < P; p++) {
        std::vector<int32_t> wh(BINS, 0), wg(BINS, 0);
        for (int k = 0; k < BLOCK; k++) {
            int v = x[(size_t)p * BLOCK + k];
            if (v < 0 || v >= BINS) continue;
            wh[v]++;
            if (k < n) wg[v]++;
        }
        for (int i = 0; i < BINS; i++) {
            EXPECT_EQ(h[(size_t)p * BINS + i], wh[i]) << p << "," << i;
            EXPECT_EQ(g[(size_t)p * BINS + i], wg[i]) << p << "," << i;
        }
    }
}

RED_CASE(ReduceWithCombiners) {
    const int BM = 4, BN = 8, P = (M + BM - 1) / BM;
    auto x = rand_i((size_t)M * BN, 13, -9, 9);
    std::vector<int32_t> r(M, -1), c((size_t)P * BN, -1), v(M, -1), ix(M, -1);
    Runner run(b);
    LAUNCH(run, opt, reduce_fn, run.buf(x), run.buf(r), run.buf(c), run.buf(v), run.buf(ix), M);
    auto X = [&](int i, int j) { return i < M ? x[(size_t)i * BN + j] : 0; };
    for (int i = 0; i < M; i++) {
        int32_t ma = 0, mv = X(i, 0), mi = 0;
        for (int j = 0; j < BN; j++) {
            ma = std::max(ma, std::abs(X(i, j)));
            if (X(i, j) < mv) mv = X(i, j), mi = j;
        }
        EXPECT_EQ(r[i], ma) << i;
        EXPECT_EQ(v[i], mv) << i;
        EXPECT_EQ(ix[i], mi) << i;
    }
    for (int p = 0; p < P; p++)
        for (int j = 0; j < BN; j++) {
            int32_t s = 0;
            for (int k = 0; k < BM; k++) s += X(p * BM + k, j);
            EXPECT_EQ(c[(size_t)p * BN + j], s) << p << "," << j;
        }
}

RED_CASE(AssociativeScanWithCombiners) {
    const int BM = 4, BN = 8;
    auto x = rand_f((size_t)M * BN, 14, -2, 2);
    size_t n = (size_t)M * BN;
    std::vector<float> a(n, -1.0f), s(n, -1.0f);
    Runner run(b);
    LAUNCH(run, opt, scan_fn, run.buf(x), run.buf(a), run.buf(s), M);
    auto X = [&](int i, int j) { return i < M ? x[(size_t)i * BN + j] : 0.0f; };
    for (int i = 0; i < M; i++) {
        int t0 = i / BM * BM;
        for (int j = 0; j < BN; j++) {
            float mx = X(i, 0);
            for (int k = 1; k <= j; k++) mx = std::max(mx, X(i, k));
            // from the tile's last row up, in order
            float acc = X(t0 + BM - 1, j);
            for (int k = t0 + BM - 2; k >= i; k--) acc = X(k, j) + acc;
            EXPECT_EQ(a[(size_t)i * BN + j], mx) << i << "," << j;
            // the order of the additions is the combiner's to choose (a tree)
            EXPECT_NEAR(s[(size_t)i * BN + j], acc, 1e-5f) << i << "," << j;
        }
    }
}

RED_CASE(AssociativeScanKeepsTheCombinersOrder) {
    const int BM = 4, BN = 32;
    size_t n = (size_t)M * BN;
    auto a = rand_i(n, 17, -3, 3), c = rand_i(n, 18, -50, 50);
    std::vector<int32_t> sa(n, 7), sb(n, 7), ra(n, 7), rb(n, 7), pa(M, 7), pb(M, 7);
    Runner run(b);
    LAUNCH(run, opt, affine_fn, run.buf(a), run.buf(c), run.buf(sa), run.buf(sb), run.buf(ra),
           run.buf(rb), run.buf(pa), run.buf(pb), M);
    // (a1, b1) then (a2, b2) is (a1 a2, a2 b1 + b2), in 32-bit wrapping arithmetic
    auto comb = [](uint32_t &x1, uint32_t &y1, uint32_t x2, uint32_t y2) {
        y1 = x2 * y1 + y2;
        x1 = x1 * x2;
    };
    for (int i = 0; i < M; i++) {
        const int32_t *A = &a[(size_t)i * BN], *B = &c[(size_t)i * BN];
        uint32_t fx = (uint32_t)A[0], fy = (uint32_t)B[0];
        for (int j = 0; j < BN; j++) {
            if (j > 0) comb(fx, fy, (uint32_t)A[j], (uint32_t)B[j]);
            EXPECT_EQ((uint32_t)sa[(size_t)i * BN + j], fx) << i << "," << j;
            EXPECT_EQ((uint32_t)sb[(size_t)i * BN + j], fy) << i << "," << j;
        }
        EXPECT_EQ((uint32_t)pa[i], fx) << i;
        EXPECT_EQ((uint32_t)pb[i], fy) << i;
        for (int j = 0; j < BN; j++) {
            uint32_t x = (uint32_t)A[j], y = (uint32_t)B[j];
            for (int k = j + 1; k < BN; k++) comb(x, y, (uint32_t)A[k], (uint32_t)B[k]);
            EXPECT_EQ((uint32_t)ra[(size_t)i * BN + j], x) << i << "," << j;
            EXPECT_EQ((uint32_t)rb[(size_t)i * BN + j], y) << i << "," << j;
        }
    }
}

RED_CASE(XorSum) {
    const int BM = 8, BN = 16, P = (M + BM - 1) / BM;
    auto x = rand_i((size_t)M * BN, 15, INT32_MIN, INT32_MAX);
    auto bi = rand_i((size_t)P * BN, 16, 0, 255);
    std::vector<uint8_t> bu(bi.begin(), bi.end()), v(P, 7);
    std::vector<int32_t> rr(M + 4, -1), c((size_t)P * BN, -1), a(P, -1);
    Runner run(b);
    LAUNCH(run, opt, xor_sum, run.buf(x), run.buf(rr), run.buf(c), run.buf(a), run.buf(bu),
           run.buf(v), M);
    auto X = [&](int i, int j) { return i < M ? x[(size_t)i * BN + j] : 0; };
    for (int i = 0; i < M; i++) {
        int32_t s = 0;
        for (int j = 0; j < BN; j++) s ^= X(i, j);
        EXPECT_EQ(rr[i], s) << i;
    }
    EXPECT_EQ(rr[M], -1);
    for (int p = 0; p < P; p++) {
        int32_t all = 0;
        uint8_t u = 0;
        for (int j = 0; j < BN; j++) {
            int32_t s = 0;
            for (int k = 0; k < BM; k++) s ^= X(p * BM + k, j);
            EXPECT_EQ(c[(size_t)p * BN + j], s) << p << "," << j;
            all ^= s;
            u ^= bu[(size_t)p * BN + j];
        }
        EXPECT_EQ(a[p], all) << p;
        EXPECT_EQ(v[p], u) << p;
    }
}
