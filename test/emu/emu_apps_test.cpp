// Kernels that read addresses from memory (../lang_apps/kernels/grouped_gemm.py):
// the grouped matmul over tables of addresses and the pointer / integer
// casts, their generated CUDA at -O1 and -O2 run on the CPU emulation of
// fake_cuda/ (host addresses stand for device ones) against references
// computed here.
#include <gtest/gtest.h>

#include "../support/random.h"

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "addr_o1.h"
#include "addr_o2.h"
#include "gg32_o1.h"
#include "gg32_o2.h"
#include "emm64_o2.h"
#include "gg64_o2.h"
#include "gg64f32_o2.h"
#include "pmm64_o2.h"
#include "smm64_o2.h"
#include "tmm64_o2.h"

namespace {

using half = mytriton_fp16;
using mt_test::random_floats;
using GroupedFn = cudaError_t (*)(cudaStream_t, const int64_t *, const int64_t *, const int64_t *,
                                  const int32_t *, const int32_t *, int32_t);

// Problems whose sizes are multiples of `blk` (every tile whole, as the
// kernel assumes), one with padded rows of A; T: the matrices' element type
// (to / from float), within `tol` of a double product.
template <class T>
void check_grouped(cudaError_t (*f)(cudaStream_t, const int64_t *, const int64_t *, const int64_t *,
                                    const int32_t *, const int32_t *, int32_t),
                   int blk, const char *name, T (*from)(float), float (*to)(T), double tol) {
    struct Problem {
        int m, n, k, lda;
    };
    const Problem probs[3] = {{2 * blk, blk, 3 * blk / 2, 2 * blk},
                              {blk, 3 * blk, blk, blk},
                              {3 * blk, 2 * blk, blk / 2, blk / 2}};
    std::vector<std::vector<T>> a(3), b(3), c(3);
    std::vector<int64_t> at, bt, ct;
    std::vector<int32_t> sizes, strides;
    for (int p = 0; p < 3; p++) {
        const Problem &q = probs[p];
        auto fa = random_floats((size_t)q.m * q.lda, 10 + p),
             fb = random_floats((size_t)q.k * q.n, 20 + p);
        for (float x : fa) a[p].push_back(from(x));
        for (float x : fb) b[p].push_back(from(x));
        c[p].assign((size_t)q.m * q.n, from(-7.0f));
        at.push_back((int64_t)(uintptr_t)a[p].data());
        bt.push_back((int64_t)(uintptr_t)b[p].data());
        ct.push_back((int64_t)(uintptr_t)c[p].data());
        sizes.insert(sizes.end(), {q.m, q.n, q.k});
        strides.insert(strides.end(), {q.lda, q.n, q.n});
    }
    ASSERT_EQ(f(nullptr, at.data(), bt.data(), ct.data(), sizes.data(), strides.data(), 3), 0)
        << name;
    for (int p = 0; p < 3; p++) {
        const Problem &q = probs[p];
        for (int i = 0; i < q.m; i++)
            for (int j = 0; j < q.n; j++) {
                double want = 0;
                for (int kk = 0; kk < q.k; kk++)
                    want +=
                        (double)to(a[p][(size_t)i * q.lda + kk]) * to(b[p][(size_t)kk * q.n + j]);
                float got = to(c[p][(size_t)i * q.n + j]);
                ASSERT_LE(std::fabs(got - want), tol * (1.0 + std::fabs(want)))
                    << name << ": problem " << p << " (" << i << ", " << j << ")";
            }
    }
}

float same_float(float x) { return x; }

TEST(EmuApps, GroupedGemm) {
    const auto h = mytriton_fp16_from_float;
    const auto f = mytriton_fp16_to_float;
    check_grouped<half>(launch_gg32_o1, 32, "gg32_o1", h, f, 2e-3);
    check_grouped<half>(launch_gg32_o2, 32, "gg32_o2", h, f, 2e-3);
    check_grouped<half>(launch_gg64_o2, 64, "gg64_o2", h, f, 2e-3);
}

// The grouped GEMM tutorial's form on the tensor-core path (TF32, emulated):
// its loop over problems and `while` over their tiles around the K loop.
TEST(EmuApps, GroupedGemmMma) {
    check_grouped<float>(launch_gg64f32_o2, 64, "gg64f32_o2", same_float, same_float, 1e-2);
}

TEST(EmuApps, PointerIntegerCasts) {
    using F = cudaError_t (*)(cudaStream_t, const float *, float *, int32_t *, int32_t);
    for (F f : {launch_addr_o1, launch_addr_o2}) {
        for (int offset : {0, 1, 3}) {  // the address's low bits: 0, 4, 12
            std::vector<float> x(128);
            for (int i = 0; i < 128; i++) x[i] = (float)i * 0.5f - 9.0f;
            std::vector<float> out(128, -1.0f);
            std::vector<int32_t> info(2, -1);
            const int n = 100 - offset;
            ASSERT_EQ(f(nullptr, x.data() + offset, out.data(), info.data(), n), 0);
            for (int i = 0; i < 128; i++)
                ASSERT_EQ(out[i], i < n ? 2.0f * x[i + offset] : -1.0f) << "i=" << i;
            EXPECT_EQ(info[0], (int32_t)((uintptr_t)(x.data() + offset) & 15));
            EXPECT_EQ(info[1], 1);
        }
    }
}

// |got - want| within TF32's products (10-bit mantissas) of K terms in [-1, 1].
void expect_tf32(const char *what, float got, double want, int i, int j) {
    ASSERT_LE(std::fabs(got - want), 1e-2 * (1.0 + std::fabs(want)))
        << what << " (" << i << ", " << j << ")";
}

// C (M rows of ldc, N used) against scale * (A @ B) of row-major A (lda) and
// B (ldb) within TF32's tolerance; the columns past N untouched (-7).
void expect_product(const std::vector<float> &c, const std::vector<float> &a,
                    const std::vector<float> &b, int M, int N, int K, int lda, int ldb, int ldc,
                    double scale) {
    for (int i = 0; i < M; i++)
        for (int j = 0; j < ldc; j++) {
            if (j >= N) {
                ASSERT_EQ(c[(size_t)i * ldc + j], -7.0f)
                    << "wrote outside C at (" << i << ", " << j << ")";
                continue;
            }
            double s = 0;
            for (int k = 0; k < K; k++)
                s += (double)a[(size_t)i * lda + k] * b[(size_t)k * ldb + j];
            expect_tf32("C", c[(size_t)i * ldc + j], scale * s, i, j);
        }
}

// The tensor-core path with a scale read at kernel entry (emulated TF32
// mma.sync): C = scale * (A @ B), padded rows, edge tiles masked.
TEST(EmuApps, ScaledMatmulTileMma) {
    const int M = 100, N = 70, K = 75, lda = 80, ldb = 72, ldc = 74;
    auto a = random_floats((size_t)M * lda, 1), b = random_floats((size_t)K * ldb, 2);
    std::vector<float> c((size_t)M * ldc, -7.0f), scale{-1.5f};
    ASSERT_EQ(launch_smm64_o2(nullptr, a.data(), b.data(), c.data(), scale.data(), M, N, K, lda,
                              ldb, ldc),
              0);
    expect_product(c, a, b, M, N, K, lda, ldb, ldc, -1.5);
}

// A batch of matmuls given as tables of addresses, on the tensor-core path:
// the bases cast at kernel entry, their alignment tested at run time (one
// batch entry's A misaligned by 4 bytes: its copies element-wise).
TEST(EmuApps, TableMatmulTileMma) {
    const int M = 70, N = 100, K = 64, B = 3;
    std::vector<std::vector<float>> a(B), b(B), c(B);
    std::vector<int64_t> at(B), bt(B), ct(B);
    for (int e = 0; e < B; e++) {
        a[e] = random_floats((size_t)M * K + 1, 10 + e);
        b[e] = random_floats((size_t)K * N, 20 + e);
        c[e].assign((size_t)M * N, -7.0f);
        at[e] = (int64_t)(uintptr_t)(a[e].data() + (e == 1));
        bt[e] = (int64_t)(uintptr_t)b[e].data();
        ct[e] = (int64_t)(uintptr_t)c[e].data();
    }
    ASSERT_EQ(launch_tmm64_o2(nullptr, at.data(), bt.data(), ct.data(), M, N, K), 0);
    for (int e = 0; e < B; e++)
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double s = 0;
                for (int k = 0; k < K; k++)
                    s += (double)a[e][(size_t)i * K + k + (e == 1)] * b[e][(size_t)k * N + j];
                expect_tf32("C", c[e][(size_t)i * N + j], s, i, j);
            }
}

