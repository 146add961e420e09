// Execution tests: every conformance kernel and the kernels of kernels/,
// compiled at -O1 and -O2 by mytriton_add_kernels() (launchers
// launch_<case>_o1 / launch_<case>_o2 and their _host twins), run through
// their generated launchers on random inputs (fixed seeds) and compared
// with the references below, which are written from the kernels' Python
// source, not from the compiler.
//
//   HostO1.* / HostO2.*            the host backend against the references
//   CudaO1.* / CudaO2.*            the CUDA backend against the references
//   CudaVsHostO1.* / CudaVsHostO2.* the CUDA backend against the host backend
//
// The CUDA suites exist when CUDA was found at configure time and skip
// (GTEST_SKIP, shown as skipped by ctest) when cudaGetDeviceCount reports no
// device. Host input buffers end at a PROT_NONE page, so a load that a mask
// should have suppressed past the end of an input crashes the test; output
// buffers carry guard elements after the data that must keep their fill.
//
// Tolerances: exact (bit for bit, NaN equal to NaN, signed zeros
// distinguished) for integer results and for elementwise float ops without
// exp; a tight relative tolerance where expf implementations differ, where
// a sum is compared with a double-precision reference, and, for CUDA only,
// where nvcc contracts a multiply and an add into one FMA (the host C and
// the references round each op: this file is built with -ffp-contract=off).
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "mytriton/runtime.h"
#include "mytriton_exec_kernels_o1.h"
#include "mytriton_exec_kernels_o2.h"

#if MT_EXEC_CUDA
#include <cuda_runtime_api.h>
#include "../support/gpu.h"
#endif

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr size_t kGuard = 16;        // guard elements after each output
constexpr float kFillF = -7777.25f;  // initial contents of float outputs
constexpr int32_t kFillI = -555555;  // initial contents of i32 outputs

// ---- Deterministic inputs ---------------------------------------------------

struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 0x1234567ull) {}
    uint64_t next() {  // splitmix64
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    float uniform(float lo, float hi) { return lo + (hi - lo) * (float)((next() >> 40) * 0x1p-24); }
    int32_t int_in(int64_t lo, int64_t hi) {
        return (int32_t)(lo + (int64_t)(next() % (uint64_t)(hi - lo + 1)));
    }
};

std::vector<float> rand_f32(size_t n, uint64_t seed, float lo = -4.0f, float hi = 4.0f) {
    Rng r(seed);
    std::vector<float> v(n);
    for (auto &x : v) x = r.uniform(lo, hi);
    return v;
}

std::vector<int32_t> rand_i32(size_t n, uint64_t seed, int64_t lo, int64_t hi) {
    Rng r(seed);
    std::vector<int32_t> v(n);
    for (auto &x : v) x = r.int_in(lo, hi);
    return v;
}

// Sprinkles NaN, infinities and signed zeros over v (every `every`-th element).
void add_specials(std::vector<float> &v, size_t every = 7) {
    static const float specials[] = {kNaN, kInf, -kInf, 0.0f, -0.0f, 1.0f, -1.0f};
    for (size_t i = 3, k = 0; i < v.size(); i += every, k++) v[i] = specials[k % 7];
}

// ---- i32 and f32 semantics of the kernel language ---------------------------

int32_t wrap(uint32_t x) {
    return (int32_t)x;
}  // two's complement (C++20 defines it; every target does)
int32_t wadd(int32_t a, int32_t b) { return wrap((uint32_t)a + (uint32_t)b); }
int32_t wsub(int32_t a, int32_t b) { return wrap((uint32_t)a - (uint32_t)b); }
int32_t wmul(int32_t a, int32_t b) { return wrap((uint32_t)a * (uint32_t)b); }
// The level of the case being checked: tl.maximum / tl.minimum without
// propagate_nan follow the seed at -O1 (NaN propagates, ties give the second
// operand) and Triton at -O2 (NaN ignored, PropagateNan.NONE).
thread_local int g_opt = 1;
float tmax(float a, float b) {
    if (g_opt >= 2) return std::isnan(a) ? b : std::isnan(b) ? a : (a > b ? a : b);
    return std::isnan(a) ? a : std::isnan(b) ? b : (a > b ? a : b);
}
float tmin(float a, float b) {
    if (g_opt >= 2) return std::isnan(a) ? b : std::isnan(b) ? a : (a < b ? a : b);
    return std::isnan(a) ? a : std::isnan(b) ? b : (a < b ? a : b);
}
// tl.max / tl.min reductions: NaN ignored unless every element is NaN.
float rmax(float a, float b) { return std::isnan(a) ? b : std::isnan(b) ? a : (a > b ? a : b); }
float rmin(float a, float b) { return std::isnan(a) ? b : std::isnan(b) ? a : (a < b ? a : b); }
int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
double finite_abs(float v) { return std::isfinite(v) ? std::fabs(v) : 0.0; }

// ---- Results and comparison -------------------------------------------------

struct Plane {
    std::string name;
    std::vector<double> v;
};
using Planes = std::vector<Plane>;

template <class T>
std::vector<double> as_doubles(const std::vector<T> &v) {
    return std::vector<double>(v.begin(), v.end());
}

struct Tol {
    double rel, abs;
};
constexpr Tol kExact{0, 0};
constexpr Tol kExpf{4e-6, 1e-35};  // expf: glibc and CUDA (<= 2 ulp) against each other or double
constexpr Tol kFma{2e-6, 1e-5};    // CUDA contracts a * b + c into one rounding
Tol sum_tol(double magnitude) { return {1e-5, 1e-6 * magnitude + 1e-6}; }

struct Tols {
    Tol host;  // the host backend against the reference
    Tol cuda;  // the CUDA backend against the reference or the host backend
};
constexpr Tols kAllExact{kExact, kExact};
// -O2 CUDA divides f32 as Triton does, with div.full.f32 (within 2 ulp)
constexpr Tol kDivFull{2.5e-7, 1e-37};
Tols div_tols(int opt) { return {kExact, opt >= 2 ? kDivFull : kExact}; }
constexpr Tol kSignlessZero{0, 1e-45};

bool same(double got, double want, Tol t) {
    if (std::isnan(got) || std::isnan(want)) return std::isnan(got) && std::isnan(want);
    if (t.rel == 0 && t.abs == 0) return got == want && std::signbit(got) == std::signbit(want);
    if (std::isinf(got) || std::isinf(want)) return got == want;
    return std::fabs(got - want) <= t.abs + t.rel * std::fmax(std::fabs(got), std::fabs(want));
}

void compare(const std::string &what, const Planes &got, const Planes &want,
             const std::vector<Tols> &tols, bool cuda) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (size_t p = 0; p < got.size(); p++) {
        const Tols &tt = tols.size() == 1 ? tols[0] : tols.at(p);
        Tol t = cuda ? tt.cuda : tt.host;
        const auto &g = got[p].v, &w = want[p].v;
        ASSERT_EQ(g.size(), w.size()) << what << ": " << got[p].name;
        size_t bad = 0;
        for (size_t i = 0; i < g.size(); i++) {
            if (same(g[i], w[i], t)) continue;
            if (++bad <= 5)
                ADD_FAILURE() << what << ": " << got[p].name << "[" << i << "] = " << g[i]
                              << ", expected " << w[i] << " (tolerance rel " << t.rel << ", abs "
                              << t.abs << ")";
        }
        if (bad > 5)
            ADD_FAILURE() << what << ": " << got[p].name << ": " << bad << " mismatches of "
                          << g.size();
    }
}

// ---- Buffers and launches on one backend ------------------------------------

enum class Backend { Host, Cuda };
enum class Mode { Host, Cuda, CudaVsHost };

