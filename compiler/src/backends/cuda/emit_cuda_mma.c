/* The -O2 CUDA path of a tl.dot kernel with large tiles (docs/dot.md,
 * "Large tiles"): a kernel whose work is one tl.dot in a runtime loop.
 *
 * Shape of the kernels it takes (general rules over the IR, checked by
 * mma_match): at the top level, pure ops, one `for` and, after it, pure
 * ops, loads and stores. The loop's carried values are the accumulator, a
 * (BM, BN) f32 (int8 operands: int32) block that only the dot
 * (`acc = dot(a, b, acc)`, or `acc + dot(a, b)` with a zero accumulator)
 * reads, and pointer blocks advanced by a loop-invariant offset
 * (`a_ptrs += BLOCK_K * stride_ak`). The dot's operands are loads in the
 * loop of f16, bf16, f32 (input_precision tf32, tf32x3) or int8 (BM, BK) and
 * (BK, BN) blocks (the dtypes: mma_shapes), their addresses, masks and
 * `other` pure functions of the loop index, the carried pointers and
 * values from before the loop. BM and BN multiples of 16 per warp (TF32,
 * int8: BN of 32), BK a multiple of 16 and of the instruction's k. Every
 * other dot kernel goes through emit_cuda.c as before.
 *
 * The generated kernel (32 * num_warps threads): the warps tile the
 * accumulator (WM x WN warps, each a (BM/WM, BN/WN) sub-tile held in
 * mma.sync fragment registers for the whole loop); each iteration's
 * operand blocks are copied by all threads, 16-byte groups (8 f16, 4 f32,
 * 16 int8) along a block's rows, into shared memory with padded rows
 * (mma_pads: conflict-free fragment reads):
 * a group whose 8 addresses are consecutive, aligned and unmasked is one
 * cp.async, any other group element-wise loads with the mask and `other`.
 * The copies run num_stages - 1 iterations ahead in a ring of num_stages
 * buffers (cp.async.commit_group / wait_group). Fragments come from
 * ldmatrix (A) and ldmatrix.trans (B of f16 / bf16; TF32 and int8: vector
 * loads with the warp's columns permuted, emit_compute_perm). The ops
 * after the loop are
 * computed per element of the fragment layout (rows g and g + 8, columns
 * 2t and 2t + 1 of each 16 x 8 block) and stored from it.
 *
 * Addresses and masks are not values held in registers: as in
 * emit_cuda_fma.c, each is regenerated for any (row, column) of its block
 * from its definition (aranges, program ids, parameters, arithmetic), the
 * scalars before the loop computed once at kernel entry. Below sm_80 (and
 * in the host pass) the kernel computes the same fragment elements with
 * CUDA-core loops over global memory. On sm_90a, a tile that fits wgmma
 * has another body (emit_cuda_wgmma.c) using this file's copies, init and
 * epilogue with its own fragment layout (cuda_mma.h). */
#include <string.h>

#include "cgen/asm.h"
#include "backends/cuda/cuda_mma.h"
#include "backends/cuda/cuda_mma_dtypes.h"
#include "backends/cuda/cuda_regen.h"
#include "layout/layout.h"

static const Inst *def_of(const Function *f, Operand o) {
    return o.kind == OPD_VALUE ? f->defs[o.id] : NULL;
}

static int is_value(Operand o, int id) { return o.kind == OPD_VALUE && o.id == id; }

/* An early exit: a top-level `if` that ends the kernel, has no results,
 * and one of whose branches is empty (`if pid_m * BM >= m: return` lowers
 * to `if c {} else {rest}`). The kernel runs the other branch (*top) where
 * the condition is *when, and nothing elsewhere. NULL: none. */
static const Inst *guard_of(const Function *f, const Block **top, int *when) {
    int n = f->body.items.len;
    const Inst *g = n ? f->body.items.items[n - 1] : NULL;
    if (!g || g->op != OP_IF || g->loop->nresults) return NULL;
    const Loop *l = g->loop;
    int then_empty = l->body.items.len == 0, else_empty = l->orelse.items.len == 0;
    if (then_empty == else_empty) return NULL;
    if (top) *top = then_empty ? &l->orelse : &l->body;
    if (when) *when = else_empty;
    return g;
}

/* The one region op of block b (NULL: none or several). */
static const Inst *only_region(const Block *b) {
    const Inst *r = NULL;
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        if (!in->loop) continue;
        if (r) return NULL;
        r = in;
    }
    return r;
}

/* The loops around the K loop (MmaPlan.levels): from the top level down,
 * each the one region op of its block, a `for` or a `while` whose body
 * holds a region op in turn (the innermost such body holds the K loop). */
static int levels_of(const Function *f, const Inst **levels) {
    int n = 0;
    const Block *b = &f->body;
    for (const Inst *r = only_region(b); r && (r->op == OP_FOR || r->op == OP_WHILE);
         r = only_region(b)) {
        if (!only_region(&r->loop->body)) break;
        if (n == MMA_MAX_LEVELS) return 0;
        levels[n++] = r;
        b = &r->loop->body;
    }
    return n;
}

/* The level whose body (or, *cond, whose `while` condition) holds `d`:
 * 0.. nlevels - 1; -1: the top level or none. */
static int level_of(const Function *f, const Inst *d, int *cond) {
    const Inst *levels[MMA_MAX_LEVELS];
    int n = levels_of(f, levels);
    if (cond) *cond = 0;
    for (int k = 0; k < n; k++) {
        if (ssa_block_holds(&levels[k]->loop->body, d)) return k;
        if (levels[k]->op == OP_WHILE && ssa_block_holds(&levels[k]->loop->before, d)) {
            if (cond) *cond = 1;
            return k;
        }
    }
    return -1;
}

/* The block holding the kernel's work: the top level, the branch an early
 * exit leaves, or the innermost body of the loops around the K loop. */
static const Block *top_block(const Function *f) {
    const Block *top = &f->body;
    const Inst *levels[MMA_MAX_LEVELS];
    int n = levels_of(f, levels);
    if (n) return &levels[n - 1]->loop->body;
    guard_of(f, &top, NULL);
    return top;
}

/* Whether `d` is of the top level (or of the branch an early exit leaves,
 * or of a level's body or condition): its scalars are computed once there. */
static int at_top(const Function *f, const Inst *d) {
    return d && (ssa_block_holds(&f->body, d) || ssa_block_holds(top_block(f), d) ||
                 level_of(f, d, NULL) >= 0);
}

/* The level whose lane, index or result value v is (-1: none); *k: the lane
 * (-1: the index). */
static int level_value(const Function *f, int v, int *k) {
    const Inst *levels[MMA_MAX_LEVELS];
    int n = levels_of(f, levels);
    for (int d = 0; d < n; d++) {
        const Loop *l = levels[d]->loop;
        if (l->index == v) {
            *k = -1;
            return d;
        }
        for (int j = 0; j < l->ncarried; j++)
            if (l->args[j] == v || l->results[j] == v) {
                *k = j;
                return d;
            }
    }
    return -1;
}

/* A top-level scalar that kernel entry computes once and no regeneration
 * renders: a load (mma_match: before any store), an address cast to a
 * pointer. */
static int entry_scalar(const Function *f, const Inst *d) {
    return d && d->type.rank == 0 && (d->op == OP_LOAD || d->op == OP_INT_TO_PTR) && at_top(f, d);
}

static int lane_of_arg(const Loop *l, int id) {
    for (int i = 0; i < l->ncarried; i++)
        if (l->args[i] == id) return i;
    return -1;
}

/* How carried lane i of loop l advances each iteration: a pointer by an
 * addptr of it, an integer scalar (a block pointer's offset, fe_blockptr.c)
 * by an add to it; *step the offset added. 0 for any other lane. (Lanes
 * yielded unchanged, a block pointer's offsets a loop never advances, are
 * gone before: lanes.c.) */
static int lane_step(const Function *f, const Loop *l, int i, Operand *step) {
    int arg = l->args[i];
    Type t = f->types[arg];
    const Inst *y = def_of(f, l->yields[i]);
    if (!y) return 0;
    if (t.ptr && y->op == OP_ADDPTR && is_value(y->args[0], arg)) {
        *step = y->args[1];
        return 1;
    }
    if (!t.ptr && t.rank == 0 && dtype_is_int((DType)t.dtype) && y->op == OP_ADD)
        for (int k = 0; k < 2; k++)
            if (is_value(y->args[k], arg) && !is_value(y->args[1 - k], arg)) {
                *step = y->args[1 - k];
                return 1;
            }
    return 0;
}

/* Whether operand o renders for any coordinates: constants, parameters,
 * the loop index, carried pointers (not the accumulator), pure
 * regenerable ops; `epi` values (the acc result and what is computed from
 * it) are per-element statements of the epilogue. */
static int renderable(const Function *f, const MmaPlan *P, const char *epi, Operand o, int depth) {
    if (depth > MMA_MAX_DEPTH) return 0;
    if (o.kind != OPD_VALUE) return 1;
    const Loop *l = P->loop->loop;
    if (o.id == l->index) return 1;
    int lk;
    if (level_value(f, o.id, &lk) >= 0) return 1;
    if (epi && epi[o.id]) return 1;
    int lane = lane_of_arg(l, o.id);
    if (lane >= 0) {
        /* a carried pointer or offset: its init and step (lane_step) */
        Operand step;
        return lane != P->acc_lane && lane_step(f, l, lane, &step) &&
               renderable(f, P, epi, l->inits[lane], depth + 1) &&
               renderable(f, P, epi, step, depth + 1);
    }
    const Inst *d = f->defs[o.id];
    if (!d) return 0;
    /* a scalar of the top level that is no regenerable op: loaded, or an
     * address cast to a pointer, once at kernel entry */
    int entry = entry_scalar(f, d);
    if (!entry && !op_regenerable(d->op)) return 0;
    for (int k = 0; k < d->nargs; k++)
        if (!renderable(f, P, epi, d->args[k], depth + 1)) return 0;
    return 1;
}

/* The values of a level's block (its body, or a `while`'s condition):
 * regenerable ops (blocks too, as LICM hoists index blocks: regenerated
 * where they are used), scalar addresses cast to pointers, and scalar
 * loads before the nested region (each iteration reads them at its start). */
static int level_block_ok(const Block *b) {
    int past = 0;
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        if (in->loop) {
            past = 1;
            continue;
        }
        if (in->result < 0) return 0;
        if (op_regenerable(in->op)) continue;
        if (in->type.rank || (in->op == OP_LOAD ? past : in->op != OP_INT_TO_PTR)) return 0;
    }
    return 1;
}

/* The loops around the K loop, run as C loops around the path's body: a
 * `for` of a constant positive step or a `while`, carried scalars only,
 * bounds, conditions and yields computed from scalars. */
static int levels_ok(const Function *f, const MmaPlan *P, const Inst *const *levels, int n) {
    for (int d = 0; d < n; d++) {
        const Loop *o = levels[d]->loop;
        /* (the innermost body holds the K loop: mma_match's own scan) */
        int inner = d == n - 1;
        if (o->ncarried != o->nyields || o->ncarried != o->nresults) return 0;
        if (!inner && !level_block_ok(&o->body)) return 0;
        if (levels[d]->op == OP_FOR) {
            if (o->index < 0 || o->step.kind != OPD_CONST || o->step.c.i <= 0) return 0;
            if (!renderable(f, P, NULL, o->start, 0) || !renderable(f, P, NULL, o->stop, 0))
                return 0;
        } else if (!level_block_ok(&o->before) || !renderable(f, P, NULL, o->cond, 0)) {
            return 0;
        }
        for (int k = 0; k < o->ncarried; k++) {
            Type t = f->types[o->args[k]];
            if (t.rank || t.ptr || !renderable(f, P, NULL, o->inits[k], 0) ||
                !renderable(f, P, NULL, o->yields[k], 0))
                return 0;
        }
        for (int i = 0; i < o->body.items.len && !inner; i++) {
            const Inst *in = o->body.items.items[i];
            if (!in->loop &&
                !renderable(f, P, NULL, (Operand){.kind = OPD_VALUE, .id = in->result}, 0))
                return 0;
        }
    }
    return 1;
}

static int is_zero_block(const Function *f, Operand o) {
    const Inst *d = def_of(f, o);
    if (!d) return 0;
    if (d->op == OP_ZEROS) return 1;
    return d->op == OP_FULL && d->args[0].kind == OPD_CONST && d->args[0].c.i == 0 &&
           d->args[0].c.f == 0;
}

/* The warp grid: wm * wn == warps, each warp's sub-tile a multiple of
 * 16 x 16 (16 x 32 when B's columns are permuted in groups of 32), as
 * square as possible. */
static int warp_grid(MmaPlan *P, int warps) {
    int best = -1, cols = P->shape->ldsm_b || P->shape->cuda_core || P->bt ? 16 : 32;
    for (int wm = 1; wm <= warps; wm *= 2) {
        int wn = warps / wm;
        if (P->BM % (16 * wm) || P->BN % (cols * wn)) continue;
        int tm = P->BM / wm, tn = P->BN / wn, d = tm > tn ? tm - tn : tn - tm;
        if (best < 0 || d < best) {
            best = d;
            P->wm = wm;
            P->wn = wn;
        }
    }
    return best >= 0;
}

/* The stage buffers' rows, padded: A's by 16 bytes (ldmatrix reads 8 rows
 * of 16 bytes: distinct banks); B's by 16 bytes for ldmatrix.trans, else
 * to a row length of 8 (mod 16) 4-byte words, so that the vector loads of
 * B's fragments (lanes (g, t): row t, word 4g of the group) fall in
 * distinct banks. */
static void mma_pads(MmaPlan *P) {
    int eb = dtype_info(P->in_dt)->bits / 8;
    P->lda = P->BK + 16 / eb;
    if (P->bt) { /* B transposed: A's layout, ldmatrix (not .trans) */
        P->ldb = P->BK + 16 / eb;
        return;
    }
    if (P->shape->ldsm_b) {
        P->ldb = P->BN + MMA_PAD;
        return;
    }
    int words = P->BN * eb / 4;
    P->ldb = P->BN + (8 - words % 16 + 16) % 16 * 4 / eb;
}

