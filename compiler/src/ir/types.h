/* Types (DESIGN 5): scalars of every dtype of dtypes.def; pointers ptr<T>;
 * blocks of rank 1 (vector<N x T>) and rank 2 to MT_MAX_RANK
 * (block<RxC x T>, block<AxBxC x T>) of either. Blocks of rank 3 and more
 * exist between the frontend and the rank lowering (rank.c), which folds
 * them into rank-2 blocks for the backends.
 * Also the constant values and op attributes that the IRs share, and the
 * type rule of every opcode (used by the frontend's inference and by the
 * verifier), with Triton's promotion rules. */
#ifndef MT_TYPES_H
#define MT_TYPES_H

#include <stdint.h>

#include "base/arena.h"
#include "base/ops.h"

typedef enum DType {
    DT_NONE = 0,
#define DT(id, triton, sig, ssa, cls, bits, mant, flags, compute, cuda, cl, cs, host, hl, hs, \
           header, mlir, arg)                                                                 \
    DT_##id,
#include "base/dtypes.def"
#undef DT
    DT_COUNT
} DType;

typedef enum DClass { DC_NONE, DC_BOOL, DC_SINT, DC_UINT, DC_FLOAT } DClass;
/* A dtype's flags (dtypes.def's flags column). */
enum { DTF_FP8 = 1 << 0 /* an 8-bit float (Triton's fp8 types) */ };

/* One row of dtypes.def. */
typedef struct DTypeInfo {
    const char *triton, *sig, *ssa;
    DClass cls;
    int bits, mant, flags;
    DType compute;
    const char *cuda, *cuda_load, *cuda_store;
    const char *host, *host_load, *host_store;
    const char *header, *mlir, *arg;
} DTypeInfo;

extern const DTypeInfo dtype_table[DT_COUNT];
static inline const DTypeInfo *dtype_info(DType dt) { return &dtype_table[dt]; }
static inline int dtype_is_float(DType dt) { return dtype_table[dt].cls == DC_FLOAT; }
static inline int dtype_is_int(DType dt) { /* bool counts, as Triton's int1 */
    return dtype_table[dt].cls == DC_SINT || dtype_table[dt].cls == DC_UINT ||
           dtype_table[dt].cls == DC_BOOL;
}
static inline int dtype_is_signed(DType dt) {
    return dtype_table[dt].cls == DC_SINT || dtype_table[dt].cls == DC_BOOL;
}
static inline int dtype_is_unsigned(DType dt) { return dtype_table[dt].cls == DC_UINT; }
static inline int dtype_is_fp8(DType dt) { return (dtype_table[dt].flags & DTF_FP8) != 0; }
/* Bytes in memory (bool: 1). */
static inline int dtype_bytes(DType dt) {
    return dtype_table[dt].bits < 8 ? 1 : dtype_table[dt].bits / 8;
}
/* By Triton name ("float16"), signature spelling ("fp16") or SSA spelling
 * ("f16"); DT_NONE if none. */
DType dtype_by_triton(const char *name);
DType dtype_by_sig(const char *name);
DType dtype_by_ssa(const char *name);
/* Integer limits of an integer dtype (bool: 0..1). */
int64_t dtype_int_min(DType dt);
uint64_t dtype_int_max(DType dt);

/* The largest block: 2^20 elements, as Triton. */
#define MT_MAX_NUMEL (1 << 20)

/* The largest rank of a block. */
#define MT_MAX_RANK 4

typedef struct Type {
    uint8_t dtype; /* element type, or the pointee of a pointer */
    uint8_t ptr;   /* a pointer (to dtype) */
    uint8_t rank;  /* 0 scalar, 1 vector, 2 and more block */
    int32_t dims[MT_MAX_RANK];
} Type;

Type type_scalar(DType dt);
Type type_ptr(DType pointee);
Type type_with_shape(Type elem, int rank, const int32_t *dims);
Type type_elem(Type t); /* the same type with rank 0 */
int type_eq(Type a, Type b);
int64_t type_numel(Type t);
int type_is_numeric(Type t);      /* a number or a bool, not a pointer */
const char *dtype_name(DType dt); /* the SSA spelling: "i32", "f32", "bool" */
const char *type_str(Arena *a, Type t);
/* NumPy broadcasting of two shapes. 0 if incompatible. */
int shape_broadcast(Type a, Type b, Type *out_shape);
const char *shape_str(Arena *a, Type t); /* "(4, 8)", "(8,)", "()" */
/* Why x (a block of any element type, pointers included) does not
 * broadcast to the shape (rank, shape) (Triton's rule: the same rank, each
 * dimension 1 or the target's; a scalar always does), or NULL. */
const char *broadcast_error(Arena *a, const char *name, Type x, int rank, const int32_t *shape);

/* A compile-time constant of a scalar type. Integers keep their bits in
 * `i` (unsigned 64-bit values as their two's complement); floats keep
 * their value in `f`, already rounded to the dtype. */
typedef struct ConstVal {
    DType dt;
    int64_t i; /* integer and bool dtypes */
    double f;  /* float dtypes */
} ConstVal;

