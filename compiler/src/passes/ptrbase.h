/* Pointer bases (ptrbase.c): which parameter, or which tl.int_to_ptr
 * scalar, each pointer value of a function points into; which parameters
 * are written; the check that lanes of loops and ifs keep their base. */
#ifndef MT_PTRBASE_H
#define MT_PTRBASE_H

#include "ir/ssa.h"

/* The base of each pointer value: a parameter p (p <
 * nparams), a scalar pointer v made by int_to_ptr (nparams + v), or -1. */
int *ssa_pointer_bases(Arena *a, const Function *f);
/* Per runtime parameter: 1 if a store writes through it. */
int *ssa_written_params(Arena *a, const Function *f);
/* 0 after a diagnostic: a loop or if lane whose pointers change base. */
int ssa_check_pointer_lanes(MtContext *ctx, Arena *a, const Function *f);

#endif
