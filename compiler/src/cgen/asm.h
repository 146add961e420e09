/* tl.inline_asm_elementwise (ops.def OP_INLINE_ASM): the CUDA __device__
 * helper that runs it on one element (docs/language.md, "Inline
 * assembly"); its plan is ir/asm_plan.h's. */
#ifndef MT_ASM_H
#define MT_ASM_H

#include "ir/asm_plan.h"

/* The CUDA helper's name for `in` (mt_asm_ and a hash of the asm, its
 * constraints, pack, volatility, dtypes and which result it gives: equal
 * asms share one). */
const char *asm_helper_name(Arena *a, const Function *f, const Inst *in);
/* The definitions of the helpers of f's inline asms that `code` calls
 * (each guarded, so a translation unit with several kernels defines each
 * once); "" if none. */
const char *asm_cuda_helpers(Arena *a, const Function *f, const char *code);

#endif
