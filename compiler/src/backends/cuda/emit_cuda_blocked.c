/* The -O2 CUDA backend: a blocked layout in which each thread holds
 * several elements of the tile (DESIGN 8 generalized, issue 8).
 *
 * Layout. A rank-1 tile of width W is spread as tn consecutive elements
 * per thread (thread t holds elements t*tn .. t*tn+tn-1). A rank-2 tile
 * (R, C) is spread over a (R/tm) x (C/tn) grid of threads, thread (ty, tx)
 * holding rows ty*tm .. ty*tm+tm-1 and columns tx*tn .. tx*tn+tn-1. A value
 * is stored per thread as an array over its own layout (shape.h): rows
 * (tm), columns (tn), tile (tm x tn), flat (tm*tn) or one uniform scalar;
 * aranges, splats (zeros/full) and pointers are not stored but rendered at
 * each use. Every op is a loop over the elements the thread holds, fully
 * unrolled by nvcc, so arrays live in registers.
 *
 * Memory. Loads and stores along the contiguous axis of a layout become
 * 128-bit accesses when the index is provably contiguous and 4-aligned
 * (a small contiguity/divisibility analysis, like Triton's AxisInfo), the
 * base pointer is 16-byte aligned (the *fp32:16 hint, or a check at run
 * time) and the group's mask holds; otherwise per-element accesses.
 *
 * Reductions: per-thread partials, then warp shuffles, then one exchange
 * of warp partials through shared memory; no tree of __syncthreads().
 *
 * Runtime loops whose body accumulates an outer product of a row block and
 * a column block (the seed's runtime-K matmul) are lowered by
 * emit_cuda_fma.c to a shared-memory staged, register-blocked loop. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cgen/asm.h"
#include "cgen/cgen.h"
#include "cgen/walk.h"
#include "backends/cuda/cuda_atomic.h"
#include "backends/cuda/cuda_blocked.h"
#include "backends/cuda/cuda_dot_tc.h"
#include "layout/axis.h"
#include "layout/layout.h"
#include "cgen/reduce_gen.h"

static int divides(int a, int b) { return a > 0 && b % a == 0; }

/* ---- Emission context ------------------------------------------------- */

void cb_line(CudaB *C, const char *fmt, ...) {
    sb_printf(C->out, "%*s", C->indent * 4, "");
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(C->out, fmt, ap);
    va_end(ap);
    sb_putc(C->out, '\n');
}

static int is_arange(const CudaB *C, int v) {
    return C->f->defs[v] && C->f->defs[v]->op == OP_ARANGE;
}

/* The element count and array suffix of a layout. */
int cb_count(const CudaB *C, Layout l) { return layout_slots(C->tile, l); }

static const char *decl_suffix(CudaB *C, Layout l) {
    const TileInfo *t = C->tile;
    switch (l) {
    case LAYOUT_ROWS: return t->tm > 1 ? arena_printf(C->a, "[%d]", t->tm) : "";
    case LAYOUT_COLS: return t->tn > 1 ? arena_printf(C->a, "[%d]", t->tn) : "";
    case LAYOUT_TILE:
        return arena_printf(C->a, "%s%s", t->tm > 1 ? arena_printf(C->a, "[%d]", t->tm) : "",
                            t->tn > 1 ? arena_printf(C->a, "[%d]", t->tn) : "");
    case LAYOUT_FLAT: return t->tm * t->tn > 1 ? arena_printf(C->a, "[%d]", t->tm * t->tn) : "";
    default: return "";
    }
}

/* The layout a value is stored in (the layout of its own shape). */
Layout cb_layout(const CudaB *C, int v) { return C->tile->layout[v]; }

/* An index into a stored value of layout `l`, at element (i, j) / e. */
static const char *subscript(CudaB *C, Layout l, const char *i, const char *j) {
    const TileInfo *t = C->tile;
    switch (l) {
    case LAYOUT_ROWS: return t->tm > 1 ? arena_printf(C->a, "[%s]", i) : "";
    case LAYOUT_COLS: return t->tn > 1 ? arena_printf(C->a, "[%s]", j) : "";
    case LAYOUT_TILE:
        return arena_printf(C->a, "%s%s", t->tm > 1 ? arena_printf(C->a, "[%s]", i) : "",
                            t->tn > 1 ? arena_printf(C->a, "[%s]", j) : "");
    case LAYOUT_FLAT: return t->tm * t->tn > 1 ? arena_printf(C->a, "[%s]", j) : "";
    default: return "";
    }
}

/* The coordinates of element (i, j) of the thread: the layout plan's
 * (layout.h). With at least two groups of g elements along an axis (g: 4
 * along rows, the 16-byte group along columns), the thread's elements
 * come in runs of g consecutive ones, the runs a stride apart, so that
 * neighbouring threads hold neighbouring 16-byte groups (coalesced, and
 * conflict-free in shared memory); with fewer, they are consecutive. */
/* Several programs per block (TileInfo.group_m x group_n): warp-sized
 * programs mt_pm + group_m * mt_pn of the block, at grid coordinates
 * (blockIdx.x * group_m + mt_pm, blockIdx.y * group_n + mt_pn). */
const char *cb_program_id(CudaB *C, int axis, int cast) {
    const TileInfo *t = C->tile;
    char c = "xyz"[axis];
    if (C->progs > 1 && axis < 2)
        return arena_printf(C->a, "((int)blockIdx.%c * %d + %s)", c, axis ? t->group_n : t->group_m,
                            axis ? "mt_pn" : "mt_pm");
    return arena_printf(C->a, "%sblockIdx.%c", cast ? "(int)" : "", c);
}

const char *cb_num_programs(CudaB *C, int axis, int cast) {
    const TileInfo *t = C->tile;
    char c = "xyz"[axis];
    if (C->progs > 1 && axis < 2)
        return arena_printf(C->a, "((int)gridDim.%c * %d)", c, axis ? t->group_n : t->group_m);
    return arena_printf(C->a, "%sgridDim.%c", cast ? "(int)" : "", c);
}

const char *cb_row(CudaB *C, const char *i) {
    C->uses_ty = 1;
    return layout_coord_text(C->a, C->axis[AXIS_ROWS], "ty", i);
}
const char *cb_col(CudaB *C, const char *j) {
    C->uses_tx = 1;
    return layout_coord_text(C->a, C->axis[AXIS_COLS], "tx", j);
}
/* A flat element e of the thread: the same groups as along columns, so a
 * warp's accesses are contiguous (Triton's blocked layout repeated over
 * the block) rather than strided by the thread's element count. */
static const char *flat_index(CudaB *C, const char *e) {
    int ept = C->tile->tm * C->tile->tn;
    if (ept == 1) return C->tid;
    return layout_coord_text(C->a, C->axis[AXIS_FLAT], C->tid, e);
}

static const char *arange_at(CudaB *C, const Inst *def, Layout use, const char *i, const char *j) {
    const char *idx;
    /* one element: its start, whatever layout a use reads it in (a (1, 1)
     * row of a bounding box is held uniformly, outside the loops over i) */
    if (def->attrs.end - def->attrs.start == 1) use = LAYOUT_UNIFORM;
    switch (use) {
    case LAYOUT_ROWS: idx = cb_row(C, i); break;
    case LAYOUT_COLS: idx = cb_col(C, j); break;
    case LAYOUT_FLAT: idx = flat_index(C, j); break;
    default: return arena_printf(C->a, "%d", def->attrs.start);
    }
    if (def->attrs.start == 0) return idx;
    return arena_printf(C->a, "(%s + %d)", idx, def->attrs.start);
}

/* Element (i, j) of operand `o` used in an op iterating over layout `ctx`.
 * `use` is the layout the operand is read in (for aranges). */
const char *cb_elem(CudaB *C, Operand o, Layout use, const char *i, const char *j) {
    switch (o.kind) {
    case OPD_CONST: return c_const(C->a, o.c, C_CUDA);
    case OPD_PARAM: return C->pnames[o.id];
    case OPD_NONE: return "0";
    case OPD_VALUE: break;
    }
    int v = o.id;
    while (C->alias[v] >= 0) {
        /* x[:, None] / x[None, :] of an arange: the axis says which index */
        const Inst *hop = C->f->defs[v];
        if (hop && hop->op == OP_EXPAND_DIMS && hop->type.rank == 2)
            use = hop->attrs.axis == 1 ? LAYOUT_ROWS : LAYOUT_COLS;
        v = C->alias[v];
    }
    const Inst *def = C->f->defs[v];
    if (def && def->op == OP_ARANGE) return arange_at(C, def, use, i, j);
    if (C->splat[v]) return C->splat[v];
    Layout l = cb_layout(C, v);
    return arena_printf(C->a, "v%d%s", v, subscript(C, l, i, j));
}

/* ---- Bounding-box tiles ------------------------------------------------------
 *
 * A kernel whose rank-2 shapes do not broadcast together (a tl.dot, a
 * transpose or reshape of a non-square block, a remap: shape.h dot_box)
 * has the bounding box of its blocks as its tile. Each value lives in the
 * part of the box its own shape covers: a rank-2 value at its own (row,
 * column), a rank-1 value along the rows, the columns or flat, from 0. The
 * elements a thread holds outside a value's shape are computed (from the
 * operands' elements there, `other` for a load) but never stored, written
 * to shared memory, used by an atomic or read by a load: box_guard is the
 * condition that element (i, j) of the thread, in layout l, is inside a
 * value of type t (NULL: always, and in every other kernel). */

/* a && b of two conditions (NULL: true). */
static const char *both(CudaB *C, const char *a, const char *b) {
    if (!a) return b;
    if (!b) return a;
    return arena_printf(C->a, "%s && %s", a, b);
}

/* Of the threads holding the same elements of a value of layout l (a
 * scalar: all of a program's; a row: every thread along the columns; a
 * column: every thread along the rows), the one that writes them, as
 * Triton's stores mask the replicas: NULL where each element has one
 * holder. */
static const char *first_holder(CudaB *C, Layout l) {
    const TileInfo *t = C->tile;
    if (l == LAYOUT_UNIFORM && t->block_threads > 1) return arena_printf(C->a, "%s == 0", C->tid);
    if (l == LAYOUT_ROWS && t->cols > t->tn) return (C->uses_tx = 1, "tx == 0");
    if (l == LAYOUT_COLS && t->rows > t->tm) return (C->uses_ty = 1, "ty == 0");
    return NULL;
}

static const char *box_guard(CudaB *C, Type t, Layout l, const char *i, const char *j) {
    const TileInfo *T = C->tile;
    if (!T->dot_box || t.rank == 0 || l == LAYOUT_UNIFORM) return NULL;
    if (l == LAYOUT_FLAT) {
        int w = (int)type_numel(t);
        return w < T->threads ? arena_printf(C->a, "%s < %d", flat_index(C, j), w) : NULL;
    }
    int r, c;
    shape_extent(T, t, l, &r, &c);
    const char *g = NULL;
    if ((l == LAYOUT_ROWS || l == LAYOUT_TILE) && r < T->rows)
        g = arena_printf(C->a, "%s < %d", cb_row(C, i), r);
    if ((l == LAYOUT_COLS || l == LAYOUT_TILE) && c < T->cols)
        g = both(C, g, arena_printf(C->a, "%s < %d", cb_col(C, j), c));
    return g;
}

/* Whether accesses of V elements along the vector axis of layout l keep a
 * value of type t inside its shape as a whole (its extent along the axis
 * a multiple of V, the groups starting at multiples of V): then the
 * guard at the group's first element is the group's. */
static int box_groups_whole(CudaB *C, Type t, Layout l, int V) {
    const TileInfo *T = C->tile;
    if (!T->dot_box || t.rank == 0) return 1;
    if (l == LAYOUT_FLAT) return type_numel(t) % V == 0;
    int r, c;
    shape_extent(T, t, l, &r, &c);
    return c % V == 0;
}

/* A mask (the C text "true": none) and a guard (NULL: none), both. */
static const char *and_guard(CudaB *C, const char *guard, const char *mask) {
    if (!guard) return mask;
    if (strcmp(mask, "true") == 0) return guard;
    return arena_printf(C->a, "%s && %s", guard, mask);
}

/* ---- Contiguity and divisibility along the vector axis ------------------ */

/* The axis analysis (layout/axis.h) over this kernel's plan: along
 * columns in groups of the plan's group, or in groups of `rows` rows, or in
 * accesses of `v` columns. */
static AxisInfo axis_of_ex(const CudaB *C, Operand o, Layout use, int rows, int v) {
    AxisQuery q = {C->f, C->tile, C->alias, C->param_div, C->group, rows, v};
    return axis_info(&q, o, use);
}

static AxisInfo axis_of(const CudaB *C, Operand o, Layout use) {
    return axis_of_ex(C, o, use, 0, 0);
}

/* ---- Pointers ------------------------------------------------------------ */

/* The base of a pointer operand, or -1: a parameter p (p < nparams), or
 * the scalar pointer value v that tl.int_to_ptr made (nparams + v). */
static int ptr_base(CudaB *C, Operand o) {
    if (o.kind == OPD_PARAM) return o.id;
    if (o.kind != OPD_VALUE) return -1;
    return C->ptr_param[o.id];
}

/* The element index of pointer operand `o` at element (i, j). */
const char *cb_ptr_index(CudaB *C, Operand o, Layout use, const char *i, const char *j) {
    if (o.kind == OPD_PARAM) return "0";
    MT_ASSERT(o.kind == OPD_VALUE);
    int v = o.id;
    if (C->f->defs[v] && C->f->defs[v]->op == OP_INT_TO_PTR) return "0";
    if (C->ptr_var[v]) {
        Layout l = cb_layout(C, v);
        return arena_printf(C->a, "%s%s", C->ptr_var[v], subscript(C, l, i, j));
    }
    const Inst *def = C->f->defs[v];
    MT_ASSERT(def && def->op == OP_ADDPTR);
    const char *base = cb_ptr_index(C, def->args[0], use, i, j);
    const char *off = cb_elem(C, def->args[1], use, i, j);
    if (strcmp(base, "0") == 0) return off;
    return arena_printf(C->a, "(%s + %s)", base, off);
}

/* The name of a pointer base (ptr_base): a parameter's, or the variable of
 * a pointer made from an integer. */
static const char *param_name(CudaB *C, int p) {
    if (p >= C->f->nparams) return arena_printf(C->a, "v%d", p - C->f->nparams);
    return C->pnames[p];
}

/* Whether pointer parameter p is 16-byte aligned: a constant when the
 * signature says so, else a flag computed once at kernel entry. */
static const char *aligned_flag(CudaB *C, int p) {
    if (p >= C->f->nparams) /* an address from memory: tested where it is used */
        return arena_printf(C->a, "(((uintptr_t)%s) & 15) == 0", param_name(C, p));
    if (C->param_div && C->param_div[p] >= 16) return NULL; /* known */
    if (!C->align_needed[p]) {
        C->align_needed[p] = 1;
        sb_printf(&C->prologue, "    const bool %s_al16 = (((uintptr_t)%s) & 15) == 0;\n",
                  param_name(C, p), param_name(C, p));
    }
    return arena_printf(C->a, "%s_al16", param_name(C, p));
}

/* ---- Iteration over a layout ------------------------------------------------ */

/* Opens loops over the elements of layout `l` (i: rows, j: columns or flat
 * elements); returns how many loops were opened. */
int cb_open(CudaB *C, Layout l) {
    const TileInfo *t = C->tile;
    int n = 0;
    if ((l == LAYOUT_ROWS || l == LAYOUT_TILE) && t->tm > 1) {
        cb_line(C, "#pragma unroll");
        cb_line(C, "for (int i = 0; i < %d; i++) {", t->tm);
        C->indent++;
        n++;
    }
    int nj = l == LAYOUT_COLS || l == LAYOUT_TILE ? t->tn : l == LAYOUT_FLAT ? t->tm * t->tn : 1;
    if (nj > 1) {
        cb_line(C, "#pragma unroll");
        cb_line(C, "for (int j = 0; j < %d; j++) {", nj);
        C->indent++;
        n++;
    }
    return n;
}

void cb_close(CudaB *C, int n) {
    while (n-- > 0) {
        C->indent--;
        cb_line(C, "}");
    }
}

/* The layout an op iterates over: its result's, or for a store the
 * broadcast of its operands'. */
static Layout iter_layout(CudaB *C, const Inst *in) {
    if (in->result >= 0) return cb_layout(C, in->result);
    int rows = 0, cols = 0, tile = 0, flat = 0;
    for (int k = 0; k < in->nargs; k++) {
        if (in->args[k].kind != OPD_VALUE) continue;
        Type t = C->f->types[in->args[k].id];
        Layout l;
        if (is_arange(C, in->args[k].id)) l = shape_use_layout(C->tile, C->f, in, k);
        else l = cb_layout(C, in->args[k].id);
        if (t.rank == 0) continue;
        rows |= l == LAYOUT_ROWS;
        cols |= l == LAYOUT_COLS;
        tile |= l == LAYOUT_TILE;
        flat |= l == LAYOUT_FLAT;
    }
    if (tile || (rows && cols)) return LAYOUT_TILE;
    if (rows) return LAYOUT_ROWS;
    if (cols) return LAYOUT_COLS;
    if (flat) return LAYOUT_FLAT;
    return LAYOUT_UNIFORM;
}

/* The layout operand k of `in` is read in. */
static Layout use_of(CudaB *C, const Inst *in, int k, Layout ctx) {
    if (in->args[k].kind == OPD_VALUE && is_arange(C, in->args[k].id)) {
        if (C->tile->rank != 2) return LAYOUT_FLAT;
        return shape_use_layout(C->tile, C->f, in, k);
    }
    return ctx;
}