ConstVal const_i32(int64_t v);
ConstVal const_f32(double v);
ConstVal const_bool(int v);
ConstVal const_int(DType dt, int64_t v);  /* wrapped to the dtype's width */
ConstVal const_float(DType dt, double v); /* rounded to the dtype (RNE) */
/* The dtype Triton gives a Python int / float literal (to_tensor): i32,
 * u32, i64 or u64 by range; f32, or f64 beyond f32's range. */
DType const_int_dtype(int64_t v, int is_unsigned_big);
DType const_float_dtype(double v);
int const_eq(ConstVal a, ConstVal b); /* same type and bits */
/* Python repr(): 0, 0.0, 1e-05, -inf, nan, True. */
const char *const_repr(Arena *a, ConstVal c);
/* Python's repr of a float: the shortest round-trip digits, written as
 * Python writes them. buf needs 32 bytes. */
void py_float_repr(double v, char *buf);
/* Converts a constant to another dtype with Triton's cast semantics
 * (ints wrap, floats round to nearest even, float to int truncates and
 * saturates, NaN to int is 0, to bool is != 0). */
ConstVal const_convert(ConstVal c, DType to);
/* A float constant's value as a double / an integer constant's value. */
double const_as_double(ConstVal c);
/* Rounds a double to a float dtype's precision and range (RNE, overflow to
 * inf; fp8e4nv saturates, it has no inf). */
double round_to_dtype(double v, DType dt);

/* Op attributes. */
typedef struct Attrs {
    int axis;       /* program_id, num_programs, expand_dims; dot: the batch count
                     * of the rank lowering's batched form (0 or 1: none) */
    int start, end; /* arange */
    int rank;       /* zeros, full, empty, reshape, broadcast, remap: the shape */
    int32_t shape[MT_MAX_RANK];
    /* trans of a block of rank 3 or more: result axis k is operand axis
     * perm[k] (rank 2: no attribute, the swap) */
    int32_t perm[MT_MAX_RANK];
    /* remap (rank.c): the result's element e, written as the row-major
     * multi-index (i_0, ..., i_{nv-1}) over vdims, is operand element
     * voff + sum_k i_k * vstride[k] (a stride of 0 repeats, one below 0
     * reverses) */
    int nv;
    int32_t vdims[MT_MAX_RANK], vstride[MT_MAX_RANK];
    int32_t voff;
    DType dtype; /* zeros, full, empty, cast, bitcast */
    int flag;    /* cast: 1 = round toward zero (fp_downcast_rounding="rtz");
                        * maximum/minimum: 1 = NaN is ignored (PropagateNan.NONE);
                        * device_print: 1 = hex */
    const char
        *text; /* device_print: the prefix; device_assert: the message; inline asm: the PTX */
    const char *constraints; /* inline asm: its constraints, LLVM's spelling ("=r,r") */
    int pack;                /* inline asm: the elements one instance takes */
    int nresults;            /* inline asm of several results (2 to 4): their dtypes; the */
    int32_t results[4];      /* op gives result `axis` (0 and none: one result, `dtype`) */
    const char *file;        /* device_assert: the file name, for the message */
    const char *func;        /* device_assert: the kernel's name, for the message */
    int rmw, sem, scope;     /* atomics: AtomicRmw, AtomicSem, AtomicScope (ops.h) */
} Attrs;

/* Operand flags of a type rule. */
enum {
    ARG_PRESENT = 1, /* the operand is given (a mask may be absent) */
    ARG_WEAK = 2     /* a Python scalar: does not take part in promotion
                      * unless of a higher kind (Triton's rule 0) */
};

/* The result type of `op` applied to operands of types args[0..n) (absent
 * optional operands have present[i] == 0). Returns 1 and sets *out, or 0
 * and sets *err to a message naming the operand types. */
int op_result_type(Arena *a, Op op, const Type *args, const int *present, const Attrs *attrs,
                   Type *out, const char **err);
/* The same, with `display` naming the operation in messages ("'+'",
 * "tl.load") instead of its SSA spelling. */
int op_result_type_named(Arena *a, Op op, const char *display, const Type *args, const int *present,
                         const Attrs *attrs, Type *out, const char **err);
/* The same with ARG_* flags per operand. */
int op_result_type_ex(Arena *a, Op op, const char *display, const Type *args, const uint8_t *flags,
                      const Attrs *attrs, Type *out, const char **err);
/* Why Triton rejects atomic `op` (rmw: AtomicRmw of atomic_rmw) on elements
 * of `dt`, or NULL when it accepts it (semantic.py's
 * atom_red_typechecking_impl and atomic_cas). */
const char *atomic_dtype_error(Op op, int rmw, DType dt);
/* Whether a value of type `from` may be converted to dtype `to` on a load's
 * other / a store's value / a fill (Triton casts implicitly there). */
int dtype_convertible(DType from, DType to);

/* Triton's computation type of a binary operation (semantic.py's
 * computation_type_impl): 0 and *err when there is none. `div_or_mod`: '/'
 * and '%'. */
DType promote_dtypes(Arena *a, DType x, int x_weak, DType y, int y_weak, int div_or_mod,
                     const char **err);
/* Triton's integer promotion (the usual arithmetic conversions). */
DType integer_promote(DType x, DType y);
/* Whether an operand of dtype `from` may feed an op computing in `to`
 * without an explicit cast: the same dtype, or the seed's implicit i32 to
 * f32 conversion that C performs. */
int dtype_implicit(DType from, DType to);

#endif
