/* The rank lowering (rank.h). A block of logical shape (d0, ..., d{r-1})
 * with r >= 3 becomes the rank-2 block (d0 * ... * d{r-2}, d{r-1}), its
 * fold: the same elements in the same row-major order, the rows standing
 * for every index but the last. Blocks of rank 0 to 2 keep their shapes.
 *
 * Each value v of the input is represented after the pass by an operand
 * whose elements are v's in v's row-major order, held at some rank-2 shape
 * (Rep): usually v itself at its fold, but a reshape, an expand_dims or a
 * reduction may leave it at another shape of the same count (a sum along
 * the last axis of (A, B, C) is held as (A * B,) for the logical (A, B)).
 * A use asks for what it needs:
 *   - get: the value at its fold exactly (the operands of regions, shape
 *     ops, reductions, dots);
 *   - bcast: an operand that rank-2 broadcasting reads the way Triton's
 *     broadcasting of the logical shapes reads it (elementwise ops, loads,
 *     stores, atomics): the Rep itself where it already does, else the
 *     value moved through a view.
 * A view maps each element of a target shape to an element of the source
 * (each source index a target index or a constant: broadcasts,
 * permutations, the element of an axis). Moving a value through a view:
 *   - an index chain (aranges, splats and elementwise arithmetic on them,
 *     through expand_dims, trans, broadcast, take, split and reshapes that
 *     only add or drop axes of 1) is recomputed at the target from the
 *     target's coordinates: the last axis is a column arange, the others
 *     the row arange divided and reduced (i // stride % dim). This is what
 *     Triton's layouts do for offsets and masks; such kernels keep one
 *     tile and need no exchange of elements;
 *   - a block of pointers is moved through its addptr chain to a scalar
 *     base (the offsets moved as above);
 *   - any other value by a `remap` op (an exchange of elements: the
 *     backends' bounding-box tile, as for trans and reshape).
 * Reductions and scans along the last axis read the fold directly
 * (axis 1); along another axis the operand is first remapped with that
 * axis last (a scan's result is remapped back). A rank-3 tl.dot (B, M, K) x
 * (B, K, N) is the batched dot of its folds, {batch=B}. */
#include "passes/rank.h"

#include <string.h>

#include "passes/passes.h"

enum { MAX_CHAIN = 64 }; /* index chains with more items are moved as data */
enum { M_EXACT, M_VIEW, M_COORD };

typedef struct View {
    int n;                      /* the target's rank */
    int32_t tdims[MT_MAX_RANK]; /* the target's dimensions */
    int s;                      /* the source's rank */
    int8_t map[MT_MAX_RANK];    /* source index k is target index map[k], or off[k] (map[k] < 0) */
    int32_t off[MT_MAX_RANK];
} View;

typedef struct Rep {
    Operand o; /* the value's elements in its row-major order */
    Type t;    /* o's type (rank <= 2) */
} Rep;

/* A value made for a use, valid in the block it was made in and the
 * blocks inside it. */
typedef struct Memo {
    int kind, v, depth;
    View view; /* M_VIEW: the view; M_COORD: the target (n, tdims), index s */
    Operand o;
} Memo;

typedef struct Rank {
    MtContext *ctx;
    Arena *a;
    Function *f;
    int n0;             /* the values before the pass */
    Type *otype;        /* by value: its type before the pass */
    Inst *odef;         /* by value: a copy of its defining item (op OP_COUNT: none) */
    Rep *rep;           /* by value */
    signed char *chain; /* by value: an index chain (1), not (-1), unknown (0) */
    PtrVec *cur;        /* the items of the block being built */
    Memo *memo;
    int nmemo, cmemo;
    int depth;
    int failed;
} Rank;

/* ---- shapes ---------------------------------------------------------- */

static Type fold(Type t) {
    if (t.rank <= 2) return t;
    int32_t d[2] = {1, t.dims[t.rank - 1]};
    for (int k = 0; k + 1 < t.rank; k++) d[0] *= t.dims[k];
    return type_with_shape(t, 2, d);
}

static int same_shape(Type a, Type b) {
    if (a.rank != b.rank) return 0;
    for (int k = 0; k < a.rank; k++)
        if (a.dims[k] != b.dims[k]) return 0;
    return 1;
}

/* Row-major strides of a shape. */
static void strides(const int32_t *dims, int n, int64_t *st) {
    int64_t acc = 1;
    for (int k = n - 1; k >= 0; k--) {
        st[k] = acc;
        acc *= dims[k];
    }
}

static Type shape_of(Type elem, int n, const int32_t *dims) {
    return type_with_shape(elem, n, dims);
}

