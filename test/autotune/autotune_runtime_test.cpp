// Unit tests of the runtime's autotuning table and persistent cache
// (runtime/src/autotune.c) with tuners written by hand and fake timings:
// no generated code, no GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <dirent.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "mytriton/autotune.h"

namespace {

// mkdir -p
void make_dirs(const std::string &path) {
    for (size_t at = 1; at != std::string::npos; at = path.find('/', at + 1))
        ::mkdir(path.substr(0, at).c_str(), 0755);
    ::mkdir(path.c_str(), 0755);
}

const char *const kConfigs[] = {"A=1 NUM_WARPS=4", "A=2", "A=3 NUM_STAGES=2"};
const char *const kConditions[] = {nullptr, nullptr, "n >= 100"};
const char *const kKeys[] = {"n"};

int only_large_for_2(int config, const int64_t *key) { return config != 2 || key[0] >= 100; }

mytriton_tuner make_tuner(const char *name, const char *hash = "00000000000000aa") {
    mytriton_tuner t;
    std::memset(&t, 0, sizeof t);
    t.name = name;
    t.backend = "host";
    t.hash = hash;
    t.nconfigs = 3;
    t.configs = kConfigs;
    t.conditions = kConditions;
    t.nkeys = 1;
    t.key_names = kKeys;
    t.allowed = only_large_for_2;
    return t;
}

// A fake timing: config c takes ms[c]; fail[c] makes it fail.
struct Fake {
    double ms[3] = {3.0, 1.0, 0.5};
    int fail[3] = {0, 0, 0};
    std::vector<int> timed;
};

int fake_time(void *ctx, int config, double *ms) {
    Fake *f = static_cast<Fake *>(ctx);
    f->timed.push_back(config);
    if (f->fail[config]) return MYTRITON_LAUNCH_FAILED;
    *ms = f->ms[config];
    return MYTRITON_SUCCESS;
}

int must_not_time(void *, int, double *) {
    ADD_FAILURE() << "a config was timed although the cache had the key";
    return MYTRITON_LAUNCH_FAILED;
}

mytriton_device_id host_device(const char *name = "host", int cc = 0) {
    mytriton_device_id d;
    std::memset(&d, 0, sizeof d);
    std::snprintf(d.name, sizeof d.name, "%s", name);
    d.cc = cc;
    return d;
}

std::string scratch(const std::string &file) {
    make_dirs(MT_AT_SCRATCH);
    std::string dir = std::string(MT_AT_SCRATCH) + "/runtime";
    ::mkdir(dir.c_str(), 0755);
    std::string path = dir + "/" + file;
    std::remove(path.c_str());
    return path;
}

std::string read_file(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void write_file(const std::string &path, const std::string &text) {
    std::ofstream out(path);
    out << text;
}

class Runtime : public ::testing::Test {
  protected:
    void SetUp() override {
        unsetenv("MYTRITON_AUTOTUNE_CACHE");
        mytriton_autotune_reset();
    }
    void TearDown() override {
        unsetenv("MYTRITON_AUTOTUNE_CACHE");
        mytriton_autotune_reset();
    }
};

TEST_F(Runtime, TunesTheFastestAllowedConfigOncePerKey) {
    mytriton_tuner t = make_tuner("rt_fastest");
    mytriton_device_id dev = host_device();
    Fake f;
    int64_t small[1] = {10}, large[1] = {100};
    int config = -1;

    EXPECT_EQ(mytriton_autotune_lookup(&t, 0, small), -1);
    ASSERT_EQ(mytriton_autotune_tune(&t, &dev, small, fake_time, &f, &config), MYTRITON_SUCCESS);
    EXPECT_EQ(config, 1);                          // 2 is faster but its WHEN fails for n = 10
    EXPECT_EQ(f.timed, (std::vector<int>{0, 1}));  // config 2 never ran
    EXPECT_EQ(mytriton_autotune_lookup(&t, 0, small), 1);
    EXPECT_EQ(mytriton_autotune_lookup(&t, 1, small), -1);  // another device: untuned

    f.timed.clear();
    ASSERT_EQ(mytriton_autotune_tune(&t, &dev, large, fake_time, &f, &config), MYTRITON_SUCCESS);
    EXPECT_EQ(config, 2);
    EXPECT_EQ(f.timed, (std::vector<int>{0, 1, 2}));

    // a tuned key is not timed again
    f.timed.clear();
    ASSERT_EQ(mytriton_autotune_tune(&t, &dev, large, fake_time, &f, &config), MYTRITON_SUCCESS);
    EXPECT_EQ(config, 2);
    EXPECT_TRUE(f.timed.empty());

    mytriton_autotune_stats st;
    mytriton_autotune_get_stats(&st);
    EXPECT_EQ(st.tunings, 2);
    EXPECT_EQ(st.timed_configs, 5);
    EXPECT_EQ(st.cache_hits, 0);
}

TEST_F(Runtime, FailingConfigsAreSkippedAndAllFailingIsAnError) {
    mytriton_tuner t = make_tuner("rt_fail");
    mytriton_device_id dev = host_device();
    Fake f;
    f.fail[1] = 1;
    int64_t key[1] = {10};
    int config = -1;
    ASSERT_EQ(mytriton_autotune_tune(&t, &dev, key, fake_time, &f, &config), MYTRITON_SUCCESS);
    EXPECT_EQ(config, 0);

    Fake g;
    g.fail[0] = g.fail[1] = 1;
    int64_t other[1] = {11};
    EXPECT_EQ(mytriton_autotune_tune(&t, &dev, other, fake_time, &g, &config),
              MYTRITON_LAUNCH_FAILED);
    EXPECT_EQ(mytriton_autotune_lookup(&t, 0, other), -1);
}

TEST_F(Runtime, NoAllowedConfigIsAnError) {
    mytriton_tuner t = make_tuner("rt_none");
    t.allowed = [](int, const int64_t *) -> int { return 0; };
    mytriton_device_id dev = host_device();
    Fake f;
    int64_t key[1] = {1};
    int config = -1;
    EXPECT_EQ(mytriton_autotune_tune(&t, &dev, key, fake_time, &f, &config),
              MYTRITON_INVALID_VALUE);
    EXPECT_NE(std::string(mytriton_last_error()).find("WHEN"), std::string::npos)
        << mytriton_last_error();
}

TEST_F(Runtime, DefaultIsTheFirstAllowedConfig) {
    mytriton_tuner t = make_tuner("rt_default");
    int64_t key[1] = {5};
    EXPECT_EQ(mytriton_autotune_default(&t, key), 0);
    t.allowed = [](int config, const int64_t *k) -> int { return config == 2 || k[0] > 100; };
    EXPECT_EQ(mytriton_autotune_default(&t, key), 2);
    t.allowed = [](int, const int64_t *) -> int { return 0; };
    EXPECT_EQ(mytriton_autotune_default(&t, key), 0);
}

TEST_F(Runtime, ManyKeysStayDistinct) {
    mytriton_tuner t = make_tuner("rt_many");
    for (int64_t k = 0; k < 2000; k++) {
        int64_t key[1] = {k * 7919};
        // a fake that prefers config k % 3
        Fake f;
        f.ms[0] = k % 3 == 0 ? 0.1 : 1.0;
        f.ms[1] = k % 3 == 1 ? 0.1 : 1.0;
        f.ms[2] = k % 3 == 2 ? 0.1 : 1.0;
        mytriton_device_id dev = host_device();
        int config = -1;
        ASSERT_EQ(mytriton_autotune_tune(&t, &dev, key, fake_time, &f, &config), MYTRITON_SUCCESS);
    }
    for (int64_t k = 0; k < 2000; k++) {
        int64_t key[1] = {k * 7919};
        int expect = key[0] >= 100 ? (int)(k % 3) : (k % 3 == 2 ? 0 : (int)(k % 3));
        ASSERT_EQ(mytriton_autotune_lookup(&t, 0, key), expect) << "key " << key[0];
    }
}

TEST_F(Runtime, ConcurrentTuningAgrees) {
    static mytriton_tuner t = make_tuner("rt_threads");
    std::atomic<int> bad{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 8; i++) {
        threads.emplace_back([&bad]() {
            for (int64_t k = 0; k < 200; k++) {
                int64_t key[1] = {k};
                int config = mytriton_autotune_lookup(&t, 0, key);
                if (config < 0) {
                    Fake f;
                    mytriton_device_id dev = host_device();
                    if (mytriton_autotune_tune(&t, &dev, key, fake_time, &f, &config) !=
                        MYTRITON_SUCCESS)
                        bad++;
                }
                if (config != (k >= 100 ? 2 : 1)) bad++;
            }
        });
    }
    for (auto &th : threads) th.join();
    EXPECT_EQ(bad.load(), 0);
}

TEST_F(Runtime, CacheRoundTrip) {
    std::string path = scratch("roundtrip.txt");
    mytriton_tuner t = make_tuner("rt_cache");
    mytriton_device_id dev = host_device("NVIDIA Test GPU", 90);
    Fake f;
    int64_t a[1] = {10}, b[1] = {1000};
    int config = -1;
    ASSERT_EQ(mytriton_autotune_tune(&t, &dev, a, fake_time, &f, &config), MYTRITON_SUCCESS);
    ASSERT_EQ(mytriton_autotune_tune(&t, &dev, b, fake_time, &f, &config), MYTRITON_SUCCESS);
    ASSERT_EQ(mytriton_autotune_save(path.c_str()), MYTRITON_SUCCESS) << mytriton_last_error();
    std::string text = read_file(path);
    EXPECT_EQ(text,
              "mytriton-autotune 1\n"
              "rt_cache\thost\t00000000000000aa\tNVIDIA Test GPU\t90\t10\t1\tA=2\n"
              "rt_cache\thost\t00000000000000aa\tNVIDIA Test GPU\t90\t1000\t2\tA=3 NUM_STAGES=2\n");

    mytriton_autotune_reset();
    EXPECT_EQ(mytriton_autotune_lookup(&t, 0, a), -1);
    ASSERT_EQ(mytriton_autotune_load(path.c_str()), MYTRITON_SUCCESS) << mytriton_last_error();
    ASSERT_EQ(mytriton_autotune_tune(&t, &dev, a, must_not_time, nullptr, &config),
              MYTRITON_SUCCESS);
    EXPECT_EQ(config, 1);
    ASSERT_EQ(mytriton_autotune_tune(&t, &dev, b, must_not_time, nullptr, &config),
              MYTRITON_SUCCESS);
    EXPECT_EQ(config, 2);
    mytriton_autotune_stats st;
    mytriton_autotune_get_stats(&st);
    EXPECT_EQ(st.cache_hits, 2);
    EXPECT_EQ(st.timed_configs, 0);
}

TEST_F(Runtime, StaleCacheLinesAreNotUsed) {
    std::string path = scratch("stale.txt");
    write_file(path,
               "mytriton-autotune 1\n"
               "# another kernel hash, another device, another capability, a changed config text\n"
               "rt_stale\thost\tffffffffffffffff\thost\t0\t10\t0\tA=1 NUM_WARPS=4\n"
               "rt_stale\thost\t00000000000000aa\tother\t0\t10\t0\tA=1 NUM_WARPS=4\n"
               "rt_stale\thost\t00000000000000aa\thost\t80\t10\t0\tA=1 NUM_WARPS=4\n"
               "rt_stale\thost\t00000000000000aa\thost\t0\t10\t0\tA=1 NUM_WARPS=8\n"
               "rt_stale\thost\t00000000000000aa\thost\t0\t10\t7\tA=1\n");
    ASSERT_EQ(mytriton_autotune_load(path.c_str()), MYTRITON_SUCCESS) << mytriton_last_error();
    mytriton_tuner t = make_tuner("rt_stale");
    mytriton_device_id dev = host_device();
    Fake f;
    int64_t key[1] = {10};
    int config = -1;
    ASSERT_EQ(mytriton_autotune_tune(&t, &dev, key, fake_time, &f, &config), MYTRITON_SUCCESS);
    EXPECT_EQ(config, 1);  // timed, not config 0 from a stale line
    EXPECT_EQ(f.timed.size(), 2u);
}

TEST_F(Runtime, MalformedCacheLinesAreReportedAndSkipped) {
    std::string path = scratch("malformed.txt");
    write_file(path,
               "mytriton-autotune 1\n"
               "rt_bad\thost\t00000000000000aa\thost\t0\tten\t0\tA=1 NUM_WARPS=4\n"
               "rt_bad\thost\t00000000000000aa\thost\t0\t10\t0\tA=1 NUM_WARPS=4\n"
               "too few fields\n");
    EXPECT_EQ(mytriton_autotune_load(path.c_str()), MYTRITON_INVALID_VALUE);
    EXPECT_NE(std::string(mytriton_last_error()).find("malformed.txt:2:"), std::string::npos)
        << mytriton_last_error();
    mytriton_tuner t = make_tuner("rt_bad");
    mytriton_device_id dev = host_device();
    int64_t key[1] = {10};
    int config = -1;
    ASSERT_EQ(mytriton_autotune_tune(&t, &dev, key, must_not_time, nullptr, &config),
              MYTRITON_SUCCESS);
    EXPECT_EQ(config, 0);  // the good line
}

TEST_F(Runtime, LoadRejectsOtherFilesAndMissingOnes) {
    std::string path = scratch("notacache.txt");
    write_file(path, "hello\n");
    EXPECT_EQ(mytriton_autotune_load(path.c_str()), MYTRITON_INVALID_VALUE);
    EXPECT_NE(std::string(mytriton_last_error()).find("not a mytriton autotune cache"),
              std::string::npos);
    EXPECT_EQ(mytriton_autotune_load(scratch("missing.txt").c_str()), MYTRITON_NOT_FOUND);
    EXPECT_EQ(mytriton_autotune_load(nullptr), MYTRITON_INVALID_VALUE);
    EXPECT_EQ(mytriton_autotune_save((std::string(MT_AT_SCRATCH) + "/no/such/dir/c.txt").c_str()),
              MYTRITON_INVALID_VALUE);
}

TEST_F(Runtime, EnvironmentCacheIsReadAndWritten) {
    std::string path = scratch("env.txt");
    setenv("MYTRITON_AUTOTUNE_CACHE", path.c_str(), 1);
    mytriton_autotune_reset();
    mytriton_tuner t = make_tuner("rt_env");
    mytriton_device_id dev = host_device();
    Fake f;
    int64_t key[1] = {500};
    int config = -1;
    ASSERT_EQ(mytriton_autotune_tune(&t, &dev, key, fake_time, &f, &config), MYTRITON_SUCCESS);
    EXPECT_EQ(config, 2);
    EXPECT_NE(
        read_file(path).find("rt_env\thost\t00000000000000aa\thost\t0\t500\t2\tA=3 NUM_STAGES=2\n"),
        std::string::npos)
        << read_file(path);

    mytriton_autotune_reset();  // a new process, as far as the table knows
    ASSERT_EQ(mytriton_autotune_tune(&t, &dev, key, must_not_time, nullptr, &config),
              MYTRITON_SUCCESS);
    EXPECT_EQ(config, 2);
}

// ---- the API by launcher name (through the registry) ---------------------

int no_launch(void *, void *const *, const mytriton_grid *) { return MYTRITON_SUCCESS; }

TEST_F(Runtime, ForceAndChoiceByName) {
    static mytriton_tuner t = make_tuner("rt_named");
    static mytriton_kernel_info info;
    std::memset(&info, 0, sizeof info);
    info.name = "rt_named";
    info.backend = "host";
    info.kernel = "k";
    info.source = "k.py";
    info.signature = "i32";
    info.constexprs = "";
    info.grid = "1";
    info.launch = no_launch;
    info.tuner = &t;
    ASSERT_EQ(mytriton_register_kernel(&info), MYTRITON_SUCCESS);

    EXPECT_EQ(mytriton_autotune_find("rt_named", "host"), &t);
    EXPECT_EQ(mytriton_autotune_find("rt_named", "cuda"), nullptr);
    int64_t key[1] = {42};
    int config = -1;
    EXPECT_EQ(mytriton_autotune_choice("rt_named", "host", 0, key, 1, &config), MYTRITON_NOT_FOUND);
    EXPECT_EQ(mytriton_autotune_force("rt_named", "host", 0, key, 1, 2), MYTRITON_SUCCESS);
    EXPECT_EQ(mytriton_autotune_choice("rt_named", "host", 0, key, 1, &config), MYTRITON_SUCCESS);
    EXPECT_EQ(config, 2);
    EXPECT_EQ(mytriton_autotune_lookup(&t, 0, key), 2);
    EXPECT_EQ(mytriton_autotune_force("rt_named", "host", 0, key, 1, 0), MYTRITON_SUCCESS);
    EXPECT_EQ(mytriton_autotune_lookup(&t, 0, key), 0);

    EXPECT_EQ(mytriton_autotune_force("rt_named", "host", 0, key, 1, 3), MYTRITON_INVALID_VALUE);
    EXPECT_NE(std::string(mytriton_last_error()).find("configs 0 to 2"), std::string::npos);
    EXPECT_EQ(mytriton_autotune_force("rt_named", "host", 0, key, 2, 0), MYTRITON_INVALID_VALUE);
    EXPECT_EQ(mytriton_autotune_choice("rt_named", "host", 0, key, 0, &config),
              MYTRITON_INVALID_VALUE);
    EXPECT_EQ(mytriton_autotune_force("rt_nothing", "host", 0, key, 1, 0), MYTRITON_NOT_FOUND);
    EXPECT_EQ(mytriton_autotune_pretune("rt_named", "host", nullptr, nullptr, 1, nullptr),
              MYTRITON_INVALID_VALUE);

    // forced choices are not saved
    std::string path = scratch("forced.txt");
    ASSERT_EQ(mytriton_autotune_save(path.c_str()), MYTRITON_SUCCESS);
    EXPECT_EQ(read_file(path), "mytriton-autotune 1\n");
}

TEST_F(Runtime, HostTimingMeasuresTheLaunch) {
    struct Ctx {
        int calls = 0;
    } ctx;
    double ms = -1.0;
    auto launch = [](void *c, int config) {
        static_cast<Ctx *>(c)->calls++;
        double t0 = mytriton_autotune_clock_ms();
        while (mytriton_autotune_clock_ms() - t0 < 0.2 * (config + 1)) {}
        return (int)MYTRITON_SUCCESS;
    };
    ASSERT_EQ(mytriton_autotune_time_host(launch, &ctx, 1, &ms), MYTRITON_SUCCESS);
    EXPECT_GE(ms, 0.39);
    EXPECT_LT(ms, 5.0);
    EXPECT_GE(ctx.calls, 1 + MYTRITON_AUTOTUNE_ROUNDS);
    auto failing = [](void *, int) { return (int)MYTRITON_LAUNCH_FAILED; };
    EXPECT_EQ(mytriton_autotune_time_host(failing, &ctx, 0, &ms), MYTRITON_LAUNCH_FAILED);
}

TEST_F(Runtime, HostScratchCopiesKeepOffsetsAndData) {
    std::vector<float> data(100);
    for (int i = 0; i < 100; i++) data[i] = (float)i;
    void *ptrs[2] = {data.data() + 3, nullptr};
    int64_t bytes[2] = {10 * (int64_t)sizeof(float), 0};
    void *bases[2];
    ASSERT_EQ(mytriton_autotune_host_scratch_begin(2, ptrs, bytes, bases, "launch_x"),
              MYTRITON_SUCCESS);
    ASSERT_NE(ptrs[0], (void *)(data.data() + 3));
    EXPECT_EQ((uintptr_t)ptrs[0] & 63u, (uintptr_t)(data.data() + 3) & 63u);
    EXPECT_EQ(std::memcmp(ptrs[0], data.data() + 3, 40), 0);
    EXPECT_EQ(ptrs[1], nullptr);
    mytriton_autotune_host_scratch_end(2, bases);
    int64_t negative[1] = {-4};
    void *p[1] = {data.data()};
    EXPECT_EQ(mytriton_autotune_host_scratch_begin(1, p, negative, bases, "launch_x"),
              MYTRITON_INVALID_VALUE);
    mytriton_autotune_host_scratch_end(1, bases);
}

// ---- hostile cache files (issue 50) ------------------------------------------

// One tuned key saved to a cache, for the tests below.
void tune_one(const char *name) {
    static mytriton_tuner t[4];
    static int used = 0;
    mytriton_tuner *tu = &t[used++ % 4];
    *tu = make_tuner(name);
    mytriton_device_id dev = host_device();
    Fake f;
    int64_t key[1] = {10};
    int config = -1;
    ASSERT_EQ(mytriton_autotune_tune(tu, &dev, key, fake_time, &f, &config), MYTRITON_SUCCESS);
}

// A file that is not a cache is never overwritten: neither by save() nor
// by the environment's cache after a tuning (it was: its data lost).
TEST_F(Runtime, SaveNeverOverwritesAFileThatIsNotACache) {
    std::string path = scratch("precious.txt");
    write_file(path, "precious data, not a cache\n");
    tune_one("rt_precious");
    EXPECT_EQ(mytriton_autotune_save(path.c_str()), MYTRITON_INVALID_VALUE);
    EXPECT_NE(std::string(mytriton_last_error()).find("not overwritten"), std::string::npos)
        << mytriton_last_error();
    EXPECT_EQ(read_file(path), "precious data, not a cache\n");

    mytriton_autotune_reset();
    setenv("MYTRITON_AUTOTUNE_CACHE", path.c_str(), 1);
    tune_one("rt_precious_env");  // tunes (the file does not load), cannot save: no error
    EXPECT_EQ(read_file(path), "precious data, not a cache\n");

    // a cache, an empty file and a missing one are written
    for (const char *start : std::vector<const char *>{"mytriton-autotune 1\n", "", nullptr}) {
        std::string p = scratch("replaceable.txt");
        if (start) write_file(p, start);
        ASSERT_EQ(mytriton_autotune_save(p.c_str()), MYTRITON_SUCCESS) << mytriton_last_error();
        EXPECT_NE(read_file(p).find("rt_precious_env\thost"), std::string::npos);
    }
}

// A header check that a NUL byte or a long first line used to skip.
TEST_F(Runtime, FirstLineMustBeExactlyTheHeader) {
    const std::string line = "rt_header\thost\t00000000000000aa\thost\t0\t10\t0\tA=1 NUM_WARPS=4\n";
    mytriton_tuner t = make_tuner("rt_header");
    mytriton_device_id dev = host_device();
    for (const std::string &first : {std::string("mytriton-autotune 1\0junk\n", 25),
                                     std::string("\0\n", 2), std::string(5000, 'x') + "\n",
                                     std::string("mytriton-autotune 1") + std::string(5000, ' '),
                                     std::string("mytriton-autotune 12\n")}) {
        std::string path = scratch("header.txt");
        write_file(path, first + line);
        mytriton_autotune_reset();
        EXPECT_EQ(mytriton_autotune_load(path.c_str()), MYTRITON_INVALID_VALUE);
        EXPECT_NE(std::string(mytriton_last_error()).find("not a mytriton autotune cache"),
                  std::string::npos)
            << mytriton_last_error();
        // nothing loaded: the key is timed
        Fake f;
        int64_t key[1] = {10};
        int config = -1;
        ASSERT_EQ(mytriton_autotune_tune(&t, &dev, key, fake_time, &f, &config), MYTRITON_SUCCESS);
        EXPECT_EQ(f.timed.size(), 2u);
        // and the file is not overwritten
        EXPECT_EQ(mytriton_autotune_save(path.c_str()), MYTRITON_INVALID_VALUE);
        EXPECT_EQ(read_file(path), first + line);
    }
    // a NUL inside a record line is that line's error, the others load
    std::string path = scratch("nul_line.txt");
    write_file(path, "mytriton-autotune 1\n" + std::string("rt_header\thost\0x\n", 17) + line);
    mytriton_autotune_reset();
    EXPECT_EQ(mytriton_autotune_load(path.c_str()), MYTRITON_INVALID_VALUE);
    EXPECT_NE(std::string(mytriton_last_error()).find("nul_line.txt:2: a NUL byte"),
              std::string::npos)
        << mytriton_last_error();
    int64_t key[1] = {10};
    int config = -1;
    ASSERT_EQ(mytriton_autotune_tune(&t, &dev, key, must_not_time, nullptr, &config),
              MYTRITON_SUCCESS);
    EXPECT_EQ(config, 0);
}

// Loading takes linear time (it was quadratic under the global lock:
// 100 000 lines took over 120 s); 200 000 distinct lines load in well
// under the bound here, and the last of two lines of one key wins.
TEST_F(Runtime, LoadIsLinear) {
    std::string path = scratch("large.txt");
    std::string text = "mytriton-autotune 1\n";
    const int n = 200000;
    for (int i = 0; i < n; i++)
        text += "rt_large\thost\t00000000000000aa\thost\t0\t" + std::to_string(i) + "\t1\tA=2\n";
    text += "rt_large\thost\t00000000000000aa\thost\t0\t7\t0\tA=1 NUM_WARPS=4\n";
    write_file(path, text);
    double t0 = mytriton_autotune_clock_ms();
    ASSERT_EQ(mytriton_autotune_load(path.c_str()), MYTRITON_SUCCESS) << mytriton_last_error();
    double load_ms = mytriton_autotune_clock_ms() - t0;
    std::printf("    loaded %d lines in %.0f ms\n", n + 1, load_ms);
    EXPECT_LT(load_ms, 20000.0);
    mytriton_tuner t = make_tuner("rt_large");
    mytriton_device_id dev = host_device();
    for (int64_t k : {int64_t(0), int64_t(7), int64_t(n - 1)}) {
        int64_t key[1] = {k};
        int config = -1;
        ASSERT_EQ(mytriton_autotune_tune(&t, &dev, key, must_not_time, nullptr, &config),
                  MYTRITON_SUCCESS);
        EXPECT_EQ(config, k == 7 ? 0 : 1) << k;
    }
    std::string copy = scratch("large_copy.txt");
    t0 = mytriton_autotune_clock_ms();
    ASSERT_EQ(mytriton_autotune_save(copy.c_str()), MYTRITON_SUCCESS) << mytriton_last_error();
    std::printf("    saved in %.0f ms\n", mytriton_autotune_clock_ms() - t0);
    std::string saved = read_file(copy);
    EXPECT_EQ(std::count(saved.begin(), saved.end(), '\n'), n + 1);  // the header and n keys
}

// A FIFO, /dev/zero or /dev/urandom as the cache: an error at once (the
// first launch hung on them), through load() and through the environment.
TEST_F(Runtime, CacheThatIsNotARegularFileIsRefusedAtOnce) {
    std::string fifo = scratch("cache.fifo");
    ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0) << std::strerror(errno);
    for (const std::string &path : {fifo, std::string("/dev/zero"), std::string("/dev/urandom")}) {
        SCOPED_TRACE(path);
        double t0 = mytriton_autotune_clock_ms();
        EXPECT_EQ(mytriton_autotune_load(path.c_str()), MYTRITON_INVALID_VALUE);
        EXPECT_NE(std::string(mytriton_last_error()).find("not a regular file"), std::string::npos)
            << mytriton_last_error();
        mytriton_autotune_reset();
        setenv("MYTRITON_AUTOTUNE_CACHE", path.c_str(), 1);
        tune_one("rt_fifo");  // loads nothing, saves nothing, tunes
        unsetenv("MYTRITON_AUTOTUNE_CACHE");
        EXPECT_EQ(mytriton_autotune_save(path.c_str()), MYTRITON_INVALID_VALUE);
        EXPECT_LT(mytriton_autotune_clock_ms() - t0, 5000.0);
        mytriton_autotune_reset();
    }
    struct stat st;
    ASSERT_EQ(lstat(fifo.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));  // not replaced by a file
    // a file above the size bound is not read
    std::string big = scratch("big.txt");
    write_file(big, "mytriton-autotune 1\n");
    ASSERT_EQ(truncate(big.c_str(), (off_t)MYTRITON_AUTOTUNE_MAX_CACHE_BYTES + 1), 0);
    EXPECT_EQ(mytriton_autotune_load(big.c_str()), MYTRITON_INVALID_VALUE);
    EXPECT_NE(std::string(mytriton_last_error()).find("larger than"), std::string::npos)
        << mytriton_last_error();
    std::remove(big.c_str());
}

// The temporary file is created exclusively under a name nobody can
// predict, never through a symbolic link: a link planted where the old
// name (PATH.tmp.PID) was leaves its target alone; a symbolic link as
// the cache itself is not replaced.
TEST_F(Runtime, SaveFollowsNoSymbolicLink) {
    std::string path = scratch("linked.txt");
    std::string victim = scratch("victim.txt");
    write_file(victim, "victim\n");
    std::string planted = path + ".tmp." + std::to_string((long)getpid());
    std::remove(planted.c_str());
    ASSERT_EQ(symlink(victim.c_str(), planted.c_str()), 0);
    tune_one("rt_links");
    ASSERT_EQ(mytriton_autotune_save(path.c_str()), MYTRITON_SUCCESS) << mytriton_last_error();
    EXPECT_EQ(read_file(victim), "victim\n");
    EXPECT_NE(read_file(path).find("rt_links\thost"), std::string::npos);
    std::remove(planted.c_str());
    // no temporary left beside it
    std::string dir = path.substr(0, path.rfind('/'));
    DIR *d = opendir(dir.c_str());
    ASSERT_NE(d, nullptr);
    for (dirent *e; (e = readdir(d));)
        EXPECT_EQ(std::string(e->d_name).find("linked.txt.tmp"), std::string::npos) << e->d_name;
    closedir(d);

    std::string link = scratch("cache_link.txt");
    write_file(victim, "mytriton-autotune 1\n");
    ASSERT_EQ(symlink(victim.c_str(), link.c_str()), 0);
    EXPECT_EQ(mytriton_autotune_save(link.c_str()), MYTRITON_INVALID_VALUE);
    EXPECT_NE(std::string(mytriton_last_error()).find("symbolic link"), std::string::npos)
        << mytriton_last_error();
    EXPECT_EQ(read_file(victim), "mytriton-autotune 1\n");
    struct stat st;
    ASSERT_EQ(lstat(link.c_str(), &st), 0);
    EXPECT_TRUE(S_ISLNK(st.st_mode));
    // loading through the link is fine (it is read, not written)
    EXPECT_EQ(mytriton_autotune_load(link.c_str()), MYTRITON_SUCCESS) << mytriton_last_error();
}

// Concurrent first launches of one key time it once: the other threads
// wait for its choice (each used to time every config itself).
int slow_time(void *ctx, int config, double *ms) {
    static_cast<std::atomic<int> *>(ctx)->fetch_add(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    *ms = config == 1 ? 1.0 : 2.0;
    return MYTRITON_SUCCESS;
}

TEST_F(Runtime, ConcurrentFirstLaunchesOfOneKeyTuneItOnce) {
    static mytriton_tuner t = make_tuner("rt_once");
    std::atomic<int> timed{0}, bad{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 16; i++)
        threads.emplace_back([&timed, &bad]() {
            int64_t key[1] = {10};
            mytriton_device_id dev = host_device();
            int config = -1;
            if (mytriton_autotune_tune(&t, &dev, key, slow_time, &timed, &config) !=
                    MYTRITON_SUCCESS ||
                config != 1)
                bad++;
        });
    for (auto &th : threads) th.join();
    EXPECT_EQ(bad.load(), 0);
    EXPECT_EQ(timed.load(), 2);  // configs 0 and 1 (2's WHEN fails), once
    mytriton_autotune_stats st;
    mytriton_autotune_get_stats(&st);
    EXPECT_EQ(st.tunings, 1);
    EXPECT_EQ(st.timed_configs, 2);
}

// A failed tuning wakes the waiting threads, which tune themselves.
int fail_once_time(void *ctx, int config, double *ms) {
    std::atomic<int> *calls = static_cast<std::atomic<int> *>(ctx);
    int n = calls->fetch_add(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (n < 2) return MYTRITON_LAUNCH_FAILED;  // the first tuning fails (both configs)
    *ms = config == 1 ? 1.0 : 2.0;
    return MYTRITON_SUCCESS;
}

TEST_F(Runtime, WaitersOfAFailedTuningTuneThemselves) {
    static mytriton_tuner t = make_tuner("rt_fail_once");
    std::atomic<int> calls{0}, ok{0}, failed{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; i++)
        threads.emplace_back([&]() {
            int64_t key[1] = {10};
            mytriton_device_id dev = host_device();
            int config = -1;
            int status = mytriton_autotune_tune(&t, &dev, key, fail_once_time, &calls, &config);
            if (status == MYTRITON_SUCCESS && config == 1) ok++;
            else if (status == MYTRITON_LAUNCH_FAILED) failed++;
        });
    for (auto &th : threads) th.join();
    EXPECT_EQ(failed.load(), 1);
    EXPECT_EQ(ok.load(), 3);
    EXPECT_EQ(calls.load(), 4);  // the failed tuning's two configs, then one tuning's two
}

TEST_F(Runtime, PretuneRefusesANullArgumentSet) {
    static mytriton_tuner t = make_tuner("rt_pretune_null");
    static mytriton_kernel_info info;
    std::memset(&info, 0, sizeof info);
    info.name = "rt_pretune_null";
    info.backend = "host";
    info.kernel = "k";
    info.source = "k.py";
    info.signature = "i32";
    info.constexprs = "";
    info.grid = "1";
    info.launch = no_launch;
    info.tuner = &t;
    t.pretune = [](void *, void *const *args, const mytriton_grid *) {
        return args == nullptr ? (int)MYTRITON_LAUNCH_FAILED : (int)MYTRITON_SUCCESS;
    };
    ASSERT_EQ(mytriton_register_kernel(&info), MYTRITON_SUCCESS);
    int32_t n = 4;
    void *args[1] = {&n};
    void *const *sets[2] = {args, nullptr};
    EXPECT_EQ(mytriton_autotune_pretune("rt_pretune_null", "host", nullptr, sets, 2, nullptr),
              MYTRITON_INVALID_VALUE);
    EXPECT_NE(std::string(mytriton_last_error()).find("argument set 1 is NULL"), std::string::npos)
        << mytriton_last_error();
    EXPECT_EQ(mytriton_autotune_pretune("rt_pretune_null", "host", nullptr, sets, 1, nullptr),
              MYTRITON_SUCCESS);
}

}  // namespace
