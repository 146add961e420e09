// Execution tests of every dtype and op family (kernels/dtypes.py, compiled
// at -O1 into the library mytriton_exec_dtypes, launchers dt_<case>):
// loads, stores and arithmetic per dtype, comparisons, integer ops, casts
// between every pair of dtypes with edge values, f32/f64 math, NaN in
// maximum/minimum, reductions of narrow dtypes, tl.cdiv, tl.num_programs,
// bitcasts and umulhi. Kernels are launched through the registry's generic
// launch (one test body serves every dtype) and their outputs compared with
// references computed here from Triton's documented semantics: integers
// wrap; float-to-integer casts truncate and saturate (8-bit results through
// 16 bits), NaN giving 0 (i64: INT64_MIN); casts to floats round to nearest
// even once (fp8: satfinite); narrow-float arithmetic is the exact result
// rounded once. The references use their own rounding (rint at the
// format's quantum in long double), not mytriton/dtypes.h.
//
//   HostDtypes.*        the host backend against the references (CI)
//   CudaDtypes.*        the CUDA backend (-O1) against the references  } skipped
//   CudaVsHostDtypes.*  the CUDA backend against the host backend      } without a GPU
//
// Planes whose results Triton leaves undefined (integer division by zero,
// MIN // -1) are checked on the host only, against the host backend's
// documented picks (emit_host.c).
#include <gtest/gtest.h>

#include <cfloat>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <list>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "mytriton/runtime.h"
#include "mytriton_exec_dtypes.h"

#if MT_EXEC_CUDA
#include <cuda_runtime_api.h>
#include "../support/gpu.h"
#endif

