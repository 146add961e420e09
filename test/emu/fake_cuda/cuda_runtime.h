// A CPU emulation of the small part of CUDA that mytriton's generated code
// uses, so that the generated kernels and launchers run and are checked on
// machines without a GPU (test/emu). Each launch runs the blocks of the
// grid one after another; the threads of a block are real threads, with
// __syncthreads() a barrier and warp shuffles exchanged through memory.
// `__shared__` locals become function statics: one copy, shared by the
// threads of the block that runs. Not a general CUDA implementation.
#pragma once

#include <atomic>
#include <pthread.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};

typedef int cudaError_t;
typedef void *cudaStream_t;
enum { cudaSuccess = 0, cudaErrorInvalidValue = 1 };
inline cudaError_t &mt_emu_last_error() {
    static thread_local cudaError_t e = cudaSuccess;
    return e;
}
inline cudaError_t cudaGetLastError() {
    cudaError_t e = mt_emu_last_error();
    mt_emu_last_error() = cudaSuccess;
    return e;
}
inline const char *cudaGetErrorString(cudaError_t e) {
    return e == 0 ? "no error" : "emulated launch error";
}

// The attribute queries of the registry's attribute functions: one
// emulated device with one multiprocessor, nothing measured.
struct cudaFuncAttributes {
    size_t sharedSizeBytes, localSizeBytes;
    int numRegs, maxThreadsPerBlock;
};
// The launchers' shared-memory size per architecture asks for the compute
// capability: the emulated device is no sm_90 (its kernels run the bodies
// of the #else branches).
enum cudaDeviceAttr { cudaDevAttrMultiProcessorCount = 16, cudaDevAttrComputeCapabilityMajor = 75 };
inline cudaError_t cudaGetDevice(int *device) {
    *device = 0;
    return cudaSuccess;
}
// The launchers' opt-in above 48 KiB of dynamic shared memory: nothing to do.
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8 };
inline cudaError_t cudaFuncSetAttribute(const void *, cudaFuncAttribute, int) {
    return cudaSuccess;
}
inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, const void *) {
    *a = cudaFuncAttributes{0, 0, 0, 1024};
    return cudaSuccess;
}
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *,
                                                                 int threads, size_t) {
    *blocks = threads > 0 ? 2048 / threads : 0;
    return cudaSuccess;
}
inline cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int) {
    *value = attr == cudaDevAttrComputeCapabilityMajor ? 8 : 1;
    return cudaSuccess;
}

#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(n)
#define __shared__ static
#define __align__(n) __attribute__((aligned(n)))

struct float4 {
    float x, y, z, w;
};
struct float2 {
    float x, y;
};
struct int4 {
    int x, y, z, w;
};
struct uint4 {
    unsigned x, y, z, w;
};
struct uint2 {
    unsigned x, y;
};
inline float4 make_float4(float a, float b, float c, float d) { return {a, b, c, d}; }
inline int4 make_int4(int a, int b, int c, int d) { return {a, b, c, d}; }

inline float __int_as_float(int i) {
    float f;
    std::memcpy(&f, &i, sizeof f);
    return f;
}
inline unsigned __float_as_uint(float f) {
    unsigned u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}
inline float __uint_as_float(unsigned u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}
inline double __longlong_as_double(long long i) {
    double f;
    std::memcpy(&f, &i, sizeof f);
    return f;
}
// correctly rounded division and square root (the CPU's IEEE operations)
inline float __fdiv_rn(float x, float y) { return x / y; }
inline double __ddiv_rn(double x, double y) { return x / y; }
inline float __fsqrt_rn(float x) { return std::sqrt(x); }
inline unsigned __umulhi(unsigned x, unsigned y) {
    return (unsigned)(((unsigned long long)x * y) >> 32);
}
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
    return (unsigned long long)(((unsigned __int128)x * y) >> 64);
}
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
using std::isnan;
inline int max(int a, int b) { return a > b ? a : b; }
inline int min(int a, int b) { return a < b ? a : b; }

// 16-bit floats (cuda_fp16.h, cuda_bf16.h): the bits of IEEE binary16 and
// bfloat16, conversions from float rounded to nearest even.
struct __half {
    unsigned short x;
};
struct __nv_bfloat16 {
    unsigned short x;
};
inline unsigned short mt_emu_f2h_bits(float f) {
    unsigned u;
    std::memcpy(&u, &f, sizeof u);
    const unsigned sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
    if (a >= 0x7f800000u) return (unsigned short)(sign | (a > 0x7f800000u ? 0x7e00u : 0x7c00u));
    if (a >= 0x477ff000u) return (unsigned short)(sign | 0x7c00u);  // from 65520: infinity
    if (a < 0x38800000u) {  // a subnormal half: units of 2^-24
        float v;
        std::memcpy(&v, &a, sizeof v);
        return (unsigned short)(sign | (unsigned)std::nearbyint(v * 16777216.0f));
    }
    unsigned h = (((a >> 23) - 112) << 10) | ((a & 0x7fffffu) >> 13);
    const unsigned rem = a & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) h++;
    return (unsigned short)(sign | h);
}
inline float mt_emu_h2f(unsigned short h) {
    const unsigned sign = (unsigned)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    float f;
    unsigned u;
    if (e == 0) {
        f = std::ldexp((float)m, -24);
        std::memcpy(&u, &f, sizeof u);
    } else {
        u = (e == 31 ? 0x7f800000u : (e + 112) << 23) | (m << 13);
    }
    u |= sign;
    std::memcpy(&f, &u, sizeof f);
    return f;
}
inline __half __float2half_rn(float f) { return __half{mt_emu_f2h_bits(f)}; }
inline __half __float2half(float f) { return __float2half_rn(f); }
inline float __half2float(__half h) { return mt_emu_h2f(h.x); }
inline unsigned short __half_as_ushort(__half h) { return h.x; }
inline __half __ushort_as_half(unsigned short x) { return __half{x}; }
inline __nv_bfloat16 __float2bfloat16_rn(float f) {
    unsigned u;
    std::memcpy(&u, &f, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u) return __nv_bfloat16{(unsigned short)((u >> 16) | 0x40u)};
    return __nv_bfloat16{(unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16)};
}
inline __nv_bfloat16 __float2bfloat16(float f) { return __float2bfloat16_rn(f); }
inline float __bfloat162float(__nv_bfloat16 b) {
    unsigned u = (unsigned)b.x << 16;
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 b) { return b.x; }
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short x) { return __nv_bfloat16{x}; }

