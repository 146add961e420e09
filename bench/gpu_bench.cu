// GPU benchmarks of mytriton's generated launchers (issue 8), one line per
// figure: CUDA events, warm-up, then the median of many repetitions.
//
//   build/bin/mytriton_bench_gpu            all figures
//   build/bin/mytriton_bench_gpu --quick    fewer repetitions
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "mytriton_bench_kernels.h"

#define CHECK(x)                                                                 \
    do {                                                                         \
        cudaError_t e_ = (x);                                                    \
        if (e_ != cudaSuccess) {                                                 \
            std::fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #x, \
                         cudaGetErrorString(e_), mytriton_last_error());         \
            std::exit(1);                                                        \
        }                                                                        \
    } while (0)

static int g_reps = 50;
static const char *g_only = nullptr;  // --only copy|vadd|softmax|matmul|launch

static bool want(const char *what) { return !g_only || std::strcmp(g_only, what) == 0; }

__global__ void empty_kernel(float *p, int n) {
    if (n < 0) p[0] = 0;
}

// Median time in ms of `fn` (which launches work on stream 0).
static double time_ms(const std::function<cudaError_t()> &fn, int reps = -1) {
    if (reps < 0) reps = g_reps;
    for (int i = 0; i < 3; i++) CHECK(fn());
    CHECK(cudaDeviceSynchronize());
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    std::vector<double> t;
    for (int i = 0; i < reps; i++) {
        CHECK(cudaEventRecord(a));
        CHECK(fn());
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms);
    }
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