#if MT_EXEC_CUDA
void cuda_check(cudaError_t e, const char *what) {
    if (e != cudaSuccess)
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

#endif

class Runner {
  public:
    Runner(Backend b, int opt) : backend_(b), opt_(opt) {
#if !MT_EXEC_CUDA
        if (b == Backend::Cuda) throw std::logic_error("CUDA backend not built");
#endif
    }
    Runner(const Runner &) = delete;
    Runner &operator=(const Runner &) = delete;
    ~Runner() {
        for (auto &b : bufs_) {
#if MT_EXEC_CUDA
            if (b.device) {
                (void)cudaFree(b.ptr);
                continue;
            }
#endif
            munmap(b.map, b.map_bytes);
        }
    }

    bool host() const { return backend_ == Backend::Host; }
    int opt() const { return opt_; }

    template <class T>
    T *in(const std::vector<T> &v) {
        return static_cast<T *>(alloc(v.data(), v.size(), 0, sizeof(T), 0));
    }
    // n elements for the kernel and kGuard more, all holding `fill`.
    template <class T>
    T *out(size_t n, T fill) {
        std::vector<T> init(n + kGuard, fill);
        uint32_t bits;
        std::memcpy(&bits, &fill, 4);
        return static_cast<T *>(alloc(init.data(), n, kGuard, sizeof(T), bits));
    }
    float *out_f(size_t n) { return out<float>(n, kFillF); }
    int32_t *out_i(size_t n) { return out<int32_t>(n, kFillI); }
    // An output's n elements; its guard elements must still hold the fill.
    template <class T>
    std::vector<double> get(const T *p) {
        for (auto &b : bufs_) {
            if (b.ptr != p) continue;
            std::vector<T> all(b.n + b.guard);
            copy_out(all.data(), b, all.size() * sizeof(T));
            for (size_t i = b.n; i < all.size(); i++) {
                uint32_t bits;
                std::memcpy(&bits, &all[i], 4);
                if (bits != b.fill_bits) {
                    ADD_FAILURE() << "a store wrote past the end of an output (guard element "
                                  << (i - b.n) << ")";
                    break;
                }
            }
            all.resize(b.n);
            return as_doubles(all);
        }
        throw std::logic_error("get() of an unknown buffer");
    }

    // Checks a launcher's status (and, on CUDA, the kernel's completion).
    void launched(const char *what, int status) {
        if (status != 0)
            throw std::runtime_error(std::string(what) + ": the launcher returned " +
                                     std::to_string(status) + " (" + mytriton_last_error() + ")");
#if MT_EXEC_CUDA
        if (!host()) {
            cuda_check(cudaDeviceSynchronize(), what);
            cuda_check(cudaGetLastError(), what);
        }
#endif
    }

  private:
    struct Buf {
        void *ptr;
        size_t n, guard;
        uint32_t fill_bits;
        bool device;
        void *map;
        size_t map_bytes;
    };

    void *alloc(const void *init, size_t n, size_t guard, size_t elem, uint32_t fill_bits) {
        size_t bytes = (n + guard) * elem;
        Buf b{nullptr, n, guard, fill_bits, !host(), nullptr, 0};
        if (host()) {
            // the data ends where a PROT_NONE page begins
            size_t page = (size_t)sysconf(_SC_PAGESIZE);
            size_t data_pages = (bytes + page - 1) / page;
            b.map_bytes = (data_pages + 1) * page;
            b.map = mmap(nullptr, b.map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                         -1, 0);
            if (b.map == MAP_FAILED) throw std::runtime_error("mmap failed");
            char *guard_page = static_cast<char *>(b.map) + data_pages * page;
            if (mprotect(guard_page, page, PROT_NONE) != 0)
                throw std::runtime_error("mprotect failed");
            b.ptr = guard_page - bytes;
            if (bytes) std::memcpy(b.ptr, init, bytes);
        } else {
#if MT_EXEC_CUDA
            cuda_check(cudaMalloc(&b.ptr, bytes ? bytes : 4), "cudaMalloc");
            if (bytes)
                cuda_check(cudaMemcpy(b.ptr, init, bytes, cudaMemcpyHostToDevice),
                           "cudaMemcpy to the device");
#endif
        }
        bufs_.push_back(b);
        return b.ptr;
    }

    void copy_out(void *dst, const Buf &b, size_t bytes) {
        if (!bytes) return;
        if (!b.device) {
            std::memcpy(dst, b.ptr, bytes);
            return;
        }
#if MT_EXEC_CUDA
        cuda_check(cudaMemcpy(dst, b.ptr, bytes, cudaMemcpyDeviceToHost),
                   "cudaMemcpy from the device");
#endif
    }

    Backend backend_;
    int opt_;
    std::vector<Buf> bufs_;
};

// LAUNCH(r, case, args...): the case's launcher for r's backend and level.
#if MT_EXEC_CUDA
#define MT_CUDA_LAUNCH(r, name, ...)                                \
    ((r).opt() == 1 ? (int)launch_##name##_o1(nullptr, __VA_ARGS__) \
                    : (int)launch_##name##_o2(nullptr, __VA_ARGS__))
#else
#define MT_CUDA_LAUNCH(r, name, ...) (-1)
#endif
#define LAUNCH(r, name, ...)                                                                      \
    (r).launched(#name, (r).host() ? ((r).opt() == 1 ? (int)launch_##name##_o1_host(__VA_ARGS__)  \
                                                     : (int)launch_##name##_o2_host(__VA_ARGS__)) \
                                   : MT_CUDA_LAUNCH(r, name, __VA_ARGS__))

using Run = std::function<Planes(Runner &)>;

// Runs `run` on the mode's backend(s) and compares.
void verify(Mode mode, int opt, const Run &run, const Planes &ref, const std::vector<Tols> &tols) {
    auto on = [&](Backend b) {
        Runner r(b, opt);
        return run(r);
    };
    switch (mode) {
    case Mode::Host: compare("host", on(Backend::Host), ref, tols, false); break;
    case Mode::Cuda: compare("cuda", on(Backend::Cuda), ref, tols, true); break;
    case Mode::CudaVsHost: {
        Planes h = on(Backend::Host);
        compare("cuda vs host", on(Backend::Cuda), h, tols, true);
        break;
    }
    }
}

mytriton_grid grid3(int64_t x, int64_t y, int64_t z) {
    mytriton_grid g;
    g.x = x;
    g.y = y;
    g.z = z;
    return g;
}

}  // namespace

// EXEC_CASE(name) { body using `mode` and `opt` }: the tests of one kernel.
#if MT_EXEC_CUDA
#define MT_NEED_GPU() MT_SKIP_WITHOUT_GPU()
#define MT_CUDA_CASES(name)               \
    TEST(CudaO1, name) {                  \
        g_opt = 1;                        \
        MT_NEED_GPU();                    \
        name##_case(Mode::Cuda, 1);       \
    }                                     \
    TEST(CudaO2, name) {                  \
        g_opt = 2;                        \
        MT_NEED_GPU();                    \
        name##_case(Mode::Cuda, 2);       \
    }                                     \
    TEST(CudaVsHostO1, name) {            \
        g_opt = 1;                        \
        MT_NEED_GPU();                    \
        name##_case(Mode::CudaVsHost, 1); \
    }                                     \
    TEST(CudaVsHostO2, name) {            \
        g_opt = 2;                        \
        MT_NEED_GPU();                    \
        name##_case(Mode::CudaVsHost, 2); \
    }
#else
#define MT_CUDA_CASES(name)
#endif
#define EXEC_CASE(name)                          \
    static void name##_case(Mode mode, int opt); \
    TEST(HostO1, name) {                         \
        g_opt = 1;                               \
        name##_case(Mode::Host, 1);              \
    }                                            \
    TEST(HostO2, name) {                         \
        g_opt = 2;                               \
        name##_case(Mode::Host, 2);              \
    }                                            \
    MT_CUDA_CASES(name)                          \
    static void name##_case(Mode mode, int opt)

#define TRACE(expr) SCOPED_TRACE(::testing::Message() << expr)

// ============================================================================
// The conformance kernels
// ============================================================================

// vector_add at BLOCK=256 and (-O2 only) BLOCK=4096.
template <class Launch>
static void vector_add_check(Mode mode, int opt, std::vector<int> sizes, Launch launch) {
    for (int n : sizes) {
        TRACE("n = " << n);
        auto x = rand_f32(n, 1), y = rand_f32(n, 2);
        add_specials(x);
        std::vector<float> ref(n);
        for (int i = 0; i < n; i++) ref[i] = x[i] + y[i];
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dy = r.in(y), *dout = r.out_f(n);
                   launch(r, dx, dy, dout, n);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out", as_doubles(ref)}}, {kAllExact});
    }
}
EXEC_CASE(vector_add) {
    vector_add_check(mode, opt, {0, 1, 255, 256, 257, 1000, 5000},
                     [](Runner &r, float *x, float *y, float *out, int n) {
                         LAUNCH(r, vector_add, x, y, out, n);
                     });
}

EXEC_CASE(scaled_relu) {
    for (int n : {0, 1, 127, 128, 129, 700}) {
        for (float scale : {1.5f, -0.5f, 0.0f}) {
            TRACE("n = " << n << ", scale = " << scale);
            auto x = rand_f32(n, 3);
            add_specials(x, 5);
            std::vector<float> ref(n);
            for (int i = 0; i < n; i++) ref[i] = tmax(x[i] * scale, 0.0f);
            verify(mode, opt,
                   [&](Runner &r) {
                       float *dx = r.in(x), *dout = r.out_f(n);
                       LAUNCH(r, scaled_relu, dx, dout, n, scale);
                       return Planes{{"out", r.get(dout)}};
                   },
                   {{"out", as_doubles(ref)}}, {kAllExact});
        }
    }
}

EXEC_CASE(silu) {
    for (int n : {0, 1, 127, 128, 129, 700}) {
        TRACE("n = " << n);
        auto x = rand_f32(n, 4, -20.0f, 20.0f);
        add_specials(x, 6);
        std::vector<double> ref(n);
        for (int i = 0; i < n; i++) ref[i] = x[i] / (1.0f + (float)std::exp(-(double)x[i]));
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dout = r.out_f(n);
                   LAUNCH(r, silu, dx, dout, n);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out", ref}}, {{kExpf, kExpf}});
    }
}

EXEC_CASE(clamp) {
    for (int n : {0, 1, 63, 64, 65, 500}) {
        for (auto [lo, hi] : {std::pair<float, float>{-1.0f, 1.0f}, {2.0f, -2.0f}, {0.0f, 0.0f}}) {
            TRACE("n = " << n << ", lo = " << lo << ", hi = " << hi);
            auto x = rand_f32(n, 5);
            add_specials(x, 4);
            std::vector<float> ref(n);
            for (int i = 0; i < n; i++) {
                float clipped = tmin(tmax(x[i], lo), hi);
                ref[i] = x[i] < lo ? lo : clipped;
            }
            verify(mode, opt,
                   [&](Runner &r) {
                       float *dx = r.in(x), *dout = r.out_f(n);
                       LAUNCH(r, clamp, dx, dout, n, lo, hi);
                       return Planes{{"out", r.get(dout)}};
                   },
                   {{"out", as_doubles(ref)}}, {kAllExact});
        }
    }
}

// softmax: BLOCK columns at most, one program per row, explicit grid.
template <class Launch>
static void softmax_check(Mode mode, int opt, int B, std::vector<std::pair<int, int>> shapes,
                          Launch launch) {
    for (auto [rows, cols] : shapes) {
        TRACE("rows = " << rows << ", cols = " << cols);
        auto x = rand_f32((size_t)rows * cols, 6, -10.0f, 10.0f);
        if (rows >= 3) {
            x[0] = kNaN;                                             // row 0: one NaN
            x[cols + 1 < (int)x.size() ? cols + 1 : 0] = kInf;       // row 1: +inf
            for (int c = 0; c < cols; c++) x[2 * cols + c] = -kInf;  // row 2: all -inf
        }
        std::vector<double> ref((size_t)rows * cols);
        for (int r = 0; r < rows; r++) {
            // the kernel's math over the whole block: padding is -inf
            std::vector<float> v(B, -kInf);
            for (int c = 0; c < cols; c++) v[c] = x[(size_t)r * cols + c];
            float m = v[0];
            for (int c = 1; c < B; c++) m = rmax(m, v[c]);
            std::vector<double> e(B);
            double s = 0;
            for (int c = 0; c < B; c++) s += e[c] = std::exp((double)v[c] - (double)m);
            for (int c = 0; c < cols; c++) ref[(size_t)r * cols + c] = e[c] / s;
        }
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dout = r.out_f(x.size());
                   launch(r, grid3(rows, 1, 1), dx, dout, cols);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out", ref}}, {{{1e-5, 1e-7}, {1e-5, 1e-7}}});
    }
}
EXEC_CASE(softmax) {
    softmax_check(mode, opt, 1024, {{0, 5}, {1, 1}, {3, 7}, {4, 1000}, {2, 1024}},
                  [](Runner &r, mytriton_grid g, float *x, float *out, int cols) {
                      LAUNCH(r, softmax, g, x, out, cols);
                  });
}

template <class Launch>
static void row_sum_check(Mode mode, int opt, std::vector<std::pair<int, int>> shapes,
                          Launch launch) {
    for (auto [rows, cols] : shapes) {
        TRACE("rows = " << rows << ", cols = " << cols);
        auto x = rand_f32((size_t)rows * cols, 7);
        std::vector<double> ref(rows);
        double mag = 0;
        for (int r = 0; r < rows; r++) {
            double s = 0;
            for (int c = 0; c < cols; c++)
                s += x[(size_t)r * cols + c], mag += finite_abs(x[(size_t)r * cols + c]);
            ref[r] = s;
        }
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dout = r.out_f(rows);
                   launch(r, grid3(rows, 1, 1), dx, dout, cols);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out", ref}}, {{sum_tol(mag), sum_tol(mag)}});
    }
}
EXEC_CASE(row_sum) {
    row_sum_check(mode, opt, {{0, 3}, {1, 1}, {5, 100}, {3, 128}, {2, 0}},
                  [](Runner &r, mytriton_grid g, float *x, float *out, int cols) {
                      LAUNCH(r, row_sum, g, x, out, cols);
                  });
}

template <class Launch>
static void matrix_add_check(Mode mode, int opt, std::vector<std::pair<int, int>> shapes,
                             Launch launch) {
    for (auto [M, N] : shapes) {
        TRACE("M = " << M << ", N = " << N);
        auto x = rand_f32((size_t)M * N, 8), y = rand_f32((size_t)M * N, 9);
        add_specials(x, 11);
        std::vector<float> ref(x.size());
        for (size_t i = 0; i < x.size(); i++) ref[i] = x[i] + y[i];
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dy = r.in(y), *dout = r.out_f(x.size());
                   launch(r, dx, dy, dout, M, N);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out", as_doubles(ref)}}, {kAllExact});
    }
}
EXEC_CASE(matrix_add_2d) {
    matrix_add_check(mode, opt, {{0, 5}, {1, 1}, {17, 33}, {32, 64}, {50, 7}},
                     [](Runner &r, float *x, float *y, float *out, int M, int N) {
                         LAUNCH(r, matrix_add_2d, x, y, out, M, N);
                     });
}

// C = A (M x K) B (K x N), both matmul kernels.
template <class Launch>
static void matmul_check(Mode mode, int opt, std::vector<std::tuple<int, int, int>> shapes,
                         Launch launch) {
    for (auto [M, N, K] : shapes) {
        TRACE("M = " << M << ", N = " << N << ", K = " << K);
        auto a = rand_f32((size_t)M * K, 10, -1.0f, 1.0f),
             b = rand_f32((size_t)K * N, 11, -1.0f, 1.0f);
        std::vector<double> ref((size_t)M * N);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double s = 0;
                for (int k = 0; k < K; k++)
                    s += (double)a[(size_t)i * K + k] * b[(size_t)k * N + j];
                ref[(size_t)i * N + j] = s;
            }
        Tol t{1e-5, 1e-6 * (K + 1)};
        verify(mode, opt,
               [&](Runner &r) {
                   float *da = r.in(a), *db = r.in(b), *dc = r.out_f((size_t)M * N);
                   launch(r, da, db, dc, M, N, K);
                   return Planes{{"c", r.get(dc)}};
               },
               {{"c", ref}}, {{t, t}});
    }
}
static const std::vector<std::tuple<int, int, int>> kMatmulShapes = {
    {1, 1, 1}, {5, 7, 0}, {17, 9, 13}, {33, 40, 64}, {0, 3, 2}};
