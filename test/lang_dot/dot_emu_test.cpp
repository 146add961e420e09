// The generated CUDA of tl.dot kernels run through test/emu's CPU emulation
// of CUDA (one real thread per CUDA thread, __syncthreads a barrier):
// checks the -O1 CUDA path (operands through shared memory, bounding-box
// tile guards) without a GPU, against dot_ref.h's references.
#include <gtest/gtest.h>

#include <vector>

#include "dot_ref.h"
#include "emu_f32_ieee.h"
#include "emu_f32_tf32.h"
#include "emu_f32_tf32_o2.h"
#include "emu_f32_tf32x3.h"
#include "emu_i8.h"

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
TEST(Matmul, I8MmaO2) {
    check_matmul<Buffers>(Backend::Emu, MatmulCase{17, 64, 64, 32, false, false, false},
                          EMU_LAUNCH(emu_i8, int8_t, int8_t, int32_t));
}

}  // namespace
