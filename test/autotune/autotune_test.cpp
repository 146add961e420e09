// Generated dispatching launchers (test/autotune/CMakeLists.txt): the host
// backend everywhere (Host.*), CUDA when a GPU is present (Gpu.*, skipped
// otherwise).
#include <gtest/gtest.h>

#include "../support/random.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <vector>

#include "mytriton/autotune.h"
#include "mytriton_autotune_kernels.h"

namespace {

// mkdir -p
void make_dirs(const std::string &path) {
    for (size_t at = 1; at != std::string::npos; at = path.find('/', at + 1))
        ::mkdir(path.substr(0, at).c_str(), 0755);
    ::mkdir(path.c_str(), 0755);
}

std::string scratch(const std::string &file) {
    make_dirs(MT_AT_SCRATCH);
    std::string path = std::string(MT_AT_SCRATCH) + "/" + file;
    std::remove(path.c_str());
    return path;
}

std::string read_file(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

mytriton_autotune_stats stats() {
    mytriton_autotune_stats s;
    mytriton_autotune_get_stats(&s);
    return s;
}

using mt_test::random_floats;

void matmul_reference(const std::vector<float> &a, const std::vector<float> &b,
                      std::vector<float> &c, int M, int N, int K) {
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double acc = 0;
            for (int k = 0; k < K; k++) acc += (double)a[(size_t)i * K + k] * b[(size_t)k * N + j];
            c[(size_t)i * N + j] = (float)acc;
        }
}

void softmax_reference(const std::vector<float> &x, std::vector<float> &out, int rows, int cols) {
    for (int r = 0; r < rows; r++) {
        float m = -INFINITY;
        for (int c = 0; c < cols; c++) m = std::max(m, x[(size_t)r * cols + c]);
        double s = 0;
        for (int c = 0; c < cols; c++) s += std::exp((double)x[(size_t)r * cols + c] - m);
        for (int c = 0; c < cols; c++)
            out[(size_t)r * cols + c] = (float)(std::exp((double)x[(size_t)r * cols + c] - m) / s);
    }
}

class Host : public ::testing::Test {
  protected:
    void SetUp() override {
        unsetenv("MYTRITON_AUTOTUNE_CACHE");
        mytriton_autotune_reset();
        mytriton_autotune_kernels_register_kernels();
    }
    void TearDown() override {
        unsetenv("MYTRITON_AUTOTUNE_CACHE");
        mytriton_autotune_reset();
    }
};

// TAG of config c of at_tagged: 1, 2, 3.
TEST_F(Host, TunesOncePerKeyAndLaunchesTheChoice) {
    for (int n : {1000, 5000}) {
        std::vector<float> x = random_floats((size_t)n, 1), out((size_t)n, 0.0f);
        long before = stats().timed_configs;
        ASSERT_EQ(launch_at_tagged_host(x.data(), out.data(), n), MYTRITON_SUCCESS)
            << mytriton_last_error();
        // WHEN n >= 4096 keeps config 2 out for n = 1000
        EXPECT_EQ(stats().timed_configs - before, n >= 4096 ? 3 : 2);
        int64_t key[1] = {n};
        int config = -1;
        ASSERT_EQ(mytriton_autotune_choice("at_tagged", "host", 0, key, 1, &config),
                  MYTRITON_SUCCESS);
        if (n < 4096) {
            EXPECT_NE(config, 2);
        }
        for (int i = 0; i < n; i++)
            ASSERT_EQ(out[i], x[i] + (float)(config + 1)) << "element " << i;
        // a second call does not time anything
        before = stats().timed_configs;
        ASSERT_EQ(launch_at_tagged_host(x.data(), out.data(), n), MYTRITON_SUCCESS);
        EXPECT_EQ(stats().timed_configs, before);
    }
    EXPECT_EQ(stats().tunings, 2);
}

TEST_F(Host, ForcedConfigIsLaunched) {
    const int n = 100;
    std::vector<float> x = random_floats(n, 2), out(n, 0.0f);
    int64_t key[1] = {n};
    ASSERT_EQ(mytriton_autotune_force("at_tagged", "host", 0, key, 1, 2), MYTRITON_SUCCESS);
    ASSERT_EQ(launch_at_tagged_host(x.data(), out.data(), n), MYTRITON_SUCCESS);
    for (int i = 0; i < n; i++) ASSERT_EQ(out[i], x[i] + 3.0f);
    EXPECT_EQ(stats().timed_configs, 0);
    ASSERT_EQ(mytriton_autotune_force("at_tagged", "host", 0, key, 1, 0), MYTRITON_SUCCESS);
    ASSERT_EQ(launch_at_tagged_host(x.data(), out.data(), n), MYTRITON_SUCCESS);
    for (int i = 0; i < n; i++) ASSERT_EQ(out[i], x[i] + 1.0f);
}

TEST_F(Host, RestoreKeepsTheCallersData) {
    // out += x: tuning runs each config several times; on the caller's buffer
    // that would add x many times
    const int n = 3000;
    std::vector<float> x(n, 2.0f), out(n, 1.0f);
    ASSERT_EQ(launch_at_accumulate_host(x.data(), out.data(), n), MYTRITON_SUCCESS)
        << mytriton_last_error();
    EXPECT_EQ(stats().tunings, 1);
    EXPECT_GE(stats().timed_configs, 3);
    for (int i = 0; i < n; i++) ASSERT_EQ(out[i], 3.0f) << "element " << i;
    ASSERT_EQ(launch_at_accumulate_host(x.data(), out.data(), n), MYTRITON_SUCCESS);
    for (int i = 0; i < n; i++) ASSERT_EQ(out[i], 5.0f) << "element " << i;
    // a misaligned buffer (offset by one float) too
    std::vector<float> big(n + 1, 1.0f);
    ASSERT_EQ(launch_at_accumulate_host(x.data(), big.data() + 1, n - 7), MYTRITON_SUCCESS);
    for (int i = 0; i < n - 7; i++) ASSERT_EQ(big[i + 1], 3.0f) << "element " << i;
    EXPECT_EQ(big[0], 1.0f);
    EXPECT_EQ(big[n - 6], 1.0f);
}

TEST_F(Host, PretuneTunesWithoutTouchingRestoredBuffers) {
    std::vector<float> x(5000, 2.0f), out(5000, 1.0f);
    int n1 = 1000, n2 = 5000;
    float *xp = x.data(), *op = out.data();
    void *set1[] = {&xp, &op, &n1};
    void *set2[] = {&xp, &op, &n2};
    void *const *sets[] = {set1, set2};
    ASSERT_EQ(mytriton_autotune_pretune("at_accumulate", "host", nullptr, sets, 2, nullptr),
              MYTRITON_SUCCESS)
        << mytriton_last_error();
    EXPECT_EQ(stats().tunings, 2);
    for (float v : out) ASSERT_EQ(v, 1.0f);
    // pre-tuning again, and launching, times nothing
    long timed = stats().timed_configs;
    ASSERT_EQ(mytriton_autotune_pretune("at_accumulate", "host", nullptr, sets, 2, nullptr),
              MYTRITON_SUCCESS);
    ASSERT_EQ(launch_at_accumulate_host(x.data(), out.data(), n1), MYTRITON_SUCCESS);
    EXPECT_EQ(stats().timed_configs, timed);
    EXPECT_EQ(out[0], 3.0f);
    EXPECT_EQ(out[n1], 1.0f);
}

TEST_F(Host, MatmulThroughTheDispatcher) {
    struct Key {
        int M, N, K;
    };
    for (Key k : {Key{33, 17, 5}, Key{64, 64, 32}, Key{128, 96, 16}}) {
        std::vector<float> a = random_floats((size_t)k.M * k.K, 3),
                           b = random_floats((size_t)k.K * k.N, 4);
        std::vector<float> c((size_t)k.M * k.N, 7.0f), ref((size_t)k.M * k.N);
        ASSERT_EQ(launch_at_matmul_host(a.data(), b.data(), c.data(), k.M, k.N, k.K),
                  MYTRITON_SUCCESS)
            << mytriton_last_error();
        matmul_reference(a, b, ref, k.M, k.N, k.K);
        for (size_t i = 0; i < c.size(); i++)
            ASSERT_NEAR(c[i], ref[i], 1e-4) << "M=" << k.M << " element " << i;
        int64_t key[3] = {k.M, k.N, k.K};
        int config = -1;
        ASSERT_EQ(mytriton_autotune_choice("at_matmul", "host", 0, key, 3, &config),
                  MYTRITON_SUCCESS);
        EXPECT_NE(config, 4) << "BM=BN=128 has WHEN M >= 512 and N >= 512";
    }
    EXPECT_EQ(stats().tunings, 3);
}

TEST_F(Host, SoftmaxThroughTheDispatcher) {
    const int rows = 37, cols = 1000;
    std::vector<float> x = random_floats((size_t)rows * cols, 5), out(x.size()), ref(x.size());
    mytriton_grid grid = {rows, 1, 1};
    ASSERT_EQ(launch_at_softmax_host(grid, x.data(), out.data(), cols), MYTRITON_SUCCESS)
        << mytriton_last_error();
    softmax_reference(x, ref, rows, cols);
    for (size_t i = 0; i < out.size(); i++) ASSERT_NEAR(out[i], ref[i], 1e-6) << "element " << i;
    EXPECT_EQ(stats().tunings, 1);
}

TEST_F(Host, CacheFileRoundTrip) {
    std::string path = scratch("host_cache.txt");
    const int M = 64, N = 32, K = 16;
    std::vector<float> a = random_floats(M * K, 6), b = random_floats(K * N, 7), c(M * N);
    ASSERT_EQ(launch_at_matmul_host(a.data(), b.data(), c.data(), M, N, K), MYTRITON_SUCCESS);
    int64_t key[3] = {M, N, K};
    int tuned = -1;
    ASSERT_EQ(mytriton_autotune_choice("at_matmul", "host", 0, key, 3, &tuned), MYTRITON_SUCCESS);
    ASSERT_EQ(mytriton_autotune_save(path.c_str()), MYTRITON_SUCCESS) << mytriton_last_error();
    const mytriton_tuner *t = mytriton_autotune_find("at_matmul", "host");
    ASSERT_NE(t, nullptr);
    std::string line = std::string("at_matmul\thost\t") + t->hash + "\thost\t0\t64,32,16\t" +
                       std::to_string(tuned) + "\t" + t->configs[tuned] + "\n";
    EXPECT_NE(read_file(path).find(line), std::string::npos) << read_file(path);

    mytriton_autotune_reset();
    ASSERT_EQ(mytriton_autotune_load(path.c_str()), MYTRITON_SUCCESS) << mytriton_last_error();
    ASSERT_EQ(launch_at_matmul_host(a.data(), b.data(), c.data(), M, N, K), MYTRITON_SUCCESS);
    EXPECT_EQ(stats().cache_hits, 1);
    EXPECT_EQ(stats().timed_configs, 0);
    int loaded = -1;
    ASSERT_EQ(mytriton_autotune_choice("at_matmul", "host", 0, key, 3, &loaded), MYTRITON_SUCCESS);
    EXPECT_EQ(loaded, tuned);
}

TEST_F(Host, EnvironmentVariableCache) {
    std::string path = scratch("host_env_cache.txt");
    setenv("MYTRITON_AUTOTUNE_CACHE", path.c_str(), 1);
    mytriton_autotune_reset();
    const int n = 777;
    std::vector<float> x = random_floats(n, 8), out(n);
    ASSERT_EQ(launch_at_tagged_host(x.data(), out.data(), n), MYTRITON_SUCCESS);
    EXPECT_NE(read_file(path).find("at_tagged\thost\t"), std::string::npos);
    mytriton_autotune_reset();
    ASSERT_EQ(launch_at_tagged_host(x.data(), out.data(), n), MYTRITON_SUCCESS);
    EXPECT_EQ(stats().cache_hits, 1);
    EXPECT_EQ(stats().timed_configs, 0);
}

TEST_F(Host, OneConfigHasNoTuner) {
    const mytriton_kernel_info *plain = mytriton_find_kernel("at_single", "host");
    ASSERT_NE(plain, nullptr);
    EXPECT_EQ(plain->tuner, nullptr);
    EXPECT_STREQ(plain->constexprs, "BLOCK=128, TAG=5.0");
    const mytriton_kernel_info *d16 = mytriton_find_kernel("at_single_d16", "host");
    ASSERT_NE(d16, nullptr);
    EXPECT_EQ(d16->tuner, nullptr);
    // the specialized variant exists with :16 on every pointer and i32
    const mytriton_kernel_info *v = mytriton_find_kernel("at_single_d16_cfg0_d16", "host");
    ASSERT_NE(v, nullptr);
    EXPECT_STREQ(v->signature, "*fp32:16, *fp32:16, i32:16");
    EXPECT_EQ(mytriton_find_kernel("at_single_cfg0", "host"), nullptr);

    std::vector<float> x = random_floats(1001, 9), out(1001, 0.0f);
    ASSERT_EQ(launch_at_single_host(x.data(), out.data(), 1000), MYTRITON_SUCCESS);
    for (int i = 0; i < 1000; i++) ASSERT_EQ(out[i], x[i] + 5.0f);
    ASSERT_EQ(launch_at_single_d16_host(x.data() + 1, out.data(), 999), MYTRITON_SUCCESS);
    for (int i = 0; i < 999; i++) ASSERT_EQ(out[i], x[i + 1] + 6.0f);
    EXPECT_EQ(stats().timed_configs, 0);
}

TEST_F(Host, RegistryDescribesDispatchersAndVariants) {
    const mytriton_kernel_info *d = mytriton_find_kernel("at_matmul", "host");
    ASSERT_NE(d, nullptr);
    ASSERT_NE(d->tuner, nullptr);
    EXPECT_EQ(d->tuner->nconfigs, 5);
    EXPECT_EQ(d->tuner->nkeys, 3);
    EXPECT_STREQ(d->tuner->key_names[2], "K");
    EXPECT_STREQ(d->tuner->configs[4], "BM=128 BN=128 NUM_WARPS=8 NUM_STAGES=3");
    EXPECT_STREQ(d->tuner->conditions[4], "M >= 512 and N >= 512");
    EXPECT_EQ(d->tuner->conditions[0], nullptr);
    EXPECT_EQ(std::strlen(d->tuner->hash), 16u);
    for (int c = 0; c < 5; c++) {
        std::string name = "at_matmul_cfg" + std::to_string(c);
        EXPECT_NE(mytriton_find_kernel(name.c_str(), "host"), nullptr) << name;
        EXPECT_NE(mytriton_find_kernel((name + "_d16").c_str(), "host"), nullptr) << name;
    }
    int64_t key[3] = {256, 256, 8};
    EXPECT_EQ(d->tuner->allowed(4, key), 0);
    int64_t big[3] = {512, 1024, 8};
    EXPECT_EQ(d->tuner->allowed(4, big), 1);
    mytriton_kernel_attributes attr;
    EXPECT_EQ(mytriton_kernel_get_attributes("at_matmul_cfg0", "host", &attr),
              MYTRITON_INVALID_VALUE);
    EXPECT_EQ(mytriton_kernel_get_attributes("no_such_kernel", "host", &attr), MYTRITON_NOT_FOUND);
}

TEST_F(Host, GenericLaunchGoesThroughTheDispatcher) {
    const int n = 300;
    std::vector<float> x = random_floats(n, 10), out(n);
    float *xp = x.data(), *op = out.data();
    int nn = n;
    void *args[] = {&xp, &op, &nn};
    ASSERT_EQ(mytriton_launch("at_tagged", "host", nullptr, args, nullptr), MYTRITON_SUCCESS);
    int64_t key[1] = {n};
    int config = -1;
    ASSERT_EQ(mytriton_autotune_choice("at_tagged", "host", 0, key, 1, &config), MYTRITON_SUCCESS);
    for (int i = 0; i < n; i++) ASSERT_EQ(out[i], x[i] + (float)(config + 1));
}

// Concurrent first launches of one key through the generated launcher (and
// mytriton_launch) tune it once: one thread times its configs, the others
// wait for that choice and launch it (issue 50: each timed every config).
TEST_F(Host, ConcurrentFirstLaunchesOfOneKeyTuneItOnce) {
    const int n = 3000, threads = 8;  // n < 4096: configs 0 and 1 are timed
    std::vector<std::vector<float>> xs, outs;
    for (int t = 0; t < threads; t++) {
        xs.push_back(random_floats(n, 20 + t));
        outs.emplace_back(n, 0.0f);
    }
    std::atomic<int> ready{0}, failed{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; t++)
        pool.emplace_back([&, t]() {
            float *xp = xs[t].data(), *op = outs[t].data();
            int nn = n;
            void *args[] = {&xp, &op, &nn};
            ready++;
            while (ready.load() < threads) std::this_thread::yield();  // all at once
            int status = t % 2 ? mytriton_launch("at_tagged", "host", nullptr, args, nullptr)
                               : launch_at_tagged_host(xp, op, nn);
            if (status != MYTRITON_SUCCESS) failed++;
        });
    for (auto &th : pool) th.join();
    EXPECT_EQ(failed.load(), 0);
    EXPECT_EQ(stats().tunings, 1);
    EXPECT_EQ(stats().timed_configs, 2);
    int64_t key[1] = {n};
    int config = -1;
    ASSERT_EQ(mytriton_autotune_choice("at_tagged", "host", 0, key, 1, &config), MYTRITON_SUCCESS);
    for (int t = 0; t < threads; t++)
        for (int i = 0; i < n; i++)
            ASSERT_EQ(outs[t][i], xs[t][i] + (float)(config + 1)) << "thread " << t << " " << i;
}

// An invalid MYTRITON_HOST_THREADS fails a dispatching launch with its
// message (it fell back silently to the processors): the key stays untuned.
TEST_F(Host, InvalidThreadCountFailsTheLaunch) {
    const char *old = std::getenv("MYTRITON_HOST_THREADS");
    std::string saved = old ? old : "";
    const int n = 200;
    std::vector<float> x = random_floats(n, 30), out(n, 0.0f);
    setenv("MYTRITON_HOST_THREADS", "4x", 1);
    mytriton_clear_last_error();
    int status = launch_at_tagged_host(x.data(), out.data(), n);
    std::string msg = mytriton_last_error();
    int64_t key[1] = {n};
    int config = -1;
    int choice = mytriton_autotune_choice("at_tagged", "host", 0, key, 1, &config);
    if (old) setenv("MYTRITON_HOST_THREADS", saved.c_str(), 1);
    else unsetenv("MYTRITON_HOST_THREADS");
    EXPECT_EQ(status, MYTRITON_INVALID_VALUE);
    EXPECT_NE(msg.find("MYTRITON_HOST_THREADS='4x' is not a positive integer"), std::string::npos)
        << msg;
    EXPECT_EQ(choice, MYTRITON_NOT_FOUND);
    EXPECT_EQ(stats().tunings, 0);
    ASSERT_EQ(launch_at_tagged_host(x.data(), out.data(), n), MYTRITON_SUCCESS)
        << mytriton_last_error();
}

}  // namespace