EXEC_CASE(seed_matmul_runtime_k) {
    matmul_check(mode, opt, kMatmulShapes,
                 [](Runner &r, float *a, float *b, float *c, int M, int N, int K) {
                     LAUNCH(r, seed_matmul_runtime_k, a, b, c, M, N, K);
                 });
}
EXEC_CASE(matmul_runtime_k) {
    matmul_check(mode, opt, kMatmulShapes,
                 [](Runner &r, float *a, float *b, float *c, int M, int N, int K) {
                     LAUNCH(r, matmul_runtime_k, a, b, c, M, N, K);
                 });
}

EXEC_CASE(runtime_sum) {
    for (int K : {0, 1, 10, 1000, -4}) {
        TRACE("K = " << K);
        auto x = rand_f32(K > 0 ? K : 0, 12);
        float acc = 0.0f;  // the kernel's order: one float add per iteration
        for (int k = 0; k < K; k++) acc = acc + x[k];
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dout = r.out_f(1);
                   LAUNCH(r, runtime_sum, dx, dout, K);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out", {acc}}}, {kAllExact});
    }
}

EXEC_CASE(nested_count) {
    for (auto [M, N] : {std::pair<int, int>{0, 5}, {5, 0}, {3, 4}, {100, 100}, {-3, 4}}) {
        TRACE("M = " << M << ", N = " << N);
        float want = (float)((M > 0 ? M : 0) * (N > 0 ? N : 0));
        verify(mode, opt,
               [&](Runner &r) {
                   float *dout = r.out_f(1);
                   LAUNCH(r, nested_count, dout, M, N);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out", {want}}}, {kAllExact});
    }
}

EXEC_CASE(two_carried) {
    for (int n : {0, 1, 2, 10, 999}) {
        TRACE("n = " << n);
        auto x = rand_f32(n > 0 ? n : 0, 13);
        int32_t total = 0;
        float scaled = 0.0f;
        for (int i = 1; i < n; i += 2) {
            total = total + i;
            scaled = scaled + x[i] * 0.5f;
        }
        float want = scaled + (float)total;
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dout = r.out_f(1);
                   LAUNCH(r, two_carried, dx, dout, n);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out", {want}}}, {kAllExact});
    }
}

template <class Launch>
static void block_accumulate_check(Mode mode, int opt, int B, Launch launch) {
    for (int chunks : {0, 1, 7}) {
        TRACE("chunks = " << chunks);
        auto x = rand_f32((size_t)chunks * B, 14);
        std::vector<float> ref(B, 0.0f);
        for (int c = 0; c < chunks; c++)
            for (int l = 0; l < B; l++) ref[l] = ref[l] + x[(size_t)c * B + l];
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dout = r.out_f(B);
                   launch(r, dx, dout, chunks);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out", as_doubles(ref)}}, {kAllExact});
    }
}
EXEC_CASE(block_accumulate) {
    block_accumulate_check(mode, opt, 64, [](Runner &r, float *x, float *out, int chunks) {
        LAUNCH(r, block_accumulate, x, out, chunks);
    });
}

// ============================================================================
// Elementwise kernels (kernels/elementwise.py)
// ============================================================================

EXEC_CASE(f32_ops) {
    for (int n : {0, 1, 127, 128, 129, 1000}) {
        const float s = 0.75f;
        TRACE("n = " << n);
        auto x = rand_f32(n, 20), y = rand_f32(n, 21);
        add_specials(x, 5);
        add_specials(y, 9);
        for (int i = 1; i < n; i += 13) y[i] = x[i];  // ties
        std::vector<float> p(10 * (size_t)n);
        std::vector<double> e(n);
        for (int i = 0; i < n; i++) {
            float a = x[i], b = y[i];
            p[i] = a + b;
            p[n + i] = a - b;
            p[2 * n + i] = a * b;
            p[3 * n + i] = a / b;
            p[4 * n + i] = -a;
            p[5 * n + i] = tmax(a, b);
            p[6 * n + i] = tmin(a, b);
            e[i] = (float)std::exp((double)a);
            p[7 * n + i] = 0;  // compared separately
            p[8 * n + i] = a < b ? a - s : b + s;
            p[9 * n + i] = a - s / 4.0f;
        }
        auto split = [n](const std::vector<double> &all) {
            Planes ps;
            for (int k = 0; k < 10; k++)
                ps.push_back({"plane " + std::to_string(k),
                              std::vector<double>(all.begin() + (size_t)k * n,
                                                  all.begin() + (size_t)(k + 1) * n)});
            return ps;
        };
        Planes ref = split(as_doubles(p));
        ref[7].v = e;
        std::vector<Tols> tols(10, kAllExact);
        tols[3] = div_tols(opt);
        if (opt >=
            2) {  // NaN-ignoring maximum/minimum (PTX max/min): the sign of a zero tie may differ
            tols[5] = tols[6] = {kSignlessZero, kSignlessZero};
        }
        tols[7] = {kExpf, kExpf};
        verify(
            mode, opt,
            [&](Runner &r) {
                float *dx = r.in(x), *dy = r.in(y), *dout = r.out_f(10 * (size_t)n);
                LAUNCH(r, f32_ops, dx, dy, dout, n, s);
                return split(r.get(dout));
            },
            ref, tols);
    }
}

EXEC_CASE(compare) {
    for (int n : {0, 1, 127, 128, 129, 1000}) {
        TRACE("n = " << n);
        auto x = rand_f32(n, 22), y = rand_f32(n, 23);
        add_specials(x, 6);
        for (int i = 2; i < n; i += 5) y[i] = x[i];
        std::vector<int32_t> p(8 * (size_t)n);
        for (int i = 0; i < n; i++) {
            float a = x[i], b = y[i];
            p[i] = a < b;
            p[n + i] = a <= b;
            p[2 * n + i] = a > b;
            p[3 * n + i] = a >= b;
            p[4 * n + i] = a == b;
            p[5 * n + i] = a != b;
            p[6 * n + i] = (a < b) && (b < 0.5f);
            p[7 * n + i] = (a < -1.0f) || (a == b);
        }
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dy = r.in(y);
                   int32_t *dout = r.out_i(8 * (size_t)n);
                   LAUNCH(r, compare, dx, dy, dout, n);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out", as_doubles(p)}}, {kAllExact});
    }
}

EXEC_CASE(i32_ops) {
    for (int n : {0, 1, 127, 128, 129, 1000}) {
        for (int32_t k : {3, -7}) {
            TRACE("n = " << n << ", k = " << k);
            auto x = rand_i32(n, 24, INT32_MIN, INT32_MAX), y = rand_i32(n, 25, -1000, 1000);
            for (int i = 0; i < n; i += 4) x[i] %= 5000;  // some small values too
            for (int i = 1; i < n; i += 9) y[i] = x[i];   // ties
            if (n > 3) x[3] = INT32_MIN, y[2] = 0;
            std::vector<int32_t> pi(8 * (size_t)n);
            std::vector<float> pf(4 * (size_t)n);
            for (int i = 0; i < n; i++) {
                int32_t a = x[i], b = y[i];
                pi[i] = wadd(a, b);
                pi[n + i] = wsub(a, b);
                pi[2 * n + i] = wmul(a, b);
                pi[3 * n + i] = wsub(0, a);
                pi[4 * n + i] = a > b ? a : b;
                pi[5 * n + i] = a < b ? a : b;
                pi[6 * n + i] = a < b ? a : wmul(b, k);
                pi[7 * n + i] = wadd(wmul(a, k), 7);
                pf[i] = (float)a / (float)b;
                pf[n + i] = (float)a + 0.5f;
                pf[2 * n + i] = tmax((float)a, 0.5f) + tmin((float)b * 1.0f, -0.25f);
                pf[3 * n + i] = -((float)a / (float)k);
            }
            verify(mode, opt,
                   [&](Runner &r) {
                       int32_t *dx = r.in(x), *dy = r.in(y), *dout = r.out_i(8 * (size_t)n);
                       float *dfout = r.out_f(4 * (size_t)n);
                       LAUNCH(r, i32_ops, dx, dy, dout, dfout, n, k);
                       return Planes{{"out", r.get(dout)}, {"fout", r.get(dfout)}};
                   },
                   {{"out", as_doubles(pi)}, {"fout", as_doubles(pf)}}, {kAllExact, div_tols(opt)});
        }
    }
}

EXEC_CASE(convert) {
    for (int n : {0, 1, 63, 64, 65, 500}) {
        const float v = -123.75f;
        TRACE("n = " << n);
        auto x = rand_f32(n, 26, -1.0e6f, 1.0e6f);
        auto ix = rand_i32(n, 27, INT32_MIN, INT32_MAX);
        std::vector<int32_t> oi(3 * (size_t)n);
        std::vector<float> of(2 * (size_t)n);
        for (int i = 0; i < n; i++) {
            oi[i] = (int32_t)x[i];  // truncation toward zero (in range)
            of[i] = (float)ix[i];
            oi[n + i] = wadd((int32_t)v, ix[i]);
            of[n + i] = 3.0f + 0.0f * x[i];
            oi[2 * n + i] = -i;
        }
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x);
                   int32_t *dix = r.in(ix), *douti = r.out_i(3 * (size_t)n);
                   float *doutf = r.out_f(2 * (size_t)n);
                   LAUNCH(r, convert, dx, dix, douti, doutf, n, v);
                   return Planes{{"out_i", r.get(douti)}, {"out_f", r.get(doutf)}};
               },
               {{"out_i", as_doubles(oi)}, {"out_f", as_doubles(of)}}, {kAllExact});
    }
}

