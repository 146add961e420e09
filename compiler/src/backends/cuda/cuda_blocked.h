/* Shared between the -O2 CUDA backend (emit_cuda_blocked.c) and its
 * staged emission of outer-product loops (emit_cuda_fma.c). */
#ifndef MT_CUDA_BLOCKED_H
#define MT_CUDA_BLOCKED_H

#include "launch/emit.h"

struct LayoutPlan;
struct LayoutAxis;

typedef struct CudaB {
    Arena *a;
    const Function *f;
    const TileInfo *tile;
    const struct LayoutPlan *plan; /* the layout plan (layout.h) */
    const struct LayoutAxis *axis; /* its axes: coordinates */
    const char **pnames;
    const int *param_div; /* the signature's :N hints, per parameter */
    int *alias;           /* value -> value it is stored as (-1: itself) */
    const char **splat;   /* value -> the scalar every element holds */
    int *ptr_param;       /* pointer value -> its base parameter */
    const char **ptr_var; /* carried pointer value -> its index variable */
    char *align_needed;   /* pointer parameter -> alignment flag emitted */
    StrBuf smem;          /* __shared__ declarations */
    StrBuf prologue;      /* statements at kernel entry */
    StrBuf *out;
    int indent;
    int loop_depth;
    int uses_tx, uses_ty;     /* the thread's tile coordinates are needed */
    int group;                /* elements per 16-byte group along columns (the plan's) */
    const char *index_type;   /* a carried pointer's element index: int, or long long
                               * when some offset is 64-bit */
    char *deferred, *emitted; /* by value: emission at first use */
    const Block *cur_block;   /* the block being emitted */
    const char **red_buf;     /* by value: the shared buffer holding it (axis reductions) */
    const Block **red_blk;    /* ... written in this block */
    int ntrans;               /* stores staged through shared memory (tr_smem_N) */
    const char *grouped;      /* by value: a load of a versioned loop's group, held in
                               * vN_g[mt_u] (NULL outside its loads' phase) */
    int pool_gen;             /* buffers of the shared pool used so far (tile->smem_pool) */
    int *red_gen;             /* by value: pool_gen when red_buf was written */
    const char *tid;          /* the thread's index in its program: threadIdx.x, or mt_lane
                               * in a block of several programs (TileInfo.group_m) */
    int progs;                /* programs per block (group_m * group_n; 1: one) */
    StrBuf *notes;            /* --emit=explain: each dot's path, "line:col: ..." lines */
} CudaB;

void cb_line(CudaB *C, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cb_count(const CudaB *C, Layout l);
Layout cb_layout(const CudaB *C, int v);
const char *cb_row(CudaB *C, const char *i);
const char *cb_col(CudaB *C, const char *j);
/* Element (i, j) of an operand read in layout `use`. */
const char *cb_elem(CudaB *C, Operand o, Layout use, const char *i, const char *j);
const char *cb_ptr_index(CudaB *C, Operand o, Layout use, const char *i, const char *j);
/* The C expression of elementwise op `in` on operands rendered as a, b, c,
 * with Triton's numerics (approximate f32 exp, exp2, sqrt, rsqrt and
 * division, as Triton's PTX). Constant operands are rendered by
 * cb_const_operand. */
const char *cb_op_expr(CudaB *C, const Inst *in, const char *a, const char *b, const char *c);
/* A constant operand k of `in`, as a literal of the op's computation dtype. */
const char *cb_const_operand(CudaB *C, const Inst *in, int k);
/* tl.program_id(axis) and tl.num_programs(axis) of the thread's program,
 * as int expressions (`cast`: with an (int) cast where they are not
 * assigned to an int). */
const char *cb_program_id(CudaB *C, int axis, int cast);
const char *cb_num_programs(CudaB *C, int axis, int cast);
int cb_open(CudaB *C, Layout l);
void cb_close(CudaB *C, int n);
void cb_emit_block(CudaB *C, const Block *b);
/* Whether store `in` goes through shared memory (a transpose). */
int cb_store_staged(CudaB *C, const Inst *in);

/* The bytes of the shared pool of a bounding-box kernel spread over the
 * threads (TileInfo.smem_pool): its largest buffer (an exchange's or axis
 * reduction's operand, tl.dot's two operands), which the launcher gives
 * as dynamic shared memory (opted in above 48 KiB). */
int cuda_box_smem(const Function *f, const TileInfo *t);
/* The column axis's group (layout.h's LayoutPlan.group) as the axis
 * analysis settles it: layout_access_group's 16-byte group, or 1 (the
 * elements one by one over the threads) under Triton's specialization
 * when no 16-byte access is proven but some are left to a run-time check. */
int cuda_blocked_group(Arena *a, const Function *f, const TileInfo *tile, const int *param_div);
/* The -O2 kernel, printing the layout plan (layout.h); param_div: the
 * signature's divisibility hints (or NULL). */
const char *emit_cuda_blocked(Arena *a, const Function *f, const struct LayoutPlan *plan,
                              const char *symbol, const int *param_div);
/* --emit=explain: the path of each tl.dot of that kernel, one
 * "line:col: tl.dot ...: tensor cores: ..." (or "CUDA cores: why") line
 * each, in the order they are emitted. */
const char *emit_cuda_blocked_explain(Arena *a, const Function *f, const struct LayoutPlan *plan,
                                      const int *param_div);
/* The same kernel running tile->group_m x tile->group_n programs per block
 * (symbol: tile_group_symbol's), for grids whose x and y they divide. */
const char *emit_cuda_blocked_grouped(Arena *a, const Function *f, const struct LayoutPlan *plan,
                                      const char *symbol, const int *param_div);

/* The staged emission of an outer-product loop (layout_outer_loop's):
 * lowers `loop` if it is one and returns 1. */
int cuda_outer_emit(CudaB *C, const Inst *loop);

/* Loop versioning (emit_cuda_version.c, DESIGN 13b): a runtime `for` loop
 * whose body only loads, stores and computes elementwise, at addresses
 * whose intervals over the whole loop are known, runs in groups of
 * `unroll` iterations, the group's loads (phase 1) ahead of its stores
 * (phase 2), when `test` finds the stored and the loaded bytes disjoint;
 * as written otherwise. cuda_version_plan fills V (rendered at the place
 * the loop is emitted) and returns 1 for such a loop. */
typedef struct CudaVersion {
    int unroll;
    const char *test; /* the run-time test, over uniform values */
    const char *last; /* the index of the last iteration (vI_last; NULL: unused) */
    char *for_loads;  /* by value: body values the loads need (phase 1) */
    char *for_rest;   /* ... the stores and the yields need (phase 2; loads bound) */
    char *grouped;    /* by value: loads phase 2 reads (held in vN_g[mt_u]) */
    int index_loads;  /* the loop index is read in phase 1 */
    int index_rest;   /* ... in phase 2 */
} CudaVersion;
int cuda_version_plan(CudaB *C, const Inst *loop, CudaVersion *V);
/* mt_apart and mt_in_i32, where `code` calls them. */
const char *cuda_version_helpers(Arena *a, const char *code);

#endif