/* Whether a value of logical shape T held at the rank-2 shape G, read by
 * rank-2 broadcasting in an elementwise op of logical shape S (at its fold),
 * reads at each element the element Triton's broadcasting of T against S
 * reads. */
static int compat(Type G, Type T, Type S) {
    Type F = fold(S);
    int r = S.rank, t = T.rank;
    if (G.rank > F.rank || t > r) return 0;
    int64_t g0 = G.rank == 2 ? G.dims[0] : 1, g1 = G.rank >= 1 ? G.dims[G.rank - 1] : 1;
    int64_t f0 = F.rank == 2 ? F.dims[0] : 1, f1 = F.rank >= 1 ? F.dims[F.rank - 1] : 1;
    if ((g0 != 1 && g0 != f0) || (g1 != 1 && g1 != f1)) return 0;
    int64_t ts[MT_MAX_RANK], acc = 1; /* Triton's: T aligned right to S */
    for (int m = r - 1; m >= 0; m--) {
        int k = m - (r - t);
        int32_t d = k >= 0 ? T.dims[k] : 1;
        ts[m] = d == 1 ? 0 : acc;
        acc *= d;
    }
    int64_t rs = 1; /* rank 2's: the last axis the column, the others the row */
    for (int m = r - 1; m >= 0; m--) {
        int64_t got;
        if (m == r - 1) {
            got = g1 == 1 ? 0 : 1;
        } else {
            got = g0 == 1 ? 0 : g1 * rs;
            rs *= S.dims[m];
        }
        if (S.dims[m] > 1 && got != ts[m]) return 0;
    }
    return 1;
}

/* ---- views ----------------------------------------------------------- */

static int view_eq(const View *x, const View *y) {
    if (x->n != y->n || x->s != y->s) return 0;
    for (int m = 0; m < x->n; m++)
        if (x->tdims[m] != y->tdims[m]) return 0;
    for (int k = 0; k < x->s; k++)
        if (x->map[k] != y->map[k] || (x->map[k] < 0 && x->off[k] != y->off[k])) return 0;
    return 1;
}

/* The view of a use of logical shape S reading an operand of shape T by
 * Triton's broadcasting (T aligned right). */
static View broadcast_view(Type S, Type T) {
    View w = {0};
    w.n = S.rank;
    for (int m = 0; m < S.rank; m++) w.tdims[m] = S.dims[m];
    w.s = T.rank;
    for (int k = 0; k < T.rank; k++) {
        int m = k + S.rank - T.rank;
        w.map[k] = (int8_t)(T.dims[k] == 1 ? -1 : m);
        w.off[k] = 0;
    }
    return w;
}

/* View u composed with an elementwise op's broadcasting: the op's result
 * has shape V (u's source), its operand shape T (aligned right). */
static View compose_bcast(const View *u, Type V, Type T) {
    View w = *u;
    w.s = T.rank;
    for (int k = 0; k < T.rank; k++) {
        int j = k + V.rank - T.rank;
        w.map[k] = T.dims[k] == 1 ? -1 : u->map[j];
        w.off[k] = T.dims[k] == 1 ? 0 : u->off[j];
    }
    return w;
}

/* ---- emitting ---------------------------------------------------------- */

static Operand emit(Rank *R, Op op, Type t, int nargs, const Operand *args, const Attrs *at,
                    SrcPos pos) {
    Inst *in = ssa_inst_new(R->a, op, pos);
    in->nargs = nargs;
    for (int k = 0; k < nargs; k++) in->args[k] = args[k];
    if (at) in->attrs = *at;
    in->type = t;
    in->result = ssa_new_value(R->a, R->f, t, in);
    ptrvec_push(R->a, R->cur, in);
    return opd_value(in->result);
}

static Operand emit1(Rank *R, Op op, Type t, Operand x, const Attrs *at, SrcPos pos) {
    return emit(R, op, t, 1, &x, at, pos);
}

static Operand emit2(Rank *R, Op op, Type t, Operand x, Operand y, SrcPos pos) {
    Operand a[2] = {x, y};
    return emit(R, op, t, 2, a, NULL, pos);
}

static Type otype_of(Rank *R, Operand o) {
    if (o.kind == OPD_VALUE && o.id < R->n0) return R->otype[o.id];
    return operand_type(R->f, o);
}

static int is_block(Rank *R, Operand o) {
    return o.kind == OPD_VALUE && o.id < R->n0 && R->otype[o.id].rank > 0;
}

static Operand find_memo(Rank *R, int kind, int v, const View *w) {
    for (int i = R->nmemo - 1; i >= 0; i--) {
        const Memo *m = &R->memo[i];
        if (m->kind == kind && m->v == v && (!w || view_eq(&m->view, w))) return m->o;
    }
    return opd_none();
}

