// The inputs and expected outputs of gather_kernel (kernels/shape.py) for
// (R, C) sources, (R2, C) and (R, C2) indexes: shared by lang_shape_test.cpp
// and ../emu/emu_shape_test.cpp.
#ifndef MT_TEST_GATHER_REF_H
#define MT_TEST_GATHER_REF_H

#include <cstdint>
#include <vector>

struct GatherCase {
    int R, C, R2, C2;
    std::vector<float> x;
    std::vector<int32_t> i;
    std::vector<int64_t> j;
    std::vector<int16_t> k;
    std::vector<float> rows, cols, one, vec; /* the expected outputs */

    GatherCase(int r, int c, int r2, int c2)
        : R(r),
          C(c),
          R2(r2),
          C2(c2),
          x(r * c),
          i(r2 * c),
          j(r * c2),
          k(r2),
          rows(r2 * c),
          cols(r * c2),
          one(c),
          vec(r2) {
        for (int e = 0; e < R * C; e++) x[e] = (float)e * 0.25f - 9.0f;
        for (int e = 0; e < R2 * C; e++) i[e] = (e * 7 + e / C) % R;
        for (int e = 0; e < R * C2; e++) j[e] = (e * 5 + 3) % C;
        for (int e = 0; e < R2; e++) k[e] = (int16_t)((e * 3 + 1) % C);
        for (int a = 0; a < R2; a++)
            for (int b = 0; b < C; b++) rows[a * C + b] = x[i[a * C + b] * C + b];
        for (int a = 0; a < R; a++)
            for (int b = 0; b < C2; b++) cols[a * C2 + b] = x[a * C + (int)j[a * C2 + b]];
        for (int b = 0; b < C; b++) one[b] = x[(R / 2 - 1) * C + b] * 2.0f;
        for (int e = 0; e < R2; e++) vec[e] = x[k[e]] + 1.0f;
    }
};

#endif