EXEC_CASE(masked_copy) {
    for (int n : {0, 1, 63, 64, 65, 300}) {
        for (auto [lo, hi] : {std::pair<int, int>{0, 1 << 30}, {10, 40}, {50, 20}}) {
            TRACE("n = " << n << ", lo = " << lo << ", hi = " << hi);
            auto x = rand_f32(n, 28);
            auto keep = rand_i32(n, 29, 0, 2);
            std::vector<float> ref(n);
            for (int i = 0; i < n; i++)
                ref[i] = keep[i] ? (i >= lo && i < hi ? x[i] : -1.0f) : kFillF;
            verify(mode, opt,
                   [&](Runner &r) {
                       float *dx = r.in(x), *dout = r.out_f(n);
                       int32_t *dkeep = r.in(keep);
                       LAUNCH(r, masked_copy, dx, dkeep, dout, n, lo, hi);
                       return Planes{{"out", r.get(dout)}};
                   },
                   {{"out", as_doubles(ref)}}, {kAllExact});
        }
    }
}

EXEC_CASE(load_other) {
    for (int n : {0, 1, 63, 64, 65, 300}) {
        const float fo = -77.75f;
        const int lim = n / 2;
        TRACE("n = " << n << ", lim = " << lim);
        auto ix = rand_i32(lim, 30, INT32_MIN, INT32_MAX);
        for (int i = 0; i < lim; i += 3) ix[i] = (1 << 24) + 1 + i;  // not representable in f32
        std::vector<int32_t> ref(n);
        for (int i = 0; i < n; i++) ref[i] = i < lim ? ix[i] : (int32_t)fo;
        verify(mode, opt,
               [&](Runner &r) {
                   int32_t *dix = r.in(ix), *dout = r.out_i(n);
                   LAUNCH(r, load_other, dix, dout, n, lim, fo);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out", as_doubles(ref)}}, {kAllExact});
    }
}

// ============================================================================
// Reductions (kernels/reductions.py)
// ============================================================================

EXEC_CASE(reduce_f32) {
    const int B = 128;
    for (auto [rows, cols] : {std::pair<int, int>{0, 4}, {1, 1}, {9, 77}, {6, 128}, {2, 0}}) {
        TRACE("rows = " << rows << ", cols = " << cols);
        auto x = rand_f32((size_t)rows * cols, 30);
        if (rows >= 6 && cols >= 4) {
            x[0] = kNaN;                                            // row 0: one NaN
            x[cols] = kInf;                                         // row 1: +inf
            x[2 * cols] = -kInf;                                    // row 2: -inf
            x[3 * cols] = kInf, x[3 * cols + 1] = -kInf;            // row 3: both
            for (int c = 0; c < cols; c++) x[4 * cols + c] = kNaN;  // row 4: all NaN
        }
        std::vector<double> sum(rows), mx(rows), mn(rows);
        double mag = 1;
        for (int r = 0; r < rows; r++) {
            double s = 0;
            // the block is padded with -inf (max) and +inf (min); NaN is the
            // identity of a NaN-ignoring max/min
            float a = cols < B ? -kInf : kNaN, b = cols < B ? kInf : kNaN;
            for (int c = 0; c < cols; c++) {
                float v = x[(size_t)r * cols + c];
                s += v;
                mag += finite_abs(v);
                a = rmax(a, v);
                b = rmin(b, v);
            }
            sum[r] = s, mx[r] = a, mn[r] = b;
        }
        auto split = [rows](const std::vector<double> &all) {
            Planes ps{{"sum", {}}, {"max", {}}, {"min", {}}};
            for (int r = 0; r < rows; r++)
                for (int k = 0; k < 3; k++) ps[k].v.push_back(all[(size_t)r * 3 + k]);
            return ps;
        };
        Tol st = sum_tol(mag);
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dout = r.out_f(3 * (size_t)rows);
                   LAUNCH(r, reduce_f32, dx, dout, rows, cols);
                   return split(r.get(dout));
               },
               {{"sum", sum}, {"max", mx}, {"min", mn}}, {{st, st}, kAllExact, kAllExact});
    }
}