/* The base of a pointer operand: a pointer parameter p (p < nparams), or
 * a top-level scalar v that int_to_ptr made (nparams + v); else -1. */
static int pointer_param(const Function *f, const Loop *l, Operand o);

/* The constant step of an integer value (a pointer: its element index)
 * from one row of its block to the next and from one column to the next
 * (render's coordinates; axis as render's), STEP_ANY where not known:
 * what says that an operand is contiguous along its rows or its columns.
 * A value is constant along a dimension of extent 1 and along the
 * dimension that a rank-1 value does not run along; arithmetic is taken
 * not to wrap. */
enum { STEP_ANY = -(1 << 30) };
typedef struct Step {
    int r, c;
} Step;

/* A step from a product or sum of steps: STEP_ANY where an operand is,
 * or beyond +-2^20 (so that no chain of them overflows an int). */
static int step_clamp(long long v) { return v > (1 << 20) || v < -(1 << 20) ? STEP_ANY : (int)v; }

static int step_add(int x, int y, int sign) {
    return x == STEP_ANY || y == STEP_ANY ? STEP_ANY
                                          : step_clamp((long long)x + sign * (long long)y);
}

static int step_mul(int x, long long m) { return x == STEP_ANY ? STEP_ANY : step_clamp(x * m); }

static Step step_of(const Function *f, const Loop *l, Operand o, int axis, int depth) {
    const Step any = {STEP_ANY, STEP_ANY}, zero = {0, 0};
    if (depth > MMA_MAX_DEPTH) return any;
    if (o.kind != OPD_VALUE) return zero;
    Type t = f->types[o.id];
    if (o.id == l->index || t.rank == 0) return zero;
    axis = cuda_regen_value_axis(t, axis);
    Step r = any;
    const Inst *d = f->defs[o.id];
    int lane = lane_of_arg(l, o.id);
    if (lane >= 0) {
        /* a carried pointer: its init, advanced by the same offset everywhere */
        Operand step;
        if (t.ptr && lane_step(f, l, lane, &step)) {
            Step i = step_of(f, l, l->inits[lane], axis, depth + 1),
                 s = step_of(f, l, step, axis, depth + 1);
            r.r = s.r == 0 ? i.r : STEP_ANY;
            r.c = s.c == 0 ? i.c : STEP_ANY;
        }
    } else if (d) {
        switch (d->op) {
        case OP_ARANGE:
            if (axis == 0) r = (Step){1, 0};
            else if (axis == 1) r = (Step){0, 1};
            break;
        case OP_ZEROS:
        case OP_FULL: r = zero; break;
        case OP_HINT:
        case OP_CAST:
        case OP_EXPAND_DIMS:
        case OP_BROADCAST:
            if (d->op != OP_CAST || (dtype_is_int((DType)t.dtype) &&
                                     dtype_is_int((DType)operand_type(f, d->args[0]).dtype)))
                r = step_of(f, l, d->args[0], cuda_regen_arg_axis(f, d, axis), depth + 1);
            break;
        case OP_ADD:
        case OP_SUB:
        case OP_ADDPTR: {
            Step x = step_of(f, l, d->args[0], axis, depth + 1),
                 y = step_of(f, l, d->args[1], axis, depth + 1);
            int sign = d->op == OP_SUB ? -1 : 1;
            r = (Step){step_add(x.r, y.r, sign), step_add(x.c, y.c, sign)};
            break;
        }
        case OP_MUL: {
            Step x = step_of(f, l, d->args[0], axis, depth + 1),
                 y = step_of(f, l, d->args[1], axis, depth + 1);
            for (int k = 0; k < 2; k++) {
                Operand c = d->args[k];
                if (c.kind == OPD_CONST && dtype_is_int(c.c.dt)) {
                    Step v = k ? x : y;
                    long long m = c.c.i;
                    if (m > -(1 << 20) && m < (1 << 20))
                        r = (Step){step_mul(v.r, m), step_mul(v.c, m)};
                    break;
                }
            }
            if (d->args[0].kind != OPD_CONST && d->args[1].kind != OPD_CONST) {
                /* (uniform) x (uniform) along an axis stays uniform */
                r.r = x.r == 0 && y.r == 0 ? 0 : STEP_ANY;
                r.c = x.c == 0 && y.c == 0 ? 0 : STEP_ANY;
            }
            break;
        }
        default: break;
        }
    }
    if (t.rank == 2 ? t.dims[0] == 1 : axis == 1) r.r = 0;
    if (t.rank == 2 ? t.dims[1] == 1 : axis == 0) r.c = 0;
    return r;
}

/* The K loop's body: one dot, its accumulator's lane (the dot's, or an
 * add of it), the other lanes' invariant steps, the operands' loads and
 * the instruction shape. */
static int match_dot(const Function *f, MmaPlan *P) {
    const Loop *l = P->loop->loop;
    /* the dot: the only one, in the loop body */
    const Inst *dot = NULL;
    for (int i = 0; i < l->body.items.len; i++) {
        const Inst *in = l->body.items.items[i];
        if (in->op == OP_DOT) {
            if (dot) return 0;
            dot = in;
        } else if (in->loop || (in->op != OP_LOAD && !op_regenerable(in->op))) {
            return 0;
        }
    }
    if (!dot || dot->attrs.axis > 1) return 0; /* (the batched form: not this path) */
    P->dot = dot;
    /* the accumulator's lane */
    P->acc_lane = -1;
    for (int i = 0; i < l->ncarried; i++) {
        const Inst *y = def_of(f, l->yields[i]);
        if (y == dot && is_value(dot->args[2], l->args[i])) P->acc_lane = i;
        else if (y && y->op == OP_ADD && ssa_block_holds(&l->body, y)) {
            int side = is_value(y->args[0], l->args[i])   ? 0
                       : is_value(y->args[1], l->args[i]) ? 1
                                                          : -1;
            if (side >= 0 && def_of(f, y->args[1 - side]) == dot &&
                is_zero_block(f, dot->args[2])) {
                P->acc_lane = i;
                P->add = y;
            }
        }
    }
    if (P->acc_lane < 0) return 0;
    int acc = l->args[P->acc_lane];
    Type at = f->types[acc];
    if (at.ptr || at.rank != 2) return 0;
    P->BM = at.dims[0];
    P->BN = at.dims[1];
    /* (cuda_regen_uses counts the body's items: the yield is the loop's own) */
    if (cuda_regen_uses(&l->body, acc) != 1 ||
        cuda_regen_uses(&l->body, dot->result) != (P->add != NULL))
        return 0;
    if (P->add && cuda_regen_uses(&l->body, P->add->result)) return 0;
    /* the other lanes: pointers (block pointers' integer offsets) advanced
     * by an invariant offset, unused after the loop */
    for (int i = 0; i < l->ncarried; i++) {
        if (i == P->acc_lane) continue;
        Operand step;
        if (!lane_step(f, l, i, &step)) return 0;
        const Inst *dd = def_of(f, step);
        if (dd && ssa_block_holds(&l->body, dd)) return 0;
        if (cuda_regen_uses(&f->body, l->results[i])) return 0;
    }
    /* the operands: loads in the body, used only by the dot */
    for (int k = 0; k < 2; k++) {
        const Inst *ld = def_of(f, dot->args[k]);
        if (!ld || ld->op != OP_LOAD || !ssa_block_holds(&l->body, ld)) return 0;
        if (cuda_regen_uses(&l->body, ld->result) != 1) return 0;
        P->ld[k] = ld;
    }
    Type ta = P->ld[0]->type, tb = P->ld[1]->type;
    if (ta.rank != 2 || tb.rank != 2 || ta.dtype != tb.dtype) return 0;
    P->shape = cuda_mma_shape((DType)ta.dtype, (DType)at.dtype, dot->attrs.flag);
    if (!P->shape) return 0;
    P->in_dt = (DType)ta.dtype;
    P->BK = ta.dims[1];
    if (ta.dims[0] != P->BM || tb.dims[0] != P->BK || tb.dims[1] != P->BN) return 0;
    if (P->BK % 16 || P->BM % 16 || P->BN % 16 || P->BK % P->shape->k) return 0;
    /* B contiguous along k and not along n (column-major, `stride_bk: 1`):
     * staged transposed (k-major), so that its copies are cp.async groups
     * along k; not for tf32x3 and ieee (their B reads are n-major) */
    Step bs = step_of(f, l, P->ld[1]->args[0], -1, 0);
    P->bt = bs.r == 1 && bs.c != 1 && !P->shape->split && !P->shape->cuda_core;
    /* every other load in the body would be a second memory read: none */
    for (int i = 0; i < l->body.items.len; i++) {
        const Inst *in = l->body.items.items[i];
        if (in->op == OP_LOAD && in != P->ld[0] && in != P->ld[1]) return 0;
    }
    return 1;
}

/* The operands' addresses (of a pointer parameter), masks and `other`,
 * the accumulator's init and the loop's bounds: renderable. */
static int match_operands(const Function *f, MmaPlan *P) {
    const Loop *l = P->loop->loop;
    for (int k = 0; k < 2; k++)
        if (pointer_param(f, l, P->ld[k]->args[0]) < 0) return 0;
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < 3; j++)
            if (!renderable(f, P, NULL, P->ld[k]->args[j], 0)) return 0;
    if (!renderable(f, P, NULL, l->inits[P->acc_lane], 0)) return 0;
    if (!renderable(f, P, NULL, l->start, 0) || !renderable(f, P, NULL, l->stop, 0)) return 0;
    return 1;
}

/* After the loop: the accumulator's result and what depends on it
 * (elementwise ops and loads of (BM, BN) shape), stores of it. */
static int match_epilogue(Arena *a, const Function *f, MmaPlan *P) {
    const Inst *loop = P->loop;
    const Loop *l = loop->loop;
    const Block *top = top_block(f);
    char *epi = ARENA_ARRAY(a, char, f->nvalues + 1);
    P->epi = epi;
    epi[l->results[P->acc_lane]] = 1;
    int ok = 1, past = 0;
    for (int i = 0; i < top->items.len && ok; i++) {
        const Inst *in = top->items.items[i];
        if (in == loop) past = 1;
        if (!past || in == loop) continue;
        if ((in->op == OP_STORE || in->op == OP_LOAD) && pointer_param(f, l, in->args[0]) < 0)
            return 0;
        if (in->op == OP_LOAD && in->type.rank == 0) continue; /* (an entry scalar) */
        if (in->op == OP_STORE) {
            Type t = operand_type(f, in->args[0]);
            for (int k = 0; k < 3; k++) ok &= renderable(f, P, epi, in->args[k], 0);
            ok &= t.rank == 2 && t.dims[0] == P->BM && t.dims[1] == P->BN;
            continue;
        }
        int dep = in->op == OP_LOAD;
        for (int k = 0; k < in->nargs; k++)
            dep |= in->args[k].kind == OPD_VALUE && epi[in->args[k].id];
        if (!dep) continue;
        /* a per-element value of the fragment layout: (BM, BN), or broadcast to it */
        Type t = in->type;
        ok &= t.rank == 2 && !t.ptr && (t.dims[0] == P->BM || t.dims[0] == 1) &&
              (t.dims[1] == P->BN || t.dims[1] == 1);
        for (int k = 0; k < in->nargs; k++) ok &= renderable(f, P, epi, in->args[k], 0);
        epi[in->result] = 1;
    }
    if (!ok) return 0;
    return 1;
}

/* Warps, stages, shared memory; the sm_90a branch where the tile fits
 * wgmma's rules (emit_cuda_wgmma.c). */
static int match_resources(MmaPlan *P, int num_warps, int num_stages) {
    const Loop *l = P->loop->loop;
    int warps = num_warps > 0 ? num_warps : 4;
    while (warps > 1 && (P->BM / 16) * (P->BN / 16) < warps) warps /= 2;
    if (!warp_grid(P, warps)) return 0;
    /* tf32x3: the stage's sums of small products double the accumulator's
     * registers; a warp tile over 2048 elements sums each k-step apart */
    P->split_kstep = P->shape->split && (P->BM / P->wm) * (P->BN / P->wn) > 2048;
    P->warps = warps;
    mma_pads(P);
    int stage = (P->BM * P->lda + mma_stage_rows(P, 1) * P->ldb) * (dtype_info(P->in_dt)->bits / 8);
    int asked = num_stages > 0 ? num_stages : l->num_stages > 0 ? l->num_stages : 3;
    int stages = asked;
    while (stages > 1 && stage * stages > MMA_MAX_SMEM) stages--;
    if (stage * stages > MMA_MAX_SMEM) return 0;
    P->stages = stages;
    P->smem = stage * stages;
    /* the sm_90a branch where the tile fits wgmma's rules (emit_cuda_wgmma.c) */
    wgmma_plan(P, asked);
    P->smem_sm90 = P->wg.on && P->wg.smem > P->smem ? P->wg.smem : P->smem;
    P->threads_sm90 = P->wg.on ? P->wg.threads : 32 * P->warps;
    return 1;
}

static int mma_match(Arena *a, const Function *f, int num_warps, int num_stages, MmaPlan *P) {
    memset(P, 0, sizeof *P);
    const Inst *loop = NULL;
    int after = 0, stored = 0;
    /* the top level, then the branch an early exit leaves (its condition:
     * a scalar of the top level) */
    const Block *top = top_block(f);
    const Inst *guard = guard_of(f, NULL, NULL);
    int nlevels = levels_of(f, P->levels);
    /* (with loops around the K loop, the top level's items are scalars:
     * levels_ok checks them with the levels' own) */
    int ntop = nlevels ? 0 : f->body.items.len - (guard != NULL);
    if (nlevels && !level_block_ok(&f->body)) return 0;
    for (int i = 0; i < ntop + (guard || nlevels ? top->items.len : 0); i++) {
        const Inst *in = i < ntop ? f->body.items.items[i] : top->items.items[i - ntop];
        if (in->op == OP_FOR) {
            if (loop) return 0;
            loop = in;
            after = 1;
            continue;
        }
        if (in->loop) return 0;
        if (in->op == OP_STORE) stored = 1;
        /* a scalar read (a scale, a size, an address from a table):
         * loaded once at kernel entry, so no store before it */
        if (in->op == OP_LOAD && in->type.rank == 0) {
            if (stored || pointer_param(f, NULL, in->args[0]) < 0) return 0;
            continue;
        }
        if (in->op == OP_LOAD || in->op == OP_STORE) {
            if (!after) return 0;
            continue;
        }
        if (in->op == OP_INT_TO_PTR && in->type.rank == 0) continue;
        if (!op_regenerable(in->op)) return 0;
    }
    if (!loop) return 0;
    const Loop *l = loop->loop;
    P->loop = loop;
    if (l->step.kind != OPD_CONST || l->step.c.i <= 0) return 0;
    if (guard && !renderable(f, P, NULL, guard->loop->cond, 0)) return 0;
    if (nlevels && !levels_ok(f, P, P->levels, nlevels)) return 0;
    P->nlevels = nlevels;
    P->outer = nlevels ? P->levels[0] : NULL;
    if (l->ncarried != l->nyields || l->ncarried != l->nresults) return 0;
    return match_dot(f, P) && match_operands(f, P) && match_epilogue(a, f, P) &&
           match_resources(P, num_warps, num_stages);
}

