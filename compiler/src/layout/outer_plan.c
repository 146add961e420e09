/* The plan of -O2's outer-product loops (passes/outer.h's outer_match) on
 * the CUDA cores: which loop of a kernel the staged emission takes
 * (backends/cuda/emit_cuda_fma.c prints it), each thread's register
 * micro-tile, and the grouping of programs per block. Moved here from the
 * emitter: the layout stage decides, the emitter prints. */
#include "layout/layout.h"
#include "passes/outer.h"

/* The loop as outer.c matched it, on this kernel's tile: the accumulator
 * is the tile, whose sides are multiples of 4 (not a bounding box of
 * differently shaped blocks: shape.h dot_box). */
int layout_outer_match(const Function *f, const TileInfo *t, const Inst *in, OuterLoop *m) {
    if (in->op != OP_FOR || t->rank != 2 || t->rows < 4 || t->cols < 4 || t->rows % 4 ||
        t->cols % 4 || t->dot_box)
        return 0;
    if (!outer_match(f, in, m)) return 0;
    Type acc = f->types[in->loop->args[0]];
    const Inst *loads[OUTER_MAX_LOADS];
    return acc.dims[0] == t->rows && acc.dims[1] == t->cols &&
           layout_outer_loads(f, in->loop, m->x, loads, 0, 0) >= 0 &&
           layout_outer_loads(f, in->loop, m->y, loads, 0, 0) >= 0;
}

/* Whether `o` depends on tl.program_id(axis) (any axis: -1), or on a
 * value it cannot see through (another region's result); seen: by value,
 * 1 visited, 2 dependent. */
static int pid_dep(const Function *f, const Loop *l, Operand o, int axis, char *seen, int depth) {
    if (o.kind != OPD_VALUE || o.id == l->index) return 0;
    if (seen[o.id]) return seen[o.id] == 2;
    seen[o.id] = 1;
    const Inst *d = f->defs[o.id];
    int dep = depth > 256 || !d || op_has(d->op, OPF_REGION) ||
              (d->op == OP_PROGRAM_ID && (axis < 0 || d->attrs.axis == axis));
    for (int k = 0; !dep && k < d->nargs; k++)
        dep = pid_dep(f, l, d->args[k], axis, seen, depth + 1);
    if (dep) seen[o.id] = 2;
    return dep;
}

static int pid_free(Arena *a, const Function *f, const Loop *l, Operand o, int axis) {
    char *seen = ARENA_ARRAY(a, char, f->nvalues + 1);
    return !pid_dep(f, l, o, axis, seen, 0);
}

/* Grouping programs (TileInfo.group_m, group_n): a small tile's program is
 * one warp whose few accumulators per thread leave the loop bound by its
 * staging (the 16 x 16 seed form, one warp of 2 x 4 accumulators: each k
 * step reads 6 words of shared memory for 8 FMAs, and each program loads
 * and stores its own chunks of X and Y). Four neighbouring programs in one
 * block need 2 chunks of X and 2 of Y, not 4 of each: program (pm, pn)
 * reads row pm's X and column pn's Y, each loaded by one warp of the
 * block. That needs X to be the same for every program of a grid row
 * (free of tl.program_id(1)), Y for every program of a grid column, the
 * loop's bounds the same in all (its barriers are the block's), and no
 * other shared memory (elementwise ops, loads and stores around the loop
 * only). The launcher runs the grouped kernel where the grid's x and y
 * are even; elsewhere the kernel of one program per block. */
void layout_outer_group(Arena *a, const Function *f, const TileInfo *t, int *gm, int *gn) {
    *gm = *gn = 0;
    const Inst *loop = layout_outer_find(f, t);
    if (!loop || t->block_threads != 32 || t->tm * t->tn > 8) return;
    OuterLoop m;
    if (!outer_match(f, loop, &m)) return;
    const Loop *l = loop->loop;
    int uses_y = 0;
    for (int i = 0; i < f->body.items.len; i++) {
        const Inst *in = f->body.items.items[i];
        if (in == loop) continue;
        if (in->op == OP_PROGRAM_ID && in->attrs.axis == 1) uses_y = 1;
        if (op_has(in->op, OPF_REDUCE) ||
            !(op_regenerable(in->op) || in->op == OP_LOAD || in->op == OP_STORE))
            return;
    }
    if (uses_y && pid_free(a, f, l, l->start, -1) && pid_free(a, f, l, l->stop, -1) &&
        pid_free(a, f, l, l->step, -1) && pid_free(a, f, l, m.x, 1) && pid_free(a, f, l, m.y, 0))
        *gm = *gn = 2;
}

