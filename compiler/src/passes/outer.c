/* -O2: the outer-product accumulation loop (issue 14).
 *
 * A runtime `for` one of whose carried lanes is a rank-2 f32 accumulator
 * updated as `acc + X * Y` (or `X * Y + acc`), X of shape (R, 1) and Y of
 * shape (1, C), is a matrix product written as a loop of rank-1 updates.
 * This file holds the two halves of its handling that do not depend on a
 * backend:
 *
 * - pass_outer, an IR rewrite run at -O2 for every backend: the loop's
 *   carried pointer lanes advanced by a loop-invariant offset
 *   (`a_ptrs += 1`) become addresses computed from the iteration number,
 *   `init + t * delta` with t = (k - start) / step, and the lanes go. What
 *   the loop reads is then a pure function of the loop index and of values
 *   from before the loop, whether the source hoisted its pointers or not.
 *   The results of the removed lanes must be unused after the loop.
 *
 * - outer_match, the analysis the CUDA backend's staged emission
 *   (emit_cuda_fma.c) reads: the accumulator lane, the product and its
 *   two operands, each a chain of pure elementwise ops over loads whose
 *   addresses, masks and `other` are pure functions of the loop index and
 *   values from before the loop (any transform: tl.where, casts, scaling);
 *   the loads are the body's own.
 *   Everything else in the body must be pure or a load (no store, atomic,
 *   region, reduction, barrier), and nothing but the product may read the
 *   accumulator.
 *
 * The rewrite changes no value: pointer arithmetic is exact, and t * delta
 * is the same i32 sum the loop accumulated step by step. */
#include "passes/outer.h"

#include "passes/passes.h"

enum { OUTER_MAX_DEPTH = 64 };

static const Inst *def_of(const Function *f, Operand o) {
    return o.kind == OPD_VALUE ? f->defs[o.id] : NULL;
}

static int is_value(Operand o, int v) { return o.kind == OPD_VALUE && o.id == v; }

/* Whether value v is defined in block b (or a region nested in it). */
static int defined_in(const Block *b, int v) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        if (in->result == v) return 1;
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        if (!n) continue;
        const Loop *l = in->loop;
        if (l->index == v) return 1;
        for (int k = 0; k < l->ncarried; k++)
            if (l->args[k] == v) return 1;
        for (int k = 0; k < l->nresults; k++)
            if (l->results[k] == v) return 1;
        for (int k = 0; k < n; k++)
            if (defined_in(sub[k], v)) return 1;
    }
    return 0;
}

/* Whether operand o of loop l is defined outside it (a constant, a
 * parameter, or a value from before the loop). */
static int invariant(const Loop *l, Operand o) {
    if (o.kind != OPD_VALUE) return 1;
    if (o.id == l->index) return 0;
    for (int k = 0; k < l->ncarried; k++)
        if (l->args[k] == o.id) return 0;
    return !defined_in(&l->body, o.id);
}

typedef struct UseCount {
    int v, n;
} UseCount;

static void count_use(Operand *o, void *user) {
    UseCount *u = user;
    u->n += is_value(*o, u->v);
}

static int uses_in_block(const Block *b, int v) {
    UseCount u = {v, 0};
    for (int i = 0; i < b->items.len; i++)
        ssa_for_each_operand(b->items.items[i], 1, count_use, &u);
    return u.n;
}

/* The accumulator lane of loop l: its yield is add(acc, mul(X, Y)) in the
 * body, X (R, 1) and Y (1, C) or the other way round; -1 when none. */
static int acc_lane(const Function *f, const Loop *l, OuterLoop *m) {
    for (int lane = 0; lane < l->ncarried; lane++) {
        Type acc = f->types[l->args[lane]];
        if (acc.ptr || acc.dtype != DT_F32 || acc.rank != 2) continue;
        const Inst *add = def_of(f, l->yields[lane]);
        if (!add || add->op != OP_ADD || !defined_in(&l->body, add->result)) continue;
        int side = is_value(add->args[0], l->args[lane])   ? 0
                   : is_value(add->args[1], l->args[lane]) ? 1
                                                           : -1;
        if (side < 0) continue;
        const Inst *mul = def_of(f, add->args[1 - side]);
        if (!mul || mul->op != OP_MUL || !defined_in(&l->body, mul->result)) continue;
        Type tx = operand_type(f, mul->args[0]), ty = operand_type(f, mul->args[1]);
        if (tx.ptr || ty.ptr || tx.dtype != DT_F32 || ty.dtype != DT_F32 || tx.rank != 2 ||
            ty.rank != 2)
            continue;
        int R = acc.dims[0], C = acc.dims[1];
        int xy = tx.dims[0] == R && tx.dims[1] == 1 && ty.dims[0] == 1 && ty.dims[1] == C;
        int yx = ty.dims[0] == R && ty.dims[1] == 1 && tx.dims[0] == 1 && tx.dims[1] == C;
        if (!xy && !yx) continue;
        m->loop = NULL;
        m->acc_lane = lane;
        m->add = add;
        m->mul = mul;
        m->x = mul->args[xy ? 0 : 1];
        m->y = mul->args[xy ? 1 : 0];
        return lane;
    }
    return -1;
}

