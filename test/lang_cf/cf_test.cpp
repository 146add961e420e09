// Runtime control flow (kernels/cf.py): each kernel compiled at -O1 and -O2
// (launchers <case>_o1 / <case>_o2 and their _host twins) runs on inputs
// made here and is compared with a reference written in C++.
//
//   HostO1.* / HostO2.*   the host backend (always)
//   CudaO1.* / CudaO2.*   the CUDA backend (GTEST_SKIP without a GPU)
//   Mlir.*                the MLIR backend's launchers (<case>_m, one thread per
//                         element as -O1; MT_CF_MLIR: built with a CUDA compiler and
//                         mlir-opt of MLIR 19; GTEST_SKIP without a GPU)
//   EmuO1.* / EmuO2.*     built with MT_CF_EMU=1 (mytriton_lang_cf_emu_test): the
//                         generated CUDA units compiled as C++ against test/emu's
//                         CPU emulation of the CUDA runtime
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "mytriton/runtime.h"
#if MT_CF_EMU
#include "cf_emu_units.h"  // each case's generated header (CMake writes it)
#define MT_CF_CUDA 0
#else
#include "mytriton_lang_cf_o1.h"
#include "mytriton_lang_cf_o2.h"
#endif
#if MT_CF_MLIR
#include "mytriton_lang_cf_mlir.h"
#endif

#if MT_CF_CUDA
#include <cuda_runtime_api.h>
#include "../support/gpu.h"
#endif