template <class Launch>
static void reduce_i32_check(Mode mode, int opt, std::vector<std::pair<int, int>> shapes,
                             Launch launch) {
    for (auto [rows, cols] : shapes) {
        TRACE("rows = " << rows << ", cols = " << cols);
        auto x = rand_i32((size_t)rows * cols, 31, INT32_MIN, INT32_MAX);
        std::vector<int32_t> ref(3 * (size_t)rows);
        for (int r = 0; r < rows; r++) {
            int32_t s = 0, a = INT32_MIN, b = INT32_MAX;
            for (int c = 0; c < cols; c++) {
                int32_t v = x[(size_t)r * cols + c];
                s = wadd(s, v);
                a = v > a ? v : a;
                b = v < b ? v : b;
            }
            ref[3 * r] = s, ref[3 * r + 1] = a, ref[3 * r + 2] = b;
        }
        verify(mode, opt,
               [&](Runner &r) {
                   int32_t *dx = r.in(x), *dout = r.out_i(3 * (size_t)rows);
                   launch(r, dx, dout, rows, cols);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out", as_doubles(ref)}}, {kAllExact});
    }
}
EXEC_CASE(reduce_i32) {
    reduce_i32_check(mode, opt, {{0, 4}, {1, 1}, {7, 50}, {5, 64}, {2, 0}},
                     [](Runner &r, int32_t *x, int32_t *out, int rows, int cols) {
                         LAUNCH(r, reduce_i32, x, out, rows, cols);
                     });
}

EXEC_CASE(long_row_sum) {
    for (auto [rows, cols] : {std::pair<int, int>{0, 9}, {1, 1}, {3, 200}, {4, 512}, {2, 129}}) {
        TRACE("rows = " << rows << ", cols = " << cols);
        auto x = rand_f32((size_t)rows * cols, 32);
        std::vector<double> ref(2 * (size_t)rows);
        double mag = 1;
        for (int r = 0; r < rows; r++) {
            double s = 0;
            for (int c = 0; c < cols; c++)
                s += x[(size_t)r * cols + c], mag += finite_abs(x[(size_t)r * cols + c]);
            ref[2 * r] = ref[2 * r + 1] = s;
        }
        Tol st = sum_tol(mag);
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dout = r.out_f(2 * (size_t)rows);
                   LAUNCH(r, long_row_sum, dx, dout, rows, cols);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out", ref}}, {{st, st}});
    }
}

EXEC_CASE(loop_reduce) {
    const int B = 64;
    for (int rows : {0, 1, 5}) {
        TRACE("rows = " << rows);
        auto x = rand_f32((size_t)rows * B, 33);
        if (rows > 2) x[B + 3] = kNaN;  // tl.max ignores it; the sum does not
        double total = 0, mag = 1;
        float biggest = -kInf;
        int count = 0;
        for (int r = 0; r < rows; r++) {
            float m = x[(size_t)r * B];
            for (int c = 0; c < B; c++) {
                float v = x[(size_t)r * B + c];
                total += v;
                mag += finite_abs(v);
                m = rmax(m, v);
                count += v > 0.0f;
            }
            biggest = tmax(biggest, m);
        }
        Tol st = sum_tol(mag);
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dout = r.out_f(3);
                   LAUNCH(r, loop_reduce, dx, dout, rows);
                   auto v = r.get(dout);
                   return Planes{{"total", {v[0]}}, {"max, count", {v[1], v[2]}}};
               },
               {{"total", {total}}, {"max, count", {biggest, (double)count}}},
               {{st, st}, kAllExact});
    }
}

// ============================================================================
// Rank-2 tiles (kernels/rank2.py)
// ============================================================================

EXEC_CASE(outer) {
    for (auto [M, N] : {std::pair<int, int>{0, 3}, {1, 1}, {9, 17}, {16, 32}, {20, 45}}) {
        TRACE("M = " << M << ", N = " << N);
        auto a = rand_f32(M, 40), b = rand_f32(N, 41);
        std::vector<float> p0((size_t)M * N), p1((size_t)M * N);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                p0[(size_t)i * N + j] = (a[i] * b[j] + (float)i) - (float)j * 0.5f;
                p1[(size_t)i * N + j] = a[i] + b[j];
            }
        verify(mode, opt,
               [&](Runner &r) {
                   float *da = r.in(a), *db = r.in(b), *dout = r.out_f(2 * (size_t)M * N);
                   LAUNCH(r, outer, da, db, dout, M, N);
                   auto v = r.get(dout);
                   size_t h = (size_t)M * N;
                   return Planes{{"prod", std::vector<double>(v.begin(), v.begin() + h)},
                                 {"sum", std::vector<double>(v.begin() + h, v.end())}};
               },
               {{"prod", as_doubles(p0)}, {"sum", as_doubles(p1)}}, {{kExact, kFma}, kAllExact});
    }
}

EXEC_CASE(transpose) {
    for (auto [M, N] : {std::pair<int, int>{0, 4}, {1, 1}, {15, 9}, {16, 8}, {40, 33}}) {
        TRACE("M = " << M << ", N = " << N);
        auto x = rand_f32((size_t)M * N, 42);
        std::vector<float> ref((size_t)M * N);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) ref[(size_t)j * M + i] = x[(size_t)i * N + j];
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dout = r.out_f(x.size());
                   LAUNCH(r, transpose, dx, dout, M, N);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out", as_doubles(ref)}}, {kAllExact});
    }
}

EXEC_CASE(bias_relu) {
    for (auto [M, N] : {std::pair<int, int>{0, 4}, {1, 1}, {15, 17}, {32, 16}, {7, 50}}) {
        TRACE("M = " << M << ", N = " << N);
        auto x = rand_f32((size_t)M * N, 43), bias = rand_f32(N, 44);
        add_specials(x, 13);
        std::vector<float> ref((size_t)M * N);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++)
                ref[(size_t)i * N + j] = tmax(x[(size_t)i * N + j] + bias[j], 0.0f);
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *db = r.in(bias), *dout = r.out_f(x.size());
                   LAUNCH(r, bias_relu, dx, db, dout, M, N);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out", as_doubles(ref)}}, {kAllExact});
    }
}

EXEC_CASE(batched_affine) {
    for (auto [B, M, N] :
         {std::tuple<int, int, int>{0, 5, 5}, {1, 1, 1}, {3, 5, 7}, {2, 8, 8}, {4, 17, 3}}) {
        const float alpha = -1.25f;
        TRACE("B = " << B << ", M = " << M << ", N = " << N);
        auto x = rand_f32((size_t)B * M * N, 45);
        std::vector<float> ref(x.size());
        for (size_t i = 0; i < x.size(); i++)
            ref[i] = x[i] * alpha + (float)(int)(i / ((size_t)M * N));
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dout = r.out_f(x.size());
                   LAUNCH(r, batched_affine, dx, dout, B, M, N, alpha);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out", as_doubles(ref)}}, {{kExact, kFma}});
    }
}

EXEC_CASE(tile_factories) {
    for (auto [M, N] : {std::pair<int, int>{0, 4}, {1, 1}, {5, 40}, {8, 64}, {33, 3}}) {
        TRACE("M = " << M << ", N = " << N);
        std::vector<float> f((size_t)M * N);
        std::vector<int32_t> g((size_t)M * N);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                f[(size_t)i * N + j] = i == j ? 1.5f : -1.5f;
                g[(size_t)i * N + j] = i * 1000 + j;
            }
        verify(mode, opt,
               [&](Runner &r) {
                   float *dout = r.out_f(f.size());
                   int32_t *diout = r.out_i(g.size());
                   LAUNCH(r, tile_factories, grid3(cdiv(M, 4), cdiv(N, 32), 1), dout, diout, M, N);
                   return Planes{{"out", r.get(dout)}, {"iout", r.get(diout)}};
               },
               {{"out", as_doubles(f)}, {"iout", as_doubles(g)}}, {kAllExact});
    }
}

// ============================================================================
// Runtime loops and unrolling (kernels/loops.py)
// ============================================================================

EXEC_CASE(nested_block) {
    const int B = 32;
    for (auto [M, N] : {std::pair<int, int>{0, 3}, {3, 0}, {1, 1}, {4, 5}}) {
        TRACE("M = " << M << ", N = " << N);
        auto x = rand_f32((size_t)(M > 0 ? M : 0) * (N > 0 ? N : 0) * B, 50);
        std::vector<float> acc(B, 0.0f), cnt(B);
        int count = 0;
        for (int i = 0; i < M; i++) {
            std::vector<float> row(B, 0.0f);
            for (int j = 0; j < N; j++) {
                for (int l = 0; l < B; l++) row[l] = row[l] + x[((size_t)i * N + j) * B + l];
                count++;
            }
            for (int l = 0; l < B; l++) acc[l] = acc[l] + row[l] * (float)(i + 1);
        }
        for (int l = 0; l < B; l++) cnt[l] = acc[l] * 0.0f + (float)count;
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dout = r.out_f(2 * B);
                   LAUNCH(r, nested_block, dx, dout, M, N);
                   auto v = r.get(dout);
                   return Planes{{"acc", std::vector<double>(v.begin(), v.begin() + B)},
                                 {"count", std::vector<double>(v.begin() + B, v.end())}};
               },
               {{"acc", as_doubles(acc)}, {"count", as_doubles(cnt)}}, {{kExact, kFma}, kAllExact});
    }
}

EXEC_CASE(sequential_loops) {
    const int B = 32;
    for (auto [n, m] : {std::pair<int, int>{0, 0}, {1, 2}, {6, 3}, {6, 10}, {3, 9}}) {
        TRACE("n = " << n << ", m = " << m);
        auto x = rand_f32((size_t)n * B, 51);
        std::vector<float> acc(B, 0.0f), best(B, -kInf);
        for (int i = 0; i < n; i++)
            for (int l = 0; l < B; l++) acc[l] = acc[l] + x[(size_t)i * B + l];
        for (int j = 2; j < m; j += 3)
            for (int l = 0; l < B; l++) best[l] = tmax(best[l], acc[l] * (float)j);
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dout = r.out_f(2 * B);
                   LAUNCH(r, sequential_loops, dx, dout, n, m);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out",
                 [&] {
                     auto v = as_doubles(best);
                     v.insert(v.end(), acc.begin(), acc.end());
                     return v;
                 }()}},
               {kAllExact});
    }
}

EXEC_CASE(carried_swap) {
    const int B = 32;
    for (int n : {0, 1, 2, 7, -3}) {
        TRACE("n = " << n);
        auto x = rand_f32(2 * B, 52);
        std::vector<float> a(x.begin(), x.begin() + B), b(x.begin() + B, x.end());
        int32_t c0 = 0, c1 = 100, s = 0;
        float f = 1.0f;
        for (int i = 0; i < n; i++) {
            std::swap(a, b);
            int32_t u = c1;
            c1 = c0 + 1;
            c0 = u;
            s += i;
            f = f * 0.5f;
        }
        std::vector<float> out(a);
        for (int l = 0; l < B; l++) out.push_back(b[l] * f);
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dout = r.out_f(2 * B);
                   int32_t *diout = r.out_i(3);
                   LAUNCH(r, carried_swap, dx, dout, diout, n);
                   return Planes{{"out", r.get(dout)}, {"iout", r.get(diout)}};
               },
               {{"out", as_doubles(out)}, {"iout", {(double)c0, (double)c1, (double)s}}},
               {kAllExact});
    }
}

