// tl.dot execution tests (kernels/dot.py, CMakeLists.txt): the tutorial
// matmul for every operand dtype (fp16, bf16, fp32 with TF32 / ieee /
// tf32x3, fp64, int8, fp8 e4m3 x e5m2), with `acc=` and `acc +=`, an f16
// accumulator, a leaky-ReLU epilogue, masked K tails and grouped ordering;
// a batched matmul and the '@' operator. References are written here in
// C++ from the kernels' source: sums in double of the operands as the
// kernel reads them (TF32: the upper 19 bits of each f32), compared with a
// tolerance for the float sum order and the output's rounding; int8 is
// exact.
//
//   Host.*   the host backend (always)
//   Cuda.*   the CUDA backend at the case's level (skipped without a GPU)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "dot_ref.h"
#include "mytriton/runtime.h"
#include "mytriton_lang_dot.h"
#include "mytriton_lang_dot_big.h"

#if MT_DOT_CUDA
#include <cuda_runtime_api.h>
#include "../support/gpu.h"

#include "mytriton_lang_dot_mma.h"
#endif

namespace {

using namespace dot_ref;

// ---- Buffers on the host or the device ------------------------------------

enum class Backend { Host, Cuda };

#if MT_DOT_CUDA
void cuda_check(cudaError_t e, const char *what) {
    if (e != cudaSuccess)
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
#endif

class Buffers {
  public:
    explicit Buffers(Backend b) : b_(b) {}
    ~Buffers() {
#if MT_DOT_CUDA
        for (void *p : dev_) (void)cudaFree(p);
#endif
    }
    Buffers(const Buffers &) = delete;
    Buffers &operator=(const Buffers &) = delete;
    bool host() const { return b_ == Backend::Host; }

    template <class T>
    T *put(std::vector<T> &v) {
        if (host()) return v.data();
#if MT_DOT_CUDA
        void *p = nullptr;
        cuda_check(cudaMalloc(&p, v.size() * sizeof(T)), "cudaMalloc");
        cuda_check(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice),
                   "cudaMemcpy");
        dev_.push_back(p);
        return static_cast<T *>(p);
#else
        throw std::logic_error("CUDA not built");
#endif
    }
    template <class T>
    void get(std::vector<T> &v, const T *p) {
        if (host()) return;
#if MT_DOT_CUDA
        cuda_check(cudaDeviceSynchronize(), "kernel");
        cuda_check(cudaMemcpy(v.data(), p, v.size() * sizeof(T), cudaMemcpyDeviceToHost),
                   "cudaMemcpy");
#else
        (void)v;
        (void)p;
#endif
    }

  private:
    Backend b_;
    std::vector<void *> dev_;
};

#if MT_DOT_CUDA
#define MT_CUDA_CALL(name, ...) (int)launch_##name(nullptr, __VA_ARGS__)
#else
#define MT_CUDA_CALL(name, ...) -1
#endif

// A matmul case's launcher: contiguous row-major A, B and C.
#define MM_LAUNCH(name, TA, TB, TC)                                                                \
    MatmulLaunch<TA, TB, TC>([](bool host, const TA *a, const TB *b, TC *c, int M, int N, int K) { \
        return host ? (int)launch_##name##_host(a, b, c, M, N, K, K, 1, N, 1, N, 1)                \
                    : MT_CUDA_CALL(name, a, b, c, M, N, K, K, 1, N, 1, N, 1);                      \
    })

// The same with B column-major (stride_bk 1, stride_bn K: the cases' b_col).
#define MM_LAUNCH_BCOL(name, TA, TB, TC)                                                           \
    MatmulLaunch<TA, TB, TC>([](bool host, const TA *a, const TB *b, TC *c, int M, int N, int K) { \
        return host ? (int)launch_##name##_host(a, b, c, M, N, K, K, 1, 1, K, N, 1)                \
                    : MT_CUDA_CALL(name, a, b, c, M, N, K, K, 1, 1, K, N, 1);                      \
    })

#if MT_DOT_CUDA
#define MT_NEED_GPU() MT_SKIP_WITHOUT_GPU()
#define DOT_TEST(name, body)                  \
    TEST(Host, name) { body(Backend::Host); } \
    TEST(Cuda, name) {                        \
        MT_NEED_GPU();                        \
        body(Backend::Cuda);                  \
    }
#else
#define DOT_TEST(name, body) \
    TEST(Host, name) { body(Backend::Host); }
#endif

const MatmulCase kF16{70, 50, 40, 16, false, false, false};

void mm_f16(Backend be) {
    check_matmul<Buffers>(be, kF16, MM_LAUNCH(mm_f16, mytriton_fp16, mytriton_fp16, mytriton_fp16));
}
void mm_f16_o2(Backend be) {
    check_matmul<Buffers>(be, kF16,
                          MM_LAUNCH(mm_f16_o2, mytriton_fp16, mytriton_fp16, mytriton_fp16));
}
void mm_f16_acc16_o2(Backend be) {
    MatmulCase c = kF16;
    c.acc16 = true;
    c.leaky = true;
    check_matmul<Buffers>(be, c,
                          MM_LAUNCH(mm_f16_acc16_o2, mytriton_fp16, mytriton_fp16, mytriton_fp16));
}
void mm_bf16_o2(Backend be) {
    check_matmul<Buffers>(be, MatmulCase{33, 64, 48, 16, false, false, false},
                          MM_LAUNCH(mm_bf16_o2, mytriton_bf16, mytriton_bf16, mytriton_bf16));
}
void mm_i8_o2(Backend be) {
    check_matmul<Buffers>(be, MatmulCase{70, 50, 100, 32, false, false, false},
                          MM_LAUNCH(mm_i8_o2, int8_t, int8_t, int32_t));
}
void mm_f16_leaky(Backend be) {
    MatmulCase c = kF16;
    c.leaky = true;
    check_matmul<Buffers>(be, c,
                          MM_LAUNCH(mm_f16_leaky, mytriton_fp16, mytriton_fp16, mytriton_fp16));
}
void mm_f16_acc16(Backend be) {
    MatmulCase c = kF16;
    c.acc16 = true;
    check_matmul<Buffers>(be, c,
                          MM_LAUNCH(mm_f16_acc16, mytriton_fp16, mytriton_fp16, mytriton_fp16));
}
void mm_bf16(Backend be) {
    check_matmul<Buffers>(be, MatmulCase{33, 64, 48, 16, false, false, false},
                          MM_LAUNCH(mm_bf16, mytriton_bf16, mytriton_bf16, mytriton_bf16));
}
void mm_f32_tf32(Backend be) {
    check_matmul<Buffers>(be, MatmulCase{64, 40, 36, 16, true, false, false},
                          MM_LAUNCH(mm_f32_tf32, float, float, float));
}
void mm_f32_tf32_o2(Backend be) {
    check_matmul<Buffers>(be, MatmulCase{64, 40, 36, 16, true, false, false},
                          MM_LAUNCH(mm_f32_tf32_o2, float, float, float));
}
void mm_f32_ieee(Backend be) {
    check_matmul<Buffers>(be, MatmulCase{40, 70, 100, 32, false, false, false},
                          MM_LAUNCH(mm_f32_ieee, float, float, float));
}
void mm_f32_tf32x3(Backend be) {
    // tf32x3 is about as accurate as f32: compared with the exact operands
    check_matmul<Buffers>(be, MatmulCase{64, 64, 48, 16, false, false, true},
                          MM_LAUNCH(mm_f32_tf32x3, float, float, float));
}
void mm_f64(Backend be) {
    check_matmul<Buffers>(be, MatmulCase{20, 30, 40, 16, false, false, false},
                          MM_LAUNCH(mm_f64, double, double, double));
}
void mm_i8(Backend be) {
    check_matmul<Buffers>(be, MatmulCase{70, 50, 100, 32, false, false, false},
                          MM_LAUNCH(mm_i8, int8_t, int8_t, int32_t));
}
void mm_i8_plus(Backend be) {
    check_matmul<Buffers>(be, MatmulCase{17, 64, 64, 32, false, false, false},
                          MM_LAUNCH(mm_i8_plus, int8_t, int8_t, int32_t));
}
void mm_fp8(Backend be) {
    check_matmul<Buffers>(be, MatmulCase{32, 48, 80, 32, false, false, false},
                          MM_LAUNCH(mm_fp8, mytriton_fp8e4nv, mytriton_fp8e5, float));
}
// The signature's `i32:1` (Triton's equal_to_1): strides fixed to 1 at
// build time (row-major A, B and C; B column-major), checked by the launcher
void mm_f16_unit_o2(Backend be) {
    check_matmul<Buffers>(be, kF16,
                          MM_LAUNCH(mm_f16_unit_o2, mytriton_fp16, mytriton_fp16, mytriton_fp16));
}
void mm_f16_bcol_o2(Backend be) {
    MatmulCase c = kF16;
    c.b_col = true;
    check_matmul<Buffers>(
        be, c, MM_LAUNCH_BCOL(mm_f16_bcol_o2, mytriton_fp16, mytriton_fp16, mytriton_fp16));
}
// (64, 64) bounding boxes at -O2 that neither the tensor-core nor the
// attention path takes: the blocked emitter's CUDA-core dot
void mm_f64_box_o2(Backend be) {
    MatmulCase c{100, 90, 70, 32, false, false, true};
    check_matmul<Buffers>(be, c, MM_LAUNCH(mm_f64_box_o2, double, double, double));
}
void tile_ieee_box_o2(Backend be) {
    check_dot_tile<Buffers>(be, TileCase{64, 64, 32, 61, 57, false},
                            TileLaunch<float, float>([](bool host, const float *x, const float *y,
                                                        const float *c, float *z, int m, int n) {
                                return host ? (int)launch_tile_ieee_box_o2_host(x, y, c, z, m, n)
                                            : MT_CUDA_CALL(tile_ieee_box_o2, x, y, c, z, m, n);
                            }));
}
// ... in the dtypes of mma.sync: the blocked emitter's dot on tensor cores
#define TILE_CASE(name, TA, TC, ...)                                                          \
    void name(Backend be) {                                                                   \
        check_dot_tile<Buffers>(be, TileCase{__VA_ARGS__},                                    \
                                TileLaunch<TA, TC>([](bool host, const TA *x, const TA *y,    \
                                                      const TC *c, TC *z, int m, int n) {     \
                                    return host ? (int)launch_##name##_host(x, y, c, z, m, n) \
                                                : MT_CUDA_CALL(name, x, y, c, z, m, n);       \
                                }));                                                          \
    }
TILE_CASE(tile_f16_box_o2, mytriton_fp16, float, 64, 64, 32, 61, 57, false)
TILE_CASE(tile_bf16_box_o2, mytriton_bf16, float, 64, 128, 64, 64, 100, false)
TILE_CASE(tile_tf32_box_o2, float, float, 64, 64, 32, 64, 50, true)
TILE_CASE(tile_i8_box_o2, int8_t, int32_t, 64, 64, 64, 61, 57, false)
TEST(Host, UnitStrideOtherThanOneIsRefused) {
    std::vector<mytriton_fp16> a(64), b(64), c(64);
    int status =
        (int)launch_mm_f16_unit_o2_host(a.data(), b.data(), c.data(), 8, 8, 8, 8, 2, 8, 1, 8, 1);
    EXPECT_NE(status, 0);
    EXPECT_NE(std::string(mytriton_last_error()).find("stride_ak = 2, but the signature (:1)"),
              std::string::npos)
        << mytriton_last_error();
}

DOT_TEST(MatmulF16, mm_f16)
DOT_TEST(MatmulF16UnitStridesO2, mm_f16_unit_o2)
DOT_TEST(MatmulF16ColumnMajorBO2, mm_f16_bcol_o2)
DOT_TEST(MatmulF16O2, mm_f16_o2)
DOT_TEST(MatmulF16LeakyReluPlusEq, mm_f16_leaky)
DOT_TEST(MatmulF16Acc16LeakyO2, mm_f16_acc16_o2)
DOT_TEST(MatmulBf16PlusEqO2, mm_bf16_o2)
DOT_TEST(MatmulI8O2, mm_i8_o2)
DOT_TEST(MatmulF16Acc16, mm_f16_acc16)
DOT_TEST(MatmulBf16PlusEq, mm_bf16)
DOT_TEST(MatmulF32Tf32, mm_f32_tf32)
DOT_TEST(MatmulF32Tf32O2, mm_f32_tf32_o2)
DOT_TEST(MatmulF32IeeePlusEq, mm_f32_ieee)
DOT_TEST(MatmulF32Tf32x3Leaky, mm_f32_tf32x3)
DOT_TEST(MatmulF64, mm_f64)
DOT_TEST(MatmulI8, mm_i8)
DOT_TEST(MatmulI8PlusEq, mm_i8_plus)
DOT_TEST(MatmulFp8E4xE5, mm_fp8)
DOT_TEST(MatmulF64BoxO2, mm_f64_box_o2)
DOT_TEST(TileF32IeeeBoxO2, tile_ieee_box_o2)
DOT_TEST(TileF16TensorCoresBoxO2, tile_f16_box_o2)
DOT_TEST(TileBf16TensorCoresBoxWarps8O2, tile_bf16_box_o2)
DOT_TEST(TileTf32TensorCoresBoxO2, tile_tf32_box_o2)
DOT_TEST(TileI8TensorCoresBoxO2, tile_i8_box_o2)

// -O2's tensor-core path of large tiles (emit_cuda_mma.c; CUDA only):
// masked K tails, M and N not multiples of the tile, rows not 16-byte
// aligned (the element-wise copies) beside aligned ones (cp.async).
#if MT_DOT_CUDA
#define MMA_LAUNCH(name, TA, TB, TC)                                                          \
    MatmulLaunch<TA, TB, TC>([](bool, const TA *a, const TB *b, TC *c, int M, int N, int K) { \
        return MT_CUDA_CALL(name, a, b, c, M, N, K, K, 1, N, 1, N, 1);                        \
    })
#define MMA_TEST(name, launch, ...)                                                                \
    TEST(Cuda, name) {                                                                             \
        MT_NEED_GPU();                                                                             \
        for (const MatmulCase &c : {__VA_ARGS__}) check_matmul<Buffers>(Backend::Cuda, c, launch); \
    }
using F16 = mytriton_fp16;
using BF16 = mytriton_bf16;
MMA_TEST(MmaF16Tile64, MMA_LAUNCH(mma_f16_64, F16, F16, F16),
         MatmulCase{300, 270, 100, 32, false, false, false},
         MatmulCase{256, 128, 256, 32, false, false, false})
MMA_TEST(MmaF16Tile128LeakyRelu, MMA_LAUNCH(mma_f16_128_leaky, F16, F16, F16),
         MatmulCase{300, 270, 100, 32, false, false, true},
         MatmulCase{256, 384, 512, 32, false, false, true})
MMA_TEST(MmaF16Tile128x256Warps8, MMA_LAUNCH(mma_f16_128x256_w8, F16, F16, F16),
         MatmulCase{200, 300, 130, 64, false, false, false},
         MatmulCase{256, 512, 256, 64, false, false, false})
// warp-specialized (tl.range(..., warp_specialize=True): the sm_90a body's
// producer warpgroup and mbarriers)
MMA_TEST(MmaF16Tile128x256Warps8WarpSpecialized, MMA_LAUNCH(mma_f16_128x256_w8_ws, F16, F16, F16),
         MatmulCase{200, 300, 130, 64, false, false, false},
         MatmulCase{256, 512, 1024, 64, false, false, false})
MMA_TEST(MmaBf16Tile128LeakyReluPlusEqWarpSpecialized,
         MMA_LAUNCH(mma_bf16_128_leaky_ws, BF16, BF16, BF16),
         MatmulCase{300, 270, 100, 64, false, false, true},
         MatmulCase{129, 257, 333, 64, false, false, true})
MMA_TEST(MmaF16Tile128Warps8Stages4PlusEq, MMA_LAUNCH(mma_f16_128_w8_s4, F16, F16, F16),
         MatmulCase{129, 257, 333, 32, false, false, false},
         MatmulCase{128, 128, 32, 32, false, false, false})
MMA_TEST(MmaF16F32OutStages1, MMA_LAUNCH(mma_f16_f32out_s1, F16, F16, float),
         MatmulCase{100, 200, 150, 64, false, false, false},
         MatmulCase{128, 256, 192, 64, false, false, false})
MMA_TEST(MmaBf16Tile128LeakyReluPlusEq, MMA_LAUNCH(mma_bf16_128_leaky, BF16, BF16, BF16),
         MatmulCase{300, 270, 100, 64, false, false, true},
         MatmulCase{256, 256, 256, 64, false, false, true})
MMA_TEST(MmaBf16Tile64x128, MMA_LAUNCH(mma_bf16_64x128, BF16, BF16, BF16),
         MatmulCase{77, 130, 47, 32, false, false, false},
         MatmulCase{128, 256, 128, 32, false, false, false})
// TF32 (m16n8k8) and int8 (m16n8k32, int32 accumulator)
MMA_TEST(MmaTf32Tile128, MMA_LAUNCH(mma_tf32_128, float, float, float),
         MatmulCase{300, 270, 98, 32, true, false, false},
         MatmulCase{256, 384, 512, 32, true, false, false})
MMA_TEST(MmaTf32Tile128x256Warps8LeakyPlusEq,
         MMA_LAUNCH(mma_tf32_128x256_w8_leaky, float, float, float),
         MatmulCase{200, 300, 130, 32, true, false, true},
         MatmulCase{256, 512, 256, 32, true, false, true})
MMA_TEST(MmaTf32Tile64Stages4, MMA_LAUNCH(mma_tf32_64_s4, float, float, float),
         MatmulCase{77, 130, 47, 32, true, false, false},
         MatmulCase{128, 256, 128, 32, true, false, false})
// block pointers (matmul_bp_kernel): offsets carried by the K loop,
// both bounds of each dimension checked
MMA_TEST(MmaBlockPtrF16Tile128x256Warps8, MMA_LAUNCH(mma_bp_f16_128x256_w8, F16, F16, F16),
         MatmulCase{200, 300, 130, 64, false, false, false},
         MatmulCase{256, 512, 256, 64, false, false, false})
MMA_TEST(MmaBlockPtrTf32Tile64LeakyRelu, MMA_LAUNCH(mma_bp_tf32_64_leaky, float, float, float),
         MatmulCase{77, 130, 47, 32, true, false, true},
         MatmulCase{128, 256, 128, 32, true, false, true})
MMA_TEST(MmaI8Tile128, MMA_LAUNCH(mma_i8_128, int8_t, int8_t, int32_t),
         MatmulCase{300, 270, 100, 64, false, false, false},
         MatmulCase{256, 384, 512, 64, false, false, false})
MMA_TEST(MmaI8Tile128x256Warps8PlusEq, MMA_LAUNCH(mma_i8_128x256_w8_plus, int8_t, int8_t, int32_t),
         MatmulCase{200, 300, 130, 64, false, false, false},
         MatmulCase{256, 512, 256, 64, false, false, false})
// tf32x3: three m16n8k8 per step on the cvt.rna split (about f32 accuracy)
MMA_TEST(MmaTf32x3Tile64x128LeakyPlusEq, MMA_LAUNCH(mma_tf32x3_64x128_leaky, float, float, float),
         MatmulCase{100, 200, 98, 32, false, false, true},
         MatmulCase{128, 256, 256, 32, false, false, true})
MMA_TEST(MmaTf32x3Tile128Warps8, MMA_LAUNCH(mma_tf32x3_128_w8, float, float, float),
         MatmulCase{300, 270, 130, 64, false, false, false},
         MatmulCase{256, 256, 512, 64, false, false, false})
MMA_TEST(MmaTf32x3Tile128Warps4KStep, MMA_LAUNCH(mma_tf32x3_128_w4, float, float, float),
         MatmulCase{300, 270, 130, 32, false, false, false},
         MatmulCase{256, 256, 512, 32, false, false, false})
#if MT_DOT_CUDA
// tf32x3's worst error over K = 4096 (uniform [-1, 1]), relative to sum
// |a b|. The tensor cores' f32 accumulation truncates: big * big added into
// the whole sum at every k-step drifts by about half an ulp of the sum per
// k-step (about 5e-7 here); summed per k-step and added by an IEEE addition
// (both tf32x3 paths) the error is about 5e-8.
double tf32x3_worst(const MatmulLaunch<float, float, float> &launch) {
    return f32_dot_worst_error(128, 128, 4096, 2024,
                               [&](std::vector<float> &a, std::vector<float> &b,
                                   std::vector<float> &c, int M, int N, int K) {
                                   Buffers bufs(Backend::Cuda);
                                   float *da = bufs.put(a), *db = bufs.put(b), *dc = bufs.put(c);
                                   int status = launch(false, da, db, dc, M, N, K);
                                   if (status == 0) bufs.get(c, dc);
                                   return status;
                               });
}
TEST(Cuda, Tf32x3AccuracyStageSums) {
    MT_NEED_GPU();
    double w = tf32x3_worst(MMA_LAUNCH(mma_tf32x3_128_w8, float, float, float));
    std::printf("tf32x3 (stage sums, 128 x 128 x 64, 8 warps): worst error %.3g of sum |a b|\n", w);
    EXPECT_GE(w, 0) << mytriton_last_error();
    EXPECT_LT(w, 2e-7);
}
TEST(Cuda, Tf32x3AccuracyKStep) {
    MT_NEED_GPU();
    double w = tf32x3_worst(MMA_LAUNCH(mma_tf32x3_128_w4, float, float, float));
    std::printf("tf32x3 (k-step sums, 128 x 128 x 32, 4 warps): worst error %.3g of sum |a b|\n",
                w);
    EXPECT_GE(w, 0) << mytriton_last_error();
    EXPECT_LT(w, 2e-7);
}
#endif
MMA_TEST(MmaI8Tile64Stages1, MMA_LAUNCH(mma_i8_64_s1, int8_t, int8_t, int32_t),
         MatmulCase{77, 130, 47, 32, false, false, false},
         MatmulCase{128, 256, 128, 32, false, false, false})
// f32 ieee: CUDA-core fmaf from the same stages and fragment layout
MMA_TEST(MmaIeeeTile128Warps8, MMA_LAUNCH(mma_ieee_128_w8, float, float, float),
         MatmulCase{300, 270, 98, 32, false, false, false},
         MatmulCase{256, 384, 512, 32, false, false, false})
MMA_TEST(MmaIeeeTile64x128LeakyPlusEqStages2,
         MMA_LAUNCH(mma_ieee_64x128_leaky_s2, float, float, float),
         MatmulCase{77, 130, 47, 16, false, false, true},
         MatmulCase{128, 256, 128, 16, false, false, true})
// fp8 e4m3 and e5m2 (mma.sync m16n8k32 on sm_89 and later, f32 accumulator)
using E4M3 = mytriton_fp8e4nv;
using E5M2 = mytriton_fp8e5;
MMA_TEST(MmaE4m3Tile128F16Out, MMA_LAUNCH(mma_e4m3_128, E4M3, E4M3, F16),
         MatmulCase{300, 270, 100, 64, false, false, false},
         MatmulCase{256, 384, 512, 64, false, false, false})
MMA_TEST(MmaE5m2Tile128x256Warps8LeakyPlusEq,
         MMA_LAUNCH(mma_e5m2_128x256_w8_leaky, E5M2, E5M2, float),
         MatmulCase{200, 300, 130, 64, false, false, true},
         MatmulCase{256, 512, 256, 64, false, false, true})
// B column-major with stride_bk fixed to 1 (`i32:1`): staged k-major,
// cp.async along k, fragments by ldmatrix (not .trans)
#define MMA_LAUNCH_BCOL(name, TA, TB, TC)                                                     \
    MatmulLaunch<TA, TB, TC>([](bool, const TA *a, const TB *b, TC *c, int M, int N, int K) { \
        return MT_CUDA_CALL(name, a, b, c, M, N, K, K, 1, 1, K, N, 1);                        \
    })
MatmulCase bcol(MatmulCase c) {
    c.b_col = true;
    return c;
}
// (fp8 with k-major B: wgmma on sm_90a, its accumulation imprecise)
MatmulCase imprecise(MatmulCase c) {
    c.imprecise = true;
    return c;
}
MMA_TEST(MmaF16ColumnMajorBTile128x256Warps8, MMA_LAUNCH_BCOL(mma_f16_bt_128x256_w8, F16, F16, F16),
         bcol(MatmulCase{200, 300, 130, 64, false, false, false}),
         bcol(MatmulCase{256, 512, 256, 64, false, false, false}))
MMA_TEST(MmaBf16ColumnMajorBTile128LeakyPlusEq,
         MMA_LAUNCH_BCOL(mma_bf16_bt_128_leaky, BF16, BF16, BF16),
         bcol(MatmulCase{300, 270, 100, 64, false, false, true}),
         bcol(MatmulCase{256, 256, 256, 64, false, false, true}))
MMA_TEST(MmaBlockPtrBf16ColumnMajorBTile128, MMA_LAUNCH_BCOL(mma_bp_bf16_bt_128, BF16, BF16, BF16),
         bcol(MatmulCase{300, 270, 100, 64, false, false, false}),
         bcol(MatmulCase{256, 256, 256, 64, false, false, false}))
MMA_TEST(MmaE4m3ColumnMajorBTile128, MMA_LAUNCH_BCOL(mma_e4m3_bt_128, E4M3, E4M3, F16),
         imprecise(bcol(MatmulCase{300, 270, 100, 64, false, false, false})),
         imprecise(bcol(MatmulCase{256, 384, 512, 64, false, false, false})))
// k-major B with a producer warpgroup (warp_specialize=True)
MMA_TEST(MmaBf16ColumnMajorBTile64x256WarpSpecializedPlusEq,
         MMA_LAUNCH_BCOL(mma_bf16_bt_64x256_w8_ws, BF16, BF16, BF16),
         bcol(MatmulCase{200, 300, 130, 32, false, false, false}),
         bcol(MatmulCase{128, 512, 256, 32, false, false, false}))
MMA_TEST(MmaE5m2ColumnMajorBTile128x128x128WarpSpecializedLeaky,
         MMA_LAUNCH_BCOL(mma_e5m2_bt_128x128x128_ws_leaky, E5M2, E5M2, float),
         imprecise(bcol(MatmulCase{300, 270, 200, 128, false, false, true})),
         imprecise(bcol(MatmulCase{256, 256, 512, 128, false, false, true})))
MMA_TEST(MmaI8ColumnMajorBTile64x128Stages2PlusEq,
         MMA_LAUNCH_BCOL(mma_i8_bt_64x128_s2, int8_t, int8_t, int32_t),
         bcol(MatmulCase{77, 130, 47, 64, false, false, false}),
         bcol(MatmulCase{128, 256, 128, 64, false, false, false}))
MMA_TEST(MmaTf32ColumnMajorBTile64x128, MMA_LAUNCH_BCOL(mma_tf32_bt_64x128, float, float, float),
         bcol(MatmulCase{77, 130, 47, 32, true, false, false}),
         bcol(MatmulCase{128, 256, 128, 32, true, false, false}))
MMA_TEST(MmaE4m3Tile64Stages1, MMA_LAUNCH(mma_e4m3_64_s1, E4M3, E4M3, float),
         MatmulCase{77, 130, 47, 32, false, false, false},
         MatmulCase{128, 256, 128, 32, false, false, false})
#endif

// Triton-sized tiles, host backend only (mytriton_lang_dot_big).
TEST(Host, MatmulF16Tile128x64LeakyRelu) {
    MatmulCase c{200, 130, 96, 32, false, false, true};
    check_matmul<Buffers>(
        Backend::Host, c,
        MatmulLaunch<mytriton_fp16, mytriton_fp16, mytriton_fp16>(
            [](bool, const mytriton_fp16 *a, const mytriton_fp16 *b, mytriton_fp16 *o, int M, int N,
               int K) { return (int)launch_big_f16_host(a, b, o, M, N, K, K, 1, N, 1, N, 1); }));
}
TEST(Host, MatmulI8Tile64PlusEq) {
    MatmulCase c{100, 70, 160, 64, false, false, false};
    check_matmul<Buffers>(
        Backend::Host, c,
        MatmulLaunch<int8_t, int8_t, int32_t>(
            [](bool, const int8_t *a, const int8_t *b, int32_t *o, int M, int N, int K) {
                return (int)launch_big_i8_host(a, b, o, M, N, K, K, 1, N, 1, N, 1);
            }));
}

// ---- Batched matmul: C[z] = A[z] @ B[z], fp16 in, fp32 out ------------------

// (the -O2 case's tiles, 64 x 64 with 4 warps: the tensor-core path)
#define BMM_LAUNCH(name)                                                                          \
    [](bool host, const mytriton_fp16 *da, const mytriton_fp16 *db, float *dc, int B, int M,      \
       int N, int K) {                                                                            \
        return host ? (int)launch_##name##_host(da, db, dc, M, N, K, M * K, K, 1, K * N, N, 1,    \
                                                M * N, N, 1, B)                                   \
                    : MT_CUDA_CALL(name, da, db, dc, M, N, K, M * K, K, 1, K * N, N, 1, M * N, N, \
                                   1, B);                                                         \
    }

