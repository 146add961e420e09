// References of the tl.dot execution tests (dot_test.cpp on the host and
// CUDA, dot_emu_test.cpp through test/emu's CPU emulation of CUDA): element
// conversions, inputs, and the tutorial matmul's check.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "mytriton/dtypes.h"
#include "mytriton/runtime.h"

namespace dot_ref {

// ---- Element types: conversions to and from double ----------------------

template <class T>
struct Elem;
template <>
struct Elem<mytriton_fp16> {
    static mytriton_fp16 from(double v) { return mytriton_fp16_from_double(v); }
    static double to(mytriton_fp16 x) { return mytriton_fp16_to_float(x); }
    static constexpr double eps = 0x1p-11;
};
template <>
struct Elem<mytriton_bf16> {
    static mytriton_bf16 from(double v) { return mytriton_bf16_from_double(v); }
    static double to(mytriton_bf16 x) { return mytriton_bf16_to_float(x); }
    static constexpr double eps = 0x1p-8;
};
template <>
struct Elem<mytriton_fp8e4nv> {
    static mytriton_fp8e4nv from(double v) { return mytriton_fp8e4nv_from_double(v); }
    static double to(mytriton_fp8e4nv x) { return mytriton_fp8e4nv_to_float(x); }
    static constexpr double eps = 0x1p-4;
};
template <>
struct Elem<mytriton_fp8e5> {
    static mytriton_fp8e5 from(double v) { return mytriton_fp8e5_from_double(v); }
    static double to(mytriton_fp8e5 x) { return mytriton_fp8e5_to_float(x); }
    static constexpr double eps = 0x1p-3;
};
template <>
struct Elem<float> {
    static float from(double v) { return (float)v; }
    static double to(float x) { return x; }
    static constexpr double eps = 0x1p-24;
};
template <>
struct Elem<double> {
    static double from(double v) { return v; }
    static double to(double x) { return x; }
    static constexpr double eps = 0x1p-53;
};
template <>
struct Elem<int8_t> {
    static int8_t from(double v) { return (int8_t)v; }
    static double to(int8_t x) { return x; }
    static constexpr double eps = 0;
};
template <>
struct Elem<int32_t> {
    static int32_t from(double v) { return (int32_t)v; }
    static double to(int32_t x) { return x; }
    static constexpr double eps = 0;
};

struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 0x1234567ull) {}
    uint64_t next() {  // splitmix64
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform(double lo, double hi) {
        return lo + (hi - lo) * (double)(next() >> 11) * 0x1p-53;
    }
};

// Random elements of T: integers in [-128, 127], floats in [-2, 2].
template <class T>
std::vector<T> random_elems(size_t n, uint64_t seed) {
    Rng r(seed);
    std::vector<T> v(n);
    for (auto &x : v) {
        if (Elem<T>::eps == 0) x = Elem<T>::from((double)(int)(r.next() % 256) - 128);
        else x = Elem<T>::from(r.uniform(-2, 2));
    }
    return v;
}

// The f32 a tensor core reads in TF32: the upper 19 bits.
double tf32(double v) {
    float f = (float)v;
    uint32_t u;
    std::memcpy(&u, &f, 4);
    u &= 0xffffe000u;
    std::memcpy(&f, &u, 4);
    return f;
}

// ---- The tutorial matmul ----------------------------------------------------

struct MatmulCase {
    int M, N, K;         // problem
    int block_k;         // BLOCK_K: an f16 accumulator is rounded once per block
    bool tf32;           // f32 operands read as TF32
    bool acc16;          // f16 accumulator
    bool leaky;          // the leaky-ReLU epilogue
    bool b_col = false;  // B column-major (stride_bk 1, stride_bn K)
    // fp8 on sm_90a's wgmma: the hardware keeps about 13 bits of the f32
    // accumulator's mantissa over the k-steps (Triton's default
    // max_num_imprecise_acc on sm_90, 2^30, takes the same accumulation)
    bool imprecise = false;
};

template <class TA, class TB, class TC>
using MatmulLaunch =
    std::function<int(bool host, const TA *, const TB *, TC *, int M, int N, int K)>;

