// Shape ops (issue 13) through the CPU emulation of CUDA: the kernels of
// ../lang_shape/kernels/shape.py at -O1 and -O2 (their __shared__
// exchanges and __syncthreads), against references written here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "../lang_shape/box_ref.h"
#include "../lang_shape/gather_ref.h"
#include "../lang_shape/ptr_ref.h"
#include "../lang_shape/sort_ref.h"

#include "shbcast_o1.h"
#include "shbcast_o2.h"
#include "shboth_o1.h"
#include "shboth_o2.h"
#include "shshared_o1.h"
#include "shshared_o2.h"
#include "shjoin_o1.h"
#include "shjoin_o2.h"
#include "shjoinw_o2.h"
#include "shinter_o1.h"
#include "shinter_o2.h"
#include "shcat_o1.h"
#include "shcat_o2.h"
#include "shgather_big_o2.h"
#include "shgather_o1.h"
#include "shgather_o2.h"
#include "shloop_o1.h"
#include "shloop_o2.h"
#include "shpairs_o1.h"
#include "shpairs_o2.h"
#include "shptrs_o1.h"
#include "shptrs_o2.h"
#include "shptrt_o1.h"
#include "shptrt_o2.h"
#include "shptrw_o1.h"
#include "shptrw_o2.h"
#include "shreshape_o1.h"
#include "shreshape_o2.h"
#include "shsplit_o1.h"
#include "shsplit_o2.h"
#include "shsplitw_o2.h"
#include "shsort_o1.h"
#include "shsort_o2.h"
#include "shsort_big_o2.h"
#include "shsortvec_o1.h"
#include "shsortvec_o2.h"
#include "shjsbox_o2.h"
#include "shrowbox_o2.h"
#include "shrbox_a_o2.h"
#include "shrbox_b_o2.h"
#include "shtbox_a_o2.h"
#include "shtbox_b_o2.h"
#include "shtbox_w8_o2.h"
#include "shtexpr_o1.h"
#include "shtexpr_o2.h"
#include "shtrect_o1.h"
#include "shtrect_o2.h"
#include "shtrans_big_o2.h"
#include "shtrans_o1.h"
#include "shtrans_o2.h"

namespace {

std::vector<float> iota_f(size_t n, float scale, float add) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; i++) v[i] = (float)i * scale + add;
    return v;
}

using Un = cudaError_t (*)(cudaStream_t, const float *, float *);
using Tri = cudaError_t (*)(cudaStream_t, const float *, const float *, float *);
using Split = cudaError_t (*)(cudaStream_t, const float *, float *, float *);

}  // namespace

TEST(EmuShape, TransTile) {
    struct {
        Un f;
        int B;
    } cases[] = {{launch_shtrans_o1, 16}, {launch_shtrans_o2, 16}, {launch_shtrans_big_o2, 64}};
    for (auto c : cases) {
        int B = c.B;
        auto x = iota_f((size_t)B * B, 0.5f, -7.0f);
        std::vector<float> y((size_t)B * B, -1.0f);
        ASSERT_EQ(c.f(0, x.data(), y.data()), cudaSuccess);
        for (int i = 0; i < B; i++)
            for (int j = 0; j < B; j++)
                ASSERT_EQ(y[i * B + j], x[j * B + i]) << B << " " << i << " " << j;
    }
}

TEST(EmuShape, TransInExpression) {
    const int B = 8;
    for (Un f : {launch_shtexpr_o1, launch_shtexpr_o2}) {
        auto x = iota_f(B * B, 0.25f, 1.0f);
        std::vector<float> y(B * B, -1.0f);
        ASSERT_EQ(f(0, x.data(), y.data()), cudaSuccess);
        for (int i = 0; i < B; i++)
            for (int j = 0; j < B; j++) {
                float xt = x[j * B + i], xv = x[i * B + j];
                ASSERT_EQ(y[i * B + j], xt * 2.0f + xv - xt + xt * 0.5f - xt) << i << " " << j;
            }
    }
}

// A (8, 32) tile's transpose and reshape to (32, 8): the shapes do not
// broadcast, so the tile is their (32, 32) bounding box and each block lives
// in the threads inside its own shape (the exchange positions are the
// blocks' own, not the box's).
TEST(EmuShape, TransposeOfRectangle) {
    const int M = 8, N = 32;
    for (auto f : {launch_shtrect_o1, launch_shtrect_o2}) {
        auto x = iota_f(M * N, 0.5f, -7.0f);
        std::vector<float> y(N * M, -1.0f), z(N, -1.0f), r(N * M, -1.0f);
        ASSERT_EQ(f(0, x.data(), y.data(), z.data(), r.data()), cudaSuccess);
        for (int i = 0; i < N; i++) {
            float sum = 0.0f;
            for (int j = 0; j < M; j++) {
                float want = x[j * N + i] * 2.0f + 1.0f;
                sum += want;
                ASSERT_EQ(y[i * M + j], want) << i << " " << j;
            }
            ASSERT_EQ(z[i], sum) << i;
        }
        for (int e = 0; e < M * N; e++) ASSERT_EQ(r[e], x[e]) << e;
    }
}

