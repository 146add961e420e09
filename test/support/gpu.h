// Whether the machine has a CUDA device, for the GPU tests, which skip
// (GTEST_SKIP with the reason) without one. Included where a test program
// is built with the CUDA runtime.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

// 1 with a device; else 0 and the reason in *why.
inline bool gpu_available(std::string *why) {
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        *why = std::string("no CUDA device: cudaGetDeviceCount: ") + cudaGetErrorString(e);
        (void)cudaGetLastError(); /* not left for the next call to report */
        return false;
    }
    if (n == 0) {
        *why = "no CUDA device: cudaGetDeviceCount reports 0 devices";
        return false;
    }
    return true;
}

// In a test body: skips the test (GTEST_SKIP, with the reason) without a
// device.
#define MT_SKIP_WITHOUT_GPU()                            \
    do {                                                 \
        std::string why_;                                \
        if (!gpu_available(&why_)) GTEST_SKIP() << why_; \
    } while (0)
