/* Regeneration of IR values at coordinates, shared by the tensor-core
 * emitters (emit_cuda_mma.c, emit_cuda_attn.c): an address, a mask or an
 * elementwise op is not held in registers but printed again for any (row,
 * column) of its block from its definition (aranges, program ids,
 * parameters, arithmetic). Each emitter keeps its own `render` of an
 * operand (its loop index, carried values, fragments and entry scalars)
 * and passes it here for the operands of an op. Internal to the compiler. */
#ifndef MT_CUDA_REGEN_H
#define MT_CUDA_REGEN_H

#include "backends/cuda/cuda_blocked.h"

/* An emitter's rendering of operand o at (row, col) of its block; axis:
 * for a rank-1 value, the dimension it runs along (0 rows, 1 columns). */
typedef const char *(*RegenRender)(void *emitter, Operand o, const char *row, const char *col,
                                   int axis);

/* The axis a value's rank-1 sources run along: a rank-2 value of one row
 * or one column passes its long dimension, any other keeps `axis`. */
int cuda_regen_value_axis(Type t, int axis);
/* The axis d's first operand is rendered with where d is a shape op that
 * places a rank-1 value (expand_dims: the kept dimension; broadcast: the
 * columns, as numpy's); -2: d is not one (OP_HINT passes axis through). */
int cuda_regen_arg_axis(const Function *f, const Inst *d, int axis);

/* The instruction d at (row, col), its operands through `render`
 * (cb supplies the arena, the function and the op printer). */
const char *cuda_regen_op(CudaB *cb, const Inst *d, const char *row, const char *col, int axis,
                          RegenRender render, void *emitter);
/* A scalar load `d` through pointer base `base` (a C name), its index,
 * mask and `other` rendered at (0, 0): a kernel entry's scalar. */
const char *cuda_regen_scalar_load(Arena *a, const Inst *d, const char *base, RegenRender render,
                                   void *emitter);
/* The number of uses of value v in block b and its nested loops (inits,
 * yields and bounds included). */
int cuda_regen_uses(const Block *b, int v);

#endif
