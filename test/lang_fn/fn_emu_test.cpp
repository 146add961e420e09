// The generated CUDA of device_print and device_assert kernels (-O1, -O2)
// run on test/emu's CPU emulation of CUDA: the printed lines (in any
// order, as on a GPU) are Triton's, and a failing assertion aborts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cuda_runtime.h"
#include "emu_fn_assert_o1.h"
#include "emu_fn_assert_o2.h"
#include "emu_fn_classes_o1.h"
#include "emu_fn_classes_o2.h"
#include "emu_fn_forms_o1.h"
#include "emu_fn_forms_o2.h"
#include "emu_fn_print2d_o1.h"
#include "emu_fn_print2d_o2.h"
#include "emu_fn_print_o1.h"
#include "emu_fn_print_o2.h"

namespace {

std::vector<std::string> sorted_lines(const std::string &text) {
    std::vector<std::string> lines;
    size_t at = 0;
    while (at < text.size()) {
        size_t nl = text.find('\n', at);
        if (nl == std::string::npos) nl = text.size();
        lines.push_back(text.substr(at, nl - at));
        at = nl + 1;
    }
    std::sort(lines.begin(), lines.end());
    return lines;
}

template <typename F>
std::string captured(F run) {
    fflush(stdout);
    testing::internal::CaptureStdout();
    run();
    fflush(stdout);
    return testing::internal::GetCapturedStdout();
}

TEST(Emu, DevicePrint) {
    float x[4] = {1.5f, -2.0f, 0.25f, 3.0f};
    int32_t iv[4] = {1, -2, 300, 7};
    const char *want =
        "pid (0, 0, 0) idx (0) x: 1.500000\n"
        "pid (0, 0, 0) idx (1) x: -2.000000\n"
        "pid (0, 0, 0) idx (2) x: 0.250000\n"
        "pid (0, 0, 0) idx (3) x: 3.000000\n"
        "pid (0, 0, 0) idx (0) vals: (operand 0) 1\n"
        "pid (0, 0, 0) idx (1) vals: (operand 0) -2\n"
        "pid (0, 0, 0) idx (2) vals: (operand 0) 300\n"
        "pid (0, 0, 0) idx (3) vals: (operand 0) 7\n"
        "pid (0, 0, 0) idx (0) vals: (operand 1) 3.000000\n"
        "pid (0, 0, 0) idx (1) vals: (operand 1) -4.000000\n"
        "pid (0, 0, 0) idx (2) vals: (operand 1) 0.500000\n"
        "pid (0, 0, 0) idx (3) vals: (operand 1) 6.000000\n"
        "pid (0, 0, 0) idx (0) h: 0x00000001\n"
        "pid (0, 0, 0) idx (1) h: 0xfffffffe\n"
        "pid (0, 0, 0) idx (2) h: 0x0000012c\n"
        "pid (0, 0, 0) idx (3) h: 0x00000007\n";
    std::string o1 = captured([&] { EXPECT_EQ(launch_emu_fn_print_o1(nullptr, x, iv), 0); });
    std::string o2 = captured([&] { EXPECT_EQ(launch_emu_fn_print_o2(nullptr, x, iv), 0); });
    EXPECT_EQ(sorted_lines(o1), sorted_lines(want));
    EXPECT_EQ(sorted_lines(o2), sorted_lines(want));
}

TEST(Emu, DevicePrintTileRowsColumns) {
    float x[32];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 8; c++) x[r * 8 + c] = (float)(r * 10 + c);
    std::string want;
    char line[128];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 8; c++) {
            std::snprintf(line, sizeof line, "pid (0, 0, 0) idx (%d, %d) t: %f\n", r, c,
                          (double)(r * 10 + c));
            want += line;
        }
    for (int r = 0; r < 4; r++) {
        std::snprintf(line, sizeof line, "pid (0, 0, 0) idx (%d, 0) r: %d\n", r, r);
        want += line;
    }
    for (int c = 0; c < 8; c++) {
        std::snprintf(line, sizeof line, "pid (0, 0, 0) idx (0, %d) c: 0x%02x\n", c, c);
        want += line;
    }
    for (int a = 0; a < 2; a++)
        for (int r = 0; r < 2; r++)
            for (int c = 0; c < 8; c++) {
                std::snprintf(line, sizeof line, "pid (0, 0, 0) idx (%d, %d, %d) u: %f\n", a, r, c,
                              (double)((a * 2 + r) * 10 + c));
                want += line;
            }
    std::string o1 = captured([&] { EXPECT_EQ(launch_emu_fn_print2d_o1(nullptr, x), 0); });
    std::string o2 = captured([&] { EXPECT_EQ(launch_emu_fn_print2d_o2(nullptr, x), 0); });
    EXPECT_EQ(sorted_lines(o1), sorted_lines(want));
    EXPECT_EQ(sorted_lines(o2), sorted_lines(want));
}

