// The MLIR backend's dtypes and ops on a GPU: the kernels of
// kernels/dtypes.py, built by mytriton_add_kernels(... BACKENDS cuda mlir),
// launched through launch_dt_<kernel>_mlir (mlir-opt's PTX) and
// launch_dt_<kernel> (nvcc, the -O1 CUDA backend), their outputs compared
// byte for byte (math functions: within libdevice's error). Without a GPU
// every test is skipped (GTEST_SKIP).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "mytriton_mlir_dtypes_kernels.h"

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

#define SYNC() ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess)
#define LAUNCHED(call) ASSERT_EQ((call), cudaSuccess) << mytriton_last_error()

// A device buffer of n elements, filled with a byte pattern.
template <class T>
struct Dev {
    T *p = nullptr;
    size_t n = 0;
    explicit Dev(size_t count) : n(count) {
        EXPECT_EQ(cudaMalloc(reinterpret_cast<void **>(&p), (count ? count : 1) * sizeof(T)),
                  cudaSuccess);
        EXPECT_EQ(cudaMemset(p, 0xA5, (count ? count : 1) * sizeof(T)), cudaSuccess);
    }
    explicit Dev(const std::vector<T> &v) : Dev(v.size()) {
        EXPECT_EQ(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice),
                  cudaSuccess);
    }
    ~Dev() { cudaFree(p); }
    Dev(const Dev &) = delete;
    Dev &operator=(const Dev &) = delete;
    std::vector<uint8_t> bytes() const {
        std::vector<uint8_t> v(n * sizeof(T));
        EXPECT_EQ(cudaMemcpy(v.data(), p, v.size(), cudaMemcpyDeviceToHost), cudaSuccess);
        return v;
    }
    std::vector<T> get() const {
        std::vector<T> v(n);
        EXPECT_EQ(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
        return v;
    }
};

// The same bytes, element by element (size: the element's).
void expect_same_bytes(const std::vector<uint8_t> &mlir, const std::vector<uint8_t> &cuda,
                       size_t size, const char *what) {
    ASSERT_EQ(mlir.size(), cuda.size());
    for (size_t i = 0; i < mlir.size(); i += size) {
        if (std::memcmp(&mlir[i], &cuda[i], size) == 0) continue;
        std::string m, c;
        char hex[4];
        for (size_t k = size; k-- > 0;) {
            std::snprintf(hex, sizeof hex, "%02x", mlir[i + k]);
            m += hex;
            std::snprintf(hex, sizeof hex, "%02x", cuda[i + k]);
            c += hex;
        }
        FAIL() << what << ": element " << i / size << " is 0x" << m << " (mlir), 0x" << c
               << " (cuda)";
    }
}

#define SAME(a, b, T, what) expect_same_bytes((a).bytes(), (b).bytes(), sizeof(T), what)

// Random floats with the edge cases of conversions every few elements.
std::vector<float> edge_floats(size_t n, unsigned seed, float lo, float hi) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(n);
    for (auto &x : v) x = dist(gen);
    const float specials[] = {NAN,     INFINITY,   -INFINITY,    -0.0f,        0.0f,    300.5f,
                              -300.5f, 65504.0f,   65520.0f,     1e10f,        -1e10f,  1e-8f,
                              448.0f,  464.0f,     57344.0f,     1e5f,         0.5f,    1.5f,
                              2.5f,    -2.5f,      127.5f,       255.5f,       -128.5f, 3e38f,
                              1e-40f,  0.0078125f, 0.001953125f, 0.0009765625f};
    const size_t ns = sizeof specials / sizeof specials[0];
    for (size_t i = 0; i < n; i += 3) v[i] = specials[(i / 3) % ns];
    return v;
}

std::vector<mytriton_fp16> halves(const std::vector<float> &v) {
    std::vector<mytriton_fp16> h;
    for (float x : v) h.push_back(mytriton_fp16_from_float(x));
    return h;
}

TEST(MlirDtypesExec, HalfPrecision) {
    REQUIRE_GPU();
    const int n = 1000;
    auto x = halves(edge_floats(n, 1, -4.0f, 4.0f)), y = halves(edge_floats(n, 2, -4.0f, 4.0f));
    mytriton_fp16 scale = mytriton_fp16_from_float(0.3f);
    Dev<mytriton_fp16> dx(x), dy(y), mlir(n), cuda(n);
    LAUNCHED(launch_dt_half_ops_mlir(nullptr, dx.p, dy.p, mlir.p, n, scale));
    LAUNCHED(launch_dt_half_ops(nullptr, dx.p, dy.p, cuda.p, n, scale));
    SYNC();
    SAME(mlir, cuda, mytriton_fp16, "f16 ops");
}

