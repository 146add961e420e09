// The MLIR-built kernels on a GPU: every conformance kernel, built by
// mytriton_add_kernels(... BACKENDS cuda mlir), launched through
// launch_mlir_<case>_mlir (the PTX of mlir-opt, loaded with the driver API)
// and compared with launch_mlir_<case> (nvcc) and a CPU reference. Without
// a GPU each test is skipped with a message (GTEST_SKIP), except the checks
// a launcher makes before it needs one.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include "../support/random.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "mytriton_mlir_exec_kernels.h"

namespace {

std::string no_gpu_reason() {
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess)
        return std::string("no usable CUDA device (") + cudaGetErrorString(err) + ")";
    if (n == 0) return "no CUDA device";
    return "";
}

#define REQUIRE_GPU()                                                                          \
    do {                                                                                       \
        std::string why_ = no_gpu_reason();                                                    \
        if (!why_.empty()) GTEST_SKIP() << why_ << ": the MLIR-built kernels cannot run here"; \
    } while (0)

// A device buffer of n elements.
template <class T>
struct Dev {
    T *p = nullptr;
    size_t n = 0;
    explicit Dev(size_t count) : n(count) {
        EXPECT_EQ(cudaMalloc(reinterpret_cast<void **>(&p), (count ? count : 1) * sizeof(T)),
                  cudaSuccess);
    }
    explicit Dev(const std::vector<T> &v) : Dev(v.size()) { put(v); }
    ~Dev() { cudaFree(p); }
    Dev(const Dev &) = delete;
    Dev &operator=(const Dev &) = delete;
    void put(const std::vector<T> &v) {
        EXPECT_EQ(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice),
                  cudaSuccess);
    }
    void fill(T value) { put(std::vector<T>(n, value)); }
    std::vector<T> get() const {
        std::vector<T> v(n);
        EXPECT_EQ(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
        return v;
    }
};

using mt_test::random_floats;

uint32_t bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

// Same bits (NaNs: any NaN).
void expect_same(const std::vector<float> &got, const std::vector<float> &want, const char *what) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); i++) {
        if (std::isnan(want[i]) && std::isnan(got[i])) continue;
        ASSERT_EQ(bits(got[i]), bits(want[i]))
            << what << " at " << i << ": " << got[i] << " vs " << want[i];
    }
}

// Same values: bits, except that a zero equals a zero of either sign (the
// NaN-ignoring maximum and minimum of +0 and -0 may give either, fmaxf's rule).
void expect_same_value(const std::vector<float> &got, const std::vector<float> &want,
                       const char *what) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); i++) {
        if (std::isnan(want[i]) && std::isnan(got[i])) continue;
        if (got[i] == 0.0f && want[i] == 0.0f) continue;
        ASSERT_EQ(bits(got[i]), bits(want[i]))
            << what << " at " << i << ": " << got[i] << " vs " << want[i];
    }
}

void expect_near(const std::vector<float> &got, const std::vector<float> &want, float rel,
                 float abs, const char *what) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); i++) {
        if (std::isnan(want[i])) {
            ASSERT_TRUE(std::isnan(got[i])) << what << " at " << i;
            continue;
        }
        ASSERT_NEAR(got[i], want[i], abs + rel * std::fabs(want[i])) << what << " at " << i;
    }
}

#define SYNC() ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess)

// ---- Elementwise ----------------------------------------------------------------

TEST(MlirExec, VectorAdd) {
    REQUIRE_GPU();
    for (int n : {1000, 256, 1, 0}) {
        auto x = random_floats(n, 1), y = random_floats(n, 2);
        std::vector<float> want(n);
        for (int i = 0; i < n; i++) want[i] = x[i] + y[i];
        Dev<float> dx(x), dy(y), mlir(n), cuda(n);
        mlir.fill(-7.0f);
        cuda.fill(-7.0f);
        ASSERT_EQ(launch_mlir_vector_add_mlir(nullptr, dx.p, dy.p, mlir.p, n), cudaSuccess)
            << mytriton_last_error();
        ASSERT_EQ(launch_mlir_vector_add(nullptr, dx.p, dy.p, cuda.p, n), cudaSuccess)
            << mytriton_last_error();
        SYNC();
        expect_same(mlir.get(), want, "mlir vs cpu");
        expect_same(mlir.get(), cuda.get(), "mlir vs cuda");
    }
}

// tl.maximum / tl.minimum at -O2 (these kernels' level): Triton's default
// PropagateNan.NONE, so a NaN operand gives the other one; ties (+0, -0)
// give either (expect_same_value).
float maximum(float a, float b) { return std::isnan(a) ? b : std::isnan(b) ? a : (a > b ? a : b); }
float minimum(float a, float b) { return std::isnan(a) ? b : std::isnan(b) ? a : (a < b ? a : b); }

