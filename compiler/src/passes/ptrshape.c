/* Blocks of pointers through shape ops and selects (ptrshape.h).
 *
 * A shape op of pointers moves down the pointer's addptr chain: S(p + o)
 * is S(p) + S(o), a scalar base staying as it is (addptr broadcasts it)
 * and a scalar pointer becoming itself plus zeros of the shape; a hint on
 * the way is dropped (it only helps). A select moves down both chains at
 * once: where(c, p + o, q + r) is where(c, p, q) + where(c, o, r) (an
 * operand without an offset has offset 0), until both sides are bases:
 * one base is itself; two scalar bases of a scalar condition, an address
 * chosen and cast back (what the frontend makes of a runtime if between
 * two pointers). What is left is a shape op or select of a block no chain
 * reaches (ptrshape_check names it).
 *
 * Requires: verified SSA of rank <= 2. Preserves: the values of every
 * result; the replaced items are removed (their numbers unused). */
#include "passes/ptrshape.h"

#include <string.h>

#include "passes/passes.h"

typedef struct PS {
    Arena *a;
    Function *f;
    int n0;        /* the values before the pass */
    Operand *repl; /* by value before the pass: its replacement (none: kept) */
    PtrVec *cur;   /* the items of the block being built */
} PS;

typedef struct Peel {
    Operand ptr, off; /* the pointer as ptr + off (off none: no addptr) */
} Peel;

static Operand res(const PS *P, Operand o) {
    while (o.kind == OPD_VALUE && o.id < P->n0 && P->repl[o.id].kind != OPD_NONE) o = P->repl[o.id];
    return o;
}

static Type type_of(const PS *P, Operand o) { return operand_type(P->f, o); }

static const Inst *def_of(const PS *P, Operand o) {
    return o.kind == OPD_VALUE ? P->f->defs[o.id] : NULL;
}

static int same_shape(Type a, Type b) {
    if (a.rank != b.rank) return 0;
    for (int k = 0; k < a.rank; k++)
        if (a.dims[k] != b.dims[k]) return 0;
    return 1;
}

/* t's element type at the shape of s. */
static Type shaped(Type t, Type s) { return type_with_shape(type_elem(t), s.rank, s.dims); }

static Operand emit(PS *P, Op op, Type t, int nargs, const Operand *args, const Attrs *at,
                    SrcPos pos) {
    Inst *in = ssa_inst_new(P->a, op, pos);
    in->nargs = nargs;
    for (int k = 0; k < nargs; k++) in->args[k] = args[k];
    if (at) in->attrs = *at;
    in->type = t;
    in->result = ssa_new_value(P->a, P->f, t, in);
    ptrvec_push(P->a, P->cur, in);
    return opd_value(in->result);
}

static Operand emit1(PS *P, Op op, Type t, Operand x, const Attrs *at, SrcPos pos) {
    return emit(P, op, t, 1, &x, at, pos);
}

static Operand emit_addptr(PS *P, Operand p, Operand o, SrcPos pos) {
    Type s;
    MT_ASSERT(shape_broadcast(type_of(P, p), type_of(P, o), &s));
    Operand args[2] = {p, o};
    return emit(P, OP_ADDPTR, shaped(type_of(P, p), s), 2, args, NULL, pos);
}

/* Scalar pointer p as a block of shape s: p plus zeros (the frontend's
 * broadcast of a pointer). */
static Operand splat_pointer(PS *P, Operand p, Type s, SrcPos pos) {
    Attrs z = {0};
    z.rank = s.rank;
    for (int k = 0; k < s.rank; k++) z.shape[k] = s.dims[k];
    z.dtype = DT_I32;
    Operand zeros = emit(P, OP_ZEROS, shaped(type_scalar(DT_I32), s), 0, NULL, &z, pos);
    return emit_addptr(P, p, zeros, pos);
}

/* The shape op S (its op, attributes, other operands and result shape)
 * applied to x, which has S's operand shape: pointers down their chain. */
static Operand apply(PS *P, const Inst *S, Operand x);

/* Block x broadcast to exactly the shape of T (leading axes of 1 first);
 * a scalar stays (the ops broadcast it). */