TEST(MlirDtypesExec, Casts) {
    REQUIRE_GPU();
    const int n = 999;
    auto x = edge_floats(n, 3, -70000.0f, 70000.0f);
    Dev<float> dx(x);
    Dev<int8_t> i8m(n), i8c(n);
    Dev<uint8_t> u8m(n), u8c(n);
    Dev<int64_t> i64m(n), i64c(n);
    Dev<mytriton_fp16> f16m(n), f16c(n);
    Dev<mytriton_bf16> bf16m(n), bf16c(n);
    Dev<double> f64m(n), f64c(n);
    LAUNCHED(launch_dt_casts_mlir(nullptr, dx.p, i8m.p, u8m.p, i64m.p, f16m.p, bf16m.p, f64m.p, n));
    LAUNCHED(launch_dt_casts(nullptr, dx.p, i8c.p, u8c.p, i64c.p, f16c.p, bf16c.p, f64c.p, n));
    SYNC();
    SAME(i8m, i8c, int8_t, "f32 to i8");
    SAME(u8m, u8c, uint8_t, "f32 to u8");
    SAME(i64m, i64c, int64_t, "f32 to i64");
    SAME(f16m, f16c, mytriton_fp16, "f32 to f16");
    SAME(bf16m, bf16c, mytriton_bf16, "f32 to bf16 (rtz)");
    SAME(f64m, f64c, double, "f32 to f64, times 2.5");
    // Triton's results measured on the H200 (300.5 -> 44 through 16 bits)
    auto i8 = i8m.get();
    EXPECT_EQ(i8[15], 44) << "300.5 as int8";
}

TEST(MlirDtypesExec, IntegerOps) {
    REQUIRE_GPU();
    const int n = 777;
    std::mt19937 gen(4);
    std::uniform_int_distribution<int32_t> any(-2000000000, 2000000000), small(1, 1000);
    std::vector<int32_t> a(n), b(n);
    for (int i = 0; i < n; i++) {
        a[i] = any(gen);
        b[i] = (i % 2 ? -1 : 1) * small(gen);
    }
    Dev<int32_t> da(a), db(b), mlir(n), cuda(n);
    LAUNCHED(launch_dt_int_ops_mlir(nullptr, da.p, db.p, mlir.p, n));
    LAUNCHED(launch_dt_int_ops(nullptr, da.p, db.p, cuda.p, n));
    SYNC();
    SAME(mlir, cuda, int32_t, "i32 ops");
}

TEST(MlirDtypesExec, UnsignedOps) {
    REQUIRE_GPU();
    const int n = 777;
    std::mt19937 gen(5);
    std::uniform_int_distribution<uint32_t> any(0, 0xffffffffu), shift(1, 31);
    std::vector<uint32_t> a(n), b(n);
    for (int i = 0; i < n; i++) {
        a[i] = any(gen);
        b[i] = shift(gen);
    }
    Dev<uint32_t> da(a), db(b);
    Dev<uint64_t> mlir(n), cuda(n);
    LAUNCHED(launch_dt_unsigned_ops_mlir(nullptr, da.p, db.p, mlir.p, n));
    LAUNCHED(launch_dt_unsigned_ops(nullptr, da.p, db.p, cuda.p, n));
    SYNC();
    SAME(mlir, cuda, uint64_t, "u32 ops");
}

void expect_close(const std::vector<float> &got, const std::vector<float> &want, float rel,
                  const char *what) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); i++) {
        if (std::isnan(want[i])) {
            EXPECT_TRUE(std::isnan(got[i])) << what << " at " << i;
            continue;
        }
        EXPECT_NEAR(got[i], want[i], rel * (1.0f + std::fabs(want[i]))) << what << " at " << i;
    }
}

TEST(MlirDtypesExec, MathFunctions) {
    REQUIRE_GPU();
    const int n = 1000;
    std::vector<float> x(n);
    std::mt19937 gen(6);
    std::uniform_real_distribution<float> dist(0.01f, 20.0f);
    for (auto &v : x) v = dist(gen);
    Dev<float> dx(x), mlir(n), cuda(n);
    LAUNCHED(launch_dt_math_mlir(nullptr, dx.p, mlir.p, n));
    LAUNCHED(launch_dt_math(nullptr, dx.p, cuda.p, n));
    SYNC();
    expect_close(mlir.get(), cuda.get(), 1e-5f, "f32 math");
}

TEST(MlirDtypesExec, Float64Math) {
    REQUIRE_GPU();
    const int n = 1000;
    std::vector<double> x(n);
    std::mt19937 gen(7);
    std::uniform_real_distribution<double> dist(0.01, 20.0);
    for (auto &v : x) v = dist(gen);
    Dev<double> dx(x);
    Dev<float> mlir(n), cuda(n);
    LAUNCHED(launch_dt_math64_mlir(nullptr, dx.p, mlir.p, n));
    LAUNCHED(launch_dt_math64(nullptr, dx.p, cuda.p, n));
    SYNC();
    expect_close(mlir.get(), cuda.get(), 1e-6f, "f64 math, to f32 toward zero");
}

