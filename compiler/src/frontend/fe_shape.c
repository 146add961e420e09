/* Triton's shape functions (triton/language/core.py), as functions and as
 * methods of blocks: tl.reshape / tl.view / tl.ravel, tl.trans / x.T /
 * tl.permute, tl.expand_dims, tl.broadcast_to / tl.broadcast, tl.join,
 * tl.split, tl.interleave and tl.cat. Blocks have at most MT_MAX_RANK
 * dimensions (those of rank 3 and more are folded to rank 2 by rank.c after
 * lowering); element order is row-major (tl.view and can_reorder=True keep
 * it too, one of the orders Triton may choose). */
#include "frontend/fe_internal.h"

/* The call's arguments: positional ones (the receiver of a method first)
 * and keywords by parameter name. */
typedef struct ShapeCall {
    const char *fn;
    SrcPos pos;
    Val v[16];
    SrcPos at[16];
    int n;
    Val kw[4];
    SrcPos kw_at[4];
    int kw_given[4];
} ShapeCall;

static void bind(Interp *I, const PyNode *call, const Val *self, const char *fn,
                 const char *const *kwnames, int nkw, ShapeCall *c) {
    memset(c, 0, sizeof *c);
    c->fn = fn;
    c->pos = call->pos;
    if (self) c->v[c->n] = *self, c->at[c->n++] = call->pos;
    const PyVal *args = pyast_list(call, "args");
    for (int j = 0; args && j < args->len; j++) {
        const PyNode *a = fe_list_node(args, j);
        if (!a) fe_fail(I, call->pos, "malformed call");
        if (pyast_isk(a, PK_Starred)) fe_fail(I, a->pos, "*args in calls are not supported");
        if (c->n >= 16) fe_fail(I, a->pos, "%s() takes at most 16 arguments here", fn);
        c->at[c->n] = a->pos;
        c->v[c->n++] = fe_eval(I, a);
    }
    const PyVal *kws = pyast_list(call, "keywords");
    for (int i = 0; kws && i < kws->len; i++) {
        const PyNode *kw = fe_list_node(kws, i);
        const char *name = kw ? pyast_str(kw, "arg") : NULL;
        if (!kw) fe_fail(I, call->pos, "malformed call");
        if (!name) fe_fail(I, kw->pos, "**kwargs in calls are not supported");
        int k = -1;
        for (int p = 0; p < nkw; p++)
            if (strcmp(kwnames[p], name) == 0) k = p;
        if (k < 0) fe_fail(I, kw->pos, "%s() got an unexpected keyword argument '%s'", fn, name);
        if (c->kw_given[k])
            fe_fail(I, kw->pos, "%s() got multiple values for argument '%s'", fn, name);
        c->kw[k] = fe_eval(I, pyast_node(kw, "value"));
        c->kw_at[k] = kw->pos;
        c->kw_given[k] = 1;
    }
}

/* Argument k: positional k, else keyword k (kwnames order), else absent. */
static int arg(const ShapeCall *c, int k, Val *out, SrcPos *at) {
    if (k < c->n) {
        *out = c->v[k], *at = c->at[k];
        return 1;
    }
    if (k < 4 && c->kw_given[k]) {
        *out = c->kw[k], *at = c->kw_at[k];
        return 1;
    }
    return 0;
}

static Expr *need_input(Interp *I, const ShapeCall *c, int k, const char *name) {
    Val v;
    SrcPos at;
    if (!arg(c, k, &v, &at)) fe_fail(I, c->pos, "%s() missing required argument '%s'", c->fn, name);
    return fe_to_expr(I, v, at, c->fn);
}

/* A list of compile-time ints: the positional arguments from `first` on
 * (Triton's *shape / *dims), one tuple or list of them, or keyword `kw`. */