std::vector<float> special_floats(size_t n, unsigned seed) {
    auto v = random_floats(n, seed, -4.0f, 4.0f);
    const float specials[] = {NAN, -0.0f, 0.0f, INFINITY, -INFINITY, 1.0f, -1.0f, 0.5f};
    for (size_t i = 0; i < n; i += 7) v[i] = specials[(i / 7) % 8];
    return v;
}

TEST(MlirExec, ScaledRelu) {
    REQUIRE_GPU();
    const int n = 777;
    const float scale = 1.5f;
    auto x = special_floats(n, 3);
    std::vector<float> want(n);
    for (int i = 0; i < n; i++) want[i] = maximum(x[i] * scale, 0.0f);
    Dev<float> dx(x), mlir(n), cuda(n);
    ASSERT_EQ(launch_mlir_scaled_relu_mlir(nullptr, dx.p, mlir.p, n, scale), cudaSuccess)
        << mytriton_last_error();
    ASSERT_EQ(launch_mlir_scaled_relu(nullptr, dx.p, cuda.p, n, scale), cudaSuccess)
        << mytriton_last_error();
    SYNC();
    expect_same_value(mlir.get(), want, "mlir vs cpu");
    expect_same(mlir.get(), cuda.get(), "mlir vs cuda");
}

TEST(MlirExec, Silu) {
    REQUIRE_GPU();
    const int n = 1000;
    auto x = random_floats(n, 4, -8.0f, 8.0f);
    std::vector<float> want(n);
    for (int i = 0; i < n; i++) want[i] = x[i] / (1.0f + std::exp(-x[i]));
    Dev<float> dx(x), mlir(n), cuda(n);
    ASSERT_EQ(launch_mlir_silu_mlir(nullptr, dx.p, mlir.p, n), cudaSuccess)
        << mytriton_last_error();
    ASSERT_EQ(launch_mlir_silu(nullptr, dx.p, cuda.p, n), cudaSuccess) << mytriton_last_error();
    SYNC();
    expect_near(mlir.get(), want, 1e-5f, 1e-6f, "mlir vs cpu");
    expect_near(mlir.get(), cuda.get(), 1e-6f, 1e-7f, "mlir vs cuda");
}

TEST(MlirExec, ClampIgnoresNanAndPicksTheRightOperandOnTies) {
    REQUIRE_GPU();
    const int n = 500;
    auto x = special_floats(n, 5);
    struct Bounds {
        float lo, hi;
    };
    for (Bounds b :
         {Bounds{-0.5f, 0.5f}, Bounds{0.0f, 0.0f}, Bounds{-0.0f, 2.0f}, Bounds{NAN, 1.0f}}) {
        std::vector<float> want(n);
        for (int i = 0; i < n; i++) {
            float clipped = minimum(maximum(x[i], b.lo), b.hi);
            want[i] = x[i] < b.lo ? b.lo : clipped;
        }
        Dev<float> dx(x), mlir(n), cuda(n);
        ASSERT_EQ(launch_mlir_clamp_mlir(nullptr, dx.p, mlir.p, n, b.lo, b.hi), cudaSuccess)
            << mytriton_last_error();
        ASSERT_EQ(launch_mlir_clamp(nullptr, dx.p, cuda.p, n, b.lo, b.hi), cudaSuccess)
            << mytriton_last_error();
        SYNC();
        expect_same_value(mlir.get(), want, "mlir vs cpu");
        expect_same(mlir.get(), cuda.get(), "mlir vs cuda");
    }
}

TEST(MlirExec, MatrixAdd2d) {
    REQUIRE_GPU();
    const int M = 37, N = 70;
    auto x = random_floats(M * N, 6), y = random_floats(M * N, 7);
    std::vector<float> want(M * N);
    for (int i = 0; i < M * N; i++) want[i] = x[i] + y[i];
    Dev<float> dx(x), dy(y), mlir(M * N), cuda(M * N);
    ASSERT_EQ(launch_mlir_matrix_add_2d_mlir(nullptr, dx.p, dy.p, mlir.p, M, N), cudaSuccess)
        << mytriton_last_error();
    ASSERT_EQ(launch_mlir_matrix_add_2d(nullptr, dx.p, dy.p, cuda.p, M, N), cudaSuccess)
        << mytriton_last_error();
    SYNC();
    expect_same(mlir.get(), want, "mlir vs cpu");
    expect_same(mlir.get(), cuda.get(), "mlir vs cuda");
}