/* ---- Ops ------------------------------------------------------------------ */

static void declare(CudaB *C, int v, DType dt) {
    const char *suffix = decl_suffix(C, cb_layout(C, v));
    if (C->grouped && C->grouped[v]) {
        /* a load of a versioned loop's group (emit_version): its slot */
        if (*suffix) cb_line(C, "%s (&v%d)%s = v%d_g[mt_u];", c_type(dt), v, suffix, v);
        else cb_line(C, "%s &v%d = v%d_g[mt_u];", c_type(dt), v, v);
        return;
    }
    cb_line(C, "%s v%d%s;", c_type(dt), v, suffix);
}

static void elementwise(CudaB *C, const Inst *in,
                        const char *(*expr)(CudaB *, const Inst *, Layout)) {
    Layout l = cb_layout(C, in->result);
    if (cb_count(C, l) == 1) {
        cb_line(C, "%s v%d = %s;", c_type((DType)in->type.dtype), in->result, expr(C, in, l));
        return;
    }
    declare(C, in->result, (DType)in->type.dtype);
    int n = cb_open(C, l);
    cb_line(C, "v%d%s = %s;", in->result, subscript(C, l, "i", "j"), expr(C, in, l));
    cb_close(C, n);
}

/* Operand o, rendered as x, as a register value of dtype dt: a constant
 * converted, a narrow float rounded to another narrow float, else a C
 * conversion (the seed's implicit i32 <-> f32; the frontend makes every
 * other conversion an explicit cast). */
static const char *as_dtype(CudaB *C, Operand o, const char *x, DType dt) {
    if (o.kind == OPD_CONST) return c_const(C->a, const_convert(o.c, dt), C_CUDA);
    DType from = (DType)operand_type(C->f, o).dtype;
    if (from == dt) return x;
    if (dtype_info(from)->compute == dtype_info(dt)->compute && dtype_info(dt)->compute != dt)
        return c_round(C->a, dt, C_CUDA, x);
    return arena_printf(C->a, "(%s)%s", c_type(dt), x);
}

const char *cb_const_operand(CudaB *C, const Inst *in, int k) {
    ConstVal c = in->args[k].c;
    DType dt = c_operand_dtype(C->a, C->f, in, k);
    /* maximum/minimum compare their operands as written: the literal of the dtype */
    if (in->op == OP_MAXIMUM || in->op == OP_MINIMUM)
        return c_const(C->a, const_convert(c, dt), C_CUDA);
    return c_operand_const(C->a, c, dt, C_CUDA);
}

static const char *E(CudaB *C, const Inst *in, int k, Layout ctx) {
    if (in->args[k].kind == OPD_CONST) return cb_const_operand(C, in, k);
    return cb_elem(C, in->args[k], use_of(C, in, k, ctx), "i", "j");
}

/* ---- Triton's numerics ---------------------------------------------------- */

static const char *hfma(CudaB *C, DType rt, const char *a, const char *b, const char *c) {
    return c_load(C->a, rt, C_CUDA,
                  arena_printf(C->a, "__hfma(%s, %s, %s)", c_store(C->a, rt, C_CUDA, a),
                               c_store(C->a, rt, C_CUDA, b), c_store(C->a, rt, C_CUDA, c)));
}

/* Integer maximum and minimum (tl.maximum, tl.minimum, tl.max, tl.min, the
 * flat and axis reduction trees) as a call of mt_max_s32 / mt_min_s32 /
 * mt_max_u32 / mt_min_u32 (c_triton_helpers): a setp and a selp in inline
 * PTX rather than the max.s32 / min.s32 that nvcc makes of max() and of
 * a > b ? a : b. Why: CUDA 13.0's ptxas (V13.0.88, -O1 to -O3, sm_90)
 * fuses chains of max.s32 into three-input VIMNMX3 and, where an operand is
 * a negation (neg.s32), reads the operand's register before its negation
 * (IMAD.MOV R, -R) is written: tl.max(-(x * 8)) took x * 8 for one element
 * of each thread (difftest seeds 9001 and 16199 at num_warps 1 and 2;
 * test/difftest/regress/). Triton's bundled ptxas 12.8 did not do this on
 * these kernels; public reports show the same VIMNMX3 fusion dropping a
 * negation with ptxas 12.8 to 13.3 on sm_100. The guard is empirical
 * (measured on an H200 with ptxas 13.0, docs/design.md): ptxas still turns
 * compare-and-select pairs over plain operands into VIMNMX and VIMNMX3, but
 * kept those over negations as ISETP and SEL, and the outputs matched the
 * host's at num_warps 1 to 8; rewriting the negation (sub.s32 0, x;
 * mul.lo.s32 x, -1) or max.s32 in inline PTX did not help. Cost: at most
 * one more instruction per maximum. Operands and result go through int /
 * unsigned (a narrow integer's value is kept); bool, 64-bit integers (no
 * VIMNMX) and floats are left as they are (NULL). -O1 (golden output) is
 * not guarded. */
static const char *cb_int_minmax(CudaB *C, Op op, DType dt, const char *a, const char *b) {
    if (!dtype_is_int(dt) || dt == DT_BOOL || dtype_info(dt)->bits > 32) return NULL;
    int sgn = dtype_is_signed(dt), b32 = dtype_info(dt)->bits == 32;
    const char *fn = op == OP_MAXIMUM || op == OP_MAX ? (sgn ? "mt_max_s32" : "mt_max_u32")
                                                      : (sgn ? "mt_min_s32" : "mt_min_u32");
    const char *call = arena_printf(C->a, "%s(%s, %s)", fn, a, b);
    return b32 ? call : arena_printf(C->a, "(%s)%s", c_type(dt), call);
}

/* The ops whose Triton PTX differs from the shared renderer's C: math
 * functions by ops_math.def's triton_f32 column (fp32 exp, exp2, sqrt,
 * rsqrt approximate), '/' and fdiv as div.full.f32, div_rn exact, '%' as
 * LLVM's frem, fp64 rsqrt from libdevice, 16-bit float fma as fma.rn.f16 /
 * .bf16; every other op is cgen.c's c_op_expr. A narrow float computes in
 * f32 and is rounded after the op. The helpers called (mt_*) are defined
 * before the kernel (c_triton_helpers). */
const char *cb_op_expr(CudaB *C, const Inst *in, const char *a, const char *b, const char *c) {
    const char *x[3] = {a, b, c};
    DType rt = (DType)in->type.dtype, ct = dtype_info(rt)->compute;
    int f32 = dtype_is_float(rt) && ct == DT_F32, f64 = rt == DT_F64;
    const char *e = NULL;
    switch (in->op) {
#define MATH(id, name, nargs, rule, tmpl, triton, mlir, meaning) case OP_##id:
#include "base/ops_math.def"
#undef MATH
        if (in->op == OP_FMA && (rt == DT_F16 || rt == DT_BF16))
            return hfma(C, rt, a, b, c); /* one rounding */
        if (f32 && op_triton_f32[in->op][0]) e = c_template(C->a, op_triton_f32[in->op], x, ct);
        if (f64 && in->op == OP_RSQRT) e = arena_printf(C->a, "rsqrt(%s)", a);
        break;
    case OP_DIV:
        if (!dtype_is_float((DType)operand_type(C->f, in->args[0]).dtype) &&
            !dtype_is_float((DType)operand_type(C->f, in->args[1]).dtype))
            return arena_printf(C->a, "mt_div_full((float)%s, (float)%s)", a, b);
        if (f32) e = arena_printf(C->a, "mt_div_full(%s, %s)", a, b);
        break;
    case OP_DIV_RN:
        if (f32) e = arena_printf(C->a, "__fdiv_rn(%s, %s)", a, b);
        break;
    case OP_MOD:
        if (f32) e = arena_printf(C->a, "mt_frem_f32(%s, %s)", a, b);
        if (f64) e = arena_printf(C->a, "mt_frem_f64(%s, %s)", a, b);
        break;
    case OP_MAXIMUM:
    case OP_MINIMUM:
        /* propagate_nan=ALL: max.NaN.f32 on sm_80+, i.e. max.f32 (fmaxf: +0 above -0) unless an
         * operand
         * is NaN; operands of another dtype are converted (the seed's mixed maximum) */
        if (dtype_is_float(rt) && !in->attrs.flag) {
            const char *p = a, *q = b, *T = c_type(rt);
            if (in->args[0].kind != OPD_CONST && operand_type(C->f, in->args[0]).dtype != rt)
                p = arena_printf(C->a, "(%s)%s", T, a);
            if (in->args[1].kind != OPD_CONST && operand_type(C->f, in->args[1]).dtype != rt)
                q = arena_printf(C->a, "(%s)%s", T, b);
            const char *fn =
                in->op == OP_MAXIMUM ? (f64 ? "fmax" : "fmaxf") : (f64 ? "fmin" : "fminf");
            return arena_printf(C->a, "(isnan(%s) ? (%s) : (isnan(%s) ? (%s) : %s(%s, %s)))", p, p,
                                q, q, fn, p, q);
        }
        if (!dtype_is_float(rt)) {
            /* the operands as cgen.c's c_op_expr converts them (the seed's mixed maximum) */
            const char *p = a, *q = b, *T = c_type(rt);
            if (in->args[0].kind != OPD_CONST && operand_type(C->f, in->args[0]).dtype != rt)
                p = arena_printf(C->a, "(%s)%s", T, a);
            if (in->args[1].kind != OPD_CONST && operand_type(C->f, in->args[1]).dtype != rt)
                q = arena_printf(C->a, "(%s)%s", T, b);
            e = cb_int_minmax(C, in->op, rt, p, q);
            if (e) return e;
        }
        break;
    default:
    case OP_COUNT: break;
    }
    if (!e) {
        e = c_op_expr(C->a, C_CUDA, C->f, in, x);
        MT_ASSERT(e);
        return e;
    }
    return ct != rt ? c_round(C->a, rt, C_CUDA, e) : e;
}

/* Triton's LLVM fuses a product into the sum or difference that uses it
 * (fp-contract fast): a * b + c, c + a * b, a * b - c and c - a * b of
 * 16-bit floats are one fma.rn.f16 (.bf16), a single rounding. Where both
 * operands are products, one is fused and the other rounded: Triton 3.6's
 * PTX on sm_90 fuses the right product of a sum (a * b + c * d is
 * fma(c, d, a * b)) and the left one of a difference (a * b - c * d is
 * fma(a, b, -(c * d))). The product of operand k of `in` when it is fused
 * so (nvcc contracts f32 itself). */
static const Inst *fused_mul(const CudaB *C, const Inst *in, int k) {
    DType rt = (DType)in->type.dtype;
    if ((in->op != OP_ADD && in->op != OP_SUB) || (rt != DT_F16 && rt != DT_BF16)) return NULL;
    const Inst *m[2] = {NULL, NULL};
    for (int q = 0; q < 2; q++) {
        Operand o = in->args[q];
        const Inst *d = o.kind == OPD_VALUE ? C->f->defs[o.id] : NULL;
        if (d && d->op == OP_MUL && d->type.dtype == rt) m[q] = d;
    }
    int first = in->op == OP_ADD && m[1] ? 1 : 0; /* the product fused */
    return k == first ? m[k] : (m[first] ? NULL : m[k]);
}

static const char *binary_expr(CudaB *C, const Inst *in, Layout l) {
    for (int k = 0; k < 2; k++) {
        const Inst *mul = fused_mul(C, in, k);
        if (!mul) continue;
        DType rt = (DType)in->type.dtype;
        const char *c = E(C, in, 1 - k, l);
        if (in->op == OP_SUB && k == 0) c = arena_printf(C->a, "-(%s)", c);
        const char *a = E(C, mul, 0, l), *b = E(C, mul, 1, l);
        if (in->op == OP_SUB && k == 1) a = arena_printf(C->a, "-(%s)", a);
        return hfma(C, rt, a, b, c);
    }
    if (op_class(in->op) == OC_ASM) {
        /* any number of operands: the helper's call */
        const char *x[MT_MAX_OPERANDS] = {NULL};
        for (int k = 0; k < in->nargs; k++) x[k] = E(C, in, k, l);
        return c_op_expr(C->a, C_CUDA, C->f, in, x);
    }
    return cb_op_expr(C, in, E(C, in, 0, l), in->nargs > 1 ? E(C, in, 1, l) : NULL,
                      in->nargs > 2 ? E(C, in, 2, l) : NULL);
}

/* ---- Loads and stores ------------------------------------------------------ */

/* Elements of a 16-byte access of dtype dt. */
static int vec_elems(DType dt) {
    int bits = dtype_info(dt)->bits;
    return 16 / (bits <= 8 ? 1 : bits / 8);
}

/* The conjunction of mask operand k over the V elements of a group. */
static const char *group_mask(CudaB *C, const Inst *in, int k, Layout ctx, const char *j0, int V) {
    if (in->args[k].kind == OPD_NONE) return "true";
    StrBuf sb;
    sb_init(&sb, C->a);
    Layout use = use_of(C, in, k, ctx);
    const char *prev = NULL;
    for (int q = 0; q < V; q++) {
        const char *jq = q ? arena_printf(C->a, "%s + %d", j0, q) : j0;
        const char *m = cb_elem(C, in->args[k], use, "i", jq);
        if (prev && strcmp(prev, m) == 0) continue; /* constant along the group */
        sb_printf(&sb, "%s%s", sb.len ? " && " : "", m);
        prev = m;
    }
    return sb_str(&sb);
}

/* Whether a load/store of dtype dt iterating over `ctx` through pointer
 * `p` can use 16-byte accesses of V = 16 / sizeof(dt) elements: 0 no, 1
 * yes (the index is contiguous and V-aligned), 2 yes when the group's
 * first index is a multiple of V at run time. */
/* The elements of one vector access of dtype dt along layout ctx: 16
 * bytes, or 8 or 4 when the thread holds fewer elements along the axis (as
 * Triton's vectorization by sizePerThread); 1: none. */
static int access_elems(CudaB *C, Layout ctx, DType dt) {
    int V = vec_elems(dt);
    int n = ctx == LAYOUT_COLS || ctx == LAYOUT_TILE ? C->tile->tn
            : ctx == LAYOUT_FLAT                     ? C->tile->tm * C->tile->tn
                                                     : 1;
    int bytes = 16 / V;
    while (V > 1 && (n < V || n % V != 0)) V /= 2;
    return V * bytes >= 4 && V >= 2 ? V : 1;
}

/* Whether mask operand k of `in` (iterating over l) is constant along each
 * access of V elements: then one predicate guards the access. */
static int mask_constant(CudaB *C, const Inst *in, int k, Layout l, int V) {
    if (in->args[k].kind != OPD_VALUE) return 0;
    return axis_of_ex(C, in->args[k], use_of(C, in, k, l), 0, V).stride == 0;
}

/* The register type moving V elements of dt at once. */
static const char *access_type(DType dt, int V) {
    int bytes = V * (16 / vec_elems(dt));
    return bytes == 16 ? "uint4" : bytes == 8 ? "uint2" : "unsigned int";
}

/* (t: the access's shape, whose box guard must be whole groups) */
static int vectorizable(CudaB *C, Layout ctx, Operand p, DType dt, Type t) {
    int V = access_elems(C, ctx, dt);
    if (V < 2) return 0;
    /* groups of columns must hold whole 16-byte accesses */
    if (C->group % V != 0) return 0;
    if (!box_groups_whole(C, t, ctx, V)) return 0;
    if (ptr_base(C, p) < 0) return 0;
    if (p.kind == OPD_VALUE && C->ptr_var[p.id]) return 0;
    AxisInfo ax = axis_of(C, p, ctx);
    if (ax.stride != 1) return 0;
    return ax.div >= V ? 1 : 2;
}

/* The condition of a 16-byte access: base aligned, index aligned (when
 * only known at run time), the whole group's mask; NULL when always. */
static const char *vec_condition(CudaB *C, const char *al, int dynamic, int V, const char *idx,
                                 const char *mask) {
    StrBuf sb;
    sb_init(&sb, C->a);
    if (al) sb_puts(&sb, al);
    if (dynamic) sb_printf(&sb, "%s((%s) & %d) == 0", sb.len ? " && " : "", idx, V - 1);
    if (strcmp(mask, "true") != 0) sb_printf(&sb, "%s%s", sb.len ? " && " : "", mask);
    return sb.len ? sb_str(&sb) : NULL;
}

/* Opens the loops over the thread's groups of V elements along the vector
 * axis of layout l (rows, then groups at j = 0, V, ...); returns how many
 * loops the caller closes after the group's body (the j loop's brace is
 * closed by the caller first). */
static int open_groups(CudaB *C, Layout l, int V) {
    int nj = l == LAYOUT_FLAT ? C->tile->tm * C->tile->tn : C->tile->tn;
    int n = 0;
    if (l == LAYOUT_TILE && C->tile->tm > 1) {
        cb_line(C, "#pragma unroll");
        cb_line(C, "for (int i = 0; i < %d; i++) {", C->tile->tm);
        C->indent++;
        n++;
    }
    cb_line(C, "#pragma unroll");
    cb_line(C, "for (int j = 0; j < %d; j += %d) {", nj, V);
    C->indent++;
    return n;
}

/* A load's `other` at element (i, j), as a register value of the pointee. */
static const char *load_other(CudaB *C, const Inst *in, Layout l, const char *j) {
    DType dt = (DType)in->type.dtype;
    if (in->args[2].kind == OPD_NONE) return c_zero(dt);
    return as_dtype(C, in->args[2], cb_elem(C, in->args[2], use_of(C, in, 2, l), "i", j), dt);
}