static Operand add_memo(Rank *R, int kind, int v, const View *w, Operand o) {
    if (R->nmemo == R->cmemo) {
        int c = R->cmemo ? 2 * R->cmemo : 64;
        Memo *m = ARENA_ARRAY(R->a, Memo, c);
        if (R->nmemo) memcpy(m, R->memo, sizeof(Memo) * (size_t)R->nmemo);
        R->memo = m;
        R->cmemo = c;
    }
    Memo *m = &R->memo[R->nmemo++];
    memset(m, 0, sizeof *m);
    m->kind = kind;
    m->v = v;
    m->depth = R->depth;
    if (w) m->view = *w;
    m->o = o;
    return o;
}

/* A block of shape F made from o (which broadcasts to F): a splat, an
 * expand_dims of a rank-1 row, a broadcast; pointers by adding zeros. */
static Operand exact(Rank *R, Operand o, Type F, SrcPos pos) {
    Type G = operand_type(R->f, o);
    if (F.rank == 0 || (G.rank > 0 && same_shape(G, F))) return o;
    Type want = shape_of(G, F.rank, F.dims);
    if (G.ptr) {
        Attrs z = {0};
        z.rank = F.rank;
        for (int k = 0; k < F.rank; k++) z.shape[k] = F.dims[k];
        z.dtype = DT_I32;
        Operand zero =
            emit(R, OP_ZEROS, shape_of(type_scalar(DT_I32), F.rank, F.dims), 0, NULL, &z, pos);
        return emit2(R, OP_ADDPTR, want, o, zero, pos);
    }
    if (G.rank == 1 && F.rank == 2) {
        Attrs e = {0};
        e.axis = 0;
        int32_t d[2] = {1, G.dims[0]};
        o = emit1(R, OP_EXPAND_DIMS, shape_of(G, 2, d), o, &e, pos);
        G = shape_of(G, 2, d);
        if (same_shape(G, F)) return o;
    }
    Attrs b = {0};
    b.rank = F.rank;
    for (int k = 0; k < F.rank; k++) b.shape[k] = F.dims[k];
    return emit1(R, OP_BROADCAST, want, o, &b, pos);
}

/* o's elements (row-major) as a block of shape F of the same count. */
static Operand flat_reshape(Rank *R, Operand o, Type F, SrcPos pos) {
    Type G = operand_type(R->f, o);
    if (same_shape(G, F)) return o;
    Type want = shape_of(G, F.rank, F.dims);
    if (G.rank == 1 && F.rank == 2 && (F.dims[0] == 1 || F.dims[1] == 1)) {
        Attrs e = {0};
        e.axis = F.dims[1] == 1 ? 1 : 0;
        return emit1(R, OP_EXPAND_DIMS, want, o, &e, pos);
    }
    Attrs s = {0};
    s.rank = F.rank;
    for (int k = 0; k < F.rank; k++) s.shape[k] = F.dims[k];
    return emit1(R, OP_RESHAPE, want, o, &s, pos);
}

/* ---- index chains ------------------------------------------------------ */

static int elementwise(Op op) {
    if (op == OP_COUNT) return 0; /* no defining item (a region's value) */
    return op_info(op)->rule != TR_SPECIAL || op == OP_CAST || op == OP_BITCAST || op == OP_HINT ||
           op == OP_ADDPTR || op == OP_INT_TO_PTR || op == OP_PTR_TO_INT;
}

/* Whether a reshape between x and y only adds or drops axes of 1. */
static int squeeze_like(Type x, Type y) {
    int i = 0, j = 0;
    for (;;) {
        while (i < x.rank && x.dims[i] == 1) i++;
        while (j < y.rank && y.dims[j] == 1) j++;
        if (i == x.rank || j == y.rank) return i == x.rank && j == y.rank;
        if (x.dims[i++] != y.dims[j++]) return 0;
    }
}

static int chain_size(Rank *R, int v, int budget) {
    if (v >= R->n0 || R->otype[v].rank == 0) return 0;
    const Inst *d = &R->odef[v];
    if (d->op == OP_COUNT) return -1; /* a region's argument or result */
    int n = 1;
    switch (d->op) {
    case OP_ARANGE:
    case OP_ZEROS: return 1;
    case OP_FULL: return 1; /* a scalar operand */
    case OP_RESHAPE:
        if (!is_block(R, d->args[0]) || !squeeze_like(R->otype[d->args[0].id], R->otype[v]))
            return -1;
        break;
    case OP_EXPAND_DIMS:
    case OP_TRANS:
    case OP_BROADCAST:
    case OP_TAKE:
    case OP_SPLIT: break;
    default:
        if (!elementwise(d->op)) return -1;
        break;
    }
    if (d->op == OP_TAKE && !(d->attrs.flag & RED_AXIS)) return -1;
    for (int k = 0; k < d->nargs; k++) {
        Operand o = d->args[k];
        if (!is_block(R, o)) continue;
        int m = chain_size(R, o.id, budget - n);
        if (m < 0) return -1;
        n += m;
        if (n > budget) return -1;
    }
    return n;
}