static int int_list(Interp *I, const ShapeCall *c, int first, int kw, const char *what,
                    int64_t *out, int max) {
    const Val *items = c->v + first;
    const SrcPos *at = c->at + first;
    int n = c->n - first;
    SrcPos where = n > 0 ? at[0] : c->pos;
    if (n < 0) n = 0;
    if (n == 0 && kw >= 0 && c->kw_given[kw]) items = &c->kw[kw], n = 1, where = c->kw_at[kw];
    else if (n > 0 && kw >= 0 && c->kw_given[kw])
        fe_fail(I, c->kw_at[kw], "%s() got multiple values for its %s", c->fn, what);
    if (n == 1 && (items[0].kind == V_TUPLE || items[0].kind == V_LIST)) {
        n = items[0].n;
        items = items[0].items;
    }
    if (n > max)
        fe_fail(I, where, "%s: blocks have at most %d dimensions (the %s has %d)", c->fn,
                MT_MAX_RANK, what, n);
    for (int i = 0; i < n; i++) {
        if (items[i].kind != V_INT && items[i].kind != V_BOOL)
            fe_fail(I, where, "%s: the %s must be compile-time ints (item %d is %s)", c->fn, what,
                    i, fe_kind_name(items[i]));
        out[i] = items[i].i;
    }
    return n;
}

static Attrs shape_attrs(Interp *I, const ShapeCall *c, const int64_t *dims, int rank, SrcPos at) {
    Attrs a = {0};
    a.rank = rank;
    for (int i = 0; i < rank; i++) {
        if (dims[i] <= 0 || dims[i] > MT_MAX_NUMEL)
            fe_fail(I, at, "%s: shape dimensions must be between 1 and %d (got %lld)", c->fn,
                    MT_MAX_NUMEL, (long long)dims[i]);
        a.shape[i] = (int32_t)dims[i];
    }
    return a;
}

static int same_shape(Type t, const Attrs *a) {
    if (t.rank != a->rank) return 0;
    for (int i = 0; i < t.rank; i++)
        if (t.dims[i] != a->shape[i]) return 0;
    return 1;
}

/* x broadcast to the shape `a` (a scalar is splat). A block of pointers
 * is offset by zeros of the shape, once the shapes are checked as for
 * any block: addptr broadcasts its pointer operand to its offsets'
 * shape, and the backends follow pointers through addptr chains, not
 * through broadcasts. */
static Expr *broadcast_to(Interp *I, Expr *x, const Attrs *a, const char *fn, SrcPos pos) {
    if (same_shape(x->type, a)) return x;
    if (x->type.ptr) {
        const char *err = broadcast_error(I->a, fn, x->type, a->rank, a->shape);
        if (err) fe_fail(I, pos, "%s", err);
        Attrs z = *a;
        z.dtype = DT_I32;
        Expr *zeros = fe_mk_op(I, OP_ZEROS, fn, pos, 0, NULL, NULL, NULL, &z);
        return fe_mk_op(I, OP_ADDPTR, fn, pos, 2, x, zeros, NULL, NULL);
    }
    return fe_mk_op(I, OP_BROADCAST, fn, pos, 1, x, NULL, NULL, a);
}

static Expr *reshape(Interp *I, Expr *x, const Attrs *a, const char *fn, SrcPos pos) {
    if (same_shape(x->type, a)) return x;
    if (x->type.rank == 0) {
        /* a scalar: a splat of one element (Triton reshapes tensors only,
         * and a scalar is a one-element one) */
        if (type_numel(type_with_shape(x->type, a->rank, a->shape)) != 1)
            fe_fail(I, pos, "%s cannot change the number of elements: a scalar has 1", fn);
        return fe_mk_op(I, OP_BROADCAST, fn, pos, 1, x, NULL, NULL, a);
    }
    return fe_mk_op(I, OP_RESHAPE, fn, pos, 1, x, NULL, NULL, a);
}

/* Triton's broadcast_impl_value: both to their common shape, the lower
 * rank first given leading axes of 1. */
