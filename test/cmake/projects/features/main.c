/* cmake.package.features: runs the host launchers of every feature family
 * and checks a result of each; the CUDA launchers are linked, not run. */
#include <stdio.h>
#include <string.h>

#include "feature_kernels.h" /* (a library named features would make features.h, hiding glibc's) */

static int failures = 0;

static void check(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "features: %s failed (%s)\n", what, mytriton_last_error());
        failures++;
    }
}

int main(void) {
    enum { N = 1000 };
    static float x[N], out[N], sum[1], mx[4];
    for (int i = 0; i < N; i++) x[i] = (float)(i % 10);
    check(launch_atomics_host(x, sum, mx, N) == 0 && sum[0] == 4500.0f && mx[1] == 9.0f, "atomics");

    static mytriton_fp16 a[N], b[N];
    static mytriton_bf16 h[N];
    for (int i = 0; i < N; i++) {
        a[i] = mytriton_fp16_from_float(1.5f);
        b[i] = mytriton_fp16_from_float((float)(i % 4));
    }
    check(launch_half_host(a, b, h, N) == 0 && mytriton_bf16_to_float(h[7]) == 4.5f, "fp16/bf16");

    static float m[8 * 32], rsum[8], cmax[32], scan[8 * 32];
    for (int i = 0; i < 8 * 32; i++) m[i] = (float)(i / 32 + i % 32);
    check(launch_row_stats_host(m, rsum, cmax, scan) == 0 && rsum[1] == 528.0f && cmax[0] == 7.0f &&
              scan[31] == 496.0f,
          "reductions and scans");

    static mytriton_fp16 da[16 * 16], db[16 * 16];
    static float dc[16 * 16];
    for (int i = 0; i < 16 * 16; i++) {
        da[i] = mytriton_fp16_from_float(1.0f);
        db[i] = mytriton_fp16_from_float(i % 17 == 0 ? 1.0f : 0.0f); /* the identity */
    }
    check(launch_dot_host(da, db, dc) == 0 && dc[0] == 1.0f && dc[17] == 1.0f, "tl.dot");

    static int32_t ix[N];
    for (int i = 0; i < N; i++) ix[i] = i;
    check(launch_debug_host(ix, N) == 0, "device_assert");

    check(launch_random_host(out, 7, N) == 0 && out[0] >= 0.0f && out[0] < 1.0f, "tl.rand");

    memset(out, 0, sizeof out);
    check(launch_scale_host(x, out, N) == 0 && out[9] == 18.0f, "autotuned launcher");

#ifdef FEATURES_CUDA
    /* the CUDA launchers link (nvcc compiled them against the package) */
    void (*volatile cuda[])(void) = {
        (void (*)(void))launch_atomics,   (void (*)(void))launch_half,
        (void (*)(void))launch_row_stats, (void (*)(void))launch_dot,
        (void (*)(void))launch_debug,     (void (*)(void))launch_random,
        (void (*)(void))launch_scale};
    check(cuda[0] != NULL && cuda[6] != NULL, "linking the CUDA launchers");
#endif
    if (failures == 0) printf("features: every feature family ran on the host backend\n");
    return failures != 0;
}
