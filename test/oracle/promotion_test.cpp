// Triton's promotion table against mytriton. promotion_table.txt holds, per
// case, what Triton 3.6 computes (scripts/gen_promotion_table.py writes it on
// the GPU machine): the result dtype of an operator on two operands (tensors
// of a dtype, or Python scalars), or the class of the error Triton raises.
// Each case becomes a tiny kernel compiled by the library:
//
//     @triton.jit
//     def k7(a_ptr, b_ptr):
//         a = tl.load(a_ptr + tl.arange(0, 4))
//         r = a + (-3)
//         r.dtype.mytriton_probe
//
// mytriton's result dtype is read from the diagnostic of the last line ("the
// dtype X has no attribute 'mytriton_probe'"); any other diagnostic is
// mytriton rejecting the operation, which must match a Triton error. The
// kernels of one operator share a file, parsed once by the shim.
// Value rows (integer // and % on negative operands) are checked for their
// result dtype here; their values are the GPU oracle's (scripts/triton_oracle.py).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "mytriton/mytriton.h"
extern "C" {
#include "driver/compile.h"  // mt_compile_shim_output (C, without extern "C")
}
#include "process.h"

namespace {

const char *const kOps[] = {"add",    "sub", "mul", "truediv", "floordiv",
                            "mod",    "and", "or",  "xor",     "lshift",
                            "rshift", "lt",  "eq",  "where",   "maximum"};

struct Case {
    int line = 0;
    std::string op, lhs, rhs, result;  // value rows: without their "=VALUE"
    std::string text;
};

struct Operand {
    bool tensor = false;
    std::string sig;      // a tensor's signature dtype (*i8)
    std::string literal;  // a scalar's Python text
};

// Triton's short dtype names (as str(dtype) prints them) -> signature spelling
// and mytriton's diagnostic spelling (the tl.* name).
const std::map<std::string, std::pair<std::string, std::string>> &dtype_names() {
    static const std::map<std::string, std::pair<std::string, std::string>> m = {
        {"int1", {"i1", "int1"}},        {"int8", {"i8", "int8"}},
        {"int16", {"i16", "int16"}},     {"int32", {"i32", "int32"}},
        {"int64", {"i64", "int64"}},     {"uint8", {"u8", "uint8"}},
        {"uint16", {"u16", "uint16"}},   {"uint32", {"u32", "uint32"}},
        {"uint64", {"u64", "uint64"}},   {"fp16", {"fp16", "float16"}},
        {"bf16", {"bf16", "bfloat16"}},  {"fp32", {"fp32", "float32"}},
        {"fp64", {"fp64", "float64"}},   {"fp8e4nv", {"fp8e4nv", "float8e4nv"}},
        {"fp8e5", {"fp8e5", "float8e5"}}};
    return m;
}

std::string strip_value(const std::string &tok) {
    // int32=-7 -> int32; int(-7) stays a scalar
    size_t eq = tok.find('=');
    return eq == std::string::npos ? tok : tok.substr(0, eq);
}

// Parses the table; malformed lines are returned in `bad`.
std::vector<Case> read_table(std::vector<std::string> *bad) {
    std::ifstream in(MT_ORACLE_TABLE);
    std::vector<Case> cases;
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        n++;
        if (line.empty() || line[0] == '#') continue;
        std::istringstream ss(line);
        Case c;
        std::string extra;
        if (!(ss >> c.op >> c.lhs >> c.rhs >> c.result) || (ss >> extra)) {
            bad->push_back(std::to_string(n) + ": " + line);
            continue;
        }
        c.line = n;
        c.text = line;
        c.lhs = strip_value(c.lhs);
        c.rhs = strip_value(c.rhs);
        if (c.result.rfind("error:", 0) != 0) c.result = strip_value(c.result);
        cases.push_back(c);
    }
    return cases;
}

bool parse_operand(const std::string &tok, Operand *o) {
    auto names = dtype_names();
    auto it = names.find(tok);
    if (it != names.end()) {
        o->tensor = true;
        o->sig = "*" + it->second.first;
        return true;
    }
    static const std::regex scalar(R"((int|float|bool)\((.+)\))");
    std::smatch m;
    if (!std::regex_match(tok, m, scalar)) return false;
    o->tensor = false;
    o->sig = "*i32";  // the unused pointer parameter
    o->literal = m[1] == "bool" ? std::string(m[2]) : "(" + std::string(m[2]) + ")";
    return true;
}

std::string expression(const std::string &op, const std::string &a, const std::string &b) {
    static const std::map<std::string, std::string> infix = {
        {"add", "+"},     {"sub", "-"}, {"mul", "*"}, {"truediv", "/"}, {"floordiv", "//"},
        {"mod", "%"},     {"and", "&"}, {"or", "|"},  {"xor", "^"},     {"lshift", "<<"},
        {"rshift", ">>"}, {"lt", "<"},  {"eq", "=="}};
    auto it = infix.find(op);
    if (it != infix.end()) return a + " " + it->second + " " + b;
    if (op == "where") return "tl.where(tl.arange(0, 4) < 2, " + a + ", " + b + ")";
    if (op == "maximum") return "tl.maximum(" + a + ", " + b + ")";
    return "";
}

