/* The layout stage (DESIGN 8b): how the elements of every block value are
 * spread over the threads of a CUDA block, made explicit before code
 * generation. It chooses the tile's blocked layout (elements per thread,
 * their grouping, threads per warp, warps) from the kernel's op mix,
 * gives each value an encoding of it (the blocked layout, one of its two
 * slices, a flat one, or uniform), marks each op that moves elements
 * between threads with the conversion it takes (through shared memory,
 * warp shuffles), prints the result (--emit=layout) and verifies it. The
 * CUDA backends read their layout decisions from the plan. The tensor-core
 * paths' planners describe their own choice (LayoutTc, layout_tc.c). */
#ifndef MT_LAYOUT_H
#define MT_LAYOUT_H

#include "layout/shape.h"

/* How an op's result gets its elements from other threads. */
typedef enum Conv {
    CONV_NONE,     /* each thread computes its own elements */
    CONV_EXCHANGE, /* reshape, trans, remap, join, split, xor_shuffle:
                    * through a shared-memory buffer */
    CONV_AXIS,     /* a reduction or scan along an axis: the operand
                    * through shared memory, each thread combining its
                    * result elements */
    CONV_SHUFFLE,  /* the block-wide reduction of a flat value: per-thread
                    * partials, warp shuffles, warp partials in shared
                    * memory */
    CONV_DOT,      /* tl.dot on CUDA cores: both operands staged in shared
                    * memory */
    CONV_STAGE,    /* an outer-product loop: its row and column operands
                    * staged through shared memory in chunks of k */
    CONV_REGS,     /* an exchange whose result elements each thread already
                    * holds in its operand's layout: a permutation of its
                    * registers (LayoutPlan.regs), no shared memory */
    /* the tensor-core paths (LayoutTc) */
    CONV_COPY,   /* an operand's load: global memory into a ring of
                    * shared-memory buffers (cp.async 16-byte groups) */
    CONV_MMA,    /* a dot on tensor cores: operands from the rings in the
                    * instruction's operand layouts (ldmatrix, wgmma
                    * descriptors), or from the accumulator's registers */
    CONV_ROWRED, /* a reduction along the accumulator's rows: in the
                    * thread, then shuffles among the lanes holding a row */
    CONV_COUNT
} Conv;

/* One axis of a blocked layout: a thread holds `per` elements along it,
 * in runs of `spt` consecutive ones, the runs spt * threads apart, where
 * `threads` threads share the axis. */
typedef struct LayoutAxis {
    int per, spt, threads;
} LayoutAxis;

/* The axes of a plan: rows and columns of a rank-2 tile (a rank-1 tile's
 * elements are its columns), and the flat arrangement of a rank-1 value
 * over all the threads. */
enum { AXIS_ROWS, AXIS_COLS, AXIS_FLAT };

/* A tensor-core path's layouts (emit_cuda_mma.c, emit_cuda_attn.c): the
 * path's planner chooses them and its emitter prints that plan; the stage
 * prints and verifies them. */
typedef enum TcEnc {
    TC_AT_USE,   /* an index, address or mask block: computed where it is
                  * read, at the reader's coordinates */
    TC_UNIFORM,  /* a scalar */
    TC_STAGED,   /* an operand's load, in its shared-memory ring */
    TC_ACC,      /* an accumulator's fragments, and what is computed from
                  * them element by element (#mma) */
    TC_ACC_ROWS, /* a row vector of the accumulator: #mma's slice along dim 1 */
    TC_ACC_COLS, /* a column vector: its slice along dim 0 */
    TC_ENC_COUNT
} TcEnc;

/* One operand's ring of shared-memory buffers. */
typedef struct LayoutRing {
    const char *name; /* "a", "b"; "q", "k", "v" */
    int value;        /* the load it holds */
    int rows, cols;   /* a buffer's block as stored (a k-major B: (BN, BK)) */
    int row_len;      /* mma.sync: a padded row's elements (0: swizzled) */
    int swizzle;      /* wgmma: the swizzle width in bytes (0: padded rows) */
    int buffers;
} LayoutRing;

/* One body of the path: mma.sync (sm_80+; version 2) or wgmma (the
 * sm_90a branch; version 3). */
