// References of tl.sort and tl.flip (kernels/shape.py sort_kernel and
// sort_vec_kernel) shared by lang_shape_test.cpp and ../emu: Triton's
// bitonic network (standard.py sort_impl) on one row of n = 2^k elements,
// each compare-and-swap keeping where((x > y) != (flip ^ is_right), y, x),
// so NaN and -0.0 come out as Triton's.
#ifndef MT_TEST_SORT_REF_H
#define MT_TEST_SORT_REF_H

#include <cmath>
#include <cstdint>
#include <vector>

template <typename T>
std::vector<T> bitonic_ref(std::vector<T> x, bool descending) {
    int n = (int)x.size(), log_n = 0;
    while ((1 << log_n) < n) log_n++;
    for (int stage = 1; stage <= log_n; stage++)
        for (int i = stage - 1; i >= 0; i--) {
            std::vector<T> y(n);
            for (int e = 0; e < n; e++) y[e] = x[e ^ (1 << i)];
            for (int e = 0; e < n; e++) {
                int flip = stage < log_n ? (e >> stage) & 1 : (int)descending;
                int right = (e >> i) & 1;
                if ((x[e] > y[e]) != (bool)(flip ^ right)) x[e] = y[e];
            }
        }
    return x;
}

// Row r of an (rows, n) row-major array.
template <typename T>
std::vector<T> row_of(const std::vector<T> &v, int r, int n) {
    return std::vector<T>(v.begin() + (size_t)r * n, v.begin() + (size_t)(r + 1) * n);
}

// The input of sort_kernel: distinct values with ties, NaN, -0.0 and +-inf.
inline std::vector<float> sort_input(int n) {
    std::vector<float> v(n);
    for (int i = 0; i < n; i++) v[i] = (float)((i * 37 + 11) % 29) * 0.75f - 9.0f;
    if (n >= 16) {
        v[3] = NAN;
        v[5] = -0.0f;
        v[6] = 0.0f;
        v[9] = INFINITY;
        v[12] = -INFINITY;
        v[14] = v[1];
    }
    return v;
}

inline uint32_t f32_bits(float f) {
    uint32_t u;
    static_assert(sizeof u == sizeof f, "f32");
    __builtin_memcpy(&u, &f, sizeof u);
    return u;
}

#endif