namespace {

typedef long double LD;  // exact for every value of every dtype (64-bit significand or more)

// ---- Dtypes -----------------------------------------------------------------

enum D { B, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, F8E4, F8E5, ND };

struct DInfo {
    const char *sig;  // the signature spelling
    int bytes, bits;
    bool fl, sgn;
    int ebits, mbits;  // floats: exponent and mantissa bits
};
const DInfo kD[ND] = {
    {"i1", 1, 1, false, false, 0, 0},    {"i8", 1, 8, false, true, 0, 0},
    {"i16", 2, 16, false, true, 0, 0},   {"i32", 4, 32, false, true, 0, 0},
    {"i64", 8, 64, false, true, 0, 0},   {"u8", 1, 8, false, false, 0, 0},
    {"u16", 2, 16, false, false, 0, 0},  {"u32", 4, 32, false, false, 0, 0},
    {"u64", 8, 64, false, false, 0, 0},  {"fp16", 2, 16, true, true, 5, 10},
    {"bf16", 2, 16, true, true, 8, 7},   {"fp32", 4, 32, true, true, 8, 23},
    {"fp64", 8, 64, true, true, 11, 52}, {"fp8e4nv", 1, 8, true, true, 4, 3},
    {"fp8e5", 1, 8, true, true, 5, 2},
};
bool has_inf(D d) { return d != F8E4; }
bool is_int(D d) { return !kD[d].fl; }

// The largest finite value of a float dtype.
LD max_finite(D d) {
    const DInfo &i = kD[d];
    int bias = (1 << (i.ebits - 1)) - 1;
    if (d == F8E4) return 448;
    return std::ldexp((LD)2 - std::ldexp((LD)1, -i.mbits), (1 << i.ebits) - 2 - bias);
}

// Rounds an exact value to a float dtype, to nearest even, once. Overflow
// gives infinity, or the largest finite value for fp8 (satfinite: also
// infinities).
LD round_to(D d, LD v) {
    if (std::isnan(v)) return v;
    if (d == F32) return (float)v;
    if (d == F64) return (double)v;
    bool sat = d == F8E4 || d == F8E5;
    LD mx = max_finite(d);
    if (std::isinf(v)) return sat ? std::copysign(mx, v) : v;
    if (v == 0) return v;
    const DInfo &i = kD[d];
    int emin = 2 - (1 << (i.ebits - 1));
    int e;
    (void)std::frexp(v, &e);
    int lead = e - 1 < emin ? emin : e - 1;
    LD q = std::ldexp((LD)1, lead - i.mbits);
    LD r = std::nearbyint(v / q) * q;  // the default rounding mode: to nearest even
    if (std::fabs(r) > mx) return sat ? std::copysign(mx, v) : std::copysign((LD)INFINITY, v);
    if (r == 0) return std::copysign((LD)0, v);
    return r;
}

// Integer values modulo 2^bits, as the dtype reads them.
LD wrap_to(D d, uint64_t u) {
    int bits = kD[d].bits;
    if (d == B) return (LD)(u & 1);
    if (bits < 64) u &= (1ull << bits) - 1;
    if (kD[d].sgn && bits < 64 && (u >> (bits - 1))) return (LD)(int64_t)(u - (1ull << bits));
    if (kD[d].sgn && bits == 64) return (LD)(int64_t)u;
    return (LD)u;
}
uint64_t as_u64(LD v) { return v < 0 ? (uint64_t)(int64_t)v : (uint64_t)v; }
LD int_min(D d) { return kD[d].sgn ? -std::ldexp((LD)1, kD[d].bits - 1) : 0; }
LD int_max(D d) {
    return kD[d].sgn ? std::ldexp((LD)1, kD[d].bits - 1) - 1 : std::ldexp((LD)1, kD[d].bits) - 1;
}

// The bits of an element <-> its value.
LD decode(D d, const uint8_t *p) {
    uint64_t u = 0;
    std::memcpy(&u, p, kD[d].bytes);  // little-endian hosts
    if (d == B) return u != 0;
    if (!kD[d].fl) return wrap_to(d, u);
    if (d == F32) {
        float f;
        std::memcpy(&f, p, 4);
        return f;
    }
    if (d == F64) {
        double f;
        std::memcpy(&f, p, 8);
        return f;
    }
    const DInfo &i = kD[d];
    int bias = (1 << (i.ebits - 1)) - 1;
    uint64_t emask = (1u << i.ebits) - 1, mmask = (1u << i.mbits) - 1;
    bool s = (u >> (i.ebits + i.mbits)) & 1;
    uint64_t e = (u >> i.mbits) & emask, m = u & mmask;
    LD v;
    if (e == emask && has_inf(d)) v = m ? (LD)NAN : (LD)INFINITY;
    else if (e == emask && m == mmask) v = NAN;  // e4m3: the one NaN
    else if (e == 0) v = std::ldexp((LD)m, 1 - bias - i.mbits);
    else v = std::ldexp((LD)(m | (1ull << i.mbits)), (int)e - bias - i.mbits);
    return s ? -v : v;
}
// The bits of a value of the dtype (exactly representable).
void encode(D d, LD v, uint8_t *p) {
    uint64_t u = 0;
    if (!kD[d].fl) {
        u = as_u64(v);
    } else if (d == F32) {
        float f = (float)v;
        std::memcpy(&u, &f, 4);
    } else if (d == F64) {
        double f = (double)v;
        std::memcpy(&u, &f, 8);
    } else {
        // the format's codes by value (decoded once per dtype; NaN and zeros apart)
        static std::map<LD, uint64_t> codes[ND];
        static uint64_t nan_code[ND];
        if (codes[d].empty()) {
            for (uint64_t c = 0; c < (1ull << kD[d].bits); c++) {
                uint8_t b[2] = {(uint8_t)c, (uint8_t)(c >> 8)};
                LD w = decode(d, b);
                if (std::isnan(w)) nan_code[d] = c;
                else if (w != 0) codes[d].emplace(w, c);
            }
        }
        if (std::isnan(v)) u = nan_code[d];
        else if (v == 0) u = std::signbit(v) ? 1ull << (kD[d].bits - 1) : 0;
        else if (codes[d].count(v)) u = codes[d][v];
        else throw std::logic_error("encode: not a value of the dtype");
    }
    std::memcpy(p, &u, kD[d].bytes);
}

// Triton's cast of a value of dtype `from` to `to`.
LD cast(D from, D to, LD v) {
    if (from == to) return v;
    if (to == B) return v != 0;  // NaN: true
    if (kD[to].fl) return round_to(to, v);
    if (is_int(from)) return wrap_to(to, as_u64(v));
    // float to integer: truncation, saturation (8-bit: at 16 bits, then wrapping), NaN to 0
    // (to i64 the smallest value, to u64 2^63: the GPU's cvt.rzi)
    if (std::isnan(v)) return to == I64 ? int_min(I64) : to == U64 ? 0x1p63L : 0;
    D sat = kD[to].bits == 8 ? (kD[to].sgn ? I16 : U16) : to;
    LD t = std::trunc(v);
    if (t < int_min(sat)) t = int_min(sat);
    if (t > int_max(sat)) t = int_max(sat);
    return wrap_to(to, as_u64(t));
}

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
    LD uniform(LD lo, LD hi) { return lo + (hi - lo) * (LD)(next() >> 11) * (LD)0x1p-53; }
};

// Random values of dtype d: moderate ones (|v| <= range, rounded to the
// dtype; integers over their whole range when range is 0) and, every
// `every`-th element, a special one (NaN, infinities, signed zeros, limits).
std::vector<LD> values(D d, size_t n, uint64_t seed, LD range, size_t every = 7) {
    Rng r(seed);
    std::vector<LD> v(n);
    for (auto &x : v) {
        if (kD[d].fl) x = round_to(d, r.uniform(-range, range));
        else if (range == 0) x = wrap_to(d, r.next());
        else x = wrap_to(d, as_u64(std::nearbyint(r.uniform(kD[d].sgn ? -range : 0, range))));
    }
    std::vector<LD> sp;
    if (kD[d].fl)
        sp = {(LD)NAN, (LD)INFINITY, -(LD)INFINITY, 0.0L,          -0.0L,
              1.0L,    -1.0L,        max_finite(d), -max_finite(d)};
    else sp = {int_min(d), int_max(d), 0, 1, kD[d].sgn ? -1.0L : 2.0L};
    for (size_t i = 3, k = 0; i < n; i += every, k++) v[i] = sp[k % sp.size()];
    if (!has_inf(d))
        for (auto &x : v)
            if (std::isinf(x)) x = std::copysign(max_finite(d), x);
    return v;
}

