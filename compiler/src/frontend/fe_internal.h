/* The frontend's internals, shared by its files (DESIGN 3.3):
 *   fe_values.c     values, environments, errors, expression nodes, names
 *   fe_python.c     compile-time arithmetic with Python semantics
 *   fe_operators.c  operators on runtime values (Triton's promotion)
 *   fe_builtins.c   the builtin library: tl.*, tl.math.*, methods, attributes
 *   fe_expr.c       expressions
 *   fe_stmt.c       statements and loops
 *   fe_blockptr.c   block pointers (tl.make_block_ptr, tl.advance, their loads
 *                   and stores)
 *   frontend.c      module scope, kernel lookup, parameters, the entry point
 * Errors unwind with longjmp to frontend_build(): all memory is in the
 * compilation's arena, so nothing leaks. */
#ifndef MT_FE_INTERNAL_H
#define MT_FE_INTERNAL_H

#include "frontend/frontend.h"

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
    MAX_UNROLL = 1 << 20,
    MAX_BUILTIN_PARAMS = 10
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
    V_OPFN,            /* an op of ops.def callable as tl.<spelling>() (OPF_CALL), `i`: the Op */
    V_METHOD,          /* a bound method: `s` its name, `items[0]` the receiver */
    V_NONCONST_GLOBAL, /* a module-level name kernels may not read (Triton's rule):
                        * `s` its name, `i` 1 when annotated `x: tl.constexpr = v`,
                        * 2 computed by Python, 3 a member its module lacks (`s`:
                        * what it is, in words) */
    V_BLOCKPTR,        /* tl.make_block_ptr's value: `bp` */
    V_LAZY             /* a name imported by a module other than the kernel's, read
                 * when first used (fe_resolve): `lazy` */
} VKind;

typedef struct Val {
    VKind kind;
    int64_t
        i;    /* V_BOOL, V_INT, V_DTYPE (DType), V_MODULE (Module), V_FUNC (Builtin), V_OPFN (Op) */
    double f; /* V_FLOAT */
    const char *s;     /* V_STR, V_MODULE/V_USERFUNC name */
    struct Val *items; /* V_TUPLE, V_LIST */
    int n;
    Expr *e;                       /* V_EXPR */
    int ptr;                       /* V_DTYPE: a pointer to the dtype (p.dtype) */
    int u64;                       /* V_INT: an integer of 2^63 .. 2^64-1, its bits in `i` */
    int strong;                    /* a Python number assigned to a variable: a tensor in
                        * Triton, so it takes part in promotion (not weak) */
    const struct UserFn *fn;       /* V_USERFUNC: the function */
    struct FeModule *umod;         /* V_MODULE of MOD_USER: the module */
    const struct BlockPtr *bp;     /* V_BLOCKPTR */
    const struct LazyImport *lazy; /* V_LAZY */
} Val;

/* An import of a module other than the kernel's file, resolved when the
 * name is first read: loading a package's __init__.py does not load every
 * module it imports (most are of the Python side). */
typedef struct LazyImport {
    const struct PyNode *stmt, *alias; /* the import and its name */
    struct FeModule *importer;
    int conditional; /* inside a module-level if/try */
} LazyImport;

/* A block pointer (Triton's pointer_type<block_type>): element
 * (i_0, ..., i_{n-1}) of the block is at base + sum_d (offsets[d] + i_d) *
 * strides[d], computed in i64. Loads and stores lower to blocks of
 * pointers with masks (fe_blockptr.c); runtime loops and ifs carry the
 * offsets, the rest must not change. Immutable: tl.advance makes a new one. */
typedef struct BlockPtr {
    int rank;
    struct Expr *base;        /* a scalar pointer */
    Val shape[MT_MAX_RANK];   /* compile-time ints or integer scalars as given (i64 at use) */
    Val strides[MT_MAX_RANK]; /* the same */
    Val offsets[MT_MAX_RANK]; /* compile-time ints or i64 scalars */
    int32_t block[MT_MAX_RANK];
    int32_t order[MT_MAX_RANK]; /* a layout hint only */
    /* a tensor descriptor (tl.make_tensor_descriptor): offsets 0, given to
     * each load and store, every dimension checked, out-of-bounds elements
     * read as `pad` (1 zero, 2 NaN) */
    int desc, pad;
} BlockPtr;

