/* Block pointers (Triton's tl.make_block_ptr / tl.advance and tl.load /
 * tl.store of a block pointer, semantic.py's make_block_ptr, advance,
 * _load_block_pointer and _store_block_pointer). A block pointer is a
 * compile-time value of the interpreter (a BlockPtr: base, shape, strides,
 * offsets, block shape, order); nothing of it reaches the IR until a load
 * or store, which becomes an ordinary load or store of a block of pointers
 * with a mask, as Triton's RewriteTensorPointer pass rewrites them: element
 * (i_0, ..., i_{n-1}) is at base + sum_d (offsets[d] + i_d) * strides[d],
 * in i64, and a dimension d of boundary_check holds it in bounds when
 * 0 <= offsets[d] + i_d < shape[d]. So every backend compiles them
 * unchanged. Runtime loops and ifs carry the offsets (fe_stmt.c). */
#include "frontend/fe_internal.h"

_Noreturn void fe_bp_misuse(Interp *I, SrcPos pos, const char *what) {
    fe_fail(I, pos,
            "%s of a block pointer: block pointers take only tl.load, tl.store and tl.advance "
            "(move one with tl.advance; load it to get a block of values)",
            what);
}

static const BlockPtr *bp_of(Val v) { return v.kind == V_BLOCKPTR ? v.bp : NULL; }

static Val bp_val(const BlockPtr *bp) {
    Val v = {0};
    v.kind = V_BLOCKPTR;
    v.bp = bp;
    return v;
}

/* Two shape/stride/offset entries: the same compile-time int or the same
 * node. */
static int same_entry(Val a, Val b) {
    if (a.kind != b.kind) return 0;
    return a.kind == V_EXPR ? a.e == b.e : a.i == b.i;
}

int fe_bp_same(Val a, Val b) {
    const BlockPtr *x = bp_of(a), *y = bp_of(b);
    if (!x || !y) return 0;
    if (x == y) return 1;
    if (x->rank != y->rank || x->base != y->base || x->desc != y->desc || x->pad != y->pad)
        return 0;
    for (int d = 0; d < x->rank; d++)
        if (!same_entry(x->shape[d], y->shape[d]) || !same_entry(x->strides[d], y->strides[d]) ||
            x->block[d] != y->block[d] || x->order[d] != y->order[d])
            return 0;
    return 1;
}

int fe_bp_equal(Val a, Val b) {
    if (!fe_bp_same(a, b)) return 0;
    for (int d = 0; d < a.bp->rank; d++)
        if (!same_entry(a.bp->offsets[d], b.bp->offsets[d])) return 0;
    return 1;
}

static const char *shape_text(Interp *I, const BlockPtr *bp) {
    StrBuf sb;
    sb_init(&sb, I->a);
    sb_putc(&sb, '(');
    for (int d = 0; d < bp->rank; d++) sb_printf(&sb, "%s%d", d ? ", " : "", bp->block[d]);
    if (bp->rank == 1) sb_putc(&sb, ',');
    sb_putc(&sb, ')');
    return sb_str(&sb);
}

const char *fe_bp_difference(Interp *I, Val a, Val b) {
    const BlockPtr *x = bp_of(a), *y = bp_of(b);
    if (!x || !y) return "one of them is not a block pointer";
    if (x->rank != y->rank) return arena_printf(I->a, "rank %d and rank %d", x->rank, y->rank);
    if (x->base != y->base) return "different base pointers";
    for (int d = 0; d < x->rank; d++) {
        if (x->block[d] != y->block[d])
            return arena_printf(I->a, "block shapes %s and %s", shape_text(I, x), shape_text(I, y));
        if (!same_entry(x->shape[d], y->shape[d]))
            return arena_printf(I->a, "different shapes (dimension %d)", d);
        if (!same_entry(x->strides[d], y->strides[d]))
            return arena_printf(I->a, "different strides (dimension %d)", d);
        if (x->order[d] != y->order[d]) return "different orders";
    }
    return "the same base, shape, strides and block";
}