TEST(MlirDtypesExec, Fp8Conversions) {
    REQUIRE_GPU();
    const int n = 1000;
    auto x = edge_floats(n, 8, -600.0f, 600.0f);
    Dev<float> dx(x), backm(n), backc(n);
    Dev<uint8_t> e4m(n), e4c(n), e5m(n), e5c(n);
    LAUNCHED(launch_dt_fp8_mlir(nullptr, dx.p, reinterpret_cast<mytriton_fp8e4nv *>(e4m.p),
                                reinterpret_cast<mytriton_fp8e5 *>(e5m.p), backm.p, n));
    LAUNCHED(launch_dt_fp8(nullptr, dx.p, reinterpret_cast<mytriton_fp8e4nv *>(e4c.p),
                           reinterpret_cast<mytriton_fp8e5 *>(e5c.p), backc.p, n));
    SYNC();
    SAME(e4m, e4c, uint8_t, "f32 to fp8e4nv");
    SAME(e5m, e5c, uint8_t, "f32 to fp8e5");
    SAME(backm, backc, float, "fp8 to f32");
}

// A negative NaN: the runtime's conversion and CUDA's software path keep the
// sign (0xff); this checks what the GPU's conversion gives.
TEST(MlirDtypesExec, Fp8NegativeNan) {
    REQUIRE_GPU();
    std::vector<float> x = {-NAN, NAN};
    Dev<float> dx(x), backm(2), backc(2);
    Dev<uint8_t> e4m(2), e4c(2), e5m(2), e5c(2);
    LAUNCHED(launch_dt_fp8_mlir(nullptr, dx.p, reinterpret_cast<mytriton_fp8e4nv *>(e4m.p),
                                reinterpret_cast<mytriton_fp8e5 *>(e5m.p), backm.p, 2));
    LAUNCHED(launch_dt_fp8(nullptr, dx.p, reinterpret_cast<mytriton_fp8e4nv *>(e4c.p),
                           reinterpret_cast<mytriton_fp8e5 *>(e5c.p), backc.p, 2));
    SYNC();
    SAME(e4m, e4c, uint8_t, "NaN to fp8e4nv");
    SAME(e5m, e5c, uint8_t, "NaN to fp8e5");
}

TEST(MlirDtypesExec, Bitcasts) {
    REQUIRE_GPU();
    const int n = 500;
    auto x = edge_floats(n, 9, -10.0f, 10.0f);
    auto h = halves(edge_floats(n, 10, -10.0f, 10.0f));
    Dev<float> dx(x);
    Dev<mytriton_fp16> dh(h);
    Dev<uint32_t> bm(n), bc(n);
    Dev<int16_t> hm(n), hc(n);
    LAUNCHED(launch_dt_bitcasts_mlir(nullptr, dx.p, bm.p, dh.p, hm.p, n));
    LAUNCHED(launch_dt_bitcasts(nullptr, dx.p, bc.p, dh.p, hc.p, n));
    SYNC();
    SAME(bm, bc, uint32_t, "f32 as u32");
    SAME(hm, hc, int16_t, "f16 as i16");
    auto b = bm.get();
    for (int i = 0; i < n; i++) {
        uint32_t want;
        std::memcpy(&want, &x[i], 4);
        ASSERT_EQ(b[i], want) << "at " << i;
    }
}

TEST(MlirDtypesExec, Reductions) {
    REQUIRE_GPU();
    const int n = 64;
    auto x = edge_floats(n, 11, -3.0f, 3.0f);
    for (auto &v : x)
        if (!std::isfinite(v) || std::fabs(v) > 100.0f) v = 1.25f;
    std::vector<mytriton_bf16> h;
    for (float v : edge_floats(n, 12, -3.0f, 3.0f))
        h.push_back(mytriton_bf16_from_float(std::isfinite(v) ? v : 0.5f));
    std::vector<uint8_t> u(n);
    for (int i = 0; i < n; i++) u[i] = static_cast<uint8_t>(i * 37 + 11);
    Dev<float> dx(x), om(1), oc(1);
    Dev<mytriton_bf16> dh(h), hm(2), hc(2);
    Dev<uint8_t> du(u), um(3), uc(3);
    LAUNCHED(launch_dt_reduce_mlir(nullptr, dx.p, dh.p, du.p, om.p, hm.p, um.p));
    LAUNCHED(launch_dt_reduce(nullptr, dx.p, dh.p, du.p, oc.p, hc.p, uc.p));
    SYNC();
    SAME(om, oc, float, "f32 sum");
    SAME(hm, hc, mytriton_bf16, "bf16 sum and max");
    SAME(um, uc, uint8_t, "u8 max, min and sum");
}

TEST(MlirDtypesExec, ScalarParametersOfEveryDtype) {
    REQUIRE_GPU();
    const int n = 32;
    mytriton_fp16 h = mytriton_fp16_from_float(0.75f);
    mytriton_bf16 b = mytriton_bf16_from_float(-1.5f);
    mytriton_fp8e4nv e4 = mytriton_fp8e4nv_from_float(3.5f);
    for (bool c : {true, false}) {
        Dev<float> om(n), oc(n);
        Dev<bool> fm(n), fc(n);
        LAUNCHED(launch_dt_params_mlir(nullptr, om.p, fm.p, h, b, -7, 4000000000u, 0.125, c, e4));
        LAUNCHED(launch_dt_params(nullptr, oc.p, fc.p, h, b, -7, 4000000000u, 0.125, c, e4));
        SYNC();
        SAME(om, oc, float, "values");
        SAME(fm, fc, bool, "bools");
    }
}

}  // namespace