EXEC_CASE(strided_loop) {
    const int B = 32;
    for (auto [start, stop] : {std::pair<int, int>{0, 0}, {5, 2}, {0, 1}, {1, 10}, {2, 12}}) {
        TRACE("start = " << start << ", stop = " << stop);
        auto x = rand_f32(12 * B, 53);
        std::vector<float> acc(B, 0.0f), cnt(B, 0.0f);
        int c = 0;
        for (int i = start; i < stop; i += 3) {
            for (int l = 0; l < B; l++) acc[l] = acc[l] + x[(size_t)i * B + l];
            c++;
        }
        for (int l = 0; l < B; l++) cnt[l] = (float)c;
        acc.insert(acc.end(), cnt.begin(), cnt.end());
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dout = r.out_f(2 * B);
                   LAUNCH(r, strided_loop, dx, dout, start, stop);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out", as_doubles(acc)}}, {kAllExact});
    }
}

EXEC_CASE(pointer_walk) {
    const int B = 32;
    for (int n : {0, 1, 5}) {
        TRACE("n = " << n);
        auto x = rand_f32((size_t)n * B, 54);
        std::vector<float> acc(B, 0.0f);
        float first = 0.0f;
        for (int i = 0; i < n; i++) {
            for (int l = 0; l < B; l++) acc[l] = acc[l] + x[(size_t)i * B + l];
            first = first + x[(size_t)i * B];
        }
        acc.push_back(first);
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dout = r.out_f(B + 1);
                   LAUNCH(r, pointer_walk, dx, dout, n);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out", as_doubles(acc)}}, {kAllExact});
    }
}

EXEC_CASE(empty_init) {
    const int B = 32;
    for (int n : {1, 4}) {
        TRACE("n = " << n);
        auto x = rand_f32((size_t)n * B, 55);
        std::vector<float> ref(x.end() - B, x.end());
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dout = r.out_f(B);
                   LAUNCH(r, empty_init, dx, dout, n);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out", as_doubles(ref)}}, {kAllExact});
    }
}

EXEC_CASE(rank2_loop) {
    for (auto [M, N, K] :
         {std::tuple<int, int, int>{1, 1, 0}, {5, 20, 3}, {16, 16, 1}, {9, 33, 4}, {0, 2, 2}}) {
        TRACE("M = " << M << ", N = " << N << ", K = " << K);
        auto x = rand_f32((size_t)K * M * N, 56);
        size_t h = (size_t)M * N;
        std::vector<float> ref(4 * h);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                float acc = 0.0f, rowacc = 0.0f, colmax = -kInf;
                for (int k = 0; k < K; k++) {
                    const float *plane = &x[(size_t)k * h];
                    acc = acc + plane[(size_t)i * N + j];
                    rowacc = rowacc + plane[(size_t)i * N];
                    colmax = tmax(colmax, plane[j]);
                }
                size_t o = (size_t)i * N + j;
                ref[o] = acc;
                ref[h + o] = rowacc + acc * 0.0f;
                ref[2 * h + o] = colmax + acc * 0.0f;
                ref[3 * h + o] = (float)K + acc * 0.0f;
            }
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dout = r.out_f(4 * h);
                   LAUNCH(r, rank2_loop, dx, dout, M, N, K);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out", as_doubles(ref)}}, {kAllExact});
    }
}

EXEC_CASE(static_unroll) {
    for (int n : {0, 1, 63, 64, 65, 300}) {
        TRACE("n = " << n);
        auto x = rand_f32(n, 57);
        std::vector<float> ref(2 * (size_t)n);
        for (int i = 0; i < n; i++) {
            float acc = 0.0f;
            for (int t = 0; t < 3; t++) acc = acc + (i + t < n ? x[i + t] : 0.0f) * (float)(t + 1);
            float odd = 0.0f;
            for (int t = 1; t < 6; t += 2) odd = odd + x[i] * (float)t;
            ref[i] = acc;
            ref[n + i] = odd;
        }
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dout = r.out_f(2 * (size_t)n);
                   LAUNCH(r, static_unroll, dx, dout, n);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out", as_doubles(ref)}}, {{kExact, kFma}});
    }
}

EXEC_CASE(count_loop) {
    std::vector<std::pair<int32_t, int32_t>> bounds = {{0, 0},  {0, 1},  {0, 4},   {0, 5},
                                                       {-9, 9}, {7, -7}, {3, 1000}};
    // Near the top of i32 the CUDA backend's int counter overflows (it
    // would loop forever): these bounds run on the host backend only.
    if (mode == Mode::Host)
        bounds.insert(
            bounds.end(),
            {{INT32_MAX - 10, INT32_MAX}, {INT32_MAX - 3, INT32_MAX}, {INT32_MAX - 1, INT32_MAX}});
    for (auto [start, stop] : bounds) {
        TRACE("start = " << start << ", stop = " << stop);
        int32_t count = 0, last = -1;
        for (int64_t i = start; i < stop; i += 4) count++, last = (int32_t)i;
        verify(mode, opt,
               [&](Runner &r) {
                   int32_t *dout = r.out_i(2);
                   LAUNCH(r, count_loop, dout, start, stop);
                   return Planes{{"out", r.get(dout)}};
               },
               {{"out", {(double)count, (double)last}}}, {kAllExact});
    }
}

// ============================================================================
// Large tiles (-O2 only: -O1 keeps one CUDA thread per element, at most 1024)
// ============================================================================

#define LAUNCH_O2(r, name, ...)                                                \
    (r).launched(#name, (r).host() ? (int)launch_##name##_o2_host(__VA_ARGS__) \
                                   : MT_CUDA_LAUNCH_O2(name, __VA_ARGS__))
#if MT_EXEC_CUDA
#define MT_CUDA_LAUNCH_O2(name, ...) (int)launch_##name##_o2(nullptr, __VA_ARGS__)
#define MT_CUDA_CASES_O2(name)            \
    TEST(CudaO2, name) {                  \
        g_opt = 2;                        \
        MT_NEED_GPU();                    \
        name##_case(Mode::Cuda, 2);       \
    }                                     \
    TEST(CudaVsHostO2, name) {            \
        g_opt = 2;                        \
        MT_NEED_GPU();                    \
        name##_case(Mode::CudaVsHost, 2); \
    }
#else
#define MT_CUDA_LAUNCH_O2(name, ...) (-1)
#define MT_CUDA_CASES_O2(name)
#endif
#define EXEC_CASE_O2(name)                       \
    static void name##_case(Mode mode, int opt); \
    TEST(HostO2, name) {                         \
        g_opt = 2;                               \
        name##_case(Mode::Host, 2);              \
    }                                            \
    MT_CUDA_CASES_O2(name)                       \
    static void name##_case(Mode mode, int opt)