/* An integer scalar as an i64 node: a compile-time int as a constant, a
 * runtime one widened by its signedness (Triton's create_int_cast). */
static Expr *as_i64(Interp *I, Val v, SrcPos pos) {
    if (v.kind != V_EXPR) return fe_mk_const(I, const_int(DT_I64, v.i), pos);
    return fe_cast_to(I, v.e, DT_I64, pos);
}

Expr *fe_bp_offset(Interp *I, Val bp, int k, SrcPos pos) {
    return as_i64(I, bp.bp->offsets[k], pos);
}

Val fe_bp_with_offsets(Interp *I, Val bp, Expr *const *offs) {
    BlockPtr *n = ARENA_NEW(I->a, BlockPtr);
    *n = *bp.bp;
    for (int d = 0; d < n->rank; d++) n->offsets[d] = fe_vexpr(offs[d]);
    return bp_val(n);
}

/* ---- tl.make_block_ptr and tl.advance ---------------------------------- */

/* A shape/strides/offsets/block_shape/order argument as a list: a tuple or
 * a list, or one value (Triton wraps it in a list). */
static int items_of(Interp *I, Val v, const Val **items) {
    if (v.kind == V_TUPLE || v.kind == V_LIST) {
        *items = v.items;
        return v.n;
    }
    Val *one = ARENA_NEW(I->a, Val);
    *one = v;
    *items = one;
    return 1;
}

/* Entry k of shape or strides (i64 in Triton: any integer), or of offsets
 * (i32 in Triton: a runtime i64 is its error); returned as given, an
 * offset as an i64 node when it is a runtime value. */
static Val entry(Interp *I, Val v, SrcPos pos, const char *fn, const char *what, int k,
                 int offset) {
    if (v.kind == V_BOOL) v = fe_vint(v.i);
    if (v.kind == V_INT) {
        if (v.u64)
            fe_fail(I, pos, "%s: %s[%d] (%llu) does not fit in 64 bits", fn, what, k,
                    (unsigned long long)v.i);
        if (offset && (v.i < INT32_MIN || v.i > INT32_MAX))
            fe_fail(I, pos,
                    "%s: %s[%d] is %lld: block pointers take 32-bit offsets (Triton's rule)", fn,
                    what, k, (long long)v.i);
        return v;
    }
    if (v.kind != V_EXPR)
        fe_fail(I, pos, "%s: %s[%d] must be an integer, not %s", fn, what, k, fe_kind_name(v));
    Type t = v.e->type;
    DType dt = (DType)t.dtype;
    if (t.rank != 0 || t.ptr || !dtype_is_int(dt) || dt == DT_BOOL)
        fe_fail(I, pos, "%s: %s[%d] must be an integer scalar, not %s", fn, what, k,
                type_str(I->a, t));
    if (!offset) return v;
    if (dt == DT_I64 || dt == DT_U64)
        fe_fail(I, pos,
                "%s: %s[%d] is %s: block pointers take 32-bit offsets (Triton's rule; add "
                "`.to(tl.int32)`, or index with a block of pointers for 64-bit offsets)",
                fn, what, k, dtype_name(dt));
    Expr *e = v.e;
    /* Triton passes a u32 as the i32 of its bits, sign-extended later */
    if (dt == DT_U32) {
        Attrs at = {0};
        at.dtype = DT_I32;
        e = fe_mk_op(I, OP_BITCAST, fn, pos, 1, e, NULL, NULL, &at);
    }
    return fe_vexpr(fe_cast_to(I, e, DT_I64, pos));
}

/* A compile-time int list (block_shape, order) of n entries. */
static void const_list(Interp *I, Val v, SrcPos pos, const char *fn, const char *what, int n,
                       int32_t *out) {
    const Val *items;
    int m = items_of(I, v, &items);
    if (m != n)
        fe_fail(I, pos, "%s: %s has %d entr%s but block_shape has %d (they must agree)", fn, what,
                m, m == 1 ? "y" : "ies", n);
    for (int k = 0; k < n; k++) {
        Val x = items[k];
        if (!fe_is_intlike(x))
            fe_fail(I, pos, "%s: %s[%d] must be a compile-time integer, not %s", fn, what, k,
                    fe_kind_name(x));
        if (x.i < INT32_MIN || x.i > INT32_MAX)
            fe_fail(I, pos, "%s: %s[%d] (%lld) does not fit in 32 bits", fn, what, k,
                    (long long)x.i);
        out[k] = (int32_t)x.i;
    }
}