const MmaPlan *cuda_mma_plan(Arena *a, const Function *f, int num_warps, int num_stages,
                             TileInfo *t) {
    MmaPlan *P = ARENA_NEW(a, MmaPlan);
    if (!mma_match(a, f, num_warps, num_stages, P)) return NULL;
    t->block_threads = 32 * P->warps;
    t->block_threads_sm90 = P->threads_sm90;
    t->dyn_smem = P->smem;
    t->dyn_smem_sm90 = P->smem_sm90;
    return P;
}

/* A ring of the plan in the layout stage's terms. */
static LayoutRing mma_ring(const MmaPlan *P, int k, int swizzle, int buffers) {
    LayoutRing r = {.name = k ? "b" : "a",
                    .value = P->ld[k]->result,
                    .rows = mma_stage_rows(P, k),
                    .cols = mma_stage_cols(P, k),
                    .row_len = swizzle ? 0
                               : k     ? P->ldb
                                       : P->lda,
                    .swizzle = swizzle,
                    .buffers = buffers};
    if (swizzle && k && !P->bt) { /* wgmma's B: (BK, BN) as loaded */
        r.rows = P->BK;
        r.cols = P->BN;
    }
    return r;
}

const LayoutTc *cuda_mma_layout(Arena *a, const Function *f, const MmaPlan *P) {
    LayoutTc *tc = ARENA_NEW(a, LayoutTc);
    const Loop *l = P->loop->loop;
    tc->what = arena_printf(a, "a (%d, %d) x (%d, %d) %s dot per iteration of the loop at %%%d",
                            P->BM, P->BK, P->BK, P->BN, P->shape->split ? "tf32x3" : P->shape->name,
                            l->results[0]);
    tc->bits = dtype_info(P->in_dt)->bits;
    tc->BM = P->BM;
    tc->acc_cols[0] = P->BN;
    tc->enc = layout_tc_encodings(a, f);
    for (int k = 0; k < 2; k++) tc->enc[P->ld[k]->result] = TC_STAGED;
    tc->enc[P->dot->result] = TC_ACC;
    tc->enc[l->args[P->acc_lane]] = TC_ACC;
    if (P->add) tc->enc[P->add->result] = TC_ACC;
    /* the epilogue: the accumulator's shape, or a row or a column of it */
    for (int v = 0; v < f->nvalues; v++) {
        if (!P->epi[v]) continue;
        Type t = f->types[v];
        tc->enc[v] = t.dims[1] == 1 && P->BN > 1   ? TC_ACC_ROWS
                     : t.dims[0] == 1 && P->BM > 1 ? TC_ACC_COLS
                                                   : TC_ACC;
    }
    LayoutMmaBody *b = &tc->body[0];
    *b = (LayoutMmaBody){.version = 2,
                         .threads = 32 * P->warps,
                         .wm = P->wm,
                         .wn = P->wn,
                         .inst_m = 16,
                         .inst_n = 8,
                         .inst_k = P->shape->k,
                         .nrings = 2,
                         .smem = P->smem};
    for (int k = 0; k < 2; k++) b->ring[k] = mma_ring(P, k, 0, P->stages);
    tc->nbodies = 1;
    if (P->wg.on) {
        const WgmmaPlan *W = &P->wg;
        b = &tc->body[tc->nbodies++];
        *b = (LayoutMmaBody){.version = 3,
                             .threads = W->threads,
                             .wm = 4 * W->gm,
                             .wn = W->gn,
                             .inst_m = 16,
                             .inst_n = W->wn,
                             .inst_k = 32 * 8 / tc->bits,
                             .nrings = 2,
                             .smem = W->smem};
        b->ring[0] = mma_ring(P, 0, W->swa, W->slots);
        b->ring[1] = mma_ring(P, 1, W->swb, W->slots);
    }
    return tc;
}

/* ---- Rendering ------------------------------------------------------------ */

static const char *render(Mma *M, Operand o, const char *row, const char *col, int axis);

/* Where top-level scalar `d` is declared: kernel entry, or a level's body
 * or condition (computed each iteration), and how deep. */
static StrBuf *scalars_of(Mma *M, const Inst *d) {
    int cond, k = level_of(M->f, d, &cond);
    return k < 0 ? &M->pre : cond ? &M->level_cond[k] : &M->level_pre[k];
}
static const char *decl_indent(Mma *M, const Inst *d) {
    int k = level_of(M->f, d, NULL);
    return arena_printf(M->a, "%*s", 4 * (k + 2), "");
}

/* The C name of a pointer base (pointer_param): a parameter's, or the
 * entry variable of an address cast to a pointer (declared at first use). */
static const char *base_name(Mma *M, int base) {
    const Function *f = M->f;
    if (base < f->nparams) return M->pnames[base];
    int v = base - f->nparams;
    if (!M->sname[v]) {
        const Inst *d = f->defs[v];
        const char *P = c_mem_type((DType)d->attrs.dtype, C_CUDA);
        const char *addr = render(M, d->args[0], "0", "0", -1);
        const char *name = arena_printf(M->a, "mt_addr%d", v);
        sb_printf(scalars_of(M, d), "%s%s *const %s = (%s *)(uintptr_t)%s;\n", decl_indent(M, d), P,
                  name, P, addr);
        M->sname[v] = name;
    }
    return M->sname[v];
}

static const char *render_cb(void *e, Operand o, const char *row, const char *col, int axis) {
    return render((Mma *)e, o, row, col, axis);
}

static const char *render_op(Mma *M, const Inst *d, const char *row, const char *col, int axis) {
    return cuda_regen_op(&M->cb, d, row, col, axis, render_cb, M);
}

/* Operand o at (row, col) of its block (axis: for a rank-1 value, the
 * dimension it runs along: 0 rows, 1 columns). Pointers render as their
 * element index. */
static const char *render(Mma *M, Operand o, const char *row, const char *col, int axis) {
    const Function *f = M->f;
    if (o.kind == OPD_CONST) return c_const(M->a, o.c, C_CUDA);
    if (o.kind == OPD_PARAM) return f->params[o.id].type.ptr ? "0" : M->pnames[o.id];
    if (o.kind == OPD_NONE) return "0";
    const Loop *l = M->P->loop->loop;
    if (o.id == l->index) return "mt_k";
    if (M->ename[o.id]) return M->ename[o.id];
    int lk, lv = level_value(f, o.id, &lk);
    if (lv >= 0)
        return lk < 0 ? arena_printf(M->a, "mt_i%d", lv) : arena_printf(M->a, "mt_l%d_%d", lv, lk);
    if (o.id == l->results[M->P->acc_lane]) return M->acc_elem;
    int lane = lane_of_arg(l, o.id);
    if (lane >= 0) {
        /* a carried pointer or offset: its init advanced mt_t times */
        Operand s = {.kind = OPD_NONE};
        lane_step(f, l, lane, &s);
        const char *init = render(M, l->inits[lane], row, col, axis);
        const char *step = render(M, s, row, col, axis);
        return arena_printf(M->a, "(%s + (%s)mt_t * %s)", init, M->index_type, step);
    }
    const Inst *d = f->defs[o.id];
    Type t = f->types[o.id];
    if (d && d->op == OP_INT_TO_PTR && entry_scalar(f, d)) {
        base_name(M, f->nparams + o.id);
        return "0"; /* (its element index: the base itself) */
    }
    if (t.rank == 0 && at_top(f, d)) {
        if (!M->sname[o.id]) {
            const char *e =
                d->op == OP_LOAD
                    ? cuda_regen_scalar_load(
                          M->a, d, base_name(M, pointer_param(f, NULL, d->args[0])), render_cb, M)
                    : render_op(M, d, "0", "0", -1);
            const char *name = arena_printf(M->a, "s%d", o.id);
            /* (a scalar pointer: its element index) */
            sb_printf(scalars_of(M, d), "%sconst %s %s = %s;\n", decl_indent(M, d),
                      t.ptr ? M->index_type : c_type((DType)t.dtype), name, e);
            M->sname[o.id] = name;
        }
        return M->sname[o.id];
    }
    return render_op(M, d, row, col, cuda_regen_value_axis(t, axis));
}

static int pointer_param(const Function *f, const Loop *l, Operand o) {
    for (int guard = 0; guard < 1000; guard++) {
        if (o.kind == OPD_PARAM) return o.id;
        if (o.kind != OPD_VALUE) return -1;
        int lane = l ? lane_of_arg(l, o.id) : -1;
        if (lane >= 0) {
            o = l->inits[lane];
            continue;
        }
        const Inst *d = f->defs[o.id];
        if (d && d->op == OP_INT_TO_PTR && entry_scalar(f, d)) return f->nparams + o.id;
        if (!d || (d->op != OP_ADDPTR && d->op != OP_EXPAND_DIMS && d->op != OP_BROADCAST))
            return -1;
        o = d->args[0];
    }
    return -1;
}

/* ---- Whole-block masks --------------------------------------------------- */

/* How an integer value varies with the row and the column of its block
 * (render's coordinates): per axis MONO_UP (non-decreasing), MONO_DOWN,
 * MONO_FLAT (constant) or MONO_ANY (unknown). Integer arithmetic is taken
 * not to wrap, as Triton's axis analysis takes it. */
enum { MONO_DOWN = -1, MONO_FLAT = 0, MONO_UP = 1, MONO_ANY = 2 };
typedef struct Mono {
    int r, c;
} Mono;

static int mono_sum(int x, int y) {
    return x == MONO_FLAT ? y : y == MONO_FLAT ? x : x == y ? x : MONO_ANY;
}
static int mono_scale(int x, int sign) {
    return x == MONO_ANY ? x : sign == 0 ? MONO_FLAT : sign < 0 ? -x : x;
}

static Mono mono_of(const Mma *M, Operand o, int axis, int depth) {
    const Mono any = {MONO_ANY, MONO_ANY}, flat = {MONO_FLAT, MONO_FLAT};
    if (depth > MMA_MAX_DEPTH) return any;
    if (o.kind != OPD_VALUE) return flat;
    const Function *f = M->f;
    const Loop *l = M->P->loop->loop;
    Type t = f->types[o.id];
    if (o.id == l->index || t.rank == 0) return flat; /* uniform over the block */
    if (t.ptr || !dtype_is_int((DType)t.dtype) || lane_of_arg(l, o.id) >= 0 || M->ename[o.id])
        return any;
    const Inst *d = f->defs[o.id];
    if (!d) return any;
    axis = cuda_regen_value_axis(t, axis);
    switch (d->op) {
    case OP_ARANGE:
        return axis == 0   ? (Mono){MONO_UP, MONO_FLAT}
               : axis == 1 ? (Mono){MONO_FLAT, MONO_UP}
                           : any;
    case OP_ZEROS:
    case OP_FULL: return flat;
    case OP_HINT:
    case OP_EXPAND_DIMS:
    case OP_BROADCAST: return mono_of(M, d->args[0], cuda_regen_arg_axis(f, d, axis), depth + 1);
    case OP_ADD:
    case OP_SUB: {
        Mono x = mono_of(M, d->args[0], axis, depth + 1),
             y = mono_of(M, d->args[1], axis, depth + 1);
        int s = d->op == OP_SUB ? -1 : 1;
        return (Mono){mono_sum(x.r, mono_scale(y.r, s)), mono_sum(x.c, mono_scale(y.c, s))};
    }
    case OP_MUL:
        for (int k = 0; k < 2; k++) {
            Operand c = d->args[k];
            if (c.kind != OPD_CONST || !dtype_is_int(c.c.dt)) continue;
            Mono x = mono_of(M, d->args[1 - k], axis, depth + 1);
            int s = c.c.i > 0 ? 1 : c.c.i < 0 ? -1 : 0;
            return (Mono){mono_scale(x.r, s), mono_scale(x.c, s)};
        }
        return any;
    default: return any;
    }
}

/* The corner of a (rows, cols) block where a value of variation m is
 * largest (hi) or smallest: "0" or the last row / column. */
static const char *corner(Mma *M, int m, int n, int hi) {
    return (m == MONO_UP) == hi && m != MONO_FLAT ? arena_printf(M->a, "%d", n - 1) : "0";
}

/* A condition, uniform over the block, under which every element of the
 * mask block o of a (rows, cols) load is true: for a conjunction of
 * integer comparisons whose sides are monotone in the coordinates, each
 * comparison at the corner where it is tightest (x < y: x at its largest,
 * y at its smallest). NULL where no such condition is known. */
