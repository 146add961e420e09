/* Loop versioning at -O2 (DESIGN 13b): the analysis of a runtime `for`
 * loop whose body loads and stores, and the run-time test that chooses
 * between its two versions.
 *
 * In program order, a later iteration's load may read what an earlier one
 * stored (Triton keeps that order: a loop storing to Y = X + BLOCK and
 * loading X reads the values it stored), so the blocked backend emits such
 * a loop as it is written, and nvcc keeps each iteration's loads behind
 * the previous iteration's stores. Where every address of the loop is
 * base parameter + an offset whose range over the whole loop this file can
 * bound (sums, differences and products by a uniform value of aranges,
 * constants, uniform scalars and the loop index), the emitter
 * (emit_cuda_blocked.c's emit_loop) also emits a fast version: groups of
 * `unroll` iterations whose loads are all issued before the group's
 * stores. It runs when the bytes the loop stores and the bytes it loads,
 * over all its iterations and all the block's elements, are disjoint
 * intervals (masked-off elements included: conservative), a test computed
 * once before the loop from uniform values (the same in every thread);
 * otherwise, and for the iterations after the last whole group, the loop
 * runs as written.
 *
 * The intervals bound the exact values of the offsets (64-bit arithmetic,
 * no overflow by a static bound on their magnitudes). The generated code
 * computes an i32 offset in int; where it could leave the i32 range the
 * test also requires that it does not (mt_fits(lo, hi, 32)), so the
 * addresses the kernel uses are the ones bounded. */
#include <math.h>
#include <string.h>

#include "cgen/cgen.h"
#include "backends/cuda/cuda_blocked.h"
#include "layout/shape.h"

enum {
    VER_BUDGET = 64,    /* nodes visited per offset */
    VER_MAX_SPANS = 16, /* distinct load or store intervals */
    VER_MAX_PAIRS = 16, /* store x load comparisons in the test */
    VER_MAX_CHAIN = 8,  /* addptrs between a pointer and its parameter */
    VER_WORDS = 64      /* 32-bit registers a group's loads may hold per thread (on the
                         * H200 the layer norm's groups of 4, 96 registers of loads, ran
                         * 1.18x Triton, groups of 2 0.86x: docs/design.md 13b) */
};

/* e + k: e a C expression of type long long (NULL: 0). `sum`: e's top-level
 * operator is + or - (parenthesized where it is an operand); raw: e is
 * "(long long)raw", written raw after a long long left operand. */
typedef struct Bound {
    const char *e;
    long long k;
    int sum;
    const char *raw;
} Bound;

/* An interval [lo, hi] holding a value at every element and iteration;
 * mag bounds |value| (and every bound) statically; point: lo and hi are
 * the same value (a constant or a uniform scalar). */
typedef struct Span {
    Bound lo, hi;
    double mag;
    int point;
} Span;

/* A load or a store: its base parameter, element size and offsets. */
typedef struct Access {
    int base, bytes;
    const char *lo, *hi;
} Access;

typedef struct Ctx {
    CudaB *C;
    const Inst *loop;
    const char *in_body; /* by value: defined by an item of the body */
    int budget;
    const char *checks[2 * VER_MAX_SPANS];
    int nchecks;
    const char *last; /* the last iteration's index, where a span reads it */
} Ctx;

/* Every bound's evaluation stays below 2^63 (VER_MAG_LIMIT, with a margin
 * for the rounding of the magnitudes). The test requires, before mt_apart,
 * that an offset computed in int fits in 32 bits and a 64-bit one in
 * VER_WIDE_BITS (mt_fits), so that mt_apart's byte addresses do not
 * overflow either (user addresses are below 2^57). */
static const double VER_MAG_LIMIT = 9223363240761753600.0; /* 2^63 - 2^43 */
enum { VER_WIDE_BITS = 58 };

/* ---- Bounds as C expressions ------------------------------------------------ */

static const char *bound_str(Arena *a, Bound b) {
    if (!b.e) return arena_printf(a, "%lld", b.k);
    if (!b.k) return b.e;
    return arena_printf(a, "%s %c %lld", b.e, b.k < 0 ? '-' : '+', b.k < 0 ? -b.k : b.k);
}

/* The bound as an argument of a long long parameter (a lone scalar is
 * converted by the call). */
static const char *bound_arg(Arena *a, Bound b) { return b.raw && !b.k ? b.raw : bound_str(a, b); }