std::string kernel(int index, const Operand &a, const Operand &b, const std::string &expr) {
    std::string s = "\n\n@triton.jit\ndef k" + std::to_string(index) + "(a_ptr, b_ptr):\n";
    // as the generator's probe: a scalar is assigned to a variable first,
    // which makes it a tensor in Triton (a literal in an expression is not)
    s += a.tensor ? "    a = tl.load(a_ptr + tl.arange(0, 4))\n" : "    a = " + a.literal + "\n";
    s += b.tensor ? "    b = tl.load(b_ptr + tl.arange(0, 4))\n" : "    b = " + b.literal + "\n";
    s += "    r = " + expr + "\n    r.dtype.mytriton_probe\n";
    return s;
}

// mytriton's answer: a Triton short dtype name, "error: <diagnostic>", or
// "internal: <diagnostic>" / "compiled" (both wrong for any row).
std::string answer(const std::string &diagnostics, bool ok) {
    if (ok) return "compiled (the probe line did not fail)";
    static const std::regex probe(R"(the dtype (\S+) has no attribute 'mytriton_probe')");
    std::smatch m;
    if (std::regex_search(diagnostics, m, probe)) {
        for (const auto &kv : dtype_names())
            if (kv.second.second == m[1]) return kv.first;
        return "unknown dtype " + std::string(m[1]);
    }
    std::string first = diagnostics.substr(0, diagnostics.find('\n'));
    if (diagnostics.find("internal error") != std::string::npos) return "internal: " + first;
    return "error: " + first;
}

class Promotion : public ::testing::TestWithParam<const char *> {};

TEST_P(Promotion, MatchesTriton) {
    std::vector<std::string> bad;
    std::vector<Case> cases;
    for (const Case &c : read_table(&bad))
        if (c.op == GetParam()) cases.push_back(c);
    ASSERT_FALSE(cases.empty()) << "promotion_table.txt has no case of " << GetParam();

    // Files of kChunk kernels: the shim runs once per file, and each
    // compilation reads the whole file's AST.
    const size_t kChunk = 48;
    int checked = 0;
    for (size_t first = 0; first < cases.size(); first += kChunk) {
        size_t last = std::min(cases.size(), first + kChunk);
        std::string source = "import triton\nimport triton.language as tl\n";
        std::vector<Operand> lhs(last - first), rhs(last - first);
        std::vector<bool> usable(last - first, true);
        for (size_t i = first; i < last; i++) {
            const Case &c = cases[i];
            Operand &a = lhs[i - first];
            Operand &b = rhs[i - first];
            if (!parse_operand(c.lhs, &a) || !parse_operand(c.rhs, &b)) {
                ADD_FAILURE() << "promotion_table.txt:" << c.line << ": unknown operand in '"
                              << c.text << "'";
                usable[i - first] = false;
                continue;
            }
            source += kernel(static_cast<int>(i), a, b, expression(c.op, "a", "b"));
        }
        std::string dir = mt_test::make_temp_dir(std::string("promotion_") + GetParam());
        std::string path = dir + "/cases.py";
        mt_test::write_file(path, source);
        mt_test::ProcessResult shim = mt_test::run_process({MT_TEST_PYTHON, MT_TEST_SHIM, path});
        ASSERT_EQ(shim.status, 0) << shim.out << shim.err;
        for (size_t i = first; i < last; i++) {
            if (!usable[i - first]) continue;
            const Case &c = cases[i];
            std::string name = "k" + std::to_string(i);
            std::string sig = lhs[i - first].sig + ", " + rhs[i - first].sig;
            mt_options o{};
            o.path = path.c_str();
            o.kernel = name.c_str();
            o.signature = sig.c_str();
            o.grid = "1";
            o.opt_level = 0;
            o.shim = MT_TEST_SHIM;
            mt_compilation *comp = mt_compile_shim_output(
                &o, shim.status, shim.out.data(), shim.out.size(), shim.err.data(), shim.err.size(),
                source.data(), source.size());
            std::string got = answer(mt_diagnostics(comp), mt_ok(comp) != 0);
            mt_free(comp);
            checked++;
            bool triton_error = c.result.rfind("error:", 0) == 0;
            bool agree = triton_error ? got.rfind("error: ", 0) == 0 : got == c.result;
            EXPECT_TRUE(agree) << "promotion_table.txt:" << c.line << ": " << c.op << " " << c.lhs
                               << " " << c.rhs << ": Triton gives " << c.result << ", mytriton "
                               << got;
        }
    }
    EXPECT_EQ(checked, static_cast<int>(cases.size()));
}

INSTANTIATE_TEST_SUITE_P(Ops, Promotion, ::testing::ValuesIn(kOps),
                         [](const ::testing::TestParamInfo<const char *> &info) {
                             return std::string(info.param);
                         });

TEST(PromotionTable, IsWellFormedAndCoversEveryOperator) {
    std::vector<std::string> bad;
    std::vector<Case> cases = read_table(&bad);
    EXPECT_TRUE(bad.empty()) << "malformed lines, first: " << (bad.empty() ? "" : bad[0]);
    std::set<std::string> ops;
    for (const Case &c : cases) ops.insert(c.op);
    for (const char *op : kOps) EXPECT_TRUE(ops.count(op)) << "no case of " << op;
    std::set<std::string> known(std::begin(kOps), std::end(kOps));
    for (const Case &c : cases)
        EXPECT_TRUE(known.count(c.op)) << "line " << c.line << ": unknown operator " << c.op;
}

}  // namespace
