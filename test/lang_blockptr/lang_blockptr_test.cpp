// Block pointers (compiler/src/frontend/fe_blockptr.c): the kernels of
// kernels/block_ptr.py at -O1 and -O2 on the host backend (always), CUDA
// and the MLIR backend (skipped without a GPU), against references written
// here. Inputs are small integers (as floats), so every result is exact and
// compared exactly; NaN padding compares as NaN. Outputs written with a
// boundary check have slack after them that must stay untouched. Built
// with MT_BP_EMU (test/emu), the Cuda cases run the generated CUDA through
// the CPU emulation of CUDA (fake_cuda/, host memory) instead.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "mytriton/runtime.h"
#ifndef MT_BP_EMU
#define MT_BP_EMU 0
#endif
#if MT_BP_EMU
#include "bp_all_emu.h"
#else
#include "mytriton_lang_blockptr_kernels.h"
#endif
#if MT_BP_MLIR
#include "mytriton_lang_blockptr_mlir.h"
#endif

#if MT_BP_CUDA
#include <cuda_runtime_api.h>
#include "../support/gpu.h"
#endif

#define MT_LANG_CUDA MT_BP_CUDA
#define MT_LANG_MLIR MT_BP_MLIR
#define MT_LANG_EMU MT_BP_EMU
#include "../support/lang_buf.h"

namespace {

using mt_lang::Backend;
using mt_lang::Buf;
using mt_lang::ints;

// Exact comparison; a NaN matches a NaN.
template <typename T>
void expect_equal(const std::vector<T> &got, const std::vector<T> &want, const char *what) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); i++) {
        if constexpr (std::is_floating_point_v<T>) {
            if (std::isnan(want[i])) {
                ASSERT_TRUE(std::isnan(got[i])) << what << " at " << i << ": " << got[i];
                continue;
            }
        }
        ASSERT_EQ(got[i], want[i]) << what << " at " << i;
    }
}

#define RUN(b, opt, name, ...)                                                    \
    do {                                                                          \
        int st_ = -1;                                                             \
        if ((b) == Backend::Host) st_ = HOST_LAUNCH(opt, name, __VA_ARGS__);      \
        else if ((b) == Backend::Cuda) st_ = CUDA_LAUNCH(opt, name, __VA_ARGS__); \
        else st_ = MLIR_LAUNCH(name, __VA_ARGS__);                                \
        ASSERT_EQ(st_, 0) << #name << ": " << mytriton_last_error();              \
    } while (0)

