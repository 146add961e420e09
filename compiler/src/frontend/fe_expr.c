/* Expressions: constants, sequences, subscripts, calls, operators. */
#include "frontend/fe_internal.h"

#include <errno.h>
#include <stdlib.h>

/* ---- Expressions -------------------------------------------------------- */

Val fe_eval(Interp *I, const PyNode *n);
void fe_visit_body(Interp *I, const PyVal *stmts);

const PyNode *fe_list_node(const PyVal *list, int i) {
    const PyVal *v = list->items[i];
    return v->kind == PYV_NODE ? v->node : NULL;
}

Val fe_eval_constant(Interp *I, const PyNode *n) {
    const PyVal *v = pyast_field(n, "value");
    if (!v) fe_fail(I, n->pos, "malformed constant");
    switch (v->kind) {
    case PYV_NONE: return vnone();
    case PYV_BOOL: return fe_vbool((int)v->i);
    case PYV_INT: {
        if (v->int_fits) return fe_vint(v->i);
        /* 2^63 .. 2^64-1: a uint64 to Triton, as an operand of runtime values */
        char *end;
        errno = 0;
        unsigned long long u = strtoull(v->text, &end, 10);
        if (v->text[0] != '-' && *end == 0 && errno == 0) {
            Val r = fe_vint((int64_t)u);
            r.u64 = 1;
            return r;
        }
        fe_fail(I, n->pos, "the integer literal %.40s%s is too large", v->text,
                strlen(v->text) > 40 ? "..." : "");
    }
    case PYV_FLOAT: return fe_vfloat(v->f);
    case PYV_STR: {
        Val s = {0};
        s.kind = V_STR;
        s.s = v->text;
        return s;
    }
    case PYV_COMPLEX: fe_fail(I, n->pos, "complex numbers are not supported");
    case PYV_BYTES: fe_fail(I, n->pos, "bytes literals are not supported");
    case PYV_ELLIPSIS: fe_fail(I, n->pos, "'...' is not supported");
    default: fe_fail(I, n->pos, "unsupported constant");
    }
}

Val fe_make_seq(Interp *I, VKind kind, const PyVal *elts, int pos_line) {
    (void)pos_line;
    Val r = {0};
    r.kind = kind;
    r.n = elts ? elts->len : 0;
    r.items = ARENA_ARRAY(I->a, Val, r.n + 1);
    for (int i = 0; i < r.n; i++) {
        const PyNode *e = fe_list_node(elts, i);
        if (!e) fe_fail(I, srcpos(0, 0), "malformed sequence");
        if (pyast_isk(e, PK_Starred)) fe_fail(I, e->pos, "starred expressions are not supported");
        r.items[i] = fe_eval(I, e);
    }
    return r;
}

