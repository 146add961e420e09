// The MLIR backend's tl.dot executed on a GPU (skipped without one): the
// MLIR-built launchers of kernels/dot.py's tutorial matmul against
// dot_ref.h's references.
#include <gtest/gtest.h>
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "dot_ref.h"
#include "mytriton_lang_dot_mlir.h"

namespace {

using namespace dot_ref;

enum class Backend { Mlir };

class Buffers {
  public:
    explicit Buffers(Backend) {}
    ~Buffers() {
        for (void *p : dev_) (void)cudaFree(p);
    }
    Buffers(const Buffers &) = delete;
    Buffers &operator=(const Buffers &) = delete;
    bool host() const { return false; }
    template <class T>
    T *put(std::vector<T> &v) {
        void *p = nullptr;
        if (cudaMalloc(&p, v.size() * sizeof(T)) != cudaSuccess)
            throw std::runtime_error("cudaMalloc");
        cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
        dev_.push_back(p);
        return static_cast<T *>(p);
    }
    template <class T>
    void get(std::vector<T> &v, const T *p) {
        cudaDeviceSynchronize();
        cudaMemcpy(v.data(), p, v.size() * sizeof(T), cudaMemcpyDeviceToHost);
    }

  private:
    std::vector<void *> dev_;
};

#define MT_NEED_GPU()                                                                            \
    do {                                                                                         \
        int n_ = 0;                                                                              \
        if (cudaGetDeviceCount(&n_) != cudaSuccess || n_ == 0) GTEST_SKIP() << "no CUDA device"; \
    } while (0)

#define MLIR_LAUNCH(name, TA, TB, TC)                                                         \
    MatmulLaunch<TA, TB, TC>([](bool, const TA *a, const TB *b, TC *c, int M, int N, int K) { \
        return (int)launch_##name##_mlir(nullptr, a, b, c, M, N, K, K, 1, N, 1, N, 1);        \
    })

TEST(Matmul, F16LeakyPlusEq) {
    MT_NEED_GPU();
    check_matmul<Buffers>(Backend::Mlir, MatmulCase{70, 50, 40, 16, false, false, true},
                          MLIR_LAUNCH(mlir_f16, mytriton_fp16, mytriton_fp16, mytriton_fp16));
}
TEST(Matmul, Bf16) {
    MT_NEED_GPU();
    check_matmul<Buffers>(Backend::Mlir, MatmulCase{33, 64, 48, 16, false, false, false},
                          MLIR_LAUNCH(mlir_bf16, mytriton_bf16, mytriton_bf16, mytriton_bf16));
}
TEST(Matmul, F32Tf32) {
    MT_NEED_GPU();
    check_matmul<Buffers>(Backend::Mlir, MatmulCase{64, 40, 36, 16, true, false, false},
                          MLIR_LAUNCH(mlir_f32_tf32, float, float, float));
}
TEST(Matmul, F32Tf32x3) {
    MT_NEED_GPU();
    check_matmul<Buffers>(Backend::Mlir, MatmulCase{64, 64, 48, 16, false, false, false},
                          MLIR_LAUNCH(mlir_f32_tf32x3, float, float, float));
}
TEST(Matmul, I8PlusEq) {
    MT_NEED_GPU();
    check_matmul<Buffers>(Backend::Mlir, MatmulCase{17, 64, 64, 32, false, false, false},
                          MLIR_LAUNCH(mlir_i8, int8_t, int8_t, int32_t));
}

}  // namespace