#if MT_BP_EMU
#define HOST_LAUNCH(opt, name, ...) (-1)
#else
#define HOST_LAUNCH(opt, name, ...)                            \
    ((opt) == 1 ? (int)launch_bp_##name##_o1_host(__VA_ARGS__) \
                : (int)launch_bp_##name##_o2_host(__VA_ARGS__))
#endif
#if MT_BP_CUDA || MT_BP_EMU
#define CUDA_LAUNCH(opt, name, ...)                          \
    ((opt) == 1 ? (int)launch_bp_##name##_o1(0, __VA_ARGS__) \
                : (int)launch_bp_##name##_o2(0, __VA_ARGS__))
#else
#define CUDA_LAUNCH(opt, name, ...) (-1)
#endif
#if MT_BP_MLIR
#define MLIR_LAUNCH(name, ...) ((int)launch_bp_##name##_m_mlir(0, __VA_ARGS__))
#else
#define MLIR_LAUNCH(name, ...) (-1)
#endif

constexpr float kUntouched = -7.0f;  // outputs' initial contents
constexpr int kSlack = 64;           // elements after an output that nothing may write

// copy2d_kernel (BM=16, BN=32): Y = 2 X + 1 inside (M, N), P the padded
// blocks with zeros. s1: the column strides 1 (the i32:1 signature).
void copy2d(Backend be, int opt, bool s1) {
    const int M = 37, N = 45, BM = 16, BN = 32;
    const int Mp = 48, Np = 64;  // the grid's blocks
    const int sxn = s1 ? 1 : 2, sxm = N * sxn + 3, syn = s1 ? 1 : 3, sym = N * syn + 2;
    Buf<float> x(ints<float>((size_t)M * sxm, 1)), y((size_t)M * sym + kSlack, kUntouched),
        p((size_t)Mp * Np, kUntouched);
    if (s1) RUN(be, opt, copy2d_s1, x.ptr(be), y.ptr(be), p.ptr(be), M, N, sxm, sxn, sym, syn, Np);
    else RUN(be, opt, copy2d, x.ptr(be), y.ptr(be), p.ptr(be), M, N, sxm, sxn, sym, syn, Np);
    y.fetch(be);
    p.fetch(be);
    std::vector<float> wy(y.h.size(), kUntouched), wp((size_t)Mp * Np, 0.0f);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float v = x.h[(size_t)i * sxm + (size_t)j * sxn];
            wy[(size_t)i * sym + (size_t)j * syn] = v * 2.0f + 1.0f;
            wp[(size_t)i * Np + j] = v;
        }
    (void)BM;
    (void)BN;
    expect_equal(y.h, wy, "copy2d Y");
    expect_equal(p.h, wp, "copy2d P (zero padding)");
}
void copy2d(Backend be, int opt) { copy2d(be, opt, false); }
void copy2d_s1(Backend be, int opt) { copy2d(be, opt, true); }

// pad_nan_kernel (BM=16, BN=32, grid 2 x 3): columns shifted left by
// `shift`, NaN outside [0, N).
void pad_nan(Backend be, int opt) {
    const int rows = 32, N = 70, shift = 5, sxm = N + 1, cols = 96;
    Buf<float> x(ints<float>((size_t)rows * sxm, 2)), p((size_t)rows * cols, kUntouched);
    RUN(be, opt, pad_nan, x.ptr(be), p.ptr(be), N, sxm, shift, cols);
    p.fetch(be);
    std::vector<float> want((size_t)rows * cols);
    for (int i = 0; i < rows; i++)
        for (int c = 0; c < cols; c++) {
            int col = c - shift;
            want[(size_t)i * cols + c] = col >= 0 && col < N ? x.h[(size_t)i * sxm + col] : NAN;
        }
    expect_equal(p.h, want, "pad_nan");
}

// scale1d_kernel (BLOCK=128): Y = 3 X - 1 on n elements.
void scale1d(Backend be, int opt) {
    const int n = 1000;
    Buf<float> x(ints<float>(n, 10)), y((size_t)n + kSlack, kUntouched);
    RUN(be, opt, scale1d, x.ptr(be), y.ptr(be), n);
    y.fetch(be);
    std::vector<float> want(y.h.size(), kUntouched);
    for (int i = 0; i < n; i++) want[i] = x.h[i] * 3.0f - 1.0f;
    expect_equal(y.h, want, "scale1d");
}

// fill_kernel (BM = BN = 16): a scalar stored inside (M, N) only.
void fill(Backend be, int opt) {
    const int M = 20, N = 37, sym = 40;
    const float value = 2.5f;
    Buf<float> y((size_t)M * sym + kSlack, kUntouched);
    RUN(be, opt, fill, y.ptr(be), M, N, sym, value);
    y.fetch(be);
    std::vector<float> want(y.h.size(), kUntouched);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) want[(size_t)i * sym + j] = value;
    expect_equal(y.h, want, "fill");
}

// matmul_kernel: C = A B with runtime strides (B column-major when bt).
template <typename Launch>
void matmul(int M, int N, int K, bool bt, Launch launch) {
    const int sbk = bt ? 1 : N, sbn = bt ? K : 1;
    Buf<float> a(ints<float>((size_t)M * K, 3)), b(ints<float>((size_t)K * N, 4)),
        c((size_t)M * N + kSlack, kUntouched);
    ASSERT_EQ(launch(a, b, c, M, N, K, K, 1, sbk, sbn, N, 1), 0) << mytriton_last_error();
    std::vector<float> want(c.h.size(), kUntouched);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float s = 0;
            for (int k = 0; k < K; k++)
                s += a.h[(size_t)i * K + k] * b.h[(size_t)k * sbk + (size_t)j * sbn];
            want[(size_t)i * N + j] = s;
        }
    expect_equal(c.h, want, "matmul");
}

