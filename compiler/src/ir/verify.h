/* The SSA verifier (DESIGN 3.6, the seed's recursive rules). It runs after
 * lowering and after every pass; backends read verified SSA only. */
#ifndef MT_VERIFY_H
#define MT_VERIFY_H

#include "ir/ssa.h"

/* 1 if valid; else 0 and *err describes the first violation. */
int ssa_verify(Arena *a, const Function *f, const char **err);

#endif