namespace {

// Where a case runs: the host backend or CUDA, at -O1 or -O2 (opt 0: the
// MLIR backend, on the device as CUDA).
struct Target {
    bool host;
    int opt;
};

#if MT_CF_CUDA
#endif

// Buffers of one launch: host vectors, mirrored on the device for CUDA and
// copied back by finish().
class Buffers {
  public:
    explicit Buffers(Target t) : t_(t) {}
    ~Buffers() {
#if MT_CF_CUDA
        for (void *p : device_) cudaFree(p);
#endif
    }
    template <class T>
    T *operator()(std::vector<T> &v) {
        if (t_.host) return v.data();
#if MT_CF_CUDA
        void *p = nullptr;
        size_t bytes = v.size() * sizeof(T);
        EXPECT_EQ(cudaMalloc(&p, bytes ? bytes : 4), cudaSuccess);
        if (bytes) {
            EXPECT_EQ(cudaMemcpy(p, v.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
        }
        device_.push_back(p);
        back_.push_back([p, &v, bytes] {
            if (bytes) {
                EXPECT_EQ(cudaMemcpy(v.data(), p, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
            }
        });
        return static_cast<T *>(p);
#else
        return nullptr;
#endif
    }
    void finish(int status) {
        ASSERT_EQ(status, 0) << mytriton_last_error();
#if MT_CF_CUDA
        if (!t_.host) {
            ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
            for (auto &f : back_) f();
        }
#endif
    }

  private:
    Target t_;
    std::vector<void *> device_;
    std::vector<std::function<void()>> back_;
};

#if MT_CF_MLIR
#define CF_MLIR(name, ...) ((int)launch_##name##_m_mlir(nullptr, __VA_ARGS__))
#else
#define CF_MLIR(name, ...) (-1)
#endif
#if MT_CF_CUDA || MT_CF_EMU
#define CF_CUDA(t, name, ...)                                       \
    ((t).opt == 0   ? CF_MLIR(name, __VA_ARGS__)                    \
     : (t).opt == 1 ? (int)launch_##name##_o1(nullptr, __VA_ARGS__) \
                    : (int)launch_##name##_o2(nullptr, __VA_ARGS__))
#else
#define CF_CUDA(t, name, ...) (-1)
#endif
// CF_LAUNCH(t, case, args...): the case's launcher for t's backend and level.
#if MT_CF_EMU
#define CF_LAUNCH(t, name, ...) CF_CUDA(t, name, __VA_ARGS__)
#else
#define CF_LAUNCH(t, name, ...)                                            \
    ((t).host ? ((t).opt == 1 ? (int)launch_##name##_o1_host(__VA_ARGS__)  \
                              : (int)launch_##name##_o2_host(__VA_ARGS__)) \
              : CF_CUDA(t, name, __VA_ARGS__))
#endif

#if MT_CF_CUDA
#define CF_CUDA_CASES(name)                            \
    TEST(CudaO1, name) {                               \
        std::string why;                               \
        if (!gpu_available(&why)) GTEST_SKIP() << why; \
        name##_case(Target{false, 1});                 \
    }                                                  \
    TEST(CudaO2, name) {                               \
        std::string why;                               \
        if (!gpu_available(&why)) GTEST_SKIP() << why; \
        name##_case(Target{false, 2});                 \
    }
#else
#define CF_CUDA_CASES(name)
#endif
#if MT_CF_MLIR
#define CF_MLIR_CASE(name)                             \
    TEST(Mlir, name) {                                 \
        std::string why;                               \
        if (!gpu_available(&why)) GTEST_SKIP() << why; \
        name##_case(Target{false, 0});                 \
    }
#else
#define CF_MLIR_CASE(name)                                                               \
    TEST(Mlir, name) {                                                                   \
        GTEST_SKIP() << "built without the MLIR backend (mlir-opt of MLIR 19 and CUDA)"; \
    }
#endif
#if MT_CF_EMU
/* the emulation runs the CUDA code on host memory */
#define CF_CASE(name)                                   \
    static void name##_case(Target t);                  \
    TEST(EmuO1, name) { name##_case(Target{true, 1}); } \
    TEST(EmuO2, name) { name##_case(Target{true, 2}); } \
    static void name##_case(Target t)
#else
#define CF_CASE(name)                                    \
    static void name##_case(Target t);                   \
    TEST(HostO1, name) { name##_case(Target{true, 1}); } \
    TEST(HostO2, name) { name##_case(Target{true, 2}); } \
    CF_CUDA_CASES(name)                                  \
    CF_MLIR_CASE(name)                                   \
    static void name##_case(Target t)
#endif

mytriton_grid grid1(int64_t x) {
    mytriton_grid g;
    g.x = x;
    g.y = 1;
    g.z = 1;
    return g;
}

std::vector<float> ramp(size_t n, float scale, float bias) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; i++) v[i] = (float)i * scale + bias;
    return v;
}

// Relative closeness for the kernels computing with exp/division.
void expect_close(const std::vector<float> &got, const std::vector<float> &want, float rel) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); i++)
        EXPECT_NEAR(got[i], want[i], rel * std::fmax(1.0f, std::fabs(want[i]))) << "element " << i;
}

}  // namespace

CF_CASE(if_scalar) {
    const int n = 100;
    for (int mode : {0, 1, 2, -5}) {
        SCOPED_TRACE("mode " + std::to_string(mode));
        std::vector<float> x = ramp(n, 0.25f, -3.0f), y(n, 7.0f), want(n);
        for (int i = 0; i < n; i++)
            want[i] = mode == 0   ? (x[i] + 1.0f) * 1.0f
                      : mode == 1 ? (x[i] * 2.0f) * 3.0f
                                  : (-x[i]) * 0.5f;
        Buffers b(t);
        float *dy = b(y);
        b.finish(CF_LAUNCH(t, if_scalar, b(x), dy, n, mode));
        EXPECT_EQ(y, want);
    }
}

CF_CASE(if_in_loop) {
    for (int n : {0, 1, 7, 20}) {
        SCOPED_TRACE("n " + std::to_string(n));
        std::vector<float> x = ramp(64, 1.5f, 1.0f), y(64, -9.0f), want(64, -9.0f);
        float acc = 0;
        int count = 0;
        for (int i = 0; i < n; i++) {
            if (i % 2 == 1) acc = acc + x[i], count++;
            else acc = acc - x[i];
        }
        for (int j = 0; j < n && j < 64; j++) want[j] = acc + (float)count;
        Buffers b(t);
        float *dy = b(y);
        b.finish(CF_LAUNCH(t, if_in_loop, b(x), dy, n));
        EXPECT_EQ(y, want);
    }
}

CF_CASE(loop_in_if) {
    const int n = 50;
    for (int flag : {0, -2, 1, 3}) {
        SCOPED_TRACE("flag " + std::to_string(flag));
        std::vector<float> x = ramp(n, 0.5f, 0.25f), y(64, 5.0f), want(64, 5.0f);
        for (int j = 0; j < n; j++) {
            float acc = 0;
            for (int k = 0; k < flag; k++) acc += x[j];
            want[j] = flag > 0 ? acc : -1.0f;
        }
        Buffers b(t);
        float *dy = b(y);
        b.finish(CF_LAUNCH(t, loop_in_if, b(x), dy, n, flag));
        EXPECT_EQ(y, want);
    }
}

CF_CASE(if_store) {
    const int n = 200;
    std::vector<int32_t> x(n), y(n, 0), want(n);
    for (int i = 0; i < n; i++) x[i] = i * 3 - 50;
    for (int i = 0; i < n; i++) want[i] = ((i / 64) % 2 == 0 ? x[i] * 2 : x[i] + 100) + 1;
    Buffers b(t);
    int32_t *dy = b(y);
    b.finish(CF_LAUNCH(t, if_store, b(x), dy, n));
    EXPECT_EQ(y, want);
}

CF_CASE(collatz) {
    std::vector<int32_t> x = {1, 2, 3, 6, 7, 9, 27, 97, 871};
    int n = (int)x.size();
    std::vector<int32_t> steps(n, -1), want(n);
    for (int i = 0; i < n; i++) {
        int32_t v = x[i], s = 0;
        while (v != 1) v = v % 2 == 0 ? v / 2 : 3 * v + 1, s++;
        want[i] = s;
    }
    Buffers b(t);
    int32_t *ds = b(steps);
    b.finish(CF_LAUNCH(t, collatz, b(x), ds, n));
    EXPECT_EQ(steps, want);
}

CF_CASE(converge) {
    const int n = 40;
    std::vector<float> a(n), y(64, 0.0f), want(64, 0.0f);
    for (int i = 0; i < n; i++) a[i] = 0.5f + (float)i * 3.0f;
    for (int i = 0; i < n; i++) want[i] = std::sqrt(a[i]);
    Buffers b(t);
    float *dy = b(y);
    b.finish(CF_LAUNCH(t, converge, b(a), dy, n, 1e-5f));
    std::vector<float> got(y.begin(), y.begin() + n);
    want.resize(n);
    expect_close(got, want, 1e-5f);
}

CF_CASE(while_in_for) {
    for (int n : {0, 1, 5, 33}) {
        SCOPED_TRACE("n " + std::to_string(n));
        int total = 0;
        for (int i = 0; i < n; i++)
            for (int v = i; v > 0; v /= 2) total++;
        std::vector<int32_t> y(32, -1), want(32, total);
        Buffers b(t);
        int32_t *dy = b(y);
        b.finish(CF_LAUNCH(t, while_in_for, dy, n));
        EXPECT_EQ(y, want);
    }
}

CF_CASE(persistent_softmax) {
    const int rows = 10, cols = 50, stride = 64;
    for (int programs : {1, 3, 16}) {
        SCOPED_TRACE("programs " + std::to_string(programs));
        std::vector<float> x(rows * stride), y(rows * stride, 0.0f), want(rows * stride, 0.0f);
        for (int i = 0; i < rows * stride; i++) x[i] = std::sin((float)i * 0.37f) * 4.0f;
        for (int r = 0; r < rows; r++) {
            float mx = -INFINITY, sum = 0;
            for (int c = 0; c < cols; c++) mx = std::fmax(mx, x[r * stride + c]);
            for (int c = 0; c < cols; c++) sum += std::exp(x[r * stride + c] - mx);
            for (int c = 0; c < cols; c++)
                want[r * stride + c] = std::exp(x[r * stride + c] - mx) / sum;
        }
        Buffers b(t);
        float *dy = b(y);
        b.finish(CF_LAUNCH(t, persistent_softmax, grid1(programs), b(x), dy, rows, cols, stride));
        expect_close(y, want, 2e-5f);
    }
}

CF_CASE(reassign_ptr) {
    const int rows = 4, stride = 200;
    for (int n_cols : {0, 10, 64, 150}) {
        SCOPED_TRACE("n_cols " + std::to_string(n_cols));
        std::vector<float> x = ramp(rows * stride, 0.5f, 1.0f), y(rows * stride, 3.0f),
                           want(rows * stride, 3.0f);
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < 64 && c < n_cols; c++) {
                float acc = 0;
                for (int k = 0; k < n_cols; k += 64)
                    acc += c + k < n_cols ? x[r * stride + k + c] : 0.0f;
                want[r * stride + c] = acc;
            }
        Buffers b(t);
        float *dy = b(y);
        b.finish(CF_LAUNCH(t, reassign_ptr, grid1(rows), b(x), dy, stride, n_cols));
        EXPECT_EQ(y, want);
    }
}

CF_CASE(negative_step) {
    for (int n : {-2, 0, 1, 3, 10, 11}) {
        SCOPED_TRACE("n " + std::to_string(n));
        int32_t acc = 0;
        for (int i = n; i > 0; i -= 3) acc = acc * 2 + i;
        std::vector<int32_t> y(64, -1), want(64, acc);
        Buffers b(t);
        int32_t *dy = b(y);
        b.finish(CF_LAUNCH(t, negative_step, dy, n));
        EXPECT_EQ(y, want);
    }
}

CF_CASE(range_i64) {
    const int B = 32;
    for (int rows : {1, 4, 13}) {
        const int per = 4, programs = (rows + per - 1) / per;
        SCOPED_TRACE("rows " + std::to_string(rows));
        std::vector<float> x = ramp((size_t)rows * B, 0.5f, -3.0f), y((size_t)programs * B, -1.0f),
                           want((size_t)programs * B);
        for (int p = 0; p < programs; p++) {
            int start = p * per, end = std::min(start + per, rows);
            int64_t back = 0;
            for (int j = end - 1; j > start - 1; j -= 2) back = back * 3 + j;
            for (int c = 0; c < B; c++) {
                float acc = 0.0f;
                for (int r = start; r < end; r++) acc += x[(size_t)r * B + c];
                want[(size_t)p * B + c] = acc + (float)back;
            }
        }
        Buffers b(t);
        float *dy = b(y);
        b.finish(CF_LAUNCH(t, range_i64, b(x), dy, rows, per));
        EXPECT_EQ(y, want);
    }
}

// The induction variable rebound in the body (issue 51).
CF_CASE(rebind_index) {
    const int B = 32;
    for (int n : {0, 5, 32, 100}) {
        SCOPED_TRACE("n " + std::to_string(n));
        std::vector<float> x = ramp((size_t)n + 1, 0.5f, -3.0f), y(B, -1.0f), want(B);
        int count = 0;
        for (int k = 0; k < n; k += B) count += k / B;
        count += (0 + 1 + 2) * 10;
        for (int j = 0; j < B; j++) {
            float acc = 0.0f;
            for (int k = 0; k < n; k += B) acc += k + j < n ? x[(size_t)(k + j)] : 0.0f;
            want[j] = acc + (float)count;
        }
        Buffers b(t);
        float *dy = b(y);
        b.finish(CF_LAUNCH(t, rebind_index, b(x), dy, n));
        EXPECT_EQ(y, want);
    }
}

CF_CASE(rebind_nested) {
    const int B = 16;
    for (int n : {0, 1, 4}) {
        for (int m : {0, 2, 3}) {
            SCOPED_TRACE("n " + std::to_string(n) + " m " + std::to_string(m));
            int32_t acc = 0;
            for (int i0 = 0; i0 < n; i0++) {
                int i = i0;
                for (int j = 0; j < m; j++) i = i * 2 + j;
                if (i > 10) i -= 10;
                acc += i;
            }
            std::vector<int32_t> y(B, -1), want(B);
            for (int j = 0; j < B; j++) want[j] = acc + j;
            Buffers b(t);
            int32_t *dy = b(y);
            b.finish(CF_LAUNCH(t, rebind_nested, dy, n, m));
            EXPECT_EQ(y, want);
        }
    }
}

CF_CASE(carried_ptrs) {
    const int stride = 2;
    for (int K : {0, 5, 64, 150}) {
        SCOPED_TRACE("K " + std::to_string(K));
        std::vector<float> a = ramp((size_t)(K + 1) * stride, 0.25f, 0.5f), out(64, -1.0f),
                           want(64);
        for (int j = 0; j < 64; j++) {
            float acc = 0;
            for (int k = 0; k < K; k += 64) acc += j + k < K ? a[(size_t)(j + k) * stride] : 0.0f;
            want[j] = acc;
        }
        Buffers b(t);
        float *dout = b(out);
        b.finish(CF_LAUNCH(t, carried_ptrs, b(a), dout, K, stride));
        EXPECT_EQ(out, want);
    }
}

CF_CASE(rank2_if) {
    const int M = 20, N = 40;
    for (int mode : {0, 1}) {
        SCOPED_TRACE("mode " + std::to_string(mode));
        std::vector<float> x = ramp(M * N, 0.125f, -2.0f), y(M * N, 0.0f), want(M * N);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                float v = x[i * N + j];
                float bias = mode == 1 ? (float)j : (float)j * 0.5f;
                want[i * N + j] = (mode == 1 ? v * 2.0f : v - 1.0f) + bias;
            }
        Buffers b(t);
        float *dy = b(y);
        b.finish(CF_LAUNCH(t, rank2_if, b(x), dy, M, N, mode));
        EXPECT_EQ(y, want);
    }
}

CF_CASE(if_reduce) {
    const int n = 50;
    for (int mode : {0, 1}) {
        SCOPED_TRACE("mode " + std::to_string(mode));
        std::vector<float> x(n), y(64, 9.0f), want(64, 9.0f);
        for (int i = 0; i < n; i++) x[i] = (float)((i * 37) % 23) - 11.0f;  // integers: exact sums
        float s = mode == 0 ? 0.0f : -INFINITY;
        for (int i = 0; i < n; i++) s = mode == 0 ? s + x[i] : std::fmax(s, x[i]);
        for (int i = 0; i < n; i++) want[i] = x[i] - s;
        Buffers b(t);
        float *dy = b(y);
        b.finish(CF_LAUNCH(t, if_reduce, b(x), dy, n, mode));
        EXPECT_EQ(y, want);
    }
}

CF_CASE(ifexp) {
    for (int n : {5, 12, 13, 64}) {
        SCOPED_TRACE("n " + std::to_string(n));
        std::vector<float> x = ramp(64, 0.75f, -4.0f), y(64, 1.0f), want(64, 1.0f);
        float s = n > 10 ? 2.0f : 0.5f;
        for (int i = 0; i < n; i++) want[i] = n % 2 == 0 ? x[i] * s : x[i] + s;
        Buffers b(t);
        float *dy = b(y);
        b.finish(CF_LAUNCH(t, ifexp, b(x), dy, n));
        EXPECT_EQ(y, want);
    }
}

CF_CASE(for_in_while) {
    for (int n : {0, 1, 4, 9}) {
        SCOPED_TRACE("n " + std::to_string(n));
        std::vector<int32_t> y(32, -1), want(32, 0);
        for (int o = 0; o < 32; o++)
            for (int r = 0; r < n; r++)
                for (int j = 0; j <= r; j++) want[o] += o + j;
        Buffers b(t);
        int32_t *dy = b(y);
        b.finish(CF_LAUNCH(t, for_in_while, dy, n));
        EXPECT_EQ(y, want);
    }
}

CF_CASE(carried_ptrs2d) {
    const int stride = 70;
    for (auto [M, K] : std::vector<std::pair<int, int>>{{8, 0}, {5, 16}, {8, 50}, {3, 70}}) {
        SCOPED_TRACE("M " + std::to_string(M) + ", K " + std::to_string(K));
        std::vector<float> a = ramp(8 * stride, 0.5f, -3.0f), out(8 * 16, -1.0f), want(8 * 16);
        for (int m = 0; m < 8; m++)
            for (int c = 0; c < 16; c++) {
                float acc = 0;
                for (int k = 0; k < K; k += 16)
                    acc += m < M && c + k < K ? a[m * stride + k + c] : 0.0f;
                want[m * 16 + c] = acc;
            }
        Buffers b(t);
        float *dout = b(out);
        b.finish(CF_LAUNCH(t, carried_ptrs2d, b(a), dout, M, K, stride));
        EXPECT_EQ(out, want);
    }
}

CF_CASE(mm_if) {
    const int M = 20, N = 36;
    for (int K : {0, 1, 7}) {
        SCOPED_TRACE("K " + std::to_string(K));
        std::vector<float> a(M * (K ? K : 1)), bm(N * (K ? K : 1)), c(M * N, 5.0f), want(M * N);
        for (size_t i = 0; i < a.size(); i++)
            a[i] = (float)((int)(i * 7) % 11) - 5.0f;  // small integers:
        for (size_t i = 0; i < bm.size(); i++)
            bm[i] = (float)((int)(i * 5) % 9) - 4.0f;  // exact sums
        for (int m = 0; m < M; m++)
            for (int n = 0; n < N; n++) {
                float acc = 0;
                for (int k = 0; k < K; k++) acc += a[m * K + k] * bm[k * N + n];
                want[m * N + n] = acc;
            }
        Buffers b(t);
        float *dc = b(c);
        b.finish(CF_LAUNCH(t, mm_if, b(a), b(bm), dc, M, N, K));
        EXPECT_EQ(c, want);
    }
}

// `return` inside a runtime if (Triton's top-level if): the programs past
// the end return before touching memory; the others store
CF_CASE(early_exit) {
    for (int n : {0, 1, 64, 100}) {
        SCOPED_TRACE("n " + std::to_string(n));
        const int programs = n / 64 + 2;  // at least one program past the end
        std::vector<float> x = ramp((size_t)programs * 64, 0.5f, -4.0f), y(programs * 64, -7.0f),
                           want(programs * 64, -7.0f);
        for (int i = 0; i < n; i++) want[i] = x[i] * 2.0f + 1.0f;
        Buffers b(t);
        float *dy = b(y);
        b.finish(CF_LAUNCH(t, early_exit, grid1(programs), b(x), dy, n));
        EXPECT_EQ(y, want);
    }
}

CF_CASE(nested_return) {
    // programs of 32: block 0 sums > 0 (doubled, +1, +0.5), block 1 sums > 0
    // and returns (untouched), block 2 sums <= 0 (negated, then returns)
    const int n = 90, B = 32, programs = 3;
    std::vector<float> x(programs * B), y(programs * B, 9.0f), want(programs * B, 9.0f);
    for (int i = 0; i < programs * B; i++) x[i] = i < 2 * B ? 0.25f * (float)(i % 7) : -1.5f;
    for (int p = 0; p < programs; p++) {
        float s = 0;
        for (int j = 0; j < B; j++) s += p * B + j < n ? x[p * B + j] : 0.0f;
        for (int j = 0; j < B; j++) {
            int i = p * B + j;
            if (i >= n) continue;
            if (s > 0 && p == 1) continue;
            want[i] = s > 0 ? x[i] * 2.0f + 1.0f + 0.5f : -x[i];
        }
    }
    Buffers b(t);
    float *dy = b(y);
    b.finish(CF_LAUNCH(t, nested_return, grid1(programs), b(x), dy, n));
    EXPECT_EQ(y, want);
}

CF_CASE(helper_return) {
    // a helper's returned values merge from both branches of its runtime if
    const int n = 16;
    const float hi = 1.5f;
    std::vector<float> x = ramp(n, 0.25f, -1.0f), y(n, -9.0f), want(n);
    std::vector<int32_t> f(n, -1), fwant(n);
    for (int i = 0; i < n; i++) {
        want[i] = x[i] > hi ? hi : x[i] * 0.5f;
        fwant[i] = x[i] > hi ? 1 : 0;
    }
    Buffers b(t);
    float *dy = b(y);
    int32_t *df = b(f);
    b.finish(CF_LAUNCH(t, helper_return, grid1(n), b(x), dy, df, hi));
    EXPECT_EQ(y, want);
    EXPECT_EQ(f, fwant);
}

CF_CASE(unrolled_return) {
    // a return inside tl.static_range: rows 0 .. min(n, 4) - 1, then row 4
    // only when no iteration returned
    const int B = 32;
    for (int n : {0, 2, 4, 7}) {
        SCOPED_TRACE("n " + std::to_string(n));
        std::vector<float> x = ramp(4 * B, 0.5f, -3.0f), y(5 * B, -1.0f), want(5 * B, -1.0f);
        for (int k = 0; k < 4 && k < n; k++)
            for (int j = 0; j < B; j++) want[k * B + j] = x[k * B + j] + (float)k;
        if (n >= 4)
            for (int j = 0; j < B; j++) want[4 * B + j] = 1.0f;
        Buffers b(t);
        float *dy = b(y);
        b.finish(CF_LAUNCH(t, unrolled_return, b(x), dy, n));
        EXPECT_EQ(y, want);
    }
}
