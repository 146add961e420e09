/* Debugging builtins: tl.static_assert and tl.static_print run at compile
 * time (a failed assertion is an error with its message; a print is a note
 * at the call). tl.device_print, print() and tl.device_assert are runtime
 * operations of Triton's; see docs/language.md for what is supported. */
#include "frontend/fe_internal.h"

/* Python's str() / repr() of a compile-time value; a runtime value prints
 * as its type. */
const char *fe_val_str(Interp *I, Val v, int repr) {
    switch (v.kind) {
    case V_NONE: return "None";
    case V_BOOL: return v.i ? "True" : "False";
    case V_INT:
        return v.u64 ? arena_printf(I->a, "%llu", (unsigned long long)(uint64_t)v.i)
                     : arena_printf(I->a, "%lld", (long long)v.i);
    case V_FLOAT: {
        char buf[40];
        py_float_repr(v.f, buf);
        return arena_strdup(I->a, buf);
    }
    case V_STR: return repr ? arena_printf(I->a, "'%s'", v.s) : v.s;
    case V_TUPLE:
    case V_LIST: {
        StrBuf sb;
        sb_init(&sb, I->a);
        sb_putc(&sb, v.kind == V_TUPLE ? '(' : '[');
        for (int i = 0; i < v.n; i++)
            sb_printf(&sb, "%s%s", i ? ", " : "", fe_val_str(I, v.items[i], 1));
        if (v.kind == V_TUPLE && v.n == 1) sb_putc(&sb, ',');
        sb_putc(&sb, v.kind == V_TUPLE ? ')' : ']');
        return sb_str(&sb);
    }
    case V_EXPR: return type_str(I->a, v.e->type);
    case V_DTYPE: {
        const char *t = dtype_info((DType)v.i)->sig;
        return v.ptr ? arena_printf(I->a, "pointer<%s>", t) : t;
    }
    case V_MODULE: return arena_printf(I->a, "<module '%s'>", v.s ? v.s : "?");
    case V_USERFUNC: return arena_printf(I->a, "<function %s>", v.s ? v.s : "?");
    case V_FUNC:
    case V_OPFN:
    case V_METHOD:
    case V_NONCONST_GLOBAL:
    case V_LAZY:
    case V_SLICE: return arena_printf(I->a, "<%s>", fe_kind_name(v) + 2);
    case V_BLOCKPTR: {
        /* Triton's type: pointer<block<shape, dtype>> */
        StrBuf sb;
        sb_init(&sb, I->a);
        sb_printf(&sb, "pointer<block<[");
        for (int d = 0; d < v.bp->rank; d++) sb_printf(&sb, "%s%d", d ? ", " : "", v.bp->block[d]);
        sb_printf(&sb, "], %s>>", dtype_info((DType)v.bp->base->type.dtype)->sig);
        return sb_str(&sb);
    }
    }
    return "?";
}

/* A keyword argument's value node by name, or NULL; unknown keywords are
 * errors. */
static const PyNode *keyword(Interp *I, const PyNode *call, const char *fn,
                             const char *const *names, const char *want) {
    const PyVal *kws = pyast_list(call, "keywords");
    const PyNode *found = NULL;
    for (int i = 0; kws && i < kws->len; i++) {
        const PyNode *kw = fe_list_node(kws, i);
        const char *name = kw ? pyast_str(kw, "arg") : NULL;
        if (!kw) fe_fail(I, call->pos, "malformed call");
        if (!name) fe_fail(I, kw->pos, "**kwargs in calls are not supported");
        int known = 0;
        for (int k = 0; names[k]; k++) known |= strcmp(names[k], name) == 0;
        if (!known) fe_fail(I, kw->pos, "%s() got an unexpected keyword argument '%s'", fn, name);
        if (strcmp(name, want) == 0) found = pyast_node(kw, "value");
    }
    return found;
}

static Val static_print(Interp *I, const PyNode *call) {
    static const char *const names[] = {"sep", "end", "file", "flush", NULL};
    const PyNode *sep_n = keyword(I, call, "tl.static_print", names, "sep");
    const char *sep = " ";
    if (sep_n) {
        Val s = fe_eval(I, sep_n);
        if (s.kind != V_STR) fe_fail(I, sep_n->pos, "sep must be a string");
        sep = s.s;
    }
    StrBuf sb;
    sb_init(&sb, I->a);
    const PyVal *args = pyast_list(call, "args");
    for (int i = 0; args && i < args->len; i++) {
        const PyNode *a = fe_list_node(args, i);
        if (!a || pyast_isk(a, PK_Starred))
            fe_fail(I, a ? a->pos : call->pos, "*args in calls are not supported");
        sb_printf(&sb, "%s%s", i ? sep : "", fe_val_str(I, fe_eval(I, a), 0));
    }
    mt_note(I->ctx, call->pos, "tl.static_print: %s", sb_str(&sb));
    return vnone();
}

