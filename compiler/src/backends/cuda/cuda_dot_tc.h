/* -O2's tensor cores for one tl.dot of the blocked emitter
 * (emit_cuda_dot_tc.c): a dot that neither whole-kernel tensor-core plan
 * (emit_cuda_mma.c, emit_cuda_attn.c) takes keeps its surroundings in the
 * kernel's blocked layout, and its inner product runs as mma.sync over
 * operands staged K-major in the shared pool (docs/dot.md "One dot on
 * tensor cores"). Internal to the CUDA backend. */
#ifndef MT_CUDA_DOT_TC_H
#define MT_CUDA_DOT_TC_H

#include "backends/cuda/cuda_blocked.h"
#include "backends/cuda/cuda_mma_dtypes.h"

/* A dot the path takes: its instruction, shapes and the pool's layout.
 * A is staged as A[m][k] and B transposed as Bt[n][k], both with rows of
 * ldw 4-byte words (K's words + 4: an odd multiple of 4 words, so the
 * fragment loads of a warp fall in distinct banks); the accumulator and
 * the result go through an f32 (int32 for int8) buffer of M rows of ldc
 * elements. */
typedef struct DotTc {
    const MmaShape *shape;
    int M, N, K;
    int ldw, ldc;
    int zero;         /* the accumulator is a zero block: not staged */
    int b_off, c_off; /* byte offsets of Bt and of the accumulator buffer in the pool */
    int bytes;        /* the pool bytes the path needs */
} DotTc;

/* Whether dot `in` has the path's dtypes and shapes (its operands' layouts
 * are the caller's to check), filling P. */
int cuda_dot_tc_plan(const Function *f, const Inst *in, DotTc *P);

/* The same, with the reason it declines (NULL: taken; for --emit=explain). */
const char *cuda_dot_tc_why(Arena *a, const Function *f, const Inst *in, DotTc *P);

/* Why the program's block cannot run planned dot P (NULL: it can): its
 * warps must tile the result; and the path taken, in words. */
const char *cuda_dot_tc_fit(Arena *a, const DotTc *P, const TileInfo *t, int progs);
const char *cuda_dot_tc_taken(Arena *a, const DotTc *P, const TileInfo *t);
/* "tl.dot (M x K) @ (K x N) bf16 -> fp32": the dot in words. */
const char *cuda_dot_describe(Arena *a, const Function *f, const Inst *in);

/* Opens the path for dot `in` (result declared, pool barrier done):
 * `#if` the architecture has the instruction, the path's block, `#else`;
 * the caller emits the CUDA-core fallback and `#endif`. 0 (nothing
 * emitted): the program's warps do not fit the dot. */
int cuda_dot_tc_open(CudaB *C, const Inst *in, const DotTc *P);

/* The helpers the path calls (mma.sync and its emulation for test/emu),
 * once per translation unit, where `code` uses the path. */
const char *cuda_dot_tc_helpers(Arena *a, const char *code);

/* emit_cuda_blocked.c: operand k of dot `in` (held in LAYOUT_TILE)
 * written to `buf` in the operand's memory dtype, element (r, c) at
 * r * rs + c * cs; and the thread's elements of the dot's result layout
 * against a buffer of rows of ld elements: write 1 stores the
 * accumulator's elements there (f32, int32 for an int32 result), 0 reads
 * the result from it, rounded to the result's dtype. */
void cb_dot_stage(CudaB *C, const Inst *in, int k, const char *buf, int rs, int cs);
void cb_dot_tile_io(CudaB *C, const Inst *in, const char *buf, int ld, int write);

#endif
