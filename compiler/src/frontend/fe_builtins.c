/* The builtin library: triton.language's functions, tl.math, methods of
 * blocks and dtypes, and the attributes of modules, blocks and dtypes. The
 * elementwise functions come from ops.def (OPF_CALL), the dtypes from
 * dtypes.def. */
#include "ir/asm_plan.h"
#include "frontend/fe_internal.h"

/* A builtin's row: its parameters, the handler of its calls, and the
 * handler's `arg` (an AtomicRmw, a RandomFn). */
typedef struct BuiltinDef {
    BuiltinSpec spec;
    Val (*call)(Interp *I, const BuiltinCall *bc);
    int arg;
    int where;          /* BF_*: the namespaces it is a member of besides tl's */
    const char *method; /* its name as a tensor descriptor's method, or NULL */
} BuiltinDef;

enum {
    BF_TENSOR = 1, /* a method of blocks too (Triton's _tensor_member_fn: x.sum()) */
    BF_PYTHON = 2, /* a Python builtin (range, min, print), named by its display */
    BF_TRITON = 4  /* a member of triton (triton.jit), named by its display's last part */
};

/* The table of builtins, indexed by Builtin (below, after its handlers). */
static const BuiltinDef builtins[B_COUNT];

/* Members of the language module (tl.X). */
static const struct {
    const char *name;
    VKind kind;
    int value;
} tl_members[] = {
    {"program_id", V_FUNC, B_PROGRAM_ID},
    {"arange", V_FUNC, B_ARANGE},
    {"load", V_FUNC, B_LOAD},
    {"store", V_FUNC, B_STORE},
    {"maximum", V_FUNC, B_MAXIMUM},
    {"minimum", V_FUNC, B_MINIMUM},
    {"where", V_FUNC, B_WHERE},
    {"sum", V_FUNC, B_SUM},
    {"max", V_FUNC, B_MAX},
    {"min", V_FUNC, B_MIN},
    {"zeros", V_FUNC, B_ZEROS},
    {"zeros_like", V_FUNC, B_ZEROS_LIKE},
    {"full", V_FUNC, B_FULL},
    {"empty", V_FUNC, B_EMPTY},
    {"static_range", V_FUNC, B_STATIC_RANGE},
    {"range", V_FUNC, B_TL_RANGE},
    {"cdiv", V_FUNC, B_CDIV},
    {"swizzle2d", V_FUNC, B_SWIZZLE2D},
    {"constexpr", V_FUNC, B_CONSTEXPR},
    {"num_programs", V_FUNC, B_NUM_PROGRAMS},
    {"cast", V_FUNC, B_CAST},
    {"pointer_type", V_FUNC, B_POINTER_TYPE},
    {"clamp", V_FUNC, B_CLAMP},
    {"inline_asm_elementwise", V_FUNC, B_INLINE_ASM},
    {"gather", V_FUNC, B_GATHER},
    {"softmax", V_FUNC, B_SOFTMAX},
    {"sigmoid", V_FUNC, B_SIGMOID},
    {"fdiv", V_FUNC, B_FDIV},
    {"multiple_of", V_FUNC, B_MULTIPLE_OF},
    {"max_contiguous", V_FUNC, B_MAX_CONTIGUOUS},
    {"max_constancy", V_FUNC, B_MAX_CONSTANCY},
    {"static_assert", V_FUNC, B_STATIC_ASSERT},
    {"static_print", V_FUNC, B_STATIC_PRINT},
    {"device_print", V_FUNC, B_DEVICE_PRINT},
    {"device_assert", V_FUNC, B_DEVICE_ASSERT},
    {"reshape", V_FUNC, B_RESHAPE},
    {"view", V_FUNC, B_VIEW},
    {"ravel", V_FUNC, B_RAVEL},
    {"trans", V_FUNC, B_TRANS},
    {"permute", V_FUNC, B_PERMUTE},
    {"expand_dims", V_FUNC, B_EXPAND_DIMS},
    {"broadcast_to", V_FUNC, B_BROADCAST_TO},
    {"broadcast", V_FUNC, B_BROADCAST},
    {"join", V_FUNC, B_JOIN},
    {"split", V_FUNC, B_SPLIT},
    {"interleave", V_FUNC, B_INTERLEAVE},
    {"cat", V_FUNC, B_CAT},
    {"argmax", V_FUNC, B_ARGMAX},
    {"argmin", V_FUNC, B_ARGMIN},
    {"cumsum", V_FUNC, B_CUMSUM},
    {"cumprod", V_FUNC, B_CUMPROD},
    {"reduce", V_FUNC, B_REDUCE},
    {"associative_scan", V_FUNC, B_ASSOC_SCAN},
    {"xor_sum", V_FUNC, B_XOR_SUM},
    {"sort", V_FUNC, B_SORT},
    {"flip", V_FUNC, B_FLIP},
    {"histogram", V_FUNC, B_HISTOGRAM},
    {"atomic_add", V_FUNC, B_ATOMIC_ADD},
    {"atomic_max", V_FUNC, B_ATOMIC_MAX},
    {"atomic_min", V_FUNC, B_ATOMIC_MIN},
    {"atomic_and", V_FUNC, B_ATOMIC_AND},
    {"atomic_or", V_FUNC, B_ATOMIC_OR},
    {"atomic_xor", V_FUNC, B_ATOMIC_XOR},
    {"atomic_xchg", V_FUNC, B_ATOMIC_XCHG},
    {"atomic_cas", V_FUNC, B_ATOMIC_CAS},
    {"debug_barrier", V_FUNC, B_DEBUG_BARRIER},
    {"assume", V_FUNC, B_ASSUME},
    {"philox", V_FUNC, B_PHILOX},
    {"randint", V_FUNC, B_RANDINT},
    {"randint4x", V_FUNC, B_RANDINT4X},
    {"rand", V_FUNC, B_RAND},
    {"rand4x", V_FUNC, B_RAND4X},
    {"randn", V_FUNC, B_RANDN},
    {"randn4x", V_FUNC, B_RANDN4X},
    {"uint_to_uniform_float", V_FUNC, B_UINT_TO_UNIFORM_FLOAT},
    {"pair_uniform_to_normal", V_FUNC, B_PAIR_UNIFORM_TO_NORMAL},
    {"dot", V_FUNC, B_DOT},
    {"make_block_ptr", V_FUNC, B_MAKE_BLOCK_PTR},
    {"advance", V_FUNC, B_ADVANCE},
    {"make_tensor_descriptor", V_FUNC, B_MAKE_TENSOR_DESC},
    {"load_tensor_descriptor", V_FUNC, B_DESC_LOAD},
    {"store_tensor_descriptor", V_FUNC, B_DESC_STORE},
    {"math", V_MODULE, MOD_TL_MATH},
    {"core", V_MODULE, MOD_TL},
    {"standard", V_MODULE, MOD_TL},
    {"random", V_MODULE, MOD_TL},
    /* standard.py's helpers of compile-time integers (FlagGems imports them) */
    {"_log2", V_FUNC, B_STD_LOG2},
    {"_is_power_of_two", V_FUNC, B_STD_IS_POW2},
    {"PropagateNan", V_MODULE, MOD_PROPAGATE_NAN},
    {"extra", V_MODULE, MOD_TL_EXTRA},
    /* classes, for isinstance (Triton evaluates it on the traced values) */
    {"tensor", V_FUNC, B_CLS_TENSOR},
    {"tensor_descriptor", V_FUNC, B_CLS_DESC},
    {"tensor_descriptor_base", V_FUNC, B_CLS_DESC},
    {"dtype", V_FUNC, B_CLS_DTYPE},
    /* module-level constexprs of core.py (and random.py's round count) */
    {"CONSTEXPR_0", V_INT, 0},
    {"TRITON_MAX_TENSOR_NUMEL", V_INT, 1048576},
    {"N_ROUNDS_DEFAULT", V_INT, 10},
};

/* Functions of triton.language.extra.cuda (utils.py) besides libdevice. */
static const struct {
    const char *name;
    Builtin b;
} extra_members[] = {{"globaltimer", B_CUDA_SREG},
                     {"smid", B_CUDA_SMID},
                     {"num_warps", B_CUDA_WARPS},
                     {"num_threads", B_CUDA_THREADS}};

/* Members of tl.math (besides the ops of ops.def marked OPF_CALL). */
static const struct {
    const char *name;
    VKind kind;
    int value;
} math_members[] = {
    {"maximum", V_FUNC, B_MAXIMUM}, {"minimum", V_FUNC, B_MINIMUM}, {"fdiv", V_FUNC, B_FDIV},
    {"cdiv", V_FUNC, B_CDIV},       {"sigmoid", V_FUNC, B_SIGMOID}, {"clamp", V_FUNC, B_CLAMP},
};

/* A member of triton.language (math: of tl.math), or a V_NONE value. The
 * elementwise ops come from ops.def (OPF_CALL) and the dtypes from
 * dtypes.def; the rest from the tables above. */
