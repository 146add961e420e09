/* Compile-time arithmetic and comparisons with Python semantics. */
#include "frontend/fe_internal.h"

/* ---- Compile-time arithmetic with Python semantics ---------------------- */

const char *fe_py_op_symbol(PyKind op) {
    static const struct {
        PyKind op;
        const char *sym;
    } t[] = {{PK_Add, "+"},        {PK_Sub, "-"},   {PK_Mult, "*"},       {PK_Div, "/"},
             {PK_FloorDiv, "//"},  {PK_Mod, "%"},   {PK_Pow, "**"},       {PK_LShift, "<<"},
             {PK_RShift, ">>"},    {PK_BitOr, "|"}, {PK_BitXor, "^"},     {PK_BitAnd, "&"},
             {PK_MatMult, "@"},    {PK_Lt, "<"},    {PK_LtE, "<="},       {PK_Gt, ">"},
             {PK_GtE, ">="},       {PK_Eq, "=="},   {PK_NotEq, "!="},     {PK_Is, "is"},
             {PK_IsNot, "is not"}, {PK_In, "in"},   {PK_NotIn, "not in"}, {PK_USub, "-"},
             {PK_UAdd, "+"},       {PK_Not, "not"}, {PK_Invert, "~"}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].op == op) return t[i].sym;
    return "?";
}

void fe_py_float_divmod(double vx, double wx, double *floordiv, double *modulo) {
    double mod = fmod(vx, wx);
    double div = (vx - mod) / wx;
    if (mod) {
        if ((wx < 0) != (mod < 0)) {
            mod += wx;
            div -= 1.0;
        }
    } else {
        mod = copysign(0.0, wx);
    }
    double fd;
    if (div) {
        fd = floor(div);
        if (div - fd > 0.5) fd += 1.0;
    } else {
        fd = copysign(0.0, vx / wx);
    }
    *floordiv = fd;
    *modulo = mod;
}

int fe_values_equal(Val a, Val b) {
    if (fe_is_number(a) && fe_is_number(b)) {
        if (a.kind == V_FLOAT || b.kind == V_FLOAT) return fe_as_double(a) == fe_as_double(b);
        return a.i == b.i;
    }
    /* a tuple equals a list of the same elements: Triton's tuples (a
     * block's shape among them) compare normalized (tl.tuple.__eq__) */
    int seq_a = a.kind == V_TUPLE || a.kind == V_LIST,
        seq_b = b.kind == V_TUPLE || b.kind == V_LIST;
    if (a.kind != b.kind && !(seq_a && seq_b)) return 0;
    switch (a.kind) {
    case V_NONE: return 1;
    case V_STR: return strcmp(a.s, b.s) == 0;
    case V_TUPLE:
    case V_LIST:
        if (a.n != b.n) return 0;
        for (int i = 0; i < a.n; i++)
            if (!fe_values_equal(a.items[i], b.items[i])) return 0;
        return 1;
    case V_DTYPE:
    case V_MODULE:
    case V_FUNC: return a.i == b.i;
    case V_EXPR: return a.e == b.e;
    case V_BLOCKPTR: return fe_bp_equal(a, b);
    default: return 0;
    }
}

int fe_truthy(Interp *I, Val v, SrcPos pos, const char *what) {
    switch (v.kind) {
    case V_NONE: return 0;
    case V_BOOL:
    case V_INT: return v.i != 0;
    case V_FLOAT: return v.f != 0;
    case V_STR: return v.s[0] != 0;
    case V_TUPLE:
    case V_LIST: return v.n != 0;
    case V_EXPR: fe_fail(I, pos, "%s", what);
    case V_BLOCKPTR: fe_bp_misuse(I, pos, "the truth value");
    default: return 1;
    }
}