// ---- Buffers and launches ---------------------------------------------------

enum class Backend { Host, Cuda };
enum class Mode { Host, Cuda, CudaVsHost };

#if MT_EXEC_CUDA
void cuda_check(cudaError_t e, const char *what) {
    if (e != cudaSuccess)
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
#endif

struct Registered {
    Registered() { mytriton_exec_dtypes_register_kernels(); }
};
void ensure_registered() { static Registered r; }

constexpr size_t kGuard = 32;    // guard bytes after each output
constexpr uint8_t kFill = 0xA5;  // initial contents of outputs

// Typed buffers of one launch, on one backend.
class Runner {
  public:
    explicit Runner(Backend b) : backend_(b) {}
    Runner(const Runner &) = delete;
    Runner &operator=(const Runner &) = delete;
    ~Runner() {
#if MT_EXEC_CUDA
        for (auto &b : bufs_)
            if (b.dev) (void)cudaFree(b.dev);
#endif
    }
    bool host() const { return backend_ == Backend::Host; }

    // An input holding `v` (values of d); returns its argument slot.
    void *in(D d, const std::vector<LD> &v) {
        std::vector<uint8_t> bytes(v.size() * kD[d].bytes + kGuard, kFill);
        for (size_t i = 0; i < v.size(); i++) encode(d, v[i], &bytes[i * kD[d].bytes]);
        return add(d, v.size(), bytes);
    }
    // An output of n elements (and guard bytes).
    void *out(D d, size_t n) {
        return add(d, n, std::vector<uint8_t>(n * kD[d].bytes + kGuard, kFill));
    }
    // The values an output holds; its guard bytes must be intact.
    std::vector<LD> get(void *slot) {
        for (auto &b : bufs_) {
            if (&b.ptr != slot) continue;
            std::vector<uint8_t> bytes(b.host.size());
            if (b.dev) {
#if MT_EXEC_CUDA
                cuda_check(cudaMemcpy(bytes.data(), b.dev, bytes.size(), cudaMemcpyDeviceToHost),
                           "cudaMemcpy");
#endif
            } else {
                bytes = b.host;
            }
            size_t data = b.n * kD[b.d].bytes;
            for (size_t i = data; i < bytes.size(); i++)
                if (bytes[i] != kFill) {
                    ADD_FAILURE() << "a store wrote past the end of an output";
                    break;
                }
            std::vector<LD> v(b.n);
            for (size_t i = 0; i < b.n; i++) v[i] = decode(b.d, &bytes[i * kD[b.d].bytes]);
            return v;
        }
        throw std::logic_error("get() of an unknown buffer");
    }
    // Launches dt_<name> with args (pointers: slots from in/out; scalars:
    // pointers to their values).
    void launch(const std::string &name, std::vector<void *> args,
                const mytriton_grid *grid = nullptr) {
        ensure_registered();
        std::string full = "dt_" + name;
        int st =
            mytriton_launch(full.c_str(), host() ? "host" : "cuda", nullptr, args.data(), grid);
        if (st != 0)
            throw std::runtime_error(full + ": launch returned " + std::to_string(st) + " (" +
                                     mytriton_last_error() + ")");
#if MT_EXEC_CUDA
        if (!host()) cuda_check(cudaDeviceSynchronize(), full.c_str());
#endif
    }

  private:
    struct Buf {
        D d;
        size_t n;
        std::vector<uint8_t> host;
        void *dev;
        void *ptr;  // the argument: host.data() or dev
    };
    void *add(D d, size_t n, std::vector<uint8_t> bytes) {
        bufs_.push_back(Buf{d, n, std::move(bytes), nullptr, nullptr});
        Buf &b = bufs_.back();
        b.ptr = b.host.data();
#if MT_EXEC_CUDA
        if (!host()) {
            cuda_check(cudaMalloc(&b.dev, b.host.size()), "cudaMalloc");
            cuda_check(cudaMemcpy(b.dev, b.host.data(), b.host.size(), cudaMemcpyHostToDevice),
                       "cudaMemcpy");
            b.ptr = b.dev;
        }
#endif
        return &b.ptr;
    }
    Backend backend_;
    std::list<Buf> bufs_;
};

// ---- Comparison ---------------------------------------------------------------

struct Tol {
    LD rel, abs;     // the host backend against the reference
    LD crel, cabs;   // the CUDA backend against the reference or the host backend
    bool host_only;  // a result Triton leaves undefined: the host backend's documented pick
};
constexpr Tol kExact{0, 0, 0, 0, false};
constexpr Tol kHostOnly{0, 0, 0, 0, true};
// f32 exp, log, sin, ...: the C library (<= 1 ulp) and CUDA (<= 2 ulp; -O2:
// ex2.approx after a scale, sqrt.approx, rsqrt.approx), against a
// correctly rounded reference; absolute near the zeros of sin, cos, log
constexpr Tol kMathF32{4e-6L, 1e-6L, 4e-6L, 1e-6L, false};
constexpr Tol kMathF64{1e-14L, 1e-14L, 1e-14L, 1e-14L, false};
// exact on the host; CUDA's f32 '/' and '%' may be Triton's approximations (-O2)
constexpr Tol kDivF32{0, 0, 3e-7L, 1e-30L, false};

struct Plane {
    std::string name;
    std::vector<LD> v;
    Tol tol;
};
using Planes = std::vector<Plane>;

bool same(LD got, LD want, LD rel, LD abs) {
    if (std::isnan(got) || std::isnan(want)) return std::isnan(got) && std::isnan(want);
    if (rel == 0 && abs == 0) return got == want && std::signbit(got) == std::signbit(want);
    if (std::isinf(got) || std::isinf(want)) return got == want;
    return std::fabs(got - want) <= abs + rel * std::fmax(std::fabs(got), std::fabs(want));
}

void compare(const std::string &what, const Planes &got, const Planes &want, bool cuda) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (size_t p = 0; p < got.size(); p++) {
        const Tol &t = want[p].tol;
        if (cuda && t.host_only) continue;
        const auto &g = got[p].v, &w = want[p].v;
        ASSERT_EQ(g.size(), w.size()) << what << ": " << want[p].name;
        size_t bad = 0;
        LD rel = cuda ? t.crel : t.rel, abs = cuda ? t.cabs : t.abs;
        for (size_t i = 0; i < g.size(); i++) {
            if (same(g[i], w[i], rel, abs)) continue;
            if (++bad <= 5)
                ADD_FAILURE() << what << ": " << want[p].name << "[" << i << "] = " << (double)g[i]
                              << ", expected " << (double)w[i] << " (tolerance rel " << (double)rel
                              << ", abs " << (double)abs << ")";
        }
        if (bad > 5)
            ADD_FAILURE() << what << ": " << want[p].name << ": " << bad << " mismatches of "
                          << g.size();
    }
}