/* The shape of an access: a load's result, a store's broadcast operands. */
static Type access_shape(const CudaB *C, const Inst *in) {
    if (in->op != OP_STORE) return in->type;
    Type shape = type_scalar(DT_NONE);
    for (int k = 0; k < in->nargs; k++) {
        Type s2;
        if (in->args[k].kind != OPD_NONE &&
            shape_broadcast(shape, operand_type(C->f, in->args[k]), &s2))
            shape = s2;
    }
    return shape;
}

/* One element of a load / a store at element (i, j) (the per-element path
 * of both the plain and the 16-byte forms). */
static void load_element(CudaB *C, const Inst *in, Layout l, const char *j) {
    DType dt = (DType)in->type.dtype;
    const char *m = in->args[1].kind == OPD_NONE
                        ? "true"
                        : cb_elem(C, in->args[1], use_of(C, in, 1, l), "i", j);
    m = and_guard(C, box_guard(C, in->type, l, "i", j), m);
    const char *elem = arena_printf(C->a, "%s[%s]", param_name(C, ptr_base(C, in->args[0])),
                                    cb_ptr_index(C, in->args[0], l, "i", j));
    cb_line(C, "v%d%s = (%s ? %s : %s);", in->result, subscript(C, l, "i", j), m,
            c_load(C->a, dt, C_CUDA, elem), load_other(C, in, l, j));
}

/* The operand a store reads. x.to(dt) stored through a pointer to a
 * narrow float dt (a cast rounding to nearest from dt's compute dtype) is
 * x, rounded once by the store's own conversion: the cast is a round trip
 * (round, widen) that the store would round again, and nvcc keeps the
 * extra conversions (16 of layer_norm_row_fp16's 240 SASS instructions).
 * Rounding is idempotent, so the stored bits are the same. Only where the
 * cast is deferred: one emitted in place (a scalar) is read, so its
 * variable is used. *folded says whether the operand is the cast's. */
static Operand stored_operand(const CudaB *C, const Inst *in, int *folded) {
    Operand o = in->args[1];
    if (folded) *folded = 0;
    if (o.kind != OPD_VALUE) return o;
    int v = o.id;
    while (C->alias[v] >= 0) v = C->alias[v];
    const Inst *def = C->f->defs[v];
    DType pt = (DType)operand_type(C->f, in->args[0]).dtype;
    if (!def || def->op != OP_CAST || def->attrs.flag || !C->deferred[v] || def->type.dtype != pt ||
        def->args[0].kind != OPD_VALUE)
        return o;
    DType from = (DType)operand_type(C->f, def->args[0]).dtype, ct = dtype_info(pt)->compute;
    if (!dtype_is_float(from) || !dtype_is_float(pt) || ct == pt || dtype_info(from)->compute != ct)
        return o;
    if (folded) *folded = 1;
    return def->args[0];
}

/* The value a store writes at element (i, j), as an element of the pointee. */
static const char *store_value(CudaB *C, const Inst *in, Layout l, const char *j) {
    DType pt = (DType)operand_type(C->f, in->args[0]).dtype;
    int folded;
    Operand o = stored_operand(C, in, &folded);
    const char *v = cb_elem(C, o, use_of(C, in, 1, l), "i", j);
    if (!folded && (dtype_info(pt)->compute != pt || o.kind == OPD_CONST))
        v = as_dtype(C, o, v, pt);
    return c_store(C->a, pt, C_CUDA, v);
}

static void store_element(CudaB *C, const Inst *in, Layout l, const char *j, int masked) {
    const char *dst = arena_printf(C->a, "%s[%s]", param_name(C, ptr_base(C, in->args[0])),
                                   cb_ptr_index(C, in->args[0], l, "i", j));
    const char *val = store_value(C, in, l, j);
    const char *m = masked ? cb_elem(C, in->args[2], use_of(C, in, 2, l), "i", j) : "true";
    m = and_guard(C, box_guard(C, access_shape(C, in), l, "i", j), m);
    if (strcmp(m, "true") != 0) cb_line(C, "if (%s) %s = %s;", m, dst, val);
    else cb_line(C, "%s = %s;", dst, val);
}

/* The per-element fallback of a 16-byte group: `} else { for q ... }`. */
static void group_fallback(CudaB *C, const Inst *in, Layout l, int V, int masked) {
    C->indent--;
    cb_line(C, "} else {");
    C->indent++;
    cb_line(C, "#pragma unroll");
    cb_line(C, "for (int q = 0; q < %d; q++) {", V);
    C->indent++;
    if (in->op == OP_LOAD) load_element(C, in, l, "j + q");
    else store_element(C, in, l, "j + q", masked);
    C->indent--;
    cb_line(C, "}");
    C->indent--;
    cb_line(C, "}");
}

/* 16-byte accesses move a uint4; mt_e holds its elements in the pointee's
 * memory type. */
static void emit_load(CudaB *C, const Inst *in) {
    Layout l = cb_layout(C, in->result);
    DType dt = (DType)in->type.dtype;
    int id = in->result;
    declare(C, id, dt);
    int base = ptr_base(C, in->args[0]);
    int vec = vectorizable(C, l, in->args[0], dt, in->type);
    if (vec == 1 && !aligned_flag(C, base) && mask_constant(C, in, 1, l, access_elems(C, l, dt))) {
        /* (below) */
    } else if (vec) {
        int V = access_elems(C, l, dt);
        const char *AT = access_type(dt, V);
        const char *al = aligned_flag(C, base);
        int n = open_groups(C, l, V);
        const char *idx = cb_ptr_index(C, in->args[0], l, "i", "j");
        const char *cond = vec_condition(
            C, al, vec == 2, V, idx,
            and_guard(C, box_guard(C, in->type, l, "i", "j"), group_mask(C, in, 1, l, "j", V)));
        if (cond) {
            cb_line(C, "if (%s) {", cond);
            C->indent++;
        }
        cb_line(C, "const %s t = *(const %s *)&%s[%s];", AT, AT, param_name(C, base), idx);
        cb_line(C, "%s mt_e[%d];", c_mem_type(dt, C_CUDA), V);
        cb_line(C, "memcpy(mt_e, &t, sizeof t);");
        cb_line(C, "#pragma unroll");
        cb_line(C, "for (int q = 0; q < %d; q++) v%d%s = %s;", V, id, subscript(C, l, "i", "j + q"),
                c_load(C->a, dt, C_CUDA, "mt_e[q]"));
        if (cond) group_fallback(C, in, l, V, 0);
        C->indent--;
        cb_line(C, "}");
        cb_close(C, n);
        return;
    }
    if (vec) {
        /* the mask constant along each group and the access proven aligned:
         * one predicated 16-byte load, no branch (a runtime loop keeps
         * several in flight), `other` selected after it */
        int V = access_elems(C, l, dt);
        const char *AT = access_type(dt, V);
        int n = open_groups(C, l, V);
        const char *idx = cb_ptr_index(C, in->args[0], l, "i", "j");
        const char *m = cb_elem(C, in->args[1], use_of(C, in, 1, l), "i", "j");
        cb_line(C, "const bool mt_m = %s;", and_guard(C, box_guard(C, in->type, l, "i", "j"), m));
        cb_line(C, "const %s t = mt_ld%d(&%s[%s], mt_m);", AT, V * (16 / vec_elems(dt)),
                param_name(C, base), idx);
        cb_line(C, "%s mt_e[%d];", c_mem_type(dt, C_CUDA), V);
        cb_line(C, "memcpy(mt_e, &t, sizeof t);");
        cb_line(C, "#pragma unroll");
        cb_line(C, "for (int q = 0; q < %d; q++) v%d%s = mt_m ? %s : %s;", V, id,
                subscript(C, l, "i", "j + q"), c_load(C->a, dt, C_CUDA, "mt_e[q]"),
                load_other(C, in, l, "j + q"));
        C->indent--;
        cb_line(C, "}");
        cb_close(C, n);
        return;
    }
    int n = cb_open(C, l);
    load_element(C, in, l, "j");
    cb_close(C, n);
}

/* ---- Stores contiguous along rows (a transpose) --------------------------------
 *
 * A tile store whose address is contiguous along rows but not along columns
 * (out[n, m] = x[m, n]) would write one element per row per thread, a warp
 * touching a sector per element. As Triton's convert_layout, the value goes
 * through shared memory instead: every thread writes its elements at
 * (column, row) of a [C][R + pad] buffer (the pad, one 32-bit word, puts
 * neighbouring columns in other banks), then thread t reads groups of vr
 * consecutive rows of one column (rows (t % (R / vr)) * vr .., columns
 * t / (R / vr) + k * (T * vr / R)), so that a warp writes whole rows of the
 * output, in 16-byte accesses where the axis analysis along rows proves
 * them. The address and the mask are recomputed at those coordinates from
 * their definitions (aranges, uniform scalars, elementwise ops); a store
 * whose address or mask cannot be recomputed so keeps the per-element
 * path. */

static int deferrable(const CudaB *C, const Inst *in);

/* Operand o at tile coordinates (row, col), or NULL when it is not a
 * function of the coordinates and uniform values. `use`: the layout it is
 * read in (for aranges); *budget bounds the size of the expression. */
static const char *elem_at(CudaB *C, Operand o, Layout use, const char *row, const char *col,
                           int *budget) {
    if (--*budget < 0) return NULL;
    switch (o.kind) {
    case OPD_CONST: return c_const(C->a, o.c, C_CUDA);
    case OPD_PARAM: return C->pnames[o.id];
    case OPD_NONE: return "0";
    case OPD_VALUE: break;
    }
    int v = o.id;
    while (C->alias[v] >= 0) {
        const Inst *hop = C->f->defs[v];
        if (hop && hop->op == OP_EXPAND_DIMS && hop->type.rank == 2)
            use = hop->attrs.axis == 1 ? LAYOUT_ROWS : LAYOUT_COLS;
        v = C->alias[v];
    }
    const Inst *def = C->f->defs[v];
    if (def && def->op == OP_ARANGE) {
        const char *x = use == LAYOUT_ROWS ? row : use == LAYOUT_COLS ? col : NULL;
        if (!x) return NULL;
        return def->attrs.start ? arena_printf(C->a, "(%s + %d)", x, def->attrs.start) : x;
    }
    if (C->splat[v]) return C->splat[v];
    Layout l = cb_layout(C, v);
    if (l == LAYOUT_UNIFORM) {
        if (C->deferred[v] && !C->emitted[v]) return NULL;
        return arena_printf(C->a, "v%d", v);
    }
    if (!def || (l != LAYOUT_ROWS && l != LAYOUT_COLS && l != LAYOUT_TILE) || !deferrable(C, def) ||
        op_has(def->op, OPF_REGION) || def->op == OP_HINT || fused_mul(C, def, 0) ||
        fused_mul(C, def, 1))
        return NULL;
    if (def->nargs > 3) return NULL; /* (an asm of more operands: not deferred) */
    const char *x[3] = {NULL, NULL, NULL};
    for (int k = 0; k < def->nargs && k < 3; k++) {
        if (def->args[k].kind == OPD_CONST) x[k] = cb_const_operand(C, def, k);
        else x[k] = elem_at(C, def->args[k], use_of(C, def, k, l), row, col, budget);
        if (!x[k]) return NULL;
    }
    return arena_printf(C->a, "(%s)", cb_op_expr(C, def, x[0], x[1], x[2]));
}

/* The element index of pointer operand o at (row, col), or NULL. */
static const char *ptr_index_at(CudaB *C, Operand o, const char *row, const char *col,
                                int *budget) {
    if (o.kind == OPD_PARAM) return "0";
    if (o.kind != OPD_VALUE || C->ptr_var[o.id]) return NULL;
    const Inst *def = C->f->defs[o.id];
    if (def && def->op == OP_INT_TO_PTR) return "0";
    if (!def || def->op != OP_ADDPTR) return NULL;
    const char *base = ptr_index_at(C, def->args[0], row, col, budget);
    const char *off = elem_at(C, def->args[1], use_of(C, def, 1, LAYOUT_TILE), row, col, budget);
    if (!base || !off) return NULL;
    if (strcmp(base, "0") == 0) return off;
    return arena_printf(C->a, "(%s + %s)", base, off);
}

/* Emits the store through shared memory and returns 1, or returns 0;
 * with `dry`, only whether it would (before its operands are emitted: the
 * address and the mask are not, being recomputed). */
static int store_by_rows(CudaB *C, const Inst *in, int dry) {
    if (in->args[2].kind == OPD_CONST && !in->args[2].c.i) return 0;
    Layout l = iter_layout(C, in);
    int masked =
        !(in->args[2].kind == OPD_NONE || (in->args[2].kind == OPD_CONST && in->args[2].c.i));
    if (vectorizable(C, l, in->args[0], (DType)operand_type(C->f, in->args[0]).dtype,
                     access_shape(C, in)))
        return 0;
    const TileInfo *t = C->tile;
    if (t->rank != 2 || t->dot_box || l != LAYOUT_TILE) return 0;
    int R = t->rows, Cn = t->cols, T = t->block_threads, ept = t->tm * t->tn;
    DType dt = (DType)operand_type(C->f, in->args[0]).dtype;
    int V = vec_elems(dt), vr = V;
    while (vr > 1 && (vr > ept || !divides(vr, R))) vr /= 2;
    int nr = R / vr; /* threads along a column */
    if (vr < 2 || T % nr != 0 || Cn % (T / nr) != 0) return 0;
    int base = ptr_base(C, in->args[0]);
    if (base < 0) return 0;
    AxisInfo ax = axis_of_ex(C, in->args[0], LAYOUT_TILE, vr, 0);
    if (ax.stride != 1) return 0;
    int budget = 200;
    const char *row = "(mt_r0 + q)", *col = "mt_c";
    const char *idx0 = ptr_index_at(C, in->args[0], "mt_r0", col, &budget);
    const char *idx = ptr_index_at(C, in->args[0], row, col, &budget);
    const char *mq =
        masked ? elem_at(C, in->args[2], use_of(C, in, 2, l), row, col, &budget) : "true";
    if (!idx0 || !idx || !mq) return 0;
    if (dry) return 1;
    int esize = dtype_info(dt)->bits <= 8 ? 1 : dtype_info(dt)->bits / 8;
    int pitch = R + (esize >= 4 ? 1 : 4 / esize);
    const char *M = c_mem_type(dt, C_CUDA);
    const char *buf = arena_printf(C->a, "tr_smem_%d", C->ntrans++);
    sb_printf(&C->smem, "    __shared__ %s %s[%d];\n", M, buf, Cn * pitch);
    if (C->loop_depth > 0) cb_line(C, "__syncthreads();"); /* last iteration's readers */
    int n = cb_open(C, l);
    cb_line(C, "%s[%s * %d + %s] = %s;", buf, cb_col(C, "j"), pitch, cb_row(C, "i"),
            store_value(C, in, l, "j"));
    cb_close(C, n);
    cb_line(C, "__syncthreads();");
    cb_line(C, "#pragma unroll");
    cb_line(C, "for (int k = 0; k < %d; k++) {", Cn * nr / T);
    C->indent++;
    cb_line(C, "const int mt_r0 = (int)(%s %% %d) * %d;", C->tid, nr, vr);
    cb_line(C, "const int mt_c = (int)(%s / %d) + k * %d;", C->tid, nr, T / nr);
    cb_line(C, "%s mt_e[%d];", M, V);
    cb_line(C, "#pragma unroll");
    cb_line(C, "for (int q = 0; q < %d; q++) mt_e[q] = %s[mt_c * %d + mt_r0 + q];", vr, buf, pitch);
    const char *P = param_name(C, base);
    const char *cond = NULL;
    if (vr == V) {
        /* the group's mask, constant along it where the strings agree */
        StrBuf sb;
        sb_init(&sb, C->a);
        const char *prev = NULL;
        for (int q = 0; q < V && masked; q++) {
            int b2 = 200;
            const char *m = elem_at(C, in->args[2], use_of(C, in, 2, l),
                                    arena_printf(C->a, "(mt_r0 + %d)", q), col, &b2);
            if (!m) m = "false"; /* (not reached: mq was rendered) */
            if (prev && strcmp(prev, m) == 0) continue;
            sb_printf(&sb, "%s%s", sb.len ? " && " : "", m);
            prev = m;
        }
        cond = vec_condition(C, aligned_flag(C, base), ax.div < V, V, idx0,
                             masked ? sb_str(&sb) : "true");
        if (cond) {
            cb_line(C, "if (%s) {", cond);
            C->indent++;
        }
        cb_line(C, "uint4 t;");
        cb_line(C, "memcpy(&t, mt_e, sizeof t);");
        cb_line(C, "*(uint4 *)&%s[%s] = t;", P, idx0);
        if (cond) {
            C->indent--;
            cb_line(C, "} else {");
            C->indent++;
        }
    }
    if (vr != V || cond) {
        cb_line(C, "#pragma unroll");
        cb_line(C, "for (int q = 0; q < %d; q++) {", vr);
        C->indent++;
        if (masked) cb_line(C, "if (%s) %s[%s] = mt_e[q];", mq, P, idx);
        else cb_line(C, "%s[%s] = mt_e[q];", P, idx);
        C->indent--;
        cb_line(C, "}");
    }
    if (cond) {
        C->indent--;
        cb_line(C, "}");
    }
    C->indent--;
    cb_line(C, "}");
    return 1;
}

/* Whether store `in` may go through shared memory (store_by_rows), known
 * before anything is emitted: a tile store of a rank-2 tile that 16-byte
 * accesses do not take. */
