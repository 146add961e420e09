/* The layout stage (DESIGN 8b; layout.h).
 *
 * Every block value of a kernel lives in one tile (shape.c): shape
 * analysis relates each value to the tile (the whole tile, its rows, its
 * columns, a flat block of it, or one uniform element). This stage decides
 * how the tile itself is spread over the threads and writes the result in
 * Triton's terms, so that each value carries an encoding:
 *
 *   #blocked  the tile: sizePerThread, threadsPerWarp, warpsPerCTA,
 *             order = [1, 0], repeated over the tile as Triton's blocked
 *             layouts are (a thread holds reps runs of spt elements);
 *   #rows     slice(dim = 1) of #blocked (a row block, (R, 1) or rank 1);
 *   #cols     slice(dim = 0) of #blocked;
 *   #flat     a rank-1 blocked layout over all the threads;
 *   #uniform  every thread holds the one element;
 *   #index    an arange: not stored, computed at each use in the layout
 *             that use needs.
 *
 * Elements move between threads only at conversions, which the stage
 * marks on the ops that make them (layout.h's Conv): exchanges and axis
 * reductions through shared memory, flat reductions through warp
 * shuffles, outer-product operands staged per chunk of k, tl.dot operands
 * staged (a store whose address runs along rows is staged by the
 * emitter's own axis analysis, emit_cuda_blocked.c). Everywhere else an
 * op reads its operands in its result's layout, where a slice is read as
 * the block it broadcasts to (free: each thread already holds it); the
 * verifier checks exactly that. */
#include "layout/layout.h"

#include <string.h>

/* ---- The choice of the tile's layout ------------------------------------ */

static int divides(int a, int b) { return a > 0 && b % a == 0; }

/* Whether an item of block b, or of a region in it, satisfies pred. */
static int any_item(const Block *b, int (*pred)(const Inst *)) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        if (pred(in)) return 1;
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++)
            if (any_item(sub[k], pred)) return 1;
    }
    return 0;
}

static int is_reduction(const Inst *in) { return op_has(in->op, OPF_REDUCE); }
static int is_runtime_loop(const Inst *in) { return in->op == OP_FOR || in->op == OP_WHILE; }
/* a runtime loop whose body only loads and computes */
static int is_streaming_loop(const Inst *in) {
    return in->op == OP_FOR && layout_streaming_body(&in->loop->body) == 1;
}

static void group_of_block(const Function *f, const Block *b, int *min_bytes) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        Block *sub[2];
        int nsub = ssa_blocks(in, sub);
        for (int k = 0; k < nsub; k++) group_of_block(f, sub[k], min_bytes);
        int dt = in->op == OP_LOAD    ? in->type.dtype
                 : in->op == OP_STORE ? operand_type(f, in->args[0]).dtype
                                      : -1;
        if (dt < 0) continue;
        int bytes = dtype_info((DType)dt)->bits <= 8 ? 1 : dtype_info((DType)dt)->bits / 8;
        if (bytes < *min_bytes) *min_bytes = bytes;
    }
}

int layout_access_group(const Function *f) {
    int min_bytes = 4;
    group_of_block(f, &f->body, &min_bytes);
    return 16 / min_bytes;
}

int layout_streaming_body(const Block *b) {
    int loads = 0;
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        if (in->op == OP_LOAD) loads = 1;
        else if (!op_has(in->op, OPF_PURE) || op_has(in->op, OPF_REGION) ||
                 op_has(in->op, OPF_REDUCE) || op_has(in->op, OPF_SCAN) ||
                 shape_moves_elements(in->op) || in->op == OP_DOT)
            return 2;
    }
    return loads;
}

/* Spreads the tile over exactly `threads` threads: elements per thread
 * along columns first (up to 8, or a 16-byte group of a narrower dtype),
 * then rows. */
static const char *layout_for_threads(Arena *a, const Function *f, TileInfo *t, int threads) {
    int elems = t->threads;
    if (threads <= 0 || elems % threads != 0)
        return arena_printf(a, "the tile %s of %d elements cannot be spread evenly over %d threads",
                            tile_str(a, t), elems, threads);
    int ept = elems / threads;
    if (t->rank <= 1) {
        t->tm = 1;
        t->tn = ept;
        return NULL;
    }
    int g = layout_access_group(f);
    int tn = 1, most = g > 8 ? g : 8;
    while (tn * 2 <= most && divides(tn * 2, t->cols) && ept % (tn * 2) == 0) tn *= 2;
    /* a tile of few rows (a (1, 8192) row block over 256 threads): the
     * rest of a thread's elements along the columns too */
    while (!divides(ept / tn, t->rows) && divides(tn * 2, t->cols) && ept % (tn * 2) == 0) tn *= 2;
    int tm = ept / tn;
    if (!divides(tm, t->rows) || !divides(tn, t->cols))
        return arena_printf(a, "the tile %s cannot be spread evenly over %d threads",
                            tile_str(a, t), threads);
    t->tm = tm;
    t->tn = tn;
    return NULL;
}

static int is_exchange(const Inst *in) { return shape_moves_elements(in->op); }

