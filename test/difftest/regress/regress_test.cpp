// Regressions of the differential run (issue 17): the generated kernels
// k9001 and k16199 (regress/CMakeLists.txt), compiled at -O2 for num_warps
// 1, 2, 4 and 8. Cuda.*: the GPU's outputs equal the host backend's, bit for
// bit, on the difftest generator's inputs. Gen.* and Ptx.*: the generated CUDA and its PTX
// use the guarded integer maximum (cb_int_minmax in
// compiler/src/backends/cuda/emit_cuda_blocked.c), so that ptxas has no max.s32 chain to
// fuse into VIMNMX3 (CUDA 13.0's ptxas dropped a negation there).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#if MT_REGRESS_CUDA
#include <cuda_runtime.h>
#endif

#include "mytriton_difftest_regress.h"

namespace {

constexpr uint32_t kSentinel = 0x7fa5a5a5u;  // output elements a kernel did not write (difftest's)

// One kernel's pointer arguments: element counts and which are outputs.
struct Buffers {
    std::vector<std::vector<uint32_t>> data;
    std::vector<bool> out;
};

// The difftest generator's inputs (kernel_gen.cpp's Rng and fill_input):
// pointer argument `index` of kernel `seed` filled from Rng(seed * 1000003 +
// index), integers in [-16, 16], floats k/8 with k in [-32, 32]. The
// miscompile shows with these (k16199: in one element of the last block).
struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull) {}
    uint64_t next() {
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    int range(int lo, int hi) { return lo + (int)(next() % (uint64_t)(hi - lo + 1)); }
};

// One kernel's pointer arguments: element counts, position among all the
// kernel's arguments, element type, output or input.
struct Ptr {
    int count, index;
    bool is_float, out;
};

Buffers make_buffers(const std::vector<Ptr> &ptrs, uint64_t seed) {
    Buffers b;
    for (const Ptr &p : ptrs) {
        std::vector<uint32_t> v((size_t)p.count, kSentinel);
        Rng r(seed * 1000003ull + (uint64_t)p.index);
        if (!p.out)
            for (auto &x : v) {
                if (p.is_float) {
                    float f = (float)r.range(-32, 32) / 8.0f;
                    std::memcpy(&x, &f, 4);
                } else {
                    x = (uint32_t)r.range(-16, 16);
                }
            }
        b.data.push_back(v);
        b.out.push_back(p.out);
    }
    return b;
}

// The outputs of `a` and `b` differ: where, first few (the GPU runs' check).
[[maybe_unused]] ::testing::AssertionResult same_outputs(const Buffers &want, const Buffers &got) {
    int bad = 0;
    std::ostringstream why;
    for (size_t i = 0; i < want.data.size(); i++) {
        if (!want.out[i]) continue;
        for (size_t e = 0; e < want.data[i].size(); e++)
            if (want.data[i][e] != got.data[i][e] && bad++ < 8)
                why << " arg " << i << "[" << e << "]: gpu " << (int32_t)got.data[i][e] << " host "
                    << (int32_t)want.data[i][e] << ";";
    }
    if (!bad) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << bad << " output elements differ:" << why.str();
}

using Launch = std::function<int(std::vector<void *> &)>;