int cb_store_staged(CudaB *C, const Inst *in) {
    const TileInfo *t = C->tile;
    Layout l = iter_layout(C, in);
    return t->rank == 2 && !t->dot_box && l == LAYOUT_TILE &&
           !vectorizable(C, l, in->args[0], (DType)operand_type(C->f, in->args[0]).dtype,
                         access_shape(C, in));
}

static void emit_store_held(CudaB *C, const Inst *in, Layout l);

/* A store: by the first of the threads holding each element. */
static void emit_store(CudaB *C, const Inst *in) {
    Layout l = iter_layout(C, in);
    if (in->args[2].kind == OPD_CONST && !in->args[2].c.i) return;
    const char *first = first_holder(C, l);
    if (first) {
        cb_line(C, "if (%s) {", first);
        C->indent++;
    }
    emit_store_held(C, in, l);
    if (first) {
        C->indent--;
        cb_line(C, "}");
    }
}

static void emit_store_held(CudaB *C, const Inst *in, Layout l) {
    int base = ptr_base(C, in->args[0]);
    DType dt = (DType)operand_type(C->f, in->args[0]).dtype;
    int masked =
        !(in->args[2].kind == OPD_NONE || (in->args[2].kind == OPD_CONST && in->args[2].c.i));
    int vec = vectorizable(C, l, in->args[0], dt, access_shape(C, in));
    if (!vec && store_by_rows(C, in, 0)) return;
    if (vec) {
        int V = access_elems(C, l, dt);
        const char *AT = access_type(dt, V);
        const char *al = aligned_flag(C, base);
        int n = open_groups(C, l, V);
        const char *idx = cb_ptr_index(C, in->args[0], l, "i", "j");
        int one = masked && vec == 1 && !al && mask_constant(C, in, 2, l, V);
        const char *guard = box_guard(C, access_shape(C, in), l, "i", "j");
        const char *cond =
            vec_condition(C, al, vec == 2, V, idx,
                          and_guard(C, guard,
                                    !masked ? "true"
                                    : one   ? cb_elem(C, in->args[2], use_of(C, in, 2, l), "i", "j")
                                            : group_mask(C, in, 2, l, "j", V)));
        if (cond) {
            cb_line(C, "if (%s) {", cond);
            C->indent++;
        }
        cb_line(C, "%s mt_e[%d];", c_mem_type(dt, C_CUDA), V);
        cb_line(C, "#pragma unroll");
        cb_line(C, "for (int q = 0; q < %d; q++) mt_e[q] = %s;", V, store_value(C, in, l, "j + q"));
        cb_line(C, "%s t;", AT);
        cb_line(C, "memcpy(&t, mt_e, sizeof t);");
        cb_line(C, "*(%s *)&%s[%s] = t;", AT, param_name(C, base), idx);
        if (cond && !one) group_fallback(C, in, l, V, masked);
        else if (cond) {
            /* the mask constant along the group (one predicate): nothing
             * left for a per-element path */
            C->indent--;
            cb_line(C, "}");
        }
        C->indent--;
        cb_line(C, "}");
        cb_close(C, n);
        return;
    }
    int n = cb_open(C, l);
    store_element(C, in, l, "j", masked);
    cb_close(C, n);
}

/* ---- device_print, device_assert ------------------------------------------ */

/* Each thread prints (checks) the elements it holds; an element every
 * thread holds (a scalar), or a row or column replicated across threads,
 * by one thread of those. Prints follow Triton's format. */
static void emit_debug(CudaB *C, const Inst *in) {
    Operand o = in->args[0];
    Type t = operand_type(C->f, o);
    Layout l = t.rank == 0 ? LAYOUT_UNIFORM : iter_layout(C, in);
    const char *guard = NULL, *idx[2] = {"0", "0"};
    if (l == LAYOUT_UNIFORM) guard = arena_printf(C->a, "%s == 0", C->tid);
    else if (l == LAYOUT_ROWS) {
        C->uses_tx = 1;
        guard = "tx == 0";
        idx[0] = cb_row(C, "i");
    } else if (l == LAYOUT_COLS) {
        C->uses_ty = 1;
        guard = "ty == 0";
        idx[t.rank - 1] = cb_col(C, "j");
    } else if (l == LAYOUT_FLAT) idx[0] = flat_index(C, "j");
    else idx[0] = cb_row(C, "i"), idx[1] = cb_col(C, "j");
    int n = cb_open(C, l);
    DType dt = (DType)t.dtype;
    const char *v = cb_elem(C, o, use_of(C, in, 0, l), "i", "j");
    StrBuf sb;
    sb_init(&sb, C->a);
    if (in->op == OP_PRINT) {
        if (dtype_is_float(dt)) v = as_dtype(C, o, v, dtype_info(dt)->compute);
        sb_printf(&sb,
                  "printf(\"%s\", (unsigned)blockIdx.x, (unsigned)blockIdx.y, (unsigned)blockIdx.z",
                  c_print_format(C->a, c_print_type(&in->attrs, t), in->attrs.flag, in->attrs.start,
                                 in->attrs.end));
        c_print_indices(&sb, C->a, &in->attrs, t, idx, "(unsigned)%s");
        sb_puts(&sb, ", ");
        sb_quote(&sb, in->attrs.text ? in->attrs.text : "");
        sb_printf(&sb, ", %s);", c_print_arg(C->a, dt, in->attrs.flag, v));
    } else {
        sb_printf(&sb, "if (!(%s)) __assertfail(", v);
        sb_quote(&sb, in->attrs.text ? in->attrs.text : "");
        sb_puts(&sb, ", ");
        sb_quote(&sb, in->attrs.file ? in->attrs.file : "");
        sb_printf(&sb, ", %d, ", in->pos.line);
        sb_quote(&sb, in->attrs.func ? in->attrs.func : "");
        sb_puts(&sb, ", 1);");
    }
    /* (a bounding box: only the elements inside the value's shape) */
    if (l != LAYOUT_UNIFORM) guard = both(C, guard, box_guard(C, t, l, "i", "j"));
    if (guard) cb_line(C, "if (%s) %s", guard, sb_str(&sb));
    else cb_line(C, "%s", sb_str(&sb));
    cb_close(C, n);
}

/* ---- Atomics --------------------------------------------------------------- */

/* An atomic: once per element of its shape. The thread's elements of a
 * flat or tile layout, one after another; where threads share elements (a
 * scalar or one-element block: all; rows: the threads of a row of the
 * thread grid; columns: of a column), the first of them performs it and
 * the old values reach the others through shared memory. A masked-off
 * element does nothing and reads 0. */
static const char *atomic_call(CudaB *C, const Inst *in, Layout l) {
    const Operand *x = in->args;
    DType dt = (DType)in->type.dtype;
    int cas = in->op == OP_ATOMIC_CAS;
    const char *dst = arena_printf(C->a, "%s[%s]", param_name(C, ptr_base(C, x[0])),
                                   cb_ptr_index(C, x[0], l, "i", "j"));
    const char *call =
        cuda_atomic_call(C->a, in, dst, cas ? E(C, in, 1, l) : NULL, E(C, in, cas ? 2 : 1, l));
    /* (a bounding box: only the elements inside the atomic's shape) */
    const char *guard = box_guard(C, in->type, l, "i", "j");
    if (cas || x[2].kind == OPD_NONE || (x[2].kind == OPD_CONST && x[2].c.i))
        return guard ? arena_printf(C->a, "(%s ? %s : %s)", guard, call, c_zero(dt)) : call;
    if (x[2].kind == OPD_CONST) return c_zero(dt);
    return arena_printf(C->a, "(%s ? %s : %s)", and_guard(C, guard, E(C, in, 2, l)), call,
                        c_zero(dt));
}

static void count_use(Operand *o, void *user) {
    int *u = user;
    if (o->kind == OPD_VALUE && o->id == u[0]) u[1] = 1;
}

static int used(const Block *b, int id) {
    int u[2] = {id, 0};
    for (int i = 0; i < b->items.len && !u[1]; i++)
        ssa_for_each_operand(b->items.items[i], 1, count_use, u);
    return u[1];
}

static void emit_atomic(CudaB *C, const Inst *in) {
    int id = in->result;
    DType dt = (DType)in->type.dtype;
    Layout l = cb_layout(C, id);
    if (l == LAYOUT_FLAT || l == LAYOUT_TILE) {
        int keep = used(&C->f->body, id);
        if (keep) declare(C, id, dt);
        int n = cb_open(C, l);
        if (keep) cb_line(C, "v%d%s = %s;", id, subscript(C, l, "i", "j"), atomic_call(C, in, l));
        else cb_line(C, "%s;", atomic_call(C, in, l));
        cb_close(C, n);
        return;
    }
    const TileInfo *t = C->tile;
    int rows = l == LAYOUT_ROWS, cols = l == LAYOUT_COLS;
    int size = rows ? t->rows : cols ? t->cols : 1;
    sb_printf(&C->smem, "    __shared__ %s atomic_smem_%d[%d];\n", c_type(dt), id, size);
    const char *slot = rows ? cb_row(C, "i") : cols ? cb_col(C, "j") : "0";
    const char *who = rows ? "tx == 0" : cols ? "ty == 0" : arena_printf(C->a, "%s == 0", C->tid);
    if (rows) C->uses_tx = 1;
    if (cols) C->uses_ty = 1;
    cb_line(C, "if (%s) {", who);
    C->indent++;
    int n = cb_open(C, l);
    cb_line(C, "atomic_smem_%d[%s] = %s;", id, slot, atomic_call(C, in, l));
    cb_close(C, n);
    C->indent--;
    cb_line(C, "}");
    cb_line(C, "__syncthreads();");
    if (rows || cols) {
        declare(C, id, dt);
        n = cb_open(C, l);
        cb_line(C, "v%d%s = atomic_smem_%d[%s];", id, subscript(C, l, "i", "j"), id, slot);
        cb_close(C, n);
    } else {
        cb_line(C, "%s v%d = atomic_smem_%d[0];", c_type(dt), id, id);
    }
    /* in a loop the buffer is written again next iteration */
    if (C->loop_depth > 0) cb_line(C, "__syncthreads();");
}

/* ---- Reductions ------------------------------------------------------------ */

/* Per-thread partials, warp shuffles, one exchange through shared memory.
 * A narrow float's partial sums are rounded to it (as its own adds);
 * maximum and minimum ignore NaN (fmaxf) as Triton's tl.max. */
static const char *combine(CudaB *C, const Inst *in, const char *dst, const char *x) {
    DType dt = (DType)in->type.dtype, ct = dtype_info(dt)->compute;
    int fl = dtype_is_float(dt), dbl = ct == DT_F64;
    if (in->op == OP_SUM) {
        if (ct != dt)
            return arena_printf(C->a, "%s = %s;", dst,
                                c_round(C->a, dt, C_CUDA, arena_printf(C->a, "%s + %s", dst, x)));
        return arena_printf(C->a, "%s += %s;", dst, x);
    }
    MT_ASSERT(in->op == OP_MAX || in->op == OP_MIN);
    const char *g = cb_int_minmax(C, in->op, dt, dst, x);
    if (g) return arena_printf(C->a, "%s = %s;", dst, g);
    const char *fn = in->op == OP_MAX ? (!fl   ? "max"
                                         : dbl ? "fmax"
                                               : "fmaxf")
                                      : (!fl   ? "min"
                                         : dbl ? "fmin"
                                               : "fminf");
    return arena_printf(C->a, "%s = %s(%s, %s);", dst, fn, dst, x);
}

/* A lane's partial from __shfl_xor_sync (whose narrow integer and bool
 * overloads are int's), as the register type. */
static const char *shuffled(CudaB *C, DType dt, const char *mask) {
    const char *s = arena_printf(C->a, "__shfl_xor_sync(%s, r, off)", mask);
    if (dtype_info(dtype_info(dt)->compute)->bits < 32)
        return arena_printf(C->a, "(%s)%s", c_type(dt), s);
    return s;
}

static void emit_reduce(CudaB *C, const Inst *in) {
    int id = in->result;
    DType dt = (DType)in->type.dtype;
    const char *T = c_type(dt);
    int ept = C->tile->tm * C->tile->tn;
    int nthreads = C->tile->block_threads;
    cb_line(C, "%s v%d;", T, id);
    cb_line(C, "{");
    C->indent++;
    Layout use = use_of(C, in, 0, LAYOUT_FLAT);
    cb_line(C, "%s r = %s;", T, cb_elem(C, in->args[0], use, "i", "0"));
    if (ept > 1) {
        cb_line(C, "#pragma unroll");
        cb_line(C, "for (int j = 1; j < %d; j++) %s", ept,
                combine(C, in, "r", cb_elem(C, in->args[0], use, "i", "j")));
    }
    int warp = nthreads < 32 ? nthreads : 32;
    const char *mask =
        warp == 32 ? "0xffffffffu" : arena_printf(C->a, "0x%xu", (unsigned)((1u << warp) - 1));
    if (warp > 1)
        cb_line(C, "for (int off = %d; off > 0; off >>= 1) %s", warp / 2,
                combine(C, in, "r", shuffled(C, dt, mask)));
    if (nthreads > 32) {
        int nw = nthreads / 32;
        sb_printf(&C->smem, "    __shared__ %s reduce_smem_%d[%d];\n", T, id, nw);
        cb_line(C, "if ((%s & 31) == 0) reduce_smem_%d[%s >> 5] = r;", C->tid, id, C->tid);
        cb_line(C, "__syncthreads();");
        cb_line(C, "r = reduce_smem_%d[%s & %d];", id, C->tid, nw - 1);
        if (nw > 1)
            cb_line(C, "for (int off = %d; off > 0; off >>= 1) %s", nw / 2,
                    combine(C, in, "r", shuffled(C, dt, "0xffffffffu")));
        if (C->loop_depth > 0) cb_line(C, "__syncthreads();");
    }
    cb_line(C, "v%d = r;", id);
    C->indent--;
    cb_line(C, "}");
}

/* A reduction along an axis of the tile combined where its elements are
 * (layout.h layout_reduce_shuffles): per result element, the thread's own
 * elements along the axis in order, then the threads sharing the slice by
 * xor shuffles (the largest distance first), then, where the axis spans
 * several warps, the warps' partials through shared memory in a tree of
 * the same order (every lane of a butterfly ends with the same value). */
static const char *axis_step(void *user, Op op, DType dt, const char *acc, const char *x);
static void smem_buffer(CudaB *C, const char *T, const char *name, long long n, int offset,
                        int align16);
static void pool_barrier(CudaB *C);
static int reg_bytes(DType dt);

/* acc (its index acc_i) combined with x (x_i), as a statement: argmax and
 * argmin by Triton's combine with ties to the left (the element of the
 * smaller index stays), the others by axis_step. */
static const char *shuffle_combine(CudaB *C, const Inst *in, DType xdt, const char *acc,
                                   const char *acc_i, const char *x, const char *x_i) {
    if (in->op != OP_ARGMAX && in->op != OP_ARGMIN)
        return arena_printf(C->a, "%s = %s;", acc, axis_step(C, in->op, xdt, acc, x));
    const char *gt = in->op == OP_ARGMAX ? ">" : "<";
    return arena_printf(C->a, "if (!(%s %s %s || (%s == %s && %s < %s))) { %s = %s; %s = %s; }",
                        acc, gt, x, acc, x, acc_i, x_i, acc, x, acc_i, x_i);
}