Val fe_ct_binop(Interp *I, PyKind op, Val a, Val b, SrcPos pos) {
    if (a.u64 || b.u64)
        fe_fail(
            I, pos,
            "compile-time arithmetic on integers of 2^63 and more is not supported (they work as "
            "operands of "
            "runtime values)");
    const char *sym = fe_py_op_symbol(op);
    if ((a.kind == V_TUPLE || a.kind == V_LIST) && a.kind == b.kind && op == PK_Add) {
        Val r = a;
        r.n = a.n + b.n;
        r.items = ARENA_ARRAY(I->a, Val, r.n + 1);
        for (int i = 0; i < a.n; i++) r.items[i] = a.items[i];
        for (int i = 0; i < b.n; i++) r.items[a.n + i] = b.items[i];
        return r;
    }
    int a_seq = a.kind == V_TUPLE || a.kind == V_LIST,
        b_seq = b.kind == V_TUPLE || b.kind == V_LIST;
    if (op == PK_Mult && a_seq != b_seq) {
        /* a sequence repeated: [0] * 3, 2 * (1, 2) */
        Val seq = a_seq ? a : b, k = a_seq ? b : a;
        if (k.kind != V_INT && k.kind != V_BOOL)
            fe_fail(I, pos, "can't multiply a sequence by %s (an integer repeats it)",
                    fe_kind_name(k));
        int64_t times = k.i < 0 ? 0 : k.i;
        if (seq.n > 0 && times > (int64_t)(1 << 20) / seq.n)
            fe_fail(I, pos, "a sequence repeated to more than %d elements", 1 << 20);
        Val r = seq;
        r.n = seq.n * (int)times;
        r.items = ARENA_ARRAY(I->a, Val, r.n + 1);
        for (int i = 0; i < r.n; i++) r.items[i] = seq.items[i % seq.n];
        return r;
    }
    if (!fe_is_number(a) || !fe_is_number(b))
        fe_fail(I, pos, "unsupported operand types for '%s': %s and %s", sym, fe_kind_name(a),
                fe_kind_name(b));
    if (fe_is_intlike(a) && fe_is_intlike(b)) {
        int64_t x = a.i, y = b.i, r;
        if (op == PK_Add) {
            if (__builtin_add_overflow(x, y, &r)) goto overflow;
            return fe_vint(r);
        }
        if (op == PK_Sub) {
            if (__builtin_sub_overflow(x, y, &r)) goto overflow;
            return fe_vint(r);
        }
        if (op == PK_Mult) {
            if (__builtin_mul_overflow(x, y, &r)) goto overflow;
            return fe_vint(r);
        }
        if (op == PK_Div) {
            if (y == 0) fe_fail(I, pos, "division by zero");
            return fe_vfloat((double)x / (double)y);
        }
        if (op == PK_FloorDiv || op == PK_Mod) {
            if (y == 0) fe_fail(I, pos, "integer division or modulo by zero");
            if (x == INT64_MIN && y == -1) goto overflow;
            int64_t q = x / y, m = x % y;
            if (m != 0 && ((m < 0) != (y < 0))) q -= 1, m += y;
            return fe_vint(op == PK_FloorDiv ? q : m);
        }
        if (op == PK_LShift || op == PK_RShift) {
            if (y < 0) fe_fail(I, pos, "negative shift count");
            if (op == PK_RShift) return fe_vint(y >= 63 ? (x < 0 ? -1 : 0) : x >> y);
            if (y >= 63 || (x != 0 && (x > (INT64_MAX >> y) || x < (INT64_MIN >> y))))
                goto overflow;
            return fe_vint((int64_t)((uint64_t)x << y));
        }
        if (op == PK_BitAnd || op == PK_BitOr || op == PK_BitXor) {
            int64_t v = op == PK_BitAnd ? (x & y) : op == PK_BitOr ? (x | y) : (x ^ y);
            if (a.kind == V_BOOL && b.kind == V_BOOL) return fe_vbool((int)v);
            return fe_vint(v);
        }
        fe_fail(I, pos, "operator '%s' is not supported", sym);
    overflow:
        fe_fail(I, pos,
                "integer overflow in a compile-time '%s' (compile-time integers are 64-bit)", sym);
    }
    double x = fe_as_double(a), y = fe_as_double(b);
    if (op == PK_Add) return fe_vfloat(x + y);
    if (op == PK_Sub) return fe_vfloat(x - y);
    if (op == PK_Mult) return fe_vfloat(x * y);
    if (op == PK_Div) {
        if (y == 0) fe_fail(I, pos, "float division by zero");
        return fe_vfloat(x / y);
    }
    if (op == PK_FloorDiv || op == PK_Mod) {
        if (y == 0) fe_fail(I, pos, "float floor division or modulo by zero");
        double q, m;
        fe_py_float_divmod(x, y, &q, &m);
        return fe_vfloat(op == PK_FloorDiv ? q : m);
    }
    fe_fail(I, pos, "unsupported operand types for '%s': %s and %s", sym, fe_kind_name(a),
            fe_kind_name(b));
}

Val fe_ct_compare(Interp *I, PyKind op, Val a, Val b, SrcPos pos) {
    if (op == PK_Eq) return fe_vbool(fe_values_equal(a, b));
    if (op == PK_NotEq) return fe_vbool(!fe_values_equal(a, b));
    if (op == PK_Is || op == PK_IsNot) {
        int same = (a.kind == V_NONE && b.kind == V_NONE) ||
                   (a.kind == b.kind && (a.kind == V_BOOL) && a.i == b.i) ||
                   (a.kind == V_EXPR && b.kind == V_EXPR && a.e == b.e) ||
                   (a.kind == V_BLOCKPTR && b.kind == V_BLOCKPTR && a.bp == b.bp) ||
                   (a.kind == b.kind &&
                    (a.kind == V_DTYPE || a.kind == V_MODULE || a.kind == V_FUNC) && a.i == b.i);
        return fe_vbool(op == PK_Is ? same : !same);
    }
    if (op == PK_In || op == PK_NotIn) {
        if (b.kind != V_TUPLE && b.kind != V_LIST)
            fe_fail(I, pos, "'in' needs a tuple or a list on its right");
        int found = 0;
        for (int i = 0; i < b.n && !found; i++) found = fe_values_equal(a, b.items[i]);
        return fe_vbool(op == PK_In ? found : !found);
    }
    if (!fe_is_number(a) || !fe_is_number(b))
        fe_fail(I, pos, "'%s' is not supported between %s and %s", fe_py_op_symbol(op),
                fe_kind_name(a), fe_kind_name(b));
    double x = fe_as_double(a), y = fe_as_double(b);
    int r;
    if (fe_is_intlike(a) && fe_is_intlike(b)) {
        int64_t p = a.i, q = b.i;
        r = op == PK_Lt ? p < q : op == PK_LtE ? p <= q : op == PK_Gt ? p > q : p >= q;
    } else {
        r = op == PK_Lt ? x < y : op == PK_LtE ? x <= y : op == PK_Gt ? x > y : x >= y;
    }
    return fe_vbool(r);
}