// ---- Reductions -------------------------------------------------------------------

TEST(MlirExec, Softmax) {
    REQUIRE_GPU();
    const int rows = 37, cols = 1000;
    auto x = random_floats(rows * cols, 8, -5.0f, 5.0f);
    std::vector<float> want(rows * cols);
    for (int r = 0; r < rows; r++) {
        float mx = -INFINITY;
        for (int c = 0; c < cols; c++) mx = std::fmax(mx, x[r * cols + c]);
        double sum = 0;
        for (int c = 0; c < cols; c++) sum += std::exp(x[r * cols + c] - mx);
        for (int c = 0; c < cols; c++)
            want[r * cols + c] = static_cast<float>(std::exp(x[r * cols + c] - mx) / sum);
    }
    Dev<float> dx(x), mlir(rows * cols), cuda(rows * cols);
    mytriton_grid grid = {rows, 1, 1};
    ASSERT_EQ(launch_mlir_softmax_mlir(nullptr, grid, dx.p, mlir.p, cols), cudaSuccess)
        << mytriton_last_error();
    ASSERT_EQ(launch_mlir_softmax(nullptr, grid, dx.p, cuda.p, cols), cudaSuccess)
        << mytriton_last_error();
    SYNC();
    expect_near(mlir.get(), want, 1e-4f, 1e-7f, "mlir vs cpu");
    expect_near(mlir.get(), cuda.get(), 1e-5f, 1e-8f, "mlir vs cuda");
}

TEST(MlirExec, RowSum) {
    REQUIRE_GPU();
    const int rows = 50, cols = 100;
    auto x = random_floats(rows * cols, 9);
    std::vector<float> want(rows);
    for (int r = 0; r < rows; r++) {
        double s = 0;
        for (int c = 0; c < cols; c++) s += x[r * cols + c];
        want[r] = static_cast<float>(s);
    }
    Dev<float> dx(x), mlir(rows), cuda(rows);
    mytriton_grid grid = {rows, 1, 1};
    ASSERT_EQ(launch_mlir_row_sum_mlir(nullptr, grid, dx.p, mlir.p, cols), cudaSuccess)
        << mytriton_last_error();
    ASSERT_EQ(launch_mlir_row_sum(nullptr, grid, dx.p, cuda.p, cols), cudaSuccess)
        << mytriton_last_error();
    SYNC();
    expect_near(mlir.get(), want, 1e-5f, 1e-5f, "mlir vs cpu");
    expect_near(mlir.get(), cuda.get(), 1e-5f, 1e-5f, "mlir vs cuda");
}

// ---- Runtime loops ----------------------------------------------------------------

void check_matmul(bool seed_form, int M, int N, int K) {
    auto a = random_floats(static_cast<size_t>(M) * K, 10),
         b = random_floats(static_cast<size_t>(K) * N, 11);
    std::vector<float> want(static_cast<size_t>(M) * N);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float acc = 0.0f;
            for (int k = 0; k < K; k++) acc += a[i * K + k] * b[k * N + j];
            want[i * N + j] = acc;
        }
    Dev<float> da(a), db(b), mlir(want.size()), cuda(want.size());
    mlir.fill(-7.0f);
    cuda.fill(-7.0f);
    if (seed_form) {
        ASSERT_EQ(launch_mlir_seed_matmul_runtime_k_mlir(nullptr, da.p, db.p, mlir.p, M, N, K),
                  cudaSuccess)
            << mytriton_last_error();
        ASSERT_EQ(launch_mlir_seed_matmul_runtime_k(nullptr, da.p, db.p, cuda.p, M, N, K),
                  cudaSuccess)
            << mytriton_last_error();
    } else {
        ASSERT_EQ(launch_mlir_matmul_runtime_k_mlir(nullptr, da.p, db.p, mlir.p, M, N, K),
                  cudaSuccess)
            << mytriton_last_error();
        ASSERT_EQ(launch_mlir_matmul_runtime_k(nullptr, da.p, db.p, cuda.p, M, N, K), cudaSuccess)
            << mytriton_last_error();
    }
    SYNC();
    // fused multiply-adds may round differently from the CPU's
    expect_near(mlir.get(), want, 1e-5f, 1e-5f * (K + 1), "mlir vs cpu");
    expect_near(mlir.get(), cuda.get(), 1e-5f, 1e-5f * (K + 1), "mlir vs cuda");
}

TEST(MlirExec, MatmulRuntimeK) {
    REQUIRE_GPU();
    check_matmul(false, 37, 45, 29);
    check_matmul(false, 64, 64, 128);
    check_matmul(false, 5, 3, 0);  // zero iterations: the zeros tile
}