static void emit_axis_shuffle(CudaB *C, const Inst *in) {
    const TileInfo *t = C->tile;
    int id = in->result, axis = in->attrs.axis;
    int argx = in->op == OP_ARGMAX || in->op == OP_ARGMIN;
    DType dt = (DType)in->type.dtype, xdt = (DType)operand_type(C->f, in->args[0]).dtype;
    const char *T = c_type(dt), *TX = c_type(xdt);
    int tm = t->tm > 0 ? t->tm : 1, tn = t->tn > 0 ? t->tn : 1;
    int TR = t->rows / tm, TC = t->cols / tn, bt = t->block_threads;
    /* along the axis: the thread's elements, the threads and their distance in tid */
    int per = axis == 1 ? tn : tm, nres = axis == 1 ? tm : tn;
    int along = axis == 1 ? TC : TR, dist = axis == 1 ? 1 : TC;
    int inwarp = along * dist <= 32 ? along : dist >= 32 ? 1 : 32 / dist;
    int warps = along / inwarp, extent = axis == 1 ? t->rows : t->cols;
    const char *res = axis == 1 ? "i" : "j", *fold = axis == 1 ? "j" : "i";
    const char *mask = bt >= 32 ? "0xffffffffu" : arena_printf(C->a, "0x%xu", (1u << bt) - 1);
    Layout lr = cb_layout(C, id);
    const char *dst = arena_printf(C->a, "v%d%s", id, subscript(C, lr, "i", "j"));
    const char *slice = extent == 1 ? "0" : axis == 1 ? cb_row(C, "i") : cb_col(C, "j");
    /* the index of the thread's element k along the axis */
    const char *at = axis == 1 ? cb_col(C, "j") : cb_row(C, "i");
    const char *buf = NULL, *ibuf = NULL;
    if (warps > 1) {
        int vbytes = extent * warps * reg_bytes(xdt);
        buf = arena_printf(C->a, "red_smem_%d", id);
        smem_buffer(C, TX, buf, (long long)extent * warps, 0, 0);
        if (argx) {
            ibuf = arena_printf(C->a, "red_idx_%d", id);
            smem_buffer(C, "int", ibuf, (long long)extent * warps, (vbytes + 15) / 16 * 16, 0);
        }
        if (C->tile->smem_pool) pool_barrier(C);
        else if (C->loop_depth > 0) cb_line(C, "__syncthreads();"); /* last iteration's readers */
    }
    if (cb_count(C, lr) == 1) cb_line(C, "%s v%d;", T, id);
    else declare(C, id, dt);
    cb_line(C, "{");
    C->indent++;
    if (nres > 1) {
        cb_line(C, "#pragma unroll");
        cb_line(C, "for (int %s = 0; %s < %d; %s++) {", res, res, nres, res);
        C->indent++;
    }
    const char *first = axis == 1 ? cb_elem(C, in->args[0], LAYOUT_TILE, "i", "0")
                                  : cb_elem(C, in->args[0], LAYOUT_TILE, "0", "j");
    cb_line(C, "%s r = %s;", TX, first);
    if (argx) cb_line(C, "int ri = %s;", axis == 1 ? cb_col(C, "0") : cb_row(C, "0"));
    if (per > 1) {
        cb_line(C, "#pragma unroll");
        cb_line(C, "for (int %s = 1; %s < %d; %s++) {", fold, fold, per, fold);
        cb_line(C, "    %s",
                shuffle_combine(C, in, xdt, "r", "ri",
                                cb_elem(C, in->args[0], LAYOUT_TILE, "i", "j"), at));
        cb_line(C, "}");
    }
    if (inwarp > 1) {
        cb_line(C, "for (int off = %d; off >= %d; off >>= 1) {", inwarp / 2 * dist, dist);
        cb_line(C, "    %s mt_o = %s;", TX, shuffled(C, xdt, mask));
        if (argx) cb_line(C, "    int mt_oi = __shfl_xor_sync(%s, ri, off);", mask);
        cb_line(C, "    %s", shuffle_combine(C, in, xdt, "r", "ri", "mt_o", "mt_oi"));
        cb_line(C, "}");
    }
    if (warps > 1) {
        /* the first thread along the axis of each warp writes its warp's partial */
        const char *pos = axis == 1 ? "tx" : "ty";
        if (axis == 1) C->uses_tx = 1;
        else C->uses_ty = 1;
        const char *w = inwarp > 1 ? arena_printf(C->a, "%s / %d", pos, inwarp) : pos;
        const char *idx = arena_printf(C->a, "(%s) * %d + %s", slice, warps, w);
        const char *put =
            argx ? arena_printf(C->a, "{ %s[%s] = r; %s[%s] = ri; }", buf, idx, ibuf, idx)
                 : arena_printf(C->a, "%s[%s] = r;", buf, idx);
        if (inwarp > 1) cb_line(C, "if ((%s & %d) == 0) %s", pos, inwarp - 1, put);
        else cb_line(C, "%s", put);
    } else {
        cb_line(C, "%s = %s;", dst, argx ? "ri" : "r");
    }
    if (nres > 1) {
        C->indent--;
        cb_line(C, "}");
    }
    if (warps > 1) {
        cb_line(C, "__syncthreads();");
        if (nres > 1) {
            cb_line(C, "#pragma unroll");
            cb_line(C, "for (int %s = 0; %s < %d; %s++) {", res, res, nres, res);
            C->indent++;
        }
        cb_line(C, "%s p[%d];", TX, warps);
        if (argx) cb_line(C, "int pi[%d];", warps);
        cb_line(C, "#pragma unroll");
        cb_line(C, "for (int w = 0; w < %d; w++) {", warps);
        cb_line(C, "    p[w] = %s[(%s) * %d + w];", buf, slice, warps);
        if (argx) cb_line(C, "    pi[w] = %s[(%s) * %d + w];", ibuf, slice, warps);
        cb_line(C, "}");
        cb_line(C, "#pragma unroll");
        cb_line(C, "for (int s = %d; s > 0; s >>= 1) {", warps / 2);
        cb_line(C, "    #pragma unroll");
        cb_line(C, "    for (int k = 0; k < s; k++) %s",
                shuffle_combine(C, in, xdt, "p[k]", "pi[k]", "p[k + s]", "pi[k + s]"));
        cb_line(C, "}");
        cb_line(C, "%s = %s;", dst, argx ? "pi[0]" : "p[0]");
        if (nres > 1) {
            C->indent--;
            cb_line(C, "}");
        }
        if (C->loop_depth > 0 && !C->tile->smem_pool) cb_line(C, "__syncthreads();");
    }
    C->indent--;
    cb_line(C, "}");
}

/* ---- Shape ops ------------------------------------------------------------- */

/* Reshape, trans, remap, join and split move elements between threads, and so
 * does the generic axis path of reductions and scans: every element of the
 * operand is written once to a __shared__ buffer at its row-major position
 * in the operand's shape, and each thread reads what its result elements
 * need. held_pos: the position of element (i, j) of a thread's elements of
 * layout `l`, in a value of that layout; *guard: the threads that write it
 * (NULL: all; a row is held by every thread of the row, written by the
 * first). */
static const char *held_pos(CudaB *C, Layout l, Type ty, const char **guard) {
    const TileInfo *t = C->tile;
    *guard = first_holder(C, l);
    switch (l) {
    case LAYOUT_UNIFORM: return "0";
    case LAYOUT_ROWS: return cb_row(C, "i");
    case LAYOUT_COLS: return cb_col(C, "j");
    case LAYOUT_TILE: {
        /* (a bounding box: the value's own row length) */
        int cols = t->dot_box && ty.rank == 2 && ty.dims[1] > 1 ? (int)ty.dims[1] : t->cols;
        return arena_printf(C->a, "%s * %d + %s", cb_row(C, "i"), cols, cb_col(C, "j"));
    }
    case LAYOUT_FLAT: return flat_index(C, "j");
    }
    return "0";
}

/* held_pos of a result element that the thread computes from an exchange
 * buffer: in a bounding box, 0 where the element is outside the value's
 * shape (a position inside the buffer; the element is never used). */
static const char *read_pos(CudaB *C, Layout l, Type ty) {
    const char *unused;
    const char *p = held_pos(C, l, ty, &unused);
    const char *inside = box_guard(C, ty, l, "i", "j");
    return inside ? arena_printf(C->a, "((%s) ? %s : 0)", inside, p) : p;
}

static Layout value_layout(CudaB *C, const Inst *in, int k) {
    Operand o = in->args[k];
    Type t = operand_type(C->f, o);
    if (o.kind != OPD_VALUE || t.rank == 0 || type_numel(t) == 1) return LAYOUT_UNIFORM;
    if (is_arange(C, o.id)) return use_of(C, in, k, LAYOUT_UNIFORM);
    return cb_layout(C, o.id);
}

/* Shared buffers. A __shared__ array at kernel scope; in a bounding-box
 * kernel spread over the threads (tile->smem_pool) a view of the dynamic
 * pool mt_smem at byte `offset`: one buffer (tl.dot: its two) in use at a
 * time, each written after a barrier that lets the previous one's readers
 * finish (pool_barrier), so the pool holds the largest, not their sum. */
static void smem_buffer(CudaB *C, const char *T, const char *name, long long n, int offset,
                        int align16) {
    if (C->tile->smem_pool)
        sb_printf(&C->smem, "    %s *const %s = (%s *)(mt_smem + %d);\n", T, name, T, offset);
    else
        sb_printf(&C->smem, "    __shared__ %s%s %s[%lld];\n", align16 ? "__align__(16) " : "", T,
                  name, n);
}

static void pool_barrier(CudaB *C) {
    if (!C->tile->smem_pool) return;
    if (C->pool_gen > 0 || C->loop_depth > 0) cb_line(C, "__syncthreads();");
    C->pool_gen++;
}

/* The bytes of a register value of dt in a buffer. */
static int reg_bytes(DType dt) {
    if (dt == DT_BOOL) return 1;
    int bits = dtype_info(dtype_info(dt)->compute)->bits;
    return bits < 8 ? 1 : bits / 8;
}

static int mem_bytes(DType dt) {
    int bits = dtype_info(dt)->bits;
    return bits < 8 ? 1 : bits / 8;
}

/* Byte offset of tl.dot's second operand in the pool (after the first,
 * 16-byte aligned). */
static int dot_b_offset(const Function *f, const Inst *in) {
    Type xt = operand_type(f, in->args[0]);
    int a = (int)type_numel(xt) * mem_bytes((DType)xt.dtype);
    return (a + 15) / 16 * 16;
}

/* ---- Scans in doubling steps -----------------------------------------------
 *
 * tl.cumsum and tl.cumprod along an axis of count >= SCAN_STEPS_MIN
 * elements: the operand goes to shared memory (one writer per element) and
 * the block's threads, taking the elements in turn, scan it in log2(count)
 * rounds (Hillis and Steele): in the round of distance d each element
 * combines the one d places before it along the axis (after it, reversed)
 * with itself, from one buffer into the other. The sequential fold of the
 * generic axis path costs O(count) reads per element; this O(log count).
 * The second buffer doubles the shared memory, so operands over 8 KiB
 * keep the generic path (static __shared__ arrays share 48 KiB). */
enum { SCAN_STEPS_MIN = 16, SCAN_STEPS_MAX_BYTES = 8192 };

/* The elements along the scanned axis, and the stride between them. */
static int scan_axis(const Function *f, const Inst *in, int *stride) {
    Type xt = operand_type(f, in->args[0]);
    int axis = (in->attrs.flag & RED_AXIS) ? in->attrs.axis : 0;
    if (xt.rank == 1) return *stride = 1, (int)xt.dims[0];
    if (xt.rank != 2) return *stride = 0, 0;
    *stride = axis == 1 ? 1 : (int)xt.dims[1];
    return (int)xt.dims[axis == 1 ? 1 : 0];
}

static int scan_steps(const Function *f, const Inst *in) {
    int stride;
    if (!op_has(in->op, OPF_SCAN) || scan_axis(f, in, &stride) < SCAN_STEPS_MIN) return 0;
    Type xt = operand_type(f, in->args[0]);
    return type_numel(xt) * reg_bytes((DType)xt.dtype) <= SCAN_STEPS_MAX_BYTES;
}

/* Byte offset of the second buffer of a scan in steps (16-byte aligned). */
static int scan_tmp_offset(const Function *f, const Inst *in) {
    Type xt = operand_type(f, in->args[0]);
    return ((int)type_numel(xt) * reg_bytes((DType)xt.dtype) + 15) / 16 * 16;
}

static int box_smem_block(const Function *f, const TileInfo *t, const Block *b) {
    int most = 0;
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++) {
            int m = box_smem_block(f, t, sub[k]);
            if (m > most) most = m;
        }
        if (n || in->nargs == 0) continue;
        int bytes = 0;
        Type xt = operand_type(f, in->args[0]);
        if (in->op == OP_DOT) {
            Type yt = operand_type(f, in->args[1]);
            bytes = dot_b_offset(f, in) + (int)type_numel(yt) * mem_bytes((DType)yt.dtype);
            DotTc P; /* (tensor cores, emit_cuda_dot_tc.c: their staging, if larger) */
            if (cuda_dot_tc_plan(f, in, &P) && P.bytes > bytes) bytes = P.bytes;
        } else if (shape_moves_elements(in->op)) {
            bytes = (int)type_numel(xt) * (in->op == OP_JOIN ? 2 : 1) *
                    reg_bytes((DType)in->type.dtype);
        } else if (layout_reduce_shuffles(f, t, in)) {
            /* (at most a partial per thread along the axis, and its index) */
            int axis = in->attrs.axis, tm = t->tm > 0 ? t->tm : 1, tn = t->tn > 0 ? t->tn : 1;
            int np = (axis == 1 ? t->rows : t->cols) * (axis == 1 ? t->cols / tn : t->rows / tm);
            bytes = (np * reg_bytes((DType)xt.dtype) + 15) / 16 * 16 + np * 4;
        } else if ((op_has(in->op, OPF_REDUCE) || op_has(in->op, OPF_SCAN)) &&
                   !shape_reduce_flat(t, f, in)) {
            bytes = (int)type_numel(xt) * reg_bytes((DType)xt.dtype);
            if (scan_steps(f, in)) bytes = scan_tmp_offset(f, in) * 2; /* (two buffers) */
        }
        if (bytes > most) most = bytes;
    }
    return most;
}

int cuda_box_smem(const Function *f, const TileInfo *t) {
    return (box_smem_block(f, t, &f->body) + 15) / 16 * 16;
}

/* Writes each element of operand k once at its row-major position (times
 * scale, plus add) in its own shape, or where rs > 0 (a rank-2 operand
 * held in LAYOUT_TILE) element (r, c) at r * rs + c * cs; mem: the
 * buffer's dtype in memory (DT_NONE: the register type). */
static void exchange_write_at(CudaB *C, const Inst *in, int k, const char *buf, int scale, int add,
                              DType mem, int rs, int cs) {
    Layout l = value_layout(C, in, k);
    Type t = operand_type(C->f, in->args[k]);
    const char *guard;
    int n = cb_open(C, l);
    const char *pos = held_pos(C, l, t, &guard);
    if (l != LAYOUT_UNIFORM) guard = both(C, guard, box_guard(C, t, l, "i", "j"));
    if (scale != 1 || add != 0) pos = arena_printf(C->a, "(%s) * %d + %d", pos, scale, add);
    if (rs > 0 && l == LAYOUT_TILE)
        pos = arena_printf(C->a, "(%s) * %d + (%s) * %d", cb_row(C, "i"), rs, cb_col(C, "j"), cs);
    const char *x = cb_elem(C, in->args[k], l, "i", "j");
    if (mem != DT_NONE) x = c_store(C->a, mem, C_CUDA, x);
    if (guard) cb_line(C, "if (%s) %s[%s] = %s;", guard, buf, pos, x);
    else cb_line(C, "%s[%s] = %s;", buf, pos, x);
    cb_close(C, n);
}

static void exchange_write(CudaB *C, const Inst *in, int k, const char *buf, int scale, int add,
                           DType mem) {
    exchange_write_at(C, in, k, buf, scale, add, mem, 0, 0);
}

/* Element s of a thread's elements of layout l as (i, j) text. */
static void slot_ij(CudaB *C, Layout l, int s, const char **i, const char **j) {
    int tn = C->tile->tn > 0 ? C->tile->tn : 1;
    *i = "0";
    *j = "0";
    if (l == LAYOUT_ROWS) *i = arena_printf(C->a, "%d", s);
    else if (l == LAYOUT_TILE) {
        *i = arena_printf(C->a, "%d", s / tn);
        *j = arena_printf(C->a, "%d", s % tn);
    } else *j = arena_printf(C->a, "%d", s);
}

/* The mask m with map[s] == s ^ m for every element s (a permutation
 * along one index: xor of i and of j, as m / tn and m % tn), -1 if none.
 * Identity: 0. */
static int xor_map(const int *map, int n) {
    int m = map[0];
    for (int s = 0; s < n; s++)
        if (map[s] != (s ^ m)) return -1;
    return m;
}

/* An exchange the layout plan keeps in each thread (CONV_REGS: a sort's
 * first compare-and-swap steps, a reshape between layouts that hold the
 * same elements): a permutation of the thread's registers, no shared
 * memory. */
static void emit_in_registers(CudaB *C, const Inst *in, const int *map) {
    int id = in->result;
    Layout rl = cb_layout(C, id);
    int n = cb_count(C, rl), tn = C->tile->tn > 0 ? C->tile->tn : 1;
    declare(C, id, (DType)in->type.dtype);
    int m = in->nargs == 1 && value_layout(C, in, 0) == rl ? xor_map(map, n) : -1;
    if (m >= 0 && (rl != LAYOUT_TILE || (tn & (tn - 1)) == 0)) {
        /* one line over the elements: (i ^ mi, j ^ mj) */
        int mi = rl == LAYOUT_TILE ? m / tn : rl == LAYOUT_ROWS ? m : 0;
        int mj = rl == LAYOUT_TILE ? m % tn : rl == LAYOUT_ROWS ? 0 : m;
        int loops = cb_open(C, rl);
        const char *i = mi ? arena_printf(C->a, "(i ^ %d)", mi) : "i";
        const char *j = mj ? arena_printf(C->a, "(j ^ %d)", mj) : "j";
        cb_line(C, "v%d%s = %s;", id, subscript(C, rl, "i", "j"),
                cb_elem(C, in->args[0], rl, i, j));
        cb_close(C, loops);
        return;
    }
    for (int s = 0; s < n; s++) {
        int k = map[s] / LAYOUT_MAX_SLOTS;
        const char *ri, *rj, *si, *sj;
        slot_ij(C, rl, s, &ri, &rj);
        slot_ij(C, value_layout(C, in, k), map[s] % LAYOUT_MAX_SLOTS, &si, &sj);
        cb_line(C, "v%d%s = %s;", id, subscript(C, rl, ri, rj),
                cb_elem(C, in->args[k], value_layout(C, in, k), si, sj));
    }
}

