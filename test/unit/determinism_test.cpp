// No global state, deterministic output (DESIGN 3, 9): compilations running
// at the same time in one process give the output of a compilation run
// alone, and compiling the same kernel twice gives byte-identical files.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "unit_support.h"

namespace {

using namespace mt_unit;

struct Job {
    const char *file;
    const char *kernel;
    const char *signature;
    std::vector<std::pair<std::string, std::string>> defines;
    const char *grid;
    int opt_level;
};

const std::vector<Job> &jobs() {
    static const std::vector<Job> all = {
        {"vector_add.py",
         "add_kernel",
         "*fp32, *fp32, *fp32, i32",
         {{"BLOCK", "256"}},
         "cdiv(n, BLOCK)",
         1},
        {"vector_add.py",
         "add_kernel",
         "*fp32, *fp32, *fp32, i32",
         {{"BLOCK", "256"}},
         "cdiv(n, BLOCK)",
         2},
        {"softmax.py", "softmax_kernel", "*fp32, *fp32, i32", {{"BLOCK", "1024"}}, nullptr, 2},
        {"matrix_add_2d.py",
         "matrix_add_2d_kernel",
         "*fp32, *fp32, *fp32, i32, i32",
         {{"BM", "16"}, {"BN", "32"}},
         "cdiv(M, BM), cdiv(N, BN)",
         1},
        {"matmul.py",
         "matmul_runtime_k_kernel",
         "*fp32, *fp32, *fp32, i32, i32, i32",
         {{"BM", "16"}, {"BN", "16"}},
         "cdiv(M, BM), cdiv(N, BN)",
         2},
        {"matmul.py",
         "seed_matmul_runtime_k_kernel",
         "*fp32, *fp32, *fp32, i32, i32, i32",
         {{"BM", "4"}, {"BN", "8"}},
         "cdiv(M, BM), cdiv(N, BN)",
         1},
        {"loops.py", "nested_count_kernel", "*fp32, i32, i32", {}, "1", 2},
        {"loops.py", "two_carried_kernel", "*fp32, *fp32, i32", {}, "1", 2},
        {"loops.py", "block_accumulate_kernel", "*fp32, *fp32, i32", {{"BLOCK", "64"}}, "1", 1},
    };
    return all;
}

// Every stage's text (or "<error>" and the diagnostics).
std::string compile_all(const Job &j, const std::string &path_override = "") {
    std::string path = path_override.empty() ? conformance_kernel(j.file) : path_override;
    std::vector<mt_define> defs;
    for (auto &d : j.defines) defs.push_back({d.first.c_str(), d.second.c_str()});
    mt_options o{};
    o.path = path.c_str();
    o.kernel = j.kernel;
    o.signature = j.signature;
    o.defines = defs.empty() ? nullptr : defs.data();
    o.ndefines = static_cast<int>(defs.size());
    o.grid = j.grid;
    o.opt_level = j.opt_level;
    o.python = MT_TEST_PYTHON;
    o.shim = MT_TEST_SHIM;
    mt_compilation *c = mt_compile(&o);
    std::string out;
    for (mt_stage s :
         {MT_EMIT_AST, MT_EMIT_EXPR, MT_EMIT_SSA, MT_EMIT_CUDA, MT_EMIT_HEADER, MT_EMIT_CUDA_TU}) {
        const char *t = mt_emit(c, s);
        out += "==== stage " + std::to_string(static_cast<int>(s)) + "\n";
        out += t ? t : "<error>\n";
    }
    out += mt_diagnostics(c);
    mt_free(c);
    return out;
}

TEST(Determinism, SameKernelTwiceIsByteIdentical) {
    for (const Job &j : jobs()) {
        std::string first = compile_all(j), second = compile_all(j);
        EXPECT_EQ(first.find("<error>"), std::string::npos) << j.kernel << "\n" << first;
        EXPECT_EQ(first, second) << j.kernel;
    }
}

TEST(Determinism, ConcurrentCompilationsMatchSequentialOnes) {
    std::vector<std::string> reference;
    for (const Job &j : jobs()) reference.push_back(compile_all(j));
    const int kThreads = 4, kRounds = 1;
    std::vector<std::vector<std::string>> results(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++)
        threads.emplace_back([t, &results]() {
            // each thread walks the jobs from another start, so different
            // kernels and stages overlap
            for (int r = 0; r < kRounds; r++)
                for (size_t k = 0; k < jobs().size(); k++) {
                    size_t i = (k + static_cast<size_t>(t)) % jobs().size();
                    results[t].push_back(std::to_string(i) + "\n" + compile_all(jobs()[i]));
                }
        });
    for (auto &th : threads) th.join();
    for (int t = 0; t < kThreads; t++) {
        ASSERT_EQ(results[t].size(), jobs().size() * kRounds);
        for (const std::string &r : results[t]) {
            size_t nl = r.find('\n');
            size_t i = std::stoul(r.substr(0, nl));
            EXPECT_EQ(r.substr(nl + 1), reference[i]) << "thread " << t << ", " << jobs()[i].kernel;
        }
    }
}

// Diagnostics, too, are per compilation: a failing and a succeeding
// compilation at the same time do not see each other's errors.
TEST(Determinism, ConcurrentDiagnosticsStaySeparate) {
    std::string bad = write_kernel("determinism_bad", "bad.py",
                                   kernel_text("x, n", "    with n:\n        pass\n"));
    Job bad_job = {"", "k", "*fp32, i32", {}, nullptr, 2};
    std::string bad_reference = compile_all(bad_job, bad);
    std::string good_reference = compile_all(jobs()[0]);
    ASSERT_NE(bad_reference.find("error: 'with' statements are not supported"), std::string::npos)
        << bad_reference;
    std::vector<std::string> got(8);
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; t++)
        threads.emplace_back([t, &got, &bad, &bad_job]() {
            got[t] = t % 2 ? compile_all(bad_job, bad) : compile_all(jobs()[0]);
        });
    for (auto &th : threads) th.join();
    for (int t = 0; t < 8; t++) EXPECT_EQ(got[t], t % 2 ? bad_reference : good_reference) << t;
}

// The command line writes the same bytes twice, with no absolute paths.
TEST(Determinism, CliOutputFilesAreByteIdentical) {
    std::string d1 = mt_test::make_temp_dir("determinism_a"),
                d2 = mt_test::make_temp_dir("determinism_b");
    for (const std::string &dir : {d1, d2}) {
        auto r = mt_test::run_process({MT_TEST_COMPILER, conformance_kernel("matmul.py"),
                                       "--kernel", "matmul_runtime_k_kernel", "--signature",
                                       "*fp32, *fp32, *fp32, i32, i32, i32", "-D", "BM=16", "-D",
                                       "BN=16", "--grid", "cdiv(M, BM), cdiv(N, BN)", "-o", dir});
        ASSERT_EQ(r.status, 0) << r.err;
    }
    for (const char *f : {"/matmul_runtime_k.cu", "/matmul_runtime_k.h"}) {
        std::string a = mt_test::read_file(d1 + f), b = mt_test::read_file(d2 + f);
        EXPECT_EQ(a, b) << f;
        EXPECT_EQ(a.find(MT_TEST_SOURCE_DIR), std::string::npos) << f << " names an absolute path";
        EXPECT_EQ(a.find(d1), std::string::npos) << f << " names the output directory";
    }
}

}  // namespace
