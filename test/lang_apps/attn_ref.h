// The fused attention forward of kernels/attention.py in double precision
// from the same fp16 inputs (softmax(q k^T * sm_scale) v over the keys
// n < n_ctx, n <= m when causal), and its comparison with the kernel's
// fp16 output: shared by attn_emu_test.cpp and attn_gpu_test.cpp.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "mytriton/dtypes.h"

namespace attn_ref {

using half = mytriton_fp16;

inline std::vector<half> random_halves(size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<half> v(n);
    for (auto &x : v) x = mytriton_fp16_from_float(u(rng));
    return v;
}

inline std::vector<double> reference(const std::vector<half> &q, const std::vector<half> &k,
                                     const std::vector<half> &v, int BH, int N, int D, double sm_scale,
                                     bool causal) {
    std::vector<double> out((size_t)BH * N * D);
    std::vector<double> s(N);
    for (int bh = 0; bh < BH; bh++)
        for (int m = 0; m < N; m++) {
            size_t qm = ((size_t)bh * N + m) * D;
            int keys = causal ? m + 1 : N;
            double mx = -INFINITY, sum = 0;
            for (int j = 0; j < keys; j++) {
                size_t kj = ((size_t)bh * N + j) * D;
                double dot = 0;
                for (int d = 0; d < D; d++)
                    dot += (double)mytriton_fp16_to_float(q[qm + d]) * mytriton_fp16_to_float(k[kj + d]);
                s[j] = dot * sm_scale;
                mx = std::max(mx, s[j]);
            }
            for (int j = 0; j < keys; j++) sum += s[j] = std::exp(s[j] - mx);
            for (int d = 0; d < D; d++) {
                double o = 0;
                for (int j = 0; j < keys; j++)
                    o += s[j] * mytriton_fp16_to_float(v[((size_t)bh * N + j) * D + d]);
                out[qm + d] = o / sum;
            }
        }
    return out;
}

// fp16 tolerance: p is rounded to fp16 before p @ v (as the kernel says)
inline void expect_close(const char *what, const std::vector<half> &got, const std::vector<double> &want) {
    ASSERT_EQ(got.size(), want.size());
    size_t bad = 0, first = 0;
    double worst = 0;
    for (size_t i = 0; i < got.size(); i++) {
        double g = mytriton_fp16_to_float(got[i]), err = std::fabs(g - want[i]);
        worst = std::max(worst, err);
        if (!(err <= 4e-3 + 1e-2 * std::fabs(want[i]))) {
            if (!bad) first = i;
            bad++;
        }
    }
    EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << got.size() << " elements off, first at " << first
                       << " (got " << mytriton_fp16_to_float(got[first]) << ", want " << want[first]
                       << "); largest error " << worst;
}

}  // namespace attn_ref
