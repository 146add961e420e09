// A CPU emulation of the small part of CUDA that mytriton's generated code
// uses, so that the generated kernels and launchers run and are checked on
// machines without a GPU (test/emu). Each launch runs the blocks of the
// grid one after another; the threads of a block are fibers (below), with
// __syncthreads() a barrier and warp shuffles exchanged through memory.
// `__shared__` locals become function statics: one copy, shared by the
// threads of the block that runs. Not a general CUDA implementation.
#pragma once

#include <array>
#include <atomic>
#include <pthread.h>
#include <ucontext.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
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

extern thread_local dim3 threadIdx, blockIdx, blockDim, gridDim;

// The threads of a block run as fibers (ucontext) on the launching thread,
// each until it waits at a barrier, one after another in the order of
// threadIdx: no system threads, no locks, the same schedule on every run.
// A thread that reads what another writes without a barrier between them
// reads it stale whenever the writer comes later in that order. Under
// AddressSanitizer or ThreadSanitizer (whose shadow stacks do not follow
// swapcontext cheaply), or with MT_EMU_THREADS defined, they are real
// threads and the barriers pthread barriers.
#if !defined(MT_EMU_THREADS)
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define MT_EMU_THREADS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define MT_EMU_THREADS 1
#endif
#endif
#endif

namespace mt_emu {

#if defined(MT_EMU_THREADS)
typedef pthread_barrier_t Barrier;
inline void barrier_init(Barrier *b, unsigned n) { pthread_barrier_init(b, nullptr, n); }
inline void barrier_destroy(Barrier *b) { pthread_barrier_destroy(b); }
inline void barrier_wait(Barrier *b) { pthread_barrier_wait(b); }
#else
// A barrier of `count` fibers: the last to arrive releases the others.
struct Barrier {
    unsigned count, arrived, generation;
};
inline void barrier_init(Barrier *b, unsigned n) { *b = Barrier{n, 0, 0}; }
inline void barrier_destroy(Barrier *) {}

// The fibers of the block that runs and the launching thread's context.
// A fiber starts through makecontext and swapcontext; after that, with GCC,
// fibers and the launching thread switch with __builtin_setjmp and
// __builtin_longjmp (stack and frame pointers and a label: no system call,
// no signal mask; Clang's do not survive the switch of stacks), elsewhere
// with swapcontext.
struct Fibers {
    ucontext_t main_ctx;
    void *main_jmp[5];
    std::vector<ucontext_t> ctx;
    std::vector<std::array<void *, 5> > jmp;
    std::vector<unsigned char> started, done;
    unsigned running = 0;
    unsigned long long arrivals = 0;  // at barriers: a round without any is a deadlock
};
inline Fibers *&fibers() {
    static Fibers *f = nullptr;
    return f;
}
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((noinline)) inline void jump_to(void **buf) { __builtin_longjmp(buf, 1); }
#endif
// Back to the launching thread, which resumes the next fiber; this one's
// threadIdx and blockIdx (globals of that thread) are its own again after.
__attribute__((noinline)) inline void yield() {
    Fibers *f = fibers();
    const dim3 t = threadIdx, b = blockIdx;
#if defined(__GNUC__) && !defined(__clang__)
    if (__builtin_setjmp(f->jmp[f->running].data()) == 0) jump_to(f->main_jmp);
#else
    swapcontext(&f->ctx[f->running], &f->main_ctx);
#endif
    threadIdx = t;
    blockIdx = b;
}
inline void barrier_wait(Barrier *b) {
    const unsigned generation = b->generation;
    fibers()->arrivals++;
    if (++b->arrived == b->count) {
        b->arrived = 0;
        b->generation++;
        return;
    }
    do yield();
    while (b->generation == generation);
}
#endif

struct Block {
    Barrier block;
    std::vector<Barrier> warps;
    unsigned threads = 0;
    std::atomic<bool> vote_failed{false};  // __syncthreads_and
    alignas(16) unsigned char exchange[1024][16];
};

inline Block *&current() {
    static Block *b = nullptr;
    return b;
}

}  // namespace mt_emu

inline void __syncthreads() { mt_emu::barrier_wait(&mt_emu::current()->block); }

// A barrier whose result is whether `pred` holds on every thread of the block.
inline int __syncthreads_and(int pred) {
    mt_emu::Block *b = mt_emu::current();
    mt_emu::barrier_wait(&b->block);  // the previous result is read
    if (!pred) b->vote_failed.store(true);
    mt_emu::barrier_wait(&b->block);
    const bool failed = b->vote_failed.load();
    mt_emu::barrier_wait(&b->block);
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
    mt_emu::barrier_wait(&b->warps[warp]);
    T r;
    std::memcpy(&r, b->exchange[tid ^ (unsigned)lane_mask], sizeof r);
    mt_emu::barrier_wait(&b->warps[warp]);
    return r;
}