/* The bound as an operand of * or of a right-hand -. */
static const char *bound_operand(Arena *a, Bound b) {
    const char *s = bound_str(a, b);
    return (b.e && (b.k || b.sum)) ? arena_printf(a, "(%s)", s) : s;
}

static Bound b_leaf(const char *e) {
    Bound b = {e, 0, 0, NULL};
    return b;
}

/* A scalar of a narrower type, as long long. */
static Bound b_cast(Arena *a, const char *x) {
    Bound b = {arena_printf(a, "(long long)%s", x), 0, 0, x};
    return b;
}

static Bound b_const(long long k) {
    Bound b = {NULL, k, 0, NULL};
    return b;
}

/* x + y, or x - y when neg. */
static Bound b_add(Arena *a, Bound x, Bound y, int neg) {
    Bound r = {NULL, neg ? x.k - y.k : x.k + y.k, 0, NULL};
    Bound ye = {y.e, 0, y.sum, NULL};
    if (!y.e) {
        r.e = x.e, r.sum = x.sum, r.raw = x.raw;
    } else if (!x.e) {
        r.e = neg ? arena_printf(a, "-%s", bound_operand(a, ye)) : y.e;
        r.sum = neg ? 0 : y.sum;
        r.raw = neg ? NULL : y.raw;
    } else {
        const char *rhs = y.raw ? y.raw : neg ? bound_operand(a, ye) : y.e;
        r.e = arena_printf(a, "%s %c %s", x.e, neg ? '-' : '+', rhs);
        r.sum = 1;
    }
    return r;
}

static Bound b_scale(Arena *a, Bound x, long long c) {
    Bound r = {NULL, x.k * c, 0, NULL};
    Bound xe = {x.e, 0, x.sum, NULL};
    if (x.e && c == 1) r.e = x.e, r.sum = x.sum, r.raw = x.raw;
    else if (x.e && c != 0) r.e = arena_printf(a, "%lld * %s", c, bound_operand(a, xe));
    return r;
}

/* ---- Intervals --------------------------------------------------------------- */

static Span s_point(Bound b, double mag) {
    Span s = {b, b, mag, 1};
    return s;
}

static Span s_add(Arena *a, Span x, Span y, int neg) {
    Span r;
    r.lo = b_add(a, x.lo, neg ? y.hi : y.lo, neg);
    r.hi = b_add(a, x.hi, neg ? y.lo : y.hi, neg);
    r.mag = x.mag + y.mag;
    r.point = x.point && y.point;
    return r;
}

static Span s_scale(Arena *a, Span x, long long c) {
    Span r;
    r.lo = b_scale(a, c >= 0 ? x.lo : x.hi, c);
    r.hi = b_scale(a, c >= 0 ? x.hi : x.lo, c);
    r.mag = x.mag * fabs((double)c);
    r.point = x.point;
    return r;
}

/* p * x, p a runtime point. */
static Bound b_times(Arena *a, Bound p, Bound x) {
    if (!x.e) return b_scale(a, p, x.k);
    return b_leaf(arena_printf(a, "%s * %s", bound_operand(a, p), bound_operand(a, x)));
}

/* (p >= 0 ? p * x : p * y), p a runtime point. */
static Bound b_by_sign(Arena *a, Bound p, Bound x, Bound y) {
    const char *px = bound_str(a, b_times(a, p, x)), *py = bound_str(a, b_times(a, p, y));
    if (strcmp(px, py) == 0) return b_times(a, p, x);
    return b_leaf(arena_printf(a, "(%s >= 0 ? %s : %s)", bound_arg(a, p), px, py));
}

/* x * p, p a point; 0 when neither is a point. */
static int s_mul(Arena *a, Span x, Span p, Span *r) {
    if (!p.point) {
        if (!x.point) return 0;
        Span t = x;
        x = p, p = t;
    }
    if (!p.lo.e) {
        *r = s_scale(a, x, p.lo.k);
        return 1;
    }
    if (!x.lo.e && x.point) {
        *r = s_scale(a, p, x.lo.k);
        return 1;
    }
    if (x.point) {
        *r = s_point(b_times(a, p.lo, x.lo), x.mag * p.mag);
        return 1;
    }
    r->lo = b_by_sign(a, p.lo, x.lo, x.hi);
    r->hi = b_by_sign(a, p.lo, x.hi, x.lo);
    r->mag = x.mag * p.mag;
    r->point = 0;
    return 1;
}