/* The exchanges that a plan of tile t keeps in each thread (CONV_REGS). */
static int in_thread_count(Arena *a, const Function *f, const TileInfo *t) {
    TileInfo c = *t;
    c.block_threads = c.threads / (c.tm * c.tn);
    return layout_plan(a, f, &c, layout_access_group(f), 1, "")->nconv[CONV_REGS];
}

/* Among the ways of splitting a thread's elements between rows and
 * columns with at least as many columns (the 16-byte accesses stay), the
 * one whose layout keeps the most exchanges in each thread (a split or
 * join of a (R, 2) tile: a row's two elements in one thread), compared
 * element by element (layout_plan's CONV_REGS); ties keep the choice
 * made. */
static void prefer_in_thread(Arena *a, const Function *f, TileInfo *t) {
    if (t->rank != 2 || t->dot_box || !any_item(&f->body, is_exchange)) return;
    int ept = t->tm * t->tn, tm0 = t->tm, tn0 = t->tn, best = in_thread_count(a, f, t);
    for (int tn = 2 * tn0; tn <= ept; tn *= 2) {
        int tm = ept / tn;
        if (tm * tn != ept || !divides(tn, t->cols) || !divides(tm, t->rows)) continue;
        TileInfo c = *t;
        c.tm = tm;
        c.tn = tn;
        int n = in_thread_count(a, f, &c);
        if (n > best) {
            best = n;
            tm0 = tm;
            tn0 = tn;
        }
    }
    t->tm = tm0;
    t->tn = tn0;
}

/* Where a thread holds whole rows (a warp's lanes all along the rows),
 * a thread's rows one every `threads` rather than in runs of 4: each
 * access of the tile, and of its rows, is then contiguous across the
 * warp's lanes (a (1024, 2) tile: a warp's 8-byte accesses of one
 * instruction cover 256 consecutive bytes, not 32 bytes every 32), as
 * Triton's sizePerThread [1, C] repeated over the tile. Unless that
 * takes an exchange out of the threads (an interleave's reshape of a
 * (R, 2) tile to a thread's consecutive flat elements). */
static void prefer_strided_rows(Arena *a, const Function *f, TileInfo *t) {
    if (t->rank != 2 || t->dot_box || t->tm <= 1 || t->tn != t->cols) return;
    int kept = any_item(&f->body, is_exchange) ? in_thread_count(a, f, t) : 0;
    t->rows_strided = 1;
    if (kept && in_thread_count(a, f, t) < kept) t->rows_strided = 0;
}

const char *layout_choose(Arena *a, const Function *f, TileInfo *t, int num_warps) {
    t->tm = t->tn = 1;
    t->rows_strided = 0;
    if (num_warps > 0) {
        if (num_warps > 32 || (num_warps & (num_warps - 1)) != 0)
            return arena_printf(a, "num_warps must be a power of two from 1 to 32 (got %d)",
                                num_warps);
        int threads = 32 * num_warps;
        if (threads > t->threads) threads = t->threads; /* a small tile: one thread per element */
        const char *err = layout_for_threads(a, f, t, threads);
        if (err) return err;
        prefer_in_thread(a, f, t);
        prefer_strided_rows(a, f, t);
        t->block_threads = t->threads / (t->tm * t->tn);
        return NULL;
    }
    if (t->rank == 1) {
        int w = t->cols;
        /* one 16-byte group per thread (4 elements of f32, 8 of f16, 16
         * of i8) from 64 threads on, else 4 elements from 256; with a
         * block-wide reduction, 8 from 1024 on, which halves the warps it
         * goes through (measured: streaming kernels prefer more threads) */
        int tn = 1, g = layout_access_group(f);
        if (w >= 256 && w % 4 == 0) tn = 4;
        if (w >= 64 * g && w % g == 0) tn = g;
        if (w >= 1024 && w % 8 == 0 && tn < 8 && any_item(&f->body, is_reduction)) tn = 8;
        /* a runtime loop streaming through memory with the tile as its
         * state: its loads in flight grow with the warps (Triton's default
         * of 4 warps: at least 128 threads) */
        while (tn > 1 && w / tn < 128 && any_item(&f->body, is_streaming_loop)) tn /= 2;
        while (w / tn > 1024 && divides(tn * 2, w)) tn *= 2;
        t->tn = tn;
    } else if (t->rank == 2) {
        int R = t->rows, C = t->cols, tm = 1, tn = 1;
        int micro = (t->dot_box && shape_has_dot(f)) || layout_outer_find(f, t) != NULL;
        if (micro) {
            /* a bounding box with a tl.dot on CUDA cores, or an
             * outer-product loop: register micro-tiles by the registers
             * a thread needs (emit_cuda_fma.c) */
            layout_fma_microtile(R, C, &tm, &tn);
        } else {
            /* a 16-byte group of columns per thread */
            int g = layout_access_group(f);
            if (C >= 16 && C % 4 == 0) tn = 4;
            if (C >= 4 * g && C % g == 0) tn = g;
            /* a tile without runtime loops: at most 256 threads (Triton's
             * default is 128), more rows per thread; a loop accumulating
             * into the tile keeps its threads (one per 16-byte group) */
            while (!any_item(&f->body, is_runtime_loop) && (R / tm) * (C / tn) > 256 &&
                   divides(tm * 2, R))
                tm *= 2;
        }
        while ((R / tm) * (C / tn) > 1024) {
            if (divides(tm * 2, R)) tm *= 2;
            else if (divides(tn * 2, C)) tn *= 2;
            else break;
        }
        t->tm = tm;
        t->tn = tn;
        if (!micro) {
            prefer_in_thread(a, f, t);
            prefer_strided_rows(a, f, t);
        }
    }
    t->block_threads = t->threads / (t->tm * t->tn);
    if (t->block_threads > 1024)
        return arena_printf(a, "the tile %s cannot be spread over at most 1024 threads",
                            tile_str(a, t));
    if (t->rank == 2) layout_outer_group(a, f, t, &t->group_m, &t->group_n);
    return NULL;
}