template <class Launch>
void check_bmm(Backend be, Launch launch, int B, int M, int N, int K) {
    Buffers bufs(be);
    auto a = random_elems<mytriton_fp16>((size_t)B * M * K, 3);
    auto b = random_elems<mytriton_fp16>((size_t)B * K * N, 4);
    std::vector<float> c((size_t)B * M * N, -77.0f);
    auto *da = bufs.put(a);
    auto *db = bufs.put(b);
    float *dc = bufs.put(c);
    int st = launch(bufs.host(), da, db, dc, B, M, N, K);
    ASSERT_EQ(st, 0) << mytriton_last_error();
    bufs.get(c, dc);
    int bad = 0;
    for (int z = 0; z < B; z++)
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double ref = 0, mag = 0;
                for (int k = 0; k < K; k++) {
                    double p = Elem<mytriton_fp16>::to(a[((size_t)z * M + i) * K + k]) *
                               Elem<mytriton_fp16>::to(b[((size_t)z * K + k) * N + j]);
                    ref += p;
                    mag += std::fabs(p);
                }
                double got = c[((size_t)z * M + i) * N + j];
                if (!(std::fabs(got - ref) <= mag * K * 0x1p-23 + 1e-30) && bad++ < 5)
                    ADD_FAILURE() << "C[" << z << ", " << i << ", " << j << "] = " << got
                                  << ", expected " << ref;
            }
    EXPECT_EQ(bad, 0);
}
void bmm(Backend be) { check_bmm(be, BMM_LAUNCH(bmm_f16), 3, 40, 24, 50); }
void bmm_o2(Backend be) { check_bmm(be, BMM_LAUNCH(bmm_f16_o2), 3, 150, 100, 90); }
DOT_TEST(BatchedMatmulF16, bmm)
DOT_TEST(BatchedMatmulF16O2, bmm_o2)

