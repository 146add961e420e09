// References of the kernels of kernels/shape.py that move blocks of
// pointers (issue 51: ptr_shape, ptr_trans, ptr_where), shared by
// lang_shape_test.cpp and test/emu's emu_shape_test.cpp.
#pragma once

#include <vector>

namespace ptr_ref {

// ptr_shape_kernel: seven (R, C) slices, each X[i * C + j] read through
// another shape op on pointers (slice 5 plus 1, slice 6 times 2).
inline std::vector<float> ptr_shape(const std::vector<float> &x, int R, int C) {
    std::vector<float> y((size_t)7 * R * C);
    for (int k = 0; k < 7; k++)
        for (int e = 0; e < R * C; e++)
            y[(size_t)k * R * C + e] = k == 5 ? x[e] + 1.0f : k == 6 ? x[e] * 2.0f : x[e];
    return y;
}

// ptr_trans_kernel: Y (N, M) = X (M, N) transposed.
inline std::vector<float> ptr_trans(const std::vector<float> &x, int M, int N) {
    std::vector<float> y((size_t)N * M);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) y[(size_t)j * M + i] = x[(size_t)i * N + j];
    return y;
}

// ptr_where_kernel with X and Y of 2N elements: Z (6N elements, from `z`)
// and W (N, from `w`) after the kernel.
inline void ptr_where(const std::vector<float> &x, const std::vector<float> &y, int flag, int N,
                      std::vector<float> *z, std::vector<float> *w) {
    for (int o = 0; o < N; o++) {
        float a = flag > 0 ? x[o] : y[o];
        (*z)[o] = a;
        (*z)[N + o] = o < N / 2 ? x[o] : x[N - 1 - o];
        (*z)[2 * N + o] = flag > 0 ? x[o] : y[2 * o];
        for (int t = 0; t < 2; t++) (*z)[3 * N + 2 * o + t] = o < N / 4 ? x[o + t] : x[2 * o + t];
        if (flag > 0) (*z)[5 * N + o] = a + 1.0f;
        else (*w)[o] = a + 1.0f;
    }
}

}  // namespace ptr_ref
