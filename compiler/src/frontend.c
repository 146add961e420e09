/* The frontend: an interpreter over the kernel's Python AST (DESIGN 3.3,
 * the seed's ASTTracer). Compile-time values (constexprs, literals, range
 * over integers) follow Python semantics; everything symbolic builds
 * expression-tree nodes. Runtime `for` loops follow the seed exactly:
 * carried names are the names assigned in the body that existed before the
 * loop, in source order; the body is traced in an isolated environment;
 * captures are recorded by identity in first-use order and propagated to
 * enclosing loops; names first created in the body do not escape.
 *
 * Errors unwind with longjmp to frontend_build(): all memory is in the
 * compilation's arena, so nothing leaks. */
#include "frontend.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MAX_NODES and MAX_HEIGHT bound what unrolling can build: about 1 KiB of
 * memory per operation through the pipeline, and backends that walk
 * operand chains recursively (a chain of 2^15 is ~3 MiB of C stack). */
enum {
    MAX_LOOP_DEPTH = 256,
    MAX_EVAL_DEPTH = 1000,
    MAX_NODES = 1 << 20,
    MAX_HEIGHT = 1 << 15,
    MAX_UNROLL = 1 << 20
};

/* ---- Interpreter values ---------------------------------------------- */

typedef enum VKind {
    V_NONE,
    V_BOOL,
    V_INT,
    V_FLOAT,
    V_STR,
    V_TUPLE,
    V_LIST,
    V_EXPR,
    V_DTYPE,
    V_MODULE,
    V_FUNC,
    V_USERFUNC,
    V_SLICE,
    V_OPFN,   /* an op of ops.def callable as tl.<spelling>() (OPF_CALL), `i`: the Op */
    V_METHOD  /* a bound method: `s` its name, `items[0]` the receiver */
} VKind;

typedef struct Val {
    VKind kind;
    int64_t i;         /* V_BOOL, V_INT, V_DTYPE (DType), V_MODULE (Module), V_FUNC (Builtin), V_OPFN (Op) */
    double f;          /* V_FLOAT */
    const char *s;     /* V_STR, V_MODULE/V_USERFUNC name */
    struct Val *items; /* V_TUPLE, V_LIST */
    int n;
    Expr *e;           /* V_EXPR */
    int ptr;           /* V_DTYPE: a pointer to the dtype (p.dtype) */
} Val;

typedef enum Module { MOD_TRITON, MOD_TL, MOD_TL_MATH, MOD_PROPAGATE_NAN, MOD_OTHER } Module;

typedef enum Builtin {
    B_JIT,
    B_CONSTEXPR,
    B_PROGRAM_ID,
    B_ARANGE,
    B_LOAD,
    B_STORE,
    B_MAXIMUM,
    B_MINIMUM,
    B_WHERE,
    B_SUM,
    B_MAX,
    B_MIN,
    B_ZEROS,
    B_FULL,
    B_EMPTY,
    B_STATIC_RANGE,
    B_CDIV,
    B_RANGE,
    B_FLOAT,
    B_INT,
    B_BOOL,
    B_PY_MIN,
    B_PY_MAX,
    B_ABS,
    B_LEN,
    B_NUM_PROGRAMS,
    B_CAST,
    B_TO,
    B_CLAMP,
    B_SIGMOID,
    B_FDIV,
    B_MULTIPLE_OF,
    B_MAX_CONTIGUOUS,
    B_MAX_CONSTANCY,
    B_COUNT
} Builtin;

/* Parameters of each builtin, in order; `required` leading ones must be
 * given; names from `hints_from` on are accepted and ignored (Triton's
 * cache and eviction hints). `variadic`: Python's min/max. */
typedef struct BuiltinSpec {
    const char *display;
    const char *params[8];
    int required;
    int hints_from;
    int variadic;
} BuiltinSpec;

static const BuiltinSpec builtins[B_COUNT] = {
    [B_JIT] = {"triton.jit", {"fn"}, 1, 8, 0},
    [B_CONSTEXPR] = {"tl.constexpr", {"value"}, 1, 8, 0},
    [B_PROGRAM_ID] = {"tl.program_id", {"axis"}, 1, 8, 0},
    [B_ARANGE] = {"tl.arange", {"start", "end"}, 2, 8, 0},
    [B_LOAD] = {"tl.load", {"pointer", "mask", "other", "cache_modifier", "eviction_policy", "volatile"}, 1, 3, 0},
    [B_STORE] = {"tl.store", {"pointer", "value", "mask", "cache_modifier", "eviction_policy"}, 2, 3, 0},
    [B_MAXIMUM] = {"tl.maximum", {"x", "y", "propagate_nan"}, 2, 8, 0},
    [B_MINIMUM] = {"tl.minimum", {"x", "y", "propagate_nan"}, 2, 8, 0},
    [B_WHERE] = {"tl.where", {"condition", "x", "y"}, 3, 8, 0},
    [B_SUM] = {"tl.sum", {"input", "axis", "keep_dims", "dtype"}, 1, 8, 0},
    [B_MAX] = {"tl.max", {"input", "axis"}, 1, 8, 0},
    [B_MIN] = {"tl.min", {"input", "axis"}, 1, 8, 0},
    [B_ZEROS] = {"tl.zeros", {"shape", "dtype"}, 2, 8, 0},
    [B_FULL] = {"tl.full", {"shape", "value", "dtype"}, 3, 8, 0},
    [B_EMPTY] = {"tl.empty", {"shape", "dtype"}, 2, 8, 0},
    [B_STATIC_RANGE] = {"tl.static_range", {"arg1", "arg2", "arg3"}, 1, 8, 0},
    [B_CDIV] = {"tl.cdiv", {"x", "div"}, 2, 8, 0},
    [B_RANGE] = {"range", {"arg1", "arg2", "arg3"}, 1, 8, 0},
    [B_FLOAT] = {"float", {"x"}, 0, 8, 0},
    [B_INT] = {"int", {"x"}, 0, 8, 0},
    [B_BOOL] = {"bool", {"x"}, 0, 8, 0},
    [B_PY_MIN] = {"min", {0}, 1, 8, 1},
    [B_PY_MAX] = {"max", {0}, 1, 8, 1},
    [B_ABS] = {"abs", {"x"}, 1, 8, 0},
    [B_LEN] = {"len", {"obj"}, 1, 8, 0},
    [B_NUM_PROGRAMS] = {"tl.num_programs", {"axis"}, 1, 8, 0},
    [B_CAST] = {"tl.cast", {"input", "dtype", "fp_downcast_rounding", "bitcast"}, 2, 8, 0},
    [B_TO] = {"to", {"self", "dtype", "fp_downcast_rounding", "bitcast"}, 2, 8, 0},
    [B_CLAMP] = {"tl.clamp", {"x", "min", "max", "propagate_nan"}, 3, 8, 0},
    [B_SIGMOID] = {"tl.sigmoid", {"x"}, 1, 8, 0},
    [B_FDIV] = {"tl.fdiv", {"x", "y", "ieee_rounding"}, 2, 8, 0},
    [B_MULTIPLE_OF] = {"tl.multiple_of", {"input", "values"}, 2, 8, 0},
    [B_MAX_CONTIGUOUS] = {"tl.max_contiguous", {"input", "values"}, 2, 8, 0},
    [B_MAX_CONSTANCY] = {"tl.max_constancy", {"input", "values"}, 2, 8, 0},
};

/* Members of the language module (tl.X). */
static const struct {
    const char *name;
    VKind kind;
    int value;
} tl_members[] = {
    {"program_id", V_FUNC, B_PROGRAM_ID}, {"arange", V_FUNC, B_ARANGE},     {"load", V_FUNC, B_LOAD},
    {"store", V_FUNC, B_STORE},           {"maximum", V_FUNC, B_MAXIMUM},
    {"minimum", V_FUNC, B_MINIMUM},       {"where", V_FUNC, B_WHERE},       {"sum", V_FUNC, B_SUM},
    {"max", V_FUNC, B_MAX},               {"min", V_FUNC, B_MIN},           {"zeros", V_FUNC, B_ZEROS},
    {"full", V_FUNC, B_FULL},             {"empty", V_FUNC, B_EMPTY},       {"static_range", V_FUNC, B_STATIC_RANGE},
    {"cdiv", V_FUNC, B_CDIV},             {"constexpr", V_FUNC, B_CONSTEXPR}, {"num_programs", V_FUNC, B_NUM_PROGRAMS},
    {"cast", V_FUNC, B_CAST},             {"clamp", V_FUNC, B_CLAMP},       {"sigmoid", V_FUNC, B_SIGMOID},
    {"fdiv", V_FUNC, B_FDIV},             {"multiple_of", V_FUNC, B_MULTIPLE_OF},
    {"max_contiguous", V_FUNC, B_MAX_CONTIGUOUS}, {"max_constancy", V_FUNC, B_MAX_CONSTANCY},
    {"math", V_MODULE, MOD_TL_MATH},      {"PropagateNan", V_MODULE, MOD_PROPAGATE_NAN},
};

/* Members of tl.math (besides the ops of ops.def marked OPF_CALL). */
static const struct {
    const char *name;
    VKind kind;
    int value;
} math_members[] = {
    {"maximum", V_FUNC, B_MAXIMUM}, {"minimum", V_FUNC, B_MINIMUM}, {"fdiv", V_FUNC, B_FDIV},
    {"cdiv", V_FUNC, B_CDIV}, {"sigmoid", V_FUNC, B_SIGMOID}, {"clamp", V_FUNC, B_CLAMP},
};

/* A member of triton.language (math: of tl.math), or a V_NONE value. The
 * elementwise ops come from ops.def (OPF_CALL) and the dtypes from
 * dtypes.def; the rest from the tables above. */
static Val tl_member(const char *attr, int math) {
    Val v = {0};
    v.kind = V_NONE;
    if (math) {
        for (size_t i = 0; i < sizeof math_members / sizeof math_members[0]; i++)
            if (strcmp(math_members[i].name, attr) == 0) {
                v.kind = math_members[i].kind;
                v.i = math_members[i].value;
                return v;
            }
    } else {
        for (size_t i = 0; i < sizeof tl_members / sizeof tl_members[0]; i++)
            if (strcmp(tl_members[i].name, attr) == 0) {
                v.kind = tl_members[i].kind;
                v.i = tl_members[i].value;
                return v;
            }
        DType dt = dtype_by_triton(attr);
        if (dt != DT_NONE) {
            v.kind = V_DTYPE;
            v.i = dt;
            return v;
        }
    }
    for (int op = 0; op < OP_COUNT; op++)
        if (op_has((Op)op, OPF_CALL) && strcmp(op_info((Op)op)->name, attr) == 0) {
            v.kind = V_OPFN;
            v.i = op;
            return v;
        }
    return v;
}

/* Every name tl.X / tl.math.X accepts, for "did you mean" suggestions. */
static const char *closest_member(Arena *a, const char *attr, int math) {
    (void)a;
    const char *best = NULL;
    int best_d = 3;
    const char *names[256];
    int n = 0;
    if (math) {
        for (size_t i = 0; i < sizeof math_members / sizeof math_members[0]; i++) names[n++] = math_members[i].name;
    } else {
        for (size_t i = 0; i < sizeof tl_members / sizeof tl_members[0]; i++) names[n++] = tl_members[i].name;
        for (int d = 1; d < DT_COUNT; d++) names[n++] = dtype_info((DType)d)->triton;
    }
    for (int op = 0; op < OP_COUNT && n < 256; op++)
        if (op_has((Op)op, OPF_CALL)) names[n++] = op_info((Op)op)->name;
    for (int i = 0; i < n; i++) {
        /* Levenshtein distance, small strings */
        const char *x = attr, *y = names[i];
        size_t lx = strlen(x), ly = strlen(y);
        if (lx > 40 || ly > 40) continue;
        int row[41];
        for (size_t j = 0; j <= ly; j++) row[j] = (int)j;
        for (size_t k = 1; k <= lx; k++) {
            int prev = row[0];
            row[0] = (int)k;
            for (size_t j = 1; j <= ly; j++) {
                int cur = row[j];
                int sub = prev + (x[k - 1] != y[j - 1]);
                int del = row[j] + 1, ins = row[j - 1] + 1;
                row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
                prev = cur;
            }
        }
        int limit = lx >= 6 ? 2 : 1; /* a near miss, not any short name */
        if (row[ly] <= limit && row[ly] < best_d) best_d = row[ly], best = names[i];
    }
    return best;
}

/* ---- Environments: name -> value hash maps ---------------------------- */

typedef struct EnvEntry {
    const char *name;
    Val v;
    SrcPos at; /* where it was last assigned */
} EnvEntry;

typedef struct Env {
    EnvEntry *slots;
    int cap, count;
} Env;

static unsigned hash_name(const char *s) {
    unsigned h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static EnvEntry *env_find(const Env *env, const char *name) {
    if (!env->cap) return NULL;
    unsigned mask = (unsigned)env->cap - 1;
    for (unsigned i = hash_name(name) & mask;; i = (i + 1) & mask) {
        EnvEntry *e = &env->slots[i];
        if (!e->name) return NULL;
        if (strcmp(e->name, name) == 0) return e;
    }
}

static void env_set(Arena *a, Env *env, const char *name, Val v, SrcPos at) {
    EnvEntry *e = env_find(env, name);
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
            if (old[i].name) env_set(a, env, old[i].name, old[i].v, old[i].at);
    }
    unsigned mask = (unsigned)env->cap - 1;
    unsigned i = hash_name(name) & mask;
    while (env->slots[i].name) i = (i + 1) & mask;
    env->slots[i].name = name;
    env->slots[i].v = v;
    env->slots[i].at = at;
    env->count++;
}

static Env env_copy(Arena *a, const Env *src) {
    Env e = *src;
    e.slots = ARENA_ARRAY(a, EnvEntry, src->cap ? src->cap : 1);
    if (src->cap) memcpy(e.slots, src->slots, sizeof(EnvEntry) * (size_t)src->cap);
    return e;
}

/* ---- The interpreter ----------------------------------------------------- */

/* A statement list being built: the kernel body or a loop body. Loads
 * created in earlier statements of the list are lowered before the next
 * store or loop, so memory order follows the source. */
typedef struct StmtList {
    PtrVec *stmts;
    PtrVec pending;  /* loads not yet attached to a statement */
    int mark;        /* pending.len when the current statement began */
} StmtList;

typedef struct Interp {
    MtContext *ctx;
    Arena *a;
    Kernel *k;
    jmp_buf fail;
    Env globals;      /* module-level imports and functions */
    Env *env;         /* the current local environment */
    StmtList *list;
    ForRange *loops[MAX_LOOP_DEPTH]; /* loops whose bodies are being traced */
    int depth;
    Env loop_locals;  /* names first created in a runtime loop body */
    int eval_depth;
} Interp;

