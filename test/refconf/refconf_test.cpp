// The reference corpus (issue 17): mytritonc -O1 --emit=ssa and --emit=cuda
// of every case of refconf/cases.tsv against golden/<case>.ssa and .cu,
// byte for byte. The golden files are the output of the seed's compiler
// (the Python reference), made by make_corpus.sh; nothing runs it here.
#include <gtest/gtest.h>

#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "process.h"

namespace {

struct Case {
    std::string name, file, kernel, signature;
    std::vector<std::string> defines;
};

std::vector<Case> load_cases() {
    std::vector<Case> cases;
    std::istringstream in(mt_test::read_file(std::string(MT_REFCONF_DIR) + "/cases.tsv"));
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> cols;
        std::istringstream ls(line);
        std::string col;
        while (std::getline(ls, col, '\t')) cols.push_back(col);
        if (cols.size() < 4) continue;
        Case c{cols[0], cols[1], cols[2], cols[3], {}};
        if (cols.size() > 4) {
            std::istringstream ds(cols[4]);
            std::string d;
            while (ds >> d) c.defines.push_back(d);
        }
        cases.push_back(c);
    }
    return cases;
}

const std::vector<Case>& cases() {
    static const std::vector<Case> c = load_cases();
    return c;
}

struct Param {
    size_t index;
    std::string stage;
};

void PrintTo(const Param& p, std::ostream* os) { *os << cases()[p.index].name << " " << p.stage; }

class RefConformance : public ::testing::TestWithParam<Param> {};

TEST_P(RefConformance, MatchesReference) {
    const Case& c = cases()[GetParam().index];
    const std::string& stage = GetParam().stage;
    std::string dir = MT_REFCONF_DIR;
    std::vector<std::string> argv = {MT_TEST_COMPILER, dir + "/kernels/" + c.file, "--kernel", c.kernel,
                                     "--signature", c.signature, "-O1", "--emit=" + stage};
    for (auto& d : c.defines) argv.insert(argv.end(), {"-D", d});
    auto r = mt_test::run_process(argv);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.out, mt_test::read_file(dir + "/golden/" + c.name + (stage == "ssa" ? ".ssa" : ".cu")));
}

TEST(RefCorpus, HasAtLeast100Cases) { EXPECT_GE(cases().size(), 100u); }

// Where the seed is wrong: a load read after a store in source order stays
// before it (the seed would lower `v` at its use, after `tl.store(x + i, 1.0)`).
// A load nothing reads (`dead`) is never lowered, as in the seed.
std::string ssa_of(const std::string& kernel, const std::string& sig) {
    auto r = mt_test::run_process({MT_TEST_COMPILER, std::string(MT_REFCONF_DIR) + "/memory_order.py", "--kernel", kernel,
                                   "--signature", sig, "-O1", "--emit=ssa"});
    EXPECT_EQ(r.status, 0) << r.err;
    return r.out;
}

TEST(MemoryOrder, LoadBeforeLaterStore) {
    EXPECT_EQ(ssa_of("hazard_kernel", "*fp32, *fp32"),
              "%0 = arange {start=0, end=16} : vector<16 x i32>\n"
              "%1 = addptr x, %0 : vector<16 x ptr<f32>>\n"
              "%3 = load %1, none, none : vector<16 x f32>\n"
              "store %1, 1.0, none\n"
              "%4 = addptr out, %0 : vector<16 x ptr<f32>>\n"
              "store %4, %3, none\n");
}

TEST(MemoryOrder, LoadBeforeLaterStoreInLoop) {
    EXPECT_EQ(ssa_of("loop_hazard_kernel", "*fp32, *fp32, i32"),
              "%0 = arange {start=0, end=16} : vector<16 x i32>\n"
              "%1 = addptr x, %0 : vector<16 x ptr<f32>>\n"
              "%2 = load %1, none, none : vector<16 x f32>\n"
              "for %3 in range(0, n, 1) {\n"
              "  %4 = add %2, 1.0 : vector<16 x f32>\n"
              "  %5 = addptr x, %0 : vector<16 x ptr<f32>>\n"
              "  store %5, %4, none\n"
              "  %6 = addptr x, %0 : vector<16 x ptr<f32>>\n"
              "  %7 = addptr x, %0 : vector<16 x ptr<f32>>\n"
              "  %8 = load %7, none, none : vector<16 x f32>\n"
              "  store %6, 5.0, none\n"
              "  %9 = addptr out, %0 : vector<16 x ptr<f32>>\n"
              "  store %9, %8, none\n"
              "  yield\n"
              "}\n"
              "%10 = addptr out, %0 : vector<16 x ptr<f32>>\n"
              "store %10, %2, none\n");
}

std::vector<Param> params() {
    std::vector<Param> p;
    for (size_t i = 0; i < cases().size(); i++) {
        p.push_back({i, "ssa"});
        p.push_back({i, "cuda"});
    }
    return p;
}

INSTANTIATE_TEST_SUITE_P(Golden, RefConformance, ::testing::ValuesIn(params()),
                         [](const ::testing::TestParamInfo<Param>& info) {
                             return cases()[info.param.index].name + "_" + info.param.stage;
                         });

}  // namespace