/* A runtime-or-constant list (shape, strides, offsets) of n entries. */
static void value_list(Interp *I, Val v, SrcPos pos, const char *fn, const char *what, int n,
                       int offset, Val *out) {
    const Val *items;
    int m = items_of(I, v, &items);
    if (m != n)
        fe_fail(I, pos, "%s: %s has %d entr%s but block_shape has %d (they must agree)", fn, what,
                m, m == 1 ? "y" : "ies", n);
    for (int k = 0; k < n; k++) out[k] = entry(I, items[k], pos, fn, what, k, offset);
}

/* bp's rank and block from a block_shape argument: compile-time powers of
 * two, 1 to MT_MAX_RANK of them. */
static int block_shape_of(Interp *I, Val v, SrcPos pos, const char *fn, BlockPtr *bp) {
    const Val *items;
    int n = items_of(I, v, &items);
    if (n < 1 || n > MT_MAX_RANK)
        fe_fail(I, pos, "%s: block_shape has %d entries: blocks have 1 to %d dimensions", fn, n,
                MT_MAX_RANK);
    bp->rank = n;
    const_list(I, v, pos, fn, "block_shape", n, bp->block);
    int64_t numel = 1;
    for (int d = 0; d < n; d++) {
        int32_t b = bp->block[d];
        if (b <= 0 || (b & (b - 1)) != 0)
            fe_fail(I, pos, "%s: block_shape[%d] is %d: each must be a power of 2 (Triton's rule)",
                    fn, d, b);
        numel *= b;
        if (numel > MT_MAX_NUMEL)
            fe_fail(I, pos, "%s: the block has more than %d elements", fn, MT_MAX_NUMEL);
    }
    return n;
}

/* The base of a block pointer or a tensor descriptor: a scalar pointer,
 * not to int1. */
static Expr *base_of(Interp *I, Val base, SrcPos pos, const char *fn) {
    if (base.kind != V_EXPR || !base.e->type.ptr || base.e->type.rank != 0)
        fe_fail(I, pos,
                "%s: base must be a scalar pointer (a pointer parameter plus an offset), not %s",
                fn,
                base.kind == V_EXPR       ? type_str(I->a, base.e->type)
                : base.kind == V_BLOCKPTR ? (base.bp->desc ? "a tensor descriptor"
                                                           : "a block "
                                                             "pointer")
                                          : fe_kind_name(base));
    if (base.e->type.dtype == DT_BOOL)
        fe_fail(I, pos,
                "%s: block pointers to int1 are not supported (Triton reads them as int8; pass an "
                "*i8 pointer)",
                fn);
    return base.e;
}

Val fe_make_block_ptr(Interp *I, const Args *A, const char *fn, SrcPos pos) {
    (void)pos; /* each error points at its argument */
    BlockPtr *bp = ARENA_NEW(I->a, BlockPtr);
    bp->base = base_of(I, A->v[0], A->pos[0], fn);
    int n = block_shape_of(I, A->v[4], A->pos[4], fn, bp);
    value_list(I, A->v[1], A->pos[1], fn, "shape", n, 0, bp->shape);
    value_list(I, A->v[2], A->pos[2], fn, "strides", n, 0, bp->strides);
    value_list(I, A->v[3], A->pos[3], fn, "offsets", n, 1, bp->offsets);
    const_list(I, A->v[5], A->pos[5], fn, "order", n, bp->order);
    int seen[MT_MAX_RANK] = {0};
    for (int d = 0; d < n; d++) {
        int o = bp->order[d];
        if (o < 0 || o >= n || seen[o])
            fe_fail(I, A->pos[5], "%s: order must be a permutation of 0 .. %d (got %s)", fn, n - 1,
                    fe_val_str(I, A->v[5], 1));
        seen[o] = 1;
    }
    return bp_val(bp);
}