EXEC_CASE_O2(vector_add_4k) {
    vector_add_check(mode, opt, {0, 1, 4095, 4096, 4097, 20000},
                     [](Runner &r, float *x, float *y, float *out, int n) {
                         LAUNCH_O2(r, vector_add_4k, x, y, out, n);
                     });
}
EXEC_CASE_O2(softmax_4k) {
    softmax_check(mode, opt, 4096, {{1, 1}, {3, 3000}, {2, 4096}},
                  [](Runner &r, mytriton_grid g, float *x, float *out, int cols) {
                      LAUNCH_O2(r, softmax_4k, g, x, out, cols);
                  });
}
EXEC_CASE_O2(row_sum_2k) {
    row_sum_check(mode, opt, {{1, 1}, {4, 2000}, {3, 2048}, {2, 0}},
                  [](Runner &r, mytriton_grid g, float *x, float *out, int cols) {
                      LAUNCH_O2(r, row_sum_2k, g, x, out, cols);
                  });
}
EXEC_CASE_O2(matrix_add_64x128) {
    matrix_add_check(mode, opt, {{1, 1}, {65, 130}, {64, 128}, {200, 7}},
                     [](Runner &r, float *x, float *y, float *out, int M, int N) {
                         LAUNCH_O2(r, matrix_add_64x128, x, y, out, M, N);
                     });
}
EXEC_CASE_O2(matmul_64) {
    matmul_check(mode, opt, {{1, 1, 1}, {64, 64, 64}, {65, 70, 33}, {130, 17, 5}, {7, 129, 0}},
                 [](Runner &r, float *a, float *b, float *c, int M, int N, int K) {
                     LAUNCH_O2(r, matmul_64, a, b, c, M, N, K);
                 });
}
// Outer-product loops (issue 14, kernels/outer.py): c = sum over the loop's
// k (range(start, K + extra, step), masked past K) of fx(a[i, k]) * fy(b[k, j]).
template <class Launch>
static void outer_check(Mode mode, int opt, double (*fx)(double), double (*fy)(double), int start,
                        int step, int extra, Launch launch) {
    for (auto [M, N, K] : std::vector<std::tuple<int, int, int>>{
             {1, 1, 1}, {64, 64, 64}, {65, 70, 33}, {130, 17, 5}, {7, 129, 0}}) {
        TRACE("M = " << M << ", N = " << N << ", K = " << K);
        auto a = rand_f32((size_t)M * K, 12, -1.0f, 1.0f),
             b = rand_f32((size_t)K * N, 13, -1.0f, 1.0f);
        std::vector<double> ref((size_t)M * N);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++)
                for (int k = start; k < K + extra && k < K; k += step)
                    ref[(size_t)i * N + j] += fx(a[(size_t)i * K + k]) * fy(b[(size_t)k * N + j]);
        Tol t{1e-5, 1e-6 * (K + 1)};
        verify(mode, opt,
               [&](Runner &r) {
                   float *da = r.in(a), *db = r.in(b), *dc = r.out_f((size_t)M * N);
                   launch(r, da, db, dc, M, N, K);
                   return Planes{{"c", r.get(dc)}};
               },
               {{"c", ref}}, {{t, t}});
    }
}
static double outer_id(double v) { return v; }
EXEC_CASE_O2(outer_relu_64) {
    outer_check(
        mode, opt, [](double v) { return v > 0 ? v : 0.0; }, outer_id, 0, 1, 0,
        [](Runner &r, float *a, float *b, float *c, int M, int N, int K) {
            LAUNCH_O2(r, outer_relu_64, a, b, c, M, N, K);
        });
}
EXEC_CASE_O2(outer_affine_64) {
    outer_check(
        mode, opt, [](double v) { return v * 0.5 + 1.0; }, [](double v) { return std::fabs(v); }, 0,
        1, 0,
        [](Runner &r, float *a, float *b, float *c, int M, int N, int K) {
            LAUNCH_O2(r, outer_affine_64, a, b, c, M, N, K);
        });
}
EXEC_CASE_O2(outer_hoisted_64) {
    outer_check(mode, opt, outer_id, outer_id, 0, 1, 0,
                [](Runner &r, float *a, float *b, float *c, int M, int N, int K) {
                    LAUNCH_O2(r, outer_hoisted_64, a, b, c, M, N, K);
                });
}
EXEC_CASE_O2(outer_step2_32) {
    outer_check(mode, opt, outer_id, outer_id, 1, 2, 0,
                [](Runner &r, float *a, float *b, float *c, int M, int N, int K) {
                    LAUNCH_O2(r, outer_step2_32, a, b, c, M, N, K);
                });
}
EXEC_CASE_O2(outer_kmask_64) {
    outer_check(mode, opt, outer_id, outer_id, 0, 1, 5,
                [](Runner &r, float *a, float *b, float *c, int M, int N, int K) {
                    LAUNCH_O2(r, outer_kmask_64, a, b, c, M, N, K);
                });
}
// 16-bit operands (kernels/outer.py): random f16 A and B; the reference sums
// fx(k, A[i][k]) * fy(k, B[k][j]) in double.
template <class FX, class FY, class L>
static void outer_f16_check(Mode mode, int opt, unsigned seed, FX fx, FY fy, L launch) {
    for (auto [M, N, K] : std::vector<std::tuple<int, int, int>>{
             {1, 1, 1}, {64, 64, 64}, {65, 70, 33}, {130, 17, 5}, {7, 129, 0}}) {
        TRACE("M = " << M << ", N = " << N << ", K = " << K);
        auto af = rand_f32((size_t)M * K, seed, -1.0f, 1.0f),
             bf = rand_f32((size_t)K * N, seed + 1, -1.0f, 1.0f);
        std::vector<mytriton_fp16> a(af.size()), b(bf.size());
        for (size_t i = 0; i < af.size(); i++) a[i] = mytriton_fp16_from_float(af[i]);
        for (size_t i = 0; i < bf.size(); i++) b[i] = mytriton_fp16_from_float(bf[i]);
        std::vector<double> ref((size_t)M * N);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++)
                for (int k = 0; k < K; k++)
                    ref[(size_t)i * N + j] +=
                        fx(k, (double)mytriton_fp16_to_float(a[(size_t)i * K + k])) *
                        fy(k, (double)mytriton_fp16_to_float(b[(size_t)k * N + j]));
        Tol t{1e-5, 1e-6 * (K + 1)};
        verify(mode, opt,
               [&](Runner &r) {
                   mytriton_fp16 *da = r.in(a), *db = r.in(b);
                   float *dc = r.out_f((size_t)M * N);
                   launch(r, da, db, dc, M, N, K);
                   return Planes{{"c", r.get(dc)}};
               },
               {{"c", ref}}, {{t, t}});
    }
}
// outer_f16_kernel: staged with 64-bit loads where aligned, element-wise
// otherwise (odd K).
EXEC_CASE_O2(outer_f16_64) {
    auto id = [](int, double v) { return v; };
    outer_f16_check(mode, opt, 14, id, id,
                    [](Runner &r, mytriton_fp16 *a, mytriton_fp16 *b, float *c, int M, int N,
                       int K) { LAUNCH_O2(r, outer_f16_64, a, b, c, M, N, K); });
}
// outer_f16_other_kernel: masks that fail inside the tile, along k; `other`
// (0.1, -0.3) is the load's dtype, then |x| * 2 on the row operand.
EXEC_CASE_O2(outer_f16_other_64) {
    auto h = [](float v) { return (double)mytriton_fp16_to_float(mytriton_fp16_from_float(v)); };
    outer_f16_check(
        mode, opt, 16, [&](int k, double v) { return 2 * std::fabs(k % 3 == 1 ? h(0.1f) : v); },
        [&](int k, double v) { return k % 5 == 2 ? h(-0.3f) : v; },
        [](Runner &r, mytriton_fp16 *a, mytriton_fp16 *b, float *c, int M, int N, int K) {
            LAUNCH_O2(r, outer_f16_other_64, a, b, c, M, N, K);
        });
}
EXEC_CASE_O2(block_accumulate_4k) {
    block_accumulate_check(mode, opt, 4096, [](Runner &r, float *x, float *out, int chunks) {
        LAUNCH_O2(r, block_accumulate_4k, x, out, chunks);
    });
}
EXEC_CASE_O2(reduce_i32_4k) {
    reduce_i32_check(mode, opt, {{1, 1}, {3, 4000}, {2, 4096}},
                     [](Runner &r, int32_t *x, int32_t *out, int rows, int cols) {
                         LAUNCH_O2(r, reduce_i32_4k, x, out, rows, cols);
                     });
}

// Loops that load and store (issue 14, kernels/versioning.py): the -O2 CUDA
// backend runs them in two versions (DESIGN 13b), groups of iterations with
// their loads ahead of their stores where the stored and the loaded bytes
// are apart, else the loop as written. Separate buffers take the first;
// overlapping ones (Y = X + k in one buffer: a later iteration loads what
// an earlier one stored) the second, and the result is program order's.

// layer_norm_loops_kernel at BLOCK_SIZE 64 on M rows of N columns `stride`
// apart, in program order (each block of the third loop loaded, then
// stored) on z, X at x0 and Y at y0.
static void layer_norm_loops_ref(std::vector<double> &z, size_t x0, size_t y0,
                                 const std::vector<float> &w, const std::vector<float> &b,
                                 std::vector<double> &mean, std::vector<double> &rstd, int M, int N,
                                 int stride) {
    for (int r = 0; r < M; r++) {
        size_t xr = x0 + (size_t)r * stride, yr = y0 + (size_t)r * stride;
        double s = 0, v = 0;
        for (int c = 0; c < N; c++) s += z[xr + c];
        double m = s / N;
        for (int c = 0; c < N; c++) v += (z[xr + c] - m) * (z[xr + c] - m);
        double rs = 1 / std::sqrt(v / N + 1e-5);
        mean[r] = m, rstd[r] = rs;
        for (int off = 0; off < N; off += 64) {
            std::vector<double> y;
            for (int c = off; c < off + 64 && c < N; c++)
                y.push_back((z[xr + c] - m) * rs * w[c] + b[c]);
            for (size_t c = 0; c < y.size(); c++) z[yr + off + c] = y[c];
        }
    }
}
// Y = X + k when k != 0 (a multiple of the block, stride >= N + |k|: the
// thread storing an element loads it again, and the rows stay apart).
static void layer_norm_loops_check(Mode mode, int opt, int M, int N, int stride, long k) {
    TRACE("M = " << M << ", N = " << N << ", stride = " << stride << ", Y = X + " << k);
    size_t rows = (size_t)M * stride, x0 = k < 0 ? (size_t)-k : 0;
    auto x = rand_f32(x0 + rows + (k > 0 ? k : 0), 31, -2.0f, 2.0f);
    auto w = rand_f32(N, 32, -2.0f, 2.0f), b = rand_f32(N, 33, -2.0f, 2.0f);
    std::vector<double> z = as_doubles(x), y(rows, kFillF), mean(M), rstd(M);
    if (k) {
        layer_norm_loops_ref(z, x0, x0 + k, w, b, mean, rstd, M, N, stride);
    } else {
        z.insert(z.end(), y.begin(), y.end());
        layer_norm_loops_ref(z, 0, x.size(), w, b, mean, rstd, M, N, stride);
        y.assign(z.begin() + x.size(), z.end());
        z.resize(x.size());
    }
    Tol t{1e-4, 1e-5};
    verify(mode, opt,
           [&](Runner &r) {
               float *dx = r.in(x), *dw = r.in(w), *db = r.in(b), *dm = r.out_f(M),
                     *drs = r.out_f(M);
               float *dy = k ? dx + x0 + k : r.out_f(rows);
               LAUNCH_O2(r, layer_norm_loops, grid3(M, 1, 1), dx + x0, dy, dw, db, dm, drs, stride,
                         N, 1e-5f);
               return Planes{
                   {"mean", r.get(dm)}, {"rstd", r.get(drs)}, {k ? "X" : "Y", r.get(k ? dx : dy)}};
           },
           {{"mean", mean}, {"rstd", rstd}, {k ? "X" : "Y", k ? z : y}}, {{t, t}});
}
EXEC_CASE_O2(layer_norm_loops) {
    // apart: 7 blocks a row (a group of 4, the rest as written), 3, 1
    layer_norm_loops_check(mode, opt, 3, 6 * 64 + 17, 420, 0);
    layer_norm_loops_check(mode, opt, 2, 3 * 64, 3 * 64, 0);
    layer_norm_loops_check(mode, opt, 1, 1, 1, 0);
    // Y = X + 2 blocks: block i stores what block i + 2 loads
    layer_norm_loops_check(mode, opt, 2, 6 * 64 + 17, 6 * 64 + 17 + 128, 128);
    // Y = X - 1 block: what is stored was loaded before
    layer_norm_loops_check(mode, opt, 2, 6 * 64, 7 * 64, -64);
}

