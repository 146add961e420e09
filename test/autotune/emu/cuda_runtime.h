// test/emu's CPU emulation of CUDA (fake_cuda/) plus what the generated
// dispatching launchers and mytriton/autotune_cuda.h call: stream capture
// status (set by the test), device properties, events timed with the CPU
// clock (emulated launches run synchronously), allocations in host memory
// with cuMemGetAddressRange through cudaGetDriverEntryPointByVersion. Lets
// autotune.Emu.* run the CUDA dispatch path without a GPU.
#pragma once

#include "../../emu/fake_cuda/cuda_runtime.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>

#define CUDART_VERSION 13000

enum cudaStreamCaptureStatus {
    cudaStreamCaptureStatusNone = 0,
    cudaStreamCaptureStatusActive = 1,
    cudaStreamCaptureStatusInvalidated = 2
};
inline bool &mt_at_capturing() {
    static bool capturing = false;
    return capturing;
}
inline cudaError_t cudaStreamIsCapturing(cudaStream_t, cudaStreamCaptureStatus *s) {
    *s = mt_at_capturing() ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
    return cudaSuccess;
}

struct cudaDeviceProp {
    char name[256];
    int major, minor;
};
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int) {
    std::memset(p, 0, sizeof *p);
    std::snprintf(p->name, sizeof p->name, "Emulated GPU");
    p->major = 7;
    p->minor = 5;
    return cudaSuccess;
}

struct mt_at_event {
    double ms;
};
typedef mt_at_event *cudaEvent_t;
inline double mt_at_now_ms() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
inline cudaError_t cudaEventCreate(cudaEvent_t *e) {
    *e = new mt_at_event{0.0};
    return cudaSuccess;
}
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t = nullptr) {
    e->ms = mt_at_now_ms();
    return cudaSuccess;
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
    *ms = (float)(b->ms - a->ms);
    return cudaSuccess;
}
inline cudaError_t cudaEventDestroy(cudaEvent_t e) {
    delete e;
    return cudaSuccess;
}

// allocations: base -> size, for cuMemGetAddressRange
inline std::map<uintptr_t, size_t> &mt_at_allocations() {
    static std::map<uintptr_t, size_t> m;
    return m;
}
inline std::mutex &mt_at_lock() {
    static std::mutex m;
    return m;
}
inline cudaError_t cudaMalloc(void **p, size_t n) {
    size_t rounded = (n + 255) / 256 * 256;
    *p = std::aligned_alloc(256, rounded ? rounded : 256);
    if (!*p) return 2;
    std::lock_guard<std::mutex> g(mt_at_lock());
    mt_at_allocations()[(uintptr_t)*p] = n;
    return cudaSuccess;
}
inline cudaError_t cudaFree(void *p) {
    if (!p) return cudaSuccess;
    {
        std::lock_guard<std::mutex> g(mt_at_lock());
        mt_at_allocations().erase((uintptr_t)p);
    }
    std::free(p);
    return cudaSuccess;
}
enum cudaMemcpyKind {
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3
};
inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind,
                                   cudaStream_t = nullptr) {
    std::memcpy(dst, src, n);
    return cudaSuccess;
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }

enum cudaDriverEntryPointQueryResult {
    cudaDriverEntryPointSuccess = 0,
    cudaDriverEntryPointSymbolNotFound = 1,
    cudaDriverEntryPointVersionNotSufficent = 2
};
enum { cudaEnableDefault = 0 };
inline int mt_at_address_range(unsigned long long *base, size_t *size, unsigned long long ptr) {
    std::lock_guard<std::mutex> g(mt_at_lock());
    auto &m = mt_at_allocations();
    auto it = m.upper_bound((uintptr_t)ptr);
    if (it == m.begin()) return 1;
    --it;
    if (ptr >= it->first + it->second) return 1;
    *base = it->first;
    *size = it->second;
    return 0;
}
inline cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **fn, unsigned,
                                                    unsigned long long,
                                                    cudaDriverEntryPointQueryResult *q) {
    if (std::strcmp(symbol, "cuMemGetAddressRange") != 0) {
        *q = cudaDriverEntryPointSymbolNotFound;
        return cudaSuccess;
    }
    *fn = (void *)mt_at_address_range;
    *q = cudaDriverEntryPointSuccess;
    return cudaSuccess;
}
