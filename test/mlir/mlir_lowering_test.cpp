// The MLIR backend against the real tools: for every conformance case, at
// -O1 and -O2, the module that `mytritonc --backends mlir -o DIR` writes
// passes mlir-opt's lowering pipeline (the build's, for sm_90) and gives a
// gpu.binary whose PTX has `.entry <kernel>`; `--mlir-binary` turns that
// into NAME_mlir.c with the PTX embedded; the module is deterministic.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "conformance_cases.h"
#include "process.h"

namespace {

using Case = mt_test::ConformanceCase;

const std::vector<Case> &cases() { return mt_test::conformance_cases(); }

std::vector<std::string> pipeline() {
    std::vector<std::string> args;
    std::stringstream in(MT_MLIR_PIPELINE);
    for (std::string a; std::getline(in, a, '|');) args.push_back(a);
    return args;
}

struct Param {
    size_t index;
    std::string opt;
};

class Lowering : public ::testing::TestWithParam<Param> {
  protected:
    std::vector<std::string> compile_args(const Case &c) const {
        std::vector<std::string> argv = {MT_TEST_COMPILER,
                                         std::string(MT_CONFORMANCE_DIR) + "/" + c.file,
                                         "--kernel",
                                         c.kernel,
                                         "--signature",
                                         c.signature,
                                         "--name",
                                         c.name,
                                         GetParam().opt,
                                         "--backends",
                                         "mlir"};
        for (auto &d : c.defines) argv.insert(argv.end(), {"-D", d});
        if (c.grid) argv.insert(argv.end(), {"--grid", c.grid});
        return argv;
    }
};

TEST_P(Lowering, ToPtx) {
    const Case &c = cases()[GetParam().index];
    const std::string name = c.name, symbol = name + "_kernel";
    std::string dir = mt_test::make_temp_dir("mlir_" + name + GetParam().opt);

    // mytritonc -o: NAME.mlir beside NAME.h
    auto args = compile_args(c);
    args.insert(args.end(), {"-o", dir});
    auto r = mt_test::run_process(args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    std::string module = mt_test::read_file(dir + "/" + name + ".mlir");
    EXPECT_NE(module.find("module attributes {gpu.container_module}"), std::string::npos) << module;
    EXPECT_NE(module.find("gpu.func @" + symbol + "("), std::string::npos) << module;
    EXPECT_NE(
        mt_test::read_file(dir + "/" + name + ".h").find("cudaError_t launch_" + name + "_mlir("),
        std::string::npos);

    // deterministic: --emit=mlir prints the same module again
    auto again = compile_args(c);
    again.push_back("--emit=mlir");
    auto e = mt_test::run_process(again);
    ASSERT_EQ(e.status, 0) << e.err;
    EXPECT_EQ(e.out, module);

    // mlir-opt: a gpu.binary holding the PTX of the kernel
    std::vector<std::string> opt = {MT_MLIR_OPT, dir + "/" + name + ".mlir"};
    for (auto &p : pipeline()) opt.push_back(p);
    opt.insert(opt.end(), {"-o", dir + "/" + name + ".gpu.mlir"});
    auto l = mt_test::run_process(opt);
    ASSERT_EQ(l.status, 0) << "mlir-opt failed on\n" << module << "\n" << l.err;
    std::string binary = mt_test::read_file(dir + "/" + name + ".gpu.mlir");
    EXPECT_NE(binary.find("gpu.binary @" + name), std::string::npos);
    EXPECT_NE(binary.find(".entry " + symbol + "("), std::string::npos) << binary;
    EXPECT_NE(binary.find(".target sm_90"), std::string::npos);

    // mytritonc --mlir-binary -o: NAME_mlir.c alone, the PTX embedded
    auto launcher = compile_args(c);
    launcher.insert(launcher.end(), {"--mlir-binary", dir + "/" + name + ".gpu.mlir", "-o", dir});
    auto m = mt_test::run_process(launcher);
    ASSERT_EQ(m.status, 0) << m.err;
    std::string unit = mt_test::read_file(dir + "/" + name + "_mlir.c");
    EXPECT_NE(unit.find("cudaError_t launch_" + name + "_mlir(cudaStream_t stream"),
              std::string::npos)
        << unit;
    EXPECT_NE(unit.find("\".visible .entry " + symbol + "(\\n\","), std::string::npos) << unit;
    EXPECT_NE(unit.find("const mytriton_kernel_info mytriton_kernel_info_" + name + "_mlir = {"),
              std::string::npos);
    EXPECT_EQ(unit.find(MT_TEST_SOURCE_DIR), std::string::npos)
        << "no absolute paths in generated files";
    EXPECT_EQ(unit.find(dir), std::string::npos) << "no absolute paths in generated files";
}

std::vector<Param> params() {
    std::vector<Param> p;
    for (size_t i = 0; i < cases().size(); i++) {
        p.push_back({i, "-O1"});
        p.push_back({i, "-O2"});
    }
    return p;
}

INSTANTIATE_TEST_SUITE_P(Conformance, Lowering, ::testing::ValuesIn(params()),
                         [](const ::testing::TestParamInfo<Param> &info) {
                             return std::string(cases()[info.param.index].name) + "_O" +
                                    info.param.opt.substr(2);
                         });

}  // namespace