/* ---- The plan ------------------------------------------------------------ */

/* Elements a thread keeps consecutive along an axis where it holds `per`
 * of `extent`, in groups of g (layout_coord): g when the
 * thread holds at least two whole groups, all of them otherwise, one by
 * one with g == 1. */
static int run_of(int per, int g) {
    if (per <= 1 || g == 1) return 1;
    return per >= 2 * g && per % g == 0 ? g : per;
}

static int pow2(int n) { return n > 0 && (n & (n - 1)) == 0; }

static int is_arange(const Function *f, int v) { return f->defs[v] && f->defs[v]->op == OP_ARANGE; }

int layout_reduce_one(const Function *f, const Inst *in) {
    return op_has(in->op, OPF_REDUCE) && in->op != OP_TAKE && in->nargs > 0 &&
           type_numel(operand_type(f, in->args[0])) == 1;
}

int layout_reduce_shuffles(const Function *f, const TileInfo *t, const Inst *in) {
    static const Op ops[] = {OP_SUM, OP_MAX, OP_MIN, OP_XOR_SUM, OP_ARGMAX, OP_ARGMIN};
    int known = 0;
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) known |= in->op == ops[k];
    if (!known) return 0;
    if (!(in->attrs.flag & RED_AXIS) || t->rank != 2 || t->group_m * t->group_n > 1) return 0;
    if (in->args[0].kind != OPD_VALUE || in->result < 0) return 0;
    Type x = operand_type(f, in->args[0]);
    int axis = in->attrs.axis, tm = t->tm > 0 ? t->tm : 1, tn = t->tn > 0 ? t->tn : 1;
    if (x.rank != 2 || x.dims[0] != t->rows || x.dims[1] != t->cols || (axis != 0 && axis != 1))
        return 0;
    if (!pow2(t->rows / tm) || !pow2(t->cols / tn) || t->rows % tm || t->cols % tn) return 0;
    Layout r = t->layout[in->result];
    return r == LAYOUT_UNIFORM || r == (axis == 1 ? LAYOUT_ROWS : LAYOUT_COLS);
}

/* How op `in` moves elements between threads (layout.h's Conv). */
static Conv conv_of(const Function *f, const TileInfo *t, const Inst *in) {
    if (shape_moves_elements(in->op)) return CONV_EXCHANGE;
    if (layout_reduce_one(f, in)) return CONV_NONE;
    if (op_has(in->op, OPF_REDUCE) && shape_reduce_flat(t, f, in)) return CONV_SHUFFLE;
    if (layout_reduce_shuffles(f, t, in)) return CONV_SHUFFLE;
    if (op_has(in->op, OPF_REDUCE) || op_has(in->op, OPF_SCAN)) return CONV_AXIS;
    if (in->op == OP_DOT) return CONV_DOT;
    if (in->op == OP_FOR && t->tm * t->tn > 1 && layout_outer_loop(f, t, in)) return CONV_STAGE;
    return CONV_NONE;
}

/* ---- Exchanges that stay in the thread ------------------------------------
 *
 * An exchange op (reshape, trans, remap, join, split, xor_shuffle) reads,
 * for each element of its result, one element of an operand at a position
 * the op defines. Where, in every thread, each result element the thread
 * holds is an element the thread already holds of that operand, in the
 * same register of every thread, the exchange is a permutation of each
 * thread's registers: the layouts are compared element by element, as
 * Triton's remove-layout-conversions compares linear layouts. */

int layout_slots(const TileInfo *t, Layout l) {
    int tm = t->tm > 0 ? t->tm : 1, tn = t->tn > 0 ? t->tn : 1;
    switch (l) {
    case LAYOUT_ROWS: return tm;
    case LAYOUT_COLS: return tn;
    case LAYOUT_TILE:
    case LAYOUT_FLAT: return tm * tn;
    default: return 1;
    }
}

/* layout_coord's inverse: the element of the thread at coordinate c of
 * axis x, and that thread in *th. */