static Operand fit(PS *P, Operand x, Type T, SrcPos pos) {
    Type t = type_of(P, x);
    if (t.rank == 0 || same_shape(t, T)) return x;
    Inst S;
    memset(&S, 0, sizeof S);
    S.pos = pos;
    S.nargs = 1;
    while (t.rank < T.rank) {
        int32_t d[MT_MAX_RANK] = {1};
        for (int k = 0; k < t.rank; k++) d[k + 1] = t.dims[k];
        S.op = OP_EXPAND_DIMS;
        S.type = type_with_shape(t, t.rank + 1, d);
        x = apply(P, &S, x);
        t = type_of(P, x);
    }
    if (same_shape(t, T)) return x;
    S.op = OP_BROADCAST;
    S.attrs.rank = T.rank;
    for (int k = 0; k < T.rank; k++) S.attrs.shape[k] = T.dims[k];
    S.type = shaped(t, T);
    return apply(P, &S, x);
}

static Operand apply(PS *P, const Inst *S, Operand x) {
    Type t = type_of(P, x), rt = shaped(t, S->type);
    Operand args[3] = {x, res(P, S->args[1]), res(P, S->args[2])};
    if (!t.ptr) return emit(P, S->op, rt, S->nargs, args, &S->attrs, S->pos);
    if (t.rank == 0) return splat_pointer(P, x, S->type, S->pos);
    const Inst *d = def_of(P, x);
    if (d && d->op == OP_HINT) return apply(P, S, res(P, d->args[0]));
    if (d && d->op == OP_ADDPTR) {
        Operand q = res(P, d->args[0]), o = res(P, d->args[1]);
        if (type_of(P, q).rank) q = apply(P, S, fit(P, q, t, S->pos));
        if (type_of(P, o).rank) o = apply(P, S, fit(P, o, t, S->pos));
        return emit_addptr(P, q, o, S->pos);
    }
    /* a block no chain reaches (a loop's or an if's): left as it is */
    return emit(P, S->op, rt, S->nargs, args, &S->attrs, S->pos);
}

static Peel peel(const PS *P, Operand p) {
    for (;;) {
        const Inst *d = def_of(P, p);
        if (d && d->op == OP_HINT) {
            p = res(P, d->args[0]);
            continue;
        }
        Peel r = {p, opd_none()};
        if (d && d->op == OP_ADDPTR) r.ptr = res(P, d->args[0]), r.off = res(P, d->args[1]);
        return r;
    }
}

/* Integer offset o as dtype dt. */
static Operand as_dtype(PS *P, Operand o, DType dt, SrcPos pos) {
    if (o.kind == OPD_CONST) return opd_const(const_int(dt, o.c.i));
    Type t = type_of(P, o);
    if (t.dtype == dt) return o;
    Attrs at = {0};
    at.dtype = dt;
    return emit1(P, OP_CAST, shaped(type_scalar(dt), t), o, &at, pos);
}

static Type shape3(const PS *P, Operand c, Operand a, Operand b) {
    Type s, s2;
    MT_ASSERT(shape_broadcast(type_of(P, c), type_of(P, a), &s));
    MT_ASSERT(shape_broadcast(s, type_of(P, b), &s2));
    return s2;
}

