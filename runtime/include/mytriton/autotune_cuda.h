/* The CUDA side of autotuning, for generated dispatchers (.cu files): the
 * device's identity, timing with CUDA events on the caller's stream, and
 * scratch copies of RESTORE buffers. Header-only (static functions) so
 * that libmytriton_runtime itself never needs CUDA. */
#ifndef MYTRITON_AUTOTUNE_CUDA_H
#define MYTRITON_AUTOTUNE_CUDA_H

#include <stdint.h>
#include <string.h>
#include <cuda_runtime.h>

#include "mytriton/autotune.h"

/* 1 when `stream` is capturing into a CUDA graph (nothing may be timed). */
static inline int mytriton_cuda_capturing(cudaStream_t stream) {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(stream, &status) != cudaSuccess) {
        (void)cudaGetLastError();
        return 1; /* cannot tell: behave as under capture (time nothing) */
    }
    return status != cudaStreamCaptureStatusNone;
}

/* The current device's ordinal, name and compute capability. */
static inline cudaError_t mytriton_cuda_device_id(mytriton_device_id *id) {
    cudaDeviceProp prop;
    cudaError_t err = cudaGetDevice(&id->ordinal);
    if (err == cudaSuccess) err = cudaGetDeviceProperties(&prop, id->ordinal);
    if (err != cudaSuccess) return err;
    strncpy(id->name, prop.name, sizeof id->name - 1);
    id->name[sizeof id->name - 1] = '\0';
    for (char *p = id->name; *p; p++)
        if (*p == '\t' || *p == '\n' || *p == '\r') *p = ' ';
    id->cc = prop.major * 10 + prop.minor;
    return cudaSuccess;
}

/* Times config `config` with CUDA events on `stream`: a warm-up launch
 * (timed, to size the rounds), then MYTRITON_AUTOTUNE_ROUNDS rounds of
 * `reps` launches; *ms is the fastest round's time per launch. */
static inline int mytriton_cuda_time(mytriton_autotune_launch_fn launch, void *ctx, int config,
                                     cudaStream_t stream, double *ms) {
    cudaEvent_t start = NULL, stop = NULL;
    float once = 0.0f, elapsed = 0.0f;
    double best = 0.0;
    int reps, status;
    cudaError_t err = cudaEventCreate(&start);
    if (err == cudaSuccess) err = cudaEventCreate(&stop);
    if (err == cudaSuccess) err = cudaEventRecord(start, stream);
    if (err == cudaSuccess) err = (cudaError_t)launch(ctx, config);
    if (err == cudaSuccess) err = cudaEventRecord(stop, stream);
    if (err == cudaSuccess) err = cudaEventSynchronize(stop);
    if (err == cudaSuccess) err = cudaEventElapsedTime(&once, start, stop);
    reps = once > 0.0f ? (int)(MYTRITON_AUTOTUNE_ROUND_MS / once) : 100;
    if (reps < 1) reps = 1;
    if (reps > 100) reps = 100;
    for (int round = 0; err == cudaSuccess && round < MYTRITON_AUTOTUNE_ROUNDS; round++) {
        err = cudaEventRecord(start, stream);
        for (int i = 0; err == cudaSuccess && i < reps; i++) err = (cudaError_t)launch(ctx, config);
        if (err == cudaSuccess) err = cudaEventRecord(stop, stream);
        if (err == cudaSuccess) err = cudaEventSynchronize(stop);
        if (err == cudaSuccess) err = cudaEventElapsedTime(&elapsed, start, stop);
        if (err == cudaSuccess && (round == 0 || elapsed / reps < best))
            best = (double)elapsed / reps;
    }
    if (start) (void)cudaEventDestroy(start);
    if (stop) (void)cudaEventDestroy(stop);
    status = (int)err;
    if (err != cudaSuccess) {
        /* a config the device cannot run (resources): clear the non-sticky error */
        (void)cudaGetLastError();
        return status;
    }
    *ms = best;
    return 0;
}

/* The bytes from `p` to the end of its allocation (cuMemGetAddressRange,
 * reached through the runtime so no libcuda link is needed); -1 if unknown. */
static inline int64_t mytriton_cuda_extent(const void *p) {
    typedef int (*range_fn)(unsigned long long *base, size_t *size, unsigned long long ptr);
    static range_fn fn = NULL;
    static int tried = 0;
    unsigned long long base = 0;
    size_t size = 0;
    if (!tried) {
        void *f = NULL;
        cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
        if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &f, 12000, cudaEnableDefault,
                                             &q) != cudaSuccess)
            f = NULL;
#else
        if (cudaGetDriverEntryPoint("cuMemGetAddressRange", &f, cudaEnableDefault, &q) !=
            cudaSuccess)
            f = NULL;
#endif
        fn = q == cudaDriverEntryPointSuccess ? (range_fn)f : NULL;
        tried = 1;
    }
    if (fn == NULL || fn(&base, &size, (unsigned long long)(uintptr_t)p) != 0) return -1;
    return (int64_t)(base + size - (unsigned long long)(uintptr_t)p);
}

/* Scratch copies of `n` buffers: ptrs[i] (a pointer in the tuning's copy
 * of the arguments) is replaced by a fresh buffer of bytes[i] bytes (-1:
 * up to the end of the caller's allocation) holding a copy of the
 * caller's data, at the same offset modulo 256 (so alignment-specialized
 * variants qualify alike). bases[i] receives what to free. */
static inline cudaError_t mytriton_cuda_scratch_begin(int n, void **ptrs, const int64_t *bytes,
                                                      void **bases, cudaStream_t stream,
                                                      const char *launcher) {
    for (int i = 0; i < n; i++) bases[i] = NULL;
    for (int i = 0; i < n; i++) {
        int64_t size = bytes[i];
        uintptr_t shift = (uintptr_t)ptrs[i] & 255u;
        if (ptrs[i] == NULL) continue;
        if (size < 0) size = mytriton_cuda_extent(ptrs[i]);
        if (size < 0) {
            mytriton_set_last_error(
                "%s: cannot find the size of a RESTORE buffer's allocation (give its extent: "
                "RESTORE name=expr)",
                launcher);
            return cudaErrorInvalidValue;
        }
        cudaError_t err = cudaMalloc(&bases[i], (size_t)size + 256);
        if (err != cudaSuccess) {
            mytriton_set_last_error(
                "%s: no memory for a scratch copy of a RESTORE buffer while tuning", launcher);
            return err;
        }
        char *copy = (char *)bases[i] + shift;
        if (size > 0)
            err = cudaMemcpyAsync(copy, ptrs[i], (size_t)size, cudaMemcpyDeviceToDevice, stream);
        if (err != cudaSuccess) return err;
        ptrs[i] = copy;
    }
    return cudaSuccess;
}

static inline void mytriton_cuda_scratch_end(int n, void **bases, cudaStream_t stream) {
    (void)cudaStreamSynchronize(stream);
    for (int i = 0; i < n; i++)
        if (bases[i]) (void)cudaFree(bases[i]);
}

#endif /* MYTRITON_AUTOTUNE_CUDA_H */
