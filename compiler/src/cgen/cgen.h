/* What the C-like backends (CUDA, host C, launchers) share: C type names,
 * constant literals, and the renaming of parameter names that collide with
 * C, C++ or CUDA keywords and builtins or with generated names. */
#ifndef MT_CGEN_H
#define MT_CGEN_H

#include "ir/ssa.h"

typedef enum CDialect { C_CUDA, C_HOST } CDialect;

/* A register's C type (the compute dtype's: 16- and 8-bit floats are
 * "float"), in CUDA spelling / in a dialect; an element's type in memory. */
const char *c_type(DType dt); /* "float", "int", "bool" */
const char *c_type_in(DType dt, CDialect d);
const char *c_mem_type(DType dt, CDialect d); /* "__half" (CUDA), "mytriton_fp16" (host) */
/* An element read from memory as a register value; a register value as an
 * element; a register value rounded to its dtype after an operation (the
 * identity unless the dtype computes in a wider type). From dtypes.def. */
const char *c_load(Arena *a, DType dt, CDialect d, const char *elem);
const char *c_store(Arena *a, DType dt, CDialect d, const char *value);
const char *c_round(Arena *a, DType dt, CDialect d, const char *value);
const char *c_param_type(Arena *a,
                         Type t); /* a CUDA kernel parameter: "float*", "__half*", "int" */
const char *c_launcher_type(Arena *a, Type t,
                            int is_const); /* "const float*", "int32_t", "mytriton_fp16" */
/* The bytes of a CUDA kernel's parameter space as c_param_type declares
 * the parameters: each aligned to its own size, in order (a pointer 8
 * bytes, a scalar its register type's size). */
long long c_param_bytes(const Function *f);
/* A constant as a C expression of its own type. */
const char *c_const(Arena *a, ConstVal c, CDialect d);
const char *c_zero(DType dt); /* "0.0f", "0", "false" */
/* The dtype operand k of `in` takes part in the op as (its computation
 * dtype: a constant converts to it). */
DType c_operand_dtype(Arena *a, const Function *f, const Inst *in, int k);
/* A constant operand as a C literal for an op computing in `opdt` (the
 * seed's i32/f32/bool constants print as written). */
const char *c_operand_const(Arena *a, ConstVal c, DType opdt, CDialect d);
/* An elementwise op as a C expression of its result's register type, over
 * operands already rendered (x[k]: a register value, or c_operand_const);
 * NULL for the ops a backend renders itself (loads, stores, reductions,
 * aranges, ...). Narrow floats are rounded after inexact operations. */
const char *c_op_expr(Arena *a, CDialect d, const Function *f, const Inst *in,
                      const char *const *x);
/* A register value converted from one dtype to another, as Triton's cast
 * (rtz: fp_downcast_rounding="rtz"); a reinterpretation of its bits. */
const char *c_cast_expr(Arena *a, CDialect d, DType from, DType to, int rtz, const char *x);
const char *c_bitcast_expr(Arena *a, CDialect d, DType from, DType to, const char *x);
/* The __device__ helpers of Triton's instructions (mt_ex2_approx,
 * mt_ex2_approx_ftz, mt_sqrt_approx, mt_rsqrt_approx, mt_div_full,
 * mt_frem_f32, mt_frem_f64) that ops_math.def's triton_f32 column and the
 * -O2 division and remainder use, and -O2's guarded integer maximum and
 * minimum (mt_max_s32, mt_min_s32, mt_max_u32, mt_min_u32): the
 * definitions of those that `code` calls, to precede it once in its
 * translation unit ("" when none). */
const char *c_triton_helpers(Arena *a, const char *code);
/* remap (ops.def OP_REMAP): the row-major index in operand 0 of the result
 * element whose row-major index is the C int expression `e` (0 <= e <
 * the result's element count): voff + sum over k of
 * (e / prod(vdims[k+1..]) % vdims[k]) * vstride[k]. */
const char *c_remap_index(Arena *a, const Attrs *at, const char *e);
/* gather (ops.def OP_GATHER): the row-major position in operand 0 of the
 * result element at row-major position `p`, whose index (operand 1's
 * element there) is the C expression `idx`. An index out of range reads
 * element 0 along the axis (Triton leaves it undefined). */
const char *c_gather_index(Arena *a, const Function *f, const Inst *in, const char *p,
                           const char *idx);
/* An op template ({0} {1} {2}: operands; {f}: "f" unless ct is f64) filled. */
const char *c_template(Arena *a, const char *tmpl, const char *const *x, DType ct);
/* The C names of the function's parameters: the Python names, except where
 * they would collide; deterministic. */
const char **c_param_names(Arena *a, const Function *f);
/* device_print's printf format for one element of a value of type `t`,
 * operand `operand` of `noperands` (Triton's:
 * "pid (%u, %u, %u) idx (%3u)%s%f\n", the prefix passed as the %s, "(operand
 * i) " after it when there are several), as the text of a C string literal. */
const char *c_print_format(Arena *a, Type t, int hex, int operand, int noperands);
/* The type device_print shows for its operand of type t: the logical
 * shape of a block of rank 3 or 4 that the rank lowering folded (its
 * attributes' shape), else t. */
Type c_print_type(const Attrs *at, Type t);
/* Appends ", " and `fmt` (a printf format of one %s: "(unsigned)%s") of
 * each index of the printed type of the element at (idx[0], idx[1]) of t
 * (rank <= 2; a folded block's row idx[0] split into its leading indices,
 * each in parentheses). */
void c_print_indices(StrBuf *args, Arena *a, const Attrs *at, Type t, const char *const *idx,
                     const char *fmt);
/* A register value of dtype `dt` (floats: in their compute type) as the
 * printf argument of c_print_format's conversion. */
const char *c_print_arg(Arena *a, DType dt, int hex, const char *v);
/* Whether `name` is reserved in the generated C/CUDA. */
int c_name_reserved(const char *name);

#endif
