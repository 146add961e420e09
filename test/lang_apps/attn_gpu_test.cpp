// kernels/attention.py at -O2 through the attention path (emit_cuda_attn.c)
// on the GPU, label gpu (GTEST_SKIP without one): HEAD_DIM 64 (BLOCK_M 64,
// BLOCK_N 64, 4 warps) and 128 (BLOCK_M 128, BLOCK_N 64, 8 warps), fp16,
// causal and not, and bf16 at HEAD_DIM 64; on sm_90a (wgmma) also two
// 64-row blocks per warpgroup (HEAD_DIM 64, BLOCK_M 128, 4 warps, causal)
// and BLOCK_N 128 at HEAD_DIM 128 (three buffers of k and v, 225 KiB); a
// ragged N_CTX and an aligned one; attention_other.py (CMakeLists.txt: a nonzero
// `other`) at HEAD_DIM 128, causal; against attn_ref.h's double-precision
// reference.
#include <cuda_runtime_api.h>
#include "../support/gpu.h"
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "attn_ref.h"
#include "mytriton_lang_apps_attn_gpu.h"

namespace {

using namespace attn_ref;
using bf16 = mytriton_bf16;

template <class T>
T *device_copy(const std::vector<T> &v) {
    void *p = nullptr;
    EXPECT_EQ(cudaMalloc(&p, v.size() * sizeof(T)), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    return static_cast<T *>(p);
}

template <class T, class Launch>
void run_case(bool causal, int D, int BLOCK_M, int BH, int N, Launch launch) {
    std::string why;
    if (!gpu_available(&why)) GTEST_SKIP() << why;
    const float sm_scale = 1.0f / std::sqrt((float)D);
    size_t n = (size_t)BH * N * D;
    std::vector<T> q = random_inputs<T>(n, 21), k = random_inputs<T>(n, 22),
                   v = random_inputs<T>(n, 23);
    std::vector<T> out(n);
    for (auto &x : out) from_float(-7.0f, &x);
    T *qd = device_copy(q), *kd = device_copy(k), *vd = device_copy(v), *od = device_copy(out);
    mytriton_grid g = mytriton_grid_2d((N + BLOCK_M - 1) / BLOCK_M, BH);
    ASSERT_EQ((int)launch(g, qd, kd, vd, od, sm_scale, N), 0) << mytriton_last_error();
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(out.data(), od, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    for (T *p : {qd, kd, vd, od}) cudaFree(p);
    expect_close(causal ? "causal attention" : "attention", out,
                 reference(q, k, v, BH, N, D, sm_scale, causal));
}

#define ATTN_LAUNCH(name, T)                                                        \
    [](mytriton_grid g, const T *q, const T *k, const T *v, T *o, float s, int n) { \
        return launch_##name(nullptr, g, q, k, v, o, s, n);                         \
    }

TEST(CudaAttn, Head64) {
    for (int N : {1000, 256}) run_case<half>(false, 64, 64, 3, N, ATTN_LAUNCH(gpu_attn64, half));
}
TEST(CudaAttn, Head64Causal) {
    for (int N : {1000, 256})
        run_case<half>(true, 64, 64, 3, N, ATTN_LAUNCH(gpu_attn64_causal, half));
}
TEST(CudaAttn, Head128) {
    for (int N : {1000, 256}) run_case<half>(false, 128, 128, 3, N, ATTN_LAUNCH(gpu_attn128, half));
}
TEST(CudaAttn, Head128Causal) {
    for (int N : {1000, 256})
        run_case<half>(true, 128, 128, 3, N, ATTN_LAUNCH(gpu_attn128_causal, half));
}
TEST(CudaAttn, Head64Bf16) {
    for (int N : {1000, 256})
        run_case<bf16>(false, 64, 64, 3, N, ATTN_LAUNCH(gpu_attn64_bf16, bf16));
}
TEST(CudaAttn, Head64TwoBlocksPerWarpCausal) {
    for (int N : {1000, 256})
        run_case<half>(true, 64, 128, 3, N, ATTN_LAUNCH(gpu_attn64_m128_causal, half));
}
TEST(CudaAttn, Head128Block128) {
    for (int N : {1000, 256})
        run_case<half>(false, 128, 128, 3, N, ATTN_LAUNCH(gpu_attn128_n128, half));
}
// attention_other.py (CMakeLists.txt): a nonzero `other`, so the masked groups of
// the ragged N_CTX are copied element by element (not zero-filled)
TEST(CudaAttn, Head128NonzeroOtherCausal) {
    for (int N : {1000, 256})
        run_case<half>(true, 128, 128, 3, N, ATTN_LAUNCH(gpu_attn128_other_causal, half));
}

}  // namespace