static _Noreturn void fail(Interp *I, SrcPos pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static _Noreturn void fail(Interp *I, SrcPos pos, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    mt_verror(I->ctx, pos, fmt, ap);
    va_end(ap);
    longjmp(I->fail, 1);
}

static Val vnone(void) { Val v = {0}; v.kind = V_NONE; return v; }
static Val vint(int64_t i) { Val v = {0}; v.kind = V_INT; v.i = i; return v; }
static Val vbool(int b) { Val v = {0}; v.kind = V_BOOL; v.i = b ? 1 : 0; return v; }
static Val vfloat(double f) { Val v = {0}; v.kind = V_FLOAT; v.f = f; return v; }
static Val vexpr(Expr *e) { Val v = {0}; v.kind = V_EXPR; v.e = e; return v; }

static int is_intlike(Val v) { return v.kind == V_INT || v.kind == V_BOOL; }
static int is_number(Val v) { return is_intlike(v) || v.kind == V_FLOAT; }
static double as_double(Val v) { return v.kind == V_FLOAT ? v.f : (double)v.i; }

static const char *kind_name(Val v) {
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
    }
    return "a value";
}

/* ---- Expression nodes ------------------------------------------------- */

static Expr *new_expr(Interp *I, ExprKind kind, SrcPos pos, Type t) {
    if (I->k->nexprs >= MAX_NODES)
        fail(I, pos, "the kernel grows past %d operations (a compile-time loop unrolls too far?)", MAX_NODES);
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

static Expr *mk_const(Interp *I, ConstVal c, SrcPos pos) {
    Expr *e = new_expr(I, EX_CONST, pos, type_scalar(c.dt));
    e->c = c;
    return e;
}

static Expr *mk_op(Interp *I, Op op, const char *display, SrcPos pos, int n, Expr *a0, Expr *a1, Expr *a2,
                   const Attrs *at) {
    Expr *args[3] = {a0, a1, a2};
    Type types[3] = {{0}};
    uint8_t flags[3] = {0};
    for (int i = 0; i < n; i++) {
        if (args[i]) types[i] = args[i]->type, flags[i] = (uint8_t)(ARG_PRESENT | (args[i]->kind == EX_CONST ? ARG_WEAK : 0));
    }
    Attrs none = {0};
    Type t;
    const char *err;
    if (!op_result_type_ex(I->a, op, display, types, flags, at ? at : &none, &t, &err)) fail(I, pos, "%s", err);
    int height = 1;
    for (int i = 0; i < n; i++)
        if (args[i] && args[i]->height >= height) height = args[i]->height + 1;
    if (height > MAX_HEIGHT)
        fail(I, pos,
             "this operation ends a chain of more than %d dependent operations (a compile-time loop unrolls too far? "
             "a runtime loop keeps the chain short)",
             MAX_HEIGHT);
    Expr *e = new_expr(I, EX_OP, pos, t);
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
static Expr *to_expr(Interp *I, Val v, SrcPos pos, const char *what) {
    switch (v.kind) {
    case V_EXPR: return v.e;
    case V_BOOL: return mk_const(I, const_bool((int)v.i), pos);
    case V_INT: return mk_const(I, const_int(const_int_dtype(v.i, 0), v.i), pos);
    case V_FLOAT: {
        ConstVal c = {const_float_dtype(v.f), 0, v.f};
        return mk_const(I, c, pos);
    }
    default: fail(I, pos, "%s needs a number or a block, not %s", what, kind_name(v));
    }
}

/* `e` converted to `dt`: a cast op (a constant converts at compile time). */
static Expr *cast_to(Interp *I, Expr *e, DType dt, SrcPos pos) {
    if (e->type.dtype == dt) return e;
    if (e->kind == EX_CONST) return mk_const(I, const_convert(e->c, dt), pos);
    Attrs at = {0};
    at.dtype = dt;
    return mk_op(I, OP_CAST, "cast", pos, 1, e, NULL, NULL, &at);
}

/* A value stored to / loaded as / filling `dt`: Triton casts it implicitly.
 * The seed's conversions between i32 and f32 stay implicit (C performs
 * them); a Python scalar becomes a constant of `dt`. */
static Expr *to_expr_as(Interp *I, Val v, DType dt, SrcPos pos, const char *what) {
    if (v.kind == V_EXPR) {
        DType from = (DType)v.e->type.dtype;
        if (v.e->type.ptr) fail(I, pos, "%s: a pointer cannot convert to %s", what, dtype_name(dt));
        int seed = (from == DT_I32 || from == DT_F32) && (dt == DT_I32 || dt == DT_F32);
        if (from == dt || seed) return v.e;
        return cast_to(I, v.e, dt, pos);
    }
    if (!is_number(v)) return to_expr(I, v, pos, what);
    if (dt == DT_I32 && v.kind == V_FLOAT) {
        if (!isfinite(v.f) || v.f < -2147483648.0 || v.f >= 2147483648.0) fail(I, pos, "%s: the float does not fit in i32", what);
        return mk_const(I, const_i32((int64_t)v.f), pos);
    }
    if (dt == DT_F32 && v.kind == V_INT) return to_expr(I, vfloat((double)v.i), pos, what);
    if (dt == DT_I32 || dt == DT_F32 || dt == DT_BOOL) {
        if (dt == DT_BOOL && v.kind != V_BOOL) return mk_const(I, const_convert(to_expr(I, v, pos, what)->c, dt), pos);
        return to_expr(I, v, pos, what);
    }
    Expr *c = to_expr(I, v, pos, what);
    return mk_const(I, const_convert(c->c, dt), pos);
}

/* ---- Names and captures ------------------------------------------------ */

static void add_capture(Interp *I, ForRange *loop, Expr *e) {
    for (int i = 0; i < loop->captures.len; i++)
        if (loop->captures.items[i] == e) return;
    ptrvec_push(I->a, &loop->captures, e);
}

/* An outer value read in a loop body is a capture of every loop between
 * its definition and here (seed: recorded by identity, first-use order,
 * propagated to enclosing loops). */
static void note_use(Interp *I, Val v) {
    if (v.kind == V_EXPR) {
        for (int d = v.e->depth; d < I->depth; d++) add_capture(I, I->loops[d], v.e);
    } else if (v.kind == V_TUPLE || v.kind == V_LIST) {
        for (int i = 0; i < v.n; i++) note_use(I, v.items[i]);
    }
}

static Val lookup(Interp *I, const char *name, SrcPos pos) {
    EnvEntry *e = env_find(I->env, name);
    if (e) {
        note_use(I, e->v);
        return e->v;
    }
    e = env_find(&I->globals, name);
    if (e) return e->v;
    static const struct {
        const char *name;
        Builtin b;
    } py[] = {{"range", B_RANGE}, {"float", B_FLOAT}, {"int", B_INT}, {"bool", B_BOOL},
              {"min", B_PY_MIN},  {"max", B_PY_MAX},   {"abs", B_ABS}, {"len", B_LEN}};
    for (size_t i = 0; i < sizeof py / sizeof py[0]; i++)
        if (strcmp(py[i].name, name) == 0) {
            Val v = {0};
            v.kind = V_FUNC;
            v.i = py[i].b;
            return v;
        }
    EnvEntry *local = env_find(&I->loop_locals, name);
    if (local)
        fail(I, pos,
             "undefined name '%s' (it is assigned at line %d inside the runtime loop at line %d, and names first "
             "created in a loop body do not exist after the loop: assign it before the loop to carry it)",
             name, local->at.line, (int)local->v.i);
    if (strcmp(name, "tl") == 0) fail(I, pos, "undefined name 'tl' (add 'import triton.language as tl')");
    fail(I, pos, "undefined name '%s'", name);
}

/* ---- Compile-time arithmetic with Python semantics ---------------------- */

static const char *py_op_symbol(const char *op) {
    static const struct {
        const char *op, *sym;
    } t[] = {{"Add", "+"},      {"Sub", "-"},      {"Mult", "*"},     {"Div", "/"},     {"FloorDiv", "//"},
             {"Mod", "%"},      {"Pow", "**"},     {"LShift", "<<"},  {"RShift", ">>"}, {"BitOr", "|"},
             {"BitXor", "^"},   {"BitAnd", "&"},   {"MatMult", "@"},  {"Lt", "<"},      {"LtE", "<="},
             {"Gt", ">"},       {"GtE", ">="},     {"Eq", "=="},      {"NotEq", "!="},  {"Is", "is"},
             {"IsNot", "is not"}, {"In", "in"},    {"NotIn", "not in"}, {"USub", "-"},  {"UAdd", "+"},
             {"Not", "not"},    {"Invert", "~"}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(t[i].op, op) == 0) return t[i].sym;
    return op;
}

static void py_float_divmod(double vx, double wx, double *floordiv, double *modulo) {
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

static int values_equal(Val a, Val b) {
    if (is_number(a) && is_number(b)) {
        if (a.kind == V_FLOAT || b.kind == V_FLOAT) return as_double(a) == as_double(b);
        return a.i == b.i;
    }
    if (a.kind != b.kind) return 0;
    switch (a.kind) {
    case V_NONE: return 1;
    case V_STR: return strcmp(a.s, b.s) == 0;
    case V_TUPLE:
    case V_LIST:
        if (a.n != b.n) return 0;
        for (int i = 0; i < a.n; i++)
            if (!values_equal(a.items[i], b.items[i])) return 0;
        return 1;
    case V_DTYPE:
    case V_MODULE:
    case V_FUNC: return a.i == b.i;
    case V_EXPR: return a.e == b.e;
    default: return 0;
    }
}

static int truthy(Interp *I, Val v, SrcPos pos, const char *what) {
    switch (v.kind) {
    case V_NONE: return 0;
    case V_BOOL:
    case V_INT: return v.i != 0;
    case V_FLOAT: return v.f != 0;
    case V_STR: return v.s[0] != 0;
    case V_TUPLE:
    case V_LIST: return v.n != 0;
    case V_EXPR: fail(I, pos, "%s", what);
    default: return 1;
    }
}

static Val ct_binop(Interp *I, const char *op, Val a, Val b, SrcPos pos) {
    const char *sym = py_op_symbol(op);
    if ((a.kind == V_TUPLE || a.kind == V_LIST) && a.kind == b.kind && strcmp(op, "Add") == 0) {
        Val r = a;
        r.n = a.n + b.n;
        r.items = ARENA_ARRAY(I->a, Val, r.n + 1);
        for (int i = 0; i < a.n; i++) r.items[i] = a.items[i];
        for (int i = 0; i < b.n; i++) r.items[a.n + i] = b.items[i];
        return r;
    }
    if (!is_number(a) || !is_number(b))
        fail(I, pos, "unsupported operand types for '%s': %s and %s", sym, kind_name(a), kind_name(b));
    if (is_intlike(a) && is_intlike(b)) {
        int64_t x = a.i, y = b.i, r;
        if (strcmp(op, "Add") == 0) {
            if (__builtin_add_overflow(x, y, &r)) goto overflow;
            return vint(r);
        }
        if (strcmp(op, "Sub") == 0) {
            if (__builtin_sub_overflow(x, y, &r)) goto overflow;
            return vint(r);
        }
        if (strcmp(op, "Mult") == 0) {
            if (__builtin_mul_overflow(x, y, &r)) goto overflow;
            return vint(r);
        }
        if (strcmp(op, "Div") == 0) {
            if (y == 0) fail(I, pos, "division by zero");
            return vfloat((double)x / (double)y);
        }
        if (strcmp(op, "FloorDiv") == 0 || strcmp(op, "Mod") == 0) {
            if (y == 0) fail(I, pos, "integer division or modulo by zero");
            if (x == INT64_MIN && y == -1) goto overflow;
            int64_t q = x / y, m = x % y;
            if (m != 0 && ((m < 0) != (y < 0))) q -= 1, m += y;
            return vint(op[0] == 'F' ? q : m);
        }
        if (strcmp(op, "LShift") == 0 || strcmp(op, "RShift") == 0) {
            if (y < 0) fail(I, pos, "negative shift count");
            if (op[0] == 'R') return vint(y >= 63 ? (x < 0 ? -1 : 0) : x >> y);
            if (y >= 63 || (x != 0 && (x > (INT64_MAX >> y) || x < (INT64_MIN >> y)))) goto overflow;
            return vint((int64_t)((uint64_t)x << y));
        }
        if (strcmp(op, "BitAnd") == 0 || strcmp(op, "BitOr") == 0 || strcmp(op, "BitXor") == 0) {
            int64_t v = op[3] == 'A' ? (x & y) : op[3] == 'O' ? (x | y) : (x ^ y);
            if (a.kind == V_BOOL && b.kind == V_BOOL) return vbool((int)v);
            return vint(v);
        }
        fail(I, pos, "operator '%s' is not supported", sym);
    overflow:
        fail(I, pos, "integer overflow in a compile-time '%s' (compile-time integers are 64-bit)", sym);
    }
    double x = as_double(a), y = as_double(b);
    if (strcmp(op, "Add") == 0) return vfloat(x + y);
    if (strcmp(op, "Sub") == 0) return vfloat(x - y);
    if (strcmp(op, "Mult") == 0) return vfloat(x * y);
    if (strcmp(op, "Div") == 0) {
        if (y == 0) fail(I, pos, "float division by zero");
        return vfloat(x / y);
    }
    if (strcmp(op, "FloorDiv") == 0 || strcmp(op, "Mod") == 0) {
        if (y == 0) fail(I, pos, "float floor division or modulo by zero");
        double q, m;
        py_float_divmod(x, y, &q, &m);
        return vfloat(op[0] == 'F' ? q : m);
    }
    fail(I, pos, "unsupported operand types for '%s': %s and %s", sym, kind_name(a), kind_name(b));
}

static Val ct_compare(Interp *I, const char *op, Val a, Val b, SrcPos pos) {
    if (strcmp(op, "Eq") == 0) return vbool(values_equal(a, b));
    if (strcmp(op, "NotEq") == 0) return vbool(!values_equal(a, b));
    if (strcmp(op, "Is") == 0 || strcmp(op, "IsNot") == 0) {
        int same = (a.kind == V_NONE && b.kind == V_NONE) ||
                   (a.kind == b.kind && (a.kind == V_BOOL) && a.i == b.i) ||
                   (a.kind == V_EXPR && b.kind == V_EXPR && a.e == b.e) ||
                   (a.kind == b.kind && (a.kind == V_DTYPE || a.kind == V_MODULE || a.kind == V_FUNC) && a.i == b.i);
        return vbool(op[2] == 0 ? same : !same);
    }
    if (strcmp(op, "In") == 0 || strcmp(op, "NotIn") == 0) {
        if (b.kind != V_TUPLE && b.kind != V_LIST) fail(I, pos, "'in' needs a tuple or a list on its right");
        int found = 0;
        for (int i = 0; i < b.n && !found; i++) found = values_equal(a, b.items[i]);
        return vbool(op[0] == 'I' ? found : !found);
    }
    if (!is_number(a) || !is_number(b))
        fail(I, pos, "'%s' is not supported between %s and %s", py_op_symbol(op), kind_name(a), kind_name(b));
    double x = as_double(a), y = as_double(b);
    int r;
    if (is_intlike(a) && is_intlike(b)) {
        int64_t p = a.i, q = b.i;
        r = strcmp(op, "Lt") == 0 ? p < q : strcmp(op, "LtE") == 0 ? p <= q : strcmp(op, "Gt") == 0 ? p > q : p >= q;
    } else {
        r = strcmp(op, "Lt") == 0 ? x < y : strcmp(op, "LtE") == 0 ? x <= y : strcmp(op, "Gt") == 0 ? x > y : x >= y;
    }
    return vbool(r);
}

/* ---- Symbolic operators ------------------------------------------------ */

/* Triton's implicit conversions of a binary op's operands (semantic.py's
 * binary_op_type_checking_impl): the computation type, a range check of
 * Python integers, and a cast of each runtime operand that does not reach
 * it as C would (dtype_implicit). Returns the computation type. */
static DType promote_pair(Interp *I, const char *display, Expr **a, Expr **b, int div_or_mod, SrcPos pos) {
    Expr *x[2] = {*a, *b};
    for (int i = 0; i < 2; i++)
        if (x[i]->type.ptr) fail(I, pos, "%s is not supported on pointers (got %s)", display, type_str(I->a, x[i]->type));
    const char *err = NULL;
    int weak[2] = {x[0]->kind == EX_CONST, x[1]->kind == EX_CONST};
    DType ct = promote_dtypes(I->a, (DType)x[0]->type.dtype, weak[0], (DType)x[1]->type.dtype, weak[1], div_or_mod, &err);
    if (ct == DT_NONE) fail(I, pos, "%s: %s", display, err);
    for (int i = 0; i < 2; i++) {
        if (!weak[i]) continue;
        ConstVal c = x[i]->c;
        if (dtype_is_int(ct) && ct != DT_BOOL && !dtype_is_float(c.dt)) {
            int neg = !dtype_is_unsigned(c.dt) && c.i < 0;
            if (neg && dtype_is_unsigned(ct))
                fail(I, pos, "%s between an unsigned %s value and the negative scalar %s (cast one of them explicitly, as "
                     "Triton requires)", display, dtype_name(ct), const_repr(I->a, c));
            int big = (c.dt == DT_U64 && (uint64_t)c.i > dtype_int_max(ct)) ||
                      (c.dt != DT_U64 && (c.i < dtype_int_min(ct) || (c.i > 0 && (uint64_t)c.i > dtype_int_max(ct))));
            if (big) fail(I, pos, "%s: the scalar %s is out of range for %s", display, const_repr(I->a, c), dtype_name(ct));
        }
    }
    for (int i = 0; i < 2; i++)
        if (!weak[i] && !dtype_implicit((DType)x[i]->type.dtype, ct)) x[i] = cast_to(I, x[i], ct, pos);
    *a = x[0];
    *b = x[1];
    return ct;
}

/* A binary op of ops.def on two runtime or constant operands, converted as
 * Triton converts them for that op. */
static Expr *binary_expr(Interp *I, Op op, const char *display, Expr *ea, Expr *eb, SrcPos pos, const Attrs *at) {
    TypeRule rule = op_info(op)->rule;
    int div_or_mod = rule == TR_DIV || rule == TR_DIVMOD || rule == TR_INT_DIVMOD;
    if (rule == TR_BITWISE || rule == TR_SHIFT || rule == TR_INT_DIVMOD) {
        for (int i = 0; i < 2; i++) {
            Expr *e = i ? eb : ea;
            if (e->type.ptr || dtype_is_float((DType)e->type.dtype))
                fail(I, pos, "%s needs integer or bool operands (got %s and %s): Triton has no %s on floats", display,
                     type_str(I->a, ea->type), type_str(I->a, eb->type), display);
        }
    }
    DType ct = promote_pair(I, display, &ea, &eb, div_or_mod, pos);
    if (rule == TR_DIV && !dtype_is_float(ct)) {
        /* int / int: both as f32 (the seed's i32 / i32 stays implicit) */
        if (ea->kind != EX_CONST && ea->type.dtype != DT_I32) ea = cast_to(I, ea, DT_F32, pos);
        if (eb->kind != EX_CONST && eb->type.dtype != DT_I32) eb = cast_to(I, eb, DT_F32, pos);
    }
    return mk_op(I, op, display, pos, 2, ea, eb, NULL, at);
}

static Val sym_binop(Interp *I, const char *op, Val a, Val b, SrcPos pos) {
    const char *sym = py_op_symbol(op);
    char display[16];
    snprintf(display, sizeof display, "'%s'", sym);
    if (strcmp(op, "Pow") == 0) fail(I, pos, "'**' is not supported (multiply explicitly, e.g. x * x)");
    Expr *ea = to_expr(I, a, pos, display), *eb = to_expr(I, b, pos, display);
    if (strcmp(op, "Add") == 0 || (strcmp(op, "Sub") == 0 && ea->type.ptr && !eb->type.ptr)) {
        if (ea->type.ptr && eb->type.ptr) fail(I, pos, "cannot add two pointers");
        if (ea->type.ptr || eb->type.ptr) {
            Expr *p = ea->type.ptr ? ea : eb, *off = ea->type.ptr ? eb : ea;
            if (off->type.ptr || !dtype_is_int((DType)off->type.dtype) || off->type.dtype == DT_BOOL)
                fail(I, pos, "a pointer offset must be an integer (got %s)", type_str(I->a, off->type));
            if (strcmp(op, "Sub") == 0) off = mk_op(I, OP_NEG, "unary '-'", pos, 1, off, NULL, NULL, NULL);
            return vexpr(mk_op(I, OP_ADDPTR, display, pos, 2, p, off, NULL, NULL));
        }
    }
    if (ea->type.ptr || eb->type.ptr) {
        if (strcmp(op, "Sub") == 0) fail(I, pos, "pointer subtraction is not supported (add a negative offset instead)");
        fail(I, pos, "'%s' is not supported on pointers (only pointer + integer offset)", sym);
    }
    static const struct {
        const char *op;
        Op code;
    } table[] = {{"Add", OP_ADD},      {"Sub", OP_SUB},       {"Mult", OP_MUL},     {"Div", OP_DIV},
                 {"FloorDiv", OP_FLOORDIV}, {"Mod", OP_MOD},  {"BitAnd", OP_AND},   {"BitOr", OP_OR},
                 {"BitXor", OP_XOR},  {"LShift", OP_SHL},    {"RShift", OP_SHR}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].op, op) == 0) return vexpr(binary_expr(I, table[i].code, display, ea, eb, pos, NULL));
    fail(I, pos, "operator '%s' is not supported on runtime values", sym);
}

static Val binop(Interp *I, const char *op, Val a, Val b, SrcPos pos) {
    if (strcmp(op, "Pow") == 0) fail(I, pos, "'**' is not supported (multiply explicitly, e.g. x * x)");
    if (strcmp(op, "MatMult") == 0) fail(I, pos, "'@' is not supported");
    if (a.kind == V_EXPR || b.kind == V_EXPR) return sym_binop(I, op, a, b, pos);
    return ct_binop(I, op, a, b, pos);
}

static Val compare(Interp *I, const char *op, Val a, Val b, SrcPos pos) {
    if (a.kind != V_EXPR && b.kind != V_EXPR) return ct_compare(I, op, a, b, pos);
    static const struct {
        const char *op;
        Op code;
    } table[] = {{"Lt", OP_CMP_LT}, {"LtE", OP_CMP_LE}, {"Gt", OP_CMP_GT},
                 {"GtE", OP_CMP_GE}, {"Eq", OP_CMP_EQ}, {"NotEq", OP_CMP_NE}};
    if ((strcmp(op, "Is") == 0 || strcmp(op, "IsNot") == 0)) return ct_compare(I, op, a, b, pos);
    char display[16];
    snprintf(display, sizeof display, "'%s'", py_op_symbol(op));
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].op, op) == 0) {
            Expr *ea = to_expr(I, a, pos, display), *eb = to_expr(I, b, pos, display);
            if (ea->type.ptr || eb->type.ptr) fail(I, pos, "%s is not supported on pointers", display);
            return vexpr(binary_expr(I, table[i].code, display, ea, eb, pos, NULL));
        }
    fail(I, pos, "'%s' is not supported on runtime values", py_op_symbol(op));
}

