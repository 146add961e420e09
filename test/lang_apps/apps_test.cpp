// A fused attention forward (kernels/attention.py, causal and not) and a
// layer norm forward and backward (kernels/layer_norm.py) through the
// generated launchers at -O1 and -O2, against double-precision references
// computed here from the same fp16 inputs. The backward's dx kernel adds each
// row's weight and bias gradients into GROUP_M partial rows under spin locks
// (atomic_cas / atomic_xchg, a Count flag read inside the lock); the partial
// rows start as NaN, so a program that skipped the `count == 0` branch or
// raced another one shows. The lock words must all be released (0) and every
// group's Count set (1) at the end.
//   HostO1.* / HostO2.*   the host backend (always; its threads contend)
//   CudaO1.* / CudaO2.*   the CUDA backend (GTEST_SKIP without a GPU)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "mytriton/dtypes.h"
#include "mytriton/runtime.h"
#include "mytriton_lang_apps_o1.h"
#include "mytriton_lang_apps_o2.h"
#include "../support/random.h"

#if MT_APPS_CUDA
#include <cuda_runtime_api.h>
#include "../support/gpu.h"
#include "mytriton_lang_apps_asm.h"
#endif

namespace {

using half = mytriton_fp16;

struct Target {
    bool host;
    int opt;
};

#if MT_APPS_CUDA
#endif

// The buffers of one launch: host vectors, mirrored on the device for CUDA
// and copied back by finish().
class Buffers {
  public:
    explicit Buffers(Target t) : t_(t) {}
    ~Buffers() {
#if MT_APPS_CUDA
        for (void *p : device_) cudaFree(p);
#endif
    }
    template <class T>
    T *operator()(std::vector<T> &v) {
        if (t_.host) return v.data();
#if MT_APPS_CUDA
        void *p = nullptr;
        size_t bytes = v.size() * sizeof(T);
        EXPECT_EQ(cudaMalloc(&p, bytes), cudaSuccess);
        EXPECT_EQ(cudaMemcpy(p, v.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
        device_.push_back(p);
        back_.push_back([p, &v, bytes] {
            EXPECT_EQ(cudaMemcpy(v.data(), p, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
        });
        return static_cast<T *>(p);
#else
        return nullptr;
#endif
    }
    void finish(int status) {
        ASSERT_EQ(status, 0) << mytriton_last_error();
#if MT_APPS_CUDA
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

#if MT_APPS_CUDA
#define APPS_CUDA(t, name, ...)                                   \
    ((t).opt == 1 ? (int)launch_##name##_o1(nullptr, __VA_ARGS__) \
                  : (int)launch_##name##_o2(nullptr, __VA_ARGS__))
#else
#define APPS_CUDA(t, name, ...) (-1)
#endif
#define APPS_LAUNCH(t, name, ...)                                          \
    ((t).host ? ((t).opt == 1 ? (int)launch_##name##_o1_host(__VA_ARGS__)  \
                              : (int)launch_##name##_o2_host(__VA_ARGS__)) \
              : APPS_CUDA(t, name, __VA_ARGS__))

float h2f(half h) { return mytriton_fp16_to_float(h); }

std::vector<half> random_halves(size_t n, float lo, float hi, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(lo, hi);
    std::vector<half> v(n);
    for (auto &x : v) x = mytriton_fp16_from_float(u(rng));
    return v;
}

// |got - want| <= atol + rtol * |want|, reporting the first few misses.
template <class Got>
void expect_close(const char *what, const std::vector<Got> &got, const std::vector<double> &want,
                  double rtol, double atol, float (*to_float)(Got)) {
    ASSERT_EQ(got.size(), want.size());
    int misses = 0;
    for (size_t i = 0; i < got.size(); i++) {
        double g = to_float(got[i]);
        if (!(std::fabs(g - want[i]) <= atol + rtol * std::fabs(want[i]))) {
            if (++misses <= 5)
                ADD_FAILURE() << what << "[" << i << "] = " << g << ", want " << want[i];
        }
    }
    EXPECT_EQ(misses, 0) << what << ": " << misses << " of " << got.size()
                         << " outside the tolerance";
}

float f2f(float f) { return f; }

void layer_norm_case(Target t) {
    const int M = 301, N = 1000, GROUP_M = 8;  // GROUP_M, BLOCK_N as in CMakeLists.txt
    const float eps = 1e-5f;
    std::vector<half> x = random_halves((size_t)M * N, -2.0f, 3.0f, 1);
    std::vector<half> w = random_halves(N, 0.5f, 1.5f, 2);
    std::vector<half> b = random_halves(N, -0.5f, 0.5f, 3);
    std::vector<half> dy = random_halves((size_t)M * N, -1.0f, 1.0f, 4);

    // The reference, in double from the same fp16 values.
    std::vector<double> mean(M), rstd(M), y((size_t)M * N), dx((size_t)M * N), dw(N, 0.0),
        db(N, 0.0);
    for (int r = 0; r < M; r++) {
        double s = 0, v = 0, c1 = 0, c2 = 0;
        for (int j = 0; j < N; j++) s += h2f(x[(size_t)r * N + j]);
        mean[r] = s / N;
        for (int j = 0; j < N; j++) {
            double d = h2f(x[(size_t)r * N + j]) - mean[r];
            v += d * d;
        }
        rstd[r] = 1.0 / std::sqrt(v / N + eps);
        for (int j = 0; j < N; j++) {
            size_t i = (size_t)r * N + j;
            double xhat = (h2f(x[i]) - mean[r]) * rstd[r];
            y[i] = xhat * h2f(w[j]) + h2f(b[j]);
            double wdy = h2f(w[j]) * h2f(dy[i]);
            c1 += xhat * wdy;
            c2 += wdy;
            dw[j] += h2f(dy[i]) * xhat;
            db[j] += h2f(dy[i]);
        }
        c1 /= N;
        c2 /= N;
        for (int j = 0; j < N; j++) {
            size_t i = (size_t)r * N + j;
            double xhat = (h2f(x[i]) - mean[r]) * rstd[r];
            dx[i] = (h2f(w[j]) * h2f(dy[i]) - (xhat * c1 + c2)) * rstd[r];
        }
    }

    // Forward: y, and the statistics the backward reads.
    std::vector<half> yo((size_t)M * N);
    std::vector<float> mo(M, -1.0f), ro(M, -1.0f);
    {
        Buffers buf(t);
        half *yd = buf(yo);
        float *md = buf(mo), *rd = buf(ro);
        buf.finish(APPS_LAUNCH(t, ln_fwd, mytriton_grid_1d(M), buf(x), yd, buf(w), buf(b), md, rd,
                               N, N, eps));
    }
    expect_close("mean", mo, mean, 1e-5, 1e-5, f2f);
    expect_close("rstd", ro, rstd, 1e-4, 0.0, f2f);
    expect_close("y", yo, y, 4e-3, 4e-3, h2f);

    // Backward, dx and the partial sums under the locks.
    std::vector<half> dxo((size_t)M * N);
    std::vector<float> pdw((size_t)GROUP_M * N, std::numeric_limits<float>::quiet_NaN());
    std::vector<float> pdb = pdw;
    std::vector<int32_t> locks(2 * GROUP_M, 0);
    {
        Buffers buf(t);
        half *dxd = buf(dxo);
        float *pdwd = buf(pdw), *pdbd = buf(pdb);
        int32_t *ld = buf(locks);
        buf.finish(APPS_LAUNCH(t, ln_bwd_dx, mytriton_grid_1d(M), dxd, buf(dy), pdwd, pdbd, buf(x),
                               buf(w), buf(mo), buf(ro), ld, N, N));
    }
    expect_close("dx", dxo, dx, 1e-2, 1e-2, h2f);
    for (int g = 0; g < GROUP_M; g++) {
        EXPECT_EQ(locks[g], 0) << "lock " << g << " not released";
        EXPECT_EQ(locks[GROUP_M + g], 1) << "count of group " << g;
    }

    // The partial rows summed into dw, db.
    std::vector<half> dwo(N), dbo(N);
    {
        Buffers buf(t);
        half *dwd = buf(dwo), *dbd = buf(dbo);
        buf.finish(APPS_LAUNCH(t, ln_bwd_dwdb, mytriton_grid_1d((N + 31) / 32), buf(pdw), buf(pdb),
                               dwd, dbd, GROUP_M, N));
    }
    expect_close("dw", dwo, dw, 4e-3, 2e-2, h2f);
    expect_close("db", dbo, db, 4e-3, 2e-2, h2f);
}

// softmax(q k^T * sm_scale) v per (batch-head, query), over the keys n <
// n_ctx (n <= m when causal); the kernel rounds p to fp16 before p @ v.
void attention_case(Target t, bool causal) {
    const int BH = 3, N_CTX = 70, D = 32, BLOCK_M = 16; /* as in CMakeLists.txt */
    const float sm_scale = 1.0f / std::sqrt((float)D);
    size_t n = (size_t)BH * N_CTX * D;
    std::vector<half> q = random_halves(n, -1.0f, 1.0f, 11), k = random_halves(n, -1.0f, 1.0f, 12),
                      v = random_halves(n, -1.0f, 1.0f, 13);
    std::vector<double> want(n);
    for (int bh = 0; bh < BH; bh++)
        for (int m = 0; m < N_CTX; m++) {
            size_t qm = ((size_t)bh * N_CTX + m) * D;
            int keys = causal ? m + 1 : N_CTX;
            std::vector<double> s(keys);
            double mx = -INFINITY, sum = 0;
            for (int j = 0; j < keys; j++) {
                size_t kj = ((size_t)bh * N_CTX + j) * D;
                double dot = 0;
                for (int d = 0; d < D; d++) dot += (double)h2f(q[qm + d]) * h2f(k[kj + d]);
                s[j] = dot * sm_scale;
                mx = std::max(mx, s[j]);
            }
            for (int j = 0; j < keys; j++) sum += s[j] = std::exp(s[j] - mx);
            for (int d = 0; d < D; d++) {
                double o = 0;
                for (int j = 0; j < keys; j++) o += s[j] * h2f(v[((size_t)bh * N_CTX + j) * D + d]);
                want[qm + d] = o / sum;
            }
        }
    std::vector<half> out(n, mytriton_fp16_from_float(-7.0f));
    {
        Buffers buf(t);
        half *od = buf(out);
        mytriton_grid g = mytriton_grid_2d((N_CTX + BLOCK_M - 1) / BLOCK_M, BH);
        buf.finish(causal
                       ? APPS_LAUNCH(t, attn_causal, g, buf(q), buf(k), buf(v), od, sm_scale, N_CTX)
                       : APPS_LAUNCH(t, attn, g, buf(q), buf(k), buf(v), od, sm_scale, N_CTX));
    }
    expect_close(causal ? "causal attention" : "attention", out, want, 1e-2, 4e-3, h2f);
}

// GELU (tanh form) in bf16 storage, and log1p / expm1 / atan / tan of a
// biased 2-D block, against the C library in double (libdevice and the C
// library round differently: a few f32 ulps).
void gelu_case(Target t) {
    const int n = 1000;
    std::vector<mytriton_bf16> x(n), y(n);
    std::vector<double> want(n);
    std::mt19937 rng(21);
    std::uniform_real_distribution<float> u(-5.0f, 5.0f);
    for (int i = 0; i < n; i++) {
        x[i] = mytriton_bf16_from_float(u(rng));
        double v = mytriton_bf16_to_float(x[i]);
        want[i] = 0.5 * v * (1.0 + std::tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
    }
    {
        Buffers buf(t);
        mytriton_bf16 *yd = buf(y);
        buf.finish(APPS_LAUNCH(t, gelu_tanh, mytriton_grid_1d((n + 255) / 256), buf(x), yd, n));
    }
    expect_close("gelu", y, want, 8e-3, 1e-6, mytriton_bf16_to_float);

    const int M = 19, N = 50;
    std::vector<float> a((size_t)M * N), bias(N), out((size_t)M * N, -1.0f);
    std::uniform_real_distribution<float> w(-1.5f, 1.5f);
    for (auto &v : a) v = w(rng);
    for (auto &v : bias) v = w(rng) * 0.2f;
    std::vector<double> want2((size_t)M * N);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double v = (double)(a[(size_t)i * N + j] + bias[j]);
            want2[(size_t)i * N + j] =
                std::log1p(std::fabs(v)) + std::expm1(v * 0.5) + std::atan(v) + std::tan(v * 0.25);
        }
    {
        Buffers buf(t);
        float *od = buf(out);
        buf.finish(
            APPS_LAUNCH(t, bias_math, mytriton_grid_1d((M + 7) / 8), buf(a), buf(bias), od, M, N));
    }
    expect_close("log1p + expm1 + atan + tan", out, want2, 1e-5, 1e-6, f2f);
}

// libdevice's asin, acos, sinh, cosh, asinh, acosh, atanh, cbrt and log10
// against the C library in double (a few f32 ulps apart), and rint, round,
// trunc and nearbyint exactly (sums of integers and quarters below 2^22):
// eighths and sixteenths from -62.5 to 62.5 and exact halves (to even,
// halves away from zero, toward zero)
void more_math_case(Target t) {
    const int n = 1000;
    std::vector<float> x(n), y(n, -1.0f), r(n, -1.0f);
    std::vector<double> want(n), want_r(n);
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i - 500) * 0.125f + (i % 3 == 0 ? 0.0f : 0.0625f);
        if (i % 7 == 0) x[i] = (float)((i - 500) / 4) * 0.5f; /* exact halves */
        double v = x[i], s = v * 0.015625;
        want[i] = std::asin(s) + std::acos(s) * 0.5 + std::sinh(v * 0.5) + std::cosh(v * 0.25) +
                  std::asinh(v) + std::acosh(std::fabs(v) + 1.0) + std::atanh(s) + std::cbrt(v) +
                  std::log10(std::fabs(v) + 0.5);
        want_r[i] = std::nearbyint(v) + std::round(v) * 128.0 + std::trunc(v) * 16384.0 +
                    std::nearbyint(v) * 0.25;
    }
    {
        Buffers buf(t);
        float *yd = buf(y), *rd = buf(r);
        buf.finish(APPS_LAUNCH(t, more_math, mytriton_grid_1d((n + 255) / 256), buf(x), yd, rd, n));
    }
    expect_close("asin + acos + sinh + cosh + asinh + acosh + atanh + cbrt + log10", y, want, 1e-5,
                 1e-5, f2f);
    expect_close("rint, round, trunc, nearbyint", r, want_r, 0.0, 0.0, f2f);
}

// libdevice's rsqrt, exp, exp2, sqrt, sin, erf, floor and ceil (the
// functions tl.math also has) against the C library in double: libdevice's
// are within a few f32 ulps on the GPU, the host's are the C library's.
void libdevice_spelled_case(Target t) {
    const int n = 1000;
    std::vector<float> x(n), y(n, -1.0f);
    std::vector<double> want(n);
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i - 500) * 0.0625f + (i % 3 == 0 ? 0.0f : 0.03125f);
        double v = x[i], s = v * 0.125;
        want[i] = 1.0 / std::sqrt(std::fabs(v) + 1.0) + std::exp(s) + std::exp2(s) * 0.5 +
                  std::sqrt(std::fabs(v)) + std::sin(v) + std::erf(s) + std::floor(v) * 0.25 +
                  std::ceil(v) * 0.125;
    }
    {
        Buffers buf(t);
        float *yd = buf(y);
        buf.finish(
            APPS_LAUNCH(t, libdevice_spelled, mytriton_grid_1d((n + 255) / 256), buf(x), yd, n));
    }
    expect_close("rsqrt + exp + exp2 + sqrt + sin + erf + floor + ceil", y, want, 1e-5, 1e-5, f2f);
}

// libdevice's pow (float and integer exponents), atan2, hypot, fmod and
// copysign, against double precision.
void libdevice_binary_case(Target t) {
    const int n = 1000;
    std::vector<float> x(n), y(n), out(n, -1.0f);
    std::vector<double> want(n);
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i - 500) * 0.01f + 0.003f;
        y[i] = (float)((i * 7) % 23 - 11) * 0.25f + 0.125f;
        double a = x[i], b = y[i];
        want[i] = a * a * a + std::pow(std::fabs(a) + 0.5, b) + std::atan2(a, b) +
                  std::hypot(a, b) + std::fmod(a, b) + std::copysign(a, b);
    }
    {
        Buffers buf(t);
        float *od = buf(out);
        buf.finish(APPS_LAUNCH(t, libdevice_binary, mytriton_grid_1d((n + 255) / 256), buf(x),
                               buf(y), od, n));
    }
    expect_close("pow + pow + atan2 + hypot + fmod + copysign", out, want, 1e-5, 1e-5, f2f);
}

// tl.softmax (triton.language's standard library) along the rows of an
// (8, 64) block and of a vector, against double precision.
void std_softmax_case(Target t) {
    const int R = 8, C = 64;
    std::vector<float> x(R * C), y(R * C, -1.0f), z(C, -1.0f);
    std::vector<double> want_y(R * C), want_z(C);
    for (int i = 0; i < R * C; i++) x[i] = (float)((i * 37) % 101 - 50) * 0.0625f;
    for (int r = 0; r < R; r++) {
        double m = x[r * C], s = 0;
        for (int c = 0; c < C; c++) m = std::max(m, (double)x[r * C + c]);
        for (int c = 0; c < C; c++) s += std::exp(x[r * C + c] - m);
        for (int c = 0; c < C; c++) want_y[r * C + c] = std::exp(x[r * C + c] - m) / s;
        if (r == 0)
            for (int c = 0; c < C; c++) want_z[c] = want_y[c];
    }
    {
        Buffers buf(t);
        float *yd = buf(y), *zd = buf(z);
        buf.finish(APPS_LAUNCH(t, std_softmax, mytriton_grid_1d(1), buf(x), yd, zd));
    }
    expect_close("softmax of the rows", y, want_y, 1e-5, 1e-7, f2f);
    expect_close("softmax of a vector", z, want_z, 1e-5, 1e-7, f2f);
}

// RMS norm forward and backward in fp16 storage (Liger's form: rsqrt from
// libdevice, 64-bit row loops): 37 rows of 100 columns, 8 rows per backward
// program (the last program gets 5), against double-precision references
// of the same fp16 inputs.
void rms_norm_case(Target t) {
    const int M = 37, N = 100, PER = 8, P = (M + PER - 1) / PER;
    const float eps = 1e-5f;
    std::vector<half> x = random_halves((size_t)M * N, -2.0f, 2.0f, 21),
                      w = random_halves(N, 0.5f, 1.5f, 22),
                      dy = random_halves((size_t)M * N, -1.0f, 1.0f, 23);
    std::vector<double> y((size_t)M * N), rstd(M), dx((size_t)M * N), pdw((size_t)P * N, 0.0);
    for (int r = 0; r < M; r++) {
        double ss = 0;
        for (int c = 0; c < N; c++)
            ss += (double)h2f(x[(size_t)r * N + c]) * h2f(x[(size_t)r * N + c]);
        rstd[r] = 1.0 / std::sqrt(ss / N + eps);
        double mx = 0;
        for (int c = 0; c < N; c++) {
            double xv = h2f(x[(size_t)r * N + c]),
                   m = (double)h2f(dy[(size_t)r * N + c]) * h2f(w[c]);
            y[(size_t)r * N + c] = xv * rstd[r] * h2f(w[c]);
            mx += m * xv;
        }
        for (int c = 0; c < N; c++) {
            double xv = h2f(x[(size_t)r * N + c]), d = h2f(dy[(size_t)r * N + c]);
            dx[(size_t)r * N + c] =
                rstd[r] * d * h2f(w[c]) - rstd[r] * rstd[r] * rstd[r] * (mx / N) * xv;
            pdw[(size_t)(r / PER) * N + c] += d * xv * rstd[r];
        }
    }
    std::vector<half> yo((size_t)M * N), dxo((size_t)M * N);
    std::vector<float> ro(M, -1.0f), pdwo((size_t)P * N, -1.0f);
    std::vector<int32_t> rows(P, -1), want_rows(P);
    for (int p = 0; p < P; p++) want_rows[p] = std::min(PER, M - p * PER);
    {
        Buffers buf(t);
        half *yd = buf(yo);
        float *rd = buf(ro);
        buf.finish(APPS_LAUNCH(t, rms_fwd, mytriton_grid_1d(M), yd, buf(x), buf(w), rd, N, N, eps));
    }
    expect_close("rstd", ro, rstd, 1e-4, 0.0, f2f);
    expect_close("y", yo, y, 4e-3, 4e-3, h2f);
    {
        Buffers buf(t);
        half *dxd = buf(dxo);
        float *pdwd = buf(pdwo);
        int32_t *rowsd = buf(rows);
        buf.finish(APPS_LAUNCH(t, rms_bwd, mytriton_grid_1d(P), dxd, pdwd, rowsd, buf(dy), buf(x),
                               buf(w), buf(ro), N, M, N, PER));
    }
    expect_close("dx", dxo, dx, 1e-2, 1e-2, h2f);
    expect_close("partial dw", pdwo, pdw, 1e-4, 1e-4, f2f);
    EXPECT_EQ(rows, want_rows);
}

// Softmax of 5 rows of 150 columns in blocks of 64 (the last one partial),
// from running maximum and sum scalars started by tl.float32(...).
void online_softmax_case(Target t) {
    const int M = 5, N = 150;
    std::vector<float> x((size_t)M * N), y((size_t)M * N, -1.0f);
    std::vector<double> want((size_t)M * N);
    for (size_t i = 0; i < x.size(); i++) x[i] = (float)((i * 37) % 101) * 0.0625f - 3.0f;
    for (int r = 0; r < M; r++) {
        double mx = -INFINITY, sum = 0;
        for (int c = 0; c < N; c++) mx = std::max(mx, (double)x[(size_t)r * N + c]);
        for (int c = 0; c < N; c++) sum += std::exp(x[(size_t)r * N + c] - mx);
        for (int c = 0; c < N; c++)
            want[(size_t)r * N + c] = std::exp(x[(size_t)r * N + c] - mx) / sum;
    }
    {
        Buffers buf(t);
        float *yd = buf(y);
        buf.finish(APPS_LAUNCH(t, online_softmax, mytriton_grid_1d(M), yd, buf(x), N, N));
    }
    expect_close("softmax", y, want, 1e-5, 1e-7, f2f);
}

// GELU (tanh form) through `tanh_fn`, a module-level alias of
// libdevice.tanh chosen by a version test.
void gelu_alias_case(Target t) {
    const int n = 1000;
    std::vector<float> x(n), y(n, -1.0f);
    std::vector<double> want(n);
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i - 500) * 0.0125f;
        double v = x[i];
        want[i] = 0.5 * v * (1.0 + std::tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
    }
    {
        Buffers buf(t);
        float *yd = buf(y);
        buf.finish(APPS_LAUNCH(t, gelu_alias, mytriton_grid_1d((n + 255) / 256), yd, buf(x), n));
    }
    expect_close("gelu", y, want, 1e-5, 1e-6, f2f);
}

// The delta-rule recurrence of 3 heads over 7 steps (K = 16, V = 32),
// against a double-precision reference of the same steps.
void delta_rule_case(Target t) {
    const int T = 7, H = 3, K = 16, V = 32; /* as in CMakeLists.txt */
    std::vector<float> q = mt_test::random_floats((size_t)T * H * K, 31, -0.5f, 0.5f),
                       k = mt_test::random_floats((size_t)T * H * K, 32, -0.5f, 0.5f),
                       v = mt_test::random_floats((size_t)T * H * V, 33, -0.5f, 0.5f);
    std::vector<float> o((size_t)T * H * V, -1.0f), hs((size_t)H * K * V, -1.0f);
    std::vector<double> want_o(o.size()), want_h(hs.size());
    for (int ih = 0; ih < H; ih++) {
        std::vector<double> h((size_t)V * K, 0.0);
        for (int s = 0; s < T; s++) {
            const float *kk = &k[((size_t)s * H + ih) * K], *qq = &q[((size_t)s * H + ih) * K];
            const float *vv = &v[((size_t)s * H + ih) * V];
            for (int i = 0; i < V; i++) {
                double hk = 0;
                for (int j = 0; j < K; j++) hk += h[(size_t)i * K + j] * kk[j];
                double d = vv[i] - hk;
                for (int j = 0; j < K; j++) h[(size_t)i * K + j] += kk[j] * d;
            }
            for (int i = 0; i < V; i++) {
                double acc = 0;
                for (int j = 0; j < K; j++) acc += h[(size_t)i * K + j] * qq[j];
                want_o[((size_t)s * H + ih) * V + i] = acc;
            }
        }
        for (int i = 0; i < V; i++)
            for (int j = 0; j < K; j++)
                want_h[(size_t)ih * K * V + (size_t)j * V + i] = h[(size_t)i * K + j];
    }
    {
        Buffers buf(t);
        float *od = buf(o), *hd = buf(hs);
        buf.finish(
            APPS_LAUNCH(t, delta_rule, mytriton_grid_1d(H), buf(q), buf(k), buf(v), od, hd, T));
    }
    expect_close("o", o, want_o, 1e-4, 1e-5, f2f);
    expect_close("final state", hs, want_h, 1e-4, 1e-5, f2f);
}

// fla's chunked forms: 3 rows of 100 values in 4 chunks of 32 (the last
// partial), y = x * exp(g) with the running chunk sums (USE_G) or y = 2 x
// (b_dg None through the loop), stored as fp16 through block pointers.
void chunk_scale_case(Target t, bool use_g) {
    const int R = 3, T = 100, BT = 32;
    std::vector<float> x = mt_test::random_floats((size_t)R * T, 41, -2.0f, 2.0f),
                       g = mt_test::random_floats((size_t)R * T, 42, -1.0f, 1.0f), dg(BT, -1.0f);
    std::vector<half> y((size_t)R * T);
    std::vector<double> want_y(y.size()), want_dg(BT, 0.0);
    for (int r = 0; r < R; r++)
        for (int i = 0; i < T; i++) {
            size_t e = (size_t)r * T + i;
            want_y[e] = use_g ? (double)x[e] * std::exp((double)g[e]) : 2.0 * x[e];
            want_dg[i % BT] += want_y[e];
        }
    {
        Buffers buf(t);
        half *yd = buf(y);
        float *dgd = buf(dg);
        int rc =
            use_g
                ? APPS_LAUNCH(t, chunk_scale_g, mytriton_grid_1d(1), buf(x), buf(g), yd, dgd, R, T)
                : APPS_LAUNCH(t, chunk_scale, mytriton_grid_1d(1), buf(x), buf(g), yd, dgd, R, T);
        buf.finish(rc);
    }
    expect_close("y", y, want_y, 2e-3, 1e-3, h2f);
    if (use_g) expect_close("dg", dg, want_dg, 1e-4, 1e-4, f2f);
    else EXPECT_EQ(dg, std::vector<float>(BT, -1.0f)) << "dg is written only with USE_G";
}

// Host tensor descriptors: C (70 x 50) = A (70 x 48) @ B^T, B stored
// (50 x 48), in 32 x 32 tiles (ragged in M and N: the descriptors' bounds
// read zeros and drop the stores outside), each descriptor passed as its
// base, shape and strides (the last stride 1).
void desc_matmul_case(Target t) {
    const int M = 70, N = 50, K = 48;
    std::vector<half> a = random_halves((size_t)M * K, -1.0f, 1.0f, 51),
                      b = random_halves((size_t)N * K, -1.0f, 1.0f, 52), c((size_t)M * N);
    std::vector<double> want((size_t)M * N);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double acc = 0;
            for (int k = 0; k < K; k++)
                acc += (double)h2f(a[(size_t)i * K + k]) * h2f(b[(size_t)j * K + k]);
            want[(size_t)i * N + j] = acc;
        }
    {
        Buffers buf(t);
        half *cd = buf(c);
        buf.finish(APPS_LAUNCH(t, desc_matmul, mytriton_grid_2d((M + 31) / 32, (N + 31) / 32),
                               buf(a), M, K, K, 1, buf(b), N, K, K, 1, cd, M, N, N, 1, K));
    }
    expect_close("c", c, want, 4e-3, 4e-3, h2f);
}

// A rank-3 descriptor (batch, rows, 64 columns) read and written one
// (1, 16, 64) block at a time: 3 batches of 40 rows scaled by 0.5.
void desc_batch_scale_case(Target t) {
    const int B = 3, R = 40, C = 64;
    std::vector<half> x = random_halves((size_t)B * R * C, -4.0f, 4.0f, 53), y(x.size());
    std::vector<double> want(x.size());
    for (size_t i = 0; i < x.size(); i++) want[i] = h2f(x[i]) * 0.5;
    {
        Buffers buf(t);
        half *yd = buf(y);
        buf.finish(APPS_LAUNCH(t, desc_batch_scale, mytriton_grid_2d((R + 15) / 16, B), buf(x), B,
                               R, C, (int64_t)R * C, C, 1, yd, B, R, C, (int64_t)R * C, C, 1,
                               0.5f));
    }
    expect_close("y", y, want, 0.0, 0.0, h2f);
}

// FlagGems' forms: 3 x saturated to int16's range [-32767, 32767] (the
// bound from dtype_max's compile-time 2 ** 15 - 1), and x * pi in f32.
void saturate_case(Target t) {
    const int n = 300;
    std::vector<int16_t> x(n), y(n, 7);
    std::vector<float> z(n, -1.0f);
    std::vector<double> want_y(n), want_z(n);
    for (int i = 0; i < n; i++) {
        x[i] = (int16_t)((i - 150) * 218);
        long v = 3L * x[i];
        want_y[i] = (double)std::min(32767L, std::max(-32767L, v));
        want_z[i] = (double)(float)((float)x[i] * 3.14159265358979323846f);
    }
    {
        Buffers buf(t);
        int16_t *yd = buf(y);
        float *zd = buf(z);
        buf.finish(APPS_LAUNCH(t, saturate, mytriton_grid_1d((n + 127) / 128), buf(x), yd, zd, n));
    }
    expect_close(
        "y", y, want_y, 0.0, 0.0, +[](int16_t v) { return (float)v; });
    expect_close("z", z, want_z, 1e-6, 0.0, f2f);
}

// A compile-time function picks the f32 accumulator of fp16 data; a null
// weight pointer skips the weights (`if w_ptr:` at run time).
void weighted_sum_case(Target t) {
    const int n = 200;
    std::vector<half> x = random_halves(n, -2.0f, 2.0f, 61), w = random_halves(n, 0.0f, 1.0f, 62);
    double plain = 0, weighted = 0;
    for (int i = 0; i < n; i++) {
        plain += h2f(x[i]);
        weighted += (double)h2f(x[i]) * h2f(w[i]);
    }
    for (int with_w : {0, 1}) {
        SCOPED_TRACE(with_w ? "weighted" : "no weights");
        std::vector<float> y(1, -1.0f);
        {
            Buffers buf(t);
            float *yd = buf(y);
            const half *wd = with_w ? buf(w) : nullptr;
            buf.finish(APPS_LAUNCH(t, weighted_sum, mytriton_grid_1d(1), buf(x), wd, yd, n));
        }
        expect_close("sum", y, std::vector<double>{with_w ? weighted : plain}, 1e-5, 1e-5, f2f);
    }
}

// FlagGems' cat: three inputs of different lengths, each program's input
// chosen by a runtime if / elif / else on the grid's second axis.
void cat3_case(Target t) {
    const int na = 300, nb = 77, nc = 129;
    std::vector<float> a(na), b(nb), c(nc), out(na + nb + nc, -1.0f);
    std::vector<double> want;
    for (int i = 0; i < na; i++) want.push_back(a[i] = 0.5f * i);
    for (int i = 0; i < nb; i++) want.push_back(b[i] = -1.0f - i);
    for (int i = 0; i < nc; i++) want.push_back(c[i] = 1000.0f + i);
    {
        Buffers buf(t);
        float *od = buf(out);
        buf.finish(APPS_LAUNCH(t, cat3, mytriton_grid_2d((na + 127) / 128, 3), od, buf(a), buf(b),
                               buf(c), na, nb, nc));
    }
    expect_close("out", out, want, 0.0, 0.0, f2f);
}

// The parameters of a launcher (to check which pointers are const).
template <class R, class... A>
std::tuple<A...> *params_of(R (*)(A...)) {
    return nullptr;
}
template <size_t I, class F>
using param_t =
    std::tuple_element_t<I, std::remove_pointer_t<decltype(params_of(std::declval<F>()))>>;
// split2 writes through lo and hi only via the chosen address: not const.
static_assert(std::is_same<param_t<2, decltype(&launch_split2_o2_host)>, float *>::value,
              "lo written");
static_assert(std::is_same<param_t<3, decltype(&launch_split2_o1_host)>, float *>::value,
              "hi written");
static_assert(std::is_same<param_t<1, decltype(&launch_split2_o2_host)>, const float *>::value,
              "x read");
static_assert(std::is_same<param_t<2, decltype(&launch_cat3_o2_host)>, const float *>::value,
              "a read");

// The store's pointer chosen by a conditional expression: programs below
// h write 2 x to lo, the others to hi (the launcher's lo and hi not const).
void split2_case(Target t) {
    const int n = 200, h = 128;
    std::vector<float> x(n), lo(h, -1.0f), hi(n - h, -1.0f);
    std::vector<double> want_lo(h), want_hi(n - h);
    for (int i = 0; i < n; i++) {
        x[i] = 0.25f * i - 7.0f;
        (i < h ? want_lo[i] : want_hi[i - h]) = 2.0 * x[i];
    }
    {
        Buffers buf(t);
        float *lod = buf(lo), *hid = buf(hi);
        buf.finish(APPS_LAUNCH(t, split2, mytriton_grid_1d((n + 63) / 64), buf(x), lod, hid, n, h));
    }
    expect_close("lo", lo, want_lo, 0.0, 0.0, f2f);
    expect_close("hi", hi, want_hi, 0.0, 0.0, f2f);
}

// Three problems of different sizes (one with padded rows of A) through
// one grouped launch of 5 programs, their matrices passed as tables of
// addresses (device addresses for CUDA), against double-precision products
// of the same fp16 inputs.
void grouped_gemm_case(Target t) {
    struct Problem {
        int m, n, k, lda;
    };
    const Problem probs[3] = {{64, 32, 48, 48}, {32, 96, 32, 48}, {96, 64, 16, 16}};
    std::vector<std::vector<half>> a(3), b(3), c(3);
    std::vector<int32_t> sizes, strides;
    for (int p = 0; p < 3; p++) {
        const Problem &q = probs[p];
        a[p] = random_halves((size_t)q.m * q.lda, -1.0f, 1.0f, 40 + p);
        b[p] = random_halves((size_t)q.k * q.n, -1.0f, 1.0f, 50 + p);
        c[p].assign((size_t)q.m * q.n, mytriton_fp16_from_float(-7.0f));
        sizes.insert(sizes.end(), {q.m, q.n, q.k});
        strides.insert(strides.end(), {q.lda, q.n, q.n});
    }
    {
        Buffers buf(t);
        std::vector<int64_t> at(3), bt(3), ct(3);
        for (int p = 0; p < 3; p++) {
            at[p] = (int64_t)(uintptr_t)buf(a[p]);
            bt[p] = (int64_t)(uintptr_t)buf(b[p]);
            ct[p] = (int64_t)(uintptr_t)buf(c[p]);
        }
        int64_t *atd = buf(at), *btd = buf(bt), *ctd = buf(ct);
        buf.finish(APPS_LAUNCH(t, grouped_gemm, mytriton_grid_1d(5), atd, btd, ctd, buf(sizes),
                               buf(strides), 3));
    }
    for (int p = 0; p < 3; p++) {
        const Problem &q = probs[p];
        std::vector<double> want((size_t)q.m * q.n);
        for (int i = 0; i < q.m; i++)
            for (int j = 0; j < q.n; j++) {
                double s = 0;
                for (int kk = 0; kk < q.k; kk++)
                    s +=
                        (double)h2f(a[p][(size_t)i * q.lda + kk]) * h2f(b[p][(size_t)kk * q.n + j]);
                want[(size_t)i * q.n + j] = s;
            }
        expect_close(("C" + std::to_string(p)).c_str(), c[p], want, 2e-3, 2e-3, h2f);
    }
}

// A pointer's address and truth, and an address read back as a pointer of
// another element type (address_kernel).
void address_case(Target t) {
    const int n = 100;
    std::vector<float> x(n), out(128, -1.0f);
    std::vector<int32_t> info(2, -1);
    std::vector<double> want(128, -1.0);
    for (int i = 0; i < n; i++) {
        x[i] = (float)i * 0.25f - 3.0f;
        want[i] = 2.0 * x[i];
    }
    uintptr_t xaddr = 0;
    {
        Buffers buf(t);
        float *xd = buf(x), *od = buf(out);
        xaddr = (uintptr_t)xd;
        buf.finish(APPS_LAUNCH(t, address, mytriton_grid_1d(1), xd, od, buf(info), n));
    }
    expect_close("out", out, want, 0.0, 0.0, f2f);
    EXPECT_EQ(info[0], (int32_t)(xaddr & 15));
    EXPECT_EQ(info[1], 1);
}

// C = scale * (A @ B), fp16 (M, K) and (K, N) with padded rows, edge tiles
// masked (scaled_matmul_kernel: the scale read before the K loop).
void scaled_matmul_case(Target t) {
    const int M = 70, N = 45, K = 83, lda = 88, ldb = 48, ldc = 50;
    std::vector<half> a = random_halves((size_t)M * lda, -1.0f, 1.0f, 61);
    std::vector<half> b = random_halves((size_t)K * ldb, -1.0f, 1.0f, 62);
    std::vector<half> c((size_t)M * ldc, mytriton_fp16_from_float(-7.0f));
    std::vector<float> scale{0.375f};
    {
        Buffers buf(t);
        half *cd = buf(c);
        buf.finish(APPS_LAUNCH(t, scaled_matmul, mytriton_grid_2d((M + 31) / 32, (N + 31) / 32),
                               buf(a), buf(b), cd, buf(scale), M, N, K, lda, ldb, ldc));
    }
    std::vector<double> want(c.size());
    for (size_t e = 0; e < c.size(); e++) want[e] = h2f(c[e]); /* outside C: untouched */
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < K; k++)
                s += (double)h2f(a[(size_t)i * lda + k]) * h2f(b[(size_t)k * ldb + j]);
            want[(size_t)i * ldc + j] = 0.375 * s;
        }
    expect_close("C", c, want, 2e-3, 2e-3, h2f);
}

