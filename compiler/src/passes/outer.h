/* -O2: the outer-product accumulation loop (outer.c, issue 14): the IR
 * rewrite of its carried pointer lanes and the analysis the CUDA backend's
 * staged emission (emit_cuda_fma.c) reads. */
#ifndef MT_OUTER_H
#define MT_OUTER_H

#include "passes/passes.h"

typedef struct OuterLoop {
    const Inst *loop;      /* the `for` */
    int acc_lane;          /* its accumulator lane (0 after outer_match) */
    const Inst *add, *mul; /* acc + X * Y */
    Operand x, y;          /* X (R, 1), varying along rows; Y (1, C), along columns */
} OuterLoop;

/* The rewrite (every backend, -O2): in a loop with an outer-product
 * accumulator, each carried pointer lane advanced by a loop-invariant i32
 * offset and unused after the loop becomes `init + t * delta` computed
 * from the iteration number t, and the lane is removed. */
void pass_outer(Arena *a, Function *f, PassStats *st);

/* Whether `loop` is an outer-product loop the staged emission handles:
 * one carried lane, acc + X * Y, X and Y pure chains of elementwise ops
 * over loads of the loop index and values from before the loop, a
 * constant positive step, nothing else in the body but pure ops and loads.
 * Fills *m. */
int outer_match(const Function *f, const Inst *loop, OuterLoop *m);

/* The pointer parameter an addptr chain starts from (-1: none). */
int outer_pointer_base(const Function *f, Operand o);

#endif
