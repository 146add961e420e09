// Autotuned launchers on the GPU (issue 16), one line per figure:
//   - host time per call of a dispatching launcher (tuned key: a mutex, a
//     hash probe and the divisibility test) against a direct call of the
//     variant it dispatches to; target: at most 0.3 us more
//   - the benchmark suite's runtime-K matmul (4096^3) and row softmax
//     (65536 x 1024) through one autotuned launcher each: the time of the
//     first call (tuning), the config chosen, and every config measured
//     directly next to the tuned launcher
//
//   build/bin/mytriton_bench_autotune            all figures
//   build/bin/mytriton_bench_autotune --quick    fewer repetitions
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "mytriton/autotune.h"
#include "mytriton_bench_autotuned.h"

#define CHECK(x)                                                                 \
    do {                                                                         \
        cudaError_t e_ = (x);                                                    \
        if (e_ != cudaSuccess) {                                                 \
            std::fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #x, \
                         cudaGetErrorString(e_), mytriton_last_error());         \
            std::exit(1);                                                        \
        }                                                                        \
    } while (0)

static int g_reps = 30;

static const char *verdict(bool ok) { return ok ? "met" : "NOT met"; }

// Median time in ms of `fn` (work on stream 0), CUDA events.
static double time_ms(const std::function<cudaError_t()> &fn, int reps = -1) {
    if (reps < 0) reps = g_reps;
    for (int i = 0; i < 2; i++) CHECK(fn());
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

// Host microseconds per call of `call`, median over batches.
static double host_us(const std::function<cudaError_t()> &call, int batch, int batches) {
    std::vector<double> per;
    for (int b = 0; b < batches + 2; b++) {
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < batch; i++) CHECK(call());
        auto t1 = std::chrono::steady_clock::now();
        CHECK(cudaDeviceSynchronize());
        if (b >= 2)
            per.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / batch);
    }
    std::sort(per.begin(), per.end());
    return per[per.size() / 2];
}