static int is_chain(Rank *R, int v) {
    if (!R->chain[v]) R->chain[v] = chain_size(R, v, MAX_CHAIN) > 0 ? 1 : -1;
    return R->chain[v] > 0;
}

/* The i32 coordinate `m` of the elements of the target (w->n, w->tdims)
 * at its fold: a block that broadcasts to the fold. */
static Operand coord(Rank *R, const View *w, int m, SrcPos pos) {
    if (w->tdims[m] == 1) return opd_const(const_i32(0));
    View key = {0};
    key.n = w->n;
    memcpy(key.tdims, w->tdims, sizeof key.tdims);
    key.s = m;
    Operand o = find_memo(R, M_COORD, 0, &key);
    if (o.kind != OPD_NONE) return o;
    int n = w->n;
    Type i32 = type_scalar(DT_I32);
    Attrs ar = {0};
    ar.start = 0;
    int along_rows = n >= 2 && m < n - 1;
    int64_t rows = 1;
    for (int k = 0; k + 1 < n; k++) rows *= w->tdims[k];
    int32_t len = along_rows ? (int32_t)rows : w->tdims[m];
    ar.end = len;
    o = emit(R, OP_ARANGE, shape_of(i32, 1, &len), 0, NULL, &ar, pos);
    if (n >= 2) {
        Attrs e = {0};
        e.axis = along_rows ? 1 : 0;
        int32_t d[2] = {along_rows ? len : 1, along_rows ? 1 : len};
        o = emit1(R, OP_EXPAND_DIMS, shape_of(i32, 2, d), o, &e, pos);
    }
    if (along_rows && n > 2) {
        Type t = operand_type(R->f, o);
        int64_t below = 1, above = 1;
        for (int k = m + 1; k + 1 < n; k++) below *= w->tdims[k];
        for (int k = 0; k < m; k++) above *= w->tdims[k];
        if (below > 1) o = emit2(R, OP_FLOORDIV, t, o, opd_const(const_i32(below)), pos);
        if (above > 1) o = emit2(R, OP_MOD, t, o, opd_const(const_i32(w->tdims[m])), pos);
    }
    return add_memo(R, M_COORD, 0, &key, o);
}

static Operand move(Rank *R, Operand o, const View *w, SrcPos pos);
static Operand get(Rank *R, Operand o, SrcPos pos);

/* The target's shape at its fold with the element type of t. */
static Type target(const View *w, Type t) { return fold(shape_of(t, w->n, w->tdims)); }

/* v's elements moved through w by an exchange (a remap op), or by a
 * reshape where w keeps the row-major order. `src` holds v's elements in
 * the row-major order of the logical shape L. */
static Operand data_remap(Rank *R, Operand src, Type L, const View *w, SrcPos pos) {
    int64_t st[MT_MAX_RANK], tst[MT_MAX_RANK];
    strides(L.dims, L.rank, st);
    strides(w->tdims, w->n, tst);
    Type F = target(w, L);
    Attrs at = {0};
    at.rank = F.rank;
    for (int k = 0; k < F.rank; k++) at.shape[k] = F.dims[k];
    at.nv = w->n;
    int64_t off = 0, vst[MT_MAX_RANK] = {0};
    for (int k = 0; k < w->s; k++) {
        if (w->map[k] < 0) off += (int64_t)w->off[k] * st[k];
        else vst[w->map[k]] += st[k];
    }
    int identity = off == 0 && type_numel(F) == type_numel(L);
    for (int m = 0; m < w->n; m++) {
        at.vdims[m] = w->tdims[m];
        at.vstride[m] = (int32_t)vst[m];
        if (w->tdims[m] > 1 && vst[m] != tst[m]) identity = 0;
    }
    at.voff = (int32_t)off;
    if (identity) return flat_reshape(R, src, F, pos);
    return emit1(R, OP_REMAP, F, src, &at, pos);
}

/* v moved through w along its defining item (an index chain or a block of
 * pointers): the item made again at the target. */