/* ---- Expressions -------------------------------------------------------- */

static Val eval(Interp *I, const PyNode *n);
static void visit_body(Interp *I, const PyVal *stmts);

static const PyNode *list_node(const PyVal *list, int i) {
    const PyVal *v = list->items[i];
    return v->kind == PYV_NODE ? v->node : NULL;
}

static Val eval_constant(Interp *I, const PyNode *n) {
    const PyVal *v = pyast_field(n, "value");
    if (!v) fail(I, n->pos, "malformed constant");
    switch (v->kind) {
    case PYV_NONE: return vnone();
    case PYV_BOOL: return vbool((int)v->i);
    case PYV_INT:
        if (!v->int_fits) fail(I, n->pos, "the integer literal %.40s%s is too large", v->text, strlen(v->text) > 40 ? "..." : "");
        return vint(v->i);
    case PYV_FLOAT: return vfloat(v->f);
    case PYV_STR: {
        Val s = {0};
        s.kind = V_STR;
        s.s = v->text;
        return s;
    }
    case PYV_COMPLEX: fail(I, n->pos, "complex numbers are not supported");
    case PYV_BYTES: fail(I, n->pos, "bytes literals are not supported");
    case PYV_ELLIPSIS: fail(I, n->pos, "'...' is not supported");
    default: fail(I, n->pos, "unsupported constant");
    }
}

static Val make_seq(Interp *I, VKind kind, const PyVal *elts, int pos_line) {
    (void)pos_line;
    Val r = {0};
    r.kind = kind;
    r.n = elts ? elts->len : 0;
    r.items = ARENA_ARRAY(I->a, Val, r.n + 1);
    for (int i = 0; i < r.n; i++) {
        const PyNode *e = list_node(elts, i);
        if (!e) fail(I, srcpos(0, 0), "malformed sequence");
        if (pyast_is(e, "Starred")) fail(I, e->pos, "starred expressions are not supported");
        r.items[i] = eval(I, e);
    }
    return r;
}

/* x[:, None] / x[None, :] / x[None] on blocks; t[i] on compile-time tuples. */
static Val eval_subscript(Interp *I, const PyNode *n) {
    Val base = eval(I, pyast_node(n, "value"));
    const PyNode *sl = pyast_node(n, "slice");
    if (!sl) fail(I, n->pos, "malformed subscript");
    if (base.kind == V_TUPLE || base.kind == V_LIST) {
        if (pyast_is(sl, "Slice")) fail(I, sl->pos, "slicing a tuple is not supported");
        Val idx = eval(I, sl);
        if (!is_intlike(idx)) fail(I, sl->pos, "a tuple index must be a compile-time integer, not %s", kind_name(idx));
        int64_t i = idx.i < 0 ? idx.i + base.n : idx.i;
        if (i < 0 || i >= base.n) fail(I, sl->pos, "tuple index %lld out of range (length %d)", (long long)idx.i, base.n);
        return base.items[i];
    }
    if (base.kind != V_EXPR) fail(I, n->pos, "%s cannot be indexed", kind_name(base));
    /* the index items: ':' keeps a dimension, None inserts one */
    const PyNode *items[8];
    int nitems = 0;
    if (pyast_is(sl, "Tuple")) {
        const PyVal *elts = pyast_list(sl, "elts");
        if (!elts || elts->len > 8) fail(I, sl->pos, "too many indices");
        for (int i = 0; i < elts->len; i++) items[nitems++] = list_node(elts, i);
    } else {
        items[nitems++] = sl;
    }
    Expr *x = base.e;
    int kept = 0, out_axis = 0;
    for (int i = 0; i < nitems; i++) {
        const PyNode *it = items[i];
        if (!it) fail(I, sl->pos, "malformed index");
        if (pyast_is(it, "Slice")) {
            if (pyast_node(it, "lower") || pyast_node(it, "upper") || pyast_node(it, "step"))
                fail(I, it->pos, "only ':' and None can index a block (slicing with bounds is not supported)");
            kept++;
            out_axis++;
        } else if (pyast_is(it, "Constant") && pyast_field(it, "value") && pyast_field(it, "value")->kind == PYV_NONE) {
            Attrs at = {0};
            at.axis = out_axis;
            x = mk_op(I, OP_EXPAND_DIMS, "expand_dims", it->pos, 1, x, NULL, NULL, &at);
            out_axis++;
        } else {
            fail(I, it->pos, "only ':' and None can index a block (element indexing is not supported)");
        }
    }
    if (kept != base.e->type.rank)
        fail(I, sl->pos, "the index has %d ':' but the block has rank %d (one ':' per dimension)", kept, base.e->type.rank);
    return vexpr(x);
}