// An index block used as both the rows and the columns of one tile.
TEST(EmuShape, IndexBlockBothWays) {
    const int N = 16;
    for (Un f : {launch_shboth_o1, launch_shboth_o2}) {
        auto x = iota_f(N * N, 0.5f, -3.0f);
        std::vector<float> y(N * N, -1.0f);
        ASSERT_EQ(f(0, x.data(), y.data()), cudaSuccess);
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                ASSERT_EQ(y[j * N + i], x[i * N + j] * 2.0f + (float)(j + 1)) << i << " " << j;
    }
}

// Index blocks of the rows and of the columns that share a subexpression
// (an arange cast to int64): the rows' chain is copied whole.
TEST(EmuShape, IndexBlocksSharingASubexpression) {
    const int N = 16;
    for (Un f : {launch_shshared_o1, launch_shshared_o2}) {
        auto x = iota_f(N * N, 0.5f, -3.0f);
        std::vector<float> y(N * N, -1.0f);
        ASSERT_EQ(f(0, x.data(), y.data()), cudaSuccess);
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                ASSERT_EQ(y[j * N + i], x[i * N + j] * 2.0f + (float)j) << i << " " << j;
    }
}

TEST(EmuShape, ReshapeRoundTrip) {
    const int R = 4, C = 8;
    for (auto f : {launch_shreshape_o1, launch_shreshape_o2}) {
        std::vector<int32_t> y(2 * R * C, -5);
        ASSERT_EQ(f(0, y.data()), cudaSuccess);
        for (int i = 0; i < R; i++)
            for (int j = 0; j < C; j++) ASSERT_EQ(y[i * C + j], (i * C + j) * 10 + i);
        for (int e = 0; e < R * C; e++) ASSERT_EQ(y[R * C + e], e + 1);
    }
}

TEST(EmuShape, JoinInterleaves) {
    for (auto [f, N] : {std::pair<Tri, int>{launch_shjoin_o1, 32},
                        {launch_shjoin_o2, 32},
                        {launch_shjoinw_o2, 512}}) {
        auto re = iota_f(N, 1.0f, 0.5f), im = iota_f(N, -2.0f, 7.0f);
        std::vector<float> z(2 * N, -1.0f);
        ASSERT_EQ(f(0, re.data(), im.data(), z.data()), cudaSuccess);
        for (int i = 0; i < N; i++) {
            ASSERT_EQ(z[2 * i], re[i]);
            ASSERT_EQ(z[2 * i + 1], im[i]);
        }
    }
}

TEST(EmuShape, SplitDeinterleaves) {
    for (auto [f, N] : {std::pair<Split, int>{launch_shsplit_o1, 32},
                        {launch_shsplit_o2, 32},
                        {launch_shsplitw_o2, 512}}) {
        auto z = iota_f(2 * N, 0.5f, -4.0f);
        std::vector<float> re(2 * N, -1.0f), im(N, -1.0f);
        ASSERT_EQ(f(0, z.data(), re.data(), im.data()), cudaSuccess);
        for (int i = 0; i < N; i++) {
            float r = z[2 * i], m = z[2 * i + 1];
            ASSERT_EQ(re[i], r);
            ASSERT_EQ(im[i], m);
            ASSERT_EQ(re[N + i], r * r + m * m);
        }
    }
}

// tl.interleave (join and a reshape) and its inverse (a reshape and split)
TEST(EmuShape, InterleaveAndBack) {
    const int N = 512;
    using Quad = cudaError_t (*)(cudaStream_t, const float *, const float *, float *, float *);
    for (Quad f : {launch_shinter_o1, launch_shinter_o2}) {
        auto a = iota_f(N, 0.25f, -30.0f), b = iota_f(N, -0.5f, 11.0f);
        std::vector<float> z(2 * N, -1.0f), w(N, -1.0f);
        ASSERT_EQ(f(0, a.data(), b.data(), z.data(), w.data()), cudaSuccess);
        for (int i = 0; i < N; i++) {
            ASSERT_EQ(z[2 * i], a[i]);
            ASSERT_EQ(z[2 * i + 1], b[i] * 2.0f);
            ASSERT_EQ(w[i], b[i] * 2.0f - a[i]);
        }
    }
}