/* where(c, a, b) of pointers: an operand that broadcasts to its shape. */
static Operand select_pointers(PS *P, Operand c, Operand a, Operand b, SrcPos pos) {
    Peel x = peel(P, a), y = peel(P, b);
    if (x.off.kind == OPD_NONE && y.off.kind == OPD_NONE) {
        if (operand_eq(x.ptr, y.ptr)) return x.ptr;
        Type ta = type_of(P, x.ptr);
        if (type_of(P, c).rank == 0 && ta.rank == 0 && type_of(P, y.ptr).rank == 0) {
            /* two bases: the address chosen, a base of its own */
            Type i64 = type_scalar(DT_I64);
            Operand args[3] = {c, emit1(P, OP_PTR_TO_INT, i64, x.ptr, NULL, pos),
                               emit1(P, OP_PTR_TO_INT, i64, y.ptr, NULL, pos)};
            Operand addr = emit(P, OP_SELECT, i64, 3, args, NULL, pos);
            Attrs at = {0};
            at.dtype = (DType)ta.dtype;
            return emit1(P, OP_INT_TO_PTR, ta, addr, &at, pos);
        }
        /* bases chosen per element: left as it is */
        Operand args[3] = {c, x.ptr, y.ptr};
        return emit(P, OP_SELECT, shaped(ta, shape3(P, c, x.ptr, y.ptr)), 3, args, NULL, pos);
    }
    Operand base = select_pointers(P, c, x.ptr, y.ptr, pos);
    DType dt = x.off.kind == OPD_NONE   ? (DType)type_of(P, y.off).dtype
               : y.off.kind == OPD_NONE ? (DType)type_of(P, x.off).dtype
                                        : integer_promote((DType)type_of(P, x.off).dtype,
                                                          (DType)type_of(P, y.off).dtype);
    Operand zero = opd_const(const_int(dt, 0));
    Operand oa = x.off.kind == OPD_NONE ? zero : as_dtype(P, x.off, dt, pos);
    Operand ob = y.off.kind == OPD_NONE ? zero : as_dtype(P, y.off, dt, pos);
    Operand args[3] = {c, oa, ob};
    Operand off =
        emit(P, OP_SELECT, shaped(type_scalar(dt), shape3(P, c, oa, ob)), 3, args, NULL, pos);
    return emit_addptr(P, base, off, pos);
}

/* Whether `in` is a shape op or select of pointers this pass rewrites. */
static int rewritten(const Inst *in) {
    if (in->result < 0 || !in->type.ptr) return 0;
    if (in->op == OP_SELECT) return 1;
    /* (a join has two blocks of pointers: left as it is) */
    return op_class(in->op) == OC_SHAPE && in->op != OP_JOIN;
}

static Operand rewrite(PS *P, const Inst *in) {
    if (in->op != OP_SELECT) return apply(P, in, res(P, in->args[0]));
    Operand r =
        select_pointers(P, res(P, in->args[0]), res(P, in->args[1]), res(P, in->args[2]), in->pos);
    Type t = type_of(P, r);
    if (same_shape(t, in->type)) return r;
    if (t.rank == 0) return splat_pointer(P, r, in->type, in->pos);
    return fit(P, r, in->type, in->pos);
}

static void walk(PS *P, Block *b) {
    PtrVec out = {0};
    for (int i = 0; i < b->items.len; i++) {
        Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++) walk(P, sub[k]);
        P->cur = &out;
        if (n || !rewritten(in)) {
            ptrvec_push(P->a, &out, in);
            continue;
        }
        P->repl[in->result] = rewrite(P, in);
        P->f->defs[in->result] = NULL;
    }
    b->items = out;
}

static int any_rewritten(const Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++)
            if (any_rewritten(sub[k])) return 1;
        if (!n && rewritten(in)) return 1;
    }
    return 0;
}

int pass_pointer_shapes(Arena *a, Function *f) {
    if (!any_rewritten(&f->body)) return 0;
    PS P = {a, f, f->nvalues, ARENA_ARRAY(a, Operand, f->nvalues + 1), NULL};
    walk(&P, &f->body);
    Operand *all = ARENA_ARRAY(a, Operand, f->nvalues + 1);
    for (int v = 0; v < P.n0; v++) all[v] = P.repl[v];
    ssa_apply_replacements(&f->body, all);
    return 1;
}

static int check(MtContext *ctx, const Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++)
            if (!check(ctx, sub[k])) return 0;
        if (n || !in->type.ptr || (in->op != OP_SELECT && op_class(in->op) != OC_SHAPE)) continue;
        if (in->op == OP_SELECT)
            mt_error(ctx, in->pos,
                     "tl.where between pointers of different bases with a block condition "
                     "(a base chosen per element) is not supported by the CUDA and host backends: "
                     "they hold a block of pointers as indexes from one base (tl.where the "
                     "loaded values, or choose the pointer with a scalar condition)");
        else
            mt_error(ctx, in->pos,
                     "%s of a block of pointers that is not an address computed from one base "
                     "(a loop-carried or branch-merged block, or a choice of bases) is not "
                     "supported by the CUDA and host backends: they hold a block of pointers as "
                     "indexes from one base (apply it to the offsets before adding them to the "
                     "pointer)",
                     op_info(in->op)->name);
        return 0;
    }
    return 1;
}

int ptrshape_check(MtContext *ctx, const Function *f) { return check(ctx, &f->body); }