#define MM_LAUNCH(name)                                                             \
    [be, opt](Buf<float> &a, Buf<float> &b, Buf<float> &c, auto... args) {          \
        int st_ = -1;                                                               \
        if (be == Backend::Host)                                                    \
            st_ = HOST_LAUNCH(opt, name, a.ptr(be), b.ptr(be), c.ptr(be), args...); \
        else if (be == Backend::Cuda)                                               \
            st_ = CUDA_LAUNCH(opt, name, a.ptr(be), b.ptr(be), c.ptr(be), args...); \
        else st_ = MLIR_LAUNCH(name, a.ptr(be), b.ptr(be), c.ptr(be), args...);     \
        c.fetch(be);                                                                \
        return st_;                                                                 \
    }

void matmul(Backend be, int opt) { matmul(37, 29, 45, false, MM_LAUNCH(matmul)); }
void matmul32(Backend be, int opt) {
    matmul(70, 50, 77, true, MM_LAUNCH(matmul32));
    matmul(64, 32, 32, false, MM_LAUNCH(matmul32));
}

// while_rowsum_kernel (BM=16, BN=32, int32): S[i] = sum_j X[i, j].
void while_rowsum(Backend be, int opt) {
    const int M = 37, N = 75, sxm = N + 2;
    Buf<int32_t> x(ints<int32_t>((size_t)M * sxm, 5)), s((size_t)M + kSlack, -1);
    RUN(be, opt, while_rowsum, x.ptr(be), s.ptr(be), M, N, sxm);
    s.fetch(be);
    std::vector<int32_t> want(s.h.size(), -1);
    for (int i = 0; i < M; i++) {
        int32_t acc = 0;
        for (int j = 0; j < N; j++) acc += x.h[(size_t)i * sxm + j];
        want[i] = acc;
    }
    expect_equal(s.h, want, "while_rowsum");
}

// helper_kernel (BM=16, BN=32): Y = X + X shifted one column left (0 past N).
void helper(Backend be, int opt) {
    const int M = 37, N = 45, sxm = 48, sym = 50;
    Buf<float> x(ints<float>((size_t)M * sxm, 6)), y((size_t)M * sym + kSlack, kUntouched);
    RUN(be, opt, helper, x.ptr(be), y.ptr(be), M, N, sxm, sym);
    y.fetch(be);
    std::vector<float> want(y.h.size(), kUntouched);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            want[(size_t)i * sym + j] =
                x.h[(size_t)i * sxm + j] + (j + 1 < N ? x.h[(size_t)i * sxm + j + 1] : 0.0f);
    expect_equal(y.h, want, "helper");
}

// view_kernel (BR = BC = 16): Y = the (R, C) view of X with strides
// (sr, sc): X's transpose (a (40, 23) row-major X seen as (23, 40)), then X
// itself.
template <typename Launch>
void view(Launch launch) {
    const int M = 40, N = 23;
    Buf<float> x(ints<float>((size_t)M * N, 7));
    for (int transposed = 1; transposed >= 0; transposed--) {
        const int R = transposed ? N : M, C = transposed ? M : N;
        const int sr = transposed ? 1 : N, sc = transposed ? N : 1;
        Buf<float> y((size_t)R * C + kSlack, kUntouched);
        ASSERT_EQ(launch(x, y, R, C, sr, sc, C), 0) << mytriton_last_error();
        std::vector<float> want(y.h.size(), kUntouched);
        for (int r = 0; r < R; r++)
            for (int c = 0; c < C; c++)
                want[(size_t)r * C + c] = x.h[(size_t)r * sr + (size_t)c * sc];
        expect_equal(y.h, want, transposed ? "view (transposed)" : "view");
    }
}

