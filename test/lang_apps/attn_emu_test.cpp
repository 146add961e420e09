// kernels/attention.py at -O2 through the attention path (emit_cuda_attn.c:
// two mma.sync dots per iteration, cp.async double buffer, ldmatrix and
// ldmatrix.trans fragments, row reductions over the quad's lanes) compiled
// as C++ against test/emu's CPU emulation of CUDA, whose helpers run the
// same fragment layouts through warp shuffles: fp16, HEAD_DIM 64, BLOCK_M
// 64, BLOCK_N 64, 4 warps, a ragged N_CTX (masked k / v rows, masked q rows
// and stores), causal and not; bf16 with BLOCK_N 32 and 2 warps of 32 rows
// (two 16-row blocks per warp); HEAD_DIM 32 with 16 x 16 tiles and one
// warp; HEAD_DIM 128 with 128 x 64 tiles and 8 warps, causal; attention_other.py (CMakeLists.txt:
// a nonzero `other`, masked groups copied element by element); against attn_ref.h's
// double-precision reference.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "attn_ref.h"
#include "emu_attn64.h"
#include "emu_attn64_bf16.h"
#include "emu_attn128_causal.h"
#include "emu_attn64_causal.h"
#include "emu_attn64_general.h"
#include "emu_attn64_other.h"
#include "emu_attn64_scale.h"
#include "emu_attn_small_causal.h"

namespace {

using namespace attn_ref;

template <class T, class Launch>
void run_case(bool causal, int BH, int N, Launch launch, int D = 64, int BLOCK_M = 64) {
    const float sm_scale = 1.0f / std::sqrt((float)D);
    size_t n = (size_t)BH * N * D;
    std::vector<T> q = random_inputs<T>(n, 11), k = random_inputs<T>(n, 12),
                   v = random_inputs<T>(n, 13);
    std::vector<T> out(n);
    for (auto &x : out) from_float(-7.0f, &x);
    mytriton_grid g = mytriton_grid_2d((N + BLOCK_M - 1) / BLOCK_M, BH);
    ASSERT_EQ((int)launch(g, q.data(), k.data(), v.data(), out.data(), sm_scale, N), 0);
    expect_close(causal ? "causal attention" : "attention", out,
                 reference(q, k, v, BH, N, D, sm_scale, causal));
}

using bf16 = mytriton_bf16;

TEST(AttnMma, Head64Ragged) {
    run_case<half>(false, 1, 200,
                   [](mytriton_grid g, const half *q, const half *k, const half *v, half *o,
                      float s, int n) { return launch_emu_attn64(nullptr, g, q, k, v, o, s, n); });
}
TEST(AttnMma, Head64Causal) {
    run_case<half>(
        true, 2, 200,
        [](mytriton_grid g, const half *q, const half *k, const half *v, half *o, float s, int n) {
            return launch_emu_attn64_causal(nullptr, g, q, k, v, o, s, n);
        });
}
// one block of keys, fewer than BLOCK_N: every k / v row past N masked
TEST(AttnMma, Head64Short) {
    run_case<half>(false, 1, 37,
                   [](mytriton_grid g, const half *q, const half *k, const half *v, half *o,
                      float s, int n) { return launch_emu_attn64(nullptr, g, q, k, v, o, s, n); });
}
TEST(AttnMma, Head64Bf16TwoBlocksPerWarp) {
    run_case<bf16>(
        false, 1, 100,
        [](mytriton_grid g, const bf16 *q, const bf16 *k, const bf16 *v, bf16 *o, float s, int n) {
            return launch_emu_attn64_bf16(nullptr, g, q, k, v, o, s, n);
        });
}

// lang_apps' own tiles (HEAD_DIM 32, 16 x 16, one warp), as CudaO2.attn_causal runs them
TEST(AttnMma, Head32SmallTileCausal) {
    run_case<half>(
        true, 3, 70,
        [](mytriton_grid g, const half *q, const half *k, const half *v, half *o, float s, int n) {
            return launch_emu_attn_small_causal(nullptr, g, q, k, v, o, s, n);
        },
        32, 16);
}

// attention_other.py: `other` 1.0 for k and v, 0.5 for q: the same result, the masked groups
// copied element by element (ragged N_CTX, causal)
TEST(AttnMma, Head64NonzeroOtherCausal) {
    run_case<half>(
        true, 2, 150,
        [](mytriton_grid g, const half *q, const half *k, const half *v, half *o, float s, int n) {
            return launch_emu_attn64_other(nullptr, g, q, k, v, o, s, n);
        });
}

// attention_scale.py: sm_scale read from memory before the loop (loaded once at
// kernel entry), ragged N_CTX, causal
TEST(AttnMma, Head64ScaleFromMemoryCausal) {
    run_case<half>(
        true, 2, 150,
        [](mytriton_grid g, const half *q, const half *k, const half *v, half *o, float s, int n) {
            return launch_emu_attn64_scale(nullptr, g, q, k, v, o, &s, n);
        });
}

// the benchmark's HEAD_DIM 128 tiles: 128 x 64, 8 warps
TEST(AttnMma, Head128Causal) {
    run_case<half>(
        true, 1, 150,
        [](mytriton_grid g, const half *q, const half *k, const half *v, half *o, float s, int n) {
            return launch_emu_attn128_causal(nullptr, g, q, k, v, o, s, n);
        },
        128, 128);
}

// attention_general.py (CMakeLists.txt: a tl.debug_barrier() in the loop):
// not the attention path but the blocked emitter's (64, 64) bounding box,
// two CUDA-core dots per iteration (ragged N_CTX, causal)
TEST(AttnGeneral, Head64CausalBox) {
    run_case<half>(
        true, 2, 150,
        [](mytriton_grid g, const half *q, const half *k, const half *v, half *o, float s, int n) {
            return launch_emu_attn64_general(nullptr, g, q, k, v, o, s, n);
        });
}

}  // namespace
