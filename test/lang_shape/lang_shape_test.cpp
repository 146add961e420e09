// Shape ops (issue 13): the kernels of kernels/shape.py at -O1 and -O2 on
// the host backend (always) and CUDA (skipped without a GPU), against
// references written here. Every kernel runs one program over small
// deterministic inputs; outputs are compared exactly (the ops move
// elements; the arithmetic around them is exact in f32).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "mytriton/runtime.h"
#include "box_ref.h"
#include "gather_ref.h"
#include "ptr_ref.h"
#include "sort_ref.h"
#include "mytriton_lang_shape_kernels.h"
#if MT_SHAPE_MLIR
#include "mytriton_lang_shape_mlir.h"
#endif

#if MT_SHAPE_CUDA
#include <cuda_runtime_api.h>
#include "../support/gpu.h"
#endif

#define MT_LANG_CUDA MT_SHAPE_CUDA
#define MT_LANG_MLIR MT_SHAPE_MLIR
#include "../support/lang_buf.h"

namespace {

using mt_lang::Backend;
using mt_lang::Buf;

// Mlir: the MLIR backend's launchers (device memory, as Cuda).
std::vector<float> iota_f(size_t n, float scale, float add) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; i++) v[i] = (float)i * scale + add;
    return v;
}

// Buffers a kernel reads and writes: host vectors, copied to and from the
// device for the CUDA backend.
template <typename T>
void expect_equal(const std::vector<T> &got, const std::vector<T> &want, const char *what) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); i++) ASSERT_EQ(got[i], want[i]) << what << " at " << i;
}

// One launch: the host launchers return a mytriton status, the CUDA ones a
// cudaError_t; both are 0 on success.
#define RUN(b, opt, name, ...)                                                    \
    do {                                                                          \
        int st_ = -1;                                                             \
        if ((b) == Backend::Host)                                                 \
            st_ = (opt) == 1 ? (int)launch_shape_##name##_o1_host(__VA_ARGS__)    \
                             : (int)launch_shape_##name##_o2_host(__VA_ARGS__);   \
        else if ((b) == Backend::Cuda) st_ = CUDA_LAUNCH(opt, name, __VA_ARGS__); \
        else st_ = MLIR_LAUNCH(name, __VA_ARGS__);                                \
        ASSERT_EQ(st_, 0) << #name;                                               \
    } while (0)

#if MT_SHAPE_CUDA
#define CUDA_LAUNCH(opt, name, ...)                             \
    ((opt) == 1 ? (int)launch_shape_##name##_o1(0, __VA_ARGS__) \
                : (int)launch_shape_##name##_o2(0, __VA_ARGS__))
#else
#define CUDA_LAUNCH(opt, name, ...) (-1)
#endif
#if MT_SHAPE_MLIR
#define MLIR_LAUNCH(name, ...) ((int)launch_shape_##name##_m_mlir(0, __VA_ARGS__))
#else
#define MLIR_LAUNCH(name, ...) (-1)
#endif

void trans_tile(Backend b, int opt) {
    const int B = 16;
    Buf<float> x(iota_f(B * B, 1.5f, -3.0f)), y(std::vector<float>(B * B, -1.0f));
    RUN(b, opt, trans_tile, x.ptr(b), y.ptr(b));
    y.fetch(b);
    std::vector<float> want(B * B);
    for (int i = 0; i < B; i++)
        for (int j = 0; j < B; j++) want[i * B + j] = x.h[j * B + i];
    expect_equal(y.h, want, "trans_tile");
}

void trans_expr(Backend b, int opt) {
    const int B = 8;
    Buf<float> x(iota_f(B * B, 0.25f, 1.0f)), y(std::vector<float>(B * B, -1.0f));
    RUN(b, opt, trans_expr, x.ptr(b), y.ptr(b));
    y.fetch(b);
    std::vector<float> want(B * B);
    for (int i = 0; i < B; i++)
        for (int j = 0; j < B; j++) {
            float xt = x.h[j * B + i], xv = x.h[i * B + j];
            want[i * B + j] = xt * 2.0f + xv - xt + xt * 0.5f - xt;
        }
    expect_equal(y.h, want, "trans_expr");
}

void trans_rect(Backend b, int opt) {
    const int M = 8, N = 32;
    Buf<float> x(iota_f(M * N, 0.5f, -7.0f)), y(std::vector<float>(N * M, -1.0f)),
        z(std::vector<float>(N, -1.0f)), r(std::vector<float>(N * M, -1.0f));
    RUN(b, opt, trans_rect, x.ptr(b), y.ptr(b), z.ptr(b), r.ptr(b));
    y.fetch(b);
    z.fetch(b);
    r.fetch(b);
    std::vector<float> wy(N * M), wz(N, 0.0f);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) {
            wy[i * M + j] = x.h[j * N + i] * 2.0f + 1.0f;
            wz[i] += wy[i * M + j]; /* exact: small multiples of 0.5 */
        }
    expect_equal(y.h, wy, "trans_rect y");
    expect_equal(z.h, wz, "trans_rect z");
    expect_equal(r.h, x.h, "trans_rect reshape");
}