// Every config of a tuned launcher measured directly, next to the launcher.
static void report_configs(const char *name, const int64_t *key, void *const *args,
                           const mytriton_grid *grid, const std::function<cudaError_t()> &tuned) {
    const mytriton_tuner *t = mytriton_autotune_find(name, "cuda");
    int device = 0, chosen = -1;
    CHECK(cudaGetDevice(&device));
    if (!t || mytriton_autotune_choice(name, "cuda", device, key, t->nkeys, &chosen) != 0) {
        std::printf("%s: no choice: %s\n", name, mytriton_last_error());
        return;
    }
    double best = 1e30;
    int best_cfg = -1;
    for (int c = 0; c < t->nconfigs; c++) {
        if (t->allowed && !t->allowed(c, key)) {
            std::printf(
                "  config %d (%s): excluded by WHEN "
                "%s\n",
                c, t->configs[c], t->conditions[c]);
            continue;
        }
        std::string variant = std::string(name) + "_cfg" + std::to_string(c) + "_d16";
        double ms = time_ms(
            [&] { return (cudaError_t)mytriton_launch(variant.c_str(), "cuda", 0, args, grid); });
        std::printf("  config %d (%s): %.3f ms%s\n", c, t->configs[c], ms,
                    c == chosen ? "   <- "
                                  "chosen"
                                : "");
        if (ms < best) best = ms, best_cfg = c;
    }
    double mine = time_ms(tuned);
    std::printf(
        "  launch_%s (tuned, config %d): %.3f ms; best config %d: %.3f ms; ratio %.3f "
        "(target <= 1.05: %s)\n",
        name, chosen, mine, best_cfg, best, mine / best, verdict(mine <= best * 1.05));
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (std::strcmp(argv[i], "--quick") == 0) g_reps = 10;
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        std::printf("no CUDA device: nothing to measure\n");
        return 0;
    }
    mytriton_bench_autotuned_register_kernels();
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);

    // ---- launch cost: dispatching vs direct -----------------------------------
    {
        const int n = 1024, batch = 100, batches = 200;
        float *x = device_random(n, 1), *y = device_random(n, 2), *out = device_random(n, 3);
        CHECK(launch_bt_vadd(0, x, y, out, n));  // tunes this key
        CHECK(cudaDeviceSynchronize());
        int device = 0, chosen = -1;
        int64_t key[1] = {n};
        CHECK(cudaGetDevice(&device));
        if (mytriton_autotune_choice("bt_vadd", "cuda", device, key, 1, &chosen) != 0) {
            std::printf("bt_vadd: not tuned: %s\n", mytriton_last_error());
            return 1;
        }
        // the variant the dispatcher calls for these (aligned, n % 16 == 0) arguments
        std::function<cudaError_t()> direct;
        switch (chosen) {
        case 0: direct = [&] { return launch_bt_vadd_cfg0_d16(0, x, y, out, n); }; break;
        case 1: direct = [&] { return launch_bt_vadd_cfg1_d16(0, x, y, out, n); }; break;
        default: direct = [&] { return launch_bt_vadd_cfg2_d16(0, x, y, out, n); }; break;
        }
        auto dispatch = [&] { return launch_bt_vadd(0, x, y, out, n); };
        // interleaved rounds, so that clock and driver drift hit both alike
        std::vector<double> d_us, v_us, diff;
        for (int r = 0; r < 5; r++) {
            double a = host_us(dispatch, batch, batches / 5);
            double b = host_us(direct, batch, batches / 5);
            d_us.push_back(a);
            v_us.push_back(b);
            diff.push_back(a - b);
        }
        std::sort(d_us.begin(), d_us.end());
        std::sort(v_us.begin(), v_us.end());
        std::sort(diff.begin(), diff.end());
        double extra = diff[diff.size() / 2];
        std::printf(
            "launch cost: launch_bt_vadd (dispatching, 3 configs, tuned key) %.3f us per "
            "call; "
            "launch_bt_vadd_cfg%d_d16 (direct) %.3f us; dispatch adds %.3f us\n",
            d_us[d_us.size() / 2], chosen, v_us[v_us.size() / 2], extra);
        std::printf("  target: <= 0.3 us more than direct: %s\n", verdict(extra <= 0.3));
        auto one = [&] { return launch_bt_vadd_one(0, x, y, out, n); };
        auto one_direct = [&] { return launch_bt_vadd_one_cfg0_d16(0, x, y, out, n); };
        double o1 = host_us(one, batch, batches / 2), o2 = host_us(one_direct, batch, batches / 2);
        std::printf(
            "  one config (no table, only the divisibility test): launch_bt_vadd_one %.3f "
            "us, its variant %.3f us\n",
            o1, o2);
        CHECK(cudaFree(x));
        CHECK(cudaFree(y));
        CHECK(cudaFree(out));
    }

    // ---- the matmul through one autotuned launcher --------------------------------
    {
        const int M = 4096, N = 4096, K = 4096;
        float *A = device_random((size_t)M * K, 4), *B = device_random((size_t)K * N, 5),
              *C = nullptr;
        CHECK(cudaMalloc(&C, (size_t)M * N * sizeof(float)));
        auto t0 = std::chrono::steady_clock::now();
        CHECK(launch_bt_matmul(0, A, B, C, M, N, K));
        CHECK(cudaDeviceSynchronize());
        double first =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        std::printf(
            "matmul_runtime_k 4096^3 through launch_bt_matmul: first call (tunes %d "
            "configs) %.0f ms\n",
            mytriton_autotune_find("bt_matmul", "cuda")->nconfigs, first);
        const float *a = A, *b = B;
        float *c = C;
        int m = M, nn = N, k = K;
        void *args[] = {&a, &b, &c, &m, &nn, &k};
        int64_t key[3] = {M, N, K};
        report_configs("bt_matmul", key, args, nullptr,
                       [&] { return launch_bt_matmul(0, A, B, C, M, N, K); });
        CHECK(cudaFree(A));
        CHECK(cudaFree(B));
        CHECK(cudaFree(C));
    }

    // ---- the row softmax through one autotuned launcher ---------------------------
    {
        const int rows = 65536, cols = 1024;
        float *X = device_random((size_t)rows * cols, 6), *Y = nullptr;
        CHECK(cudaMalloc(&Y, (size_t)rows * cols * sizeof(float)));
        mytriton_grid grid = {rows, 1, 1};
        auto t0 = std::chrono::steady_clock::now();
        CHECK(launch_bt_softmax(0, grid, X, Y, cols));
        CHECK(cudaDeviceSynchronize());
        double first =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        std::printf(
            "row softmax 65536 x 1024 through launch_bt_softmax: first call (tunes %d "
            "configs) %.0f ms\n",
            mytriton_autotune_find("bt_softmax", "cuda")->nconfigs, first);
        const float *x = X;
        float *y = Y;
        int nc = cols;
        void *args[] = {&x, &y, &nc};
        int64_t key[1] = {cols};
        report_configs("bt_softmax", key, args, &grid,
                       [&] { return launch_bt_softmax(0, grid, X, Y, cols); });
        CHECK(cudaFree(X));
        CHECK(cudaFree(Y));
    }
    return 0;
}