// tl.cat: a join and a reshape (Triton leaves the order open: the
// elements compared as a multiset)
TEST(EmuShape, Cat) {
    const int N = 32;
    using Four = cudaError_t (*)(cudaStream_t, const float *, const float *, float *, float *);
    for (Four f : {launch_shcat_o1, launch_shcat_o2}) {
        auto x = iota_f(N, 0.5f, -7.0f), y = iota_f(N, -2.0f, 3.0f);
        std::vector<float> z(2 * N, -1.0f), s(2, -1.0f), want(x);
        ASSERT_EQ(f(0, x.data(), y.data(), z.data(), s.data()), cudaSuccess);
        want.insert(want.end(), y.begin(), y.end());
        std::sort(z.begin(), z.end());
        std::sort(want.begin(), want.end());
        ASSERT_EQ(z, want);
        ASSERT_EQ(s[0], want.back());
    }
}

TEST(EmuShape, Gather) {
    using Gather = cudaError_t (*)(cudaStream_t, const float *, const int32_t *, const int64_t *,
                                   const int16_t *, float *, float *, float *, float *);
    struct {
        Gather f;
        int R, C, R2, C2;
    } cases[] = {{launch_shgather_o1, 8, 16, 32, 4},
                 {launch_shgather_o2, 8, 16, 32, 4},
                 {launch_shgather_big_o2, 32, 64, 64, 16}};
    for (auto c : cases) {
        GatherCase g(c.R, c.C, c.R2, c.C2);
        std::vector<float> rows(g.rows.size(), -1.0f), cols(g.cols.size(), -1.0f),
            one(g.one.size(), -1.0f), vec(g.vec.size(), -1.0f);
        ASSERT_EQ(c.f(0, g.x.data(), g.i.data(), g.j.data(), g.k.data(), rows.data(), cols.data(),
                      one.data(), vec.data()),
                  cudaSuccess);
        EXPECT_EQ(rows, g.rows) << "axis 0, R=" << c.R;
        EXPECT_EQ(cols, g.cols) << "axis 1, R=" << c.R;
        EXPECT_EQ(one, g.one) << "one row, R=" << c.R;
        EXPECT_EQ(vec, g.vec) << "vector, R=" << c.R;
    }
}

TEST(EmuShape, BroadcastTo) {
    const int R = 4, C = 16;
    for (Un f : {launch_shbcast_o1, launch_shbcast_o2}) {
        auto x = iota_f(C, 3.0f, 0.25f);
        std::vector<float> y(R * C, -1.0f);
        ASSERT_EQ(f(0, x.data(), y.data()), cudaSuccess);
        for (int i = 0; i < R; i++)
            for (int j = 0; j < C; j++) ASSERT_EQ(y[i * C + j], x[j] + (float)(i * 100) + 3.0f);
    }
}

// Blocks of pointers through shape ops and tl.where (issue 51).
TEST(EmuShape, PointerShapes) {
    const int R = 16, C = 16;
    for (Un f : {launch_shptrs_o1, launch_shptrs_o2}) {
        auto x = iota_f(R * C, 0.5f, -31.0f);
        std::vector<float> y(7 * R * C, -1.0f);
        ASSERT_EQ(f(0, x.data(), y.data()), cudaSuccess);
        EXPECT_EQ(y, ptr_ref::ptr_shape(x, R, C));
    }
    const int M = 8, N = 32;
    for (Un f : {launch_shptrt_o1, launch_shptrt_o2}) {
        auto x = iota_f(M * N, 0.25f, -9.0f);
        std::vector<float> y(N * M, -1.0f);
        ASSERT_EQ(f(0, x.data(), y.data()), cudaSuccess);
        EXPECT_EQ(y, ptr_ref::ptr_trans(x, M, N));
    }
}

TEST(EmuShape, PointerWhere) {
    // (X and Y not const: their addresses are chosen, and the kernel writes
    // through a chosen pointer)
    using Where = cudaError_t (*)(cudaStream_t, float *, float *, float *, float *, int32_t);
    const int N = 32;
    for (Where f : {launch_shptrw_o1, launch_shptrw_o2})
        for (int flag : {1, 0, -3}) {
            auto x = iota_f(2 * N, 1.0f, 0.5f), y = iota_f(2 * N, -1.0f, -0.25f);
            std::vector<float> z(6 * N, -1.0f), w(N, -1.0f), wz = z, ww = w;
            ASSERT_EQ(f(0, x.data(), y.data(), z.data(), w.data(), flag), cudaSuccess);
            ptr_ref::ptr_where(x, y, flag, N, &wz, &ww);
            EXPECT_EQ(z, wz) << "flag " << flag;
            EXPECT_EQ(w, ww) << "flag " << flag;
        }
}

