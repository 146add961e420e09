// The buffers of the language suites' tests (lang_shape, lang_rank,
// lang_blockptr): host vectors, copied to and from the device for the GPU
// backends, and the skips of the GPU backends' tests. A test defines
// MT_LANG_CUDA and MT_LANG_MLIR (its <D>_CUDA and <D>_MLIR) and, for
// test/emu's CPU emulation of the CUDA units, MT_LANG_EMU before including
// this (and ../support/gpu.h with CUDA).
#ifndef MT_TEST_LANG_BUF_H
#define MT_TEST_LANG_BUF_H

#include <gtest/gtest.h>

#include <string>
#include <vector>

#ifndef MT_LANG_EMU
#define MT_LANG_EMU 0
#endif
#if MT_LANG_CUDA
#include <cuda_runtime_api.h>
#endif

// LANG_NEED_GPU(): skips the test without a GPU (or a CUDA compiler);
// LANG_NEED_MLIR(): also without the MLIR backend.
#if MT_LANG_CUDA
#define LANG_NEED_GPU() MT_SKIP_WITHOUT_GPU()
#else
#define LANG_NEED_GPU() GTEST_SKIP() << "built without a CUDA compiler"
#endif
#if MT_LANG_MLIR
#define LANG_NEED_MLIR() LANG_NEED_GPU()
#else
#define LANG_NEED_MLIR() \
    GTEST_SKIP() << "built without the MLIR backend (mlir-opt of MLIR 19 and CUDA)"
#endif

namespace mt_lang {

enum class Backend { Host, Cuda, Mlir };

// Small integers (as T) from a deterministic sequence: (i * 37 + seed) % 19 - 9.
template <typename T>
std::vector<T> ints(size_t n, int seed) {
    std::vector<T> v(n);
    for (size_t i = 0; i < n; i++) v[i] = (T)((int)((i * 37 + (size_t)seed) % 19) - 9);
    return v;
}

template <typename T>
struct Buf {
    std::vector<T> h;
    T *d = nullptr;
    explicit Buf(std::vector<T> v) : h(std::move(v)) {}
    Buf(size_t n, T fill) : h(n, fill) {}
    Buf(const Buf &) = delete;
    Buf &operator=(const Buf &) = delete;
    ~Buf() {
#if MT_LANG_CUDA
        if (d) cudaFree(d);
#endif
    }
    // the data as the backend reads it (the emulation reads the host's)
    T *ptr(Backend b) {
        if (b == Backend::Host || MT_LANG_EMU) return h.data();
#if MT_LANG_CUDA
        if (!d) {
            EXPECT_EQ(cudaMalloc(reinterpret_cast<void **>(&d), h.size() * sizeof(T)), cudaSuccess);
            EXPECT_EQ(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice),
                      cudaSuccess);
        }
#endif
        return d;
    }
    // the device's data back into h after a launch
    void fetch(Backend b) {
#if MT_LANG_CUDA
        if (b != Backend::Host && !MT_LANG_EMU) {
            EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
            EXPECT_EQ(cudaMemcpy(h.data(), d, h.size() * sizeof(T), cudaMemcpyDeviceToHost),
                      cudaSuccess);
        }
#else
        (void)b;
#endif
    }
};

}  // namespace mt_lang

#endif