void both_ways(Backend b, int opt) {
    const int N = 16;
    Buf<float> x(iota_f(N * N, 0.5f, -3.0f)), y(std::vector<float>(N * N, -1.0f));
    RUN(b, opt, both_ways, x.ptr(b), y.ptr(b));
    y.fetch(b);
    std::vector<float> want(N * N);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) want[j * N + i] = x.h[i * N + j] * 2.0f + (float)(j + 1);
    expect_equal(y.h, want, "both_ways");
}

void shared_index(Backend b, int opt) {
    const int N = 16;
    Buf<float> x(iota_f(N * N, 0.5f, -3.0f)), y(std::vector<float>(N * N, -1.0f));
    RUN(b, opt, shared_index, x.ptr(b), y.ptr(b));
    y.fetch(b);
    std::vector<float> want(N * N);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) want[j * N + i] = x.h[i * N + j] * 2.0f + (float)j;
    expect_equal(y.h, want, "shared_index");
}

void reshape(Backend b, int opt) {
    const int R = 4, C = 8;
    Buf<int32_t> y(std::vector<int32_t>(2 * R * C, -5));
    RUN(b, opt, reshape, y.ptr(b));
    y.fetch(b);
    std::vector<int32_t> want(2 * R * C);
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) want[i * C + j] = (i * C + j) * 10 + i;
    for (int e = 0; e < R * C; e++) want[R * C + e] = e + 1;
    expect_equal(y.h, want, "reshape");
}

// join_kernel of N pairs; run(re, im, z) launches it
template <typename Run>
void join_at(Backend b, int N, Run run) {
    Buf<float> re(iota_f(N, 1.0f, 0.5f)), im(iota_f(N, -2.0f, 7.0f)),
        z(std::vector<float>(2 * N, -1.0f));
    run(re.ptr(b), im.ptr(b), z.ptr(b));
    z.fetch(b);
    std::vector<float> want(2 * N);
    for (int i = 0; i < N; i++) want[2 * i] = re.h[i], want[2 * i + 1] = im.h[i];
    expect_equal(z.h, want, "join");
}

void join(Backend b, int opt) {
    join_at(b, 32, [&](float *re, float *im, float *z) { RUN(b, opt, join, re, im, z); });
}

// N = 512: at -O2 a thread holds a row's two elements, so join stays in
// the thread (layout.c CONV_REGS)
void join_wide(Backend b, int opt) {
    join_at(b, 512, [&](float *re, float *im, float *z) { RUN(b, opt, join_wide, re, im, z); });
}

// split_kernel of N pairs; run(z, re, im) launches it
template <typename Run>
void split_at(Backend b, int N, Run run) {
    Buf<float> z(iota_f(2 * N, 0.5f, -4.0f)), re(std::vector<float>(2 * N, -1.0f)),
        im(std::vector<float>(N, -1.0f));
    run(z.ptr(b), re.ptr(b), im.ptr(b));
    re.fetch(b);
    im.fetch(b);
    std::vector<float> want_re(2 * N), want_im(N);
    for (int i = 0; i < N; i++) {
        float r = z.h[2 * i], m = z.h[2 * i + 1];
        want_re[i] = r, want_im[i] = m;
        want_re[N + i] = r * r + m * m;
    }
    expect_equal(re.h, want_re, "split re");
    expect_equal(im.h, want_im, "split im");
}

void split(Backend b, int opt) {
    split_at(b, 32, [&](float *z, float *re, float *im) { RUN(b, opt, split, z, re, im); });
}

void split_wide(Backend b, int opt) {
    split_at(b, 512, [&](float *z, float *re, float *im) { RUN(b, opt, split_wide, z, re, im); });
}