int layout_outer_loop(const Function *f, const TileInfo *t, const Inst *loop) {
    OuterLoop m;
    return layout_outer_match(f, t, loop, &m);
}

const Inst *layout_outer_find(const Function *f, const TileInfo *t) {
    OuterLoop m;
    for (int i = 0; i < f->body.items.len; i++) {
        const Inst *in = f->body.items.items[i];
        if (layout_outer_match(f, t, in, &m)) return in;
    }
    return NULL;
}

/* The register micro-tile: each thread accumulates tm x tn elements of
 * the tile over the whole loop. A thread holds its accumulators, one
 * k-step's tm + tn operands, the next chunk's prefetch (about 12
 * registers per staged group of 4: values, indices, masks) and about 32
 * registers of loop state (ptxas -v on sm_90 for the suite's tiles: within
 * 20% of this count); the
 * block's threads share an SM's 65536 registers, at most 255 each. Among
 * the micro-tiles of at most 8 x 8 that divide the tile, spread it over
 * 32 to 1024 threads and need at most 255 registers: first those whose
 * block fits the register file, then those with enough threads (128,
 * Triton's 4 warps, for tiles of 64 x 64 and more; one warp below, where
 * more threads would leave each a few accumulators, and reading shared
 * memory and staging would bound the loop: on the H200, 32 threads ran
 * the seed form's 16 x 16 tile in 1.16 ms against 1.40 with 64 threads and
 * 2.73 with 256, its 32 x 32 tile in 0.61 ms against 0.66 with 64), then
 * the most accumulators (reuse of each operand read), then the squarest,
 * then more rows. */
static int microtile_regs(int R, int C, int tm, int tn) {
    int T = R * C / (tm * tn);
    int groups = (R * OUTER_BK / 4 + T - 1) / T + (C * OUTER_BK / 4 + T - 1) / T;
    return tm * tn + tm + tn + 12 * groups + 32;
}

void layout_fma_microtile(int R, int C, int *tm, int *tn) {
    static const int sides[] = {1, 2, 4, 8};
    int want = R * C >= 4096 ? 128 : 32, least = R * C < 32 ? R * C : 32;
    int best = -1, bm = 1, bn = 1;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++) {
            int m = sides[a], n = sides[b];
            if (R % m || C % n) continue;
            int T = R * C / (m * n), regs = microtile_regs(R, C, m, n);
            if (T < least || T > 1024 || regs > 255) continue;
            int skew = a > b ? a - b : b - a;
            int score = (T * regs <= 65536) * 100000 + (T >= want) * 10000 + m * n * 10 +
                        (3 - skew) * 2 + (m >= n);
            if (score > best) best = score, bm = m, bn = n;
        }
    *tm = bm;
    *tn = bn;
}

int layout_outer_loads(const Function *f, const Loop *l, Operand o, const Inst **out, int n,
                       int depth) {
    if (n < 0 || depth > 64 || o.kind != OPD_VALUE || o.id == l->index) return n;
    const Inst *d = f->defs[o.id];
    if (!d || (f->types[o.id].rank == 0 && !ssa_block_holds(&l->body, d))) return n;
    for (int k = 0; k < d->nargs; k++) n = layout_outer_loads(f, l, d->args[k], out, n, depth + 1);
    if (n < 0 || d->op != OP_LOAD) return n;
    for (int i = 0; i < n; i++)
        if (out[i] == d) return n;
    if (n == OUTER_MAX_LOADS) return -1;
    out[n] = d;
    return n + 1;
}