Val fe_tl_member(const char *attr, int math) {
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

/* A function of triton.language.extra.libdevice, or a V_NONE value: the
 * ops marked OPF_LIBDEVICE, and the tl.math functions whose -O2 rendering
 * is already the libdevice call (no Triton-specific lowering: libdevice.exp
 * is the correctly rounded exp, not tl.exp's approximation). */
Val fe_libdevice_member(const char *attr) {
    Val v = {0};
    v.kind = V_NONE;
    for (int op = 0; op < OP_COUNT; op++) {
        /* op_triton_f32: set for the rows of ops_math.def */
        int ld = op_has((Op)op, OPF_LIBDEVICE) ||
                 (op_has((Op)op, OPF_CALL) && op_triton_f32[op] && !op_triton_f32[op][0]);
        const char *name = op_info((Op)op)->name;
        if (strncmp(name, "libdevice.", 10) == 0) name += 10;
        if (ld && strcmp(name, attr) == 0) {
            v.kind = V_OPFN;
            v.i = op;
            return v;
        }
    }
    return v;
}

/* Every name tl.X / tl.math.X accepts, for "did you mean" suggestions. */
const char *fe_closest_member(Arena *a, const char *attr, int math) {
    (void)a;
    const char *best = NULL;
    int best_d = 3;
    const char *names[256];
    int n = 0;
    if (math) {
        for (size_t i = 0; i < sizeof math_members / sizeof math_members[0]; i++)
            names[n++] = math_members[i].name;
    } else {
        for (size_t i = 0; i < sizeof tl_members / sizeof tl_members[0]; i++)
            names[n++] = tl_members[i].name;
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

/* The tl functions Triton also makes members of a tensor (its
 * `_tensor_member_fn`): `x.sum(axis)`, `x.reshape(...)`,
 * `ptrs.atomic_add(v, mask=m)`; the elementwise ops of the op tables
 * (V_OPFN: `x.exp()`) are members too. */
static int is_tensor_member(Builtin b) { return (builtins[b].where & BF_TENSOR) != 0; }

Builtin fe_desc_method(const char *name) {
    for (int b = 0; b < B_COUNT; b++)
        if (builtins[b].method && strcmp(builtins[b].method, name) == 0) return (Builtin)b;
    return B_COUNT;
}

/* The Python builtin `name` (range, float, min, len, print, ...), or B_COUNT. */
Builtin fe_python_builtin(const char *name) {
    for (int b = 0; b < B_COUNT; b++)
        if ((builtins[b].where & BF_PYTHON) && strcmp(builtins[b].spec.display, name) == 0)
            return (Builtin)b;
    return B_COUNT;
}

/* The member `name` of the triton module (jit, cdiv, next_power_of_2), or B_COUNT. */
static Builtin triton_member(const char *name) {
    for (int b = 0; b < B_COUNT; b++) {
        const char *d = builtins[b].spec.display, *dot = strrchr(d, '.');
        if ((builtins[b].where & BF_TRITON) && strcmp(dot ? dot + 1 : d, name) == 0)
            return (Builtin)b;
    }
    return B_COUNT;
}

/* `base.name` as a callable: the method name bound to base. */
static Val bound_method(Interp *I, const char *name, Val base) {
    Val v = {0};
    v.kind = V_METHOD;
    v.s = name;
    v.n = 1;
    v.items = ARENA_ARRAY(I->a, Val, 1);
    v.items[0] = base;
    return v;
}

/* A module's member, or V_NONE where it has none (no diagnostic: module
 * aliases are resolved with it, fe_define_functions). */
Val fe_module_member(Interp *I, Val base, const char *attr) {
    Val v = {0};
    v.kind = V_NONE;
    switch (base.i) {
    case MOD_TRITON:
        if (triton_member(attr) != B_COUNT) {
            v.kind = V_FUNC;
            v.i = triton_member(attr);
        } else if (strcmp(attr, "language") == 0) {
            v = fe_module_val(MOD_TL, "triton.language");
        }
        return v;
    case MOD_TL:
    case MOD_TL_MATH:
        v = fe_tl_member(attr, base.i == MOD_TL_MATH);
        if (v.kind == V_MODULE) v.s = arena_printf(I->a, "tl.%s", attr);
        return v;
    case MOD_TL_EXTRA:
        if (strcmp(attr, "cuda") == 0 || strcmp(attr, "libdevice") == 0) {
            v = base;
            if (attr[0] == 'l') v.i = MOD_LIBDEVICE;
            v.s = arena_printf(I->a, "%s.%s", base.s, attr);
        }
        for (size_t k = 0; k < sizeof extra_members / sizeof extra_members[0]; k++)
            if (strcmp(attr, extra_members[k].name) == 0) v.kind = V_FUNC, v.i = extra_members[k].b;
        return v;
    case MOD_LIBDEVICE: return fe_libdevice_member(attr);
    case MOD_PROPAGATE_NAN:
        if (strcmp(attr, "NONE") == 0) return fe_vint(0);
        if (strcmp(attr, "ALL") == 0) return fe_vint(0xFFFF);
        return v;
    case MOD_USER: {
        EnvEntry *e = base.umod ? fe_env_find(&base.umod->globals, attr) : NULL;
        return e ? fe_resolve(I, e->v) : v;
    }
    default:
        /* Python's math constants (`import math`; math.pi in a kernel is a
         * Python float, a constexpr, in Triton) */
        if (base.s && strcmp(base.s, "math") == 0) {
            static const struct {
                const char *name;
                double value;
            } consts[] = {{"pi", 3.141592653589793},
                          {"e", 2.718281828459045},
                          {"tau", 6.283185307179586},
                          {"inf", HUGE_VAL}};
            for (size_t k = 0; k < sizeof consts / sizeof consts[0]; k++)
                if (strcmp(attr, consts[k].name) == 0) return fe_vfloat(consts[k].value);
            if (strcmp(attr, "nan") == 0) return fe_vfloat(NAN);
        }
        return v;
    }
}

/* The predicates of dtypes (`x.dtype.is_floating()`), bound as methods
 * here and evaluated by fe_dtype_test. */
typedef enum { DP_PTR, DP_FLOAT, DP_INT, DP_SIGNED, DP_UNSIGNED, DP_BOOL, DP_FP8, DP_DTYPE } DPKind;
typedef struct DTypePred {
    const char *name;
    DPKind kind;
    DType dt; /* DP_DTYPE: the dtype it tests for */
} DTypePred;
static const DTypePred dtype_preds[] = {{"is_floating", DP_FLOAT, DT_NONE},
                                        {"is_int", DP_INT, DT_NONE},
                                        {"is_int_signed", DP_SIGNED, DT_NONE},
                                        {"is_int_unsigned", DP_UNSIGNED, DT_NONE},
                                        {"is_bool", DP_BOOL, DT_NONE},
                                        {"is_ptr", DP_PTR, DT_NONE},
                                        {"is_fp16", DP_DTYPE, DT_F16},
                                        {"is_bf16", DP_DTYPE, DT_BF16},
                                        {"is_fp32", DP_DTYPE, DT_F32},
                                        {"is_fp64", DP_DTYPE, DT_F64},
                                        {"is_int8", DP_DTYPE, DT_I8},
                                        {"is_int16", DP_DTYPE, DT_I16},
                                        {"is_int32", DP_DTYPE, DT_I32},
                                        {"is_int64", DP_DTYPE, DT_I64},
                                        {"is_uint8", DP_DTYPE, DT_U8},
                                        {"is_uint16", DP_DTYPE, DT_U16},
                                        {"is_uint32", DP_DTYPE, DT_U32},
                                        {"is_uint64", DP_DTYPE, DT_U64},
                                        {"is_fp8", DP_FP8, DT_NONE}};

static const DTypePred *dtype_pred(const char *name) {
    for (size_t i = 0; i < sizeof dtype_preds / sizeof dtype_preds[0]; i++)
        if (strcmp(dtype_preds[i].name, name) == 0) return &dtype_preds[i];
    return NULL;
}

int fe_dtype_test(const char *name, DType dt, int ptr) {
    const DTypePred *p = dtype_pred(name);
    if (!p) return 0;
    if (p->kind == DP_PTR) return ptr;
    if (ptr) return 0;
    switch (p->kind) {
    case DP_FLOAT: return dtype_info(dt)->cls == DC_FLOAT;
    case DP_INT: return dtype_is_int(dt);
    case DP_SIGNED: return dtype_is_signed(dt);
    case DP_UNSIGNED: return dtype_is_unsigned(dt);
    case DP_BOOL: return dt == DT_BOOL;
    case DP_FP8: return dtype_is_fp8(dt);
    case DP_DTYPE: return p->dt == dt;
    case DP_PTR: break;
    }
    return 0;
}

/* A module's member (a diagnostic where it has none). */
static Val module_attribute(Interp *I, const PyNode *n, Val base, const char *attr) {
    Val m = fe_module_member(I, base, attr);
    if (m.kind != V_NONE) return m;
    if (base.i == MOD_TRITON) fe_fail(I, n->pos, "'%s.%s' is not supported", base.s, attr);
    if (base.i == MOD_TL || base.i == MOD_TL_MATH) {
        int math = base.i == MOD_TL_MATH;
        if (fe_libdevice_member(attr).kind != V_NONE)
            fe_fail(I, n->pos,
                    "'%s.%s' is not in triton.language: it is libdevice.%s (from "
                    "triton.language.extra import libdevice)",
                    math ? "tl.math" : "tl", attr, attr);
        const char *near = fe_closest_member(I->a, attr, math);
        if (near)
            fe_fail(I, n->pos, "'%s.%s' is not supported by mytriton (did you mean '%s.%s'?)",
                    math ? "tl.math" : "tl", attr, math ? "tl.math" : "tl", near);
        fe_fail(I, n->pos, "'%s.%s' is not supported by mytriton (docs/language.md lists what is)",
                math ? "tl.math" : "tl", attr);
    }
    if (base.i == MOD_TL_EXTRA)
        fe_fail(I, n->pos,
                "'%s.%s' is not supported by mytriton (of tl.extra: libdevice, globaltimer, smid, "
                "num_warps, num_threads)",
                base.s, attr);
    if (base.i == MOD_LIBDEVICE)
        fe_fail(I, n->pos,
                "'libdevice.%s' is not supported by mytriton (docs/language.md lists the libdevice "
                "functions it has)",
                attr);
    if (base.i == MOD_PROPAGATE_NAN)
        fe_fail(I, n->pos, "tl.PropagateNan has no member '%s' (NONE or ALL)", attr);
    if (base.i == MOD_USER)
        fe_fail(I, n->pos, "module '%s' (%s) has no function '%s'", base.s,
                base.umod ? base.umod->filename : "?", attr);
    fe_fail(I, n->pos,
            "'%s.%s' is not supported (only triton.language functions can be used in kernels)",
            base.s, attr);
}

/* A block's attribute: dtype, type, shape, numel, T, or a method. */
static Val block_attribute(Interp *I, const PyNode *n, Val base, const char *attr) {
    Type t = base.e->type;
    if (strcmp(attr, "dtype") == 0 || strcmp(attr, "type") == 0) {
        /* x.type of a block is Triton's block_type: its element_ty and
         * scalar are x.dtype (n marks it); a scalar's type is its dtype */
        Val v = {0};
        v.kind = V_DTYPE;
        v.i = t.dtype;
        v.ptr = t.ptr;
        v.n = attr[0] == 't' && t.rank > 0;
        return v;
    }
    if (strcmp(attr, "shape") == 0) {
        Val v = {0};
        v.kind = V_TUPLE;
        v.n = t.rank;
        v.items = ARENA_ARRAY(I->a, Val, t.rank + 1);
        for (int i = 0; i < t.rank; i++) v.items[i] = fe_vint(t.dims[i]);
        return v;
    }
    if (strcmp(attr, "numel") == 0) return fe_vint(type_numel(t));
    if (strcmp(attr, "T") == 0) return fe_vexpr(fe_transpose(I, base.e, "'.T'", n->pos));
    /* methods: x.to(...), and the tl functions Triton makes members (x.exp(), x.sum()) */
    Val m = fe_tl_member(attr, 0);
    if (strcmp(attr, "to") == 0 || m.kind == V_OPFN ||
        (m.kind == V_FUNC && is_tensor_member((Builtin)m.i)))
        return bound_method(I, attr, base);
    fe_fail(I, n->pos, "the attribute '%s' of a block is not supported", attr);
}

/* A block pointer's or a tensor descriptor's attribute. */
static Val blockptr_attribute(Interp *I, const PyNode *n, Val base, const char *attr) {
    /* tl.advance is a tensor member in Triton (`p.advance(offsets)`) */
    if (base.bp->desc) {
        /* a tensor descriptor's methods and attributes */
        if (fe_desc_method(attr) != B_COUNT) return bound_method(I, attr, base);
        if (strcmp(attr, "block_shape") == 0) {
            Val v = {0};
            v.kind = V_LIST;
            v.n = base.bp->rank;
            v.items = ARENA_ARRAY(I->a, Val, v.n);
            for (int d = 0; d < v.n; d++) v.items[d] = fe_vint(base.bp->block[d]);
            return v;
        }
        if (strcmp(attr, "dtype") == 0) {
            Val v = {0};
            v.kind = V_DTYPE;
            v.i = base.bp->base->type.dtype;
            return v;
        }
        fe_fail(I, n->pos,
                "the attribute '.%s' of a tensor descriptor is not supported (load, store, "
                "atomic_add, _max, _min, _and, _or, _xor, block_shape, dtype)",
                attr);
    }
    if (strcmp(attr, "advance") == 0) return bound_method(I, attr, base);
    if (strcmp(attr, "dtype") == 0) {
        /* Triton's pointer to a block type: its element_ty converts as
         * the element dtype (`x.to(p.dtype.element_ty)`) */
        Val v = {0};
        v.kind = V_DTYPE;
        v.i = base.bp->base->type.dtype;
        v.ptr = 1;
        return v;
    }
    fe_bp_misuse(I, n->pos, arena_printf(I->a, "the attribute '.%s'", attr));
}

/* A dtype's attribute: value, element_ty, scalar, bit widths, name, a predicate. */
static Val dtype_attribute(Interp *I, const PyNode *n, Val base, const char *attr) {
    DType dt = (DType)base.i;
    const DTypeInfo *d = dtype_info(dt);
    if (strcmp(attr, "value") == 0) return base; /* a constexpr's value (below) */
    if ((strcmp(attr, "element_ty") == 0 && base.n) || strcmp(attr, "scalar") == 0) {
        Val v = base; /* a block type's element, or a dtype's scalar */
        v.n = 0;
        return v;
    }
    if (strcmp(attr, "element_ty") == 0) {
        if (!base.ptr)
            fe_fail(I, n->pos, "'element_ty' is the pointee of a pointer dtype (%s is not one)",
                    d->triton);
        Val v = base;
        v.ptr = 0;
        return v;
    }
    if (strcmp(attr, "primitive_bitwidth") == 0) return fe_vint(base.ptr ? 64 : d->bits);
    if (strcmp(attr, "int_bitwidth") == 0 && !base.ptr && dtype_is_int(dt))
        return fe_vint(d->bits); /* Triton's, of integer dtypes only */
    if (strcmp(attr, "name") == 0) {
        Val v = {0};
        v.kind = V_STR;
        v.s = d->triton;
        return v;
    }
    const DTypePred *p = dtype_pred(attr);
    if (p) return bound_method(I, p->name, base);
    fe_fail(I, n->pos, "the dtype %s has no attribute '%s'", d->triton, attr);
}

static Val attribute_of(Interp *I, const PyNode *n, Val base, const char *attr);

Val fe_eval_attribute(Interp *I, const PyNode *n) {
    const char *attr = pyast_str(n, "attr");
    Val base = fe_eval(I, pyast_node(n, "value"));
    if (!attr) fe_fail(I, n->pos, "malformed attribute");
    return attribute_of(I, n, base, attr);
}

/* base.attr, n the node diagnostics point at. */
static Val attribute_of(Interp *I, const PyNode *n, Val base, const char *attr) {
    if (base.kind == V_MODULE) return module_attribute(I, n, base, attr);
    if (base.kind == V_EXPR) return block_attribute(I, n, base, attr);
    if (base.kind == V_BLOCKPTR) return blockptr_attribute(I, n, base, attr);
    if (base.kind == V_DTYPE) return dtype_attribute(I, n, base, attr);
    /* c.value of a compile-time value: Triton's tl.constexpr wraps them
     * (`dtype.value` of a constexpr parameter); here they are the value */
    if (strcmp(attr, "value") == 0 && base.kind != V_EXPR && base.kind != V_BLOCKPTR &&
        base.kind != V_MODULE && base.kind != V_LAZY)
        return base;
    /* the attributes of a block on a number: Triton's assignment makes a
     * tensor of a number (`x = 0` is an i32 scalar: `y.to(x.dtype)`), and the
     * index of a range() that mytriton unrolled is a scalar tensor in
     * Triton (`i.to(tl.int64)`) */
    Val m = fe_tl_member(attr, 0);
    if (fe_is_number(base) &&
        (strcmp(attr, "dtype") == 0 || strcmp(attr, "type") == 0 || strcmp(attr, "to") == 0 ||
         m.kind == V_OPFN || (m.kind == V_FUNC && is_tensor_member((Builtin)m.i))))
        return block_attribute(I, n, fe_vexpr(fe_to_expr(I, base, n->pos, "a number")), attr);
    fe_fail(I, n->pos, "%s has no attribute '%s'", fe_kind_name(base), attr);
}

/* Binds a call's arguments to `spec`'s parameters; `self` (a method's
 * receiver) is the first one when given. */
void fe_bind_spec(Interp *I, const PyNode *call, const BuiltinSpec *spec, Args *out,
                  const Val *self) {
    memset(out, 0, sizeof *out);
    const PyVal *args = pyast_list(call, "args");
    const PyVal *kws = pyast_list(call, "keywords");
    int nparams = 0;
    while (nparams < MAX_BUILTIN_PARAMS && spec->params[nparams]) nparams++;
    int first = 0;
    if (self) {
        out->v[0] = *self;
        out->given[0] = 1;
        out->pos[0] = call->pos;
        first = 1;
    }
    for (int j = 0; args && j < args->len; j++) {
        int i = j + first;
        const PyNode *a = fe_list_node(args, j);
        if (!a) fe_fail(I, call->pos, "malformed call");
        if (pyast_isk(a, PK_Starred)) fe_fail(I, a->pos, "*args in calls are not supported");
        if (spec->variadic) {
            if (out->nvar >= 16)
                fe_fail(I, a->pos, "%s() takes at most 16 arguments here", spec->display);
            out->var[out->nvar++] = fe_eval(I, a);
            continue;
        }
        if (i >= nparams)
            fe_fail(I, a->pos, "%s() takes at most %d argument%s (%d given)", spec->display,
                    nparams, nparams == 1 ? "" : "s", args->len + first);
        out->v[i] = fe_eval(I, a);
        out->given[i] = 1;
        out->pos[i] = a->pos;
    }
    for (int i = 0; kws && i < kws->len; i++) {
        const PyNode *kw = fe_list_node(kws, i);
        const char *name = kw ? pyast_str(kw, "arg") : NULL;
        if (!kw) fe_fail(I, call->pos, "malformed call");
        if (!name) fe_fail(I, kw->pos, "**kwargs in calls are not supported");
        int k = -1;
        for (int p = 0; p < nparams; p++)
            if (strcmp(spec->params[p], name) == 0) k = p;
        if (k < 0 || spec->variadic)
            fe_fail(I, kw->pos, "%s() got an unexpected keyword argument '%s'", spec->display,
                    name);
        if (out->given[k])
            fe_fail(I, kw->pos, "%s() got multiple values for argument '%s'", spec->display, name);
        out->v[k] = fe_eval(I, pyast_node(kw, "value"));
        out->given[k] = 1;
        out->pos[k] = kw->pos;
    }
    if (spec->variadic) {
        if (out->nvar < spec->required)
            fe_fail(I, call->pos, "%s() expects at least %d argument", spec->display,
                    spec->required);
        return;
    }
    for (int p = 0; p < spec->required; p++)
        if (!out->given[p])
            fe_fail(I, call->pos, "%s() missing required argument '%s'", spec->display,
                    spec->params[p]);
    for (int p = spec->hints_from; p < nparams; p++)
        if (out->given[p] && out->v[p].kind == V_EXPR)
            fe_fail(I, out->pos[p], "%s(): '%s' must be a compile-time value", spec->display,
                    spec->params[p]);
    for (int p = 0; p < nparams; p++)
        if (!out->given[p]) out->v[p] = vnone(), out->pos[p] = call->pos;
}

int64_t fe_need_int(Interp *I, Val v, SrcPos pos, const char *what) {
    if (v.kind != V_INT && v.kind != V_BOOL)
        fe_fail(I, pos, "%s must be a compile-time integer, not %s", what, fe_kind_name(v));
    return v.i;
}

/* A shape argument: an int, or a tuple/list of 1 to MT_MAX_RANK ints. */
void fe_need_shape(Interp *I, Val v, SrcPos pos, const char *fn, Attrs *at) {
    if (v.kind == V_INT) {
        at->rank = 1;
        if (v.i <= 0 || v.i > MT_MAX_NUMEL)
            fe_fail(I, pos, "%s: shape dimensions must be between 1 and %d (got %lld)", fn,
                    MT_MAX_NUMEL, (long long)v.i);
        at->shape[0] = (int32_t)v.i;
        return;
    }
    if (v.kind != V_TUPLE && v.kind != V_LIST)
        fe_fail(I, pos, "%s: the shape must be an int or a tuple of compile-time ints, not %s", fn,
                fe_kind_name(v));
    if (v.n < 1 || v.n > MT_MAX_RANK)
        fe_fail(I, pos, "%s: blocks have 1 to %d dimensions (the shape has %d)", fn, MT_MAX_RANK,
                v.n);
    at->rank = v.n;
    for (int i = 0; i < v.n; i++) {
        if (v.items[i].kind != V_INT)
            fe_fail(I, pos, "%s: shape dimension %d is %s, not a compile-time int", fn, i,
                    fe_kind_name(v.items[i]));
        if (v.items[i].i <= 0 || v.items[i].i > MT_MAX_NUMEL)
            fe_fail(I, pos, "%s: shape dimensions must be between 1 and %d (got %lld)", fn,
                    MT_MAX_NUMEL, (long long)v.items[i].i);
        at->shape[i] = (int32_t)v.items[i].i;
    }
}

/* tl.full((), v, dtype) and tl.zeros((), dtype): Triton's splat of a
 * scalar to an empty shape is the scalar itself, converted to dtype (also
 * a dtype called as a function, tl.float32(x)). */
static int is_empty_shape(Val v) { return (v.kind == V_TUPLE || v.kind == V_LIST) && v.n == 0; }

Val fe_scalar_fill(Interp *I, Val v, DType dt, SrcPos pos, const char *fn) {
    if (v.kind == V_EXPR && v.e->type.rank != 0)
        fe_fail(I, pos, "%s: the value must be a scalar, not %s", fn, type_str(I->a, v.e->type));
    Expr *e = fe_to_expr_as(I, v, dt, pos, fn);
    return fe_vexpr(e->type.dtype == dt ? e : fe_cast_to(I, e, dt, pos));
}

DType fe_need_dtype(Interp *I, Val v, SrcPos pos, const char *fn) {
    if (v.kind != V_DTYPE)
        fe_fail(I, pos, "%s: the dtype must be a tl dtype such as tl.float16 or tl.int32, not %s",
                fn, fe_kind_name(v));
    if (v.ptr) fe_fail(I, pos, "%s: the dtype must not be a pointer dtype", fn);
    return (DType)v.i;
}

Val fe_parse_float_string(Interp *I, const char *s, SrcPos pos) {
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1])) n--;
    char buf[64];
    if (n == 0 || n >= sizeof buf) fe_fail(I, pos, "float() cannot convert the string");
    for (size_t i = 0; i < n; i++) buf[i] = (char)tolower((unsigned char)s[i]);
    buf[n] = 0;
    const char *b = buf;
    int neg = 0;
    if (*b == '+' || *b == '-') neg = (*b == '-'), b++;
    if (strcmp(b, "inf") == 0 || strcmp(b, "infinity") == 0)
        return fe_vfloat(neg ? -INFINITY : INFINITY);
    if (strcmp(b, "nan") == 0) return fe_vfloat(NAN);
    char *end;
    errno = 0;
    double f = strtod(buf, &end);
    if (*end || strchr(buf, 'x') || strchr(buf, 'p'))
        fe_fail(I, pos, "float() cannot convert the string '%s'", s);
    return fe_vfloat(f);
}

