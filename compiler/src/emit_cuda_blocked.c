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
 * cuda_matmul.c to a shared-memory staged, register-blocked loop. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cgen.h"
#include "cuda_blocked.h"

/* ---- Layout choice ----------------------------------------------------- */

static int divides(int a, int b) { return a > 0 && b % a == 0; }

static int has_reduction(const Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        if (op_has(in->op, OPF_REDUCE)) return 1;
        if (in->op == OP_FOR && has_reduction(&in->loop->body)) return 1;
    }
    return 0;
}

/* Spreads the tile over exactly `threads` threads: elements per thread
 * along columns first (up to 8, for 128-bit groups), then rows. */
static const char *layout_for_threads(Arena *a, TileInfo *t, int threads) {
    int elems = t->threads;
    if (threads <= 0 || elems % threads != 0)
        return arena_printf(a, "the tile %s of %d elements cannot be spread evenly over %d threads", tile_str(a, t), elems,
                            threads);
    int ept = elems / threads;
    if (t->rank <= 1) {
        t->tm = 1;
        t->tn = ept;
        return NULL;
    }
    int tn = 1;
    while (tn * 2 <= 8 && divides(tn * 2, t->cols) && ept % (tn * 2) == 0) tn *= 2;
    int tm = ept / tn;
    if (!divides(tm, t->rows) || !divides(tn, t->cols))
        return arena_printf(a, "the tile %s cannot be spread evenly over %d threads", tile_str(a, t), threads);
    t->tm = tm;
    t->tn = tn;
    return NULL;
}

const char *cuda_blocked_layout(Arena *a, const Function *f, TileInfo *t, int num_warps) {
    t->tm = t->tn = 1;
    if (num_warps > 0) {
        if (num_warps > 32 || (num_warps & (num_warps - 1)) != 0)
            return arena_printf(a, "num_warps must be a power of two from 1 to 32 (got %d)", num_warps);
        int threads = 32 * num_warps;
        if (threads > t->threads) threads = t->threads; /* a small tile: one thread per element */
        const char *err = layout_for_threads(a, t, threads);
        if (err) return err;
        t->block_threads = t->threads / (t->tm * t->tn);
        return NULL;
    }
    if (t->rank == 1) {
        int w = t->cols;
        /* 4 elements (one 16-byte group) per thread; with a block-wide
         * reduction, 8 from 1024 on, which halves the warps it goes
         * through (measured: streaming kernels prefer more threads) */
        int tn = 1;
        if (w >= 256 && w % 4 == 0) tn = 4;
        if (w >= 1024 && w % 8 == 0 && has_reduction(&f->body)) tn = 8;
        while (w / tn > 1024 && divides(tn * 2, w)) tn *= 2;
        t->tn = tn;
    } else if (t->rank == 2) {
        int R = t->rows, C = t->cols, tm = 1, tn = 1;
        if (cuda_matmul_find(f, t) != NULL) {
            /* register micro-tiles of up to 8 x 8, and at least 128
             * threads where the tile allows */
            tm = tn = 8;
            while (tm > 1 && !divides(tm, R)) tm /= 2;
            while (tn > 1 && !divides(tn, C)) tn /= 2;
            while ((R / tm) * (C / tn) < 128 && (tm > 1 || tn > 1)) {
                if (tn >= tm && tn > 1) tn /= 2;
                else tm /= 2;
            }
        } else {
            if (C >= 16 && C % 4 == 0) tn = 4;
        }
        while ((R / tm) * (C / tn) > 1024) {
            if (divides(tm * 2, R)) tm *= 2;
            else if (divides(tn * 2, C)) tn *= 2;
            else break;
        }
        t->tm = tm;
        t->tn = tn;
    }
    t->block_threads = t->threads / (t->tm * t->tn);
    if (t->block_threads > 1024)
        return arena_printf(a, "the tile %s cannot be spread over at most 1024 threads", tile_str(a, t));
    return NULL;
}

/* ---- Emission context ------------------------------------------------- */

void cb_line(CudaB *C, const char *fmt, ...) {
    sb_printf(C->out, "%*s", C->indent * 4, "");
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(C->out, fmt, ap);
    va_end(ap);
    sb_putc(C->out, '\n');
}

static int is_arange(const CudaB *C, int v) { return C->f->defs[v] && C->f->defs[v]->op == OP_ARANGE; }