static Val eval_attribute(Interp *I, const PyNode *n) {
    const char *attr = pyast_str(n, "attr");
    Val base = eval(I, pyast_node(n, "value"));
    if (!attr) fail(I, n->pos, "malformed attribute");
    if (base.kind == V_MODULE) {
        if (base.i == MOD_TRITON) {
            if (strcmp(attr, "jit") == 0) {
                Val v = {0};
                v.kind = V_FUNC;
                v.i = B_JIT;
                return v;
            }
            if (strcmp(attr, "language") == 0) {
                Val v = {0};
                v.kind = V_MODULE;
                v.i = MOD_TL;
                v.s = "triton.language";
                return v;
            }
            if (strcmp(attr, "cdiv") == 0) {
                Val v = {0};
                v.kind = V_FUNC;
                v.i = B_CDIV;
                return v;
            }
            fail(I, n->pos, "'%s.%s' is not supported", base.s, attr);
        }
        if (base.i == MOD_TL || base.i == MOD_TL_MATH) {
            int math = base.i == MOD_TL_MATH;
            Val v = tl_member(attr, math);
            if (v.kind == V_MODULE) v.s = arena_printf(I->a, "tl.%s", attr);
            if (v.kind != V_NONE) return v;
            const char *near = closest_member(I->a, attr, math);
            if (near) fail(I, n->pos, "'%s.%s' is not supported by mytriton (did you mean '%s.%s'?)", math ? "tl.math" : "tl", attr,
                           math ? "tl.math" : "tl", near);
            fail(I, n->pos, "'%s.%s' is not supported by mytriton (docs/language.md lists what is)", math ? "tl.math" : "tl", attr);
        }
        if (base.i == MOD_PROPAGATE_NAN) {
            if (strcmp(attr, "NONE") == 0) return vint(0);
            if (strcmp(attr, "ALL") == 0) return vint(0xFFFF);
            fail(I, n->pos, "tl.PropagateNan has no member '%s' (NONE or ALL)", attr);
        }
        fail(I, n->pos, "'%s.%s' is not supported (only triton.language functions can be used in kernels)", base.s, attr);
    }
    if (base.kind == V_EXPR) {
        Type t = base.e->type;
        if (strcmp(attr, "dtype") == 0) {
            Val v = {0};
            v.kind = V_DTYPE;
            v.i = t.dtype;
            v.ptr = t.ptr;
            return v;
        }
        if (strcmp(attr, "shape") == 0) {
            Val v = {0};
            v.kind = V_TUPLE;
            v.n = t.rank;
            v.items = ARENA_ARRAY(I->a, Val, t.rank + 1);
            for (int i = 0; i < t.rank; i++) v.items[i] = vint(t.dims[i]);
            return v;
        }
        if (strcmp(attr, "numel") == 0) return vint(type_numel(t));
        /* methods: x.to(...), and the tl functions Triton makes members (x.exp(), x.sum()) */
        Val m = tl_member(attr, 0);
        if (strcmp(attr, "to") == 0 || m.kind == V_OPFN || (m.kind == V_FUNC && (m.i == B_SUM || m.i == B_MAX || m.i == B_MIN ||
                                                                               m.i == B_SIGMOID || m.i == B_CAST))) {
            Val v = {0};
            v.kind = V_METHOD;
            v.s = attr;
            v.n = 1;
            v.items = ARENA_ARRAY(I->a, Val, 1);
            v.items[0] = base;
            return v;
        }
        fail(I, n->pos, "the attribute '%s' of a block is not supported", attr);
    }
    if (base.kind == V_DTYPE) {
        DType dt = (DType)base.i;
        const DTypeInfo *d = dtype_info(dt);
        if (strcmp(attr, "element_ty") == 0) {
            if (!base.ptr) fail(I, n->pos, "'element_ty' is the pointee of a pointer dtype (%s is not one)", d->triton);
            Val v = base;
            v.ptr = 0;
            return v;
        }
        if (strcmp(attr, "primitive_bitwidth") == 0) return vint(base.ptr ? 64 : d->bits);
        if (strcmp(attr, "name") == 0) {
            Val v = {0};
            v.kind = V_STR;
            v.s = d->triton;
            return v;
        }
        static const char *const preds[] = {"is_floating", "is_int", "is_int_signed", "is_int_unsigned", "is_bool", "is_ptr",
                                            "is_fp16", "is_bf16", "is_fp32", "is_fp64", "is_int8", "is_int16", "is_int32",
                                            "is_int64", "is_uint8", "is_uint16", "is_uint32", "is_uint64", "is_fp8"};
        for (size_t i = 0; i < sizeof preds / sizeof preds[0]; i++)
            if (strcmp(attr, preds[i]) == 0) {
                Val v = {0};
                v.kind = V_METHOD;
                v.s = preds[i];
                v.n = 1;
                v.items = ARENA_ARRAY(I->a, Val, 1);
                v.items[0] = base;
                return v;
            }
        fail(I, n->pos, "the dtype %s has no attribute '%s'", d->triton, attr);
    }
    fail(I, n->pos, "%s has no attribute '%s'", kind_name(base), attr);
}

/* Arguments bound to a builtin's parameters. */
typedef struct Args {
    Val v[8];
    int given[8];
    SrcPos pos[8];
    int nvar; /* variadic */
    Val var[16];
} Args;

/* Binds a call's arguments to `spec`'s parameters; `self` (a method's
 * receiver) is the first one when given. */
static void bind_spec(Interp *I, const PyNode *call, const BuiltinSpec *spec, Args *out, const Val *self) {
    memset(out, 0, sizeof *out);
    const PyVal *args = pyast_list(call, "args");
    const PyVal *kws = pyast_list(call, "keywords");
    int nparams = 0;
    while (nparams < 8 && spec->params[nparams]) nparams++;
    int first = 0;
    if (self) {
        out->v[0] = *self;
        out->given[0] = 1;
        out->pos[0] = call->pos;
        first = 1;
    }
    for (int j = 0; args && j < args->len; j++) {
        int i = j + first;
        const PyNode *a = list_node(args, j);
        if (!a) fail(I, call->pos, "malformed call");
        if (pyast_is(a, "Starred")) fail(I, a->pos, "*args in calls are not supported");
        if (spec->variadic) {
            if (out->nvar >= 16) fail(I, a->pos, "%s() takes at most 16 arguments here", spec->display);
            out->var[out->nvar++] = eval(I, a);
            continue;
        }
        if (i >= nparams)
            fail(I, a->pos, "%s() takes at most %d argument%s (%d given)", spec->display, nparams, nparams == 1 ? "" : "s",
                 args->len + first);
        out->v[i] = eval(I, a);
        out->given[i] = 1;
        out->pos[i] = a->pos;
    }
    for (int i = 0; kws && i < kws->len; i++) {
        const PyNode *kw = list_node(kws, i);
        const char *name = kw ? pyast_str(kw, "arg") : NULL;
        if (!kw) fail(I, call->pos, "malformed call");
        if (!name) fail(I, kw->pos, "**kwargs in calls are not supported");
        int k = -1;
        for (int p = 0; p < nparams; p++)
            if (strcmp(spec->params[p], name) == 0) k = p;
        if (k < 0 || spec->variadic) fail(I, kw->pos, "%s() got an unexpected keyword argument '%s'", spec->display, name);
        if (out->given[k]) fail(I, kw->pos, "%s() got multiple values for argument '%s'", spec->display, name);
        out->v[k] = eval(I, pyast_node(kw, "value"));
        out->given[k] = 1;
        out->pos[k] = kw->pos;
    }
    if (spec->variadic) {
        if (out->nvar < spec->required) fail(I, call->pos, "%s() expects at least %d argument", spec->display, spec->required);
        return;
    }
    for (int p = 0; p < spec->required; p++)
        if (!out->given[p]) fail(I, call->pos, "%s() missing required argument '%s'", spec->display, spec->params[p]);
    for (int p = spec->hints_from; p < nparams; p++)
        if (out->given[p] && out->v[p].kind == V_EXPR)
            fail(I, out->pos[p], "%s(): '%s' must be a compile-time value", spec->display, spec->params[p]);
    for (int p = 0; p < nparams; p++)
        if (!out->given[p]) out->v[p] = vnone(), out->pos[p] = call->pos;
}

static void bind_args(Interp *I, const PyNode *call, Builtin b, Args *out) { bind_spec(I, call, &builtins[b], out, NULL); }

static int64_t need_int(Interp *I, Val v, SrcPos pos, const char *what) {
    if (v.kind != V_INT && v.kind != V_BOOL) fail(I, pos, "%s must be a compile-time integer, not %s", what, kind_name(v));
    return v.i;
}

/* A shape argument: an int, or a tuple/list of 1 or 2 ints. */
static void need_shape(Interp *I, Val v, SrcPos pos, const char *fn, Attrs *at) {
    if (v.kind == V_INT) {
        at->rank = 1;
        if (v.i <= 0 || v.i > MT_MAX_NUMEL) fail(I, pos, "%s: shape dimensions must be between 1 and %d (got %lld)", fn, MT_MAX_NUMEL, (long long)v.i);
        at->shape[0] = (int32_t)v.i;
        return;
    }
    if (v.kind != V_TUPLE && v.kind != V_LIST)
        fail(I, pos, "%s: the shape must be an int or a tuple of compile-time ints, not %s", fn, kind_name(v));
    if (v.n < 1 || v.n > 2) fail(I, pos, "%s: blocks have 1 or 2 dimensions (the shape has %d)", fn, v.n);
    at->rank = v.n;
    for (int i = 0; i < v.n; i++) {
        if (v.items[i].kind != V_INT) fail(I, pos, "%s: shape dimension %d is %s, not a compile-time int", fn, i, kind_name(v.items[i]));
        if (v.items[i].i <= 0 || v.items[i].i > MT_MAX_NUMEL)
            fail(I, pos, "%s: shape dimensions must be between 1 and %d (got %lld)", fn, MT_MAX_NUMEL, (long long)v.items[i].i);
        at->shape[i] = (int32_t)v.items[i].i;
    }
}

static DType need_dtype(Interp *I, Val v, SrcPos pos, const char *fn) {
    if (v.kind != V_DTYPE) fail(I, pos, "%s: the dtype must be a tl dtype such as tl.float16 or tl.int32, not %s", fn, kind_name(v));
    if (v.ptr) fail(I, pos, "%s: the dtype must not be a pointer dtype", fn);
    return (DType)v.i;
}

static void stmt_append(Interp *I, Stmt *s);

static Val parse_float_string(Interp *I, const char *s, SrcPos pos) {
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1])) n--;
    char buf[64];
    if (n == 0 || n >= sizeof buf) fail(I, pos, "float() cannot convert the string");
    for (size_t i = 0; i < n; i++) buf[i] = (char)tolower((unsigned char)s[i]);
    buf[n] = 0;
    const char *b = buf;
    int neg = 0;
    if (*b == '+' || *b == '-') neg = (*b == '-'), b++;
    if (strcmp(b, "inf") == 0 || strcmp(b, "infinity") == 0) return vfloat(neg ? -INFINITY : INFINITY);
    if (strcmp(b, "nan") == 0) return vfloat(NAN);
    char *end;
    errno = 0;
    double f = strtod(buf, &end);
    if (*end || strchr(buf, 'x') || strchr(buf, 'p')) fail(I, pos, "float() cannot convert the string '%s'", s);
    return vfloat(f);
}

/* An op of ops.def called as a function (OPF_CALL): its operands promoted
 * as Triton promotes them (pairwise), then the op. */
static Val call_op(Interp *I, const PyNode *call, Op op, const Val *self) {
    const OpInfo *info = op_info(op);
    BuiltinSpec spec = {0};
    spec.display = arena_printf(I->a, "tl.%s", info->name);
    static const char *const names[3] = {"x", "y", "z"};
    for (int i = 0; i < info->nargs && i < 3; i++) spec.params[i] = names[i];
    spec.required = info->nargs;
    spec.hints_from = 8;
    Args A;
    bind_spec(I, call, &spec, &A, self);
    Expr *e[3] = {NULL, NULL, NULL};
    for (int i = 0; i < info->nargs; i++) e[i] = to_expr(I, A.v[i], A.pos[i], spec.display);
    if (info->nargs == 1) return vexpr(mk_op(I, op, spec.display, call->pos, 1, e[0], NULL, NULL, NULL));
    if (info->nargs == 2) return vexpr(binary_expr(I, op, spec.display, e[0], e[1], call->pos, NULL));
    promote_pair(I, spec.display, &e[0], &e[1], 0, call->pos);
    promote_pair(I, spec.display, &e[2], &e[0], 0, call->pos);
    promote_pair(I, spec.display, &e[2], &e[1], 0, call->pos);
    return vexpr(mk_op(I, op, spec.display, call->pos, 3, e[0], e[1], e[2], NULL));
}

/* x.to(dtype) / tl.cast(x, dtype, fp_downcast_rounding=, bitcast=). */
static Val make_cast(Interp *I, const Args *A, const char *fn, SrcPos pos) {
    Expr *x = to_expr(I, A->v[0], A->pos[0], fn);
    DType dt = need_dtype(I, A->v[1], A->pos[1], fn);
    int bitcast = A->v[3].kind != V_NONE && truthy(I, A->v[3], A->pos[3], "bitcast= must be a compile-time bool");
    Attrs at = {0};
    at.dtype = dt;
    if (A->v[2].kind != V_NONE) {
        if (A->v[2].kind != V_STR || (strcmp(A->v[2].s, "rtne") != 0 && strcmp(A->v[2].s, "rtz") != 0))
            fail(I, A->pos[2], "%s: fp_downcast_rounding must be \"rtne\" or \"rtz\"", fn);
        at.flag = strcmp(A->v[2].s, "rtz") == 0;
    }
    if (x->type.ptr) fail(I, A->pos[0], "%s of a pointer is not supported", fn);
    if (bitcast) {
        if (x->type.dtype == dt) return vexpr(x);
        return vexpr(mk_op(I, OP_BITCAST, fn, pos, 1, x, NULL, NULL, &at));
    }
    if (x->type.dtype == dt) return vexpr(x);
    return vexpr(mk_op(I, OP_CAST, fn, pos, 1, x, NULL, NULL, &at));
}

/* Triton's PropagateNan argument: 1 when NaN is ignored (NONE). */
static int nan_ignored(Interp *I, const Args *A, int k, int dflt) {
    if (A->v[k].kind == V_NONE) return dflt;
    if (A->v[k].kind != V_INT) fail(I, A->pos[k], "propagate_nan must be tl.PropagateNan.NONE or tl.PropagateNan.ALL");
    return A->v[k].i == 0;
}

