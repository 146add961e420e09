/* The CUDA backend (DESIGN 8): verified SSA into one __global__ function.
 * One CUDA thread per element of the kernel's tile; each SSA value becomes
 * a local `vN`; pointer arithmetic folds into indexing (`x[v3]`); a masked
 * load is `(mask ? p[i] : other)`, a masked store an `if`; a reduction
 * uses a __shared__ buffer and a tree with __syncthreads(); a runtime loop
 * is a C `for` whose carried results are declared before the loop and
 * assigned at the end of each iteration. The golden files show each rule.
 * tl.dot (kernels whose tile is the bounding box of their blocks,
 * shape.h dot_box; loads and stores guarded to their own shape): the
 * operands through shared memory, then a K loop per thread of the result,
 * or at -O2 mma.sync by warps on sm_80+ (emit_dot; docs/dot.md). */
#include "launch/emit.h"

#include <string.h>

#include "cgen/asm.h"
#include "cgen/cgen.h"
#include "cgen/walk.h"
#include "cgen/reduce_gen.h"
#include "backends/cuda/cuda_atomic.h"

typedef struct Cuda {
    Arena *a;
    const Function *f;
    const TileInfo *tile;
    const char **pnames;    /* C names of the parameters */
    const char **vname;     /* by value number: its C expression */
    const char **ptr_base;  /* pointer values: the parameter */
    const char **ptr_index; /* pointer values: the element index (NULL: 0) */
    StrBuf smem;            /* __shared__ declarations */
    StrBuf *out;
    int indent;
    int loop_depth;
    const Inst *user;       /* the item whose operands are being rendered */
    Layout lane_layout;     /* for loop lanes (user == NULL) */
    const char *index_type; /* a carried pointer's element index: int, or
                            * long long when some offset is 64-bit */
    const Block *cur_block; /* the block being emitted */
    const char **red_buf;   /* by value: the shared buffer holding it (axis reductions) */
    const Block **red_blk;  /* ... written in this block */
    int need_tf32;          /* tl.dot in TF32: the mt_tf32_* helpers */
    int tensor_cores;       /* -O2: tl.dot through mma.sync where it can */
    unsigned need_mma;      /* 1 << MmaKind: the mma helpers used */
    int has_dot;            /* a tl.dot: the kernel declares its block size
                             * (__launch_bounds__), so ptxas fits its registers */
    CWalk walk;             /* the walker and this backend's hooks */
} Cuda;

/* Whether an addptr of the block (or of a loop in it) has a 64-bit offset. */
static int wide_offsets(const Function *f, const Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++)
            if (wide_offsets(f, sub[k])) return 1;
        if (in->op == OP_ADDPTR &&
            dtype_info((DType)operand_type(f, in->args[1]).dtype)->bits == 64)
            return 1;
    }
    return 0;
}

static const char *arange_index(Cuda *C, const Inst *in, Layout l);