// A batch of 3 matmuls of one size, their matrices given as tables of
// addresses (table_matmul_kernel, program_id(2): the batch entry).
void table_matmul_case(Target t) {
    const int M = 45, N = 70, K = 40, B = 3;
    std::vector<std::vector<half>> a(B), b(B), c(B);
    for (int e = 0; e < B; e++) {
        a[e] = random_halves((size_t)M * K, -1.0f, 1.0f, 70 + e);
        b[e] = random_halves((size_t)K * N, -1.0f, 1.0f, 80 + e);
        c[e].assign((size_t)M * N, mytriton_fp16_from_float(-7.0f));
    }
    {
        Buffers buf(t);
        std::vector<int64_t> at(B), bt(B), ct(B);
        for (int e = 0; e < B; e++) {
            at[e] = (int64_t)(uintptr_t)buf(a[e]);
            bt[e] = (int64_t)(uintptr_t)buf(b[e]);
            ct[e] = (int64_t)(uintptr_t)buf(c[e]);
        }
        int64_t *atd = buf(at), *btd = buf(bt), *ctd = buf(ct);
        buf.finish(APPS_LAUNCH(t, table_matmul, mytriton_grid_3d((M + 31) / 32, (N + 31) / 32, B),
                               atd, btd, ctd, M, N, K));
    }
    for (int e = 0; e < B; e++) {
        std::vector<double> want((size_t)M * N);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double s = 0;
                for (int k = 0; k < K; k++)
                    s += (double)h2f(a[e][(size_t)i * K + k]) * h2f(b[e][(size_t)k * N + j]);
                want[(size_t)i * N + j] = s;
            }
        expect_close(("C" + std::to_string(e)).c_str(), c[e], want, 2e-3, 2e-3, h2f);
    }
}

