/* Reductions and scans of the builtin library (issue 13): tl.sum, tl.max,
 * tl.min (with return_indices), tl.argmax, tl.argmin, tl.cumsum and
 * tl.cumprod, along an axis of a block of any rank, with Triton's
 * dtype rules (standard.py). A rank-1 full reduction without keep_dims is
 * the seed's op (no attributes); everything else carries Attrs.axis and
 * the RED_* flags (ops.h). */
#include "frontend/fe_internal.h"

/* The axis argument: an int in [-rank, rank) normalized, or -1 for None
 * (when allowed). */
static int red_axis(Interp *I, const Args *A, int k, const char *fn, int rank, int allow_none) {
    if (A->v[k].kind == V_NONE) {
        if (!allow_none) fe_fail(I, A->pos[k], "%s: the axis must be a compile-time int", fn);
        return -1;
    }
    int64_t ax = fe_need_int(I, A->v[k], A->pos[k], "the axis");
    if (ax < -rank || ax >= rank)
        fe_fail(I, A->pos[k],
                "%s: axis %lld is out of range for a block of rank %d (expected %d <= axis < %d)",
                fn, (long long)ax, rank, -rank, rank);
    return (int)(ax < 0 ? ax + rank : ax);
}

static int red_flag(Interp *I, const Args *A, int k, const char *what) {
    return A->v[k].kind != V_NONE && fe_truthy(I, A->v[k], A->pos[k], what);
}

/* Triton's _promote_bfloat16_to_float32. */
static Expr *promote_bf16(Interp *I, Expr *x, SrcPos pos) {
    return x->type.dtype == DT_BF16 ? fe_cast_to(I, x, DT_F32, pos) : x;
}

/* Triton's _pick_sum_dtype: dtype= if given, else integers narrower than 32
 * bits (and bools) in 32 bits of their signedness. */
static Expr *sum_dtype(Interp *I, Expr *x, const Args *A, int k, const char *fn, SrcPos pos) {
    DType dt = (DType)x->type.dtype, to = dt;
    if (A->v[k].kind != V_NONE) to = fe_need_dtype(I, A->v[k], A->pos[k], fn);
    else if (dtype_is_int(dt) && dtype_info(dt)->bits < 32)
        to = dtype_is_unsigned(dt) ? DT_U32 : DT_I32;
    return fe_cast_to(I, x, to, pos);
}

static Expr *mk(Interp *I, Op op, const char *fn, SrcPos pos, Expr *x, int axis, int flags) {
    Attrs at = {0};
    at.axis = axis;
    at.flag = flags;
    int scan = op_has(op, OPF_SCAN);
    /* the seed's form: a rank-1 block to a scalar */
    if (!scan && (op == OP_SUM || op == OP_MAX || op == OP_MIN) && x->type.rank == 1 &&
        !(flags & RED_KEEP_DIMS)) {
        at.axis = 0;
        at.flag = 0;
    } else {
        at.flag |= RED_AXIS;
    }
    return fe_mk_op(I, op, fn, pos, 1, x, NULL, NULL, &at);
}