Val fe_advance(Interp *I, const Args *A, const char *fn, SrcPos pos) {
    const BlockPtr *bp = bp_of(A->v[0]);
    if (bp && bp->desc)
        fe_fail(I, A->pos[0],
                "%s: a tensor descriptor has no offsets to advance (pass the offsets to its "
                "load and store)",
                fn);
    if (!bp)
        fe_fail(I, A->pos[0], "%s needs a block pointer (made by tl.make_block_ptr), not %s", fn,
                A->v[0].kind == V_EXPR ? type_str(I->a, A->v[0].e->type) : fe_kind_name(A->v[0]));
    Val delta[MT_MAX_RANK];
    const Val *items;
    int m = items_of(I, A->v[1], &items);
    if (m != bp->rank)
        fe_fail(I, A->pos[1], "%s: %d offset%s for a block pointer of rank %d", fn, m,
                m == 1 ? "" : "s", bp->rank);
    value_list(I, A->v[1], A->pos[1], fn, "offsets", bp->rank, 1, delta);
    BlockPtr *n = ARENA_NEW(I->a, BlockPtr);
    *n = *bp;
    for (int d = 0; d < bp->rank; d++) {
        Val o = bp->offsets[d], k = delta[d];
        if (k.kind == V_INT && k.i == 0) continue;
        if (o.kind == V_INT && k.kind == V_INT) {
            n->offsets[d] = fe_vint(o.i + k.i); /* both within 32 bits */
            continue;
        }
        Expr *sum = fe_binary_expr(I, OP_ADD, fn, as_i64(I, o, pos), as_i64(I, k, pos), pos, NULL);
        n->offsets[d] = fe_vexpr(sum);
    }
    return bp_val(n);
}

/* ---- Loads and stores ---------------------------------------------------- */

/* boundary_check: an int or a tuple/list of distinct dimensions (Triton's
 * _canonicalize_boundary_check); sets check[d]. */
static void boundary_dims(Interp *I, Val v, SrcPos pos, const char *fn, int rank, int *check) {
    memset(check, 0, sizeof(int) * MT_MAX_RANK);
    if (v.kind == V_NONE) return;
    if (v.kind == V_EXPR || v.kind == V_BLOCKPTR)
        fe_fail(I, pos, "%s: boundary_check must be compile-time dimensions, not %s", fn,
                fe_kind_name(v));
    const Val *items;
    int n = items_of(I, v, &items);
    if ((v.kind == V_TUPLE || v.kind == V_LIST) && n == 0) return;
    for (int k = 0; k < n; k++) {
        Val x = items[k];
        if (x.kind != V_INT)
            fe_fail(I, pos, "%s: boundary_check must hold dimensions (ints), not %s", fn,
                    fe_kind_name(x));
        if (x.i < 0 || x.i >= rank)
            fe_fail(I, pos,
                    "%s: boundary_check names dimension %lld, but the block has %d (0 .. %d)", fn,
                    (long long)x.i, rank, rank - 1);
        if (check[x.i])
            fe_fail(I, pos, "%s: boundary_check names dimension %lld twice", fn, (long long)x.i);
        check[x.i] = 1;
    }
}

/* The block of pointers of a block pointer and the mask of the dimensions
 * in check[] (NULL when none): as Triton's RewriteTensorPointer, per
 * dimension d the i64 index arange(0, block[d]) along axis d plus
 * offsets[d], times strides[d], added to the base; the mask 0 <= index < shape[d]. */