static void emit_exchange(CudaB *C, const Inst *in) {
    if (C->plan->conv[in->result] == CONV_REGS) {
        emit_in_registers(C, in, C->plan->regs[in->result]);
        return;
    }
    int id = in->result;
    DType dt = (DType)in->type.dtype;
    const char *T = c_type(dt);
    Type xt = operand_type(C->f, in->args[0]);
    int n = (int)type_numel(xt) * (in->op == OP_JOIN ? 2 : 1);
    const char *buf;
    if (in->op == OP_XOR_SHUFFLE && !C->tile->smem_pool) {
        /* one buffer per dtype and size for all of them (a tl.sort of n
         * elements has log2(n) (log2(n) + 1) / 2): once declared, a barrier
         * lets the last readers finish before it is written again */
        buf = arena_printf(C->a, "shuffle_smem_%s_%d", dtype_name(dt), n);
        const char *decl = arena_printf(C->a, "    __shared__ %s %s[%d];\n", T, buf, n);
        if (C->smem.len && strstr(sb_str(&C->smem), decl)) cb_line(C, "__syncthreads();");
        else sb_puts(&C->smem, decl);
    } else {
        buf = arena_printf(C->a, "shape_smem_%d", id);
        smem_buffer(C, T, buf, n, 0, 0);
        pool_barrier(C);
    }
    if (in->op == OP_JOIN) {
        exchange_write(C, in, 0, buf, 2, 0, DT_NONE);
        exchange_write(C, in, 1, buf, 2, 1, DT_NONE);
    } else {
        exchange_write(C, in, 0, buf, 1, 0, DT_NONE);
    }
    cb_line(C, "__syncthreads();");
    Layout rl = type_numel(in->type) == 1 ? LAYOUT_UNIFORM : cb_layout(C, id);
    if (cb_count(C, rl) == 1) cb_line(C, "%s v%d;", T, id);
    else declare(C, id, dt);
    int loops = cb_open(C, rl);
    const char *p = read_pos(C, rl, in->type);
    /* a name for a position read more than once (bounding boxes, remap) */
    int named =
        in->op == OP_REMAP || in->op == OP_GATHER || (C->tile->dot_box && in->op == OP_TRANS);
    if (named) {
        cb_line(C, "{");
        C->indent++;
        cb_line(C, "const int mt_p = %s;", p);
        p = "mt_p";
    }
    const char *src = p;    /* reshape, join: the same row-major position */
    if (in->op == OP_TRANS) /* result (C0, R0) at p is operand (R0, C0) at (p % R0, p / R0) */
        src = arena_printf(C->a, "((%s) %% %d) * %d + (%s) / %d", p, (int)xt.dims[0],
                           (int)xt.dims[1], p, (int)xt.dims[0]);
    if (in->op == OP_SPLIT) src = arena_printf(C->a, "(%s) * 2 + %d", p, in->attrs.axis);
    if (in->op == OP_XOR_SHUFFLE) src = arena_printf(C->a, "(%s) ^ %d", p, in->attrs.axis);
    if (in->op == OP_REMAP) src = c_remap_index(C->a, &in->attrs, p);
    if (in->op == OP_GATHER) src = c_gather_index(C->a, C->f, in, p, E(C, in, 1, rl));
    cb_line(C, "v%d%s = %s[%s];", id, cb_count(C, rl) == 1 ? "" : subscript(C, rl, "i", "j"), buf,
            src);
    if (named) {
        C->indent--;
        cb_line(C, "}");
    }
    cb_close(C, loops);
    if (C->loop_depth > 0) cb_line(C, "__syncthreads();");
}
static void emit_axis_result(CudaB *C, const Inst *in, const char *buf);

/* reduce_gen's step, integer max and min guarded (cb_int_minmax). */
static const char *axis_step(void *user, Op op, DType dt, const char *acc, const char *x);

/* A scan in doubling steps (above): the operand into the buffer `src`,
 * the rounds between it and a second one; each thread then reads its
 * result elements from where the last round wrote them. */
static void emit_scan_steps(CudaB *C, const Inst *in) {
    int id = in->result, stride;
    Type xt = operand_type(C->f, in->args[0]);
    DType xdt = (DType)xt.dtype;
    const char *T = c_type(xdt);
    int count = scan_axis(C->f, in, &stride), numel = (int)type_numel(xt);
    int reverse = (in->attrs.flag & RED_REVERSE) != 0;
    const char *b0 = arena_printf(C->a, "scan_smem_%d", id);
    const char *b1 = arena_printf(C->a, "scan_tmp_%d", id);
    smem_buffer(C, T, b0, numel, 0, 0);
    smem_buffer(C, T, b1, numel, scan_tmp_offset(C->f, in), 0);
    if (C->tile->smem_pool) pool_barrier(C);
    else if (C->loop_depth > 0) cb_line(C, "__syncthreads();"); /* last iteration's readers */
    exchange_write(C, in, 0, b0, 1, 0, DT_NONE);
    cb_line(C, "__syncthreads();");
    const char *src = arena_printf(C->a, "mt_scan_%d", id);
    cb_line(C, "%s *%s = %s, *%s_to = %s;", T, src, b0, src, b1);
    cb_line(C, "for (int mt_sd = 1; mt_sd < %d; mt_sd *= 2) {", count);
    C->indent++;
    cb_line(C, "for (int mt_se = %s; mt_se < %d; mt_se += %d) {", C->tid, numel,
            C->tile->block_threads);
    C->indent++;
    const char *k = stride == 1
                        ? (count == numel ? "mt_se" : arena_printf(C->a, "mt_se %% %d", count))
                        : arena_printf(C->a, "mt_se / %d", stride);
    const char *other = stride == 1 ? "mt_sd" : arena_printf(C->a, "mt_sd * %d", stride);
    const char *x = arena_printf(C->a, "%s[mt_se]", src);
    const char *near = arena_printf(C->a, "%s[mt_se %s %s]", src, reverse ? "+" : "-", other);
    /* (the earlier elements' part first: near, the element d before, or
     * reversed d after, as the generic path's fold) */
    const char *step = axis_step(C, in->op, xdt, near, x);
    cb_line(C, "%s_to[mt_se] = %s ? %s : %s;", src,
            reverse ? arena_printf(C->a, "(%s) + mt_sd < %d", k, count)
                    : arena_printf(C->a, "(%s) >= mt_sd", k),
            step, x);
    C->indent--;
    cb_line(C, "}");
    cb_line(C, "__syncthreads();");
    cb_line(C, "%s *const mt_swap = %s;", T, src);
    cb_line(C, "%s = %s_to;", src, src);
    cb_line(C, "%s_to = mt_swap;", src);
    C->indent--;
    cb_line(C, "}");
    Layout lr = cb_layout(C, id);
    declare(C, id, (DType)in->type.dtype);
    int n = cb_open(C, lr);
    const char *at = read_pos(C, lr, in->type);
    cb_line(C, "v%d%s = %s[%s];", id, subscript(C, lr, "i", "j"), src, at);
    cb_close(C, n);
    if (C->loop_depth > 0) cb_line(C, "__syncthreads();");
}

/* The generic axis path of a reduction or scan (reduce_gen.h): the operand
 * into shared memory (one writer per element), then each thread computes
 * the result elements it holds by combining along the axis in order. */
static void emit_axis_reduce(CudaB *C, const Inst *in) {
    int id = in->result;
    Type xt = operand_type(C->f, in->args[0]);
    DType xdt = (DType)xt.dtype;
    if (scan_steps(C->f, in) && C->progs == 1) {
        emit_scan_steps(C, in);
        return;
    }
    /* an operand already in shared memory (written earlier in this block:
     * several reductions of one value, tl.reduce's elements) is read there */
    int v0 = in->args[0].kind == OPD_VALUE ? in->args[0].id : -1;
    /* (the pool: if no other buffer has been written since) */
    if (v0 >= 0 && C->red_buf[v0] && C->red_blk[v0] == C->cur_block &&
        (!C->tile->smem_pool || C->red_gen[v0] == C->pool_gen)) {
        emit_axis_result(C, in, C->red_buf[v0]);
        return;
    }
    const char *buf = arena_printf(C->a, "red_smem_%d", id);
    smem_buffer(C, c_type(xdt), buf, (long long)type_numel(xt), 0, 0);
    if (C->tile->smem_pool) pool_barrier(C);
    else if (C->loop_depth > 0) cb_line(C, "__syncthreads();"); /* last iteration's readers */
    if (v0 >= 0) C->red_buf[v0] = buf, C->red_blk[v0] = C->cur_block, C->red_gen[v0] = C->pool_gen;
    exchange_write(C, in, 0, buf, 1, 0, DT_NONE);
    cb_line(C, "__syncthreads();");
    emit_axis_result(C, in, buf);
}

/* reduce_gen's step, integer max and min guarded (cb_int_minmax). */
static const char *axis_step(void *user, Op op, DType dt, const char *acc, const char *x) {
    CudaB *C = user;
    const char *g = op == OP_MAX || op == OP_MIN ? cb_int_minmax(C, op, dt, acc, x) : NULL;
    return g ? g : red_step_default(C->a, op, dt, acc, x);
}

/* The result elements of an axis reduction whose operand is in `buf`. */
static void emit_axis_result(CudaB *C, const Inst *in, const char *buf) {
    int id = in->result;
    Layout lr = in->type.rank == 0 ? LAYOUT_UNIFORM : cb_layout(C, id);
    declare(C, id, (DType)in->type.dtype);
    RedGen g = {C->a, C_CUDA, C->f, in, arena_printf(C->a, "%s[%%s]", buf), axis_step, C};
    int n = cb_open(C, lr);
    const char **ls = red_lines(&g, read_pos(C, lr, in->type),
                                arena_printf(C->a, "v%d%s", id, subscript(C, lr, "i", "j")));
    for (int k = 0; ls[k]; k++) cb_line(C, "%s", ls[k]);
    cb_close(C, n);
}

/* ---- tl.dot on CUDA cores (bounding-box kernels) ----------------------------
 *
 * A dot that neither the tensor-core path (emit_cuda_mma.c) nor the
 * attention path (emit_cuda_attn.c) takes, in a bounding-box tile too large
 * for one thread per element: the operands go to shared memory (each
 * element once, at its row-major position, in the dtype's memory type),
 * then each thread accumulates the result elements it holds, a tm x tn
 * register micro-tile, over k in order: per k, its rows' elements of the
 * first operand and its columns' of the second, then one fused
 * multiply-add per element from the accumulator (int8: wrapping 32-bit
 * products and sums; TF32 operands truncated to 19 bits; tf32x3's split),
 * the numerics of emit_cuda.c's K loop and of the host backend. The
 * batched form ({batch=B}: operands (B*M, K) and (B*K, N)) reads row
 * (r / M) * K + k of the second operand for result row r. Elements outside
 * the result's shape read row or column 0 (in bounds) and are never used. */
/* One K loop over the micro-tile: dst[i][j] = step(x, y, dst[i][j]) for
 * k in order, x the first operand at (row i, k), y the second at (k's row
 * of row i's batch, column j). In `step`, {0} is x, {1} y and {2} the
 * accumulator. */
static void dot_k_loop(CudaB *C, const char *dst, const char *step, const char *TX, const char *TY,
                       const char *x, const char *y, int tm, int tn, int K, int batched) {
    const char *yij = batched ? "mt_y[i][j]" : "mt_y[j]";
    cb_line(C, "for (int k = 0; k < %d; k++) {", K);
    C->indent++;
    cb_line(C, "%s mt_x[%d];", TX, tm);
    cb_line(C, "#pragma unroll");
    cb_line(C, "for (int i = 0; i < %d; i++) mt_x[i] = %s;", tm, x);
    if (batched) {
        cb_line(C, "%s mt_y[%d][%d];", TY, tm, tn);
        cb_line(C, "#pragma unroll");
        cb_line(C, "for (int i = 0; i < %d; i++)", tm);
        cb_line(C, "#pragma unroll");
        cb_line(C, "    for (int j = 0; j < %d; j++) mt_y[i][j] = %s;", tn, y);
    } else {
        cb_line(C, "%s mt_y[%d];", TY, tn);
        cb_line(C, "#pragma unroll");
        cb_line(C, "for (int j = 0; j < %d; j++) mt_y[j] = %s;", tn, y);
    }
    const char *d = arena_printf(C->a, "%s[i][j]", dst);
    const char *fmt[3] = {"mt_x[i]", yij, d};
    StrBuf sb;
    sb_init(&sb, C->a);
    for (const char *p = step; *p; p++) {
        if (p[0] == '{' && p[1] >= '0' && p[1] <= '2' && p[2] == '}') {
            sb_puts(&sb, fmt[p[1] - '0']);
            p += 2;
        } else {
            sb_putc(&sb, *p);
        }
    }
    cb_line(C, "#pragma unroll");
    cb_line(C, "for (int i = 0; i < %d; i++)", tm);
    cb_line(C, "#pragma unroll");
    cb_line(C, "    for (int j = 0; j < %d; j++) %s = %s;", tn, d, sb_str(&sb));
    C->indent--;
    cb_line(C, "}");
}

void cb_dot_stage(CudaB *C, const Inst *in, int k, const char *buf, int rs, int cs) {
    DType mem = (DType)operand_type(C->f, in->args[k]).dtype;
    exchange_write_at(C, in, k, buf, 1, 0, mem, rs, cs);
}

void cb_dot_tile_io(CudaB *C, const Inst *in, const char *buf, int ld, int write) {
    int id = in->result;
    DType ot = (DType)in->type.dtype;
    Layout l = cb_layout(C, id);
    int n = cb_open(C, l);
    const char *inside = box_guard(C, in->type, l, "i", "j");
    const char *pos = arena_printf(C->a, "(%s) * %d + (%s)", cb_row(C, "i"), ld, cb_col(C, "j"));
    if (write) {
        const char *acc = cb_elem(C, in->args[2], use_of(C, in, 2, l), "i", "j");
        const char *T = ot == DT_I32 ? "int" : "float";
        if (inside) cb_line(C, "if (%s) %s[%s] = (%s)(%s);", inside, buf, pos, T, acc);
        else cb_line(C, "%s[%s] = (%s)(%s);", buf, pos, T, acc);
    } else {
        if (inside) pos = arena_printf(C->a, "((%s) ? %s : 0)", inside, pos);
        const char *x = arena_printf(C->a, "%s[%s]", buf, pos);
        if (ot != DT_I32 && dtype_info(ot)->compute != ot) x = c_round(C->a, ot, C_CUDA, x);
        cb_line(C, "v%d%s = %s;", id, subscript(C, l, "i", "j"), x);
    }
    cb_close(C, n);
}

/* Opens the tensor-core path of dot `in` (emit_cuda_dot_tc.c) where its
 * dtypes, shapes and layouts allow: 1 when the CUDA-core loop that
 * follows is its #else. */
static int dot_tensor_cores(CudaB *C, const Inst *in) {
    DotTc P;
    Arena *a = C->notes ? C->a : NULL; /* (reasons in words for --emit=explain) */
    const char *why = cuda_dot_tc_why(a, C->f, in, &P);
    if (!why && (cb_layout(C, in->result) != LAYOUT_TILE || value_layout(C, in, 0) != LAYOUT_TILE ||
                 value_layout(C, in, 1) != LAYOUT_TILE))
        why = "an operand or the result is not held in the tile's layout";
    if (!why) why = cuda_dot_tc_fit(a, &P, C->tile, C->progs);
    if (C->notes)
        sb_printf(C->notes, "%d:%d: %s: %s%s\n", in->pos.line, in->pos.col,
                  cuda_dot_describe(C->a, C->f, in), why ? "CUDA cores: " : "tensor cores: ",
                  why ? why : cuda_dot_tc_taken(C->a, &P, C->tile));
    return why ? 0 : cuda_dot_tc_open(C, in, &P);
}