#if MT_AT_CUDA
#include <cuda_runtime_api.h>
#include "../support/gpu.h"

namespace {

#define CUDA_OK(call)                                                                   \
    do {                                                                                \
        cudaError_t e_ = (call);                                                        \
        ASSERT_EQ(e_, cudaSuccess)                                                      \
            << #call << ": " << cudaGetErrorString(e_) << " " << mytriton_last_error(); \
    } while (0)

template <typename T>
struct DevBuf {
    T *p = nullptr;
    size_t n = 0;
    explicit DevBuf(size_t count) : n(count) {
        if (cudaMalloc((void **)&p, count * sizeof(T)) != cudaSuccess) p = nullptr;
    }
    ~DevBuf() {
        if (p) cudaFree(p);
    }
    void upload(const std::vector<T> &v) {
        cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
    }
    std::vector<T> download() const {
        std::vector<T> v(n);
        cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost);
        return v;
    }
};

class Gpu : public ::testing::Test {
  protected:
    void SetUp() override {
        if (!gpu_available(&why_)) GTEST_SKIP() << why_;
        unsetenv("MYTRITON_AUTOTUNE_CACHE");
        mytriton_autotune_reset();
        mytriton_autotune_kernels_register_kernels();
        cudaGetDevice(&device_);
    }
    void TearDown() override { mytriton_autotune_reset(); }
    std::string why_;
    int device_ = 0;
};