typedef struct LayoutMmaBody {
    int version;
    int threads;                /* threads per block (with wgmma's producer warps) */
    int wm, wn;                 /* the computing warps along the rows and the columns */
    int inst_m, inst_n, inst_k; /* the instruction's shape per warp */
    int nrings;
    LayoutRing ring[3];
    int smem; /* bytes of dynamic shared memory the body asks */
} LayoutMmaBody;

typedef struct LayoutTc {
    const char *what; /* the dots, in words */
    int bits;         /* the operands' element bits */
    int BM;           /* the accumulators' rows */
    int acc_cols[2];  /* their columns: one accumulator (a matmul), two (attention: S, O) */
    int nbodies;
    LayoutMmaBody body[2];
    unsigned char *enc; /* by value: its TcEnc */
} LayoutTc;

typedef struct LayoutPlan {
    const TileInfo *tile; /* tm, tn, block_threads, layout by value */
    const LayoutTc *tc;   /* the tensor-core paths (NULL: the blocked layout below) */
    const char *path;     /* the emitter that prints it */
    /* The tile's blocked layout, as Triton writes one (axis 0: rows,
     * axis 1: columns; a rank-1 tile uses axis 1 only): a thread holds
     * spt[a] consecutive elements along axis a, and reps[a] such runs
     * a whole block's width apart (spt * reps = tm, tn); thread
     * threadIdx.x is (threadIdx.x / tcols, threadIdx.x % tcols). */
    int spt[2], reps[2];
    int tpw[2], wpc[2];
    LayoutAxis axis[3];  /* AXIS_ROWS, AXIS_COLS, AXIS_FLAT */
    int group;           /* the 16-byte group of the column axis (elements) */
    unsigned char *conv; /* by value: the Conv of the op (or loop) defining it */
    int nconv[CONV_COUNT];
    /* by value of a CONV_REGS op: for each of a thread's elements of the
     * result (layout_slot order), the operand and the element of the
     * thread's that holds it, as operand * LAYOUT_MAX_SLOTS + slot */
    int **regs;
} LayoutPlan;

/* The elements a thread holds of a value of layout l (the order of the
 * CUDA emitter's arrays: (i, j) row-major for the tile), and at most how
 * many a CONV_REGS permutation moves. */
int layout_slots(const TileInfo *t, Layout l);
enum { LAYOUT_MAX_SLOTS = 256 };

/* Chooses tm, tn and block_threads for the -O2 blocked emitter: 32 *
 * num_warps threads when num_warps > 0, else from the kernel's shape and
 * op mix. A message when the tile cannot be spread so (NULL on success). */
const char *layout_choose(Arena *a, const Function *f, TileInfo *t, int num_warps);
/* The elements of the 16-byte groups along the tile's columns: 16 bytes
 * of the narrowest dtype the kernel loads or stores, at least 4. */
int layout_access_group(const Function *f);
/* A runtime loop body that loads and only computes otherwise (1), that
 * also stores, synchronizes or moves elements (2), or that loads nothing
 * (0). */
int layout_streaming_body(const Block *b);

/* Whether the reduction `in` along an axis of a value of the whole tile is
 * combined where the elements are (CONV_SHUFFLE): each thread folds its
 * own elements along the axis in order, the threads sharing a row (a
 * column) then combine theirs by warp shuffles (xor, the largest distance
 * first) and, where the axis spans several warps, the warps' partials
 * through a small shared buffer, in a tree of the same order: Triton's
 * reduction of a blocked layout. Sum, max, min, xor_sum, argmax and
 * argmin (an index with each partial), the result held as the tile's rows
 * (columns) or uniformly; the thread counts along both axes powers of
 * two. */
int layout_reduce_shuffles(const Function *f, const TileInfo *t, const Inst *in);
/* Whether `in` reduces a value of one element (its result is that
 * element, an index 0): no conversion. */
int layout_reduce_one(const Function *f, const Inst *in);

/* The plan of a kernel whose tile is chosen; group: the column axis's
 * group as the emitter's axis analysis settles it (1: elements one by one
 * over the threads). regs: exchanges whose elements stay in each thread
 * become permutations of its registers (CONV_REGS; the -O2 blocked
 * emitter prints them). path names the emitter. */
