// The generated CUDA of tl.dot kernels run through test/emu's CPU emulation
// of CUDA (one real thread per CUDA thread, __syncthreads a barrier):
// checks the -O1 CUDA path (operands through shared memory, bounding-box
// tile guards) and -O2's tensor-core paths of TF32 and int8 (the small
// tiles' of emit_cuda.c, the large tiles' of emit_cuda_mma.c: emu_*_mma)
// and its CUDA-core body of ieee f32 without a GPU, against dot_ref.h's
// references.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <vector>

#include "dot_ref.h"
#include "emu_f32_ieee.h"
#include "emu_f64_box.h"
#include "emu_tile_f16.h"
#include "emu_tile_i8.h"
#include "emu_tile_ieee.h"
#include "emu_tile_tf32.h"
#include "emu_tile_tf32x3.h"
#include "emu_f32_tf32.h"
#include "emu_f32_tf32_o2.h"
#include "emu_f32_tf32x3.h"
#include "emu_i8.h"
#include "emu_i8_bt_mma.h"
#include "emu_i8_mma.h"
#include "emu_e4m3_bt_mma.h"
#include "emu_e4m3_mma.h"
#include "emu_e5m2_mma.h"
#include "emu_ieee_mma.h"
#include "emu_tf32_bp_bt_mma.h"
#include "emu_tf32_bp_mma.h"
#include "emu_tf32_bt_mma.h"
#include "emu_tf32_mma.h"
#include "emu_tf32x3_mma.h"
#include "emu_tf32x3_kstep_mma.h"

