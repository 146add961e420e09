/* Atomics and tl.debug_barrier(): Triton's tl.atomic_add / max / min / and /
 * or / xor / xchg(pointer, val, mask=None, sem=None, scope=None) and
 * tl.atomic_cas(pointer, cmp, val, sem=None, scope=None) (core.py and
 * semantic.py). The value (and cmp) convert to the pointee as Triton casts
 * them; the mask and the value broadcast to the pointer's shape; sem and
 * scope are compile-time strings. Each call is a statement of its own in
 * source order (a read-modify-write of memory); its node is also the value
 * the call returns, the old contents. */
#include "frontend/fe_internal.h"

/* A sem= / scope= argument: its index in `names`, the default (0) when
 * absent. */
static int atomic_choice(Interp *I, const Args *A, int k, const char *fn, const char *what,
                         const char *const *names, int n) {
    if (A->v[k].kind == V_NONE) return 0;
    if (A->v[k].kind != V_STR)
        fe_fail(I, A->pos[k], "%s: %s must be a compile-time string (got %s)", fn, what,
                fe_kind_name(A->v[k]));
    for (int i = 0; i < n; i++)
        if (strcmp(A->v[k].s, names[i]) == 0) return i;
    StrBuf sb;
    sb_init(&sb, I->a);
    for (int i = 0; i < n; i++) sb_printf(&sb, "%s\"%s\"", i ? ", " : "", names[i]);
    fe_fail(I, A->pos[k], "%s: %s \"%s\" is not supported (one of %s)", fn, what, A->v[k].s,
            sb_str(&sb));
}

Val fe_call_atomic(Interp *I, const Args *A, int rmw, const char *fn, SrcPos pos) {
    int cas = rmw < 0;
    Expr *ptr = fe_to_expr(I, A->v[0], A->pos[0], fn);
    if (!ptr->type.ptr)
        fe_fail(I, A->pos[0], "%s needs a pointer or a block of pointers (got %s)", fn,
                type_str(I->a, ptr->type));
    DType pt = (DType)ptr->type.dtype;
    Op op = cas ? OP_ATOMIC_CAS : OP_ATOMIC_RMW;
    const char *why = atomic_dtype_error(op, cas ? 0 : rmw, pt);
    if (why) fe_fail(I, A->pos[0], "%s on %s: %s", fn, type_str(I->a, ptr->type), why);
    Attrs at = {0};
    at.rmw = cas ? 0 : rmw;
    /* atomic_cas(pointer, cmp, val, sem, scope); the others (pointer, val,
     * mask, sem, scope) */
    at.sem = atomic_choice(I, A, 3, fn, "sem", atomic_sem_names, SEM_COUNT);
    at.scope = atomic_choice(I, A, 4, fn, "scope", atomic_scope_names, SCOPE_COUNT);
    Expr *x[3] = {ptr, NULL, NULL};
    for (int k = 1; k < 3; k++) {
        int is_mask = !cas && k == 2;
        if (is_mask) {
            if (A->v[k].kind == V_NONE) continue;
            x[k] = fe_to_expr(I, A->v[k], A->pos[k], fn);
            if (x[k]->type.ptr || x[k]->type.dtype != DT_BOOL)
                fe_fail(I, A->pos[k], "%s: the mask must be bool (got %s)", fn,
                        type_str(I->a, x[k]->type));
        } else {
            const char *what = cas ? (k == 1 ? "cmp" : "val") : "val";
            x[k] = fe_cast_to(I, fe_to_expr_as(I, A->v[k], pt, A->pos[k], what), pt, A->pos[k]);
        }
        if (x[k]->type.rank > ptr->type.rank)
            fe_fail(
                I, A->pos[k],
                "%s: the %s is a block (%s) but the pointer is %s: the pointer decides the shape",
                fn, cas ? (k == 1 ? "cmp" : "val") : (k == 1 ? "value" : "mask"),
                type_str(I->a, x[k]->type), type_str(I->a, ptr->type));
    }
    Expr *e = fe_mk_op(I, op, fn, pos, 3, x[0], x[1], x[2], &at);
    fe_effect_stmt(I, e, pos);
    return fe_vexpr(e);
}

Val fe_debug_barrier(Interp *I, SrcPos pos) {
    fe_effect_stmt(
        I, fe_mk_op(I, OP_DEBUG_BARRIER, "tl.debug_barrier", pos, 0, NULL, NULL, NULL, NULL), pos);
    return vnone();
}
