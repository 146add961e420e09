/* Types (DESIGN 5): scalars i32, f32, bool; pointers ptr<T>; blocks of
 * rank 1 (vector<N x T>) and rank 2 (block<RxC x T>) of either. Also the
 * constant values and op attributes that the IRs share, and the type rule
 * of every opcode (used by the frontend's inference and by the verifier). */
#ifndef MT_TYPES_H
#define MT_TYPES_H

#include <stdint.h>

#include "arena.h"
#include "ops.h"

typedef enum DType { DT_NONE = 0, DT_BOOL, DT_I32, DT_F32 } DType;

/* The largest block: 2^20 elements, as Triton. */
#define MT_MAX_NUMEL (1 << 20)

typedef struct Type {
    uint8_t dtype; /* element type, or the pointee of a pointer */
    uint8_t ptr;   /* a pointer (to dtype) */
    uint8_t rank;  /* 0 scalar, 1 vector, 2 block */
    int32_t dims[2];
} Type;

Type type_scalar(DType dt);
Type type_ptr(DType pointee);
Type type_with_shape(Type elem, int rank, const int32_t *dims);
Type type_elem(Type t); /* the same type with rank 0 */
int type_eq(Type a, Type b);
int64_t type_numel(Type t);
int type_is_numeric(Type t); /* i32 or f32, not a pointer */
const char *dtype_name(DType dt); /* "i32", "f32", "bool" */
const char *type_str(Arena *a, Type t);
/* NumPy broadcasting of two shapes (rank <= 2). 0 if incompatible. */
int shape_broadcast(Type a, Type b, Type *out_shape);
const char *shape_str(Arena *a, Type t); /* "(4, 8)", "(8,)", "()" */

/* A compile-time constant of a scalar type. */
typedef struct ConstVal {
    DType dt;
    int64_t i; /* DT_I32, DT_BOOL */
    double f;  /* DT_F32: the Python float (a double) */
} ConstVal;

ConstVal const_i32(int64_t v);
ConstVal const_f32(double v);
ConstVal const_bool(int v);
int const_eq(ConstVal a, ConstVal b); /* same type and bits */
/* Python repr(): 0, 0.0, 1e-05, -inf, nan, True. */
const char *const_repr(Arena *a, ConstVal c);
/* Python's repr of a float: the shortest round-trip digits, written as
 * Python writes them. buf needs 32 bytes. */
void py_float_repr(double v, char *buf);
/* Converts a constant to another scalar type (numeric to numeric). */
ConstVal const_convert(ConstVal c, DType to);

/* Op attributes. */
typedef struct Attrs {
    int axis;          /* program_id, expand_dims */
    int start, end;    /* arange */
    int rank;          /* zeros, full, empty: the shape */
    int32_t shape[2];
    DType dtype;
} Attrs;

/* The result type of `op` applied to operands of types args[0..n) (absent
 * optional operands have present[i] == 0). Returns 1 and sets *out, or 0
 * and sets *err to a message naming the operand types. */
int op_result_type(Arena *a, Op op, const Type *args, const int *present, const Attrs *attrs,
                   Type *out, const char **err);
/* The same, with `display` naming the operation in messages ("'+'",
 * "tl.load") instead of its SSA spelling. */
int op_result_type_named(Arena *a, Op op, const char *display, const Type *args, const int *present,
                         const Attrs *attrs, Type *out, const char **err);
/* Whether a value of type `from` may be converted to dtype `to` on a load's
 * other / a store's value / a fill (numeric to numeric, bool to bool). */
int dtype_convertible(DType from, DType to);

#endif