#define LAUNCHER(name)                                                                             \
    [be, opt](Buf<float> &x, Buf<float> &y, auto... args) {                                        \
        int st_ = -1;                                                                              \
        if (be == Backend::Host) st_ = HOST_LAUNCH(opt, name, x.ptr(be), y.ptr(be), args...);      \
        else if (be == Backend::Cuda) st_ = CUDA_LAUNCH(opt, name, x.ptr(be), y.ptr(be), args...); \
        else st_ = MLIR_LAUNCH(name, x.ptr(be), y.ptr(be), args...);                               \
        y.fetch(be);                                                                               \
        return st_;                                                                                \
    }

void view_r(Backend be, int opt) { view(LAUNCHER(view_r)); }
void view_c(Backend be, int opt) { view(LAUNCHER(view_c)); }

// if_kernel and if_advance_kernel (BM=8, BN=32): the first block of
// columns into Y's first BM rows, or with flip the second block (zero past
// N) into the next BM.
template <typename Launch>
void if_run(Launch launch) {
    const int BM = 8, BN = 32, N = 50, sxm = N + 1;
    Buf<float> x(ints<float>((size_t)BM * sxm, 8));
    for (int flip = 0; flip < 2; flip++) {
        Buf<float> y((size_t)2 * BM * BN, kUntouched);
        ASSERT_EQ(launch(x, y, N, sxm, flip), 0) << mytriton_last_error();
        std::vector<float> want(y.h.size(), kUntouched);
        for (int i = 0; i < BM; i++)
            for (int j = 0; j < BN; j++) {
                int col = j + flip * BN;
                want[(size_t)(i + flip * BM) * BN + j] =
                    col < N ? x.h[(size_t)i * sxm + col] : 0.0f;
            }
        expect_equal(y.h, want, flip ? "if (flip)" : "if");
    }
}

void if_(Backend be, int opt) { if_run(LAUNCHER(if)); }
void if_advance(Backend be, int opt) { if_run(LAUNCHER(if_advance)); }

// copy3d_kernel (blocks (2, 4, 8)): Y = X - 3 on (3, 7, 13).
void copy3d(Backend be, int opt) {
    const int A = 3, B = 7, C = 13, n = A * B * C;
    Buf<float> x(ints<float>(n, 9)), y((size_t)n + kSlack, kUntouched);
    RUN(be, opt, copy3d, x.ptr(be), y.ptr(be), A, B, C);
    y.fetch(be);
    std::vector<float> want(y.h.size(), kUntouched);
    for (int e = 0; e < n; e++) want[e] = x.h[e] - 3.0f;
    expect_equal(y.h, want, "copy3d");
}

// desc_abs_kernel (BM=16, BN=32): X = |X| in place on a ragged (37, 45).
void desc_abs(Backend be, int opt) {
    const int M = 37, N = 45;
    std::vector<float> init = ints<float>((size_t)M * N, 10);
    init.resize(init.size() + kSlack, kUntouched);
    Buf<float> x(init);
    RUN(be, opt, desc_abs, x.ptr(be), M, N);
    x.fetch(be);
    std::vector<float> want = init;
    for (int e = 0; e < M * N; e++) want[e] = std::fabs(init[e]);
    expect_equal(x.h, want, "desc_abs");
}

// desc_matmul_kernel (16 x 16 x 16): C = A B, all row-major, ragged.
void desc_matmul(Backend be, int opt) {
    const int M = 37, N = 29, K = 45;
    Buf<float> a(ints<float>((size_t)M * K, 3)), b(ints<float>((size_t)K * N, 4)),
        c((size_t)M * N + kSlack, kUntouched);
    RUN(be, opt, desc_matmul, a.ptr(be), b.ptr(be), c.ptr(be), M, N, K);
    c.fetch(be);
    std::vector<float> want(c.h.size(), kUntouched);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float s = 0;
            for (int k = 0; k < K; k++) s += a.h[(size_t)i * K + k] * b.h[(size_t)k * N + j];
            want[(size_t)i * N + j] = s;
        }
    expect_equal(c.h, want, "desc_matmul");
}