/* ---- The rewrite of carried pointer lanes ----------------------------- */

typedef struct Rewrite {
    Arena *a;
    Function *f;
    PassStats *st;
} Rewrite;

static int new_inst(Rewrite *W, Block *b, int *pos, Op op, Type t, Operand x, Operand y, SrcPos p) {
    Inst *in = ssa_inst_new(W->a, op, p);
    in->nargs = 2;
    in->args[0] = x;
    in->args[1] = y;
    in->type = t;
    in->result = ssa_new_value(W->a, W->f, t, in);
    ptrvec_insert(W->a, &b->items, (*pos)++, in);
    return in->result;
}

static int int_const(Operand o) {
    return o.kind == OPD_CONST && dtype_is_int(o.c.dt) && o.c.dt != DT_BOOL;
}

static int is_int_const(Operand o, long long v) { return int_const(o) && o.c.i == v; }

/* Whether lane `lane` of loop `in` is a pointer advanced by a
 * loop-invariant i32 offset, its result unused (uses counted in `scope`,
 * the block holding the loop and everything after it). */
static int pointer_lane(const Function *f, const Inst *in, int lane, const Block *scope) {
    const Loop *l = in->loop;
    Type t = f->types[l->args[lane]];
    if (!t.ptr) return 0;
    const Inst *adv = def_of(f, l->yields[lane]);
    if (!adv || adv->op != OP_ADDPTR || !is_value(adv->args[0], l->args[lane]) ||
        !defined_in(&l->body, adv->result))
        return 0;
    Operand d = adv->args[1];
    Type td = operand_type(f, d);
    if (!invariant(l, d) || td.ptr || (td.dtype != DT_I32 && !int_const(d))) return 0;
    return uses_in_block(scope, l->results[lane]) == 0;
}

static void rewrite_loop(Rewrite *W, Inst *in, const Block *scope) {
    Function *f = W->f;
    Loop *l = in->loop;
    OuterLoop m;
    if (in->op != OP_FOR || acc_lane(f, l, &m) < 0) return;
    if (l->step.kind != OPD_CONST || l->step.c.i <= 0) return;
    /* replacements of the removed lanes' arguments, values from before the
     * rewrite (new values are added after them: nrepl entries) */
    Operand *repl = NULL;
    int nrepl = 0;
    Operand t = opd_none();
    int pos = 0;
    for (int lane = 0; lane < l->ncarried; lane++) {
        if (lane == m.acc_lane || !pointer_lane(f, in, lane, scope)) continue;
        if (!repl) {
            nrepl = f->nvalues;
            repl = ARENA_ARRAY(W->a, Operand, nrepl);
            for (int i = 0; i < nrepl; i++) repl[i] = opd_none();
            /* t = (k - start) / step, the iteration number */
            t = opd_value(l->index);
            if (!is_int_const(l->start, 0))
                t = opd_value(
                    new_inst(W, &l->body, &pos, OP_SUB, type_scalar(DT_I32), t, l->start, in->pos));
            if (!is_int_const(l->step, 1))
                t = opd_value(new_inst(W, &l->body, &pos, OP_FLOORDIV, type_scalar(DT_I32), t,
                                       l->step, in->pos));
        }
        const Inst *adv = def_of(f, l->yields[lane]);
        Operand d = adv->args[1];
        Type td = operand_type(f, d);
        Operand off = t;
        if (!is_int_const(d, 1))
            off = opd_value(new_inst(W, &l->body, &pos, OP_MUL, td.rank ? td : type_scalar(DT_I32),
                                     t, d, adv->pos));
        int p = new_inst(W, &l->body, &pos, OP_ADDPTR, f->types[l->args[lane]], l->inits[lane], off,
                         adv->pos);
        repl[l->args[lane]] = opd_value(p);
        /* the lane goes: its argument and result numbers are unused */
        f->defs[l->args[lane]] = NULL;
        f->defs[l->results[lane]] = NULL;
        for (int k = lane; k + 1 < l->ncarried; k++) {
            l->inits[k] = l->inits[k + 1];
            l->args[k] = l->args[k + 1];
            l->yields[k] = l->yields[k + 1];
            l->results[k] = l->results[k + 1];
        }
        l->ncarried--, l->nyields--, l->nresults--;
        if (lane < m.acc_lane) m.acc_lane--;
        lane--;
        W->st->folded++;
    }
    if (repl) {
        Operand *r = ARENA_ARRAY(W->a, Operand, f->nvalues);
        for (int i = 0; i < f->nvalues; i++) r[i] = i < nrepl ? repl[i] : opd_none();
        ssa_apply_replacements(&l->body, r);
    }
}

