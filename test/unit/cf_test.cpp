// Runtime control flow (issue 13): the verifier's rules for the region ops
// `if` and `while` on hand-built SSA, their SSA text, the passes around
// them (nothing leaves a branch; a region that stores is live), and the
// diagnostics of every construct the frontend rejects (diagnostics_test.cpp
// style: file:line:col, the line, a caret).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "unit_support.h"

namespace {

using namespace mt_unit;

// x: ptr<f32>, n: i32, s: f32
Ssa *cf_params() { return new Ssa({{"x", ptr_f32()}, {"n", i32()}, {"s", f32()}}); }

// ---- Building if and while by hand ------------------------------------------

struct RegionRef {
    Inst *in = nullptr;
    Loop *l = nullptr;
    Block *outer = nullptr;
    std::vector<Operand> args;
};

Loop *new_region(Ssa &s, Op op, int lanes) {
    Loop *l = ARENA_NEW(s.a, Loop);
    l->index = -1;
    l->nyields = l->nresults = lanes;
    l->inits = ARENA_ARRAY(s.a, Operand, lanes + 1);
    l->args = ARENA_ARRAY(s.a, int, lanes + 1);
    l->yields = ARENA_ARRAY(s.a, Operand, lanes + 1);
    l->else_yields = ARENA_ARRAY(s.a, Operand, lanes + 1);
    l->results = ARENA_ARRAY(s.a, int, lanes + 1);
    (void)op;
    return l;
}

// `if cond {` ... the then region is built until else_region.
RegionRef begin_if(Ssa &s, Operand cond, int lanes) {
    RegionRef r;
    r.in = ssa_inst_new(s.a, OP_IF, srcpos(1, 1));
    r.l = new_region(s, OP_IF, lanes);
    r.in->loop = r.l;
    r.l->cond = cond;
    r.outer = s.cur;
    s.cur = &r.l->body;
    return r;
}
void else_region(Ssa &s, RegionRef &r, std::vector<Operand> yields) {
    for (size_t i = 0; i < yields.size(); i++) r.l->yields[i] = yields[i];
    s.cur = &r.l->orelse;
}
std::vector<Operand> end_if(Ssa &s, RegionRef &r, std::vector<Operand> yields,
                            std::vector<Type> types) {
    for (size_t i = 0; i < yields.size(); i++) r.l->else_yields[i] = yields[i];
    s.cur = r.outer;
    std::vector<Operand> results;
    for (int i = 0; i < r.l->nresults; i++) {
        r.l->results[i] = ssa_new_value(s.a, s.f, types[i], r.in);
        results.push_back(opd_value(r.l->results[i]));
    }
    ptrvec_push(s.a, &s.cur->items, r.in);
    return results;
}

// `while iter_args(... = inits) {` ... the condition region is built until
// while_body.
RegionRef begin_while(Ssa &s, std::vector<Operand> inits) {
    RegionRef r;
    int n = static_cast<int>(inits.size());
    r.in = ssa_inst_new(s.a, OP_WHILE, srcpos(1, 1));
    r.l = new_region(s, OP_WHILE, n);
    r.in->loop = r.l;
    r.l->ncarried = n;
    for (int i = 0; i < n; i++) {
        r.l->inits[i] = inits[i];
        r.l->args[i] = ssa_new_value(s.a, s.f, operand_type(s.f, inits[i]), r.in);
        r.args.push_back(opd_value(r.l->args[i]));
    }
    r.outer = s.cur;
    s.cur = &r.l->before;
    return r;
}
void while_body(Ssa &s, RegionRef &r, Operand cond) {
    r.l->cond = cond;
    s.cur = &r.l->body;
}
std::vector<Operand> end_while(Ssa &s, RegionRef &r, std::vector<Operand> yields) {
    for (size_t i = 0; i < yields.size(); i++) r.l->yields[i] = yields[i];
    s.cur = r.outer;
    std::vector<Operand> results;
    for (int i = 0; i < r.l->nresults; i++) {
        r.l->results[i] = ssa_new_value(s.a, s.f, s.f->types[r.l->args[i]], r.in);
        results.push_back(opd_value(r.l->results[i]));
    }
    ptrvec_push(s.a, &s.cur->items, r.in);
    return results;
}

// ---- The verifier: if ----------------------------------------------------------

TEST(VerifierIf, ValidIfMergesValues) {
    std::unique_ptr<Ssa> s(cf_params());
    Operand c = s->typed(OP_CMP_GT, {param(1), ci(0)});
    RegionRef r = begin_if(*s, c, 1);
    Operand a = s->typed(OP_ADD, {param(1), ci(1)});
    else_region(*s, r, {a});
    Operand b = s->typed(OP_MUL, {param(1), ci(2)});
    auto res = end_if(*s, r, {b}, {i32()});
    s->typed(OP_ADD, {res[0], ci(3)});
    EXPECT_VALID(*s);
    EXPECT_NE(
        s->print().find(
            "%3 = if %0 : i32 {\n  %1 = add n, 1 : i32\n  yield %1\n} else {\n  %2 = mul n, 2"),
        std::string::npos)
        << s->print();
}

TEST(VerifierIf, ConditionIsABoolScalar) {
    std::unique_ptr<Ssa> s(cf_params());
    RegionRef r = begin_if(*s, param(1), 0);
    else_region(*s, r, {});
    end_if(*s, r, {}, {});
    EXPECT_REJECTED(*s, "must be an i1 scalar (got i32)");

    std::unique_ptr<Ssa> m(cf_params());
    RegionRef q = begin_if(*m, none(), 0);
    else_region(*m, q, {});
    end_if(*m, q, {}, {});
    EXPECT_REJECTED(*m, "the condition of the if at line 1 is missing");
}

TEST(VerifierIf, YieldsHaveTheResultTypes) {
    std::unique_ptr<Ssa> s(cf_params());
    Operand c = s->typed(OP_CMP_GT, {param(1), ci(0)});
    RegionRef r = begin_if(*s, c, 1);
    else_region(*s, r, {cf(1.0)});
    end_if(*s, r, {ci(2)}, {i32()});
    EXPECT_REJECTED(*s, "lane 0: the lane is i32 but the then-yield is f32");
}

TEST(VerifierIf, BranchesDoNotSeeEachOther) {
    std::unique_ptr<Ssa> s(cf_params());
    Operand c = s->typed(OP_CMP_GT, {param(1), ci(0)});
    RegionRef r = begin_if(*s, c, 1);
    Operand a = s->typed(OP_ADD, {param(1), ci(1)});
    else_region(*s, r, {a});
    end_if(*s, r, {a}, {i32()});  // the else region yields the then region's value
    EXPECT_REJECTED(
        *s, "else-yield 0 of the if defining %2 uses %1 outside the region that defines it");
}

TEST(VerifierIf, BranchValuesDoNotEscape) {
    std::unique_ptr<Ssa> s(cf_params());
    Operand c = s->typed(OP_CMP_GT, {param(1), ci(0)});
    RegionRef r = begin_if(*s, c, 0);
    Operand a = s->typed(OP_ADD, {param(1), ci(1)});
    else_region(*s, r, {});
    end_if(*s, r, {}, {});
    s->typed(OP_ADD, {a, ci(1)});
    EXPECT_REJECTED(*s, "uses %1 outside the region that defines it");
}

TEST(VerifierIf, NoCarriedInputsAndOneYieldPerResult) {
    std::unique_ptr<Ssa> s(cf_params());
    Operand c = s->typed(OP_CMP_GT, {param(1), ci(0)});
    RegionRef r = begin_if(*s, c, 1);
    else_region(*s, r, {ci(1)});
    end_if(*s, r, {ci(2)}, {i32()});
    r.l->ncarried = 1;
    EXPECT_REJECTED(*s, "has 1 carried inputs (an if has none)");
    r.l->ncarried = 0;
    r.l->nyields = 0;
    EXPECT_REJECTED(*s, "has 0 yields per region and 1 results");
}

// ---- The verifier: while -------------------------------------------------------

TEST(VerifierWhile, ValidWhile) {
    std::unique_ptr<Ssa> s(cf_params());
    RegionRef r = begin_while(*s, {ci(0)});
    Operand c = s->typed(OP_CMP_LT, {r.args[0], param(1)});
    while_body(*s, r, c);
    Operand next = s->typed(OP_ADD, {r.args[0], ci(1)});
    auto res = end_while(*s, r, {next});
    s->typed(OP_ADD, {res[0], ci(1)});
    EXPECT_VALID(*s);
    EXPECT_NE(
        s->print().find(
            "%3 = while iter_args(%0 = 0) : i32 {\n  %1 = cmp_lt %0, n : bool\n  condition %1\n} "
            "do {\n  %2 = add %0, 1 : i32\n  yield %2\n}"),
        std::string::npos)
        << s->print();
}

TEST(VerifierWhile, ConditionValuesStayInTheConditionRegion) {
    std::unique_ptr<Ssa> s(cf_params());
    RegionRef r = begin_while(*s, {ci(0)});
    Operand c = s->typed(OP_CMP_LT, {r.args[0], param(1)});
    Operand t = s->typed(OP_ADD, {r.args[0], ci(5)});
    while_body(*s, r, c);
    end_while(*s, r, {t});  // the body yields a value of the condition region
    EXPECT_REJECTED(*s,
                    "yield 0 of the while defining %3 uses %2 outside the region that defines it");
}

TEST(VerifierWhile, ConditionIsABoolScalar) {
    std::unique_ptr<Ssa> s(cf_params());
    RegionRef r = begin_while(*s, {ci(0)});
    while_body(*s, r, r.args[0]);
    end_while(*s, r, {r.args[0]});
    EXPECT_REJECTED(*s, "the condition of the while defining %1 must be an i1 scalar (got i32)");
}

TEST(VerifierWhile, LanesKeepOneType) {
    std::unique_ptr<Ssa> s(cf_params());
    RegionRef r = begin_while(*s, {ci(0)});
    Operand c = s->typed(OP_CMP_LT, {r.args[0], param(1)});
    while_body(*s, r, c);
    end_while(*s, r, {cf(1.0)});
    EXPECT_REJECTED(*s, "lane 0: the lane is i32 but the yield is f32");

    std::unique_ptr<Ssa> q(cf_params());
    RegionRef w = begin_while(*q, {ci(0)});
    Operand d = q->typed(OP_CMP_LT, {w.args[0], param(1)});
    while_body(*q, w, d);
    end_while(*q, w, {w.args[0]});
    w.l->nyields = 0;
    EXPECT_REJECTED(*q, "has 1 carried inputs and region arguments, 0 yields and 1 results");
}

// ---- Lowering and passes -------------------------------------------------------

Compiled compile_body(const std::string &tag, const std::string &params, const std::string &sig,
                      const std::string &body, int opt = 2) {
    CompileArgs a;
    a.path = write_kernel(tag, "k.py", kernel_text(params, body));
    a.signature = sig;
    a.opt_level = opt;
    return compile(a);
}

TEST(ControlFlowSsa, NothingLeavesABranch) {
    // n * 7 is loop-invariant but guarded by the if: LICM keeps it inside
    Compiled c = compile_body("cf_licm", "x, n", "*i32, i32",
                              "    acc = 0\n"
                              "    for i in range(0, n):\n"
                              "        if n > 3:\n"
                              "            acc += n * 7\n"
                              "    tl.store(x, acc)\n");
    ASSERT_TRUE(c.ok) << c.diagnostics;
    size_t at_if = c.ssa.find(" = if ");
    size_t at_mul = c.ssa.find("mul n, 7");
    ASSERT_NE(at_if, std::string::npos) << c.ssa;
    ASSERT_NE(at_mul, std::string::npos) << c.ssa;
    EXPECT_LT(at_if, at_mul) << c.ssa;
    // the condition n > 3 is invariant and not guarded: it leaves the loop
    EXPECT_LT(c.ssa.find("cmp_gt n, 3"), c.ssa.find("for ")) << c.ssa;
}

TEST(ControlFlowSsa, RegionsThatStoreAreLive) {
    Compiled c = compile_body("cf_dce", "x, n", "*i32, i32",
                              "    if n > 0:\n"
                              "        tl.store(x, n)\n"
                              "    m = n\n"
                              "    while m > 0:\n"
                              "        m -= 1\n"
                              "    if n > 5:\n"
                              "        unused = n * 2\n");
    ASSERT_TRUE(c.ok) << c.diagnostics;
    EXPECT_NE(c.ssa.find("if %"), std::string::npos) << c.ssa;
    EXPECT_NE(c.ssa.find("store x, n"), std::string::npos) << c.ssa;
    // a while and an if that store nothing and whose results are unused go
    EXPECT_EQ(c.ssa.find("while"), std::string::npos) << c.ssa;
    EXPECT_EQ(c.ssa.find("mul n, 2"), std::string::npos) << c.ssa;
}

TEST(ControlFlowSsa, LoadsStayInTheirBranch) {
    Compiled c = compile_body("cf_loads", "x, y, n", "*i32, *i32, i32",
                              "    v = 0\n"
                              "    if n > 0:\n"
                              "        v = tl.load(x)\n"
                              "    tl.store(y, v)\n");
    ASSERT_TRUE(c.ok) << c.diagnostics;
    size_t at_if = c.ssa.find(" = if ");
    size_t at_load = c.ssa.find("load x");
    ASSERT_NE(at_load, std::string::npos) << c.ssa;
    EXPECT_LT(at_if, at_load) << c.ssa;
    EXPECT_NE(c.ssa.find("} else {\n  yield 0\n}"), std::string::npos) << c.ssa;
}

size_t count(const std::string &text, const std::string &piece) {
    size_t n = 0;
    for (size_t at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1)) n++;
    return n;
}

