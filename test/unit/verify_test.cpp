// The SSA verifier (verify.c and the seed's recursive loop rules), on
// hand-built SSA: for every rule, a function that obeys it is accepted and
// one that breaks it is rejected with a message naming the problem.
#include <gtest/gtest.h>

#include <memory>

#include "unit_support.h"

namespace {

using namespace mt_unit;

// x: ptr<f32>, n: i32, s: f32
Ssa *kernel_params() { return new Ssa({{"x", ptr_f32()}, {"n", i32()}, {"s", f32()}}); }

// ---- Definitions before uses ----------------------------------------------

TEST(Verifier, DefinitionBeforeUse) {
    Ssa ok;
    Operand p = ok.typed(OP_PROGRAM_ID, {}, axis_attr(0));
    ok.typed(OP_ADD, {p, ci(1)});
    EXPECT_VALID(ok);

    Ssa bad;
    bad.op(OP_ADD, i32(), {val(1), ci(1)});      // %0 = add %1, 1
    bad.typed(OP_PROGRAM_ID, {}, axis_attr(0));  // %1
    EXPECT_REJECTED(bad, "%0 = add uses %1 before its definition");
}

TEST(Verifier, UseOfUnallocatedValue) {
    Ssa bad;
    bad.op(OP_ADD, i32(), {val(7), ci(1)});
    EXPECT_REJECTED(bad, "uses %7, which does not exist");
}

TEST(Verifier, ValueDefinedOnce) {
    Ssa bad;
    bad.typed(OP_PROGRAM_ID, {}, axis_attr(0));
    Operand again = bad.typed(OP_PROGRAM_ID, {}, axis_attr(1));
    bad.last()->result = 0;  // a second definition of %0
    (void)again;
    EXPECT_REJECTED(bad, "defines %0 a second time");
}

TEST(Verifier, ResultIsAllocated) {
    Ssa bad;
    bad.typed(OP_PROGRAM_ID, {}, axis_attr(0));
    bad.last()->result = 40;
    EXPECT_REJECTED(bad, "defines %40, which was never allocated");
}

TEST(Verifier, ValueTableAgrees) {
    Ssa bad;
    bad.typed(OP_PROGRAM_ID, {}, axis_attr(0));
    bad.f->types[0] = f32();
    EXPECT_REJECTED(bad, "the value table says f32");

    Ssa other;
    other.typed(OP_PROGRAM_ID, {}, axis_attr(0));
    other.f->defs[0] = nullptr;
    EXPECT_REJECTED(other, "the value table names another definition");
}

// ---- Operands: parameters, constants, none ------------------------------

TEST(Verifier, ParameterOperandExists) {
    std::unique_ptr<Ssa> ok(kernel_params());
    ok->typed(OP_ADD, {param(1), ci(1)});
    EXPECT_VALID(*ok);

    std::unique_ptr<Ssa> bad(kernel_params());
    bad->op(OP_ADD, i32(), {param(5), ci(1)});
    EXPECT_REJECTED(*bad, "uses parameter #5, which does not exist");
}

TEST(Verifier, ConstantsAreTypedAndInRange) {
    Ssa ok;
    ok.typed(OP_ADD, {ci(2147483647), ci(-2147483647 - 1)});
    EXPECT_VALID(ok);

    Ssa big;
    ConstVal wide = const_i32(0);
    wide.i = 2147483648LL;  // not an i32 (const_i32 would wrap it)
    big.op(OP_ADD, i32(), {opd_const(wide), ci(1)});
    EXPECT_REJECTED(big, "has an i32 constant out of range");

    Ssa untyped;
    ConstVal c = const_i32(1);
    c.dt = DT_NONE;
    untyped.op(OP_ADD, i32(), {opd_const(c), ci(1)});
    EXPECT_REJECTED(untyped, "has a constant without a type");
}

TEST(Verifier, NoneOnlyAsOptionalOperand) {
    std::unique_ptr<Ssa> ok(kernel_params());
    Operand v = ok->typed(OP_LOAD, {param(0), none(), none()});
    ok->store(param(0), v, none());
    EXPECT_VALID(*ok);

    Ssa bad;
    bad.op(OP_ADD, i32(), {none(), ci(1)});
    EXPECT_REJECTED(bad, "%0 = add: operand 0 cannot be none");

    std::unique_ptr<Ssa> st(kernel_params());
    st->store(param(0), none(), none());
    EXPECT_REJECTED(*st, "store: operand 1 cannot be none");
}

TEST(Verifier, OperandCountsFollowOpcodeTable) {
    Ssa bad;
    bad.op(OP_ADD, i32(), {ci(1)});
    EXPECT_REJECTED(bad, "%0 = add has 1 operands (it takes 2)");
}

TEST(Verifier, StoreDefinesNothingAndOpsDefineValues) {
    std::unique_ptr<Ssa> st(kernel_params());
    st->store(param(0), cf(1.0), none());
    st->last()->result = ssa_new_value(st->a, st->f, f32(), st->last());
    EXPECT_REJECTED(*st, "store must not define a value");

    Ssa add;
    add.typed(OP_ADD, {ci(1), ci(2)});
    add.last()->result = -1;
    EXPECT_REJECTED(add, "add defines no value");
}

// ---- Result and operand types ---------------------------------------------

TEST(Verifier, RecordedTypeEqualsTypeRule) {
    Ssa ok;
    ok.op(OP_ADD, f32(), {ci(1), cf(2.0)});  // promotion: f32
    EXPECT_VALID(ok);

    Ssa bad;
    bad.op(OP_ADD, f32(), {ci(1), ci(2)});
    EXPECT_REJECTED(bad, "%0 = add is typed f32 but its operands give i32");
}

TEST(Verifier, OperandTypes) {
    Ssa ok;
    ok.typed(OP_EXP, {cf(1.0)});
    ok.typed(OP_AND, {cb(true), cb(false)});
    EXPECT_VALID(ok);

    Ssa e;
    e.op(OP_EXP, i32(), {ci(1)});
    EXPECT_REJECTED(e, "exp needs an f32 or f64 operand");
    Ssa b;
    b.op(OP_ADD, i32(), {cb(true), ci(1)});
    EXPECT_VALID(b);  // two Python scalars: bool promotes to the int
    Ssa l;
    l.op(OP_AND, boolean(), {ci(1), cb(true)});
    EXPECT_REJECTED(l, "and is typed bool but its operands give i32");
    Ssa s;
    s.op(OP_SELECT, i32(), {ci(1), ci(2), ci(3)});
    EXPECT_REJECTED(s, "select needs a bool condition (got i32)");
    Ssa r;
    Operand blk8 = r.typed(OP_ZEROS, {}, shape_attr({4, 8}, DT_F32));
    r.op(OP_SUM, f32(), {blk8});
    EXPECT_REJECTED(r, "sum needs a rank-1 block of numbers (got block<4x8 x f32>)");
}

TEST(Verifier, Broadcasting) {
    Ssa ok;
    Operand col = ok.typed(OP_ZEROS, {}, shape_attr({4, 1}, DT_I32));
    Operand row = ok.typed(OP_ZEROS, {}, shape_attr({1, 8}, DT_I32));
    ok.op(OP_ADD, blk(i32(), 4, 8), {col, row});
    EXPECT_VALID(ok);

    Ssa bad;
    Operand a4 = bad.typed(OP_ARANGE, {}, range_attr(0, 4));
    Operand a8 = bad.typed(OP_ARANGE, {}, range_attr(0, 8));
    bad.op(OP_ADD, vec(i32(), 8), {a4, a8});
    EXPECT_REJECTED(bad, "cannot broadcast the operand shapes of add: (4,) and (8,)");
}

TEST(Verifier, PointerRules) {
    std::unique_ptr<Ssa> ok(kernel_params());
    Operand offs = ok->typed(OP_ARANGE, {}, range_attr(0, 8));
    Operand p = ok->typed(OP_ADDPTR, {param(0), offs});
    Operand v = ok->typed(OP_LOAD, {p, none(), none()});
    ok->store(p, v, none());
    EXPECT_VALID(*ok);

    std::unique_ptr<Ssa> fo(kernel_params());
    fo->op(OP_ADDPTR, ptr_f32(), {param(0), cf(1.0)});
    EXPECT_REJECTED(*fo, "a pointer offset must be an integer (got f32)");
    std::unique_ptr<Ssa> pp(kernel_params());
    pp->op(OP_ADDPTR, ptr_f32(), {param(0), param(0)});
    EXPECT_REJECTED(*pp, "a pointer offset must be an integer (got ptr<f32>)");
    std::unique_ptr<Ssa> np(kernel_params());
    np->op(OP_ADDPTR, ptr_f32(), {param(1), ci(1)});
    EXPECT_REJECTED(*np, "addptr needs a pointer (got i32)");
    std::unique_ptr<Ssa> mul(kernel_params());
    mul->op(OP_MUL, ptr_f32(), {param(0), ci(2)});
    EXPECT_REJECTED(*mul, "mul needs numbers (got ptr<f32> and i32)");
    std::unique_ptr<Ssa> ld(kernel_params());
    ld->op(OP_LOAD, i32(), {param(1), none(), none()});
    EXPECT_REJECTED(*ld, "load needs a pointer (got i32)");
    std::unique_ptr<Ssa> st(kernel_params());
    st->store(param(1), ci(1), none());
    EXPECT_REJECTED(*st, "store needs a pointer (got i32)");
}

TEST(Verifier, Masks) {
    std::unique_ptr<Ssa> ok(kernel_params());
    Operand offs = ok->typed(OP_ARANGE, {}, range_attr(0, 8));
    Operand m = ok->typed(OP_CMP_LT, {offs, param(1)});
    Operand p = ok->typed(OP_ADDPTR, {param(0), offs});
    Operand v = ok->typed(OP_LOAD, {p, m, cf(0.0)});
    ok->store(p, v, m);
    EXPECT_VALID(*ok);

    std::unique_ptr<Ssa> lm(kernel_params());
    lm->op(OP_LOAD, f32(), {param(0), ci(1), none()});
    EXPECT_REJECTED(*lm, "a load mask must be bool (got i32)");
    std::unique_ptr<Ssa> sm(kernel_params());
    sm->store(param(0), cf(1.0), cf(1.0));
    EXPECT_REJECTED(*sm, "a store mask must be bool (got f32)");
    std::unique_ptr<Ssa> other(kernel_params());
    other->op(OP_LOAD, f32(), {param(0), none(), cf(0.0)});
    EXPECT_REJECTED(*other, "a load's 'other' needs a mask");
    std::unique_ptr<Ssa> shape(kernel_params());
    Operand o8 = shape->typed(OP_ARANGE, {}, range_attr(0, 8));
    Operand o4 = shape->typed(OP_ARANGE, {}, range_attr(0, 4));
    Operand m4 = shape->typed(OP_CMP_LT, {o4, param(1)});
    Operand p8 = shape->typed(OP_ADDPTR, {param(0), o8});
    shape->op(OP_LOAD, vec(f32(), 8), {p8, m4, none()});
    EXPECT_REJECTED(*shape, "cannot broadcast the operand shapes of load: (8,) and (4,)");
}

TEST(Verifier, LoadOtherAndStoreValueConvertible) {
    std::unique_ptr<Ssa> ok(kernel_params());
    Operand v = ok->typed(OP_LOAD, {param(0), cb(true), ci(0)});  // i32 other converts to f32
    ok->store(param(0), ci(3), none());                           // i32 value converts too
    (void)v;
    EXPECT_VALID(*ok);

    // Triton casts a load's other and a store's value to the pointee
    std::unique_ptr<Ssa> lo(kernel_params());
    lo->op(OP_LOAD, f32(), {param(0), cb(true), cb(false)});
    EXPECT_VALID(*lo);
    std::unique_ptr<Ssa> sv(kernel_params());
    sv->store(param(0), param(0), none());
    EXPECT_REJECTED(*sv, "cannot store ptr<f32> through ptr<f32>");
}

// ---- Op-specific rules ------------------------------------------------------

TEST(Verifier, ProgramIdAxis) {
    Ssa ok;
    ok.op(OP_PROGRAM_ID, i32(), {}, axis_attr(2));
    EXPECT_VALID(ok);
    Ssa bad;
    bad.op(OP_PROGRAM_ID, i32(), {}, axis_attr(3));
    EXPECT_REJECTED(bad, "program_id axis must be 0, 1 or 2 (got 3)");
}

TEST(Verifier, ArangeBounds) {
    Ssa ok;
    ok.op(OP_ARANGE, vec(i32(), 4), {}, range_attr(4, 8));
    EXPECT_VALID(ok);
    Ssa empty;
    empty.op(OP_ARANGE, vec(i32(), 0), {}, range_attr(8, 8));
    EXPECT_REJECTED(empty, "arange needs start < end (got 8, 8)");
    Ssa huge;
    huge.op(OP_ARANGE, vec(i32(), 1), {}, range_attr(0, (1 << 20) + 1));
    EXPECT_REJECTED(huge, "exceeds the limit");
}

TEST(Verifier, ExpandDimsAxis) {
    Ssa ok;
    Operand a = ok.typed(OP_ARANGE, {}, range_attr(0, 8));
    ok.op(OP_EXPAND_DIMS, blk(i32(), 1, 8), {a}, axis_attr(0));
    ok.op(OP_EXPAND_DIMS, blk(i32(), 8, 1), {a}, axis_attr(1));
    EXPECT_VALID(ok);

    Ssa bad;
    Operand b = bad.typed(OP_ARANGE, {}, range_attr(0, 8));
    bad.op(OP_EXPAND_DIMS, blk(i32(), 8, 1), {b}, axis_attr(2));
    EXPECT_REJECTED(bad, "expand_dims axis 2 is out of range for vector<8 x i32>");
    Ssa rank3; /* blocks of rank 3 and 4 exist until the rank lowering */
    Operand z = rank3.typed(OP_ZEROS, {}, shape_attr({2, 2}, DT_I32));
    rank3.op(OP_EXPAND_DIMS, shaped(i32(), {1, 2, 2}), {z}, axis_attr(0));
    EXPECT_VALID(rank3);
    Ssa rank5;
    Operand z4 = rank5.typed(OP_ZEROS, {}, shape_attr({2, 2, 2, 2}, DT_I32));
    rank5.op(OP_EXPAND_DIMS, shaped(i32(), {1, 2, 2, 2}), {z4}, axis_attr(0));
    EXPECT_REJECTED(rank5, "blocks have at most 4 dimensions");
}

TEST(Verifier, ZerosShapeAndDtype) {
    Ssa ok;
    ok.op(OP_ZEROS, vec(f32(), 8), {}, shape_attr({8}, DT_F32));
    ok.op(OP_FULL, blk(i32(), 2, 4), {ci(7)}, shape_attr({2, 4}, DT_I32));
    EXPECT_VALID(ok);

    Ssa rank0;
    rank0.op(OP_ZEROS, f32(), {}, shape_attr({}, DT_F32));
    EXPECT_REJECTED(rank0, "zeros needs a shape of rank 1 to 4 (got rank 0)");
    Ssa dim0;
    dim0.op(OP_ZEROS, vec(f32(), 0), {}, shape_attr({0}, DT_F32));
    EXPECT_REJECTED(dim0, "zeros needs positive dimensions (got 0)");
    Ssa dtype;
    dtype.op(OP_ZEROS, vec(f32(), 8), {}, shape_attr({8}, DT_NONE));
    EXPECT_REJECTED(dtype, "zeros needs a dtype");
    Ssa fill;
    fill.op(OP_FULL, vec(f32(), 8), {cb(true)}, shape_attr({8}, DT_F32));
    EXPECT_VALID(fill);  // Triton casts the fill value
    std::unique_ptr<Ssa> fillp(kernel_params());
    fillp->op(OP_FULL, vec(f32(), 8), {param(0)}, shape_attr({8}, DT_F32));
    EXPECT_REJECTED(*fillp, "full needs a scalar fill value (got ptr<f32>)");
    Ssa mismatch;
    mismatch.op(OP_ZEROS, vec(f32(), 4), {}, shape_attr({8}, DT_F32));
    EXPECT_REJECTED(mismatch, "is typed vector<4 x f32> but its operands give vector<8 x f32>");
}

// ---- Loops: the seed's rules ------------------------------------------------

// for %i in range(0, n, 1) iter_args(%acc = 0.0) { %t = add %acc, 1.0; yield %t }
struct SumLoop {
    std::unique_ptr<Ssa> s{kernel_params()};
    Ssa::LoopRef loop;
    Operand body_value{};
    std::vector<Operand> results;
    explicit SumLoop(Operand start = ci(0), Operand stop = param(1), Operand step = ci(1)) {
        loop = s->begin_loop(start, stop, step, {cf(0.0)});
        body_value = s->typed(OP_ADD, {loop.args[0], cf(1.0)});
        results = s->end_loop(loop, {body_value});
    }
};

TEST(Verifier, LoopBoundsAreI32Scalars) {
    SumLoop ok;
    ok.s->store(param(0), ok.results[0], none());
    EXPECT_VALID(*ok.s);
    SumLoop runtime_start(param(1), param(1));
    EXPECT_VALID(*runtime_start.s);

    SumLoop fstart(cf(0.0));
    EXPECT_REJECTED(*fstart.s, "the start of loop %0 must be an i32 scalar (got f32)");
    SumLoop fstop(ci(0), param(2));
    EXPECT_REJECTED(*fstop.s, "the stop of loop %0 must be an i32 scalar (got f32)");
    SumLoop pstop(ci(0), param(0));
    EXPECT_REJECTED(*pstop.s, "the stop of loop %0 must be an i32 scalar (got ptr<f32>)");

    // a vector bound
    std::unique_ptr<Ssa> v(kernel_params());
    Operand a = v->typed(OP_ARANGE, {}, range_attr(0, 8));
    auto l = v->begin_loop(ci(0), a, ci(1));
    v->end_loop(l);
    EXPECT_REJECTED(*v, "the stop of loop %1 must be an i32 scalar (got vector<8 x i32>)");

    SumLoop missing(ci(0), none());
    EXPECT_REJECTED(*missing.s, "the stop of loop %0 is missing");
}

TEST(Verifier, LoopStepIsPositiveConstant) {
    SumLoop ok(ci(0), param(1), ci(3));
    EXPECT_VALID(*ok.s);

    // a runtime step (persistent kernels: range(pid, n, tl.num_programs(0)))
    SumLoop runtime(ci(0), param(1), param(1));
    EXPECT_VALID(*runtime.s);
    SumLoop zero(ci(0), param(1), ci(0));
    EXPECT_REJECTED(*zero.s, "the step of loop %0 must be a positive constant");
    SumLoop negative(ci(0), param(1), ci(-1));
    EXPECT_REJECTED(*negative.s, "the step of loop %0 must be a positive constant");
}

TEST(Verifier, InductionVariableIsFresh) {
    std::unique_ptr<Ssa> ok(kernel_params());
    Operand p = ok->typed(OP_PROGRAM_ID, {}, axis_attr(0));
    auto l = ok->begin_loop(ci(0), param(1), ci(1));
    ok->typed(OP_ADD, {l.index, p});
    ok->end_loop(l);
    EXPECT_VALID(*ok);

    std::unique_ptr<Ssa> bad(kernel_params());
    bad->typed(OP_PROGRAM_ID, {}, axis_attr(0));  // %0
    auto b = bad->begin_loop(ci(0), param(1), ci(1));
    bad->end_loop(b);
    b.l->index = 0;
    EXPECT_REJECTED(*bad, "loop %0's induction variable defines %0 a second time");
}

TEST(Verifier, RegionArgumentsAreFresh) {
    std::unique_ptr<Ssa> bad(kernel_params());
    Operand p = bad->typed(OP_PROGRAM_ID, {}, axis_attr(0));  // %0 : i32
    auto l = bad->begin_loop(ci(0), param(1), ci(1), {p});    // %1 index, %2 arg
    bad->end_loop(l, {l.args[0]});
    l.l->args[0] = 0;
    EXPECT_REJECTED(*bad, "loop %1's region argument 0 defines %0 a second time");

    std::unique_ptr<Ssa> same(kernel_params());
    auto s = same->begin_loop(ci(0), param(1), ci(1), {ci(0)});  // %0 index, %1 arg
    same->end_loop(s, {s.args[0]});
    s.l->args[0] = s.l->index;
    EXPECT_REJECTED(*same, "loop %0's region argument 0 defines %0 a second time");

    std::unique_ptr<Ssa> wild(kernel_params());
    auto w = wild->begin_loop(ci(0), param(1), ci(1), {ci(0)});
    wild->end_loop(w, {w.args[0]});
    w.l->args[0] = 99;
    EXPECT_REJECTED(*wild, "loop %0's region argument 0 defines %99, which was never allocated");
}

TEST(Verifier, LoopResultsAreFresh) {
    SumLoop bad;
    bad.loop.l->results[0] = bad.loop.l->args[0];
    EXPECT_REJECTED(*bad.s, "loop %0's result 0 defines %1 a second time");

    SumLoop wild;
    wild.loop.l->results[0] = -3;
    EXPECT_REJECTED(*wild.s, "loop %0's result 0 defines %-3, which was never allocated");
}

TEST(Verifier, BodyUsesEnclosingOrEarlierDefinitions) {
    // the body reads an outer value and an earlier body value
    std::unique_ptr<Ssa> ok(kernel_params());
    Operand outer = ok->typed(OP_PROGRAM_ID, {}, axis_attr(0));
    auto l = ok->begin_loop(ci(0), param(1), ci(1));
    Operand t = ok->typed(OP_ADD, {l.index, outer});
    ok->typed(OP_MUL, {t, outer});
    ok->end_loop(l);
    EXPECT_VALID(*ok);

    // the body reads a body value defined after the use
    std::unique_ptr<Ssa> bad(kernel_params());
    auto b = bad->begin_loop(ci(0), param(1), ci(1));  // %0
    bad->op(OP_ADD, i32(), {val(2), ci(1)});           // %1 = add %2, 1
    bad->typed(OP_ADD, {b.index, ci(1)});              // %2
    bad->end_loop(b);
    EXPECT_REJECTED(*bad, "%1 = add uses %2 before its definition");

    // the body reads an outer value defined after the loop
    std::unique_ptr<Ssa> later(kernel_params());
    auto c = later->begin_loop(ci(0), param(1), ci(1));  // %0
    later->op(OP_ADD, i32(), {val(2), ci(1)});           // %1
    later->end_loop(c);
    later->typed(OP_PROGRAM_ID, {}, axis_attr(0));  // %2
    EXPECT_REJECTED(*later, "%1 = add uses %2 before its definition");
}

TEST(Verifier, BodyDefinitionsDoNotEscape) {
    SumLoop ok;
    ok.s->typed(OP_ADD, {ok.results[0], cf(1.0)});
    EXPECT_VALID(*ok.s);

    SumLoop body;  // %0 index, %1 arg, %2 body, %3 result
    body.s->typed(OP_ADD, {body.body_value, cf(1.0)});
    EXPECT_REJECTED(*body.s, "%4 = add uses %2 outside the region that defines it");
    SumLoop index;
    index.s->typed(OP_ADD, {index.loop.index, ci(1)});
    EXPECT_REJECTED(*index.s, "uses %0 outside the region that defines it");
    SumLoop arg;
    arg.s->typed(OP_ADD, {arg.loop.args[0], cf(1.0)});
    EXPECT_REJECTED(*arg.s, "uses %1 outside the region that defines it");
    SumLoop store;
    store.s->store(param(0), store.body_value, none());
    EXPECT_REJECTED(*store.s, "store uses %2 outside the region that defines it");
}

TEST(Verifier, SiblingLoopBodiesAreSeparate) {
    std::unique_ptr<Ssa> bad(kernel_params());
    auto first = bad->begin_loop(ci(0), param(1), ci(1));       // %0
    Operand inside = bad->typed(OP_ADD, {first.index, ci(1)});  // %1
    bad->end_loop(first);
    auto second = bad->begin_loop(ci(0), param(1), ci(1));  // %2
    bad->typed(OP_ADD, {second.index, inside});
    bad->end_loop(second);
    EXPECT_REJECTED(*bad, "uses %1 outside the region that defines it");
}

TEST(Verifier, CarriedCountsAreEqual) {
    SumLoop ok;
    EXPECT_VALID(*ok.s);

    SumLoop yields;
    yields.loop.l->nyields = 0;
    EXPECT_REJECTED(
        *yields.s,
        "loop %0 has 1 carried inputs and region arguments, 0 yields and 1 results (the counts must be equal)");
    SumLoop results;
    results.loop.l->nresults = 0;
    EXPECT_REJECTED(*results.s, "0 results (the counts must be equal)");
    SumLoop carried;
    carried.loop.l->ncarried = 0;
    EXPECT_REJECTED(*carried.s,
                    "loop %0 has 0 carried inputs and region arguments, 1 yields and 1 results");
}

TEST(Verifier, CarriedLaneTypesMatch) {
    // the initial value, region argument, yield and result of each lane
    // have one type
    std::unique_ptr<Ssa> ok(kernel_params());
    auto l = ok->begin_loop(ci(0), param(1), ci(1), {ci(0), cf(0.0)});
    Operand t = ok->typed(OP_ADD, {l.args[0], l.index});
    Operand u = ok->typed(OP_MUL, {l.args[1], cf(0.5)});
    ok->end_loop(l, {t, u});
    EXPECT_VALID(*ok);

    SumLoop init;  // an i32 initial value for an f32 lane
    init.loop.l->inits[0] = ci(0);
    EXPECT_REJECTED(*init.s,
                    "loop %0 lane 0: the carried input is i32 but the region argument %1 is f32");

    std::unique_ptr<Ssa> yield(kernel_params());
    auto y = yield->begin_loop(ci(0), param(1), ci(1), {ci(0)});
    Operand promoted = yield->typed(OP_ADD, {y.args[0], cf(1.0)});  // i32 + f32 -> f32
    yield->end_loop(y, {promoted});
    EXPECT_REJECTED(
        *yield,
        "loop %0 lane 0: the region argument is i32 but the yield is f32 (no implicit promotion across "
        "iterations)");

    SumLoop result;
    result.s->f->types[result.loop.l->results[0]] = i32();
    EXPECT_REJECTED(*result.s, "loop %0 lane 0: the result %3 is i32 but the carried value is f32");

    SumLoop none_yield;
    none_yield.loop.l->yields[0] = none();
    EXPECT_REJECTED(*none_yield.s, "yield 0 of loop %0 is none");
}

TEST(Verifier, YieldsAreInScope) {
    SumLoop bad;
    // yield a value defined after the loop
    Operand after =
        bad.s->typed(OP_PROGRAM_ID, {}, axis_attr(0));  // %4 (f32 expected, but scope comes first)
    bad.loop.l->yields[0] = after;
    EXPECT_REJECTED(*bad.s, "yield 0 of loop %0 uses %4 before its definition");
}

// Nested loops obey the same rules, recursively.
// %r = for %i ... iter_args(%a = 0) { %q = for %j ... iter_args(%b = %a) { %c = add %b, 1; yield %c }; yield %q }
struct NestedLoop {
    std::unique_ptr<Ssa> s{kernel_params()};
    Ssa::LoopRef outer, inner;
    Operand inner_body{};
    std::vector<Operand> inner_results, outer_results;
    explicit NestedLoop(Operand inner_step = ci(1)) {
        outer = s->begin_loop(ci(0), param(1), ci(1), {ci(0)});               // %0 i, %1 a
        inner = s->begin_loop(ci(0), param(1), inner_step, {outer.args[0]});  // %2 j, %3 b
        inner_body = s->typed(OP_ADD, {inner.args[0], ci(1)});                // %4
        inner_results = s->end_loop(inner, {inner_body});                     // %5
    }
    void finish(Operand outer_yield) {
        outer_results = s->end_loop(outer, {outer_yield});  // last
    }
};

TEST(Verifier, NestedLoopsValid) {
    NestedLoop ok;
    ok.finish(ok.inner_results[0]);
    ok.s->store(param(0), ok.outer_results[0], none());
    EXPECT_VALID(*ok.s);
    EXPECT_EQ(ok.s->print(),
              "%6 = for %0 in range(0, n, 1) iter_args(%1 = 0) : i32 {\n"
              "  %5 = for %2 in range(0, n, 1) iter_args(%3 = %1) : i32 {\n"
              "    %4 = add %3, 1 : i32\n"
              "    yield %4\n"
              "  }\n"
              "  yield %5\n"
              "}\n"
              "store x, %6, none\n");
}

TEST(Verifier, NestedLoopBodyDoesNotEscapeIntoOuterBody) {
    NestedLoop bad;
    bad.finish(bad.inner_body);  // the outer loop yields the inner body's %4
    EXPECT_REJECTED(*bad.s, "yield 0 of loop %0 uses %4 outside the region that defines it");

    NestedLoop use;
    use.s->typed(OP_ADD, {use.inner.index, ci(1)});  // %j after the inner loop
    use.finish(use.inner_results[0]);
    EXPECT_REJECTED(*use.s, "uses %2 outside the region that defines it");

    NestedLoop out;
    out.finish(out.inner_results[0]);
    out.s->typed(OP_ADD, {out.inner_results[0], ci(1)});  // the inner result after the outer loop
    EXPECT_REJECTED(*out.s, "uses %5 outside the region that defines it");
}

TEST(Verifier, NestedLoopRulesApplyRecursively) {
    NestedLoop step(ci(0));
    step.finish(step.inner_results[0]);
    EXPECT_REJECTED(*step.s, "the step of loop %2 must be a positive constant");

    NestedLoop lane;
    lane.finish(lane.inner_results[0]);
    lane.inner.l->yields[0] = cf(1.0);
    EXPECT_REJECTED(*lane.s, "loop %2 lane 0: the region argument is i32 but the yield is f32");

    NestedLoop fresh;
    fresh.finish(fresh.inner_results[0]);
    fresh.inner.l->index = fresh.outer.l->index;
    EXPECT_REJECTED(*fresh.s, "loop %0's induction variable defines %0 a second time");

    NestedLoop counts;
    counts.finish(counts.inner_results[0]);
    counts.inner.l->nresults = 0;
    EXPECT_REJECTED(*counts.s,
                    "loop %2 has 1 carried inputs and region arguments, 1 yields and 0 results");
}

TEST(Verifier, AForItemHasALoop) {
    Ssa bad;
    Inst *in = ssa_inst_new(bad.a, OP_FOR, srcpos(1, 1));
    ptrvec_push(bad.a, &bad.f->body.items, in);
    EXPECT_REJECTED(bad, "a 'for' item has no loop");
}

// Everything the compiler lowers is valid: the conformance kernels at -O0
// go through the verifier (passes_run verifies after lowering).
TEST(Verifier, AcceptsLoweredConformanceKernels) {
    CompileArgs a;
    a.path = conformance_kernel("loops.py");
    a.kernel = "nested_count_kernel";
    a.signature = "*fp32, i32, i32";
    a.opt_level = 0;
    Compiled c = compile(a);
    EXPECT_TRUE(c.ok) << c.diagnostics;
    EXPECT_NE(c.ssa.find("for %"), std::string::npos);
}

}  // namespace
