// The generated CUDA dispatching launchers run on the CPU emulation of CUDA
// (emu/cuda_runtime.h over test/emu/fake_cuda): the CUDA-only parts of the
// dispatch path (event timing, capture status, scratch copies found from
// the allocation's extent, the device identity in the cache) on machines
// without a GPU.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <vector>

#include <cuda_runtime.h>

#include "emu_acc.h"
#include "emu_tagged.h"
#include "mytriton/autotune.h"

namespace {

mytriton_autotune_stats stats() {
    mytriton_autotune_stats s;
    mytriton_autotune_get_stats(&s);
    return s;
}

// Buffers from the emulation's cudaMalloc (host memory with a known extent).
struct Buf {
    float *p = nullptr;
    explicit Buf(size_t n, float v) {
        cudaMalloc((void **)&p, n * sizeof(float));
        for (size_t i = 0; i < n; i++) p[i] = v + (float)(i % 7);
    }
    ~Buf() { cudaFree(p); }
};

class Emu : public ::testing::Test {
  protected:
    void SetUp() override {
        unsetenv("MYTRITON_AUTOTUNE_CACHE");
        mytriton_autotune_reset();
        mt_at_capturing() = false;
        (void)mytriton_register_kernel(&mytriton_kernel_info_emu_tagged);
        (void)mytriton_register_kernel(&mytriton_kernel_info_emu_acc);
    }
    void TearDown() override {
        mt_at_capturing() = false;
        mytriton_autotune_reset();
    }
};

TEST_F(Emu, TimesTheAllowedConfigsWithEventsAndLaunchesTheChoice) {
    const int n = 1000;
    Buf x(n, 1.0f), out(n, 0.0f);
    ASSERT_EQ(launch_emu_tagged(nullptr, x.p, out.p, n), cudaSuccess) << mytriton_last_error();
    EXPECT_EQ(stats().tunings, 1);
    EXPECT_EQ(stats().timed_configs, 2);  // WHEN n >= 4096 keeps config 2 out
    int64_t key[1] = {n};
    int config = -1;
    ASSERT_EQ(mytriton_autotune_choice("emu_tagged", "cuda", 0, key, 1, &config), MYTRITON_SUCCESS);
    ASSERT_NE(config, 2);
    for (int i = 0; i < n; i++)
        ASSERT_EQ(out.p[i], x.p[i] + (float)(config + 1)) << "element " << i;
    // misaligned and odd: the generic variants
    ASSERT_EQ(launch_emu_tagged(nullptr, x.p + 1, out.p + 1, n - 3), cudaSuccess);
    for (int i = 1; i < n - 2; i++) ASSERT_NE(out.p[i], 0.0f);
}

TEST_F(Emu, RestoreUsesAScratchCopyOfTheWholeAllocation) {
    const int n = 5000;
    Buf x(n, 2.0f), out(n, 1.0f);
    std::vector<float> before(out.p, out.p + n), xs(x.p, x.p + n);
    // out + 8: the scratch copy runs from the pointer to the allocation's end
    ASSERT_EQ(launch_emu_acc(nullptr, x.p, out.p + 8, n - 8), cudaSuccess) << mytriton_last_error();
    EXPECT_EQ(stats().tunings, 1);
    EXPECT_EQ(stats().timed_configs, 2);
    for (int i = 0; i < 8; i++) ASSERT_EQ(out.p[i], before[i]);
    for (int i = 8; i < n; i++) ASSERT_EQ(out.p[i], before[i] + xs[i - 8]) << "element " << i;
}

TEST_F(Emu, RestoreWithoutAKnownExtentFails) {
    std::vector<float> x(100, 1.0f), out(100, 0.0f);  // not from cudaMalloc
    EXPECT_EQ(launch_emu_acc(nullptr, x.data(), out.data(), 100), cudaErrorInvalidValue);
    EXPECT_NE(std::string(mytriton_last_error()).find("RESTORE"), std::string::npos)
        << mytriton_last_error();
    for (float v : out) ASSERT_EQ(v, 0.0f);
}

TEST_F(Emu, CaptureLaunchesTheDefaultWithoutTiming) {
    const int n = 5000;
    Buf x(n, 1.0f), out(n, 0.0f);
    mt_at_capturing() = true;
    ASSERT_EQ(launch_emu_tagged(nullptr, x.p, out.p, n), cudaSuccess);
    EXPECT_EQ(stats().timed_configs, 0);
    EXPECT_EQ(stats().defaults, 1);
    for (int i = 0; i < n; i++) ASSERT_EQ(out.p[i], x.p[i] + 1.0f);
    int64_t key[1] = {n};
    int config = -1;
    EXPECT_EQ(mytriton_autotune_choice("emu_tagged", "cuda", 0, key, 1, &config),
              MYTRITON_NOT_FOUND);
    // a tuned key under capture: its choice, still no timing
    mt_at_capturing() = false;
    ASSERT_EQ(mytriton_autotune_force("emu_tagged", "cuda", 0, key, 1, 2), MYTRITON_SUCCESS);
    mt_at_capturing() = true;
    ASSERT_EQ(launch_emu_tagged(nullptr, x.p, out.p, n), cudaSuccess);
    for (int i = 0; i < n; i++) ASSERT_EQ(out.p[i], x.p[i] + 3.0f);
    EXPECT_EQ(stats().timed_configs, 0);
}

TEST_F(Emu, CacheLinesNameTheDevice) {
    ::mkdir(MT_AT_SCRATCH, 0755);
    std::string path = std::string(MT_AT_SCRATCH) + "_cache.txt";
    std::remove(path.c_str());
    const int n = 640;
    Buf x(n, 1.0f), out(n, 0.0f);
    ASSERT_EQ(launch_emu_tagged(nullptr, x.p, out.p, n), cudaSuccess);
    ASSERT_EQ(mytriton_autotune_save(path.c_str()), MYTRITON_SUCCESS);
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    EXPECT_NE(ss.str().find("emu_tagged\tcuda\t"), std::string::npos) << ss.str();
    EXPECT_NE(ss.str().find("\tEmulated GPU\t75\t640\t"), std::string::npos) << ss.str();
    mytriton_autotune_reset();
    ASSERT_EQ(mytriton_autotune_load(path.c_str()), MYTRITON_SUCCESS);
    ASSERT_EQ(launch_emu_tagged(nullptr, x.p, out.p, n), cudaSuccess);
    EXPECT_EQ(stats().cache_hits, 1);
    EXPECT_EQ(stats().timed_configs, 0);
}

TEST_F(Emu, PretuneThroughTheRegistry) {
    const int n = 4096;
    Buf x(n, 2.0f), out(n, 1.0f);
    float *xp = x.p, *op = out.p;
    int nn = n;
    void *set[] = {&xp, &op, &nn};
    void *const *sets[] = {set};
    ASSERT_EQ(mytriton_autotune_pretune("emu_acc", "cuda", nullptr, sets, 1, nullptr),
              MYTRITON_SUCCESS)
        << mytriton_last_error();
    EXPECT_EQ(stats().tunings, 1);
    for (int i = 0; i < n; i++)
        ASSERT_EQ(out.p[i], 1.0f + (float)(i % 7)) << "RESTORE: pre-tuning leaves out alone";
}

}  // namespace