void fe_broadcast_pair(Interp *I, Expr **a, Expr **b, const char *fn, SrcPos pos) {
    Type ta = (*a)->type, tb = (*b)->type, s;
    if (ta.rank == 0 && tb.rank == 0) return;
    if (ta.rank > 0 && tb.rank > 0) {
        while ((*a)->type.rank < (*b)->type.rank) {
            Attrs at = {0};
            *a = fe_mk_op(I, OP_EXPAND_DIMS, fn, pos, 1, *a, NULL, NULL, &at);
        }
        while ((*b)->type.rank < (*a)->type.rank) {
            Attrs at = {0};
            *b = fe_mk_op(I, OP_EXPAND_DIMS, fn, pos, 1, *b, NULL, NULL, &at);
        }
    }
    if (!shape_broadcast((*a)->type, (*b)->type, &s))
        fe_fail(I, pos, "%s: the shapes %s and %s are incompatible", fn,
                shape_str(I->a, (*a)->type), shape_str(I->a, (*b)->type));
    Attrs at = {0};
    at.rank = s.rank;
    for (int k = 0; k < s.rank; k++) at.shape[k] = s.dims[k];
    *a = broadcast_to(I, *a, &at, fn, pos);
    *b = broadcast_to(I, *b, &at, fn, pos);
}

static Val pair(Interp *I, Expr *a, Expr *b) {
    Val v = {0};
    v.kind = V_TUPLE;
    v.n = 2;
    v.items = ARENA_ARRAY(I->a, Val, 2);
    v.items[0] = fe_vexpr(a);
    v.items[1] = fe_vexpr(b);
    return v;
}

/* permute(x, dims) with dims checked as Triton's semantic.permute. */
static Expr *permute(Interp *I, Expr *x, const int64_t *dims, int n, const char *fn, SrcPos pos) {
    int r = x->type.rank;
    if (n != r)
        fe_fail(I, pos,
                "%s: the dims must have as many entries as the block has dimensions (%d, got %d)",
                fn, r, n);
    int seen[MT_MAX_RANK] = {0}, identity = 1;
    for (int i = 0; i < n; i++) {
        if (dims[i] < 0 || dims[i] >= r || seen[dims[i]])
            fe_fail(I, pos, "%s: the dims must be a permutation of 0, ..., %d", fn, r - 1);
        seen[dims[i]] = 1;
        identity &= dims[i] == i;
    }
    if (r < 2 || identity) return x;
    if (r == 2) return fe_mk_op(I, OP_TRANS, fn, pos, 1, x, NULL, NULL, NULL);
    Attrs at = {0};
    at.rank = r;
    for (int i = 0; i < r; i++) at.perm[i] = (int32_t)dims[i];
    return fe_mk_op(I, OP_TRANS, fn, pos, 1, x, NULL, NULL, &at);
}

Expr *fe_transpose(Interp *I, Expr *x, const char *fn, SrcPos pos) {
    static const int64_t swap[2] = {1, 0};
    return permute(I, x, swap, 2, fn, pos);
}

/* tl.expand_dims(input, axis): axis an int or a sequence of them. */
static Val expand_dims_call(Interp *I, const PyNode *call, const Val *self) {
    ShapeCall c;
    SrcPos pos = call->pos;
    int64_t dims[16];
    static const char *const kw[] = {"input", "axis"};
    bind(I, call, self, "tl.expand_dims", kw, 2, &c);
    if (c.n > 2) fe_fail(I, pos, "tl.expand_dims() takes 2 arguments");
    Expr *x = need_input(I, &c, 0, "input");
    Val av;
    SrcPos at;
    if (!arg(&c, 1, &av, &at)) fe_fail(I, pos, "tl.expand_dims() missing required argument 'axis'");
    int n = int_list(I, &c, 1, 1, "axis", dims, MT_MAX_RANK);
    int nd = x->type.rank + n;
    if (nd > MT_MAX_RANK)
        fe_fail(I, at, "tl.expand_dims: blocks have at most %d dimensions (%s with %d new axes)",
                MT_MAX_RANK, type_str(I->a, x->type), n);
    int axes[MT_MAX_RANK];
    for (int i = 0; i < n; i++) {
        if (dims[i] < -nd || dims[i] >= nd)
            fe_fail(I, at, "tl.expand_dims: invalid axis %lld (expected %d <= axis < %d)",
                    (long long)dims[i], -nd, nd);
        axes[i] = (int)(dims[i] < 0 ? dims[i] + nd : dims[i]);
    }
    /* ascending, as Triton inserts them (each axis counts in the result) */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && axes[j - 1] > axes[j]; j--) {
            int t = axes[j];
            axes[j] = axes[j - 1], axes[j - 1] = t;
        }
    for (int i = 1; i < n; i++)
        if (axes[i] == axes[i - 1])
            fe_fail(I, at, "tl.expand_dims received duplicate axes (%d)", axes[i]);
    for (int i = 0; i < n; i++) {
        Attrs a = {0};
        a.axis = axes[i];
        x = fe_mk_op(I, OP_EXPAND_DIMS, "tl.expand_dims", pos, 1, x, NULL, NULL, &a);
    }
    return fe_vexpr(x);
}

