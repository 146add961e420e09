// Loops that load and store in two versions at -O2 (issue 14, DESIGN 13b)
// through the CPU emulation of CUDA: the kernels of
// ../exec/kernels/versioning.py on separate buffers (the test finds the
// stored and the loaded bytes apart: the groups with their loads ahead of
// their stores run) and on overlapping ones (Y = X + k: a later iteration
// loads what an earlier one stored; the loop as written runs, and the
// result is program order's), against references written here.
#include <gtest/gtest.h>

#include "../support/random.h"

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "verln16_o2.h"
#include "verln_o2.h"
#include "verrsum_o2.h"

namespace {

std::vector<float> random_floats(size_t n, unsigned seed) {
    return mt_test::random_floats(n, seed, -2.0f, 2.0f);
}

bool near(float got, double want) {
    return std::fabs(got - want) <= 1e-4 * (1.0 + std::fabs(want));
}

// layer_norm_loops_kernel on the rows of z at x0 and y0 (element offsets),
// in program order: each block of `block` columns loaded, then stored.
void layer_norm_ref(std::vector<double> &z, size_t x0, size_t y0, const std::vector<float> &w,
                    const std::vector<float> &b, std::vector<double> &mean,
                    std::vector<double> &rstd, int M, int N, int stride, int block) {
    for (int r = 0; r < M; r++) {
        size_t xr = x0 + (size_t)r * stride, yr = y0 + (size_t)r * stride;
        double s = 0, v = 0;
        for (int c = 0; c < N; c++) s += z[xr + c];
        double m = s / N;
        for (int c = 0; c < N; c++) v += (z[xr + c] - m) * (z[xr + c] - m);
        double rs = 1 / std::sqrt(v / N + 1e-5);
        mean[r] = m, rstd[r] = rs;
        for (int off = 0; off < N; off += block) {
            std::vector<double> y;
            for (int c = off; c < off + block && c < N; c++)
                y.push_back((z[xr + c] - m) * rs * w[c] + b[c]);
            for (size_t c = 0; c < y.size(); c++) z[yr + off + c] = y[c];
        }
    }
}

using LayerNorm = cudaError_t (*)(cudaStream_t, mytriton_grid, const float *, float *,
                                  const float *, const float *, float *, float *, int32_t, int32_t,
                                  float);

// Rows of N columns `stride` apart; Y at X + k when overlapping (k a
// multiple of the block, stride >= N + |k|: every element is stored and
// loaded again by the thread that holds it, and the rows stay apart).
void layer_norm_case(LayerNorm f, int block, int M, int N, int stride, long k, bool overlap) {
    SCOPED_TRACE(::testing::Message()
                 << "block " << block << ", M " << M << ", N " << N << ", stride " << stride
                 << (overlap ? ", Y = X + " : ", apart") << (overlap ? k : 0));
    size_t rows = (size_t)M * stride, x0 = k < 0 ? (size_t)-k : 0;
    std::vector<float> z = random_floats(x0 + rows + (k > 0 ? k : 0) + 16, 5), yv(rows + 16, -9.0f);
    std::vector<float> w = random_floats(N, 6), b = random_floats(N, 7);
    std::vector<float> mean(M, -1), rstd(M, -1);
    std::vector<double> zr(z.begin(), z.end()), yr(yv.begin(), yv.end()), mr(M), rr(M);
    float *X = z.data() + x0, *Y = overlap ? X + k : yv.data();
    if (overlap) {
        layer_norm_ref(zr, x0, x0 + k, w, b, mr, rr, M, N, stride, block);
    } else {
        std::vector<double> all(zr);
        all.insert(all.end(), yr.begin(), yr.end());
        layer_norm_ref(all, 0, zr.size(), w, b, mr, rr, M, N, stride, block);
        yr.assign(all.begin() + zr.size(), all.end());
    }
    mytriton_grid g = mytriton_grid_1d(M);
    ASSERT_EQ(f(nullptr, g, X, Y, w.data(), b.data(), mean.data(), rstd.data(), stride, N, 1e-5f),
              0);
    for (int r = 0; r < M; r++) {
        EXPECT_TRUE(near(mean[r], mr[r]))
            << "row " << r << ": mean " << mean[r] << ", want " << mr[r];
        EXPECT_TRUE(near(rstd[r], rr[r]))
            << "row " << r << ": rstd " << rstd[r] << ", want " << rr[r];
    }
    const std::vector<float> &got = overlap ? z : yv;
    const std::vector<double> &want = overlap ? zr : yr;
    int bad = 0;
    for (size_t i = 0; i < got.size() && bad < 5; i++)
        if (!near(got[i], want[i])) {
            ADD_FAILURE() << "element " << i << ": " << got[i] << ", want " << want[i];
            bad++;
        }
}

}  // namespace

