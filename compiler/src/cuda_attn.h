/* -O2's tensor-core path of a fused attention forward (emit_cuda_attn.c,
 * docs/dot.md "Two dots per iteration: attention"): a runtime loop whose
 * body holds S = dot(q, trans(k)), row reductions and elementwise ops of S,
 * and acc = dot(p, v, acc). Internal to the compiler. */
#ifndef MT_CUDA_ATTN_H
#define MT_CUDA_ATTN_H

#include "emit.h"

/* Whether the kernel has the path's shape (general rules over the IR);
 * its threads per block and dynamic shared memory (smem_sm90: on sm_90
 * devices, whose sm_90a body may use more). */
int cuda_attn_plan(Arena *a, const Function *f, int num_warps, int num_stages, int *threads,
                   int *smem, int *smem_sm90);
/* The __global__ function (NULL: not that shape). */
const char *emit_cuda_attn(Arena *a, const Function *f, const char *symbol, const int *param_div,
                           int num_warps, int num_stages);

#endif