static Val call_builtin(Interp *I, const PyNode *call, Builtin b, const Val *self) {
    Args A;
    bind_spec(I, call, &builtins[b], &A, self);
    const char *fn = builtins[b].display;
    SrcPos pos = call->pos;
    switch (b) {
    case B_JIT: fail(I, pos, "triton.jit can only decorate the kernel");
    case B_CONSTEXPR: return A.v[0];
    case B_PROGRAM_ID: {
        Attrs at = {0};
        int64_t axis = need_int(I, A.v[0], A.pos[0], "tl.program_id's axis");
        if (axis < 0 || axis > 2) fail(I, A.pos[0], "tl.program_id's axis must be 0, 1 or 2 (got %lld)", (long long)axis);
        at.axis = (int)axis;
        return vexpr(mk_op(I, OP_PROGRAM_ID, fn, pos, 0, NULL, NULL, NULL, &at));
    }
    case B_ARANGE: {
        int64_t s = need_int(I, A.v[0], A.pos[0], "tl.arange's start");
        int64_t e = need_int(I, A.v[1], A.pos[1], "tl.arange's end");
        if (s < INT32_MIN || s > INT32_MAX || e < INT32_MIN || e > INT32_MAX) fail(I, pos, "tl.arange's bounds must fit in i32");
        if (e <= s) fail(I, pos, "tl.arange needs start < end (got %lld, %lld)", (long long)s, (long long)e);
        if (e - s > MT_MAX_NUMEL) fail(I, pos, "tl.arange of %lld elements exceeds the limit of %d", (long long)(e - s), MT_MAX_NUMEL);
        Attrs at = {0};
        at.start = (int)s;
        at.end = (int)e;
        return vexpr(mk_op(I, OP_ARANGE, fn, pos, 0, NULL, NULL, NULL, &at));
    }
    case B_LOAD: {
        Expr *ptr = to_expr(I, A.v[0], A.pos[0], "tl.load's pointer");
        if (!ptr->type.ptr) fail(I, A.pos[0], "tl.load needs a pointer (got %s)", type_str(I->a, ptr->type));
        Expr *mask = A.v[1].kind == V_NONE ? NULL : to_expr(I, A.v[1], A.pos[1], "tl.load's mask");
        Expr *other = NULL;
        if (A.v[2].kind != V_NONE) {
            if (!mask) fail(I, A.pos[2], "tl.load's 'other' needs a mask (other is the value where the mask is false)");
            other = to_expr_as(I, A.v[2], (DType)ptr->type.dtype, A.pos[2], "tl.load's other");
        }
        Expr *e = mk_op(I, OP_LOAD, fn, pos, 3, ptr, mask, other, NULL);
        ptrvec_push(I->a, &I->list->pending, e);
        return vexpr(e);
    }
    case B_STORE: {
        Expr *ptr = to_expr(I, A.v[0], A.pos[0], "tl.store's pointer");
        if (!ptr->type.ptr) fail(I, A.pos[0], "tl.store needs a pointer (got %s)", type_str(I->a, ptr->type));
        Expr *value = to_expr_as(I, A.v[1], (DType)ptr->type.dtype, A.pos[1], "tl.store's value");
        Expr *mask = A.v[2].kind == V_NONE ? NULL : to_expr(I, A.v[2], A.pos[2], "tl.store's mask");
        Expr *e = mk_op(I, OP_STORE, fn, pos, 3, ptr, value, mask, NULL);
        Stmt *s = ARENA_NEW(I->a, Stmt);
        s->kind = STMT_STORE;
        s->pos = pos;
        s->store = e;
        stmt_append(I, s);
        return vnone();
    }
    case B_MAXIMUM:
    case B_MINIMUM: {
        Attrs at = {0};
        at.flag = nan_ignored(I, &A, 2, 0);
        return vexpr(binary_expr(I, b == B_MAXIMUM ? OP_MAXIMUM : OP_MINIMUM, fn, to_expr(I, A.v[0], A.pos[0], fn),
                                 to_expr(I, A.v[1], A.pos[1], fn), pos, &at));
    }
    case B_WHERE: {
        Expr *c = to_expr(I, A.v[0], A.pos[0], fn);
        Expr *x = to_expr(I, A.v[1], A.pos[1], fn), *y = to_expr(I, A.v[2], A.pos[2], fn);
        if (!c->type.ptr && c->type.dtype != DT_BOOL) c = cast_to(I, c, DT_BOOL, A.pos[0]);
        if (!x->type.ptr && !y->type.ptr) promote_pair(I, fn, &x, &y, 0, pos);
        return vexpr(mk_op(I, OP_SELECT, fn, pos, 3, c, x, y, NULL));
    }
    case B_NUM_PROGRAMS: {
        Attrs at = {0};
        int64_t axis = need_int(I, A.v[0], A.pos[0], "tl.num_programs's axis");
        if (axis < 0 || axis > 2) fail(I, A.pos[0], "tl.num_programs's axis must be 0, 1 or 2 (got %lld)", (long long)axis);
        at.axis = (int)axis;
        return vexpr(mk_op(I, OP_NUM_PROGRAMS, fn, pos, 0, NULL, NULL, NULL, &at));
    }
    case B_CAST:
    case B_TO: return make_cast(I, &A, b == B_TO ? "'.to'" : fn, pos);
    case B_CLAMP: {
        /* Triton's clamp: floats only; min(max(x, lo), hi) */
        Expr *x = to_expr(I, A.v[0], A.pos[0], fn), *lo = to_expr(I, A.v[1], A.pos[1], fn), *hi = to_expr(I, A.v[2], A.pos[2], fn);
        promote_pair(I, fn, &lo, &hi, 0, pos);
        promote_pair(I, fn, &x, &lo, 0, pos);
        promote_pair(I, fn, &x, &hi, 0, pos);
        if (x->type.ptr || !dtype_is_float((DType)x->type.dtype))
            fail(I, pos, "tl.clamp needs floats (got %s): Triton clamps only floating-point values", type_str(I->a, x->type));
        Attrs at = {0};
        at.flag = nan_ignored(I, &A, 3, 1);
        Expr *m = mk_op(I, OP_MAXIMUM, fn, pos, 2, x, lo, NULL, &at);
        return vexpr(mk_op(I, OP_MINIMUM, fn, pos, 2, m, hi, NULL, &at));
    }
    case B_SIGMOID: {
        /* as Triton's standard library: 1 / (1 + exp(-x)) */
        Val x = A.v[0];
        Val neg = vexpr(mk_op(I, OP_NEG, fn, pos, 1, to_expr(I, x, A.pos[0], fn), NULL, NULL, NULL));
        Val e = vexpr(mk_op(I, OP_EXP, fn, pos, 1, neg.e, NULL, NULL, NULL));
        return binop(I, "Div", vint(1), binop(I, "Add", vint(1), e, pos), pos);
    }
    case B_FDIV: {
        Expr *x = to_expr(I, A.v[0], A.pos[0], fn), *y = to_expr(I, A.v[1], A.pos[1], fn);
        int ieee = A.v[2].kind != V_NONE && truthy(I, A.v[2], A.pos[2], "ieee_rounding must be a compile-time bool");
        for (int i = 0; i < 2; i++) {
            Expr *e = i ? y : x;
            if (e->type.ptr || !dtype_is_float((DType)e->type.dtype))
                fail(I, pos, "tl.fdiv needs float operands (got %s and %s)", type_str(I->a, x->type), type_str(I->a, y->type));
        }
        return vexpr(binary_expr(I, ieee ? OP_DIV_RN : OP_DIV, fn, x, y, pos, NULL));
    }
    case B_MULTIPLE_OF:
    case B_MAX_CONTIGUOUS:
    case B_MAX_CONSTANCY: {
        Expr *x = to_expr(I, A.v[0], A.pos[0], fn);
        Val v = A.v[1];
        if ((v.kind == V_TUPLE || v.kind == V_LIST) && v.n >= 1) v = v.items[v.n - 1];
        int64_t k = need_int(I, v, A.pos[1], "the hint's value");
        if (k < 1 || k > (1 << 30)) fail(I, A.pos[1], "%s: the value must be a positive integer (got %lld)", fn, (long long)k);
        Attrs at = {0};
        at.axis = b == B_MULTIPLE_OF ? 0 : b == B_MAX_CONTIGUOUS ? 1 : 2;
        at.start = (int)k;
        return vexpr(mk_op(I, OP_HINT, fn, pos, 1, x, NULL, NULL, &at));
    }
    case B_SUM:
    case B_MAX:
    case B_MIN: {
        Expr *x = to_expr(I, A.v[0], A.pos[0], fn);
        if (A.v[1].kind != V_NONE) {
            int64_t axis = need_int(I, A.v[1], A.pos[1], "the axis");
            if (axis != 0 && axis != -1) fail(I, A.pos[1], "%s: only axis=0 (or None) is supported, over a rank-1 block", fn);
        }
        if (x->type.rank != 1)
            fail(I, pos, "%s needs a rank-1 block (got %s)", fn, type_str(I->a, x->type));
        int32_t w = x->type.dims[0];
        if ((w & (w - 1)) != 0)
            fail(I, pos, "%s needs a block whose width is a power of two equal to the CUDA block size (got width %d)", fn, (int)w);
        if (b == B_SUM) {
            if (A.v[2].kind != V_NONE && truthy(I, A.v[2], A.pos[2], "keep_dims must be a compile-time bool"))
                fail(I, A.pos[2], "tl.sum: keep_dims=True is not supported yet");
            /* Triton's default: integers narrower than 32 bits (and bools)
             * sum in 32 bits of their signedness; dtype= casts first */
            DType dt = (DType)x->type.dtype, sum_dt = dt;
            if (A.v[3].kind != V_NONE) sum_dt = need_dtype(I, A.v[3], A.pos[3], fn);
            else if (dtype_is_int(dt) && dtype_info(dt)->bits < 32) sum_dt = dtype_is_unsigned(dt) ? DT_U32 : DT_I32;
            x = cast_to(I, x, sum_dt, pos);
        }
        Op op = b == B_SUM ? OP_SUM : b == B_MAX ? OP_MAX : OP_MIN;
        return vexpr(mk_op(I, op, fn, pos, 1, x, NULL, NULL, NULL));
    }
    case B_ZEROS:
    case B_EMPTY: {
        Attrs at = {0};
        need_shape(I, A.v[0], A.pos[0], fn, &at);
        at.dtype = need_dtype(I, A.v[1], A.pos[1], fn);
        return vexpr(mk_op(I, b == B_ZEROS ? OP_ZEROS : OP_EMPTY, fn, pos, 0, NULL, NULL, NULL, &at));
    }
    case B_FULL: {
        Attrs at = {0};
        need_shape(I, A.v[0], A.pos[0], fn, &at);
        at.dtype = need_dtype(I, A.v[2], A.pos[2], fn);
        Expr *fill = to_expr_as(I, A.v[1], at.dtype, A.pos[1], "tl.full's value");
        return vexpr(mk_op(I, OP_FULL, fn, pos, 1, fill, NULL, NULL, &at));
    }
    case B_STATIC_RANGE:
    case B_RANGE: fail(I, pos, "%s() can only be the iterable of a for loop", fn);
    case B_CDIV: {
        if (A.v[0].kind == V_EXPR || A.v[1].kind == V_EXPR) /* as Triton: (x + div - 1) // div */
            return binop(I, "FloorDiv", binop(I, "Sub", binop(I, "Add", A.v[0], A.v[1], pos), vint(1), pos), A.v[1], pos);
        Val num = ct_binop(I, "Add", A.v[0], ct_binop(I, "Sub", A.v[1], vint(1), pos), pos);
        return ct_binop(I, "FloorDiv", num, A.v[1], pos);
    }
    case B_FLOAT:
        if (!A.given[0]) return vfloat(0);
        if (A.v[0].kind == V_STR) return parse_float_string(I, A.v[0].s, A.pos[0]);
        if (!is_number(A.v[0])) fail(I, A.pos[0], "float() needs a compile-time number or string, not %s", kind_name(A.v[0]));
        return vfloat(as_double(A.v[0]));
    case B_INT:
        if (!A.given[0]) return vint(0);
        if (is_intlike(A.v[0])) return vint(A.v[0].i);
        if (A.v[0].kind == V_FLOAT) {
            double t = trunc(A.v[0].f);
            if (!isfinite(t) || t < -9.2e18 || t > 9.2e18) fail(I, A.pos[0], "int() of a float that is not finite or too large");
            return vint((int64_t)t);
        }
        if (A.v[0].kind == V_STR) {
            char *end;
            errno = 0;
            long long v = strtoll(A.v[0].s, &end, 10);
            while (isspace((unsigned char)*end)) end++;
            if (*end || errno || end == A.v[0].s) fail(I, A.pos[0], "int() cannot convert the string '%s'", A.v[0].s);
            return vint(v);
        }
        fail(I, A.pos[0], "int() needs a compile-time number or string, not %s", kind_name(A.v[0]));
    case B_BOOL:
        if (!A.given[0]) return vbool(0);
        return vbool(truthy(I, A.v[0], A.pos[0], "bool() of a runtime value is not supported"));
    case B_PY_MIN:
    case B_PY_MAX: {
        Val *items = A.var;
        int n = A.nvar;
        if (n == 1) {
            if (A.var[0].kind != V_TUPLE && A.var[0].kind != V_LIST) fail(I, pos, "%s() of one argument needs a tuple or a list", fn);
            items = A.var[0].items;
            n = A.var[0].n;
            if (n == 0) fail(I, pos, "%s() of an empty sequence", fn);
        }
        int runtime = 0;
        for (int i = 0; i < n; i++) runtime |= items[i].kind == V_EXPR;
        if (runtime) {
            /* Triton maps min/max to tl.minimum/tl.maximum (NaN ignored) */
            Attrs at = {0};
            at.flag = 1;
            Expr *acc = to_expr(I, items[0], pos, fn);
            for (int i = 1; i < n; i++)
                acc = binary_expr(I, b == B_PY_MIN ? OP_MINIMUM : OP_MAXIMUM, fn, acc, to_expr(I, items[i], pos, fn), pos, &at);
            return vexpr(acc);
        }
        Val best = items[0];
        for (int i = 0; i < n; i++) {
            if (!is_number(items[i]))
                fail(I, pos, "%s() needs compile-time numbers (use tl.%s for blocks)", fn, b == B_PY_MIN ? "minimum" : "maximum");
            if (i == 0) continue;
            int less = ct_compare(I, "Lt", items[i], best, pos).i;
            int greater = ct_compare(I, "Gt", items[i], best, pos).i;
            if ((b == B_PY_MIN && less) || (b == B_PY_MAX && greater)) best = items[i];
        }
        return best;
    }
    case B_ABS:
        if (A.v[0].kind == V_FLOAT) return vfloat(fabs(A.v[0].f));
        if (is_intlike(A.v[0])) {
            if (A.v[0].i == INT64_MIN) fail(I, pos, "integer overflow in abs()");
            return vint(A.v[0].i < 0 ? -A.v[0].i : A.v[0].i);
        }
        fail(I, pos, "abs() needs a compile-time number, not %s", kind_name(A.v[0]));
    case B_LEN:
        if (A.v[0].kind == V_TUPLE || A.v[0].kind == V_LIST) return vint(A.v[0].n);
        if (A.v[0].kind == V_STR) return vint((int64_t)strlen(A.v[0].s));
        fail(I, pos, "len() needs a tuple, a list or a string, not %s", kind_name(A.v[0]));
    case B_COUNT: break;
    }
    fail(I, pos, "unsupported call");
}