typedef enum Module {
    MOD_TRITON,
    MOD_TL,
    MOD_TL_MATH,
    MOD_PROPAGATE_NAN,
    MOD_TL_EXTRA,  /* triton.language.extra and its .cuda */
    MOD_LIBDEVICE, /* triton.language.extra(.cuda).libdevice */
    MOD_OTHER,
    MOD_USER /* a Python file beside the kernel's (fe_import.c): `umod` */
} Module;

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
    B_ZEROS_LIKE,
    B_STD_LOG2,
    B_STD_IS_POW2,
    B_FULL,
    B_EMPTY,
    B_STATIC_RANGE,
    B_CDIV,
    B_SWIZZLE2D,
    B_RANGE,
    B_FLOAT,
    B_INT,
    B_BOOL,
    B_PY_MIN,
    B_PY_MAX,
    B_ABS,
    B_LEN,
    B_GETATTR,
    B_HASATTR,
    B_NUM_PROGRAMS,
    B_CAST,
    B_TO,
    B_POINTER_TYPE,
    B_CLAMP,
    B_SIGMOID,
    B_FDIV,
    B_MULTIPLE_OF,
    B_MAX_CONTIGUOUS,
    B_MAX_CONSTANCY,
    /* debugging (fe_debug.c) */
    B_STATIC_ASSERT,
    B_STATIC_PRINT,
    B_DEVICE_PRINT,
    B_DEVICE_ASSERT,
    B_PRINT,
    /* shape functions (fe_shape.c) */
    B_RESHAPE,
    B_VIEW,
    B_RAVEL,
    B_TRANS,
    B_PERMUTE,
    B_EXPAND_DIMS,
    B_BROADCAST_TO,
    B_BROADCAST,
    B_JOIN,
    B_SPLIT,
    B_INTERLEAVE,
    B_CAT,
    B_ARGMAX, /* reductions and scans along an axis (fe_reduce.c) */
    B_ARGMIN,
    B_CUMSUM,
    B_CUMPROD,
    B_REDUCE,
    B_ASSOC_SCAN,
    B_XOR_SUM, /* standard.py's xor_sum, sort and flip (fe_reduce.c) */
    B_SORT,
    B_FLIP,
    B_HISTOGRAM,
    B_TL_RANGE,
    /* atomics and random numbers (fe_atomic.c, fe_random.c) */
    B_ATOMIC_ADD,
    B_ATOMIC_MAX,
    B_ATOMIC_MIN,
    B_ATOMIC_AND,
    B_ATOMIC_OR,
    B_ATOMIC_XOR,
    B_ATOMIC_XCHG,
    B_ATOMIC_CAS,
    B_DEBUG_BARRIER,
    B_ASSUME,
    B_PHILOX,
    B_RANDINT,
    B_RANDINT4X,
    B_RAND,
    B_RAND4X,
    B_RANDN,
    B_RANDN4X,
    B_UINT_TO_UNIFORM_FLOAT,
    B_PAIR_UNIFORM_TO_NORMAL,
    B_DOT,
    B_MAKE_BLOCK_PTR, /* block pointers (fe_blockptr.c) */
    B_ADVANCE,
    B_MAKE_TENSOR_DESC, /* tensor descriptors (fe_blockptr.c) */
    B_DESC_LOAD,
    B_DESC_STORE,
    B_DESC_ATOMIC_ADD, /* desc.atomic_add .. atomic_xor, in AtomicRmw's order */
    B_DESC_ATOMIC_MAX,
    B_DESC_ATOMIC_MIN,
    B_DESC_ATOMIC_AND,
    B_DESC_ATOMIC_OR,
    B_DESC_ATOMIC_XOR,
    B_INLINE_ASM,
    B_GATHER,
    B_NEXT_POW2,
    B_SOFTMAX,
    B_ISINSTANCE, /* Python's isinstance over the classes below, int, float, bool */
    B_CLS_TENSOR, /* classes of triton.language, for isinstance: tl.tensor */
    B_CLS_DESC,   /* tl.tensor_descriptor (and tensor_descriptor_base) */
    B_CLS_DTYPE,  /* tl.dtype */
    B_CUDA_SREG,  /* tl.extra.cuda's globaltimer and smid (`arg`: the register's row) */
    B_CUDA_WARPS, /* tl.extra.cuda's num_warps and num_threads (`arg`: 1, 32 per warp) */
    B_CUDA_THREADS,
    B_CUDA_SMID,
    B_COUNT
} Builtin;