static Val cat_call(Interp *I, const PyNode *call, const Val *self) {
    ShapeCall c;
    SrcPos pos = call->pos;
    int64_t dims[16];
    /* Triton's cat may order the elements as it likes (it requires
     * can_reorder=True: only results that do not depend on the order,
     * such as reductions, are defined); here: tl.join(input, other)
     * reshaped, which keeps the elements in their threads where the
     * layout holds a row's pair (layout.c CONV_REGS) */
    static const char *const kw[] = {"input", "other", "can_reorder"};
    bind(I, call, self, "tl.cat", kw, 3, &c);
    if (c.n > 3) fe_fail(I, pos, "tl.cat() takes at most 3 arguments (%d given)", c.n);
    Expr *x = need_input(I, &c, 0, "input");
    Expr *y = need_input(I, &c, 1, "other");
    Val reorder = fe_vint(0);
    SrcPos rat = pos;
    arg(&c, 2, &reorder, &rat);
    if (!fe_is_intlike(reorder) || !reorder.i)
        fe_fail(I, rat, "tl.cat needs can_reorder=True (Triton's cat may reorder the elements)");
    Type tx = x->type, ty = y->type;
    if (tx.rank != 1 || ty.rank != 1)
        fe_fail(I, pos, "tl.cat concatenates two 1-D blocks, as Triton's (got %s and %s)",
                type_str(I->a, tx), type_str(I->a, ty));
    int same = tx.rank == ty.rank && tx.dtype == ty.dtype && tx.ptr == ty.ptr;
    for (int i = 0; same && i < tx.rank; i++) same = tx.dims[i] == ty.dims[i];
    if (!same)
        fe_fail(I, pos, "tl.cat needs two blocks of one shape and dtype (got %s and %s)",
                type_str(I->a, tx), type_str(I->a, ty));
    Expr *j = fe_mk_op(I, OP_JOIN, "tl.cat", pos, 2, x, y, NULL, NULL);
    dims[0] = 2 * (int64_t)tx.dims[0];
    Attrs a = shape_attrs(I, &c, dims, 1, pos);
    return fe_vexpr(reshape(I, j, &a, "tl.cat", pos));
}