static const char *mask_corner(Mma *M, Operand o, int rows, int cols, int axis, int depth) {
    if (depth > MMA_MAX_DEPTH) return NULL;
    if (o.kind == OPD_CONST) return o.c.i ? "true" : NULL;
    if (o.kind != OPD_VALUE) return NULL;
    const Function *f = M->f;
    Type t = f->types[o.id];
    if (t.rank == 0) return render(M, o, "0", "0", -1);
    const Inst *d = f->defs[o.id];
    if (!d || M->ename[o.id] || lane_of_arg(M->P->loop->loop, o.id) >= 0) return NULL;
    axis = cuda_regen_value_axis(t, axis);
    switch (d->op) {
    case OP_HINT:
    case OP_EXPAND_DIMS:
    case OP_BROADCAST:
        return mask_corner(M, d->args[0], rows, cols, cuda_regen_arg_axis(f, d, axis), depth + 1);
    case OP_AND: {
        const char *x = mask_corner(M, d->args[0], rows, cols, axis, depth + 1);
        const char *y = x ? mask_corner(M, d->args[1], rows, cols, axis, depth + 1) : NULL;
        return y ? arena_printf(M->a, "(%s && %s)", x, y) : NULL;
    }
    case OP_CMP_LT:
    case OP_CMP_LE:
    case OP_CMP_GT:
    case OP_CMP_GE: {
        /* lo < hi (lo <= hi): lo at its largest, hi at its smallest */
        int lo = d->op == OP_CMP_GT || d->op == OP_CMP_GE;
        const char *x[2];
        for (int k = 0; k < 2; k++) {
            Operand s = d->args[k];
            if (s.kind == OPD_VALUE && f->types[s.id].rank > 0 &&
                !dtype_is_int((DType)f->types[s.id].dtype))
                return NULL;
            Mono m = mono_of(M, s, axis, depth + 1);
            if (m.r == MONO_ANY || m.c == MONO_ANY) return NULL;
            int hi = (k == 0) != lo; /* the smaller side is taken at its largest */
            x[k] = s.kind == OPD_CONST
                       ? cb_const_operand(&M->cb, d, k)
                       : render(M, s, corner(M, m.r, rows, hi), corner(M, m.c, cols, hi), axis);
        }
        return cb_op_expr(&M->cb, d, x[0], x[1], NULL);
    }
    default: return NULL;
    }
}

/* ---- The kernel ------------------------------------------------------------- */

const char *cuda_mma_helpers(void) {
    return "#ifndef MT_MMA_TILE_HELPERS\n#define MT_MMA_TILE_HELPERS\n"
           "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800\n"
           "#define MT_MMA_TILE_SM80 1\n"
           "static __device__ __forceinline__ void mt_cp_async16(void *dst, const void *src) {\n"
           "    unsigned s = (unsigned)__cvta_generic_to_shared(dst);\n"
           "    asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16;\" : : \"r\"(s), "
           "\"l\"(src) "
           ": \"memory\");\n}\n"
           "/* a copy the compiler cannot hoist out of a loop (keeps the rare element-wise\n"
           " * copies from holding loop-invariant registers) */\n"
           "static __device__ __forceinline__ int mt_opaque(int x) {\n"
           "    int y;\n    asm volatile(\"mov.b32 %0, %1;\" : \"=r\"(y) : \"r\"(x));\n    return "
           "y;\n}\n"
           "static __device__ __forceinline__ void mt_cp_async_commit() {\n"
           "    asm volatile(\"cp.async.commit_group;\" : : : \"memory\");\n}\n"
           "template <int N> static __device__ __forceinline__ void mt_cp_async_wait() {\n"
           "    asm volatile(\"cp.async.wait_group %0;\" : : \"n\"(N) : \"memory\");\n}\n"
           "static __device__ __forceinline__ void mt_ldsm4(unsigned r[4], const void *p) {\n"
           "    unsigned s = (unsigned)__cvta_generic_to_shared(p);\n"
           "    asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\"\n"
           "                 : \"=r\"(r[0]), \"=r\"(r[1]), \"=r\"(r[2]), \"=r\"(r[3]) : "
           "\"r\"(s));\n}\n"
           "static __device__ __forceinline__ void mt_ldsm4_trans(unsigned r[4], const void *p) {\n"
           "    unsigned s = (unsigned)__cvta_generic_to_shared(p);\n"
           "    asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, "
           "[%4];\"\n"
           "                 : \"=r\"(r[0]), \"=r\"(r[1]), \"=r\"(r[2]), \"=r\"(r[3]) : "
           "\"r\"(s));\n}\n"
           "#define MT_MMA_16816(TY)                                                              "
           "\\\n"
           "    static __device__ __forceinline__ void mt_mma16816_##TY(float c[4], const unsigned "
           "a[4], \\\n"
           "                                                         const unsigned b0, const "
           "unsigned b1) { \\\n"
           "        asm volatile(\"mma.sync.aligned.m16n8k16.row.col.f32.\" #TY \".\" #TY \".f32 "
           "\"      \\\n"
           "                     \"{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, "
           "%3};\" \\\n"
           "                     : \"+f\"(c[0]), \"+f\"(c[1]), \"+f\"(c[2]), \"+f\"(c[3])          "
           "   \\\n"
           "                     : \"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3]), \"r\"(b0), "
           "\"r\"(b1)); \\\n"
           "    }\n"
           "MT_MMA_16816(f16)\nMT_MMA_16816(bf16)\n#undef MT_MMA_16816\n"
           "#else\n#define MT_MMA_TILE_SM80 0\n#endif\n#endif\n";
}

/* The element (mt_r, mt_c) of the thread's fragment element (mi, ni, q):
 * row g or g + 8 of the 16 x 8 block (mi, ni), column 2t or 2t + 1, of
 * the tile's column ni * 8 + 2t (+ 1); where B's columns are permuted
 * (TF32, int8), block ni is group ni / 4 of 32 columns, lane g's column
 * of B 4g + ni % 4, so that the accumulator's column 2t + w is the
 * group's column 8t + 4w + ni % 4. */
static void frag_coords(Mma *M) {
    ln(M, "const int mt_r = %s + mi * %d + (mt_lane >> 2) + (q >> 1) * 8;", M->frag_r0,
       M->frag_rstep);
    if (M->frag_perm)
        ln(M, "const int mt_c = %s + (ni >> 2) * 32 + (mt_lane & 3) * 8 + (q & 1) * 4 + (ni & 3);",
           M->frag_c0);
    else ln(M, "const int mt_c = %s + ni * 8 + (mt_lane & 3) * 2 + (q & 1);", M->frag_c0);
    ln(M, "(void)mt_r, (void)mt_c;");
}

/* unroll: the loops unrolled (the fragments in registers), else kept
 * (the CUDA-core fallback: quick to compile) */
static void open_frag(Mma *M, int unroll) {
    const char *pragma = unroll ? "#pragma unroll" : "#pragma unroll 1";
    ln(M, "%s", pragma);
    ln(M, "for (int mi = 0; mi < %d; mi++) {", M->frag_mt);
    M->indent++;
    ln(M, "%s", pragma);
    ln(M, "for (int ni = 0; ni < %d; ni++) {", M->frag_nt);
    M->indent++;
    ln(M, "%s", pragma);
    ln(M, "for (int q = 0; q < 4; q++) {");
    M->indent++;
    frag_coords(M);
}

static void close_frag(Mma *M) {
    for (int i = 0; i < 3; i++) {
        M->indent--;
        ln(M, "}");
    }
}

/* The threads that copy the operand blocks (every thread of the block,
 * or the sm_90a body's producer warpgroup) and a copying thread's index
 * among them. */
static int copy_threads(const Mma *M) {
    return M->copy_threads ? M->copy_threads : 32 * M->P->warps;
}

static const char *copy_tid(const Mma *M) { return M->copy_tid ? M->copy_tid : "(int)threadIdx.x"; }

/* The copy of operand k's block, groups of 8 elements along its rows:
 * group mt_s of the thread is (mt_gr, mt_gc .. mt_gc + 7). */
static void group_coords(Mma *M, int k) {
    const MmaPlan *P = M->P;
    int cols = mma_stage_cols(P, k), G = P->shape->group;
    ln(M, "const int mt_g = mt_s * %d + %s;", copy_threads(M), copy_tid(M));
    ln(M, "const int mt_gr = mt_g / %d, mt_gc = (mt_g %% %d) * %d;", cols / G, cols / G, G);
}

static void copy_shape(const Mma *M, int k, int *groups, int *per) {
    const MmaPlan *P = M->P;
    int rows = mma_stage_rows(P, k), cols = mma_stage_cols(P, k), T = copy_threads(M);
    *groups = rows * cols / P->shape->group;
    *per = (*groups + T - 1) / T;
}

/* How operand o changes with the loop's index k, where it is affine in k
 * with one coefficient for the whole block: "0" (invariant), or a C
 * expression of the scalar coefficient; NULL otherwise (a carried lane, a
 * product of two k-dependent values, a per-element factor, an op that is
 * not pure). The tutorial's pointers recomputed from k each iteration,
 * `a_ptr + rows[:, None] * K + (k + ks)[None, :]`, are k times 1 plus an
 * invariant. */
static const char *iv_coef(Mma *M, Operand o, int depth) {
    if (depth > MMA_MAX_DEPTH) return NULL;
    if (o.kind != OPD_VALUE) return "0";
    const Function *f = M->f;
    const Loop *l = M->P->loop->loop;
    if (o.id == l->index) return "1";
    int lk;
    if (level_value(f, o.id, &lk) >= 0) return "0";
    if (lane_of_arg(l, o.id) >= 0) return NULL;
    const Inst *d = f->defs[o.id];
    if (!d || at_top(f, d)) return d ? "0" : NULL;
    if (!(op_info(d->op)->flags & OPF_PURE)) return NULL;
    const char *c[2] = {"0", "0"};
    for (int i = 0; i < d->nargs && i < 2; i++)
        if (!(c[i] = iv_coef(M, d->args[i], depth + 1))) return NULL;
    for (int i = 2; i < d->nargs; i++) {
        const char *x = iv_coef(M, d->args[i], depth + 1);
        if (!x || strcmp(x, "0") != 0) return NULL;
    }
    int z0 = strcmp(c[0], "0") == 0, z1 = d->nargs < 2 || strcmp(c[1], "0") == 0;
    if (z0 && z1) return "0";
    switch (d->op) {
    case OP_EXPAND_DIMS:
    case OP_BROADCAST:
    case OP_HINT: return c[0];
    case OP_CAST:
        /* an integer widened or kept (the index's value is unchanged) */
        return dtype_is_int((DType)d->type.dtype) &&
                       dtype_is_int((DType)operand_type(f, d->args[0]).dtype) &&
                       dtype_info((DType)d->type.dtype)->bits >=
                           dtype_info((DType)operand_type(f, d->args[0]).dtype)->bits
                   ? c[0]
                   : NULL;
    case OP_ADD:
    case OP_ADDPTR: return z0 ? c[1] : z1 ? c[0] : arena_printf(M->a, "(%s + %s)", c[0], c[1]);
    case OP_SUB: return z1 ? c[0] : arena_printf(M->a, "(%s - %s)", z0 ? "0" : c[0], c[1]);
    case OP_MUL: {
        /* k-dependent times a scalar the whole block shares */
        if (!z0 && !z1) return NULL;
        Operand other = d->args[z0 ? 0 : 1];
        if (other.kind == OPD_VALUE && f->types[other.id].rank > 0) return NULL;
        const char *x = z0 ? c[1] : c[0], *y = render(M, other, "0", "0", -1);
        return strcmp(x, "1") == 0 ? y : arena_printf(M->a, "(%s * %s)", x, y);
    }
    default: return NULL;
    }
}

/* The index step per iteration of operand k's pointer where it is affine
 * in the loop index (iv_coef), not a carried lane: its coefficient times
 * the loop's step; NULL otherwise. */
static const char *iv_step(Mma *M, int k) {
    const Loop *l = M->P->loop->loop;
    Operand p = M->P->ld[k]->args[0];
    if (p.kind == OPD_VALUE && lane_of_arg(l, p.id) >= 0) return NULL;
    if (l->step.kind != OPD_CONST) return NULL;
    const char *c = iv_coef(M, p, 0);
    if (!c || strcmp(c, "0") == 0) return NULL;
    int groups, per;
    copy_shape(M, k, &groups, &per);
    if (per > 32) return NULL;
    return strcmp(c, "1") == 0 ? arena_printf(M->a, "%lld", (long long)l->step.c.i)
                               : arena_printf(M->a, "(%s * %lld)", c, (long long)l->step.c.i);
}

/* Whether operand k's pointer is a carried lane advanced by a scalar:
 * then its index is the init's (loop-invariant, computed once before the
 * loop with the groups' contiguity) plus mt_t times the step. */
static int hoisted_lane(const Mma *M, int k) {
    const Loop *l = M->P->loop->loop;
    Operand p = M->P->ld[k]->args[0];
    int lane = p.kind == OPD_VALUE ? lane_of_arg(l, p.id) : -1;
    Operand step;
    if (lane < 0 || !lane_step(M->f, l, lane, &step)) return -1;
    int groups, per;
    copy_shape(M, k, &groups, &per);
    return operand_type(M->f, step).rank == 0 && per <= 32 ? lane : -1;
}

/* The test that pointer parameter `base` is `bytes`-aligned (" && ...";
 * "" where the signature's divisibility hint proves it). */
static const char *align_test(Mma *M, int base, int bytes) {
    return base < M->f->nparams && M->param_div && M->param_div[base] >= bytes
               ? ""
               : arena_printf(M->a,
                              " && (((uintptr_t)%s) & %d) == "
                              "0",
                              base_name(M, base), bytes - 1);
}

/* Operand o of operand k's load at (row, col) of its stage block (B's
 * transposed stage: the block's (col, row)). */
static const char *render_at(Mma *M, int k, Operand o, const char *row, const char *col) {
    return k && M->P->bt ? render(M, o, col, row, -1) : render(M, o, row, col, -1);
}

/* The 16-byte alignment test of operand k's base pointer. */
static const char *copy_align(Mma *M, int k) {
    return align_test(M, pointer_param(M->f, M->P->loop->loop, M->P->ld[k]->args[0]), 16);
}

/* The stage offset of copy group g of operand k (group_coords' numbers). */
static int group_offset(const Mma *M, int k, int g) {
    int gpr = mma_stage_cols(M->P, k) / M->P->shape->group; /* groups per row */
    return M->dst_offset(M, k, g / gpr, g % gpr * M->P->shape->group);
}

/* The constant distance (elements) between the stage offsets of every
 * copying thread's consecutive groups of operand k (0: one group per
 * thread), or -1: then each group's offset is held (or computed) apart. */