namespace {

using namespace dot_ref;

enum class Backend { Emu };

// Emulated device memory is host memory.
class Buffers {
  public:
    explicit Buffers(Backend) {}
    bool host() const { return false; }
    template <class T>
    T *put(std::vector<T> &v) {
        return v.data();
    }
    template <class T>
    void get(std::vector<T> &, const T *) {}
};

#define EMU_LAUNCH(name, TA, TB, TC)                                                          \
    MatmulLaunch<TA, TB, TC>([](bool, const TA *a, const TB *b, TC *c, int M, int N, int K) { \
        return (int)launch_##name(nullptr, a, b, c, M, N, K, K, 1, N, 1, N, 1);               \
    })

TEST(Matmul, F32Ieee) {
    check_matmul<Buffers>(Backend::Emu, MatmulCase{40, 70, 100, 32, false, false, false},
                          EMU_LAUNCH(emu_f32_ieee, float, float, float));
}
TEST(Matmul, F32Tf32) {
    check_matmul<Buffers>(Backend::Emu, MatmulCase{64, 40, 36, 16, true, false, false},
                          EMU_LAUNCH(emu_f32_tf32, float, float, float));
}
TEST(Matmul, F32Tf32MmaO2PlusEq) {
    check_matmul<Buffers>(Backend::Emu, MatmulCase{64, 40, 36, 16, true, false, false},
                          EMU_LAUNCH(emu_f32_tf32_o2, float, float, float));
}
TEST(Matmul, F32Tf32x3LeakyO2) {
    check_matmul<Buffers>(Backend::Emu, MatmulCase{64, 64, 48, 16, false, false, true},
                          EMU_LAUNCH(emu_f32_tf32x3, float, float, float));
}
// emit_cuda_mma.c (64 x 128 tiles, 4 warps of 32 x 64, 3 stages): ragged
// M, N and K (masked K tail, rows not 16-byte aligned: element-wise
// copies) and aligned ones (cp.async).
TEST(Matmul, Tf32TileMmaLeaky) {
    for (const MatmulCase &c : {MatmulCase{100, 200, 98, 32, true, false, true},
                                MatmulCase{64, 256, 96, 32, true, false, true}})
        check_matmul<Buffers>(Backend::Emu, c, EMU_LAUNCH(emu_tf32_mma, float, float, float));
}
TEST(Matmul, Tf32x3TileMma) {
    for (const MatmulCase &c : {MatmulCase{100, 200, 98, 32, false, false, false},
                                MatmulCase{64, 128, 64, 32, false, false, false}})
        check_matmul<Buffers>(Backend::Emu, c, EMU_LAUNCH(emu_tf32x3_mma, float, float, float));
}
// a 64 x 64 warp tile (128 x 128, 4 warps): each k-step's three products
// summed apart, then added to the accumulator
TEST(Matmul, Tf32x3KStepTileMmaPlusEq) {
    for (const MatmulCase &c : {MatmulCase{100, 200, 98, 32, false, false, false},
                                MatmulCase{128, 256, 64, 32, false, false, false}})
        check_matmul<Buffers>(Backend::Emu, c,
                              EMU_LAUNCH(emu_tf32x3_kstep_mma, float, float, float));
}
// tf32x3's accuracy over a long K (1024, 64 x 128, uniform [-1, 1]): the
// small parts' products of each stage are summed apart and added once, as
// Triton's F32DotTC does. Adding them at every k-step instead gave a worst
// error of 4.3e-7 of sum |a b| here; summed apart, 2.0e-7 (at K = 4096:
// 3.8e-7 and 1.5e-7).
TEST(Matmul, Tf32x3SmallProductsSummedApart) {
    double worst = f32_dot_worst_error(64, 128, 1024, 12345,
                                       [](std::vector<float> &a, std::vector<float> &b,
                                          std::vector<float> &c, int M, int N, int K) {
                                           return (int)launch_emu_tf32x3_mma(
                                               nullptr, a.data(), b.data(), c.data(), M, N, K, K, 1,
                                               N, 1, N, 1);
                                       });
    ASSERT_GE(worst, 0);
    EXPECT_LT(worst, 3e-7);
}
// ieee on the same tiles: CUDA-core fmaf from the shared-memory stages
TEST(Matmul, IeeeTileMmaLeakyPlusEq) {
    for (const MatmulCase &c : {MatmulCase{100, 200, 98, 32, false, false, true},
                                MatmulCase{64, 256, 96, 32, false, false, true}})
        check_matmul<Buffers>(Backend::Emu, c, EMU_LAUNCH(emu_ieee_mma, float, float, float));
}
TEST(Matmul, I8TileMmaPlusEq) {
    for (const MatmulCase &c : {MatmulCase{70, 150, 100, 64, false, false, false},
                                MatmulCase{64, 128, 192, 64, false, false, false}})
        check_matmul<Buffers>(Backend::Emu, c, EMU_LAUNCH(emu_i8_mma, int8_t, int8_t, int32_t));
}
// fp8 (m16n8k32 in int8's fragment layouts, an f32 accumulator): e4m3
// with an f32 result, e5m2 with an f16 one and `acc +=`
TEST(Matmul, E4m3TileMmaLeaky) {
    for (const MatmulCase &c : {MatmulCase{70, 150, 100, 64, false, false, true},
                                MatmulCase{64, 128, 192, 64, false, false, true}})
        check_matmul<Buffers>(Backend::Emu, c,
                              EMU_LAUNCH(emu_e4m3_mma, mytriton_fp8e4nv, mytriton_fp8e4nv, float));
}
TEST(Matmul, E5m2TileMmaF16OutPlusEq) {
    for (const MatmulCase &c : {MatmulCase{77, 90, 47, 32, false, false, false},
                                MatmulCase{128, 64, 96, 32, false, false, false}})
        check_matmul<Buffers>(
            Backend::Emu, c,
            EMU_LAUNCH(emu_e5m2_mma, mytriton_fp8e5, mytriton_fp8e5, mytriton_fp16));
}
// B column-major, stride_bk fixed to 1 (`i32:1`): B staged k-major and
// its fragments read by ldmatrix like A's
#define EMU_LAUNCH_BCOL(name, TA, TB, TC)                                                     \
    MatmulLaunch<TA, TB, TC>([](bool, const TA *a, const TB *b, TC *c, int M, int N, int K) { \
        return (int)launch_##name(nullptr, a, b, c, M, N, K, K, 1, 1, K, N, 1);               \
    })
MatmulCase bcol(MatmulCase c) {
    c.b_col = true;
    return c;
}
TEST(Matmul, E4m3ColumnMajorBTileMmaLeaky) {
    for (const MatmulCase &c : {bcol(MatmulCase{70, 150, 100, 64, false, false, true}),
                                bcol(MatmulCase{64, 128, 192, 64, false, false, true})})
        check_matmul<Buffers>(
            Backend::Emu, c,
            EMU_LAUNCH_BCOL(emu_e4m3_bt_mma, mytriton_fp8e4nv, mytriton_fp8e4nv, float));
}
TEST(Matmul, Tf32ColumnMajorBTileMmaPlusEq) {
    for (const MatmulCase &c : {bcol(MatmulCase{77, 90, 47, 32, true, false, false}),
                                bcol(MatmulCase{64, 128, 96, 32, true, false, false})})
        check_matmul<Buffers>(Backend::Emu, c,
                              EMU_LAUNCH_BCOL(emu_tf32_bt_mma, float, float, float));
}
// block pointers (matmul_bp_kernel): ragged M, N and K checked by
// boundary_check, B row-major and column-major
TEST(Matmul, Tf32BlockPtrTileMma) {
    for (const MatmulCase &c : {MatmulCase{100, 200, 98, 32, true, false, true},
                                MatmulCase{64, 256, 96, 32, true, false, true}})
        check_matmul<Buffers>(Backend::Emu, c, EMU_LAUNCH(emu_tf32_bp_mma, float, float, float));
}
TEST(Matmul, Tf32BlockPtrColumnMajorBTileMma) {
    for (const MatmulCase &c : {bcol(MatmulCase{77, 90, 47, 32, true, false, false}),
                                bcol(MatmulCase{64, 128, 96, 32, true, false, false})})
        check_matmul<Buffers>(Backend::Emu, c,
                              EMU_LAUNCH_BCOL(emu_tf32_bp_bt_mma, float, float, float));
}
TEST(Matmul, I8ColumnMajorBTileMma) {
    for (const MatmulCase &c : {bcol(MatmulCase{70, 150, 100, 64, false, false, false}),
                                bcol(MatmulCase{64, 128, 192, 64, false, false, false})})
        check_matmul<Buffers>(Backend::Emu, c,
                              EMU_LAUNCH_BCOL(emu_i8_bt_mma, int8_t, int8_t, int32_t));
}
TEST(Matmul, I8MmaO2) {
    check_matmul<Buffers>(Backend::Emu, MatmulCase{17, 64, 64, 32, false, false, false},
                          EMU_LAUNCH(emu_i8, int8_t, int8_t, int32_t));
}

// -O2's CUDA-core dot of (64, 64) bounding boxes (the blocked emitter):
// the tutorial in fp64 (a runtime K loop), dot_tile_kernel in each
// precision and dtype
TEST(Matmul, F64BoxLeakyPlusEq) {
    check_matmul<Buffers>(Backend::Emu, MatmulCase{100, 90, 70, 32, false, false, true},
                          EMU_LAUNCH(emu_f64_box, double, double, double));
}

#define EMU_TILE(name, TA, TC)                                                                \
    TileLaunch<TA, TC>([](bool, const TA *x, const TA *y, const TC *c, TC *z, int m, int n) { \
        return (int)launch_##name(nullptr, x, y, c, z, m, n);                                 \
    })

TEST(DotTile, BoxO2) {
    check_dot_tile<Buffers>(Backend::Emu, TileCase{64, 64, 32, 61, 57, false},
                            EMU_TILE(emu_tile_ieee, float, float));
    check_dot_tile<Buffers>(Backend::Emu, TileCase{64, 64, 32, 64, 50, true},
                            EMU_TILE(emu_tile_tf32, float, float));
    check_dot_tile<Buffers>(Backend::Emu, TileCase{64, 64, 32, 33, 64, false},
                            EMU_TILE(emu_tile_tf32x3, float, float));
    check_dot_tile<Buffers>(Backend::Emu, TileCase{64, 64, 32, 61, 57, false},
                            EMU_TILE(emu_tile_f16, mytriton_fp16, float));
    check_dot_tile<Buffers>(Backend::Emu, TileCase{64, 64, 32, 61, 57, false},
                            EMU_TILE(emu_tile_i8, int8_t, int32_t));
}

}  // namespace