// Four experts of 37, 0, 70 and 5 rows (the empty one, and row blocks past
// each expert's rows, leave at once), K = 48, N = 40: C's rows are each
// expert's A rows times its B (expert_matmul_kernel); rows past the last
// expert's untouched.
void expert_matmul_case(Target t) {
    const int E = 4, K = 48, N = 40, counts[E] = {37, 0, 70, 5};
    std::vector<int32_t> offsets{0};
    for (int e = 0; e < E; e++) offsets.push_back(offsets.back() + counts[e]);
    const int rows = offsets.back();
    std::vector<half> a = random_halves((size_t)rows * K, -1.0f, 1.0f, 91);
    std::vector<half> b = random_halves((size_t)E * K * N, -1.0f, 1.0f, 92);
    std::vector<half> c((size_t)(rows + 3) * N, mytriton_fp16_from_float(-7.0f));
    {
        Buffers buf(t);
        half *cd = buf(c);
        buf.finish(APPS_LAUNCH(t, expert_matmul, mytriton_grid_3d((70 + 31) / 32, (N + 31) / 32, E),
                               buf(a), buf(b), cd, buf(offsets), K, N));
    }
    std::vector<double> want(c.size(), -7.0);
    for (int e = 0; e < E; e++)
        for (int i = offsets[e]; i < offsets[e + 1]; i++)
            for (int j = 0; j < N; j++) {
                double s = 0;
                for (int k = 0; k < K; k++)
                    s += (double)h2f(a[(size_t)i * K + k]) * h2f(b[((size_t)e * K + k) * N + j]);
                want[(size_t)i * N + j] = s;
            }
    expect_close("C", c, want, 2e-3, 2e-3, h2f);
}