// tl.interleave of a and 2 b, then a reshape to (N, 2) and tl.split
void interleave(Backend b, int opt) {
    const int N = 512;
    Buf<float> x(iota_f(N, 0.25f, -30.0f)), y(iota_f(N, -0.5f, 11.0f)),
        z(std::vector<float>(2 * N, -1.0f)), w(std::vector<float>(N, -1.0f));
    RUN(b, opt, interleave, x.ptr(b), y.ptr(b), z.ptr(b), w.ptr(b));
    z.fetch(b);
    w.fetch(b);
    std::vector<float> want_z(2 * N), want_w(N);
    for (int i = 0; i < N; i++) {
        want_z[2 * i] = x.h[i];
        want_z[2 * i + 1] = y.h[i] * 2.0f;
        want_w[i] = y.h[i] * 2.0f - x.h[i];
    }
    expect_equal(z.h, want_z, "interleave");
    expect_equal(w.h, want_w, "interleave split");
}

// tl.gather along axis 0 (an (R2, C) index into an (R, C) block, the
// result larger than the source), along axis 1 (an (R, C2) i64 index), of
// one row as flash-linear-attention writes it, and of a vector (i16).
void gather(Backend b, int opt) {
    GatherCase g(8, 16, 32, 4);
    Buf<float> x(g.x), rows(std::vector<float>(g.rows.size(), -1.0f)),
        cols(std::vector<float>(g.cols.size(), -1.0f)),
        one(std::vector<float>(g.one.size(), -1.0f)), vec(std::vector<float>(g.vec.size(), -1.0f));
    Buf<int32_t> ib(g.i);
    Buf<int64_t> jb(g.j);
    Buf<int16_t> kb(g.k);
    RUN(b, opt, gather, x.ptr(b), ib.ptr(b), jb.ptr(b), kb.ptr(b), rows.ptr(b), cols.ptr(b),
        one.ptr(b), vec.ptr(b));
    rows.fetch(b);
    cols.fetch(b);
    one.fetch(b);
    vec.fetch(b);
    expect_equal(rows.h, g.rows, "gather along axis 0");
    expect_equal(cols.h, g.cols, "gather along axis 1");
    expect_equal(one.h, g.one, "gather of one row");
    expect_equal(vec.h, g.vec, "gather of a vector");
}

// tl.cat: Triton leaves the order of the elements open, so the result is
// compared as a multiset, and reductions of it exactly
std::vector<float> sorted(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v;
}

void cat(Backend b, int opt) {
    const int N = 32;
    Buf<float> x(iota_f(N, 0.5f, -7.0f)), y(iota_f(N, -2.0f, 3.0f)),
        z(std::vector<float>(2 * N, -1.0f)), s(std::vector<float>(2, -1.0f));
    RUN(b, opt, cat, x.ptr(b), y.ptr(b), z.ptr(b), s.ptr(b));
    z.fetch(b);
    s.fetch(b);
    std::vector<float> want(x.h);
    want.insert(want.end(), y.h.begin(), y.h.end());
    expect_equal(sorted(z.h), sorted(want), "cat");
    float most = want[0];
    for (float v : want) most = std::max(most, v);
    EXPECT_EQ(s.h[0], most);
    double sq = 0; /* (small integers and halves: exact in any order) */
    for (float v : want) sq += (double)v * v;
    EXPECT_EQ(s.h[1], (float)sq);
}

// standard.py's swizzle2d, written out
void swizzle_ref(int i, int j, int size_i, int size_j, int size_g, int *ni, int *nj) {
    int ij = i * size_j + j, size_gj = size_g * size_j, off_i = ij / size_gj * size_g;
    int g = size_i - off_i < size_g ? size_i - off_i : size_g;
    ij %= size_gj;
    *ni = off_i + ij % g;
    *nj = ij / g;
}

// tl.swizzle2d over a 7 x 5 grid in groups of 3 rows (the last group of 1)
void swizzle(Backend b, int opt) {
    const int M = 7, N = 5, P = M * N;
    Buf<int32_t> out(std::vector<int32_t>(2 * P, -1));
    RUN(b, opt, swizzle, out.ptr(b), M, N);
    out.fetch(b);
    std::vector<int32_t> want(2 * P);
    int a, c;
    swizzle_ref(5, 3, 7, 4, 3, &a, &c);
    for (int p = 0; p < P; p++) {
        int ni, nj;
        swizzle_ref(p / N, p % N, M, N, 3, &ni, &nj);
        want[2 * p] = ni + a * 1000;
        want[2 * p + 1] = nj + c * 1000;
    }
    expect_equal(out.h, want, "swizzle");
}

