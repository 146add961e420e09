// The passes (fold, CSE, DCE, LICM) on small hand-built functions, checked
// through the printed SSA before and after; and the pipelines of -O1 and
// -O2 on compiled kernels.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "unit_support.h"

namespace {

using namespace mt_unit;

using PassFn = void (*)(Arena *, Function *, PassStats *);

// Runs `pass`, checks the result still verifies, returns the new text.
std::string run(Ssa &s, PassFn pass, PassStats *st = nullptr) {
    PassStats local{};
    pass(s.a, s.f, st ? st : &local);
    std::string err = s.verify();
    EXPECT_EQ(err, "") << "the pass broke the SSA:\n" << s.print();
    return s.print();
}

Ssa *params() { return new Ssa({{"x", ptr_f32()}, {"n", i32()}, {"s", f32()}}); }

// ---- Constant folding -------------------------------------------------------

TEST(Fold, ConstantOpsBecomeConstants) {
    std::unique_ptr<Ssa> s(params());
    Operand a = s->typed(OP_ADD, {ci(2), ci(3)});                // %0 = 5
    Operand b = s->typed(OP_MUL, {a, ci(4)});                    // %1 = 20 (after %0 folds)
    Operand c = s->typed(OP_DIV, {ci(1), ci(4)});                // %2 = 0.25
    Operand d = s->typed(OP_SUB, {ci(-2147483647 - 1), ci(1)});  // %3 wraps to 2147483647
    Operand e = s->typed(OP_NEG, {cf(1.5)});                     // %4 = -1.5
    Operand m = s->typed(OP_CMP_LT, {b, ci(21)});                // %5 = True
    Operand w = s->typed(OP_SELECT, {m, c, e});                  // %6 = 0.25
    Operand mx = s->typed(OP_MAXIMUM, {cf(NAN), cf(1.0)});       // %7 = nan
    Operand an = s->typed(OP_AND, {m, cb(false)});               // %8 = False
    Operand pick = s->typed(OP_SELECT, {an, cf(1.0), ci(2)});    // %9 = 2.0
    s->store(param(0), w);
    s->store(param(0), d);
    s->store(param(0), mx);
    s->store(param(0), pick);
    EXPECT_EQ(run(*s, pass_fold),
              "store x, 0.25, none\n"
              "store x, 2147483647, none\n"
              "store x, nan, none\n"
              "store x, 2.0, none\n");
}

TEST(Fold, F32ArithmeticIsSinglePrecision) {
    std::unique_ptr<Ssa> s(params());
    Operand a = s->typed(OP_ADD, {cf(0.1), cf(0.2)});
    s->store(param(0), a);
    // 0.1f + 0.2f in float, printed as the double it widens to
    char want[40];
    py_float_repr(static_cast<double>(0.1f + 0.2f), want);
    EXPECT_EQ(run(*s, pass_fold), std::string("store x, ") + want + ", none\n");
}

TEST(Fold, AddZeroOnI32) {
    std::unique_ptr<Ssa> s(params());
    Operand p = s->typed(OP_PROGRAM_ID, {}, axis_attr(0));  // %0
    Operand a = s->typed(OP_ADD, {p, ci(0)});               // %1 -> %0
    Operand b = s->typed(OP_ADD, {ci(0), a});               // %2 -> %0
    Operand c = s->typed(OP_ADD, {b, param(1)});            // %3
    s->store(param(0), c);
    EXPECT_EQ(s->print(),
              "%0 = program_id {axis=0} : i32\n"
              "%1 = add %0, 0 : i32\n"
              "%2 = add 0, %1 : i32\n"
              "%3 = add %2, n : i32\n"
              "store x, %3, none\n");
    EXPECT_EQ(run(*s, pass_fold),
              "%0 = program_id {axis=0} : i32\n"
              "%3 = add %0, n : i32\n"
              "store x, %3, none\n");
}

TEST(Fold, SubZeroOnI32) {
    std::unique_ptr<Ssa> s(params());
    Operand p = s->typed(OP_PROGRAM_ID, {}, axis_attr(0));
    Operand a = s->typed(OP_SUB, {p, ci(0)});
    Operand b = s->typed(OP_SUB, {ci(0), p});  // 0 - x is not x
    s->store(param(0), a);
    s->store(param(0), b);
    EXPECT_EQ(run(*s, pass_fold),
              "%0 = program_id {axis=0} : i32\n"
              "%2 = sub 0, %0 : i32\n"
              "store x, %0, none\n"
              "store x, %2, none\n");
}

TEST(Fold, AddAndSubZeroKeptOnF32) {
    // -0.0 + 0 is +0.0: the seed simplifies x + 0 and x - 0 on integers only
    std::unique_ptr<Ssa> s(params());
    Operand a = s->typed(OP_ADD, {param(2), ci(0)});
    Operand b = s->typed(OP_ADD, {param(2), cf(0.0)});
    Operand c = s->typed(OP_SUB, {param(2), ci(0)});
    Operand d = s->typed(OP_SUB, {param(2), cf(0.0)});
    Operand e = s->typed(OP_ADD, {cf(0.0), param(2)});
    for (Operand o : {a, b, c, d, e}) s->store(param(0), o);
    std::string before = s->print();
    EXPECT_EQ(run(*s, pass_fold), before);
}

TEST(Fold, MulByOne) {
    std::unique_ptr<Ssa> s(params());
    Operand p = s->typed(OP_PROGRAM_ID, {}, axis_attr(0));  // %0
    Operand a = s->typed(OP_MUL, {p, ci(1)});               // %1 -> %0
    Operand b = s->typed(OP_MUL, {cf(1.0), param(2)});      // %2 -> s
    Operand c = s->typed(OP_MUL, {param(2), ci(1)});        // %3 -> s (f32 * 1 is exact)
    Operand d = s->typed(OP_MUL, {p, cf(1.0)});             // %4 stays: i32 * 1.0 is an f32
    for (Operand o : {a, b, c, d}) s->store(param(0), o);
    EXPECT_EQ(run(*s, pass_fold),
              "%0 = program_id {axis=0} : i32\n"
              "%4 = mul %0, 1.0 : f32\n"
              "store x, %0, none\n"
              "store x, s, none\n"
              "store x, s, none\n"
              "store x, %4, none\n");
}

TEST(Fold, DivByOne) {
    std::unique_ptr<Ssa> s(params());
    Operand p = s->typed(OP_PROGRAM_ID, {}, axis_attr(0));  // %0
    Operand a = s->typed(OP_DIV, {param(2), cf(1.0)});      // %1 -> s
    Operand b = s->typed(OP_DIV, {param(2), ci(1)});        // %2 -> s
    Operand c = s->typed(OP_DIV, {p, ci(1)});               // %3 stays: i32 / 1 is an f32
    for (Operand o : {a, b, c}) s->store(param(0), o);
    EXPECT_EQ(run(*s, pass_fold),
              "%0 = program_id {axis=0} : i32\n"
              "%3 = div %0, 1 : f32\n"
              "store x, s, none\n"
              "store x, s, none\n"
              "store x, %3, none\n");
}

TEST(Fold, SelectWithConstantCondition) {
    std::unique_ptr<Ssa> s(params());
    Operand o = s->typed(OP_ARANGE, {}, range_attr(0, 8));     // %0
    Operand f = s->typed(OP_MUL, {o, cf(2.0)});                // %1 f32 block
    Operand t = s->typed(OP_SELECT, {cb(true), f, cf(0.0)});   // %2 -> %1
    Operand e = s->typed(OP_SELECT, {cb(false), cf(0.0), f});  // %3 -> %1
    Operand k = s->typed(OP_SELECT, {cb(true), cf(0.0), f});   // %4 stays: 0.0 is not a block
    for (Operand v : {t, e, k}) s->store(param(0), v);
    EXPECT_EQ(run(*s, pass_fold),
              "%0 = arange {start=0, end=8} : vector<8 x i32>\n"
              "%1 = mul %0, 2.0 : vector<8 x f32>\n"
              "%4 = select True, 0.0, %1 : vector<8 x f32>\n"
              "store x, %1, none\n"
              "store x, %1, none\n"
              "store x, %4, none\n");
}

TEST(Fold, SelectWithIdenticalArms) {
    std::unique_ptr<Ssa> s(params());
    Operand o = s->typed(OP_ARANGE, {}, range_attr(0, 8));  // %0
    Operand m = s->typed(OP_CMP_LT, {o, param(1)});         // %1
    Operand f = s->typed(OP_MUL, {o, param(2)});            // %2
    Operand a = s->typed(OP_SELECT, {m, f, f});             // %3 -> %2
    Operand b =
        s->typed(OP_SELECT, {m, param(2), param(2)});  // %4 stays: s is a scalar, %4 a block
    s->store(param(0), a);
    s->store(param(0), b);
    EXPECT_EQ(run(*s, pass_fold),
              "%0 = arange {start=0, end=8} : vector<8 x i32>\n"
              "%1 = cmp_lt %0, n : vector<8 x bool>\n"
              "%2 = mul %0, s : vector<8 x f32>\n"
              "%4 = select %1, s, s : vector<8 x f32>\n"
              "store x, %2, none\n"
              "store x, %4, none\n");
}

TEST(Fold, InsideLoopBodies) {
    std::unique_ptr<Ssa> s(params());
    auto l = s->begin_loop(ci(0), param(1), ci(1), {ci(0)});  // %0, %1
    Operand a = s->typed(OP_ADD, {l.index, ci(0)});           // %2 -> %0
    Operand b = s->typed(OP_ADD, {l.args[0], a});             // %3
    Operand c = s->typed(OP_MUL, {ci(2), ci(3)});             // %4 -> 6
    Operand d = s->typed(OP_ADD, {b, c});                     // %5
    auto r = s->end_loop(l, {d});                             // %6
    s->store(param(0), r[0]);
    EXPECT_EQ(run(*s, pass_fold),
              "%6 = for %0 in range(0, n, 1) iter_args(%1 = 0) : i32 {\n"
              "  %3 = add %1, %0 : i32\n"
              "  %5 = add %3, 6 : i32\n"
              "  yield %5\n"
              "}\n"
              "store x, %6, none\n");
}

// ---- CSE ----------------------------------------------------------------------

TEST(Cse, MergesEqualPureOps) {
    std::unique_ptr<Ssa> s(params());
    Operand p = s->typed(OP_PROGRAM_ID, {}, axis_attr(0));  // %0
    Operand q = s->typed(OP_PROGRAM_ID, {}, axis_attr(0));  // %1 -> %0
    Operand r = s->typed(OP_PROGRAM_ID, {}, axis_attr(1));  // %2: another axis
    Operand a = s->typed(OP_MUL, {p, param(1)});            // %3
    Operand b = s->typed(OP_MUL, {q, param(1)});            // %4 -> %3 (after %1 -> %0)
    Operand c = s->typed(OP_ADD, {a, r});                   // %5
    Operand d = s->typed(OP_ADD, {b, r});                   // %6 -> %5
    s->store(param(0), c);
    s->store(param(0), d);
    PassStats st{};
    EXPECT_EQ(run(*s, pass_cse, &st),
              "%0 = program_id {axis=0} : i32\n"
              "%2 = program_id {axis=1} : i32\n"
              "%3 = mul %0, n : i32\n"
              "%5 = add %3, %2 : i32\n"
              "store x, %5, none\n"
              "store x, %5, none\n");
    EXPECT_EQ(st.merged, 3);
}

TEST(Cse, NeverMergesLoads) {
    std::unique_ptr<Ssa> s(params());
    Operand a = s->typed(OP_LOAD, {param(0), none(), none()});
    s->store(param(0), cf(1.0));
    Operand b = s->typed(OP_LOAD, {param(0), none(), none()});
    Operand c = s->typed(OP_LOAD, {param(0), none(), none()});
    Operand sum = s->typed(OP_ADD, {a, b});
    Operand sum2 = s->typed(OP_ADD, {sum, c});
    s->store(param(0), sum2);
    std::string before = s->print();
    EXPECT_EQ(run(*s, pass_cse), before);
}

TEST(Cse, KeepsStoresAndDifferentTypes) {
    std::unique_ptr<Ssa> s(params());
    Operand z1 = s->typed(OP_ZEROS, {}, shape_attr({8}, DT_F32));
    Operand z2 = s->typed(OP_ZEROS, {}, shape_attr({8}, DT_I32));  // another dtype
    Operand z3 = s->typed(OP_ZEROS, {}, shape_attr({4}, DT_F32));  // another shape
    Operand o = s->typed(OP_ARANGE, {}, range_attr(0, 8));
    Operand p = s->typed(OP_ADDPTR, {param(0), o});
    s->store(p, z1);
    s->store(p, z1);
    s->store(p, z2);
    Operand o4 = s->typed(OP_ARANGE, {}, range_attr(0, 4));
    Operand p4 = s->typed(OP_ADDPTR, {param(0), o4});
    s->store(p4, z3);
    std::string before = s->print();
    EXPECT_EQ(run(*s, pass_cse), before);
}

TEST(Cse, LoopBodyReusesOuterValue) {
    std::unique_ptr<Ssa> s(params());
    Operand outer = s->typed(OP_MUL, {param(1), ci(4)});  // %0
    auto l = s->begin_loop(ci(0), param(1), ci(1));       // %1
    Operand inner = s->typed(OP_MUL, {param(1), ci(4)});  // %2 -> %0
    Operand t = s->typed(OP_ADD, {inner, l.index});       // %3
    Operand ptr = s->typed(OP_ADDPTR, {param(0), t});     // %4
    s->store(ptr, cf(1.0));
    s->end_loop(l);
    s->store(param(0), outer);
    EXPECT_EQ(run(*s, pass_cse),
              "%0 = mul n, 4 : i32\n"
              "for %1 in range(0, n, 1) {\n"
              "  %3 = add %0, %1 : i32\n"
              "  %4 = addptr x, %3 : ptr<f32>\n"
              "  store %4, 1.0, none\n"
              "  yield\n"
              "}\n"
              "store x, %0, none\n");
}

TEST(Cse, NeverReplacesOuterValueByLoopBodyValue) {
    std::unique_ptr<Ssa> s(params());
    auto l = s->begin_loop(ci(0), param(1), ci(1));        // %0
    Operand inner = s->typed(OP_MUL, {param(1), ci(4)});   // %1 (in the body)
    Operand ptr = s->typed(OP_ADDPTR, {param(0), inner});  // %2
    s->store(ptr, cf(1.0));
    s->end_loop(l);
    Operand outer = s->typed(OP_MUL, {param(1), ci(4)});  // %3: equal, but after the loop
    s->store(param(0), outer);
    // a second loop whose body has the same op: not merged with the first body's
    auto l2 = s->begin_loop(ci(0), param(1), ci(1));       // %4
    Operand inner2 = s->typed(OP_MUL, {param(1), ci(4)});  // %5 -> %3 (outer, defined before)
    s->store(param(0), inner2);
    s->end_loop(l2);
    EXPECT_EQ(run(*s, pass_cse),
              "for %0 in range(0, n, 1) {\n"
              "  %1 = mul n, 4 : i32\n"
              "  %2 = addptr x, %1 : ptr<f32>\n"
              "  store %2, 1.0, none\n"
              "  yield\n"
              "}\n"
              "%3 = mul n, 4 : i32\n"
              "store x, %3, none\n"
              "for %4 in range(0, n, 1) {\n"
              "  store x, %3, none\n"
              "  yield\n"
              "}\n");
}

TEST(Cse, SiblingLoopBodiesDoNotShare) {
    std::unique_ptr<Ssa> s(params());
    for (int k = 0; k < 2; k++) {
        auto l = s->begin_loop(ci(0), param(1), ci(1));
        Operand v = s->typed(OP_MUL, {param(1), ci(4)});
        s->store(param(0), v);
        s->end_loop(l);
    }
    std::string before = s->print();
    EXPECT_EQ(run(*s, pass_cse), before);
}

// ---- DCE ----------------------------------------------------------------------

TEST(Dce, RemovesUnusedPureOpsAndLoadsKeepsStores) {
    std::unique_ptr<Ssa> s(params());
    Operand p = s->typed(OP_PROGRAM_ID, {}, axis_attr(0));  // %0 used by the store
    Operand dead = s->typed(OP_MUL, {p, ci(3)});            // %1 dead
    s->typed(OP_ADD, {dead, ci(1)});                        // %2 dead, uses %1
    s->typed(OP_LOAD, {param(0), none(), none()});          // %3 dead load
    Operand ptr = s->typed(OP_ADDPTR, {param(0), p});       // %4
    s->store(ptr, cf(1.0));
    PassStats st{};
    EXPECT_EQ(run(*s, pass_dce, &st),
              "%0 = program_id {axis=0} : i32\n"
              "%4 = addptr x, %0 : ptr<f32>\n"
              "store %4, 1.0, none\n");
    EXPECT_EQ(st.removed, 3);
}

TEST(Dce, RemovesLoopWithoutStoresWhoseResultsAreUnused) {
    std::unique_ptr<Ssa> s(params());
    auto l = s->begin_loop(ci(0), param(1), ci(1), {cf(0.0)});
    Operand v = s->typed(OP_LOAD, {param(0), none(), none()});
    Operand t = s->typed(OP_ADD, {l.args[0], v});
    s->end_loop(l, {t});
    s->store(param(0), cf(2.0));
    EXPECT_EQ(run(*s, pass_dce), "store x, 2.0, none\n");
}

TEST(Dce, KeepsLoopsThatStoreOrWhoseResultsAreUsed) {
    std::unique_ptr<Ssa> s(params());
    auto l = s->begin_loop(ci(0), param(1), ci(1));     // %0: stores
    Operand dead = s->typed(OP_MUL, {l.index, ci(2)});  // %1 dead inside the body
    (void)dead;
    Operand ptr = s->typed(OP_ADDPTR, {param(0), l.index});  // %2
    s->store(ptr, cf(1.0));
    s->end_loop(l);
    auto l2 = s->begin_loop(ci(0), param(1), ci(1), {ci(0)});  // %3, %4
    Operand t = s->typed(OP_ADD, {l2.args[0], l2.index});      // %5
    auto r = s->end_loop(l2, {t});                             // %6
    s->store(param(0), r[0]);
    // a nested loop that stores keeps its enclosing loop alive
    auto outer = s->begin_loop(ci(0), param(1), ci(1));  // %7
    auto inner = s->begin_loop(ci(0), param(1), ci(1));  // %8
    s->store(param(0), cf(3.0));
    s->end_loop(inner);
    s->end_loop(outer);
    EXPECT_EQ(run(*s, pass_dce),
              "for %0 in range(0, n, 1) {\n"
              "  %2 = addptr x, %0 : ptr<f32>\n"
              "  store %2, 1.0, none\n"
              "  yield\n"
              "}\n"
              "%6 = for %3 in range(0, n, 1) iter_args(%4 = 0) : i32 {\n"
              "  %5 = add %4, %3 : i32\n"
              "  yield %5\n"
              "}\n"
              "store x, %6, none\n"
              "for %7 in range(0, n, 1) {\n"
              "  for %8 in range(0, n, 1) {\n"
              "    store x, 3.0, none\n"
              "    yield\n"
              "  }\n"
              "  yield\n"
              "}\n");
}

TEST(Dce, RemovesValuesOnlyAnUnusedLoopRead) {
    std::unique_ptr<Ssa> s(params());
    Operand init = s->typed(OP_MUL, {param(2), cf(2.0)});    // %0: only the dead loop reads it
    auto l = s->begin_loop(ci(0), param(1), ci(1), {init});  // %1, %2
    Operand t = s->typed(OP_ADD, {l.args[0], cf(1.0)});      // %3
    s->end_loop(l, {t});                                     // %4 unused
    s->store(param(0), cf(0.0));
    EXPECT_EQ(run(*s, pass_dce), "store x, 0.0, none\n");
}

// ---- LICM ---------------------------------------------------------------------

TEST(Licm, HoistsInvariantPureOpsNotLoads) {
    std::unique_ptr<Ssa> s(params());
    Operand o = s->typed(OP_ARANGE, {}, range_attr(0, 8));      // %0
    auto l = s->begin_loop(ci(0), param(1), ci(1), {cf(0.0)});  // %1, %2
    Operand inv = s->typed(OP_MUL, {o, param(1)});              // %3 invariant
    Operand ptr = s->typed(OP_ADDPTR, {param(0), inv});         // %4 invariant (chain)
    Operand ld = s->typed(OP_LOAD, {ptr, none(), none()});      // %5 a load: stays
    Operand sm = s->typed(OP_SUM, {ld});                        // %6 uses the load: stays
    Operand var = s->typed(OP_ADD, {l.index, param(1)});        // %7 uses the index: stays
    Operand fv = s->typed(OP_MUL, {var, sm});                   // %8
    Operand acc = s->typed(OP_ADD, {l.args[0], fv});            // %9
    auto r = s->end_loop(l, {acc});                             // %10
    s->store(param(0), r[0]);
    PassStats st{};
    EXPECT_EQ(run(*s, pass_licm, &st),
              "%0 = arange {start=0, end=8} : vector<8 x i32>\n"
              "%3 = mul %0, n : vector<8 x i32>\n"
              "%4 = addptr x, %3 : vector<8 x ptr<f32>>\n"
              "%10 = for %1 in range(0, n, 1) iter_args(%2 = 0.0) : f32 {\n"
              "  %5 = load %4, none, none : vector<8 x f32>\n"
              "  %6 = sum %5 : f32\n"
              "  %7 = add %1, n : i32\n"
              "  %8 = mul %7, %6 : f32\n"
              "  %9 = add %2, %8 : f32\n"
              "  yield %9\n"
              "}\n"
              "store x, %10, none\n");
    EXPECT_EQ(st.hoisted, 2);
}

TEST(Licm, HoistsOutOfNestedLoops) {
    std::unique_ptr<Ssa> s(params());
    auto outer = s->begin_loop(ci(0), param(1), ci(1));    // %0
    auto inner = s->begin_loop(ci(0), param(1), ci(1));    // %1
    Operand both = s->typed(OP_MUL, {param(1), ci(3)});    // %2: invariant in both loops
    Operand once = s->typed(OP_ADD, {outer.index, both});  // %3: invariant in the inner loop only
    Operand idx = s->typed(OP_ADD, {once, inner.index});   // %4
    Operand ptr = s->typed(OP_ADDPTR, {param(0), idx});    // %5
    s->store(ptr, cf(1.0));
    s->end_loop(inner);
    s->end_loop(outer);
    EXPECT_EQ(run(*s, pass_licm),
              "%2 = mul n, 3 : i32\n"
              "for %0 in range(0, n, 1) {\n"
              "  %3 = add %0, %2 : i32\n"
              "  for %1 in range(0, n, 1) {\n"
              "    %4 = add %3, %1 : i32\n"
              "    %5 = addptr x, %4 : ptr<f32>\n"
              "    store %5, 1.0, none\n"
              "    yield\n"
              "  }\n"
              "  yield\n"
              "}\n");
}

// ---- The pipelines on compiled kernels ------------------------------------

CompileArgs matmul(int opt) {
    CompileArgs a;
    a.path = conformance_kernel("matmul.py");
    a.kernel = "matmul_runtime_k_kernel";
    a.signature = "*fp32, *fp32, *fp32, i32, i32, i32";
    a.defines = {{"BM", "16"}, {"BN", "16"}};
    a.opt_level = opt;
    return a;
}

TEST(Licm, HoistsOffsMTimesKOutOfTheRuntimeKMatmul) {
    Compiled c = compile(matmul(2));
    ASSERT_TRUE(c.ok) << c.diagnostics;
    size_t mul = c.ssa.find("%13 = mul %4, K : block<16x1 x i32>\n");
    size_t loop = c.ssa.find("= for %11 in range(0, K, 1)");
    ASSERT_NE(mul, std::string::npos) << c.ssa;
    ASSERT_NE(loop, std::string::npos) << c.ssa;
    EXPECT_LT(mul, loop) << c.ssa;
    // the loads stay in the body
    size_t body = c.ssa.find("{\n", loop);
    EXPECT_NE(c.ssa.find("  %17 = load ", body), std::string::npos) << c.ssa;
    EXPECT_NE(c.ssa.find("  %22 = load ", body), std::string::npos) << c.ssa;
    EXPECT_EQ(c.ssa.find("\n%17 = load "), std::string::npos) << c.ssa;

    // at -O1 it stays in the loop
    Compiled o1 = compile(matmul(1));
    ASSERT_TRUE(o1.ok) << o1.diagnostics;
    EXPECT_NE(o1.ssa.find("  %13 = mul %4, K : block<16x1 x i32>\n"), std::string::npos) << o1.ssa;
}

// Invariant lanes (lanes.c): `w` carried unchanged by a for and a while,
// and yielded unchanged by both branches of an if, is the value from
// before them: no lane carries it; at -O1 the lanes stay.
TEST(Lanes, UnchangedLanesAndEqualIfResultsGo) {
    CompileArgs a;
    a.path = write_kernel("lanes", "k.py",
                          kernel_text("x, n",
                                      "    o = tl.arange(0, 16)\n"
                                      "    v = tl.load(x + o)\n"
                                      "    w = v * 3.0\n"
                                      "    for i in range(n):\n"
                                      "        v = v + w\n"
                                      "        w = w\n"
                                      "    j = 0\n"
                                      "    while j < n:\n"
                                      "        j += 1\n"
                                      "        w = w\n"
                                      "    if n > 2:\n"
                                      "        v = v * 2.0\n"
                                      "        w = w\n"
                                      "    else:\n"
                                      "        v = v - 1.0\n"
                                      "    tl.store(x + o, v + w + j)\n"));
    a.signature = "*fp32, i32";
    a.opt_level = 2;
    Compiled c = compile(a);
    ASSERT_TRUE(c.ok) << c.diagnostics;
    EXPECT_EQ(c.ssa,
              "%0 = arange {start=0, end=16} : vector<16 x i32>\n"
              "%1 = addptr x, %0 : vector<16 x ptr<f32>>\n"
              "%2 = load %1, none, none : vector<16 x f32>\n"
              "%3 = mul %2, 3.0 : vector<16 x f32>\n"
              "%8 = for %4 in range(0, n, 1) iter_args(%5 = %2) : vector<16 x f32> {\n"
              "  %7 = add %5, %3 : vector<16 x f32>\n"
              "  yield %7\n"
              "}\n"
              "%14 = while iter_args(%10 = 0) : i32 {\n"
              "  %12 = cmp_lt %10, n : bool\n"
              "  condition %12\n"
              "} do {\n"
              "  %13 = add %10, 1 : i32\n"
              "  yield %13\n"
              "}\n"
              "%16 = cmp_gt n, 2 : bool\n"
              "%19 = if %16 : vector<16 x f32> {\n"
              "  %17 = mul %8, 2.0 : vector<16 x f32>\n"
              "  yield %17\n"
              "} else {\n"
              "  %18 = sub %8, 1.0 : vector<16 x f32>\n"
              "  yield %18\n"
              "}\n"
              "%20 = add %19, %3 : vector<16 x f32>\n"
              "%21 = add %20, %14 : vector<16 x f32>\n"
              "store %1, %21, none\n");
    a.opt_level = 1;
    Compiled o1 = compile(a);
    ASSERT_TRUE(o1.ok) << o1.diagnostics;
    EXPECT_NE(o1.ssa.find("iter_args(%5 = %2, %6 = %3)"), std::string::npos) << o1.ssa;
}

TEST(Pipeline, O1LeavesKernelsWithRuntimeLoopsUntouched) {
    for (const char *kernel : {"matmul_runtime_k_kernel", "seed_matmul_runtime_k_kernel"}) {
        CompileArgs a = matmul(0);
        a.kernel = kernel;
        Compiled o0 = compile(a);
        a.opt_level = 1;
        Compiled o1 = compile(a);
        a.opt_level = 2;
        Compiled o2 = compile(a);
        ASSERT_TRUE(o0.ok && o1.ok && o2.ok) << o0.diagnostics << o1.diagnostics << o2.diagnostics;
        EXPECT_EQ(o1.ssa, o0.ssa) << kernel;
        EXPECT_NE(o2.ssa, o0.ssa) << kernel;
    }
}

// -O1 folds `* 1`, merges the second `x + o` and drops the unused `o * 2`;
// a pointer plus 0 is not one of the seed's simplifications.
TEST(Pipeline, O1RewritesKernelsWithoutLoops) {
    CompileArgs a;
    a.path = write_kernel("pipeline_o1", "k.py",
                          kernel_text("x, n",
                                      "    o = tl.program_id(0) * 4 + tl.arange(0, 4)\n"
                                      "    tl.store(x + o + 0, tl.load(x + o) * 1, mask=o < n)\n"
                                      "    y = o * 2\n"));
    a.signature = "*fp32, i32";
    a.opt_level = 0;
    Compiled o0 = compile(a);
    a.opt_level = 1;
    Compiled o1 = compile(a);
    ASSERT_TRUE(o0.ok && o1.ok) << o0.diagnostics << o1.diagnostics;
    EXPECT_EQ(o1.ssa,
              "%0 = program_id {axis=0} : i32\n"
              "%1 = mul %0, 4 : i32\n"
              "%2 = arange {start=0, end=4} : vector<4 x i32>\n"
              "%3 = add %1, %2 : vector<4 x i32>\n"
              "%4 = addptr x, %3 : vector<4 x ptr<f32>>\n"
              "%5 = load %4, none, none : vector<4 x f32>\n"
              "%8 = addptr %4, 0 : vector<4 x ptr<f32>>\n"
              "%9 = cmp_lt %3, n : vector<4 x bool>\n"
              "store %8, %5, %9\n")
        << "-O0 was:\n"
        << o0.ssa;
    EXPECT_NE(o0.ssa, o1.ssa);
}

}  // namespace