static void rewrite_block(Rewrite *W, Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++) rewrite_block(W, sub[k]);
        if (in->op == OP_FOR) rewrite_loop(W, in, b);
    }
}

void pass_outer(Arena *a, Function *f, PassStats *st) {
    Rewrite W = {a, f, st};
    rewrite_block(&W, &f->body);
}

/* ---- The analysis ------------------------------------------------------ */

/* The special ops an operand chain may contain besides elementwise ops
 * (a type rule other than TR_SPECIAL) and loads: those the CUDA backend
 * regenerates for any row, column and k. */
static int chain_special(Op op) {
    return op == OP_ARANGE || op == OP_PROGRAM_ID || op == OP_NUM_PROGRAMS || op == OP_ZEROS ||
           op == OP_EMPTY || op == OP_FULL || op == OP_EXPAND_DIMS || op == OP_ADDPTR ||
           op == OP_CAST || op == OP_BITCAST || op == OP_HINT;
}

/* Whether o is a function of the loop index and values from before the
 * loop: pure ops of the chain set and loads, down to aranges, program
 * ids, parameters, constants and uniform scalars. */
static int chain_ok(const Function *f, const Loop *l, Operand o, int depth) {
    if (depth > OUTER_MAX_DEPTH) return 0;
    if (o.kind != OPD_VALUE || o.id == l->index) return 1;
    for (int k = 0; k < l->ncarried; k++)
        if (l->args[k] == o.id) return 0;
    const Inst *d = f->defs[o.id];
    if (!d || op_has(d->op, OPF_REGION)) return 0;
    if (f->types[o.id].rank == 0 && !defined_in(&l->body, o.id)) return 1; /* uniform */
    if (d->op == OP_LOAD) {
        /* read again where it is staged: only loads of the body, which
         * stores nothing, may be (one before the loop could be followed by
         * a store to its address) */
        if (outer_pointer_base(f, d->args[0]) < 0 || !defined_in(&l->body, o.id)) return 0;
    } else if (!op_has(d->op, OPF_PURE) ||
               (!chain_special(d->op) && op_info(d->op)->rule == TR_SPECIAL)) {
        return 0;
    }
    for (int k = 0; k < d->nargs; k++)
        if (!chain_ok(f, l, d->args[k], depth + 1)) return 0;
    return 1;
}

int outer_pointer_base(const Function *f, Operand o) {
    for (int guard = 0; guard < 1000; guard++) {
        if (o.kind == OPD_PARAM) return operand_type(f, o).ptr ? o.id : -1;
        const Inst *d = def_of(f, o);
        if (!d || d->op != OP_ADDPTR) return -1;
        o = d->args[0];
    }
    return -1;
}

int outer_match(const Function *f, const Inst *in, OuterLoop *m) {
    if (in->op != OP_FOR) return 0;
    const Loop *l = in->loop;
    if (l->ncarried != 1 || l->nyields != 1 || l->nresults != 1) return 0;
    if (l->step.kind != OPD_CONST || l->step.c.i <= 0) return 0;
    if (acc_lane(f, l, m) != 0) return 0;
    for (int i = 0; i < l->body.items.len; i++) {
        const Inst *b = l->body.items.items[i];
        if (b == m->add || b == m->mul) continue;
        if (op_has(b->op, OPF_REGION) || op_has(b->op, OPF_REDUCE)) return 0;
        if (!op_has(b->op, OPF_PURE) && b->op != OP_LOAD) return 0;
    }
    if (uses_in_block(&l->body, l->args[0]) != 1 || uses_in_block(&l->body, m->mul->result) != 1)
        return 0;
    if (!chain_ok(f, l, m->x, 0) || !chain_ok(f, l, m->y, 0)) return 0;
    m->loop = in;
    return 1;
}