TEST(MlirExec, SeedMatmulRuntimeK) {
    REQUIRE_GPU();
    check_matmul(true, 37, 45, 29);
    check_matmul(true, 9, 17, 0);
}

TEST(MlirExec, RuntimeSum) {
    REQUIRE_GPU();
    for (int K : {1000, 1, 0}) {
        auto x = random_floats(K, 12);
        float want = 0.0f;
        for (int k = 0; k < K; k++) want += x[k];
        Dev<float> dx(x), mlir(1), cuda(1);
        mlir.fill(-7.0f);
        cuda.fill(-7.0f);
        ASSERT_EQ(launch_mlir_runtime_sum_mlir(nullptr, dx.p, mlir.p, K), cudaSuccess)
            << mytriton_last_error();
        ASSERT_EQ(launch_mlir_runtime_sum(nullptr, dx.p, cuda.p, K), cudaSuccess)
            << mytriton_last_error();
        SYNC();
        // a sequential float sum on every side: the same bits
        expect_same(mlir.get(), {want}, "mlir vs cpu");
        expect_same(mlir.get(), cuda.get(), "mlir vs cuda");
    }
}

TEST(MlirExec, NestedCount) {
    REQUIRE_GPU();
    struct Size {
        int M, N;
    };
    for (Size s : {Size{7, 9}, Size{0, 5}, Size{5, 0}, Size{1, 1}}) {
        Dev<float> mlir(1), cuda(1);
        ASSERT_EQ(launch_mlir_nested_count_mlir(nullptr, mlir.p, s.M, s.N), cudaSuccess)
            << mytriton_last_error();
        ASSERT_EQ(launch_mlir_nested_count(nullptr, cuda.p, s.M, s.N), cudaSuccess)
            << mytriton_last_error();
        SYNC();
        expect_same(mlir.get(), {static_cast<float>(s.M * s.N)}, "mlir vs cpu");
        expect_same(mlir.get(), cuda.get(), "mlir vs cuda");
    }
}

TEST(MlirExec, TwoCarried) {
    REQUIRE_GPU();
    for (int n : {10, 11, 1, 0}) {
        auto x = random_floats(n + 1, 13);
        int total = 0;
        float scaled = 0.0f;
        for (int i = 1; i < n; i += 2) {
            total += i;
            scaled += x[i] * 0.5f;
        }
        Dev<float> dx(x), mlir(1), cuda(1);
        ASSERT_EQ(launch_mlir_two_carried_mlir(nullptr, dx.p, mlir.p, n), cudaSuccess)
            << mytriton_last_error();
        ASSERT_EQ(launch_mlir_two_carried(nullptr, dx.p, cuda.p, n), cudaSuccess)
            << mytriton_last_error();
        SYNC();
        expect_same(mlir.get(), {scaled + static_cast<float>(total)}, "mlir vs cpu");
        expect_same(mlir.get(), cuda.get(), "mlir vs cuda");
    }
}

TEST(MlirExec, BlockAccumulate) {
    REQUIRE_GPU();
    for (int chunks : {5, 0}) {
        auto x = random_floats(static_cast<size_t>(chunks) * 64, 14);
        std::vector<float> want(64, 0.0f);
        for (int c = 0; c < chunks; c++)
            for (int l = 0; l < 64; l++) want[l] += x[c * 64 + l];
        Dev<float> dx(x), mlir(64), cuda(64);
        ASSERT_EQ(launch_mlir_block_accumulate_mlir(nullptr, dx.p, mlir.p, chunks), cudaSuccess)
            << mytriton_last_error();
        ASSERT_EQ(launch_mlir_block_accumulate(nullptr, dx.p, cuda.p, chunks), cudaSuccess)
            << mytriton_last_error();
        SYNC();
        expect_same(mlir.get(), want, "mlir vs cpu");
        expect_same(mlir.get(), cuda.get(), "mlir vs cuda");
    }
}

// ---- The launcher ------------------------------------------------------------------

TEST(MlirLauncher, RejectsANegativeSizeBeforeNeedingAGpu) {
    mytriton_clear_last_error();
    EXPECT_EQ(launch_mlir_vector_add_mlir(nullptr, nullptr, nullptr, nullptr, -1),
              cudaErrorInvalidValue);
    EXPECT_NE(
        std::string(mytriton_last_error()).find("launch_mlir_vector_add_mlir: n = -1 is negative"),
        std::string::npos)
        << mytriton_last_error();
    mytriton_grid too_big = {1, 70000, 1};
    EXPECT_EQ(launch_mlir_softmax_mlir(nullptr, too_big, nullptr, nullptr, 4),
              cudaErrorInvalidValue);
    // an empty grid launches nothing and succeeds
    EXPECT_EQ(launch_mlir_vector_add_mlir(nullptr, nullptr, nullptr, nullptr, 0), cudaSuccess);
}

