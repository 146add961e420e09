// Atomics, tl.debug_barrier and random numbers (issue 13), run through the
// generated launchers of kernels/atom.py at -O1 and -O2 and compared with
// references written here from the kernels' Python source:
//   - atomics whose final memory is order independent (integer sums,
//     max / min, bitwise ops, exact float sums of small integers), scalar
//     atomics performed once per program (a tl.sum added once, a ticket
//     counter giving each program a distinct number), atomic_xchg /
//     atomic_cas returning the old values, a rank-2 block of pointers and a
//     row block shared by the threads of a column;
//   - tl.randint / tl.randint4x bit for bit against a Philox 4x32 written
//     here (checked against Random123's known-answer vector), tl.rand bit
//     for bit, tl.randn within a tolerance (log / cos / sqrt), a dropout.
// HostO1 / HostO2 always; CudaO1 / CudaO2 with a CUDA compiler, skipped
// without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "mytriton/runtime.h"
#if MT_ATOM_EMU
#include "emu_bits_o1.h"
#include "emu_bits_o2.h"
#include "emu_dropout_o1.h"
#include "emu_dropout_o2.h"
#include "emu_global_sum_o1.h"
#include "emu_global_sum_o2.h"
#include "emu_histogram_o1.h"
#include "emu_histogram_o2.h"
#include "emu_loop_counter_o1.h"
#include "emu_loop_counter_o2.h"
#include "emu_minmax_o1.h"
#include "emu_minmax_o2.h"
#include "emu_rand_o1.h"
#include "emu_rand_o2.h"
#include "emu_randint_o1.h"
#include "emu_randint_o2.h"
#include "emu_rank2_o1.h"
#include "emu_rank2_o2.h"
#include "emu_scalar_max_o1.h"
#include "emu_scalar_max_o2.h"
#include "emu_wide_add_o1.h"
#include "emu_wide_add_o2.h"
#include "emu_xchg_cas_o1.h"
#include "emu_xchg_cas_o2.h"
#else
#include "mytriton_lang_atom_o1.h"
#include "mytriton_lang_atom_o2.h"
#endif

#if MT_ATOM_CUDA
#include <cuda_runtime_api.h>
#include "../support/gpu.h"
#endif

namespace {

// ---- Buffers on the host or the device -------------------------------------

struct Mem {
    bool cuda;
    int opt;
    struct Entry {
        void *host, *dev;
        size_t bytes;
    };
    std::vector<Entry> entries;

