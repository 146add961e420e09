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

}  // namespace