/* An op of ops.def called as a function (OPF_CALL): its operands promoted
 * as Triton promotes them (pairwise), then the op. */
Val fe_call_op(Interp *I, const PyNode *call, Op op, const Val *self) {
    const OpInfo *info = op_info(op);
    BuiltinSpec spec = {0};
    spec.display =
        arena_printf(I->a, op_has(op, OPF_LIBDEVICE) ? "libdevice.%s" : "tl.%s", info->name);
    static const char *const names[3] = {"x", "y", "z"};
    for (int i = 0; i < info->nargs && i < 3; i++) spec.params[i] = names[i];
    spec.required = info->nargs;
    spec.hints_from = 8;
    Args A;
    fe_bind_spec(I, call, &spec, &A, self);
    Expr *e[3] = {NULL, NULL, NULL};
    for (int i = 0; i < info->nargs; i++) e[i] = fe_to_expr(I, A.v[i], A.pos[i], spec.display);
    if (info->nargs == 1)
        return fe_vexpr(fe_mk_op(I, op, spec.display, call->pos, 1, e[0], NULL, NULL, NULL));
    if (info->nargs == 2)
        return fe_vexpr(fe_binary_expr(I, op, spec.display, e[0], e[1], call->pos, NULL));
    fe_promote_pair(I, spec.display, &e[0], &e[1], 0, call->pos);
    fe_promote_pair(I, spec.display, &e[2], &e[0], 0, call->pos);
    fe_promote_pair(I, spec.display, &e[2], &e[1], 0, call->pos);
    return fe_vexpr(fe_mk_op(I, op, spec.display, call->pos, 3, e[0], e[1], e[2], NULL));
}

/* x.to(dtype) / tl.cast(x, dtype, fp_downcast_rounding=, bitcast=). */
/* Triton's casts between pointers and integers (semantic.py's cast): an
 * integer to a pointer (here a 64-bit one: an address), a pointer to i64
 * (its address) or to bool (address != 0), a pointer to another pointer
 * type (the same address). Scalars only, as pointers loaded from a table
 * are used. */
static Val pointer_cast(Interp *I, const Args *A, Expr *x, const char *fn, SrcPos pos) {
    Val d = A->v[1];
    if (x->type.rank > 0)
        fe_fail(I, A->pos[0],
                "%s: casts between pointers and integers take a scalar here (got %s); blocks of "
                "addresses are not supported yet",
                fn, type_str(I->a, x->type));
    /* (bitcast= and fp_downcast_rounding= change nothing here, as in Triton) */
    Attrs at = {0};
    if (d.kind == V_DTYPE && d.ptr) {
        at.dtype = (DType)d.i;
        if (x->type.ptr) {
            if (x->type.dtype == d.i) return fe_vexpr(x);
            x = fe_mk_op(I, OP_PTR_TO_INT, fn, pos, 1, x, NULL, NULL, NULL);
        } else if (dtype_is_float((DType)x->type.dtype) || x->type.dtype == DT_BOOL) {
            fe_fail(I, A->pos[0], "%s: cannot cast %s to a pointer (only integers convert to one)",
                    fn, type_str(I->a, x->type));
        } else if (dtype_info((DType)x->type.dtype)->bits != 64) {
            fe_fail(I, A->pos[0],
                    "%s: an address is 64 bits: cast the %s to tl.int64 first, then to a pointer",
                    fn, dtype_name((DType)x->type.dtype));
        }
        return fe_vexpr(fe_mk_op(I, OP_INT_TO_PTR, fn, pos, 1, x, NULL, NULL, &at));
    }
    DType dt = fe_need_dtype(I, d, A->pos[1], fn);
    Expr *addr = fe_mk_op(I, OP_PTR_TO_INT, fn, pos, 1, x, NULL, NULL, NULL);
    if (dt == DT_I64) return fe_vexpr(addr);
    if (dt == DT_BOOL)
        return fe_vexpr(fe_binary_expr(I, OP_CMP_NE, fn, addr,
                                       fe_mk_const(I, const_int(DT_I64, 0), pos), pos, NULL));
    fe_fail(I, A->pos[1], "%s: a pointer casts to tl.int64, tl.int1 or a pointer type (not %s)", fn,
            dtype_info(dt)->triton);
}

