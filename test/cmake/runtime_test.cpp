// Unit tests of libmytriton_runtime: status strings, the thread-local last
// error, grid checks, the kernel registry and the host executor.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "mytriton/runtime.h"

#if MT_TEST_CUDART
#include <cuda_runtime_api.h>
#endif

namespace {

// ---- status strings ---------------------------------------------------------

TEST(Status, StringsAreFixedAndNeverNull) {
    EXPECT_STREQ(mytriton_status_string(MYTRITON_SUCCESS), "success");
    EXPECT_STREQ(mytriton_status_string(MYTRITON_INVALID_VALUE), "invalid value");
    EXPECT_STREQ(mytriton_status_string(MYTRITON_OUT_OF_MEMORY), "out of memory");
    EXPECT_STREQ(mytriton_status_string(MYTRITON_NOT_FOUND), "not found");
    EXPECT_STREQ(mytriton_status_string(MYTRITON_NO_DEVICE), "no device");
    EXPECT_STREQ(mytriton_status_string(MYTRITON_LAUNCH_FAILED), "launch failed");
    EXPECT_STREQ(mytriton_status_string(-7), "unknown status");
    EXPECT_STREQ(mytriton_status_string(12345), "unknown status");
}

TEST(Status, CudaCodesHaveTheirNames) {
    // cudaErrorInvalidConfiguration, cudaErrorIllegalAddress: what CUDA
    // launchers return besides mytriton's own codes
    EXPECT_STREQ(mytriton_status_string(9), "cudaErrorInvalidConfiguration");
    EXPECT_STREQ(mytriton_status_string(700), "cudaErrorIllegalAddress");
#if MT_TEST_CUDART
    // every code the CUDA runtime names, against cudaGetErrorName
    int checked = 0;
    for (int code = 1; code < 1000; code++) {
        const char *name = cudaGetErrorName(static_cast<cudaError_t>(code));
        if (!name || std::string(name).find("cudaError") != 0 || code == 999) continue;
        if (code == MYTRITON_INVALID_VALUE || code == MYTRITON_OUT_OF_MEMORY ||
            code == MYTRITON_NO_DEVICE || code == MYTRITON_NOT_FOUND ||
            code == MYTRITON_LAUNCH_FAILED)
            continue;
        EXPECT_STREQ(mytriton_status_string(code), name) << code;
        checked++;
    }
    EXPECT_GT(checked, 50);
#endif
}

TEST(Status, CudaLaunchersSetTheText) {
    mytriton_set_status_text(9, "invalid configuration argument");
    EXPECT_STREQ(mytriton_status_string(9), "invalid configuration argument");
    EXPECT_STREQ(mytriton_status_string(700), "cudaErrorIllegalAddress");  // another code: its name
    EXPECT_STREQ(mytriton_status_string(MYTRITON_INVALID_VALUE), "invalid value");
    std::string other;
    std::thread t([&] { other = mytriton_status_string(9); });  // per thread
    t.join();
    EXPECT_EQ(other, "cudaErrorInvalidConfiguration");
    mytriton_set_status_text(0, nullptr);
    EXPECT_STREQ(mytriton_status_string(9), "cudaErrorInvalidConfiguration");
}

// Without an NVIDIA driver CUDA says "driver version is insufficient": the
// runtime's text says what is missing, CUDA's text after it.
TEST(Status, NoDriverIsSaidPlainly) {
    const char *cuda = "CUDA driver version is insufficient for CUDA runtime version";
    EXPECT_STREQ(mytriton_cuda_error_text(35, cuda),
                 "no NVIDIA driver was found, or it is older than this program's CUDA runtime "
                 "(CUDA: CUDA driver version is insufficient for CUDA runtime version)");
    EXPECT_STREQ(mytriton_cuda_error_text(100, "no CUDA-capable device is detected"),
                 "no NVIDIA GPU was found (CUDA: no CUDA-capable device is detected)");
    EXPECT_NE(std::string(mytriton_cuda_error_text(34, "stub")).find("no NVIDIA driver was found"),
              std::string::npos);
    EXPECT_STREQ(mytriton_cuda_error_text(700, "an illegal memory access was encountered"),
                 "an illegal memory access was encountered");  // other codes as they are
    EXPECT_STREQ(mytriton_cuda_error_text(9, nullptr), "cudaErrorInvalidConfiguration");
    // a CUDA launcher's failure: mytriton_status_string() says it too
    mytriton_set_status_text(35, cuda);
    EXPECT_NE(std::string(mytriton_status_string(35)).find("no NVIDIA driver was found"),
              std::string::npos);
    mytriton_set_status_text(0, nullptr);
#if MT_TEST_CUDART
    int devices = 0;
    cudaError_t e = cudaGetDeviceCount(&devices);
    if (e == cudaErrorInsufficientDriver) {  // this machine has no driver
        EXPECT_NE(std::string(mytriton_cuda_error_text(e, cudaGetErrorString(e)))
                      .find("no NVIDIA driver was found"),
                  std::string::npos);
    }
#endif
}

TEST(Status, ValuesMatchCuda) {
    // cudaSuccess, cudaErrorInvalidValue, cudaErrorMemoryAllocation,
    // cudaErrorNoDevice, cudaErrorNotFound, cudaErrorLaunchFailure.
    EXPECT_EQ(MYTRITON_SUCCESS, 0);
    EXPECT_EQ(MYTRITON_INVALID_VALUE, 1);
    EXPECT_EQ(MYTRITON_OUT_OF_MEMORY, 2);
    EXPECT_EQ(MYTRITON_NO_DEVICE, 100);
    EXPECT_EQ(MYTRITON_NOT_FOUND, 500);
    EXPECT_EQ(MYTRITON_LAUNCH_FAILED, 719);
}

// ---- last error -------------------------------------------------------------

TEST(LastError, SetFormatAndClear) {
    mytriton_clear_last_error();
    EXPECT_STREQ(mytriton_last_error(), "");
    mytriton_set_last_error("launch_%s: %d programs", "foo", 42);
    EXPECT_STREQ(mytriton_last_error(), "launch_foo: 42 programs");
    mytriton_clear_last_error();
    EXPECT_STREQ(mytriton_last_error(), "");
}

TEST(LastError, TruncatedTo1023Bytes) {
    std::string big(5000, 'a');
    mytriton_set_last_error("%s", big.c_str());
    EXPECT_EQ(std::strlen(mytriton_last_error()), 1023u);
    mytriton_clear_last_error();
}

TEST(LastError, IsThreadLocal) {
    mytriton_set_last_error("main thread");
    std::string seen_in_thread;
    std::thread other([&] {
        seen_in_thread = mytriton_last_error();
        mytriton_set_last_error("other thread");
    });
    other.join();
    EXPECT_EQ(seen_in_thread, "");
    EXPECT_STREQ(mytriton_last_error(), "main thread");
    mytriton_clear_last_error();
}

// ---- grid checks ------------------------------------------------------------

TEST(Grid, ValidGridLaunches) {
    mytriton_grid g = {4, 2, 1};
    int empty = 7;
    EXPECT_EQ(mytriton_check_grid("launch_x", &g, &empty), MYTRITON_SUCCESS);
    EXPECT_EQ(empty, 0);
    mytriton_grid limits = {MYTRITON_GRID_X_MAX, MYTRITON_GRID_YZ_MAX, MYTRITON_GRID_YZ_MAX};
    EXPECT_EQ(mytriton_check_grid("launch_x", &limits, &empty), MYTRITON_SUCCESS);
    EXPECT_EQ(empty, 0);
}

TEST(Grid, ZeroDimensionIsEmptyAndSucceeds) {
    for (int axis = 0; axis < 3; axis++) {
        mytriton_grid g = {3, 3, 3};
        (&g.x)[axis] = 0;
        int empty = 0;
        EXPECT_EQ(mytriton_check_grid("launch_x", &g, &empty), MYTRITON_SUCCESS);
        EXPECT_EQ(empty, 1) << "axis " << axis;
    }
}

TEST(Grid, NegativeIsInvalidWithMessage) {
    mytriton_clear_last_error();
    mytriton_grid g = {1, -3, 1};
    int empty = 0;
    EXPECT_EQ(mytriton_check_grid("launch_vector_add", &g, &empty), MYTRITON_INVALID_VALUE);
    EXPECT_EQ(empty, 0);
    std::string msg = mytriton_last_error();
    EXPECT_NE(msg.find("launch_vector_add"), std::string::npos) << msg;
    EXPECT_NE(msg.find("y"), std::string::npos) << msg;
    EXPECT_NE(msg.find("-3"), std::string::npos) << msg;
}

TEST(Grid, InvalidBeatsEmpty) {
    mytriton_grid g = {0, 1, -1};
    int empty = 0;
    EXPECT_EQ(mytriton_check_grid("launch_k", &g, &empty), MYTRITON_INVALID_VALUE);
    EXPECT_EQ(empty, 0);
    EXPECT_NE(std::string(mytriton_last_error()).find("z"), std::string::npos);
}

TEST(Grid, OversizedIsInvalid) {
    struct Case {
        mytriton_grid g;
        char axis;
        const char *value;
    } cases[] = {
        {{MYTRITON_GRID_X_MAX + 1, 1, 1}, 'x', "2147483648"},
        {{1, 65536, 1}, 'y', "65536"},
        {{1, 1, 70000}, 'z', "70000"},
    };
    for (const Case &c : cases) {
        int empty = 0;
        EXPECT_EQ(mytriton_check_grid("launch_big", &c.g, &empty), MYTRITON_INVALID_VALUE);
        std::string msg = mytriton_last_error();
        EXPECT_NE(msg.find("launch_big"), std::string::npos) << msg;
        EXPECT_NE(msg.find(std::string("dimension ") + c.axis), std::string::npos) << msg;
        EXPECT_NE(msg.find(c.value), std::string::npos) << msg;
    }
}

TEST(Grid, HelpersFillUnusedDimensionsWithOne) {
    mytriton_grid g = mytriton_grid_1d(7);
    EXPECT_EQ(g.x, 7);
    EXPECT_EQ(g.y, 1);
    EXPECT_EQ(g.z, 1);
    g = mytriton_grid_2d(7, 5);
    EXPECT_EQ(g.x, 7);
    EXPECT_EQ(g.y, 5);
    EXPECT_EQ(g.z, 1);
    g = mytriton_grid_3d(7, 5, 3);
    EXPECT_EQ(g.x, 7);
    EXPECT_EQ(g.y, 5);
    EXPECT_EQ(g.z, 3);
}

TEST(Grid, ExplicitGridNeedsYAndZ) {
    // `{2}` leaves y and z at 0: an error with a message, not an empty launch
    mytriton_grid g = {2, 0, 0};
    int empty = 7;
    mytriton_clear_last_error();
    EXPECT_EQ(mytriton_check_explicit_grid("launch_k", &g, &empty), MYTRITON_INVALID_VALUE);
    EXPECT_EQ(empty, 0);
    std::string msg = mytriton_last_error();
    EXPECT_NE(msg.find("launch_k: grid dimension y is 0"), std::string::npos) << msg;
    EXPECT_NE(msg.find("mytriton_grid_1d"), std::string::npos) << msg;
    g = {2, 1, 0};
    EXPECT_EQ(mytriton_check_explicit_grid("launch_k", &g, &empty), MYTRITON_INVALID_VALUE);
    EXPECT_NE(std::string(mytriton_last_error()).find("dimension z is 0"), std::string::npos);
    // x of 0: empty, success (DESIGN 9)
    g = {0, 1, 1};
    EXPECT_EQ(mytriton_check_explicit_grid("launch_k", &g, &empty), MYTRITON_SUCCESS);
    EXPECT_EQ(empty, 1);
    g = mytriton_grid_1d(2);
    EXPECT_EQ(mytriton_check_explicit_grid("launch_k", &g, &empty), MYTRITON_SUCCESS);
    EXPECT_EQ(empty, 0);
    // the other checks still come first
    g = {-1, 0, 1};
    EXPECT_EQ(mytriton_check_explicit_grid("launch_k", &g, &empty), MYTRITON_INVALID_VALUE);
    EXPECT_NE(std::string(mytriton_last_error()).find("negative"), std::string::npos);
}

TEST(Grid, NullGridIsInvalid) {
    int empty = 0;
    EXPECT_EQ(mytriton_check_grid("launch_k", nullptr, &empty), MYTRITON_INVALID_VALUE);
    mytriton_grid g = {1, 1, 1};
    EXPECT_EQ(mytriton_check_grid(nullptr, &g, nullptr), MYTRITON_SUCCESS);
}

TEST(GridArithmetic, PythonSemantics) {
    int ok = 1;
    EXPECT_EQ(mytriton_i64_cdiv(1000, 256, &ok), 4);
    EXPECT_EQ(mytriton_i64_cdiv(1024, 256, &ok), 4);
    EXPECT_EQ(mytriton_i64_cdiv(0, 256, &ok), 0);
    EXPECT_EQ(mytriton_i64_floordiv(-7, 2, &ok), -4);
    EXPECT_EQ(mytriton_i64_mod(-7, 2, &ok), 1);
    EXPECT_EQ(ok, 1);
    mytriton_i64_mul(INT64_MAX, 2, &ok);
    EXPECT_EQ(ok, 0);
    ok = 1;
    mytriton_i64_floordiv(5, 0, &ok);
    EXPECT_EQ(ok, 0);
}

// ---- registry ---------------------------------------------------------------
// The registry is process-wide and never shrinks, so each test uses names of
// its own.

struct Recorded {
    void *stream = nullptr;
    void *const *args = nullptr;
    const mytriton_grid *grid = nullptr;
    int calls = 0;
};
Recorded recorded;

int record_launch(void *stream, void *const *args, const mytriton_grid *grid) {
    recorded.stream = stream;
    recorded.args = args;
    recorded.grid = grid;
    recorded.calls++;
    return 0;
}

const char *const two_arg_names[] = {"x", "n"};
const mytriton_arg_kind two_arg_kinds[] = {MYTRITON_ARG_PTR_FP32, MYTRITON_ARG_I32};

mytriton_kernel_info make_info(const char *name, const char *backend, const char *grid) {
    mytriton_kernel_info info;
    std::memset(&info, 0, sizeof info);
    info.name = name;
    info.backend = backend;
    info.kernel = "k_kernel";
    info.source = "k.py";
    info.signature = "*fp32, i32";
    info.constexprs = "BLOCK=64";
    info.grid = grid;
    info.threads_per_block = 64;
    info.num_args = 2;
    info.arg_names = two_arg_names;
    info.arg_kinds = two_arg_kinds;
    info.launch = record_launch;
    return info;
}

TEST(Registry, RegisterFindAndIterate) {
    static const mytriton_kernel_info cuda = make_info("reg_a", "cuda", "cdiv(n, BLOCK)");
    static const mytriton_kernel_info host = make_info("reg_a", "host", "cdiv(n, BLOCK)");
    int before = mytriton_kernel_count();
    EXPECT_EQ(mytriton_register_kernel(&cuda), MYTRITON_SUCCESS);
    EXPECT_EQ(mytriton_register_kernel(&host), MYTRITON_SUCCESS);
    EXPECT_EQ(mytriton_kernel_count(), before + 2);
    EXPECT_EQ(mytriton_find_kernel("reg_a", "cuda"), &cuda);
    EXPECT_EQ(mytriton_find_kernel("reg_a", "host"), &host);
    EXPECT_EQ(mytriton_find_kernel("reg_a", nullptr), &cuda);  // registration order
    EXPECT_EQ(mytriton_find_kernel("reg_a", "mlir"), nullptr);
    EXPECT_EQ(mytriton_find_kernel("reg_missing", nullptr), nullptr);
    EXPECT_EQ(mytriton_find_kernel(nullptr, nullptr), nullptr);
    EXPECT_EQ(mytriton_kernel_at(before), &cuda);
    EXPECT_EQ(mytriton_kernel_at(before + 1), &host);
    EXPECT_EQ(mytriton_kernel_at(-1), nullptr);
    EXPECT_EQ(mytriton_kernel_at(mytriton_kernel_count()), nullptr);
}

TEST(Registry, SameInfoTwiceIsNoOpDifferentInfoIsError) {
    static const mytriton_kernel_info first = make_info("reg_dup", "cuda", nullptr);
    static const mytriton_kernel_info other = make_info("reg_dup", "cuda", nullptr);
    EXPECT_EQ(mytriton_register_kernel(&first), MYTRITON_SUCCESS);
    int count = mytriton_kernel_count();
    EXPECT_EQ(mytriton_register_kernel(&first), MYTRITON_SUCCESS);
    EXPECT_EQ(mytriton_kernel_count(), count);
    mytriton_clear_last_error();
    EXPECT_EQ(mytriton_register_kernel(&other), MYTRITON_INVALID_VALUE);
    EXPECT_NE(std::string(mytriton_last_error()).find("reg_dup"), std::string::npos);
    EXPECT_EQ(mytriton_kernel_count(), count);
    EXPECT_EQ(mytriton_find_kernel("reg_dup", "cuda"), &first);
}

TEST(Registry, RejectsNamelessInfo) {
    EXPECT_EQ(mytriton_register_kernel(nullptr), MYTRITON_INVALID_VALUE);
    static const mytriton_kernel_info nameless = make_info(nullptr, "cuda", nullptr);
    EXPECT_EQ(mytriton_register_kernel(&nameless), MYTRITON_INVALID_VALUE);
}

TEST(Registry, GrowsAndIsThreadSafe) {
    // 8 threads x 64 kernels: more than the initial capacity, concurrently.
    constexpr int kThreads = 8, kPerThread = 64;
    static std::vector<std::string> names;
    static std::vector<mytriton_kernel_info> infos;
    names.clear();
    infos.clear();
    names.reserve(kThreads * kPerThread);
    infos.reserve(kThreads * kPerThread);
    for (int i = 0; i < kThreads * kPerThread; i++)
        names.push_back("reg_many_" + std::to_string(i));
    for (int i = 0; i < kThreads * kPerThread; i++)
        infos.push_back(make_info(names[i].c_str(), "host", nullptr));
    int before = mytriton_kernel_count();
    std::vector<std::thread> threads;
    std::atomic<int> failures{0};
    for (int t = 0; t < kThreads; t++)
        threads.emplace_back([t, &failures] {
            for (int i = 0; i < kPerThread; i++) {
                const mytriton_kernel_info *info = &infos[t * kPerThread + i];
                if (mytriton_register_kernel(info) != MYTRITON_SUCCESS) failures++;
                if (mytriton_find_kernel(info->name, "host") != info) failures++;
                (void)mytriton_kernel_at(mytriton_kernel_count() - 1);
            }
        });
    for (auto &th : threads) th.join();
    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(mytriton_kernel_count(), before + kThreads * kPerThread);
    for (const auto &info : infos) EXPECT_EQ(mytriton_find_kernel(info.name, "host"), &info);
}

TEST(Registry, LaunchByName) {
    static const mytriton_kernel_info with_grid = make_info("reg_launch", "host", "cdiv(n, BLOCK)");
    static const mytriton_kernel_info explicit_grid = make_info("reg_launch_g", "host", nullptr);
    ASSERT_EQ(mytriton_register_kernel(&with_grid), MYTRITON_SUCCESS);
    ASSERT_EQ(mytriton_register_kernel(&explicit_grid), MYTRITON_SUCCESS);

    float *x = nullptr;
    int32_t n = 10;
    void *args[] = {&x, &n};
    mytriton_grid g = {2, 1, 1};
    int stream_token = 0;

    recorded = Recorded();
    EXPECT_EQ(mytriton_launch("reg_launch", "host", &stream_token, args, nullptr), 0);
    EXPECT_EQ(recorded.calls, 1);
    EXPECT_EQ(recorded.stream, &stream_token);
    EXPECT_EQ(recorded.args, args);
    EXPECT_EQ(recorded.grid, nullptr);  // the grid expression decides

    recorded = Recorded();
    EXPECT_EQ(mytriton_launch("reg_launch_g", nullptr, nullptr, args, &g), 0);
    EXPECT_EQ(recorded.calls, 1);
    EXPECT_EQ(recorded.grid, &g);

    // An explicit-grid kernel without a grid, or arguments missing: refused.
    recorded = Recorded();
    EXPECT_EQ(mytriton_launch("reg_launch_g", nullptr, nullptr, args, nullptr),
              MYTRITON_INVALID_VALUE);
    EXPECT_EQ(mytriton_launch("reg_launch", nullptr, nullptr, nullptr, nullptr),
              MYTRITON_INVALID_VALUE);
    EXPECT_EQ(recorded.calls, 0);

    mytriton_clear_last_error();
    EXPECT_EQ(mytriton_launch("reg_nope", "cuda", nullptr, args, &g), MYTRITON_NOT_FOUND);
    std::string msg = mytriton_last_error();
    EXPECT_NE(msg.find("reg_nope"), std::string::npos) << msg;
    EXPECT_NE(msg.find("cuda"), std::string::npos) << msg;
    EXPECT_EQ(mytriton_launch("reg_launch", "cuda", nullptr, args, nullptr), MYTRITON_NOT_FOUND);
}

// A NULL entry of the argument array is an error naming it (the generic
// launcher dereferenced it: a segfault), issue 50.
TEST(Registry, LaunchRefusesANullArgument) {
    static const mytriton_kernel_info info = make_info("reg_launch_null", "host", "cdiv(n, BLOCK)");
    ASSERT_EQ(mytriton_register_kernel(&info), MYTRITON_SUCCESS);
    float *x = nullptr;
    int32_t n = 10;
    void *first_null[] = {nullptr, &n}, *second_null[] = {&x, nullptr};
    recorded = Recorded();
    EXPECT_EQ(mytriton_launch("reg_launch_null", "host", nullptr, first_null, nullptr),
              MYTRITON_INVALID_VALUE);
    EXPECT_NE(std::string(mytriton_last_error()).find("args[0] (argument 'x') is NULL"),
              std::string::npos)
        << mytriton_last_error();
    EXPECT_EQ(mytriton_launch("reg_launch_null", "host", nullptr, second_null, nullptr),
              MYTRITON_INVALID_VALUE);
    EXPECT_NE(std::string(mytriton_last_error()).find("args[1] (argument 'n') is NULL"),
              std::string::npos)
        << mytriton_last_error();
    EXPECT_EQ(recorded.calls, 0);
}

// ---- host executor ----------------------------------------------------------

class HostExecutor : public ::testing::Test {
  protected:
    void SetThreads(const char *value) {
        if (value) setenv("MYTRITON_HOST_THREADS", value, 1);
        else unsetenv("MYTRITON_HOST_THREADS");
    }
    void TearDown() override {
        if (saved_) setenv("MYTRITON_HOST_THREADS", saved_value_.c_str(), 1);
        else unsetenv("MYTRITON_HOST_THREADS");
    }
    void SetUp() override {
        const char *v = std::getenv("MYTRITON_HOST_THREADS");
        saved_ = v != nullptr;
        if (v) saved_value_ = v;
    }

