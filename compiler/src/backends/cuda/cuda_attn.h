/* -O2's tensor-core path of a fused attention forward (emit_cuda_attn.c,
 * docs/dot.md "Two dots per iteration: attention"): a runtime loop whose
 * body holds S = dot(q, trans(k)), row reductions and elementwise ops of S,
 * and acc = dot(p, v, acc). Internal to the compiler. */
#ifndef MT_CUDA_ATTN_H
#define MT_CUDA_ATTN_H

#include "launch/emit.h"

/* The path's plan when the kernel has its shape (general rules over the
 * IR; NULL otherwise), with its threads per block and dynamic shared
 * memory in t, as cuda_mma_plan's (dyn_smem_sm90: on sm_90 devices, whose
 * sm_90a body may use more). */
typedef struct AttnPlan AttnPlan;
struct LayoutTc;
const AttnPlan *cuda_attn_plan(Arena *a, const Function *f, int num_warps, int num_stages,
                               TileInfo *t);
/* The plan in the layout stage's terms (layout.h). */
const struct LayoutTc *cuda_attn_layout(Arena *a, const Function *f, const AttnPlan *P);
/* The __global__ function that prints the plan. */
const char *emit_cuda_attn(Arena *a, const Function *f, const AttnPlan *P, const char *symbol,
                           const int *param_div);

#endif