// running_sum_kernel (BLOCK 64): Y[i + l] = the sum of X[(j + l) * xs]
// over the iterations j <= i of range(0, n, step). The step is at least the
// block, so that one lane stores each element; Y = X + k (k != 0, a
// multiple of the step) in one buffer: the lane storing an element loads
// it again.
EXEC_CASE_O2(running_sum) {
    struct {
        int n, step, xs;
        long k;
    } cases[] = {{1000, 64, 1, 0}, {1000, 70, 2, 0},  {300, 64, -1, 0},   {5, 64, 1, 0},
                 {0, 64, 1, 0},    {1000, 64, 1, 64}, {1000, 64, 1, 192}, {1000, 100, 1, 200}};
    for (auto c : cases) {
        TRACE("n = " << c.n << ", step = " << c.step << ", xs = " << c.xs << ", Y = X + " << c.k);
        // X at x0 of its buffer (the last of its elements for a negative stride)
        long x0 = c.xs < 0 ? (long)(c.n + 63) * -c.xs : 0;
        auto x = rand_f32((size_t)(c.n + 64) * std::abs(c.xs) + 64 + c.k, 34, -2.0f, 2.0f);
        std::vector<double> z = as_doubles(x), y(c.n, kFillF), acc(64, 0.0);
        for (int i = 0; i < c.n; i += c.step) {
            for (int l = 0; l < 64; l++)
                if (i + l < c.n) acc[l] += z[x0 + (long)(i + l) * c.xs];
            for (int l = 0; l < 64 && i + l < c.n; l++)
                (c.k ? z[x0 + c.k + i + l] : y[i + l]) = acc[l];
        }
        Tol t{1e-5, 1e-5};
        verify(mode, opt,
               [&](Runner &r) {
                   float *dx = r.in(x), *dy = c.k ? dx + x0 + c.k : r.out_f(c.n);
                   LAUNCH_O2(r, running_sum, dx + x0, dy, c.n, c.step, c.xs);
                   return Planes{{c.k ? "X" : "Y", r.get(c.k ? dx : dy)}};
               },
               {{c.k ? "X" : "Y", c.k ? z : y}}, {{t, t}});
    }
}

// ============================================================================
// Launchers, registry and executor
// ============================================================================

// Negative sizes and grids beyond CUDA's limits are refused before anything
// runs; an empty grid runs nothing and succeeds.
static void launch_errors_check(bool host, int opt) {
    std::vector<float> buf(8, 1.0f);
    float *p = buf.data();
    auto call_add = [&](int32_t n) {
        if (host)
            return opt == 1 ? (int)launch_vector_add_o1_host(p, p, p, n)
                            : (int)launch_vector_add_o2_host(p, p, p, n);
#if MT_EXEC_CUDA
        return opt == 1 ? (int)launch_vector_add_o1(nullptr, p, p, p, n)
                        : (int)launch_vector_add_o2(nullptr, p, p, p, n);
#else
        return -1;
#endif
    };
    auto call_softmax = [&](mytriton_grid g) {
        if (host)
            return opt == 1 ? (int)launch_softmax_o1_host(g, p, p, 8)
                            : (int)launch_softmax_o2_host(g, p, p, 8);
#if MT_EXEC_CUDA
        return opt == 1 ? (int)launch_softmax_o1(nullptr, g, p, p, 8)
                        : (int)launch_softmax_o2(nullptr, g, p, p, 8);
#else
        return -1;
#endif
    };
    mytriton_clear_last_error();
    EXPECT_EQ(call_add(-1), MYTRITON_INVALID_VALUE);
    EXPECT_NE(std::string(mytriton_last_error()).find("negative"), std::string::npos)
        << mytriton_last_error();
    mytriton_clear_last_error();
    EXPECT_EQ(call_add(0), MYTRITON_SUCCESS);  // an empty grid: nothing runs
    EXPECT_EQ(call_softmax(grid3(-1, 1, 1)), MYTRITON_INVALID_VALUE);
    EXPECT_EQ(call_softmax(grid3(1, 65536, 1)), MYTRITON_INVALID_VALUE);
    EXPECT_STRNE(mytriton_last_error(), "");
    EXPECT_EQ(call_softmax(grid3(0, 1, 1)), MYTRITON_SUCCESS);
    // an explicit grid's y or z of 0 (what `{3}` leaves) is an error, not an
    // empty launch; only x may be 0
    mytriton_clear_last_error();
    EXPECT_EQ(call_softmax(grid3(3, 0, 1)), MYTRITON_INVALID_VALUE);
    EXPECT_NE(std::string(mytriton_last_error()).find("grid dimension y is 0"), std::string::npos)
        << mytriton_last_error();
    EXPECT_EQ(call_softmax(grid3(3, 1, 0)), MYTRITON_INVALID_VALUE);
    for (float v : buf) EXPECT_EQ(v, 1.0f);  // nothing ran
}
TEST(HostO1, launch_errors) { launch_errors_check(true, 1); }
TEST(HostO2, launch_errors) { launch_errors_check(true, 2); }
#if MT_EXEC_CUDA
// The CUDA launchers refuse these before touching the device: no GPU needed.
TEST(CudaO1, launch_errors) { launch_errors_check(false, 1); }
TEST(CudaO2, launch_errors) { launch_errors_check(false, 2); }
#endif

// The host registry entries and their generic launch.
static void registry_check(int opt) {
    mytriton_exec_kernels_o1_register_kernels();
    mytriton_exec_kernels_o2_register_kernels();
    std::string name = "vector_add_o" + std::to_string(opt);
    const mytriton_kernel_info *info = mytriton_find_kernel(name.c_str(), "host");
    ASSERT_NE(info, nullptr);
    EXPECT_STREQ(info->name, name.c_str());
    EXPECT_STREQ(info->backend, "host");
    EXPECT_STREQ(info->kernel, "add_kernel");
    EXPECT_STREQ(info->source, "vector_add.py");
    EXPECT_STREQ(info->signature, "*fp32, *fp32, *fp32, i32");
    EXPECT_STREQ(info->constexprs, "BLOCK=256");
    EXPECT_STREQ(info->grid, "cdiv(n, BLOCK)");
    ASSERT_EQ(info->num_args, 4);
    EXPECT_STREQ(info->arg_names[3], "n");
    EXPECT_EQ(info->arg_kinds[0], MYTRITON_ARG_PTR_FP32);
    EXPECT_EQ(info->arg_kinds[3], MYTRITON_ARG_I32);
#if MT_EXEC_CUDA
    EXPECT_NE(mytriton_find_kernel(name.c_str(), "cuda"), nullptr);
#endif

    const int n = 300;
    auto x = rand_f32(n, 60), y = rand_f32(n, 61);
    std::vector<float> out(n, 0.0f);
    float *px = x.data(), *py = y.data(), *po = out.data();
    int32_t nn = n;
    void *args[] = {&px, &py, &po, &nn};
    EXPECT_EQ(mytriton_launch(name.c_str(), "host", nullptr, args, nullptr), MYTRITON_SUCCESS);
    for (int i = 0; i < n; i++) EXPECT_EQ(out[i], x[i] + y[i]) << i;

    // a kernel with an explicit grid: the generic launch needs one
    std::string sm = "row_sum_o" + std::to_string(opt);
    const mytriton_kernel_info *rs = mytriton_find_kernel(sm.c_str(), "host");
    ASSERT_NE(rs, nullptr);
    EXPECT_EQ(rs->grid, nullptr);
    float total = 0.0f;
    float *pt = &total;
    int32_t cols = 3;
    void *rargs[] = {&px, &pt, &cols};
    EXPECT_NE(rs->launch(nullptr, rargs, nullptr), 0);  // no grid given
    mytriton_grid g = grid3(1, 1, 1);
    EXPECT_EQ(rs->launch(nullptr, rargs, &g), 0);
    EXPECT_FLOAT_EQ(total, x[0] + x[1] + x[2]);
}
TEST(HostO1, registry) { registry_check(1); }
TEST(HostO2, registry) { registry_check(2); }

// Programs write disjoint data, so any number of executor threads gives the
// same bits.
TEST(HostO2, any_thread_count) {
    const int M = 45, N = 37, K = 19;
    auto a = rand_f32((size_t)M * K, 62), b = rand_f32((size_t)K * N, 63);
    std::vector<std::vector<float>> results;
    const char *old = std::getenv("MYTRITON_HOST_THREADS");
    std::string saved = old ? old : "";
    for (const char *threads : {"1", "3", "16"}) {
        setenv("MYTRITON_HOST_THREADS", threads, 1);
        std::vector<float> c((size_t)M * N, kFillF);
        ASSERT_EQ(launch_matmul_runtime_k_o2_host(a.data(), b.data(), c.data(), M, N, K),
                  MYTRITON_SUCCESS);
        results.push_back(c);
    }
    if (old) setenv("MYTRITON_HOST_THREADS", saved.c_str(), 1);
    else unsetenv("MYTRITON_HOST_THREADS");
    for (size_t k = 1; k < results.size(); k++)
        EXPECT_EQ(
            std::memcmp(results[0].data(), results[k].data(), results[0].size() * sizeof(float)),
            0);
}
