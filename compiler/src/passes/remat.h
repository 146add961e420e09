/* Index blocks rematerialized per orientation (before the tile-shape
 * analysis; DESIGN 6, docs/design.md "Tiles"). */
#ifndef MT_REMAT_H
#define MT_REMAT_H

#include "ir/ssa.h"

/* A rank-1 block computed from aranges, scalars and constants alone by pure
 * elementwise ops (`cols = start_n + tl.arange(0, BLOCK_N)`) and used both
 * as the rows (`cols[:, None]`) and as the columns (`cols[None, :]`) of a
 * rank-2 tile would have to move between threads; it costs a few integer
 * ops per element, so each expand_dims of the minority orientation gets a
 * copy of the chain instead, placed just before it. Other kernels are left
 * as they are. Returns the number of chains copied. */
int remat_index_blocks(Arena *a, Function *f);

#endif
