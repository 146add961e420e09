// References of kernels/box.py (bounding boxes of more than 1024 elements),
// shared by lang_shape_test.cpp and test/emu's emu_shape_test.cpp. Inputs
// are halves and quarters of small magnitude: every sum is exact in f32.
#pragma once

#include <vector>

namespace box_ref {

// trans_box_kernel: the ragged (m, n) corner of an (M, N) tile x (the rest
// read as -1), transposed; the row sums of the transpose and its cumulative
// sums down the columns. Outputs start as `fill` and keep it where masked.
struct TransBox {
    std::vector<float> y, sums, cums;
};
inline TransBox trans_box(const std::vector<float> &x, int M, int N, int m, int n, float fill) {
    TransBox w{std::vector<float>((size_t)N * M, fill), std::vector<float>(N, fill),
               std::vector<float>((size_t)N * M, fill)};
    auto yt = [&](int j, int i) { return i < m && j < n ? x[(size_t)i * N + j] : -1.0f; };
    for (int j = 0; j < n; j++) {
        float s = 0.0f;
        for (int i = 0; i < M; i++) {
            s += yt(j, i);
            if (i < m) w.y[(size_t)j * M + i] = yt(j, i);
        }
        w.sums[j] = s;
    }
    for (int i = 0; i < m; i++) {
        float c = 0.0f;
        for (int j = 0; j < n; j++) w.cums[(size_t)j * M + i] = (c += yt(j, i));
    }
    return w;
}

// reshape_box_kernel: x reshaped to (R2, C2), times 2, plus column - row.
inline std::vector<float> reshape_box(const std::vector<float> &x, int R2, int C2) {
    std::vector<float> want((size_t)R2 * C2);
    for (int i = 0; i < R2; i++)
        for (int j = 0; j < C2; j++)
            want[(size_t)i * C2 + j] = x[(size_t)i * C2 + j] * 2.0f + (float)j - (float)i;
    return want;
}

// join_split_box_kernel: the first n of N pairs (re, im) of z as
// (im * 2, re + 1) (the rest `fill`), and a (2, 4) block t transposed.
inline void join_split_box(const std::vector<float> &z, const std::vector<float> &t, int N, int n,
                           float fill, std::vector<float> *w, std::vector<float> *u) {
    w->assign(2 * (size_t)N, fill);
    u->assign(8, 0.0f);
    for (int o = 0; o < n; o++) {
        (*w)[2 * o] = z[2 * o + 1] * 2.0f;
        (*w)[2 * o + 1] = z[2 * o] + 1.0f;
    }
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 4; c++) (*u)[c * 2 + r] = t[r * 4 + c];
}

}  // namespace box_ref
