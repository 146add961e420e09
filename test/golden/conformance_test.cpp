// Conformance: mytritonc -O1 --emit=ssa and --emit=cuda against the golden
// files, byte for byte, for every case of conformance/manifest.json.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "conformance_cases.h"
#include "process.h"

namespace {

using Case = mt_test::ConformanceCase;

const std::vector<Case> &cases() { return mt_test::conformance_cases(); }

struct Param {
    size_t index;
    std::string stage;
};

class Conformance : public ::testing::TestWithParam<Param> {};

TEST_P(Conformance, MatchesGolden) {
    const Case &c = cases()[GetParam().index];
    const std::string &stage = GetParam().stage;
    std::string dir = MT_CONFORMANCE_DIR;
    std::vector<std::string> argv = {
        MT_TEST_COMPILER, dir + "/" + c.file, "--kernel", c.kernel,
        "--signature",    c.signature,        "-O1",      "--emit=" + stage};
    for (auto &d : c.defines) argv.insert(argv.end(), {"-D", d});
    auto r = mt_test::run_process(argv);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    std::string golden =
        mt_test::read_file(dir + "/golden/" + c.name + (stage == "ssa" ? ".ssa" : ".cu"));
    EXPECT_EQ(r.out, golden);
}

std::vector<Param> params() {
    std::vector<Param> p;
    for (size_t i = 0; i < cases().size(); i++) {
        p.push_back({i, "ssa"});
        p.push_back({i, "cuda"});
    }
    return p;
}

INSTANTIATE_TEST_SUITE_P(Golden, Conformance, ::testing::ValuesIn(params()),
                         [](const ::testing::TestParamInfo<Param> &info) {
                             return std::string(cases()[info.param.index].name) + "_" +
                                    info.param.stage;
                         });

}  // namespace