// ---- Two chained dots: O = sum over key blocks of f16((Q K^T) * scale) V -----

template <class Launch>
void check_lin_attn(Backend be, Launch launch) {
    const int n = 70, D = 16;
    const float scale = 0.25f;
    Buffers bufs(be);
    auto q = random_elems<mytriton_fp16>((size_t)n * D, 8);
    auto k = random_elems<mytriton_fp16>((size_t)n * D, 9);
    auto v = random_elems<mytriton_fp16>((size_t)n * D, 10);
    std::vector<mytriton_fp16> o((size_t)n * D, Elem<mytriton_fp16>::from(-77));
    auto *dq = bufs.put(q);
    auto *dk = bufs.put(k);
    auto *dv = bufs.put(v);
    auto *dout = bufs.put(o);
    ASSERT_EQ(launch(bufs.host(), dq, dk, dv, dout, n, scale), 0) << mytriton_last_error();
    bufs.get(o, dout);
    int bad = 0;
    for (int i = 0; i < n; i++)
        for (int d = 0; d < D; d++) {
            double ref = 0, mag = 0;
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int e = 0; e < D; e++)
                    s += Elem<mytriton_fp16>::to(q[(size_t)i * D + e]) *
                         Elem<mytriton_fp16>::to(k[(size_t)j * D + e]);
                double p =
                    Elem<mytriton_fp16>::to(Elem<mytriton_fp16>::from((double)((float)s * scale)));
                double x = p * Elem<mytriton_fp16>::to(v[(size_t)j * D + d]);
                ref += x;
                mag += std::fabs(x);
            }
            double got = Elem<mytriton_fp16>::to(o[(size_t)i * D + d]);
            double tol = mag * 0x1p-10 + std::fabs(ref) * 0x1p-10 + 1e-6;
            if (!(std::fabs(got - ref) <= tol) && bad++ < 5)
                ADD_FAILURE() << "O[" << i << ", " << d << "] = " << got << ", expected " << ref;
        }
    EXPECT_EQ(bad, 0);
}