using Run = std::function<Planes(Runner &)>;

void verify(Mode mode, const Run &run, const Planes &ref) {
    auto on = [&](Backend b) {
        Runner r(b);
        Planes p = run(r);
        for (size_t i = 0; i < p.size() && i < ref.size(); i++) p[i].tol = ref[i].tol;
        return p;
    };
    switch (mode) {
    case Mode::Host: compare("host", on(Backend::Host), ref, false); break;
    case Mode::Cuda: compare("cuda", on(Backend::Cuda), ref, true); break;
    case Mode::CudaVsHost:
        compare("cuda vs host", on(Backend::Cuda), on(Backend::Host), true);
        break;
    }
}

// Splits an output of k planes of n elements.
Planes planes(const std::vector<LD> &all, size_t n, const std::vector<std::string> &names) {
    Planes p;
    for (size_t k = 0; k < names.size(); k++)
        p.push_back(
            {names[k], std::vector<LD>(all.begin() + k * n, all.begin() + (k + 1) * n), kExact});
    return p;
}

}  // namespace

#if MT_EXEC_CUDA
#define MT_NEED_GPU() MT_SKIP_WITHOUT_GPU()
#define MT_CUDA_CASES(name)            \
    TEST(CudaDtypes, name) {           \
        MT_NEED_GPU();                 \
        name##_case(Mode::Cuda);       \
    }                                  \
    TEST(CudaVsHostDtypes, name) {     \
        MT_NEED_GPU();                 \
        name##_case(Mode::CudaVsHost); \
    }