TEST(MlirLauncher, WithoutAGpuALaunchFailsWithAMessage) {
    if (no_gpu_reason().empty())
        GTEST_SKIP() << "a GPU is present: this checks the failure without one";
    mytriton_clear_last_error();
    float dummy = 0.0f;
    cudaError_t err = launch_mlir_runtime_sum_mlir(nullptr, &dummy, &dummy, 1);
    EXPECT_NE(err, cudaSuccess);
    EXPECT_NE(std::string(mytriton_last_error()).find("launch_mlir_runtime_sum_mlir: "),
              std::string::npos)
        << mytriton_last_error();
}

TEST(MlirLauncher, RegistryLaunchByName) {
    mytriton_mlir_exec_kernels_register_kernels();
    const mytriton_kernel_info *info = mytriton_find_kernel("mlir_vector_add", "mlir");
    ASSERT_NE(info, nullptr);
    EXPECT_STREQ(info->backend, "mlir");
    EXPECT_STREQ(info->kernel, "add_kernel");
    EXPECT_EQ(info->threads_per_block, 256);
    EXPECT_EQ(info->num_args, 4);
    ASSERT_NE(mytriton_find_kernel("mlir_vector_add", "cuda"), nullptr);
    REQUIRE_GPU();
    const int n = 300;
    auto x = random_floats(n, 15), y = random_floats(n, 16);
    Dev<float> dx(x), dy(y), out(n);
    int32_t count = n;
    const float *px = dx.p;
    const float *py = dy.p;
    float *po = out.p;
    void *args[] = {&px, &py, &po, &count};
    ASSERT_EQ(mytriton_launch("mlir_vector_add", "mlir", nullptr, args, nullptr), 0)
        << mytriton_last_error();
    SYNC();
    auto got = out.get();
    for (int i = 0; i < n; i++) ASSERT_EQ(got[i], x[i] + y[i]) << i;
}

TEST(MlirLauncher, ManyThreadsShareOneModulePerContext) {
    REQUIRE_GPU();
    const int n = 4096;
    auto x = random_floats(n, 17), y = random_floats(n, 18);
    Dev<float> dx(x), dy(y);
    std::vector<float *> outs(8);
    for (auto &o : outs)
        ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&o), n * sizeof(float)), cudaSuccess);
    std::vector<std::thread> threads;
    std::vector<cudaError_t> results(outs.size(), cudaErrorUnknown);
    for (size_t t = 0; t < outs.size(); t++)
        threads.emplace_back([&, t] {
            // half the threads start without a current context: the
            // launcher makes the device's primary context current
            if (t % 2) cudaSetDevice(0);
            cudaError_t err = cudaSuccess;
            for (int rep = 0; rep < 20 && err == cudaSuccess; rep++)
                err = launch_mlir_vector_add_mlir(nullptr, dx.p, dy.p, outs[t], n);
            if (err == cudaSuccess) err = cudaDeviceSynchronize();
            results[t] = err;
        });
    for (auto &th : threads) th.join();
    for (size_t t = 0; t < outs.size(); t++) {
        ASSERT_EQ(results[t], cudaSuccess) << "thread " << t;
        std::vector<float> got(n);
        ASSERT_EQ(cudaMemcpy(got.data(), outs[t], n * sizeof(float), cudaMemcpyDeviceToHost),
                  cudaSuccess);
        for (int i = 0; i < n; i++) ASSERT_EQ(got[i], x[i] + y[i]) << "thread " << t << " at " << i;
        cudaFree(outs[t]);
    }
}

TEST(MlirLauncher, ReloadsAfterTheContextIsReset) {
    REQUIRE_GPU();
    for (int round = 0; round < 2; round++) {
        const int n = 100;
        auto x = random_floats(n, 19), y = random_floats(n, 20);
        {
            Dev<float> dx(x), dy(y), out(n);
            ASSERT_EQ(launch_mlir_vector_add_mlir(nullptr, dx.p, dy.p, out.p, n), cudaSuccess)
                << mytriton_last_error();
            SYNC();
            auto got = out.get();
            for (int i = 0; i < n; i++)
                ASSERT_EQ(got[i], x[i] + y[i]) << "round " << round << " at " << i;
        }
        // a new primary context: the module is loaded again, not reused
        ASSERT_EQ(cudaDeviceReset(), cudaSuccess);
    }
}

}  // namespace