static int axis_slot(LayoutAxis x, int c, int *th) {
    if (x.per == 1) {
        *th = c;
        return 0;
    }
    int run = x.spt * x.threads, rem = c % run;
    *th = rem / x.spt;
    return c / run * x.spt + rem % x.spt;
}

/* The elements a value of layout l covers in the tile: its numel when it
 * fills them. */
static int layout_extent(const TileInfo *t, Layout l) {
    switch (l) {
    case LAYOUT_ROWS: return t->rows;
    case LAYOUT_COLS: return t->cols;
    case LAYOUT_TILE: return t->rows * t->cols;
    case LAYOUT_FLAT: return t->threads;
    default: return 0;
    }
}

/* The row-major position of element s of thread th in a value of layout l. */
static int held_at(const LayoutPlan *p, Layout l, int th, int s) {
    const TileInfo *t = p->tile;
    int tcols = p->axis[AXIS_COLS].threads, tn = t->tn > 0 ? t->tn : 1;
    switch (l) {
    case LAYOUT_ROWS: return layout_coord(p->axis[AXIS_ROWS], th / tcols, s);
    case LAYOUT_COLS: return layout_coord(p->axis[AXIS_COLS], th % tcols, s);
    case LAYOUT_TILE:
        return layout_coord(p->axis[AXIS_ROWS], th / tcols, s / tn) * t->cols +
               layout_coord(p->axis[AXIS_COLS], th % tcols, s % tn);
    default:
        return layout_slots(t, LAYOUT_FLAT) == 1 ? th : layout_coord(p->axis[AXIS_FLAT], th, s);
    }
}

/* The element of thread th holding position pos of a value of layout l
 * (-1: another thread's). */
static int slot_of(const LayoutPlan *p, Layout l, int th, int pos) {
    const TileInfo *t = p->tile;
    int tcols = p->axis[AXIS_COLS].threads, tn = t->tn > 0 ? t->tn : 1, at, at2;
    switch (l) {
    case LAYOUT_ROWS: {
        int s = axis_slot(p->axis[AXIS_ROWS], pos, &at);
        return at == th / tcols ? s : -1;
    }
    case LAYOUT_COLS: {
        int s = axis_slot(p->axis[AXIS_COLS], pos, &at);
        return at == th % tcols ? s : -1;
    }
    case LAYOUT_TILE: {
        int i = axis_slot(p->axis[AXIS_ROWS], pos / t->cols, &at);
        int j = axis_slot(p->axis[AXIS_COLS], pos % t->cols, &at2);
        return at == th / tcols && at2 == th % tcols ? i * tn + j : -1;
    }
    default:
        if (layout_slots(t, LAYOUT_FLAT) == 1) return pos == th ? 0 : -1;
        {
            int s = axis_slot(p->axis[AXIS_FLAT], pos, &at);
            return at == th ? s : -1;
        }
    }
}

/* The operand (in *k) and its row-major position that exchange `in`
 * reads for position q of its result (as the CUDA emitters' exchange
 * buffers place them). */
static int source_of(const Function *f, const Inst *in, int q, int *k) {
    *k = 0;
    Type xt = operand_type(f, in->args[0]);
    switch (in->op) {
    case OP_TRANS: return xt.rank == 2 ? (q % xt.dims[0]) * xt.dims[1] + q / xt.dims[0] : q;
    case OP_SPLIT: return q * 2 + in->attrs.axis;
    case OP_JOIN: *k = q % 2; return q / 2;
    case OP_XOR_SHUFFLE: return q ^ in->attrs.axis;
    case OP_REMAP: {
        const Attrs *at = &in->attrs;
        long long src = at->voff, inner = 1;
        for (int d = at->nv - 1; d >= 0; d--) {
            src += (q / inner % at->vdims[d]) * at->vstride[d];
            inner *= at->vdims[d];
        }
        return (int)src;
    }
    default: return q; /* reshape */
    }
}

/* The register map of exchange `in` when it stays in each thread (NULL
 * otherwise): operands and result stored in layouts they fill (in a
 * bounding box: values of the whole box), at most LAYOUT_MAX_SLOTS
 * elements of each per thread. */
static int *regs_map(Arena *a, const Function *f, const LayoutPlan *p, const Inst *in) {
    const TileInfo *t = p->tile;
    if (in->result < 0 || in->op == OP_GATHER) return NULL; /* (a gather's sources are data) */
    Layout lr = t->layout[in->result];
    Layout lk[2];
    for (int k = 0; k < in->nargs && k < 2; k++) {
        Operand o = in->args[k];
        if (o.kind != OPD_VALUE || is_arange(f, o.id)) return NULL;
        lk[k] = t->layout[o.id];
        if (lk[k] == LAYOUT_UNIFORM || (t->rank != 2 && lk[k] != LAYOUT_FLAT) ||
            layout_extent(t, lk[k]) != (int)type_numel(f->types[o.id]) ||
            layout_slots(t, lk[k]) > LAYOUT_MAX_SLOTS)
            return NULL;
    }
    if (lr == LAYOUT_UNIFORM || (t->rank != 2 && lr != LAYOUT_FLAT) ||
        layout_extent(t, lr) != (int)type_numel(in->type))
        return NULL;
    int n = layout_slots(t, lr), threads = t->block_threads > 0 ? t->block_threads : t->threads;
    if (n > LAYOUT_MAX_SLOTS) return NULL;
    int *map = ARENA_ARRAY(a, int, n);
    for (int th = 0; th < threads; th++)
        for (int s = 0; s < n; s++) {
            int k, src = source_of(f, in, held_at(p, lr, th, s), &k);
            int from = slot_of(p, lk[k], th, src);
            if (from < 0) return NULL;
            int code = k * LAYOUT_MAX_SLOTS + from;
            if (th == 0) map[s] = code;
            else if (map[s] != code) return NULL;
        }
    return map;
}