static Val eval_call(Interp *I, const PyNode *n) {
    const PyNode *func = pyast_node(n, "func");
    if (!func) fail(I, n->pos, "malformed call");
    Val f = eval(I, func);
    if (f.kind == V_FUNC) return call_builtin(I, n, (Builtin)f.i, NULL);
    if (f.kind == V_OPFN) return call_op(I, n, (Op)f.i, NULL);
    if (f.kind == V_METHOD) {
        Val self = f.items[0];
        if (self.kind == V_DTYPE) {
            if (pyast_list(n, "args") && pyast_list(n, "args")->len) fail(I, n->pos, "%s() takes no arguments", f.s);
            const DTypeInfo *d = dtype_info((DType)self.i);
            DType dt = (DType)self.i;
            int p = self.ptr;
            const char *m = f.s;
            int r = 0;
            if (strcmp(m, "is_ptr") == 0) r = p;
            else if (p) r = 0;
            else if (strcmp(m, "is_floating") == 0) r = d->cls == DC_FLOAT;
            else if (strcmp(m, "is_int") == 0) r = dtype_is_int(dt);
            else if (strcmp(m, "is_int_signed") == 0) r = dtype_is_signed(dt);
            else if (strcmp(m, "is_int_unsigned") == 0) r = dtype_is_unsigned(dt);
            else if (strcmp(m, "is_bool") == 0) r = dt == DT_BOOL;
            else if (strcmp(m, "is_fp8") == 0) r = dt == DT_F8E4NV || dt == DT_F8E5;
            else {
                /* is_fp16, is_int32, is_uint8, ...: by the Triton name's short form */
                static const struct { const char *m; DType dt; } by[] = {
                    {"is_fp16", DT_F16}, {"is_bf16", DT_BF16}, {"is_fp32", DT_F32}, {"is_fp64", DT_F64},
                    {"is_int8", DT_I8}, {"is_int16", DT_I16}, {"is_int32", DT_I32}, {"is_int64", DT_I64},
                    {"is_uint8", DT_U8}, {"is_uint16", DT_U16}, {"is_uint32", DT_U32}, {"is_uint64", DT_U64}};
                for (size_t i = 0; i < sizeof by / sizeof by[0]; i++)
                    if (strcmp(by[i].m, m) == 0) r = by[i].dt == dt;
            }
            return vbool(r);
        }
        if (strcmp(f.s, "to") == 0) return call_builtin(I, n, B_TO, &self);
        Val m = tl_member(f.s, 0);
        if (m.kind == V_OPFN) return call_op(I, n, (Op)m.i, &self);
        return call_builtin(I, n, (Builtin)m.i, &self);
    }
    if (f.kind == V_USERFUNC)
        fail(I, n->pos, "calling other functions ('%s') is not supported (inline its body into the kernel)", f.s);
    if (f.kind == V_MODULE) fail(I, n->pos, "the module '%s' is not callable", f.s);
    fail(I, n->pos, "%s is not callable", kind_name(f));
}

static Val eval_inner(Interp *I, const PyNode *n) {
    const char *k = n->kind;
    if (strcmp(k, "Constant") == 0) return eval_constant(I, n);
    if (strcmp(k, "Name") == 0) {
        const char *id = pyast_str(n, "id");
        if (!id) fail(I, n->pos, "malformed name");
        return lookup(I, id, n->pos);
    }
    if (strcmp(k, "BinOp") == 0) {
        const PyNode *op = pyast_node(n, "op");
        Val a = eval(I, pyast_node(n, "left"));
        Val b = eval(I, pyast_node(n, "right"));
        if (!op) fail(I, n->pos, "malformed operator");
        return binop(I, op->kind, a, b, n->pos);
    }
    if (strcmp(k, "UnaryOp") == 0) {
        const PyNode *op = pyast_node(n, "op");
        Val x = eval(I, pyast_node(n, "operand"));
        if (!op) fail(I, n->pos, "malformed operator");
        if (strcmp(op->kind, "Not") == 0) {
            if (x.kind == V_EXPR) {
                /* Triton: a bool block inverted; other dtypes are an error */
                if (x.e->type.ptr || x.e->type.dtype != DT_BOOL)
                    fail(I, n->pos, "'not' needs a bool block (got %s; compare with 0 first)", type_str(I->a, x.e->type));
                return vexpr(mk_op(I, OP_XOR, "'not'", n->pos, 2, x.e, mk_const(I, const_bool(1), n->pos), NULL, NULL));
            }
            return vbool(!truthy(I, x, n->pos, ""));
        }
        if (x.kind == V_EXPR) {
            if (strcmp(op->kind, "USub") == 0) {
                if (x.e->type.ptr) fail(I, n->pos, "unary '-' of a pointer is not supported");
                return vexpr(mk_op(I, OP_NEG, "unary '-'", n->pos, 1, x.e, NULL, NULL, NULL));
            }
            if (strcmp(op->kind, "UAdd") == 0) {
                if (!type_is_numeric(x.e->type)) fail(I, n->pos, "unary '+' needs a number (got %s)", type_str(I->a, x.e->type));
                return x;
            }
            if (strcmp(op->kind, "Invert") == 0) {
                DType dt = (DType)x.e->type.dtype;
                if (x.e->type.ptr || dtype_is_float(dt))
                    fail(I, n->pos, "'~' needs an integer or bool block (got %s): Triton has no '~' on floats",
                         type_str(I->a, x.e->type));
                /* xor with all ones of the operand's own dtype */
                return vexpr(mk_op(I, OP_XOR, "'~'", n->pos, 2, x.e, mk_const(I, const_int(dt, -1), n->pos), NULL, NULL));
            }
            fail(I, n->pos, "'%s' of a runtime value is not supported", py_op_symbol(op->kind));
        }
        if (!is_number(x)) fail(I, n->pos, "bad operand type for unary '%s': %s", py_op_symbol(op->kind), kind_name(x));
        if (strcmp(op->kind, "USub") == 0) {
            if (x.kind == V_FLOAT) return vfloat(-x.f);
            if (x.i == INT64_MIN) fail(I, n->pos, "integer overflow in a compile-time '-'");
            return vint(-x.i);
        }
        if (strcmp(op->kind, "UAdd") == 0) return x.kind == V_FLOAT ? x : vint(x.i);
        if (strcmp(op->kind, "Invert") == 0) {
            if (x.kind == V_FLOAT) fail(I, n->pos, "bad operand type for unary '~': a float");
            return vint(~x.i);
        }
        fail(I, n->pos, "unsupported unary operator");
    }
    if (strcmp(k, "Compare") == 0) {
        const PyVal *ops = pyast_list(n, "ops");
        const PyVal *comps = pyast_list(n, "comparators");
        if (!ops || !comps || ops->len != comps->len || ops->len == 0) fail(I, n->pos, "malformed comparison");
        if (ops->len > 1)
            fail(I, n->pos, "chained comparisons are not supported (parenthesize each comparison when combining with &, "
                            "e.g. (0 <= x) & (x < n))");
        Val a = eval(I, pyast_node(n, "left"));
        Val b = eval(I, list_node(comps, 0));
        if (!list_node(ops, 0)) fail(I, n->pos, "malformed comparison");
        return compare(I, list_node(ops, 0)->kind, a, b, n->pos);
    }
    if (strcmp(k, "BoolOp") == 0) {
        const PyNode *op = pyast_node(n, "op");
        const PyVal *vals = pyast_list(n, "values");
        if (!op || !vals || vals->len == 0) fail(I, n->pos, "malformed boolean operation");
        int is_and = strcmp(op->kind, "And") == 0;
        Val v = vnone();
        for (int i = 0; i < vals->len; i++) {
            v = eval(I, list_node(vals, i));
            if (v.kind == V_EXPR)
                fail(I, n->pos, "'%s' on runtime values is not supported (combine bool blocks with %s)", is_and ? "and" : "or",
                     is_and ? "&" : "|");
            int t = truthy(I, v, n->pos, "");
            if (is_and ? !t : t) return v;
        }
        return v;
    }
    if (strcmp(k, "IfExp") == 0) {
        Val c = eval(I, pyast_node(n, "test"));
        int t = truthy(I, c, n->pos,
                       "a conditional expression needs a compile-time condition (use tl.where to choose per element)");
        return eval(I, pyast_node(n, t ? "body" : "orelse"));
    }
    if (strcmp(k, "Call") == 0) return eval_call(I, n);
    if (strcmp(k, "Attribute") == 0) return eval_attribute(I, n);
    if (strcmp(k, "Subscript") == 0) return eval_subscript(I, n);
    if (strcmp(k, "Tuple") == 0) return make_seq(I, V_TUPLE, pyast_list(n, "elts"), n->pos.line);
    if (strcmp(k, "List") == 0) return make_seq(I, V_LIST, pyast_list(n, "elts"), n->pos.line);
    if (strcmp(k, "Slice") == 0) fail(I, n->pos, "a slice is only valid inside [...]");
    static const struct {
        const char *kind, *what;
    } unsupported[] = {{"Lambda", "lambda expressions"},       {"ListComp", "list comprehensions"},
                       {"SetComp", "set comprehensions"},      {"DictComp", "dict comprehensions"},
                       {"GeneratorExp", "generator expressions"}, {"Dict", "dict literals"},
                       {"Set", "set literals"},                {"JoinedStr", "f-strings"},
                       {"FormattedValue", "f-strings"},        {"NamedExpr", "assignment expressions (:=)"},
                       {"Await", "'await' expressions"},       {"Yield", "'yield' expressions"},
                       {"YieldFrom", "'yield from' expressions"}, {"Starred", "starred expressions"}};
    for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++)
        if (strcmp(unsupported[i].kind, k) == 0) fail(I, n->pos, "%s are not supported in kernels", unsupported[i].what);
    fail(I, n->pos, "'%s' expressions are not supported in kernels", k);
}

static Val eval(Interp *I, const PyNode *n) {
    if (!n) fail(I, srcpos(0, 0), "malformed syntax tree (a missing expression)");
    if (++I->eval_depth > MAX_EVAL_DEPTH)
        fail(I, n->pos, "the expression is nested more than %d levels deep (split it with intermediate variables)",
             MAX_EVAL_DEPTH);
    Val v = eval_inner(I, n);
    I->eval_depth--;
    return v;
}

/* ---- Statements --------------------------------------------------------- */

static void stmt_append(Interp *I, Stmt *s) {
    StmtList *L = I->list;
    /* loads created by earlier statements are lowered before this one, so
     * memory is read in source order */
    int m = L->mark < L->pending.len ? L->mark : L->pending.len;
    for (int i = 0; i < m; i++) ptrvec_push(I->a, &s->pre_loads, L->pending.items[i]);
    for (int i = m; i < L->pending.len; i++) L->pending.items[i - m] = L->pending.items[i];
    L->pending.len -= m;
    L->mark -= m;
    ptrvec_push(I->a, L->stmts, s);
}

static void bind_name(Interp *I, const char *name, Val v, SrcPos pos) {
    for (int d = 0; d < I->depth; d++)
        if (strcmp(I->loops[d]->index_name, name) == 0)
            fail(I, pos, "cannot assign to '%s', the induction variable of the runtime loop at line %d", name,
                 I->loops[d]->pos.line);
    if (v.kind == V_MODULE || v.kind == V_FUNC || v.kind == V_USERFUNC) {
        /* aliases of functions are fine: they are compile-time values */
    }
    env_set(I->a, I->env, name, v, pos);
}

static void assign_target(Interp *I, const PyNode *target, Val v) {
    if (!target) fail(I, srcpos(0, 0), "malformed assignment");
    if (pyast_is(target, "Name")) {
        if (!pyast_str(target, "id")) fail(I, target->pos, "malformed name");
        bind_name(I, pyast_str(target, "id"), v, target->pos);
        return;
    }
    if (pyast_is(target, "Tuple") || pyast_is(target, "List"))
        fail(I, target->pos, "tuple targets are not supported (assign each name on its own line)");
    if (pyast_is(target, "Subscript"))
        fail(I, target->pos, "assignment to a subscript is not supported (blocks are values; write memory with tl.store)");
    if (pyast_is(target, "Attribute")) fail(I, target->pos, "assignment to an attribute is not supported");
    if (pyast_is(target, "Starred")) fail(I, target->pos, "starred assignment targets are not supported");
    fail(I, target->pos, "unsupported assignment target");
}

/* The seed's AssignedNameCollector: simple names assigned by normal,
 * annotated and augmented assignments anywhere in the body, in source
 * order, without duplicates. */
static void collect_assigned(Arena *a, const PyVal *stmts, PtrVec *names);

static void collect_name(Arena *a, const PyNode *target, PtrVec *names) {
    if (!pyast_is(target, "Name")) return;
    const char *id = pyast_str(target, "id");
    if (!id) return;
    for (int i = 0; i < names->len; i++)
        if (strcmp(names->items[i], id) == 0) return;
    ptrvec_push(a, names, (void *)id);
}

static void collect_node(Arena *a, const PyNode *n, PtrVec *names) {
    if (!n) return;
    if (pyast_is(n, "Assign")) {
        const PyVal *targets = pyast_list(n, "targets");
        for (int i = 0; targets && i < targets->len; i++)
            if (targets->items[i]->kind == PYV_NODE) collect_name(a, targets->items[i]->node, names);
        return;
    }
    if (pyast_is(n, "AugAssign") || pyast_is(n, "AnnAssign")) {
        collect_name(a, pyast_node(n, "target"), names);
        return;
    }
    if (pyast_is(n, "FunctionDef") || pyast_is(n, "ClassDef") || pyast_is(n, "Lambda")) return;
    /* statements with bodies: If, For, While, With, Try ... */
    static const char *const fields[] = {"body", "orelse", "finalbody", "handlers"};
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
        const PyVal *list = pyast_list(n, fields[f]);
        if (list) collect_assigned(a, list, names);
    }
}

static void collect_assigned(Arena *a, const PyVal *stmts, PtrVec *names) {
    for (int i = 0; stmts && i < stmts->len; i++)
        if (stmts->items[i]->kind == PYV_NODE) collect_node(a, stmts->items[i]->node, names);
}

/* Position of the `else` keyword of a for/else (the AST has none). */
static SrcPos find_else(Interp *I, const PyNode *node, const PyVal *orelse) {
    const PyNode *first = list_node(orelse, 0);
    SrcPos at = first ? first->pos : node->pos;
    if (!I->ctx->source || !first) return at;
    /* search backwards from the first else-statement for "else" */
    const char *src = I->ctx->source;
    const char *p = src;
    for (int l = 1; l < first->pos.line && p; l++) {
        p = strchr(p, '\n');
        if (p) p++;
    }
    if (!p) return at;
    const char *q = p + (first->pos.col > 0 ? first->pos.col - 1 : 0);
    for (; q >= src + 3; q--) {
        if (memcmp(q - 3, "else", 4) == 0) {
            const char *s = q - 3;
            int line = 1, col = 1;
            for (const char *r = src; r < s; r++) {
                if (*r == '\n') line++, col = 1;
                else col++;
            }
            return srcpos(line, col);
        }
    }
    return at;
}

typedef struct RangeParts {
    Val v[3];
    SrcPos pos[3];
} RangeParts;

/* The runtime parameter a pointer expression points into (-1 if unknown). */
static int pointer_param(const Expr *e) {
    for (int guard = 0; e && guard < 100000; guard++) {
        switch (e->kind) {
        case EX_PARAM: return e->param;
        case EX_OP:
            if (e->op != OP_ADDPTR) return -1;
            e = e->args[0];
            break;
        case EX_LOOP_CARRY:
        case EX_LOOP_RESULT: e = e->loop->inputs[e->index]; break;
        default: return -1;
        }
    }
    return -1;
}

