// One tl.dot on tensor cores in -O2's blocked emitter (emit_cuda_dot_tc.c),
// through the CPU emulation: mma.sync of every operand dtype emulated in
// C over the warp's registers (the PTX ISA's fragment layouts), the
// operands staged K-major, the result read back in the blocked layout.
// Kernels: kernels/dot_tc.py; references in double.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "../lang_dot/dot_ref.h"
#include "dtc_bf16_a.h"
#include "dtc_bf16_z.h"
#include "dtc_bsm_e4m3.h"
#include "dtc_bsm_f16.h"
#include "dtc_e4m3_a.h"
#include "dtc_e4m3_z.h"
#include "dtc_f16_a.h"
#include "dtc_f16_z.h"
#include "dtc_i8_a.h"
#include "dtc_i8_z.h"
#include "dtc_tf32_a.h"
#include "dtc_tf32_z.h"

namespace {

using namespace dot_ref;

template <class TA, class TC>
using ScaledLaunch = int (*)(const TA *, const TA *, const TC *, const TC *, TC *, int, int);

// scaled_dot_kernel: Z = C + (X @ Y) * S[:, None], or (X @ Y + C) * S[:, None]
// where in_dot; the (m, n) corner stored, the rest left as it was.
template <class TA, class TC>
void check_scaled(int BM, int BN, int BK, int m, int n, bool in_dot, bool tf32_ops,
                  ScaledLaunch<TA, TC> launch) {
    auto x = random_elems<TA>((size_t)BM * BK, 11);
    auto y = random_elems<TA>((size_t)BK * BN, 12);
    std::vector<TC> s(BM), c = random_elems<TC>((size_t)BM * BN, 13);
    Rng r(14);
    for (auto &v : s)
        v = Elem<TC>::from(Elem<TC>::eps == 0 ? (int)(r.next() % 7) - 3 : r.uniform(-2, 2));
    std::vector<TC> z((size_t)BM * BN, Elem<TC>::from(-77));
    ASSERT_EQ(launch(x.data(), y.data(), s.data(), c.data(), z.data(), m, n), 0)
        << mytriton_last_error();
    int bad = 0;
    for (int i = 0; i < BM; i++)
        for (int j = 0; j < BN; j++) {
            double got = Elem<TC>::to(z[(size_t)i * BN + j]);
            if (i >= m || j >= n) {
                if (got != -77 && bad++ < 5) ADD_FAILURE() << "Z[" << i << ", " << j << "] written";
                continue;
            }
            double dot = 0, mag = 0, sc = Elem<TC>::to(s[i]),
                   acc = Elem<TC>::to(c[(size_t)i * BN + j]);
            for (int k = 0; k < BK; k++) {
                double a = Elem<TA>::to(x[(size_t)i * BK + k]),
                       b = Elem<TA>::to(y[(size_t)k * BN + j]);
                if (tf32_ops) a = tf32(a), b = tf32(b);
                dot += a * b;
                mag += std::fabs(a * b);
            }
            double ref = in_dot ? (dot + acc) * sc : acc + dot * sc;
            double tol = Elem<TC>::eps == 0
                             ? 0
                             : (mag + std::fabs(acc)) * std::fabs(sc) * BK * 0x1p-23 +
                                   std::fabs(ref) * 0x1p-22 + std::fabs(acc) * 0x1p-23 + 1e-30;
            if (!(std::fabs(got - ref) <= tol) && bad++ < 5)
                ADD_FAILURE() << "Z[" << i << ", " << j << "] = " << got << ", expected " << ref
                              << " (tolerance " << tol << ")";
        }
    EXPECT_EQ(bad, 0);
}

#define SCALED(name, TA, TC)                                                      \
    [](const TA *x, const TA *y, const TC *s, const TC *c, TC *z, int m, int n) { \
        return (int)launch_##name(nullptr, x, y, s, c, z, m, n);                  \
    }

// 32 x 64 x 32 with 4 warps (2 x 2 of 16 x 32) and 64 x 128 x 64 with 8
// (2 x 4 of 32 x 32); zero accumulators (`c + dot * s`) and the dot's own
TEST(DotTensorCores, F16) {
    check_scaled<mytriton_fp16, float>(32, 64, 32, 29, 61, false, false,
                                       SCALED(dtc_f16_z, mytriton_fp16, float));
    check_scaled<mytriton_fp16, float>(64, 128, 64, 64, 128, true, false,
                                       SCALED(dtc_f16_a, mytriton_fp16, float));
}
TEST(DotTensorCores, Bf16) {
    check_scaled<mytriton_bf16, float>(32, 64, 32, 32, 64, true, false,
                                       SCALED(dtc_bf16_a, mytriton_bf16, float));
    check_scaled<mytriton_bf16, float>(64, 128, 64, 50, 100, false, false,
                                       SCALED(dtc_bf16_z, mytriton_bf16, float));
}
TEST(DotTensorCores, Tf32) {
    check_scaled<float, float>(32, 64, 32, 32, 57, false, true, SCALED(dtc_tf32_z, float, float));
    check_scaled<float, float>(64, 128, 64, 61, 128, true, true, SCALED(dtc_tf32_a, float, float));
}
TEST(DotTensorCores, I8) {
    check_scaled<int8_t, int32_t>(32, 64, 32, 30, 64, true, false,
                                  SCALED(dtc_i8_a, int8_t, int32_t));
    check_scaled<int8_t, int32_t>(64, 128, 64, 64, 128, false, false,
                                  SCALED(dtc_i8_z, int8_t, int32_t));
}
TEST(DotTensorCores, E4m3) {
    check_scaled<mytriton_fp8e4nv, float>(32, 64, 32, 32, 64, false, false,
                                          SCALED(dtc_e4m3_z, mytriton_fp8e4nv, float));
    check_scaled<mytriton_fp8e4nv, float>(64, 128, 64, 33, 127, true, false,
                                          SCALED(dtc_e4m3_a, mytriton_fp8e4nv, float));
}

template <class TA>
using BsmLaunch = int (*)(const TA *, const TA *, const float *, const float *, float *, int, int,
                          int);

// block_scaled_matmul_kernel: C = sum over K blocks of (A @ B) * AS[:, kb] * BS[kb]
template <class TA>
void check_block_scaled(int M, int N, int K, int BK, BsmLaunch<TA> launch) {
    int kb = (K + BK - 1) / BK;
    auto a = random_elems<TA>((size_t)M * K, 21);
    auto b = random_elems<TA>((size_t)K * N, 22);
    auto as = random_elems<float>((size_t)M * kb, 23);
    auto bs = random_elems<float>((size_t)kb, 24);
    std::vector<float> c((size_t)M * N, -77);
    ASSERT_EQ(launch(a.data(), b.data(), as.data(), bs.data(), c.data(), M, N, K), 0)
        << mytriton_last_error();
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double ref = 0, tol = 1e-30;
            for (int q = 0; q < kb; q++) {
                double dot = 0, mag = 0;
                for (int k = q * BK; k < K && k < (q + 1) * BK; k++) {
                    double p =
                        Elem<TA>::to(a[(size_t)i * K + k]) * Elem<TA>::to(b[(size_t)k * N + j]);
                    dot += p;
                    mag += std::fabs(p);
                }
                double sc = (double)as[(size_t)i * kb + q] * bs[q];
                ref += dot * sc;
                tol += mag * std::fabs(sc) * BK * 0x1p-23 + std::fabs(ref) * 0x1p-22;
            }
            double got = c[(size_t)i * N + j];
            if (!(std::fabs(got - ref) <= tol) && bad++ < 5)
                ADD_FAILURE() << "C[" << i << ", " << j << "] = " << got << ", expected " << ref
                              << " (tolerance " << tol << ")";
        }
    EXPECT_EQ(bad, 0);
}

#define BSM(name, TA)                                                                      \
    [](const TA *a, const TA *b, const float *as, const float *bs, float *c, int M, int N, \
       int K) { return (int)launch_##name(nullptr, a, b, as, bs, c, M, N, K); }

// the dot in a K loop (its barriers per iteration), ragged M, N and K
TEST(DotTensorCores, BlockScaledE4m3) {
    check_block_scaled<mytriton_fp8e4nv>(100, 90, 200, 64, BSM(dtc_bsm_e4m3, mytriton_fp8e4nv));
}
TEST(DotTensorCores, BlockScaledF16W8) {
    check_block_scaled<mytriton_fp16>(64, 128, 96, 32, BSM(dtc_bsm_f16, mytriton_fp16));
}

}  // namespace
