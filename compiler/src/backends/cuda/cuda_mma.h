/* Shared by the two emitters of -O2's tensor-core path of large tiles:
 * emit_cuda_mma.c (the plan, the operand copies, the epilogue, the
 * mma.sync main loop of sm_80+) and emit_cuda_wgmma.c (the wgmma main
 * loop of sm_90a). Internal to the compiler; docs/dot.md describes the
 * path. */
#ifndef MT_CUDA_MMA_H
#define MT_CUDA_MMA_H

#include <stdarg.h>

#include "cgen/cgen.h"
#include "backends/cuda/cuda_blocked.h"
#include "backends/cuda/cuda_mma_dtypes.h"
#include "launch/emit.h"

/* MMA_MAX_SMEM: what an sm_80 block may opt in to (the mma.sync ring);
 * MMA_MAX_SMEM_SM90: sm_90's (the wgmma ring, asked on sm_90 devices) */
enum {
    MMA_MAX_DEPTH = 64,
    MMA_PAD = 8,
    MMA_MAX_SMEM = 163 * 1024,
    MMA_MAX_SMEM_SM90 = 227 * 1024,
    MMA_SM90_SMEM_PER_SM = 228 * 1024,
    MMA_STATIC_SMEM = 48 * 1024
};

/* The sm_90a branch (emit_cuda_wgmma.c): warpgroups of 4 warps, each a
 * (wm, wn) sub-tile of the accumulator, as gm x gn warpgroups; operands
 * in swizzled shared memory read by wgmma through matrix descriptors. */
typedef struct WgmmaPlan {
    int on;          /* the kernel has the branch (else mma.sync alone) */
    int gm, gn;      /* the warpgroup grid */
    int wm, wn;      /* a warpgroup's rows (wm / 64 m64 blocks) and columns (the instruction's N) */
    int swa, swb;    /* swizzle widths in bytes: A along K, B along N (128, 64 or 32) */
    int dist, slots; /* copies run dist iterations ahead in a ring of slots buffers */
    int early;       /* copies issued before the wait (slots dist + 2), else after (dist + 1) */
    int ws;          /* warp-specialized: producer warps copy, the warps of num_warps
                      * compute (mbarriers between them; dist and early unused) */
    int threads;     /* the body's threads per block (32 num_warps, + producers with ws) */
    int producers;   /* ws: the producer warpgroup's threads */
    int a_bytes, stage; /* bytes of a stage's A block (1024-aligned) and of a whole stage */
    int smem;           /* slots * stage + 1024 (the base aligned up to 1024 bytes), + 16 slots
                         * (ws: the full and empty mbarriers after the ring) */
} WgmmaPlan;

enum { MMA_MAX_LEVELS = 4 };

typedef struct MmaPlan {
    const Inst *loop, *dot, *add; /* add: acc + dot(a, b) (NULL: acc = dot(a, b, acc)) */
    const Inst *ld[2];            /* the operands' loads: (BM, BK), (BK, BN) */
    int acc_lane;                 /* the carried lane of the accumulator */
    int BM, BN, BK;
    DType in_dt;
    int warps, wm, wn; /* warp grid */
    int stages;
    int split_kstep;  /* tf32x3: each k-step's three products summed apart (no stage sums) */
    int smem;         /* bytes of shared memory of the mma.sync branch */
    int smem_sm90;    /* on sm_90 devices: the larger of the two branches' */
    int threads_sm90; /* on sm_90 devices: threads per block (the sm_90a body's, ws) */
    WgmmaPlan wg;
    const MmaShape *shape; /* the operand dtype's mma.sync (cuda_mma_dtypes.h) */
    int lda, ldb;          /* the mma.sync stage buffers' row lengths (elements, padded) */
    int bt;                /* B is k-contiguous in memory (column-major, `stride_bk` 1): its
                            * stage holds B transposed, BN rows of BK (k-major, as A) */
    const char *epi; /* per value: after the loop and computed from the accumulator (or loaded) */
    /* the loops around the K loop (a persistent kernel's loop over tiles,
     * the grouped GEMM's loop over problems and its `while` over their
     * tiles), outermost first: `for` or `while` with scalar lanes, each
     * the one region of its enclosing block; outer: levels[0] or NULL */
    const Inst *levels[MMA_MAX_LEVELS];
    int nlevels;
    const Inst *outer;
} MmaPlan;

