/* Tile-shape analysis (DESIGN 8): how a kernel's values map to the threads
 * of a CUDA block. The tile is the broadcast of all rank-2 shapes (rank-1
 * widths must equal one tile dimension or the whole tile), or the one
 * rank-1 width, or 1 for scalar kernels. Each value gets a layout: which
 * thread coordinate indexes its element. Recurses into loop bodies. */
#ifndef MT_SHAPE_H
#define MT_SHAPE_H

#include "ssa.h"

typedef enum Layout {
    LAYOUT_UNIFORM, /* one element (scalars, width-1 blocks): every thread holds it */
    LAYOUT_FLAT,    /* element threadIdx.x: rank-1 kernels, reductions */
    LAYOUT_ROWS,    /* element tile_i: (R, 1) blocks, rank-1 blocks expanded at axis 1 */
    LAYOUT_COLS,    /* element tile_j: (1, C) blocks, rank-1 blocks broadcast as rows */
    LAYOUT_TILE     /* element (tile_i, tile_j): (R, C) blocks */
} Layout;

typedef struct TileInfo {
    int rank;       /* 0: scalar kernel, 1: rank-1, 2: rank-2 tile */
    int rows, cols; /* rank 2: R and C; rank 1: cols is the width */
    int threads;    /* elements of the tile (one thread each at -O1) */
    Layout *layout; /* by value number */
    /* How the CUDA backend spreads the tile over a block: each thread
     * holds tm x tn elements (rank 1: tn consecutive ones) and the block
     * has block_threads threads. shape_analyze() sets 1, 1, threads; the
     * -O2 backend may choose more elements per thread. */
    int tm, tn;
    int block_threads;
} TileInfo;

/* 0 after a diagnostic (at the op that breaks the rule). max_elements is
 * the largest tile: the CUDA block limit (1024) with one thread per
 * element, more when threads hold several elements. */
int shape_analyze(MtContext *ctx, const Function *f, int max_elements, TileInfo *out);
const char *tile_str(Arena *a, const TileInfo *t); /* "(16, 16)", "(256,)", "()" */
/* In a rank-2 kernel an arange is not a value of its own but an index
 * (tile_i, tile_j or threadIdx.x) chosen by each use: the layout that
 * operand `k` of `user` needs. */
Layout shape_use_layout(const TileInfo *t, const Function *f, const Inst *user, int k);

#endif