// The tensor-core path behind an early return (expert_matmul_kernel): four
// experts of 70, 0, 100 and 3 rows over a grid of two row blocks each (the
// blocks past an expert's rows leave before the K loop), K = 72, N = 80.
TEST(EmuApps, ExpertMatmulEarlyReturnMma) {
    const int E = 4, K = 72, N = 80, counts[E] = {70, 0, 100, 3};
    std::vector<int32_t> offsets{0};
    for (int e = 0; e < E; e++) offsets.push_back(offsets.back() + counts[e]);
    const int rows = offsets.back();
    auto a = random_floats((size_t)rows * K, 31), b = random_floats((size_t)E * K * N, 32);
    std::vector<float> c((size_t)(rows + 2) * N, -7.0f);
    ASSERT_EQ(launch_emm64_o2(nullptr, a.data(), b.data(), c.data(), offsets.data(), K, N), 0);
    for (int e = 0; e < E; e++)
        for (int i = offsets[e]; i < offsets[e + 1]; i++)
            for (int j = 0; j < N; j++) {
                double s = 0;
                for (int k = 0; k < K; k++)
                    s += (double)a[(size_t)i * K + k] * b[((size_t)e * K + k) * N + j];
                expect_tf32("C", c[(size_t)i * N + j], s, i, j);
            }
    for (size_t x = (size_t)rows * N; x < c.size(); x++)
        ASSERT_EQ(c[x], -7.0f) << "wrote past the last row";
}

// A persistent kernel's loop over tiles around the tensor-core body: 3
// programs walk the 8 tiles of a (200, 150) C (2 x 2 groups of tiles, the
// last rows and columns ragged), the ring reused from tile to tile.
TEST(EmuApps, PersistentMatmulMma) {
    const int M = 200, N = 150, K = 90, lda = 96, ldb = 152, ldc = 160;
    auto a = random_floats((size_t)M * lda, 41), b = random_floats((size_t)K * ldb, 42);
    std::vector<float> c((size_t)M * ldc, -7.0f);
    ASSERT_EQ(launch_pmm64_o2(nullptr, a.data(), b.data(), c.data(), M, N, K, lda, ldb, ldc), 0);
    expect_product(c, a, b, M, N, K, lda, ldb, ldc, 1.0);
}

}  // namespace