static void line(Cuda *C, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(Cuda *C, const char *fmt, ...) {
    sb_printf(C->out, "%*s", C->indent * 4, "");
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(C->out, fmt, ap);
    va_end(ap);
    sb_putc(C->out, '\n');
}

static const char *opd(Cuda *C, Operand o) {
    switch (o.kind) {
    case OPD_VALUE: {
        const Inst *def = C->f->defs[o.id];
        if (C->tile->rank == 2 && def && def->op == OP_ARANGE) {
            /* an index chosen by the use (tile_i, tile_j, threadIdx.x) */
            Layout l = C->lane_layout;
            if (C->user)
                for (int k = 0; k < C->user->nargs; k++)
                    if (C->user->args[k].kind == OPD_VALUE && C->user->args[k].id == o.id)
                        l = shape_use_layout(C->tile, C->f, C->user, k);
            return arange_index(C, def, l);
        }
        return C->vname[o.id] ? C->vname[o.id] : arena_printf(C->a, "v%d", o.id);
    }
    case OPD_PARAM: return C->pnames[o.id];
    case OPD_CONST: return c_const(C->a, o.c, C_CUDA);
    case OPD_NONE: break;
    }
    return "0";
}

/* An operand as `dt` (explicit conversion where C would not convert). */
static const char *opd_as(Cuda *C, Operand o, DType dt) {
    Type t = operand_type(C->f, o);
    if (o.kind == OPD_CONST) return c_const(C->a, const_convert(o.c, dt), C_CUDA);
    if (t.dtype == dt) return opd(C, o);
    if (dtype_info((DType)t.dtype)->compute == dtype_info(dt)->compute &&
        dtype_info(dt)->compute != dt)
        return c_round(C->a, dt, C_CUDA, opd(C, o)); /* a narrow float as another */
    return arena_printf(C->a, "(%s)%s", c_type(dt), opd(C, o));
}

/* Operand k of `in` as the op takes it: a constant converted to the op's
 * computation dtype (the seed's constants as written). */
static const char *opd_for(Cuda *C, const Inst *in, int k) {
    Operand o = in->args[k];
    if (o.kind == OPD_CONST) {
        DType dt = c_operand_dtype(C->a, C->f, in, k);
        if (in->op == OP_MAXIMUM || in->op == OP_MINIMUM)
            return c_const(C->a, const_convert(o.c, dt), C_CUDA);
        return c_operand_const(C->a, o.c, dt, C_CUDA);
    }
    return opd(C, o);
}

static void pointer(Cuda *C, Operand o, const char **base, const char **index) {
    if (o.kind == OPD_PARAM) {
        *base = C->pnames[o.id];
        *index = NULL;
        return;
    }
    MT_ASSERT(o.kind == OPD_VALUE && C->ptr_base[o.id]);
    *base = C->ptr_base[o.id];
    *index = C->ptr_index[o.id];
}

static const char *element(Cuda *C, Operand p) {
    const char *base, *index;
    pointer(C, p, &base, &index);
    return arena_printf(C->a, "%s[%s]", base, index ? index : "0");
}

static int is_true(Operand o) {
    return o.kind == OPD_NONE || (o.kind == OPD_CONST && o.c.dt == DT_BOOL && o.c.i);
}

static const char *arange_index(Cuda *C, const Inst *in, Layout l) {
    const char *idx = l == LAYOUT_ROWS      ? "tile_i"
                      : l == LAYOUT_COLS    ? "tile_j"
                      : l == LAYOUT_UNIFORM ? NULL
                                            : "threadIdx.x";
    if (!idx) return arena_printf(C->a, "%d", in->attrs.start);
    if (in->attrs.start == 0) return idx;
    return arena_printf(C->a, "(%s + %d)", idx, in->attrs.start);
}

static void emit_reduce(Cuda *C, const Inst *in) {
    int id = in->result;
    DType dt = (DType)in->type.dtype;
    const char *t = c_type(dt);
    int n = C->tile->threads;
    sb_printf(&C->smem, "    __shared__ %s reduce_smem_%d[%d];\n", t, id, n);
    const char *buf = arena_printf(C->a, "reduce_smem_%d", id);
    line(C, "%s[threadIdx.x] = %s;", buf, opd(C, in->args[0]));
    line(C, "__syncthreads();");
    line(C, "for (int stride_%d = %d; stride_%d > 0; stride_%d >>= 1) {", id, n / 2, id, id);
    C->indent++;
    line(C, "if (threadIdx.x < stride_%d) {", id);
    C->indent++;
    const char *lhs = arena_printf(C->a, "%s[threadIdx.x]", buf);
    const char *rhs = arena_printf(C->a, "%s[threadIdx.x + stride_%d]", buf, id);
    int fl = dtype_is_float(dt);
    const char *mx = dtype_info(dt)->compute == DT_F64 ? "fmax" : "fmaxf",
               *mn = dtype_info(dt)->compute == DT_F64 ? "fmin" : "fminf";
    if (in->op == OP_SUM &&
        dtype_info(dt)->compute != dt) /* a narrow float: each partial sum rounded */
        line(C, "%s = %s;", lhs,
             c_round(C->a, dt, C_CUDA, arena_printf(C->a, "%s + %s", lhs, rhs)));
    else if (in->op == OP_SUM) line(C, "%s += %s;", lhs, rhs);
    /* as the seed: fmaxf/fminf on floats, a conditional on integers */
    else if (fl) line(C, "%s = %s(%s, %s);", lhs, in->op == OP_MAX ? mx : mn, lhs, rhs);
    else
        line(C, "%s = (%s %s %s ? %s : %s);", lhs, lhs, in->op == OP_MAX ? ">" : "<", rhs, lhs,
             rhs);
    C->indent--;
    line(C, "}");
    line(C, "__syncthreads();");
    C->indent--;
    line(C, "}");
    line(C, "%s v%d = %s[0];", t, id, buf);
    /* in a loop the buffer is written again next iteration */
    if (C->loop_depth > 0) line(C, "__syncthreads();");
}

/* Shape ops that move elements between threads (reshape, trans, remap,
 * join, split) and the generic axis path of reductions and scans: each operand
 * element is written once to a __shared__ buffer at its row-major position
 * in the operand's shape, then each thread reads what its result position
 * needs. held_pos gives the position of the element of a value of type t
 * that a thread holds in layout `l` and, in *guard, the one thread of those
 * holding it that writes it (NULL: every thread holds a different element).
 * In a bounding-box tile (dot_box) a rank-2 block narrower than the box
 * has positions of its own shape, and only the threads inside its shape
 * (box_guard) hold its elements. */
static const char *box_guard(Cuda *C, Type t, Layout l);

static const char *held_pos(Cuda *C, Layout l, Type t, const char **guard) {
    *guard = NULL;
    int shared = C->tile->threads > 1; /* several threads hold a replicated element */
    if (C->tile->dot_box && l == LAYOUT_TILE && t.rank == 2 &&
        (t.dims[0] != C->tile->rows || t.dims[1] != C->tile->cols)) {
        int r = (int)t.dims[0], c = (int)t.dims[1];
        if (r > 1 && c > 1) return arena_printf(C->a, "(tile_i * %d + tile_j)", c);
        if (c > 1) {
            *guard = "tile_i == 0";
            return "tile_j";
        }
        if (r > 1) {
            *guard = "tile_j == 0";
            return "tile_i";
        }
        *guard = "threadIdx.x == 0";
        return "0";
    }
    switch (l) {
    case LAYOUT_UNIFORM:
        if (shared) *guard = "threadIdx.x == 0";
        return "0";
    case LAYOUT_ROWS:
        if (shared) *guard = "tile_j == 0";
        return "tile_i";
    case LAYOUT_COLS:
        if (shared) *guard = "tile_i == 0";
        return "tile_j";
    case LAYOUT_FLAT:
    case LAYOUT_TILE: return "threadIdx.x";
    }
    return "0";
}

/* a && b of two conditions (NULL: true). */
static const char *both(Cuda *C, const char *a, const char *b) {
    if (!a) return b;
    if (!b) return a;
    return arena_printf(C->a, "%s && %s", a, b);
}

/* The layout in which the threads hold operand k of `in` (an arange: as
 * that use reads it). */
static Layout operand_layout(const Cuda *C, const Inst *in, int k) {
    Operand o = in->args[k];
    Type t = operand_type(C->f, o);
    if (o.kind != OPD_VALUE || t.rank == 0 || type_numel(t) == 1) return LAYOUT_UNIFORM;
    const Inst *def = C->f->defs[o.id];
    return def && def->op == OP_ARANGE ? shape_use_layout(C->tile, C->f, in, k)
                                       : C->tile->layout[o.id];
}

static void exchange_write(Cuda *C, const Inst *in, int k, const char *buf, int scale, int add) {
    Layout l = operand_layout(C, in, k);
    Type t = operand_type(C->f, in->args[k]);
    const char *guard;
    const char *pos = held_pos(C, l, t, &guard);
    if (l != LAYOUT_UNIFORM) guard = both(C, guard, box_guard(C, t, l));
    if (scale != 1 || add != 0) pos = arena_printf(C->a, "%s * %d + %d", pos, scale, add);
    const char *store = arena_printf(C->a, "%s[%s] = %s;", buf, pos, opd(C, in->args[k]));
    if (guard) line(C, "if (%s) %s", guard, store);
    else line(C, "%s", store);
}

/* The position at which this thread reads a result of type t in layout l
 * from an exchange buffer: in a bounding-box tile, threads outside the
 * result's shape read position 0 (their value is never used). */
static const char *read_pos(Cuda *C, Layout l, Type t) {
    const char *unused;
    const char *p = held_pos(C, l, t, &unused);
    const char *inside = l == LAYOUT_UNIFORM ? NULL : box_guard(C, t, l);
    return inside ? arena_printf(C->a, "((%s) ? %s : 0)", inside, p) : p;
}

static void emit_exchange(Cuda *C, const Inst *in) {
    int id = in->result;
    DType dt = (DType)in->type.dtype;
    const char *T = c_type(dt);
    Type xt = operand_type(C->f, in->args[0]);
    int n = (int)type_numel(xt) * (in->op == OP_JOIN ? 2 : 1);
    const char *buf;
    if (in->op == OP_XOR_SHUFFLE) {
        /* one buffer per dtype and size for all of them (a tl.sort of n
         * elements has log2(n) (log2(n) + 1) / 2): once declared, a barrier
         * lets the last readers finish before it is written again */
        buf = arena_printf(C->a, "shuffle_smem_%s_%d", dtype_name(dt), n);
        const char *decl = arena_printf(C->a, "    __shared__ %s %s[%d];\n", T, buf, n);
        if (C->smem.len && strstr(sb_str(&C->smem), decl)) line(C, "__syncthreads();");
        else sb_puts(&C->smem, decl);
    } else {
        sb_printf(&C->smem, "    __shared__ %s shape_smem_%d[%d];\n", T, id, n);
        buf = arena_printf(C->a, "shape_smem_%d", id);
    }
    if (in->op == OP_JOIN) {
        exchange_write(C, in, 0, buf, 2, 0);
        exchange_write(C, in, 1, buf, 2, 1);
    } else {
        exchange_write(C, in, 0, buf, 1, 0);
    }
    line(C, "__syncthreads();");
    Layout rl = type_numel(in->type) == 1 ? LAYOUT_UNIFORM : C->tile->layout[id];
    const char *p = read_pos(C, rl, in->type);
    if ((in->op == OP_TRANS && C->tile->dot_box) || in->op == OP_REMAP || in->op == OP_GATHER) {
        /* a name for the position it reads more than once */
        line(C, "int pos%d = %s;", id, p);
        p = arena_printf(C->a, "pos%d", id);
    }
    const char *src = p;    /* reshape, join: the same row-major position */
    if (in->op == OP_TRANS) /* result (C0, R0) at p is operand (R0, C0) at (p % R0, p / R0) */
        src = arena_printf(C->a, "(%s %% %d) * %d + %s / %d", p, (int)xt.dims[0], (int)xt.dims[1],
                           p, (int)xt.dims[0]);
    if (in->op == OP_SPLIT) src = arena_printf(C->a, "%s * 2 + %d", p, in->attrs.axis);
    if (in->op == OP_XOR_SHUFFLE) src = arena_printf(C->a, "%s ^ %d", p, in->attrs.axis);
    if (in->op == OP_REMAP) src = c_remap_index(C->a, &in->attrs, p);
    if (in->op == OP_GATHER) src = c_gather_index(C->a, C->f, in, p, opd(C, in->args[1]));
    line(C, "%s v%d = %s[%s];", T, id, buf, src);
    if (C->loop_depth > 0) line(C, "__syncthreads();");
}

/* The generic axis path of a reduction or scan (reduce_gen.h): the operand
 * into shared memory, then each thread computes its result element. */
static void emit_axis_reduce(Cuda *C, const Inst *in) {
    int id = in->result;
    Type xt = operand_type(C->f, in->args[0]);
    DType xdt = (DType)xt.dtype;
    /* an operand already in shared memory (written earlier in this block:
     * several reductions of one value, tl.reduce's elements) is read there */
    int v = in->args[0].kind == OPD_VALUE ? in->args[0].id : -1;
    const char *buf;
    if (v >= 0 && C->red_buf[v] && C->red_blk[v] == C->cur_block) {
        buf = C->red_buf[v];
    } else {
        buf = arena_printf(C->a, "red_smem_%d", id);
        sb_printf(&C->smem, "    __shared__ %s %s[%lld];\n", c_type(xdt), buf,
                  (long long)type_numel(xt));
        if (C->loop_depth > 0) line(C, "__syncthreads();"); /* last iteration's readers */
        exchange_write(C, in, 0, buf, 1, 0);
        line(C, "__syncthreads();");
        if (v >= 0) C->red_buf[v] = buf, C->red_blk[v] = C->cur_block;
    }
    line(C, "%s v%d;", c_type((DType)in->type.dtype), id);
    RedGen g = {C->a, C_CUDA, C->f, in, arena_printf(C->a, "%s[%%s]", buf), NULL, NULL};
    Layout lr = in->type.rank == 0 ? LAYOUT_UNIFORM : C->tile->layout[id];
    Type rt = in->type;
    const char **ls = red_lines(&g, read_pos(C, lr, rt), arena_printf(C->a, "v%d", id));
    for (int i = 0; ls[i]; i++) line(C, "%s", ls[i]);
}

/* An atomic. Each element once: where several threads hold one element (a
 * scalar or a one-element block: every thread; a row or column block of a
 * rank-2 tile: each row or column of threads), the first of them performs
 * it and the old value reaches the others through shared memory. A
 * masked-off element does nothing and reads 0. */
static void emit_atomic(Cuda *C, const Inst *in) {
    const Operand *x = in->args;
    int id = in->result;
    DType dt = (DType)in->type.dtype;
    const char *T = c_type(dt);
    const char *call =
        cuda_atomic_call(C->a, in, element(C, x[0]), in->op == OP_ATOMIC_CAS ? opd(C, x[1]) : NULL,
                         opd(C, x[in->op == OP_ATOMIC_CAS ? 2 : 1]));
    if (in->op == OP_ATOMIC_RMW && x[2].kind == OPD_CONST && !x[2].c.i) call = c_zero(dt);
    else if (in->op == OP_ATOMIC_RMW && !is_true(x[2]))
        call = arena_printf(C->a, "(%s ? %s : %s)", opd(C, x[2]), call, c_zero(dt));
    Layout l = type_numel(in->type) == 1 ? LAYOUT_UNIFORM
               : C->tile->rank == 2      ? C->tile->layout[id]
                                         : LAYOUT_FLAT;
    if (l == LAYOUT_FLAT || l == LAYOUT_TILE) {
        line(C, "%s v%d = %s;", T, id, call);
        return;
    }
    int n = l == LAYOUT_UNIFORM ? 1 : l == LAYOUT_ROWS ? C->tile->rows : C->tile->cols;
    const char *who = l == LAYOUT_UNIFORM ? "threadIdx.x == 0"
                      : l == LAYOUT_ROWS  ? "tile_j == 0"
                                          : "tile_i == 0";
    const char *at = l == LAYOUT_UNIFORM ? "0" : l == LAYOUT_ROWS ? "tile_i" : "tile_j";
    sb_printf(&C->smem, "    __shared__ %s atomic_smem_%d[%d];\n", T, id, n);
    line(C, "if (%s) atomic_smem_%d[%s] = %s;", who, id, at, call);
    line(C, "__syncthreads();");
    line(C, "%s v%d = atomic_smem_%d[%s];", T, id, id, at);
    /* in a loop the buffer is written again next iteration */
    if (C->loop_depth > 0) line(C, "__syncthreads();");
}

/* In a tl.dot kernel's bounding-box tile (shape.h dot_box): the condition
 * under which this thread holds an element of a memory access of shape
 * `t` (NULL: every thread does). */
static const char *box_guard(Cuda *C, Type t, Layout l) {
    if (!C->tile->dot_box || t.rank == 0) return NULL;
    int r, c;
    shape_extent(C->tile, t, l, &r, &c);
    if (t.rank == 1 && l == LAYOUT_FLAT && t.dims[0] < C->tile->threads)
        return arena_printf(C->a, "threadIdx.x < %d", (int)t.dims[0]);
    if (r < C->tile->rows && c < C->tile->cols)
        return arena_printf(C->a, "tile_i < %d && tile_j < %d", r, c);
    if (r < C->tile->rows) return arena_printf(C->a, "tile_i < %d", r);
    if (c < C->tile->cols) return arena_printf(C->a, "tile_j < %d", c);
    return NULL;
}

/* A store's broadcast shape. */
static Type store_shape(const Function *f, const Inst *in) {
    Type shape = type_scalar(DT_NONE);
    for (int k = 0; k < in->nargs; k++) {
        Type s2;
        if (in->args[k].kind != OPD_NONE &&
            shape_broadcast(shape, operand_type(f, in->args[k]), &s2))
            shape = s2;
    }
    return shape;
}

/* The layout of a store's rank-1 access: its first rank-1 operand's. */
static Layout store_layout(Cuda *C, const Inst *in) {
    for (int k = 0; k < in->nargs; k++)
        if (in->args[k].kind == OPD_VALUE && C->f->types[in->args[k].id].rank == 1)
            return shape_use_layout(C->tile, C->f, in, k);
    return LAYOUT_UNIFORM;
}

/* An f32 as the tensor cores read TF32 (the upper 19 bits), or rounded
 * with cvt.rna.tf32.f32 (tf32x3's split). */
static const char *tf32(Cuda *C, const char *x, int rna) {
    C->need_tf32 = 1;
    return arena_printf(C->a, rna ? "mt_tf32_rna(%s)" : "mt_tf32_trunc(%s)", x);
}

/* The tensor-core instruction a dot can use at -O2 (mma.sync, sm_80 and
 * later): f16 / bf16 operands m16n8k16 (operands through ldmatrix), TF32
 * m16n8k8, int8 m16n8k32; none for ieee / tf32x3 f32, f64 and fp8 (the
 * CUDA-core path). */
typedef enum MmaKind { MMA_NONE, MMA_F16, MMA_BF16, MMA_TF32, MMA_S8 } MmaKind;

static MmaKind kind_of(const Function *f, const Inst *in, int tensor_cores) {
    if (!tensor_cores || in->attrs.axis > 1) return MMA_NONE; /* (batched: CUDA cores) */
    DType it = (DType)operand_type(f, in->args[0]).dtype;
    if (it == DT_F16) return MMA_F16;
    if (it == DT_BF16) return MMA_BF16;
    if (it == DT_F32) return in->attrs.flag == DOT_TF32 ? MMA_TF32 : MMA_NONE;
    if (it == DT_I8) return MMA_S8;
    return MMA_NONE;
}

static MmaKind mma_kind(const Cuda *C, const Inst *in) {
    return kind_of(C->f, in, C->tensor_cores);
}

const char *emit_cuda_dot_path(Arena *a, const Function *f, const Inst *in, int tensor_cores) {
    DType it = (DType)operand_type(f, in->args[0]).dtype;
    if (kind_of(f, in, tensor_cores) != MMA_NONE)
        return "tensor cores: mma.sync by warps over the tile's operands in shared memory "
               "(one thread per element of a tile of at most 1024)";
    if (!tensor_cores) return "CUDA cores: -O1 keeps the seed's K loop per thread (-O2 does not)";
    if (in->attrs.axis > 1) return "CUDA cores: a batched (rank-3) dot";
    if (it == DT_F32)
        return in->attrs.flag == DOT_IEEE ? "CUDA cores: input_precision=\"ieee\""
                                          : "CUDA cores: input_precision=\"tf32x3\"";
    return arena_printf(a, "CUDA cores: %s operands", dtype_name(it));
}

/* The CUDA-core K loop of thread (tile_i, tile_j): fused multiply-adds in
 * k order from the accumulator (the host backend's sum), reading the
 * staged operands through `ld` (an element of the shared buffer to its
 * compute type). The batched form ({batch=B}: M is B times the rows of one
 * batch) reads row (tile_i / (M / B)) * K + k of the second operand. */
static void dot_cuda_cores(Cuda *C, const Inst *in, int M, int N, int K, DType it, DType ot) {
    int id = in->result;
    const char *TS = ot == DT_I32 ? "unsigned" : ot == DT_F64 ? "double" : "float";
    line(C, "if (tile_i < %d && tile_j < %d) {", M, N);
    C->indent++;
    const char *a =
        c_load(C->a, it, C_CUDA, arena_printf(C->a, "dot_a_%d[tile_i * %d + k_%d]", id, K, id));
    const char *brow = arena_printf(C->a, "k_%d", id);
    if (in->attrs.axis > 1)
        brow = arena_printf(C->a, "(tile_i / %d * %d + k_%d)", M / in->attrs.axis, K, id);
    const char *b = c_load(C->a, (DType)operand_type(C->f, in->args[1]).dtype, C_CUDA,
                           arena_printf(C->a, "dot_b_%d[%s * %d + tile_j]", id, brow, N));
    line(C, "%s s_%d = %s;", TS, id,
         arena_printf(C->a, ot == DT_I32 ? "(unsigned)v%d" : "v%d", id));
    int prec = it == DT_F32 ? in->attrs.flag : DOT_IEEE;
    if (prec == DOT_TF32X3) {
        line(C, "float t_%d = 0.0f;", id);
        line(C, "for (int k_%d = 0; k_%d < %d; k_%d++)", id, id, K, id);
        line(C, "    t_%d = fmaf(%s, %s, t_%d);", id,
             tf32(C, arena_printf(C->a, "%s - %s", a, tf32(C, a, 1)), 0), tf32(C, b, 1), id);
        line(C, "for (int k_%d = 0; k_%d < %d; k_%d++)", id, id, K, id);
        line(C, "    t_%d = fmaf(%s, %s, t_%d);", id, tf32(C, a, 1),
             tf32(C, arena_printf(C->a, "%s - %s", b, tf32(C, b, 1)), 0), id);
        line(C, "s_%d += t_%d;", id, id);
    }
    line(C, "for (int k_%d = 0; k_%d < %d; k_%d++)", id, id, K, id);
    if (ot == DT_I32) line(C, "    s_%d += (unsigned)((int)%s * (int)%s);", id, a, b);
    else if (prec == DOT_TF32 || prec == DOT_TF32X3)
        line(C, "    s_%d = fmaf(%s, %s, s_%d);", id, tf32(C, a, prec == DOT_TF32X3),
             tf32(C, b, prec == DOT_TF32X3), id);
    else line(C, "    s_%d = %s(%s, %s, s_%d);", id, ot == DT_F64 ? "fma" : "fmaf", a, b, id);
    const char *res = arena_printf(C->a, "s_%d", id);
    if (ot == DT_I32) res = arena_printf(C->a, "(int)s_%d", id);
    else if (dtype_info(ot)->compute != ot) res = c_round(C->a, ot, C_CUDA, res);
    line(C, "v%d = %s;", id, res);
    C->indent--;
    line(C, "}");
}

/* The tensor-core path: warp w < (M/16)(N/8) computes the 16 x 8 block
 * (m0, n0) of the result with mma.sync over K, its accumulator fragment
 * loaded from and stored to the shared C buffer (which holds the
 * accumulator in the tile's layout before and the result after). */
static void dot_mma(Cuda *C, const Inst *in, MmaKind kind, int M, int N, int K) {
    int id = in->result;
    int tiles = (M / 16) * (N / 8);
    const char *CT = kind == MMA_S8 ? "int" : "float";
    line(C, "{");
    C->indent++;
    line(C, "int mt_warp = threadIdx.x / 32, mt_lane = threadIdx.x %% 32;");
    line(C, "if (mt_warp < %d) {", tiles);
    C->indent++;
    line(C, "int m0 = mt_warp / %d * 16, n0 = mt_warp %% %d * 8;", N / 8, N / 8);
    line(C, "int g = mt_lane >> 2, t = mt_lane & 3;");
    line(C, "%s *c_%d = dot_c_%d + (m0 + g) * %d + n0 + t * 2;", CT, id, id, N);
    line(C, "%s c[4] = {c_%d[0], c_%d[1], c_%d[%d], c_%d[%d]};", CT, id, id, id, 8 * N, id,
         8 * N + 1);
    switch (kind) {
    case MMA_F16:
    case MMA_BF16:
        line(C, "for (int k0 = 0; k0 < %d; k0 += 16) {", K);
        line(C, "    unsigned a[4], b[2];");
        line(C, "    mt_ldsm_x4(a, dot_a_%d + (m0 + mt_lane %% 16) * %d + k0 + mt_lane / 16 * 8);",
             id, K);
        line(C, "    mt_ldsm_x2_trans(b, dot_b_%d + (k0 + mt_lane %% 16) * %d + n0);", id, N);
        line(C, "    mt_mma_%s(c, a, b);", kind == MMA_F16 ? "f16" : "bf16");
        line(C, "}");
        break;
    case MMA_TF32:
        C->need_tf32 = 1;
        line(C, "for (int k0 = 0; k0 < %d; k0 += 8) {", K);
        line(C, "    const float *pa = dot_a_%d + (m0 + g) * %d + k0 + t;", id, K);
        line(C, "    const float *pb = dot_b_%d + (k0 + t) * %d + n0 + g;", id, N);
        line(C,
             "    unsigned a[4] = {__float_as_uint(mt_tf32_trunc(pa[0])), "
             "__float_as_uint(mt_tf32_trunc(pa[%d])),",
             8 * K);
        line(C,
             "                     __float_as_uint(mt_tf32_trunc(pa[4])), "
             "__float_as_uint(mt_tf32_trunc(pa[%d]))};",
             8 * K + 4);
        line(C,
             "    unsigned b[2] = {__float_as_uint(mt_tf32_trunc(pb[0])), "
             "__float_as_uint(mt_tf32_trunc(pb[%d]))};",
             4 * N);
        line(C, "    mt_mma_tf32(c, a, b);");
        line(C, "}");
        break;
    case MMA_S8:
        line(C, "for (int k0 = 0; k0 < %d; k0 += 32) {", K);
        line(C, "    const int8_t *pa = dot_a_%d + (m0 + g) * %d + k0 + t * 4;", id, K);
        line(C, "    const int8_t *pb = dot_b_%d + (k0 + t * 4) * %d + n0 + g;", id, N);
        line(C,
             "    unsigned a[4] = {mt_pack4(pa, 1), mt_pack4(pa + %d, 1), mt_pack4(pa + 16, 1), "
             "mt_pack4(pa + %d, 1)};",
             8 * K, 8 * K + 16);
        line(C, "    unsigned b[2] = {mt_pack4(pb, %d), mt_pack4(pb + %d, %d)};", N, 16 * N, N);
        line(C, "    mt_mma_s8(c, a, b);");
        line(C, "}");
        break;
    case MMA_NONE: break;
    }
    line(C, "c_%d[0] = c[0];", id);
    line(C, "c_%d[1] = c[1];", id);
    line(C, "c_%d[%d] = c[2];", id, 8 * N);
    line(C, "c_%d[%d] = c[3];", id, 8 * N + 1);
    C->indent--;
    line(C, "}");
    C->indent--;
    line(C, "}");
}

/* tl.dot: the operands staged in shared memory by the threads inside their
 * shapes (the tile is the bounding box, shape.h), then the product: at -O1
 * and for dtypes without tensor cores, a K loop per thread of the (M, N)
 * result (dot_cuda_cores); at -O2 on sm_80 and later, mma.sync by warps
 * through a shared C buffer (dot_mma), the CUDA-core loop under
 * `#else` for older GPUs. */
static void emit_dot(Cuda *C, const Inst *in) {
    C->has_dot = 1;
    const Function *f = C->f;
    int id = in->result;
    Type xt = operand_type(f, in->args[0]), yt = operand_type(f, in->args[1]);
    /* (batched: M and KB are B times one batch's rows) */
    int M = xt.dims[0], K = xt.dims[1], N = yt.dims[1], KB = yt.dims[0];
    DType ot = (DType)in->type.dtype, it = (DType)xt.dtype, jt = (DType)yt.dtype;
    MmaKind kind = mma_kind(C, in);
    /* the staged elements: memory types (ldmatrix reads 16-bit halves),
     * which c_load converts to the compute type */
    const char *TA = c_mem_type(it, C_CUDA), *TB = c_mem_type(jt, C_CUDA);
    sb_printf(&C->smem, "    __shared__ __align__(16) %s dot_a_%d[%d];\n", TA, id, M * K);
    sb_printf(&C->smem, "    __shared__ __align__(16) %s dot_b_%d[%d];\n", TB, id, KB * N);
    line(C, "if (tile_i < %d && tile_j < %d) dot_a_%d[tile_i * %d + tile_j] = %s;", M, K, id, K,
         c_store(C->a, it, C_CUDA, opd(C, in->args[0])));
    line(C, "if (tile_i < %d && tile_j < %d) dot_b_%d[tile_i * %d + tile_j] = %s;", KB, N, id, N,
         c_store(C->a, jt, C_CUDA, opd(C, in->args[1])));
    line(C, "%s v%d = %s;", c_type(ot), id, opd(C, in->args[2]));
    if (kind == MMA_NONE) {
        line(C, "__syncthreads();");
        dot_cuda_cores(C, in, M, N, K, it, ot);
        line(C, "__syncthreads();");
        return;
    }
    C->need_mma |= 1u << kind;
    const char *CT = kind == MMA_S8 ? "int" : "float";
    /* f16 / bf16: sm_80 GPUs; TF32 and int8 also the CPU emulation of
     * test/emu (compiled without nvcc), whose mt_mma_* are C */
    line(C, kind == MMA_TF32 || kind == MMA_S8 ? "#if MT_MMA_SM80 || MT_MMA_EMULATED"
                                               : "#if MT_MMA_SM80");
    sb_printf(&C->smem, "#if %s\n    __shared__ %s dot_c_%d[%d];\n#endif\n",
              kind == MMA_TF32 || kind == MMA_S8 ? "MT_MMA_SM80 || MT_MMA_EMULATED" : "MT_MMA_SM80",
              CT, id, M * N);
    line(C, "if (tile_i < %d && tile_j < %d) dot_c_%d[tile_i * %d + tile_j] = v%d;", M, N, id, N,
         id);
    line(C, "__syncthreads();");
    dot_mma(C, in, kind, M, N, K);
    line(C, "__syncthreads();");
    const char *res = arena_printf(C->a, "dot_c_%d[tile_i * %d + tile_j]", id, N);
    if (dtype_info(ot)->compute != ot) res = c_round(C->a, ot, C_CUDA, res);
    line(C, "if (tile_i < %d && tile_j < %d) v%d = %s;", M, N, id, res);
    line(C, "#else");
    line(C, "__syncthreads();");
    dot_cuda_cores(C, in, M, N, K, it, ot);
    line(C, "#endif");
    line(C, "__syncthreads();");
}

static void emit_block(Cuda *C, const Block *b);

/* The variables of a region op's lanes, named after its results (a loop's
 * region arguments share them), initialized from the carried inputs (an
 * if's: zero, each branch assigns them). */
static void declare_lanes(Cuda *C, const Inst *in) {
    const Loop *l = in->loop;
    const Function *f = C->f;
    for (int k = 0; k < l->nresults; k++) {
        int r = l->results[k];
        int arg = k < l->ncarried ? l->args[k] : r;
        const char *name = arena_printf(C->a, "v%d", r);
        Type t = f->types[r];
        C->user = NULL;
        C->lane_layout = C->tile->layout[arg];
        if (t.ptr) {
            /* a carried pointer: its element index, from one base parameter
             * (an if's: known once a branch is emitted) */
            const char *base = NULL, *index = NULL;
            if (k < l->ncarried) pointer(C, l->inits[k], &base, &index);
            line(C, "%s %s = %s;", C->index_type, name, index ? index : "0");
            C->ptr_base[r] = C->ptr_base[arg] = base;
            C->ptr_index[r] = C->ptr_index[arg] = name;
        } else {
            line(C, "%s %s = %s;", c_type((DType)t.dtype), name,
                 k < l->ncarried ? opd(C, l->inits[k]) : c_zero((DType)t.dtype));
            C->vname[r] = C->vname[arg] = name;
        }
    }
}

/* The lanes take the yields: a parallel assignment; temporaries only when
 * a yield reads a region argument that an earlier assignment overwrites. */
static void assign_lanes(Cuda *C, const Inst *in, const Operand *yields) {
    const Loop *l = in->loop;
    const Function *f = C->f;
    int hazard = 0;
    for (int k = 0; k < l->nyields; k++)
        for (int j = 0; j < k && j < l->ncarried; j++)
            if (yields[k].kind == OPD_VALUE && yields[k].id == l->args[j]) hazard = 1;
    const char **vals = ARENA_ARRAY(C->a, const char *, l->nyields + 1);
    for (int k = 0; k < l->nyields; k++) {
        int r = l->results[k];
        Type t = f->types[r];
        C->user = NULL;
        C->lane_layout = C->tile->layout[k < l->ncarried ? l->args[k] : r];
        if (t.ptr) {
            const char *base, *index;
            pointer(C, yields[k], &base, &index);
            if (!C->ptr_base[r]) C->ptr_base[r] = base;
            MT_ASSERT(strcmp(C->ptr_base[r], base) == 0);
            vals[k] = index ? index : "0";
        } else {
            vals[k] = opd(C, yields[k]);
        }
        if (hazard) {
            line(C, "%s v%d_next = %s;", t.ptr ? C->index_type : c_type((DType)t.dtype),
                 l->results[k], vals[k]);
            vals[k] = arena_printf(C->a, "v%d_next", l->results[k]);
        }
    }
    for (int k = 0; k < l->nyields; k++) {
        const char *name = arena_printf(C->a, "v%d", l->results[k]);
        if (strcmp(vals[k], name) != 0) line(C, "%s = %s;", name, vals[k]);
    }
}

static void emit_loop(Cuda *C, const Inst *in) {
    const Loop *l = in->loop;
    declare_lanes(C, in);
    C->user = in;
    if (in->op == OP_IF) {
        line(C, "if (%s) {", opd(C, l->cond));
        C->indent++;
        emit_block(C, &l->body);
        assign_lanes(C, in, l->yields);
        C->indent--;
        line(C, "} else {");
        C->indent++;
        emit_block(C, &l->orelse);
        assign_lanes(C, in, l->else_yields);
        C->indent--;
        line(C, "}");
        return;
    }
    if (in->op == OP_WHILE) {
        line(C, "for (;;) {");
        C->indent++;
        C->loop_depth++;
        emit_block(C, &l->before);
        C->user = in;
        line(C, "if (!%s) break;", opd(C, l->cond));
    } else {
        if (l->unroll > 0) line(C, "#pragma unroll %d", l->unroll);
        line(C, "for (int v%d = %s; v%d < %s; v%d += %s) {", l->index, opd(C, l->start), l->index,
             opd(C, l->stop), l->index, opd(C, l->step));
        C->vname[l->index] = arena_printf(C->a, "v%d", l->index);
        C->indent++;
        C->loop_depth++;
    }
    emit_block(C, &l->body);
    assign_lanes(C, in, l->yields);
    C->loop_depth--;
    C->indent--;
    line(C, "}");
}

/* device_print: each thread prints the element it holds (a scalar or a
 * replicated element: the thread that holds it first), as Triton's format. */
static void emit_print(Cuda *C, const Inst *in) {
    const Operand *x = in->args;
    Type t = operand_type(C->f, x[0]);
    Layout l = LAYOUT_UNIFORM;
    if (x[0].kind == OPD_VALUE) {
        const Inst *def = C->f->defs[x[0].id];
        l = def && def->op == OP_ARANGE ? shape_use_layout(C->tile, C->f, in, 0)
                                        : C->tile->layout[x[0].id];
    }
    const char *idx[2] = {"0", "0"}, *guard = NULL;
    if (t.rank == 0 || l == LAYOUT_UNIFORM) guard = "threadIdx.x == 0";
    else if (l == LAYOUT_FLAT) idx[0] = "threadIdx.x";
    else if (l == LAYOUT_ROWS) idx[0] = "tile_i", guard = "tile_j == 0";
    else if (l == LAYOUT_COLS) idx[t.rank - 1] = "tile_j", guard = "tile_i == 0";
    else idx[0] = "tile_i", idx[1] = "tile_j";
    /* a bounding-box tile: the threads inside the value's own shape */
    if (l != LAYOUT_UNIFORM && t.rank > 0) guard = both(C, guard, box_guard(C, t, l));
    DType dt = (DType)t.dtype;
    const char *v = dtype_is_float(dt) ? opd_as(C, x[0], dtype_info(dt)->compute) : opd(C, x[0]);
    StrBuf args;
    sb_init(&args, C->a);
    c_print_indices(&args, C->a, &in->attrs, t, idx, "(unsigned)%s");
    StrBuf prefix;
    sb_init(&prefix, C->a);
    sb_quote(&prefix, in->attrs.text ? in->attrs.text : "");
    const char *call = arena_printf(
        C->a,
        "printf(\"%s\", (unsigned)blockIdx.x, (unsigned)blockIdx.y, (unsigned)blockIdx.z%s, %s, "
        "%s);",
        c_print_format(C->a, c_print_type(&in->attrs, t), in->attrs.flag, in->attrs.start,
                       in->attrs.end),
        sb_str(&args), sb_str(&prefix), c_print_arg(C->a, dt, in->attrs.flag, v));
    if (guard) line(C, "if (%s) %s", guard, call);
    else line(C, "%s", call);
}

/* device_assert (--debug): CUDA's own assertion failure, which prints
 * "file:line: function: block: [..], thread: [..] Assertion `msg` failed."
 * and fails the launch, as Triton's. */
static void emit_assert(Cuda *C, const Inst *in) {
    StrBuf sb;
    sb_init(&sb, C->a);
    /* a bounding-box tile: the threads inside the condition's own shape */
    Type t = operand_type(C->f, in->args[0]);
    const char *inside = NULL;
    if (t.rank > 0 && in->args[0].kind == OPD_VALUE && type_numel(t) > 1)
        inside = box_guard(C, t, operand_layout(C, in, 0));
    if (inside) sb_printf(&sb, "if ((%s) && !(%s)) __assertfail(", inside, opd(C, in->args[0]));
    else sb_printf(&sb, "if (!(%s)) __assertfail(", opd(C, in->args[0]));
    sb_quote(&sb, in->attrs.text ? in->attrs.text : "");
    sb_puts(&sb, ", ");
    sb_quote(&sb, in->attrs.file ? in->attrs.file : "");
    sb_printf(&sb, ", %d, ", in->pos.line);
    sb_quote(&sb, in->attrs.func ? in->attrs.func : "");
    sb_puts(&sb, ", 1);");
    line(C, "%s", sb_str(&sb));
}

/* ---- The hooks of the walker (cgen/walk.h), one per op class ---------- */

static void on_begin(void *be, const Inst *in) {
    Cuda *C = be;
    if (in->result >= 0) C->vname[in->result] = arena_printf(C->a, "v%d", in->result);
    C->user = in;
}

static void on_index(void *be, const Inst *in) {
    Cuda *C = be;
    int id = in->result;
    switch (in->op) {
    case OP_PROGRAM_ID: line(C, "int v%d = blockIdx.%c;", id, "xyz"[in->attrs.axis]); return;
    case OP_NUM_PROGRAMS: line(C, "int v%d = gridDim.%c;", id, "xyz"[in->attrs.axis]); return;
    default:
        if (C->tile->rank == 2) return; /* rendered at each use, as tile_i / tile_j */
        line(C, "int v%d = %s;", id, arange_index(C, in, C->tile->layout[id]));
        return;
    }
}

static void on_create(void *be, const Inst *in) {
    Cuda *C = be;
    const Operand *x = in->args;
    const char *T = c_type((DType)in->type.dtype);
    if (in->op != OP_FULL) {
        line(C, "%s v%d = %s;", T, in->result, c_zero((DType)in->type.dtype));
        return;
    }
    /* an i32/f32 constant as written, as the seed: float v0 = 2; */
    line(C, "%s v%d = %s;", T, in->result,
         x[0].kind == OPD_CONST && (x[0].c.dt == DT_I32 || x[0].c.dt == DT_F32) &&
                 (in->type.dtype == DT_I32 || in->type.dtype == DT_F32)
             ? opd(C, x[0])
             : opd_as(C, x[0], (DType)in->type.dtype));
}

static void on_shape(void *be, const Inst *in) {
    Cuda *C = be;
    if (in->op == OP_EXPAND_DIMS || in->op == OP_BROADCAST)
        line(C, "%s v%d = %s;", c_type((DType)in->type.dtype), in->result, opd(C, in->args[0]));
    else emit_exchange(C, in);
}

static void on_compute(void *be, const Inst *in) {
    Cuda *C = be;
    const char *ops[MT_MAX_OPERANDS] = {NULL, NULL, NULL};
    for (int k = 0; k < in->nargs; k++) ops[k] = opd_for(C, in, k);
    line(C, "%s v%d = %s;", c_type((DType)in->type.dtype), in->result,
         c_op_expr(C->a, C_CUDA, C->f, in, ops));
}

static void on_pointer(void *be, const Inst *in) {
    Cuda *C = be;
    int id = in->result;
    const Operand *x = in->args;
    const char *base, *index;
    switch (in->op) {
    case OP_ADDPTR: {
        pointer(C, x[0], &base, &index);
        const char *off = opd(C, x[1]);
        C->ptr_base[id] = base;
        C->ptr_index[id] = index ? arena_printf(C->a, "(%s + %s)", index, off) : off;
        C->vname[id] = NULL;
        return;
    }
    case OP_INT_TO_PTR: {
        /* an address read from an integer: a pointer variable of its own,
         * the base of the pointers computed from it */
        const char *P = c_mem_type((DType)in->attrs.dtype, C_CUDA);
        line(C, "%s *v%d = (%s *)(uintptr_t)%s;", P, id, P, opd(C, x[0]));
        C->ptr_base[id] = arena_printf(C->a, "v%d", id);
        C->ptr_index[id] = NULL;
        C->vname[id] = NULL;
        return;
    }
    default:
        pointer(C, x[0], &base, &index);
        line(C, "long long v%d = (long long)(uintptr_t)(%s%s%s);", id, base, index ? " + " : "",
             index ? index : "");
        return;
    }
}

static void on_load(void *be, const Inst *in) {
    Cuda *C = be;
    const Operand *x = in->args;
    /* a runtime `other` converts to the pointee (else an f32 one would
     * make the conditional f32 and round an i32 load) */
    DType dt = (DType)in->type.dtype;
    const char *other = x[2].kind == OPD_NONE ? c_zero(dt) : opd_as(C, x[2], dt);
    const char *mask = x[1].kind == OPD_NONE ? "true" : opd(C, x[1]);
    const char *g = box_guard(C, in->type, C->tile->layout[in->result]);
    if (g)
        mask = strcmp(mask, "true") == 0 ? arena_printf(C->a, "(%s)", g)
                                         : arena_printf(C->a, "(%s) && %s", g, mask);
    line(C, "%s v%d = (%s ? %s : %s);", c_type(dt), in->result, mask,
         c_load(C->a, dt, C_CUDA, element(C, x[0])), other);
}

static void on_store(void *be, const Inst *in) {
    Cuda *C = be;
    const Operand *x = in->args;
    const char *dst = element(C, x[0]);
    DType pt = (DType)operand_type(C->f, x[0]).dtype;
    const char *val = c_store(C->a, pt, C_CUDA,
                              dtype_info(pt)->compute != pt ? opd_as(C, x[1], pt) : opd(C, x[1]));
    if (x[2].kind == OPD_CONST && !x[2].c.i) return; /* never stores */
    const char *g = box_guard(C, store_shape(C->f, in), store_layout(C, in));
    if (g) {
        if (is_true(x[2])) line(C, "if (%s) {", g);
        else line(C, "if ((%s) && %s) {", g, opd(C, x[2]));
    } else if (is_true(x[2])) {
        line(C, "%s = %s;", dst, val);
        return;
    } else {
        line(C, "if (%s) {", opd(C, x[2]));
    }
    C->indent++;
    line(C, "%s = %s;", dst, val);
    C->indent--;
    line(C, "}");
}

static void on_reduce(void *be, const Inst *in) {
    Cuda *C = be;
    int flat_op = in->op == OP_SUM || in->op == OP_MAX || in->op == OP_MIN;
    if (flat_op && shape_reduce_flat(C->tile, C->f, in)) emit_reduce(C, in);
    else emit_axis_reduce(C, in);
}

static void on_region(void *be, const Inst *in) { emit_loop(be, in); }
static void on_atomic(void *be, const Inst *in) { emit_atomic(be, in); }
static void on_dot(void *be, const Inst *in) { emit_dot(be, in); }

static void on_debug(void *be, const Inst *in) {
    Cuda *C = be;
    if (in->op == OP_PRINT) emit_print(C, in);
    else if (in->op == OP_ASSERT) emit_assert(C, in);
    else line(C, "__syncthreads();");
}

static void emit_block(Cuda *C, const Block *b) {
    const Block *outer = C->cur_block;
    C->cur_block = b;
    cwalk_block(&C->walk, b);
    C->cur_block = outer;
}

/* The mma.sync helpers of tl.dot at -O2 (emit_dot), each once per
 * translation unit: PTX on sm_80 and later; for test/emu's CPU emulation
 * (no nvcc), TF32 and int8 mma as C over the warp's registers exchanged
 * with __shfl_sync, in the fragment layouts of the PTX ISA. */
static void emit_mma_helpers(StrBuf *sb, unsigned need) {
    sb_puts(sb,
            "#ifndef MT_MMA_LEVELS\n#define MT_MMA_LEVELS\n"
            "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800\n#define MT_MMA_SM80 1\n#else\n"
            "#define MT_MMA_SM80 0\n#endif\n"
            "#if !defined(__CUDA_ARCH__) && !defined(__NVCC__)\n#define MT_MMA_EMULATED 1\n#else\n"
            "#define MT_MMA_EMULATED 0\n#endif\n#endif\n");
    if (need & ((1u << MMA_F16) | (1u << MMA_BF16)))
        sb_puts(
            sb,
            "#if MT_MMA_SM80 && !defined(MT_LDSM_HELPERS)\n#define MT_LDSM_HELPERS\n"
            "static __device__ __forceinline__ void mt_ldsm_x4(unsigned r[4], const void *p) {\n"
            "    unsigned s = (unsigned)__cvta_generic_to_shared(p);\n"
            "    asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, "
            "[%4];\"\n"
            "                 : \"=r\"(r[0]), \"=r\"(r[1]), \"=r\"(r[2]), \"=r\"(r[3]) : "
            "\"r\"(s));\n}\n"
            "static __device__ __forceinline__ void mt_ldsm_x2_trans(unsigned r[2], const void *p) "
            "{\n"
            "    unsigned s = (unsigned)__cvta_generic_to_shared(p);\n"
            "    asm volatile(\"ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\"\n"
            "                 : \"=r\"(r[0]), \"=r\"(r[1]) : \"r\"(s));\n}\n#endif\n");
    static const struct {
        MmaKind kind;
        const char *name, *shape, *types, *creg, *ctype;
    } mmas[] = {
        {MMA_F16, "f16", "m16n8k16", "f32.f16.f16.f32", "f", "float"},
        {MMA_BF16, "bf16", "m16n8k16", "f32.bf16.bf16.f32", "f", "float"},
        {MMA_TF32, "tf32", "m16n8k8", "f32.tf32.tf32.f32", "f", "float"},
        {MMA_S8, "s8", "m16n8k32", "s32.s8.s8.s32", "r", "int"},
    };
    for (size_t i = 0; i < sizeof mmas / sizeof mmas[0]; i++) {
        if (!(need & (1u << mmas[i].kind))) continue;
        sb_printf(
            sb,
            "#if MT_MMA_SM80 && !defined(MT_MMA_%s)\n#define MT_MMA_%s\n"
            "static __device__ __forceinline__ void mt_mma_%s(%s c[4], const unsigned a[4], "
            "const unsigned b[2]) {\n"
            "    asm volatile(\"mma.sync.aligned.%s.row.col.%s {%%0, %%1, %%2, %%3}, {%%4, %%5, "
            "%%6, "
            "%%7}, {%%8, %%9}, {%%0, %%1, %%2, %%3};\"\n"
            "                 : \"+%s\"(c[0]), \"+%s\"(c[1]), \"+%s\"(c[2]), \"+%s\"(c[3])\n"
            "                 : \"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3]), \"r\"(b[0]), "
            "\"r\"(b[1]));\n}\n#endif\n",
            mmas[i].name, mmas[i].name, mmas[i].name, mmas[i].ctype, mmas[i].shape, mmas[i].types,
            mmas[i].creg, mmas[i].creg, mmas[i].creg, mmas[i].creg);
    }
    if (need & (1u << MMA_TF32))
        sb_puts(
            sb,
            "#if MT_MMA_EMULATED && !defined(MT_MMA_tf32)\n#define MT_MMA_tf32\n"
            "/* m16n8k8: a = A[g][t], A[g+8][t], A[g][t+4], A[g+8][t+4]; b = B[t][g], B[t+4][g];\n"
            " * c = C[g][2t], C[g][2t+1], C[g+8][2t], C[g+8][2t+1] (g = lane / 4, t = lane % 4) "
            "*/\n"
            "static inline void mt_mma_tf32(float c[4], const unsigned a[4], const unsigned b[2]) "
            "{\n"
            "    int lane = threadIdx.x % 32, g = lane >> 2, t = lane & 3;\n"
            "    for (int k = 0; k < 8; k++) {\n"
            "        int hi = k >= 4;\n"
            "        float a0 = __uint_as_float(__shfl_sync(0xffffffffu, a[2 * hi], g * 4 + k % "
            "4));\n"
            "        float a1 = __uint_as_float(__shfl_sync(0xffffffffu, a[2 * hi + 1], g * 4 + k "
            "% 4));\n"
            "        float b0 = __uint_as_float(__shfl_sync(0xffffffffu, b[hi], t * 8 + k % 4));\n"
            "        float b1 = __uint_as_float(__shfl_sync(0xffffffffu, b[hi], t * 8 + 4 + k % "
            "4));\n"
            "        c[0] = fmaf(a0, b0, c[0]);\n        c[1] = fmaf(a0, b1, c[1]);\n"
            "        c[2] = fmaf(a1, b0, c[2]);\n        c[3] = fmaf(a1, b1, c[3]);\n    "
            "}\n}\n#endif\n");
    if (need & (1u << MMA_S8))
        sb_puts(
            sb,
            "#if MT_MMA_EMULATED && !defined(MT_MMA_s8)\n#define MT_MMA_s8\n"
            "/* m16n8k32: a = A[g][4t..], A[g+8][4t..], A[g][16+4t..], A[g+8][16+4t..];\n"
            " * b = B[4t..][g], B[16+4t..][g] (4 bytes each); c as for f32 */\n"
            "static inline void mt_mma_s8(int c[4], const unsigned a[4], const unsigned b[2]) {\n"
            "    int lane = threadIdx.x % 32, g = lane >> 2, t = lane & 3;\n"
            "    for (int k = 0; k < 32; k++) {\n"
            "        int hi = k >= 16, sh = (k % 4) * 8, src = (k % 16) / 4;\n"
            "        int a0 = (signed char)(__shfl_sync(0xffffffffu, a[2 * hi], g * 4 + src) >> "
            "sh);\n"
            "        int a1 = (signed char)(__shfl_sync(0xffffffffu, a[2 * hi + 1], g * 4 + src) "
            ">> sh);\n"
            "        int b0 = (signed char)(__shfl_sync(0xffffffffu, b[hi], t * 8 + src) >> sh);\n"
            "        int b1 = (signed char)(__shfl_sync(0xffffffffu, b[hi], t * 8 + 4 + src) >> "
            "sh);\n"
            "        c[0] = (int)((unsigned)c[0] + (unsigned)(a0 * b0));\n"
            "        c[1] = (int)((unsigned)c[1] + (unsigned)(a0 * b1));\n"
            "        c[2] = (int)((unsigned)c[2] + (unsigned)(a1 * b0));\n"
            "        c[3] = (int)((unsigned)c[3] + (unsigned)(a1 * b1));\n    }\n}\n#endif\n");
    if (need & (1u << MMA_S8))
        sb_puts(
            sb,
            "#ifndef MT_PACK4\n#define MT_PACK4\n"
            "/* four int8 at p, p + stride, ... as one register, the first in the low byte */\n"
            "static __device__ __forceinline__ unsigned mt_pack4(const int8_t *p, int stride) {\n"
            "    return (unsigned)(uint8_t)p[0] | (unsigned)(uint8_t)p[stride] << 8 |\n"
            "           (unsigned)(uint8_t)p[2 * stride] << 16 | (unsigned)(uint8_t)p[3 * stride] "
            "<< 24;\n"
            "}\n#endif\n");
    sb_putc(sb, '\n');
}

const char *cuda_tf32_helpers(void) {
    return "#ifndef MT_TF32_HELPERS\n"
           "#define MT_TF32_HELPERS\n"
           "/* TF32 (tl.dot): the tensor cores read the upper 19 bits of an f32;\n"
           " * tf32x3 splits with cvt.rna.tf32.f32. NaN and infinities unchanged. */\n"
           "static __device__ __forceinline__ float mt_tf32_trunc(float x) {\n"
           "    unsigned u = __float_as_uint(x);\n"
           "    return (u & 0x7f800000u) == 0x7f800000u ? x : __uint_as_float(u & 0xffffe000u);\n"
           "}\n"
           "static __device__ __forceinline__ float mt_tf32_rna(float x) {\n"
           "    unsigned u = __float_as_uint(x);\n"
           "    return (u & 0x7f800000u) == 0x7f800000u ? x\n"
           "                                           : __uint_as_float((u + 0x1000u) & "
           "0xffffe000u);\n"
           "}\n"
           "#endif\n\n";
}

const char *emit_cuda_kernel(Arena *a, const Function *f, const TileInfo *tile,
                             const char *symbol) {
    return emit_cuda_kernel_ex(a, f, tile, symbol, 0);
}

const char *emit_cuda_kernel_ex(Arena *a, const Function *f, const TileInfo *tile,
                                const char *symbol, int tensor_cores) {
    Cuda C = {0};
    C.tensor_cores = tensor_cores;
    C.a = a;
    C.f = f;
    C.tile = tile;
    C.pnames = c_param_names(a, f);
    C.vname = ARENA_ARRAY(a, const char *, f->nvalues + 1);
    C.ptr_base = ARENA_ARRAY(a, const char *, f->nvalues + 1);
    C.ptr_index = ARENA_ARRAY(a, const char *, f->nvalues + 1);
    C.index_type = wide_offsets(f, &f->body) ? "long long" : "int";
    C.walk = (CWalk){.be = &C,
                     .begin = on_begin,
                     .index = on_index,
                     .create = on_create,
                     .shape = on_shape,
                     .compute = on_compute,
                     .pointer = on_pointer,
                     .load = on_load,
                     .store = on_store,
                     .reduce = on_reduce,
                     .region = on_region,
                     .atomic = on_atomic,
                     .debug = on_debug,
                     .dot = on_dot};
    C.red_buf = ARENA_ARRAY(a, const char *, f->nvalues + 1);
    C.red_blk = ARENA_ARRAY(a, const Block *, f->nvalues + 1);
    sb_init(&C.smem, a);
    StrBuf body, out;
    sb_init(&body, a);
    sb_init(&out, a);
    C.out = &body;
    C.indent = 1;
    if (tile->rank == 2) {
        line(&C, "int tile_i = threadIdx.x / %d;", tile->cols);
        line(&C, "int tile_j = threadIdx.x %% %d;", tile->cols);
    }
    emit_block(&C, &f->body);
    sb_puts(&out, cuda_atomic_helpers(a, sb_str(&body)));
    sb_puts(&out, asm_cuda_helpers(a, f, sb_str(&body)));
    if (C.need_mma) emit_mma_helpers(&out, C.need_mma);
    if (C.need_tf32) sb_puts(&out, cuda_tf32_helpers());
    if (C.has_dot)
        sb_printf(&out, "extern \"C\" __global__ __launch_bounds__(%d)\nvoid %s(",
                  tile->block_threads, symbol);
    else sb_printf(&out, "extern \"C\" __global__\nvoid %s(", symbol);
    for (int i = 0; i < f->nparams; i++)
        sb_printf(&out, "%s%s %s", i ? ", " : "", c_param_type(a, f->params[i].type), C.pnames[i]);
    sb_puts(&out, ") {\n");
    if (C.smem.len) {
        sb_puts(&out, sb_str(&C.smem));
        sb_putc(&out, '\n');
    }
    sb_puts(&out, sb_str(&body));
    sb_puts(&out, "}\n");
    return sb_str(&out);
}