/* Parameters of each builtin, in order; `required` leading ones must be
 * given; names from `hints_from` on are accepted and ignored (Triton's
 * cache and eviction hints). `variadic`: Python's min/max. */
typedef struct BuiltinSpec {
    const char *display;
    const char *params[MAX_BUILTIN_PARAMS];
    int required;
    int hints_from;
    int variadic;
} BuiltinSpec;

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

/* ---- Helper functions and the files they come from (fe_call.c) -------- */

/* A Python file of @triton.jit functions: the kernel's, or a module
 * imported beside it (parsed, never executed). */
typedef struct FeModule {
    const char *name;     /* the module name ("common"); NULL: the kernel's file */
    const char *filename; /* as diagnostics print it */
    const char *source;
    size_t source_len;
    Env globals; /* its imports and functions */
    int loading; /* imports being read (an import cycle) */
} FeModule;

/* A function defined at module level. */
typedef struct UserFn {
    const char *name;
    const PyNode *def;
    FeModule *mod;
    int jit; /* decorated with @triton.jit / @triton.jit(...) */
    /* decorated with @tl.constexpr_function (or @tl.constexpr): Python
     * run at compile time, on compile-time arguments (jit is set too) */
    int constexpr_fn;
} UserFn;

/* A helper call being evaluated: its body runs in a fresh environment. */
typedef struct CallFrame {
    const UserFn *fn;
    SrcPos call_pos;      /* in the caller's file */
    FeModule *caller_mod; /* the caller's file */
    struct CallFrame *parent;
    int base_depth; /* I->depth at the call: the runtime loops of callers */
} CallFrame;

/* ---- The interpreter ----------------------------------------------------- */

/* A statement list being built: the kernel body or a loop body. Loads
 * created in earlier statements of the list are lowered before the next
 * store or loop, so memory order follows the source. */
typedef struct StmtList {
    PtrVec *stmts;
    PtrVec pending; /* loads not yet attached to a statement */
    int mark;       /* pending.len when the current statement began */
} StmtList;

/* What follows the statement being visited (Triton's top-level `if` with
 * a `return`: the rest of the function runs in the branches that do not
 * return): the rest of each enclosing statement list, innermost first. A
 * frame without statements marks where the continuation stops, the body
 * of a function or of a runtime region (CONT_ROOT), or an unrolled loop's
 * body (CONT_UNROLLED: the loop's later iterations follow, then the frames
 * after it). */
enum { CONT_STMTS, CONT_ROOT, CONT_UNROLLED };
typedef struct Cont {
    const PyVal *stmts;
    int from; /* the next statement */
    int mark; /* CONT_* */
    const struct Cont *next;
    /* CONT_UNROLLED: the loop's body, target and iterations (a tuple's
     * items, or start + k * step), and the next iteration */
    const PyVal *body;
    const char *name;
    SrcPos name_pos;
    const Val *items; /* NULL: the integers */
    int64_t start, step, count, at;
} Cont;