static void addresses(Interp *I, const BlockPtr *bp, const int *check, const char *fn, SrcPos pos,
                      Expr **ptr_out, Expr **mask_out) {
    int n = bp->rank;
    Expr *ptr = bp->base;
    Val mask = vnone();
    for (int d = 0; d < n; d++) {
        Attrs ar = {0};
        ar.start = 0;
        ar.end = bp->block[d];
        Expr *idx = fe_mk_op(I, OP_ARANGE, fn, pos, 0, NULL, NULL, NULL, &ar);
        /* along axis d of the rank-n block; expanded first, so that no
         * rank-1 value but the arange is both rows and columns when two
         * dimensions have the same block size (shape.c) */
        for (int k = 0; k < n; k++) {
            if (k == d) continue;
            Attrs ex = {0};
            ex.axis = k;
            idx = fe_mk_op(I, OP_EXPAND_DIMS, fn, pos, 1, idx, NULL, NULL, &ex);
        }
        idx = fe_cast_to(I, idx, DT_I64, pos);
        Val off = bp->offsets[d];
        if (!(off.kind == V_INT && off.i == 0))
            idx = fe_binary_expr(I, OP_ADD, fn, idx, as_i64(I, off, pos), pos, NULL);
        Val stride = bp->strides[d];
        Expr *term = idx;
        if (!(stride.kind == V_INT && stride.i == 1))
            term = fe_binary_expr(I, OP_MUL, fn, idx, as_i64(I, stride, pos), pos, NULL);
        ptr = fe_mk_op(I, OP_ADDPTR, fn, pos, 2, ptr, term, NULL, NULL);
        if (check[d]) {
            Val in = fe_binop(
                I, PK_BitAnd, fe_compare(I, PK_GtE, fe_vexpr(idx), fe_vint(0), pos),
                fe_compare(I, PK_Lt, fe_vexpr(idx), fe_vexpr(as_i64(I, bp->shape[d], pos)), pos),
                pos);
            mask = mask.kind == V_NONE ? in : fe_binop(I, PK_BitAnd, mask, in, pos);
        }
    }
    *ptr_out = ptr;
    *mask_out = mask.kind == V_NONE ? NULL : mask.e;
}

/* Whether t has bp's block shape. */
static int block_of(Type t, const BlockPtr *bp) {
    int same = t.rank == bp->rank;
    for (int d = 0; same && d < t.rank; d++) same = t.dims[d] == bp->block[d];
    return same;
}

/* A load's padding_option: 0 none (""), 1 "zero", 2 "nan". */
static int padding_of(Interp *I, Val v, SrcPos pos, const char *fn) {
    if (v.kind == V_NONE) return 0;
    if (v.kind != V_STR)
        fe_fail(I, pos, "%s: padding_option must be \"\", \"zero\" or \"nan\", not %s", fn,
                fe_kind_name(v));
    if (!v.s[0]) return 0;
    if (strcmp(v.s, "zero") == 0) return 1;
    if (strcmp(v.s, "nan") == 0) return 2;
    fe_fail(I, pos, "%s: padding option '%s' is not supported (\"\", \"zero\" or \"nan\")", fn,
            v.s);
}

/* Triton's error for a mask (or other) given with a block pointer. */
static void no_mask(Interp *I, const Args *A, int k, const char *fn, int load) {
    if (A->given[k] && A->v[k].kind != V_NONE)
        fe_fail(I, A->pos[k], "%s: %s cannot be specified for block pointers (use %s)", fn,
                load ? "`mask` and `other` arguments" : "a `mask` argument",
                load ? "boundary_check= and padding_option=" : "boundary_check=");
}

/* The load of block pointer bp, dimensions check[] checked, the elements
 * outside them padded (pad: 0 none, 1 zero, 2 NaN). */
static Val load_checked(Interp *I, const BlockPtr *bp, const int *check, int pad, const char *fn,
                        SrcPos pos) {
    DType dt = (DType)bp->base->type.dtype;
    Expr *ptr, *mask;
    addresses(I, bp, check, fn, pos, &ptr, &mask);
    Expr *other = NULL;
    if (mask && pad) {
        Val fill = pad == 2 ? fe_vfloat(NAN) : dtype_is_float(dt) ? fe_vfloat(0.0) : fe_vint(0);
        other = fe_to_expr_as(I, fill, dt, pos, "padding_option");
    }
    Expr *e = fe_mk_op(I, OP_LOAD, fn, pos, 3, ptr, mask, other, NULL);
    ptrvec_push(I->a, &I->list->pending, e);
    return fe_vexpr(e);
}