Val fe_make_cast(Interp *I, const Args *A, const char *fn, SrcPos pos) {
    Expr *x = fe_to_expr(I, A->v[0], A->pos[0], fn);
    if (x->type.ptr || (A->v[1].kind == V_DTYPE && A->v[1].ptr))
        return pointer_cast(I, A, x, fn, pos);
    DType dt = fe_need_dtype(I, A->v[1], A->pos[1], fn);
    int bitcast = A->v[3].kind != V_NONE &&
                  fe_truthy(I, A->v[3], A->pos[3], "bitcast= must be a compile-time bool");
    Attrs at = {0};
    at.dtype = dt;
    if (A->v[2].kind != V_NONE) {
        if (A->v[2].kind != V_STR ||
            (strcmp(A->v[2].s, "rtne") != 0 && strcmp(A->v[2].s, "rtz") != 0))
            fe_fail(I, A->pos[2], "%s: fp_downcast_rounding must be \"rtne\" or \"rtz\"", fn);
        at.flag = strcmp(A->v[2].s, "rtz") == 0;
    }
    if (bitcast) {
        if (x->type.dtype == dt) return fe_vexpr(x);
        return fe_vexpr(fe_mk_op(I, OP_BITCAST, fn, pos, 1, x, NULL, NULL, &at));
    }
    if (x->type.dtype == dt) return fe_vexpr(x);
    fe_check_cast(I, (DType)x->type.dtype, dt, pos, fn);
    return fe_vexpr(fe_mk_op(I, OP_CAST, fn, pos, 1, x, NULL, NULL, &at));
}

/* Triton's PropagateNan argument: 1 when NaN is ignored (NONE). */
int fe_nan_ignored(Interp *I, const Args *A, int k, int dflt) {
    if (A->v[k].kind == V_NONE) return dflt;
    if (A->v[k].kind != V_INT)
        fe_fail(I, A->pos[k], "propagate_nan must be tl.PropagateNan.NONE or tl.PropagateNan.ALL");
    return A->v[k].i == 0;
}

/* Triton's error for boundary_check (argument k) or padding_option (p) of
 * a load or store through a block of pointers or a scalar pointer: false
 * values (`()`, `""`, None) are the defaults. */
static void no_block_ptr_args(Interp *I, const Args *A, int k, int p, const char *fn) {
    int idx[2] = {k, p};
    for (int i = 0; i < 2; i++) {
        int j = idx[i];
        if (j < 0 || !A->given[j]) continue;
        /* Python's truth value, as Triton's `if padding or boundary_check` */
        if (fe_truthy(I, A->v[j], A->pos[j], "a compile-time value"))
            fe_fail(I, A->pos[j],
                    "%s: `%s` is only for block pointers (made by tl.make_block_ptr): a block of "
                    "pointers or a scalar pointer has no bounds for the compiler to check (use a "
                    "mask)",
                    fn, j == k ? "boundary_check" : "padding_option");
    }
}

/* tl.inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack):
 * the arguments broadcast to one shape (Triton's binary_op_type_checking
 * without promotion), one result dtype, up to ASM_MAX_ARGS arguments (asm_plan.h). */
static Val inline_asm(Interp *I, const Args *A, const char *fn, SrcPos pos) {
    const char *what[2] = {"asm", "constraints"};
    for (int k = 0; k < 2; k++)
        if (A->v[k].kind != V_STR)
            fe_fail(I, A->pos[k], "%s: %s must be a string (a constexpr)", fn, what[k]);
    Val args = A->v[2];
    if (args.kind != V_LIST && args.kind != V_TUPLE)
        fe_fail(I, A->pos[2], "%s: args must be a list of values", fn);
    if (args.n > ASM_MAX_ARGS)
        fe_fail(I, A->pos[2], "%s: mytriton takes up to %d args (got %d)", fn, ASM_MAX_ARGS,
                args.n);
    /* one dtype, or a tuple of them: a result each (a tuple of blocks) */
    Val dt = A->v[3];
    int several = dt.kind == V_TUPLE || dt.kind == V_LIST;
    int nres = several ? dt.n : 1;
    if (nres < 1 || nres > ASM_MAX_RESULTS)
        fe_fail(I, A->pos[3], "%s: 1 to %d result dtypes (got %d)", fn, ASM_MAX_RESULTS, nres);
    DType rts[ASM_MAX_RESULTS];
    for (int r = 0; r < nres; r++) {
        Val d = several ? dt.items[r] : dt;
        rts[r] = fe_need_dtype(I, d, A->pos[3], fn);
        if (d.ptr || rts[r] == DT_BOOL)
            fe_fail(I, A->pos[3], "%s: a result dtype must be a number type", fn);
    }
    int pure = fe_truthy(I, A->v[4], A->pos[4], "is_pure must be a bool");
    if (several && !pure)
        fe_fail(I, A->pos[4],
                "%s: an asm of several results with is_pure=False is not supported (mytriton "
                "runs it once per result)",
                fn);
    int64_t pack = fe_need_int(I, A->v[5], A->pos[5], "pack");
    if (pack < 1 || pack > 16)
        fe_fail(I, A->pos[5], "%s: pack must be 1 to 16 (got %lld)", fn, (long long)pack);
    Expr *e[ASM_MAX_ARGS] = {NULL};
    DType dts[ASM_MAX_ARGS];
    for (int k = 0; k < args.n; k++) {
        e[k] = fe_to_expr(I, args.items[k], A->pos[2], fn);
        if (e[k]->type.ptr || e[k]->type.dtype == DT_BOOL)
            fe_fail(I, A->pos[2], "%s: argument %d is %s: the asm takes numbers", fn, k,
                    type_str(I->a, e[k]->type));
    }
    for (int k = 1; k < args.n; k++) fe_broadcast_pair(I, &e[0], &e[k], fn, pos);
    for (int k = 1; k < args.n; k++) fe_broadcast_pair(I, &e[k], &e[0], fn, pos);
    for (int k = 0; k < args.n; k++) dts[k] = (DType)e[k]->type.dtype;
    AsmPlan plan;
    const char *err = asm_plan(I->a, A->v[1].s, (int)pack, rts, nres, dts, args.n, &plan);
    if (err) fe_fail(I, A->pos[1], "%s: %s", fn, err);
    /* an op per result, each giving result `axis` of the same asm */
    Val out = {0};
    out.kind = V_TUPLE;
    out.n = nres;
    out.items = ARENA_ARRAY(I->a, Val, nres + 1);
    for (int r = 0; r < nres; r++) {
        Attrs at = {0};
        at.text = A->v[0].s;
        at.constraints = A->v[1].s;
        at.pack = (int)pack;
        at.dtype = rts[r];
        if (several) {
            at.nresults = nres;
            at.axis = r;
            for (int q = 0; q < nres; q++) at.results[q] = rts[q];
        }
        Expr *x =
            fe_mk_opv(I, pure ? OP_INLINE_ASM : OP_INLINE_ASM_VOLATILE, fn, pos, args.n, e, &at);
        /* is_pure=False: runs where written, used or not (as a load keeps its place) */
        if (!pure) ptrvec_push(I->a, &I->list->pending, x);
        out.items[r] = fe_vexpr(x);
    }
    return several ? out : out.items[0];
}

/* B_JIT */
static Val bi_jit(Interp *I, const BuiltinCall *bc) {
    SrcPos pos = bc->pos;
    fe_fail(I, pos, "triton.jit can only decorate the kernel");
}

/* B_CONSTEXPR */
static Val bi_constexpr(Interp *I, const BuiltinCall *bc) {
    (void)I;
    const Args *A = &bc->A;
    return A->v[0];
}

/* B_PROGRAM_ID */
static Val bi_program_id(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    Attrs at = {0};
    int64_t axis = fe_need_int(I, A->v[0], A->pos[0], "tl.program_id's axis");
    if (axis < 0 || axis > 2)
        fe_fail(I, A->pos[0], "tl.program_id's axis must be 0, 1 or 2 (got %lld)", (long long)axis);
    at.axis = (int)axis;
    return fe_vexpr(fe_mk_op(I, OP_PROGRAM_ID, fn, pos, 0, NULL, NULL, NULL, &at));
}

/* B_ARANGE */
static Val bi_arange(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    int64_t s = fe_need_int(I, A->v[0], A->pos[0], "tl.arange's start");
    int64_t e = fe_need_int(I, A->v[1], A->pos[1], "tl.arange's end");
    if (s < INT32_MIN || s > INT32_MAX || e < INT32_MIN || e > INT32_MAX)
        fe_fail(I, pos, "tl.arange's bounds must fit in i32");
    if (e <= s)
        fe_fail(I, pos, "tl.arange needs start < end (got %lld, %lld)", (long long)s, (long long)e);
    if (e - s > MT_MAX_NUMEL)
        fe_fail(I, pos, "tl.arange of %lld elements exceeds the limit of %d", (long long)(e - s),
                MT_MAX_NUMEL);
    Attrs at = {0};
    at.start = (int)s;
    at.end = (int)e;
    return fe_vexpr(fe_mk_op(I, OP_ARANGE, fn, pos, 0, NULL, NULL, NULL, &at));
}

/* B_LOAD */
static Val bi_load(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    if (A->v[0].kind == V_BLOCKPTR) return fe_bp_load(I, A, fn, pos);
    no_block_ptr_args(I, A, 3, 4, fn);
    Expr *ptr = fe_to_expr(I, A->v[0], A->pos[0], "tl.load's pointer");
    if (!ptr->type.ptr)
        fe_fail(I, A->pos[0], "tl.load needs a pointer (got %s)", type_str(I->a, ptr->type));
    Expr *mask =
        A->v[1].kind == V_NONE ? NULL : fe_to_expr(I, A->v[1], A->pos[1], "tl.load's mask");
    Expr *other = NULL;
    if (A->v[2].kind != V_NONE) {
        if (!mask)
            fe_fail(I, A->pos[2],
                    "tl.load's 'other' needs a mask (other is the value where the mask is false)");
        other = fe_to_expr_as(I, A->v[2], (DType)ptr->type.dtype, A->pos[2], "tl.load's other");
    }
    Expr *e = fe_mk_op(I, OP_LOAD, fn, pos, 3, ptr, mask, other, NULL);
    ptrvec_push(I->a, &I->list->pending, e);
    return fe_vexpr(e);
}

/* B_STORE */
static Val bi_store(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    if (A->v[0].kind == V_BLOCKPTR) return fe_bp_store(I, A, fn, pos);
    no_block_ptr_args(I, A, 3, -1, fn);
    Expr *ptr = fe_to_expr(I, A->v[0], A->pos[0], "tl.store's pointer");
    if (!ptr->type.ptr)
        fe_fail(I, A->pos[0], "tl.store needs a pointer (got %s)", type_str(I->a, ptr->type));
    Expr *value = fe_to_expr_as(I, A->v[1], (DType)ptr->type.dtype, A->pos[1], "tl.store's value");
    Expr *mask =
        A->v[2].kind == V_NONE ? NULL : fe_to_expr(I, A->v[2], A->pos[2], "tl.store's mask");
    fe_store_stmt(I, fn, pos, ptr, value, mask);
    return vnone();
}

/* B_MAXIMUM, B_MINIMUM */
static Val bi_maximum_minimum(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    Builtin b = bc->b;
    Attrs at = {0};
    at.flag = fe_nan_ignored(
        I, A, 2, I->ctx->triton_nan); /* the default: Triton's at -O2, the seed's at -O1 */
    /* Triton computes bf16 maxima in f32 */
    Expr *x = fe_to_expr(I, A->v[0], A->pos[0], fn), *y = fe_to_expr(I, A->v[1], A->pos[1], fn);
    if (!x->type.ptr && x->type.dtype == DT_BF16) x = fe_cast_to(I, x, DT_F32, pos);
    if (!y->type.ptr && y->type.dtype == DT_BF16) y = fe_cast_to(I, y, DT_F32, pos);
    return fe_vexpr(
        fe_binary_expr(I, b == B_MAXIMUM ? OP_MAXIMUM : OP_MINIMUM, fn, x, y, pos, &at));
}