/* ---- Offsets ------------------------------------------------------------------- */

static int signed_int(DType dt) {
    return dtype_is_int(dt) && dt != DT_BOOL && dtype_is_signed(dt) && dtype_info(dt)->bits >= 8;
}

static double int_mag(DType dt) { return ldexp(1.0, dtype_info(dt)->bits - 1); }

/* Requires at run time that the value's bounds fit in `bits` bits (where
 * its magnitude does not say so already): 32 for an offset computed in
 * int, VER_WIDE_BITS for a 64-bit one (mt_apart's bytes). */
static void need_fits(Ctx *X, const Span *s, int bits) {
    if (s->mag < ldexp(1.0, bits - 1)) return;
    Arena *a = X->C->a;
    const char *c =
        arena_printf(a, "mt_fits(%s, %s, %d)", bound_arg(a, s->lo), bound_arg(a, s->hi), bits);
    for (int i = 0; i < X->nchecks; i++)
        if (strcmp(X->checks[i], c) == 0) return;
    MT_ASSERT(X->nchecks < 2 * VER_MAX_SPANS);
    X->checks[X->nchecks++] = c;
}

/* A bound on |v| for a uniform scalar from before the loop: through
 * widening casts, sums and products down to program ids, parameters and
 * constants (a 64-bit row offset computed from i32 values). */
static double uniform_mag(const Function *f, Operand o, int depth) {
    Type t = operand_type(f, o);
    double most = signed_int((DType)t.dtype) ? int_mag((DType)t.dtype) : 0;
    if (o.kind == OPD_CONST) return fabs((double)o.c.i);
    if (o.kind != OPD_VALUE || depth > 8 || !most) return most;
    const Inst *d = f->defs[o.id];
    Op op = d ? d->op : OP_COUNT;
    double r = most;
    if (op == OP_PROGRAM_ID || op == OP_NUM_PROGRAMS) r = int_mag(DT_I32);
    if ((op == OP_CAST && signed_int((DType)operand_type(f, d->args[0]).dtype)) || op == OP_HINT)
        r = uniform_mag(f, d->args[0], depth + 1);
    if (op == OP_ADD || op == OP_SUB)
        r = uniform_mag(f, d->args[0], depth + 1) + uniform_mag(f, d->args[1], depth + 1);
    if (op == OP_MUL)
        r = uniform_mag(f, d->args[0], depth + 1) * uniform_mag(f, d->args[1], depth + 1);
    return r > 0 && r < most ? r : most;
}

static int span_of(Ctx *X, Operand o, Span *s);