static void mark_block(LayoutPlan *p, const Block *b, LayoutConvFn conv, void *user) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++) mark_block(p, sub[k], conv, user);
        Conv c = conv(user, in);
        if (c == CONV_NONE) continue;
        p->nconv[c]++;
        if (in->result >= 0) p->conv[in->result] = (unsigned char)c;
        if (in->op == OP_FOR)
            for (int r = 0; r < in->loop->nresults; r++) p->conv[in->loop->results[r]] = c;
    }
}

void layout_mark(Arena *a, const Function *f, LayoutPlan *p, LayoutConvFn conv, void *user) {
    p->conv = ARENA_ARRAY(a, unsigned char, f->nvalues + 1);
    mark_block(p, &f->body, conv, user);
}

typedef struct Marking {
    Arena *a;
    const Function *f;
    LayoutPlan *p;
} Marking;

/* conv_of, an exchange that stays in the threads as CONV_REGS */
static Conv blocked_conv(void *user, const Inst *in) {
    Marking *m = user;
    Conv c = conv_of(m->f, m->p->tile, in);
    int *map = c == CONV_EXCHANGE && m->p->regs ? regs_map(m->a, m->f, m->p, in) : NULL;
    if (!map) return c;
    m->p->regs[in->result] = map;
    return CONV_REGS;
}

static LayoutAxis axis_of(int per, int extent, int g) {
    LayoutAxis x;
    x.per = per > 0 ? per : 1;
    x.spt = run_of(x.per, g);
    x.threads = extent / x.per > 0 ? extent / x.per : 1;
    return x;
}

int layout_coord(LayoutAxis x, int t, int k) {
    if (x.per == 1) return t;
    return (k / x.spt) * (x.spt * x.threads) + t * x.spt + k % x.spt;
}

const char *layout_coord_text(Arena *a, LayoutAxis x, const char *t, const char *k) {
    if (x.per == 1) return t;
    /* k may be an expression ("j + q": the per-element fallback of a
     * 16-byte group): in parentheses, else k / spt and k % spt below are
     * j + (q / spt) and j + (q % spt), another element */
    if (strchr(k, ' ')) k = arena_printf(a, "(%s)", k);
    if (x.spt == 1) return arena_printf(a, "(%s * %d + %s)", k, x.threads, t);
    if (x.spt < x.per)
        return arena_printf(a, "((%s / %d) * %d + %s * %d + (%s %% %d))", k, x.spt,
                            x.spt * x.threads, t, x.spt, k, x.spt);
    return arena_printf(a, "(%s * %d + %s)", t, x.per, k);
}

void layout_axes(const TileInfo *t, int group, LayoutAxis axis[3]) {
    int tm = t->tm > 0 ? t->tm : 1, tn = t->tn > 0 ? t->tn : 1;
    /* rows in runs of 4 (or one by one: rows_strided), columns and flat
     * values in the 16-byte group */
    axis[AXIS_ROWS] = axis_of(tm, t->rank == 2 ? t->rows : 1, t->rows_strided ? 1 : 4);
    axis[AXIS_COLS] =
        axis_of(t->rank == 2 ? tn : tm * tn, t->rank == 2 ? t->cols : t->threads, group);
    axis[AXIS_FLAT] = axis_of(tm * tn, t->threads, group);
}

LayoutPlan *layout_plan(Arena *a, const Function *f, const TileInfo *t, int group, int regs,
                        const char *path) {
    LayoutPlan *p = ARENA_NEW(a, LayoutPlan);
    p->tile = t;
    p->path = path;
    p->group = group;
    layout_axes(t, group, p->axis);
    /* a rank-1 tile has its columns only */
    LayoutAxis rows = t->rank == 2 ? p->axis[AXIS_ROWS] : (LayoutAxis){1, 1, 1};
    p->spt[0] = rows.spt;
    p->reps[0] = rows.per / rows.spt;
    p->spt[1] = p->axis[AXIS_COLS].spt;
    p->reps[1] = p->axis[AXIS_COLS].per / p->axis[AXIS_COLS].spt;
    /* threads along each axis into warps, the lanes of a warp along the
     * columns first (order [1, 0]): a Triton blocked layout where both
     * counts are powers of two and fill whole warps (threadIdx.x is
     * row-major over them otherwise: tpw and wpc stay 0) */
    int trows = t->rank == 2 ? p->axis[AXIS_ROWS].threads : 1, tcols = p->axis[AXIS_COLS].threads;
    if (pow2(trows) && pow2(tcols) && trows * tcols >= 32) {
        p->tpw[1] = tcols < 32 ? tcols : 32;
        p->tpw[0] = 32 / p->tpw[1] < trows ? 32 / p->tpw[1] : trows;
        p->wpc[1] = tcols / p->tpw[1];
        p->wpc[0] = trows / p->tpw[0];
    }
    p->regs = regs ? ARENA_ARRAY(a, int *, f->nvalues + 1) : NULL;
    Marking m = {a, f, p};
    layout_mark(a, f, p, blocked_conv, &m);
    return p;
}

