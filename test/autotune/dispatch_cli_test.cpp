// mytritonc's dispatch mode (--config/--when/--key/--restore/--specialize,
// --num-stages, --divisibility-16): what it writes and its diagnostics.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "process.h"

namespace {

const std::string kKernels =
    std::string(MT_TEST_SOURCE_DIR) + "/autotune/kernels/autotune_kernels.py";
const std::string kMatmul = std::string(MT_TEST_SOURCE_DIR) + "/conformance/kernels/matmul.py";

mt_test::ProcessResult mytritonc(std::vector<std::string> args) {
    args.insert(args.begin(), MT_TEST_COMPILER);
    args.insert(args.end(), {"--python", MT_TEST_PYTHON, "--shim", MT_TEST_SHIM});
    return mt_test::run_process(args);
}

std::vector<std::string> tagged(const std::string &out) {
    return {kKernels,
            "--kernel",
            "tagged_kernel",
            "--signature",
            "*fp32, *fp32, i32",
            "--grid",
            "cdiv(n, BLOCK)",
            "--name",
            "tg",
            "--backends",
            "cuda,host",
            "-o",
            out};
}

TEST(DispatchCli, WritesTheDispatcherAndItsTable) {
    std::string dir = mt_test::make_temp_dir("dispatch_cli");
    auto args = tagged(dir);
    args.insert(args.end(), {"--config", "BLOCK=64 TAG=1.0", "--config",
                             "BLOCK=128 TAG=2.0 NUM_WARPS=2 NUM_STAGES=3", "--when",
                             "n >= 4096 and not n % 3 == 0", "--key", "n"});
    auto r = mytritonc(args);
    ASSERT_EQ(r.status, 0) << r.err;
    std::string h = mt_test::read_file(dir + "/tg.h"), cu = mt_test::read_file(dir + "/tg.cu"),
                host = mt_test::read_file(dir + "/tg_host.c");
    EXPECT_NE(h.find("#include \"tg_cfg1_d16.h\""), std::string::npos) << h;
    EXPECT_NE(
        h.find(
            "cudaError_t launch_tg(cudaStream_t stream, const float* x, float* out, int32_t n);"),
        std::string::npos);
    EXPECT_NE(
        h.find(
            "config 1: BLOCK=128 TAG=2.0 NUM_WARPS=2 NUM_STAGES=3 (launch_tg_cfg1) WHEN n >= 4096"),
        std::string::npos)
        << h;
    EXPECT_NE(cu.find("launch_tg_cfg1_d16(p->stream, p->x, p->out, p->n)"), std::string::npos)
        << cu;
    EXPECT_NE(cu.find("mytriton_cuda_capturing(p->stream)"), std::string::npos);
    EXPECT_NE(cu.find("static mytriton_tuner mt_tuner_tg = {"), std::string::npos);
    EXPECT_NE(host.find("launch_tg_cfg0_host(p->x, p->out, p->n)"), std::string::npos) << host;
    EXPECT_NE(host.find("mytriton_autotune_time_host"), std::string::npos);
    // deterministic: the same run writes the same bytes
    std::string dir2 = mt_test::make_temp_dir("dispatch_cli2");
    args = tagged(dir2);
    args.insert(args.end(), {"--config", "BLOCK=64 TAG=1.0", "--config",
                             "BLOCK=128 TAG=2.0 NUM_WARPS=2 NUM_STAGES=3", "--when",
                             "n >= 4096 and not n % 3 == 0", "--key", "n"});
    ASSERT_EQ(mytritonc(args).status, 0);
    EXPECT_EQ(mt_test::read_file(dir2 + "/tg.cu"), cu);
    EXPECT_EQ(mt_test::read_file(dir2 + "/tg_host.c"), host);
}

TEST(DispatchCli, OneConfigHasNoTable) {
    std::string dir = mt_test::make_temp_dir("dispatch_one");
    auto args = tagged(dir);
    args.insert(args.end(), {"--config", "BLOCK=64 TAG=1.0"});
    auto r = mytritonc(args);
    ASSERT_EQ(r.status, 0) << r.err;
    std::string cu = mt_test::read_file(dir + "/tg.cu");
    EXPECT_EQ(cu.find("mytriton_autotune_lookup"), std::string::npos) << cu;
    EXPECT_NE(cu.find("return mt_run_tg(&p, 0);"), std::string::npos) << cu;
}

TEST(DispatchCli, SpecializedVariantAndNumStages) {
    std::string dir = mt_test::make_temp_dir("dispatch_d16");
    auto r = mytritonc({kKernels, "--kernel", "tagged_kernel", "--signature", "*fp32, *fp32, i32",
                        "--grid", "cdiv(n, BLOCK)", "-D", "BLOCK=256", "-D", "TAG=1.0", "--name",
                        "tg_d16", "--num-stages", "4", "--divisibility-16", "-o", dir});
    ASSERT_EQ(r.status, 0) << r.err;
    std::string h = mt_test::read_file(dir + "/tg_d16.h"),
                cu = mt_test::read_file(dir + "/tg_d16.cu");
    EXPECT_NE(h.find("signature: *fp32:16, *fp32:16, i32:16"), std::string::npos) << h;
    EXPECT_NE(h.find("num_stages: 4 (a hint this kernel's code does not use)"), std::string::npos)
        << h;
    EXPECT_EQ(cu.find("_al16"), std::string::npos)
        << "no run-time alignment test in the specialized kernel\n"
        << cu;
}

struct BadCase {
    const char *name;
    std::vector<std::string> extra;
    const char *message;
    int status;
};

class DispatchCliErrors : public ::testing::TestWithParam<BadCase> {};

TEST_P(DispatchCliErrors, AreDiagnosed) {
    const BadCase &c = GetParam();
    std::string dir = mt_test::make_temp_dir(std::string("dispatch_bad_") + c.name);
    auto args = tagged(dir);
    args.insert(args.end(), c.extra.begin(), c.extra.end());
    auto r = mytritonc(args);
    EXPECT_EQ(r.status, c.status) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_FALSE(mt_test::file_exists(dir + "/tg.cu"));
}

const std::vector<std::string> two = {"--config", "BLOCK=64 TAG=1.0", "--config",
                                      "BLOCK=128 TAG=2.0"};
std::vector<std::string> with(std::vector<std::string> more) {
    std::vector<std::string> v = two;
    v.insert(v.end(), more.begin(), more.end());
    return v;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DispatchCliErrors,
    ::testing::Values(
        BadCase{"when_unknown", with({"--when", "m > 3", "--key", "n"}),
                "unknown name 'm' (names: n)", 1},
        BadCase{"when_chain", with({"--when", "1 < n < 9", "--key", "n"}),
                "chained comparison (use 'and')", 1},
        BadCase{"when_end", with({"--when", "n >=", "--key", "n"}), "unexpected end in 'n >='", 1},
        BadCase{"when_paren", with({"--when", "(n > 3", "--key", "n"}), "expected ')'", 1},
        BadCase{"when_first",
                {"--when", "n > 3", "--config", "BLOCK=64 TAG=1.0"},
                "before any --config",
                2},
        BadCase{"key_pointer", with({"--key", "x"}),
                "KEY: 'x' is not an integer runtime parameter of tagged_kernel", 1},
        BadCase{"key_twice", with({"--key", "n,n"}), "KEY: 'n' given twice", 1},
        BadCase{"restore_read_only", with({"--key", "n", "--restore", "x=n"}),
                "RESTORE: tagged_kernel never stores through 'x'", 1},
        BadCase{"restore_host", with({"--key", "n", "--restore", "out"}),
                "the host backend needs the buffer's extent", 1},
        BadCase{"restore_expr", with({"--key", "n", "--restore", "out=n*"}),
                "RESTORE out: unexpected end", 1},
        BadCase{"config_syntax",
                {"--config", "BLOCK=64 TAG"},
                "config 'BLOCK=64 TAG': 'TAG' is not NAME=VALUE",
                1},
        BadCase{"config_warps",
                {"--config", "BLOCK=64 TAG=1.0 NUM_WARPS=6"},
                "NUM_WARPS must be a power of two",
                1},
        BadCase{"config_stages",
                {"--config", "BLOCK=64 TAG=1.0 NUM_STAGES=0"},
                "NUM_STAGES must be from 1 to 16",
                1},
        BadCase{"key_without_config", {"--key", "n"}, "--key and --restore need --config", 2},
        BadCase{"specialize", with({"--specialize", "maybe"}), "--specialize takes on or off", 2},
        BadCase{"mlir", with({"--backends", "mlir"}),
                "the mlir backend has no dispatching launcher yet", 1}),
    [](const ::testing::TestParamInfo<BadCase> &i) { return std::string(i.param.name); });

}  // namespace
