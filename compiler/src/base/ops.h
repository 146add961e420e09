/* Opcodes: one enum and one table of properties (ops.def), used by the
 * frontend, type rules, printer, verifier, passes and backends. */
#ifndef MT_OPS_H
#define MT_OPS_H

/* The most operands an op takes: inline asm's arguments (ops.def's 8). */
enum { MT_MAX_OPERANDS = 8 };

enum {
    OPF_PURE = 1 << 0,        /* no side effect, no memory read: CSE, LICM, DCE */
    OPF_READS = 1 << 1,       /* reads memory: removable when unused, not merged */
    OPF_WRITES = 1 << 2,      /* writes memory: never removed */
    OPF_NO_RESULT = 1 << 3,   /* defines no value */
    OPF_REGION = 1 << 4,      /* has a body region */
    OPF_ARITH = 1 << 5,       /* numeric operands, promoted */
    OPF_CMP = 1 << 6,         /* numeric operands, bool result */
    OPF_LOGIC = 1 << 7,       /* integer or bool operands */
    OPF_COMMUTATIVE = 1 << 8, /* operands may be swapped */
    OPF_REDUCE = 1 << 9,      /* a reduction (Attrs: axis, RED_* flags) */
    OPF_CALL = 1 << 10,       /* callable as tl.<spelling>(...) and tl.math.<spelling>(...) */
    OPF_SCAN = 1 << 11,       /* an inclusive scan along an axis (Attrs: axis, RED_* flags) */
    OPF_LIBDEVICE = 1 << 12,  /* callable as libdevice.<spelling>(...) only (ops_math.def) */
    OPF_VARIADIC = 1 << 13    /* takes 0 to `operands` operands (inline asm's arguments) */
};

/* Attrs.flag of reductions and scans (AT_REDUCE). A reduction without
 * RED_AXIS is the rank-1 full reduction to a scalar (printed without
 * attributes); with it, Attrs.axis is the axis reduced (0 or 1), or -1 for
 * every element of a rank-2 block (axis=None). */
enum {
    RED_AXIS = 1 << 0,      /* the generic axis path: prints {axis=...} */
    RED_KEEP_DIMS = 1 << 1, /* the reduced axis stays, of size 1 */
    RED_REVERSE = 1 << 2    /* a scan from the last element to the first */
};

/* What kind of op an op is (ops.def's class column). A switch over ops
 * handles a class, so a new row of a class reaches every such switch. */
typedef enum OpClass {
    OC_INDEX,   /* program_id, num_programs, arange: where the element is */
    OC_CREATE,  /* zeros, full, empty: a block from a scalar */
    OC_SHAPE,   /* expand_dims, reshape, trans, broadcast, join, split, remap,
                 * xor_shuffle, gather: elements moved, not computed */
    OC_UNARY,   /* neg, abs */
    OC_MATH,    /* the functions of ops_math.def (MATH and LIBDEVICE rows) */
    OC_BINARY,  /* arithmetic: add ... umulhi */
    OC_COMPARE, /* cmp_*: a bool result */
    OC_BITWISE, /* and, or, xor, shl, shr */
    OC_CONVERT, /* cast, bitcast */
    OC_HINT,    /* multiple_of, max_contiguous, max_constancy */
    OC_SELECT,  /* tl.where */
    OC_POINTER, /* addptr, int_to_ptr, ptr_to_int */
    OC_MEMORY,  /* load, store */
    OC_REDUCE,  /* reductions along an axis or to a scalar */
    OC_SCAN,    /* inclusive scans along an axis */
    OC_DEBUG,   /* device_print, device_assert, debug_barrier */
    OC_ATOMIC,  /* atomic_rmw, atomic_cas */
    OC_DOT,     /* tl.dot */
    OC_REGION,  /* for, if, while */
    OC_ASM      /* inline asm (pure or volatile) */
} OpClass;

/* The type rule's class of an op (types.c). */
typedef enum TypeRule {
    TR_SPECIAL,      /* a rule of its own */
    TR_UNARY_NUM,    /* a number; the result has its type */
    TR_UNARY_FLOAT,  /* an f32 or f64; the result has its type (Triton's math functions) */
    TR_UNARY_F32,    /* an f32 (Triton's sqrt_rn) */
    TR_ARITH,        /* promoted numbers (Triton's computation type) */
    TR_DIV,          /* true division: floats, integers as f32 */
    TR_DIV_F32,      /* division of two f32 (Triton's div_rn) */
    TR_DIVMOD,       /* '%': promoted with '/'-'%' rules */
    TR_INT_DIVMOD,   /* '//': promoted integers */
    TR_FMA,          /* three floats of one type */
    TR_BINARY_FLOAT, /* an f32 or f64 and a number converted to it (libdevice's pow, atan2) */
    TR_UMULHI,       /* two integers of one 32- or 64-bit type */
    TR_CMP,          /* promoted, a bool result */
    TR_BITWISE,      /* promoted integers or bools */
    TR_SHIFT,        /* promoted integers */
    TR_SELECT        /* a bool condition and two promoted values */
} TypeRule;

