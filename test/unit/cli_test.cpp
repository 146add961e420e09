// The command line: exit codes, --help, --version, -o, and no output files
// after a failed compile.
#include <gtest/gtest.h>

#include <string>

#include "process.h"

namespace {

using mt_test::run_process;

const std::string kAdd = std::string(MT_TEST_SOURCE_DIR) + "/conformance/kernels/vector_add.py";

std::vector<std::string> add_args() {
    return {MT_TEST_COMPILER,           kAdd, "--kernel", "add_kernel", "--signature",
            "*fp32, *fp32, *fp32, i32", "-D", "BLOCK=256"};
}

TEST(Cli, HelpAndVersion) {
    auto h = run_process({MT_TEST_COMPILER, "--help"});
    EXPECT_EQ(h.status, 0);
    EXPECT_NE(h.out.find("usage: mytritonc"), std::string::npos);
    auto v = run_process({MT_TEST_COMPILER, "--version"});
    EXPECT_EQ(v.status, 0);
    EXPECT_EQ(v.out.rfind("mytritonc ", 0), 0u);
}

TEST(Cli, UsageErrorsExitWith2) {
    EXPECT_EQ(run_process({MT_TEST_COMPILER}).status, 2);
    EXPECT_EQ(run_process({MT_TEST_COMPILER, kAdd, "--signature", "i32"}).status, 2);
    EXPECT_EQ(run_process({MT_TEST_COMPILER, kAdd, "--kernel", "add_kernel"}).status, 2);
    auto args = add_args();
    args.push_back("--emit=bogus");
    auto r = run_process(args);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("unknown stage 'bogus'"), std::string::npos);
    args = add_args();
    args.push_back("--frobnicate");
    EXPECT_EQ(run_process(args).status, 2);
    args = add_args();
    args.push_back("--emit=cu"); /* NAME.cu comes from -o only */
    EXPECT_EQ(run_process(args).status, 2);
}