// verln_o2: BLOCK_SIZE 64, one element per thread; verln16_o2: BLOCK_SIZE
// 256 on 32 threads with Triton's :16 specialization (the suite's form:
// predicated 16-byte loads, 16-byte stores). 7 and 6 blocks a row: a group
// of 4 and the rest as written; 3: the loop as written only.
TEST(EmuVersion, LayerNormApart) {
    layer_norm_case(launch_verln_o2, 64, 3, 6 * 64 + 17, 420, 0, false);
    layer_norm_case(launch_verln_o2, 64, 2, 3 * 64, 3 * 64, 0, false);
    layer_norm_case(launch_verln_o2, 64, 1, 1, 1, 0, false);
    layer_norm_case(launch_verln16_o2, 256, 3, 6 * 256 + 32, 1600, 0, false);
    layer_norm_case(launch_verln16_o2, 256, 2, 8 * 256, 8 * 256, 0, false);
}

TEST(EmuVersion, LayerNormOverlapKeepsProgramOrder) {
    // Y = X + 2 blocks: block i stores what block i + 2 loads, inside a group
    layer_norm_case(launch_verln_o2, 64, 2, 6 * 64 + 17, 6 * 64 + 17 + 128, 128, true);
    layer_norm_case(launch_verln16_o2, 256, 2, 7 * 256, 9 * 256, 512, true);
    // Y = X - 1 block: what is stored was loaded before (either version gives it)
    layer_norm_case(launch_verln_o2, 64, 2, 6 * 64, 7 * 64, -64, true);
}

// running_sum_kernel: Y[i + l] = the sum of X[(j + l) * xs] over the
// iterations j <= i of range(0, n, step), a carried value stored each
// iteration, X read at a runtime stride (negative: X points at the end of
// its elements). The step is at least the block (64), so that each
// element is stored by one lane; overlapping: Y = X + k, k a multiple of
// the step, so that the lane storing an element loads it again.
TEST(EmuVersion, RunningSum) {
    struct {
        int n, step, xs;
        long k;  // Y = X + k (0: apart)
    } cases[] = {{1000, 64, 1, 0}, {1000, 70, 2, 0},  {300, 64, -1, 0},   {5, 64, 1, 0},
                 {0, 64, 1, 0},    {1000, 64, 1, 64}, {1000, 64, 1, 192}, {1000, 100, 1, 200}};
    for (auto c : cases) {
        SCOPED_TRACE(::testing::Message()
                     << "n " << c.n << ", step " << c.step << ", xs " << c.xs << ", k " << c.k);
        size_t span = (size_t)(c.n + 64) * std::abs(c.xs) + 64;
        std::vector<float> z = random_floats(span + c.k + 64, 9), y(c.n + 64, -9.0f);
        std::vector<double> zr(z.begin(), z.end()), yr(y.begin(), y.end());
        // X at z[x0] (its last element for a negative stride); Y in z at x0 + k or apart
        long x0 = c.xs < 0 ? (long)(c.n + 63) * -c.xs : 0;
        std::vector<double> acc(64, 0.0);
        for (int i = 0; i < c.n; i += c.step) {
            for (int l = 0; l < 64; l++)
                if (i + l < c.n) acc[l] += zr[x0 + (long)(i + l) * c.xs];
            for (int l = 0; l < 64 && i + l < c.n; l++) {
                if (c.k) zr[x0 + c.k + i + l] = acc[l];
                else yr[i + l] = acc[l];
            }
        }
        float *X = z.data() + x0, *Y = c.k ? X + c.k : y.data();
        ASSERT_EQ(launch_verrsum_o2(nullptr, X, Y, c.n, c.step, c.xs), 0);
        const std::vector<float> &got = c.k ? z : y;
        const std::vector<double> &want = c.k ? zr : yr;
        int bad = 0;
        for (size_t i = 0; i < got.size() && bad < 5; i++)
            if (!near(got[i], want[i])) {
                ADD_FAILURE() << "element " << i << ": " << got[i] << ", want " << want[i];
                bad++;
            }
    }
}