#else
#define MT_CUDA_CASES(name)
#endif
#define DTYPE_CASE(name)                                \
    static void name##_case(Mode mode);                 \
    TEST(HostDtypes, name) { name##_case(Mode::Host); } \
    MT_CUDA_CASES(name)                                 \
    static void name##_case(Mode mode)

#define TRACE(expr) SCOPED_TRACE(::testing::Message() << expr)

namespace {

// Exact arithmetic of dtype d: integers wrap; floats round once (f32 and f64
// in their own C type; narrow floats: the exact result, rounded).
LD arith(D d, char op, LD a, LD b) {
    if (is_int(d)) {
        uint64_t x = as_u64(a), y = as_u64(b);
        return wrap_to(d, op == '+' ? x + y : op == '-' ? x - y : x * y);
    }
    if (d == F32) {
        float x = (float)a, y = (float)b;
        return op == '+' ? x + y : op == '-' ? x - y : op == '*' ? x * y : x / y;
    }
    if (d == F64) {
        double x = (double)a, y = (double)b;
        return op == '+' ? x + y : op == '-' ? x - y : op == '*' ? x * y : x / y;
    }
    return round_to(d, op == '+' ? a + b : op == '-' ? a - b : op == '*' ? a * b : a / b);
}
// tl.maximum / tl.minimum: NaN propagated (ALL) or ignored (NONE); ties give operand 1
LD tmax(LD a, LD b, bool ignore) {
    if (std::isnan(a)) return ignore ? b : a;
    if (std::isnan(b)) return ignore ? a : b;
    return a > b ? a : b;
}
LD tmin(LD a, LD b, bool ignore) {
    if (std::isnan(a)) return ignore ? b : a;
    if (std::isnan(b)) return ignore ? a : b;
    return a < b ? a : b;
}

mytriton_grid grid1(int64_t x) {
    mytriton_grid g;
    g.x = x;
    g.y = 1;
    g.z = 1;
    return g;
}

const D kArith[] = {I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64};
const D kIntOps[] = {I8, I16, I32, I64, U8, U16, U32, U64};
const D kCompare[] = {I8, U16, I64, U64, F16, BF16, F64};
const D kAll[] = {B, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, F8E4, F8E5};
const D kReduce[] = {F16, BF16, I8, U8, F32, F64, I64};

}  // namespace

// Loads (masked, with `other`), stores and + - * neg maximum minimum where
// and a weak constant, per dtype; a scalar parameter of the dtype.
DTYPE_CASE(arith) {
    for (D d : kArith) {
        for (int n : {1, 64, 200}) {
            TRACE(kD[d].sig << ", n = " << n);
            auto x = values(d, n, 11 + n, kD[d].fl ? 8 : 0),
                 y = values(d, n, 12 + n, kD[d].fl ? 8 : 0, 5);
            LD s = kD[d].fl ? 0.75L : 5;
            std::vector<std::vector<LD>> want(9, std::vector<LD>(n));
            for (int i = 0; i < n; i++) {
                LD a = x[i], b = y[i];
                want[0][i] = arith(d, '+', a, b);
                want[1][i] = arith(d, '-', a, b);
                want[2][i] = arith(d, '*', a, b);
                want[3][i] = is_int(d) ? wrap_to(d, 0 - as_u64(a)) : -a;
                want[4][i] = tmax(a, b, false);
                want[5][i] = tmin(a, b, false);
                want[6][i] = a < b ? a : arith(d, '+', b, s);
                want[7][i] = arith(d, '+', a, 3);
                want[8][i] = i % 2 == 0 ? a : 5;
            }
            std::vector<std::string> names = {"x + y",   "x - y", "x * y", "-x",        "maximum",
                                              "minimum", "where", "x + 3", "load other"};
            Planes ref;
            for (int k = 0; k < 9; k++) ref.push_back({names[k], want[k], kExact});
            std::string name = std::string("arith_") + kD[d].sig;
            verify(
                mode,
                [&](Runner &r) {
                    uint8_t sbytes[8];
                    encode(d, s, sbytes);
                    int32_t nn = n;
                    void *out = r.out(d, 9 * n);
                    r.launch(name, {r.in(d, x), r.in(d, y), out, sbytes, &nn});
                    return planes(r.get(out), n, names);
                },
                ref);
        }
    }
}

// < <= > >= == != of every kind of dtype, NaN included.
DTYPE_CASE(compare) {
    for (D d : kCompare) {
        int n = 150;
        TRACE(kD[d].sig);
        auto x = values(d, n, 21, kD[d].fl ? 4 : 3), y = values(d, n, 22, kD[d].fl ? 4 : 3, 5);
        std::vector<std::string> names = {"<", "<=", ">", ">=", "==", "!="};
        Planes ref;
        for (int k = 0; k < 6; k++) {
            std::vector<LD> w(n);
            for (int i = 0; i < n; i++) {
                LD a = x[i], b = y[i];
                w[i] = k == 0   ? a < b
                       : k == 1 ? a <= b
                       : k == 2 ? a > b
                       : k == 3 ? a >= b
                       : k == 4 ? a == b
                                : a != b;
            }
            ref.push_back({names[k], w, kExact});
        }
        std::string name = std::string("compare_") + kD[d].sig;
        verify(
            mode,
            [&](Runner &r) {
                int32_t nn = n;
                void *out = r.out(I8, 6 * n);
                r.launch(name, {r.in(d, x), r.in(d, y), out, &nn});
                return planes(r.get(out), n, names);
            },
            ref);
    }
}

namespace {
// '//' and '%' as Triton (truncation) and the host backend's picks where
// Triton's result is undefined: x // 0 all ones, x % 0 = x, MIN // -1 = MIN.
LD idiv(D d, LD a, LD b) {
    if (b == 0) return kD[d].sgn ? -1 : int_max(d);
    if (kD[d].sgn && b == -1) return wrap_to(d, 0 - as_u64(a));
    if (kD[d].sgn) return (LD)((int64_t)a / (int64_t)b);
    return (LD)((uint64_t)a / (uint64_t)b);
}
LD imod(D d, LD a, LD b) {
    if (b == 0) return a;
    if (kD[d].sgn && b == -1) return 0;
    if (kD[d].sgn) return (LD)((int64_t)a % (int64_t)b);
    return (LD)((uint64_t)a % (uint64_t)b);
}
Planes int_ops_ref(D d, const std::vector<LD> &x, const std::vector<LD> &y, bool undefined) {
    size_t n = x.size();
    std::vector<std::string> names = {"//", "%", "<<", ">>",  "&",
                                      "|",  "^", "~",  "abs", "x // y * y + x % y"};
    std::vector<std::vector<LD>> w(10, std::vector<LD>(n));
    for (size_t i = 0; i < n; i++) {
        LD a = x[i], b = y[i];
        uint64_t ua = as_u64(a), ub = as_u64(b);
        int sh = (int)(ub & 7);
        w[0][i] = idiv(d, a, b);
        w[1][i] = imod(d, a, b);
        w[2][i] = wrap_to(d, ua << sh);
        w[3][i] = kD[d].sgn ? std::floor(a / std::ldexp((LD)1, sh)) : (LD)(ua >> sh);
        w[4][i] = wrap_to(d, ua & ub);
        w[5][i] = wrap_to(d, ua | ub);
        w[6][i] = wrap_to(d, ua ^ ub);
        w[7][i] = wrap_to(d, ~ua);
        w[8][i] = kD[d].sgn && a < 0 ? wrap_to(d, 0 - ua) : a;
        w[9][i] = a;
    }
    Planes ref;
    for (int k = 0; k < 10; k++)
        ref.push_back({names[k], w[k], undefined && (k == 0 || k == 1) ? kHostOnly : kExact});
    return ref;
}
}  // namespace

// // % << >> & | ^ ~ abs on negative and extreme values of every integer dtype.
DTYPE_CASE(int_ops) {
    for (D d : kIntOps) {
        int n = 200;
        TRACE(kD[d].sig);
        auto x = values(d, n, 31, 0);
        // divisors: small, of both signs, never 0, never -1 under MIN
        auto y = values(d, n, 32, 9, 1000);
        for (int i = 0; i < n; i++) {
            if (y[i] == 0) y[i] = 3;
            if (kD[d].sgn && y[i] == -1 && x[i] == int_min(d)) y[i] = 7;
            if (i % 11 == 5) y[i] = kD[d].sgn ? -1 : 1;
            if (i % 13 == 6) y[i] = kD[d].sgn ? -8 : 8;
        }
        std::string name = std::string("int_ops_") + kD[d].sig;
        auto run = [&](const std::vector<LD> &yy) {
            return [&, yy](Runner &r) {
                int32_t nn = n;
                void *out = r.out(d, 10 * n);
                r.launch(name, {r.in(d, x), r.in(d, yy), out, &nn});
                return planes(
                    r.get(out), n,
                    {"//", "%", "<<", ">>", "&", "|", "^", "~", "abs", "x // y * y + x % y"});
            };
        };
        verify(mode, run(y), int_ops_ref(d, x, y, false));
        if (mode != Mode::Host) continue;
        // what Triton leaves undefined: division by zero, MIN // -1
        auto y0 = y;
        for (int i = 0; i < n; i += 3) y0[i] = 0;
        for (int i = 1; i < n; i += 3) y0[i] = kD[d].sgn ? -1 : 0;
        auto x0 = x;
        for (int i = 1; i < n; i += 6) x0[i] = int_min(d);
        x = x0;
        verify(mode, run(y0), int_ops_ref(d, x0, y0, true));
    }
}

namespace {
// Values that casts treat specially: NaN, infinities, signed zeros, the
// limits of every integer dtype and beyond, halfway cases of every float
// dtype and of integer truncation, overflow and underflow thresholds.
std::vector<LD> edge_values() {
    std::vector<LD> v = {
        NAN,           INFINITY,      -INFINITY,      0.0L,          -0.0L,     0.5L,   -0.5L,
        1.5L,          2.5L,          -2.5L,          127.5L,        -128.5L,   255.5L, 300.5L,
        -300.5L,       32767.9L,      -32768.5L,      65504,         65519.99L, 65520,  65535.5L,
        2147483520.0L, 2147483648.0L, -2147483904.0L, 4294967296.0L, 1e10L,     -1e10L, 9.3e18L,
        -9.3e18L,      2e19L,         1e30L,          3e38L,         -3e38L,    1e300L, 0x1p-24L,
        0x1p-25L,      0x3p-26L,      1e-40L,         1e-310L,       448,       464,    480,
        57344,         61440,         65536};
    for (int m :
         {10, 7, 3, 2, 23}) {  // halfway between two values of a mantissa of m bits, and beside it
        v.push_back(1 + std::ldexp((LD)1, -m - 1));
        v.push_back(1 + std::ldexp((LD)3, -m - 1));
        v.push_back(1 + std::ldexp((LD)1, -m - 1) + std::ldexp((LD)1, -m - 20));
        v.push_back(-(1 + std::ldexp((LD)3, -m - 1)));
    }
    const LD ints[] = {1,
                       -1,
                       2,
                       127,
                       128,
                       -128,
                       -129,
                       255,
                       256,
                       32767,
                       32768,
                       -32768,
                       -32769,
                       65535,
                       65536,
                       2147483647.0L,
                       2147483648.0L,
                       -2147483648.0L,
                       4294967295.0L,
                       2049,
                       2051,
                       16777217,
                       16777219,
                       16842753,
                       9007199254740993.0L,
                       9223372036854775807.0L,
                       -9223372036854775808.0L,
                       18446744073709551615.0L,
                       4629700416936869889.0L};
    for (LD i : ints) v.push_back(i);
    return v;
}
}  // namespace

// x.to(dtype) from every dtype to every dtype: random bits and edge values.
DTYPE_CASE(cast) {
    for (D from : kAll) {
        TRACE("from " << kD[from].sig);
        std::vector<LD> x;
        for (LD e : edge_values()) {
            LD v;
            if (is_int(from)) {
                if (std::isnan(e) || std::isinf(e) || e != std::trunc(e) || std::fabs(e) >= 0x1p64L)
                    continue;
                v = from == B ? (LD)(e != 0)
                              : wrap_to(from, e < 0 ? (uint64_t)(int64_t)e : (uint64_t)e);
            } else {
                v = round_to(from, e);
            }
            x.push_back(v);
        }
        Rng rng(40 + from);
        for (int i = 0; i < 200; i++) {
            uint8_t b[8];
            uint64_t u = rng.next();
            std::memcpy(b, &u, 8);
            if (from == B) b[0] &= 1;
            x.push_back(decode(from, b));
        }
        // Left out, each a documented open point: an f64 NaN to an integer
        // (the GPU's cvt.rzi.*.f64 gives the smallest value; not yet compared
        // with Triton), and an fp8e5 infinity (a CUDA fp8 store saturates;
        // Triton copies the bits).
        x.erase(std::remove_if(x.begin(), x.end(),
                               [&](LD v) {
                                   return (from == F64 && std::isnan(v)) ||
                                          (from == F8E5 && std::isinf(v));
                               }),
                x.end());
        int n = (int)x.size();
        std::vector<std::string> names;
        Planes ref;
        for (D to : kAll) {
            std::vector<LD> w(n);
            for (int i = 0; i < n; i++) w[i] = cast(from, to, x[i]);
            names.push_back(std::string("to ") + kD[to].sig);
            ref.push_back({names.back(), w, kExact});
        }
        std::string name = std::string("cast_") + kD[from].sig;
        verify(
            mode,
            [&](Runner &r) {
                int32_t nn = n;
                std::vector<void *> args = {r.in(from, x)};
                std::vector<void *> outs;
                for (D to : kAll) outs.push_back(r.out(to, n)), args.push_back(outs.back());
                args.push_back(&nn);
                r.launch(name, args);
                Planes got;
                for (size_t k = 0; k < outs.size(); k++)
                    got.push_back({names[k], r.get(outs[k]), kExact});
                return got;
            },
            ref);
    }
}

// exp exp2 log log2 sqrt rsqrt sin cos erf floor ceil abs fma / % sigmoid in f32 and f64.
DTYPE_CASE(math) {
    for (D d : {F32, F64}) {
        int n = 300;
        TRACE(kD[d].sig);
        auto x = values(d, n, 51, 8), y = values(d, n, 52, 8, 5);
        auto rd = [&](LD v) { return d == F32 ? (LD)(float)v : (LD)(double)v; };
        Tol m = d == F32 ? kMathF32 : kMathF64;
        std::vector<std::string> names = {"exp", "exp2", "log", "log2",   "sqrt", "rsqrt",
                                          "sin", "cos",  "erf", "floor",  "ceil", "abs",
                                          "fma", "/",    "%",   "sigmoid"};
        std::vector<Tol> tols = {m,
                                 m,
                                 m,
                                 m,
                                 m,
                                 m,
                                 m,
                                 m,
                                 m,
                                 kExact,
                                 kExact,
                                 kExact,
                                 kExact,
                                 d == F32 ? kDivF32 : kExact,
                                 d == F32 ? kDivF32 : kExact,
                                 m};
        std::vector<std::vector<LD>> w(16, std::vector<LD>(n));
        for (int i = 0; i < n; i++) {
            LD a = x[i], b = y[i];
            w[0][i] = rd(std::exp(a));
            w[1][i] = rd(std::exp2(a));
            w[2][i] = rd(std::log(a));
            w[3][i] = rd(std::log2(a));
            w[4][i] = rd(std::sqrt(a));
            w[5][i] = rd(1 / std::sqrt(a));
            w[6][i] = rd(std::sin(a));
            w[7][i] = rd(std::cos(a));
            w[8][i] = rd(std::erf(a));
            w[9][i] = std::floor(a);
            w[10][i] = std::ceil(a);
            w[11][i] = std::fabs(a);
            w[12][i] = d == F32 ? (LD)std::fma((float)a, (float)b, (float)a)
                                : (LD)std::fma((double)a, (double)b, (double)a);
            w[13][i] = arith(d, '/', a, b);
            w[14][i] = std::fmod(a, b);  // exact
            w[15][i] = rd(1 / (1 + std::exp(-a)));
        }
        Planes ref;
        for (int k = 0; k < 16; k++) ref.push_back({names[k], w[k], tols[k]});
        std::string name = std::string("math_") + kD[d].sig;
        verify(
            mode,
            [&](Runner &r) {
                int32_t nn = n;
                void *out = r.out(d, 16 * n);
                r.launch(name, {r.in(d, x), r.in(d, y), out, &nn});
                return planes(r.get(out), n, names);
            },
            ref);
    }
}

// tl.maximum / tl.minimum with NaN propagated and ignored; sqrt_rn, div_rn.
DTYPE_CASE(nan) {
    int n = 200;
    auto x = values(F32, n, 61, 4), y = values(F32, n, 62, 4, 5);
    std::vector<std::string> names = {"maximum ALL",  "minimum ALL", "maximum NONE",
                                      "minimum NONE", "sqrt_rn",     "div_rn"};
    std::vector<std::vector<LD>> w(6, std::vector<LD>(n));
    for (int i = 0; i < n; i++) {
        LD a = x[i], b = y[i];
        w[0][i] = tmax(a, b, false);
        w[1][i] = tmin(a, b, false);
        w[2][i] = tmax(a, b, true);
        w[3][i] = tmin(a, b, true);
        w[4][i] = std::sqrt((float)a);
        w[5][i] = (float)a / (float)b;
    }
    Planes ref;
    for (int k = 0; k < 6; k++) ref.push_back({names[k], w[k], kExact});
    verify(
        mode,
        [&](Runner &r) {
            int32_t nn = n;
            void *out = r.out(F32, 6 * n);
            r.launch("nan_fp32", {r.in(F32, x), r.in(F32, y), out, &nn});
            return planes(r.get(out), n, names);
        },
        ref);
}

// tl.sum (f16: each partial rounded, in the CUDA backend's tree order;
// bf16 in f32, as Triton; 8-bit integers: in 32 bits), tl.max and tl.min (NaN ignored).
DTYPE_CASE(reduce) {
    const int block = 128, rows = 3;
    for (D d : kReduce) {
        for (int n : {1, 100, 128}) {
            TRACE(kD[d].sig << ", n = " << n);
            auto x = values(d, rows * n, 71 + n, kD[d].fl ? 4 : 0, 61);
            for (auto &v : x)
                if (v == 0) v = 0;  // no -0: the sign of max(+0, -0) is not specified
            std::vector<LD> w(rows * 3);
            for (int row = 0; row < rows; row++) {
                const LD *p = &x[row * n];
                std::vector<LD> a(block, 0);
                for (int i = 0; i < n; i++) a[i] = p[i];
                if (is_int(d)) {
                    uint64_t s = 0;
                    for (int i = 0; i < n; i++) s += as_u64(p[i]);
                    w[row * 3] = wrap_to(d, s);
                } else {
                    // bf16 sums in f32, as Triton's tl.sum (_promote_bfloat16_to_float32),
                    // rounded to bf16 once by the store
                    D sd = d == BF16 ? F32 : d;
                    for (int st = block / 2; st > 0; st >>= 1)
                        for (int i = 0; i < st; i++) a[i] = arith(sd, '+', a[i], a[i + st]);
                    w[row * 3] = sd == d ? a[0] : arith(d, '+', a[0], 0);
                }
                LD mx = p[0], mn = p[0];
                for (int i = 1; i < n; i++) mx = tmax(mx, p[i], true), mn = tmin(mn, p[i], true);
                w[row * 3 + 1] = mx;
                w[row * 3 + 2] = mn;
            }
            std::string name = std::string("reduce_") + kD[d].sig;
            verify(mode,
                   [&](Runner &r) {
                       int32_t nn = n;
                       void *out = r.out(d, rows * 3);
                       mytriton_grid g = grid1(rows);
                       r.launch(name, {r.in(d, x), out, &nn}, &g);
                       return Planes{{"sum max min", r.get(out), kExact}};
                   },
                   {{"sum max min", w, kExact}});
        }
    }
}

// Bitcasts f32 <-> u32, umulhi, 64-bit offsets, tl.num_programs, tl.cdiv.
DTYPE_CASE(misc) {
    for (int n : {1, 64, 130}) {
        TRACE("n = " << n);
        auto x = values(F32, n, 81, 100);
        int grid = (n + 63) / 64;
        std::vector<LD> bits(3 * n), prog(2 * grid);
        for (int i = 0; i < n; i++) {
            float f = (float)x[i];
            uint32_t u;
            std::memcpy(&u, &f, 4);
            bits[i] = u;
            bits[n + i] = u ^ 0x80000000u;
            bits[2 * n + i] = (LD)(((uint64_t)u * (uint32_t)(u + 12345u)) >> 32);
        }
        for (int p = 0; p < grid; p++) {
            prog[2 * p] = grid;
            prog[2 * p + 1] = grid + (n - p + 6) / 7;
        }
        verify(mode,
               [&](Runner &r) {
                   int32_t nn = n;
                   void *out = r.out(I32, 2 * grid), *b = r.out(U32, 3 * n);
                   r.launch("misc", {r.in(F32, x), out, b, &nn});
                   return Planes{{"bits", r.get(b), kExact}, {"programs", r.get(out), kExact}};
               },
               {{"bits", bits, kExact}, {"programs", prog, kExact}});
    }
}