/* Which attributes an op has, for the printers. */
typedef enum AttrKind {
    AT_NONE,
    AT_AXIS,
    AT_RANGE,
    AT_SHAPE,
    AT_DTYPE,
    AT_NAN,
    AT_HINT,
    AT_PRINT,  /* device_print: text (the prefix), flag (hex), start/end (operand i of n) */
    AT_ASSERT, /* device_assert: text (the message), file */
    AT_DIMS,   /* a shape without a dtype: reshape, broadcast */
    AT_INDEX,  /* split: which element of the last axis ({index=k}, in `axis`) */
    AT_REDUCE, /* reductions and scans: {axis=1, keep_dims} / {axis=0, reverse} */
    AT_ATOMIC, /* atomics: {rmw} (atomic_rmw), {sem}, {scope} */
    AT_DOT,    /* tl.dot: {input_precision=..., max_num_imprecise_acc=N} */
    AT_PERM,   /* trans: {perm=[2, 0, 1]} at rank 3 and more (rank 2: none) */
    AT_REMAP,  /* remap: {shape=(R, C), dims=[...], strides=[...], offset=N} */
    AT_ASM     /* inline asm: {asm="...", constraints="...", pack=N, dtype=...} */
} AttrKind;

/* An atomic read-modify-write's operation (Attrs.rmw), its memory
 * semantics (Attrs.sem) and scope (Attrs.scope): Triton's spellings, the
 * default first. */
typedef enum AtomicRmw {
    RMW_ADD,
    RMW_MAX,
    RMW_MIN,
    RMW_AND,
    RMW_OR,
    RMW_XOR,
    RMW_XCHG,
    RMW_COUNT
} AtomicRmw;
typedef enum AtomicSem { SEM_ACQ_REL, SEM_ACQUIRE, SEM_RELEASE, SEM_RELAXED, SEM_COUNT } AtomicSem;
typedef enum AtomicScope { SCOPE_GPU, SCOPE_CTA, SCOPE_SYS, SCOPE_COUNT } AtomicScope;
extern const char *const atomic_rmw_names[RMW_COUNT];     /* add max min and or xor xchg */
extern const char *const atomic_sem_names[SEM_COUNT];     /* acq_rel acquire release relaxed */
extern const char *const atomic_scope_names[SCOPE_COUNT]; /* gpu cta sys */

/* tl.dot's input_precision (Attrs.flag of OP_DOT; start holds
 * max_num_imprecise_acc). Only f32 operands read it. */
typedef enum DotPrecision { DOT_TF32 = 0, DOT_IEEE = 1, DOT_TF32X3 = 2 } DotPrecision;

typedef enum Op {
#define OP(id, name, nargs, cls, flags, rule, attrs, cop, tmpl, mlir, meaning) OP_##id,
#include "base/ops.def"
#undef OP
    OP_COUNT
} Op;

typedef struct OpInfo {
    const char *name;
    int nargs;
    OpClass cls;
    int flags;
    TypeRule rule;
    AttrKind attrs;
    const char *c_op;
    const char *c_tmpl;
    const char *mlir;
    const char *meaning;
} OpInfo;

extern const OpInfo op_table[OP_COUNT];
/* Triton's f32 lowering of a math function as a CUDA expression (the
 * triton_f32 column of ops_math.def), or "" when it is the C template's. */
extern const char *const op_triton_f32[OP_COUNT];

static inline const OpInfo *op_info(Op op) { return &op_table[op]; }
static inline int op_has(Op op, int flag) { return (op_table[op].flags & flag) != 0; }
static inline OpClass op_class(Op op) { return op_table[op].cls; }
/* The elementwise ops the tables render (the classes unary .. bitwise). */
static inline int op_is_elementwise(Op op) {
    OpClass c = op_table[op].cls;
    return c == OC_UNARY || c == OC_MATH || c == OC_BINARY || c == OC_COMPARE || c == OC_BITWISE;
}

/* Whether op can be recomputed from its definition at any coordinates
 * (the CUDA backends' regeneration of operands, the layout stage's
 * outer-product plan): the index ops, casts, shape ops and the pure
 * elementwise ops of the tables. */
int op_regenerable(Op op);

#endif