static Val static_assert_(Interp *I, const PyNode *call) {
    static const char *const names[] = {"cond", "msg", NULL};
    const PyVal *args = pyast_list(call, "args");
    int nargs = args ? args->len : 0;
    if (nargs > 2)
        fe_fail(I, fe_list_node(args, 2)->pos,
                "tl.static_assert() takes at most 2 arguments (%d given)", nargs);
    const PyNode *cond_n = nargs > 0 ? fe_list_node(args, 0) : NULL;
    const PyNode *msg_n = nargs > 1 ? fe_list_node(args, 1) : NULL;
    const PyNode *kc = keyword(I, call, "tl.static_assert", names, "cond");
    const PyNode *km = keyword(I, call, "tl.static_assert", names, "msg");
    if (kc && cond_n) fe_fail(I, kc->pos, "tl.static_assert() got multiple values for 'cond'");
    if (km && msg_n) fe_fail(I, km->pos, "tl.static_assert() got multiple values for 'msg'");
    cond_n = cond_n ? cond_n : kc;
    msg_n = msg_n ? msg_n : km;
    if (!cond_n) fe_fail(I, call->pos, "tl.static_assert() missing required argument 'cond'");
    Val c = fe_eval(I, cond_n);
    if (c.kind == V_EXPR)
        fe_fail(I, cond_n->pos,
                "tl.static_assert needs a compile-time condition (got %s; use tl.device_assert "
                "for runtime values)",
                type_str(I->a, c.e->type));
    int ok = fe_truthy(I, c, cond_n->pos, "tl.static_assert needs a compile-time condition");
    if (ok) return vnone();
    const char *msg = "";
    if (msg_n) {
        Val m = fe_eval(I, msg_n);
        msg = fe_val_str(I, m, 0);
    }
    fe_fail(I, call->pos, "static assertion failed%s%s", *msg ? ": " : "", msg);
}

/* A statement of a side-effecting op (print, assert): kept in source order
 * with the stores. */
static void side_effect(Interp *I, Op op, const char *fn, SrcPos pos, Expr *x, const Attrs *at) {
    fe_effect_stmt(I, fe_mk_op(I, op, fn, pos, 1, x, NULL, NULL, at), pos);
}

/* tl.device_print(prefix, *args, hex=False) and print(prefix, *args): one
 * print op per value, with Triton's prefix (" prefix: "). */
static Val device_print(Interp *I, const PyNode *call, const char *fn) {
    static const char *const names[] = {"hex", NULL};
    const PyNode *hex_n = keyword(I, call, fn, names, "hex");
    int hex = 0;
    if (hex_n) {
        Val h = fe_eval(I, hex_n);
        if (h.kind != V_BOOL && h.kind != V_INT)
            fe_fail(I, hex_n->pos, "%s: hex must be True or False", fn);
        hex = h.i != 0;
    }
    const PyVal *args = pyast_list(call, "args");
    int n = args ? args->len : 0;
    if (n == 0) fe_fail(I, call->pos, "%s() needs a prefix string", fn);
    const PyNode *p = fe_list_node(args, 0);
    Val prefix = fe_eval(I, p);
    if (prefix.kind != V_STR)
        fe_fail(I, p->pos, "%s: the first argument must be a prefix string (got %s)", fn,
                fe_kind_name(prefix));
    for (const char *c = prefix.s; *c; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e)
            fe_fail(I, p->pos, "%s: the prefix must be printable ASCII", fn);
    if (n == 1)
        fe_fail(I, call->pos, "%s() with a prefix alone is not supported (give values to print)",
                fn);
    /* Triton's prefix: ends with ": ", and starts with " " when longer than 2 */
    StrBuf sb;
    sb_init(&sb, I->a);
    sb_puts(&sb, prefix.s);
    if (sb.len == 0 || sb_str(&sb)[sb.len - 1] != ' ') sb_putc(&sb, ' ');
    const char *t = sb_str(&sb);
    size_t len = strlen(t);
    if (!(len >= 2 && t[len - 2] == ':' && t[len - 1] == ' '))
        t = arena_printf(I->a, "%.*s: ", (int)(len - 1), t);
    if (strlen(t) > 2 && t[0] != ' ') t = arena_printf(I->a, " %s", t);
    for (int i = 1; i < n; i++) {
        const PyNode *a = fe_list_node(args, i);
        if (!a || pyast_isk(a, PK_Starred))
            fe_fail(I, a ? a->pos : call->pos, "*args in calls are not supported");
        Val v = fe_eval(I, a);
        Expr *x = fe_to_expr(I, v, a->pos, fn);
        if (hex && dtype_is_float((DType)x->type.dtype) && !x->type.ptr)
            fe_fail(I, a->pos, "%s: hex=True prints integers (got %s)", fn,
                    type_str(I->a, x->type));
        Attrs at = {0};
        at.text = t;
        at.flag = hex;
        at.start = i - 1;
        at.end = n - 1;
        side_effect(I, OP_PRINT, fn, a->pos, x, &at);
    }
    return vnone();
}