static void runtime_loop(Interp *I, const PyNode *node, const char *target, RangeParts *rp) {
    const PyVal *body = pyast_list(node, "body");
    /* bounds: i32 scalars; step: a positive compile-time integer */
    static const char *const part_names[] = {"start", "stop", "step"};
    Expr *bounds[3];
    for (int i = 0; i < 2; i++) {
        Val v = rp->v[i];
        if (v.kind == V_EXPR) {
            if (v.e->type.rank != 0 || v.e->type.ptr || v.e->type.dtype != DT_I32)
                fail(I, rp->pos[i], "the %s of a runtime loop must be an i32 scalar (got %s)", part_names[i],
                     type_str(I->a, v.e->type));
        } else if (v.kind != V_INT) {
            fail(I, rp->pos[i], "the %s of range() must be an integer, not %s", part_names[i], kind_name(v));
        }
        bounds[i] = to_expr(I, v, rp->pos[i], "range()");
    }
    if (rp->v[2].kind == V_EXPR)
        fail(I, rp->pos[2], "the step of a runtime loop must be a positive compile-time integer (got a runtime value)");
    if (rp->v[2].kind == V_INT && rp->v[2].i <= 0)
        fail(I, rp->pos[2], "the step of a runtime loop must be a positive compile-time integer (got %lld)",
             (long long)rp->v[2].i);
    if (rp->v[2].kind != V_INT)
        fail(I, rp->pos[2], "the step of a runtime loop must be a positive compile-time integer (got %s)",
             kind_name(rp->v[2]));
    bounds[2] = to_expr(I, rp->v[2], rp->pos[2], "range()");
    if (I->depth >= MAX_LOOP_DEPTH) fail(I, node->pos, "runtime loops are nested more than %d deep", MAX_LOOP_DEPTH);

    ForRange *L = ARENA_NEW(I->a, ForRange);
    L->pos = node->pos;
    L->index_name = target;
    L->start = bounds[0];
    L->stop = bounds[1];
    L->step = bounds[2];

    /* carried: names assigned in the body that exist before the loop */
    PtrVec assigned = {0}, carried = {0};
    collect_assigned(I->a, body, &assigned);
    for (int i = 0; i < assigned.len; i++)
        if (env_find(I->env, assigned.items[i]) && strcmp(assigned.items[i], target) != 0)
            ptrvec_push(I->a, &carried, assigned.items[i]);
    int n = carried.len;
    L->ncarried = n;
    L->names = ARENA_ARRAY(I->a, const char *, n + 1);
    L->inputs = ARENA_ARRAY(I->a, Expr *, n + 1);
    L->args = ARENA_ARRAY(I->a, Expr *, n + 1);
    L->outputs = ARENA_ARRAY(I->a, Expr *, n + 1);
    L->results = ARENA_ARRAY(I->a, Expr *, n + 1);
    for (int i = 0; i < n; i++) {
        L->names[i] = carried.items[i];
        EnvEntry *e = env_find(I->env, L->names[i]);
        Val v = e->v;
        if (v.kind != V_EXPR && !is_number(v))
            fail(I, node->pos, "'%s' is assigned in the runtime loop but holds %s before it (only numbers and blocks can be carried)",
                 L->names[i], kind_name(v));
        note_use(I, v);
        L->inputs[i] = to_expr(I, v, e->at, "a loop-carried value");
    }

    /* trace the body in an isolated environment */
    I->loops[I->depth] = L;
    I->depth++;
    L->index = new_expr(I, EX_LOOP_INDEX, node->pos, type_scalar(DT_I32));
    L->index->loop = L;
    Env body_env = env_copy(I->a, I->env);
    env_set(I->a, &body_env, target, vexpr(L->index), node->pos);
    for (int i = 0; i < n; i++) {
        Expr *arg = new_expr(I, EX_LOOP_CARRY, node->pos, L->inputs[i]->type);
        arg->loop = L;
        arg->index = i;
        L->args[i] = arg;
        env_set(I->a, &body_env, L->names[i], vexpr(arg), env_find(I->env, L->names[i])->at);
    }
    Env *outer_env = I->env;
    StmtList *outer_list = I->list;
    StmtList body_list = {&L->body, {0}, 0};
    I->env = &body_env;
    I->list = &body_list;
    visit_body(I, body);
    for (int i = 0; i < n; i++) {
        EnvEntry *e = env_find(&body_env, L->names[i]);
        Val v = e->v;
        if (v.kind != V_EXPR && !is_number(v))
            fail(I, e->at, "'%s' is carried by the runtime loop at line %d but is assigned %s in its body", L->names[i],
                 node->pos.line, kind_name(v));
        Expr *out = to_expr(I, v, e->at, "a loop-carried value");
        if (!type_eq(out->type, L->inputs[i]->type))
            fail(I, e->at,
                 "the loop-carried variable '%s' changes type across an iteration: %s before the loop, %s at the end of "
                 "the body (a carried value keeps one type; give it its final type before the loop)",
                 L->names[i], type_str(I->a, L->inputs[i]->type), type_str(I->a, out->type));
        if (out->type.ptr) {
            /* backends keep a carried pointer as an offset from one
             * parameter: it must stay inside the same one */
            int before = pointer_param(L->inputs[i]), after = pointer_param(out);
            if (before != after && before >= 0 && after >= 0)
                fail(I, e->at,
                     "the loop-carried pointer '%s' must keep pointing into one parameter: '%s' before the loop, '%s' "
                     "at the end of the body",
                     L->names[i], I->k->runtime[before]->name, I->k->runtime[after]->name);
        }
        L->outputs[i] = out;
    }
    I->env = outer_env;
    I->list = outer_list;
    I->depth--;

    for (int i = 0; i < n; i++) {
        Expr *r = new_expr(I, EX_LOOP_RESULT, node->pos, L->outputs[i]->type);
        r->loop = L;
        r->index = i;
        L->results[i] = r;
        env_set(I->a, I->env, L->names[i], vexpr(r), env_find(I->env, L->names[i])->at);
    }
    /* names first created in the body do not escape */
    for (int i = 0; i < assigned.len; i++)
        if (!env_find(I->env, assigned.items[i])) {
            /* the value: the line of the outermost loop it does not escape */
            EnvEntry *inner = env_find(&body_env, assigned.items[i]);
            EnvEntry *nested = env_find(&I->loop_locals, assigned.items[i]);
            SrcPos at = inner ? inner->at : nested ? nested->at : node->pos;
            env_set(I->a, &I->loop_locals, assigned.items[i], vint(node->pos.line), at);
        }

    Stmt *s = ARENA_NEW(I->a, Stmt);
    s->kind = STMT_FOR;
    s->pos = node->pos;
    s->loop = L;
    stmt_append(I, s);
}

static void visit_for(Interp *I, const PyNode *node) {
    const PyNode *target = pyast_node(node, "target");
    const PyVal *orelse = pyast_list(node, "orelse");
    const PyVal *body = pyast_list(node, "body");
    if (!target || !body) fail(I, node->pos, "malformed for loop");
    if (pyast_is(target, "Tuple") || pyast_is(target, "List"))
        fail(I, target->pos, "the target of a for loop must be a simple name (tuple targets are not supported)");
    if (!pyast_is(target, "Name"))
        fail(I, target->pos, "the target of a for loop must be a simple name (not %s)",
             pyast_is(target, "Subscript") ? "a subscript" : pyast_is(target, "Attribute") ? "an attribute" : "this expression");
    const char *name = pyast_str(target, "id");
    if (!name) fail(I, target->pos, "malformed name");
    if (orelse && orelse->len > 0)
        fail(I, find_else(I, node, orelse), "for/else is not supported (the loop always runs to the end of its range)");
    const PyNode *iter = pyast_node(node, "iter");
    if (!iter) fail(I, node->pos, "malformed for loop");
    Val callee = {0};
    int is_range = 0;
    if (pyast_is(iter, "Call")) {
        const PyNode *func = pyast_node(iter, "func");
        if (pyast_is(func, "Name") || pyast_is(func, "Attribute")) {
            callee = eval(I, func);
            is_range = callee.kind == V_FUNC && (callee.i == B_RANGE || callee.i == B_STATIC_RANGE);
        }
    }
    if (!is_range) {
        Val seq = eval(I, iter);
        if (seq.kind != V_TUPLE && seq.kind != V_LIST)
            fail(I, iter->pos, "a for loop must iterate over range(...), tl.static_range(...) or a compile-time tuple");
        for (int i = 0; i < seq.n; i++) {
            bind_name(I, name, seq.items[i], target->pos);
            visit_body(I, body);
        }
        return;
    }
    int is_static = callee.i == B_STATIC_RANGE;
    const char *fn = is_static ? "tl.static_range" : "range";
    Args A;
    bind_args(I, iter, (Builtin)callee.i, &A);
    RangeParts rp;
    int given = A.given[2] ? 3 : A.given[1] ? 2 : 1;
    if (given == 1) {
        rp.v[0] = vint(0), rp.pos[0] = iter->pos;
        rp.v[1] = A.v[0], rp.pos[1] = A.pos[0];
        rp.v[2] = vint(1), rp.pos[2] = iter->pos;
    } else {
        rp.v[0] = A.v[0], rp.pos[0] = A.pos[0];
        rp.v[1] = A.v[1], rp.pos[1] = A.pos[1];
        if (given == 3) rp.v[2] = A.v[2], rp.pos[2] = A.pos[2];
        else rp.v[2] = vint(1), rp.pos[2] = iter->pos;
    }
    int all_int = rp.v[0].kind == V_INT && rp.v[1].kind == V_INT && rp.v[2].kind == V_INT;
    if (all_int) {
        int64_t start = rp.v[0].i, stop = rp.v[1].i, step = rp.v[2].i;
        if (step == 0) fail(I, rp.pos[2], "%s() arg 3 must not be zero", fn);
        int64_t count = step > 0 ? (stop > start ? (stop - start + step - 1) / step : 0)
                                 : (start > stop ? (start - stop - step - 1) / -step : 0);
        if (count > MAX_UNROLL) fail(I, iter->pos, "%s unrolls %lld iterations, more than %d", fn, (long long)count, MAX_UNROLL);
        for (int64_t k = 0; k < count; k++) {
            bind_name(I, name, vint(start + k * step), target->pos);
            visit_body(I, body);
        }
        return;
    }
    if (is_static) {
        for (int i = 0; i < 3; i++)
            if (rp.v[i].kind != V_INT)
                fail(I, rp.pos[i], "tl.static_range needs compile-time integer bounds (got %s; use range() for a runtime loop)",
                     kind_name(rp.v[i]));
    }
    for (int d = 0; d < I->depth; d++)
        if (strcmp(I->loops[d]->index_name, name) == 0)
            fail(I, target->pos, "cannot assign to '%s', the induction variable of the runtime loop at line %d", name,
                 I->loops[d]->pos.line);
    runtime_loop(I, node, name, &rp);
}

static void visit_stmt(Interp *I, const PyNode *s) {
    const char *k = s->kind;
    I->list->mark = I->list->pending.len;
    if (strcmp(k, "Expr") == 0) {
        const PyNode *v = pyast_node(s, "value");
        if (pyast_is(v, "Constant")) return; /* docstrings and bare literals */
        eval(I, v);
        return;
    }
    if (strcmp(k, "Assign") == 0) {
        const PyVal *targets = pyast_list(s, "targets");
        Val v = eval(I, pyast_node(s, "value"));
        for (int i = 0; targets && i < targets->len; i++) assign_target(I, list_node(targets, i), v);
        return;
    }
    if (strcmp(k, "AnnAssign") == 0) {
        const PyNode *value = pyast_node(s, "value");
        const PyNode *target = pyast_node(s, "target");
        if (!value) {
            if (!pyast_is(target, "Name")) assign_target(I, target, vnone());
            return;
        }
        assign_target(I, target, eval(I, value));
        return;
    }
    if (strcmp(k, "AugAssign") == 0) {
        const PyNode *target = pyast_node(s, "target");
        const PyNode *op = pyast_node(s, "op");
        if (!target || !op) fail(I, s->pos, "malformed augmented assignment");
        if (!pyast_is(target, "Name")) assign_target(I, target, vnone());
        static const char *const ok[] = {"Add", "Sub", "Mult", "Div"};
        int supported = 0;
        for (int i = 0; i < 4; i++) supported |= strcmp(op->kind, ok[i]) == 0;
        if (!supported)
            fail(I, s->pos, "augmented assignment '%s=' is not supported (only += -= *= /=)", py_op_symbol(op->kind));
        const char *name = pyast_str(target, "id");
        if (!name) fail(I, target->pos, "malformed name");
        Val cur = lookup(I, name, target->pos);
        Val rhs = eval(I, pyast_node(s, "value"));
        bind_name(I, name, binop(I, op->kind, cur, rhs, s->pos), target->pos);
        return;
    }
    if (strcmp(k, "For") == 0) {
        visit_for(I, s);
        return;
    }
    if (strcmp(k, "If") == 0) {
        Val c = eval(I, pyast_node(s, "test"));
        int t = truthy(I, c, s->pos,
                       "'if' on a runtime value is not supported (use tl.where to choose per element, or make the "
                       "condition a tl.constexpr)");
        visit_body(I, pyast_list(s, t ? "body" : "orelse"));
        return;
    }
    if (strcmp(k, "Pass") == 0) return;
    if (strcmp(k, "Return") == 0) fail(I, s->pos, "'return' in a kernel is not supported (kernels write results with tl.store)");
    if (strcmp(k, "While") == 0) fail(I, s->pos, "'while' loops are not supported (use 'for i in range(n)')");
    if (strcmp(k, "Break") == 0) fail(I, s->pos, "'break' is not supported (loops always run to the end of their range)");
    if (strcmp(k, "Continue") == 0) fail(I, s->pos, "'continue' is not supported (use tl.where or masks instead)");
    if (strcmp(k, "AsyncFor") == 0) fail(I, s->pos, "'async for' is not supported");
    static const struct {
        const char *kind, *what;
    } unsupported[] = {{"Assert", "'assert' statements"},  {"With", "'with' statements"},
                       {"AsyncWith", "'async with' statements"}, {"Try", "'try' statements"},
                       {"TryStar", "'try' statements"},    {"Raise", "'raise' statements"},
                       {"Delete", "'del' statements"},     {"Global", "'global' statements"},
                       {"Nonlocal", "'nonlocal' statements"}, {"Import", "'import' statements"},
                       {"ImportFrom", "'import' statements"}, {"FunctionDef", "nested functions"},
                       {"AsyncFunctionDef", "nested functions"}, {"ClassDef", "classes"},
                       {"Match", "'match' statements"},    {"TypeAlias", "'type' statements"}};
    for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++)
        if (strcmp(unsupported[i].kind, k) == 0) fail(I, s->pos, "%s are not supported in kernels", unsupported[i].what);
    fail(I, s->pos, "'%s' statements are not supported in kernels", k);
}

