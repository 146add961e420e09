// Helper functions, imported helpers and constexprs (issue 13): the kernels
// of kernels/fn.py run through their generated launchers (host always, CUDA
// with a GPU) and compared with references written here from the Python
// source; and the diagnostics of helper calls, imports and static
// assertions, from mytritonc run on small kernel files.
//
//   HostO1.* / HostO2.*   the host backend at -O1 / -O2
//   CudaO1.* / CudaO2.*   the CUDA backend (skipped without a GPU)
//   Diagnostics.*         file:line:col: error: ..., the line, a caret, notes
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "mytriton/runtime.h"
#include "mytriton_lang_fn_kernels.h"
#include "process.h"
#if MT_FN_MLIR
#include "mytriton_lang_fn_mlir.h"
#endif

#if MT_FN_CUDA
#include <cuda_runtime_api.h>
#include "../support/gpu.h"
#endif

namespace {

// ---- Buffers on the backend under test ------------------------------------

enum class Backend { Host, Cuda };

class Mem {
  public:
    explicit Mem(Backend b) : b_(b) {}
    Mem(const Mem &) = delete;
    Mem &operator=(const Mem &) = delete;
    ~Mem() {
        for (void *p : owned_) release(p);
    }
    float *in(const std::vector<float> &v) {
        float *p = alloc(v.size());
        copy_to(p, v);
        return p;
    }
    float *out(size_t n) { return in(std::vector<float>(n, -7777.25f)); }
    // an i32 output (as the f32 buffers: 4 bytes an element)
    int32_t *out_i32(size_t n) { return reinterpret_cast<int32_t *>(out(n)); }
    std::vector<int32_t> get_i32(const int32_t *p, size_t n) {
        std::vector<float> f = get(reinterpret_cast<const float *>(p), n);
        std::vector<int32_t> v(n);
        std::memcpy(v.data(), f.data(), n * sizeof(int32_t));
        return v;
    }
    std::vector<float> get(const float *p, size_t n) {
        std::vector<float> v(n);
#if MT_FN_CUDA
        if (b_ == Backend::Cuda) {
            EXPECT_EQ(cudaMemcpy(v.data(), p, n * sizeof(float), cudaMemcpyDeviceToHost),
                      cudaSuccess);
            return v;
        }
#endif
        std::memcpy(v.data(), p, n * sizeof(float));
        return v;
    }

  private:
    float *alloc(size_t n) {
        void *p = nullptr;
#if MT_FN_CUDA
        if (b_ == Backend::Cuda) {
            EXPECT_EQ(cudaMalloc(&p, n * sizeof(float) + 16), cudaSuccess);
            owned_.push_back(p);
            return static_cast<float *>(p);
        }
#endif
        p = std::malloc(n * sizeof(float) + 16);
        owned_.push_back(p);
        return static_cast<float *>(p);
    }
    void copy_to(float *p, const std::vector<float> &v) {
#if MT_FN_CUDA
        if (b_ == Backend::Cuda) {
            EXPECT_EQ(cudaMemcpy(p, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice),
                      cudaSuccess);
            return;
        }
#endif
        std::memcpy(p, v.data(), v.size() * sizeof(float));
    }
    void release(void *p) {
#if MT_FN_CUDA
        if (b_ == Backend::Cuda) {
            cudaFree(p);
            return;
        }
#endif
        std::free(p);
    }
    Backend b_;
    std::vector<void *> owned_;
};

std::vector<float> inputs(size_t n, uint32_t seed, float lo, float hi) {
    std::vector<float> v(n);
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    for (auto &x : v) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        x = lo + (hi - lo) * (float)((s >> 40) * 0x1p-24);
    }
    return v;
}

// CUDA may contract a*b+c into an FMA: compared with a small tolerance there.
void expect_close(const std::vector<float> &got, const std::vector<float> &want, Backend b,
                  const char *what) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); i++) {
        if (b == Backend::Host) {
            ASSERT_EQ(got[i], want[i]) << what << "[" << i << "]";
        } else {
            ASSERT_NEAR(got[i], want[i], 1e-5f * (1.0f + std::fabs(want[i])))
                << what << "[" << i << "]";
        }
    }
}