// C = A @ B by 3 programs walking the 6 x 3 tiles of 32 x 32 in groups of 2
// rows of tiles (persistent_matmul_kernel), ragged edges, padded rows.
void persistent_matmul_case(Target t) {
    const int M = 170, N = 90, K = 75, lda = 80, ldb = 96, ldc = 100;
    std::vector<half> a = random_halves((size_t)M * lda, -1.0f, 1.0f, 101);
    std::vector<half> b = random_halves((size_t)K * ldb, -1.0f, 1.0f, 102);
    std::vector<half> c((size_t)M * ldc, mytriton_fp16_from_float(-7.0f));
    {
        Buffers buf(t);
        half *cd = buf(c);
        buf.finish(APPS_LAUNCH(t, persistent_matmul, mytriton_grid_1d(3), buf(a), buf(b), cd, M, N,
                               K, lda, ldb, ldc));
    }
    std::vector<double> want(c.size(), -7.0);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < K; k++)
                s += (double)h2f(a[(size_t)i * lda + k]) * h2f(b[(size_t)k * ldb + j]);
            want[(size_t)i * ldc + j] = s;
        }
    expect_close("C", c, want, 2e-3, 2e-3, h2f);
}

#if MT_APPS_CUDA
// tl.inline_asm_elementwise (kernels/asm_forms.py; CUDA only): fla's softplus
// in PTX, a funnel shift, four u8 per register (pack=4), fp16 in 'h' and two
// halves per 'r' (pack=2), an asm with side effects, one of two results;
// 1000 elements over four programs, the last one ragged.
void inline_asm_case(Target t) {
    const int n = 1000;
    std::vector<float> x(n), out(n, -1.0f);
    std::vector<int32_t> y(n), iout(4 * n, -1);
    std::vector<half> h = random_halves(n, -4.0f, 4.0f, 31), hout(2 * n);
    std::vector<double> want(n);
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i - 500) * 0.05f + 0.01f; /* -25 .. 25: both arms of the predicate */
        y[i] = (int32_t)(0x9E3779B9u * (uint32_t)(i + 1));
        want[i] = x[i] > 20.0f ? (double)x[i] : std::log1p(std::exp((double)x[i]));
    }
    {
        Buffers buf(t);
        float *od = buf(out);
        int32_t *id = buf(iout);
        half *hd = buf(hout);
        auto launch = t.opt == 1 ? launch_asm_o1 : launch_asm_o2;
        buf.finish((int)launch(nullptr, mytriton_grid_1d((n + 255) / 256), buf(x), buf(y), buf(h),
                               od, id, hd, n));
    }
    expect_close("softplus", out, want, 4e-6, 4e-6, f2f);
    for (int i = 0; i < n; i++) {
        uint32_t u = (uint32_t)y[i];
        ASSERT_EQ((uint32_t)iout[i], (u << 5) | (u >> 27)) << "rotate, element " << i;
        ASSERT_EQ(iout[n + i], (int32_t)(u & 0x0Fu)) << "low nibble (pack=4), element " << i;
        ASSERT_EQ(iout[2 * n + i], (int32_t)(u + 7u)) << "add (is_pure=False), element " << i;
        ASSERT_EQ(iout[3 * n + i], (int32_t)(u & 0xFFFFu) - (int32_t)(u >> 16))
            << "halves, element " << i;
        ASSERT_EQ(h2f(hout[i]), -h2f(h[i])) << "neg.f16, element " << i;
        ASSERT_EQ(h2f(hout[n + i]), -2.0f * h2f(h[i])) << "neg.f16x2 (pack=2), element " << i;
    }
}

