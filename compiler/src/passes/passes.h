/* The optimization pipeline (DESIGN 7) and what its passes share.
 *   -O0: lowering and verification only.
 *   -O1: the seed's pipeline: fold, CSE, DCE; a kernel with runtime loops
 *        is verified but not rewritten (the seed's conservative rule).
 *   -O2: region-aware fold, CSE and DCE, plus the removal of invariant
 *        lanes, loop-invariant code motion and the rewrite of outer-product loops' pointer lanes
  * (outer.h).
 * The verifier runs after every pass. */
#ifndef MT_PASSES_H
#define MT_PASSES_H

#include "ir/ssa.h"

typedef struct PassStats {
    int folded, merged, removed, hoisted;
} PassStats;

/* Each pass handles regions: values never move or merge across a region
 * boundary except as LICM hoists loop-invariant values out of a loop. */
void pass_fold(Arena *a, Function *f, PassStats *st);
/* -O1: the seed's folding, identities with the constant on the right only */
void pass_fold_seed(Arena *a, Function *f, PassStats *st);
void pass_cse(Arena *a, Function *f, PassStats *st);
void pass_dce(Arena *a, Function *f, PassStats *st);
void pass_licm(Arena *a, Function *f, PassStats *st);
/* -O2: lanes carried unchanged, and if results equal in both branches (lanes.c) */
void pass_lanes(Arena *a, Function *f, PassStats *st);

/* Runs the pipeline of `opt_level`. 0 after an internal-error diagnostic
 * (a verifier failure names the pass). */
int passes_run(MtContext *ctx, Function *f, int opt_level, PassStats *st);

/* Shared helpers. */
int ssa_has_loops(const Function *f);
/* Replaces uses by a map value -> operand (kind OPD_NONE: keep), following
 * chains, in every item of `b` (recursively). */
void ssa_apply_replacements(Block *b, const Operand *repl);
Operand ssa_resolve(const Operand *repl, Operand o);

#endif