/* ---- The verifier ---------------------------------------------------------- */

typedef struct Check {
    MtContext *ctx;
    const Function *f;
    const LayoutPlan *p;
} Check;

static const char *const enc_names[] = {
    [LAYOUT_UNIFORM] = "#uniform", [LAYOUT_FLAT] = "#flat",    [LAYOUT_ROWS] = "#rows",
    [LAYOUT_COLS] = "#cols",       [LAYOUT_TILE] = "#blocked",
};

static const char *enc_name(Layout l) {
    return l >= 0 && l <= LAYOUT_TILE && enc_names[l] ? enc_names[l] : "#?";
}

static const char *enc_of(const Function *f, const LayoutPlan *p, int v) {
    return is_arange(f, v) ? "#index" : enc_name(p->tile->layout[v]);
}

/* Whether a value stored in layout `held` gives every element an op
 * iterating over `need` reads: the same layout, a uniform value, or a
 * slice read as the block it broadcasts to. */
static int holds(Layout held, Layout need) {
    return held == need || held == LAYOUT_UNIFORM ||
           (need == LAYOUT_TILE && (held == LAYOUT_ROWS || held == LAYOUT_COLS));
}

static int bad_use(Check *K, const Inst *user, Operand o, Layout need) {
    if (o.kind != OPD_VALUE || is_arange(K->f, o.id)) return 1;
    Layout held = K->p->tile->layout[o.id];
    if (holds(held, need)) return 1;
    mt_error(K->ctx, user->pos,
             "internal error: layout: %%%d is %s, but %s reads it as %s without a conversion", o.id,
             enc_of(K->f, K->p, o.id), op_info(user->op)->name, enc_names[need]);
    return 0;
}

/* The value's layout covers its shape: a block of the tile's rows or
 * columns no longer than them, a rank-2 value within the tile (equal to
 * it unless the tile is a bounding box). */
static int covers(Check *K, int v) {
    const TileInfo *t = K->p->tile;
    Type ty = K->f->types[v];
    Layout l = t->layout[v];
    int n = 1;
    for (int d = 0; d < ty.rank; d++) n *= ty.dims[d];
    int ok = 1;
    switch (l) {
    case LAYOUT_UNIFORM: break; /* one element, or a splat */
    case LAYOUT_FLAT: ok = t->rank != 2 || n <= t->threads; break;
    case LAYOUT_ROWS: ok = t->rank == 2 && n <= t->rows; break;
    case LAYOUT_COLS: ok = t->rank == 2 && n <= t->cols; break;
    case LAYOUT_TILE:
        ok = t->rank == 2 && ty.rank == 2 &&
             (t->dot_box ? ty.dims[0] <= t->rows && ty.dims[1] <= t->cols
                         : (ty.dims[0] == t->rows || ty.dims[0] == 1) &&
                               (ty.dims[1] == t->cols || ty.dims[1] == 1));
        break;
    }
    if (ok) return 1;
    mt_error(K->ctx, K->f->defs[v] ? K->f->defs[v]->pos : srcpos(0, 0),
             "internal error: layout: %%%d (%s) is %s, which does not cover it in the tile %s", v,
             type_str(K->ctx->arena, ty), enc_of(K->f, K->p, v), tile_str(K->ctx->arena, t));
    return 0;
}

static int check_block(Check *K, const Block *b);

/* A CONV_REGS map reads, for each of the result's elements in a thread, an
 * operand the op has and an element of it the thread holds. */
static int regs_ok(Check *K, const Inst *in) {
    const TileInfo *t = K->p->tile;
    const int *map = K->p->regs ? K->p->regs[in->result] : NULL;
    int n = layout_slots(t, t->layout[in->result]);
    for (int s = 0; map && s < n; s++) {
        int k = map[s] / LAYOUT_MAX_SLOTS, from = map[s] % LAYOUT_MAX_SLOTS;
        if (k >= in->nargs || in->args[k].kind != OPD_VALUE ||
            from >= layout_slots(t, t->layout[in->args[k].id]))
            map = NULL;
    }
    if (map) return 1;
    mt_error(K->ctx, in->pos,
             "internal error: layout: %%%d's permutation of registers reads an element its "
             "operands do not hold",
             in->result);
    return 0;
}