// More than three asm operands (issue 51): x * x + x / 2 + (y & 255) / 4 in
// two fma.rn, and the xor of y's low byte shifted 0 to 3 (pack=4).
void inline_asm_many_case(Target t) {
    const int n = 1000;
    std::vector<float> x(n), out(n, -1.0f);
    std::vector<int32_t> y(n), iout(n, -1);
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i - 500) * 0.03f;
        y[i] = (int32_t)(0x9E3779B9u * (uint32_t)(i + 1));
    }
    {
        Buffers buf(t);
        float *od = buf(out);
        int32_t *id = buf(iout);
        auto launch = t.opt == 1 ? launch_asm_many_o1 : launch_asm_many_o2;
        buf.finish(
            (int)launch(nullptr, mytriton_grid_1d((n + 255) / 256), buf(x), buf(y), od, id, n));
    }
    for (int i = 0; i < n; i++) {
        float f = std::fma(x[i], x[i], x[i] * 0.5f);
        ASSERT_EQ(out[i], std::fma((float)(y[i] & 255), 0.25f, f)) << "element " << i;
        uint32_t b = (uint32_t)y[i] & 255u;
        ASSERT_EQ(iout[i], (int32_t)(b ^ (b >> 1) ^ (b >> 2) ^ (b >> 3))) << "element " << i;
    }
}
#endif

}  // namespace