static int dst_step(const Mma *M, int k) {
    int groups, per, T = copy_threads(M);
    copy_shape(M, k, &groups, &per);
    if (!M->dst_offset) return -1;
    if (per < 2) return 0;
    int step = group_offset(M, k, T) - group_offset(M, k, 0);
    for (int tid = 0; tid < T; tid++)
        for (int s = 1; s < per && s * T + tid < groups; s++)
            if (group_offset(M, k, s * T + tid) - group_offset(M, k, tid) != s * step) return -1;
    return step;
}

/* Before the loop: the hoisted operands' init indices per group
 * (mt_b<k>[s], q = 0) and which groups are G (the dtype's 16-byte group)
 * consecutive elements from a multiple of G (bit s of mt_v<k>). */
void mma_copy_bases(Mma *M, int k) {
    int lane = hoisted_lane(M, k);
    const char *ivs = lane < 0 ? iv_step(M, k) : NULL;
    if (lane < 0 && !ivs) return;
    const Loop *l = M->P->loop->loop;
    int groups, per, G = M->P->shape->group;
    copy_shape(M, k, &groups, &per);
    /* the index at the first iteration: the lane's init, or the pointer
     * at mt_k = mt_start (declared around the groups' loop below) */
    Operand first = lane >= 0 ? l->inits[lane] : M->P->ld[k]->args[0];
    const char *i0 = render_at(M, k, first, "mt_gr", "mt_gc");
    const char *iq = render_at(M, k, first, "mt_gr", "(mt_gc + q)");
    const char *advance =
        lane >= 0 ? render(M, def_of(M->f, l->yields[lane])->args[1], "0", "0", -1) : ivs;
    int step = dst_step(M, k);
    ln(M, "%s mt_b%d[%d];", M->index_type, k, per);
    if (step >= 0) {
        /* group s's offset: group 0's plus s steps */
        ln(M, "int mt_q%d;", k);
        ln(M, "{");
        M->indent++;
        ln(M, "const int mt_s = 0;");
        group_coords(M, k);
        ln(M, "mt_q%d = %s;", k, M->dst_index[k]);
        M->indent--;
        ln(M, "}");
    } else if (!M->copy_q_inline) ln(M, "int mt_q%d[%d];", k, per);
    ln(M, "unsigned mt_v%d = 0;", k);
    /* mt_u<k>: every group of the thread is one cp.async whenever the
     * iteration's mask is all true (the step keeps the groups aligned) */
    ln(M, "bool mt_u%d = ((%s) & %d) == 0%s;", k, advance, G - 1, copy_align(M, k));
    if (ivs) {
        ln(M, "{");
        M->indent++;
        ln(M, "const int mt_k = mt_start;");
        ln(M, "(void)mt_k;");
    }
    ln(M, "#pragma unroll");
    ln(M, "for (int mt_s = 0; mt_s < %d; mt_s++) {", per);
    M->indent++;
    group_coords(M, k);
    ln(M, "const %s mt_i0 = %s;", M->index_type, i0);
    ln(M, "bool mt_c = (mt_i0 & %d) == 0;", G - 1);
    ln(M, "#pragma unroll");
    ln(M, "for (int q = 1; q < %d; q++) mt_c = mt_c && %s == mt_i0 + q;", G, iq);
    ln(M, "mt_b%d[mt_s] = mt_i0;", k);
    if (step < 0 && !M->copy_q_inline) ln(M, "mt_q%d[mt_s] = %s;", k, M->dst_index[k]);
    if (groups % copy_threads(M)) {
        ln(M, "if (mt_c && mt_g < %d) mt_v%d |= 1u << mt_s;", groups, k);
        ln(M, "mt_u%d = mt_u%d && (mt_c || mt_g >= %d);", k, k, groups);
    } else {
        ln(M, "if (mt_c) mt_v%d |= 1u << mt_s;", k);
        ln(M, "mt_u%d = mt_u%d && mt_c;", k, k);
    }
    M->indent--;
    ln(M, "}");
    if (ivs) {
        M->indent--;
        ln(M, "}");
    }
}

/* One operand block's copy into stage buffer `buf` (row length ld): a
 * group of G (16 bytes) consecutive, aligned, unmasked elements is one cp.async;
 * any other group is copied element by element with the mask and `other`. */
void mma_copy(Mma *M, int k, const char *buf) {
    const MmaPlan *P = M->P;
    const Loop *l = P->loop->loop;
    const Inst *in = P->ld[k];
    int groups, per, T = copy_threads(M), G = P->shape->group;
    copy_shape(M, k, &groups, &per);
    int base = pointer_param(M->f, l, in->args[0]);
    const char *bname = base_name(M, base);
    const char *mt = c_mem_type(P->in_dt, C_CUDA);
    int lane = hoisted_lane(M, k);
    /* a pointer affine in the loop index is hoisted as a lane is */
    const char *advance =
        lane >= 0 ? render(M, def_of(M->f, l->yields[lane])->args[1], "0", "0", -1) : iv_step(M, k);
    int hoisted = advance != NULL;
    /* the element-wise copy's index at (mt_or, mt_oc + q): opaque copies of
     * the group's coordinates where the cp.async index is hoisted */
    const char *idx = render_at(M, k, in->args[0], hoisted ? "mt_or" : "mt_gr",
                                hoisted ? "(mt_oc + q)" : "(mt_gc + q)");
    const char *mask =
        in->args[1].kind == OPD_NONE ? NULL : render_at(M, k, in->args[1], "mt_gr", "(mt_gc + q)");
    const char *other = in->args[2].kind == OPD_NONE
                            ? c_zero(P->in_dt)
                            : render_at(M, k, in->args[2], "mt_gr", "(mt_gc + q)");
    Type ot = operand_type(M->f, in->args[2]);
    if (in->args[2].kind == OPD_VALUE && ot.dtype != P->in_dt)
        other = arena_printf(M->a, "(%s)%s", c_type(P->in_dt), other);
    const char *al = copy_align(M, k);
    int rows = k ? P->BK : P->BM, cols = k ? P->BN : P->BK;
    const char *full = NULL;
    if (hoisted) {
        ln(M, "const %s mt_d%d = (%s)mt_t * %s;", M->index_type, k, M->index_type, advance);
        /* the iteration's base pointer, each group's address an index from it */
        ln(M, "const %s *const mt_p%d = %s + mt_d%d;", mt, k, bname, k);
        full =
            in->args[1].kind == OPD_NONE ? "true" : mask_corner(M, in->args[1], rows, cols, -1, 0);
    }
    const char *dst = arena_printf(M->a, "%s *mt_dst = &%s[%s];", mt, buf, M->dst_index[k]);
    if (full) {
        /* the steady state: the whole block unmasked, every group one
         * cp.async from the hoisted index */
        ln(M, "if (__builtin_expect(mt_u%d && %s, 1)) {", k, full);
        M->indent++;
        ln(M, "#pragma unroll");
        ln(M, "for (int mt_s = 0; mt_s < %d; mt_s++) {", per);
        M->indent++;
        if (groups % T) ln(M, "if (mt_s * %d + %s < %d) {", T, copy_tid(M), groups), M->indent++;
        int step = dst_step(M, k);
        if (step >= 0)
            ln(M, "mt_cp_async16(&%s[mt_q%d + mt_s * %d], &mt_p%d[mt_b%d[mt_s]]);", buf, k, step, k,
               k);
        else if (M->copy_q_inline) {
            group_coords(M, k);
            ln(M, "mt_cp_async16(&%s[%s], &mt_p%d[mt_b%d[mt_s]]);", buf, M->dst_index[k], k, k);
        } else ln(M, "mt_cp_async16(&%s[mt_q%d[mt_s]], &mt_p%d[mt_b%d[mt_s]]);", buf, k, k, k);
        if (groups % T) M->indent--, ln(M, "}");
        M->indent--;
        ln(M, "}");
        M->indent--;
        ln(M, "} else {");
        M->indent++;
    }
    ln(M, "#pragma unroll");
    ln(M, "for (int mt_s = 0; mt_s < %d; mt_s++) {", per);
    M->indent++;
    group_coords(M, k);
    if (groups % T) ln(M, "if (mt_g < %d) {", groups), M->indent++;
    ln(M, "bool mt_m[%d];", G);
    if (hoisted)
        ln(M, "bool mt_all = ((mt_v%d >> mt_s) & 1u) && (mt_d%d & %d) == 0%s;", k, k, G - 1, al);
    else {
        ln(M, "%s mt_i[%d];", M->index_type, G);
        ln(M, "bool mt_all = true;");
    }
    ln(M, "#pragma unroll");
    ln(M, "for (int q = 0; q < %d; q++) {", G);
    M->indent++;
    if (!hoisted) ln(M, "mt_i[q] = %s;", idx);
    ln(M, "mt_m[q] = %s;", mask ? mask : "true");
    ln(M, "mt_all = mt_all && mt_m[q]%s;", !hoisted ? " && mt_i[q] == mt_i[0] + q" : "");
    M->indent--;
    ln(M, "}");
    ln(M, "%s", dst);
    if (hoisted) ln(M, "if (mt_all) {");
    else ln(M, "if (mt_all && (mt_i[0] & %d) == 0%s) {", G - 1, al);
    M->indent++;
    ln(M, "mt_cp_async16(mt_dst, &%s[%s]);", bname,
       hoisted ? arena_printf(M->a, "mt_b%d[mt_s] + mt_d%d", k, k) : "mt_i[0]");
    M->indent--;
    ln(M, "} else {");
    M->indent++;
    if (hoisted) ln(M, "const int mt_or = mt_opaque(mt_gr), mt_oc = mt_opaque(mt_gc);");
    ln(M, "#pragma unroll");
    ln(M, "for (int q = 0; q < %d; q++) mt_dst[q] = mt_m[q] ? %s[%s] : %s;", G, bname,
       hoisted ? idx : "mt_i[q]", c_store(M->a, P->in_dt, C_CUDA, other));
    if (M->proxy_fence) ln(M, "mt_fence_proxy_async();");
    M->indent--;
    ln(M, "}");
    if (groups % T) M->indent--, ln(M, "}");
    M->indent--;
    ln(M, "}");
    if (full) M->indent--, ln(M, "}");
}

/* The k-step loop of a stage's products (k per instruction, open: the
 * caller closes it) and the warp's A fragments of the step: ldmatrix.x4
 * of 16 rows by 16 bytes, the m16n8k16 / m16n8k32 / m16n8k8 A layouts. */
static void open_kstep_a(Mma *M, const char *sa) {
    const MmaPlan *P = M->P;
    int MT = P->BM / P->wm / 16;
    ln(M, "#pragma unroll");
    ln(M, "for (int mt_kk = 0; mt_kk < %d; mt_kk += %d) {", P->BK, P->shape->k);
    M->indent++;
    ln(M, "unsigned mt_fa[%d][4];", MT);
    ln(M, "#pragma unroll");
    ln(M, "for (int mi = 0; mi < %d; mi++)", MT);
    ln(M,
       "    mt_ldsm4(mt_fa[mi], &%s[(mt_wr * %d + mi * 16 + (mt_lane & 15)) * %d + mt_kk + "
       "(mt_lane >> 4) * %d]);",
       sa, P->BM / P->wm, P->lda, P->shape->group);
}

/* One stage's products: per k-step, the warp's A fragments (ldmatrix.x4
 * per 16 rows), then per 16 columns of the warp the two 8-column B
 * fragments and their mma.sync with every A fragment (few B registers
 * live at a time). B staged N-major (16-bit dtypes only) is read by
 * ldmatrix.x4.trans; B staged k-major (bt: BN rows of BK, as A's) by
 * ldmatrix.x4 like A, for every dtype of the table (16-bit m16n8k16,
 * 8-bit m16n8k32, TF32 m16n8k8: 32 bytes of k per instruction): the
 * matrices (n 0-7, k bytes 0-15), (n 0-7, 16-31), (n 8-15, 0-15),
 * (n 8-15, 16-31), which are b0 and b1 of two 8-column blocks in the
 * instructions' layouts (no column permutation). */
static void emit_compute(Mma *M, const char *sa, const char *sb) {
    const MmaPlan *P = M->P;
    const MmaShape *S = P->shape;
    int MT = P->BM / P->wm / 16, NT = P->BN / P->wn / 8;
    const char *mma = arena_printf(M->a, S->ldsm_b ? "mt_mma16816_%s" : "mt_mma_tile_%s", S->name);
    open_kstep_a(M, sa);
    ln(M, "#pragma unroll");
    ln(M, "for (int nj = 0; nj < %d; nj++) {", NT / 2);
    M->indent++;
    ln(M, "unsigned mt_fb[4];");
    if (P->bt)
        ln(M,
           "mt_ldsm4(mt_fb, &%s[(mt_wc * %d + nj * 16 + (mt_lane & 7) + (mt_lane >> 4) * 8) * %d + "
           "mt_kk + ((mt_lane >> 3) & 1) * %d]);",
           sb, P->BN / P->wn, P->ldb, S->group);
    else
        ln(M,
           "mt_ldsm4_trans(mt_fb, &%s[(mt_kk + (mt_lane & 15)) * %d + mt_wc * %d + nj * 16 + "
           "(mt_lane >> 4) * 8]);",
           sb, P->ldb, P->BN / P->wn);
    ln(M, "#pragma unroll");
    ln(M, "for (int mi = 0; mi < %d; mi++) {", MT);
    ln(M, "    %s(mt_acc[mi][2 * nj], mt_fa[mi], mt_fb[0], mt_fb[1]);", mma);
    ln(M, "    %s(mt_acc[mi][2 * nj + 1], mt_fa[mi], mt_fb[2], mt_fb[3]);", mma);
    ln(M, "}");
    M->indent--;
    ln(M, "}");
    M->indent--;
    ln(M, "}");
}

/* One stage's products for f32 ieee on CUDA cores, in mma.sync's fragment
 * layout (the epilogue's): per 4 k-steps, lane (g, t) reads A's rows g and
 * g + 8 of each 16-row block (one 16-byte piece each: the stage's rows are
 * 4 + BK floats, so the 8 rows of a read fall in distinct banks), then per
 * k-step B's columns 2t, 2t + 1 of each 8-column block (8 bytes, the quad's
 * lanes broadcast) and the fmaf of each fragment element, in k order (the
 * rounding of Triton's FMA dot). */