static Operand through(Rank *R, int v, const View *w, SrcPos pos) {
    const Inst *d = &R->odef[v];
    Type V = R->otype[v];
    View u = *w;
    switch (d->op) {
    case OP_ARANGE: {
        if (w->map[0] < 0) return opd_const(const_i32((int64_t)d->attrs.start + w->off[0]));
        Operand c = coord(R, w, w->map[0], pos);
        if (d->attrs.start == 0) return c;
        return emit2(R, OP_ADD, operand_type(R->f, c), c, opd_const(const_i32(d->attrs.start)),
                     pos);
    }
    case OP_ZEROS:
    case OP_FULL: {
        Type F = target(w, V);
        Attrs at = d->attrs;
        at.rank = F.rank;
        for (int k = 0; k < MT_MAX_RANK; k++) at.shape[k] = k < F.rank ? F.dims[k] : 0;
        return emit(R, d->op, F, d->nargs, d->args, &at, pos);
    }
    case OP_EXPAND_DIMS:
        u.s = w->s - 1;
        for (int j = 0; j < u.s; j++) {
            int k = j < d->attrs.axis ? j : j + 1;
            u.map[j] = w->map[k];
            u.off[j] = w->off[k];
        }
        return move(R, d->args[0], &u, pos);
    case OP_RESHAPE: { /* axes of 1 added or dropped (squeeze_like) */
        Type X = R->otype[d->args[0].id];
        int j = 0;
        u.s = X.rank;
        for (int k = 0; k < X.rank; k++) {
            if (X.dims[k] == 1) {
                u.map[k] = -1, u.off[k] = 0;
                continue;
            }
            while (V.dims[j] == 1) j++;
            u.map[k] = w->map[j];
            u.off[k] = w->off[j];
            j++;
        }
        return move(R, d->args[0], &u, pos);
    }
    case OP_TRANS:
        for (int k = 0; k < V.rank; k++) {
            int p = V.rank == 2 ? 1 - k : d->attrs.perm[k];
            u.map[p] = w->map[k];
            u.off[p] = w->off[k];
        }
        return move(R, d->args[0], &u, pos);
    case OP_BROADCAST: {
        Type X = otype_of(R, d->args[0]);
        if (X.rank == 0) return get(R, d->args[0], pos);
        u.s = X.rank;
        for (int k = 0; k < X.rank; k++) {
            u.map[k] = X.dims[k] == 1 ? -1 : w->map[k];
            u.off[k] = X.dims[k] == 1 ? 0 : w->off[k];
        }
        return move(R, d->args[0], &u, pos);
    }
    case OP_TAKE: /* the source has the axis at attrs.axis, fixed at attrs.start */
    case OP_SPLIT: {
        int axis = d->op == OP_TAKE ? d->attrs.axis : V.rank;
        int at = d->op == OP_TAKE ? d->attrs.start : d->attrs.axis;
        u.s = w->s + 1;
        for (int k = 0; k < u.s; k++) {
            if (k == axis) {
                u.map[k] = -1, u.off[k] = at;
                continue;
            }
            int j = k < axis ? k : k - 1;
            u.map[k] = w->map[j];
            u.off[k] = w->off[j];
        }
        return move(R, d->args[0], &u, pos);
    }
    default: break;
    }
    if (elementwise(d->op)) {
        Operand args[MT_MAX_OPERANDS];
        Type shape = type_scalar(DT_NONE);
        for (int k = 0; k < d->nargs; k++) {
            Operand o = d->args[k];
            if (is_block(R, o)) {
                View x = compose_bcast(w, V, R->otype[o.id]);
                args[k] = move(R, o, &x, pos);
            } else {
                args[k] = o;
            }
            Type s2;
            if (args[k].kind != OPD_NONE &&
                shape_broadcast(shape, operand_type(R->f, args[k]), &s2))
                shape = s2;
        }
        Type t = shape_of(V, shape.rank, shape.dims);
        return emit(R, d->op, t, d->nargs, args, &d->attrs, pos);
    }
    mt_error(R->ctx, d->op == OP_COUNT ? pos : d->pos,
             "a block of pointers of rank %d that is not an address computed from a pointer and "
             "offsets (here %s) cannot be broadcast or rearranged yet",
             (int)V.rank,
             d->op == OP_COUNT ? "a loop-carried or branch "
                                 "value"
                               : op_info(d->op)->name);
    R->failed = 1;
    return R->rep[v].o;
}

/* o's value at the target of w: an operand that broadcasts to the
 * target's fold (an index chain may not depend on every target index). */
static Operand move(Rank *R, Operand o, const View *w, SrcPos pos) {
    if (!is_block(R, o)) return o;
    int v = o.id;
    Operand r = find_memo(R, M_VIEW, v, w);
    if (r.kind != OPD_NONE) return r;
    if (is_chain(R, v) || R->otype[v].ptr) r = through(R, v, w, pos);
    else r = data_remap(R, R->rep[v].o, R->otype[v], w, pos);
    return add_memo(R, M_VIEW, v, w, r);
}

