// The rank lowering's forms (remap, the batched tl.dot) on the host backend
// (always) and on CUDA (skipped without a GPU): the kernels of
// kernels/rank_forms.py rewritten by rank_forms_gen (CMakeLists.txt),
// against rank_forms_ref.h.
#include <gtest/gtest.h>

#include <string>
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

#if MT_RANK_CUDA
#include <cuda_runtime_api.h>
#include "../support/gpu.h"
#endif

namespace {

using namespace rank_forms;

#if MT_RANK_CUDA
// A host vector's copy on the device, copied back by get().
template <typename T>
struct Dev {
    T *d = nullptr;
    size_t n;
    explicit Dev(const std::vector<T> &h) : n(h.size()) {
        EXPECT_EQ(cudaMalloc(reinterpret_cast<void **>(&d), n * sizeof(T)), cudaSuccess);
        EXPECT_EQ(cudaMemcpy(d, h.data(), n * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    }
    Dev(const Dev &) = delete;
    Dev &operator=(const Dev &) = delete;
    ~Dev() { cudaFree(d); }
    void get(std::vector<T> &h) {
        EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        EXPECT_EQ(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    }
};

#define NEED_GPU() MT_SKIP_WITHOUT_GPU()
#else
#define NEED_GPU() GTEST_SKIP() << "built without CUDA"
#endif

// remap2_<case>: (x, y)
#define REMAP2(name, R, C, R2, C2, spec)                                               \
    TEST(Host, name) {                                                                 \
        check_remap2(R, C, R2, C2, spec(),                                             \
                     [](const std::vector<float> &x, std::vector<float> &y) {          \
                         return (int)launch_##name##_host(x.data(), y.data());         \
                     });                                                               \
    }                                                                                  \
    TEST(Cuda, name) {                                                                 \
        NEED_GPU();                                                                    \
        CUDA_RUN(check_remap2(R, C, R2, C2, spec(),                                    \
                              [](const std::vector<float> &x, std::vector<float> &y) { \
                                  Dev<float> dx(x), dy(y);                             \
                                  int st = (int)launch_##name(0, dx.d, dy.d);          \
                                  dy.get(y);                                           \
                                  return st;                                           \
                              }));                                                     \
    }

// remap1_<case>: (x, y, z)
#define REMAP1(name, R, C, flat, back)                                                      \
    TEST(Host, name) {                                                                      \
        check_remap1(                                                                       \
            R, C, flat(), back(),                                                           \
            [](const std::vector<float> &x, std::vector<float> &y, std::vector<float> &z) { \
                return (int)launch_##name##_host(x.data(), y.data(), z.data());             \
            });                                                                             \
    }                                                                                       \
    TEST(Cuda, name) {                                                                      \
        NEED_GPU();                                                                         \
        CUDA_RUN(check_remap1(                                                              \
            R, C, flat(), back(),                                                           \
            [](const std::vector<float> &x, std::vector<float> &y, std::vector<float> &z) { \
                Dev<float> dx(x), dy(y), dz(z);                                             \
                int st = (int)launch_##name(0, dx.d, dy.d, dz.d);                           \
                dy.get(y);                                                                  \
                dz.get(z);                                                                  \
                return st;                                                                  \
            }));                                                                            \
    }

// bdot_<case>: (x, y, a, z, yc), operands of type T
#define BDOT(name, T, B, M, N, K)                                                                  \
    TEST(Host, name) {                                                                             \
        check_bdot<T>(B, M, N, K,                                                                  \
                      [](const std::vector<T> &x, const std::vector<T> &y,                         \
                         const std::vector<float> &a, std::vector<float> &z, std::vector<T> &yc) { \
                          return (int)launch_##name##_host(x.data(), y.data(), a.data(), z.data(), \
                                                           yc.data());                             \
                      });                                                                          \
    }                                                                                              \
    TEST(Cuda, name) {                                                                             \
        NEED_GPU();                                                                                \
        CUDA_RUN(check_bdot<T>(                                                                    \
            B, M, N, K,                                                                            \
            [](const std::vector<T> &x, const std::vector<T> &y, const std::vector<float> &a,      \
               std::vector<float> &z, std::vector<T> &yc) {                                        \
                Dev<T> dx(x), dy(y), dyc(yc);                                                      \
                Dev<float> da(a), dz(z);                                                           \
                int st = (int)launch_##name(0, dx.d, dy.d, da.d, dz.d, dyc.d);                     \
                dz.get(z);                                                                         \
                dyc.get(yc);                                                                       \
                return st;                                                                         \
            }));                                                                                   \
    }

#if MT_RANK_CUDA
#define CUDA_RUN(x) x
#else
#define CUDA_RUN(x) (void)0
#endif

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
