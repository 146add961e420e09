// The rank lowering's forms (remap, the batched tl.dot) through the CPU
// emulation of CUDA (test/emu/fake_cuda): the generated CUDA of
// rank_forms_gen's kernels (CMakeLists.txt) at -O1 (emit_cuda.c) and -O2
// (emit_cuda.c up to 1024 elements, the blocked emitter above), against
// rank_forms_ref.h.
#include <gtest/gtest.h>

#include <vector>

#include "rank_forms_ref.h"
#include "bdot_b_o2.h"
#include "bdot_s_o1.h"
#include "bdot_s_o2.h"
#include "remap1_b_o2.h"
#include "remap1_s_o1.h"
#include "remap1_s_o2.h"
#include "remap2_s_o1.h"
#include "remap2_s_o2.h"
#include "remap2_t_o2.h"
#include "remap2_z_o2.h"

namespace {

using namespace rank_forms;

#define REMAP2(name, R, C, R2, C2, spec)                                      \
    TEST(RankForms, name) {                                                   \
        check_remap2(R, C, R2, C2, spec(),                                    \
                     [](const std::vector<float> &x, std::vector<float> &y) { \
                         return (int)launch_##name(0, x.data(), y.data());    \
                     });                                                      \
    }
#define REMAP1(name, R, C, flat, back)                                                      \
    TEST(RankForms, name) {                                                                 \
        check_remap1(                                                                       \
            R, C, flat(), back(),                                                           \
            [](const std::vector<float> &x, std::vector<float> &y, std::vector<float> &z) { \
                return (int)launch_##name(0, x.data(), y.data(), z.data());                 \
            });                                                                             \
    }
#define BDOT(name, T, B, M, N, K)                                                                  \
    TEST(RankForms, name) {                                                                        \
        check_bdot<T>(B, M, N, K,                                                                  \
                      [](const std::vector<T> &x, const std::vector<T> &y,                         \
                         const std::vector<float> &a, std::vector<float> &z, std::vector<T> &yc) { \
                          return (int)launch_##name(0, x.data(), y.data(), a.data(), z.data(),     \
                                                    yc.data());                                    \
                      });                                                                          \
    }

REMAP2(remap2_s_o1, 4, 8, 8, 4, remap2_s)
REMAP2(remap2_s_o2, 4, 8, 8, 4, remap2_s)
REMAP2(remap2_t_o2, 64, 64, 32, 128, remap2_t)
REMAP2(remap2_z_o2, 128, 32, 64, 64, remap2_z)
REMAP1(remap1_s_o1, 16, 16, remap1_s_flat, remap1_s_back)
REMAP1(remap1_s_o2, 16, 16, remap1_s_flat, remap1_s_back)
REMAP1(remap1_b_o2, 64, 64, remap1_b_flat, remap1_b_back)
BDOT(bdot_s_o1, mytriton_fp16, 2, 16, 16, 16)
BDOT(bdot_s_o2, mytriton_fp16, 2, 16, 16, 16)
BDOT(bdot_b_o2, float, 2, 32, 64, 32)

}  // namespace