/* x[:, None] / x[None, :] / x[None] on blocks; t[i] on compile-time tuples. */
Val fe_eval_subscript(Interp *I, const PyNode *n) {
    Val base = fe_eval(I, pyast_node(n, "value"));
    const PyNode *sl = pyast_node(n, "slice");
    if (!sl) fe_fail(I, n->pos, "malformed subscript");
    if (base.kind == V_TUPLE || base.kind == V_LIST) {
        if (pyast_isk(sl, PK_Slice)) fe_fail(I, sl->pos, "slicing a tuple is not supported");
        Val idx = fe_eval(I, sl);
        if (!fe_is_intlike(idx))
            fe_fail(I, sl->pos, "a tuple index must be a compile-time integer, not %s",
                    fe_kind_name(idx));
        int64_t i = idx.i < 0 ? idx.i + base.n : idx.i;
        if (i < 0 || i >= base.n)
            fe_fail(I, sl->pos, "tuple index %lld out of range (length %d)", (long long)idx.i,
                    base.n);
        return base.items[i];
    }
    if (base.kind == V_BLOCKPTR) fe_bp_misuse(I, n->pos, "indexing");
    if (base.kind != V_EXPR) fe_fail(I, n->pos, "%s cannot be indexed", fe_kind_name(base));
    /* the index items: ':' keeps a dimension, None inserts one */
    const PyNode *items[8];
    int nitems = 0;
    if (pyast_isk(sl, PK_Tuple)) {
        const PyVal *elts = pyast_list(sl, "elts");
        if (!elts || elts->len > 8) fe_fail(I, sl->pos, "too many indices");
        for (int i = 0; i < elts->len; i++) items[nitems++] = fe_list_node(elts, i);
    } else {
        items[nitems++] = sl;
    }
    Expr *x = base.e;
    int kept = 0, out_axis = 0;
    for (int i = 0; i < nitems; i++) {
        const PyNode *it = items[i];
        if (!it) fe_fail(I, sl->pos, "malformed index");
        if (pyast_isk(it, PK_Slice)) {
            if (pyast_node(it, "lower") || pyast_node(it, "upper") || pyast_node(it, "step"))
                fe_fail(
                    I, it->pos,
                    "only ':' and None can index a block (slicing with bounds is not supported)");
            kept++;
            out_axis++;
        } else if (pyast_isk(it, PK_Constant) && pyast_field(it, "value") &&
                   pyast_field(it, "value")->kind == PYV_NONE) {
            Attrs at = {0};
            at.axis = out_axis;
            x = fe_mk_op(I, OP_EXPAND_DIMS, "expand_dims", it->pos, 1, x, NULL, NULL, &at);
            out_axis++;
        } else {
            fe_fail(I, it->pos,
                    "only ':' and None can index a block (element indexing is not supported)");
        }
    }
    /* fewer ':' than dimensions keep the trailing ones, as Triton's
     * __getitem__ (x[None] of a rank-1 block is (1, N)) */
    if (kept > base.e->type.rank)
        fe_fail(I, sl->pos,
                "the index has %d ':' but the block has rank %d (one ':' per dimension)", kept,
                base.e->type.rank);
    return fe_vexpr(x);
}

Val fe_eval_call(Interp *I, const PyNode *n) {
    const PyNode *func = pyast_node(n, "func");
    if (!func) fe_fail(I, n->pos, "malformed call");
    Val f = fe_eval(I, func);
    if (f.kind == V_FUNC) return fe_call_builtin(I, n, (Builtin)f.i, NULL);
    if (f.kind == V_OPFN) return fe_call_op(I, n, (Op)f.i, NULL);
    if (f.kind == V_METHOD) {
        Val self = f.items[0];
        if (self.kind == V_DTYPE) {
            if (pyast_list(n, "args") && pyast_list(n, "args")->len)
                fe_fail(I, n->pos, "%s() takes no arguments", f.s);
            return fe_vbool(fe_dtype_test(f.s, (DType)self.i, self.ptr));
        }
        if (self.kind == V_BLOCKPTR && self.bp->desc)
            return fe_call_builtin(I, n, fe_desc_method(f.s), &self);
        if (strcmp(f.s, "to") == 0) return fe_call_builtin(I, n, B_TO, &self);
        Val m = fe_tl_member(f.s, 0);
        if (m.kind == V_OPFN) return fe_call_op(I, n, (Op)m.i, &self);
        return fe_call_builtin(I, n, (Builtin)m.i, &self);
    }
    if (f.kind == V_USERFUNC) return fe_call_user(I, n, f);
    if (f.kind == V_MODULE && f.i == MOD_OTHER && strchr(f.s, '.')) {
        /* `from common import f` where there is no common.py */
        const char *dot = strrchr(f.s, '.');
        const char *module = arena_strndup(I->a, f.s, (size_t)(dot - f.s));
        if (*module && !fe_is_triton_module(module) && !fe_is_language_module(module))
            fe_fail(I, n->pos,
                    "cannot call '%s': no module '%s' beside the kernel file (looked for %s)",
                    dot + 1, module, fe_module_path(I, module, 1));
    }
    if (f.kind == V_MODULE) fe_fail(I, n->pos, "the module '%s' is not callable", f.s);
    if (f.kind == V_DTYPE && !f.ptr) {
        /* tl.float32(x): a scalar of that dtype, as tl.full((), x, dtype) */
        const PyVal *args = pyast_list(n, "args"), *kws = pyast_list(n, "keywords");
        const char *name = arena_printf(I->a, "tl.%s", dtype_info((DType)f.i)->triton);
        if (!args || args->len != 1 || (kws && kws->len))
            fe_fail(I, n->pos, "%s(x) takes one positional argument, the value", name);
        const PyNode *a = fe_list_node(args, 0);
        Val v = fe_eval(I, a);
        if (v.kind != V_EXPR && !fe_is_number(v))
            fe_fail(I, a->pos, "%s(x): x must be a number or a scalar, not %s", name,
                    fe_kind_name(v));
        return fe_scalar_fill(I, v, (DType)f.i, a->pos, name);
    }
    fe_fail(I, n->pos, "%s is not callable", fe_kind_name(f));
}