  private:
    bool saved_ = false;
    std::string saved_value_;
};

struct Coverage {
    int64_t gx, gy, gz;
    std::vector<std::atomic<int>> *hits;
};

void count_program(const void *ctx, int32_t x, int32_t y, int32_t z) {
    const Coverage *c = static_cast<const Coverage *>(ctx);
    (*c->hits)[(size_t)((z * c->gy + y) * c->gx + x)]++;
}

TEST_F(HostExecutor, ThreadCount) {
    SetThreads("3");
    EXPECT_EQ(mytriton_host_threads(), 3);
    SetThreads("5000");
    EXPECT_EQ(mytriton_host_threads(), 1024);  // capped
    SetThreads(nullptr);
    EXPECT_GE(mytriton_host_threads(), 1);  // unset or empty: the processors
    SetThreads("");
    EXPECT_GE(mytriton_host_threads(), 1);
}

TEST_F(HostExecutor, EveryProgramRunsExactlyOnce) {
    for (const char *threads : {"1", "2", "3", "7", "64"}) {
        SetThreads(threads);
        for (const mytriton_grid g :
             {mytriton_grid{1, 1, 1}, mytriton_grid{5, 1, 1}, mytriton_grid{13, 7, 3},
              mytriton_grid{1, 1, 9}, mytriton_grid{100, 3, 1}}) {
            std::vector<std::atomic<int>> hits((size_t)(g.x * g.y * g.z));
            Coverage c = {g.x, g.y, g.z, &hits};
            ASSERT_EQ(mytriton_host_run(&g, count_program, &c), MYTRITON_SUCCESS);
            for (size_t i = 0; i < hits.size(); i++)
                ASSERT_EQ(hits[i].load(), 1) << "threads " << threads << " program " << i;
        }
    }
}

struct Trace {
    std::mutex lock;
    std::map<std::thread::id, std::vector<int64_t>> by_thread;
    int64_t gx, gy;
};

void trace_program(const void *ctx, int32_t x, int32_t y, int32_t z) {
    Trace *t = const_cast<Trace *>(static_cast<const Trace *>(ctx));
    std::lock_guard<std::mutex> guard(t->lock);
    t->by_thread[std::this_thread::get_id()].push_back((z * t->gy + y) * t->gx + x);
}

// Each thread runs one contiguous range of programs in x-fastest order, and
// the split is the same on every run.
std::vector<std::vector<int64_t>> ranges_of(const mytriton_grid &g) {
    Trace t;
    t.gx = g.x;
    t.gy = g.y;
    EXPECT_EQ(mytriton_host_run(&g, trace_program, &t), MYTRITON_SUCCESS);
    std::vector<std::vector<int64_t>> ranges;
    for (auto &entry : t.by_thread) ranges.push_back(entry.second);
    std::sort(ranges.begin(), ranges.end());
    return ranges;
}

TEST_F(HostExecutor, StaticContiguousPartitionInOrder) {
    SetThreads("4");
    mytriton_grid g = {10, 3, 2};  // 60 programs, 15 per thread
    auto first = ranges_of(g);
    ASSERT_EQ(first.size(), 4u);
    int64_t next = 0;
    for (const auto &r : first) {
        ASSERT_EQ(r.size(), 15u);
        for (int64_t id : r) EXPECT_EQ(id, next++);
    }
    for (int run = 0; run < 5; run++) EXPECT_EQ(ranges_of(g), first);

    // Uneven split: 10 programs on 4 threads -> 3, 3, 2, 2.
    mytriton_grid h = {10, 1, 1};
    auto uneven = ranges_of(h);
    ASSERT_EQ(uneven.size(), 4u);
    EXPECT_EQ(uneven[0].size(), 3u);
    EXPECT_EQ(uneven[1].size(), 3u);
    EXPECT_EQ(uneven[2].size(), 2u);
    EXPECT_EQ(uneven[3].size(), 2u);

    // Fewer programs than threads: one thread per program.
    mytriton_grid tiny = {2, 1, 1};
    EXPECT_EQ(ranges_of(tiny).size(), 2u);
}

TEST_F(HostExecutor, PidsCoverTheGrid) {
    SetThreads("2");
    mytriton_grid g = {3, 4, 5};
    Trace t;
    t.gx = g.x;
    t.gy = g.y;
    ASSERT_EQ(mytriton_host_run(&g, trace_program, &t), MYTRITON_SUCCESS);
    std::vector<int64_t> all;
    for (auto &entry : t.by_thread) all.insert(all.end(), entry.second.begin(), entry.second.end());
    std::sort(all.begin(), all.end());
    ASSERT_EQ(all.size(), 60u);
    for (int64_t i = 0; i < 60; i++) EXPECT_EQ(all[(size_t)i], i);
}

void must_not_run(const void *, int32_t, int32_t, int32_t) {
    ADD_FAILURE() << "a program ran for an empty or invalid grid";
}

TEST_F(HostExecutor, EmptyGridRunsNothing) {
    for (const mytriton_grid g : {mytriton_grid{0, 1, 1}, mytriton_grid{4, 0, 1},
                                  mytriton_grid{4, 4, 0}, mytriton_grid{0, 0, 0}})
        EXPECT_EQ(mytriton_host_run(&g, must_not_run, nullptr), MYTRITON_SUCCESS);
}

TEST_F(HostExecutor, InvalidGridsAreRefused) {
    for (const mytriton_grid g : {mytriton_grid{-1, 1, 1}, mytriton_grid{1, -1, 1},
                                  mytriton_grid{0, 1, -2}, mytriton_grid{INT64_C(1) << 31, 1, 1}}) {
        mytriton_clear_last_error();
        EXPECT_EQ(mytriton_host_run(&g, must_not_run, nullptr), MYTRITON_INVALID_VALUE);
        EXPECT_STRNE(mytriton_last_error(), "");
    }
    mytriton_grid ok = {1, 1, 1};
    EXPECT_EQ(mytriton_host_run(&ok, nullptr, nullptr), MYTRITON_INVALID_VALUE);
    EXPECT_EQ(mytriton_host_run(nullptr, must_not_run, nullptr), MYTRITON_INVALID_VALUE);
}

// An invalid MYTRITON_HOST_THREADS is an error naming it, no longer a
// silent fallback to the processors (issue 50).
TEST_F(HostExecutor, InvalidThreadCountIsAnError) {
    for (const char *bad :
         {"0", "000", "-3", "+4", " 4", "4 ", "abc", "4x", " ", "0x10", "1e3", "-99999999999999"}) {
        SCOPED_TRACE(bad);
        SetThreads(bad);
        mytriton_clear_last_error();
        EXPECT_EQ(mytriton_host_threads(), 0);
        std::string msg = mytriton_last_error();
        EXPECT_NE(msg.find("MYTRITON_HOST_THREADS='" + std::string(bad) + "'"), std::string::npos)
            << msg;
        EXPECT_NE(msg.find("is not a positive integer"), std::string::npos) << msg;
        mytriton_grid g = {4, 1, 1};
        mytriton_clear_last_error();
        EXPECT_EQ(mytriton_host_run(&g, must_not_run, nullptr), MYTRITON_INVALID_VALUE);
        EXPECT_NE(std::string(mytriton_last_error()).find("MYTRITON_HOST_THREADS"),
                  std::string::npos);
    }
    // a huge count is capped, not an error, however many digits it has
    for (const char *huge : {"1025", "99999999999999999999999", "000000000000000000007"}) {
        SetThreads(huge);
        EXPECT_EQ(mytriton_host_threads(), huge[0] == '0' ? 7 : 1024) << huge;
    }
    SetThreads(std::string(300, '7').append("z").c_str());
    EXPECT_EQ(mytriton_host_threads(), 0);
    EXPECT_NE(std::string(mytriton_last_error()).find("...'"), std::string::npos)
        << mytriton_last_error();  // a long value is shortened in the message
}

}  // namespace
