/* Atomics in generated CUDA (-O1 and -O2): a helper function per atomic
 * operation, memory semantics, scope and dtype, defined before the kernel
 * (cuda_atomic.c). */
#ifndef MT_CUDA_ATOMIC_H
#define MT_CUDA_ATOMIC_H

#include "launch/emit.h"

/* The call of the helper for atomic `in` on the element `elem` (an lvalue
 * of the CUDA memory type) with value `v` (and, for atomic_cas, `cmp`):
 * an expression of the compute type, the old value. */
const char *cuda_atomic_call(Arena *a, const Inst *in, const char *elem, const char *cmp,
                             const char *v);
/* The definitions of the helpers that `code` calls ("" when none). */
const char *cuda_atomic_helpers(Arena *a, const char *code);

#endif