TEST(ControlFlowSsa, ReturnInARuntimeIfMakesTheRestTheElseBranch) {
    // Triton's top-level if: `if n > 3: return` runs the rest only otherwise;
    // statements after the return in its branch are dead
    Compiled c = compile_body("cf_return", "x, n", "*i32, i32",
                              "    if n > 3:\n"
                              "        return\n"
                              "        tl.store(x, 5)\n"
                              "    tl.store(x, n)\n");
    ASSERT_TRUE(c.ok) << c.diagnostics;
    EXPECT_NE(c.ssa.find("if %"), std::string::npos) << c.ssa;
    EXPECT_NE(c.ssa.find("{\n  yield\n} else {\n  store x, n, none\n  yield\n}"), std::string::npos)
        << c.ssa;
    EXPECT_EQ(count(c.ssa, "store x, n"), 1u) << c.ssa;
    EXPECT_EQ(c.ssa.find("store x, 5"), std::string::npos) << c.ssa;
}

TEST(ControlFlowSsa, ReturnsInNestedIfsContinueThroughCompileTimeIfs) {
    // the rest after the inner if (inside a compile-time if) and then the
    // rest of the kernel follow each path that does not return
    Compiled c = compile_body("cf_return_nested", "x, n", "*i32, i32",
                              "    if n > 0:\n"
                              "        if 1:\n"
                              "            if n > 5:\n"
                              "                return\n"
                              "            tl.store(x, 1)\n"
                              "        tl.store(x + 1, 3)\n"
                              "    else:\n"
                              "        tl.store(x, 4)\n"
                              "    tl.store(x, 2)\n");
    ASSERT_TRUE(c.ok) << c.diagnostics;
    EXPECT_EQ(count(c.ssa, "store x, 1, none\n"), 1u) << c.ssa;
    EXPECT_EQ(count(c.ssa, ", 3, none\n"), 1u) << c.ssa;
    EXPECT_EQ(count(c.ssa, "store x, 4, none\n"), 1u) << c.ssa;
    // store x, 2 after both paths that do not return
    EXPECT_EQ(count(c.ssa, "store x, 2, none\n"), 2u) << c.ssa;
    EXPECT_LT(c.ssa.find("store x, 1, none\n"), c.ssa.find("store x, 2, none\n")) << c.ssa;
}

