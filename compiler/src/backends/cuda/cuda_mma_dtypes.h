/* The operand dtypes of -O2's tensor-core path of large dot tiles
 * (emit_cuda_mma.c) and their dtype-specific device helpers
 * (emit_cuda_mma_dtypes.c). */
#ifndef MT_CUDA_MMA_DTYPES_H
#define MT_CUDA_MMA_DTYPES_H

#include "base/arena.h"
#include "ir/types.h"

/* The operand dtypes the path takes, one mma.sync m16n8k<k> each. f16 and
 * bf16 read both fragments with ldmatrix (B with .trans). ldmatrix.trans
 * moves 16-bit elements, so TF32 and int8 read B with vector loads of 4
 * consecutive columns per row instead (`ldsm_b` 0): each warp's columns
 * are permuted within groups of 32 (frag_coords in emit_cuda_mma.c), A
 * still through ldmatrix (its rows are k-contiguous for every dtype).
 * f32 with input_precision "ieee" has no tensor-core instruction: its
 * products are CUDA-core FMAs from the same shared-memory stages, in the
 * same fragment layout (`cuda_core`, `ptx` NULL; k: the k-steps read
 * together, one 16-byte row piece of A per fragment row). fp8 (e4m3,
 * e5m2) has int8's fragment layouts (m16n8k32 of bytes) and so int8's B
 * loads (`ldb` "s8"), with an f32 accumulator; its mma.sync needs sm_89
 * (`sm`), below which the kernel takes the CUDA-core fallback. */
typedef struct MmaShape {
    DType in, acc;    /* operand and accumulator dtypes */
    int precision;    /* f32 operands: the input_precision taken (-1: any) */
    const char *name; /* the helpers' suffix (mt_mma16816_f16, mt_mma_tile_tf32, ...) */
    const char *ptx;  /* the instruction */
    int k;            /* k per instruction */
    int group;        /* elements per 16-byte copy group */
    int ldsm_b;       /* B fragments by ldmatrix.trans */
    int split;        /* tf32x3: three products of the operands' big and small parts */
    int cuda_core;    /* ieee: fmaf from shared memory, no tensor cores */
    const char *ldb;  /* permuted B fragments: the mt_ldb_* helper's suffix */
    int sm;           /* the least __CUDA_ARCH__ / 10 of the instruction */
} MmaShape;

/* The shape for operands `in`, accumulator `acc` and (f32) input
 * precision (DotPrecision), NULL: none. */
const MmaShape *cuda_mma_shape(DType in, DType acc, int precision);

/* The helpers of the shapes whose B fragments are not ldmatrix.trans
 * (TF32, tf32x3, int8, fp8): once per translation unit, after the f16 ones. */
const char *cuda_mma_perm_helpers(Arena *a);

#endif