/* f"...": as Triton, a compile-time string. Each field is a compile-time
 * value formatted as str() (or repr() with !r, ascii() with !a: the same
 * for these values); Triton ignores a format spec, and so does this. */
/* (not inlined, as fe_bool_op: fe_eval_inner recurses once per nesting
 * level of an expression, so its frame stays small) */
__attribute__((noinline)) static Val fe_fstring(Interp *I, const PyNode *n) {
    const PyVal *parts = pyast_list(n, "values");
    StrBuf sb;
    sb_init(&sb, I->a);
    for (int i = 0; parts && i < parts->len; i++) {
        const PyNode *p = fe_list_node(parts, i);
        if (pyast_isk(p, PK_Constant)) {
            const PyVal *c = pyast_field(p, "value");
            if (c && c->kind == PYV_STR) sb_puts(&sb, c->text);
            continue;
        }
        if (!pyast_isk(p, PK_FormattedValue)) fe_fail(I, n->pos, "malformed f-string");
        Val v = fe_eval(I, pyast_node(p, "value"));
        if (v.kind == V_EXPR || v.kind == V_BLOCKPTR)
            fe_fail(I, p->pos,
                    "an f-string field must be a compile-time value (got %s): Triton formats "
                    "constexprs only",
                    fe_val_str(I, v, 0));
        const PyVal *conv = pyast_field(p, "conversion");
        int repr = conv && conv->kind == PYV_INT && (conv->i == 'r' || conv->i == 'a');
        sb_puts(&sb, fe_val_str(I, v, repr));
    }
    Val r = {0};
    r.kind = V_STR;
    r.s = sb_str(&sb);
    return r;
}

/* One operand of a runtime 'and' / 'or': Triton's logical_and and
 * logical_or read their operands as int1, so a bool block or a bool. */
static Expr *logical_operand(Interp *I, Val v, SrcPos pos, const char *word) {
    Expr *e = fe_to_expr(I, v, pos, word);
    if (e->type.ptr || e->type.dtype != DT_BOOL)
        fe_fail(I, pos, "%s needs bool operands (got %s; compare with 0 first)", word,
                type_str(I->a, e->type));
    return e;
}

/* `a and b`, `a or b`. Compile-time operands decide as in Python, the first
 * that decides being the value. Where a runtime operand takes part, the
 * result is Triton's: both operands, bool, combined elementwise with & or
 * | (no short circuit); and, as Triton, only two operands. */
__attribute__((noinline)) static Val fe_bool_op(Interp *I, const PyNode *n, int is_and,
                                                const PyVal *vals) {
    const char *word = is_and ? "'and'" : "'or'";
    Val v = fe_eval(I, fe_list_node(vals, 0));
    for (int i = 1; i < vals->len; i++) {
        if (v.kind != V_EXPR) {
            int t = fe_truthy(I, v, n->pos, "");
            if (is_and ? !t : t) return v;
            v = fe_eval(I, fe_list_node(vals, i));
            continue;
        }
        if (vals->len > 2)
            fe_fail(I, n->pos,
                    "chained boolean operators (A %s B %s C) on runtime values are not supported, "
                    "as in Triton; use parentheses to split the chain",
                    is_and ? "and" : "or", is_and ? "and" : "or");
        const PyNode *ln = fe_list_node(vals, 0), *rn = fe_list_node(vals, i);
        Val w = fe_eval(I, rn);
        Expr *a = logical_operand(I, v, ln ? ln->pos : n->pos, word);
        Expr *b = logical_operand(I, w, rn ? rn->pos : n->pos, word);
        v = fe_vexpr(fe_binary_expr(I, is_and ? OP_AND : OP_OR, word, a, b, n->pos, NULL));
    }
    return v;
}

