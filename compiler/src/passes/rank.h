/* The rank lowering (DESIGN 3, stage 6b): the frontend builds blocks of
 * rank 3 and 4 as Triton does; this pass folds each into a rank-2 block of
 * the same elements in the same row-major order, so that the passes, the
 * tile analysis and every backend see ranks 0 to 2 only. */
#ifndef MT_RANK_H
#define MT_RANK_H

#include "ir/ssa.h"

/* Whether some value of f has rank 3 or more. */
int rank_needs_lowering(const Function *f);

/* Folds every block of rank 3 and more (rank.c's header comment says how).
 * 0 after a diagnostic (a construct the lowering cannot express). */
int pass_rank(MtContext *ctx, Function *f);

#endif