template <class T>
T __shfl_sync(unsigned mask, T v, int src_lane) {
    (void)mask;
    mt_emu::Block *b = mt_emu::current();
    unsigned tid = threadIdx.x, warp = tid / 32;
    static_assert(sizeof(T) <= 16, "shuffle of a large type");
    std::memcpy(b->exchange[tid], &v, sizeof v);
    mt_emu::barrier_wait(&b->warps[warp]);
    T r;
    std::memcpy(&r, b->exchange[warp * 32 + ((unsigned)src_lane & 31u)], sizeof r);
    mt_emu::barrier_wait(&b->warps[warp]);
    return r;
}

inline float fmaf_emulated(float a, float b, float c) { return std::fma(a, b, c); }

namespace mt_emu {

#if !defined(MT_EMU_THREADS)
// What a fiber runs: `body` (a std::function-free call through a pointer
// split into two ints, as makecontext passes ints).
template <class F>
void fiber_entry(unsigned lo, unsigned hi) {
    F *body = reinterpret_cast<F *>(((uintptr_t)hi << 32) | (uintptr_t)lo);
    (*body)();
    Fibers *f = fibers();
    f->done[f->running] = 1;
#if defined(__GNUC__) && !defined(__clang__)
    jump_to(f->main_jmp);
#else
    swapcontext(&f->ctx[f->running], &f->main_ctx);
#endif
}

// Resumes fiber `t` until it yields or ends.
__attribute__((noinline)) inline void resume(Fibers *f, unsigned t) {
    f->running = t;
#if defined(__GNUC__) && !defined(__clang__)
    if (__builtin_setjmp(f->main_jmp) == 0) {
        if (f->started[t]) jump_to(f->jmp[t].data());
        f->started[t] = 1;
        swapcontext(&f->main_ctx, &f->ctx[t]);
    }
#else
    swapcontext(&f->main_ctx, &f->ctx[t]);
#endif
}
#endif

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
    barrier_init(&b->block, T);
    unsigned nwarps = (T + 31) / 32;
    b->warps.resize(nwarps);
    for (unsigned w = 0; w < nwarps; w++) {
        unsigned n = (w + 1) * 32 <= T ? 32 : T - w * 32;
        barrier_init(&b->warps[w], n);
    }
    current() = b;
    auto thread = [=](unsigned t) {
        threadIdx = dim3(t, 0, 0);
        blockDim = block;
        gridDim = grid;
        for (unsigned z = 0; z < grid.z; z++)
            for (unsigned y = 0; y < grid.y; y++)
                for (unsigned x = 0; x < grid.x; x++) {
                    blockIdx = dim3(x, y, z);
                    kernel(static_cast<P>(args)...);
                    barrier_wait(&b->block);  // the next block reuses __shared__
                }
    };
#if defined(MT_EMU_THREADS)
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < T; t++) threads.emplace_back(thread, t);
    for (auto &th : threads) th.join();
#else
    // the stacks of system threads (8 MiB: the generated code keeps whole
    // tiles in locals)
    const size_t stack = 8u << 20;
    const dim3 saved_t = threadIdx, saved_b = blockIdx, saved_bd = blockDim, saved_g = gridDim;
    Fibers f;
    f.ctx.resize(T);
    f.jmp.resize(T);
    f.started.assign(T, 0);
    f.done.assign(T, 0);
    std::vector<std::unique_ptr<char[]> > stacks(T);
    std::vector<std::function<void()> > bodies(T);
    for (unsigned t = 0; t < T; t++) {
        stacks[t].reset(new char[stack]);  // not written: its pages stay unused until touched
        bodies[t] = [&thread, t]() { thread(t); };
        getcontext(&f.ctx[t]);
        f.ctx[t].uc_stack.ss_sp = stacks[t].get();
        f.ctx[t].uc_stack.ss_size = stack;
        f.ctx[t].uc_link = nullptr;
        const uintptr_t p = (uintptr_t)&bodies[t];
        makecontext(&f.ctx[t], (void (*)())fiber_entry<std::function<void()> >, 2,
                    (unsigned)(p & 0xffffffffu), (unsigned)(p >> 32));
    }
    Fibers *outer = fibers();
    fibers() = &f;
    for (unsigned left = T; left > 0;) {
        const unsigned long long arrivals = f.arrivals;
        const unsigned before = left;
        for (unsigned t = 0; t < T; t++) {
            if (f.done[t]) continue;
            resume(&f, t);
            if (f.done[t]) left--;
        }
        if (left == before && f.arrivals == arrivals) {
            std::fprintf(stderr,
                         "mt_emu: the threads of a block wait at barriers that no "
                         "thread reaches (a deadlock)\n");
            std::abort();
        }
    }
    fibers() = outer;
    threadIdx = saved_t;
    blockIdx = saved_b;
    blockDim = saved_bd;
    gridDim = saved_g;
#endif
    current() = nullptr;
    barrier_destroy(&b->block);
    for (auto &w : b->warps) barrier_destroy(&w);
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
