/* Tile-shape analysis (DESIGN 8): how a kernel's values map to the threads
 * of a CUDA block. The tile is the broadcast of all rank-2 shapes (rank-1
 * widths must equal one tile dimension or the whole tile), or the one
 * rank-1 width, or 1 for scalar kernels. Each value gets a layout: which
 * thread coordinate indexes its element. Recurses into loop bodies. */
#ifndef MT_SHAPE_H
#define MT_SHAPE_H

#include "ir/ssa.h"

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
    /* A kernel with tl.dot (its (M, K), (K, N) and (M, N) blocks), or with a
     * transpose or reshape between rank-2 shapes: its blocks do not
     * broadcast, so the tile is their bounding box and a smaller block
     * occupies the threads with tile_i < rows and tile_j < cols of its own
     * shape (loads and stores are guarded by that; shape_extent). */
    int dot_box;
    /* Bytes of dynamic shared memory the CUDA kernel needs (-O2's tensor-core
     * path of large dot tiles, emit_cuda_mma.c; 0: none). */
    int dyn_smem;
    /* The same on sm_90 devices, where the kernel's sm_90a branch
     * (emit_cuda_wgmma.c) may have a larger ring (0: dyn_smem). */
    int dyn_smem_sm90;
    /* Threads per block on sm_90 devices (0: block_threads): the sm_90a
     * branch's producer warpgroup (the other branch returns from it). */
    int block_threads_sm90;
    /* 1: dyn_smem is the pool of the blocked emitter's shared buffers
     * (exchanges, axis reductions, tl.dot's operands) of a bounding box
     * spread over the threads, one buffer in use at a time (-O2,
     * emit_cuda_blocked.c cuda_box_smem); 0: a tensor-core copy ring. */
    int smem_pool;
    /* -O2's small outer-product tiles (emit_cuda_fma.c layout_outer_group):
     * group_m x group_n programs, neighbours along the grid's x and y, run
     * in one block of group_m * group_n * block_threads threads and share
     * the loop's staged chunks; the launcher takes that kernel where the
     * grid's x and y are multiples of them (0: one program per block). */
    int group_m, group_n;
    /* -O2, rank 2: 1 where a thread's rows are spread one every `threads
     * along the rows` (Triton's sizePerThread [1, C] repeated), 0 where
     * they are consecutive in runs of 4 (layout.c layout_axes) */
    int rows_strided;
} TileInfo;

/* 0 after a diagnostic (at the op that breaks the rule). max_elements is
 * the largest tile: the CUDA block limit (1024) with one thread per
 * element, more when threads hold several elements. */
int shape_analyze(MtContext *ctx, const Function *f, int max_elements, TileInfo *out);
const char *tile_str(Arena *a, const TileInfo *t); /* "(16, 16)", "(256,)", "()" */
/* The __global__ function of a kernel running t->group_m x t->group_n
 * programs per block: SYMBOL_MxN. */
const char *tile_group_symbol(Arena *a, const char *symbol, const TileInfo *t);
/* In a rank-2 kernel an arange is not a value of its own but an index
 * (tile_i, tile_j or threadIdx.x) chosen by each use: the layout that
 * operand `k` of `user` needs. */
Layout shape_use_layout(const TileInfo *t, const Function *f, const Inst *user, int k);
/* Reshape, trans, remap, join, split and xor_shuffle: ops whose result
 * elements come from other threads' elements (the CUDA backends exchange
 * them through shared memory), so they put no constraint on their
 * operands' layouts. */
int shape_moves_elements(Op op);
/* Whether a reduction is the seed's block-wide one (a rank-1 operand of the
 * tile's thread count, laid out flat, to a scalar: a shared-memory tree at
 * -O1, shuffles at -O2). Every other reduction and every scan takes the
 * generic axis path: the operand goes through shared memory and each
 * thread combines, in order, the elements of its result along the axis. */
int shape_reduce_flat(const TileInfo *t, const Function *f, const Inst *in);

/* Whether the function has a tl.dot. */
int shape_has_dot(const Function *f);
/* Whether its tile is the bounding box of its blocks (dot_box): a tl.dot,
 * a transpose, reshape or remap between two rank-2 shapes that do not
 * broadcast together, or any two rank-2 results that do not (the rank
 * lowering's folds beside its reductions' results, say). Such a kernel's CUDA is emit_cuda.c's (one
  * thread
 * per element of the box) at -O0 and -O1, and at -O2 where the box has at
 * most 1024 elements and neither the tensor-core nor the attention path
 * takes it; a larger box at -O2 is the blocked emitter's
 * (emit_cuda_blocked.c: several elements of the box per thread). */
int shape_needs_box(const Function *f);
/* In a dot_box tile: the rows and columns of the tile that a value of
 * type t with layout l occupies (a dimension of 1: the whole tile's). */
void shape_extent(const TileInfo *t, Type ty, Layout l, int *rows, int *cols);

#endif