// The median time of `reps` launches of a variant through the registry.
double time_variant(const char *name, void *const *args, int reps) {
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    std::vector<float> times;
    for (int i = 0; i < 3; i++) mytriton_launch(name, "cuda", nullptr, args, nullptr);  // warm-up
    for (int r = 0; r < reps; r++) {
        cudaEventRecord(a, nullptr);
        int st = mytriton_launch(name, "cuda", nullptr, args, nullptr);
        cudaEventRecord(b, nullptr);
        cudaEventSynchronize(b);
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        if (st != 0) return 1e30;
        times.push_back(ms);
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

TEST_F(Gpu, MatmulTuningPicksAConfigWithin5PercentOfTheBest) {
    struct Key {
        int M, N, K;
    };
    const mytriton_tuner *t = mytriton_autotune_find("at_matmul", "cuda");
    ASSERT_NE(t, nullptr);
    for (Key k : {Key{512, 512, 512}, Key{1024, 1024, 256}, Key{256, 2048, 1024}}) {
        DevBuf<float> a((size_t)k.M * k.K), b((size_t)k.K * k.N), c((size_t)k.M * k.N);
        ASSERT_TRUE(a.p && b.p && c.p);
        a.upload(random_floats(a.n, 11));
        b.upload(random_floats(b.n, 12));
        CUDA_OK(launch_at_matmul(nullptr, a.p, b.p, c.p, k.M, k.N, k.K));
        CUDA_OK(cudaDeviceSynchronize());
        int64_t key[3] = {k.M, k.N, k.K};
        int chosen = -1;
        ASSERT_EQ(mytriton_autotune_choice("at_matmul", "cuda", device_, key, 3, &chosen),
                  MYTRITON_SUCCESS);
        // every allowed config measured directly (the _d16 variants: the sizes
        // are multiples of 16 and cudaMalloc aligns)
        const float *ap = a.p, *bp = b.p;
        float *cp = c.p;
        int M = k.M, N = k.N, K = k.K;
        void *args[] = {&ap, &bp, &cp, &M, &N, &K};
        double best = 1e30, mine = 0;
        std::string report;
        for (int cfg = 0; cfg < t->nconfigs; cfg++) {
            if (t->allowed && !t->allowed(cfg, key)) continue;
            std::string name = "at_matmul_cfg" + std::to_string(cfg) + "_d16";
            double ms = time_variant(name.c_str(), args, 15);
            report += " [" + std::to_string(cfg) + "] " + std::to_string(ms) + " ms";
            best = std::min(best, ms);
            if (cfg == chosen) mine = ms;
        }
        std::printf("matmul %dx%dx%d: chose config %d (%s):%s\n", k.M, k.N, k.K, chosen,
                    t->configs[chosen], report.c_str());
        EXPECT_LE(mine, best * 1.05) << "chosen config " << chosen << ";" << report;
    }
}

TEST_F(Gpu, MatmulResultIsRight) {
    const int M = 200, N = 136, K = 77;
    std::vector<float> a = random_floats((size_t)M * K, 13), b = random_floats((size_t)K * N, 14),
                       ref((size_t)M * N);
    DevBuf<float> da(a.size()), db(b.size()), dc(ref.size());
    da.upload(a);
    db.upload(b);
    CUDA_OK(launch_at_matmul(nullptr, da.p, db.p, dc.p, M, N, K));
    matmul_reference(a, b, ref, M, N, K);
    std::vector<float> c = dc.download();
    for (size_t i = 0; i < c.size(); i++) ASSERT_NEAR(c[i], ref[i], 1e-3) << "element " << i;
}

TEST_F(Gpu, CacheRoundTrip) {
    std::string path = scratch("gpu_cache.txt");
    const int M = 256, N = 256, K = 128;
    DevBuf<float> a((size_t)M * K), b((size_t)K * N), c((size_t)M * N);
    a.upload(random_floats(a.n, 15));
    b.upload(random_floats(b.n, 16));
    CUDA_OK(launch_at_matmul(nullptr, a.p, b.p, c.p, M, N, K));
    int64_t key[3] = {M, N, K};
    int tuned = -1, loaded = -1;
    ASSERT_EQ(mytriton_autotune_choice("at_matmul", "cuda", device_, key, 3, &tuned),
              MYTRITON_SUCCESS);
    ASSERT_EQ(mytriton_autotune_save(path.c_str()), MYTRITON_SUCCESS);
    cudaDeviceProp prop;
    CUDA_OK(cudaGetDeviceProperties(&prop, device_));
    std::string text = read_file(path);
    EXPECT_NE(text.find(std::string("\t") + prop.name + "\t" +
                        std::to_string(prop.major * 10 + prop.minor) + "\t256,256,128\t" +
                        std::to_string(tuned) + "\t"),
              std::string::npos)
        << text;
    mytriton_autotune_reset();
    ASSERT_EQ(mytriton_autotune_load(path.c_str()), MYTRITON_SUCCESS);
    CUDA_OK(launch_at_matmul(nullptr, a.p, b.p, c.p, M, N, K));
    EXPECT_EQ(stats().cache_hits, 1);
    EXPECT_EQ(stats().timed_configs, 0);
    ASSERT_EQ(mytriton_autotune_choice("at_matmul", "cuda", device_, key, 3, &loaded),
              MYTRITON_SUCCESS);
    EXPECT_EQ(loaded, tuned);
}

TEST_F(Gpu, RestoreKeepsTheCallersData) {
    const int n = 100000;
    DevBuf<float> x(n), out(n);
    x.upload(std::vector<float>(n, 2.0f));
    out.upload(std::vector<float>(n, 1.0f));
    CUDA_OK(launch_at_accumulate(nullptr, x.p, out.p, n));
    EXPECT_EQ(stats().tunings, 1);
    std::vector<float> o = out.download();
    for (int i = 0; i < n; i++) ASSERT_EQ(o[i], 3.0f) << "element " << i;
}

TEST_F(Gpu, MisalignedArgumentsTakeTheGenericVariant) {
    // the _d16 variants use 128-bit accesses without checks: taking one for a
    // pointer 4 bytes off alignment would fault or read wrong data
    const int n = 4099;
    std::vector<float> x = random_floats(n + 1, 17);
    DevBuf<float> dx(n + 1), dout(n + 1);
    dx.upload(x);
    CUDA_OK(launch_at_single_d16(nullptr, dx.p + 1, dout.p + 1, n));
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<float> o = dout.download();
    for (int i = 0; i < n; i++) ASSERT_EQ(o[i + 1], x[i + 1] + 6.0f) << "element " << i;
    CUDA_OK(launch_at_tagged(nullptr, dx.p + 1, dout.p + 1, n));
    CUDA_OK(cudaDeviceSynchronize());
    // config 2 of at_accumulate (BLOCK=1024, 8 warps: 4 elements per thread)
    // has float4 accesses, checked at run time in the generic variant only
    long timed = stats().timed_configs;
    int64_t key[1] = {n};
    ASSERT_EQ(mytriton_autotune_force("at_accumulate", "cuda", device_, key, 1, 2),
              MYTRITON_SUCCESS);
    CUDA_OK(cudaMemset(dout.p, 0, (n + 1) * sizeof(float)));
    CUDA_OK(launch_at_accumulate(nullptr, dx.p + 1, dout.p + 1, n));
    CUDA_OK(cudaDeviceSynchronize());
    o = dout.download();
    for (int i = 0; i < n; i++) ASSERT_EQ(o[i + 1], x[i + 1]) << "element " << i;
    // aligned and n % 16 == 0: the _d16 variant, same result
    const int m = 4096;
    int64_t key2[1] = {m};
    ASSERT_EQ(mytriton_autotune_force("at_accumulate", "cuda", device_, key2, 1, 2),
              MYTRITON_SUCCESS);
    CUDA_OK(cudaMemset(dout.p, 0, (n + 1) * sizeof(float)));
    CUDA_OK(launch_at_accumulate(nullptr, dx.p, dout.p, m));
    CUDA_OK(cudaDeviceSynchronize());
    o = dout.download();
    for (int i = 0; i < m; i++) ASSERT_EQ(o[i], x[i]) << "element " << i;
    EXPECT_EQ(stats().timed_configs, timed);
}

TEST_F(Gpu, GraphCaptureUsesTheDefaultAndNeverTimes) {
    const int n = 5000, M = 128, N = 128, K = 64;
    DevBuf<float> x(n), y(n), acc(n), a((size_t)M * K), b((size_t)K * N), c((size_t)M * N);
    std::vector<float> hx = random_floats(n, 18);
    x.upload(hx);
    acc.upload(std::vector<float>(n, 0.0f));
    a.upload(random_floats(a.n, 19));
    b.upload(random_floats(b.n, 20));
    cudaStream_t s;
    CUDA_OK(cudaStreamCreate(&s));
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    cudaError_t e1 = launch_at_tagged(s, x.p, y.p, n);
    cudaError_t e2 = launch_at_accumulate(s, x.p, acc.p, n);
    cudaError_t e3 = launch_at_matmul(s, a.p, b.p, c.p, M, N, K);
    cudaError_t e4 = launch_at_matmul_cfg1(s, a.p, b.p, c.p, M, N, K);  // a plain launcher
    CUDA_OK(cudaStreamEndCapture(s, &graph));
    ASSERT_EQ(e1, cudaSuccess) << mytriton_last_error();
    ASSERT_EQ(e2, cudaSuccess) << mytriton_last_error();
    ASSERT_EQ(e3, cudaSuccess) << mytriton_last_error();
    ASSERT_EQ(e4, cudaSuccess) << mytriton_last_error();
    EXPECT_EQ(stats().timed_configs, 0);
    EXPECT_EQ(stats().defaults, 3);
    size_t nodes = 0;
    CUDA_OK(cudaGraphGetNodes(graph, nullptr, &nodes));
    EXPECT_EQ(nodes, 4u);
    CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    for (int r = 0; r < 3; r++) CUDA_OK(cudaGraphLaunch(exec, s));
    CUDA_OK(cudaStreamSynchronize(s));
    std::vector<float> hy = y.download(), hacc = acc.download();
    for (int i = 0; i < n; i++) {
        ASSERT_EQ(hy[i], hx[i] + 1.0f) << "the default is config 0 (TAG=1)";
        ASSERT_FLOAT_EQ(hacc[i], 3.0f * hx[i]) << "three replays of out += x";
    }
    // the keys are still untuned: tune them outside capture, capture again
    int64_t key[1] = {n};
    int config = -1;
    EXPECT_EQ(mytriton_autotune_choice("at_tagged", "cuda", device_, key, 1, &config),
              MYTRITON_NOT_FOUND);
    CUDA_OK(launch_at_tagged(s, x.p, y.p, n));
    CUDA_OK(cudaStreamSynchronize(s));
    ASSERT_EQ(mytriton_autotune_choice("at_tagged", "cuda", device_, key, 1, &config),
              MYTRITON_SUCCESS);
    cudaGraph_t graph2;
    cudaGraphExec_t exec2;
    CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    long timed = stats().timed_configs;
    cudaError_t e5 = launch_at_tagged(s, x.p, y.p, n);
    CUDA_OK(cudaStreamEndCapture(s, &graph2));
    ASSERT_EQ(e5, cudaSuccess);
    EXPECT_EQ(stats().timed_configs, timed);
    CUDA_OK(cudaMemset(y.p, 0, n * sizeof(float)));
    CUDA_OK(cudaGraphInstantiate(&exec2, graph2, 0));
    CUDA_OK(cudaGraphLaunch(exec2, s));
    CUDA_OK(cudaStreamSynchronize(s));
    hy = y.download();
    for (int i = 0; i < n; i++) ASSERT_EQ(hy[i], hx[i] + (float)(config + 1));
    cudaGraphExecDestroy(exec);
    cudaGraphExecDestroy(exec2);
    cudaGraphDestroy(graph);
    cudaGraphDestroy(graph2);
    cudaStreamDestroy(s);
}

TEST_F(Gpu, KernelAttributes) {
    mytriton_kernel_attributes at, again;
    ASSERT_EQ(mytriton_kernel_get_attributes("at_matmul_cfg3", "cuda", &at), MYTRITON_SUCCESS)
        << mytriton_last_error();
    const mytriton_kernel_info *info = mytriton_find_kernel("at_matmul_cfg3", "cuda");
    ASSERT_NE(info, nullptr);
    EXPECT_EQ(at.device, device_);
    EXPECT_GT(at.registers, 0);
    EXPECT_EQ(at.threads_per_block, info->threads_per_block);
    EXPECT_GE(at.max_threads_per_block, at.threads_per_block);
    EXPECT_GE(at.max_blocks_per_sm, 1);
    EXPECT_GT(at.multiprocessor_count, 0);
    EXPECT_GT(at.static_shared_bytes, 0) << "the -O2 matmul stages tiles in shared memory";
    EXPECT_EQ(at.dynamic_shared_bytes, 0);
    ASSERT_EQ(mytriton_kernel_get_attributes("at_matmul_cfg3", "cuda", &again), MYTRITON_SUCCESS);
    EXPECT_EQ(std::memcmp(&at, &again, sizeof at), 0);
    std::printf(
        "at_matmul_cfg3: %d registers, %d B static shared, %d threads, %d blocks/SM, %d SMs\n",
        at.registers, at.static_shared_bytes, at.threads_per_block, at.max_blocks_per_sm,
        at.multiprocessor_count);
    EXPECT_EQ(mytriton_kernel_get_attributes("at_matmul", "cuda", &at), MYTRITON_INVALID_VALUE);
}

}  // namespace
#endif
