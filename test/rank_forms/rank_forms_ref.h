// The cases of test/rank_forms (CMakeLists.txt lists their constexprs and
// rewrites) and their references: each check builds the inputs, runs the
// kernel through `run` (host, CUDA or emulated CUDA launchers) and compares
// every output exactly (the inputs are small integers and halves: every
// sum is exact in f32 whatever its order).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "mytriton/dtypes.h"

namespace rank_forms {

// remap: result element e, as the row-major multi-index over dims, is
// operand element off + sum of index k times strides[k].
struct Remap {
    std::vector<int> dims, strides;
    int off;
};

inline std::vector<float> remap(const std::vector<float> &x, const Remap &m) {
    size_t n = 1;
    for (int d : m.dims) n *= (size_t)d;
    std::vector<float> y(n);
    for (size_t e = 0; e < n; e++) {
        size_t rest = e;
        long src = m.off;
        for (size_t k = m.dims.size(); k-- > 0;) {
            src += (long)(rest % (size_t)m.dims[k]) * m.strides[k];
            rest /= (size_t)m.dims[k];
        }
        y[e] = x[(size_t)src];
    }
    return y;
}

inline std::vector<float> iota(size_t n, float scale, float add) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; i++) v[i] = (float)i * scale + add;
    return v;
}

template <typename T>
void expect_equal(const std::vector<T> &got, const std::vector<T> &want, const char *what) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); i++) ASSERT_EQ(got[i], want[i]) << what << " at " << i;
}

// The remaps of CMakeLists.txt's cases.
inline Remap remap2_s() { return {{2, 4, 4}, {-16, 1, 4}, 16}; }
inline Remap remap2_t() { return {{32, 2, 64}, {1, 2048, 32}, 0}; }
inline Remap remap2_z() { return {{64, 64}, {-64, 0}, 4095}; }
inline Remap remap1_s_flat() { return {{256}, {-1}, 255}; }
inline Remap remap1_s_back() { return {{16, 16}, {1, 16}, 0}; }
inline Remap remap1_b_flat() { return {{2, 2048}, {1, 2}, 0}; }
inline Remap remap1_b_back() { return {{64, 64}, {1, 64}, 0}; }

// remap2_kernel: Y = remap(X) * 2 + column index, an (R2, C2) block.
// run(x, y) launches it.
template <typename Run>
void check_remap2(int R, int C, int R2, int C2, const Remap &m, Run run) {
    std::vector<float> x = iota((size_t)R * C, 0.5f, -100.0f), y((size_t)R2 * C2, -1.0f);
    ASSERT_EQ(run(x, y), 0);
    std::vector<float> want = remap(x, m);
    for (int i = 0; i < R2; i++)
        for (int j = 0; j < C2; j++) want[i * C2 + j] = want[i * C2 + j] * 2.0f + (float)j;
    expect_equal(y, want, "remap2");
}

// remap1_kernel: Z = flat(X) + 1 (R*C elements), Y = back(Z * 2) (R, C).
// run(x, y, z) launches it.
template <typename Run>
void check_remap1(int R, int C, const Remap &flat, const Remap &back, Run run) {
    size_t n = (size_t)R * C;
    std::vector<float> x = iota(n, 0.25f, -7.0f), y(n, -1.0f), z(n, -1.0f);
    ASSERT_EQ(run(x, y, z), 0);
    std::vector<float> wz = remap(x, flat);
    for (float &v : wz) v += 1.0f;
    std::vector<float> z2 = wz;
    for (float &v : z2) v *= 2.0f;
    expect_equal(z, wz, "remap1 z");
    expect_equal(y, remap(z2, back), "remap1 y");
}

inline float to_float(float v) { return v; }
inline float to_float(mytriton_fp16 v) { return mytriton_fp16_to_float(v); }
template <typename T>
T from_float(float v);
template <>
inline float from_float<float>(float v) {
    return v;
}
template <>
inline mytriton_fp16 from_float<mytriton_fp16>(float v) {
    return mytriton_fp16_from_float(v);
}

// bdot_kernel with {batch=B}: Z = A + X @ Y per batch, X (B*M, K),
// Y (B*K, N), A and Z (B*M, N); YC = Y. T: the operands' element type.
// run(x, y, a, z, yc) launches it.
template <typename T, typename Run>
void check_bdot(int B, int M, int N, int K, Run run) {
    std::vector<T> x((size_t)B * M * K), y((size_t)B * K * N), yc(y.size(), from_float<T>(0.0f));
    for (size_t i = 0; i < x.size(); i++) x[i] = from_float<T>((float)((int)(i * 7 % 11) - 5));
    for (size_t i = 0; i < y.size(); i++)
        y[i] = from_float<T>((float)((int)(i * 5 % 13) - 6) * 0.5f);
    std::vector<float> a((size_t)B * M * N), z(a.size(), -1.0f);
    for (size_t i = 0; i < a.size(); i++) a[i] = (float)((int)(i % 9) - 4);
    ASSERT_EQ(run(x, y, a, z, yc), 0);
    std::vector<float> want(a.size());
    for (int b = 0; b < B; b++)
        for (int m = 0; m < M; m++)
            for (int n = 0; n < N; n++) {
                float s = a[(size_t)(b * M + m) * N + n];
                for (int k = 0; k < K; k++)
                    s += to_float(x[(size_t)(b * M + m) * K + k]) *
                         to_float(y[(size_t)(b * K + k) * N + n]);
                want[(size_t)(b * M + m) * N + n] = s;
            }
    expect_equal(z, want, "bdot z");
    for (size_t i = 0; i < y.size(); i++)
        ASSERT_EQ(to_float(yc[i]), to_float(y[i])) << "bdot yc at " << i;
}

}  // namespace rank_forms