void broadcast(Backend b, int opt) {
    const int R = 4, C = 16;
    Buf<float> x(iota_f(C, 3.0f, 0.25f)), y(std::vector<float>(R * C, -1.0f));
    RUN(b, opt, broadcast, x.ptr(b), y.ptr(b));
    y.fetch(b);
    std::vector<float> want(R * C);
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) want[i * C + j] = x.h[j] + (float)(i * 100) + 3.0f;
    expect_equal(y.h, want, "broadcast");
}

void broadcast_ptr(Backend b, int opt) {
    const int R = 8, C = 16;
    Buf<float> x(iota_f(R + C, 2.0f, -0.75f)), y(std::vector<float>(R * C, -1.0f));
    RUN(b, opt, broadcast_ptr, x.ptr(b), y.ptr(b));
    y.fetch(b);
    std::vector<float> want(R * C);
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) want[i * C + j] = x.h[i] * 2 + x.h[R + j] - x.h[0] * 0.5f;
    expect_equal(y.h, want, "broadcast_ptr");
}

// Blocks of pointers through shape ops and tl.where (issue 51).
void ptr_shape(Backend b, int opt) {
    const int R = 16, C = 16;
    Buf<float> x(iota_f(R * C, 0.5f, -31.0f)), y(std::vector<float>(7 * R * C, -1.0f));
    RUN(b, opt, ptr_shape, x.ptr(b), y.ptr(b));
    y.fetch(b);
    expect_equal(y.h, ptr_ref::ptr_shape(x.h, R, C), "ptr_shape");
}

void ptr_trans(Backend b, int opt) {
    const int M = 8, N = 32;
    Buf<float> x(iota_f(M * N, 0.25f, -9.0f)), y(std::vector<float>(N * M, -1.0f));
    RUN(b, opt, ptr_trans, x.ptr(b), y.ptr(b));
    y.fetch(b);
    expect_equal(y.h, ptr_ref::ptr_trans(x.h, M, N), "ptr_trans");
}

void ptr_where(Backend b, int opt) {
    const int N = 32;
    for (int flag : {1, 0, -3}) {
        Buf<float> x(iota_f(2 * N, 1.0f, 0.5f)), y(iota_f(2 * N, -1.0f, -0.25f)),
            z(std::vector<float>(6 * N, -1.0f)), w(std::vector<float>(N, -1.0f));
        RUN(b, opt, ptr_where, x.ptr(b), y.ptr(b), z.ptr(b), w.ptr(b), flag);
        z.fetch(b);
        w.fetch(b);
        std::vector<float> wz(6 * N, -1.0f), ww(N, -1.0f);
        ptr_ref::ptr_where(x.h, y.h, flag, N, &wz, &ww);
        expect_equal(z.h, wz, flag > 0 ? "ptr_where Z (flag 1)" : "ptr_where Z (flag <= 0)");
        expect_equal(w.h, ww, flag > 0 ? "ptr_where W (flag 1)" : "ptr_where W (flag <= 0)");
    }
}

void loop(Backend b, int opt) {
    const int B = 8, n = 3;
    Buf<float> x(iota_f((size_t)n * B * B, 1.0f, -50.0f)), y(std::vector<float>(2 * B * B, -1.0f));
    RUN(b, opt, loop, x.ptr(b), y.ptr(b), n);
    y.fetch(b);
    std::vector<float> want(2 * B * B, 0.0f);
    for (int k = 0; k < n; k++)
        for (int i = 0; i < B; i++)
            for (int j = 0; j < B; j++) {
                want[i * B + j] += x.h[k * B * B + j * B + i] * (float)(k + 1);
                want[B * B + i * B + j] += x.h[k * B * B + i * B + j] * (float)(k + 1);
            }
    expect_equal(y.h, want, "loop");
}

void loop_pairs(Backend b, int opt) {
    const int N = 16, n = 4;
    Buf<float> z(iota_f((size_t)n * 2 * N, 0.5f, -9.0f)), y(std::vector<float>(2 * N, -1.0f));
    RUN(b, opt, loop_pairs, z.ptr(b), y.ptr(b), n);
    y.fetch(b);
    std::vector<float> want(2 * N, 0.0f);
    for (int k = 0; k < n; k++)
        for (int i = 0; i < N; i++) {
            want[2 * i] += z.h[k * 2 * N + 2 * i + 1];
            want[2 * i + 1] += z.h[k * 2 * N + 2 * i];
        }
    expect_equal(y.h, want, "loop_pairs");
}

}  // namespace