/* The device_assert op of `c` (where `mask`, if given, holds), compiled
 * only with --debug. */
static void assert_op(Interp *I, const char *fn, Val c, SrcPos cpos, const char *msg, Val mask,
                      SrcPos mpos, SrcPos pos) {
    if (!I->ctx->debug) return;
    Expr *cond = fe_to_expr(I, c, cpos, fn);
    if (cond->type.ptr)
        fe_fail(I, cpos, "%s needs a condition, not %s", fn, type_str(I->a, cond->type));
    if (cond->type.dtype != DT_BOOL) {
        /* nonzero holds, as Triton's (a float: != 0.0) */
        Expr *zero = fe_mk_const(I, const_convert(const_i32(0), (DType)cond->type.dtype), cpos);
        cond = fe_mk_op(I, OP_CMP_NE, fn, cpos, 2, cond, zero, NULL, NULL);
    }
    if (mask.kind != V_NONE) {
        /* where the mask is false the assertion holds: cond | ~mask */
        Expr *m = fe_to_expr(I, mask, mpos, fn);
        if (m->type.ptr || m->type.dtype != DT_BOOL)
            fe_fail(I, mpos, "%s: the mask must be bool (got %s)", fn, type_str(I->a, m->type));
        Expr *t = fe_mk_const(I, const_bool(1), mpos);
        Expr *not_m = fe_mk_op(I, OP_XOR, fn, mpos, 2, m, t, NULL, NULL);
        cond = fe_binary_expr(I, OP_OR, fn, cond, not_m, pos, NULL);
    }
    Attrs at = {0};
    at.text = msg;
    at.file = I->mod ? I->mod->filename : I->ctx->filename;
    at.func = I->k->name;
    side_effect(I, OP_ASSERT, fn, pos, cond, &at);
}

/* tl.device_assert(cond, msg="", mask=None): compiled only with --debug
 * (Triton's debug=True); the arguments are evaluated either way. */
static Val device_assert(Interp *I, const PyNode *call) {
    static const char *const names[] = {"cond", "msg", "mask", NULL};
    const char *fn = "tl.device_assert";
    const PyVal *args = pyast_list(call, "args");
    int nargs = args ? args->len : 0;
    if (nargs > 3)
        fe_fail(I, fe_list_node(args, 3)->pos, "%s() takes at most 3 arguments (%d given)", fn,
                nargs);
    const PyNode *node[3] = {0};
    for (int i = 0; i < nargs; i++) node[i] = fe_list_node(args, i);
    for (int k = 0; k < 3; k++) {
        const PyNode *kw = keyword(I, call, fn, names, names[k]);
        if (kw && node[k]) fe_fail(I, kw->pos, "%s() got multiple values for '%s'", fn, names[k]);
        if (kw) node[k] = kw;
    }
    if (!node[0]) fe_fail(I, call->pos, "%s() missing required argument 'cond'", fn);
    Val c = fe_eval(I, node[0]);
    const char *msg = "";
    if (node[1]) {
        Val m = fe_eval(I, node[1]);
        if (m.kind != V_STR) fe_fail(I, node[1]->pos, "%s: msg must be a string", fn);
        msg = m.s;
    }
    Val mask = node[2] ? fe_eval(I, node[2]) : vnone();
    assert_op(I, fn, c, node[0]->pos, msg, mask, node[2] ? node[2]->pos : call->pos, call->pos);
    return vnone();
}

/* A Python `assert cond, msg` statement: tl.device_assert(cond, msg), as
 * Triton's code generator makes it. */
void fe_assert_stmt(Interp *I, const PyNode *s) {
    const PyNode *test = pyast_node(s, "test"), *msg_n = pyast_node(s, "msg");
    if (!test) fe_fail(I, s->pos, "malformed assert statement");
    Val c = fe_eval(I, test);
    const char *msg = "";
    if (msg_n) {
        Val m = fe_eval(I, msg_n);
        if (m.kind != V_STR)
            fe_fail(I, msg_n->pos, "the message of 'assert' must be a string (got %s)",
                    fe_kind_name(m));
        msg = m.s;
    }
    assert_op(I, "'assert'", c, test->pos, msg, vnone(), s->pos, s->pos);
}

Val fe_call_debug(Interp *I, const PyNode *call, Builtin b) {
    if (b == B_STATIC_ASSERT) return static_assert_(I, call);
    if (b == B_STATIC_PRINT) return static_print(I, call);
    if (b == B_DEVICE_PRINT) return device_print(I, call, "tl.device_print");
    if (b == B_PRINT) return device_print(I, call, "print");
    return device_assert(I, call);
}