// desc_nan_kernel (blocks (2, 4, 8), 2 programs): program p reads the block
// at (2p - 1, 0, 2) of a (3, 3, 9) X, NaN outside it.
void desc_nan(Backend be, int opt) {
    const int A = 3, B = 3, C = 9, BA = 2, BB = 4, BC = 8;
    Buf<float> x(ints<float>((size_t)A * B * C, 11)),
        y((size_t)2 * BA * BB * BC + kSlack, kUntouched);
    RUN(be, opt, desc_nan, x.ptr(be), y.ptr(be), A, B, C);
    y.fetch(be);
    std::vector<float> want(y.h.size(), kUntouched);
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < BA; i++)
            for (int j = 0; j < BB; j++)
                for (int k = 0; k < BC; k++) {
                    int a = 2 * p - 1 + i, c = 2 + k;
                    bool in = a >= 0 && a < A && j < B && c < C;
                    want[(size_t)p * BA * BB * BC + (size_t)i * BB * BC + (size_t)j * BC + k] =
                        in ? x.h[(size_t)a * B * C + (size_t)j * C + c] : NAN;
                }
    expect_equal(y.h, want, "desc_nan");
}

// desc_atomic_kernel (BM=16, BN=32, two programs per block): Y += 2 X,
// Z = max(Z, 3 X) on a ragged (37, 45); the slack after them untouched.
void desc_atomic(Backend be, int opt) {
    const int M = 37, N = 45, n = M * N;
    Buf<float> x(ints<float>((size_t)n, 12));
    std::vector<float> y0 = ints<float>((size_t)n, 13);
    std::vector<int32_t> z0 = ints<int32_t>((size_t)n, 14);
    y0.resize(y0.size() + kSlack, kUntouched);
    z0.resize(z0.size() + kSlack, -7);
    Buf<float> y(y0);
    Buf<int32_t> z(z0);
    RUN(be, opt, desc_atomic, x.ptr(be), y.ptr(be), z.ptr(be), M, N);
    y.fetch(be);
    z.fetch(be);
    std::vector<float> wy = y0;
    std::vector<int32_t> wz = z0;
    for (int e = 0; e < n; e++) {
        wy[e] = y0[e] + 2.0f * x.h[e];
        wz[e] = std::max(z0[e], (int32_t)(x.h[e] * 3.0f));
    }
    expect_equal(y.h, wy, "desc_atomic (add)");
    expect_equal(z.h, wz, "desc_atomic (max)");
}

#if MT_BP_EMU
#define BP_CASE(name, fn)                          \
    TEST(Emu, name##_o1) { fn(Backend::Cuda, 1); } \
    TEST(Emu, name##_o2) { fn(Backend::Cuda, 2); }
#else
#define BP_CASE(name, fn)                           \
    TEST(Host, name##_o1) { fn(Backend::Host, 1); } \
    TEST(Host, name##_o2) { fn(Backend::Host, 2); } \
    TEST(Cuda, name##_o1) {                         \
        LANG_NEED_GPU();                            \
        fn(Backend::Cuda, 1);                       \
    }                                               \
    TEST(Cuda, name##_o2) {                         \
        LANG_NEED_GPU();                            \
        fn(Backend::Cuda, 2);                       \
    }                                               \
    TEST(Mlir, name) {                              \
        LANG_NEED_MLIR();                           \
        fn(Backend::Mlir, 1);                       \
    }
#endif

BP_CASE(copy2d, copy2d)
BP_CASE(copy2d_s1, copy2d_s1)
BP_CASE(pad_nan, pad_nan)
BP_CASE(scale1d, scale1d)
BP_CASE(fill, fill)
BP_CASE(matmul, matmul)
BP_CASE(matmul32, matmul32)
BP_CASE(while_rowsum, while_rowsum)
BP_CASE(helper, helper)
BP_CASE(view_r, view_r)
BP_CASE(view_c, view_c)
BP_CASE(if, if_)
BP_CASE(if_advance, if_advance)
BP_CASE(copy3d, copy3d)
BP_CASE(desc_abs, desc_abs)
BP_CASE(desc_matmul, desc_matmul)
BP_CASE(desc_nan, desc_nan)
BP_CASE(desc_atomic, desc_atomic)

}  // namespace