/* tl.load(block_ptr, boundary_check=(...), padding_option=...): A bound to
 * tl.load's parameters (pointer, mask, other, boundary_check,
 * padding_option, hints). */
/* tl.load / tl.store of a tensor descriptor: Triton's are its methods. */
static void not_desc(Interp *I, const Args *A, const char *fn, const char *method) {
    if (A->v[0].bp->desc)
        fe_fail(I, A->pos[0], "%s takes no tensor descriptor: use desc.%s(offsets%s)", fn, method,
                strcmp(method, "store") == 0 ? ", value" : "");
}

Val fe_bp_load(Interp *I, const Args *A, const char *fn, SrcPos pos) {
    const BlockPtr *bp = A->v[0].bp;
    not_desc(I, A, fn, "load");
    no_mask(I, A, 1, fn, 1);
    no_mask(I, A, 2, fn, 1);
    DType dt = (DType)bp->base->type.dtype;
    int pad = padding_of(I, A->v[4], A->pos[4], fn);
    if (pad == 2 && !dtype_is_float(dt))
        fe_fail(I, A->pos[4],
                "%s: padding option \"nan\" is not supported for integer block pointers (the "
                "elements are %s)",
                fn, dtype_name(dt));
    int check[MT_MAX_RANK];
    boundary_dims(I, A->v[3], A->pos[3], fn, bp->rank, check);
    fe_note_use(I, A->v[0]);
    return load_checked(I, bp, check, pad, fn, pos);
}

/* tl.store(block_ptr, value, boundary_check=(...)): A bound to tl.store's
 * parameters (pointer, value, mask, boundary_check, hints). As Triton, the
 * value is the block's shape and element type, or a scalar of that type
 * (broadcast); nothing converts. */
Val fe_bp_store(Interp *I, const Args *A, const char *fn, SrcPos pos) {
    const BlockPtr *bp = A->v[0].bp;
    not_desc(I, A, fn, "store");
    no_mask(I, A, 2, fn, 0);
    DType dt = (DType)bp->base->type.dtype;
    Val v = A->v[1];
    if (v.kind == V_BLOCKPTR)
        fe_fail(I, A->pos[1],
                "%s: the value is a block pointer (block pointers are not values in memory: "
                "store what tl.load reads through one)",
                fn);
    Expr *value = fe_to_expr(I, v, A->pos[1], "tl.store's value");
    Type t = value->type;
    if (t.rank > 0) {
        if (!block_of(t, bp))
            fe_fail(I, A->pos[1],
                    "%s: the value is %s but the block pointer's block is %s (a block pointer "
                    "takes a block of its own shape, or a scalar)",
                    fn, type_str(I->a, t), shape_text(I, bp));
    }
    if (t.ptr || t.dtype != dt)
        fe_fail(I, A->pos[1],
                "%s: the value is %s but the block pointer's elements are %s (Triton converts "
                "nothing here: convert it with .to(tl.%s))",
                fn, type_str(I->a, t), dtype_name(dt), dtype_info(dt)->triton);
    int check[MT_MAX_RANK];
    boundary_dims(I, A->v[3], A->pos[3], fn, bp->rank, check);
    fe_note_use(I, A->v[0]);
    Expr *ptr, *mask;
    addresses(I, bp, check, fn, pos, &ptr, &mask);
    fe_store_stmt(I, fn, pos, ptr, value, mask);
    return vnone();
}

/* ---- Tensor descriptors ---------------------------------------------------- */

/* tl.make_tensor_descriptor(base, shape, strides, block_shape,
 * padding_option="zero") (semantic.py's make_tensor_descriptor): a block
 * pointer without offsets whose loads and stores take them and check every
 * dimension. The last stride a compile-time 1, the block's last dimension
 * at least 16 bytes, as Triton's rules for a TMA descriptor. */