static int span_value(Ctx *X, int v, Span *s) {
    CudaB *C = X->C;
    const Function *f = C->f;
    const Inst *def = f->defs[v];
    const Loop *l = X->loop->loop;
    Type t = f->types[v];
    if (!def || t.ptr || !signed_int((DType)t.dtype)) return 0;
    if (def == X->loop) {
        /* the index: from start to the last iteration's, start + (stop - 1
         * - start) / step * step for a constant step (a multiplication by
         * a constant), stop - 1 for a runtime one (no division) */
        if (v != l->index) return 0; /* a carried lane */
        Span r;
        r.lo = l->start.kind == OPD_CONST
                   ? b_const(l->start.c.i)
                   : b_cast(C->a, cb_elem(C, l->start, LAYOUT_UNIFORM, "0", "0"));
        Bound last = l->stop.kind == OPD_CONST
                         ? b_const(l->stop.c.i - 1)
                         : b_add(C->a, b_cast(C->a, cb_elem(C, l->stop, LAYOUT_UNIFORM, "0", "0")),
                                 b_const(1), 1);
        long long step = l->step.kind == OPD_CONST ? l->step.c.i : 1;
        if (step > 1) {
            Bound n = b_add(C->a, last, r.lo, 1);
            last = n.e ? b_add(C->a, r.lo,
                               b_leaf(arena_printf(C->a, "%s / %lld * %lld", bound_operand(C->a, n),
                                                   step, step)),
                               0)
                       : b_add(C->a, r.lo, b_const(n.k / step * step), 0);
        }
        if (last.e) {
            /* named: vI_last, declared before the test */
            X->last = bound_str(C->a, last);
            last = b_leaf(arena_printf(C->a, "v%d_last", v));
        }
        r.hi = last;
        r.mag = int_mag(DT_I32);
        r.point = 0;
        *s = r;
        return 1;
    }
    if (t.rank == 0 && !X->in_body[v]) {
        /* a uniform scalar from before the loop: its value */
        *s = s_point(b_cast(C->a, cb_elem(C, opd_value(v), LAYOUT_UNIFORM, "0", "0")),
                     uniform_mag(f, opd_value(v), 0));
        return 1;
    }
    /* the ops with a bound; any other (a new one too) has none */
    Span x, y;
    Op op = def->op;
    if (op == OP_ARANGE) {
        long long lo = def->attrs.start, hi = (long long)def->attrs.end - 1;
        s->lo = b_const(lo);
        s->hi = b_const(hi);
        s->mag = fabs((double)lo) > fabs((double)hi) ? fabs((double)lo) : fabs((double)hi);
        s->point = lo == hi;
        return 1;
    }
    if (op == OP_EXPAND_DIMS || op == OP_BROADCAST || op == OP_HINT)
        return span_of(X, def->args[0], s);
    if (op == OP_CAST) {
        /* a signed integer widened: the same value, computed in the
         * narrower type */
        DType from = (DType)operand_type(f, def->args[0]).dtype;
        if (!signed_int(from) || dtype_info(from)->bits > dtype_info((DType)t.dtype)->bits)
            return 0;
        if (!span_of(X, def->args[0], s)) return 0;
        if (dtype_info(from)->bits <= 32 && dtype_info((DType)t.dtype)->bits > 32)
            need_fits(X, s, 32);
        return 1;
    }
    if (op != OP_ADD && op != OP_SUB && op != OP_MUL) return 0;
    if (!span_of(X, def->args[0], &x) || !span_of(X, def->args[1], &y)) return 0;
    if (op == OP_MUL) return s_mul(C->a, x, y, s) && s->mag < VER_MAG_LIMIT;
    *s = s_add(C->a, x, y, op == OP_SUB);
    return s->mag < VER_MAG_LIMIT;
}

static int span_of(Ctx *X, Operand o, Span *s) {
    if (--X->budget < 0) return 0;
    switch (o.kind) {
    case OPD_CONST:
        if (!signed_int(o.c.dt)) return 0;
        *s = s_point(b_const(o.c.i), fabs((double)o.c.i));
        return 1;
    case OPD_PARAM: {
        Type t = X->C->f->params[o.id].type;
        if (t.ptr || t.rank || !signed_int((DType)t.dtype)) return 0;
        *s = s_point(b_cast(X->C->a, X->C->pnames[o.id]), int_mag((DType)t.dtype));
        return 1;
    }
    case OPD_NONE: return 0;
    case OPD_VALUE: return span_value(X, o.id, s);
    }
    return 0;
}

/* The elements a load or store touches over the whole loop: base
 * parameter + the sum of its addptr offsets, summed as cb_ptr_index
 * renders them (innermost first, in int while every offset so far is). */
static int access_of(Ctx *X, const Inst *in, Access *acc) {
    const Function *f = X->C->f;
    Operand offs[VER_MAX_CHAIN];
    int n = 0;
    Operand p = in->args[0];
    while (p.kind == OPD_VALUE) {
        const Inst *d = f->defs[p.id];
        if (!d || d->op != OP_ADDPTR || n == VER_MAX_CHAIN)
            return 0; /* a carried pointer, a select */
        offs[n++] = d->args[1];
        p = d->args[0];
    }
    if (p.kind != OPD_PARAM) return 0;
    Span total = s_point(b_const(0), 0);
    int have = 0, in_int = 1;
    for (int k = n - 1; k >= 0; k--) {
        Span s;
        X->budget = VER_BUDGET;
        if (!span_of(X, offs[k], &s)) return 0;
        int wide = dtype_info((DType)operand_type(f, offs[k]).dtype)->bits > 32;
        if (wide && in_int && have) need_fits(X, &total, 32);
        if (!wide && !in_int) need_fits(X, &s, 32);
        if (wide) in_int = 0;
        total = have ? s_add(X->C->a, total, s, 0) : s;
        have = 1;
        if (total.mag >= VER_MAG_LIMIT) return 0;
    }
    if (have && in_int) need_fits(X, &total, 32);
    if (have && !in_int) need_fits(X, &total, VER_WIDE_BITS);
    DType dt = (DType)operand_type(f, in->args[0]).dtype;
    acc->base = p.id;
    acc->bytes = dtype_info(dt)->bits <= 8 ? 1 : dtype_info(dt)->bits / 8;
    acc->lo = bound_arg(X->C->a, total.lo);
    acc->hi = bound_arg(X->C->a, total.hi);
    return 1;
}