#if MT_REGRESS_CUDA
bool have_gpu() {
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

// Runs `launch` on device copies of `b`; the outputs copied back.
void run_gpu(Buffers *b, const Launch &launch) {
    std::vector<void *> d(b->data.size(), nullptr);
    for (size_t i = 0; i < d.size(); i++) {
        size_t bytes = b->data[i].size() * 4;
        ASSERT_EQ(cudaMalloc(&d[i], bytes), cudaSuccess);
        ASSERT_EQ(cudaMemcpy(d[i], b->data[i].data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
    }
    ASSERT_EQ(launch(d), 0);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (size_t i = 0; i < d.size(); i++) {
        if (b->out[i]) {
            ASSERT_EQ(
                cudaMemcpy(b->data[i].data(), d[i], b->data[i].size() * 4, cudaMemcpyDeviceToHost),
                cudaSuccess);
        }
        cudaFree(d[i]);
    }
}
#endif

void run_host(Buffers *b, const Launch &launch) {
    std::vector<void *> p;
    for (auto &v : b->data) p.push_back(v.data());
    ASSERT_EQ(launch(p), 0);
}

// k9001(n, in1, f2, f3, in4, out5, out6, out7, out8), n = 358, grid 2
const std::vector<Ptr> k9001_ptrs = {{358, 1, true, false}, {358, 4, true, false},
                                     {358, 5, false, true}, {358, 6, false, true},
                                     {358, 7, false, true}, {2, 8, false, true}};
#define K9001_ARGS(p)                                                                  \
    358, (const float *)(p)[0], 3.0f, -3.5f, (const float *)(p)[1], (int32_t *)(p)[2], \
        (int32_t *)(p)[3], (int32_t *)(p)[4], (int32_t *)(p)[5]
// k16199(n, in1, in2, s3, f4, out5, out6, out7), n = 518, grid 3
const std::vector<Ptr> k16199_ptrs = {{518, 1, true, false},
                                      {518, 2, false, false},
                                      {518, 5, false, true},
                                      {518, 6, false, true},
                                      {518, 7, false, true}};
#define K16199_ARGS(p)                                                               \
    518, (const float *)(p)[0], (const int32_t *)(p)[1], 4, 3.0f, (int32_t *)(p)[2], \
        (int32_t *)(p)[3], (int32_t *)(p)[4]

std::string slurp(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

int count(const std::string &text, const std::string &what) {
    int n = 0;
    for (size_t at = 0; (at = text.find(what, at)) != std::string::npos; at += what.size()) n++;
    return n;
}

}  // namespace

#if MT_REGRESS_CUDA
#define CUDA_CASE(kname, KARGS, w, seed)                                  \
    TEST(Cuda, kname##_num_warps_##w) {                                   \
        if (!have_gpu()) GTEST_SKIP() << "no CUDA device";                \
        Buffers host = make_buffers(kname##_ptrs, seed);                  \
        Buffers gpu = host;                                               \
        run_host(&host, [](std::vector<void *> &p) {                      \
            return (int)launch_regress_##kname##_w##w##_host(KARGS(p));   \
        });                                                               \
        run_gpu(&gpu, [](std::vector<void *> &p) {                        \
            return (int)launch_regress_##kname##_w##w(nullptr, KARGS(p)); \
        });                                                               \
        EXPECT_TRUE(same_outputs(host, gpu));                             \
    }
#else
#define CUDA_CASE(kname, KARGS, w, seed) \
    TEST(Cuda, kname##_num_warps_##w) { GTEST_SKIP() << "built without CUDA"; }
#endif

CUDA_CASE(k9001, K9001_ARGS, 1, 9001)
CUDA_CASE(k9001, K9001_ARGS, 2, 9001)
CUDA_CASE(k9001, K9001_ARGS, 4, 9001)
CUDA_CASE(k9001, K9001_ARGS, 8, 9001)
CUDA_CASE(k16199, K16199_ARGS, 1, 16199)
CUDA_CASE(k16199, K16199_ARGS, 2, 16199)
CUDA_CASE(k16199, K16199_ARGS, 4, 16199)
CUDA_CASE(k16199, K16199_ARGS, 8, 16199)

// The host backend alone (no GPU): the kernels run and write every output.
TEST(Gen, host_runs_and_writes_outputs) {
    Buffers a = make_buffers(k9001_ptrs, 9001);
    run_host(&a, [](std::vector<void *> &p) {
        return (int)launch_regress_k9001_w1_host(K9001_ARGS(p));
    });
    Buffers b = make_buffers(k16199_ptrs, 16199);
    run_host(&b, [](std::vector<void *> &p) {
        return (int)launch_regress_k16199_w1_host(K16199_ARGS(p));
    });
    for (const Buffers *x : {&a, &b}) {
        for (size_t i = 0; i < x->data.size(); i++) {
            if (!x->out[i]) continue;
            for (uint32_t v : x->data[i]) ASSERT_NE(v, kSentinel);
        }
    }
}

const char *const kUnits[] = {"regress_k9001_w1",  "regress_k9001_w2",  "regress_k9001_w4",
                              "regress_k9001_w8",  "regress_k16199_w1", "regress_k16199_w2",
                              "regress_k16199_w4", "regress_k16199_w8"};

// The generated -O2 CUDA: every integer maximum is the guarded helper, none
// is CUDA's max() (which nvcc emits as max.s32).
TEST(Gen, integer_max_uses_guarded_helper) {
    for (const char *u : kUnits) {
        std::string cu = slurp(std::string(MT_REGRESS_GEN_DIR) + "/" + u + ".cu");
        ASSERT_FALSE(cu.empty()) << u;
        EXPECT_GT(count(cu, "mt_max_s32(r, "), 0) << u;  // the reduction trees
        EXPECT_EQ(count(cu, " max("), 0) << u;
        EXPECT_EQ(count(cu, "setp.gt.s32 p, %1, %2; selp.b32 %0, %1, %2, p;"), 1) << u;
    }
}

// The PTX ptxas gets (nvcc -ptx -arch=sm_90): no max.s32 / min.s32 at all,
// the maxima are setp.gt.s32 and selp.b32.
TEST(Ptx, no_integer_max_instructions) {
#ifndef MT_REGRESS_PTX_DIR
    GTEST_SKIP() << "built without a CUDA compiler";
#else
    for (const char *u : kUnits) {
        std::string ptx = slurp(std::string(MT_REGRESS_PTX_DIR) + "/" + u + ".ptx");
        ASSERT_FALSE(ptx.empty()) << u;
        EXPECT_EQ(count(ptx, "max.s32"), 0) << u;
        EXPECT_EQ(count(ptx, "min.s32"), 0) << u;
        EXPECT_GT(count(ptx, "setp.gt.s32"), 0) << u;
        EXPECT_GT(count(ptx, "selp.b32"), 0) << u;
    }
#endif
}