/* The element count and array suffix of a layout. */
int cb_count(const CudaB *C, Layout l) {
    const TileInfo *t = C->tile;
    switch (l) {
    case LAYOUT_ROWS: return t->tm;
    case LAYOUT_COLS: return t->tn;
    case LAYOUT_TILE:
    case LAYOUT_FLAT: return t->tm * t->tn;
    default: return 1;
    }
}

static const char *decl_suffix(CudaB *C, Layout l) {
    const TileInfo *t = C->tile;
    switch (l) {
    case LAYOUT_ROWS: return t->tm > 1 ? arena_printf(C->a, "[%d]", t->tm) : "";
    case LAYOUT_COLS: return t->tn > 1 ? arena_printf(C->a, "[%d]", t->tn) : "";
    case LAYOUT_TILE: return arena_printf(C->a, "%s%s", t->tm > 1 ? arena_printf(C->a, "[%d]", t->tm) : "",
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

/* The coordinate expressions of element (i, j) of the thread. With 8 or
 * more elements along an axis, the thread's elements come in groups of 4
 * consecutive ones, the groups a stride apart, so that neighbouring threads
 * hold neighbouring 16-byte groups (coalesced, and conflict-free in shared
 * memory); with fewer, they are consecutive. */
static const char *coord(CudaB *C, int per, int extent, const char *t, const char *k) {
    if (per == 1) return t;
    if (per >= 8 && per % 4 == 0)
        return arena_printf(C->a, "((%s / 4) * %d + %s * 4 + (%s %% 4))", k, extent * 4 / per, t, k);
    return arena_printf(C->a, "(%s * %d + %s)", t, per, k);
}
const char *cb_row(CudaB *C, const char *i) {
    C->uses_ty = 1;
    return coord(C, C->tile->tm, C->tile->rows, "ty", i);
}
const char *cb_col(CudaB *C, const char *j) {
    C->uses_tx = 1;
    return coord(C, C->tile->tn, C->tile->cols, "tx", j);
}
static const char *flat_index(CudaB *C, const char *e) {
    int ept = C->tile->tm * C->tile->tn;
    if (ept == 1) return "threadIdx.x";
    return arena_printf(C->a, "(threadIdx.x * %d + %s)", ept, e);
}

static const char *arange_at(CudaB *C, const Inst *def, Layout use, const char *i, const char *j) {
    const char *idx;
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
        if (hop && hop->op == OP_EXPAND_DIMS && hop->type.rank == 2) use = hop->attrs.axis == 1 ? LAYOUT_ROWS : LAYOUT_COLS;
        v = C->alias[v];
    }
    const Inst *def = C->f->defs[v];
    if (def && def->op == OP_ARANGE) return arange_at(C, def, use, i, j);
    if (C->splat[v]) return C->splat[v];
    Layout l = cb_layout(C, v);
    return arena_printf(C->a, "v%d%s", v, subscript(C, l, i, j));
}

/* ---- Contiguity and divisibility along the vector axis ------------------ */

/* For an i32 (or pointer index) value: its step between consecutive
 * elements of the vector axis (0 constant, 1 contiguous, -1 unknown) and a
 * power of two dividing its value at every 4-aligned position of that
 * axis (capped at 16). */
typedef struct AxisInfo {
    int stride;
    int div;
} AxisInfo;

static int pow2_of(long long c) {
    if (c == 0) return 16;
    int d = 1;
    while (d < 16 && c % (d * 2) == 0) d *= 2;
    return d;
}

static int min_int(int a, int b) { return a < b ? a : b; }

static AxisInfo axis_of(CudaB *C, Operand o, Layout use);

static AxisInfo axis_value(CudaB *C, int v, Layout use) {
    while (C->alias[v] >= 0) {
        const Inst *hop = C->f->defs[v];
        if (hop && hop->op == OP_EXPAND_DIMS && hop->type.rank == 2) use = hop->attrs.axis == 1 ? LAYOUT_ROWS : LAYOUT_COLS;
        v = C->alias[v];
    }
    const Inst *def = C->f->defs[v];
    AxisInfo r = {-1, 1};
    Layout l = cb_layout(C, v);
    /* only columns/tile/flat layouts vary along the vector axis */
    int varies = l == LAYOUT_COLS || l == LAYOUT_TILE || l == LAYOUT_FLAT;
    if (def && def->op == OP_ARANGE) {
        Layout ul = use;
        if (ul == LAYOUT_COLS || ul == LAYOUT_FLAT) {
            int per = ul == LAYOUT_COLS ? C->tile->tn : C->tile->tm * C->tile->tn;
            r.stride = 1;
            r.div = min_int(pow2_of(per), pow2_of(def->attrs.start));
            if (r.div > 4) r.div = 4;
        } else {
            r.stride = 0;
            r.div = 1;
        }
        return r;
    }
    if (!varies) r.stride = 0;
    if (!def) return r;
    if (def->op == OP_FOR) {
        const Loop *lp = def->loop;
        if (v == lp->index) {
            r.stride = 0;
            int d = 16;
            if (lp->start.kind == OPD_CONST) d = min_int(d, pow2_of(lp->start.c.i));
            else d = 1;
            if (lp->step.kind == OPD_CONST) d = min_int(d, pow2_of(lp->step.c.i));
            r.div = d;
        }
        return r;
    }
    if (def->nargs >= 2 && (def->op == OP_ADD || def->op == OP_SUB || def->op == OP_MUL || def->op == OP_ADDPTR)) {
        AxisInfo a = axis_of(C, def->args[0], l), b = axis_of(C, def->args[1], l);
        if (def->op == OP_MUL) {
            const Operand *k = def->args[1].kind == OPD_CONST ? &def->args[1] : def->args[0].kind == OPD_CONST ? &def->args[0] : NULL;
            AxisInfo x = def->args[1].kind == OPD_CONST ? a : b;
            if (k) {
                long long c = k->c.i;
                r.stride = x.stride == 0 ? 0 : (x.stride == 1 && c == 1) ? 1 : -1;
                long long d = (long long)x.div * pow2_of(c);
                r.div = d > 16 ? 16 : (int)d;
                if (c == 0) r.stride = 0, r.div = 16;
                return r;
            }
            if (a.stride == 0 && b.stride == 0) {
                long long d = (long long)a.div * b.div;
                r.stride = 0;
                r.div = d > 16 ? 16 : (int)d;
                return r;
            }
            r.stride = -1;
            r.div = 1;
            return r;
        }
        int s = (a.stride < 0 || b.stride < 0) ? -1 : def->op == OP_SUB ? a.stride - b.stride : a.stride + b.stride;
        r.stride = (s == 0 || s == 1) ? s : -1;
        r.div = min_int(a.div, b.div);
        return r;
    }
    if (def->op == OP_EXPAND_DIMS) return axis_of(C, def->args[0], use);
    return r;
}

static AxisInfo axis_of(CudaB *C, Operand o, Layout use) {
    AxisInfo r = {0, 1};
    switch (o.kind) {
    case OPD_CONST: r.div = o.c.dt == DT_I32 ? pow2_of(o.c.i) : 1; return r;
    case OPD_PARAM: {
        Type t = C->f->params[o.id].type;
        r.div = t.ptr ? 16 : (C->param_div && C->param_div[o.id] ? min_int(16, C->param_div[o.id]) : 1);
        return r;
    }
    case OPD_NONE: return r;
    case OPD_VALUE: return axis_value(C, o.id, use);
    }
    return r;
}

/* ---- Pointers ------------------------------------------------------------ */

/* The base parameter of a pointer operand, or -1. */
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

static const char *param_name(CudaB *C, int p) { return C->pnames[p]; }

/* Whether pointer parameter p is 16-byte aligned: a constant when the
 * signature says so, else a flag computed once at kernel entry. */
static const char *aligned_flag(CudaB *C, int p) {
    if (C->param_div && C->param_div[p] >= 16) return NULL; /* known */
    if (!C->align_needed[p]) {
        C->align_needed[p] = 1;
        sb_printf(&C->prologue, "    const bool %s_al16 = (((uintptr_t)%s) & 15) == 0;\n", param_name(C, p), param_name(C, p));
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

static const char *E(CudaB *C, const Inst *in, int k, Layout ctx) {
    return cb_elem(C, in->args[k], use_of(C, in, k, ctx), "i", "j");
}

/* ---- Ops ------------------------------------------------------------------ */

static void declare(CudaB *C, int v, DType dt) {
    cb_line(C, "%s v%d%s;", c_type(dt), v, decl_suffix(C, cb_layout(C, v)));
}

static void elementwise(CudaB *C, const Inst *in, const char *(*expr)(CudaB *, const Inst *, Layout)) {
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

const char *cb_op_expr(CudaB *C, const Inst *in, const char *a, const char *b, const char *c) {
    const char *x[3] = {a, b, c};
    const char *e = c_op_expr(C->a, C_CUDA, C->f, in, x);
    MT_ASSERT(e);
    return e;
}

static const char *binary_expr(CudaB *C, const Inst *in, Layout l) {
    return cb_op_expr(C, in, E(C, in, 0, l), E(C, in, 1, l), in->nargs > 2 ? E(C, in, 2, l) : NULL);
}

static const char *group_mask(CudaB *C, const Inst *in, int k, Layout ctx, const char *j0) {
    if (in->args[k].kind == OPD_NONE) return "true";
    StrBuf sb;
    sb_init(&sb, C->a);
    Layout use = use_of(C, in, k, ctx);
    const char *prev = NULL;
    for (int q = 0; q < 4; q++) {
        const char *jq = q ? arena_printf(C->a, "%s + %d", j0, q) : j0;
        const char *m = cb_elem(C, in->args[k], use, "i", jq);
        if (prev && strcmp(prev, m) == 0) continue; /* constant along the group */
        sb_printf(&sb, "%s%s", sb.len ? " && " : "", m);
        prev = m;
    }
    return sb_str(&sb);
}

/* Whether a load/store iterating over `ctx` through pointer `p` can use
 * 128-bit accesses: 0 no, 1 yes (the index is contiguous and 4-aligned),
 * 2 yes when the group's first index is a multiple of 4 at run time. */
static int vectorizable(CudaB *C, const Inst *in, Layout ctx, Operand p, DType dt) {
    if (dt != DT_F32 && dt != DT_I32) return 0;
    int n = ctx == LAYOUT_COLS || ctx == LAYOUT_TILE ? C->tile->tn : ctx == LAYOUT_FLAT ? C->tile->tm * C->tile->tn : 1;
    if (n < 4 || n % 4 != 0) return 0;
    if (ptr_base(C, p) < 0) return 0;
    if (p.kind == OPD_VALUE && C->ptr_var[p.id]) return 0;
    AxisInfo ax = axis_of(C, p, ctx);
    (void)in;
    if (ax.stride != 1) return 0;
    return ax.div >= 4 ? 1 : 2;
}

static const char *vec_type(DType dt) { return dt == DT_F32 ? "float4" : "int4"; }

/* The condition of a 128-bit access: base aligned, index aligned (when
 * only known at run time), the whole group's mask; NULL when always. */
static const char *vec_condition(CudaB *C, const char *al, int dynamic, const char *idx, const char *mask) {
    StrBuf sb;
    sb_init(&sb, C->a);
    if (al) sb_puts(&sb, al);
    if (dynamic) sb_printf(&sb, "%s((%s) & 3) == 0", sb.len ? " && " : "", idx);
    if (strcmp(mask, "true") != 0) sb_printf(&sb, "%s%s", sb.len ? " && " : "", mask);
    return sb.len ? sb_str(&sb) : NULL;
}

/* A load's `other` as the pointee type (an f32 `other` would make the
 * conditional f32 and round an i32 load). */
static const char *other_as(CudaB *C, const Inst *in, const char *o) {
    DType dt = (DType)in->type.dtype;
    if (operand_type(C->f, in->args[2]).dtype == dt) return o;
    return arena_printf(C->a, "(%s)%s", c_type(dt), o);
}

/* Opens the loops over the thread's groups of 4 elements along the vector
 * axis of layout l (rows, then groups at j = 0, 4, ...); returns how many
 * loops the caller closes after the group's body (the j loop's brace is
 * closed by the caller first). */
static int open_groups(CudaB *C, Layout l) {
    int nj = l == LAYOUT_FLAT ? C->tile->tm * C->tile->tn : C->tile->tn;
    int n = 0;
    if (l == LAYOUT_TILE && C->tile->tm > 1) {
        cb_line(C, "#pragma unroll");
        cb_line(C, "for (int i = 0; i < %d; i++) {", C->tile->tm);
        C->indent++;
        n++;
    }
    cb_line(C, "#pragma unroll");
    cb_line(C, "for (int j = 0; j < %d; j += 4) {", nj);
    C->indent++;
    return n;
}

/* One element of a load / a store at element (i, j) (the per-element path
 * of both the plain and the 128-bit forms). */
static void load_element(CudaB *C, const Inst *in, Layout l, const char *j, const char *other) {
    const char *m = in->args[1].kind == OPD_NONE ? "true" : cb_elem(C, in->args[1], use_of(C, in, 1, l), "i", j);
    const char *o = other ? other : other_as(C, in, cb_elem(C, in->args[2], use_of(C, in, 2, l), "i", j));
    cb_line(C, "v%d%s = (%s ? %s[%s] : %s);", in->result, subscript(C, l, "i", j), m, param_name(C, ptr_base(C, in->args[0])),
            cb_ptr_index(C, in->args[0], l, "i", j), o);
}

static void store_element(CudaB *C, const Inst *in, Layout l, const char *j, int masked) {
    const char *dst = arena_printf(C->a, "%s[%s]", param_name(C, ptr_base(C, in->args[0])), cb_ptr_index(C, in->args[0], l, "i", j));
    const char *val = cb_elem(C, in->args[1], use_of(C, in, 1, l), "i", j);
    if (masked) cb_line(C, "if (%s) %s = %s;", cb_elem(C, in->args[2], use_of(C, in, 2, l), "i", j), dst, val);
    else cb_line(C, "%s = %s;", dst, val);
}

static void emit_load(CudaB *C, const Inst *in) {
    Layout l = cb_layout(C, in->result);
    DType dt = (DType)in->type.dtype;
    int id = in->result;
    declare(C, id, dt);
    const char *other = in->args[2].kind == OPD_NONE ? c_zero(dt) : NULL;
    int base = ptr_base(C, in->args[0]);
    const char *bname = param_name(C, base);
    int vec = vectorizable(C, in, l, in->args[0], dt);
    if (vec) {
        const char *al = aligned_flag(C, base);
        int n = open_groups(C, l);
        const char *mask = group_mask(C, in, 1, l, "j");
        const char *idx = cb_ptr_index(C, in->args[0], l, "i", "j");
        const char *cond = vec_condition(C, al, vec == 2, idx, mask);
        const char *dst = arena_printf(C->a, "v%d%s", id, subscript(C, l, "i", "j + %d"));
        if (cond) {
            cb_line(C, "if (%s) {", cond);
            C->indent++;
        }
        cb_line(C, "%s t = *(const %s *)&%s[%s];", vec_type(dt), vec_type(dt), bname, idx);
        for (int q = 0; q < 4; q++) {
            char sub[16];
            snprintf(sub, sizeof sub, "j + %d", q);
            cb_line(C, "v%d%s = t.%c;", id, subscript(C, l, "i", q ? sub : "j"), "xyzw"[q]);
        }
        (void)dst;
        if (cond) {
            C->indent--;
            cb_line(C, "} else {");
            C->indent++;
            cb_line(C, "#pragma unroll");
            cb_line(C, "for (int q = 0; q < 4; q++) {");
            C->indent++;
            load_element(C, in, l, "j + q", other);
            C->indent--;
            cb_line(C, "}");
            C->indent--;
            cb_line(C, "}");
        }
        C->indent--;
        cb_line(C, "}");
        cb_close(C, n);
        return;
    }
    int n = cb_open(C, l);
    load_element(C, in, l, "j", other);
    cb_close(C, n);
}

static void emit_store(CudaB *C, const Inst *in) {
    Layout l = iter_layout(C, in);
    if (in->args[2].kind == OPD_CONST && !in->args[2].c.i) return;
    int base = ptr_base(C, in->args[0]);
    const char *bname = param_name(C, base);
    DType dt = (DType)C->f->params[base].type.dtype;
    int masked = !(in->args[2].kind == OPD_NONE || (in->args[2].kind == OPD_CONST && in->args[2].c.i));
    int vec = vectorizable(C, in, l, in->args[0], dt);
    if (vec) {
        const char *al = aligned_flag(C, base);
        int n = open_groups(C, l);
        const char *mask = masked ? group_mask(C, in, 2, l, "j") : "true";
        const char *cond = vec_condition(C, al, vec == 2, cb_ptr_index(C, in->args[0], l, "i", "j"), mask);
        const char *vals[4];
        for (int q = 0; q < 4; q++) {
            const char *jq = q ? arena_printf(C->a, "j + %d", q) : "j";
            vals[q] = cb_elem(C, in->args[1], use_of(C, in, 1, l), "i", jq);
            if (operand_type(C->f, in->args[1]).dtype != dt) vals[q] = arena_printf(C->a, "(%s)%s", c_type(dt), vals[q]);
        }
        if (cond) {
            cb_line(C, "if (%s) {", cond);
            C->indent++;
        }
        cb_line(C, "*(%s *)&%s[%s] = make_%s(%s, %s, %s, %s);", vec_type(dt), bname, cb_ptr_index(C, in->args[0], l, "i", "j"),
                vec_type(dt), vals[0], vals[1], vals[2], vals[3]);
        if (cond) {
            C->indent--;
            cb_line(C, "} else {");
            C->indent++;
            cb_line(C, "#pragma unroll");
            cb_line(C, "for (int q = 0; q < 4; q++) {");
            C->indent++;
            store_element(C, in, l, "j + q", masked);
            C->indent--;
            cb_line(C, "}");
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

static void emit_reduce(CudaB *C, const Inst *in) {
    int id = in->result;
    DType dt = (DType)in->type.dtype;
    const char *T = c_type(dt);
    int ept = C->tile->tm * C->tile->tn;
    int nthreads = C->tile->block_threads;
    int fl = dt == DT_F32;
    const char *op = in->op == OP_SUM ? NULL : in->op == OP_MAX ? (fl ? "fmaxf" : "max") : (fl ? "fminf" : "min");
#define COMBINE(dst, x) (op ? arena_printf(C->a, "%s = %s(%s, %s);", dst, op, dst, x) : arena_printf(C->a, "%s += %s;", dst, x))
    cb_line(C, "%s v%d;", T, id);
    cb_line(C, "{");
    C->indent++;
    Layout use = use_of(C, in, 0, LAYOUT_FLAT);
    cb_line(C, "%s r = %s;", T, cb_elem(C, in->args[0], use, "i", "0"));
    if (ept > 1) {
        cb_line(C, "#pragma unroll");
        cb_line(C, "for (int j = 1; j < %d; j++) %s", ept, COMBINE("r", cb_elem(C, in->args[0], use, "i", "j")));
    }
    int warp = nthreads < 32 ? nthreads : 32;
    const char *mask = warp == 32 ? "0xffffffffu" : arena_printf(C->a, "0x%xu", (unsigned)((1u << warp) - 1));
    if (warp > 1)
        cb_line(C, "for (int off = %d; off > 0; off >>= 1) %s", warp / 2,
                COMBINE("r", arena_printf(C->a, "__shfl_xor_sync(%s, r, off)", mask)));
    if (nthreads > 32) {
        int nw = nthreads / 32;
        sb_printf(&C->smem, "    __shared__ %s reduce_smem_%d[%d];\n", T, id, nw);
        cb_line(C, "if ((threadIdx.x & 31) == 0) reduce_smem_%d[threadIdx.x >> 5] = r;", id);
        cb_line(C, "__syncthreads();");
        cb_line(C, "r = reduce_smem_%d[threadIdx.x & %d];", id, nw - 1);
        if (nw > 1)
            cb_line(C, "for (int off = %d; off > 0; off >>= 1) %s", nw / 2,
                    COMBINE("r", "__shfl_xor_sync(0xffffffffu, r, off)"));
        if (C->loop_depth > 0) cb_line(C, "__syncthreads();");
    }
    cb_line(C, "v%d = r;", id);
    C->indent--;
    cb_line(C, "}");
#undef COMBINE
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
    switch (in->op) {
    case OP_PROGRAM_ID:
    case OP_ARANGE:
    case OP_EXPAND_DIMS:
    case OP_ZEROS:
    case OP_EMPTY:
    case OP_FULL:
    case OP_ADDPTR: return 0;
    default: return in->type.rank > 0;
    }
}

static void emit_now(CudaB *C, const Inst *in);

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
    for (int k = 0; k < def->nargs; k++) materialize(C, def->args[k]);
    emit_now(C, def);
}

static void materialize_block(CudaB *C, const Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        if (in->op == OP_FOR) {
            const Loop *l = in->loop;
            materialize(C, l->start), materialize(C, l->stop), materialize(C, l->step);
            for (int k = 0; k < l->ncarried; k++) materialize(C, l->inits[k]);
            materialize_block(C, &l->body);
            for (int k = 0; k < l->nyields; k++) materialize(C, l->yields[k]);
            continue;
        }
        for (int k = 0; k < in->nargs; k++) materialize(C, in->args[k]);
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

static void emit_loop(CudaB *C, const Inst *in) {
    const Loop *l = in->loop;
    const Function *f = C->f;
    if (cuda_matmul_emit(C, in)) return;
    for (int k = 0; k < l->ncarried; k++) {
        int r = l->results[k];
        Type t = f->types[r];
        C->alias[l->args[k]] = r;
        if (t.ptr) {
            /* a carried pointer: its element index, from one base parameter */
            int base = ptr_base(C, l->inits[k]);
            C->ptr_param[r] = C->ptr_param[l->args[k]] = base;
            C->ptr_var[r] = C->ptr_var[l->args[k]] = arena_printf(C->a, "v%d", r);
            Layout lay = cb_layout(C, r);
            cb_line(C, "int v%d%s;", r, decl_suffix(C, lay));
            int n = cb_open(C, lay);
            cb_line(C, "v%d%s = %s;", r, subscript(C, lay, "i", "j"), cb_ptr_index(C, l->inits[k], lay, "i", "j"));
            cb_close(C, n);
        } else {
            declare(C, r, (DType)t.dtype);
            copy_into(C, r, l->inits[k], NULL);
        }
    }
    /* a 64-bit counter: bounds near INT32_MAX must not wrap */
    cb_line(C, "for (long long v%d_c = %s; v%d_c < %s; v%d_c += %s) {", l->index, cb_elem(C, l->start, LAYOUT_UNIFORM, "0", "0"),
            l->index, cb_elem(C, l->stop, LAYOUT_UNIFORM, "0", "0"), l->index, cb_elem(C, l->step, LAYOUT_UNIFORM, "0", "0"));
    C->indent++;
    cb_line(C, "const int v%d = (int)v%d_c;", l->index, l->index);
    C->loop_depth++;
    cb_emit_block(C, &l->body);
    for (int k = 0; k < l->nyields; k++) materialize(C, l->yields[k]);
    int hazard = 0;
    for (int k = 0; k < l->nyields; k++)
        for (int j = 0; j < l->nyields; j++)
            if (j != k && l->yields[k].kind == OPD_VALUE && l->yields[k].id == l->args[j]) hazard = 1;
    for (int pass = hazard ? 0 : 1; pass < 2; pass++) {
        for (int k = 0; k < l->nyields; k++) {
            int r = l->results[k];
            Type t = f->types[r];
            Layout lay = cb_layout(C, r);
            Operand y = l->yields[k];
            if (y.kind == OPD_VALUE && y.id == l->args[k]) continue;
            const char *dst = pass == 0 ? arena_printf(C->a, "v%d_next", r) : arena_printf(C->a, "v%d", r);
            if (pass == 0) cb_line(C, "%s %s%s;", t.ptr ? "int" : c_type((DType)t.dtype), dst, decl_suffix(C, lay));
            int n = cb_open(C, lay);
            const char *val;
            if (hazard && pass == 1) val = arena_printf(C->a, "v%d_next%s", r, subscript(C, lay, "i", "j"));
            else if (t.ptr) val = cb_ptr_index(C, y, lay, "i", "j");
            else val = cb_elem(C, y, lay, "i", "j");
            cb_line(C, "%s%s = %s;", dst, subscript(C, lay, "i", "j"), val);
            cb_close(C, n);
        }
    }
    C->loop_depth--;
    C->indent--;
    cb_line(C, "}");
}

static void emit_inst(CudaB *C, const Inst *in) {
    if (deferrable(C, in)) {
        C->deferred[in->result] = 1;
        return;
    }
    if (in->op == OP_FOR) {
        const Loop *l = in->loop;
        materialize(C, l->start), materialize(C, l->stop), materialize(C, l->step);
        for (int k = 0; k < l->ncarried; k++) materialize(C, l->inits[k]);
        if (!cuda_matmul_find_loop(C->f, C->tile, in)) materialize_block(C, &l->body);
    } else if (in->op != OP_ADDPTR && in->op != OP_EXPAND_DIMS) {
        /* (pointers and aliases produce no code: their operands are
         * materialized where they are used) */
        for (int k = 0; k < in->nargs; k++) materialize(C, in->args[k]);
    }
    emit_now(C, in);
}

static void emit_now(CudaB *C, const Inst *in) {
    int id = in->result;
    const Operand *x = in->args;
    switch (in->op) {
    case OP_PROGRAM_ID: cb_line(C, "int v%d = blockIdx.%c;", id, "xyz"[in->attrs.axis]); return;
    case OP_ARANGE: return; /* an index, rendered at each use */
    case OP_EXPAND_DIMS:
        if (x[0].kind == OPD_VALUE) C->alias[id] = x[0].id;
        else C->splat[id] = cb_elem(C, x[0], LAYOUT_UNIFORM, "0", "0");
        return;
    case OP_ZEROS:
    case OP_EMPTY: C->splat[id] = c_zero((DType)in->type.dtype); return;
    case OP_FULL: {
        DType dt = (DType)in->type.dtype;
        const char *v = cb_elem(C, x[0], LAYOUT_UNIFORM, "0", "0");
        if (x[0].kind == OPD_CONST) v = c_const(C->a, const_convert(x[0].c, dt), C_CUDA);
        else if (operand_type(C->f, x[0]).dtype != dt) v = arena_printf(C->a, "((%s)%s)", c_type(dt), v);
        C->splat[id] = v;
        return;
    }
    case OP_ADDPTR: C->ptr_param[id] = ptr_base(C, x[0]); return;
    case OP_LOAD: emit_load(C, in); return;
    case OP_STORE: emit_store(C, in); return;
    case OP_SUM:
    case OP_MAX:
    case OP_MIN: emit_reduce(C, in); return;
    case OP_FOR: emit_loop(C, in); return;
    default: elementwise(C, in, binary_expr); return;
    }
}

void cb_emit_block(CudaB *C, const Block *b) {
    for (int i = 0; i < b->items.len; i++) emit_inst(C, b->items.items[i]);
}

const char *emit_cuda_blocked(Arena *a, const Function *f, const TileInfo *tile, const char *symbol, const int *param_div) {
    CudaB C = {0};
    C.a = a;
    C.f = f;
    C.tile = tile;
    C.pnames = c_param_names(a, f);
    C.param_div = param_div;
    C.alias = ARENA_ARRAY(a, int, f->nvalues + 1);
    for (int i = 0; i <= f->nvalues; i++) C.alias[i] = -1;
    C.splat = ARENA_ARRAY(a, const char *, f->nvalues + 1);
    C.ptr_param = ARENA_ARRAY(a, int, f->nvalues + 1);
    C.ptr_var = ARENA_ARRAY(a, const char *, f->nvalues + 1);
    C.align_needed = ARENA_ARRAY(a, char, f->nparams + 1);
    C.deferred = ARENA_ARRAY(a, char, f->nvalues + 1);
    C.emitted = ARENA_ARRAY(a, char, f->nvalues + 1);
    sb_init(&C.smem, a);
    sb_init(&C.prologue, a);
    StrBuf body, out;
    sb_init(&body, a);
    sb_init(&out, a);
    C.out = &body;
    C.indent = 1;
    cb_emit_block(&C, &f->body);
    sb_printf(&out, "extern \"C\" __global__ __launch_bounds__(%d)\nvoid %s(", tile->block_threads, symbol);
    for (int i = 0; i < f->nparams; i++)
        sb_printf(&out, "%s%s%s %s", i ? ", " : "", c_param_type(a, f->params[i].type),
                  "", C.pnames[i]);
    sb_puts(&out, ") {\n");
    if (C.smem.len) {
        sb_puts(&out, sb_str(&C.smem));
        sb_putc(&out, '\n');
    }
    if (tile->rank == 2) {
        int tcols = tile->cols / tile->tn;
        if (C.uses_ty) sb_printf(&out, "    const int ty = threadIdx.x / %d;\n", tcols);
        if (C.uses_tx) sb_printf(&out, "    const int tx = threadIdx.x %% %d;\n", tcols);
    }
    sb_puts(&out, sb_str(&C.prologue));
    sb_puts(&out, sb_str(&body));
    sb_puts(&out, "}\n");
    return sb_str(&out);
}