TEST(EmuShape, InRuntimeLoops) {
    using Loop = cudaError_t (*)(cudaStream_t, const float *, float *, int32_t);
    for (Loop f : {launch_shloop_o1, launch_shloop_o2}) {
        const int B = 8, n = 3;
        auto x = iota_f((size_t)n * B * B, 1.0f, -50.0f);
        std::vector<float> y(2 * B * B, -1.0f), want(2 * B * B, 0.0f);
        ASSERT_EQ(f(0, x.data(), y.data(), n), cudaSuccess);
        for (int k = 0; k < n; k++)
            for (int i = 0; i < B; i++)
                for (int j = 0; j < B; j++) {
                    want[i * B + j] += x[k * B * B + j * B + i] * (float)(k + 1);
                    want[B * B + i * B + j] += x[k * B * B + i * B + j] * (float)(k + 1);
                }
        for (int e = 0; e < 2 * B * B; e++) ASSERT_EQ(y[e], want[e]) << e;
    }
    for (Loop f : {launch_shpairs_o1, launch_shpairs_o2}) {
        const int N = 16, n = 4;
        auto z = iota_f((size_t)n * 2 * N, 0.5f, -9.0f);
        std::vector<float> y(2 * N, -1.0f), want(2 * N, 0.0f);
        ASSERT_EQ(f(0, z.data(), y.data(), n), cudaSuccess);
        for (int k = 0; k < n; k++)
            for (int i = 0; i < N; i++) {
                want[2 * i] += z[k * 2 * N + 2 * i + 1];
                want[2 * i + 1] += z[k * 2 * N + 2 * i];
            }
        for (int e = 0; e < 2 * N; e++) ASSERT_EQ(y[e], want[e]) << e;
    }
}

// tl.sort and tl.flip: log2(n) (log2(n) + 1) / 2 exchanges through one
// shared buffer per dtype (Triton's bitonic network, bit for bit)
TEST(EmuShape, SortAndFlip) {
    using Sort = cudaError_t (*)(cudaStream_t, const float *, float *, float *, float *, float *);
    struct {
        Sort f;
        int R, C;
    } cases[] = {
        {launch_shsort_o1, 4, 16}, {launch_shsort_o2, 4, 16}, {launch_shsort_big_o2, 32, 128}};
    for (auto k : cases) {
        Sort f = k.f;
        const int R = k.R, C = k.C;
        auto x = sort_input(R * C);
        std::vector<float> a(R * C, -1.0f), d(R * C, -1.0f), fl(R * C, -1.0f), g(R * C, -1.0f);
        ASSERT_EQ(f(0, x.data(), a.data(), d.data(), fl.data(), g.data()), cudaSuccess);
        for (int r = 0; r < R; r++) {
            auto sa = bitonic_ref(row_of(x, r, C), false), sd = bitonic_ref(row_of(x, r, C), true);
            for (int c = 0; c < C; c++) {
                ASSERT_EQ(f32_bits(a[r * C + c]), f32_bits(sa[c])) << r << "," << c;
                ASSERT_EQ(f32_bits(d[r * C + c]), f32_bits(sd[c])) << r << "," << c;
                ASSERT_EQ(f32_bits(fl[r * C + c]), f32_bits(x[r * C + C - 1 - c])) << r << "," << c;
                ASSERT_EQ(f32_bits(g[r * C + c]), f32_bits(x[(R - 1 - r) * C + c]))
                    << r << "," << c;
            }
        }
    }
}

TEST(EmuShape, SortOf1024) {
    using SortVec = cudaError_t (*)(cudaStream_t, const float *, float *, const int32_t *,
                                    int32_t *, int32_t *);
    const int N = 1024;
    for (SortVec f : {launch_shsortvec_o1, launch_shsortvec_o2}) {
        std::vector<float> x(N), a(N, -1.0f);
        std::vector<int32_t> i(N), j(N, -1), k(N, -1);
        for (int e = 0; e < N; e++) {
            x[e] = (float)((e * 131) % 1021) * 0.25f - 100.0f;
            i[e] = (e * 7919) % 613 - 300;
        }
        ASSERT_EQ(f(0, x.data(), a.data(), i.data(), j.data(), k.data()), cudaSuccess);
        auto wa = x;
        std::sort(wa.begin(), wa.end(), [](float p, float q) { return p > q; });
        auto wj = i;
        std::sort(wj.begin(), wj.end());
        for (int e = 0; e < N; e++) {
            ASSERT_EQ(a[e], wa[e]) << e;
            ASSERT_EQ(j[e], wj[e]) << e;
            ASSERT_EQ(k[e], wj[N - 1 - e] + 1) << e;
        }
    }
}