static void emit_dot(CudaB *C, const Inst *in) {
    const Function *f = C->f;
    const TileInfo *t = C->tile;
    int id = in->result;
    Type xt = operand_type(f, in->args[0]), yt = operand_type(f, in->args[1]);
    int M = xt.dims[0], K = xt.dims[1], N = yt.dims[1], KB = yt.dims[0];
    int B = in->attrs.axis > 1 ? in->attrs.axis : 1;
    DType ot = (DType)in->type.dtype, it = (DType)xt.dtype, jt = (DType)yt.dtype;
    const char *abuf = arena_printf(C->a, "dot_a_%d", id);
    const char *bbuf = arena_printf(C->a, "dot_b_%d", id);
    const char *TA = c_mem_type(it, C_CUDA), *TB = c_mem_type(jt, C_CUDA);
    declare(C, id, ot);
    if (!C->tile->smem_pool) {
        smem_buffer(C, TA, abuf, M * K, 0, 1);
        smem_buffer(C, TB, bbuf, KB * N, dot_b_offset(f, in), 1);
    }
    pool_barrier(C);
    int tc = dot_tensor_cores(C, in); /* (then this loop is its #else) */
    if (C->tile->smem_pool) {         /* (the pool's views where they are used) */
        cb_line(C, "{");
        C->indent++;
        cb_line(C, "%s *const %s = (%s *)(mt_smem + 0);", TA, abuf, TA);
        cb_line(C, "%s *const %s = (%s *)(mt_smem + %d);", TB, bbuf, TB, dot_b_offset(f, in));
    }
    exchange_write(C, in, 0, abuf, 1, 0, it);
    exchange_write(C, in, 1, bbuf, 1, 0, jt);
    cb_line(C, "__syncthreads();");
    Layout l = cb_layout(C, id);
    int tm = l == LAYOUT_TILE || l == LAYOUT_ROWS ? t->tm : 1;
    int tn = l == LAYOUT_TILE || l == LAYOUT_COLS ? t->tn : 1;
    int prec = it == DT_F32 ? in->attrs.flag : DOT_IEEE;
    const char *TS = ot == DT_I32 ? "unsigned" : ot == DT_F64 ? "double" : "float";
    cb_line(C, "{");
    C->indent++;
    /* the thread's rows and columns of the result (0 outside it) */
    const char *row = cb_row(C, "i"), *col = cb_col(C, "j");
    cb_line(C, "int mt_r[%d], mt_c[%d];", tm, tn);
    cb_line(C, "#pragma unroll");
    cb_line(C, "for (int i = 0; i < %d; i++) mt_r[i] = %s < %d ? %s : 0;", tm, row, M, row);
    cb_line(C, "#pragma unroll");
    cb_line(C, "for (int j = 0; j < %d; j++) mt_c[j] = %s < %d ? %s : 0;", tn, col, N, col);
    cb_line(C, "%s mt_s[%d][%d];", TS, tm, tn);
    const char *si = arena_printf(C->a, "mt_s[%s][%s]", tm > 1 ? "i" : "0", tn > 1 ? "j" : "0");
    int n = cb_open(C, l);
    const char *acc = cb_elem(C, in->args[2], use_of(C, in, 2, l), "i", "j");
    cb_line(C, "%s = %s;", si, ot == DT_I32 ? arena_printf(C->a, "(unsigned)%s", acc) : acc);
    cb_close(C, n);
    const char *x = c_load(C->a, it, C_CUDA, arena_printf(C->a, "%s[mt_r[i] * %d + k]", abuf, K));
    const char *brow = B > 1 ? arena_printf(C->a, "(mt_r[i] / %d * %d + k)", M / B, K) : "k";
    const char *y =
        c_load(C->a, jt, C_CUDA, arena_printf(C->a, "%s[%s * %d + mt_c[j]]", bbuf, brow, N));
    const char *TX = c_type(it), *TY = c_type(jt);
    if (prec == DOT_TF32X3) {
        /* the small cross products first, then big * big onto acc + them */
        cb_line(C, "float mt_t[%d][%d] = {};", tm, tn);
        dot_k_loop(C, "mt_t", "fmaf(mt_tf32_trunc({0} - mt_tf32_rna({0})), mt_tf32_rna({1}), {2})",
                   TX, TY, x, y, tm, tn, K, B > 1);
        dot_k_loop(C, "mt_t", "fmaf(mt_tf32_rna({0}), mt_tf32_trunc({1} - mt_tf32_rna({1})), {2})",
                   TX, TY, x, y, tm, tn, K, B > 1);
        cb_line(C, "#pragma unroll");
        cb_line(C, "for (int i = 0; i < %d; i++)", tm);
        cb_line(C, "#pragma unroll");
        cb_line(C, "    for (int j = 0; j < %d; j++) mt_s[i][j] += mt_t[i][j];", tn);
    }
    const char *step = ot == DT_I32         ? "{2} + (unsigned)((int){0} * (int){1})"
                       : prec == DOT_TF32   ? "fmaf(mt_tf32_trunc({0}), mt_tf32_trunc({1}), {2})"
                       : prec == DOT_TF32X3 ? "fmaf(mt_tf32_rna({0}), mt_tf32_rna({1}), {2})"
                       : ot == DT_F64       ? "fma({0}, {1}, {2})"
                                            : "fmaf({0}, {1}, {2})";
    dot_k_loop(C, "mt_s", step, TX, TY, x, y, tm, tn, K, B > 1);
    n = cb_open(C, l);
    const char *res = si;
    if (ot == DT_I32) res = arena_printf(C->a, "(int)%s", si);
    else if (dtype_info(ot)->compute != ot) res = c_round(C->a, ot, C_CUDA, si);
    cb_line(C, "v%d%s = %s;", id, subscript(C, l, "i", "j"), res);
    cb_close(C, n);
    C->indent--;
    cb_line(C, "}");
    if (C->tile->smem_pool) {
        C->indent--;
        cb_line(C, "}");
    }
    if (tc) cb_line(C, "#endif");
    cb_line(C, "__syncthreads();"); /* (the buffers may be written again) */
}

void cb_emit_block(CudaB *C, const Block *b);

/* Pure ops over blocks are emitted where their value is first needed, not
 * where the SSA defines them: a value used only after a loop is then not
 * live (in registers) across it, and an unused one costs nothing. Uniform
 * scalars are emitted in place. Before a loop, the deferred values its
 * body reads are emitted, so that nothing is recomputed per iteration and
 * every declaration is in scope. */
static int deferrable(const CudaB *C, const Inst *in) {
    (void)C;
    if (in->result < 0 || !op_has(in->op, OPF_PURE) || op_has(in->op, OPF_REDUCE)) return 0;
    switch (op_class(in->op)) {
    case OC_UNARY:
    case OC_MATH:
    case OC_BINARY:
    case OC_COMPARE:
    case OC_BITWISE:
    case OC_CONVERT:
    case OC_HINT:
    case OC_SELECT:
    case OC_ASM: /* (a volatile asm is not pure: it runs where written) */ return in->type.rank > 0;
    case OC_SHAPE: /* the exchanges: a __syncthreads, in place, reached by every thread */
        return in->op == OP_BROADCAST && in->type.rank > 0;
    case OC_INDEX:
    case OC_CREATE:
    case OC_POINTER:
    case OC_MEMORY:
    case OC_REDUCE:
    case OC_SCAN:
    case OC_DEBUG:
    case OC_ATOMIC:
    case OC_DOT:
    case OC_REGION: return 0;
    }
    return 0;
}

static void emit_now(CudaB *C, const Inst *in);
static void materialize_operands(CudaB *C, const Inst *in);

static void materialize(CudaB *C, Operand o) {
    if (o.kind != OPD_VALUE) return;
    int v = o.id;
    while (C->alias[v] >= 0) v = C->alias[v];
    const Inst *def = C->f->defs[v];
    if (!def) return;
    if (def->op == OP_ADDPTR || def->op == OP_EXPAND_DIMS) {
        for (int k = 0; k < def->nargs; k++) materialize(C, def->args[k]);
        return;
    }
    if (!C->deferred[v] || C->emitted[v]) return;
    C->emitted[v] = 1;
    materialize_operands(C, def);
    emit_now(C, def);
}

/* What `in` reads: its operands, or for a product fused into it
 * (fused_mul) the product's operands. */
static void materialize_operands(CudaB *C, const Inst *in) {
    for (int k = 0; k < in->nargs; k++) {
        const Inst *mul = k < 2 ? fused_mul(C, in, k) : NULL;
        if (!mul) {
            materialize(C,
                        in->op == OP_STORE && k == 1 ? stored_operand(C, in, NULL) : in->args[k]);
            continue;
        }
        materialize(C, mul->args[0]);
        materialize(C, mul->args[1]);
    }
}

static void materialize_block(CudaB *C, const Block *b);

/* What a region op reads from outside: its bounds, condition, carried
 * inputs and what its regions read (`inner`: their blocks too). */
static void materialize_region(CudaB *C, const Inst *in, int inner) {
    const Loop *l = in->loop;
    materialize(C, l->start), materialize(C, l->stop), materialize(C, l->step);
    if (in->op == OP_IF) materialize(C, l->cond);
    for (int k = 0; k < l->ncarried; k++) materialize(C, l->inits[k]);
    if (!inner) return;
    Block *sub[2];
    int n = ssa_blocks(in, sub);
    for (int k = 0; k < n; k++) materialize_block(C, sub[k]);
    if (in->op == OP_WHILE) materialize(C, l->cond);
    for (int k = 0; k < l->nyields; k++) materialize(C, l->yields[k]);
    for (int k = 0; in->op == OP_IF && k < l->nyields; k++) materialize(C, l->else_yields[k]);
}

static void materialize_block(CudaB *C, const Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        if (op_has(in->op, OPF_REGION)) {
            materialize_region(C, in, 1);
            continue;
        }
        materialize_operands(C, in);
    }
}

static void copy_into(CudaB *C, int dst, Operand src, const char *suffix_name) {
    Layout l = cb_layout(C, dst);
    int n = cb_open(C, l);
    const char *name = suffix_name ? suffix_name : arena_printf(C->a, "v%d", dst);
    const char *val = cb_elem(C, src, l, "i", "j");
    cb_line(C, "%s%s = %s;", name, subscript(C, l, "i", "j"), val);
    cb_close(C, n);
}

static int operands_use(const Operand *o, int n, int v) {
    for (int k = 0; k < n; k++)
        if (o[k].kind == OPD_VALUE && o[k].id == v) return 1;
    return 0;
}

/* Whether value v is an operand in block b (or in a loop in it). */
static int block_uses(const Block *b, int v) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        if (operands_use(in->args, in->nargs, v)) return 1;
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        if (!n) continue;
        const Loop *l = in->loop;
        Operand bounds[4] = {l->start, l->stop, l->step, l->cond};
        if (operands_use(bounds, 4, v) || operands_use(l->inits, l->ncarried, v) ||
            operands_use(l->yields, l->nyields, v) ||
            (in->op == OP_IF && operands_use(l->else_yields, l->nyields, v)))
            return 1;
        for (int k = 0; k < n; k++)
            if (block_uses(sub[k], v)) return 1;
    }
    return 0;
}

/* The variables of a region op's lanes, named after its results (a loop's
 * region arguments alias them), initialized from the carried inputs (an
 * if's are assigned by each branch). */
static void declare_lanes(CudaB *C, const Inst *in) {
    const Loop *l = in->loop;
    const Function *f = C->f;
    for (int k = 0; k < l->nresults; k++) {
        int r = l->results[k];
        Type t = f->types[r];
        int carried = k < l->ncarried;
        if (carried) C->alias[l->args[k]] = r;
        if (t.ptr) {
            /* a carried pointer: its element index, from one base parameter
             * (an if's: known once its then branch is emitted) */
            int base = carried ? ptr_base(C, l->inits[k]) : -1;
            C->ptr_param[r] = base;
            C->ptr_var[r] = arena_printf(C->a, "v%d", r);
            if (carried) C->ptr_param[l->args[k]] = base, C->ptr_var[l->args[k]] = C->ptr_var[r];
            Layout lay = cb_layout(C, r);
            cb_line(C, "%s v%d%s;", C->index_type, r, decl_suffix(C, lay));
            if (!carried) continue;
            int n = cb_open(C, lay);
            cb_line(C, "v%d%s = %s;", r, subscript(C, lay, "i", "j"),
                    cb_ptr_index(C, l->inits[k], lay, "i", "j"));
            cb_close(C, n);
        } else {
            declare(C, r, (DType)t.dtype);
            if (carried) copy_into(C, r, l->inits[k], NULL);
        }
    }
}

/* The lanes take the yields (materialized first): a parallel assignment,
 * through temporaries when a yield reads another lane's region argument. */
static void assign_lanes(CudaB *C, const Inst *in, const Operand *yields) {
    const Loop *l = in->loop;
    const Function *f = C->f;
    for (int k = 0; k < l->nyields; k++) materialize(C, yields[k]);
    int hazard = 0;
    for (int k = 0; k < l->nyields; k++)
        for (int j = 0; j < l->ncarried; j++)
            if (j != k && yields[k].kind == OPD_VALUE && yields[k].id == l->args[j]) hazard = 1;
    for (int pass = hazard ? 0 : 1; pass < 2; pass++) {
        for (int k = 0; k < l->nyields; k++) {
            int r = l->results[k];
            Type t = f->types[r];
            Layout lay = cb_layout(C, r);
            Operand y = yields[k];
            if (k < l->ncarried && y.kind == OPD_VALUE && y.id == l->args[k]) continue;
            if (t.ptr && pass == 1) {
                int base = ptr_base(C, y);
                if (C->ptr_param[r] < 0) C->ptr_param[r] = base;
                MT_ASSERT(C->ptr_param[r] == base);
            }
            const char *dst =
                pass == 0 ? arena_printf(C->a, "v%d_next", r) : arena_printf(C->a, "v%d", r);
            if (pass == 0)
                cb_line(C, "%s %s%s;", t.ptr ? C->index_type : c_type((DType)t.dtype), dst,
                        decl_suffix(C, lay));
            int n = cb_open(C, lay);
            const char *val;
            if (hazard && pass == 1)
                val = arena_printf(C->a, "v%d_next%s", r, subscript(C, lay, "i", "j"));
            else if (t.ptr) val = cb_ptr_index(C, y, lay, "i", "j");
            else val = cb_elem(C, y, lay, "i", "j");
            cb_line(C, "%s%s = %s;", dst, subscript(C, lay, "i", "j"), val);
            cb_close(C, n);
        }
    }
}

static void emit_inst(CudaB *C, const Inst *in);

/* The values the body of loop l defines: emitted again in another scope. */
static void forget_body(CudaB *C, const Loop *l) {
    for (int i = 0; i < l->body.items.len; i++) {
        const Inst *in = l->body.items.items[i];
        if (in->result >= 0) C->emitted[in->result] = 0;
    }
}

/* The fast version of a loop cuda_version_plan accepts (DESIGN 13b), under
 * its run-time test: whole groups of V->unroll iterations, each group's
 * loads first (phase 1: the loads and what they need, for every iteration
 * of the group, into vN_g[mt_u]), then its computations, stores and
 * carried values in program order (phase 2). vI_c is left at the first
 * iteration not run, where the loop as written (emit_loop) goes on. */
static void emit_version(CudaB *C, const Inst *in, const CudaVersion *V) {
    const Loop *l = in->loop;
    int x = l->index, U = V->unroll;
    const char *stop = cb_elem(C, l->stop, LAYOUT_UNIFORM, "0", "0");
    const char *step = cb_elem(C, l->step, LAYOUT_UNIFORM, "0", "0");
    const char *last, *adv, *at;
    if (l->step.kind == OPD_CONST) {
        last = arena_printf(C->a, "%lld", (U - 1) * (long long)l->step.c.i);
        adv = arena_printf(C->a, "%lld", U * (long long)l->step.c.i);
        at = arena_printf(C->a, "mt_u * %lld", (long long)l->step.c.i);
    } else {
        last = arena_printf(C->a, "%d * (long long)%s", U - 1, step);
        adv = arena_printf(C->a, "%d * (long long)%s", U, step);
        at = arena_printf(C->a, "mt_u * (long long)%s", step);
    }
    cb_line(C, "// two versions of the loop (DESIGN 13b): groups of %d iterations, %s", U,
            "each group's loads ahead");
    cb_line(C, "// of its stores, where the bytes the loop stores and those it loads are apart");
    cb_line(C, "long long v%d_c = %s;", x, cb_elem(C, l->start, LAYOUT_UNIFORM, "0", "0"));
    if (V->last) cb_line(C, "const long long v%d_last = %s;", x, V->last);
    cb_line(C, "const bool v%d_apart =", x);
    cb_line(C, "    %s;", V->test);
    cb_line(C, "if (v%d_apart) {", x);
    C->indent++;
    cb_line(C, "for (; v%d_c + %s < %s; v%d_c += %s) {", x, last, stop, x, adv);
    C->indent++;
    C->loop_depth++;
    const Block *b = &l->body, *outer = C->cur_block;
    for (int i = 0; i < b->items.len; i++) {
        const Inst *it = b->items.items[i];
        if (it->op == OP_LOAD && V->grouped[it->result])
            cb_line(C, "%s v%d_g[%d]%s;", c_type((DType)it->type.dtype), it->result, U,
                    decl_suffix(C, cb_layout(C, it->result)));
    }
    for (int phase = 0; phase < 2; phase++) {
        cb_line(C, "#pragma unroll");
        cb_line(C, "for (int mt_u = 0; mt_u < %d; mt_u++) {", U);
        C->indent++;
        if (phase ? V->index_rest : V->index_loads)
            cb_line(C, "const int v%d = (int)(v%d_c + %s);", x, x, at);
        C->cur_block = b;
        C->grouped = phase ? NULL : V->grouped;
        for (int i = 0; i < b->items.len; i++) {
            const Inst *it = b->items.items[i];
            int r = it->result;
            if (phase == 0) {
                if (it->op == OP_LOAD || (r >= 0 && V->for_loads[r])) emit_inst(C, it);
            } else if (it->op == OP_LOAD) {
                const char *suffix = decl_suffix(C, cb_layout(C, r));
                const char *T = c_type((DType)it->type.dtype);
                if (!V->grouped[r]) continue;
                if (*suffix) cb_line(C, "const %s (&v%d)%s = v%d_g[mt_u];", T, r, suffix, r);
                else cb_line(C, "const %s v%d = v%d_g[mt_u];", T, r, r);
            } else if (it->op == OP_STORE || (r >= 0 && V->for_rest[r])) {
                emit_inst(C, it);
            }
        }
        C->grouped = NULL;
        if (phase) assign_lanes(C, in, l->yields);
        C->cur_block = outer;
        forget_body(C, l);
        C->indent--;
        cb_line(C, "}");
    }
    C->loop_depth--;
    C->indent--;
    cb_line(C, "}");
    C->indent--;
    cb_line(C, "}");
}