/* Adds acc to list (distinct ones); 0 when the list is full. */
static int add_access(Access *list, int *n, Access acc) {
    for (int i = 0; i < *n; i++)
        if (list[i].base == acc.base && list[i].bytes == acc.bytes &&
            strcmp(list[i].lo, acc.lo) == 0 && strcmp(list[i].hi, acc.hi) == 0)
            return 1;
    if (*n == VER_MAX_SPANS) return 0;
    list[(*n)++] = acc;
    return 1;
}

/* ---- The body ------------------------------------------------------------------ */

static int is_lane(const Loop *l, int v) {
    for (int k = 0; k < l->ncarried; k++)
        if (l->args[k] == v) return 1;
    return 0;
}

/* Marks in `set` the body values operand o needs (through the defining
 * items of the body; through loads too unless stop_at_loads); 0 when it
 * needs a carried lane. */
static int need(const Function *f, const Loop *l, const char *in_body, char *set, Operand o,
                int stop_at_loads) {
    if (o.kind != OPD_VALUE) return 1;
    int v = o.id;
    if (is_lane(l, v)) return 0;
    if (!in_body[v] || set[v]) return 1;
    set[v] = 1;
    const Inst *d = f->defs[v];
    if (stop_at_loads && d->op == OP_LOAD) return 1;
    int ok = 1;
    for (int k = 0; k < d->nargs; k++) ok &= need(f, l, in_body, set, d->args[k], stop_at_loads);
    return ok;
}

static int reads(const Inst *in, int v) {
    for (int k = 0; k < in->nargs; k++)
        if (in->args[k].kind == OPD_VALUE && in->args[k].id == v) return 1;
    return 0;
}

/* Whether the items of a phase read the loop index: the loads and what
 * they need (phase 1), or the stores, what they and the yields need
 * except the loads, and the yields (phase 2). */
static int phase_reads_index(const Loop *l, const char *set, int loads) {
    for (int i = 0; i < l->body.items.len; i++) {
        const Inst *in = l->body.items.items[i];
        int in_phase =
            loads ? in->op == OP_LOAD || (in->result >= 0 && set[in->result])
                  : in->op == OP_STORE || (in->result >= 0 && in->op != OP_LOAD && set[in->result]);
        if (in_phase && reads(in, l->index)) return 1;
    }
    for (int k = 0; !loads && k < l->nyields; k++)
        if (l->yields[k].kind == OPD_VALUE && l->yields[k].id == l->index) return 1;
    return 0;
}