static Expr *block_operand(Interp *I, const Args *A, const char *fn, SrcPos pos) {
    Expr *x = fe_to_expr(I, A->v[0], A->pos[0], fn);
    if (x->type.ptr || x->type.rank < 1)
        fe_fail(I, pos, "%s needs a block (got %s)", fn, type_str(I->a, x->type));
    /* Triton's blocks have power-of-two dimensions */
    for (int k = 0; k < x->type.rank; k++) {
        int32_t w = x->type.dims[k];
        if ((w & (w - 1)) == 0) continue;
        if (x->type.rank == 1)
            fe_fail(
                I, pos,
                "%s needs a block whose width is a power of two equal to the CUDA block size (got "
                "width %d)",
                fn, (int)w);
        fe_fail(I, pos, "%s needs a block whose dimensions are powers of two (got %s)", fn,
                type_str(I->a, x->type));
    }
    return x;
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

Val fe_reduction(Interp *I, Builtin b, const Args *A, const char *fn, SrcPos pos) {
    Expr *x = block_operand(I, A, fn, pos);
    int rank = x->type.rank;
    switch (b) {
    case B_SUM: {
        int axis = red_axis(I, A, 1, fn, rank, 1);
        int keep = red_flag(I, A, 2, "keep_dims must be a compile-time bool");
        x = sum_dtype(I, promote_bf16(I, x, pos), A, 3, fn, pos);
        return fe_vexpr(mk(I, OP_SUM, fn, pos, x, axis, keep ? RED_KEEP_DIMS : 0));
    }
    case B_MAX:
    case B_MIN: {
        /* input, axis, return_indices, return_indices_tie_break_left, keep_dims */
        int axis = red_axis(I, A, 1, fn, rank, 1);
        int keep = red_flag(I, A, 4, "keep_dims must be a compile-time bool");
        int idx = red_flag(I, A, 2, "return_indices must be a compile-time bool");
        if (A->v[3].kind != V_NONE)
            (void)fe_truthy(I, A->v[3], A->pos[3],
                            "return_indices_tie_break_left must be a compile-time bool");
        x = promote_bf16(I, x, pos);
        Op op = b == B_MAX ? OP_MAX : OP_MIN;
        if (idx) {
            /* the values keep their dtype; the indices are the first
             * position of the extreme (tie_break_left; a valid answer for
             * the "fast" tie rule too) */
            Expr *v = mk(I, op, fn, pos, x, axis, keep ? RED_KEEP_DIMS : 0);
            Expr *ix = mk(I, b == B_MAX ? OP_ARGMAX : OP_ARGMIN, fn, pos, x, axis,
                          keep ? RED_KEEP_DIMS : 0);
            return pair(I, v, ix);
        }
        /* Triton's tl.max / tl.min: a dtype narrower than 32 bits reduces
         * in f32 (floats) or i32 (integers, bools) */
        if (dtype_info((DType)x->type.dtype)->bits < 32)
            x = fe_cast_to(I, x, dtype_is_float((DType)x->type.dtype) ? DT_F32 : DT_I32, pos);
        return fe_vexpr(mk(I, op, fn, pos, x, axis, keep ? RED_KEEP_DIMS : 0));
    }
    case B_ARGMAX:
    case B_ARGMIN: {
        /* input, axis, tie_break_left, keep_dims */
        int axis = red_axis(I, A, 1, fn, rank, 1);
        if (A->v[2].kind != V_NONE)
            (void)fe_truthy(I, A->v[2], A->pos[2], "tie_break_left must be a compile-time bool");
        int keep = red_flag(I, A, 3, "keep_dims must be a compile-time bool");
        x = promote_bf16(I, x, pos);
        return fe_vexpr(mk(I, b == B_ARGMAX ? OP_ARGMAX : OP_ARGMIN, fn, pos, x, axis,
                           keep ? RED_KEEP_DIMS : 0));
    }
    case B_CUMSUM:
    case B_CUMPROD: {
        /* input, axis=0, reverse=False[, dtype=None] */
        int axis = !A->given[1] ? 0 : red_axis(I, A, 1, fn, rank, 0);
        int rev = red_flag(I, A, 2, "reverse must be a compile-time bool");
        x = promote_bf16(I, x, pos);
        if (b == B_CUMSUM) x = sum_dtype(I, x, A, 3, fn, pos);
        return fe_vexpr(
            mk(I, b == B_CUMSUM ? OP_CUMSUM : OP_CUMPROD, fn, pos, x, axis, rev ? RED_REVERSE : 0));
    }
    case B_XOR_SUM: {
        /* input, axis=None, keep_dims=False: Triton's reduce with a ^ b, the
         * dtype kept (no 32-bit widening) */
        int axis = red_axis(I, A, 1, fn, rank, 1);
        int keep = red_flag(I, A, 2, "keep_dims must be a compile-time bool");
        if (dtype_is_float((DType)x->type.dtype))
            fe_fail(I, A->pos[0], "%s is only supported for integers (got %s)", fn,
                    type_str(I->a, x->type));
        if (axis < 0 && rank == 1) axis = 0;
        return fe_vexpr(mk(I, OP_XOR_SUM, fn, pos, x, axis, keep ? RED_KEEP_DIMS : 0));
    }
    default: break;
    }
    fe_fail(I, pos, "%s is not a reduction", fn);
}

/* ---- tl.sort and tl.flip (standard.py) --------------------------------- */

/* Element e of the result (row-major) is x's element e ^ mask. */
static Expr *xor_shuffle(Interp *I, Expr *x, int mask, const char *fn, SrcPos pos) {
    Attrs at = {0};
    at.axis = mask;
    return fe_mk_op(I, OP_XOR_SHUFFLE, fn, pos, 1, x, NULL, NULL, &at);
}

static Val ival(Interp *I, PyKind op, Val a, int64_t b, SrcPos pos) {
    return fe_binop(I, op, a, fe_vint(b), pos);
}

/* arange(0, n) as a block of rank `rank` whose index runs along `axis`
 * (the other dimensions 1): the positions of a sort's or a scan's
 * elements. */
static Expr *axis_index(Interp *I, int n, int rank, int axis, SrcPos pos) {
    Attrs ar = {0};
    ar.start = 0;
    ar.end = n;
    Expr *idx = fe_mk_op(I, OP_ARANGE, "tl.arange", pos, 0, NULL, NULL, NULL, &ar);
    for (int k = 0; k < rank; k++) {
        if (k == axis) continue;
        Attrs ax = {0};
        ax.axis = k;
        idx = fe_mk_op(I, OP_EXPAND_DIMS, "expand_dims", pos, 1, idx, NULL, NULL, &ax);
    }
    return idx;
}

/* tl.flip(x, dim=None) and tl.sort(x, dim=None, descending=False) on a
 * block with power-of-two dimensions (Triton's hypercube).
 * flip moves each element to the mirrored position along `dim`: on a
 * power-of-two axis, position k goes to k ^ (n - 1), one xor_shuffle.
 * sort is Triton's bitonic network (standard.py sort_impl) step by step:
 * each compare-and-swap reads the partner element e ^ 2^i (xor_shuffle)
 * and keeps where((x > y) != (flip ^ is_right), y, x), so NaN, -0.0 and
 * ties come out as Triton's. */
Val fe_sort_flip(Interp *I, Builtin b, const Args *A, const char *fn, SrcPos pos) {
    Expr *x = fe_to_expr(I, A->v[0], A->pos[0], fn);
    int r = x->type.rank;
    if (x->type.ptr || r < 1)
        fe_fail(I, A->pos[0], "%s needs a block (got %s)", fn, type_str(I->a, x->type));
    for (int k = 0; k < r; k++)
        if (x->type.dims[k] & (x->type.dims[k] - 1))
            fe_fail(I, A->pos[0], "%s needs a block whose dimensions are powers of two (got %s)",
                    fn, type_str(I->a, x->type));
    int d = r - 1;
    if (A->v[1].kind != V_NONE) {
        int64_t v = fe_need_int(I, A->v[1], A->pos[1], "the dim");
        if (v < -r || v >= r)
            fe_fail(I, A->pos[1], "%s: dim %lld is out of range for a block of rank %d", fn,
                    (long long)v, r);
        d = (int)(v < 0 ? v + r : v);
    }
    int n = x->type.dims[d];
    if (b == B_FLIP) {
        if (n == 1) return fe_vexpr(x);
        int stride = 1; /* of dimension d in the row-major order */
        for (int k = d + 1; k < r; k++) stride *= x->type.dims[k];
        return fe_vexpr(xor_shuffle(I, x, (n - 1) * stride, fn, pos));
    }
    if (d != r - 1)
        fe_fail(I, A->pos[1],
                "%s: only the last dimension can be sorted, as Triton (got dim %d of "
                "%s)",
                fn, d, type_str(I->a, x->type));
    int desc = red_flag(I, A, 2, "tl.sort: descending must be a compile-time bool");
    if (n == 1) return fe_vexpr(x);
    int log_n = 0;
    while ((1 << log_n) < n) log_n++;
    Val cv = fe_vexpr(axis_index(I, n, r, r - 1, pos));
    for (int stage = 1; stage <= log_n; stage++) {
        /* alternating runs of 2^stage before the last stage, then the order asked for */
        Val flip = stage < log_n ? ival(I, PK_BitAnd, ival(I, PK_RShift, cv, stage, pos), 1, pos)
                                 : fe_vint(desc);
        for (int i = stage - 1; i >= 0; i--) {
            Expr *y = xor_shuffle(I, x, 1 << i, fn, pos);
            Val right = ival(I, PK_BitAnd, i ? ival(I, PK_RShift, cv, i, pos) : cv, 1, pos);
            Val want = fe_binop(I, PK_BitXor, flip, right, pos);
            Val gt = fe_compare(I, PK_Gt, fe_vexpr(x), fe_vexpr(y), pos);
            Expr *swap = fe_to_expr(I, fe_compare(I, PK_NotEq, gt, want, pos), pos, fn);
            x = fe_mk_op(I, OP_SELECT, fn, pos, 3, swap, y, x, NULL);
        }
    }
    return fe_vexpr(x);
}

/* tl.histogram(input, num_bins, mask=None): bin b counts the elements equal
 * to b (a value outside [0, num_bins) counts nowhere, as Triton's NVIDIA
 * lowering; masked-off elements neither), as int32: the sum down the
 * columns of (input[:, None] == arange(0, num_bins)[None, :]) & mask. */
Val fe_histogram(Interp *I, const Args *A, const char *fn, SrcPos pos) {
    Expr *x = fe_to_expr(I, A->v[0], A->pos[0], fn);
    if (x->type.ptr || x->type.rank != 1 || !dtype_is_int((DType)x->type.dtype))
        fe_fail(I, A->pos[0], "%s needs a rank-1 block of integers (got %s)", fn,
                type_str(I->a, x->type));
    int64_t bins = fe_need_int(I, A->v[1], A->pos[1], "num_bins");
    if (bins < 1 || bins > MT_MAX_NUMEL || (bins & (bins - 1)))
        fe_fail(I, A->pos[1], "%s: num_bins must be a power of two (got %lld)", fn,
                (long long)bins);
    Attrs col = {0}, row = {0};
    col.axis = 1;
    row.axis = 0;
    Expr *v = fe_mk_op(I, OP_EXPAND_DIMS, fn, pos, 1, x, NULL, NULL, &col);
    Expr *b = fe_mk_op(I, OP_EXPAND_DIMS, fn, pos, 1, axis_index(I, (int)bins, 1, 0, pos), NULL,
                       NULL, &row);
    Val hit = fe_compare(I, PK_Eq, fe_vexpr(v), fe_vexpr(b), pos);
    if (A->v[2].kind != V_NONE) {
        Expr *m = fe_to_expr(I, A->v[2], A->pos[2], fn);
        if (m->type.ptr || m->type.rank != 1 || m->type.dims[0] != x->type.dims[0] ||
            m->type.dtype != DT_BOOL)
            fe_fail(I, A->pos[2],
                    "%s: the mask must be a block of bools of the input's shape (got "
                    "%s)",
                    fn, type_str(I->a, m->type));
        Expr *mc = fe_mk_op(I, OP_EXPAND_DIMS, fn, pos, 1, m, NULL, NULL, &col);
        hit = fe_binop(I, PK_BitAnd, hit, fe_vexpr(mc), pos);
    }
    Expr *n = fe_cast_to(I, fe_to_expr(I, hit, pos, fn), DT_I32, pos);
    return fe_vexpr(mk(I, OP_SUM, fn, pos, n, 0, 0));
}

/* ---- tl.reduce and tl.associative_scan with a combiner ------------------ */

/* Element `t` along `axis` of x (the reduced shape). */
static Expr *take(Interp *I, const char *fn, SrcPos pos, Expr *x, int axis, int t) {
    Attrs at = {0};
    at.axis = axis;
    at.flag = RED_AXIS;
    at.start = t;
    return fe_mk_op(I, OP_TAKE, fn, pos, 1, x, NULL, NULL, &at);
}

/* The inputs: one block or a tuple of blocks of one shape. */
static int inputs(Interp *I, const Args *A, const char *fn, SrcPos pos, Expr **xs) {
    Val v = A->v[0];
    int n = 1;
    if (v.kind == V_TUPLE || v.kind == V_LIST) {
        n = v.n;
        if (n < 1 || n > 8)
            fe_fail(I, A->pos[0], "%s: 1 to 8 inputs are supported (got %d)", fn, n);
        for (int k = 0; k < n; k++) xs[k] = fe_to_expr(I, v.items[k], A->pos[0], fn);
    } else {
        xs[0] = fe_to_expr(I, v, A->pos[0], fn);
    }
    for (int k = 0; k < n; k++) {
        Type t = xs[k]->type;
        if (t.ptr || t.rank < 1)
            fe_fail(I, pos, "%s needs a block (got %s)", fn, type_str(I->a, t));
        if (!type_eq(
                type_with_shape(t, t.rank, t.dims),
                type_with_shape(type_scalar((DType)t.dtype), xs[0]->type.rank, xs[0]->type.dims)))
            fe_fail(I, pos, "%s: the inputs must have one shape (got %s and %s)", fn,
                    shape_str(I->a, xs[0]->type), shape_str(I->a, t));
    }
    if (A->v[2].kind != V_USERFUNC)
        fe_fail(I, A->pos[2], "%s: combine_fn must be a @triton.jit function (got %s)", fn,
                fe_kind_name(A->v[2]));
    return n;
}

/* acc <- combine_fn(acc..., x...) */
static void combine(Interp *I, const Args *A, const char *fn, SrcPos pos, int n, Expr **acc,
                    Expr **x, int acc_first) {
    Val args[16] = {0};
    for (int k = 0; k < n; k++) {
        args[k] = fe_vexpr(acc_first ? acc[k] : x[k]);
        args[n + k] = fe_vexpr(acc_first ? x[k] : acc[k]);
    }
    Val r = fe_call_function(I, A->v[2], args, 2 * n, pos);
    if (n == 1 && r.kind != V_TUPLE && r.kind != V_LIST) {
        acc[0] = fe_to_expr(I, r, pos, fn);
        return;
    }
    if ((r.kind != V_TUPLE && r.kind != V_LIST) || r.n != n)
        fe_fail(I, A->pos[2], "%s: combine_fn must return %d value%s", fn, n, n == 1 ? "" : "s");
    for (int k = 0; k < n; k++) acc[k] = fe_to_expr(I, r.items[k], pos, fn);
}

static Val result(Interp *I, int n, Expr **r) {
    if (n == 1) return fe_vexpr(r[0]);
    Val v = {0};
    v.kind = V_TUPLE;
    v.n = n;
    v.items = ARENA_ARRAY(I->a, Val, n);
    for (int k = 0; k < n; k++) v.items[k] = fe_vexpr(r[k]);
    return v;
}

/* The stride of dimension `axis` of x in the row-major order. */
static int row_stride(const Expr *x, int axis) {
    int stride = 1;
    for (int k = axis + 1; k < x->type.rank; k++) stride *= x->type.dims[k];
    return stride;
}

/* Bit `bit` of each element's position along `axis` (of a block of rank
 * `rank` and length len there), as a bool block. */
static Expr *position_bit(Interp *I, int len, int rank, int axis, int bit, SrcPos pos) {
    Val cv = fe_vexpr(axis_index(I, len, rank, axis, pos));
    if (bit) cv = ival(I, PK_RShift, cv, bit, pos);
    Val b = ival(I, PK_BitAnd, cv, 1, pos);
    return fe_compare(I, PK_NotEq, b, fe_vint(0), pos).e;
}

static Expr *select(Interp *I, const char *fn, SrcPos pos, Expr *c, Expr *x, Expr *y) {
    return fe_mk_op(I, OP_SELECT, fn, pos, 3, c, x, y, NULL);
}

/* Reduces along `axis` as a tree (combine_fn is associative, as Triton
 * requires; its operands stay in order): at step i, each element is
 * combined with the one whose position differs in bit i (xor_shuffle),
 * the left one first; after log2(len) steps every element holds the
 * whole combination, and element 0 is taken. */
static void fold(Interp *I, const Args *A, const char *fn, SrcPos pos, int n, Expr **xs, int axis,
                 int keep, Expr **acc) {
    int len = xs[0]->type.dims[axis], rank = xs[0]->type.rank;
    int stride = row_stride(xs[0], axis);
    Expr *x[8], *lo[8], *hi[8];
    for (int k = 0; k < n; k++) x[k] = xs[k];
    for (int i = 0; (1 << i) < len; i++) {
        Expr *right = position_bit(I, len, rank, axis, i, pos);
        for (int k = 0; k < n; k++) {
            Attrs at = {0};
            at.axis = (1 << i) * stride;
            Expr *y = fe_mk_op(I, OP_XOR_SHUFFLE, fn, pos, 1, x[k], NULL, NULL, &at);
            lo[k] = select(I, fn, pos, right, y, x[k]);
            hi[k] = select(I, fn, pos, right, x[k], y);
        }
        combine(I, A, fn, pos, n, lo, hi, 1);
        for (int k = 0; k < n; k++) x[k] = lo[k];
    }
    for (int k = 0; k < n; k++) acc[k] = take(I, fn, pos, x[k], axis, 0);
    if (keep)
        for (int k = 0; k < n; k++) {
            if (acc[k]->type.rank == 0)
                fe_fail(I, pos, "%s: keep_dims on a rank-1 block is not supported", fn);
            Attrs at = {0};
            at.axis = axis;
            acc[k] = fe_mk_op(I, OP_EXPAND_DIMS, "expand_dims", pos, 1, acc[k], NULL, NULL, &at);
        }
}

/* tl.associative_scan along `axis` on the hypercube: each element keeps
 * its prefix p and the total t of its group of 2^i elements; at step i
 * the partner group's total t' (xor_shuffle) joins. The new total is
 * combine(left group's, right group's); the prefix takes t' where the
 * partner is on the side the scan comes from (the left where bit i is
 * set; reverse: the right where it is clear): p = combine(t', p), or
 * combine(p, t') reversed. combine_fn's operands stay in position order. */
static void scan(Interp *I, const Args *A, const char *fn, SrcPos pos, int n, Expr **xs, int axis,
                 int rev, Expr **res) {
    int len = xs[0]->type.dims[axis], rank = xs[0]->type.rank;
    int stride = row_stride(xs[0], axis);
    Expr *p[8], *t[8], *tp[8], *l[8], *r[8], *pl[8], *pr[8];
    for (int k = 0; k < n; k++) p[k] = t[k] = xs[k];
    for (int i = 0; (1 << i) < len; i++) {
        Expr *bit = position_bit(I, len, rank, axis, i, pos);
        for (int k = 0; k < n; k++) {
            Attrs at = {0};
            at.axis = (1 << i) * stride;
            tp[k] = fe_mk_op(I, OP_XOR_SHUFFLE, fn, pos, 1, t[k], NULL, NULL, &at);
            l[k] = select(I, fn, pos, bit, tp[k], t[k]);
            r[k] = select(I, fn, pos, bit, t[k], tp[k]);
            pl[k] = rev ? p[k] : tp[k];
            pr[k] = rev ? tp[k] : p[k];
        }
        combine(I, A, fn, pos, n, l, r, 1);
        combine(I, A, fn, pos, n, pl, pr, 1);
        for (int k = 0; k < n; k++) {
            if (l[k]->type.dtype != xs[k]->type.dtype || pl[k]->type.dtype != xs[k]->type.dtype)
                fe_fail(I, pos, "%s: combine_fn changes the dtype (%s to %s)", fn,
                        dtype_name(xs[k]->type.dtype), dtype_name(l[k]->type.dtype));
            t[k] = l[k];
            p[k] =
                rev ? select(I, fn, pos, bit, p[k], pl[k]) : select(I, fn, pos, bit, pl[k], p[k]);
        }
    }
    for (int k = 0; k < n; k++) res[k] = p[k];
}

Val fe_reduce_fn(Interp *I, Builtin b, const Args *A, const char *fn, SrcPos pos) {
    Expr *xs[8], *acc[8];
    int n = inputs(I, A, fn, pos, xs);
    int rank = xs[0]->type.rank;
    if (b == B_REDUCE) {
        /* input, axis, combine_fn, keep_dims */
        int axis = red_axis(I, A, 1, fn, rank, 1);
        int keep = red_flag(I, A, 3, "keep_dims must be a compile-time bool");
        if (axis < 0 && rank >= 2) {
            /* every element: along the last axis, then the one before, ... */
            for (int d = rank - 1; d >= 0; d--) {
                fold(I, A, fn, pos, n, xs, d, keep, acc);
                for (int k = 0; k < n; k++) xs[k] = acc[k];
            }
        } else {
            fold(I, A, fn, pos, n, xs, axis < 0 ? 0 : axis, keep, acc);
        }
        return result(I, n, acc);
    }
    /* associative_scan: input, axis, combine_fn, reverse */
    int axis = red_axis(I, A, 1, fn, rank, 0);
    int rev = red_flag(I, A, 3, "reverse must be a compile-time bool");
    Expr *res[8];
    scan(I, A, fn, pos, n, xs, axis, rev, res);
    return result(I, n, res);
}