LayoutPlan *layout_plan(Arena *a, const Function *f, const TileInfo *t, int group, int regs,
                        const char *path);
/* A LayoutTc's encodings before its planner sets those of its loads,
 * accumulators and rows: #uniform scalars, #at_use blocks. */
unsigned char *layout_tc_encodings(Arena *a, const Function *f);
/* The plan of a kernel that a tensor-core path prints: tc from the
 * path's planner, conv marks from tc's encodings. */
LayoutPlan *layout_plan_tc(Arena *a, const Function *f, const TileInfo *t, const LayoutTc *tc,
                           const char *path);
/* The tile's axes (LayoutPlan.axis) for the column group `group`. */
void layout_axes(const TileInfo *t, int group, LayoutAxis axis[3]);
/* The coordinate along axis x of element k of the thread whose index
 * along it is t (Triton's blocked layout), as a number and as C text. */
int layout_coord(LayoutAxis x, int t, int k);
const char *layout_coord_text(Arena *a, LayoutAxis x, const char *t, const char *k);

/* 0 after a diagnostic: an operand read in a layout that does not hold
 * it (a row slice read as columns, a block read as one of its slices)
 * without a conversion, or a value whose layout does not cover its
 * shape. */
int layout_verify(MtContext *ctx, const Function *f, const LayoutPlan *p);
/* The SSA text with each value's layout and each conversion (--emit=layout). */
const char *layout_print(Arena *a, const Function *f, const LayoutPlan *p);
/* A conversion in words. */
const char *layout_conv_text(Conv c);
/* The plan's conversion marks (conv, nconv): conv(user, in) of each op, a
 * loop's for its results. */
typedef Conv (*LayoutConvFn)(void *user, const Inst *in);
void layout_mark(Arena *a, const Function *f, LayoutPlan *p, LayoutConvFn conv, void *user);
/* The printer's note of `in`: its result's encoding (enc names one; a
 * loop's results' in order) and its conversion (words, or the plan's). */
typedef const char *(*LayoutEncFn)(void *user, int v);
const char *layout_note(Arena *a, const LayoutPlan *p, const Inst *in, LayoutEncFn enc, void *user,
                        const char *words);
/* layout_tc.c: layout_verify and layout_print of a tensor-core plan */
int layout_tc_verify(MtContext *ctx, const Function *f, const LayoutPlan *p);
const char *layout_tc_print(Arena *a, const Function *f, const LayoutPlan *p);

/* -O2's outer-product loops on the CUDA cores (layout/outer_plan.c):
 * loops that passes/outer.h's outer_match takes, at the top level of a
 * kernel whose tile is their accumulator (sides multiples of 4, not a
 * bounding box). layout_outer_find returns the first (or NULL);
 * layout_outer_loop says whether `loop` is one (layout_outer_match also
 * fills *m). The loop runs in chunks of OUTER_BK iterations, its operands
 * chains over at most OUTER_MAX_LOADS loads (layout_outer_loads collects
 * those of `o` into out[n..], returning the new count, -1 past the bound). */
enum { OUTER_BK = 16, OUTER_MAX_LOADS = 8 };
struct OuterLoop;
const Inst *layout_outer_find(const Function *f, const TileInfo *t);
int layout_outer_loop(const Function *f, const TileInfo *t, const Inst *loop);
int layout_outer_match(const Function *f, const TileInfo *t, const Inst *in, struct OuterLoop *m);
int layout_outer_loads(const Function *f, const Loop *l, Operand o, const Inst **out, int n,
                       int depth);
/* The tm x tn register micro-tile of such a kernel's R x C tile. */
void layout_fma_microtile(int R, int C, int *tm, int *tn);
/* Programs per block for such a kernel (TileInfo.group_m, group_n): 2 x 2
 * where one program is one warp with at most 8 accumulators per thread,
 * the loop is the kernel's only shared-memory user and is the same in
 * every program, and its row operand does not depend on tl.program_id(1)
 * nor its column operand on tl.program_id(0); else 0 x 0. */
void layout_outer_group(Arena *a, const Function *f, const TileInfo *t, int *gm, int *gn);

#endif