typedef struct Interp {
    MtContext *ctx;
    Arena *a;
    Kernel *k;
    jmp_buf fail;
    Env globals; /* module-level imports and functions */
    Env *env;    /* the current local environment */
    StmtList *list;
    ForRange *loops[MAX_LOOP_DEPTH]; /* regions (for, while, if) being traced */
    int depth;
    /* by depth: the region is a runtime if whose branches hold a `return`
     * and the rest of the function (fe_visit_returning_if) */
    unsigned char returning[MAX_LOOP_DEPTH];
    const Cont *cont;        /* the continuation of the statement being visited */
    Env loop_locals;         /* names first created in a runtime loop body */
    int conditional_imports; /* > 0: reading the imports of a module-level if/try branch */
    EnvEntry *module_values; /* --module-value NAME=VALUE, in every module (fe_module_value) */
    int nmodule_values;
    int lazy_imports;  /* > 0: imports of user modules bind V_LAZY (fe_load_module) */
    Env branch_locals; /* names created in one branch of a runtime if only */
    int eval_depth;
    FeModule *mod; /* the file whose code runs now */
    FeModule *kernel_mod;
    PtrVec modules;              /* FeModule *: the files imported so far */
    CallFrame *frame;            /* the innermost helper call; NULL in the kernel */
    int ncalls;                  /* helper calls so far (a bound on unrolled calls) */
    int returned;                /* a `return` ran: the rest of the body is skipped */
    Val ret;                     /* its value */
    struct KernelSearch *search; /* fe_find_kernel's walk of the module */
} Interp;

/* Arguments bound to a builtin's parameters. */
typedef struct Args {
    Val v[MAX_BUILTIN_PARAMS];
    int given[MAX_BUILTIN_PARAMS];
    SrcPos pos[MAX_BUILTIN_PARAMS];
    int nvar; /* variadic */
    Val var[16];
} Args;

/* A builtin's call as its handler (fe_builtins.c's table) sees it: the
 * builtin, its display spelling, the call and receiver, the row's `arg`
 * and the arguments bound to its parameters. */
typedef struct BuiltinCall {
    Builtin b;
    const char *fn;
    SrcPos pos;
    const PyNode *call;
    const Val *self;
    int arg;
    Args A;
} BuiltinCall;

/* The start, stop and step of a range() call. */
typedef struct RangeParts {
    Val v[3];
    SrcPos pos[3];
    int num_stages, unroll; /* tl.range's hints (0: none) */
    int warp_specialize;    /* tl.range's warp_specialize=True */
} RangeParts;

/* ---- Small value constructors ------------------------------------------ */

static inline Val vnone(void) {
    Val v = {0};
    v.kind = V_NONE;
    return v;
}
static inline Val fe_vint(int64_t i) {
    Val v = {0};
    v.kind = V_INT;
    v.i = i;
    return v;
}
static inline Val fe_vbool(int b) {
    Val v = {0};
    v.kind = V_BOOL;
    v.i = b ? 1 : 0;
    return v;
}
static inline Val fe_vfloat(double f) {
    Val v = {0};
    v.kind = V_FLOAT;
    v.f = f;
    return v;
}
static inline Val fe_vexpr(Expr *e) {
    Val v = {0};
    v.kind = V_EXPR;
    v.e = e;
    return v;
}

static inline int fe_is_intlike(Val v) { return v.kind == V_INT || v.kind == V_BOOL; }
static inline int fe_is_number(Val v) { return fe_is_intlike(v) || v.kind == V_FLOAT; }
static inline double fe_as_double(Val v) { return v.kind == V_FLOAT ? v.f : (double)v.i; }

/* ---- Functions of the frontend's files -------------------------------- */