/* o at exactly its fold. */
static Operand get(Rank *R, Operand o, SrcPos pos) {
    if (!is_block(R, o)) return o;
    int v = o.id;
    Type want = fold(R->otype[v]);
    const Rep *p = &R->rep[v];
    if (same_shape(p->t, want)) return p->o;
    Operand r = find_memo(R, M_EXACT, v, NULL);
    if (r.kind != OPD_NONE) return r;
    if ((p->t.rank == 1 && want.rank == 2 && (want.dims[0] == 1 || want.dims[1] == 1)) ||
        (!R->otype[v].ptr && !is_chain(R, v))) {
        r = flat_reshape(R, p->o, want, pos);
    } else {
        View id = broadcast_view(R->otype[v], R->otype[v]);
        for (int k = 0; k < id.s; k++) id.map[k] = (int8_t)k; /* axes of 1 too */
        r = exact(R, move(R, o, &id, pos), want, pos);
    }
    return add_memo(R, M_EXACT, v, NULL, r);
}

/* A rank-1 block used in an op of a rank-2 shape F as its row (1, N): the
 * frontend's form (Triton's broadcasting adds the leading axis), which the
 * backends expect. */
static Operand as_row(Rank *R, Operand o, Type F, SrcPos pos) {
    Type G = operand_type(R->f, o);
    if (F.rank != 2 || G.rank != 1) return o;
    int32_t d[2] = {1, G.dims[0]};
    return flat_reshape(R, o, shape_of(G, 2, d), pos);
}

/* o as an operand of an elementwise op of logical shape S. */
static Operand bcast(Rank *R, Operand o, Type S, SrcPos pos) {
    if (!is_block(R, o)) return o;
    int v = o.id;
    Type T = R->otype[v], F = fold(S);
    if (compat(R->rep[v].t, T, S)) return as_row(R, R->rep[v].o, F, pos);
    if (compat(fold(T), T, S)) return as_row(R, get(R, o, pos), F, pos);
    View w = broadcast_view(S, T);
    return as_row(R, move(R, o, &w, pos), F, pos);
}

/* ---- items --------------------------------------------------------------- */

static void set_rep(Rank *R, int v, Operand o) {
    R->rep[v].o = o;
    R->rep[v].t = operand_type(R->f, o);
}

/* An item kept with a new type (its result's Rep is itself). */
static void keep(Rank *R, Inst *in, Type t) {
    in->type = t;
    if (in->result >= 0) {
        R->f->types[in->result] = t;
        set_rep(R, in->result, opd_value(in->result));
    }
    ptrvec_push(R->a, R->cur, in);
}

/* The logical shape of a store's or a result's elements. */
static Type use_shape(Rank *R, const Inst *in) {
    if (in->result >= 0) return R->otype[in->result];
    Type shape = type_scalar(DT_NONE);
    for (int k = 0; k < in->nargs; k++) {
        Type s2;
        if (in->args[k].kind != OPD_NONE && shape_broadcast(shape, otype_of(R, in->args[k]), &s2))
            shape = s2;
    }
    return shape;
}

static void lower_elementwise(Rank *R, Inst *in) {
    Type S = use_shape(R, in), F = fold(S);
    if (in->op == OP_PRINT && S.rank > 2) { /* device_print shows the logical indices */
        in->attrs.rank = S.rank;
        for (int k = 0; k < S.rank; k++) in->attrs.shape[k] = S.dims[k];
    }
    Type shape = type_scalar(DT_NONE);
    int first = -1;
    for (int k = 0; k < in->nargs; k++) {
        Operand o = in->args[k];
        if (o.kind == OPD_NONE) continue;
        in->args[k] = bcast(R, o, S, in->pos);
        if (first < 0 && in->args[k].kind != OPD_CONST) first = k;
        Type s2;
        if (shape_broadcast(shape, operand_type(R->f, in->args[k]), &s2)) shape = s2;
    }
    /* a result must hold every element: operands recomputed from fewer
     * coordinates than the result has broadcast to it */
    if (in->result >= 0 && !same_shape(shape, F) && first >= 0)
        in->args[first] = exact(R, in->args[first], F, in->pos);
    keep(R, in, in->result >= 0 ? shape_of(in->type, F.rank, F.dims) : in->type);
}

/* The view of x (logical shape X) with `axis` moved last. */
static View axis_last(Type X, int axis) {
    View w = {0};
    w.n = X.rank;
    w.s = X.rank;
    int m = 0;
    for (int k = 0; k < X.rank; k++)
        if (k != axis) {
            w.tdims[m] = X.dims[k];
            w.map[k] = (int8_t)m++;
        }
    w.tdims[m] = X.dims[axis];
    w.map[axis] = (int8_t)m;
    return w;
}