int cuda_version_plan(CudaB *C, const Inst *loop, CudaVersion *V) {
    const Function *f = C->f;
    const Loop *l = loop->loop;
    memset(V, 0, sizeof *V);
    if (loop->op != OP_FOR || l->unroll == 1) return 0;
    const Block *b = &l->body;
    int loads = 0, stores = 0, words = 0;
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        if (in->op == OP_LOAD) {
            loads++;
            DType ct = dtype_info((DType)in->type.dtype)->compute;
            words += cb_count(C, cb_layout(C, in->result)) * (dtype_info(ct)->bits > 32 ? 2 : 1);
        } else if (in->op == OP_STORE) {
            stores++;
            if (cb_store_staged(C, in)) return 0; /* a transpose through shared memory */
        } else if (!op_has(in->op, OPF_PURE) || op_has(in->op, OPF_REGION) ||
                   op_has(in->op, OPF_REDUCE) || op_has(in->op, OPF_SCAN) ||
                   shape_moves_elements(in->op)) {
            return 0; /* atomics, barriers, debug ops, reductions, exchanges, regions */
        }
    }
    if (!loads || !stores) return 0;
    /* tl.range's loop_unroll_factor, else 4 iterations (or 2) whose
     * loads fit in VER_WORDS registers */
    V->unroll = l->unroll > 1            ? l->unroll
                : 4 * words <= VER_WORDS ? 4
                : 2 * words <= VER_WORDS ? 2
                                         : 0;
    if (!V->unroll) return 0;

    char *in_body = ARENA_ARRAY(C->a, char, f->nvalues + 1);
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        if (in->result >= 0) in_body[in->result] = 1;
    }
    /* what the loads need (phase 1) must not depend on a carried lane; what
     * the stores and the yields need (phase 2) reads the loads' values */
    V->for_loads = ARENA_ARRAY(C->a, char, f->nvalues + 1);
    V->for_rest = ARENA_ARRAY(C->a, char, f->nvalues + 1);
    V->grouped = ARENA_ARRAY(C->a, char, f->nvalues + 1);
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        for (int k = 0; k < in->nargs; k++) {
            if (in->op == OP_LOAD && !need(f, l, in_body, V->for_loads, in->args[k], 0)) return 0;
            if (in->op == OP_STORE) need(f, l, in_body, V->for_rest, in->args[k], 1);
        }
    }
    for (int k = 0; k < l->nyields; k++) need(f, l, in_body, V->for_rest, l->yields[k], 1);
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        if (in->op == OP_LOAD && V->for_rest[in->result]) V->grouped[in->result] = 1;
    }

    /* the intervals */
    Ctx X;
    memset(&X, 0, sizeof X);
    X.C = C, X.loop = loop, X.in_body = in_body;
    Access ld[VER_MAX_SPANS], st[VER_MAX_SPANS];
    int nld = 0, nst = 0;
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        if (in->op != OP_LOAD && in->op != OP_STORE) continue;
        Access acc;
        if (!access_of(&X, in, &acc)) return 0;
        if (!add_access(in->op == OP_LOAD ? ld : st, in->op == OP_LOAD ? &nld : &nst, acc))
            return 0;
    }
    if (nld * nst > VER_MAX_PAIRS) return 0;
    StrBuf sb;
    sb_init(&sb, C->a);
    const char *sep = arena_printf(C->a, " &&\n%*s", (C->indent + 1) * 4, "");
    for (int i = 0; i < X.nchecks; i++) sb_printf(&sb, "%s%s", sb.len ? sep : "", X.checks[i]);
    for (int s = 0; s < nst; s++) {
        for (int k = 0; k < nld; k++) {
            /* the same elements of the same parameter: never apart */
            if (st[s].base == ld[k].base && strcmp(st[s].lo, ld[k].lo) == 0 &&
                strcmp(st[s].hi, ld[k].hi) == 0)
                return 0;
            sb_printf(&sb, "%smt_apart(%s, %s, %s, %d, %s, %s, %s, %d)", sb.len ? sep : "",
                      C->pnames[st[s].base], st[s].lo, st[s].hi, st[s].bytes, C->pnames[ld[k].base],
                      ld[k].lo, ld[k].hi, ld[k].bytes);
        }
    }
    V->test = sb_str(&sb);
    V->last = X.last;
    V->index_loads = phase_reads_index(l, V->for_loads, 1);
    V->index_rest = phase_reads_index(l, V->for_rest, 0);
    return 1;
}

const char *cuda_version_helpers(Arena *a, const char *code) {
    StrBuf sb;
    sb_init(&sb, a);
    if (strstr(code, "mt_apart(")) {
        sb_puts(
            &sb,
            "#ifndef MYTRITON_HELPER_apart\n#define MYTRITON_HELPER_apart\n"
            "// loop versioning: whether elements lo0..hi0 of p (s0 bytes each) and lo1..hi1 of q\n"
            "// (s1 bytes each) share no byte\n"
            "static __device__ __forceinline__ bool mt_apart(const void *p, long long lo0, long "
            "long hi0, int s0,\n"
            "                                                const void *q, long long lo1, long "
            "long hi1, int s1) {\n"
            "    const long long a = (long long)(uintptr_t)p, b = (long long)(uintptr_t)q;\n"
            "    return a + (hi0 + 1) * s0 <= b + lo1 * s1 || b + (hi1 + 1) * s1 <= a + lo0 * s0;\n"
            "}\n#endif\n");
    }
    if (strstr(code, "mt_fits(")) {
        sb_puts(
            &sb,
            "#ifndef MYTRITON_HELPER_fits\n#define MYTRITON_HELPER_fits\n"
            "// loop versioning: whether lo..hi fit in a signed integer of `bits` bits\n"
            "static __device__ __forceinline__ bool mt_fits(long long lo, long long hi, int bits) "
            "{\n"
            "    return lo >= -(1LL << (bits - 1)) && hi < (1LL << (bits - 1));\n"
            "}\n#endif\n");
    }
    if (sb.len) sb_putc(&sb, '\n');
    return sb_str(&sb);
}