#define LIN_ATTN_LAUNCH(name)                                                             \
    [](bool host, const mytriton_fp16 *q, const mytriton_fp16 *k, const mytriton_fp16 *v, \
       mytriton_fp16 *o, int n, float scale) {                                            \
        return host ? (int)launch_##name##_host(q, k, v, o, n, scale)                     \
                    : MT_CUDA_CALL(name, q, k, v, o, n, scale);                           \
    }
void lin_attn(Backend be) { check_lin_attn(be, LIN_ATTN_LAUNCH(lin_attn)); }
void lin_attn_o2(Backend be) { check_lin_attn(be, LIN_ATTN_LAUNCH(lin_attn_o2)); }
DOT_TEST(LinearAttentionTwoDots, lin_attn)
DOT_TEST(LinearAttentionTwoDotsO2, lin_attn_o2)

// ---- a @ b + bias, bf16 operands ---------------------------------------------

void matmul_op(Backend be) {
    const int BM = 16, BN = 16, BK = 32;
    Buffers bufs(be);
    auto a = random_elems<mytriton_bf16>(BM * BK, 5);
    auto b = random_elems<mytriton_bf16>(BK * BN, 6);
    auto bias = random_elems<float>(BN, 7);
    std::vector<float> c(BM * BN, -77.0f);
    auto *da = bufs.put(a);
    auto *db = bufs.put(b);
    float *dbias = bufs.put(bias);
    float *dc = bufs.put(c);
    int st = bufs.host() ? (int)launch_matmul_op_bf16_host(da, db, dbias, dc)
                         : MT_CUDA_CALL(matmul_op_bf16, da, db, dbias, dc);
    ASSERT_EQ(st, 0) << mytriton_last_error();
    bufs.get(c, dc);
    for (int i = 0; i < BM; i++)
        for (int j = 0; j < BN; j++) {
            double ref = 0, mag = 0;
            for (int k = 0; k < BK; k++) {
                double p =
                    Elem<mytriton_bf16>::to(a[i * BK + k]) * Elem<mytriton_bf16>::to(b[k * BN + j]);
                ref += p;
                mag += std::fabs(p);
            }
            ref += bias[j];
            EXPECT_NEAR(c[i * BN + j], ref, (mag + std::fabs(bias[j])) * BK * 0x1p-23 + 1e-30)
                << i << ", " << j;
        }
}
DOT_TEST(MatmulOperatorBf16Bias, matmul_op)

}  // namespace