Val fe_make_tensor_descriptor(Interp *I, const Args *A, const char *fn, SrcPos pos) {
    (void)pos;
    BlockPtr *bp = ARENA_NEW(I->a, BlockPtr);
    bp->desc = 1;
    bp->base = base_of(I, A->v[0], A->pos[0], fn);
    int n = block_shape_of(I, A->v[3], A->pos[3], fn, bp);
    value_list(I, A->v[1], A->pos[1], fn, "shape", n, 0, bp->shape);
    value_list(I, A->v[2], A->pos[2], fn, "strides", n, 0, bp->strides);
    for (int d = 0; d < n; d++) {
        bp->offsets[d] = fe_vint(0);
        bp->order[d] = n - 1 - d;
    }
    DType dt = (DType)bp->base->type.dtype;
    int bytes = dtype_info(dt)->bits / 8;
    if ((int64_t)bp->block[n - 1] * bytes < 16)
        fe_fail(I, A->pos[3],
                "%s: the block's last dimension has %d bytes (%d x %d), fewer than the 16 a "
                "tensor descriptor needs (Triton's rule)",
                fn, bp->block[n - 1] * bytes, bp->block[n - 1], bytes);
    Val last = bp->strides[n - 1];
    if (last.kind != V_INT || last.i != 1)
        fe_fail(
            I, A->pos[2],
            "%s: the last stride must be a compile-time 1 (got %s): a tensor descriptor's "
            "last dimension is contiguous (Triton's rule)",
            fn,
            last.kind == V_INT ? arena_printf(I->a, "%lld", (long long)last.i) : "a runtime value");
    bp->pad = A->given[4] ? padding_of(I, A->v[4], A->pos[4], fn) : 1;
    if (bp->pad == 0) fe_fail(I, A->pos[4], "%s: padding_option must be \"zero\" or \"nan\"", fn);
    if (bp->pad == 2 && !dtype_is_float(dt))
        fe_fail(I, A->pos[4],
                "%s: padding option \"nan\" is not supported for integer blocks (the elements "
                "are %s)",
                fn, dtype_name(dt));
    return bp_val(bp);
}

/* A descriptor's load or store at `offsets`: the block pointer there. */
static const BlockPtr *desc_at(Interp *I, const Args *A, const char *fn, SrcPos pos) {
    const BlockPtr *d = bp_of(A->v[0]);
    if (!d || !d->desc)
        fe_fail(I, A->pos[0],
                "%s needs a tensor descriptor (made by tl.make_tensor_descriptor), "
                "not %s",
                fn,
                d                        ? "a block pointer"
                : A->v[0].kind == V_EXPR ? type_str(I->a, A->v[0].e->type)
                                         : fe_kind_name(A->v[0]));
    const Val *items;
    int m = items_of(I, A->v[1], &items);
    if (m != d->rank)
        fe_fail(I, A->pos[1], "%s: %d offset%s for a tensor descriptor of rank %d", fn, m,
                m == 1 ? "" : "s", d->rank);
    Val offs[MT_MAX_RANK];
    value_list(I, A->v[1], A->pos[1], fn, "offsets", d->rank, 1, offs);
    BlockPtr *bp = ARENA_NEW(I->a, BlockPtr);
    *bp = *d;
    for (int k = 0; k < d->rank; k++) bp->offsets[k] = offs[k];
    (void)pos;
    fe_note_use(I, A->v[0]);
    return bp;
}

/* desc.load(offsets), tl.load_tensor_descriptor(desc, offsets): every
 * dimension checked, the elements outside padded. */
Val fe_desc_load(Interp *I, const Args *A, const char *fn, SrcPos pos) {
    const BlockPtr *bp = desc_at(I, A, fn, pos);
    int check[MT_MAX_RANK];
    for (int d = 0; d < MT_MAX_RANK; d++) check[d] = d < bp->rank;
    return load_checked(I, bp, check, bp->pad, fn, pos);
}

/* desc.store(offsets, value), tl.store_tensor_descriptor(desc, offsets,
 * value): a block of the descriptor's shape (no broadcast), converted to
 * its element type as Triton's cast; the elements in bounds written. */
