/* Hopper's warpgroup MMA as both tensor-core emitters print it
 * (emit_cuda_wgmma.c; docs/dot.md "wgmma on sm_90a"): the generated
 * helpers, the instruction's forms and the swizzled shared-memory layout
 * its descriptors read. Internal to the compiler. */
#ifndef MT_CUDA_WGMMA_H
#define MT_CUDA_WGMMA_H

#include "cgen/cgen.h"

/* The instruction's operand forms: A and B from shared memory with B
 * N-major (transpose flag) or K-major, or A from registers and B N-major. */
typedef enum { WGMMA_SS_MN, WGMMA_SS_K, WGMMA_RS_MN } WgmmaForm;

/* The widest swizzle (128, 64 or 32 bytes) whose rows divide a contiguous
 * extent of `bytes` (0: none), and its descriptor mode code. */
int wgmma_swizzle(int bytes, int *code);
/* The helpers shared by every wgmma kernel (MT_WGMMA_SM90, mt_swz, the
 * descriptor, fences, commit, wait), guarded for several kernels per file. */
const char *wgmma_common_helpers(void);
/* The helper of one form, N and dtype (f16, bf16; e4m3 and e5m2, K-major
 * B alone): <prefix>_n<N>_<dt>(d, a, b), one instruction of 32 bytes of k. */
const char *wgmma_instr(Arena *a, WgmmaForm form, int n, DType dt);
/* The element index in a buffer of the copy group (mt_gr, mt_gc) of a
 * (rows, cols) block of `eb`-byte elements stored as columns of `sw`
 * bytes, swizzled. */
const char *wgmma_swizzled_index(Arena *a, int rows, int cols, int sw, int eb);
/* The same index as a number, for the group at (gr, gc) of a block of
 * `rows` rows. */
int wgmma_swizzled_offset(int rows, int sw, int gr, int gc, int eb);

#endif