/* B_WHERE */
static Val bi_where(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    Expr *c = fe_to_expr(I, A->v[0], A->pos[0], fn);
    Expr *x = fe_to_expr(I, A->v[1], A->pos[1], fn), *y = fe_to_expr(I, A->v[2], A->pos[2], fn);
    if (!c->type.ptr && c->type.dtype != DT_BOOL) c = fe_cast_to(I, c, DT_BOOL, A->pos[0]);
    if (!x->type.ptr && !y->type.ptr) fe_promote_pair(I, fn, &x, &y, 0, pos);
    return fe_vexpr(fe_mk_op(I, OP_SELECT, fn, pos, 3, c, x, y, NULL));
}

/* B_NUM_PROGRAMS */
static Val bi_num_programs(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    Attrs at = {0};
    int64_t axis = fe_need_int(I, A->v[0], A->pos[0], "tl.num_programs's axis");
    if (axis < 0 || axis > 2)
        fe_fail(I, A->pos[0], "tl.num_programs's axis must be 0, 1 or 2 (got %lld)",
                (long long)axis);
    at.axis = (int)axis;
    return fe_vexpr(fe_mk_op(I, OP_NUM_PROGRAMS, fn, pos, 0, NULL, NULL, NULL, &at));
}

/* B_CAST, B_TO */
static Val bi_cast_to(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    Builtin b = bc->b;
    return fe_make_cast(I, A, b == B_TO ? "'.to'" : fn, pos);
}

/* B_POINTER_TYPE */
static Val bi_pointer_type(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    /* tl.pointer_type(dtype): the dtype of a pointer to it (global
     * memory, address space 1; not const) */
    Val v = A->v[0];
    fe_need_dtype(I, v, A->pos[0], fn);
    if (A->v[1].kind != V_NONE && fe_need_int(I, A->v[1], A->pos[1], fn) != 1)
        fe_fail(I, A->pos[1], "%s: only address_space=1 (global memory) is supported", fn);
    if (A->v[2].kind != V_NONE && fe_truthy(I, A->v[2], A->pos[2], "const= must be a bool"))
        fe_fail(I, A->pos[2], "%s: const pointers are not supported", fn);
    v.ptr = 1;
    return v;
}

/* B_DOT */
static Val bi_dot(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    return fe_make_dot(I, A, fn, pos);
}

/* B_MAKE_BLOCK_PTR */
static Val bi_make_block_ptr(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    return fe_make_block_ptr(I, A, fn, pos);
}

/* B_ADVANCE */
static Val bi_advance(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    return fe_advance(I, A, fn, pos);
}

/* B_MAKE_TENSOR_DESC */
static Val bi_make_tensor_desc(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    return fe_make_tensor_descriptor(I, A, fn, pos);
}

/* B_DESC_LOAD */
static Val bi_desc_load(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    return fe_desc_load(I, A, fn, pos);
}

/* B_DESC_STORE */
static Val bi_desc_store(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    return fe_desc_store(I, A, fn, pos);
}

/* B_DESC_ATOMIC_ADD .. B_DESC_ATOMIC_XOR: `b` gives the AtomicRmw */
static Val bi_desc_atomic(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    Builtin b = bc->b;
    return fe_desc_atomic(I, A, (int)(b - B_DESC_ATOMIC_ADD), fn, pos);
}

/* B_INLINE_ASM */
static Val bi_inline_asm(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    return inline_asm(I, A, fn, pos);
}

/* B_CUDA_SREG, B_CUDA_SMID: Triton 3.6's tl.extra.cuda.globaltimer() and
 * smid(), an inline asm reading a special register (`arg`: its row); the
 * host backend reads a clock for %globaltimer and gives 0 for %smid. */
static const struct {
    const char *asm, *constraints;
    DType dtype;
    int pure;
} cuda_sregs[] = {{"mov.u64 $0, %globaltimer;", "=l", DT_I64, 0},
                  {"mov.u32 $0, %smid;", "=r", DT_I32, 1}};

static Val bi_cuda_sreg(Interp *I, const BuiltinCall *bc) {
    Args A;
    memset(&A, 0, sizeof A);
    for (int k = 0; k < 6; k++) A.pos[k] = bc->pos, A.given[k] = 1;
    A.v[0].kind = A.v[1].kind = V_STR;
    A.v[0].s = cuda_sregs[bc->arg].asm;
    A.v[1].s = cuda_sregs[bc->arg].constraints;
    A.v[2].kind = V_TUPLE;
    A.v[3].kind = V_DTYPE;
    A.v[3].i = cuda_sregs[bc->arg].dtype;
    A.v[4] = fe_vbool(cuda_sregs[bc->arg].pure);
    A.v[5] = fe_vint(1);
    return inline_asm(I, &A, bc->fn, bc->pos);
}

/* B_CUDA_WARPS, B_CUDA_THREADS: Triton's options.num_warps (4 unless
 * --num-warps gives it), times `arg` threads a warp: compile-time ints. */
static Val bi_cuda_warps(Interp *I, const BuiltinCall *bc) {
    int warps = I->ctx->num_warps > 0 ? I->ctx->num_warps : 4;
    return fe_vint((int64_t)warps * bc->arg);
}

/* B_GATHER */
static Val bi_gather(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    /* tl.gather(src, index, axis): the result has the index's shape */
    Expr *x = fe_to_expr(I, A->v[0], A->pos[0], fn), *i = fe_to_expr(I, A->v[1], A->pos[1], fn);
    int64_t axis = fe_need_int(I, A->v[2], A->pos[2], "tl.gather's axis");
    if (x->type.rank > 0 && axis < 0) axis += x->type.rank;
    if (axis < 0 || axis > 1)
        fe_fail(I, A->pos[2], "%s: axis %lld is out of range for %s", fn, (long long)A->v[2].i,
                type_str(I->a, x->type));
    Attrs at = {0};
    at.axis = (int)axis;
    return fe_vexpr(fe_mk_op(I, OP_GATHER, fn, pos, 2, x, i, NULL, &at));
}

/* B_CLAMP */
static Val bi_clamp(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    /* Triton's clamp: floats only; min(max(x, lo), hi) */
    Expr *x = fe_to_expr(I, A->v[0], A->pos[0], fn), *lo = fe_to_expr(I, A->v[1], A->pos[1], fn),
         *hi = fe_to_expr(I, A->v[2], A->pos[2], fn);
    fe_promote_pair(I, fn, &lo, &hi, 0, pos);
    fe_promote_pair(I, fn, &x, &lo, 0, pos);
    fe_promote_pair(I, fn, &x, &hi, 0, pos);
    if (x->type.ptr || !dtype_is_float((DType)x->type.dtype))
        fe_fail(I, pos, "tl.clamp needs floats (got %s): Triton clamps only floating-point values",
                type_str(I->a, x->type));
    Attrs at = {0};
    at.flag = fe_nan_ignored(I, A, 3, 1);
    Expr *m = fe_mk_op(I, OP_MAXIMUM, fn, pos, 2, x, lo, NULL, &at);
    return fe_vexpr(fe_mk_op(I, OP_MINIMUM, fn, pos, 2, m, hi, NULL, &at));
}

/* B_SIGMOID */
static Val bi_sigmoid(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    /* as Triton's standard library: 1 / (1 + exp(-x)) */
    Val x = A->v[0];
    Val neg = fe_vexpr(
        fe_mk_op(I, OP_NEG, fn, pos, 1, fe_to_expr(I, x, A->pos[0], fn), NULL, NULL, NULL));
    Val e = fe_vexpr(fe_mk_op(I, OP_EXP, fn, pos, 1, neg.e, NULL, NULL, NULL));
    return fe_binop(I, PK_Div, fe_vint(1), fe_binop(I, PK_Add, fe_vint(1), e, pos), pos);
}

/* B_SOFTMAX */
static Val bi_softmax(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    /* as Triton's standard library: z = x - max(x, dim, keep_dims);
     * exp(z) / sum(exp(z), dim, keep_dims) by tl.fdiv (dim None: 0) */
    Args R = {0};
    R.v[0] = A->v[0];
    R.pos[0] = A->pos[0];
    R.v[1] = A->v[1].kind == V_NONE ? fe_vint(0) : A->v[1];
    R.pos[1] = A->pos[1];
    R.v[4] = A->v[2]; /* tl.max's keep_dims */
    R.pos[4] = A->pos[2];
    Val z = fe_binop(I, PK_Sub, A->v[0], fe_reduction(I, B_MAX, &R, "tl.max", pos), pos);
    Expr *ze = fe_to_expr(I, z, A->pos[0], fn);
    if (ze->type.ptr || (ze->type.dtype != DT_F32 && ze->type.dtype != DT_F64))
        fe_fail(I, A->pos[0], "%s needs f32 or f64 values, as Triton's exp (got %s)", fn,
                type_str(I->a, ze->type));
    Expr *num = fe_mk_op(I, OP_EXP, fn, pos, 1, ze, NULL, NULL, NULL);
    Args S = {0};
    S.v[0] = fe_vexpr(num);
    S.pos[0] = pos;
    S.v[1] = R.v[1];
    S.pos[1] = R.pos[1];
    S.v[2] = A->v[2]; /* tl.sum's keep_dims */
    S.pos[2] = A->pos[2];
    Expr *den = fe_to_expr(I, fe_reduction(I, B_SUM, &S, "tl.sum", pos), pos, fn);
    int ieee = A->v[3].kind != V_NONE &&
               fe_truthy(I, A->v[3], A->pos[3], "ieee_rounding must be a compile-time bool");
    return fe_vexpr(fe_binary_expr(I, ieee ? OP_DIV_RN : OP_DIV, fn, num, den, pos, NULL));
}

/* B_FDIV */
static Val bi_fdiv(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    Expr *x = fe_to_expr(I, A->v[0], A->pos[0], fn), *y = fe_to_expr(I, A->v[1], A->pos[1], fn);
    int ieee = A->v[2].kind != V_NONE &&
               fe_truthy(I, A->v[2], A->pos[2], "ieee_rounding must be a compile-time bool");
    for (int i = 0; i < 2; i++) {
        Expr *e = i ? y : x;
        if (e->type.ptr || !dtype_is_float((DType)e->type.dtype))
            fe_fail(I, pos, "tl.fdiv needs float operands (got %s and %s)", type_str(I->a, x->type),
                    type_str(I->a, y->type));
    }
    return fe_vexpr(fe_binary_expr(I, ieee ? OP_DIV_RN : OP_DIV, fn, x, y, pos, NULL));
}

/* B_MULTIPLE_OF, B_MAX_CONTIGUOUS, B_MAX_CONSTANCY */
static Val bi_hint(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    Builtin b = bc->b;
    Expr *x = fe_to_expr(I, A->v[0], A->pos[0], fn);
    Val v = A->v[1];
    if ((v.kind == V_TUPLE || v.kind == V_LIST) && v.n >= 1) v = v.items[v.n - 1];
    int64_t k = fe_need_int(I, v, A->pos[1], "the hint's value");
    if (k < 1 || k > (1 << 30))
        fe_fail(I, A->pos[1], "%s: the value must be a positive integer (got %lld)", fn,
                (long long)k);
    Attrs at = {0};
    at.axis = b == B_MULTIPLE_OF ? 0 : b == B_MAX_CONTIGUOUS ? 1 : 2;
    at.start = (int)k;
    return fe_vexpr(fe_mk_op(I, OP_HINT, fn, pos, 1, x, NULL, NULL, &at));
}

/* B_SUM, B_MAX, B_MIN, B_ARGMAX, B_ARGMIN, B_CUMSUM, B_CUMPROD, B_XOR_SUM */
static Val bi_reduction(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    Builtin b = bc->b;
    return fe_reduction(I, b, A, fn, pos);
}

/* B_SORT, B_FLIP */
static Val bi_sort_flip(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    Builtin b = bc->b;
    return fe_sort_flip(I, b, A, fn, pos);
}

/* B_HISTOGRAM */
static Val bi_histogram(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    return fe_histogram(I, A, fn, pos);
}

/* B_REDUCE, B_ASSOC_SCAN */
static Val bi_reduce_fn(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    Builtin b = bc->b;
    return fe_reduce_fn(I, b, A, fn, pos);
}