// --emit=layout prints the layout stage (DESIGN 8b) beside the others.
TEST(Cli, EmitLayout) {
    auto args = add_args();
    args.push_back("--emit=layout");
    args.push_back("--emit=ssa");
    auto r = run_process(args);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("// layout of add_kernel: the tile"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("#flat = #mt.blocked<{sizePerThread = ["), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  // #flat\n"), std::string::npos) << r.out;
}

TEST(Cli, DiagnosticExitsWith1) {
    auto args = add_args();
    args[3] = "no_such_kernel";
    auto r = run_process(args);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(
        r.err.find("error: no kernel named 'no_such_kernel' (kernels in this file: add_kernel)"),
        std::string::npos)
        << r.err;
}

TEST(Cli, OutputDirectoryGetsUnitAndHeader) {
    std::string dir = mt_test::make_temp_dir("cli_out");
    auto args = add_args();
    args.insert(args.end(), {"--grid", "cdiv(n, BLOCK)", "--name", "vector_add", "-o", dir});
    auto r = run_process(args);
    ASSERT_EQ(r.status, 0) << r.err;
    std::string cu = mt_test::read_file(dir + "/vector_add.cu");
    std::string h = mt_test::read_file(dir + "/vector_add.h");
    EXPECT_NE(
        cu.find(
            "extern \"C\" cudaError_t launch_vector_add(cudaStream_t stream, const float* x, const float* y, "
            "float* out, int32_t n)"),
        std::string::npos);
    EXPECT_NE(h.find("#ifndef MYTRITON_GENERATED_VECTOR_ADD_H"), std::string::npos);
    EXPECT_NE(h.find("extern \"C\" {"), std::string::npos);
    EXPECT_EQ(cu.find(MT_TEST_SOURCE_DIR), std::string::npos)
        << "no absolute paths in generated files";
}

TEST(Cli, FailedCompileWritesNothing) {
    std::string dir = mt_test::make_temp_dir("cli_fail");
    std::string bad = dir + "/bad.py";
    mt_test::write_file(bad,
                        "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x, n):\n"
                        "    with n:\n        pass\n");
    // a previous successful build's outputs are removed too
    mt_test::write_file(dir + "/k.cu", "stale");
    auto r = run_process(
        {MT_TEST_COMPILER, bad, "--kernel", "k", "--signature", "*fp32, i32", "-o", dir});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("bad.py:6:5: error: 'with' statements are not supported"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(mt_test::file_exists(dir + "/k.cu"));
    EXPECT_FALSE(mt_test::file_exists(dir + "/k.h"));
}

// --check: the arguments against the kernel's parameters, nothing written;
// several kernels separated by --next; the first failing one's number on
// stdout.
TEST(Cli, CheckReportsArgumentErrorsOnly) {
    std::string dir = mt_test::make_temp_dir("cli_check");
    auto good = add_args();
    good.erase(good.begin()); /* (the program) */
    std::vector<std::string> args = {MT_TEST_COMPILER, "--check"};
    args.insert(args.end(), good.begin(), good.end());
    args.insert(args.end(), {"--grid", "cdiv(n, BLOCK)", "-o", dir});
    auto r = run_process(args);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(mt_test::file_exists(dir + "/vector_add.h")) << "--check writes nothing";
    EXPECT_FALSE(mt_test::file_exists(dir + "/add.h")) << "--check writes nothing";

    // the body's errors are the compilation's: --check passes them
    std::string bad = dir + "/bad.py";
    mt_test::write_file(bad,
                        "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x, n):\n"
                        "    with n:\n        pass\n");
    r = run_process(
        {MT_TEST_COMPILER, "--check", bad, "--kernel", "k", "--signature", "*fp32, i32"});
    EXPECT_EQ(r.status, 0) << r.err;

    // the second of three kernels has a signature typo, the third a grid error
    // that is not reached
    args = {MT_TEST_COMPILER, "--check"};
    args.insert(args.end(), good.begin(), good.end());
    args.push_back("--next");
    auto typo = good;
    typo[4] = "*fp32, *fp23, *fp32, i32";
    args.insert(args.end(), typo.begin(), typo.end());
    args.push_back("--next");
    args.insert(args.end(), good.begin(), good.end());
    args.insert(args.end(), {"--grid", "cdiv(n, BLOCK"});
    r = run_process(args);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "2\n");
    EXPECT_NE(r.err.find("error: --signature: entry 2: unsupported type '*fp23'"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("cdiv"), std::string::npos) << "checking stops at the first error";

    // each kind of argument error, in CMake's spelling
    struct Case {
        std::vector<std::string> extra;
        const char *message;
    } cases[] = {
        {{"--grid", "cdiv(n, BLOCK"}, "GRID \"cdiv(n, BLOCK\": expected ')'"},
        {{"--grid", "cdiv(m, BLOCK)"}, "GRID \"cdiv(m, BLOCK)\": unknown name 'm'"},
        {{"-D", "BLK=4"}, "CONSTEXPR BLK: the kernel 'add_kernel' has no parameter named 'BLK'"},
        {{"-D", "n=4"}, "CONSTEXPR n: 'n' is a runtime parameter"},
        {{"--num-warps", "4", "-O1"}, "num_warps applies to -O2"},
        {{"--config", "BLOCK=64", "--config", "BLOCK=128", "--when", "n >", "--key", "n"},
         "WHEN of config 1 (BLOCK=128): unexpected end"},
        {{"--config", "BLOCK=64", "--config", "BLOCK=128 BLK=1", "--key", "n"},
         "note: with the constexprs of config 1 of CONFIGS ('BLOCK=128 BLK=1')"},
        {{"--config", "BLOCK=64", "--key", "x"}, "KEY: 'x' is not an integer runtime parameter"},
        {{"--config", "BLOCK=64", "--restore", "out", "--backends", "host"},
         "RESTORE out: the host backend needs the buffer's extent"},
    };
    for (const Case &c : cases) {
        args = {MT_TEST_COMPILER, "--check", "--option-spelling", "cmake"};
        args.insert(args.end(), good.begin(), good.end());
        args.insert(args.end(), c.extra.begin(), c.extra.end());
        if (c.extra[0] == "--config") /* BLOCK comes from the configs */
            args.erase(args.begin() + 9, args.begin() + 11);
        r = run_process(args);
        EXPECT_EQ(r.status, 1) << c.message;
        EXPECT_EQ(r.out, "1\n") << c.message;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    }
}

// The launchers' parameters are the kernel's names: Triton's stride_am is
// not renamed (only the reductions' own stride_<digits> locals are
// reserved).
TEST(Cli, LauncherKeepsStrideNames) {
    std::string dir = mt_test::make_temp_dir("cli_stride");
    std::string k = dir + "/k.py";
    mt_test::write_file(k,
                        "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                        "def copy_kernel(x, y, stride_xm, stride_0, BLOCK: tl.constexpr):\n"
                        "    offs = tl.arange(0, BLOCK)\n"
                        "    tl.store(y + offs * stride_0, tl.load(x + offs * stride_xm))\n");
    auto r = run_process({MT_TEST_COMPILER, k, "--kernel", "copy_kernel", "--signature",
                          "*fp32, *fp32, i32, i32", "-D", "BLOCK=64", "--backends", "cuda,host",
                          "--emit=header"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("launch_copy(cudaStream_t stream, mytriton_grid grid, const float* x, "
                         "float* y, int32_t stride_xm, int32_t p_stride_0)"),
              std::string::npos)
        << r.out;
}

// --help names what the parsers take: every dtype of the signature, -D's
// literals, --check.
TEST(Cli, HelpIsAccurate) {
    auto h = run_process({MT_TEST_COMPILER, "--help"});
    ASSERT_EQ(h.status, 0);
    for (const char *dt : {"i1", "i8", "i16", "i64", "u8", "u16", "u32", "u64", "fp16", "bf16",
                           "fp64", "fp8e4nv", "fp8e5", "tensordesc<"})
        EXPECT_NE(h.out.find(dt), std::string::npos) << dt;
    for (const char *v : {"None", "a tuple", "tl.float16", "--check", "--next", "--depfile"})
        EXPECT_NE(h.out.find(v), std::string::npos) << v;
    // every option the help names is one the parser takes (no usage error)
    auto args = add_args();
    args.insert(args.end(), {"--emit=ssa", "--num-stages", "2", "--divisibility-16", "--debug",
                             "--backends", "cuda,host"});
    EXPECT_EQ(run_process(args).status, 0);
}

}  // namespace