static int check_region(Check *K, const Inst *in) {
    const Loop *l = in->loop;
    const Layout *lay = K->p->tile->layout;
    for (int r = 0; r < l->nresults; r++) {
        Layout need = lay[l->results[r]];
        if (r < l->ncarried &&
            (!bad_use(K, in, l->inits[r], need) || !bad_use(K, in, opd_value(l->args[r]), need)))
            return 0;
        if (!bad_use(K, in, l->yields[r], need)) return 0;
        if (in->op == OP_IF && !bad_use(K, in, l->else_yields[r], need)) return 0;
    }
    Block *sub[2];
    int n = ssa_blocks(in, sub);
    for (int k = 0; k < n; k++)
        if (!check_block(K, sub[k])) return 0;
    return 1;
}

static int check_inst(Check *K, const Inst *in) {
    const Function *f = K->f;
    const TileInfo *t = K->p->tile;
    if (op_has(in->op, OPF_REGION)) return check_region(K, in);
    if (in->result >= 0 && !is_arange(f, in->result) && !covers(K, in->result)) return 0;
    if (in->result >= 0 && K->p->conv[in->result] == CONV_REGS && !regs_ok(K, in)) return 0;
    /* the plan's conversions read their operands in any layout */
    if (in->result >= 0 && K->p->conv[in->result] != CONV_NONE) return 1;
    if (in->result >= 0) {
        Layout need = t->layout[in->result];
        for (int k = 0; k < in->nargs; k++)
            if (!bad_use(K, in, in->args[k], need)) return 0;
        return 1;
    }
    /* a store, print or assert iterates over the broadcast of its
     * operands: a flat block does not broadcast with a slice or a tile */
    int flat = 0, tiled = 0;
    for (int k = 0; k < in->nargs; k++) {
        Operand o = in->args[k];
        if (o.kind != OPD_VALUE || is_arange(f, o.id)) continue;
        Layout l = t->layout[o.id];
        flat |= l == LAYOUT_FLAT;
        tiled |= l == LAYOUT_ROWS || l == LAYOUT_COLS || l == LAYOUT_TILE;
    }
    if (t->rank == 2 && flat && tiled) {
        mt_error(K->ctx, in->pos,
                 "internal error: layout: %s mixes a #flat operand with #rows, #cols or #blocked "
                 "ones without a conversion",
                 op_info(in->op)->name);
        return 0;
    }
    return 1;
}

static int check_block(Check *K, const Block *b) {
    for (int i = 0; i < b->items.len; i++)
        if (!check_inst(K, b->items.items[i])) return 0;
    return 1;
}

int layout_verify(MtContext *ctx, const Function *f, const LayoutPlan *p) {
    if (p->tc) return layout_tc_verify(ctx, f, p);
    const TileInfo *t = p->tile;
    const LayoutAxis *rows = &p->axis[AXIS_ROWS], *cols = &p->axis[AXIS_COLS];
    int two = t->rank == 2;
    int threads = (two ? rows->threads : 1) * cols->threads;
    int elems = (two ? rows->per : 1) * cols->per;
    int warps = p->tpw[0] * p->wpc[0] * p->tpw[1] * p->wpc[1];
    int block = t->block_threads > 0 ? t->block_threads : t->threads;
    if (threads != block || threads * elems != t->threads || (p->tpw[1] && warps != threads) ||
        rows->per % rows->spt || cols->per % cols->spt) {
        mt_error(ctx, srcpos(0, 0),
                 "internal error: layout: #blocked spreads %d elements per thread over %d threads "
                 "(%d in its warps), not the tile %s over %d",
                 elems, threads, warps, tile_str(ctx->arena, t), block);
        return 0;
    }
    Check K = {ctx, f, p};
    return check_block(&K, &f->body);
}

/* ---- The text ---------------------------------------------------------------- */

typedef struct Printer {
    Arena *a;
    const Function *f;
    const LayoutPlan *p;
} Printer;

static const char *const conv_text[CONV_COUNT] = {
    [CONV_NONE] = "",
    [CONV_EXCHANGE] = "convert_layout through #shared (exchange)",
    [CONV_AXIS] = "convert_layout through #shared (along the axis)",
    [CONV_SHUFFLE] = "warp shuffles, then #shared across warps",
    [CONV_DOT] = "operands through #shared, mma.sync m16n8kK where the dtypes allow",
    [CONV_STAGE] = "operands staged through #shared per chunk of k",
    [CONV_REGS] = "in the thread: a permutation of its registers",
    [CONV_COPY] = "copy into the ring (cp.async, 16-byte groups)",
    [CONV_MMA] = "tensor cores",
    [CONV_ROWRED] = "in the thread, then shuffles among the lanes of a row",
};

const char *layout_conv_text(Conv c) { return (unsigned)c < CONV_COUNT ? conv_text[c] : "?"; }