// The bits of floats (NaN compared as bits too).
void expect_same_bits(const std::vector<float> &got, const std::vector<float> &want,
                      const char *what) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); i++)
        ASSERT_EQ(f32_bits(got[i]), f32_bits(want[i]))
            << what << " at " << i << ": got " << got[i] << ", want " << want[i];
}

void sort(Backend b, int opt) {
    const int R = 4, C = 16;
    Buf<float> x(sort_input(R * C)), a(std::vector<float>(R * C, -1.0f)),
        d(std::vector<float>(R * C, -1.0f)), f(std::vector<float>(R * C, -1.0f)),
        g(std::vector<float>(R * C, -1.0f));
    RUN(b, opt, sort, x.ptr(b), a.ptr(b), d.ptr(b), f.ptr(b), g.ptr(b));
    a.fetch(b);
    d.fetch(b);
    f.fetch(b);
    g.fetch(b);
    std::vector<float> wa, wd, wf(R * C), wg(R * C);
    for (int r = 0; r < R; r++) {
        auto sa = bitonic_ref(row_of(x.h, r, C), false), sd = bitonic_ref(row_of(x.h, r, C), true);
        wa.insert(wa.end(), sa.begin(), sa.end());
        wd.insert(wd.end(), sd.begin(), sd.end());
        for (int c = 0; c < C; c++) {
            wf[r * C + c] = x.h[r * C + (C - 1 - c)];
            wg[r * C + c] = x.h[(R - 1 - r) * C + c];
        }
    }
    expect_same_bits(a.h, wa, "sort");
    expect_same_bits(d.h, wd, "sort descending");
    expect_same_bits(f.h, wf, "flip dim 1");
    expect_same_bits(g.h, wg, "flip dim 0");
}

void sort_vec(Backend b, int opt) {
    const int N = 256;
    std::vector<int32_t> iv(N);
    for (int k = 0; k < N; k++) iv[k] = (k * 7919) % 97 - 48;
    Buf<float> x(iota_f(N, 0.0f, 0.0f)), a(std::vector<float>(N, -1.0f));
    for (int k = 0; k < N; k++) x.h[k] = (float)((k * 131) % 251) * 0.5f - 60.0f;
    Buf<int32_t> i(iv), j(std::vector<int32_t>(N, -1)), kk(std::vector<int32_t>(N, -1));
    RUN(b, opt, sort_vec, x.ptr(b), a.ptr(b), i.ptr(b), j.ptr(b), kk.ptr(b));
    a.fetch(b);
    j.fetch(b);
    kk.fetch(b);
    auto wa = x.h;
    std::sort(wa.begin(), wa.end(), [](float p, float q) { return p > q; });
    expect_same_bits(a.h, wa, "sort descending");
    auto wj = iv;
    std::sort(wj.begin(), wj.end());
    expect_equal(j.h, wj, "sort i32");
    std::vector<int32_t> wk(N);
    for (int k = 0; k < N; k++) wk[k] = wj[N - 1 - k] + 1;
    expect_equal(kk.h, wk, "flip of the sort");
}

// Bounding boxes of more than 1024 elements (kernels/box.py), -O2 alone:
// the blocked emitter spreads the box over the threads.
#if MT_SHAPE_CUDA
#define CUDA_LAUNCH_O2(name, ...) ((int)launch_shape_##name##_o2(0, __VA_ARGS__))
#else
#define CUDA_LAUNCH_O2(name, ...) (-1)
#endif
#define RUN_O2(b, name, ...)                                                             \
    do {                                                                                 \
        int st_ = (b) == Backend::Host ? (int)launch_shape_##name##_o2_host(__VA_ARGS__) \
                                       : CUDA_LAUNCH_O2(name, __VA_ARGS__);              \
        ASSERT_EQ(st_, 0) << #name;                                                      \
    } while (0)

