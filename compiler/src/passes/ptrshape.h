/* Blocks of pointers through shape ops and selects (ptrshape.c). The CUDA
 * and host backends hold a pointer as an element index from one base and
 * follow addptr chains to it; this pass rewrites every shape op and select
 * of pointers into an addptr chain over shape ops and selects of integer
 * offsets, so that they see none. */
#ifndef MT_PTRSHAPE_H
#define MT_PTRSHAPE_H

#include "ir/ssa.h"

/* Pushes shape ops (expand_dims, broadcast, reshape, trans, split, ...)
 * and selects of pointers down their addptr chains; a select of two
 * scalar pointers of different bases becomes an address chosen and cast
 * back (int_to_ptr), as a runtime if's. Run at every level, after the
 * rank lowering. What it leaves (ptrshape_check) is a block of pointers
 * no chain reaches: a loop's or an if's, or a choice of bases per
 * element. */
int pass_pointer_shapes(Arena *a, Function *f); /* 1 if it changed f */

/* 0 after a diagnostic: a shape op or select of pointers that
 * pass_pointer_shapes left, which the CUDA and host backends cannot hold
 * (the MLIR backend, whose pointers are addresses, takes them). */
int ptrshape_check(MtContext *ctx, const Function *f);

#endif
