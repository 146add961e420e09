/* Operators on runtime values, with Triton's implicit conversions
 * (semantic.py's binary_op_type_checking_impl). */
#include "frontend/fe_internal.h"

/* ---- Symbolic operators ------------------------------------------------ */

/* Triton's implicit conversions of a binary op's operands (semantic.py's
 * binary_op_type_checking_impl): the computation type, a range check of
 * Python integers, and a cast of each runtime operand that does not reach
 * it as C would (dtype_implicit). Returns the computation type. */
DType fe_promote_pair(Interp *I, const char *display, Expr **a, Expr **b, int div_or_mod,
                      SrcPos pos) {
    Expr *x[2] = {*a, *b};
    for (int i = 0; i < 2; i++)
        if (x[i]->type.ptr)
            fe_fail(I, pos, "%s is not supported on pointers (got %s)", display,
                    type_str(I->a, x[i]->type));
    const char *err = NULL;
    int weak[2] = {x[0]->kind == EX_CONST && !x[0]->strong,
                   x[1]->kind == EX_CONST && !x[1]->strong};
    DType ct = promote_dtypes(I->a, (DType)x[0]->type.dtype, weak[0], (DType)x[1]->type.dtype,
                              weak[1], div_or_mod, &err);
    if (ct == DT_NONE) fe_fail(I, pos, "%s: %s", display, err);
    for (int i = 0; i < 2; i++) {
        if (!weak[i]) continue;
        ConstVal c = x[i]->c;
        if (dtype_is_int(ct) && ct != DT_BOOL && !dtype_is_float(c.dt)) {
            int neg = !dtype_is_unsigned(c.dt) && c.i < 0;
            if (neg && dtype_is_unsigned(ct))
                fe_fail(
                    I, pos,
                    "%s between an unsigned %s value and the negative scalar %s (cast one of them "
                    "explicitly, as "
                    "Triton requires)",
                    display, dtype_name(ct), const_repr(I->a, c));
            int big = (c.dt == DT_U64 && (uint64_t)c.i > dtype_int_max(ct)) ||
                      (c.dt != DT_U64 &&
                       (c.i < dtype_int_min(ct) || (c.i > 0 && (uint64_t)c.i > dtype_int_max(ct))));
            if (big)
                fe_fail(I, pos, "%s: the scalar %s is out of range for %s", display,
                        const_repr(I->a, c), dtype_name(ct));
        }
    }
    for (int i = 0; i < 2; i++)
        if (!weak[i] && !dtype_implicit((DType)x[i]->type.dtype, ct))
            x[i] = fe_cast_to(I, x[i], ct, pos);
    *a = x[0];
    *b = x[1];
    return ct;
}

/* A binary op of ops.def on two runtime or constant operands, converted as
 * Triton converts them for that op. */
Expr *fe_binary_expr(Interp *I, Op op, const char *display, Expr *ea, Expr *eb, SrcPos pos,
                     const Attrs *at) {
    TypeRule rule = op_info(op)->rule;
    int div_or_mod = rule == TR_DIV || rule == TR_DIVMOD || rule == TR_INT_DIVMOD;
    if (rule == TR_BITWISE || rule == TR_SHIFT || rule == TR_INT_DIVMOD) {
        for (int i = 0; i < 2; i++) {
            Expr *e = i ? eb : ea;
            if (e->type.ptr || dtype_is_float((DType)e->type.dtype))
                fe_fail(
                    I, pos,
                    "%s needs integer or bool operands (got %s and %s): Triton has no %s on floats",
                    display, type_str(I->a, ea->type), type_str(I->a, eb->type), display);
        }
    }
    DType ct = fe_promote_pair(I, display, &ea, &eb, div_or_mod, pos);
    if (rule == TR_DIV && !dtype_is_float(ct)) {
        /* int / int: both as f32 (the seed's i32 / i32 stays implicit) */
        if ((ea->kind != EX_CONST || ea->strong) && ea->type.dtype != DT_I32)
            ea = fe_cast_to(I, ea, DT_F32, pos);
        if ((eb->kind != EX_CONST || eb->strong) && eb->type.dtype != DT_I32)
            eb = fe_cast_to(I, eb, DT_F32, pos);
    }
    return fe_mk_op(I, op, display, pos, 2, ea, eb, NULL, at);
}

Val fe_sym_binop(Interp *I, PyKind op, Val a, Val b, SrcPos pos) {
    const char *sym = fe_py_op_symbol(op);
    char display[16];
    snprintf(display, sizeof display, "'%s'", sym);
    if (op == PK_Pow)
        fe_fail(I, pos,
                "'**' is only for compile-time numbers (Triton's tensors have none): multiply "
                "explicitly, e.g. x * x");
    Expr *ea = fe_to_expr(I, a, pos, display), *eb = fe_to_expr(I, b, pos, display);
    if (op == PK_Add || (op == PK_Sub && ea->type.ptr && !eb->type.ptr)) {
        if (ea->type.ptr && eb->type.ptr) fe_fail(I, pos, "cannot add two pointers");
        if (ea->type.ptr || eb->type.ptr) {
            Expr *p = ea->type.ptr ? ea : eb, *off = ea->type.ptr ? eb : ea;
            if (off->type.ptr || !dtype_is_int((DType)off->type.dtype) ||
                off->type.dtype == DT_BOOL)
                fe_fail(I, pos, "a pointer offset must be an integer (got %s)",
                        type_str(I->a, off->type));
            if (op == PK_Sub) off = fe_mk_op(I, OP_NEG, "unary '-'", pos, 1, off, NULL, NULL, NULL);
            return fe_vexpr(fe_mk_op(I, OP_ADDPTR, display, pos, 2, p, off, NULL, NULL));
        }
    }
    if (ea->type.ptr || eb->type.ptr) {
        if (op == PK_Sub)
            fe_fail(I, pos, "pointer subtraction is not supported (add a negative offset instead)");
        fe_fail(I, pos, "'%s' is not supported on pointers (only pointer + integer offset)", sym);
    }
    static const struct {
        PyKind op;
        Op code;
    } table[] = {{PK_Add, OP_ADD},    {PK_Sub, OP_SUB},           {PK_Mult, OP_MUL},
                 {PK_Div, OP_DIV},    {PK_FloorDiv, OP_FLOORDIV}, {PK_Mod, OP_MOD},
                 {PK_BitAnd, OP_AND}, {PK_BitOr, OP_OR},          {PK_BitXor, OP_XOR},
                 {PK_LShift, OP_SHL}, {PK_RShift, OP_SHR}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].op == op)
            return fe_vexpr(fe_binary_expr(I, table[i].code, display, ea, eb, pos, NULL));
    fe_fail(I, pos, "operator '%s' is not supported on runtime values", sym);
}