static void emit_compute_ffma(Mma *M, const char *sa, const char *sb) {
    const MmaPlan *P = M->P;
    int MT = P->BM / P->wm / 16, NT = P->BN / P->wn / 8;
    ln(M, "#pragma unroll");
    ln(M, "for (int mt_kk = 0; mt_kk < %d; mt_kk += 4) {", P->BK);
    M->indent++;
    ln(M, "float4 mt_fa[%d][2];", MT);
    ln(M, "#pragma unroll");
    ln(M, "for (int mi = 0; mi < %d; mi++)", MT);
    ln(M, "    #pragma unroll");
    ln(M, "    for (int h = 0; h < 2; h++)");
    ln(M,
       "        mt_fa[mi][h] = mt_lds_f4(&%s[(mt_wr * %d + mi * 16 + (mt_lane >> 2) + h * 8) * %d "
       "+ "
       "mt_kk]);",
       sa, P->BM / P->wm, P->lda);
    ln(M, "#pragma unroll");
    ln(M, "for (int kq = 0; kq < 4; kq++) {");
    M->indent++;
    ln(M, "float2 mt_fb[%d];", NT);
    ln(M, "#pragma unroll");
    ln(M, "for (int ni = 0; ni < %d; ni++)", NT);
    ln(M,
       "    mt_fb[ni] = mt_lds_f2(&%s[(mt_kk + kq) * %d + mt_wc * %d + ni * 8 + (mt_lane & 3) * "
       "2]);",
       sb, P->ldb, P->BN / P->wn);
    ln(M, "#pragma unroll");
    ln(M, "for (int mi = 0; mi < %d; mi++) {", MT);
    M->indent++;
    ln(M, "const float a0 = mt_f4_at(mt_fa[mi][0], kq), a1 = mt_f4_at(mt_fa[mi][1], kq);");
    ln(M, "#pragma unroll");
    ln(M, "for (int ni = 0; ni < %d; ni++) {", NT);
    ln(M, "    mt_acc[mi][ni][0] = fmaf(a0, mt_fb[ni].x, mt_acc[mi][ni][0]);");
    ln(M, "    mt_acc[mi][ni][1] = fmaf(a0, mt_fb[ni].y, mt_acc[mi][ni][1]);");
    ln(M, "    mt_acc[mi][ni][2] = fmaf(a1, mt_fb[ni].x, mt_acc[mi][ni][2]);");
    ln(M, "    mt_acc[mi][ni][3] = fmaf(a1, mt_fb[ni].y, mt_acc[mi][ni][3]);");
    ln(M, "}");
    M->indent--;
    ln(M, "}");
    M->indent--;
    ln(M, "}");
    M->indent--;
    ln(M, "}");
}

/* One stage's products for TF32 and int8 (B's columns permuted, see
 * frag_coords): per k-step, the warp's A fragments (ldmatrix.x4 of 16
 * rows by 16 bytes: the m16n8k8 .tf32 and m16n8k32 .s8 A layouts), then
 * per group of 32 columns the four B fragments of lane g's columns
 * 4g .. 4g + 3 (mt_ldb_*: vector loads of rows t, t + 4 (TF32) or
 * 4t .. 4t + 3, 16 + 4t .. (int8, bytes transposed in registers)) and
 * their mma.sync with every A fragment. f32 operands go to the tensor
 * cores as stored: the hardware reads their upper 19 bits (TF32), as
 * Triton's mma does. */
static void emit_compute_perm(Mma *M, const char *sa, const char *sb) {
    const MmaPlan *P = M->P;
    const MmaShape *S = P->shape;
    int MT = P->BM / P->wm / 16, NT = P->BN / P->wn / 8;
    if (S->split && !P->split_kstep) {
        /* tf32x3 as Triton's F32DotTC: the small parts' products of the
         * stage summed apart from zero, NaNs (inf - inf of a split) made 0,
         * and added to the accumulator once per stage, not per k-step */
        ln(M, "float mt_sacc[%d][%d][4];", MT, NT);
        ln(M, "#pragma unroll");
        ln(M, "for (int mi = 0; mi < %d; mi++)", MT);
        ln(M, "    for (int ni = 0; ni < %d; ni++)", NT);
        ln(M, "        for (int q = 0; q < 4; q++) mt_sacc[mi][ni][q] = 0.0f;");
    }
    open_kstep_a(M, sa);
    ln(M, "#pragma unroll");
    ln(M, "for (int nj = 0; nj < %d; nj++) {", NT / 4);
    M->indent++;
    ln(M, "unsigned mt_fb[4][2];");
    ln(M,
       "mt_ldb_%s(mt_fb, &%s[(mt_kk + (mt_lane & 3) * %d) * %d + mt_wc * %d + nj * 32 + "
       "(mt_lane >> 2) * 4], %d);",
       S->ldb, sb, S->k / 8, P->ldb, P->BN / P->wn, P->ldb);
    if (S->split) {
        ln(M, "unsigned mt_fb_s[4][2];");
        ln(M, "#pragma unroll");
        ln(M, "for (int v = 0; v < 4; v++)");
        ln(M, "    for (int h = 0; h < 2; h++) mt_split_tf32(mt_fb[v][h], mt_fb_s[v][h]);");
    }
    ln(M, "#pragma unroll");
    ln(M, "for (int mi = 0; mi < %d; mi++) {", MT);
    const char *fa = "mt_fa[mi]";
    if (S->split) {
        /* A's split per use (fewer live registers than splitting all fragments once) */
        ln(M, "    unsigned mt_ab[4], mt_as[4];");
        ln(M, "    #pragma unroll");
        ln(M,
           "    for (int r = 0; r < 4; r++) mt_ab[r] = mt_fa[mi][r], mt_split_tf32(mt_ab[r], "
           "mt_as[r]);");
        fa = "mt_ab";
    }
    ln(M, "    #pragma unroll");
    ln(M, "    for (int v = 0; v < 4; v++) {");
    if (S->split) {
        /* as F32DotTC: the small products apart from zero (the stage's
         * mt_sacc, or with k-step sums this k-step's mt_bb, its NaNs made
         * 0), big * big from zero in mt_bb, added to the accumulator by an
         * f32 addition (the tensor cores' accumulation truncates: into the
         * whole sum, each k-step would lose up to an ulp of it) */
        const char *small = P->split_kstep ? "mt_bb" : "mt_sacc[mi][4 * nj + v]";
        ln(M, "        float mt_bb[4] = {0.0f, 0.0f, 0.0f, 0.0f};");
        ln(M, "        mt_mma_tile_%s(%s, mt_as, mt_fb[v][0], mt_fb[v][1]);", S->name, small);
        ln(M, "        mt_mma_tile_%s(%s, mt_ab, mt_fb_s[v][0], mt_fb_s[v][1]);", S->name, small);
        if (P->split_kstep)
            ln(M,
               "        for (int q = 0; q < 4; q++) mt_bb[q] = mt_bb[q] == mt_bb[q] ? mt_bb[q] "
               ": 0.0f;");
        ln(M, "        mt_mma_tile_%s(mt_bb, mt_ab, mt_fb[v][0], mt_fb[v][1]);", S->name);
        ln(M, "        for (int q = 0; q < 4; q++) mt_acc[mi][4 * nj + v][q] += mt_bb[q];");
    } else {
        ln(M, "        mt_mma_tile_%s(mt_acc[mi][4 * nj + v], %s, mt_fb[v][0], mt_fb[v][1]);",
           S->name, fa);
    }
    ln(M, "    }");
    ln(M, "}");
    M->indent--;
    ln(M, "}");
    M->indent--;
    ln(M, "}");
    if (S->split && !P->split_kstep) {
        ln(M, "#pragma unroll");
        ln(M, "for (int mi = 0; mi < %d; mi++)", MT);
        ln(M, "    for (int ni = 0; ni < %d; ni++)", NT);
        ln(M, "        for (int q = 0; q < 4; q++)");
        ln(M,
           "            mt_acc[mi][ni][q] += mt_sacc[mi][ni][q] == mt_sacc[mi][ni][q] ? "
           "mt_sacc[mi][ni][q] : 0.0f;");
    }
}

/* Below sm_80: each fragment element's dot over global memory (TF32:
 * the operands' upper 19 bits, as the tensor cores read them; int8:
 * wrapping 32-bit sums). */
static void emit_fallback(Mma *M) {
    const MmaPlan *P = M->P;
    int integer = P->shape->acc == DT_I32;
    const Loop *l = P->loop->loop;
    ln(M, "for (int mt_t = 0; mt_t < mt_n; mt_t++) {");
    M->indent++;
    ln(M, "const int mt_k = mt_start + mt_t * %lld;", (long long)l->step.c.i);
    ln(M, "(void)mt_k;");
    open_frag(M, 0);
    const char *ld[2];
    for (int k = 0; k < 2; k++) {
        const Inst *in = P->ld[k];
        const char *row = k ? "mt_kk" : "mt_r", *col = k ? "mt_c" : "mt_kk";
        int base = pointer_param(M->f, l, in->args[0]);
        const char *e = c_load(
            M->a, P->in_dt, C_CUDA,
            arena_printf(M->a, "%s[%s]", base_name(M, base), render(M, in->args[0], row, col, -1)));
        if (in->args[1].kind != OPD_NONE) {
            const char *other = in->args[2].kind == OPD_NONE ? integer ? "0" : "0.0f"
                                                             : render(M, in->args[2], row, col, -1);
            e = arena_printf(M->a, "(%s ? %s : (%s)(%s))", render(M, in->args[1], row, col, -1), e,
                             integer ? "int" : "float", other);
        }
        if (P->in_dt == DT_F32 && !P->shape->split && !P->shape->cuda_core)
            e = arena_printf(M->a, "mt_tf32_hw(%s)", e);
        ld[k] = e;
    }
    ln(M, "#pragma unroll 1");
    ln(M, "for (int mt_kk = 0; mt_kk < %d; mt_kk++)", P->BK);
    if (integer)
        ln(M,
           "    mt_acc[mi][ni][q] = (int)((unsigned)mt_acc[mi][ni][q] + (unsigned)((int)%s * "
           "(int)%s));",
           ld[0], ld[1]);
    else ln(M, "    mt_acc[mi][ni][q] = fmaf(%s, %s, mt_acc[mi][ni][q]);", ld[0], ld[1]);
    close_frag(M);
    M->indent--;
    ln(M, "}");
}

/* The value a store of the epilogue writes at fragment element e of the
 * pair (column mt_c0 or mt_c1), rendered as element pass e did. */
/* The cast that a store of the epilogue writes, where the store's own
 * rounding makes it: an f32 value `.to()` f16 or bf16 (round to nearest),
 * stored as that dtype, the cast's only use. Storing its f32 source is one
 * rounding, as the cast's (an f16 round trip through f32 is exact), and
 * fewer instructions: no conversion there and back per element (which on
 * sm_90a also made ptxas 13 serialize the wgmma's, C7514). */
static const Inst *stored_cast(const Mma *M, const Inst *st) {
    const Inst *d = def_of(M->f, st->args[1]);
    DType dt = d ? (DType)d->type.dtype : DT_NONE;
    if (!d || d->op != OP_CAST || d->attrs.flag || (dt != DT_F16 && dt != DT_BF16) ||
        operand_type(M->f, d->args[0]).dtype != DT_F32 ||
        cuda_regen_uses(&M->f->body, d->result) != 1)
        return NULL;
    return d;
}

static const char *stored_value(Mma *M, const Inst *in, const char **ename[2], int e, DType dt) {
    M->ename = ename[e];
    M->acc_elem = M->pair_elem[e];
    const Inst *cast = stored_cast(M, in);
    return in->args[1].kind == OPD_CONST
               ? c_const(M->a, const_convert(in->args[1].c, dt), C_CUDA)
               : render(M, cast ? cast->args[0] : in->args[1], "mt_r", e ? "mt_c1" : "mt_c0", -1);
}

/* A store of the epilogue: the thread's two neighbouring columns of a
 * fragment row (mt_c0, mt_c1) rendered as the two element passes did;
 * one 2-element store when their addresses are consecutive and aligned
 * and both masks hold, else two masked ones. */
static void emit_pair_store(Mma *M, const Inst *in, const char **ename[2]) {
    const Function *f = M->f;
    const Loop *l = M->P->loop->loop;
    int base = pointer_param(f, l, in->args[0]);
    const char *bname = base_name(M, base);
    DType dt = (DType)operand_type(f, in->args[1]).dtype;
    int bytes = dtype_info(dt)->bits / 8;
    const char *idx[2], *mask[2], *val[2];
    for (int e = 0; e < 2; e++) {
        const char *c = e ? "mt_c1" : "mt_c0";
        val[e] = stored_value(M, in, ename, e, dt);
        idx[e] = render(M, in->args[0], "mt_r", c, -1);
        mask[e] = in->args[2].kind == OPD_NONE ? "true" : render(M, in->args[2], "mt_r", c, -1);
    }
    const char *mt = c_mem_type(dt, C_CUDA);
    ln(M, "{");
    M->indent++;
    ln(M, "const %s mt_j0 = %s, mt_j1 = %s;", M->index_type, idx[0], idx[1]);
    ln(M, "const bool mt_m0 = %s, mt_m1 = %s;", mask[0], mask[1]);
    ln(M, "const %s mt_e0 = %s, mt_e1 = %s;", mt, c_store(M->a, dt, C_CUDA, val[0]),
       c_store(M->a, dt, C_CUDA, val[1]));
    if (bytes == 2 || bytes == 4) {
        const char *al = align_test(M, base, 2 * bytes);
        ln(M, "if (mt_m0 && mt_m1 && mt_j1 == mt_j0 + 1 && (mt_j0 & 1) == 0%s) {", al);
        M->indent++;
        const char *u = bytes == 2 ? "unsigned" : "uint2";
        ln(M, "__align__(%d) %s mt_p[2] = {mt_e0, mt_e1};", 2 * bytes, mt);
        ln(M, "*reinterpret_cast<%s *>(&%s[mt_j0]) = *reinterpret_cast<const %s *>(mt_p);", u,
           bname, u);
        M->indent--;
        ln(M, "} else {");
        M->indent++;
    }
    ln(M, "if (mt_m0) %s[mt_j0] = mt_e0;", bname);
    ln(M, "if (mt_m1) %s[mt_j1] = mt_e1;", bname);
    if (bytes == 2 || bytes == 4) M->indent--, ln(M, "}");
    M->indent--;
    ln(M, "}");
}