/* Reductions, scans and take of a block of rank 3 or more. */
static void lower_reduce(Rank *R, Inst *in) {
    Operand x = in->args[0];
    Type X = R->otype[x.id], S = R->otype[in->result];
    int axis = in->attrs.axis;
    if (in->op == OP_TAKE) {
        View w = {0};
        w.n = S.rank;
        for (int m = 0; m < S.rank; m++) w.tdims[m] = S.dims[m];
        w.s = X.rank;
        for (int k = 0; k < X.rank; k++) {
            if (k == axis) w.map[k] = -1, w.off[k] = in->attrs.start;
            else w.map[k] = (int8_t)(k < axis ? k : k - 1);
        }
        Operand r = exact(R, move(R, x, &w, in->pos), fold(S), in->pos);
        set_rep(R, in->result, r);
        return;
    }
    int scan = op_has(in->op, OPF_SCAN);
    if (axis < 0 || axis == X.rank - 1) {
        in->args[0] = get(R, x, in->pos);
        if (axis >= 0) in->attrs.axis = 1;
    } else {
        View w = axis_last(X, axis);
        in->args[0] = exact(R, move(R, x, &w, in->pos), target(&w, X), in->pos);
        in->attrs.axis = 1;
    }
    Type t;
    const char *err;
    Type arg = operand_type(R->f, in->args[0]);
    if (!op_result_type_ex(R->a, in->op, NULL, &arg, NULL, &in->attrs, &t, &err)) {
        mt_error(R->ctx, in->pos, "internal error: the rank lowering of %s: %s",
                 op_info(in->op)->name, err);
        R->failed = 1;
        return;
    }
    keep(R, in, t);
    if (!scan || axis < 0 || axis == X.rank - 1) return;
    /* the scan's result with `axis` last, back in X's order */
    View back = {0};
    back.n = X.rank;
    for (int m = 0; m < X.rank; m++) back.tdims[m] = X.dims[m];
    View fwd = axis_last(X, axis);
    back.s = X.rank;
    for (int k = 0; k < X.rank; k++) back.map[fwd.map[k]] = (int8_t)k;
    Type P = shape_of(X, fwd.n, fwd.tdims);
    set_rep(R, in->result, data_remap(R, opd_value(in->result), P, &back, in->pos));
}

static void lower_block(Rank *R, Block *b, Operand *yields, int nyields);

static void lower_region(Rank *R, Inst *in) {
    Loop *l = in->loop;
    for (int i = 0; i < l->ncarried; i++) l->inits[i] = get(R, l->inits[i], in->pos);
    for (int i = 0; i < l->ncarried; i++) {
        int v = l->args[i];
        R->f->types[v] = fold(R->otype[v]);
        set_rep(R, v, opd_value(v));
    }
    if (in->op == OP_WHILE) lower_block(R, &l->before, NULL, 0);
    lower_block(R, &l->body, l->yields, l->nyields);
    if (in->op == OP_IF) lower_block(R, &l->orelse, l->else_yields, l->nyields);
    for (int i = 0; i < l->nresults; i++) {
        int v = l->results[i];
        R->f->types[v] = fold(R->otype[v]);
        set_rep(R, v, opd_value(v));
    }
    ptrvec_push(R->a, R->cur, in);
}