template <class Buffers, class Backend, class TA, class TB, class TC>
void check_matmul(Backend backend, const MatmulCase &c, const MatmulLaunch<TA, TB, TC> &launch) {
    Buffers bufs(backend);
    auto a = random_elems<TA>((size_t)c.M * c.K, 1);
    auto b = random_elems<TB>((size_t)c.K * c.N, 2);
    std::vector<TC> out((size_t)c.M * c.N, Elem<TC>::from(-77));
    TA *da = bufs.put(a);
    TB *db = bufs.put(b);
    TC *dc = bufs.put(out);
    int status = launch(bufs.host(), da, db, dc, c.M, c.N, c.K);
    ASSERT_EQ(status, 0) << mytriton_last_error();
    bufs.get(out, dc);
    int nblocks = (c.K + c.block_k - 1) / c.block_k;
    int bad = 0;
    for (int i = 0; i < c.M; i++)
        for (int j = 0; j < c.N; j++) {
            double ref = 0, mag = 0;
            for (int k = 0; k < c.K; k++) {
                double x = Elem<TA>::to(a[(size_t)i * c.K + k]),
                       y = Elem<TB>::to(b[c.b_col ? (size_t)j * c.K + k : (size_t)k * c.N + j]);
                if (c.tf32) x = tf32(x), y = tf32(y);
                ref += x * y;
                mag += std::fabs(x * y);
            }
            double got = Elem<TC>::to(out[(size_t)i * c.N + j]);
            double tol;
            if (Elem<TC>::eps == 0 && !c.leaky) {
                tol = 0;  // int8: exact
            } else {
                tol = mag * c.K * 0x1p-23 + 1e-30;
                if (c.acc16) tol += mag * 0x1p-10 * (nblocks + 1);
                if (c.imprecise) tol += mag * 0x1p-10;
                tol += std::fabs(ref) * 2 * Elem<TC>::eps;
            }
            if (c.leaky && ref < 0) ref *= 0.01;
            if (!(std::fabs(got - ref) <= tol) && bad++ < 5)
                ADD_FAILURE() << "C[" << i << ", " << j << "] = " << got << ", expected " << ref
                              << " (tolerance " << tol << ")";
        }
    EXPECT_EQ(bad, 0);
}

// ---- Accuracy over a long K -----------------------------------------------------

// C = A @ B of f32 operands uniform in [-1, 1] (row-major, seeded), computed
// by run(a, b, c, M, N, K) (0 on success); the worst |C - exact| over sum
// |a b| of an element, or -1 when run fails.
template <class Run>
double f32_dot_worst_error(int M, int N, int K, unsigned seed, const Run &run) {
    std::vector<float> a((size_t)M * K), b((size_t)K * N), c((size_t)M * N);
    auto rnd = [&]() {
        seed = seed * 1664525u + 1013904223u;
        return (float)((seed >> 8) * (1.0 / 16777216.0) * 2 - 1);
    };
    for (auto &x : a) x = rnd();
    for (auto &x : b) x = rnd();
    if (run(a, b, c, M, N, K) != 0) return -1;
    double worst = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double ref = 0, mag = 0;
            for (int k = 0; k < K; k++) {
                double p = (double)a[(size_t)i * K + k] * b[(size_t)k * N + j];
                ref += p;
                mag += std::fabs(p);
            }
            worst = std::max(worst, std::fabs(c[(size_t)i * N + j] - ref) / mag);
        }
    return worst;
}

// ---- dot_tile_kernel: Z = C + X @ Y, one tile, a ragged corner ----------------

struct TileCase {
    int BM, BN, BK;  // the tile
    int m, n;        // the corner stored (rows of X from m, columns of Y from n: 0)
    bool tf32;       // f32 operands read as TF32 (tf32x3: compared with the operands)
};

template <class TA, class TC>
using TileLaunch =
    std::function<int(bool host, const TA *, const TA *, const TC *, TC *, int m, int n)>;

template <class Buffers, class Backend, class TA, class TC>
void check_dot_tile(Backend backend, const TileCase &c, const TileLaunch<TA, TC> &launch) {
    Buffers bufs(backend);
    auto x = random_elems<TA>((size_t)c.BM * c.BK, 3);
    auto y = random_elems<TA>((size_t)c.BK * c.BN, 4);
    auto acc = random_elems<TC>((size_t)c.BM * c.BN, 5);
    std::vector<TC> z((size_t)c.BM * c.BN, Elem<TC>::from(-77));
    TA *dx = bufs.put(x);
    TA *dy = bufs.put(y);
    TC *dacc = bufs.put(acc);
    TC *dz = bufs.put(z);
    ASSERT_EQ(launch(bufs.host(), dx, dy, dacc, dz, c.m, c.n), 0) << mytriton_last_error();
    bufs.get(z, dz);
    int bad = 0;
    for (int i = 0; i < c.BM; i++)
        for (int j = 0; j < c.BN; j++) {
            double got = Elem<TC>::to(z[(size_t)i * c.BN + j]);
            if (i >= c.m || j >= c.n) {
                if (got != -77 && bad++ < 5)
                    ADD_FAILURE() << "Z[" << i << ", " << j
                                  << "] outside the corner written: " << got;
                continue;
            }
            double ref = Elem<TC>::to(acc[(size_t)i * c.BN + j]), mag = std::fabs(ref);
            for (int k = 0; k < c.BK; k++) {
                double a = Elem<TA>::to(x[(size_t)i * c.BK + k]),
                       b = Elem<TA>::to(y[(size_t)k * c.BN + j]);
                if (c.tf32) a = tf32(a), b = tf32(b);
                ref += a * b;
                mag += std::fabs(a * b);
            }
            double tol = Elem<TC>::eps == 0 ? 0 : mag * c.BK * 0x1p-23 + 1e-30;
            if (!(std::fabs(got - ref) <= tol) && bad++ < 5)
                ADD_FAILURE() << "Z[" << i << ", " << j << "] = " << got << ", expected " << ref
                              << " (tolerance " << tol << ")";
        }
    EXPECT_EQ(bad, 0);
}

}  // namespace dot_ref