static float *device_random(size_t n, unsigned seed) {
    std::vector<float> h(n);
    std::mt19937 g(seed);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    for (auto &x : h) x = d(g);
    float *p = nullptr;
    CHECK(cudaMalloc(&p, n * sizeof(float)));
    CHECK(cudaMemcpy(p, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    return p;
}

static std::vector<float> to_host(const float *d, size_t n) {
    std::vector<float> h(n);
    CHECK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
    return h;
}

typedef cudaError_t (*VAdd3)(cudaStream_t, const float *, const float *, float *, int32_t);
typedef cudaError_t (*Row3)(cudaStream_t, mytriton_grid, const float *, float *, int32_t);

static const char *verdict(bool met) { return met ? "MET" : "NOT MET"; }

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--quick") == 0) g_reps = 10;
        if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) g_only = argv[++i];
    }
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        std::printf("no CUDA device: the GPU benchmarks need one\n");
        return 0;
    }
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf(
        "device: %s, %d SMs, %.0f MB "
        "L2\n",
        prop.name, prop.multiProcessorCount, prop.l2CacheSize / 1048576.0);

    // ---- Memory: cudaMemcpy device to device, and vector add ----------
    const int n = 1 << 26;
    float *x = device_random(n, 1), *y = device_random(n, 2), *out = nullptr, *copy = nullptr;
    CHECK(cudaMalloc(&out, n * sizeof(float)));
    CHECK(cudaMalloc(&copy, n * sizeof(float)));
    auto bw = [](double ms, double bytes) { return bytes / (ms * 1e6); };
    if (want("vadd")) {
        double t_copy = time_ms(
            [&] { return cudaMemcpyAsync(copy, x, n * sizeof(float), cudaMemcpyDeviceToDevice); });
        double bw_copy = 2.0 * n * 4 / (t_copy * 1e6);
        std::printf(
            "copy: cudaMemcpy device-to-device of 2^26 fp32: %.3f ms, %.0f GB/s (read + "
            "write)\n",
            t_copy, bw_copy);
        double t_add1 = time_ms([&] { return launch_bench_vadd_o1(0, x, y, out, n); });
        double t_add2 = time_ms([&] { return launch_bench_vadd_o2(0, x, y, out, n); });
        double t_addh = time_ms([&] { return launch_bench_vadd_hint_o2(0, x, y, out, n); });
        {
            auto hx = to_host(x, 1024), hy = to_host(y, 1024), ho = to_host(out, 1024);
            for (int i = 0; i < 1024; i++)
                if (ho[i] != hx[i] + hy[i]) {
                    std::printf("vector add: WRONG RESULT at %d\n", i);
                    return 1;
                }
        }
        double b1 = bw(t_add1, 3.0 * n * 4), b2 = bw(t_add2, 3.0 * n * 4),
               bh = bw(t_addh, 3.0 * n * 4);
        std::printf(
            "vector_add n=2^26 BLOCK=1024: -O1 %.3f ms %.0f GB/s | -O2 %.3f ms %.0f GB/s "
            "(%.0f%% of copy) | "
            "-O2 with *fp32:16 hints %.3f ms %.0f GB/s\n",
            t_add1, b1, t_add2, b2, 100.0 * b2 / bw_copy, t_addh, bh);
        std::printf("  target: -O2 >= 95%% of the copy bandwidth: %s\n",
                    verdict(b2 >= 0.95 * bw_copy));
        VAdd3 vw[] = {launch_bench_vadd_w1, launch_bench_vadd_w2, launch_bench_vadd_w4,
                      launch_bench_vadd_w8};
        for (int w = 0; w < 4; w++) {
            double t = time_ms([&] { return vw[w](0, x, y, out, n); });
            std::printf("  -O2 with NUM_WARPS %d: %.3f ms %.0f GB/s\n", 1 << w, t,
                        bw(t, 3.0 * n * 4));
        }
    }
    if (want("softmax")) {
        // ---- Reductions: softmax and row sum of 65536 x 1024 ----------------
        const int rows = 65536, cols = 1024;
        float *rs = nullptr;
        CHECK(cudaMalloc(&rs, rows * sizeof(float)));
        mytriton_grid g = {rows, 1, 1};
        double t_sm1 = time_ms([&] { return launch_bench_softmax_o1(0, g, x, out, cols); });
        double t_sm2 = time_ms([&] { return launch_bench_softmax_o2(0, g, x, out, cols); });
        {
            auto ho = to_host(out, 4 * cols);
            for (int r = 0; r < 4; r++) {
                double s = 0;
                for (int c = 0; c < cols; c++) s += ho[r * cols + c];
                if (std::fabs(s - 1.0) > 1e-3) {
                    std::printf("softmax: WRONG RESULT (row %d sums to %f)\n", r, s);
                    return 1;
                }
            }
        }
        double t_rs1 = time_ms([&] { return launch_bench_row_sum_o1(0, g, x, rs, cols); });
        double t_rs2 = time_ms([&] { return launch_bench_row_sum_o2(0, g, x, rs, cols); });
        std::printf(
            "softmax 65536x1024: -O1 %.3f ms %.0f GB/s | -O2 %.3f ms %.0f "
            "GB/s\n",
            t_sm1, bw(t_sm1, 2.0 * rows * cols * 4), t_sm2, bw(t_sm2, 2.0 * rows * cols * 4));
        std::printf("  target: -O2 <= 0.14 ms: %s\n", verdict(t_sm2 <= 0.14));
        Row3 sw[] = {launch_bench_softmax_w1, launch_bench_softmax_w2, launch_bench_softmax_w4,
                     launch_bench_softmax_w8};
        for (int w = 0; w < 4; w++) {
            double t = time_ms([&] { return sw[w](0, g, x, out, cols); });
            std::printf(
                "  -O2 with NUM_WARPS %d: %.3f ms %.0f "
                "GB/s\n",
                1 << w, t, bw(t, 2.0 * rows * cols * 4));
        }
        std::printf(
            "row_sum 65536x1024: -O1 %.3f ms %.0f GB/s | -O2 %.3f ms %.0f "
            "GB/s\n",
            t_rs1, bw(t_rs1, 1.0 * rows * cols * 4), t_rs2, bw(t_rs2, 1.0 * rows * cols * 4));
        CHECK(cudaFree(rs));
    }
    CHECK(cudaFree(copy));
    if (want("matmul")) {
        // ---- The runtime-K matmul of the conformance suite, 4096^3 ----------
        const int M = 4096, N = 4096, K = 4096;
        float *A = device_random((size_t)M * K, 3), *B = device_random((size_t)K * N, 4),
              *Cm = nullptr;
        CHECK(cudaMalloc(&Cm, (size_t)M * N * sizeof(float)));
        std::vector<float> hA = to_host(A, (size_t)M * K), hB = to_host(B, (size_t)K * N);
        struct MM {
            const char *tile;
            int opt;
            cudaError_t (*f)(cudaStream_t, const float *, const float *, float *, int32_t, int32_t,
                             int32_t);
        } mms[] = {
            {"16x16", 1, launch_bench_mm16_o1},       {"32x32", 1, launch_bench_mm32_o1},
            {"16x16", 2, launch_bench_mm16_o2},       {"32x32", 2, launch_bench_mm32_o2},
            {"64x64", 2, launch_bench_mm64x64_o2},    {"128x128", 2, launch_bench_mm128x128_o2},
            {"64x128", 2, launch_bench_mm64x128_o2},  {"128x64", 2, launch_bench_mm128x64_o2},
            {"256x256", 2, launch_bench_mm256x256_o2}};
        double best = 1e30;
        const char *best_tile = "";
        std::mt19937 pick(7);
        for (auto &m : mms) {
            CHECK(cudaMemset(Cm, 0, (size_t)M * N * sizeof(float)));
            cudaError_t e = m.f(0, A, B, Cm, M, N, K);
            if (e != cudaSuccess) {
                std::printf(
                    "matmul_runtime_k 4096^3 BM x BN = %s -O%d: launch failed: "
                    "%s\n",
                    m.tile, m.opt, mytriton_last_error());
                continue;
            }
            CHECK(cudaDeviceSynchronize());
            auto hC = to_host(Cm, (size_t)M * N);
            double maxerr = 0;
            for (int s = 0; s < 32; s++) {
                int i = pick() % M, j = pick() % N;
                double want = 0;
                for (int k = 0; k < K; k++)
                    want += (double)hA[(size_t)i * K + k] * hB[(size_t)k * N + j];
                maxerr = std::max(maxerr, std::fabs(want - hC[(size_t)i * N + j]));
            }
            double t =
                time_ms([&] { return m.f(0, A, B, Cm, M, N, K); }, g_reps > 10 ? 10 : g_reps);
            double tf = 2.0 * M * N * K / (t * 1e9);
            std::printf(
                "matmul_runtime_k 4096^3 BM x BN = %-7s -O%d: %8.3f ms, %5.1f TFLOP/s (max "
                "error %.1e on 32 samples)%s\n",
                m.tile, m.opt, t, tf, maxerr, maxerr > 1e-2 ? "  WRONG RESULT" : "");
            if (maxerr > 1e-2) return 1;
            if (m.opt == 2 && t < best) best = t, best_tile = m.tile;
        }
        std::printf(
            "  target: -O2 <= 8 ms (best: %s, %.3f ms): "
            "%s\n",
            best_tile, best, verdict(best <= 8.0));
        CHECK(cudaFree(A));
        CHECK(cudaFree(B));
        CHECK(cudaFree(Cm));
    }

    // ---- Host time per launcher call -------------------------------------
    if (want("launch")) {
        const int tn = 1024, batch = 100, batches = 50;
        std::vector<double> per;
        for (int b = 0; b < batches + 2; b++) {
            auto t0 = std::chrono::steady_clock::now();
            for (int i = 0; i < batch; i++) CHECK(launch_bench_tiny_o2(0, x, y, out, tn));
            auto t1 = std::chrono::steady_clock::now();
            CHECK(cudaDeviceSynchronize());
            if (b >= 2)
                per.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / batch);
        }
        std::sort(per.begin(), per.end());
        std::printf(
            "launcher overhead: host time per launch_bench_tiny_o2() call (n=1024): %.2f "
            "us (median of %d batches of %d)\n",
            per[per.size() / 2], batches, batch);
        std::printf("  target: <= 3 us: %s\n", verdict(per[per.size() / 2] <= 3.0));
        // the floor: the CUDA runtime's own cudaLaunchKernel of an empty kernel
        std::vector<double> raw;
        float *px = x;
        int pn = tn;
        void *args[] = {&px, &pn};
        for (int b = 0; b < batches + 2; b++) {
            auto t0 = std::chrono::steady_clock::now();
            for (int i = 0; i < batch; i++)
                CHECK(cudaLaunchKernel((const void *)empty_kernel, dim3(8), dim3(128), args, 0, 0));
            auto t1 = std::chrono::steady_clock::now();
            CHECK(cudaDeviceSynchronize());
            if (b >= 2)
                raw.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / batch);
        }
        std::sort(raw.begin(), raw.end());
        std::printf(
            "  for comparison, a bare cudaLaunchKernel of an empty kernel: %.2f us per "
            "call\n",
            raw[raw.size() / 2]);
    }
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    CHECK(cudaFree(out));
    return 0;
}