Val fe_call_shape(Interp *I, const PyNode *call, Builtin b, const Val *self) {
    ShapeCall c;
    SrcPos pos = call->pos;
    int64_t dims[16];
    switch (b) {
    case B_RESHAPE:
    case B_VIEW: {
        static const char *const kw[] = {"input", "shape", "can_reorder"};
        const char *fn = b == B_VIEW ? "tl.view" : "tl.reshape";
        bind(I, call, self, fn, kw, b == B_VIEW ? 2 : 3, &c);
        Expr *x = need_input(I, &c, 0, "input");
        if (c.kw_given[2] && c.kw[2].kind == V_EXPR)
            fe_fail(I, c.kw_at[2], "%s: can_reorder must be a compile-time bool", fn);
        int n = int_list(I, &c, 1, 1, "shape", dims, MT_MAX_RANK);
        Attrs a = shape_attrs(I, &c, dims, n, pos);
        return fe_vexpr(reshape(I, x, &a, fn, pos));
    }
    case B_RAVEL: {
        static const char *const kw[] = {"x", "can_reorder"};
        bind(I, call, self, "tl.ravel", kw, 2, &c);
        if (c.n > 2) fe_fail(I, pos, "tl.ravel() takes at most 2 arguments");
        Expr *x = need_input(I, &c, 0, "x");
        dims[0] = type_numel(x->type);
        Attrs a = shape_attrs(I, &c, dims, 1, pos);
        return fe_vexpr(reshape(I, x, &a, "tl.ravel", pos));
    }
    case B_TRANS:
    case B_PERMUTE: {
        static const char *const kw[] = {"input", "dims"};
        const char *fn = b == B_TRANS ? "tl.trans" : "tl.permute";
        bind(I, call, self, fn, kw, 2, &c);
        Expr *x = need_input(I, &c, 0, "input");
        int n = int_list(I, &c, 1, 1, "dims", dims, MT_MAX_RANK);
        if (n == 0 && b == B_PERMUTE)
            fe_fail(I, pos, "tl.permute() missing required argument 'dims'");
        if (n == 0) dims[0] = 1, dims[1] = 0, n = 2;
        return fe_vexpr(permute(I, x, dims, n, fn, pos));
    }
    case B_EXPAND_DIMS: return expand_dims_call(I, call, self);
    case B_BROADCAST_TO: {
        static const char *const kw[] = {"input", "shape"};
        bind(I, call, self, "tl.broadcast_to", kw, 2, &c);
        Expr *x = need_input(I, &c, 0, "input");
        int n = int_list(I, &c, 1, 1, "shape", dims, MT_MAX_RANK);
        Attrs a = shape_attrs(I, &c, dims, n, pos);
        return fe_vexpr(broadcast_to(I, x, &a, "tl.broadcast_to", pos));
    }
    case B_BROADCAST:
    case B_JOIN: {
        static const char *const kw_b[] = {"input", "other"}, *const kw_j[] = {"a", "b"};
        const char *fn = b == B_JOIN ? "tl.join" : "tl.broadcast";
        bind(I, call, self, fn, b == B_JOIN ? kw_j : kw_b, 2, &c);
        if (c.n > 2) fe_fail(I, pos, "%s() takes 2 arguments (%d given)", fn, c.n);
        Expr *x = need_input(I, &c, 0, b == B_JOIN ? "a" : "input");
        Expr *y = need_input(I, &c, 1, b == B_JOIN ? "b" : "other");
        fe_broadcast_pair(I, &x, &y, fn, pos);
        if (b == B_BROADCAST) return pair(I, x, y);
        return fe_vexpr(fe_mk_op(I, OP_JOIN, fn, pos, 2, x, y, NULL, NULL));
    }
    case B_INTERLEAVE: {
        /* standard.py's: join(a, b), its last two dimensions merged (two
         * scalars: the joined pair) */
        static const char *const kw[] = {"a", "b"};
        bind(I, call, self, "tl.interleave", kw, 2, &c);
        if (c.n > 2) fe_fail(I, pos, "tl.interleave() takes 2 arguments (%d given)", c.n);
        Expr *x = need_input(I, &c, 0, "a");
        Expr *y = need_input(I, &c, 1, "b");
        fe_broadcast_pair(I, &x, &y, "tl.interleave", pos);
        Expr *j = fe_mk_op(I, OP_JOIN, "tl.interleave", pos, 2, x, y, NULL, NULL);
        int r = j->type.rank;
        if (r == 1) return fe_vexpr(j);
        for (int i = 0; i < r - 2; i++) dims[i] = j->type.dims[i];
        dims[r - 2] = 2 * (int64_t)j->type.dims[r - 2];
        Attrs a = shape_attrs(I, &c, dims, r - 1, pos);
        return fe_vexpr(reshape(I, j, &a, "tl.interleave", pos));
    }
    case B_CAT: return cat_call(I, call, self);
    case B_SPLIT: {
        static const char *const kw[] = {"a"};
        bind(I, call, self, "tl.split", kw, 1, &c);
        if (c.n > 1) fe_fail(I, pos, "tl.split() takes 1 argument (%d given)", c.n);
        Expr *x = need_input(I, &c, 0, "a");
        Attrs a0 = {0}, a1 = {0};
        a1.axis = 1;
        Expr *lo = fe_mk_op(I, OP_SPLIT, "tl.split", pos, 1, x, NULL, NULL, &a0);
        Expr *hi = fe_mk_op(I, OP_SPLIT, "tl.split", pos, 1, x, NULL, NULL, &a1);
        return pair(I, lo, hi);
    }
    default: break;
    }
    fe_fail(I, pos, "unsupported call");
}
