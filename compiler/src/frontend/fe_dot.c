/* tl.dot and the '@' operator (Triton's semantic.dot): the operand,
 * accumulator and option rules with Triton's messages' substance; the
 * structural rule (shapes, dtype pairs) is OP_DOT's type rule (types.c),
 * which the verifier asks again. An absent accumulator is a zero block of
 * the result dtype, as Triton's splat of 0. */
#include "frontend/fe_internal.h"

/* input_precision: None (Triton's NVIDIA default, tf32), or one of the
 * strings Triton's CUDA backend allows, in any case. */
static int dot_precision(Interp *I, const Args *A, const char *fn) {
    int have_prec = A->v[3].kind != V_NONE, have_allow = A->v[4].kind != V_NONE;
    if (have_prec && have_allow)
        fe_fail(I, A->pos[4], "%s: only one of input_precision and allow_tf32 can be specified",
                fn);
    if (have_allow)
        return fe_truthy(I, A->v[4], A->pos[4], "allow_tf32 must be a compile-time bool")
                   ? DOT_TF32
                   : DOT_IEEE;
    if (!have_prec) return DOT_TF32;
    if (A->v[3].kind != V_STR)
        fe_fail(I, A->pos[3], "%s: input_precision must be a string such as \"ieee\", not %s", fn,
                fe_kind_name(A->v[3]));
    char low[16];
    size_t n = strlen(A->v[3].s);
    if (n >= sizeof low) n = sizeof low - 1;
    for (size_t i = 0; i < n; i++) low[i] = (char)tolower((unsigned char)A->v[3].s[i]);
    low[n] = 0;
    if (strcmp(low, "tf32") == 0) return DOT_TF32;
    if (strcmp(low, "ieee") == 0) return DOT_IEEE;
    if (strcmp(low, "tf32x3") == 0) return DOT_TF32X3;
    if (strcmp(low, "bf16x3") == 0 || strcmp(low, "bf16x6") == 0)
        fe_fail(I, A->pos[3],
                "%s: input_precision \"%s\" is not supported yet (tf32, tf32x3, ieee)", fn,
                A->v[3].s);
    fe_fail(I, A->pos[3], "%s: input_precision must be one of tf32, tf32x3, ieee (got \"%s\")", fn,
            A->v[3].s);
}

/* A holds tl.dot's arguments: input, other, acc, input_precision,
 * allow_tf32, max_num_imprecise_acc, out_dtype. */