static void lower_item(Rank *R, Inst *in) {
    int v = in->result;
    Type S = v >= 0 ? R->otype[v] : type_scalar(DT_NONE);
    switch (in->op) {
    case OP_FOR:
    case OP_WHILE:
    case OP_IF: lower_region(R, in); return;
    case OP_PROGRAM_ID:
    case OP_NUM_PROGRAMS:
    case OP_ARANGE:
    case OP_DEBUG_BARRIER:
    case OP_EMPTY:
    case OP_ZEROS:
    case OP_FULL: {
        Type F = fold(S);
        if (in->op == OP_EMPTY || in->op == OP_ZEROS || in->op == OP_FULL) {
            in->attrs.rank = F.rank;
            for (int k = 0; k < MT_MAX_RANK; k++) in->attrs.shape[k] = k < F.rank ? F.dims[k] : 0;
        }
        keep(R, in, v >= 0 ? F : in->type);
        return;
    }
    case OP_EXPAND_DIMS:
    case OP_RESHAPE:                          /* the same elements in the same order */
        if (!is_block(R, in->args[0])) break; /* a scalar's splat */
        R->rep[v] = R->rep[in->args[0].id];
        R->f->defs[v] = NULL;
        return;
    case OP_TRANS:
    case OP_BROADCAST: {
        if (S.rank <= 2) break;
        View w = broadcast_view(S, S);
        if (in->op == OP_TRANS) {
            w.s = S.rank;
            for (int k = 0; k < S.rank; k++) w.map[in->attrs.perm[k]] = (int8_t)k;
        } else {
            w = broadcast_view(S, otype_of(R, in->args[0]));
        }
        set_rep(R, v, exact(R, move(R, in->args[0], &w, in->pos), fold(S), in->pos));
        R->f->defs[v] = NULL;
        return;
    }
    case OP_JOIN:
        if (S.rank <= 2) break;
        for (int k = 0; k < 2; k++) {
            Operand o = in->args[k];
            Type t = R->otype[o.id];
            int32_t n = (int32_t)type_numel(t);
            if (t.ptr) {
                mt_error(R->ctx, in->pos,
                         "tl.join of blocks of pointers of rank %d is not "
                         "supported yet",
                         (int)t.rank);
                R->failed = 1;
                return;
            }
            in->args[k] = flat_reshape(R, R->rep[o.id].o, shape_of(t, 1, &n), in->pos);
        }
        keep(R, in, fold(S));
        return;
    case OP_SPLIT: {
        Type X = otype_of(R, in->args[0]);
        if (X.rank <= 2) break;
        in->args[0] = get(R, in->args[0], in->pos);
        int32_t n = (int32_t)type_numel(S);
        keep(R, in, shape_of(S, 1, &n));
        return;
    }
    case OP_XOR_SHUFFLE:
        in->args[0] = get(R, in->args[0], in->pos);
        keep(R, in, fold(S));
        return;
    case OP_SUM:
    case OP_MAX:
    case OP_MIN:
    case OP_ARGMAX:
    case OP_ARGMIN:
    case OP_CUMSUM:
    case OP_CUMPROD:
    case OP_TAKE:
    case OP_XOR_SUM:
        if (otype_of(R, in->args[0]).rank <= 2) break;
        lower_reduce(R, in);
        return;
    case OP_DOT: {
        Type X = otype_of(R, in->args[0]);
        for (int k = 0; k < 3; k++) in->args[k] = get(R, in->args[k], in->pos);
        if (X.rank == 3) in->attrs.axis = X.dims[0];
        keep(R, in, fold(S));
        return;
    }
    case OP_REMAP:
    case OP_GATHER: break;
    default:
    case OP_INLINE_ASM_VOLATILE: lower_elementwise(R, in); return;
    case OP_COUNT: break;
    }
    /* rank <= 2 throughout: the operands at their folds */
    for (int k = 0; k < in->nargs; k++) in->args[k] = get(R, in->args[k], in->pos);
    keep(R, in, v >= 0 ? fold(S) : in->type);
}

static void lower_block(Rank *R, Block *b, Operand *yields, int nyields) {
    PtrVec items = b->items, *saved = R->cur;
    memset(&b->items, 0, sizeof b->items);
    R->cur = &b->items;
    int nmemo = R->nmemo;
    R->depth++;
    for (int i = 0; i < items.len && !R->failed; i++) lower_item(R, items.items[i]);
    for (int i = 0; i < nyields; i++) yields[i] = get(R, yields[i], srcpos(0, 0));
    R->depth--;
    R->nmemo = nmemo;
    R->cur = saved;
}

/* ---- the pass ---------------------------------------------------------- */

int rank_needs_lowering(const Function *f) {
    for (int v = 0; v < f->nvalues; v++)
        if (f->defs[v] && f->types[v].rank > 2) return 1;
    return 0;
}

static void copy_defs(Rank *R, const Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        if (in->result >= 0) R->odef[in->result] = *in;
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++) copy_defs(R, sub[k]);
    }
}

int pass_rank(MtContext *ctx, Function *f) {
    Rank R = {0};
    R.ctx = ctx;
    R.a = ctx->arena;
    R.f = f;
    R.n0 = f->nvalues;
    R.otype = ARENA_ARRAY(R.a, Type, R.n0 + 1);
    R.odef = ARENA_ARRAY(R.a, Inst, R.n0 + 1);
    R.rep = ARENA_ARRAY(R.a, Rep, R.n0 + 1);
    R.chain = ARENA_ARRAY(R.a, signed char, R.n0 + 1);
    for (int v = 0; v < R.n0; v++) {
        R.otype[v] = f->types[v];
        R.odef[v].op = OP_COUNT;
        R.rep[v].o = opd_value(v);
        R.rep[v].t = fold(f->types[v]);
    }
    copy_defs(&R, &f->body);
    lower_block(&R, &f->body, NULL, 0);
    if (R.failed) return 0;
    for (int v = 0; v < R.n0; v++) f->types[v] = fold(f->types[v]);
    /* the items whose uses moved to values made for them (index chains
     * recomputed at their uses, views of the same elements) go, at every
     * level: the tile analysis reads every item's shape */
    PassStats st = {0};
    pass_dce(R.a, f, &st);
    return 1;
}