/* B_ZEROS_LIKE */
static Val bi_zeros_like(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    /* standard.py's zeros_like: tl.zeros(input.shape, input.dtype) */
    if (A->v[0].kind != V_EXPR || A->v[0].e->type.ptr)
        fe_fail(I, A->pos[0], "%s needs a block or a scalar of numbers, not %s", fn,
                A->v[0].kind == V_EXPR ? type_str(I->a, A->v[0].e->type) : fe_kind_name(A->v[0]));
    Type t = A->v[0].e->type;
    if (t.rank == 0) return fe_scalar_fill(I, fe_vint(0), (DType)t.dtype, pos, fn);
    Attrs at = {0};
    at.rank = t.rank;
    for (int d = 0; d < t.rank; d++) at.shape[d] = t.dims[d];
    at.dtype = t.dtype;
    return fe_vexpr(fe_mk_op(I, OP_ZEROS, fn, pos, 0, NULL, NULL, NULL, &at));
}

/* B_ZEROS, B_EMPTY */
static Val bi_zeros_empty(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    Builtin b = bc->b;
    if (is_empty_shape(A->v[0]))
        return fe_scalar_fill(I, fe_vint(0), fe_need_dtype(I, A->v[1], A->pos[1], fn), pos, fn);
    Attrs at = {0};
    fe_need_shape(I, A->v[0], A->pos[0], fn, &at);
    at.dtype = fe_need_dtype(I, A->v[1], A->pos[1], fn);
    return fe_vexpr(
        fe_mk_op(I, b == B_ZEROS ? OP_ZEROS : OP_EMPTY, fn, pos, 0, NULL, NULL, NULL, &at));
}

/* B_FULL */
static Val bi_full(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    if (is_empty_shape(A->v[0]))
        return fe_scalar_fill(I, A->v[1], fe_need_dtype(I, A->v[2], A->pos[2], fn), A->pos[1], fn);
    Attrs at = {0};
    fe_need_shape(I, A->v[0], A->pos[0], fn, &at);
    at.dtype = fe_need_dtype(I, A->v[2], A->pos[2], fn);
    /* a number keeps the type it is written in (the seed prints `full 2`
     * for tl.full(s, 2, tl.float32)); the op converts it to dtype */
    Expr *fill = fe_to_expr_as(I, A->v[1], at.dtype, A->pos[1], "tl.full's value");
    if ((A->v[1].kind == V_INT && at.dtype == DT_F32) ||
        (A->v[1].kind == V_FLOAT && at.dtype == DT_I32))
        fill = fe_to_expr(I, A->v[1], A->pos[1], "tl.full's value");
    return fe_vexpr(fe_mk_op(I, OP_FULL, fn, pos, 1, fill, NULL, NULL, &at));
}

/* B_STATIC_RANGE, B_TL_RANGE, B_RANGE */
static Val bi_range(Interp *I, const BuiltinCall *bc) {
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    fe_fail(I, pos, "%s() can only be the iterable of a for loop", fn);
}

/* B_STD_LOG2, B_STD_IS_POW2 */
static Val bi_std_log2_pow2(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    Builtin b = bc->b;
    /* standard.py: the floor of log2 of a compile-time integer (0 for
     * 1 and below), and whether it is a power of two */
    int64_t n = fe_need_int(I, A->v[0], A->pos[0], fn);
    if (b == B_STD_IS_POW2) return fe_vbool(n > 0 && (n & (n - 1)) == 0);
    int64_t log2 = 0;
    while (n > 1) n >>= 1, log2++;
    return fe_vint(log2);
}

/* B_CDIV */
static Val bi_cdiv(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    SrcPos pos = bc->pos;
    if (A->v[0].kind == V_EXPR || A->v[1].kind == V_EXPR) /* as Triton: (x + div - 1) // div */
        return fe_binop(
            I, PK_FloorDiv,
            fe_binop(I, PK_Sub, fe_binop(I, PK_Add, A->v[0], A->v[1], pos), fe_vint(1), pos),
            A->v[1], pos);
    Val num =
        fe_ct_binop(I, PK_Add, A->v[0], fe_ct_binop(I, PK_Sub, A->v[1], fe_vint(1), pos), pos);
    return fe_ct_binop(I, PK_FloorDiv, num, A->v[1], pos);
}

/* B_NEXT_POW2 */
static Val bi_next_pow2(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    /* triton.next_power_of_2 (a Python function of a compile-time int):
     * the smallest power of 2 at least n; 0 for n <= 0, as its bit
     * arithmetic gives */
    int64_t n = fe_need_int(I, A->v[0], A->pos[0], "triton.next_power_of_2's argument");
    if (n > ((int64_t)1 << 62))
        fe_fail(I, A->pos[0], "%s(%lld) does not fit in 64 bits", fn, (long long)n);
    int64_t p = 1;
    while (p < n) p <<= 1;
    return fe_vint(n <= 0 ? 0 : p);
}

/* B_SWIZZLE2D */
static Val bi_swizzle2d(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    /* standard.py's: (i, j) of a size_i x size_j grid renumbered so that
     * groups of size_g rows are walked column by column */
    Val ij = fe_binop(I, PK_Add, fe_binop(I, PK_Mult, A->v[0], A->v[3], pos), A->v[1], pos);
    Val size_gj = fe_binop(I, PK_Mult, A->v[4], A->v[3], pos);
    Val off_i = fe_binop(I, PK_Mult, fe_binop(I, PK_FloorDiv, ij, size_gj, pos), A->v[4], pos);
    Val rows = fe_binop(I, PK_Sub, A->v[2], off_i, pos), size_g = A->v[4];
    if (rows.kind == V_EXPR || size_g.kind == V_EXPR) {
        Attrs at = {0};
        at.flag = 1;
        size_g = fe_vexpr(fe_binary_expr(I, OP_MINIMUM, fn, fe_to_expr(I, rows, pos, fn),
                                         fe_to_expr(I, size_g, pos, fn), pos, &at));
    } else if (fe_ct_compare(I, PK_Lt, rows, size_g, pos).i) {
        size_g = rows;
    }
    ij = fe_binop(I, PK_Mod, ij, size_gj, pos);
    Val r = {0};
    r.kind = V_TUPLE;
    r.n = 2;
    r.items = ARENA_ARRAY(I->a, Val, 2);
    r.items[0] = fe_binop(I, PK_Add, off_i, fe_binop(I, PK_Mod, ij, size_g, pos), pos);
    r.items[1] = fe_binop(I, PK_FloorDiv, ij, size_g, pos);
    return r;
}

/* B_FLOAT */
static Val bi_float(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    if (!A->given[0]) return fe_vfloat(0);
    if (A->v[0].kind == V_STR) return fe_parse_float_string(I, A->v[0].s, A->pos[0]);
    if (!fe_is_number(A->v[0]))
        fe_fail(I, A->pos[0], "float() needs a compile-time number or string, not %s",
                fe_kind_name(A->v[0]));
    return fe_vfloat(fe_as_double(A->v[0]));
}

/* B_INT */
static Val bi_int(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    if (!A->given[0]) return fe_vint(0);
    if (fe_is_intlike(A->v[0])) return fe_vint(A->v[0].i);
    if (A->v[0].kind == V_FLOAT) {
        double t = trunc(A->v[0].f);
        if (!isfinite(t) || t < -9.2e18 || t > 9.2e18)
            fe_fail(I, A->pos[0], "int() of a float that is not finite or too large");
        return fe_vint((int64_t)t);
    }
    if (A->v[0].kind == V_STR) {
        char *end;
        errno = 0;
        long long v = strtoll(A->v[0].s, &end, 10);
        while (isspace((unsigned char)*end)) end++;
        if (*end || errno || end == A->v[0].s)
            fe_fail(I, A->pos[0], "int() cannot convert the string '%s'", A->v[0].s);
        return fe_vint(v);
    }
    fe_fail(I, A->pos[0], "int() needs a compile-time number or string, not %s",
            fe_kind_name(A->v[0]));
}

/* B_BOOL */
static Val bi_bool(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    if (!A->given[0]) return fe_vbool(0);
    return fe_vbool(fe_truthy(I, A->v[0], A->pos[0], "bool() of a runtime value is not supported"));
}

/* B_PY_MIN, B_PY_MAX */
static Val bi_py_min_max(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    const char *fn = bc->fn;
    SrcPos pos = bc->pos;
    Builtin b = bc->b;
    const Val *items = A->var;
    int n = A->nvar;
    if (n == 1) {
        if (A->var[0].kind != V_TUPLE && A->var[0].kind != V_LIST)
            fe_fail(I, pos, "%s() of one argument needs a tuple or a list", fn);
        items = A->var[0].items;
        n = A->var[0].n;
        if (n == 0) fe_fail(I, pos, "%s() of an empty sequence", fn);
    }
    int runtime = 0;
    for (int i = 0; i < n; i++) runtime |= items[i].kind == V_EXPR;
    if (runtime) {
        /* Triton maps min/max to tl.minimum/tl.maximum (NaN ignored) */
        Attrs at = {0};
        at.flag = 1;
        Expr *acc = fe_to_expr(I, items[0], pos, fn);
        for (int i = 1; i < n; i++)
            acc = fe_binary_expr(I, b == B_PY_MIN ? OP_MINIMUM : OP_MAXIMUM, fn, acc,
                                 fe_to_expr(I, items[i], pos, fn), pos, &at);
        return fe_vexpr(acc);
    }
    Val best = items[0];
    for (int i = 0; i < n; i++) {
        if (!fe_is_number(items[i]))
            fe_fail(I, pos, "%s() needs compile-time numbers (use tl.%s for blocks)", fn,
                    b == B_PY_MIN ? "minimum" : "maximum");
        if (i == 0) continue;
        int less = fe_ct_compare(I, PK_Lt, items[i], best, pos).i;
        int greater = fe_ct_compare(I, PK_Gt, items[i], best, pos).i;
        if ((b == B_PY_MIN && less) || (b == B_PY_MAX && greater)) best = items[i];
    }
    return best;
}

/* B_ABS */
static Val bi_abs(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    SrcPos pos = bc->pos;
    if (A->v[0].kind == V_FLOAT) return fe_vfloat(fabs(A->v[0].f));
    if (fe_is_intlike(A->v[0])) {
        if (A->v[0].i == INT64_MIN) fe_fail(I, pos, "integer overflow in abs()");
        return fe_vint(A->v[0].i < 0 ? -A->v[0].i : A->v[0].i);
    }
    fe_fail(I, pos, "abs() needs a compile-time number, not %s", fe_kind_name(A->v[0]));
}

/* B_LEN */
static Val bi_len(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    SrcPos pos = bc->pos;
    if (A->v[0].kind == V_TUPLE || A->v[0].kind == V_LIST) return fe_vint(A->v[0].n);
    if (A->v[0].kind == V_STR) return fe_vint((int64_t)strlen(A->v[0].s));
    fe_fail(I, pos, "len() needs a tuple, a list or a string, not %s", fe_kind_name(A->v[0]));
}

/* B_GETATTR and B_HASATTR: Python's getattr(obj, name[, default]) and
 * hasattr(obj, name) on a compile-time name, as the attribute syntax
 * (hasattr: whether that lookup succeeds; its diagnostic is dropped). */
static int lookup_attribute(Interp *I, const BuiltinCall *bc, Val *out) {
    const Args *A = &bc->A;
    if (A->v[1].kind != V_STR)
        fe_fail(I, A->pos[1], "%s()'s attribute name must be a compile-time string, not %s", bc->fn,
                fe_kind_name(A->v[1]));
    if (bc->b == B_GETATTR && !A->given[2]) {
        *out = attribute_of(I, bc->call, A->v[0], A->v[1].s);
        return 1;
    }
    /* a failing lookup returns here, its diagnostic taken back */
    jmp_buf saved;
    memcpy(saved, I->fail, sizeof saved);
    size_t len = I->ctx->diagnostics.len;
    int errors = I->ctx->errors, found = 0;
    if (setjmp(I->fail) == 0) {
        *out = attribute_of(I, bc->call, A->v[0], A->v[1].s);
        found = 1;
    } else {
        I->ctx->diagnostics.len = len;
        if (I->ctx->diagnostics.data) I->ctx->diagnostics.data[len] = 0;
        I->ctx->errors = errors;
    }
    memcpy(I->fail, saved, sizeof saved);
    return found;
}

static Val bi_getattr(Interp *I, const BuiltinCall *bc) {
    Val v;
    return lookup_attribute(I, bc, &v) ? v : bc->A.v[2];
}

static Val bi_hasattr(Interp *I, const BuiltinCall *bc) {
    Val v;
    return fe_vbool(lookup_attribute(I, bc, &v));
}