/* Whether operand o's value depends on the epilogue's (epi) values. */
static int uses_epi(const Function *f, const char *epi, Operand o, int depth) {
    if (o.kind != OPD_VALUE) return 0;
    if (epi[o.id] || depth > MMA_MAX_DEPTH) return 1;
    const Inst *d = f->defs[o.id];
    if (!d) return 0;
    for (int k = 0; k < d->nargs; k++)
        if (uses_epi(f, epi, d->args[k], depth + 1)) return 1;
    return 0;
}

/* The staged store (M->stage_smem): a store of 2- or 4-byte elements of a
 * (BM, BN) block, its address and mask not computed from the epilogue's
 * values, its block (rows padded by 16 bytes) within the buffer. Returns
 * the padded row length in elements, 0 where the store goes straight
 * from the fragments. */
static int staged_row(const Mma *M, const Inst *st, const char *epi) {
    const Function *f = M->f;
    Type t = operand_type(f, st->args[0]);
    int bytes = dtype_info((DType)operand_type(f, st->args[1]).dtype)->bits / 8;
    if (!M->stage_smem || (bytes != 2 && bytes != 4) || t.rank != 2 || t.dims[0] != M->P->BM ||
        t.dims[1] != M->P->BN || uses_epi(f, epi, st->args[0], 0) ||
        uses_epi(f, epi, st->args[2], 0))
        return 0;
    int ld = M->P->BN + 16 / bytes;
    return (long long)M->P->BM * ld * bytes <= M->stage_bytes ? ld : 0;
}

/* Phase 1 of a staged store: the pair of fragment elements into the
 * buffer (row mt_r, columns mt_c0 and mt_c0 + 1, one 4- or 8-byte store). */
static void emit_pair_stage(Mma *M, const Inst *in, const char **ename[2], int ld) {
    DType dt = (DType)operand_type(M->f, in->args[1]).dtype;
    const char *val[2];
    for (int e = 0; e < 2; e++) val[e] = stored_value(M, in, ename, e, dt);
    const char *mt = c_mem_type(dt, C_CUDA);
    int bytes = dtype_info(dt)->bits / 8;
    ln(M, "{");
    M->indent++;
    ln(M, "__align__(%d) %s mt_p[2] = {%s, %s};", 2 * bytes, mt, c_store(M->a, dt, C_CUDA, val[0]),
       c_store(M->a, dt, C_CUDA, val[1]));
    ln(M,
       "*reinterpret_cast<%s *>(&reinterpret_cast<%s *>(%s)[mt_r * %d + mt_c0]) = "
       "*reinterpret_cast<const %s *>(mt_p);",
       bytes == 2 ? "unsigned" : "uint2", mt, M->stage_smem, ld, bytes == 2 ? "unsigned" : "uint2");
    M->indent--;
    ln(M, "}");
}

/* The barrier of the epilogue's threads (the accumulator's holders). */
static const char *epi_barrier(const Mma *M) {
    return M->epi_bar ? M->epi_bar : "__syncthreads();";
}

/* Phase 2: after a barrier, the block from the buffer to global memory in
 * 16-byte groups along its rows, each one vector store where its
 * addresses are consecutive, aligned and unmasked, else element-wise. */
static void emit_staged_copy_out(Mma *M, const Inst *in, int ld) {
    const Function *f = M->f;
    const MmaPlan *P = M->P;
    const Loop *l = P->loop->loop;
    int base = pointer_param(f, l, in->args[0]);
    const char *bname = base_name(M, base);
    DType dt = (DType)operand_type(f, in->args[1]).dtype;
    int bytes = dtype_info(dt)->bits / 8, V = 16 / bytes, T = 32 * P->warps;
    int groups = P->BM * P->BN / V, per = (groups + T - 1) / T;
    const char *mt = c_mem_type(dt, C_CUDA);
    const char *idx = render(M, in->args[0], "mt_r", "(mt_c + q)", -1);
    const char *mask =
        in->args[2].kind == OPD_NONE ? "true" : render(M, in->args[2], "mt_r", "(mt_c + q)", -1);
    const char *al = align_test(M, base, 16);
    ln(M, "%s", epi_barrier(M));
    ln(M, "#pragma unroll");
    ln(M, "for (int mt_s = 0; mt_s < %d; mt_s++) {", per);
    M->indent++;
    ln(M, "const int mt_g = mt_s * %d + (int)threadIdx.x;", T);
    if (groups % T) ln(M, "if (mt_g < %d) {", groups), M->indent++;
    ln(M, "const int mt_r = mt_g / %d, mt_c = (mt_g %% %d) * %d;", P->BN / V, P->BN / V, V);
    ln(M, "const %s *const mt_src = &reinterpret_cast<const %s *>(%s)[mt_r * %d + mt_c];", mt, mt,
       M->stage_smem, ld);
    ln(M, "%s mt_j[%d];", M->index_type, V);
    ln(M, "bool mt_m[%d], mt_all = true;", V);
    ln(M, "#pragma unroll");
    ln(M, "for (int q = 0; q < %d; q++) {", V);
    ln(M, "    mt_j[q] = %s;", idx);
    ln(M, "    mt_m[q] = %s;", mask);
    ln(M, "    mt_all = mt_all && mt_m[q] && mt_j[q] == mt_j[0] + q;");
    ln(M, "}");
    ln(M, "if (mt_all && (mt_j[0] & %d) == 0%s) {", V - 1, al);
    ln(M,
       "    *reinterpret_cast<uint4 *>(&%s[mt_j[0]]) = *reinterpret_cast<const uint4 *>(mt_src);",
       bname);
    ln(M, "} else {");
    ln(M, "    #pragma unroll");
    ln(M, "    for (int q = 0; q < %d; q++)", V);
    ln(M, "        if (mt_m[q]) %s[mt_j[q]] = mt_src[q];", bname);
    ln(M, "}");
    if (groups % T) M->indent--, ln(M, "}");
    M->indent--;
    ln(M, "}");
}

/* The ops after the loop, per pair of fragment elements (rows g and g + 8
 * of each 16 x 8 block: h = 0, 1; columns 2t and 2t + 1: the values
 * vN_0 and vN_1). */
/* Whether value `in` is a cast that its store makes (stored_cast): not
 * computed apart. */
static int stored_cast_value(const Mma *M, const Inst *in) {
    const Block *top = top_block(M->f);
    for (int i = 0; i < top->items.len; i++) {
        const Inst *st = top->items.items[i];
        if (st->op == OP_STORE && stored_cast(M, st) == in) return 1;
    }
    return 0;
}

void mma_epilogue(Mma *M) {
    const Function *f = M->f;
    const MmaPlan *P = M->P;
    const Loop *l = P->loop->loop;
    const char *epi = P->epi;
    const char **ename[2] = {ARENA_ARRAY(M->a, const char *, f->nvalues + 1),
                             ARENA_ARRAY(M->a, const char *, f->nvalues + 1)};
    int perm = M->frag_perm, loops = perm ? 4 : 3;
    /* one store after the loop may go through the staging buffer */
    const Inst *staged = NULL;
    int stores = 0, past_loop = 0, ld = 0;
    const Block *top = top_block(f);
    for (int i = 0; i < top->items.len; i++) {
        const Inst *in = top->items.items[i];
        past_loop |= in == P->loop;
        if (past_loop && in->op == OP_STORE) stores++, staged = in;
    }
    if (stores == 1) ld = staged_row(M, staged, epi);
    /* the buffer is the ring: every warp's last reads of it come first */
    if (ld) ln(M, "%s", epi_barrier(M));
    ln(M, "#pragma unroll");
    ln(M, "for (int mi = 0; mi < %d; mi++) {", M->frag_mt);
    M->indent++;
    ln(M, "#pragma unroll");
    ln(M, "for (int ni = 0; ni < %d; ni++) {", perm ? M->frag_nt / 2 : M->frag_nt);
    M->indent++;
    ln(M, "#pragma unroll");
    ln(M, "for (int mt_h = 0; mt_h < 2; mt_h++) {");
    M->indent++;
    if (perm) {
        /* pair ni: blocks 2 ni and 2 ni + 1, the same element 2 mt_h + mt_w of each
         * (columns 8t + 4w + v and v + 1 of group ni / 2, frag_coords) */
        ln(M, "#pragma unroll");
        ln(M, "for (int mt_w = 0; mt_w < 2; mt_w++) {");
        M->indent++;
        M->pair_elem[0] = "mt_acc[mi][2 * ni][2 * mt_h + mt_w]";
        M->pair_elem[1] = "mt_acc[mi][2 * ni + 1][2 * mt_h + mt_w]";
    } else {
        M->pair_elem[0] = "mt_acc[mi][ni][2 * mt_h]";
        M->pair_elem[1] = "mt_acc[mi][ni][2 * mt_h + 1]";
    }
    ln(M, "const int mt_r = %s + mi * %d + (mt_lane >> 2) + mt_h * 8;", M->frag_r0, M->frag_rstep);
    if (perm)
        ln(M,
           "const int mt_c0 = %s + (ni >> 1) * 32 + (mt_lane & 3) * 8 + mt_w * 4 + (ni & 1) * 2, "
           "mt_c1 = mt_c0 + 1;",
           M->frag_c0);
    else ln(M, "const int mt_c0 = %s + ni * 8 + (mt_lane & 3) * 2, mt_c1 = mt_c0 + 1;", M->frag_c0);
    ln(M, "(void)mt_r, (void)mt_c0, (void)mt_c1;");
    int past = 0;
    for (int i = 0; i < top->items.len; i++) {
        const Inst *in = top->items.items[i];
        if (in == P->loop) {
            past = 1;
            continue;
        }
        if (!past) continue;
        if (in->op == OP_STORE) {
            if (ld) emit_pair_stage(M, in, ename, ld);
            else emit_pair_store(M, in, ename);
            continue;
        }
        if (!epi[in->result] || stored_cast_value(M, in)) continue;
        DType dt = (DType)in->type.dtype;
        for (int e = 0; e < 2; e++) {
            const char *c = e ? "mt_c1" : "mt_c0";
            M->ename = ename[e];
            M->acc_elem = M->pair_elem[e];
            const char *x;
            if (in->op == OP_LOAD) {
                int base = pointer_param(f, l, in->args[0]);
                x = c_load(M->a, dt, C_CUDA,
                           arena_printf(M->a, "%s[%s]", base_name(M, base),
                                        render(M, in->args[0], "mt_r", c, -1)));
                if (in->args[1].kind != OPD_NONE) {
                    const char *other = in->args[2].kind == OPD_NONE
                                            ? c_zero(dt)
                                            : render(M, in->args[2], "mt_r", c, -1);
                    x = arena_printf(M->a, "(%s ? %s : (%s)(%s))",
                                     render(M, in->args[1], "mt_r", c, -1), x, c_type(dt), other);
                }
            } else {
                x = render_op(M, in, "mt_r", c, 0);
            }
            ln(M, "const %s v%d_%d = %s;", c_type(dt), in->result, e, x);
            ename[e][in->result] = arena_printf(M->a, "v%d_%d", in->result, e);
        }
    }
    for (int k = 0; k < loops; k++) {
        M->indent--;
        ln(M, "}");
    }
    if (ld) emit_staged_copy_out(M, staged, ld);
}

/* The accumulator in the fragment layout of M, set to the loop's init. */
void mma_acc_init(Mma *M) {
    const Loop *l = M->P->loop->loop;
    ln(M, "%s mt_acc[%d][%d][4];", M->acc_type ? M->acc_type : "float", M->frag_mt, M->frag_nt);
    M->acc_elem = NULL;
    open_frag(M, 1);
    ln(M, "mt_acc[mi][ni][q] = %s;", render(M, l->inits[M->P->acc_lane], "mt_r", "mt_c", -1));
    close_frag(M);
}

/* The loop's bounds and trip count. */
void mma_trip_count(Mma *M) {
    const Loop *l = M->P->loop->loop;
    const char *start = render(M, l->start, "0", "0", -1);
    const char *stop = render(M, l->stop, "0", "0", -1);
    long long step = l->step.c.i;
    ln(M, "const int mt_start = %s, mt_stop = %s;", start, stop);
    ln(M,
       "const int mt_n = mt_stop > mt_start ? (int)(((long long)mt_stop - mt_start + %lld) / %lld) "
       ": 0;",
       step - 1, step);
}

/* The mma.sync body's stage layout as a number: rows padded to lda / ldb. */
static int padded_offset(const Mma *M, int k, int gr, int gc) {
    return gr * (k ? M->P->ldb : M->P->lda) + gc;
}

/* `text` with every line not a preprocessor one indented by n more spaces. */
static const char *indented(Arena *a, const char *text, int n) {
    StrBuf sb;
    sb_init(&sb, a);
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        sb_printf(&sb, "%*s%.*s\n", len && *p != '#' ? n : 0, "", (int)len, p);
        p += len + (e != NULL);
    }
    return sb_str(&sb);
}

/* The loops around the K loop (MmaPlan.levels) as C loops around the
 * body: level d's carried scalars (mt_l<d>_<k>), then a `for` over its
 * index (mt_i<d>) or a `while (true)` that computes its condition and
 * leaves when it fails; per iteration the level's scalars, the next level
 * (the innermost: the body, a tile's K loop and epilogue, and a barrier:
 * the next tile's copies reuse the ring), and the carried scalars' next
 * values. Rendered first (every scalar to its level's buffer), printed
 * after. */