    Mem(bool c, int o) : cuda(c), opt(o) {}
    Mem(const Mem &) = delete;
    ~Mem() {
#if MT_ATOM_CUDA
        for (auto &e : entries)
            if (e.dev) cudaFree(e.dev);
#endif
    }
    // A pointer for the launcher to v's elements (copied to the device).
    template <class T>
    T *put(std::vector<T> &v) {
        Entry e{v.data(), v.data(), v.size() * sizeof(T)};
#if MT_ATOM_CUDA
        if (cuda) {
            EXPECT_EQ(cudaMalloc(&e.dev, e.bytes ? e.bytes : 1), cudaSuccess);
            EXPECT_EQ(cudaMemcpy(e.dev, e.host, e.bytes, cudaMemcpyHostToDevice), cudaSuccess);
        }
#endif
        entries.push_back(e);
        return static_cast<T *>(e.dev);
    }
    // After the launch: the buffers back into their vectors.
    void get() {
#if MT_ATOM_CUDA
        if (cuda) {
            EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
            for (auto &e : entries)
                EXPECT_EQ(cudaMemcpy(e.host, e.dev, e.bytes, cudaMemcpyDeviceToHost), cudaSuccess);
        }
#endif
    }
};

#if MT_ATOM_CUDA
#define MT_CUDA_LAUNCH(m, name, g, ...)                              \
    ((m).opt == 1 ? (int)launch_##name##_o1(nullptr, g, __VA_ARGS__) \
                  : (int)launch_##name##_o2(nullptr, g, __VA_ARGS__))
#else
#define MT_CUDA_LAUNCH(m, name, g, ...) (-1)
#endif
// LAUNCH(m, case, grid, args...): 0 on success.
#if MT_ATOM_EMU
#define LAUNCH(m, name, g, ...)                                          \
    ((m).opt == 1 ? (int)launch_emu_##name##_o1(nullptr, g, __VA_ARGS__) \
                  : (int)launch_emu_##name##_o2(nullptr, g, __VA_ARGS__))
#else
#define LAUNCH(m, name, g, ...)                                                \
    (!(m).cuda ? ((m).opt == 1 ? (int)launch_##name##_o1_host(g, __VA_ARGS__)  \
                               : (int)launch_##name##_o2_host(g, __VA_ARGS__)) \
               : MT_CUDA_LAUNCH(m, name, g, __VA_ARGS__))
#endif

mytriton_grid grid1(int64_t x) {
    mytriton_grid g;
    g.x = x;
    g.y = 1;
    g.z = 1;
    return g;
}

struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 77) {}
    uint64_t next() {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    int32_t in(int64_t lo, int64_t hi) {
        return (int32_t)(lo + (int64_t)(next() % (uint64_t)(hi - lo + 1)));
    }
    float uniform(float lo, float hi) { return lo + (hi - lo) * (float)((next() >> 40) * 0x1p-24); }
};

// ---- Philox 4x32 as triton/language/random.py writes it ---------------------

uint32_t umulhi(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }

void philox(int32_t seed, uint32_t c[4], int rounds) {
    uint64_t s = (uint64_t)(int64_t)seed;  // seed.to(tl.uint64): sign-extended
    uint32_t k0 = (uint32_t)(s & 0xffffffffu), k1 = (uint32_t)(s >> 32);
    for (int r = 0; r < rounds; r++) {
        uint32_t c0 = c[0], c2 = c[2];
        c[0] = umulhi(0xCD9E8D57u, c2) ^ c[1] ^ k0;
        c[2] = umulhi(0xD2511F53u, c0) ^ c[3] ^ k1;
        c[1] = 0xCD9E8D57u * c2;
        c[3] = 0xD2511F53u * c0;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
}

void randint4x(int32_t seed, int32_t offset, uint32_t out[4], int rounds = 10) {
    out[0] = (uint32_t)offset;
    out[1] = out[2] = out[3] = 0;
    philox(seed, out, rounds);
}

// uint_to_uniform_float: as signed, where(x < 0, -x - 1, x) * 4.6566127342e-10 in f32
float uniform(uint32_t bits) {
    int32_t x = (int32_t)bits;
    if (x < 0) x = (int32_t)(0u - (uint32_t)x - 1u);
    return (float)x * 4.6566127342e-10f;
}

float normal(uint32_t i1, uint32_t i2) {
    float u1 = std::max(1.0e-7f, uniform(i1)), u2 = uniform(i2);
    float th = 6.283185307179586f * u2;
    float r = std::sqrt(-2.0f * std::log(u1));
    return r * std::cos(th);
}

uint32_t f32_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

TEST(HostReference, PhiloxRandom123KnownAnswer) {
    // Philox4x32-10, counter 0 and key 0 (Random123's kat_vectors)
    uint32_t c[4] = {0, 0, 0, 0};
    philox(0, c, 10);
    EXPECT_EQ(c[0], 0x6627e8d5u);
    EXPECT_EQ(c[1], 0xe169c58du);
    EXPECT_EQ(c[2], 0xbc57ac4cu);
    EXPECT_EQ(c[3], 0x9b00dbd8u);
}

// ---- fp16 / bf16 bits ----------------------------------------------------------

uint16_t f16_of_int(int v) {  // small non-negative integers only
    if (v == 0) return 0;
    int e = 0;
    while ((1 << (e + 1)) <= v) e++;
    uint32_t mant = (uint32_t)(v - (1 << e)) << (10 - e);
    return (uint16_t)(((e + 15) << 10) | mant);
}
int int_of_f16(uint16_t h) {
    int e = (h >> 10) & 31, m = h & 1023;
    if (e == 0) return 0;
    return (int)std::ldexp(1.0 + m / 1024.0, e - 15);
}
int int_of_bf16(uint16_t b) {
    uint32_t u = (uint32_t)b << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return (int)f;
}

// ---- The cases ---------------------------------------------------------------

void histogram_case(bool cuda, int opt) {
    const int n = 1000, nb = 16;
    Rng r(1);
    std::vector<int32_t> x(n), bins(nb + 4, 0), ref(nb + 4, 0);
    for (auto &v : x) v = r.in(0, 999);
    for (int i = 0; i < n; i++) ref[x[i] % nb]++;
    Mem m(cuda, opt);
    int32_t *px = m.put(x), *pb = m.put(bins);
    ASSERT_EQ(LAUNCH(m, histogram, grid1((n + 127) / 128), px, pb, n), 0);
    m.get();
    EXPECT_EQ(bins, ref);
}

void global_sum_case(bool cuda, int opt) {
    const int n = 1000, block = 64, programs = (n + block - 1) / block;
    Rng r(2);
    std::vector<int32_t> x(n), sum{5}, counter{0}, tickets(programs * block, -1);
    int64_t total = 5;
    for (auto &v : x) total += (v = r.in(-100, 100));
    Mem m(cuda, opt);
    int32_t *px = m.put(x), *ps = m.put(sum), *pc = m.put(counter), *pt = m.put(tickets);
    ASSERT_EQ(LAUNCH(m, global_sum, grid1(programs), px, ps, pc, pt, n), 0);
    m.get();
    EXPECT_EQ(sum[0], total) << "each program adds its tl.sum once";
    EXPECT_EQ(counter[0], programs);
    std::set<int32_t> seen;
    for (int p = 0; p < programs; p++) {
        for (int k = 0; k < block; k++)
            ASSERT_EQ(tickets[p * block + k], tickets[p * block]) << "one old value per program";
        seen.insert(tickets[p * block]);
    }
    EXPECT_EQ((int)seen.size(), programs);
    EXPECT_EQ(*seen.begin(), 0);
    EXPECT_EQ(*seen.rbegin(), programs - 1);
}

void minmax_case(bool cuda, int opt) {
    const int n = 1000;
    Rng r(3);
    std::vector<int32_t> xi(n);
    std::vector<float> xf(n);
    for (auto &v : xi) v = r.in(-2000000000, 2000000000);
    for (auto &v : xf) v = r.uniform(-100.0f, 100.0f);
    // (no -0.0: Triton's lowering takes it for a value >= 0, a signed min of
    // its bits, INT_MIN, which replaces a negative minimum when it comes last)
    xf[13] = 0.0f;
    std::vector<int32_t> imax(8, std::numeric_limits<int32_t>::min()),
        imin(8, std::numeric_limits<int32_t>::max());
    std::vector<float> fmax(8, -INFINITY), fmin(8, INFINITY);
    fmax[7] = 1000.0f;  // larger than every input: stays
    fmin[6] = -1000.0f;
    auto rimax = imax, rimin = imin;
    auto rfmax = fmax, rfmin = fmin;
    for (int i = 0; i < n; i++) {
        int k = i % 8;
        rimax[k] = std::max(rimax[k], xi[i]);
        rimin[k] = std::min(rimin[k], xi[i]);
        if (xf[i] > rfmax[k]) rfmax[k] = xf[i];
        if (xf[i] < rfmin[k]) rfmin[k] = xf[i];
    }
    Mem m(cuda, opt);
    int32_t *pxi = m.put(xi), *pa = m.put(imax), *pb = m.put(imin);
    float *pxf = m.put(xf), *pc = m.put(fmax), *pd = m.put(fmin);
    ASSERT_EQ(LAUNCH(m, minmax, grid1((n + 127) / 128), pxi, pxf, pa, pb, pc, pd, n), 0);
    m.get();
    EXPECT_EQ(imax, rimax);
    EXPECT_EQ(imin, rimin);
    EXPECT_EQ(fmax, rfmax);
    EXPECT_EQ(fmin, rfmin);
}

void scalar_max_case(bool cuda, int opt) {
    const int n = 1000;
    Rng r(4);
    std::vector<float> x(n), out{-INFINITY, INFINITY};
    for (auto &v : x) v = r.uniform(-50.0f, 10.0f);
    float mx = *std::max_element(x.begin(), x.end()), mn = *std::min_element(x.begin(), x.end());
    Mem m(cuda, opt);
    float *px = m.put(x), *po = m.put(out);
    ASSERT_EQ(LAUNCH(m, scalar_max, grid1((n + 127) / 128), px, po, n), 0);
    m.get();
    EXPECT_EQ(out[0], mx);
    EXPECT_EQ(out[1], mn);
}

void xchg_cas_case(bool cuda, int opt) {
    const int n = 320;  // a multiple of BLOCK: atomic_cas has no mask
    Rng r(5);
    std::vector<int32_t> a(n), b(n), old_a(n, 7), old_b(n, 7);
    for (auto &v : a) v = r.in(-1000, 1000);
    for (auto &v : b) v = r.in(-1000, 1000);
    auto a0 = a, b0 = b;
    Mem m(cuda, opt);
    int32_t *pa = m.put(a), *pb = m.put(b), *poa = m.put(old_a), *pob = m.put(old_b);
    ASSERT_EQ(LAUNCH(m, xchg_cas, grid1((n + 63) / 64), pa, pb, poa, pob, n), 0);
    m.get();
    for (int i = 0; i < n; i++) {
        EXPECT_EQ(old_a[i], a0[i]) << i;
        EXPECT_EQ(a[i], i * 10) << i;
        EXPECT_EQ(old_b[i], b0[i]) << i;
        EXPECT_EQ(b[i], b0[i] % 2 == 0 ? -b0[i] : b0[i]) << i;
    }
}

void bits_case(bool cuda, int opt) {
    const int n = 200;
    Rng r(6);
    std::vector<uint64_t> x(n), and_(4, ~0ull), or_(4, 0), xor_(4, 0x5555ull);
    for (auto &v : x) v = r.next() | r.next();
    auto ra = and_, ro = or_, rx = xor_;
    for (int i = 0; i < n; i++) ra[i % 4] &= x[i], ro[i % 4] |= x[i], rx[i % 4] ^= x[i];
    Mem m(cuda, opt);
    uint64_t *px = m.put(x), *pa = m.put(and_), *po = m.put(or_), *pr = m.put(xor_);
    ASSERT_EQ(LAUNCH(m, bits, grid1((n + 63) / 64), px, pa, po, pr, n), 0);
    m.get();
    EXPECT_EQ(and_, ra);
    EXPECT_EQ(or_, ro);
    EXPECT_EQ(xor_, rx);
}

void wide_add_case(bool cuda, int opt) {
    const int n = 500;
    Rng r(7);
    std::vector<int32_t> x(n);
    for (auto &v : x) v = r.in(-1000, 1000);
    std::vector<double> f(4, 0.25);
    std::vector<int64_t> i64(4, 0);
    std::vector<uint32_t> u32(4, 0xfffffff0u);
    auto rf = f;
    auto ri = i64;
    auto ru = u32;
    for (int i = 0; i < n; i++) {
        rf[i % 4] += x[i] * 0.5;
        ri[i % 4] += (int64_t)x[i] * 1000000000;
        ru[i % 4] += (uint32_t)x[i];
    }
    Mem m(cuda, opt);
    int32_t *px = m.put(x);
    double *pf = m.put(f);
    int64_t *pi = m.put(i64);
    uint32_t *pu = m.put(u32);
    ASSERT_EQ(LAUNCH(m, wide_add, grid1((n + 63) / 64), px, pf, pi, pu, n), 0);
    m.get();
    EXPECT_EQ(f, rf);
    EXPECT_EQ(i64, ri);
    EXPECT_EQ(u32, ru);
}

#if !MT_ATOM_EMU
void fp16_add_case(bool cuda, int opt) {
    const int n = 200;
    Rng r(8);
    std::vector<int> xs(n);
    std::vector<mytriton_fp16> x(n);
    std::vector<mytriton_fp16> acc(4);
    std::vector<mytriton_bf16> bacc(4);
    int ref[4] = {1, 1, 1, 1};
    for (int k = 0; k < 4; k++) acc[k].bits = f16_of_int(1), bacc[k].bits = 0x3f80;  // 1.0
    for (int i = 0; i < n; i++) {
        xs[i] = r.in(0, 3);
        x[i].bits = f16_of_int(xs[i]);
        ref[i % 4] += xs[i];
    }
    Mem m(cuda, opt);
    mytriton_fp16 *px = m.put(x), *pa = m.put(acc);
    mytriton_bf16 *pb = m.put(bacc);
    ASSERT_EQ(LAUNCH(m, fp16_add, grid1((n + 63) / 64), px, pa, pb, n), 0);
    m.get();
    for (int k = 0; k < 4; k++) {
        EXPECT_EQ(int_of_f16(acc[k].bits), ref[k]) << k;
        EXPECT_EQ(int_of_bf16(bacc[k].bits), ref[k]) << k;  // <= 256: exact in bf16
    }
}

#endif

void loop_counter_case(bool cuda, int opt) {
    const int programs = 6, iters = 5, block = 32;
    std::vector<int32_t> counter{0}, out(programs * block, -1);
    Mem m(cuda, opt);
    int32_t *pc = m.put(counter), *po = m.put(out);
    ASSERT_EQ(LAUNCH(m, loop_counter, grid1(programs), pc, po, iters), 0);
    m.get();
    EXPECT_EQ(counter[0], programs * iters);
    int64_t total = 0;
    for (int p = 0; p < programs; p++) {
        for (int k = 0; k < block; k++) ASSERT_EQ(out[p * block + k], out[p * block]);
        total += out[p * block];
    }
    EXPECT_EQ(total, (int64_t)programs * iters * (programs * iters - 1) / 2);
}

void rank2_case(bool cuda, int opt) {
    const int BM = 4, BN = 16, programs = 5;
    std::vector<int32_t> bins(BM * BN, 0), rows(BN, 0), old(programs * BM * BN, -1);
    Mem m(cuda, opt);
    int32_t *pb = m.put(bins), *pr = m.put(rows), *po = m.put(old);
    ASSERT_EQ(LAUNCH(m, rank2, grid1(programs), pb, pr, po), 0);
    m.get();
    for (int i = 0; i < BM; i++)
        for (int j = 0; j < BN; j++) EXPECT_EQ(bins[i * BN + j], programs * (i + j));
    for (int j = 0; j < BN; j++) {
        EXPECT_EQ(rows[j], programs) << "each element of the row block once per program";
        std::set<int32_t> seen;
        for (int p = 0; p < programs; p++) {
            for (int i = 0; i < BM; i++)
                ASSERT_EQ(old[(p * BM + i) * BN + j], old[p * BM * BN + j]);
            seen.insert(old[p * BM * BN + j]);
        }
        EXPECT_EQ((int)seen.size(), programs);
        EXPECT_EQ(*seen.rbegin(), programs - 1);
    }
}

void randint_case(bool cuda, int opt) {
    const int n = 300;
    for (int32_t seed : {12345, -7, 0}) {
        std::vector<uint32_t> out(n), out4(4 * n);
        Mem m(cuda, opt);
        uint32_t *po = m.put(out), *p4 = m.put(out4);
        ASSERT_EQ(LAUNCH(m, randint, grid1((n + 63) / 64), po, p4, seed, n), 0);
        m.get();
        for (int i = 0; i < n; i++) {
            uint32_t c[4];
            randint4x(seed, i, c);
            ASSERT_EQ(out[i], c[0]) << "seed " << seed << " offset " << i;
            randint4x(seed, i, c, 7);
            for (int k = 0; k < 4; k++)
                ASSERT_EQ(out4[4 * i + k], c[k]) << "seed " << seed << " offset " << i;
        }
    }
}

void rand_case(bool cuda, int opt) {
    const int n = 1000;
    const int32_t seed = 2024;
    std::vector<float> u(n), z(n);
    Mem m(cuda, opt);
    float *pu = m.put(u), *pz = m.put(z);
    ASSERT_EQ(LAUNCH(m, rand, grid1((n + 63) / 64), pu, pz, seed, n), 0);
    m.get();
    for (int i = 0; i < n; i++) {
        uint32_t c[4];
        randint4x(seed, i, c);
        ASSERT_EQ(f32_bits(u[i]), f32_bits(uniform(c[0]))) << i;
        ASSERT_GE(u[i], 0.0f);
        ASSERT_LT(u[i], 1.0f);
        float ref = normal(c[0], c[1]);
        ASSERT_NEAR(z[i], ref, 2e-5 * std::max(1.0f, std::fabs(ref))) << i;
    }
}

void dropout_case(bool cuda, int opt) {
    const int n = 1000;
    const int32_t seed = 99;
    const float p = 0.3f;
    Rng r(9);
    std::vector<float> x(n), out(n, -1.0f);
    for (auto &v : x) v = r.uniform(-2.0f, 2.0f);
    Mem m(cuda, opt);
    float *px = m.put(x), *po = m.put(out);
    ASSERT_EQ(LAUNCH(m, dropout, grid1((n + 63) / 64), px, po, n, p, seed), 0);
    m.get();
    int kept = 0;
    for (int i = 0; i < n; i++) {
        uint32_t c[4];
        randint4x(seed, i, c);
        bool keep = uniform(c[0]) > p;
        kept += keep;
        float ref = keep ? x[i] / (1.0f - p) : 0.0f;
        if (cuda) ASSERT_NEAR(out[i], ref, 1e-6f * std::fabs(ref)) << i;
        else ASSERT_EQ(out[i], ref) << i;
    }
    EXPECT_GT(kept, n / 2);
    EXPECT_LT(kept, n * 9 / 10);
}

}  // namespace

#if MT_ATOM_CUDA
#define MT_CUDA_CASES(name)                            \
    TEST(CudaO1, name) {                               \
        std::string why;                               \
        if (!gpu_available(&why)) GTEST_SKIP() << why; \
        name##_case(true, 1);                          \
    }                                                  \
    TEST(CudaO2, name) {                               \
        std::string why;                               \
        if (!gpu_available(&why)) GTEST_SKIP() << why; \
        name##_case(true, 2);                          \
    }
#else
#define MT_CUDA_CASES(name)
#endif
#if MT_ATOM_EMU
#define ATOM_CASE(name)                          \
    TEST(EmuO1, name) { name##_case(false, 1); } \
    TEST(EmuO2, name) { name##_case(false, 2); }
#else
#define ATOM_CASE(name)                           \
    TEST(HostO1, name) { name##_case(false, 1); } \
    TEST(HostO2, name) { name##_case(false, 2); } \
    MT_CUDA_CASES(name)
#endif

ATOM_CASE(histogram)
ATOM_CASE(global_sum)
ATOM_CASE(minmax)
ATOM_CASE(scalar_max)
ATOM_CASE(xchg_cas)
ATOM_CASE(bits)
ATOM_CASE(wide_add)
#if !MT_ATOM_EMU
ATOM_CASE(fp16_add)
#endif
ATOM_CASE(loop_counter)
ATOM_CASE(rank2)
ATOM_CASE(randint)
ATOM_CASE(rand)
ATOM_CASE(dropout)