TEST(Emu, DeviceAssert) {
    const int n = 40;
    std::vector<float> x(n, 1.0f), out(n);
    EXPECT_EQ(launch_emu_fn_assert_o1(nullptr, x.data(), out.data(), n), 0);
    EXPECT_EQ(launch_emu_fn_assert_o2(nullptr, x.data(), out.data(), n), 0);
    EXPECT_EQ(out[n - 1], 2.0f);
    x[37] = -3.0f;
    EXPECT_DEATH(launch_emu_fn_assert_o1(nullptr, x.data(), out.data(), n), "negative input");
    EXPECT_DEATH(launch_emu_fn_assert_o2(nullptr, x.data(), out.data(), n), "negative input");
}

// tl.assume, a runtime block given to a parameter annotated tl.constexpr and
// the dtype of a name assigned a number (issue 51), at -O1 and -O2.
TEST(Emu, TritonForms) {
    const int B = 16;
    using Fn = cudaError_t (*)(cudaStream_t, const float *, float *, int32_t *, int32_t);
    for (Fn f : {launch_emu_fn_forms_o1, launch_emu_fn_forms_o2})
        for (int n : {1, 7, 16}) {
            std::vector<float> x(B * B), out(B * B, -1.0f), want(B * B);
            for (int e = 0; e < B * B; e++) x[e] = (float)((e * 7) % 23 - 11) * 0.25f;
            std::vector<int32_t> rows(B, -1), want_rows(B);
            for (int i = 0; i < B; i++) {
                float sum = 0.0f;
                for (int j = 0; j < B; j++) {
                    float a = i >= j && j < n ? x[i * B + j] : 0.0f;
                    sum += a;
                    want[i * B + j] = a * 2.5f;
                }
                want_rows[i] = sum > 0.0f ? 1 : 0;
            }
            EXPECT_EQ(f(nullptr, x.data(), out.data(), rows.data(), n), 0);
            EXPECT_EQ(out, want) << "n " << n;
            EXPECT_EQ(rows, want_rows) << "n " << n;
        }
}

// triton.language.core's constexprs and isinstance (issue 51): the
// descriptor made once, the tile copied, the flags Triton's isinstance gives.
TEST(Emu, CoreConstexprsAndIsinstance) {
    const int M = 40, N = 16, programs = 3;
    using Fn = cudaError_t (*)(cudaStream_t, const float *, float *, int32_t *, int32_t, int32_t);
    for (Fn f : {launch_emu_fn_classes_o1, launch_emu_fn_classes_o2}) {
        std::vector<float> x(M * N), out(M * N, -1.0f);
        for (int e = 0; e < M * N; e++) x[e] = (float)((e * 5) % 17 - 8) * 0.5f;
        std::vector<int32_t> flags(programs, -1);
        EXPECT_EQ(f(nullptr, x.data(), out.data(), flags.data(), M, N), 0);
        EXPECT_EQ(out, x);
        EXPECT_EQ(flags, std::vector<int32_t>(programs, 949));
    }
}

}  // namespace

// CUDA's device-side assertion, for the emulation: CUDA's message, abort().
extern "C" void __assertfail(const char *msg, const char *file, unsigned line, const char *func,
                             size_t) {
    std::fprintf(
        stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", file,
        line, func, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z, msg);
    std::abort();
}