_Noreturn void fe_fail(Interp *I, SrcPos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
unsigned fe_hash_name(const char *s);
EnvEntry *fe_env_find(const Env *env, const char *name);
void fe_env_set(Arena *a, Env *env, const char *name, Val v, SrcPos at);
Env fe_env_copy(Arena *a, const Env *src);
const char *fe_kind_name(Val v);
Expr *fe_new_expr(Interp *I, ExprKind kind, SrcPos pos, Type t);
Expr *fe_mk_const(Interp *I, ConstVal c, SrcPos pos);
Expr *fe_mk_op(Interp *I, Op op, const char *display, SrcPos pos, int n, Expr *a0, Expr *a1,
               Expr *a2, const Attrs *at);
/* fe_mk_op of n (up to MT_MAX_OPERANDS) operands args[0..n). */
Expr *fe_mk_opv(Interp *I, Op op, const char *display, SrcPos pos, int n, Expr *const *args,
                const Attrs *at);
Expr *fe_to_expr(Interp *I, Val v, SrcPos pos, const char *what);
Expr *fe_cast_to(Interp *I, Expr *e, DType dt, SrcPos pos);
Val fe_scalar_fill(Interp *I, Val v, DType dt, SrcPos pos, const char *fn);
Expr *fe_to_expr_as(Interp *I, Val v, DType dt, SrcPos pos, const char *what);
void fe_check_cast(Interp *I, DType from, DType to, SrcPos pos, const char *what);
void fe_add_capture(Interp *I, ForRange *loop, Expr *e);
void fe_note_use(Interp *I, Val v);
Val fe_lookup(Interp *I, const char *name, SrcPos pos);
const char *fe_py_op_symbol(PyKind op);
void fe_py_float_divmod(double vx, double wx, double *floordiv, double *modulo);
int fe_values_equal(Val a, Val b);
int fe_truthy(Interp *I, Val v, SrcPos pos, const char *what);
Val fe_ct_binop(Interp *I, PyKind op, Val a, Val b, SrcPos pos);
Val fe_ct_compare(Interp *I, PyKind op, Val a, Val b, SrcPos pos);
DType fe_promote_pair(Interp *I, const char *display, Expr **a, Expr **b, int div_or_mod,
                      SrcPos pos);
Expr *fe_binary_expr(Interp *I, Op op, const char *display, Expr *ea, Expr *eb, SrcPos pos,
                     const Attrs *at);
Val fe_sym_binop(Interp *I, PyKind op, Val a, Val b, SrcPos pos);
Val fe_binop(Interp *I, PyKind op, Val a, Val b, SrcPos pos);
Val fe_compare(Interp *I, PyKind op, Val a, Val b, SrcPos pos);
const PyNode *fe_list_node(const PyVal *list, int i);
Val fe_eval_constant(Interp *I, const PyNode *n);
Val fe_make_seq(Interp *I, VKind kind, const PyVal *elts, int pos_line);
Val fe_eval_subscript(Interp *I, const PyNode *n);
Val fe_eval_attribute(Interp *I, const PyNode *n);
void fe_bind_spec(Interp *I, const PyNode *call, const BuiltinSpec *spec, Args *out,
                  const Val *self);
void fe_bind_args(Interp *I, const PyNode *call, Builtin b, Args *out);
int64_t fe_need_int(Interp *I, Val v, SrcPos pos, const char *what);
void fe_need_shape(Interp *I, Val v, SrcPos pos, const char *fn, Attrs *at);
DType fe_need_dtype(Interp *I, Val v, SrcPos pos, const char *fn);
Val fe_parse_float_string(Interp *I, const char *s, SrcPos pos);
Val fe_call_op(Interp *I, const PyNode *call, Op op, const Val *self);
Val fe_make_cast(Interp *I, const Args *A, const char *fn, SrcPos pos);
int fe_nan_ignored(Interp *I, const Args *A, int k, int dflt);
Val fe_call_builtin(Interp *I, const PyNode *call, Builtin b, const Val *self);
/* tl.sum, tl.max, tl.min, tl.argmax, tl.argmin, tl.cumsum, tl.cumprod (fe_reduce.c). */
Val fe_reduction(Interp *I, Builtin b, const Args *A, const char *fn, SrcPos pos);
/* tl.reduce and tl.associative_scan with a @triton.jit combiner (fe_reduce.c). */
Val fe_sort_flip(Interp *I, Builtin b, const Args *A, const char *fn, SrcPos pos);
/* tl.histogram(input, num_bins, mask=None) */
Val fe_histogram(Interp *I, const Args *A, const char *fn, SrcPos pos);
Val fe_reduce_fn(Interp *I, Builtin b, const Args *A, const char *fn, SrcPos pos);
Val fe_eval_call(Interp *I, const PyNode *n);
Val fe_eval_inner(Interp *I, const PyNode *n);
Val fe_eval(Interp *I, const PyNode *n);
void fe_stmt_append(Interp *I, Stmt *s);
void fe_effect_stmt(Interp *I, Expr *e, SrcPos pos);
void fe_store_stmt(Interp *I, const char *fn, SrcPos pos, Expr *ptr, Expr *value, Expr *mask);
void fe_bind_name(Interp *I, const char *name, Val v, SrcPos pos);
void fe_assign_target(Interp *I, const PyNode *target, Val v);
void fe_collect_name(Arena *a, const PyNode *target, PtrVec *names);
void fe_collect_node(Arena *a, const PyNode *n, PtrVec *names);
void fe_collect_assigned(Arena *a, const PyVal *stmts, PtrVec *names);
SrcPos fe_find_else(Interp *I, const PyNode *node, const PyVal *orelse);
int fe_pointer_param(const Expr *e);
void fe_runtime_loop(Interp *I, const PyNode *node, const char *target, RangeParts *rp);
void fe_visit_for(Interp *I, const PyNode *node);
void fe_visit_while(Interp *I, const PyNode *node);
void fe_visit_runtime_if(Interp *I, const PyNode *node, Expr *cond);
Val fe_runtime_ifexp(Interp *I, const PyNode *n, Expr *cond);
void fe_visit_stmt(Interp *I, const PyNode *s);
void fe_visit_body(Interp *I, const PyVal *stmts);
/* fe_visit_body in a frame of its own: CONT_ROOT (a function's body: its
 * continuation ends there). */
void fe_visit_body_marked(Interp *I, const PyVal *stmts, int mark);
Val fe_module_val(Module m, const char *name);
int fe_is_triton_module(const char *name);
int fe_is_language_module(const char *name);
Module fe_language_module(const char *name);
void fe_import_names(Interp *I, const PyNode *s);
void fe_module_imports(Interp *I, const PyVal *stmts);
void fe_module_walk(Interp *I, const PyVal *stmts, void (*visit)(Interp *, const PyNode *));
int fe_module_condition(Interp *I, const PyNode *test);
const Val *fe_module_value(const Interp *I, const char *name); /* 1, 0, or -1: unknown */
Val fe_resolve(Interp *I, Val v); /* a V_LAZY's value (others as they are) */
int fe_is_jit_decorator(Interp *I, const PyNode *d);
int fe_is_constexpr_fn_decorator(Interp *I, const PyNode *d);
int fe_is_constexpr_annotation(Interp *I, const PyNode *ann);
Val fe_define_value(Interp *I, const Define *d);
const PyNode *fe_find_kernel(Interp *I, const PyNode *module, const char *name);
void fe_setup_params(Interp *I, const PyNode *fn, const Signature *sig, const Define *defs,
                     int ndefs);
Val fe_tl_member(const char *attr, int math);
/* dtype predicate `name` (is_floating, is_int32, ...) of dt (a pointer to it
 * when ptr), 0 when there is no such predicate (fe_builtins.c's table). */
int fe_dtype_test(const char *name, DType dt, int ptr);
Val fe_libdevice_member(const char *attr);                   /* libdevice.X, or V_NONE */
Val fe_module_member(Interp *I, Val base, const char *attr); /* a module's X, or V_NONE */
/* Calls the helper `fn` (a V_USERFUNC) with positional arguments and
 * returns its result (a V_TUPLE when it returns several values; None when
 * it returns nothing). For tl.reduce / tl.associative_scan combiners. */
Val fe_call_function(Interp *I, Val fn, const Val *args, int nargs, SrcPos call_pos);
/* A call node whose callee evaluated to the V_USERFUNC `fn`. */
Val fe_call_user(Interp *I, const PyNode *call, Val fn);
/* tl.static_assert, tl.static_print, tl.device_print, print,
 * tl.device_assert (fe_debug.c). */
Val fe_call_debug(Interp *I, const PyNode *call, Builtin b);
void fe_assert_stmt(Interp *I, const PyNode *s);
/* Python's str() (repr: repr()) of a compile-time value. */
const char *fe_val_str(Interp *I, Val v, int repr);
/* The module `name` (`level` leading dots) as a file beside the importing
 * one, parsed and its imports and functions bound; NULL when there is no
 * such file. */
FeModule *fe_load_module(Interp *I, const char *name, int level, SrcPos at);
/* The path fe_load_module looks at. */
const char *fe_module_path(Interp *I, const char *name, int level);
/* Registers the module-level functions and constexprs (`N =
 * tl.constexpr(4)`, `N: tl.constexpr = 4`) of `module` in I->globals. */
void fe_define_functions(Interp *I, const PyNode *module);
/* Switches diagnostics and module-level names to m's file. */
void fe_enter_module(Interp *I, FeModule *m);
/* Notes naming each helper call that leads to the current position. */
void fe_note_call_chain(Interp *I);
/* fe_shape.c: the shape functions (B_RESHAPE .. B_CAT) and x.T */
Val fe_call_shape(Interp *I, const PyNode *call, Builtin b, const Val *self);
/* Triton's broadcast_impl_value: both blocks to their common shape. */
void fe_broadcast_pair(Interp *I, Expr **a, Expr **b, const char *fn, SrcPos pos);
Expr *fe_transpose(Interp *I, Expr *x, const char *fn, SrcPos pos);
/* fe_atomic.c: an atomic (rmw: AtomicRmw; -1: atomic_cas) and the barrier */
Val fe_call_atomic(Interp *I, const Args *A, int rmw, const char *fn, SrcPos pos);
Val fe_debug_barrier(Interp *I, SrcPos pos);
/* fe_random.c: the functions of triton/language/random.py */
typedef enum RandomFn {
    RNG_PHILOX,
    RNG_RANDINT,
    RNG_RANDINT4X,
    RNG_RAND,
    RNG_RAND4X,
    RNG_RANDN,
    RNG_RANDN4X,
    RNG_UNIFORM,
    RNG_NORMAL_PAIR
} RandomFn;
Val fe_call_random(Interp *I, RandomFn which, const Args *A, const char *fn, SrcPos pos);
Val fe_make_dot(Interp *I, const Args *A, const char *fn, SrcPos pos); /* fe_dot.c */
Val fe_matmul(Interp *I, Val a, Val b, SrcPos pos);
const char *fe_closest_member(Arena *a, const char *attr, int math);
/* fe_blockptr.c: block pointers. tl.make_block_ptr and tl.advance (A bound
 * to their specs), tl.load and tl.store of a block pointer (A bound to
 * tl.load's / tl.store's spec, A->v[0] the block pointer). */
Val fe_make_block_ptr(Interp *I, const Args *A, const char *fn, SrcPos pos);
Val fe_advance(Interp *I, const Args *A, const char *fn, SrcPos pos);
Val fe_bp_load(Interp *I, const Args *A, const char *fn, SrcPos pos);
Val fe_bp_store(Interp *I, const Args *A, const char *fn, SrcPos pos);
/* Tensor descriptors: tl.make_tensor_descriptor, desc.load / store (also
 * tl.load_tensor_descriptor / tl.store_tensor_descriptor). */
Val fe_make_tensor_descriptor(Interp *I, const Args *A, const char *fn, SrcPos pos);
Val fe_desc_load(Interp *I, const Args *A, const char *fn, SrcPos pos);
Val fe_desc_store(Interp *I, const Args *A, const char *fn, SrcPos pos);
Val fe_desc_atomic(Interp *I, const Args *A, int rmw, const char *fn, SrcPos pos);
/* The builtin of a tensor descriptor's method `name` (B_COUNT: none). */
Builtin fe_desc_method(const char *name);
/* The Python builtin `name` (range, float, min, len, print, ...), or B_COUNT. */
Builtin fe_python_builtin(const char *name);
/* The diagnostic for a block pointer used as something else (`what`: "'+'"). */
_Noreturn void fe_bp_misuse(Interp *I, SrcPos pos, const char *what);
/* Block pointers with the same base, shape, strides, block shape and order
 * (what a runtime region keeps); fe_bp_equal: and the same offsets. */
int fe_bp_same(Val a, Val b);
int fe_bp_equal(Val a, Val b);
/* Offset k of a block pointer as an i64 scalar (a lane of a runtime region). */
Expr *fe_bp_offset(Interp *I, Val bp, int k, SrcPos pos);
/* bp with its offsets replaced by offs[0 .. rank). */
Val fe_bp_with_offsets(Interp *I, Val bp, Expr *const *offs);
/* The mismatch between two block pointers that fe_bp_same rejects, in words. */
const char *fe_bp_difference(Interp *I, Val a, Val b);

#endif