/* B_ISINSTANCE: Python's isinstance as Triton 3.6 calls it, on the traced
 * values with constexprs unwrapped (code_generator's builtin_namespace):
 * a compile-time int is an int, never a tl.constexpr; a runtime value (a
 * number assigned to a name is one: Triton makes it a tensor) is a
 * tl.tensor, as a block pointer is; a descriptor is a tensor_descriptor. */
static int weak_number(Val v) {
    return (v.kind == V_INT || v.kind == V_BOOL || v.kind == V_FLOAT) && !v.strong;
}
static int cls_int(Val v) { return weak_number(v) && v.kind != V_FLOAT; } /* bool is an int */
static int cls_float(Val v) { return weak_number(v) && v.kind == V_FLOAT; }
static int cls_bool(Val v) { return weak_number(v) && v.kind == V_BOOL; }
static int cls_constexpr(Val v) { return (void)v, 0; } /* unwrapped: nothing is one */
static int cls_tensor(Val v) {
    return v.kind == V_EXPR || (v.kind == V_BLOCKPTR && !v.bp->desc) ||
           (fe_is_number(v) && v.strong);
}
static int cls_desc(Val v) { return v.kind == V_BLOCKPTR && v.bp->desc; }
static int cls_dtype(Val v) { return v.kind == V_DTYPE; }
static int cls_pointer(Val v) { return v.kind == V_DTYPE && v.ptr && !v.n; }

static const struct {
    Builtin cls;
    int (*test)(Val v);
} classes[] = {{B_INT, cls_int},           {B_FLOAT, cls_float},
               {B_BOOL, cls_bool},         {B_CONSTEXPR, cls_constexpr},
               {B_CLS_TENSOR, cls_tensor}, {B_CLS_DESC, cls_desc},
               {B_CLS_DTYPE, cls_dtype},   {B_POINTER_TYPE, cls_pointer}};

static Val bi_isinstance(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    Val c = A->v[1];
    int n = c.kind == V_TUPLE ? c.n : 1, hit = 0;
    for (int k = 0; k < n; k++) {
        Val one = c.kind == V_TUPLE ? c.items[k] : c;
        size_t j = 0;
        while (j < sizeof classes / sizeof classes[0] &&
               (one.kind != V_FUNC || one.i != classes[j].cls))
            j++;
        if (j == sizeof classes / sizeof classes[0])
            fe_fail(I, A->pos[1],
                    "isinstance's classes are int, float, bool, tl.tensor, tl.tensor_descriptor, "
                    "tl.dtype, tl.pointer_type, tl.constexpr or a tuple of them (got %s)",
                    fe_kind_name(one));
        hit |= classes[j].test(A->v[0]);
    }
    return fe_vbool(hit);
}

/* B_CLS_*: a class of triton.language, only for isinstance here. */
static Val bi_class(Interp *I, const BuiltinCall *bc) {
    fe_fail(I, bc->pos, "%s is a class: mytriton takes it in isinstance() only", bc->fn);
}

/* B_DEBUG_BARRIER */
static Val bi_debug_barrier(Interp *I, const BuiltinCall *bc) {
    SrcPos pos = bc->pos;
    return fe_debug_barrier(I, pos);
}

/* B_ASSUME: Triton 3.6's tl.assume(cond), a fact for LLVM (llvm.assume of
 * an i1 scalar). The condition is evaluated (and checked) and nothing is
 * emitted: the backends draw their facts from hints and the signature. */
static Val bi_assume(Interp *I, const BuiltinCall *bc) {
    const Args *A = &bc->A;
    Val c = A->v[0];
    if (c.kind == V_BOOL || c.kind == V_INT) return vnone(); /* a compile-time fact */
    Expr *e = fe_to_expr(I, c, A->pos[0], bc->fn);
    if (e->type.rank != 0 || e->type.ptr || e->type.dtype != DT_BOOL)
        fe_fail(I, A->pos[0], "%s needs a bool scalar condition, as Triton's (got %s)", bc->fn,
                type_str(I->a, e->type));
    return vnone();
}

/* The atomics: `arg` is the AtomicRmw (-1: atomic_cas). */
static Val bi_atomic(Interp *I, const BuiltinCall *bc) {
    return fe_call_atomic(I, &bc->A, bc->arg, bc->fn, bc->pos);
}

/* random.py's functions: `arg` is the RandomFn. */
static Val bi_random(Interp *I, const BuiltinCall *bc) {
    return fe_call_random(I, (RandomFn)bc->arg, &bc->A, bc->fn, bc->pos);
}

/* The debugging functions bind their own arguments (fe_debug.c). */
static Val bi_debug(Interp *I, const BuiltinCall *bc) { return fe_call_debug(I, bc->call, bc->b); }

/* The shape functions bind their own arguments (fe_shape.c). */
static Val bi_shape(Interp *I, const BuiltinCall *bc) {
    return fe_call_shape(I, bc->call, bc->b, bc->self);
}