static void emit_loop(CudaB *C, const Inst *in) {
    const Loop *l = in->loop;
    if (in->op == OP_FOR && cuda_outer_emit(C, in)) return;
    declare_lanes(C, in);
    if (in->op == OP_IF) {
        /* a uniform condition: every thread takes the same branch */
        cb_line(C, "if (%s) {", cb_elem(C, l->cond, LAYOUT_UNIFORM, "0", "0"));
        C->indent++;
        cb_emit_block(C, &l->body);
        assign_lanes(C, in, l->yields);
        C->indent--;
        cb_line(C, "} else {");
        C->indent++;
        cb_emit_block(C, &l->orelse);
        assign_lanes(C, in, l->else_yields);
        C->indent--;
        cb_line(C, "}");
        return;
    }
    if (in->op == OP_WHILE) {
        cb_line(C, "for (;;) {");
        C->indent++;
        C->loop_depth++;
        cb_emit_block(C, &l->before);
        materialize(C, l->cond);
        cb_line(C, "if (!%s) break;", cb_elem(C, l->cond, LAYOUT_UNIFORM, "0", "0"));
    } else {
        /* a loop that loads and stores: first its fast version, under a
         * test, then (for what that leaves) the loop as written */
        CudaVersion V;
        int versioned = cuda_version_plan(C, in, &V);
        if (versioned) emit_version(C, in, &V);
        /* a 64-bit counter: bounds near INT32_MAX must not wrap */
        if (l->unroll > 0) cb_line(C, "#pragma unroll %d", l->unroll);
        /* loads of 8 iterations in flight (Triton pipelines such loops):
         * their accesses are predicated, not branched around */
        else if (layout_streaming_body(&l->body) == 1) cb_line(C, "#pragma unroll 8");
        if (versioned)
            cb_line(C, "for (; v%d_c < %s; v%d_c += %s) {", l->index,
                    cb_elem(C, l->stop, LAYOUT_UNIFORM, "0", "0"), l->index,
                    cb_elem(C, l->step, LAYOUT_UNIFORM, "0", "0"));
        else
            cb_line(C, "for (long long v%d_c = %s; v%d_c < %s; v%d_c += %s) {", l->index,
                    cb_elem(C, l->start, LAYOUT_UNIFORM, "0", "0"), l->index,
                    cb_elem(C, l->stop, LAYOUT_UNIFORM, "0", "0"), l->index,
                    cb_elem(C, l->step, LAYOUT_UNIFORM, "0", "0"));
        C->indent++;
        if (block_uses(&l->body, l->index) || operands_use(l->yields, l->nyields, l->index))
            cb_line(C, "const int v%d = (int)v%d_c;", l->index, l->index);
        C->loop_depth++;
    }
    cb_emit_block(C, &l->body);
    assign_lanes(C, in, l->yields);
    C->loop_depth--;
    C->indent--;
    cb_line(C, "}");
}

static void emit_inst(CudaB *C, const Inst *in) {
    if (deferrable(C, in)) {
        C->deferred[in->result] = 1;
        return;
    }
    if (op_has(in->op, OPF_REGION)) {
        materialize_region(C, in, in->op != OP_FOR || !layout_outer_loop(C->f, C->tile, in));
    } else if (in->op == OP_STORE && store_by_rows(C, in, 1)) {
        materialize(C, stored_operand(C, in, NULL)); /* the address and the mask are recomputed */
    } else if (in->op != OP_ADDPTR && in->op != OP_EXPAND_DIMS) {
        /* (pointers and aliases produce no code: their operands are
         * materialized where they are used) */
        materialize_operands(C, in);
    }
    emit_now(C, in);
}

/* ---- The hooks of the walker (cgen/walk.h), one per op class ---------- */

static void on_index(void *be, const Inst *in) {
    CudaB *C = be;
    int id = in->result;
    if (in->op == OP_PROGRAM_ID)
        cb_line(C, "int v%d = %s;", id, cb_program_id(C, in->attrs.axis, 0));
    else if (in->op == OP_NUM_PROGRAMS)
        cb_line(C, "int v%d = %s;", id, cb_num_programs(C, in->attrs.axis, 0));
    /* an arange: an index, rendered at each use */
}

static void on_create(void *be, const Inst *in) {
    CudaB *C = be;
    const Operand *x = in->args;
    DType dt = (DType)in->type.dtype;
    if (in->op != OP_FULL) {
        C->splat[in->result] = c_zero(dt);
        return;
    }
    const char *v = as_dtype(C, x[0], cb_elem(C, x[0], LAYOUT_UNIFORM, "0", "0"), dt);
    if (x[0].kind != OPD_CONST && operand_type(C->f, x[0]).dtype != dt)
        v = arena_printf(C->a, "(%s)", v);
    C->splat[in->result] = v;
}

static void on_shape(void *be, const Inst *in) {
    CudaB *C = be;
    const Operand *x = in->args;
    if (in->op == OP_EXPAND_DIMS) {
        if (x[0].kind == OPD_VALUE) C->alias[in->result] = x[0].id;
        else C->splat[in->result] = cb_elem(C, x[0], LAYOUT_UNIFORM, "0", "0");
    } else if (in->op == OP_BROADCAST) {
        elementwise(C, in, binary_expr);
    } else {
        emit_exchange(C, in);
    }
}

static void on_compute(void *be, const Inst *in) { elementwise(be, in, binary_expr); }

static void on_pointer(void *be, const Inst *in) {
    CudaB *C = be;
    int id = in->result;
    const Operand *x = in->args;
    if (in->op == OP_ADDPTR) {
        C->ptr_param[id] = ptr_base(C, x[0]);
    } else if (in->op == OP_INT_TO_PTR) {
        /* a scalar (compile.c rejects blocks on this path): the base of
         * the pointers computed from it */
        const char *P = c_mem_type((DType)in->attrs.dtype, C_CUDA);
        cb_line(C, "%s *v%d = (%s *)(uintptr_t)%s;", P, id, P,
                cb_elem(C, x[0], LAYOUT_UNIFORM, "0", "0"));
        C->ptr_param[id] = C->f->nparams + id;
    } else {
        cb_line(C, "long long v%d = (long long)(uintptr_t)(%s + %s);", id,
                param_name(C, ptr_base(C, x[0])), cb_ptr_index(C, x[0], LAYOUT_UNIFORM, "0", "0"));
    }
}

static void on_load(void *be, const Inst *in) { emit_load(be, in); }
static void on_store(void *be, const Inst *in) { emit_store(be, in); }
static void on_atomic(void *be, const Inst *in) { emit_atomic(be, in); }
static void on_region(void *be, const Inst *in) { emit_loop(be, in); }
static void on_dot(void *be, const Inst *in) { emit_dot(be, in); }

static void on_debug(void *be, const Inst *in) {
    if (in->op == OP_DEBUG_BARRIER) cb_line(be, "__syncthreads();");
    else emit_debug(be, in);
}

static void on_reduce(void *be, const Inst *in) {
    CudaB *C = be;
    int flat_op = in->op == OP_SUM || in->op == OP_MAX || in->op == OP_MIN;
    if (layout_reduce_one(C->f, in) && cb_count(C, cb_layout(C, in->result)) == 1) {
        /* of one element: the element (its index: 0) */
        int argx = in->op == OP_ARGMAX || in->op == OP_ARGMIN;
        cb_line(C, "%s v%d = %s;", c_type((DType)in->type.dtype), in->result,
                argx ? "0" : cb_elem(C, in->args[0], LAYOUT_UNIFORM, "0", "0"));
    } else if (flat_op && shape_reduce_flat(C->tile, C->f, in)) emit_reduce(C, in);
    else if (C->progs == 1 && layout_reduce_shuffles(C->f, C->tile, in)) emit_axis_shuffle(C, in);
    else emit_axis_reduce(C, in);
}

static void on_item(void *be, const Inst *in) { emit_inst(be, in); }

/* The walker over this emitter's hooks; its items through emit_inst
 * (deferral to first use). */
static CWalk walker(CudaB *C) {
    CWalk w = {.be = C,
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
               .dot = on_dot,
               .item = on_item};
    return w;
}

static void emit_now(CudaB *C, const Inst *in) {
    CWalk w = walker(C);
    cwalk_inst(&w, in);
}

void cb_emit_block(CudaB *C, const Block *b) {
    const Block *outer = C->cur_block;
    C->cur_block = b;
    CWalk w = walker(C);
    cwalk_block(&w, b);
    C->cur_block = outer;
}

/* The parameter pointer operand o is based on (before emission), or -1. */
static int ptr_root(const CudaB *C, Operand o) {
    if (o.kind == OPD_PARAM) return o.id;
    if (o.kind != OPD_VALUE || !C->f->defs[o.id] || C->f->defs[o.id]->op != OP_ADDPTR) return -1;
    return ptr_root(C, C->f->defs[o.id]->args[0]);
}

/* Counts the loads and stores of block b (and of its regions) along the
 * vector axis whose 16-byte accesses the axis analysis proves (*proven),
 * and those whose base the signature aligns but whose index it leaves to
 * a check at run time (*dynamic). */
static void count_vector_accesses(CudaB *C, const Block *b, int *proven, int *dynamic) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++) count_vector_accesses(C, sub[k], proven, dynamic);
        if (in->op != OP_LOAD && in->op != OP_STORE) continue;
        Layout l = in->op == OP_LOAD ? cb_layout(C, in->result) : iter_layout(C, in);
        DType dt =
            (DType)(in->op == OP_LOAD ? in->type.dtype : operand_type(C->f, in->args[0]).dtype);
        int base = ptr_root(C, in->args[0]),
            vec = vectorizable(C, l, in->args[0], dt, access_shape(C, in));
        if (vec == 1) ++*proven;
        if (vec == 2 && base >= 0 && base < C->f->nparams && C->param_div &&
            C->param_div[base] >= 16)
            ++*dynamic;
    }
}

/* mt_ld16, mt_ld8, mt_ld4 where the kernel calls them: a 16-, 8- or 4-byte
 * load predicated on `p` (zeros when false), as Triton's @p ld.global.v4:
 * no branch around it. */
static const char *load_helpers(Arena *a, const char *code) {
    static const struct {
        int bytes;
        const char *type, *zero, *regs, *outs, *ptx;
    } H[] = {
        {16, "uint4", "{0u, 0u, 0u, 0u}", "{%0, %1, %2, %3}",
         "\"+r\"(r.x), \"+r\"(r.y), \"+r\"(r.z), \"+r\"(r.w)", "ld.global.v4.b32"},
        {8, "uint2", "{0u, 0u}", "{%0, %1}", "\"+r\"(r.x), \"+r\"(r.y)", "ld.global.v2.b32"},
        {4, "unsigned int", "0u", "%0", "\"+r\"(r)", "ld.global.b32"},
    };
    StrBuf sb;
    sb_init(&sb, a);
    for (int h = 0; h < 3; h++) {
        if (!strstr(code, arena_printf(a, "mt_ld%d(", H[h].bytes))) continue;
        int n = H[h].bytes / 4;
        sb_printf(&sb, "#ifndef MYTRITON_HELPER_ld%d\n#define MYTRITON_HELPER_ld%d\n", H[h].bytes,
                  H[h].bytes);
        sb_printf(&sb,
                  "// a %d-byte load predicated on p (zeros when false): no branch around it\n",
                  H[h].bytes);
        sb_printf(&sb, "static __device__ __forceinline__ %s mt_ld%d(const void *a, bool p) {\n",
                  H[h].type, H[h].bytes);
        sb_printf(&sb, "    %s r = %s;\n#ifdef __CUDA_ARCH__\n", H[h].type, H[h].zero);
        sb_printf(&sb,
                  "    asm(\"{\\n\\t.reg .pred p;\\n\\tsetp.ne.b32 p, %%%d, 0;\\n\\t\"\n"
                  "        \"@p %s %s, [%%%d];\\n\\t}\"\n"
                  "        : %s\n        : \"l\"(a), \"r\"((int)p) : \"memory\");\n",
                  n + 1, H[h].ptx, H[h].regs, n, H[h].outs);
        sb_printf(&sb,
                  "#else\n    if (p) r = *(const %s *)a;\n#endif\n    return r;\n}\n#endif\n\n",
                  H[h].type);
    }
    return sb_str(&sb);
}

/* Whether an addptr of the block (or of a loop in it) has a 64-bit offset:
 * then carried pointer indices are 64-bit too. */
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

static void cb_init(CudaB *C, Arena *a, const Function *f, const TileInfo *tile,
                    const int *param_div) {
    C->a = a;
    C->f = f;
    C->tile = tile;
    C->pnames = c_param_names(a, f);
    C->param_div = param_div;
    C->alias = ARENA_ARRAY(a, int, f->nvalues + 1);
    for (int i = 0; i <= f->nvalues; i++) C->alias[i] = -1;
    C->splat = ARENA_ARRAY(a, const char *, f->nvalues + 1);
    C->ptr_param = ARENA_ARRAY(a, int, f->nvalues + 1);
    C->ptr_var = ARENA_ARRAY(a, const char *, f->nvalues + 1);
    C->align_needed = ARENA_ARRAY(a, char, f->nparams + 1);
    C->deferred = ARENA_ARRAY(a, char, f->nvalues + 1);
    C->emitted = ARENA_ARRAY(a, char, f->nvalues + 1);
    C->group = layout_access_group(f);
    C->red_buf = ARENA_ARRAY(a, const char *, f->nvalues + 1);
    C->red_blk = ARENA_ARRAY(a, const Block *, f->nvalues + 1);
    C->red_gen = ARENA_ARRAY(a, int, f->nvalues + 1);
    C->index_type = wide_offsets(f, &f->body) ? "long long" : "int";
    C->tid = "threadIdx.x";
    C->progs = 1;
}

int cuda_blocked_group(Arena *a, const Function *f, const TileInfo *tile, const int *param_div) {
    CudaB C = {0};
    cb_init(&C, a, f, tile, param_div);
    LayoutAxis axis[3]; /* (the coordinates with the 16-byte group) */
    layout_axes(tile, C.group, axis);
    C.axis = axis;
    int proven = 0, dynamic = 0;
    count_vector_accesses(&C, &f->body, &proven, &dynamic);
    /* Triton's specialization (pointers :16, integers divisible by 16
     * hinted) that proves no 16-byte access but leaves some to an index
     * checked at run time: the index is most likely not aligned (a row
     * stride such as 781), so, as Triton's coalescing, elements are spread
     * one by one over the threads (coalesced per-element accesses) rather
     * than in groups that would fall back to per-element accesses strided
     * by the group. */
    return !proven && dynamic ? 1 : C.group;
}

static const char *emit_kernel(Arena *a, const Function *f, const LayoutPlan *plan,
                               const char *symbol, const int *param_div, int grouped,
                               StrBuf *notes) {
    const TileInfo *tile = plan->tile;
    CudaB C = {0};
    cb_init(&C, a, f, tile, param_div);
    C.notes = notes;
    int progs = grouped ? tile->group_m * tile->group_n : 1;
    if (progs > 1) C.tid = "mt_lane", C.progs = progs;
    C.plan = plan;
    C.axis = plan->axis;
    C.group = plan->group;
    sb_init(&C.smem, a);
    sb_init(&C.prologue, a);
    StrBuf body, out;
    sb_init(&body, a);
    sb_init(&out, a);
    C.out = &body;
    C.indent = 1;
    cb_emit_block(&C, &f->body);
    sb_puts(&out, c_triton_helpers(a, sb_str(&body)));
    sb_puts(&out, asm_cuda_helpers(a, f, sb_str(&body)));
    sb_puts(&out, load_helpers(a, sb_str(&body)));
    sb_puts(&out, cuda_version_helpers(a, sb_str(&body)));
    if (strstr(sb_str(&body), "mt_tf32_")) sb_puts(&out, cuda_tf32_helpers()); /* (emit_dot) */
    sb_puts(&out, cuda_dot_tc_helpers(a, sb_str(&body)));
    sb_puts(&out, cuda_atomic_helpers(a, sb_str(&body)));
    sb_printf(&out, "extern \"C\" __global__ __launch_bounds__(%d)\nvoid %s(",
              tile->block_threads * progs, symbol);
    for (int i = 0; i < f->nparams; i++)
        sb_printf(&out, "%s%s%s %s", i ? ", " : "", c_param_type(a, f->params[i].type), "",
                  C.pnames[i]);
    sb_puts(&out, ") {\n");
    if (tile->smem_pool && tile->dyn_smem) /* (test/emu's CPU emulation: a static pool) */
        sb_printf(&out,
                  "#if defined(__NVCC__) || defined(__CUDA_ARCH__)\n"
                  "    extern __shared__ __align__(16) unsigned char mt_smem[];\n#else\n"
                  "    static __align__(16) unsigned char mt_smem[%d];\n#endif\n",
                  tile->dyn_smem);
    if (C.smem.len) {
        sb_puts(&out, sb_str(&C.smem));
        sb_putc(&out, '\n');
    }
    if (progs > 1) {
        /* warp-sized programs: program mt_pm + group_m * mt_pn, thread mt_lane of it */
        sb_printf(&out,
                  "    // %d programs per block (%d x %d along the grid's x and y), one per %d "
                  "threads,\n"
                  "    // sharing the staged chunks of their loop\n",
                  progs, tile->group_m, tile->group_n, tile->block_threads);
        sb_printf(&out, "    const int mt_lane = threadIdx.x %% %d;\n", tile->block_threads);
        sb_printf(&out, "    const int mt_pm = threadIdx.x / %d %% %d, mt_pn = threadIdx.x / %d;\n",
                  tile->block_threads, tile->group_m, tile->block_threads * tile->group_m);
    }
    if (tile->rank == 2) {
        int tcols = plan->axis[AXIS_COLS].threads;
        if (C.uses_ty) sb_printf(&out, "    const int ty = %s / %d;\n", C.tid, tcols);
        if (C.uses_tx) sb_printf(&out, "    const int tx = %s %% %d;\n", C.tid, tcols);
    }
    sb_puts(&out, sb_str(&C.prologue));
    sb_puts(&out, sb_str(&body));
    sb_puts(&out, "}\n");
    return sb_str(&out);
}

const char *emit_cuda_blocked(Arena *a, const Function *f, const LayoutPlan *plan,
                              const char *symbol, const int *param_div) {
    return emit_kernel(a, f, plan, symbol, param_div, 0, NULL);
}

const char *emit_cuda_blocked_explain(Arena *a, const Function *f, const LayoutPlan *plan,
                                      const int *param_div) {
    StrBuf notes;
    sb_init(&notes, a);
    emit_kernel(a, f, plan, "mt_explain", param_div, 0, &notes);
    return sb_str(&notes);
}

const char *emit_cuda_blocked_grouped(Arena *a, const Function *f, const LayoutPlan *plan,
                                      const char *symbol, const int *param_div) {
    return emit_kernel(a, f, plan, tile_group_symbol(a, symbol, plan->tile), param_div, 1, NULL);
}
