// valgrind memcheck on mytritonc (issue 9), label "valgrind": every
// conformance kernel at -O1 and -O2, every output (-o with the cuda, host
// and mlir backends, and every --emit stage), must run with no memcheck
// error and no leak; so must a rejected kernel and a usage error. Skipped
// without valgrind, and in sanitizer builds (valgrind cannot run ASan
// binaries; LeakSanitizer covers leaks there).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "conformance_cases.h"
#include "process.h"

namespace {

using ConformanceCase = mt_test::ConformanceCase;

const std::vector<ConformanceCase> &cases() { return mt_test::conformance_cases(); }

// A macro: GTEST_SKIP returns from the function it is in.
#define SKIP_UNLESS_VALGRIND()                                                                    \
    do {                                                                                          \
        if (MT_SANITIZED) GTEST_SKIP() << "a sanitizer build: valgrind cannot run ASan binaries"; \
        if (!MT_VALGRIND[0] || !mt_test::file_exists(MT_VALGRIND)) GTEST_SKIP() << "no valgrind"; \
    } while (0)

// mytritonc under memcheck; any error or leak exits with status 99.
mt_test::ProcessResult memcheck(const std::vector<std::string> &args) {
    std::vector<std::string> argv = {MT_VALGRIND,
                                     "--tool=memcheck",
                                     "--error-exitcode=99",
                                     "--leak-check=full",
                                     "--show-leak-kinds=definite,indirect,possible",
                                     "--errors-for-leak-kinds=definite,indirect,possible",
                                     "--track-origins=yes",
                                     "-q",
                                     MT_TEST_COMPILER};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.insert(argv.end(), {"--python", MT_TEST_PYTHON});
    return mt_test::run_process(argv);
}

class Memcheck : public ::testing::TestWithParam<size_t> {};

TEST_P(Memcheck, ConformanceKernel) {
    SKIP_UNLESS_VALGRIND();
    const ConformanceCase &c = cases()[GetParam()];
    for (int level = 1; level <= 2; level++) {
        std::string dir =
            mt_test::make_temp_dir(std::string("valgrind_") + c.name + std::to_string(level));
        std::vector<std::string> args = {std::string(MT_TEST_SOURCE_DIR) + "/conformance/" + c.file,
                                         "--kernel",
                                         c.kernel,
                                         "--signature",
                                         c.signature,
                                         "-O" + std::to_string(level),
                                         "--backends",
                                         "cuda,host,mlir",
                                         "-o",
                                         dir,
                                         "--emit=ast",
                                         "--emit=expr",
                                         "--emit=ssa",
                                         "--emit=cuda",
                                         "--emit=header",
                                         "--emit=host",
                                         "--emit=mlir"};
        for (const std::string &d : c.defines) args.insert(args.end(), {"-D", d});
        if (c.grid) args.insert(args.end(), {"--grid", c.grid});
        auto r = memcheck(args);
        EXPECT_EQ(r.status, 0) << c.name << " at -O" << level << ":\n" << r.err;
    }
}

INSTANTIATE_TEST_SUITE_P(Conformance, Memcheck, ::testing::Range<size_t>(0, cases().size()),
                         [](const ::testing::TestParamInfo<size_t> &info) {
                             return std::string(cases()[info.param].name);
                         });

TEST(MemcheckErrors, DiagnosticAndUsageError) {
    SKIP_UNLESS_VALGRIND();
    std::string dir = mt_test::make_temp_dir("valgrind_errors");
    mt_test::write_file(
        dir + "/k.py",
        "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x, n):\n    with n:\n        pass\n");
    auto r =
        memcheck({dir + "/k.py", "--kernel", "k", "--signature", "*fp32, i32", "-o", dir + "/out"});
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.err.find("'with' statements are not supported"), std::string::npos) << r.err;
    r = memcheck({dir + "/k.py", "--kernel", "k", "-D", "A=1", "-D", "B=2", "--emit=nope"});
    EXPECT_EQ(r.status, 2) << r.err;
    r = memcheck({dir + "/missing.py", "--kernel", "k", "--signature", "*fp32"});
    EXPECT_EQ(r.status, 1) << r.err;
}

}  // namespace