// trans_box_kernel (box_ref.h): a ragged corner transposed, its row sums
// and cumulative sums down the columns
template <typename Launch>
void trans_box(Backend b, int M, int N, Launch launch) {
    const int m = M - 3, n = N - 5;
    Buf<float> x(iota_f((size_t)M * N, 0.5f, -100.0f)), y(std::vector<float>((size_t)N * M, -7.0f)),
        sums(std::vector<float>(N, -7.0f)), cums(std::vector<float>((size_t)N * M, -7.0f));
    ASSERT_EQ(launch(x.ptr(b), y.ptr(b), sums.ptr(b), cums.ptr(b), m, n), 0);
    y.fetch(b);
    sums.fetch(b);
    cums.fetch(b);
    box_ref::TransBox w = box_ref::trans_box(x.h, M, N, m, n, -7.0f);
    expect_equal(y.h, w.y, "trans_box y");
    expect_equal(sums.h, w.sums, "trans_box row sums");
    expect_equal(cums.h, w.cums, "trans_box cumsum");
}

// reshape_box_kernel (box_ref.h)
template <typename Launch>
void reshape_box(Backend b, int R, int C, int R2, int C2, Launch launch) {
    Buf<float> x(iota_f((size_t)R * C, 0.25f, -300.0f)),
        y(std::vector<float>((size_t)R2 * C2, -1.0f));
    ASSERT_EQ(launch(x.ptr(b), y.ptr(b)), 0);
    y.fetch(b);
    expect_equal(y.h, box_ref::reshape_box(x.h, R2, C2), "reshape_box");
}

// join_split_box_kernel (box_ref.h)
void join_split_box(Backend b) {
    const int N = 1024, n = 1000;
    Buf<float> z(iota_f(2 * N, 0.5f, -500.0f)), w(std::vector<float>(2 * N, -1.0f)),
        t(iota_f(8, 1.0f, 3.0f)), u(std::vector<float>(8, -1.0f));
    RUN_O2(b, join_split_box, z.ptr(b), w.ptr(b), t.ptr(b), u.ptr(b), n);
    w.fetch(b);
    u.fetch(b);
    std::vector<float> ww, wu;
    box_ref::join_split_box(z.h, t.h, N, n, -1.0f, &ww, &wu);
    expect_equal(w.h, ww, "join_split_box pairs");
    expect_equal(u.h, wu, "join_split_box transpose");
}

#define BOX_LAUNCH(name)                                                        \
    [b](auto... args) {                                                         \
        return b == Backend::Host ? (int)launch_shape_##name##_o2_host(args...) \
                                  : CUDA_LAUNCH_O2(name, args...);              \
    }

void trans_box_a(Backend b) { trans_box(b, 32, 128, BOX_LAUNCH(trans_box_a)); }
void trans_box_b(Backend b) { trans_box(b, 128, 64, BOX_LAUNCH(trans_box_b)); }
void reshape_box_a(Backend b) { reshape_box(b, 64, 64, 32, 128, BOX_LAUNCH(reshape_box_a)); }
void reshape_box_b(Backend b) { reshape_box(b, 128, 32, 64, 64, BOX_LAUNCH(reshape_box_b)); }

#define BOX_CASE(name)                             \
    TEST(Host, name##_o2) { name(Backend::Host); } \
    TEST(Cuda, name##_o2) {                        \
        LANG_NEED_GPU();                           \
        name(Backend::Cuda);                       \
    }

#define SHAPE_CASE(name)                              \
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

SHAPE_CASE(trans_tile)
SHAPE_CASE(gather)
SHAPE_CASE(trans_expr)
SHAPE_CASE(trans_rect)
SHAPE_CASE(both_ways)
SHAPE_CASE(shared_index)
SHAPE_CASE(reshape)
SHAPE_CASE(join)
SHAPE_CASE(split)
SHAPE_CASE(join_wide)
SHAPE_CASE(split_wide)
SHAPE_CASE(interleave)
SHAPE_CASE(cat)
SHAPE_CASE(swizzle)
SHAPE_CASE(broadcast)
SHAPE_CASE(broadcast_ptr)
SHAPE_CASE(ptr_shape)
SHAPE_CASE(ptr_trans)
SHAPE_CASE(ptr_where)
SHAPE_CASE(loop)
SHAPE_CASE(loop_pairs)
SHAPE_CASE(sort)
SHAPE_CASE(sort_vec)
BOX_CASE(trans_box_a)
BOX_CASE(trans_box_b)
BOX_CASE(reshape_box_a)
BOX_CASE(reshape_box_b)
BOX_CASE(join_split_box)