// Each case on the host backend (HostO1, HostO2) and on CUDA (CudaO1,
// CudaO2: skipped without a GPU), at -O1 and -O2.
#if MT_APPS_CUDA
#define APPS_CUDA_TESTS(name, ...)       \
    TEST(CudaO1, name) {                 \
        MT_SKIP_WITHOUT_GPU();           \
        (__VA_ARGS__)(Target{false, 1}); \
    }                                    \
    TEST(CudaO2, name) {                 \
        MT_SKIP_WITHOUT_GPU();           \
        (__VA_ARGS__)(Target{false, 2}); \
    }
#else
#define APPS_CUDA_TESTS(name, ...)
#endif
#define APPS_TESTS(name, ...)                              \
    TEST(HostO1, name) { (__VA_ARGS__)(Target{true, 1}); } \
    TEST(HostO2, name) { (__VA_ARGS__)(Target{true, 2}); } \
    APPS_CUDA_TESTS(name, __VA_ARGS__)

#if MT_APPS_CUDA
TEST(CudaO1, inline_asm) {
    MT_SKIP_WITHOUT_GPU();
    inline_asm_case(Target{false, 1});
}
TEST(CudaO2, inline_asm) {
    MT_SKIP_WITHOUT_GPU();
    inline_asm_case(Target{false, 2});
}
TEST(CudaO1, inline_asm_many) {
    MT_SKIP_WITHOUT_GPU();
    inline_asm_many_case(Target{false, 1});
}
TEST(CudaO2, inline_asm_many) {
    MT_SKIP_WITHOUT_GPU();
    inline_asm_many_case(Target{false, 2});
}
#endif
APPS_TESTS(grouped_gemm, grouped_gemm_case)
APPS_TESTS(address, address_case)
APPS_TESTS(scaled_matmul, scaled_matmul_case)
APPS_TESTS(table_matmul, table_matmul_case)
APPS_TESTS(expert_matmul, expert_matmul_case)
APPS_TESTS(persistent_matmul, persistent_matmul_case)
APPS_TESTS(more_math, more_math_case)
APPS_TESTS(libdevice_spelled, libdevice_spelled_case)
APPS_TESTS(libdevice_binary, libdevice_binary_case)
APPS_TESTS(std_softmax, std_softmax_case)
APPS_TESTS(rms_norm, rms_norm_case)
APPS_TESTS(online_softmax, online_softmax_case)
APPS_TESTS(gelu_alias, gelu_alias_case)
APPS_TESTS(delta_rule, delta_rule_case)
APPS_TESTS(saturate, saturate_case)
APPS_TESTS(weighted_sum, weighted_sum_case)
APPS_TESTS(cat3, cat3_case)
APPS_TESTS(split2, split2_case)
APPS_TESTS(desc_matmul, desc_matmul_case)
APPS_TESTS(desc_batch_scale, desc_batch_scale_case)
APPS_TESTS(chunk_scale, [](Target t) { chunk_scale_case(t, false); })
APPS_TESTS(chunk_scale_g, [](Target t) { chunk_scale_case(t, true); })
APPS_TESTS(gelu, gelu_case)
APPS_TESTS(attention, [](Target t) { attention_case(t, false); })
APPS_TESTS(attention_causal, [](Target t) { attention_case(t, true); })
APPS_TESTS(layer_norm, layer_norm_case)
