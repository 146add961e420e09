// Blocks of rank 3 and 4 (issue 13, compiler/src/passes/rank.c): the kernels of
// kernels/rank.py at -O1 and -O2 on the host backend (always), CUDA and the
// MLIR backend (skipped without a GPU), against references written here.
// Inputs are small integers, so every result is exact and compared exactly.
// Built with MT_RANK_EMU (test/emu), the Cuda cases run the generated CUDA
// through the CPU emulation of CUDA (fake_cuda/, host memory) instead.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "mytriton/dtypes.h"
#include "mytriton/runtime.h"
#ifndef MT_RANK_EMU
#define MT_RANK_EMU 0
#endif
#if MT_RANK_EMU
#include "rank_all_emu.h"
#else
#include "mytriton_lang_rank_kernels.h"
#endif
#if MT_RANK_MLIR
#include "mytriton_lang_rank_mlir.h"
#endif

#if MT_RANK_CUDA
#include <cuda_runtime_api.h>
#include "../support/gpu.h"
#endif

#define MT_LANG_CUDA MT_RANK_CUDA
#define MT_LANG_MLIR MT_RANK_MLIR
#define MT_LANG_EMU MT_RANK_EMU
#include "../support/lang_buf.h"

namespace {

using mt_lang::Backend;
using mt_lang::Buf;
using mt_lang::ints;

template <typename T>
void expect_equal(const std::vector<T> &got, const std::vector<T> &want, const char *what) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); i++) ASSERT_EQ(got[i], want[i]) << what << " at " << i;
}

#define RUN(b, opt, name, ...)                                                    \
    do {                                                                          \
        int st_ = -1;                                                             \
        if ((b) == Backend::Host) st_ = HOST_LAUNCH(opt, name, __VA_ARGS__);      \
        else if ((b) == Backend::Cuda) st_ = CUDA_LAUNCH(opt, name, __VA_ARGS__); \
        else st_ = MLIR_LAUNCH(name, __VA_ARGS__);                                \
        ASSERT_EQ(st_, 0) << #name;                                               \
    } while (0)