typedef struct Mma {
    Arena *a;
    const Function *f;
    const MmaPlan *P;
    CudaB cb; /* for cb_op_expr (uses a and f) */
    const char **pnames;
    const int *param_div;
    StrBuf pre; /* scalars at kernel entry */
    /* the scalars of each level's body, and of a `while` level's condition
     * (MmaPlan.levels) */
    StrBuf level_pre[MMA_MAX_LEVELS], level_cond[MMA_MAX_LEVELS];
    StrBuf *out;
    int indent;
    const char **sname; /* top-level scalars computed at entry */
    const char **ename; /* epilogue values: per-element variables */
    const char *acc_elem;
    const char *index_type;
    /* The accumulator's fragment layout in the branch being emitted: per
     * thread frag_mt x frag_nt blocks of 16 x 8 in mma.sync's m16n8 layout
     * (4 floats), block (mi, ni) at rows frag_r0 + mi * frag_rstep and
     * columns frag_c0 + ni * 8. */
    int frag_mt, frag_nt, frag_rstep;
    const char *frag_r0, *frag_c0;
    /* The element index in a stage buffer of operand k's copy group
     * (mt_gr, mt_gc), set by the body's emitter around its copies, and
     * the same index as a number (a copying thread's groups whose offsets
     * differ by one constant step hold one offset, not one per group) */
    const char *dst_index[2];
    int (*dst_offset)(const struct Mma *M, int k, int gr, int gc);
    /* TF32 / int8 (mma.sync): B's columns permuted in groups of 32 (block
     * ni, element q at column (ni / 4) * 32 + 8t + 4 (q & 1) + ni % 4);
     * the accumulator's C type (NULL: float); the epilogue's two fragment
     * elements (columns mt_c0, mt_c1) */
    int frag_perm;
    const char *acc_type;
    const char *pair_elem[2];
    /* The epilogue's staging buffer (a body's emitter sets it where its
     * ring is free after the loop): a 16-byte aligned shared-memory byte
     * pointer and its size; NULL: stores straight from the fragments. */
    const char *stage_smem;
    int stage_bytes;
    /* The threads that copy the operand blocks and a copying thread's
     * index among them (0, NULL: all 32 num_warps, threadIdx.x); the
     * barrier among the accumulator's holders in the epilogue (NULL:
     * __syncthreads) */
    int copy_threads;
    const char *copy_tid;
    int copy_q_inline; /* the copies' shared offsets computed per copy, not hoisted */
    /* the element-wise copies' stores are read by wgmma (the async proxy):
     * each thread fences them (fence.proxy.async) */
    int proxy_fence;
    /* The kernel's name, and functions the body calls (printed before the
     * kernel: the warp-specialized producer) */
    const char *symbol;
    StrBuf fns;
    const char *epi_bar;
} Mma;

static inline void ln(Mma *M, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void ln(Mma *M, const char *fmt, ...) {
    sb_printf(M->out, "%*s", M->indent * 4, "");
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(M->out, fmt, ap);
    va_end(ap);
    sb_putc(M->out, '\n');
}

/* The rows and columns of operand k's stage block: A (BM, BK), B (BK, BN)
 * or, k-major (bt), (BN, BK). */
static inline int mma_stage_rows(const MmaPlan *P, int k) {
    return k ? P->bt ? P->BN : P->BK : P->BM;
}
static inline int mma_stage_cols(const MmaPlan *P, int k) { return k && !P->bt ? P->BN : P->BK; }

/* emit_cuda_mma.c */
void mma_acc_init(Mma *M);                     /* float mt_acc[frag_mt][frag_nt][4] = the init */
void mma_trip_count(Mma *M);                   /* mt_start, mt_stop, mt_n */
void mma_copy_bases(Mma *M, int k);            /* before the loop: hoisted copy indices */
void mma_copy(Mma *M, int k, const char *buf); /* operand k's block into buf */
void mma_epilogue(Mma *M); /* the ops after the loop per fragment element pair */

/* emit_cuda_wgmma.c */
void wgmma_plan(MmaPlan *P, int stages); /* P->wg (P->wg.on = 0: no sm_90a branch) */
const char *wgmma_helpers(Arena *a, const MmaPlan *P);
/* The mma.sync helpers of sm_80 (cp.async, ldmatrix, m16n8k16 f16/bf16;
 * MT_MMA_TILE_SM80), once per translation unit: before
 * cuda_mma_perm_helpers. */
const char *cuda_mma_helpers(void);
void emit_wgmma(Mma *M); /* the kernel body under #if MT_WGMMA_SM90 */

#endif