static const char *tile_loop(Mma *M, const char *body) {
    const MmaPlan *P = M->P;
    Arena *a = M->a;
    int n = P->nlevels;
    const char *head[MMA_MAX_LEVELS], *test[MMA_MAX_LEVELS], *inits[MMA_MAX_LEVELS],
        *next[MMA_MAX_LEVELS];
    for (int d = n - 1; d >= 0; d--) {
        const Loop *o = P->levels[d]->loop;
        const char *ind = arena_printf(a, "%*s", 4 * (d + 1), ""), *in2 = arena_printf(a,
                                                                                       "%s    "
                                                                                       "",
                                                                                       ind);
        StrBuf sb, nx;
        sb_init(&sb, a);
        sb_init(&nx, a);
        for (int k = 0; k < o->ncarried; k++) {
            const char *T = c_type((DType)M->f->types[o->args[k]].dtype);
            sb_printf(&sb,
                      "%s%s mt_l%d_%d = "
                      "%s;\n",
                      ind, T, d, k, render(M, o->inits[k], "0", "0", -1));
            sb_printf(&nx, "%sconst %s mt_l%d_%d_next = %s;\n", in2, T, d, k,
                      render(M, o->yields[k], "0", "0", -1));
        }
        for (int k = 0; k < o->ncarried; k++)
            sb_printf(&nx,
                      "%smt_l%d_%d = "
                      "mt_l%d_%d_next;\n",
                      in2, d, k, d, k);
        inits[d] = sb_str(&sb);
        next[d] = sb_str(&nx);
        if (P->levels[d]->op == OP_FOR)
            head[d] =
                arena_printf(a,
                             "%sfor (%s mt_i%d = %s; mt_i%d < %s; mt_i%d += %lld) { /* "
                             "the loop at line %d */\n",
                             ind, c_type((DType)M->f->types[o->index].dtype), d,
                             render(M, o->start, "0", "0", -1), d, render(M, o->stop, "0", "0", -1),
                             d, (long long)o->step.c.i, P->levels[d]->pos.line);
        else
            head[d] = arena_printf(a,
                                   "%swhile (true) { /* the loop at line %d "
                                   "*/\n",
                                   ind, P->levels[d]->pos.line);
        test[d] = P->levels[d]->op == OP_WHILE ? arena_printf(a,
                                                              "%sif (!(%s)) "
                                                              "break;\n",
                                                              in2, render(M, o->cond, "0", "0", -1))
                                               : "";
    }
    /* innermost first: each level wraps the text of the one inside it */
    const char *text = arena_printf(a,
                                    "%s%*s__syncthreads(); /* the next tile's copies reuse the "
                                    "ring */\n",
                                    indented(a, body, 4 * n), 4 * (n + 1), "");
    for (int d = n - 1; d >= 0; d--)
        text = arena_printf(a, "%s%s%s%s%s%s%s%*s}\n", inits[d], head[d], sb_str(&M->level_cond[d]),
                            test[d], sb_str(&M->level_pre[d]), text, next[d], 4 * (d + 1), "");
    return text;
}

/* The emitter's state for one plan: names, buffers, the index type. */
static void mma_setup(Mma *M, Arena *a, const Function *f, MmaPlan *P, const char *symbol,
                      const int *param_div, StrBuf *body) {
    M->a = a;
    M->f = f;
    M->P = P;
    M->cb.a = a;
    M->cb.f = f;
    M->pnames = c_param_names(a, f);
    M->param_div = param_div;
    M->sname = ARENA_ARRAY(a, const char *, f->nvalues + 1);
    M->ename = ARENA_ARRAY(a, const char *, f->nvalues + 1);
    M->index_type = "int";
    for (int i = 0; i < f->nvalues; i++)
        if (f->defs[i] && f->defs[i]->op == OP_ADDPTR &&
            dtype_info((DType)operand_type(f, f->defs[i]->args[1]).dtype)->bits == 64)
            M->index_type = "long long";
    sb_init(&M->pre, a);
    for (int d = 0; d < MMA_MAX_LEVELS; d++)
        sb_init(&M->level_pre[d], a), sb_init(&M->level_cond[d], a);
    sb_init(&M->fns, a);
    M->symbol = symbol;
    sb_init(body, a);
    M->out = body;
    M->indent = 1;
}

/* The body's head: the early exit, the plan's comment, the lanes, the
 * sm_90a body (wgmma) and the warp tile's fragments. */
static void mma_head(Mma *M, int ffma, int perm) {
    const MmaPlan *P = M->P;
    const Function *f = M->f;
    const Loop *l = P->loop->loop;
    int T = 32 * P->warps;
    /* an early exit first: the scalars rendered after it are computed
     * only where the kernel runs (a load it guards among them) */
    int when = 0;
    const Inst *guard = guard_of(f, NULL, &when);
    if (guard)
        sb_printf(&M->pre, "    if (%s(%s)) return; /* the early exit at line %d */\n",
                  when ? "!" : "", render(M, guard->loop->cond, "0", "0", -1), guard->pos.line);
    ln(M,
       "// %%%d: (%d, %d) x (%d, %d) %s dot per iteration; %d warps as %d x %d, each a (%d, %d) "
       "accumulator in mma.sync fragments%s; %d stage%s%s",
       l->results[P->acc_lane], P->BM, P->BK, P->BK, P->BN,
       P->shape->split ? "tf32x3" : P->shape->name, P->warps, P->wm, P->wn, P->BM / P->wm,
       P->BN / P->wn, ffma ? " (CUDA-core fmaf)" : "", P->stages, P->stages > 1 ? "s" : "",
       P->bt ? "; B k-major (staged transposed)" : "");
    /* (a warp index made uniform by a shuffle puts the wgmma descriptors in
     * uniform registers, but ptxas 13.0 then serializes the wgmma's: C7514) */
    ln(M, "const int mt_lane = (int)threadIdx.x & 31, mt_warp = (int)threadIdx.x >> 5;");
    if (P->wg.on) {
        /* sm_90a: the whole body (its accumulator layout differs) */
        ln(M, "#if MT_WGMMA_SM90");
        emit_wgmma(M);
        ln(M, "#else");
        if (P->threads_sm90 > T) {
            /* an sm_90 device launches the producer warps too (plain
             * sm_90 code: this body) */
            ln(M, "#if MT_ARCH_SM90");
            ln(M, "if ((int)threadIdx.x >= %d) return;", T);
            ln(M, "#endif");
        }
    }
    ln(M, "const int mt_wr = mt_warp / %d, mt_wc = mt_warp %% %d;", P->wn, P->wn);
    ln(M, "(void)mt_wr, (void)mt_wc;");
    M->frag_mt = P->BM / P->wm / 16;
    M->frag_nt = P->BN / P->wn / 8;
    M->frag_rstep = 16;
    M->frag_r0 = arena_printf(M->a, "mt_wr * %d", P->BM / P->wm);
    M->frag_c0 = arena_printf(M->a, "mt_wc * %d", P->BN / P->wn);
    M->frag_perm = perm;
    M->acc_type = c_type(P->shape->acc);
    mma_acc_init(M);
    mma_trip_count(M);
}

/* The shared-memory ring and mt_copy, the copy of iteration mt_t's
 * operand blocks into stage mt_st; the architecture test opens here. */
static void mma_stage_ring(Mma *M, const char *mt, int stage_elems) {
    const MmaPlan *P = M->P;
    Arena *a = M->a;
    long long step = P->loop->loop->step.c.i;
    /* the shape's least architecture (fp8: sm_89), else the fallback */
    const char *sm80 =
        P->shape->sm > 80
            ? arena_printf(a, "(MT_MMA_TILE_SM80 && __CUDA_ARCH__ >= %d)", P->shape->sm * 10)
            : "MT_MMA_TILE_SM80";
    if (!P->shape->ldsm_b) { /* (emulated too) */
        ln(M, "#if %s || MT_MMA_TILE_EMULATED", sm80);
        ln(M, "#if MT_MMA_TILE_EMULATED");
        ln(M, "static __align__(16) unsigned char mt_smem[%d];", P->smem);
        ln(M, "#else");
        ln(M, "extern __shared__ __align__(16) unsigned char mt_smem[];");
        ln(M, "#endif");
    } else {
        ln(M, "#if %s", sm80);
        ln(M, "extern __shared__ __align__(16) unsigned char mt_smem[];");
    }
    ln(M, "%s *const mt_stages = (%s *)mt_smem;", mt, mt);
    M->dst_index[0] = arena_printf(a, "mt_gr * %d + mt_gc", P->lda);
    M->dst_index[1] = arena_printf(a, "mt_gr * %d + mt_gc", P->ldb);
    M->dst_offset = padded_offset;
    mma_copy_bases(M, 0);
    mma_copy_bases(M, 1);
    ln(M, "auto mt_copy = [&](int mt_t, int mt_st) {");
    M->indent++;
    ln(M, "const int mt_k = mt_start + mt_t * %lld;", step);
    ln(M, "(void)mt_k;");
    ln(M, "%s *const mt_sa = mt_stages + mt_st * %d;", mt, stage_elems);
    ln(M, "%s *const mt_sb = mt_sa + %d;", mt, P->BM * P->lda);
    mma_copy(M, 0, "mt_sa");
    mma_copy(M, 1, "mt_sb");
    M->dst_index[0] = M->dst_index[1] = NULL;
    M->dst_offset = NULL;
    M->indent--;
    ln(M, "};");
}

/* The K loop over the ring of P.stages stages: the prologue's copies,
 * then per iteration a wait, the next copy and the tile's products. */
static void mma_pipeline(Mma *M, const char *mt, int stage_elems, int ffma, int perm) {
    const MmaPlan *P = M->P;
    int S = P->stages;
    if (S > 1) {
        ln(M, "#pragma unroll");
        ln(M, "for (int mt_p = 0; mt_p < %d; mt_p++) {", S - 1);
        ln(M, "    if (mt_p < mt_n) mt_copy(mt_p, mt_p);");
        ln(M, "    mt_cp_async_commit();");
        ln(M, "}");
    }
    ln(M, "for (int mt_t = 0; mt_t < mt_n; mt_t++) {");
    M->indent++;
    if (S > 1) {
        ln(M, "mt_cp_async_wait<%d>();", S - 2);
        ln(M, "__syncthreads();");
        ln(M, "if (mt_t + %d < mt_n) mt_copy(mt_t + %d, (mt_t + %d) %% %d);", S - 1, S - 1, S - 1,
           S);
        ln(M, "mt_cp_async_commit();");
        ln(M, "const %s *const mt_sa = mt_stages + (mt_t %% %d) * %d;", mt, S, stage_elems);
    } else {
        ln(M, "mt_copy(mt_t, 0);");
        ln(M, "mt_cp_async_commit();");
        ln(M, "mt_cp_async_wait<0>();");
        ln(M, "__syncthreads();");
        ln(M, "const %s *const mt_sa = mt_stages;", mt);
    }
    ln(M, "const %s *const mt_sb = mt_sa + %d;", mt, P->BM * P->lda);
    if (ffma) emit_compute_ffma(M, "mt_sa", "mt_sb");
    else if (perm) emit_compute_perm(M, "mt_sa", "mt_sb");
    else emit_compute(M, "mt_sa", "mt_sb");
    if (S == 1) ln(M, "__syncthreads();");
    M->indent--;
    ln(M, "}");
}

/* The epilogue after the tensor-core loop, the CUDA-core fallback with
 * its own epilogue, and the architecture tests closed. */
static void mma_tail(Mma *M) {
    const MmaPlan *P = M->P;
    /* the ring is free after the loop: the epilogue's store staged
     * through it; the CUDA-core fallback stores from its fragments */
    M->stage_smem = "mt_stages";
    M->stage_bytes = P->smem;
    mma_epilogue(M);
    M->stage_smem = NULL;
    M->ename = ARENA_ARRAY(M->a, const char *, M->f->nvalues + 1);
    M->acc_elem = NULL;
    ln(M, "#else");
    emit_fallback(M);
    mma_epilogue(M);
    ln(M, "#endif");
    if (P->wg.on) ln(M, "#endif");
}

/* The unit: the helpers the code calls, the kernel's signature and body. */
static const char *mma_assemble(Mma *M, StrBuf *body) {
    const MmaPlan *P = M->P;
    const Function *f = M->f;
    Arena *a = M->a;
    int T = 32 * P->warps;
    StrBuf out;
    sb_init(&out, a);
    sb_puts(&out, cuda_mma_helpers());
    if (!P->shape->ldsm_b) sb_puts(&out, cuda_mma_perm_helpers(a));
    if (P->wg.on) sb_puts(&out, wgmma_helpers(a, P));
    /* (the loop over tiles renders scalars of kernel entry: first) */
    const char *tiles = P->outer ? tile_loop(M, sb_str(body)) : NULL;
    /* the helpers that the kernel entry's scalars and the body call */
    const char *code = arena_printf(a, "%s%s", sb_str(&M->pre), tiles ? tiles : sb_str(body));
    sb_puts(&out, c_triton_helpers(a, code));
    sb_puts(&out, asm_cuda_helpers(a, f, code));
    sb_puts(&out, sb_str(&M->fns));
    if (P->threads_sm90 > T)
        sb_printf(&out,
                  "extern \"C\" __global__ __launch_bounds__(MT_ARCH_SM90 ? %d : %d)\nvoid %s(",
                  P->threads_sm90, T, M->symbol);
    else sb_printf(&out, "extern \"C\" __global__ __launch_bounds__(%d)\nvoid %s(", T, M->symbol);
    for (int i = 0; i < f->nparams; i++)
        sb_printf(&out, "%s%s %s", i ? ", " : "", c_param_type(a, f->params[i].type), M->pnames[i]);
    sb_puts(&out, ") {\n");
    sb_puts(&out, sb_str(&M->pre));
    sb_puts(&out, tiles ? tiles : sb_str(body));
    sb_puts(&out, "}\n");
    return sb_str(&out);
}

const char *emit_cuda_mma(Arena *a, const Function *f, const MmaPlan *plan, const char *symbol,
                          const int *param_div) {
    MmaPlan P = *plan;
    Mma M = {0};
    StrBuf body;
    mma_setup(&M, a, f, &P, symbol, param_div, &body);
    int stage_elems = P.BM * P.lda + mma_stage_rows(&P, 1) * P.ldb;
    const char *mt = c_mem_type(P.in_dt, C_CUDA);
    /* TF32, int8 and ieee also run in test/emu's CPU emulation (mma_helpers_perm) */
    int ffma = P.shape->cuda_core, perm = !P.shape->ldsm_b && !ffma && !P.bt;
    mma_head(&M, ffma, perm);
    mma_stage_ring(&M, mt, stage_elems);
    mma_pipeline(&M, mt, stage_elems, ffma, perm);
    mma_tail(&M);
    return mma_assemble(&M, &body);
}