Val fe_desc_store(Interp *I, const Args *A, const char *fn, SrcPos pos) {
    const BlockPtr *bp = desc_at(I, A, fn, pos);
    DType dt = (DType)bp->base->type.dtype;
    if (A->v[2].kind == V_BLOCKPTR)
        fe_fail(I, A->pos[2], "%s: the value is %s, not a block", fn,
                A->v[2].bp->desc ? "a tensor descriptor" : "a block pointer");
    Expr *value = fe_to_expr(I, A->v[2], A->pos[2], fn);
    Type t = value->type;
    if (t.ptr || !block_of(t, bp))
        fe_fail(I, A->pos[2],
                "%s: the value is %s but the descriptor's block is %s (Triton takes a block of "
                "exactly that shape)",
                fn, type_str(I->a, t), shape_text(I, bp));
    if (t.dtype != dt) value = fe_cast_to(I, value, dt, pos);
    int check[MT_MAX_RANK];
    for (int d = 0; d < MT_MAX_RANK; d++) check[d] = d < bp->rank;
    Expr *ptr, *mask;
    addresses(I, bp, check, fn, pos, &ptr, &mask);
    fe_store_stmt(I, fn, pos, ptr, value, mask);
    return vnone();
}

/* The element types Triton's descriptor atomics take (semantic.py's
 * descriptor_atomic_*: TMA reductions). */
static int desc_atomic_dtype_ok(int rmw, DType dt) {
    int u32 = dt == DT_U32 || dt == DT_I32 || dt == DT_U64;
    if (rmw == RMW_ADD) return u32 || dt == DT_F32 || dt == DT_F16 || dt == DT_BF16;
    if (rmw == RMW_MAX || rmw == RMW_MIN)
        return u32 || dt == DT_I64 || dt == DT_F16 || dt == DT_BF16;
    return u32 || dt == DT_I64;
}

/* desc.atomic_add / max / min / and / or / xor(offsets, value): a block of
 * the descriptor's shape and element type (Triton converts nothing here)
 * combined into the elements in bounds, relaxed, at the GPU's scope, as
 * Triton's TMA reductions; nothing returned. */
Val fe_desc_atomic(Interp *I, const Args *A, int rmw, const char *fn, SrcPos pos) {
    const BlockPtr *bp = desc_at(I, A, fn, pos);
    DType dt = (DType)bp->base->type.dtype;
    if (!desc_atomic_dtype_ok(rmw, dt))
        fe_fail(I, A->pos[0], "%s: Triton's descriptor atomics do not take %s elements", fn,
                dtype_name(dt));
    const char *why = atomic_dtype_error(OP_ATOMIC_RMW, rmw, dt);
    if (why) fe_fail(I, A->pos[0], "%s on %s elements: %s", fn, dtype_name(dt), why);
    if (A->v[2].kind == V_BLOCKPTR)
        fe_fail(I, A->pos[2], "%s: the value is %s, not a block", fn,
                A->v[2].bp->desc ? "a tensor descriptor" : "a block pointer");
    Expr *value = fe_to_expr(I, A->v[2], A->pos[2], fn);
    Type t = value->type;
    if (t.ptr || !block_of(t, bp) || t.dtype != dt)
        fe_fail(I, A->pos[2],
                "%s: the value is %s but the descriptor's blocks are %s of %s (Triton takes "
                "exactly that, converting nothing)",
                fn, type_str(I->a, t), shape_text(I, bp), dtype_name(dt));
    int check[MT_MAX_RANK];
    for (int d = 0; d < MT_MAX_RANK; d++) check[d] = d < bp->rank;
    Expr *ptr, *mask;
    addresses(I, bp, check, fn, pos, &ptr, &mask);
    Attrs at = {0};
    at.rmw = rmw;
    at.sem = SEM_RELAXED;
    at.scope = SCOPE_GPU;
    fe_effect_stmt(I, fe_mk_op(I, OP_ATOMIC_RMW, fn, pos, 3, ptr, value, mask, &at), pos);
    return vnone();
}