namespace mt_emu {

struct Block {
    pthread_barrier_t block;
    std::vector<pthread_barrier_t> warps;
    unsigned threads = 0;
    std::atomic<bool> vote_failed{false};  // __syncthreads_and
    alignas(16) unsigned char exchange[1024][16];
};

inline Block *&current() {
    static Block *b = nullptr;
    return b;
}

}  // namespace mt_emu

extern thread_local dim3 threadIdx, blockIdx, blockDim, gridDim;

inline void __syncthreads() { pthread_barrier_wait(&mt_emu::current()->block); }

// A barrier whose result is whether `pred` holds on every thread of the block.
inline int __syncthreads_and(int pred) {
    mt_emu::Block *b = mt_emu::current();
    pthread_barrier_wait(&b->block);  // the previous result is read
    if (!pred) b->vote_failed.store(true);
    pthread_barrier_wait(&b->block);
    const bool failed = b->vote_failed.load();
    pthread_barrier_wait(&b->block);
    if (threadIdx.x == 0) b->vote_failed.store(false);
    return failed ? 0 : 1;
}

template <class T>
T __shfl_xor_sync(unsigned mask, T v, int lane_mask) {
    (void)mask;
    mt_emu::Block *b = mt_emu::current();
    unsigned tid = threadIdx.x, warp = tid / 32;
    static_assert(sizeof(T) <= 16, "shuffle of a large type");
    std::memcpy(b->exchange[tid], &v, sizeof v);
    pthread_barrier_wait(&b->warps[warp]);
    T r;
    std::memcpy(&r, b->exchange[tid ^ (unsigned)lane_mask], sizeof r);
    pthread_barrier_wait(&b->warps[warp]);
    return r;
}

template <class T>
T __shfl_sync(unsigned mask, T v, int src_lane) {
    (void)mask;
    mt_emu::Block *b = mt_emu::current();
    unsigned tid = threadIdx.x, warp = tid / 32;
    static_assert(sizeof(T) <= 16, "shuffle of a large type");
    std::memcpy(b->exchange[tid], &v, sizeof v);
    pthread_barrier_wait(&b->warps[warp]);
    T r;
    std::memcpy(&r, b->exchange[warp * 32 + ((unsigned)src_lane & 31u)], sizeof r);
    pthread_barrier_wait(&b->warps[warp]);
    return r;
}

inline float fmaf_emulated(float a, float b, float c) { return std::fma(a, b, c); }

namespace mt_emu {

// Runs `kernel(args...)` on every thread of every block of the grid.
template <class... P, class... A>
void run(void (*kernel)(P...), dim3 grid, dim3 block, A... args) {
    unsigned T = block.x * block.y * block.z;
    if (T == 0 || T > 1024) {
        mt_emu_last_error() = cudaErrorInvalidValue;
        return;
    }
    Block *b = new Block();
    b->threads = T;
    pthread_barrier_init(&b->block, nullptr, T);
    unsigned nwarps = (T + 31) / 32;
    b->warps.resize(nwarps);
    for (unsigned w = 0; w < nwarps; w++) {
        unsigned n = (w + 1) * 32 <= T ? 32 : T - w * 32;
        pthread_barrier_init(&b->warps[w], nullptr, n);
    }
    current() = b;
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < T; t++) {
        threads.emplace_back([=]() {
            threadIdx = dim3(t, 0, 0);
            blockDim = block;
            gridDim = grid;
            for (unsigned z = 0; z < grid.z; z++)
                for (unsigned y = 0; y < grid.y; y++)
                    for (unsigned x = 0; x < grid.x; x++) {
                        blockIdx = dim3(x, y, z);
                        kernel(static_cast<P>(args)...);
                        pthread_barrier_wait(&b->block);  // the next block reuses __shared__
                    }
        });
    }
    for (auto &th : threads) th.join();
    current() = nullptr;
    pthread_barrier_destroy(&b->block);
    for (auto &w : b->warps) pthread_barrier_destroy(&w);
    delete b;
}

template <class... P>
struct Launch {
    void (*kernel)(P...);
    dim3 grid, block;
    template <class... A>
    void operator()(A... args) const {
        run(kernel, grid, block, args...);
    }
};

template <class... P, size_t... I>
void run_packed(void (*kernel)(P...), dim3 grid, dim3 block, void **args,
                std::index_sequence<I...>) {
    run(kernel, grid, block, *static_cast<std::remove_reference_t<P> *>(args[I])...);
}

}  // namespace mt_emu

// The generated launchers call cudaLaunchKernel(kernel, grid, block, args,
// 0, stream) with the kernel's own function type (CUDA's C++ overload).
template <class... P>
cudaError_t cudaLaunchKernel(void (*kernel)(P...), dim3 grid, dim3 block, void **args, size_t,
                             cudaStream_t) {
    mt_emu_last_error() = cudaSuccess;
    mt_emu::run_packed(kernel, grid, block, args, std::index_sequence_for<P...>{});
    return cudaGetLastError();
}