TEST(ControlFlowSsa, ReturnInAnUnrolledLoopContinuesWithTheLaterIterations) {
    Compiled c = compile_body("cf_return_unrolled", "x, n", "*i32, i32",
                              "    for i in tl.static_range(3):\n"
                              "        if n > i:\n"
                              "            return\n"
                              "        tl.store(x + i, i)\n"
                              "    tl.store(x, 9)\n");
    ASSERT_TRUE(c.ok) << c.diagnostics;
    // three nested ifs; the last one's else stores element 2, then 9
    EXPECT_EQ(count(c.ssa, "if %"), 3u) << c.ssa;
    EXPECT_EQ(count(c.ssa, "store x, 9, none\n"), 1u) << c.ssa;
    EXPECT_LT(c.ssa.find("cmp_gt n, 2"), c.ssa.find("store x, 9, none\n")) << c.ssa;
    EXPECT_EQ(count(c.ssa, ", 2, none\n"), 1u) << c.ssa;
}

TEST(ControlFlowSsa, RangeHintsAndSteps) {
    Compiled c =
        compile_body("cf_range", "x, n, s", "*i32, i32, i32",
                     "    acc = 0\n"
                     "    for i in tl.range(0, n, s, num_stages=3, loop_unroll_factor=4):\n"
                     "        acc += i\n"
                     "    for j in range(n, 0, -2):\n"
                     "        acc += j\n"
                     "    tl.store(x, acc)\n");
    ASSERT_TRUE(c.ok) << c.diagnostics;
    EXPECT_NE(c.ssa.find("in range(0, n, s) {num_stages=3, loop_unroll_factor=4}"),
              std::string::npos)
        << c.ssa;
    EXPECT_NE(c.ssa.find("in range(0, n, 2)"), std::string::npos) << c.ssa;
    EXPECT_NE(c.cuda.find("#pragma unroll 4"), std::string::npos) << c.cuda;
}