Val fe_eval_inner(Interp *I, const PyNode *n) {
    PyKind k = n->kind_id;
    if (k == PK_Constant) return fe_eval_constant(I, n);
    if (k == PK_Name) {
        const char *id = pyast_str(n, "id");
        if (!id) fe_fail(I, n->pos, "malformed name");
        return fe_lookup(I, id, n->pos);
    }
    if (k == PK_BinOp) {
        const PyNode *op = pyast_node(n, "op");
        Val a = fe_eval(I, pyast_node(n, "left"));
        Val b = fe_eval(I, pyast_node(n, "right"));
        if (!op) fe_fail(I, n->pos, "malformed operator");
        return fe_binop(I, op->kind_id, a, b, n->pos);
    }
    if (k == PK_UnaryOp) {
        const PyNode *op = pyast_node(n, "op");
        Val x = fe_eval(I, pyast_node(n, "operand"));
        if (!op) fe_fail(I, n->pos, "malformed operator");
        if (x.kind == V_BLOCKPTR)
            fe_bp_misuse(I, n->pos, arena_printf(I->a, "unary '%s'", fe_py_op_symbol(op->kind_id)));
        if (op->kind_id == PK_Not) {
            if (x.kind == V_EXPR) {
                /* Triton: a bool block inverted; other dtypes are an error */
                if (x.e->type.ptr || x.e->type.dtype != DT_BOOL)
                    fe_fail(I, n->pos, "'not' needs a bool block (got %s; compare with 0 first)",
                            type_str(I->a, x.e->type));
                return fe_vexpr(fe_mk_op(I, OP_XOR, "'not'", n->pos, 2, x.e,
                                         fe_mk_const(I, const_bool(1), n->pos), NULL, NULL));
            }
            return fe_vbool(!fe_truthy(I, x, n->pos, ""));
        }
        if (x.kind == V_EXPR) {
            if (op->kind_id == PK_USub) {
                if (x.e->type.ptr) fe_fail(I, n->pos, "unary '-' of a pointer is not supported");
                return fe_vexpr(fe_mk_op(I, OP_NEG, "unary '-'", n->pos, 1, x.e, NULL, NULL, NULL));
            }
            if (op->kind_id == PK_UAdd) {
                if (!type_is_numeric(x.e->type))
                    fe_fail(I, n->pos, "unary '+' needs a number (got %s)",
                            type_str(I->a, x.e->type));
                return x;
            }
            if (op->kind_id == PK_Invert) {
                DType dt = (DType)x.e->type.dtype;
                if (x.e->type.ptr || dtype_is_float(dt))
                    fe_fail(
                        I, n->pos,
                        "'~' needs an integer or bool block (got %s): Triton has no '~' on floats",
                        type_str(I->a, x.e->type));
                /* xor with all ones of the operand's own dtype */
                return fe_vexpr(fe_mk_op(I, OP_XOR, "'~'", n->pos, 2, x.e,
                                         fe_mk_const(I, const_int(dt, -1), n->pos), NULL, NULL));
            }
            fe_fail(I, n->pos, "'%s' of a runtime value is not supported",
                    fe_py_op_symbol(op->kind_id));
        }
        if (!fe_is_number(x))
            fe_fail(I, n->pos, "bad operand type for unary '%s': %s", fe_py_op_symbol(op->kind_id),
                    fe_kind_name(x));
        if (op->kind_id == PK_USub) {
            if (x.kind == V_FLOAT) return fe_vfloat(-x.f);
            if (x.i == INT64_MIN) fe_fail(I, n->pos, "integer overflow in a compile-time '-'");
            return fe_vint(-x.i);
        }
        if (op->kind_id == PK_UAdd) return x.kind == V_FLOAT ? x : fe_vint(x.i);
        if (op->kind_id == PK_Invert) {
            if (x.kind == V_FLOAT) fe_fail(I, n->pos, "bad operand type for unary '~': a float");
            return fe_vint(~x.i);
        }
        fe_fail(I, n->pos, "unsupported unary operator");
    }
    if (k == PK_Compare) {
        const PyVal *ops = pyast_list(n, "ops");
        const PyVal *comps = pyast_list(n, "comparators");
        if (!ops || !comps || ops->len != comps->len || ops->len == 0)
            fe_fail(I, n->pos, "malformed comparison");
        if (ops->len > 1)
            fe_fail(I, n->pos,
                    "chained comparisons are not supported (parenthesize each "
                    "comparison when combining with &, "
                    "e.g. (0 <= x) & (x < n))");
        Val a = fe_eval(I, pyast_node(n, "left"));
        Val b = fe_eval(I, fe_list_node(comps, 0));
        if (!fe_list_node(ops, 0)) fe_fail(I, n->pos, "malformed comparison");
        return fe_compare(I, fe_list_node(ops, 0)->kind_id, a, b, n->pos);
    }
    if (k == PK_BoolOp) {
        const PyNode *op = pyast_node(n, "op");
        const PyVal *vals = pyast_list(n, "values");
        if (!op || !vals || vals->len == 0) fe_fail(I, n->pos, "malformed boolean operation");
        return fe_bool_op(I, n, op->kind_id == PK_And, vals);
    }
    if (k == PK_JoinedStr) return fe_fstring(I, n);
    if (k == PK_IfExp) {
        Val c = fe_eval(I, pyast_node(n, "test"));
        if (c.kind == V_EXPR) return fe_runtime_ifexp(I, n, c.e);
        int t = fe_truthy(I, c, n->pos, "");
        return fe_eval(I, pyast_node(n, t ? "body" : "orelse"));
    }
    if (k == PK_Call) return fe_eval_call(I, n);
    if (k == PK_Attribute) return fe_eval_attribute(I, n);
    if (k == PK_Subscript) return fe_eval_subscript(I, n);
    if (k == PK_Tuple) return fe_make_seq(I, V_TUPLE, pyast_list(n, "elts"), n->pos.line);
    if (k == PK_List) return fe_make_seq(I, V_LIST, pyast_list(n, "elts"), n->pos.line);
    if (k == PK_Slice) fe_fail(I, n->pos, "a slice is only valid inside [...]");
    static const struct {
        PyKind kind;
        const char *what;
    } unsupported[] = {{PK_Lambda, "lambda expressions"},
                       {PK_ListComp, "list comprehensions"},
                       {PK_SetComp, "set comprehensions"},
                       {PK_DictComp, "dict comprehensions"},
                       {PK_GeneratorExp, "generator expressions"},
                       {PK_Dict, "dict literals"},
                       {PK_Set, "set literals"},
                       {PK_FormattedValue, "f-string fields outside an f-string"},
                       {PK_NamedExpr, "assignment expressions (:=)"},
                       {PK_Await, "'await' expressions"},
                       {PK_Yield, "'yield' expressions"},
                       {PK_YieldFrom, "'yield from' expressions"},
                       {PK_Starred, "starred expressions"}};
    for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++)
        if (unsupported[i].kind == k)
            fe_fail(I, n->pos, "%s are not supported in kernels", unsupported[i].what);
    fe_fail(I, n->pos, "'%s' expressions are not supported in kernels", n->kind);
}

Val fe_eval(Interp *I, const PyNode *n) {
    if (!n) fe_fail(I, srcpos(0, 0), "malformed syntax tree (a missing expression)");
    if (++I->eval_depth > MAX_EVAL_DEPTH)
        fe_fail(I, n->pos,
                "the expression is nested more than %d levels deep (split it "
                "with intermediate variables)",
                MAX_EVAL_DEPTH);
    Val v = fe_eval_inner(I, n);
    I->eval_depth--;
    return v;
}