#if MT_FN_CUDA
#define MT_NEED_GPU() MT_SKIP_WITHOUT_GPU()
// launch_NAME (CUDA, stream 0) or launch_NAME_host, for -O1 or -O2
#define FN_LAUNCH(b, opt, name, ...)                                                       \
    ((b) == Backend::Host ? ((opt) == 1 ? (int)launch_fn_##name##_o1_host(__VA_ARGS__)     \
                                        : (int)launch_fn_##name##_o2_host(__VA_ARGS__))    \
                          : ((opt) == 1 ? (int)launch_fn_##name##_o1(nullptr, __VA_ARGS__) \
                                        : (int)launch_fn_##name##_o2(nullptr, __VA_ARGS__)))
#define FN_CUDA_CASES(name)            \
    TEST(CudaO1, name) {               \
        MT_NEED_GPU();                 \
        name##_case(Backend::Cuda, 1); \
    }                                  \
    TEST(CudaO2, name) {               \
        MT_NEED_GPU();                 \
        name##_case(Backend::Cuda, 2); \
    }
#else
#define FN_LAUNCH(b, opt, name, ...)                           \
    ((opt) == 1 ? (int)launch_fn_##name##_o1_host(__VA_ARGS__) \
                : (int)launch_fn_##name##_o2_host(__VA_ARGS__))
#define FN_CUDA_CASES(name)
#endif
// The MLIR backend's launcher of fn_<name>_m (the print and assert cases
// run it with opt 0 on the CUDA backend's device memory).
#if MT_FN_MLIR
#define FN_MLIR(name, ...) ((int)launch_fn_##name##_m_mlir(nullptr, __VA_ARGS__))
#define FN_MLIR_CASE(name)             \
    TEST(Mlir, name) {                 \
        MT_NEED_GPU();                 \
        name##_case(Backend::Cuda, 0); \
    }
#else
#define FN_MLIR(name, ...) (-1)
#define FN_MLIR_CASE(name)                                                               \
    TEST(Mlir, name) {                                                                   \
        GTEST_SKIP() << "built without the MLIR backend (mlir-opt of MLIR 19 and CUDA)"; \
    }
#endif
#define FN_CASE(name)                                     \
    static void name##_case(Backend b, int opt);          \
    TEST(HostO1, name) { name##_case(Backend::Host, 1); } \
    TEST(HostO2, name) { name##_case(Backend::Host, 2); } \
    FN_CUDA_CASES(name)                                   \
    static void name##_case(Backend b, int opt)

#if MT_FN_CUDA
void sync(Backend b) {
    if (b == Backend::Cuda) {
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    }
}
#else
void sync(Backend) {}
#endif

// ---- act_kernel: a reduction over K, then an activation by string constexpr

enum class Act { Leaky, Relu, None };

std::vector<float> act_reference(const std::vector<float> &x, const std::vector<float> &w, int n,
                                 int K, Act act) {
    std::vector<float> out(n);
    for (int i = 0; i < n; i++) {
        float acc = 0.0f;
        for (int k = 0; k < K; k++) {
            float p = x[(size_t)i * K + k] * w[k];
            acc = acc + p;
        }
        if (act == Act::Leaky) {
            // leaky_relu in the kernel body, then again through activation()
            acc = acc > 0 ? acc : acc * 0.01f;
            acc = acc > 0 ? acc : acc * 0.01f;
        } else if (act == Act::Relu) {
            acc = std::fmax(acc, 0.0f);
        }
        out[i] = acc;
    }
    return out;
}

template <typename Launch>
void run_act(Backend b, Act act, Launch launch) {
    const int n = 300, K = 5;
    auto x = inputs((size_t)n * K, 1, -2.0f, 2.0f);
    auto w = inputs(K, 2, -1.0f, 1.0f);
    Mem m(b);
    float *dx = m.in(x), *dw = m.in(w), *dout = m.out(n);
    ASSERT_EQ(launch(dx, dw, dout, n, K), 0);
    sync(b);
    expect_close(m.get(dout, n), act_reference(x, w, n, K, act), b, "out");
}

FN_CASE(ActivationLeakyRelu) {
    run_act(b, Act::Leaky, [&](float *x, float *w, float *o, int n, int K) {
        return FN_LAUNCH(b, opt, act_leaky, x, w, o, n, K);
    });
}
FN_CASE(ActivationRelu) {
    run_act(b, Act::Relu, [&](float *x, float *w, float *o, int n, int K) {
        return FN_LAUNCH(b, opt, act_relu, x, w, o, n, K);
    });
}
FN_CASE(ActivationNone) {
    run_act(b, Act::None, [&](float *x, float *w, float *o, int n, int K) {
        return FN_LAUNCH(b, opt, act_none, x, w, o, n, K);
    });
}

// ---- tuple_kernel: a tuple return, helpers calling helpers, keywords --------

FN_CASE(TupleReturnKeywordsImported) {
    const int n = 1000;
    auto x = inputs(n, 3, -3.0f, 3.0f), y = inputs(n, 4, -3.0f, 3.0f);
    Mem m(b);
    float *dx = m.in(x), *dy = m.in(y), *ds = m.out(n), *dp = m.out(n), *da = m.out(n);
    ASSERT_EQ(FN_LAUNCH(b, opt, tuples, dx, dy, ds, dp, da, n), 0);
    sync(b);
    std::vector<float> s(n), p(n), a(n);
    for (int i = 0; i < n; i++) {
        s[i] = x[i] + y[i];
        p[i] = x[i] * y[i];
        float t = x[i] * 2.0f;
        t = t + 0.5f;
        t = t + 0.0f;
        t = t * 1.0f;
        t = t + 0.25f;
        t = t + 1.0f;
        float sq = t * t;
        a[i] = sq + y[i];
    }
    expect_close(m.get(ds, n), s, b, "s");
    expect_close(m.get(dp, n), p, b, "p");
    expect_close(m.get(da, n), a, b, "a");
}

// ---- loop_kernel: a helper returning a tuple, called in a runtime loop -----

FN_CASE(HelperInRuntimeLoop) {
    const int n = 100, iters = 7;
    auto x = inputs(n, 5, -1.0f, 1.0f);
    Mem m(b);
    float *dx = m.in(x), *dout = m.out(n);
    ASSERT_EQ(FN_LAUNCH(b, opt, loop, dx, dout, n, iters), 0);
    sync(b);
    std::vector<float> want(n);
    for (int j = 0; j < n; j++) {
        float acc = 0.0f;
        for (int i = 0; i < iters; i++) {
            float t = x[j] * (float)i;
            acc = acc + t;
        }
        want[j] = acc;
    }
    expect_close(m.get(dout, n), want, b, "out");
}

// ---- constexpr_kernel: tuple, float, bool and None constexprs -------------

std::vector<float> consts_reference(const std::vector<float> &x, const float coefs[3], float scale,
                                    bool use_log, bool has_offset, float offset) {
    std::vector<float> out(x.size());
    for (size_t i = 0; i < x.size(); i++) {
        float r = 0.0f;
        for (int k = 0; k < 3; k++) {
            float t = r * x[i];
            r = t + coefs[k];
        }
        float y = r * scale;
        if (use_log) y = y * (float)0.6931471805599453;
        if (has_offset) y = y + offset;
        out[i] = y;
    }
    return out;
}

FN_CASE(TupleFloatBoolNoneConstexprs) {
    const int n = 257;
    auto x = inputs(n, 6, -2.0f, 2.0f);
    Mem m(b);
    float *dx = m.in(x), *dout = m.out(n);
    ASSERT_EQ(FN_LAUNCH(b, opt, consts, dx, dout, n), 0);
    sync(b);
    const float coefs[3] = {0.5f, -1.0f, 2.0f};
    expect_close(m.get(dout, n), consts_reference(x, coefs, 1.5f, true, true, 3.0f), b, "out");
}

FN_CASE(ConstexprDefaultsAndIntTuple) {
    const int n = 100;
    auto x = inputs(n, 7, -2.0f, 2.0f);
    Mem m(b);
    float *dx = m.in(x), *dout = m.out(n);
    ASSERT_EQ(FN_LAUNCH(b, opt, consts_default, dx, dout, n), 0);
    sync(b);
    const float coefs[3] = {1.0f, 2.0f, 3.0f};
    expect_close(m.get(dout, n), consts_reference(x, coefs, 2.0f, false, false, 0.0f), b, "out");
}

// ---- forms_kernel: tl.assume, a runtime block given to a parameter annotated
// tl.constexpr, the dtype of a name assigned a number (issue 51)

FN_CASE(TritonForms) {
    const int B = 16;
    for (int n : {1, 7, 16}) {
        SCOPED_TRACE("n " + std::to_string(n));
        std::vector<float> x(B * B);
        for (int e = 0; e < B * B; e++) x[e] = (float)((e * 7) % 23 - 11) * 0.25f;
        Mem m(b);
        float *dx = m.in(x), *dout = m.out(B * B);
        int32_t *drows = m.out_i32(B);
        ASSERT_EQ(FN_LAUNCH(b, opt, forms, dx, dout, drows, n), 0);
        sync(b);
        std::vector<float> want(B * B);
        std::vector<int32_t> rows(B);
        for (int i = 0; i < B; i++) {
            float sum = 0.0f;
            for (int j = 0; j < B; j++) {
                float a = i >= j && j < n ? x[i * B + j] : 0.0f;
                sum += a;
                want[i * B + j] = a * 2.5f;
            }
            rows[i] = sum > 0.0f ? 1 : 0;
        }
        expect_close(m.get(dout, B * B), want, b, "out");
        EXPECT_EQ(m.get_i32(drows, B), rows);
    }
}

// ---- classes_kernel: triton.language.core's CONSTEXPR_0 and
// TRITON_MAX_TENSOR_NUMEL, isinstance as Triton 3.6 evaluates it (issue 51)

FN_CASE(CoreConstexprsAndIsinstance) {
    const int M = 40, N = 16, BM = 16, programs = (M + BM - 1) / BM;
    std::vector<float> x(M * N);
    for (int e = 0; e < M * N; e++) x[e] = (float)((e * 5) % 17 - 8) * 0.5f;
    Mem m(b);
    float *dx = m.in(x), *dout = m.out(M * N);
    int32_t *dflags = m.out_i32(programs);
    ASSERT_EQ(FN_LAUNCH(b, opt, classes, dx, dout, dflags, M, N), 0);
    sync(b);
    EXPECT_EQ(m.get(dout, M * N), x);
    // int, tensor (a name assigned 0), tensor, dtype, tensor (a pointer
    // parameter), float, int (True): 1 + 4 + 16 + 32 + 128 + 256 + 512
    EXPECT_EQ(m.get_i32(dflags, programs), std::vector<int32_t>(programs, 949));
}

// ---- timer_kernel: tl.extra.cuda.globaltimer, smid, num_warps, num_threads
// (issue 51): facts of the values, which differ per run

FN_CASE(CudaSpecialRegisters) {
    const int n = 200, BLOCK = 64, programs = (n + BLOCK - 1) / BLOCK;
    auto x = inputs(n, 3, -2.0f, 2.0f);
    Mem m(b);
    float *dx = m.in(x), *dout = m.out(n);
    int32_t *dfacts = m.out_i32(4 * programs);
    ASSERT_EQ(FN_LAUNCH(b, opt, timer, dx, dout, dfacts, n), 0);
    sync(b);
    std::vector<float> want(n);
    for (int i = 0; i < n; i++) want[i] = x[i] * 2.0f;
    EXPECT_EQ(m.get(dout, n), want);
    // t1 >= t0 and t0 > 0; smid >= 0; Triton's num_warps (4) and num_threads
    std::vector<int32_t> facts;
    for (int p = 0; p < programs; p++) facts.insert(facts.end(), {3, 1, 4, 128});
    EXPECT_EQ(m.get_i32(dfacts, 4 * programs), facts);
}

// ---- print_kernel: tl.device_print and print() -------------------------------

std::vector<std::string> sorted_lines(const std::string &text) {
    std::vector<std::string> lines;
    size_t at = 0;
    while (at < text.size()) {
        size_t nl = text.find('\n', at);
        if (nl == std::string::npos) nl = text.size();
        lines.push_back(text.substr(at, nl - at));
        at = nl + 1;
    }
    std::sort(lines.begin(), lines.end());
    return lines;
}

FN_CASE(DevicePrintFormat) {
    std::vector<float> x = {1.5f, -2.0f, 0.25f, 3.0f};
    std::vector<int32_t> iv = {1, -2, 300, 7};
    std::vector<float> ibits(4);
    std::memcpy(ibits.data(), iv.data(), sizeof(int32_t) * 4);
    Mem m(b);
    float *dx = m.in(x), *di = m.in(ibits);
    fflush(stdout);
    testing::internal::CaptureStdout();
    int status = opt == 0 ? FN_MLIR(print, dx, reinterpret_cast<int32_t *>(di))
                          : FN_LAUNCH(b, opt, print, dx, reinterpret_cast<int32_t *>(di));
    sync(b);
    fflush(stdout);
    std::string out = testing::internal::GetCapturedStdout();
    ASSERT_EQ(status, 0);
    const char *want =
        "pid (0, 0, 0) idx (0) x: 1.500000\n"
        "pid (0, 0, 0) idx (1) x: -2.000000\n"
        "pid (0, 0, 0) idx (2) x: 0.250000\n"
        "pid (0, 0, 0) idx (3) x: 3.000000\n"
        "pid (0, 0, 0) idx (0) vals: (operand 0) 1\n"
        "pid (0, 0, 0) idx (1) vals: (operand 0) -2\n"
        "pid (0, 0, 0) idx (2) vals: (operand 0) 300\n"
        "pid (0, 0, 0) idx (3) vals: (operand 0) 7\n"
        "pid (0, 0, 0) idx (0) vals: (operand 1) 3.000000\n"
        "pid (0, 0, 0) idx (1) vals: (operand 1) -4.000000\n"
        "pid (0, 0, 0) idx (2) vals: (operand 1) 0.500000\n"
        "pid (0, 0, 0) idx (3) vals: (operand 1) 6.000000\n"
        "pid (0, 0, 0) idx (0) h: 0x00000001\n"
        "pid (0, 0, 0) idx (1) h: 0xfffffffe\n"
        "pid (0, 0, 0) idx (2) h: 0x0000012c\n"
        "pid (0, 0, 0) idx (3) h: 0x00000007\n";
    if (b == Backend::Host) EXPECT_EQ(out, want);  // in program order
    else EXPECT_EQ(sorted_lines(out), sorted_lines(want));
}

std::string print2d_expected() {
    std::string want;
    char line[128];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 8; c++) {
            std::snprintf(line, sizeof line, "pid (0, 0, 0) idx (%d, %d) t: %f\n", r, c,
                          (double)(r * 10 + c));
            want += line;
        }
    for (int r = 0; r < 4; r++) {
        std::snprintf(line, sizeof line, "pid (0, 0, 0) idx (%d, 0) r: %d\n", r, r);
        want += line;
    }
    for (int c = 0; c < 8; c++) {
        std::snprintf(line, sizeof line, "pid (0, 0, 0) idx (0, %d) c: 0x%02x\n", c, c);
        want += line;
    }
    for (int a = 0; a < 2; a++)
        for (int r = 0; r < 2; r++)
            for (int c = 0; c < 8; c++) {
                std::snprintf(line, sizeof line, "pid (0, 0, 0) idx (%d, %d, %d) u: %f\n", a, r, c,
                              (double)((a * 2 + r) * 10 + c));
                want += line;
            }
    return want;
}

FN_CASE(DevicePrintTileRowsColumns) {
    std::vector<float> x(32);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 8; c++) x[r * 8 + c] = (float)(r * 10 + c);
    Mem m(b);
    float *dx = m.in(x);
    fflush(stdout);
    testing::internal::CaptureStdout();
    int status = opt == 0 ? FN_MLIR(print2d, dx) : FN_LAUNCH(b, opt, print2d, dx);
    sync(b);
    fflush(stdout);
    std::string out = testing::internal::GetCapturedStdout();
    ASSERT_EQ(status, 0);
    if (b == Backend::Host) EXPECT_EQ(out, print2d_expected());
    else EXPECT_EQ(sorted_lines(out), sorted_lines(print2d_expected()));
}

FN_MLIR_CASE(DevicePrintFormat)
FN_MLIR_CASE(DevicePrintTileRowsColumns)

// ---- assert_kernel: tl.device_assert, in a helper, with a mask -------------

FN_CASE(DeviceAssertOffIsNoCode) {
    const int n = 40;
    std::vector<float> x(n, 1.0f);
    x[7] = -3.0f;  // would fail the assertion
    Mem m(b);
    float *dx = m.in(x), *dout = m.out(n);
    ASSERT_EQ(FN_LAUNCH(b, opt, assert_off, dx, dout, n), 0);
    sync(b);
    std::vector<float> want(n);
    for (int i = 0; i < n; i++) want[i] = x[i] + 1.0f;
    expect_close(m.get(dout, n), want, b, "out");
}

FN_CASE(DeviceAssertOnPassesWhereMasked) {
    // the masked-off tail loads -1.0 (other=): the mask keeps it from failing
    const int n = 40;
    std::vector<float> x(n, 2.0f);
    Mem m(b);
    float *dx = m.in(x), *dout = m.out(n);
    ASSERT_EQ(
        opt == 0 ? FN_MLIR(assert_on, dx, dout, n) : FN_LAUNCH(b, opt, assert_on, dx, dout, n), 0);
    sync(b);
    std::vector<float> want(n, 3.0f);
    expect_close(m.get(dout, n), want, b, "out");
}

FN_MLIR_CASE(DeviceAssertOnPassesWhereMasked)

// A failing assertion aborts the host launch with CUDA's message.
static void host_assert_fails(int opt) {
    const int n = 40;
    std::vector<float> x(n, 1.0f);
    x[37] = -3.0f;
    std::vector<float> out(n);
    EXPECT_DEATH(
        {
            if (opt == 1) launch_fn_assert_on_o1_host(x.data(), out.data(), n);
            else launch_fn_assert_on_o2_host(x.data(), out.data(), n);
        },
        "fn\\.py:[0-9]+: assert_kernel: block: \\[1,0,0\\], thread: \\[5,0,0\\] Assertion `negative input` "
        "failed\\.");
}
TEST(HostO1, DeviceAssertFailureAborts) { host_assert_fails(1); }
TEST(HostO2, DeviceAssertFailureAborts) { host_assert_fails(2); }

// ---- Diagnostics ------------------------------------------------------------

struct Diag {
    int status;
    std::string err;
};

// Writes `files` (name, text) into a fresh directory and compiles
// kernel k of k.py with the signature and defines.
Diag compile_files(const std::string &tag,
                   const std::vector<std::pair<std::string, std::string>> &files,
                   const std::string &signature, const std::vector<std::string> &defines = {},
                   const std::string &kernel_file = "k.py") {
    std::string dir = mt_test::make_temp_dir("lang_fn_" + tag);
    for (auto &f : files) {
        std::filesystem::create_directories(
            std::filesystem::path(dir + "/" + f.first).parent_path());
        mt_test::write_file(dir + "/" + f.first, f.second);
    }
    std::vector<std::string> argv = {
        MT_TEST_COMPILER, dir + "/" + kernel_file, "--kernel",  "k", "--signature", signature,
        "--python",       MT_TEST_PYTHON,          "--emit=ssa"};
    for (auto &d : defines) {
        if (d.rfind("--", 0) == 0) argv.push_back(d); /* an option: --module-value=... */
        else argv.insert(argv.end(), {"-D", d});
    }
    auto r = mt_test::run_process(argv);
    std::string err = r.err;
    for (size_t at; (at = err.find(dir + "/")) != std::string::npos;) err.erase(at, dir.size() + 1);
    return {r.status, err};
}

const char *kHeader = "import triton\nimport triton.language as tl\n";

TEST(Diagnostics, RecursionNamesTheCycle) {
    auto d = compile_files(
        "recursion",
        {{"k.py", std::string(kHeader) +
                      "\n\n@triton.jit\ndef f(x):\n    return g(x)\n"
                      "\n\n@triton.jit\ndef g(x):\n    return f(x)\n"
                      "\n\n@triton.jit\ndef k(p):\n    tl.store(p, f(tl.load(p)))\n"}},
        "*fp32");
    EXPECT_EQ(d.status, 1);
    EXPECT_EQ(d.err,
              "k.py:12:12: error: recursive call: f -> g -> f (recursion is not supported)\n"
              "        return f(x)\n"
              "               ^\n"
              "k.py:7:12: note: in the call to 'g' here\n"
              "        return g(x)\n"
              "               ^\n"
              "k.py:17:17: note: in the call to 'f' here\n"
              "        tl.store(p, f(tl.load(p)))\n"
              "                    ^\n");
}

TEST(Diagnostics, ErrorInsideAHelperPointsIntoIt) {
    auto d = compile_files(
        "inside",
        {{"k.py", std::string(kHeader) +
                      "\n\n@triton.jit\ndef h(x):\n    y = x + 1\n    return y.nope\n"
                      "\n\n@triton.jit\ndef k(p):\n    tl.store(p, h(tl.load(p)))\n"}},
        "*fp32");
    EXPECT_EQ(d.status, 1);
    EXPECT_NE(d.err.find("k.py:8:12: error: "), std::string::npos) << d.err;
    EXPECT_NE(d.err.find("k.py:13:17: note: in the call to 'h' here\n"), std::string::npos)
        << d.err;
}

TEST(Diagnostics, WrongArity) {
    auto d = compile_files(
        "arity",
        {{"k.py", std::string(kHeader) +
                      "\n\n@triton.jit\ndef h(x, y):\n    return x + y\n"
                      "\n\n@triton.jit\ndef k(p):\n    tl.store(p, h(tl.load(p), 1, 2))\n"}},
        "*fp32");
    EXPECT_EQ(d.status, 1);
    EXPECT_EQ(d.err,
              "k.py:12:34: error: h() takes 2 positional arguments but 3 were given\n"
              "        tl.store(p, h(tl.load(p), 1, 2))\n"
              "                                     ^\n");
    auto m = compile_files(
        "missing",
        {{"k.py", std::string(kHeader) +
                      "\n\n@triton.jit\ndef h(x, y):\n    return x + y\n"
                      "\n\n@triton.jit\ndef k(p):\n    tl.store(p, h(tl.load(p)))\n"}},
        "*fp32");
    EXPECT_EQ(m.err,
              "k.py:12:17: error: h() missing required argument 'y'\n"
              "        tl.store(p, h(tl.load(p)))\n"
              "                    ^\n");
}

TEST(Diagnostics, UnknownKeyword) {
    auto d = compile_files(
        "keyword",
        {{"k.py", std::string(kHeader) +
                      "\n\n@triton.jit\ndef h(x, scale=1.0):\n    return x * scale\n"
                      "\n\n@triton.jit\ndef k(p):\n    tl.store(p, h(tl.load(p), scal=2.0))\n"}},
        "*fp32");
    EXPECT_EQ(d.status, 1);
    EXPECT_EQ(d.err,
              "k.py:12:31: error: h() got an unexpected keyword argument 'scal'\n"
              "        tl.store(p, h(tl.load(p), scal=2.0))\n"
              "                                  ^\n");
}

TEST(Diagnostics, MissingModule) {
    auto d = compile_files(
        "no_module",
        {{"k.py", std::string(kHeader) +
                      "from helpers import act\n"
                      "\n\n@triton.jit\ndef k(p):\n    tl.store(p, act(tl.load(p)))\n"}},
        "*fp32");
    EXPECT_EQ(d.status, 1);
    EXPECT_NE(d.err.find(
                  "k.py:8:17: error: cannot call 'act': no module 'helpers' beside the kernel file "
                  "(looked for "),
              std::string::npos)
        << d.err;
    auto r =
        compile_files("no_module_rel",
                      {{"k.py", std::string(kHeader) + "from .helpers import act\n"
                                                       "\n\n@triton.jit\ndef k(p):\n    pass\n"}},
                      "*fp32");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("k.py:3:1: error: no module 'helpers' beside this file (looked for "),
              std::string::npos)
        << r.err;
}

// Imports as packages write them: `from ..consts import f` (a parent
// directory), `from pkg.consts import f` (found in a directory above the
// importing file, as from a project root on sys.path), an import inside a
// module-level try (the first branch's binding), and a name the module
// binds to a Python value, an error only where a kernel uses it.
// triton.language's submodules as Python code imports them: core,
// standard (with its private _log2 and _is_power_of_two, which FlagGems'
// topk imports), math; their names are tl's (tl.math's).
TEST(Diagnostics, LanguageSubmodules) {
    const std::string k =
        std::string(kHeader) +
        "import triton.language.core as core\n"
        "from triton.language.standard import _log2, _is_power_of_two, zeros_like\n"
        "from triton.language.math import rsqrt\n"
        "from triton.language import core as core2\n"
        "import triton.language.math as tm\n"
        "\n\n@triton.jit\ndef k(p, N: tl.constexpr):\n"
        "    n: core.constexpr = _log2(N)\n"
        "    core.static_assert(_is_power_of_two(N) and n == 4)\n"
        "    x = tl.load(p + tl.arange(0, N))\n"
        "    y = core2.sum(core.reshape(x, [2, N // 2]), axis=0)\n"
        "    tl.store(p + tl.arange(0, N // 2), tm.exp(rsqrt(y)) + n + zeros_like(y))\n";
    auto d = compile_files("language_submodules", {{"k.py", k}}, "*fp32", {"N=16"});
    EXPECT_EQ(d.status, 0) << d.err;
    auto bad = compile_files("language_submodules_pow2", {{"k.py", k}}, "*fp32", {"N=8"});
    EXPECT_EQ(bad.status, 1);
    EXPECT_NE(bad.err.find("static assertion failed"), std::string::npos) << bad.err;
}

TEST(Diagnostics, InlineAsm) {
    auto src = [](const std::string &constraints, const std::string &dtype) {
        return std::string(kHeader) +
               "\n\n@triton.jit\ndef k(p, N: tl.constexpr):\n"
               "    x = tl.load(p + tl.arange(0, N))\n"
               "    y = tl.inline_asm_elementwise(\"add.f32 $0, $1, $2;\", \"" +
               constraints + "\", [x, 1.5], dtype=" + dtype +
               ", is_pure=True, pack=1)\n"
               "    tl.store(p + tl.arange(0, N), y)\n";
    };
    auto ok =
        compile_files("inline_asm", {{"k.py", src("=f,f,f", "tl.float32")}}, "*fp32", {"N=16"});
    EXPECT_EQ(ok.status, 0) << ok.err;
    // one output and two inputs, in that order, of classes nvcc knows
    auto few =
        compile_files("inline_asm_few", {{"k.py", src("=f,f", "tl.float32")}}, "*fp32", {"N=16"});
    EXPECT_EQ(few.status, 1);
    EXPECT_NE(few.err.find("k.py:8:"), std::string::npos) << few.err;
    EXPECT_NE(few.err.find("2 constraints for 3 asm operands"), std::string::npos) << few.err;
    auto order = compile_files("inline_asm_order", {{"k.py", src("f,=f,f", "tl.float32")}}, "*fp32",
                               {"N=16"});
    EXPECT_NE(order.err.find("must be 1 output"), std::string::npos) << order.err;
    auto cls = compile_files("inline_asm_class", {{"k.py", src("=f,f,n", "tl.float32")}}, "*fp32",
                             {"N=16"});
    EXPECT_NE(cls.err.find("the constraint 'n'"), std::string::npos) << cls.err;
    auto wide = compile_files("inline_asm_wide", {{"k.py", src("=h,f,f", "tl.float32")}}, "*fp32",
                              {"N=16"});
    EXPECT_NE(wide.err.find("a 'h' register (16 bits) cannot hold 1 f32 element"),
              std::string::npos)
        << wide.err;
    // several results: a register each here, before the inputs'
    auto few_out =
        compile_files("inline_asm_tuple_few", {{"k.py", src("=f,f,f", "(tl.float32, tl.float32)")}},
                      "*fp32", {"N=16"});
    EXPECT_NE(few_out.err.find("must be 2 outputs"), std::string::npos) << few_out.err;
    std::string two = src("=f,=f,f,f", "(tl.float32, tl.float16)");
    two.replace(two.find("    y = "), 8, "    y, z = ");
    two.replace(two.find("tl.store(p + tl.arange(0, N), y)"), 32,
                "tl.store(p + tl.arange(0, N), y + z)");
    auto tuple = compile_files("inline_asm_tuple", {{"k.py", two}}, "*fp32", {"N=16"});
    EXPECT_EQ(tuple.status, 0) << tuple.err;
    std::string side = two;
    side.replace(side.find("is_pure=True"), 12, "is_pure=False");
    auto tuple_side = compile_files("inline_asm_tuple_side", {{"k.py", side}}, "*fp32", {"N=16"});
    EXPECT_NE(tuple_side.err.find("several results with is_pure=False is not supported"),
              std::string::npos)
        << tuple_side.err;
    // PTX has no host rendering: a diagnostic at the call, nothing written
    auto host = compile_files("inline_asm_host", {{"k.py", src("=f,f,f", "tl.float32")}}, "*fp32",
                              {"N=16", "--emit=host"});
    EXPECT_EQ(host.status, 1);
    EXPECT_NE(host.err.find("k.py:8:9: error: tl.inline_asm_elementwise runs PTX, which the host "
                            "backend cannot run"),
              std::string::npos)
        << host.err;
}

// triton.language.core's module-level constexprs by every spelling, and
// isinstance's classes (issue 51).
TEST(Diagnostics, CoreConstexprsAndIsinstance) {
    const std::string k =
        std::string(kHeader) +
        "import triton.language.core as tlc\n"
        "from triton.language.core import CONSTEXPR_0\n"
        "\n\n@triton.jit\ndef k(p, N: tl.constexpr):\n"
        "    tl.static_assert(CONSTEXPR_0 == 0 and tlc.CONSTEXPR_0 == 0)\n"
        "    tl.static_assert(tl.TRITON_MAX_TENSOR_NUMEL == 1048576)\n"
        "    tl.static_assert(isinstance(N, int) and not isinstance(N, tl.constexpr))\n"
        "    tl.static_assert(isinstance(tl.float16, tl.dtype))\n"
        "    tl.static_assert(isinstance(p.dtype, tl.pointer_type))\n"
        "    tl.static_assert(not isinstance(p, (tl.tensor_descriptor, int, float, bool)))\n"
        "    o = tl.arange(0, N)\n"
        "    tl.store(p + o, tl.load(p + o))\n";
    auto d = compile_files("core_isinstance", {{"k.py", k}}, "*fp32", {"N=16"});
    EXPECT_EQ(d.status, 0) << d.err;
    auto body = [](const std::string &line) {
        return std::string(kHeader) + "\n\n@triton.jit\ndef k(p):\n" + line +
               "    tl.store(p, 1.0)\n";
    };
    auto cls = compile_files("isinstance_class",
                             {{"k.py", body("    tl.static_assert(isinstance(p, tl.float32))\n")}},
                             "*fp32");
    EXPECT_EQ(cls.status, 1);
    EXPECT_NE(cls.err.find("k.py:7:36: error: isinstance's classes are int, float, bool, "
                           "tl.tensor"),
              std::string::npos)
        << cls.err;
    auto call = compile_files("class_call", {{"k.py", body("    x = tl.tensor(p)\n")}}, "*fp32");
    EXPECT_NE(call.err.find("k.py:7:9: error: tl.tensor is a class: mytriton takes it in "
                            "isinstance() only"),
              std::string::npos)
        << call.err;
}

// triton.next_power_of_2, a Python function kernels call on compile-time
// integers (Triton runs it on the constexpr), also imported from triton.
TEST(Diagnostics, NextPowerOfTwo) {
    const std::string k =
        std::string(kHeader) +
        "from triton import next_power_of_2, cdiv\n"
        "\n\n@triton.jit\ndef k(p, N: tl.constexpr):\n"
        "    tl.static_assert(triton.next_power_of_2(N) == 128)\n"
        "    tl.static_assert(next_power_of_2(128) == 128 and next_power_of_2(1) == 1)\n"
        "    tl.static_assert(next_power_of_2(0) == 0 and cdiv(N, 64) == 2)\n"
        "    B: tl.constexpr = next_power_of_2(N)\n"
        "    o = tl.arange(0, B)\n"
        "    tl.store(p + o, tl.load(p + o, mask=o < N), mask=o < N)\n";
    auto d = compile_files("next_pow2", {{"k.py", k}}, "*fp32", {"N=100"});
    EXPECT_EQ(d.status, 0) << d.err;
    auto bad = compile_files(
        "next_pow2_runtime",
        {{"k.py",
          std::string(kHeader) +
              "\n\n@triton.jit\ndef k(p, n):\n    tl.store(p, triton.next_power_of_2(n))\n"}},
        "*fp32, i32");
    EXPECT_EQ(bad.status, 1);
    EXPECT_NE(bad.err.find("k.py:7:40: error: triton.next_power_of_2's argument"),
              std::string::npos)
        << bad.err;
}

TEST(Diagnostics, PackageImports) {
    const std::string consts = std::string(kHeader) +
                               "DEVICE = get_device()\nSCALE = tl.constexpr(3)\n"
                               "\n\n@triton.jit\ndef twice(x):\n    return x * 2\n";
    const std::string k =
        std::string(kHeader) +
        "from ..consts import twice, DEVICE, SCALE\n"
        "try:\n    from pkg.consts import twice as again\n"
        "except ImportError:\n    from .missing import again\n"
        "\n\n@triton.jit\ndef k(p):\n    tl.store(p, again(twice(tl.load(p))) * SCALE)\n";
    auto d = compile_files("packages", {{"pkg/consts.py", consts}, {"pkg/sub/k.py", k}}, "*fp32",
                           {}, "pkg/sub/k.py");
    EXPECT_EQ(d.status, 0) << d.err;
    const std::string uses = std::string(kHeader) +
                             "from ..consts import DEVICE\n"
                             "\n\n@triton.jit\ndef k(p):\n    tl.store(p, DEVICE)\n";
    auto u = compile_files("packages_var", {{"pkg/consts.py", consts}, {"pkg/sub/k.py", uses}},
                           "*fp32", {}, "pkg/sub/k.py");
    EXPECT_EQ(u.status, 1);
    EXPECT_NE(u.err.find("pkg/sub/k.py:8:17: error: cannot access the global variable 'DEVICE'"),
              std::string::npos)
        << u.err;
    auto m =
        compile_files("packages_missing", {{"pkg/sub/k.py", uses}}, "*fp32", {}, "pkg/sub/k.py");
    EXPECT_EQ(m.status, 1);
    EXPECT_NE(m.err.find("pkg/sub/k.py:3:1: error: no module 'consts' (looked for "),
              std::string::npos)
        << m.err;
}

// Module-level conditions that can be known pick their branch: a version
// test of triton.__version__ (mytriton follows 3.6) and an environment
// variable that is not set; the branch not taken would not compile (an
// undefined name), and taking the first branch whatever the condition
// would take it here.
TEST(Diagnostics, ModuleConditionsPickTheirBranch) {
    const std::string k =
        std::string(kHeader) +
        "import os\n"
        "from packaging.version import Version\n"
        "if Version(triton.__version__) < Version(\"3.0.0\"):\n"
        "    @triton.jit\n    def scale(x):\n        return x * undefined_name\n"
        "else:\n"
        "    @triton.jit\n    def scale(x):\n        return x * 3\n"
        "if os.environ.get(\"MT_TEST_UNSET_VARIABLE_42\", \"0\") == \"1\" and not False:\n"
        "    from triton.language.extra.libdevice import no_such_function as act\n"
        "else:\n"
        "    from triton.language.extra.libdevice import tanh as act\n"
        "\n\n@triton.jit\ndef k(p):\n    tl.store(p, act(scale(tl.load(p))))\n";
    auto d = compile_files("conditions", {{"k.py", k}}, "*fp32");
    EXPECT_EQ(d.status, 0) << d.err;
}

// Names that Python computes when the modules are imported (fla's
// IS_NVIDIA_BLACKWELL, a scale from torch) are unknown to mytriton:
// --module-value fixes them for a build, in the module that computes them,
// through imports, in module-level conditions and in kernels.
TEST(Diagnostics, ModuleValuesFixPythonComputedNames) {
    const std::string utils = std::string(kHeader) +
                              "import torch\n"
                              "IS_BLACKWELL = torch.cuda.get_device_capability()[0] == 10\n"
                              "SCALE = tl.constexpr(float(torch.finfo(torch.float16).eps))\n";
    const std::string k = std::string(kHeader) +
                          "from utils import IS_BLACKWELL, SCALE\n"
                          "if IS_BLACKWELL:\n"
                          "    @triton.jit\n    def act(x):\n        return x * undefined_name\n"
                          "else:\n"
                          "    @triton.jit\n    def act(x):\n        return x * 3\n"
                          "\n\n@triton.jit\ndef k(p):\n    tl.store(p, act(tl.load(p)) * SCALE)\n";
    const std::vector<std::pair<std::string, std::string>> files = {{"utils.py", utils},
                                                                    {"k.py", k}};
    // unknown: the first branch is taken (its undefined name), SCALE is an error where read
    auto d = compile_files("module_values_unset", files, "*fp32");
    EXPECT_EQ(d.status, 1);
    EXPECT_NE(d.err.find("error: undefined name 'undefined_name'"), std::string::npos) << d.err;
    auto v = compile_files("module_values", files, "*fp32",
                           {"--module-value=IS_BLACKWELL=False", "--module-value=SCALE=0.5"});
    EXPECT_EQ(v.status, 0) << v.err;
    auto s =
        compile_files("module_values_scale", files, "*fp32", {"--module-value=IS_BLACKWELL=False"});
    EXPECT_EQ(s.status, 1);
    EXPECT_NE(s.err.find("SCALE"), std::string::npos) << s.err;
    auto bad = compile_files("module_values_bad", files, "*fp32",
                             {"--module-value=IS_BLACKWELL=not a literal"});
    EXPECT_EQ(bad.status, 1);
    EXPECT_NE(bad.err.find("error: --module-value IS_BLACKWELL=not a literal: the value must be"),
              std::string::npos)
        << bad.err;
    auto twice = compile_files("module_values_twice", files, "*fp32",
                               {"--module-value=SCALE=1", "--module-value=SCALE=2"});
    EXPECT_EQ(twice.status, 1);
    EXPECT_NE(twice.err.find("error: --module-value SCALE is given twice"), std::string::npos)
        << twice.err;
}

// A module Python picks at import time (FlagGems' tl_extra_shim, the
// vendor's libdevice) given as a module of triton.language.
TEST(Diagnostics, ModuleValuesNameModules) {
    const std::string helper = std::string(kHeader) +
                               "from backend import pick\n"
                               "try:\n    shim = pick()\nexcept ImportError:\n"
                               "    shim = triton.language.math\n";
    const std::string k = std::string(kHeader) +
                          "from helper import shim\n"
                          "pw = shim.pow\n"
                          "\n\n@triton.jit\ndef k(p):\n"
                          "    x = tl.load(p)\n    tl.store(p, pw(x, 3.0) + shim.exp2(x))\n";
    const std::vector<std::pair<std::string, std::string>> files = {{"helper.py", helper},
                                                                    {"k.py", k}};
    auto v = compile_files("module_values_module", files, "*fp32",
                           {"--module-value=shim=triton.language.extra.cuda.libdevice"});
    EXPECT_EQ(v.status, 0) << v.err;
    auto tl = compile_files("module_values_tl", files, "*fp32",
                            {"--module-value=shim=tl.extra.libdevice"});
    EXPECT_EQ(tl.status, 0) << tl.err;
    // without it, the except branch's tl.math has no pow (as in Triton 3.6)
    auto d = compile_files("module_values_module_unset", files, "*fp32");
    EXPECT_EQ(d.status, 1);
    EXPECT_NE(d.err.find("k.py:10:17: error: 'pw' (line 4) is shim.pow, and tl.math has no 'pow'"),
              std::string::npos)
        << d.err;
    EXPECT_NE(d.err.find("--module-value shim="), std::string::npos) << d.err;
}

TEST(Diagnostics, ErrorInAnImportedModuleNamesItsFile) {
    auto d = compile_files(
        "imported",
        {{"common.py",
          std::string(kHeader) + "\n\n@triton.jit\ndef act(x):\n    return x + undefined_name\n"},
         {"k.py", std::string(kHeader) +
                      "import common\n"
                      "\n\n@triton.jit\ndef k(p):\n    tl.store(p, common.act(tl.load(p)))\n"}},
        "*fp32");
    EXPECT_EQ(d.status, 1);
    EXPECT_EQ(d.err,
              "common.py:7:16: error: undefined name 'undefined_name'\n"
              "        return x + undefined_name\n"
              "                   ^\n"
              "k.py:8:17: note: in the call to 'act' here\n"
              "        tl.store(p, common.act(tl.load(p)))\n"
              "                    ^\n");
}

TEST(Diagnostics, ImportedModuleThatDoesNotParse) {
    auto d =
        compile_files("broken",
                      {{"broken.py", "import triton\n\n\n@triton.jit\ndef bad(x:\n    return x\n"},
                       {"k.py", std::string(kHeader) + "from broken import bad\n"
                                                       "\n\n@triton.jit\ndef k(p):\n    pass\n"}},
                      "*fp32");
    EXPECT_EQ(d.status, 1);
    EXPECT_EQ(d.err.rfind("broken.py:5:8: error: Python syntax error: ", 0), 0u) << d.err;
    EXPECT_NE(d.err.find("k.py:3:1: note: 'broken' is imported here\n"
                         "    from broken import bad\n"
                         "    ^\n"),
              std::string::npos)
        << d.err;
}

TEST(Diagnostics, StaticAssertFailure) {
    auto d = compile_files(
        "static_assert",
        {{"k.py",
          std::string(kHeader) +
              "\n\n@triton.jit\ndef k(p, BLOCK: tl.constexpr):\n"
              "    tl.static_assert(BLOCK % 16 == 0, \"BLOCK must be a multiple of 16\")\n"}},
        "*fp32", {"BLOCK=24"});
    EXPECT_EQ(d.status, 1);
    EXPECT_EQ(d.err,
              "k.py:7:5: error: static assertion failed: BLOCK must be a multiple of 16\n"
              "        tl.static_assert(BLOCK % 16 == 0, \"BLOCK must be a multiple of 16\")\n"
              "        ^\n");
}

TEST(Diagnostics, FStringsFormatConstexprs) {
    // Triton's f-strings: constexpr fields as str() (repr() with !r), the
    // format spec ignored
    auto d = compile_files(
        "fstring",
        {{"k.py",
          std::string(kHeader) +
              "\n\n@triton.jit\ndef k(p, BLOCK: tl.constexpr, MODE: tl.constexpr):\n"
              "    tl.static_print(f\"BLOCK={BLOCK:5d} {MODE!r} {MODE} {p.dtype.element_ty} {0.1}\")\n"
              "    tl.static_assert(BLOCK % 16 == 0, f\"{BLOCK} is not a multiple of 16\")\n"}},
        "*fp32", {"BLOCK=24", "MODE='fast'"});
    EXPECT_EQ(d.status, 1);
    EXPECT_EQ(
        d.err,
        "k.py:7:5: note: tl.static_print: BLOCK=24 'fast' fast fp32 0.1\n"
        "        tl.static_print(f\"BLOCK={BLOCK:5d} {MODE!r} {MODE} {p.dtype.element_ty} {0.1}\")\n"
        "        ^\n"
        "k.py:8:5: error: static assertion failed: 24 is not a multiple of 16\n"
        "        tl.static_assert(BLOCK % 16 == 0, f\"{BLOCK} is not a multiple of 16\")\n"
        "        ^\n");
}

TEST(Diagnostics, StaticPrintIsANote) {
    auto d = compile_files(
        "static_print",
        {{"k.py", std::string(kHeader) + "\n\n@triton.jit\ndef k(p, T: tl.constexpr):\n"
                                         "    tl.static_print(\"T =\", T)\n"}},
        "*fp32", {"T=(1, 'a', 2.5, None)"});
    EXPECT_EQ(d.status, 0);
    EXPECT_EQ(d.err,
              "k.py:7:5: note: tl.static_print: T = (1, 'a', 2.5, None)\n"
              "        tl.static_print(\"T =\", T)\n"
              "        ^\n");
}

TEST(Diagnostics, ReturnsOfARuntimeIfKeepOneType) {
    // a helper returning inside a runtime if: both paths give one type
    auto d = compile_files(
        "return_types",
        {{"k.py", std::string(kHeader) +
                      "\n\n@triton.jit\ndef h(x):\n    if x > 0:\n"
                      "        return 1\n    return 1.5\n"
                      "\n\n@triton.jit\ndef k(p):\n    tl.store(p, h(tl.load(p)))\n"}},
        "*fp32");
    EXPECT_EQ(d.status, 1);
    EXPECT_NE(d.err.find(
                  "k.py:7:5: error: the branches of the runtime if at line 7 return i32 and f32 (a "
                  "helper returns one type, as in Triton)"),
              std::string::npos)
        << d.err;
}

TEST(Diagnostics, ReturnInsideARuntimeLoop) {
    auto d = compile_files(
        "return_loop",
        {{"k.py", std::string(kHeader) +
                      "\n\n@triton.jit\ndef h(x, n):\n    for i in range(n):\n"
                      "        return x\n    return x\n"
                      "\n\n@triton.jit\ndef k(p, n):\n    tl.store(p, h(tl.load(p), n))\n"}},
        "*fp32, i32");
    EXPECT_EQ(d.status, 1);
    EXPECT_NE(
        d.err.find(
            "k.py:8:9: error: cannot have 'return' statements inside 'while' or 'for' statements "
            "(runtime loops), as in Triton"),
        std::string::npos)
        << d.err;
}

TEST(Diagnostics, LaterStageErrorInAnImportedModuleNamesItsFile) {
    std::string dir = mt_test::make_temp_dir("lang_fn_later_stage");
    mt_test::write_file(dir + "/common.py",
                        std::string(kHeader) +
                            "\n\n@triton.jit\ndef outer(v):\n    return v[:, None] + v[None, :]\n");
    mt_test::write_file(
        dir + "/k.py",
        std::string(kHeader) +
            "from common import outer\n\n\n@triton.jit\ndef k(p):\n"
            "    v = tl.load(p + tl.arange(0, 4))\n"
            "    tl.store(p + tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :], outer(v))\n");
    // -O1's shape analysis (after the frontend) rejects the two uses of v
    auto r = mt_test::run_process({MT_TEST_COMPILER, dir + "/k.py", "--kernel", "k", "--signature",
                                   "*fp32", "--python", MT_TEST_PYTHON, "-O1", "--emit=cuda"});
    EXPECT_EQ(r.status, 1);
    std::string err = r.err;
    for (size_t at; (at = err.find(dir + "/")) != std::string::npos;) err.erase(at, dir.size() + 1);
    EXPECT_EQ(err.rfind("common.py:7:", 0), 0u) << err;
    EXPECT_NE(err.find("        return v[:, None] + v[None, :]\n"), std::string::npos) << err;
}

TEST(Diagnostics, AssertStatementIsDeviceAssertWithDebug) {
    std::string dir = mt_test::make_temp_dir("lang_fn_assert_stmt");
    mt_test::write_file(
        dir + "/k.py",
        std::string(kHeader) +
            "\n\n@triton.jit\ndef k(p, n):\n    assert n > 0, \"n must be positive\"\n"
            "    tl.store(p, 1.0)\n");
    std::vector<std::string> argv = {MT_TEST_COMPILER, dir + "/k.py", "--kernel", "k",
                                     "--signature",    "*fp32, i32",  "--python", MT_TEST_PYTHON,
                                     "--emit=ssa"};
    auto off = mt_test::run_process(argv);
    EXPECT_EQ(off.status, 0);
    EXPECT_EQ(off.out.find("device_assert"), std::string::npos) << off.out;
    argv.push_back("--debug");
    auto on = mt_test::run_process(argv);
    EXPECT_EQ(on.status, 0);
    EXPECT_NE(on.out.find("device_assert %0 {msg=\"n must be positive\""), std::string::npos)
        << on.out;
}

}  // namespace