static Val ct_binop_strong(Interp *I, PyKind op, Val a, Val b, SrcPos pos) {
    Val r = fe_ct_binop(I, op, a, b, pos);
    r.strong = a.strong || b.strong; /* computed from a tensor: a tensor */
    return r;
}

/* `**` of compile-time numbers, as Python computes it (constexprs: `2 **
 * (width - 1)`); Triton's tensors have no `**`. */
static Val ct_pow(Interp *I, Val a, Val b, SrcPos pos) {
    int num_a = (a.kind == V_INT || a.kind == V_BOOL || a.kind == V_FLOAT) && !a.strong && !a.u64;
    int num_b = (b.kind == V_INT || b.kind == V_BOOL || b.kind == V_FLOAT) && !b.strong && !b.u64;
    if (!num_a || !num_b)
        fe_fail(I, pos,
                "'**' is only for compile-time numbers (Triton's tensors have none): multiply "
                "explicitly, e.g. x * x");
    if (a.kind != V_FLOAT && b.kind != V_FLOAT && b.i >= 0) {
        int64_t base = a.i;
        if (base == 0 || base == 1) return fe_vint(b.i == 0 ? 1 : base);
        if (base == -1) return fe_vint(b.i % 2 ? -1 : 1);
        uint64_t mag = base < 0 ? (uint64_t)0 - (uint64_t)base : (uint64_t)base, r = 1;
        for (int64_t k = 0; k < b.i; k++) { /* |base| >= 2: at most 63 steps */
            if (r > (uint64_t)INT64_MAX / mag)
                fe_fail(I, pos, "'**': %lld ** %lld does not fit in 64 bits", (long long)a.i,
                        (long long)b.i);
            r *= mag;
        }
        return fe_vint(base < 0 && (b.i & 1) ? -(int64_t)r : (int64_t)r);
    }
    double x = a.kind == V_FLOAT ? a.f : (double)a.i, y = b.kind == V_FLOAT ? b.f : (double)b.i;
    if (x == 0.0 && y < 0.0) fe_fail(I, pos, "'**': 0.0 cannot be raised to a negative power");
    return fe_vfloat(pow(x, y));
}

Val fe_binop(Interp *I, PyKind op, Val a, Val b, SrcPos pos) {
    if (a.kind == V_BLOCKPTR || b.kind == V_BLOCKPTR)
        fe_bp_misuse(I, pos, arena_printf(I->a, "'%s'", fe_py_op_symbol(op)));
    if (op == PK_Pow) return ct_pow(I, a, b, pos);
    if (op == PK_MatMult) {
        if (a.kind != V_EXPR || b.kind != V_EXPR)
            fe_fail(I, pos, "'@' needs two rank-2 blocks (a matrix product, tl.dot)");
        return fe_matmul(I, a, b, pos);
    }
    if (a.kind == V_EXPR || b.kind == V_EXPR) return fe_sym_binop(I, op, a, b, pos);
    return ct_binop_strong(I, op, a, b, pos);
}

Val fe_compare(Interp *I, PyKind op, Val a, Val b, SrcPos pos) {
    if ((a.kind == V_BLOCKPTR || b.kind == V_BLOCKPTR) && op != PK_Is && op != PK_IsNot)
        fe_bp_misuse(I, pos, arena_printf(I->a, "'%s'", fe_py_op_symbol(op)));
    if (a.kind != V_EXPR && b.kind != V_EXPR) {
        Val r = fe_ct_compare(I, op, a, b, pos);
        r.strong = a.strong || b.strong;
        return r;
    }
    static const struct {
        PyKind op;
        Op code;
    } table[] = {{PK_Lt, OP_CMP_LT},  {PK_LtE, OP_CMP_LE}, {PK_Gt, OP_CMP_GT},
                 {PK_GtE, OP_CMP_GE}, {PK_Eq, OP_CMP_EQ},  {PK_NotEq, OP_CMP_NE}};
    if ((op == PK_Is || op == PK_IsNot)) return fe_ct_compare(I, op, a, b, pos);
    char display[16];
    snprintf(display, sizeof display, "'%s'", fe_py_op_symbol(op));
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].op == op) {
            Expr *ea = fe_to_expr(I, a, pos, display), *eb = fe_to_expr(I, b, pos, display);
            if (ea->type.ptr || eb->type.ptr)
                fe_fail(I, pos, "%s is not supported on pointers", display);
            return fe_vexpr(fe_binary_expr(I, table[i].code, display, ea, eb, pos, NULL));
        }
    fe_fail(I, pos, "'%s' is not supported on runtime values", fe_py_op_symbol(op));
}
