/* The frontend's values: environments, errors, expression nodes and the
 * names of the kernel (captures by loops). */
#include "frontend/fe_internal.h"

unsigned fe_hash_name(const char *s) {
    unsigned h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

EnvEntry *fe_env_find(const Env *env, const char *name) {
    if (!env->cap) return NULL;
    unsigned mask = (unsigned)env->cap - 1;
    for (unsigned i = fe_hash_name(name) & mask;; i = (i + 1) & mask) {
        EnvEntry *e = &env->slots[i];
        if (!e->name) return NULL;
        if (strcmp(e->name, name) == 0) return e;
    }
}

void fe_env_set(Arena *a, Env *env, const char *name, Val v, SrcPos at) {
    EnvEntry *e = fe_env_find(env, name);
    if (e) {
        e->v = v;
        e->at = at;
        return;
    }
    if ((env->count + 1) * 2 > env->cap) {
        int cap = env->cap ? env->cap * 2 : 32;
        EnvEntry *old = env->slots;
        int oldcap = env->cap;
        env->slots = ARENA_ARRAY(a, EnvEntry, cap);
        env->cap = cap;
        env->count = 0;
        for (int i = 0; i < oldcap; i++)
            if (old[i].name) fe_env_set(a, env, old[i].name, old[i].v, old[i].at);
    }
    unsigned mask = (unsigned)env->cap - 1;
    unsigned i = fe_hash_name(name) & mask;
    while (env->slots[i].name) i = (i + 1) & mask;
    env->slots[i].name = name;
    env->slots[i].v = v;
    env->slots[i].at = at;
    env->count++;
}

Env fe_env_copy(Arena *a, const Env *src) {
    Env e = *src;
    e.slots = ARENA_ARRAY(a, EnvEntry, src->cap ? src->cap : 1);
    if (src->cap) memcpy(e.slots, src->slots, sizeof(EnvEntry) * (size_t)src->cap);
    return e;
}

_Noreturn void fe_fail(Interp *I, SrcPos pos, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    mt_verror(I->ctx, pos, fmt, ap);
    va_end(ap);
    fe_note_call_chain(I);
    longjmp(I->fail, 1);
}

const char *fe_kind_name(Val v) {
    switch (v.kind) {
    case V_NONE: return "None";
    case V_BOOL: return "a bool";
    case V_INT: return "an int";
    case V_FLOAT: return "a float";
    case V_STR: return "a string";
    case V_TUPLE: return "a tuple";
    case V_LIST: return "a list";
    case V_EXPR: return "a runtime value";
    case V_DTYPE: return "a dtype";
    case V_MODULE: return "a module";
    case V_FUNC:
    case V_USERFUNC: return "a function";
    case V_SLICE: return "a slice";
    case V_OPFN: return "a function";
    case V_METHOD: return "a method";
    case V_NONCONST_GLOBAL: return "a global variable";
    case V_LAZY: return "an imported name";
    case V_BLOCKPTR: return "a block pointer";
    }
    return "a value";
}

/* ---- Expression nodes ------------------------------------------------- */

Expr *fe_new_expr(Interp *I, ExprKind kind, SrcPos pos, Type t) {
    if (I->k->nexprs >= MAX_NODES)
        fe_fail(I, pos,
                "the kernel grows past %d operations (a compile-time loop unrolls too far?)",
                MAX_NODES);
    Expr *e = ARENA_NEW(I->a, Expr);
    e->kind = kind;
    e->pos = pos;
    e->type = t;
    e->depth = I->depth;
    e->height = 1;
    e->id = I->k->nexprs++;
    e->lowered_value = -1;
    return e;
}

Expr *fe_mk_const(Interp *I, ConstVal c, SrcPos pos) {
    Expr *e = fe_new_expr(I, EX_CONST, pos, type_scalar(c.dt));
    e->c = c;
    return e;
}

Expr *fe_mk_op(Interp *I, Op op, const char *display, SrcPos pos, int n, Expr *a0, Expr *a1,
               Expr *a2, const Attrs *at) {
    Expr *args[3] = {a0, a1, a2};
    return fe_mk_opv(I, op, display, pos, n, args, at);
}

Expr *fe_mk_opv(Interp *I, Op op, const char *display, SrcPos pos, int n, Expr *const *args,
                const Attrs *at) {
    Type types[MT_MAX_OPERANDS] = {{0}};
    uint8_t flags[MT_MAX_OPERANDS] = {0};
    for (int i = 0; i < n; i++) {
        if (args[i])
            types[i] = args[i]->type,
            flags[i] = (uint8_t)(ARG_PRESENT |
                                 (args[i]->kind == EX_CONST && !args[i]->strong ? ARG_WEAK : 0));
    }
    Attrs none = {0};
    Type t;
    const char *err;
    if (!op_result_type_ex(I->a, op, display, types, flags, at ? at : &none, &t, &err))
        fe_fail(I, pos, "%s", err);
    int height = 1;
    for (int i = 0; i < n; i++)
        if (args[i] && args[i]->height >= height) height = args[i]->height + 1;
    if (height > MAX_HEIGHT)
        fe_fail(
            I, pos,
            "this operation ends a chain of more than %d dependent operations (a compile-time loop "
            "unrolls too far? "
            "a runtime loop keeps the chain short)",
            MAX_HEIGHT);
    Expr *e = fe_new_expr(I, EX_OP, pos, t);
    e->height = height;
    e->op = op;
    e->nargs = n;
    for (int i = 0; i < n; i++) e->args[i] = args[i];
    if (at) e->attrs = *at;
    return e;
}

/* A compile-time scalar as an expression node (a constant of the dtype
 * Triton gives the literal: i32, u32, i64 or u64; f32 or f64; i1);
 * anything else is an error that names `what`. */
Expr *fe_to_expr(Interp *I, Val v, SrcPos pos, const char *what) {
    Expr *e;
    switch (v.kind) {
    case V_EXPR: return v.e;
    case V_BLOCKPTR: fe_bp_misuse(I, pos, what);
    case V_BOOL: e = fe_mk_const(I, const_bool((int)v.i), pos); break;
    case V_INT: e = fe_mk_const(I, const_int(const_int_dtype(v.i, v.u64), v.i), pos); break;
    case V_FLOAT: {
        ConstVal c = {const_float_dtype(v.f), 0, v.f};
        e = fe_mk_const(I, c, pos);
        break;
    }
    default: fe_fail(I, pos, "%s needs a number or a block, not %s", what, fe_kind_name(v));
    }
    e->strong = v.strong;
    return e;
}

/* `e` converted to `dt`: a cast op (a constant converts at compile time). */
Expr *fe_cast_to(Interp *I, Expr *e, DType dt, SrcPos pos) {
    if (e->type.dtype == dt) return e;
    if (e->kind == EX_CONST) return fe_mk_const(I, const_convert(e->c, dt), pos);
    Attrs at = {0};
    at.dtype = dt;
    return fe_mk_op(I, OP_CAST, "cast", pos, 1, e, NULL, NULL, &at);
}

/* Triton 3.6 has no conversion between an integer (or bool) and an fp8
 * type, in either direction: `x.to(tl.float8e4nv)` of an int block, an fp8
 * block's `.to(tl.int32)`, and a load of an fp8 pointer with `other=0` are
 * its "cannot cast" errors. */
void fe_check_cast(Interp *I, DType from, DType to, SrcPos pos, const char *what) {
    int fp8_to = dtype_is_fp8(to), fp8_from = dtype_is_fp8(from);
    if ((fp8_to && dtype_is_int(from)) || (fp8_from && dtype_is_int(to)))
        fe_fail(I, pos,
                "%s: cannot cast %s to %s (Triton has no conversion between integers and fp8; go "
                "through a float type, or write a float literal such as 0.0)",
                what, dtype_name(from), dtype_name(to));
}

/* A value stored to / loaded as / filling `dt`: Triton casts it implicitly.
 * The seed's conversions between i32 and f32 stay implicit (C performs
 * them); a Python scalar becomes a constant of `dt`. */
Expr *fe_to_expr_as(Interp *I, Val v, DType dt, SrcPos pos, const char *what) {
    if (v.kind == V_EXPR) {
        DType from = (DType)v.e->type.dtype;
        if (v.e->type.ptr)
            fe_fail(I, pos, "%s: a pointer cannot convert to %s", what, dtype_name(dt));
        int seed = (from == DT_I32 || from == DT_F32) && (dt == DT_I32 || dt == DT_F32);
        if (from == dt || seed) return v.e;
        fe_check_cast(I, from, dt, pos, what);
        return fe_cast_to(I, v.e, dt, pos);
    }
    if (!fe_is_number(v)) return fe_to_expr(I, v, pos, what);
    if (v.kind != V_FLOAT) fe_check_cast(I, v.kind == V_BOOL ? DT_BOOL : DT_I32, dt, pos, what);
    if (dt == DT_I32 && v.kind == V_FLOAT) {
        if (!isfinite(v.f) || v.f < -2147483648.0 || v.f >= 2147483648.0)
            fe_fail(I, pos, "%s: the float does not fit in i32", what);
        return fe_mk_const(I, const_i32((int64_t)v.f), pos);
    }
    if (dt == DT_F32 && v.kind == V_INT) return fe_to_expr(I, fe_vfloat((double)v.i), pos, what);
    if (dt == DT_I32 || dt == DT_F32 || dt == DT_BOOL) {
        if (dt == DT_BOOL && v.kind != V_BOOL)
            return fe_mk_const(I, const_convert(fe_to_expr(I, v, pos, what)->c, dt), pos);
        return fe_to_expr(I, v, pos, what);
    }
    Expr *c = fe_to_expr(I, v, pos, what);
    return fe_mk_const(I, const_convert(c->c, dt), pos);
}

/* ---- Names and captures ------------------------------------------------ */

void fe_add_capture(Interp *I, ForRange *loop, Expr *e) {
    for (int i = 0; i < loop->captures.len; i++)
        if (loop->captures.items[i] == e) return;
    ptrvec_push(I->a, &loop->captures, e);
}

/* An outer value read in a loop body is a capture of every loop between
 * its definition and here (seed: recorded by identity, first-use order,
 * propagated to enclosing loops). */
void fe_note_use(Interp *I, Val v) {
    if (v.kind == V_EXPR) {
        for (int d = v.e->depth; d < I->depth; d++) fe_add_capture(I, I->loops[d], v.e);
    } else if (v.kind == V_TUPLE || v.kind == V_LIST) {
        for (int i = 0; i < v.n; i++) fe_note_use(I, v.items[i]);
    } else if (v.kind == V_BLOCKPTR) {
        fe_note_use(I, fe_vexpr(v.bp->base));
        for (int d = 0; d < v.bp->rank; d++) {
            fe_note_use(I, v.bp->shape[d]);
            fe_note_use(I, v.bp->strides[d]);
            fe_note_use(I, v.bp->offsets[d]);
        }
    }
}

Val fe_lookup(Interp *I, const char *name, SrcPos pos) {
    EnvEntry *e = fe_env_find(I->env, name);
    if (e) {
        fe_note_use(I, e->v);
        return e->v;
    }
    e = fe_env_find(&I->globals, name);
    Val resolved = e ? fe_resolve(I, e->v) : (Val){0};
    if (e && resolved.kind == V_NONCONST_GLOBAL && resolved.i == 3)
        fe_fail(I, pos, "'%s' (line %d) is %s", name, e->at.line, resolved.s);
    if (e && resolved.kind == V_NONCONST_GLOBAL && resolved.i == 2)
        fe_fail(I, pos,
                "the module-level constexpr '%s' (line %d) is computed by Python code that "
                "mytriton does not run (it evaluates literals, operators, tl's values and "
                "functions, and other constexprs): write its value",
                name, e->at.line);
    if (e && resolved.kind == V_NONCONST_GLOBAL)
        fe_fail(
            I, pos,
            "cannot access the global variable '%s' from a @triton.jit function (line %d): Triton "
            "lets kernels read only module-level constexprs made as `%s = tl.constexpr(value)`%s",
            name, e->at.line, name,
            e->v.i ? "; annotating it (`x: tl.constexpr = value`) at module level is not supported"
                   : "");
    if (e) return resolved;
    Builtin py = fe_python_builtin(name);
    if (py != B_COUNT) {
        Val v = {0};
        v.kind = V_FUNC;
        v.i = py;
        return v;
    }
    EnvEntry *local = fe_env_find(&I->loop_locals, name);
    if (local)
        fe_fail(
            I, pos,
            "undefined name '%s' (it is assigned at line %d inside the runtime loop at line %d, "
            "and names first "
            "created in a loop body do not exist after the loop: assign it before the loop to "
            "carry it)",
            name, local->at.line, (int)local->v.i);
    EnvEntry *branch = fe_env_find(&I->branch_locals, name);
    if (branch)
        fe_fail(
            I, pos,
            "undefined name '%s' (it is assigned at line %d in only one branch of the runtime if "
            "at line %d, so it "
            "does not exist after the if: assign it before the if, or in both branches)",
            name, branch->at.line, (int)branch->v.i);
    if (strcmp(name, "tl") == 0)
        fe_fail(I, pos, "undefined name 'tl' (add 'import triton.language as tl')");
    fe_fail(I, pos, "undefined name '%s'", name);
}