// Bounding boxes of more than 1024 elements (../lang_shape/kernels/box.py)
// at -O2: several elements of the box per thread, each value guarded to its
// own shape, the exchanges through one dynamic shared pool.
TEST(EmuShape, TransposeBox) {
    using Tb = cudaError_t (*)(cudaStream_t, const float *, float *, float *, float *, int, int);
    struct {
        Tb f;
        int M, N;
    } cases[] = {{launch_shtbox_a_o2, 32, 128},
                 {launch_shtbox_b_o2, 128, 64},
                 {launch_shtbox_w8_o2, 32, 128}};
    for (auto c : cases) {
        int M = c.M, N = c.N, m = M - 3, n = N - 5;
        auto x = iota_f((size_t)M * N, 0.5f, -100.0f);
        std::vector<float> y((size_t)N * M, -7.0f), s(N, -7.0f), p((size_t)N * M, -7.0f);
        ASSERT_EQ(c.f(0, x.data(), y.data(), s.data(), p.data(), m, n), cudaSuccess);
        box_ref::TransBox w = box_ref::trans_box(x, M, N, m, n, -7.0f);
        for (size_t i = 0; i < y.size(); i++)
            ASSERT_EQ(y[i], w.y[i]) << M << "x" << N << " y " << i;
        for (size_t i = 0; i < s.size(); i++)
            ASSERT_EQ(s[i], w.sums[i]) << M << "x" << N << " sum " << i;
        for (size_t i = 0; i < p.size(); i++)
            ASSERT_EQ(p[i], w.cums[i]) << M << "x" << N << " cumsum " << i;
    }
}

TEST(EmuShape, ReshapeBox) {
    struct {
        Un f;
        int R, C, R2, C2;
    } cases[] = {{launch_shrbox_a_o2, 64, 64, 32, 128}, {launch_shrbox_b_o2, 128, 32, 64, 64}};
    for (auto c : cases) {
        auto x = iota_f((size_t)c.R * c.C, 0.25f, -300.0f);
        std::vector<float> y((size_t)c.R2 * c.C2, -1.0f);
        ASSERT_EQ(c.f(0, x.data(), y.data()), cudaSuccess);
        auto want = box_ref::reshape_box(x, c.R2, c.C2);
        for (size_t i = 0; i < y.size(); i++)
            ASSERT_EQ(y[i], want[i]) << c.R << "x" << c.C << " at " << i;
    }
}

// a bounding box whose rows' index is a block of one element (it had
// been rendered at a row coordinate outside the loops over rows)
TEST(EmuShape, RowPairsBox) {
    const int B = 64;
    auto x = iota_f(B, 0.5f, -9.0f);
    std::vector<float> y(B / 2 + 2 * B, -1.0f);
    ASSERT_EQ(launch_shrowbox_o2(0, x.data(), y.data()), cudaSuccess);
    for (int k = 0; k < B / 2; k++) ASSERT_EQ(y[k], x[2 * k] * 2.0f + x[2 * k + 1]) << k;
    for (int k = 0; k < B; k++) {
        ASSERT_EQ(y[B / 2 + 2 * k], x[k]) << k;
        ASSERT_EQ(y[B / 2 + 2 * k + 1], x[k] * 3.0f) << k;
    }
}

TEST(EmuShape, JoinSplitBox) {
    const int N = 1024, n = 1000;
    auto z = iota_f(2 * N, 0.5f, -500.0f), t = iota_f(8, 1.0f, 3.0f);
    std::vector<float> w(2 * N, -1.0f), u(8, -1.0f), ww, wu;
    ASSERT_EQ(launch_shjsbox_o2(0, z.data(), w.data(), t.data(), u.data(), n), cudaSuccess);
    box_ref::join_split_box(z, t, N, n, -1.0f, &ww, &wu);
    for (size_t i = 0; i < w.size(); i++) ASSERT_EQ(w[i], ww[i]) << "pairs at " << i;
    for (size_t i = 0; i < u.size(); i++) ASSERT_EQ(u[i], wu[i]) << "transpose at " << i;
}
