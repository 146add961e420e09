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
#include <type_traits>
#include <vector>

#include "mytriton/dtypes.h"

namespace attn_ref {

using half = mytriton_fp16;

// The kernel's inputs in fp16 or bf16 storage (T: mytriton_fp16 or mytriton_bf16).
inline float to_float(mytriton_fp16 h) { return mytriton_fp16_to_float(h); }
inline float to_float(mytriton_bf16 h) { return mytriton_bf16_to_float(h); }
inline void from_float(float f, mytriton_fp16 *h) { *h = mytriton_fp16_from_float(f); }
inline void from_float(float f, mytriton_bf16 *h) { *h = mytriton_bf16_from_float(f); }

template <class T>
std::vector<T> random_inputs(size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<T> v(n);
    for (auto &x : v) from_float(u(rng), &x);
    return v;
}
inline std::vector<half> random_halves(size_t n, unsigned seed) {
    return random_inputs<half>(n, seed);
}

template <class T>
std::vector<double> reference(const std::vector<T> &q, const std::vector<T> &k,
                              const std::vector<T> &v, int BH, int N, int D, double sm_scale,
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
                    dot += (double)to_float(q[qm + d]) * to_float(k[kj + d]);
                s[j] = dot * sm_scale;
                mx = std::max(mx, s[j]);
            }
            for (int j = 0; j < keys; j++) sum += s[j] = std::exp(s[j] - mx);
            for (int d = 0; d < D; d++) {
                double o = 0;
                for (int j = 0; j < keys; j++)
                    o += s[j] * to_float(v[((size_t)bh * N + j) * D + d]);
                out[qm + d] = o / sum;
            }
        }
    return out;
}

// fp16 tolerance (bf16: 4 times it): p is rounded to the inputs' dtype before p @ v
template <class T>
void expect_close(const char *what, const std::vector<T> &got, const std::vector<double> &want) {
    const double tol = sizeof(T) == 2 && std::is_same<T, mytriton_bf16>::value ? 4.0 : 1.0;
    ASSERT_EQ(got.size(), want.size());
    size_t bad = 0, first = 0;
    double worst = 0;
    for (size_t i = 0; i < got.size(); i++) {
        double g = to_float(got[i]), err = std::fabs(g - want[i]);
        worst = std::max(worst, err);
        if (!(err <= tol * (4e-3 + 1e-2 * std::fabs(want[i])))) {
            if (!bad) first = i;
            bad++;
        }
    }
    EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << got.size() << " elements off, first at "
                       << first << " (got " << to_float(got[first]) << ", want " << want[first]
                       << "); largest error " << worst;
}

}  // namespace attn_ref