static const BuiltinDef builtins[B_COUNT] = {
    [B_JIT] = {{"triton.jit", {"fn"}, 1, 8, 0}, bi_jit, 0, BF_TRITON},
    [B_CONSTEXPR] = {{"tl.constexpr", {"value"}, 1, 8, 0}, bi_constexpr, 0},
    [B_PROGRAM_ID] = {{"tl.program_id", {"axis"}, 1, 8, 0}, bi_program_id, 0},
    [B_ARANGE] = {{"tl.arange", {"start", "end"}, 2, 8, 0}, bi_arange, 0},
    /* Triton 3.6's parameters in order; boundary_check and padding_option
     * are for block pointers (fe_blockptr.c) */
    [B_LOAD] = {{"tl.load",
                 {"pointer", "mask", "other", "boundary_check", "padding_option", "cache_modifier",
                  "eviction_policy", "volatile"},
                 1,
                 3,
                 0},
                bi_load,
                0},
    [B_STORE] = {{"tl.store",
                  {"pointer", "value", "mask", "boundary_check", "cache_modifier",
                   "eviction_policy"},
                  2,
                  3,
                  0},
                 bi_store,
                 0},
    [B_MAXIMUM] = {{"tl.maximum", {"x", "y", "propagate_nan"}, 2, 8, 0}, bi_maximum_minimum, 0},
    [B_MINIMUM] = {{"tl.minimum", {"x", "y", "propagate_nan"}, 2, 8, 0}, bi_maximum_minimum, 0},
    [B_WHERE] = {{"tl.where", {"condition", "x", "y"}, 3, 8, 0}, bi_where, 0},
    [B_SUM] = {{"tl.sum", {"input", "axis", "keep_dims", "dtype"}, 1, 8, 0},
               bi_reduction,
               0,
               BF_TENSOR},
    [B_MAX] = {{"tl.max",
                {"input", "axis", "return_indices", "return_indices_tie_break_left", "keep_dims"},
                1,
                8,
                0},
               bi_reduction,
               0,
               BF_TENSOR},
    [B_MIN] = {{"tl.min",
                {"input", "axis", "return_indices", "return_indices_tie_break_left", "keep_dims"},
                1,
                8,
                0},
               bi_reduction,
               0,
               BF_TENSOR},
    [B_ZEROS] = {{"tl.zeros", {"shape", "dtype"}, 2, 8, 0}, bi_zeros_empty, 0},
    [B_ZEROS_LIKE] = {{"tl.zeros_like", {"input"}, 1, 8, 0}, bi_zeros_like, 0},
    [B_STD_LOG2] = {{"_log2", {"i"}, 1, 1, 0}, bi_std_log2_pow2, 0},
    [B_STD_IS_POW2] = {{"_is_power_of_two", {"i"}, 1, 1, 0}, bi_std_log2_pow2, 0},
    [B_FULL] = {{"tl.full", {"shape", "value", "dtype"}, 3, 8, 0}, bi_full, 0},
    [B_EMPTY] = {{"tl.empty", {"shape", "dtype"}, 2, 8, 0}, bi_zeros_empty, 0},
    [B_STATIC_RANGE] = {{"tl.static_range", {"arg1", "arg2", "step"}, 1, 8, 0}, bi_range, 0},
    [B_CDIV] = {{"tl.cdiv", {"x", "div"}, 2, 8, 0}, bi_cdiv, 0, BF_TRITON},
    [B_SWIZZLE2D] = {{"tl.swizzle2d", {"i", "j", "size_i", "size_j", "size_g"}, 5, 8, 0},
                     bi_swizzle2d,
                     0},
    [B_RANGE] = {{"range", {"arg1", "arg2", "arg3"}, 1, 8, 0}, bi_range, 0, BF_PYTHON},
    /* Triton 3.6's tl.range: num_stages and loop_unroll_factor are kept on
     * the loop; the other hints are accepted (compile-time values) */
    [B_TL_RANGE] = {{"tl.range",
                     {"arg1", "arg2", "step", "num_stages", "loop_unroll_factor",
                      "disallow_acc_multi_buffer", "flatten", "warp_specialize", "disable_licm"},
                     1,
                     10,
                     0},
                    bi_range,
                    0},
    [B_FLOAT] = {{"float", {"x"}, 0, 8, 0}, bi_float, 0, BF_PYTHON},
    [B_INT] = {{"int", {"x"}, 0, 8, 0}, bi_int, 0, BF_PYTHON},
    [B_BOOL] = {{"bool", {"x"}, 0, 8, 0}, bi_bool, 0, BF_PYTHON},
    [B_PY_MIN] = {{"min", {0}, 1, 8, 1}, bi_py_min_max, 0, BF_PYTHON},
    [B_PY_MAX] = {{"max", {0}, 1, 8, 1}, bi_py_min_max, 0, BF_PYTHON},
    [B_ABS] = {{"abs", {"x"}, 1, 8, 0}, bi_abs, 0, BF_PYTHON},
    [B_LEN] = {{"len", {"obj"}, 1, 8, 0}, bi_len, 0, BF_PYTHON},
    [B_GETATTR] = {{"getattr", {"obj", "name", "default"}, 2, 8, 0}, bi_getattr, 0, BF_PYTHON},
    [B_HASATTR] = {{"hasattr", {"obj", "name"}, 2, 8, 0}, bi_hasattr, 0, BF_PYTHON},
    [B_NUM_PROGRAMS] = {{"tl.num_programs", {"axis"}, 1, 8, 0}, bi_num_programs, 0},
    [B_CAST] = {{"tl.cast", {"input", "dtype", "fp_downcast_rounding", "bitcast"}, 2, 8, 0},
                bi_cast_to,
                0,
                BF_TENSOR},
    [B_TO] = {{"to", {"self", "dtype", "fp_downcast_rounding", "bitcast"}, 2, 8, 0}, bi_cast_to, 0},
    [B_POINTER_TYPE] = {{"tl.pointer_type", {"element_ty", "address_space", "const"}, 1, 8, 0},
                        bi_pointer_type,
                        0},
    [B_CLAMP] = {{"tl.clamp", {"x", "min", "max", "propagate_nan"}, 3, 8, 0}, bi_clamp, 0},
    [B_SIGMOID] = {{"tl.sigmoid", {"x"}, 1, 8, 0}, bi_sigmoid, 0, BF_TENSOR},
    [B_FDIV] = {{"tl.fdiv", {"x", "y", "ieee_rounding"}, 2, 8, 0}, bi_fdiv, 0},
    [B_MULTIPLE_OF] = {{"tl.multiple_of", {"input", "values"}, 2, 8, 0}, bi_hint, 0},
    [B_MAX_CONTIGUOUS] = {{"tl.max_contiguous", {"input", "values"}, 2, 8, 0}, bi_hint, 0},
    [B_MAX_CONSTANCY] = {{"tl.max_constancy", {"input", "values"}, 2, 8, 0}, bi_hint, 0},
    [B_STATIC_ASSERT] = {{"tl.static_assert", {"cond", "msg"}, 1, 8, 0}, bi_debug, 0},
    [B_STATIC_PRINT] = {{"tl.static_print", {0}, 0, 8, 1}, bi_debug, 0},
    [B_DEVICE_PRINT] = {{"tl.device_print", {0}, 1, 8, 1}, bi_debug, 0},
    [B_DEVICE_ASSERT] = {{"tl.device_assert", {"cond", "msg", "mask"}, 1, 8, 0}, bi_debug, 0},
    [B_PRINT] = {{"print", {0}, 1, 8, 1}, bi_debug, 0, BF_PYTHON},
    /* the shape functions bind their own arguments (fe_shape.c) */
    [B_RESHAPE] = {{"tl.reshape", {0}, 0, 8, 1}, bi_shape, 0, BF_TENSOR},
    [B_VIEW] = {{"tl.view", {0}, 0, 8, 1}, bi_shape, 0, BF_TENSOR},
    [B_RAVEL] = {{"tl.ravel", {0}, 0, 8, 1}, bi_shape, 0, BF_TENSOR},
    [B_TRANS] = {{"tl.trans", {0}, 0, 8, 1}, bi_shape, 0, BF_TENSOR},
    [B_PERMUTE] = {{"tl.permute", {0}, 0, 8, 1}, bi_shape, 0, BF_TENSOR},
    [B_EXPAND_DIMS] = {{"tl.expand_dims", {0}, 0, 8, 1}, bi_shape, 0, BF_TENSOR},
    [B_BROADCAST_TO] = {{"tl.broadcast_to", {0}, 0, 8, 1}, bi_shape, 0, BF_TENSOR},
    [B_BROADCAST] = {{"tl.broadcast", {0}, 0, 8, 1}, bi_shape, 0},
    [B_JOIN] = {{"tl.join", {0}, 0, 8, 1}, bi_shape, 0, BF_TENSOR},
    [B_SPLIT] = {{"tl.split", {0}, 0, 8, 1}, bi_shape, 0, BF_TENSOR},
    [B_INTERLEAVE] = {{"tl.interleave", {0}, 0, 8, 1}, bi_shape, 0},
    [B_CAT] = {{"tl.cat", {0}, 0, 8, 1}, bi_shape, 0},
    /* reductions and scans along an axis (fe_reduce.c) */
    [B_ARGMAX] = {{"tl.argmax", {"input", "axis", "tie_break_left", "keep_dims"}, 2, 8, 0},
                  bi_reduction,
                  0,
                  BF_TENSOR},
    [B_ARGMIN] = {{"tl.argmin", {"input", "axis", "tie_break_left", "keep_dims"}, 2, 8, 0},
                  bi_reduction,
                  0,
                  BF_TENSOR},
    [B_CUMSUM] = {{"tl.cumsum", {"input", "axis", "reverse", "dtype"}, 1, 8, 0},
                  bi_reduction,
                  0,
                  BF_TENSOR},
    [B_CUMPROD] = {{"tl.cumprod", {"input", "axis", "reverse"}, 1, 8, 0},
                   bi_reduction,
                   0,
                   BF_TENSOR},
    [B_REDUCE] = {{"tl.reduce", {"input", "axis", "combine_fn", "keep_dims"}, 3, 8, 0},
                  bi_reduce_fn,
                  0,
                  BF_TENSOR},
    [B_ASSOC_SCAN] = {{"tl.associative_scan", {"input", "axis", "combine_fn", "reverse"}, 3, 8, 0},
                      bi_reduce_fn,
                      0,
                      BF_TENSOR},
    [B_XOR_SUM] = {{"tl.xor_sum", {"input", "axis", "keep_dims"}, 1, 8, 0},
                   bi_reduction,
                   0,
                   BF_TENSOR},
    [B_SORT] = {{"tl.sort", {"x", "dim", "descending"}, 1, 8, 0}, bi_sort_flip, 0, BF_TENSOR},
    [B_FLIP] = {{"tl.flip", {"x", "dim"}, 1, 8, 0}, bi_sort_flip, 0, BF_TENSOR},
    [B_HISTOGRAM] = {{"tl.histogram", {"input", "num_bins", "mask"}, 2, 8, 0},
                     bi_histogram,
                     0,
                     BF_TENSOR},
    [B_ATOMIC_ADD] = {{"tl.atomic_add", {"pointer", "val", "mask", "sem", "scope"}, 2, 8, 0},
                      bi_atomic,
                      RMW_ADD,
                      BF_TENSOR},
    [B_ATOMIC_MAX] = {{"tl.atomic_max", {"pointer", "val", "mask", "sem", "scope"}, 2, 8, 0},
                      bi_atomic,
                      RMW_MAX,
                      BF_TENSOR},
    [B_ATOMIC_MIN] = {{"tl.atomic_min", {"pointer", "val", "mask", "sem", "scope"}, 2, 8, 0},
                      bi_atomic,
                      RMW_MIN,
                      BF_TENSOR},
    [B_ATOMIC_AND] = {{"tl.atomic_and", {"pointer", "val", "mask", "sem", "scope"}, 2, 8, 0},
                      bi_atomic,
                      RMW_AND,
                      BF_TENSOR},
    [B_ATOMIC_OR] = {{"tl.atomic_or", {"pointer", "val", "mask", "sem", "scope"}, 2, 8, 0},
                     bi_atomic,
                     RMW_OR,
                     BF_TENSOR},
    [B_ATOMIC_XOR] = {{"tl.atomic_xor", {"pointer", "val", "mask", "sem", "scope"}, 2, 8, 0},
                      bi_atomic,
                      RMW_XOR,
                      BF_TENSOR},
    [B_ATOMIC_XCHG] = {{"tl.atomic_xchg", {"pointer", "val", "mask", "sem", "scope"}, 2, 8, 0},
                       bi_atomic,
                       RMW_XCHG,
                       BF_TENSOR},
    [B_ATOMIC_CAS] = {{"tl.atomic_cas", {"pointer", "cmp", "val", "sem", "scope"}, 3, 8, 0},
                      bi_atomic,
                      -1,
                      BF_TENSOR},
    [B_DEBUG_BARRIER] = {{"tl.debug_barrier", {0}, 0, 8, 0}, bi_debug_barrier, 0},
    [B_ASSUME] = {{"tl.assume", {"cond"}, 1, 8, 0}, bi_assume, 0},
    [B_ISINSTANCE] = {{"isinstance", {"obj", "classinfo"}, 2, 8, 0}, bi_isinstance, 0, BF_PYTHON},
    [B_CLS_TENSOR] = {{"tl.tensor", {0}, 0, 8, 1}, bi_class, 0},
    [B_CLS_DESC] = {{"tl.tensor_descriptor", {0}, 0, 8, 1}, bi_class, 0},
    [B_CLS_DTYPE] = {{"tl.dtype", {0}, 0, 8, 1}, bi_class, 0},
    [B_CUDA_SREG] = {{"tl.extra.cuda.globaltimer", {0}, 0, 8, 0}, bi_cuda_sreg, 0},
    [B_CUDA_SMID] = {{"tl.extra.cuda.smid", {0}, 0, 8, 0}, bi_cuda_sreg, 1},
    [B_CUDA_WARPS] = {{"tl.extra.cuda.num_warps", {0}, 0, 8, 0}, bi_cuda_warps, 1},
    [B_CUDA_THREADS] = {{"tl.extra.cuda.num_threads", {0}, 0, 8, 0}, bi_cuda_warps, 32},
    [B_PHILOX] = {{"tl.philox", {"seed", "c0", "c1", "c2", "c3", "n_rounds"}, 5, 8, 0},
                  bi_random,
                  RNG_PHILOX},
    [B_RANDINT] = {{"tl.randint", {"seed", "offset", "n_rounds"}, 2, 8, 0}, bi_random, RNG_RANDINT},
    [B_RANDINT4X] = {{"tl.randint4x", {"seed", "offset", "n_rounds"}, 2, 8, 0},
                     bi_random,
                     RNG_RANDINT4X},
    [B_RAND] = {{"tl.rand", {"seed", "offset", "n_rounds"}, 2, 8, 0}, bi_random, RNG_RAND},
    [B_RAND4X] = {{"tl.rand4x", {"seed", "offsets", "n_rounds"}, 2, 8, 0}, bi_random, RNG_RAND4X},
    [B_RANDN] = {{"tl.randn", {"seed", "offset", "n_rounds"}, 2, 8, 0}, bi_random, RNG_RANDN},
    [B_RANDN4X] = {{"tl.randn4x", {"seed", "offset", "n_rounds"}, 2, 8, 0}, bi_random, RNG_RANDN4X},
    [B_UINT_TO_UNIFORM_FLOAT] = {{"tl.uint_to_uniform_float", {"x"}, 1, 8, 0},
                                 bi_random,
                                 RNG_UNIFORM},
    [B_PAIR_UNIFORM_TO_NORMAL] = {{"tl.pair_uniform_to_normal", {"u1", "u2"}, 2, 8, 0},
                                  bi_random,
                                  RNG_NORMAL_PAIR},
    [B_MAKE_BLOCK_PTR] = {{"tl.make_block_ptr",
                           {"base", "shape", "strides", "offsets", "block_shape", "order"},
                           6,
                           8,
                           0},
                          bi_make_block_ptr,
                          0},
    [B_ADVANCE] = {{"tl.advance", {"base", "offsets"}, 2, 8, 0}, bi_advance, 0},
    [B_MAKE_TENSOR_DESC] = {{"tl.make_tensor_descriptor",
                             {"base", "shape", "strides", "block_shape", "padding_option"},
                             4,
                             8,
                             0},
                            bi_make_tensor_desc,
                            0},
    [B_DESC_LOAD] =
        {{"tl.load_tensor_descriptor", {"desc", "offsets"}, 2, 8, 0}, bi_desc_load, 0, 0, "load"},
    [B_DESC_STORE] = {{"tl.store_tensor_descriptor", {"desc", "offsets", "value"}, 3, 8, 0},
                      bi_desc_store,
                      0,
                      0,
                      "store"},
    [B_DESC_ATOMIC_ADD] = {{"desc.atomic_add", {"desc", "offsets", "value"}, 3, 8, 0},
                           bi_desc_atomic,
                           0,
                           0,
                           "atomic_add"},
    [B_DESC_ATOMIC_MAX] = {{"desc.atomic_max", {"desc", "offsets", "value"}, 3, 8, 0},
                           bi_desc_atomic,
                           0,
                           0,
                           "atomic_max"},
    [B_DESC_ATOMIC_MIN] = {{"desc.atomic_min", {"desc", "offsets", "value"}, 3, 8, 0},
                           bi_desc_atomic,
                           0,
                           0,
                           "atomic_min"},
    [B_DESC_ATOMIC_AND] = {{"desc.atomic_and", {"desc", "offsets", "value"}, 3, 8, 0},
                           bi_desc_atomic,
                           0,
                           0,
                           "atomic_and"},
    [B_DESC_ATOMIC_OR] = {{"desc.atomic_or", {"desc", "offsets", "value"}, 3, 8, 0},
                          bi_desc_atomic,
                          0,
                          0,
                          "atomic_or"},
    [B_DESC_ATOMIC_XOR] = {{"desc.atomic_xor", {"desc", "offsets", "value"}, 3, 8, 0},
                           bi_desc_atomic,
                           0,
                           0,
                           "atomic_xor"},
    [B_GATHER] = {{"tl.gather", {"src", "index", "axis"}, 3, 8, 0}, bi_gather, 0, BF_TENSOR},
    [B_NEXT_POW2] = {{"triton.next_power_of_2", {"n"}, 1, 8, 0}, bi_next_pow2, 0, BF_TRITON},
    [B_SOFTMAX] = {{"tl.softmax", {"x", "dim", "keep_dims", "ieee_rounding"}, 1, 8, 0},
                   bi_softmax,
                   0,
                   BF_TENSOR},
    [B_INLINE_ASM] = {{"tl.inline_asm_elementwise",
                       {"asm", "constraints", "args", "dtype", "is_pure", "pack"},
                       6,
                       8,
                       0},
                      bi_inline_asm,
                      0},
    [B_DOT] = {{"tl.dot",
                {"input", "other", "acc", "input_precision", "allow_tf32", "max_num_imprecise_acc",
                 "out_dtype"},
                2,
                8,
                0},
               bi_dot,
               0},
};

void fe_bind_args(Interp *I, const PyNode *call, Builtin b, Args *out) {
    fe_bind_spec(I, call, &builtins[b].spec, out, NULL);
}

/* A builtin called: its row of the table binds the arguments (but for the
 * functions that bind their own) and names the handler. */
Val fe_call_builtin(Interp *I, const PyNode *call, Builtin b, const Val *self) {
    if (b >= B_COUNT) fe_fail(I, call->pos, "unsupported call");
    const BuiltinDef *d = &builtins[b];
    BuiltinCall c;
    c.b = b;
    c.fn = d->spec.display;
    c.pos = call->pos;
    c.call = call;
    c.self = self;
    c.arg = d->arg;
    if (d->call != bi_debug && d->call != bi_shape) fe_bind_spec(I, call, &d->spec, &c.A, self);
    return d->call(I, &c);
}