const char *layout_note(Arena *a, const LayoutPlan *p, const Inst *in, LayoutEncFn enc, void *user,
                        const char *words) {
    if (op_has(in->op, OPF_REGION)) {
        if (in->loop->nresults == 0) return NULL;
        StrBuf sb;
        sb_init(&sb, a);
        sb_puts(&sb, "  //");
        for (int r = 0; r < in->loop->nresults; r++)
            sb_printf(&sb, "%s %s", r ? "," : "", enc(user, in->loop->results[r]));
        Conv c = (Conv)p->conv[in->loop->results[0]];
        if (c != CONV_NONE) sb_printf(&sb, "; %s", words ? words : conv_text[c]);
        return sb_str(&sb);
    }
    int v = in->result;
    if (v < 0) return NULL;
    Conv c = (Conv)p->conv[v];
    if (c == CONV_NONE) return arena_printf(a, "  // %s", enc(user, v));
    return arena_printf(a, "  // %s <- %s", enc(user, v), words ? words : conv_text[c]);
}

static const char *enc_cb(void *user, int v) {
    Printer *P = user;
    return enc_of(P->f, P->p, v);
}

static const char *note_of(void *user, const Inst *in) {
    Printer *P = user;
    return layout_note(P->a, P->p, in, enc_cb, P, NULL);
}

static void print_ints(StrBuf *sb, const int *x, int from) {
    sb_puts(sb, "[");
    for (int i = from; i < 2; i++) sb_printf(sb, "%s%d", i > from ? ", " : "", x[i]);
    sb_puts(sb, "]");
}

static void print_blocked(StrBuf *sb, const LayoutPlan *p, int from) {
    sb_puts(sb, "#mt.blocked<{sizePerThread = ");
    print_ints(sb, p->spt, from);
    if (!p->tpw[1]) {
        /* thread counts that are not powers of two: no warp layout */
        int threads[2] = {p->axis[AXIS_ROWS].threads, p->axis[AXIS_COLS].threads};
        sb_puts(sb, ", threads = ");
        print_ints(sb, threads, from);
        sb_puts(sb, from ? ", order = [0]}>" : ", order = [1, 0]}>");
        return;
    }
    sb_puts(sb, ", threadsPerWarp = ");
    print_ints(sb, p->tpw, from);
    sb_puts(sb, ", warpsPerCTA = ");
    print_ints(sb, p->wpc, from);
    sb_puts(sb, from ? ", order = [0]}>" : ", order = [1, 0]}>");
}

const char *layout_print(Arena *a, const Function *f, const LayoutPlan *p) {
    if (p->tc) return layout_tc_print(a, f, p);
    const TileInfo *t = p->tile;
    StrBuf sb;
    sb_init(&sb, a);
    int tm = t->tm > 0 ? t->tm : 1, tn = t->tn > 0 ? t->tn : 1;
    int block = t->block_threads > 0 ? t->block_threads : t->threads;
    sb_printf(&sb, "// layout of %s: the tile %s, %d thread%s, %d x %d elements per thread (%s)\n",
              f->name, tile_str(a, t), block, block == 1 ? "" : "s", t->rank == 2 ? tm : 1,
              t->rank == 2 ? tn : tm * tn, p->path);
    if (t->group_m > 0)
        sb_printf(&sb,
                  "// and %d programs per block (%d x %d along the grid's x and y, %d threads), "
                  "sharing the "
                  "loop's staged chunks, where the grid's x and y are multiples of %d and %d\n",
                  t->group_m * t->group_n, t->group_m, t->group_n, block * t->group_m * t->group_n,
                  t->group_m, t->group_n);
    if (t->rank == 2) {
        sb_puts(&sb, "#blocked = ");
        print_blocked(&sb, p, 0);
        if (p->reps[0] > 1 || p->reps[1] > 1)
            sb_printf(&sb, "  // repeated %d x %d over the tile", p->reps[0], p->reps[1]);
        sb_puts(&sb, "\n#rows = #mt.slice<{dim = 1, parent = #blocked}>\n");
        sb_puts(&sb, "#cols = #mt.slice<{dim = 0, parent = #blocked}>\n");
        /* a flat value of a rank-2 tile: its elements over all threads */
        LayoutPlan flat = *p;
        flat.spt[1] = p->axis[AXIS_FLAT].spt;
        flat.tpw[1] = pow2(block) && block >= 32 ? 32 : 0;
        flat.wpc[1] = flat.tpw[1] ? block / 32 : 0;
        flat.axis[AXIS_COLS].threads = block;
        sb_puts(&sb, "#flat = ");
        print_blocked(&sb, &flat, 1);
        int freps = p->axis[AXIS_FLAT].per / p->axis[AXIS_FLAT].spt;
        if (freps > 1) sb_printf(&sb, "  // repeated %d times over the tile", freps);
        sb_putc(&sb, '\n');
    } else {
        sb_puts(&sb, "#flat = ");
        print_blocked(&sb, p, 1);
        if (p->reps[1] > 1) sb_printf(&sb, "  // repeated %d times over the tile", p->reps[1]);
        sb_putc(&sb, '\n');
    }
    if (p->tile->dot_box)
        sb_puts(&sb, "// a bounding box: each value occupies the part of it its shape covers\n");
    Printer P = {a, f, p};
    ssa_print_noted(&sb, a, f, note_of, &P);
    return sb_str(&sb);
}