Val fe_make_dot(Interp *I, const Args *A, const char *fn, SrcPos pos) {
    Expr *x = fe_to_expr(I, A->v[0], A->pos[0], fn), *y = fe_to_expr(I, A->v[1], A->pos[1], fn);
    /* Triton: both rank 2, or both rank 3 with one batch dimension first */
    for (int i = 0; i < 2; i++) {
        Expr *e = i ? y : x;
        if (e->type.ptr || e->type.rank < 2 || e->type.rank > 3)
            fe_fail(I, A->pos[i], "%s needs blocks of rank 2 or 3 (got %s)", fn,
                    type_str(I->a, e->type));
    }
    int r = x->type.rank, o = r - 2;
    if (y->type.rank != r)
        fe_fail(I, pos, "%s: both operands must have the same rank (got %s and %s)", fn,
                type_str(I->a, x->type), type_str(I->a, y->type));
    if (o && x->type.dims[0] != y->type.dims[0])
        fe_fail(I, pos, "%s: the batch dimensions differ (%s and %s)", fn, shape_str(I->a, x->type),
                shape_str(I->a, y->type));
    DType dx = (DType)x->type.dtype, dy = (DType)y->type.dtype;
    if (!(dtype_is_fp8(dx) && dtype_is_fp8(dy))) {
        static const DType ok[] = {DT_I8, DT_U8, DT_F16, DT_BF16, DT_F32, DT_F64};
        for (int i = 0; i < 2; i++) {
            DType d = i ? dy : dx;
            int good = 0;
            for (size_t k = 0; k < sizeof ok / sizeof ok[0]; k++) good |= ok[k] == d;
            if (!good)
                fe_fail(I, A->pos[i],
                        "%s: unsupported %s dtype %s (int8, float16, bfloat16, float32, float64, "
                        "or two fp8 operands)",
                        fn, i ? "rhs" : "lhs", dtype_name(d));
        }
        if (dx != dy)
            fe_fail(I, pos, "%s: both operands must be of one dtype (got %s and %s)", fn,
                    dtype_name(dx), dtype_name(dy));
        if (dx == DT_U8) fe_fail(I, pos, "%s: only int8 integer operands are supported", fn);
    }
    DType out_dtype = DT_F32;
    if (A->v[6].kind != V_NONE) out_dtype = fe_need_dtype(I, A->v[6], A->pos[6], fn);
    DType ret;
    if (dx == DT_I8) ret = DT_I32;
    else if (out_dtype == DT_BF16)
        fe_fail(I, A->pos[6],
                "%s: out_dtype=bfloat16 is unsupported (use float32 or float16 and cast with "
                "'.to(tl.bfloat16)')",
                fn);
    else if (dx == DT_F32 || dx == DT_BF16) ret = DT_F32;
    else if (dx == DT_F64) ret = DT_F64;
    else {
        if (out_dtype != DT_F16 && out_dtype != DT_F32)
            fe_fail(I, A->pos[6], "%s: out_dtype must be float32 or float16 for %s operands", fn,
                    dtype_name(dx));
        ret = out_dtype;
    }
    int32_t M = x->type.dims[o], N = y->type.dims[o + 1], K = x->type.dims[o + 1];
    Attrs at = {0};
    at.flag = dot_precision(I, A, fn);
    at.start = 0;
    if (A->v[5].kind != V_NONE) {
        int64_t m = fe_need_int(I, A->v[5], A->pos[5], "max_num_imprecise_acc");
        if (dtype_is_fp8(dx) && dtype_is_fp8(dy) && m > K)
            fe_fail(I, A->pos[5], "%s: max_num_imprecise_acc (%lld) must be <= K (%d)", fn,
                    (long long)m, (int)K);
        if (m < 0 || m > (1 << 30))
            fe_fail(I, A->pos[5], "%s: max_num_imprecise_acc must be between 0 and 2^30", fn);
        at.start = (int)m;
    }
    Expr *acc;
    if (A->v[2].kind == V_NONE) {
        Attrs z = {0};
        z.rank = r;
        if (o) z.shape[0] = x->type.dims[0];
        z.shape[o] = M;
        z.shape[o + 1] = N;
        z.dtype = ret;
        acc = fe_mk_op(I, OP_ZEROS, fn, pos, 0, NULL, NULL, NULL, &z);
    } else {
        acc = fe_to_expr(I, A->v[2], A->pos[2], fn);
        if (acc->type.ptr || acc->type.rank != r || acc->type.dims[o] != M ||
            acc->type.dims[o + 1] != N || (o && acc->type.dims[0] != x->type.dims[0])) {
            if (o)
                fe_fail(I, A->pos[2], "%s: the accumulator must be a (%d, %d, %d) block (got %s)",
                        fn, (int)x->type.dims[0], (int)M, (int)N, type_str(I->a, acc->type));
            fe_fail(I, A->pos[2], "%s: the accumulator must be a (%d, %d) block (got %s)", fn,
                    (int)M, (int)N, type_str(I->a, acc->type));
        }
        if (acc->type.dtype != out_dtype)
            fe_fail(I, A->pos[2], "%s: the accumulator's dtype (%s) must be out_dtype (%s)%s", fn,
                    dtype_name(acc->type.dtype), dtype_name(out_dtype),
                    dx == DT_I8 ? ": pass out_dtype=tl.int32 with an int8 dot" : "");
    }
    return fe_vexpr(fe_mk_op(I, OP_DOT, fn, pos, 3, x, y, acc, &at));
}

/* a @ b: tl.dot(a, b) with its defaults. */
Val fe_matmul(Interp *I, Val a, Val b, SrcPos pos) {
    Args A;
    memset(&A, 0, sizeof A);
    for (int i = 0; i < 8; i++) A.v[i] = vnone(), A.pos[i] = pos;
    A.v[0] = a;
    A.v[1] = b;
    A.given[0] = A.given[1] = 1;
    return fe_make_dot(I, &A, "'@'", pos);
}