static void visit_body(Interp *I, const PyVal *stmts) {
    for (int i = 0; stmts && i < stmts->len; i++) {
        const PyNode *s = list_node(stmts, i);
        if (!s) fail(I, srcpos(0, 0), "malformed statement list");
        visit_stmt(I, s);
    }
}

/* ---- Module scope, kernel lookup, parameters --------------------------- */

static Val module_val(Module m, const char *name) {
    Val v = {0};
    v.kind = V_MODULE;
    v.i = m;
    v.s = name;
    return v;
}

static int is_triton_module(const char *name) { return strcmp(name, "triton") == 0 || strcmp(name, "mytriton") == 0; }
static int is_language_module(const char *name) {
    return strcmp(name, "triton.language") == 0 || strcmp(name, "mytriton.language") == 0;
}

static void import_names(Interp *I, const PyNode *s) {
    const PyVal *names = pyast_list(s, "names");
    for (int i = 0; names && i < names->len; i++) {
        const PyNode *alias = list_node(names, i);
        const char *name = alias ? pyast_str(alias, "name") : NULL;
        const char *as = alias ? pyast_str(alias, "asname") : NULL;
        if (!name) continue;
        if (pyast_is(s, "Import")) {
            if (as) {
                Module m = is_triton_module(name) ? MOD_TRITON : is_language_module(name) ? MOD_TL : MOD_OTHER;
                env_set(I->a, &I->globals, as, module_val(m, name), alias->pos);
            } else {
                /* `import a.b` binds `a` */
                const char *dot = strchr(name, '.');
                const char *top = dot ? arena_strndup(I->a, name, (size_t)(dot - name)) : name;
                env_set(I->a, &I->globals, top, module_val(is_triton_module(top) ? MOD_TRITON : MOD_OTHER, top), alias->pos);
            }
            continue;
        }
        const char *module = pyast_str(s, "module");
        const char *bind = as ? as : name;
        if (strcmp(name, "*") == 0) continue;
        Val v = {0};
        if (module && is_triton_module(module)) {
            if (strcmp(name, "language") == 0) v = module_val(MOD_TL, "triton.language");
            else if (strcmp(name, "jit") == 0) v.kind = V_FUNC, v.i = B_JIT;
            else if (strcmp(name, "cdiv") == 0) v.kind = V_FUNC, v.i = B_CDIV;
            else v = module_val(MOD_OTHER, arena_printf(I->a, "%s.%s", module, name));
        } else if (module && is_language_module(module)) {
            v = module_val(MOD_OTHER, arena_printf(I->a, "%s.%s", module, name));
            for (size_t k = 0; k < sizeof tl_members / sizeof tl_members[0]; k++)
                if (strcmp(tl_members[k].name, name) == 0) {
                    v = (Val){0};
                    v.kind = tl_members[k].kind;
                    v.i = tl_members[k].value;
                }
        } else {
            v = module_val(MOD_OTHER, arena_printf(I->a, "%s.%s", module ? module : "", name));
        }
        env_set(I->a, &I->globals, bind, v, alias->pos);
    }
}

static int is_jit_decorator(Interp *I, const PyNode *d) {
    if (pyast_is(d, "Call")) d = pyast_node(d, "func");
    if (pyast_is(d, "Name")) {
        if (!pyast_str(d, "id")) return 0;
        EnvEntry *e = env_find(&I->globals, pyast_str(d, "id"));
        return e && e->v.kind == V_FUNC && e->v.i == B_JIT;
    }
    if (pyast_is(d, "Attribute")) {
        const char *attr = pyast_str(d, "attr");
        const PyNode *base = pyast_node(d, "value");
        if (!attr || strcmp(attr, "jit") != 0 || !pyast_is(base, "Name") || !pyast_str(base, "id")) return 0;
        EnvEntry *e = env_find(&I->globals, pyast_str(base, "id"));
        return e && e->v.kind == V_MODULE && e->v.i == MOD_TRITON;
    }
    return 0;
}

static int is_constexpr_annotation(Interp *I, const PyNode *ann) {
    if (!ann) return 0;
    if (pyast_is(ann, "Attribute")) {
        const char *attr = pyast_str(ann, "attr");
        return attr && strcmp(attr, "constexpr") == 0;
    }
    if (pyast_is(ann, "Name")) {
        const char *id = pyast_str(ann, "id");
        EnvEntry *e = id ? env_find(&I->globals, id) : NULL;
        return (e && e->v.kind == V_FUNC && e->v.i == B_CONSTEXPR) || (id && strcmp(id, "constexpr") == 0);
    }
    if (pyast_is(ann, "Constant")) {
        const PyVal *v = pyast_field(ann, "value");
        return v && v->kind == PYV_STR && (strcmp(v->text, "tl.constexpr") == 0 || strcmp(v->text, "constexpr") == 0);
    }
    return 0;
}

int frontend_parse_define(const char *text, int *is_int, long long *i, double *f, int *is_bool) {
    *is_int = *is_bool = 0;
    if (strcmp(text, "True") == 0 || strcmp(text, "False") == 0) {
        *is_bool = 1;
        *i = text[0] == 'T';
        return 1;
    }
    if (!*text || isspace((unsigned char)text[0])) return 0;
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 0);
    if (*end == 0 && errno == 0 && !(text[0] == '0' && text[1] >= '0' && text[1] <= '9')) {
        *is_int = 1;
        *i = v;
        return 1;
    }
    if (*end == 0 && errno == ERANGE) return 0;
    errno = 0;
    double d = strtod(text, &end);
    if (*end == 0 && !strchr(text, 'x') && !strchr(text, 'X')) {
        *f = d;
        return 1;
    }
    return 0;
}

/* A -D / CONSTEXPR value, read as a Python literal: an int, a float, True,
 * False, None, or a string, written quoted ('x' or "x") or bare (a word
 * that is no other literal: ACTIVATION=leaky_relu). */
static Val define_value(Interp *I, const Define *d) {
    int is_int, is_bool;
    long long i;
    double f;
    if (frontend_parse_define(d->value, &is_int, &i, &f, &is_bool)) {
        if (is_bool) return vbool((int)i);
        if (is_int) return vint(i);
        return vfloat(f);
    }
    const char *t = d->value;
    size_t n = strlen(t);
    Val v = {0};
    v.kind = V_STR;
    if (strcmp(t, "None") == 0) return vnone();
    if (n >= 2 && (t[0] == '"' || t[0] == '\'') && t[n - 1] == t[0]) {
        v.s = arena_strndup(I->a, t + 1, n - 2);
        return v;
    }
    int word = n > 0;
    for (size_t k = 0; k < n; k++)
        if (!(isalnum((unsigned char)t[k]) || t[k] == '_' || t[k] == '-' || t[k] == '.')) word = 0;
    if (!word)
        fail(I, srcpos(0, 0),
             "-D %s=%s: the value must be an integer, a float, True, False, None or a string (quote it: %s='...')", d->name,
             d->value, d->name);
    v.s = arena_strdup(I->a, t);
    return v;
}

static const PyNode *find_kernel(Interp *I, const PyNode *module, const char *name) {
    const PyVal *body = pyast_list(module, "body");
    StrBuf found;
    sb_init(&found, I->a);
    const PyNode *match = NULL;
    for (int i = 0; body && i < body->len; i++) {
        const PyNode *s = list_node(body, i);
        if (!s) continue;
        if (pyast_is(s, "Import") || pyast_is(s, "ImportFrom")) import_names(I, s);
    }
    for (int i = 0; body && i < body->len; i++) {
        const PyNode *s = list_node(body, i);
        if (!s || !(pyast_is(s, "FunctionDef") || pyast_is(s, "AsyncFunctionDef"))) continue;
        const char *fname = pyast_str(s, "name");
        if (!fname) continue;
        int jit = 0;
        const PyVal *decos = pyast_list(s, "decorator_list");
        for (int d = 0; decos && d < decos->len; d++) jit |= is_jit_decorator(I, list_node(decos, d));
        if (jit) sb_printf(&found, "%s%s", found.len ? ", " : "", fname);
        Val uf = {0};
        uf.kind = V_USERFUNC;
        uf.s = fname;
        env_set(I->a, &I->globals, fname, uf, s->pos);
        if (strcmp(fname, name) == 0) {
            if (pyast_is(s, "AsyncFunctionDef")) fail(I, s->pos, "the kernel '%s' cannot be 'async'", name);
            if (!jit) fail(I, s->pos, "'%s' is not a kernel: it is not decorated with @triton.jit", name);
            match = s;
        }
    }
    if (!match) {
        if (found.len) fail(I, srcpos(0, 0), "no kernel named '%s' (kernels in this file: %s)", name, sb_str(&found));
        fail(I, srcpos(0, 0), "no kernel named '%s' (this file has no @triton.jit functions)", name);
    }
    return match;
}

static void setup_params(Interp *I, const PyNode *fn, const Signature *sig, const Define *defs, int ndefs) {
    const PyNode *args = pyast_node(fn, "args");
    if (!args) fail(I, fn->pos, "malformed function");
    const PyVal *posonly = pyast_list(args, "posonlyargs");
    const PyVal *plain = pyast_list(args, "args");
    const PyVal *kwonly = pyast_list(args, "kwonlyargs");
    const PyVal *defaults = pyast_list(args, "defaults");
    if (pyast_node(args, "vararg")) fail(I, pyast_node(args, "vararg")->pos, "*args parameters are not supported in kernels");
    if (pyast_node(args, "kwarg")) fail(I, pyast_node(args, "kwarg")->pos, "**kwargs parameters are not supported in kernels");
    if (kwonly && kwonly->len)
        fail(I, list_node(kwonly, 0) ? list_node(kwonly, 0)->pos : fn->pos, "keyword-only parameters are not supported in kernels");
    int n = (posonly ? posonly->len : 0) + (plain ? plain->len : 0);
    Kernel *k = I->k;
    k->nparams = n;
    k->params = ARENA_ARRAY(I->a, KernelParam, n + 1);
    k->runtime = ARENA_ARRAY(I->a, KernelParam *, n + 1);
    int ndefaults = defaults ? defaults->len : 0;
    for (int i = 0; i < n; i++) {
        const PyNode *arg = (posonly && i < posonly->len) ? list_node(posonly, i) : list_node(plain, i - (posonly ? posonly->len : 0));
        if (!arg) fail(I, fn->pos, "malformed parameter");
        KernelParam *p = &k->params[i];
        p->name = pyast_str(arg, "arg");
        p->pos = arg->pos;
        if (!p->name) fail(I, arg->pos, "malformed parameter");
        p->runtime_index = -1;
        for (int j = 0; j < i; j++)
            if (strcmp(k->params[j].name, p->name) == 0) fail(I, arg->pos, "duplicate parameter '%s'", p->name);
        p->is_constexpr = is_constexpr_annotation(I, pyast_node(arg, "annotation"));
        int di = i - (n - ndefaults);
        const PyNode *def = di >= 0 ? list_node(defaults, di) : NULL;
        if (p->is_constexpr) {
            const Define *d = NULL;
            for (int j = 0; j < ndefs; j++)
                if (strcmp(defs[j].name, p->name) == 0) d = &defs[j];
            Val v;
            if (d) v = define_value(I, d), p->constexpr_text = d->value;
            else if (def) {
                v = eval(I, def);
                if (!is_number(v) && v.kind != V_NONE && v.kind != V_STR)
                    fail(I, def->pos, "the default of constexpr '%s' must be a compile-time value", p->name);
                p->constexpr_text = v.kind == V_INT ? arena_printf(I->a, "%lld", (long long)v.i)
                                    : v.kind == V_BOOL ? (v.i ? "True" : "False")
                                    : v.kind == V_FLOAT ? const_repr(I->a, const_f32(v.f)) : "None";
            } else
                fail(I, arg->pos, "the constexpr parameter '%s' has no value (pass -D %s=<value>)", p->name, p->name);
            env_set(I->a, I->env, p->name, v, arg->pos);
        } else {
            p->runtime_index = k->nruntime;
            k->runtime[k->nruntime++] = p;
        }
    }
    for (int j = 0; j < ndefs; j++) {
        int found = 0;
        for (int i = 0; i < n; i++)
            if (strcmp(k->params[i].name, defs[j].name) == 0) {
                found = 1;
                if (!k->params[i].is_constexpr)
                    fail(I, k->params[i].pos, "-D %s: '%s' is a runtime parameter (annotate it ': tl.constexpr' to fix it at build time)",
                         defs[j].name, defs[j].name);
            }
        if (!found) fail(I, fn->pos, "-D %s: the kernel '%s' has no parameter named '%s'", defs[j].name, k->name, defs[j].name);
        for (int i = 0; i < j; i++)
            if (strcmp(defs[i].name, defs[j].name) == 0) fail(I, srcpos(0, 0), "-D %s is given twice", defs[j].name);
    }
    if (sig->n != k->nruntime) {
        StrBuf names;
        sb_init(&names, I->a);
        for (int i = 0; i < k->nruntime; i++) sb_printf(&names, "%s%s", i ? ", " : "", k->runtime[i]->name);
        fail(I, fn->pos, "the signature has %d entr%s but the kernel '%s' has %d runtime parameter%s (%s)", sig->n,
             sig->n == 1 ? "y" : "ies", k->name, k->nruntime, k->nruntime == 1 ? "" : "s",
             k->nruntime ? sb_str(&names) : "none");
    }
    for (int i = 0; i < k->nruntime; i++) {
        KernelParam *p = k->runtime[i];
        const SigEntry *se = &sig->entries[i];
        if (se->name && strcmp(se->name, p->name) != 0)
            fail(I, p->pos, "signature entry %d is named '%s' but the parameter is '%s'", i + 1, se->name, p->name);
        p->type = se->type;
        Expr *e = new_expr(I, EX_PARAM, p->pos, p->type);
        e->param = i;
        env_set(I->a, I->env, p->name, vexpr(e), p->pos);
    }
}

Kernel *frontend_build(MtContext *ctx, const PyNode *module, const char *kernel_name, const Signature *sig,
                       const Define *defines, int ndefines) {
    Interp *I = ARENA_NEW(ctx->arena, Interp);
    I->ctx = ctx;
    I->a = ctx->arena;
    Kernel *k = ARENA_NEW(I->a, Kernel);
    k->name = kernel_name;
    I->k = k;
    Env *env = ARENA_NEW(I->a, Env);
    I->env = env;
    StmtList *top = ARENA_NEW(I->a, StmtList);
    top->stmts = &k->body;
    I->list = top;
    if (setjmp(I->fail)) return NULL;
    const PyNode *fn = find_kernel(I, module, kernel_name);
    k->pos = fn->pos;
    setup_params(I, fn, sig, defines, ndefines);
    visit_body(I, pyast_list(fn, "body"));
    return k;
}