#if MT_RANK_EMU
#define HOST_LAUNCH(opt, name, ...) (-1)
#else
#define HOST_LAUNCH(opt, name, ...)                              \
    ((opt) == 1 ? (int)launch_rank_##name##_o1_host(__VA_ARGS__) \
                : (int)launch_rank_##name##_o2_host(__VA_ARGS__))
#endif
#if MT_RANK_CUDA || MT_RANK_EMU
#define CUDA_LAUNCH(opt, name, ...)                            \
    ((opt) == 1 ? (int)launch_rank_##name##_o1(0, __VA_ARGS__) \
                : (int)launch_rank_##name##_o2(0, __VA_ARGS__))
#else
#define CUDA_LAUNCH(opt, name, ...) (-1)
#endif
#if MT_RANK_CUDA
#endif
#if MT_RANK_MLIR
#define MLIR_LAUNCH(name, ...) ((int)launch_rank_##name##_m_mlir(0, __VA_ARGS__))
#else
#define MLIR_LAUNCH(name, ...) (-1)
#endif

constexpr int A = 2, B = 4, C = 8;  // the (A, B, C) of most kernels

int at3(int a, int b, int c, int nb, int nc) { return (a * nb + b) * nc + c; }

void copy3(Backend be, int opt) {
    Buf<float> x(ints<float>(A * B * C, 1)), y(A * B * C, -100.0f);
    RUN(be, opt, copy3, x.ptr(be), y.ptr(be));
    y.fetch(be);
    std::vector<float> want(A * B * C);
    for (int e = 0; e < A * B * C; e++) want[e] = x.h[e] * 2.0f + 1.0f;
    expect_equal(y.h, want, "copy3");
}

void masked3(Backend be, int opt) {
    const int na = 3, nb = 2, nc = 5; /* inside the (4, 4, 8) block */
    Buf<float> x(ints<float>(na * nb * nc, 2)), y(na * nb * nc, -100.0f);
    RUN(be, opt, masked3, x.ptr(be), y.ptr(be), na, nb, nc);
    y.fetch(be);
    std::vector<float> want(na * nb * nc);
    for (int a = 0; a < na; a++)
        for (int b = 0; b < nb; b++)
            for (int c = 0; c < nc; c++) {
                int e = at3(a, b, c, nb, nc);
                want[e] = x.h[e] + (float)(a + 10 * b + 100 * c);
            }
    expect_equal(y.h, want, "masked3");
}

void reduce3(Backend be, int opt) {
    Buf<float> x(ints<float>(A * B * C, 3)), s0(B * C, -1.0f), s1(A * C, -1.0f), s2(A * B, -1.0f),
        m1(A * C, -1.0f), sa(1, -1.0f);
    Buf<int32_t> i0(B * C, -1);
    RUN(be, opt, reduce3, x.ptr(be), s0.ptr(be), s1.ptr(be), s2.ptr(be), m1.ptr(be), i0.ptr(be),
        sa.ptr(be));
    for (auto *v : {&s0, &s1, &s2, &m1, &sa}) v->fetch(be);
    i0.fetch(be);
    std::vector<float> w0(B * C, 0.0f), w1(A * C, 0.0f), w2(A * B, 0.0f), wm(A * C, -1e9f),
        wa(1, 0.0f);
    std::vector<int32_t> wi(B * C, 0);
    for (int a = 0; a < A; a++)
        for (int b = 0; b < B; b++)
            for (int c = 0; c < C; c++) {
                float v = x.h[at3(a, b, c, B, C)];
                w0[b * C + c] += v;
                w1[a * C + c] += v;
                w2[a * B + b] += v;
                wm[a * C + c] = std::max(wm[a * C + c], v);
                wa[0] += v;
                if (v > x.h[at3(wi[b * C + c], b, c, B, C)]) wi[b * C + c] = a;
            }
    expect_equal(s0.h, w0, "sum axis 0");
    expect_equal(s1.h, w1, "sum axis 1");
    expect_equal(s2.h, w2, "sum axis 2");
    expect_equal(m1.h, wm, "max axis 1 keep_dims");
    expect_equal(i0.h, wi, "argmax axis 0");
    expect_equal(sa.h, wa, "sum of all");
}

void softmax3(Backend be, int opt) {
    Buf<float> x(ints<float>(A * B * C, 4)), y(A * B * C, -1.0f);
    RUN(be, opt, softmax3, x.ptr(be), y.ptr(be));
    y.fetch(be);
    std::vector<float> want(A * B * C);
    for (int r = 0; r < A * B; r++) {
        float m = -1e9f, s = 0.0f;
        for (int c = 0; c < C; c++) m = std::max(m, x.h[r * C + c]);
        for (int c = 0; c < C; c++) s += x.h[r * C + c] - m;
        for (int c = 0; c < C; c++) want[r * C + c] = (x.h[r * C + c] - m) * 4.0f + s;
    }
    expect_equal(y.h, want, "softmax3");
}

void perm3(Backend be, int opt) {
    Buf<float> x(ints<float>(A * B * C, 5)), y(A * B * C, -1.0f), z(A * B * C, -1.0f);
    RUN(be, opt, perm3, x.ptr(be), y.ptr(be), z.ptr(be));
    y.fetch(be);
    z.fetch(be);
    std::vector<float> wy(A * B * C), wz(A * B * C);
    for (int a = 0; a < A; a++)
        for (int b = 0; b < B; b++)
            for (int c = 0; c < C; c++) {
                float v = x.h[at3(a, b, c, B, C)];
                wy[at3(c, a, b, A, B)] = v;
                wz[at3(b, a, c, A, C)] = v + 0.5f;
            }
    expect_equal(y.h, wy, "permute (2, 0, 1)");
    expect_equal(z.h, wz, "trans (1, 0, 2)");
}

void group(Backend be, int opt) {
    const int M = 4, N = 32, G = 8;
    Buf<float> x(ints<float>(M * N, 6)), y(M * N, -1.0f), s(M * N / G, -1.0f);
    RUN(be, opt, group, x.ptr(be), y.ptr(be), s.ptr(be));
    y.fetch(be);
    s.fetch(be);
    std::vector<float> wy(M * N), ws(M * N / G, 0.0f);
    for (int e = 0; e < M * N; e++) ws[e / G] = std::max(ws[e / G], std::abs(x.h[e]));
    for (int e = 0; e < M * N; e++) wy[e] = x.h[e] * ws[e / G];
    expect_equal(s.h, ws, "group max");
    expect_equal(y.h, wy, "group scaled");
}

void bcast3(Backend be, int opt) {
    Buf<float> x(ints<float>(A * C, 7)), w(ints<float>(B * C, 8)), y(A * B * C, -1.0f),
        z(A * B * C, -1.0f);
    RUN(be, opt, bcast3, x.ptr(be), w.ptr(be), y.ptr(be), z.ptr(be));
    y.fetch(be);
    z.fetch(be);
    std::vector<float> wy(A * B * C), wz(A * B * C);
    for (int a = 0; a < A; a++)
        for (int b = 0; b < B; b++)
            for (int c = 0; c < C; c++) {
                wy[at3(a, b, c, B, C)] = x.h[a * C + c] + w.h[b * C + c];
                wz[at3(a, b, c, B, C)] = x.h[a * C + c] * 2.0f - w.h[b * C + c];
            }
    expect_equal(y.h, wy, "broadcast");
    expect_equal(z.h, wz, "broadcast_to, expand_dims");
}

void scan3(Backend be, int opt) {
    Buf<int32_t> x(ints<int32_t>(A * B * C, 9)), y1(A * B * C, -1), y2(A * B * C, -1);
    RUN(be, opt, scan3, x.ptr(be), y1.ptr(be), y2.ptr(be));
    y1.fetch(be);
    y2.fetch(be);
    std::vector<int32_t> w1(A * B * C), w2(A * B * C);
    for (int a = 0; a < A; a++)
        for (int c = 0; c < C; c++) {
            int32_t s = 0;
            for (int b = 0; b < B; b++) w1[at3(a, b, c, B, C)] = s += x.h[at3(a, b, c, B, C)];
        }
    for (int a = 0; a < A; a++)
        for (int b = 0; b < B; b++) {
            int32_t s = 0;
            for (int c = C - 1; c >= 0; c--) w2[at3(a, b, c, B, C)] = s += x.h[at3(a, b, c, B, C)];
        }
    expect_equal(y1.h, w1, "cumsum axis 1");
    expect_equal(y2.h, w2, "cumsum axis 2 reverse");
}

void join3(Backend be, int opt) {
    const int R = 4, Cc = 8;
    Buf<float> x(ints<float>(R * Cc, 10)), y(ints<float>(R * Cc, 11)), z(2 * R * Cc, -1.0f),
        w(R * Cc, -1.0f);
    RUN(be, opt, join3, x.ptr(be), y.ptr(be), z.ptr(be), w.ptr(be));
    z.fetch(be);
    w.fetch(be);
    std::vector<float> wz(2 * R * Cc), ww(R * Cc);
    for (int e = 0; e < R * Cc; e++) {
        wz[2 * e] = x.h[e], wz[2 * e + 1] = y.h[e];
        ww[e] = x.h[e] * 3.0f - y.h[e] * 3.0f;
    }
    expect_equal(z.h, wz, "join");
    expect_equal(w.h, ww, "split");
}

void loop3(Backend be, int opt) {
    const int n = 3;
    Buf<float> x(ints<float>(n * A * B * C, 12)), y(A * B * C, -1.0f);
    RUN(be, opt, loop3, x.ptr(be), y.ptr(be), n);
    y.fetch(be);
    std::vector<float> want(A * B * C, 0.0f);
    for (int k = 0; k < n; k++)
        for (int e = 0; e < A * B * C; e++) want[e] += x.h[k * A * B * C + e] * (float)(k + 1);
    expect_equal(y.h, want, "loop3");
}

void reduce_fn3(Backend be, int opt) {
    Buf<float> x(ints<float>(A * B * C, 13)), y(A * C, -1.0f), z(A * B * C, -1.0f);
    RUN(be, opt, reduce_fn3, x.ptr(be), y.ptr(be), z.ptr(be));
    y.fetch(be);
    z.fetch(be);
    std::vector<float> wy(A * C, -1e9f), wz(A * B * C);
    for (int a = 0; a < A; a++)
        for (int b = 0; b < B; b++)
            for (int c = 0; c < C; c++) {
                float v = x.h[at3(a, b, c, B, C)];
                wy[a * C + c] = std::max(wy[a * C + c], v);
                wz[at3(a, b, c, B, C)] = v + (a ? wz[at3(a - 1, b, c, B, C)] : 0.0f);
            }
    expect_equal(y.h, wy, "reduce axis 1");
    expect_equal(z.h, wz, "associative_scan axis 0");
}

void atomic3(Backend be, int opt) {
    const int Aa = 4;
    Buf<int32_t> x(ints<int32_t>(Aa * B * C, 14)), out(B * C, 0);
    RUN(be, opt, atomic3, x.ptr(be), out.ptr(be));
    out.fetch(be);
    std::vector<int32_t> want(B * C, 0);
    for (int e = 0; e < Aa * B * C; e++) want[e % (B * C)] += x.h[e];
    expect_equal(out.h, want, "atomic_add");
}

void flip_sort3(Backend be, int opt) {
    Buf<float> x(ints<float>(A * B * C, 15)), y(A * B * C, -1.0f), z(A * B * C, -1.0f);
    RUN(be, opt, flip_sort3, x.ptr(be), y.ptr(be), z.ptr(be));
    y.fetch(be);
    z.fetch(be);
    std::vector<float> wy(A * B * C), wz = x.h;
    for (int a = 0; a < A; a++)
        for (int b = 0; b < B; b++)
            for (int c = 0; c < C; c++) wy[at3(a, b, c, B, C)] = x.h[at3(a, B - 1 - b, c, B, C)];
    for (int r = 0; r < A * B; r++) std::sort(wz.begin() + r * C, wz.begin() + (r + 1) * C);
    expect_equal(y.h, wy, "flip axis 1");
    expect_equal(z.h, wz, "sort");
}

void rank4(Backend be, int opt) {
    const int Aa = 2, Bb = 2, Cc = 4, D = 8;
    Buf<float> x(ints<float>(Aa * Bb * Cc * D, 16)), y(Aa * Bb * Cc * D, -1.0f),
        s(Aa * Cc * D, -1.0f);
    RUN(be, opt, rank4, x.ptr(be), y.ptr(be), s.ptr(be));
    y.fetch(be);
    s.fetch(be);
    std::vector<float> wy(Aa * Bb * Cc * D), ws(Aa * Cc * D, 0.0f);
    for (int a = 0; a < Aa; a++)
        for (int b = 0; b < Bb; b++)
            for (int c = 0; c < Cc; c++)
                for (int d = 0; d < D; d++) {
                    float v = x.h[((a * Bb + b) * Cc + c) * D + d];
                    wy[((a * Bb + b) * Cc + c) * D + d] = v * 3.0f;
                    ws[(a * Cc + c) * D + d] += v;
                }
    expect_equal(y.h, wy, "rank 4");
    expect_equal(s.h, ws, "rank 4 sum axis 1");
}

// z[b, m, n] = acc + sum_k x[b, m, k] * y[b, k, n] over nb batches.
template <typename T, typename Load>
std::vector<float> bmm_ref(const std::vector<T> &x, const std::vector<T> &y, int nb, int M, int N,
                           int K, float acc, Load load) {
    std::vector<float> z((size_t)nb * M * N);
    for (int b = 0; b < nb; b++)
        for (int m = 0; m < M; m++)
            for (int n = 0; n < N; n++) {
                float s = acc;
                for (int k = 0; k < K; k++)
                    s += load(x[at3(b, m, k, M, K)]) * load(y[at3(b, k, n, K, N)]);
                z[at3(b, m, n, M, N)] = s;
            }
    return z;
}

void bmm(Backend be, int opt) {
    const int BS = 2, M = 16, N = 16, K = 16;
    Buf<float> x(ints<float>(BS * M * K, 17)), y(ints<float>(BS * K * N, 18)), z(BS * M * N, -1.0f);
    RUN(be, opt, bmm, x.ptr(be), y.ptr(be), z.ptr(be));
    z.fetch(be);
    expect_equal(z.h, bmm_ref(x.h, y.h, BS, M, N, K, 0.0f, [](float v) { return v; }),
                 "batched dot");
}

void bmm_acc(Backend be, int opt) {
    const int BS = 2, M = 16, N = 16, K = 16, programs = 2;
    auto half = [](int seed, int n) {
        std::vector<mytriton_fp16> v(n);
        auto f = ints<float>(n, seed);
        for (int i = 0; i < n; i++) v[i] = mytriton_fp16_from_float(f[i] * 0.25f);
        return v;
    };
    Buf<mytriton_fp16> x(half(19, programs * BS * M * K)), y(half(20, programs * BS * K * N)),
        z(half(0, programs * BS * M * N));
    RUN(be, opt, bmm_acc, x.ptr(be), y.ptr(be), z.ptr(be));
    z.fetch(be);
    auto f16 = [](mytriton_fp16 h) { return mytriton_fp16_to_float(h); };
    auto want = bmm_ref(x.h, y.h, programs * BS, M, N, K, 1.0f, f16);
    std::vector<float> got(z.h.size());
    for (size_t i = 0; i < got.size(); i++) {
        got[i] = f16(z.h[i]);
        want[i] = f16(mytriton_fp16_from_float(want[i]));
    }
    expect_equal(got, want, "batched fp16 dot with an accumulator");
}

#if MT_RANK_EMU
#define RANK_CASE(name)                              \
    TEST(Emu, name##_o1) { name(Backend::Cuda, 1); } \
    TEST(Emu, name##_o2) { name(Backend::Cuda, 2); }
#else
#define RANK_CASE(name)                               \
    TEST(Host, name##_o1) { name(Backend::Host, 1); } \
    TEST(Host, name##_o2) { name(Backend::Host, 2); } \
    TEST(Cuda, name##_o1) {                           \
        LANG_NEED_GPU();                              \
        name(Backend::Cuda, 1);                       \
    }                                                 \
    TEST(Cuda, name##_o2) {                           \
        LANG_NEED_GPU();                              \
        name(Backend::Cuda, 2);                       \
    }                                                 \
    TEST(Mlir, name) {                                \
        LANG_NEED_MLIR();                             \
        name(Backend::Mlir, 1);                       \
    }

#endif

RANK_CASE(copy3)
RANK_CASE(masked3)
RANK_CASE(reduce3)
RANK_CASE(softmax3)
RANK_CASE(perm3)
RANK_CASE(group)
RANK_CASE(bcast3)
RANK_CASE(scan3)
RANK_CASE(join3)
RANK_CASE(loop3)
RANK_CASE(reduce_fn3)
RANK_CASE(atomic3)
RANK_CASE(flip_sort3)
RANK_CASE(rank4)
RANK_CASE(bmm)
RANK_CASE(bmm_acc)

}  // namespace