// ---- Diagnostics -----------------------------------------------------------------

using Case = DiagnosticCase;

const std::vector<Case> &cases() {
    static const std::vector<Case> all = {
        {"IfOnBlock", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n    if o > 0:\n        tl.store(x, 1.0)\n",
         "k.py:8:8: error: the condition of a runtime 'if' must be a scalar, not vector<8 x bool> (the truth value "
         "of a block is ambiguous: reduce it, or use tl.where to choose per element)\n"
         "        if o > 0:\n"
         "           ^\n"},
        {"WhileCondBlock", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n    while o < n:\n        o += 1\n",
         "k.py:8:11: error: the condition of a runtime 'while' must be a scalar, not vector<8 x bool> (the truth "
         "value of a block is ambiguous: reduce it, or use tl.where to choose per element)\n"
         "        while o < n:\n"
         "              ^\n"},
        {"WhileTrue", "x, n", "*fp32, i32", "    while 1:\n        pass\n",
         "k.py:7:11: error: this while loop never ends: its condition is a compile-time true value (and 'break' is "
         "not supported)\n"
         "        while 1:\n"
         "              ^\n"},
        {"WhileElse", "x, n", "*fp32, i32",
         "    while n > 0:\n        n -= 1\n    else:\n        pass\n",
         "k.py:9:5: error: while/else is not supported (Triton rejects it: 'break' does not exist in kernels)\n"
         "        else:\n"
         "        ^\n"},
        {"IfKeepsType", "x, n", "*fp32, i32",
         "    y = 0\n    if n > 0:\n        y = 1.5\n    tl.store(x, y)\n",
         "k.py:9:9: error: 'y' is i32 before the runtime if at line 8 but the then branch assigns f32 (a name "
         "keeps its type across a runtime branch, as in Triton)\n"
         "            y = 1.5\n"
         "            ^\n"},
        {"IfOneBranchName", "x, n", "*fp32, i32",
         "    if n > 0:\n        z = 1.0\n    tl.store(x, z)\n",
         "k.py:9:17: error: undefined name 'z' (it is assigned at line 8 in only one branch of the runtime if at "
         "line 7, so it does not exist after the if: assign it before the if, or in both branches)\n"
         "        tl.store(x, z)\n"
         "                    ^\n"},
        {"IfBranchTypes", "x, n", "*fp32, i32",
         "    if n > 0:\n        z = 1\n    else:\n        z = 1.5\n    tl.store(x, z)\n",
         "k.py:10:9: error: 'z' is i32 in the then branch of the runtime if at line 7 but f32 in the else branch "
         "(both branches must give it one type)\n"
         "            z = 1.5\n"
         "            ^\n"},
        {"IfPointerParams", "x, y, n", "*fp32, *fp32, i32",
         "    p = x + tl.arange(0, 4)\n    if n > 0:\n        p = y + tl.arange(0, 4)\n    tl.store(p, 1.0)\n",
         "k.py:8:5: error: the runtime if at line 8 assigns 'p' blocks of pointers into different parameters "
         "('y' and 'x'): choose the scalar pointer in the branch and add the offsets after it\n"
         "        if n > 0:\n"
         "        ^\n"},
        {"IfCompileTimeValue", "x, n", "*fp32, i32",
         "    d = tl.float32\n    if n > 0:\n        d = tl.int32\n    tl.store(x, n.to(d))\n",
         "k.py:9:9: error: 'd' holds a dtype before the runtime if at line 8 and cannot be reassigned in a branch "
         "(only numbers, blocks and block pointers can)\n"
         "            d = tl.int32\n"
         "            ^\n"},
        {"WhileCarriedType", "x, n", "*fp32, i32",
         "    i = 0\n    while i < n:\n        i = i + 0.5\n    tl.store(x, i)\n",
         "k.py:9:9: error: the loop-carried variable 'i' changes type across an iteration: i32 before the loop, "
         "f32 at the end of the body (a carried value keeps one type; give it its final type before the loop)\n"
         "            i = i + 0.5\n"
         "            ^\n"},
        {"TlRangeStages", "x, n", "*fp32, i32",
         "    for i in tl.range(0, n, num_stages=n):\n        tl.store(x, 1.0)\n",
         "k.py:7:29: error: tl.range's num_stages must be a compile-time integer from 0 to 1024 (got a runtime "
         "value)\n"
         "        for i in tl.range(0, n, num_stages=n):\n"
         "                                ^\n"},
        {"RuntimeStepFloat", "x, n, s", "*fp32, i32, fp32",
         "    for i in range(0, n, s):\n        tl.store(x, 1.0)\n",
         "k.py:7:26: error: the step of a runtime loop must be an i32 or i64 scalar (got f32)\n"
         "        for i in range(0, n, s):\n"
         "                             ^\n"},
        {"IfExpTypes", "x, n", "*fp32, i32", "    v = 1 if n > 0 else 1.5\n    tl.store(x, v)\n",
         "k.py:7:9: error: a conditional expression with a runtime condition has inconsistent types i32 and f32 "
         "(as in Triton, both must have one type)\n"
         "        v = 1 if n > 0 else 1.5\n"
         "            ^\n"},
        {"ReturnInWhile", "x, n", "*fp32, i32",
         "    while n > 0:\n        if n == 5:\n            return\n        n -= 1\n",
         "k.py:8:9: error: cannot have 'return' statements inside 'while' or 'for' statements (runtime loops), "
         "as in Triton (a 'return' may be in a runtime if outside loops, or at the end of the function)\n"
         "            if n == 5:\n"
         "            ^\n"},
        {"ReturnInFor", "x, n", "*fp32, i32", "    for i in range(n):\n        return\n",
         "k.py:8:9: error: cannot have 'return' statements inside 'while' or 'for' statements (runtime loops), "
         "as in Triton (a 'return' may be in a runtime if outside loops, or at the end of the function)\n"
         "            return\n"
         "            ^\n"},
        {"ReturnInIfInFor", "x, n", "*fp32, i32",
         "    if n > 2:\n        for i in range(n):\n            if i > 3:\n                return\n",
         "k.py:9:13: error: cannot have 'return' statements inside 'while' or 'for' statements (runtime loops), "
         "as in Triton (a 'return' may be in a runtime if outside loops, or at the end of the function)\n"
         "                if i > 3:\n"
         "                ^\n"},
        {"BreakInWhile", "x, n", "*fp32, i32", "    while n > 0:\n        break\n",
         "k.py:8:9: error: 'break' is not supported (loops always run to the end of their range)\n"
         "            break\n"
         "            ^\n"},
    };
    return all;
}

// The diagnostic output with the scratch directory taken out of the paths.
std::string strip_dir(const std::string &path, const CompileArgs &args) {
    Compiled r = compile(args);
    EXPECT_FALSE(r.ok);
    std::string dir = path.substr(0, path.size() - 4);
    std::string got = r.diagnostics;
    for (size_t at; (at = got.find(dir)) != std::string::npos;) got.erase(at, dir.size());
    return got;
}

class CfDiagnostic : public ::testing::TestWithParam<size_t> {};

TEST_P(CfDiagnostic, MatchesExpectedText) {
    const Case &c = cases()[GetParam()];
    std::string text = kernel_text(c.params, c.body);
    std::string path = write_kernel(std::string("diag_cf_") + c.name, "k.py", text);
    CompileArgs a;
    a.path = path;
    a.signature = c.signature;
    std::string got = strip_dir(path, a);
    EXPECT_EQ(got, c.expected) << "kernel:\n" << text;
}

INSTANTIATE_TEST_SUITE_P(Rejected, CfDiagnostic, ::testing::Range<size_t>(0, cases().size()),
                         [](const ::testing::TestParamInfo<size_t> &info) {
                             return std::string(cases()[info.param].name);
                         });

}  // namespace
