/* The base of every pointer value (ptrbase.h): the CUDA and host backends
 * hold a pointer as an element index from one base, a pointer parameter
 * or a scalar pointer that tl.int_to_ptr made from an address. Which
 * parameters a kernel writes through (the launchers' const), and the check
 * that a loop or branch keeps each pointer lane's base. */
#include "passes/ptrbase.h"

static int base_of(const int *base, Operand o) {
    return o.kind == OPD_PARAM ? o.id : o.kind == OPD_VALUE ? base[o.id] : -1;
}

static void bases(const Function *f, const Block *b, int *base) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        if (n) {
            const Loop *l = in->loop;
            for (int k = 0; k < l->ncarried; k++)
                base[l->args[k]] = base[l->results[k]] = base_of(base, l->inits[k]);
            for (int k = 0; k < n; k++) bases(f, sub[k], base);
            /* an if's lanes: the base of the then branch's yield */
            for (int k = l->ncarried; k < l->nresults; k++)
                base[l->results[k]] = base_of(base, l->yields[k]);
            continue;
        }
        if (in->result < 0 || !in->type.ptr) continue;
        if (in->op == OP_INT_TO_PTR) base[in->result] = f->nparams + in->result;
        else if (in->op == OP_SELECT && base_of(base, in->args[1]) == base_of(base, in->args[2]))
            base[in->result] = base_of(base, in->args[1]);
        else if (in->op != OP_SELECT && in->nargs > 0) /* addptr, hints, shape ops */
            base[in->result] = base_of(base, in->args[0]);
    }
}

int *ssa_pointer_bases(Arena *a, const Function *f) {
    int *base = ARENA_ARRAY(a, int, f->nvalues + 1);
    for (int i = 0; i < f->nvalues; i++) base[i] = -1;
    bases(f, &f->body, base);
    return base;
}

/* written[p] = 1 where the kernel writes through parameter p; escaped[p]
 * where p's address becomes an integer (tl.int64 casts, pointers a runtime
 * if chooses); *unknown where it writes through an address made a pointer. */
static void mark_written(const Function *f, const Block *b, const int *base, int *written,
                         int *escaped, int *unknown) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++) mark_written(f, sub[k], base, written, escaped, unknown);
        if (n) continue;
        if (in->op == OP_PTR_TO_INT) {
            int bs = base_of(base, in->args[0]);
            if (bs >= 0 && bs < f->nparams) escaped[bs] = 1;
        }
        /* stores and atomics write through their pointer operand */
        if (in->op != OP_STORE && in->op != OP_ATOMIC_RMW && in->op != OP_ATOMIC_CAS) continue;
        int bs = base_of(base, in->args[0]);
        if (bs >= 0 && bs < f->nparams) written[bs] = 1;
        else *unknown = 1;
    }
}

int *ssa_written_params(Arena *a, const Function *f) {
    int *written = ARENA_ARRAY(a, int, f->nparams + 1);
    int *escaped = ARENA_ARRAY(a, int, f->nparams + 1), unknown = 0;
    mark_written(f, &f->body, ssa_pointer_bases(a, f), written, escaped, &unknown);
    /* a write through an address may be a write through any parameter
     * whose address escaped (not const in the launcher) */
    for (int p = 0; unknown && p < f->nparams; p++)
        if (escaped[p]) written[p] = 1;
    return written;
}

/* Whether pointer lane k of `in` keeps one base: no two of its inputs
 * (the carried one, the yields) with different known bases. */
static int lane_keeps_base(const Inst *in, int k, const int *base) {
    const Loop *l = in->loop;
    int b[3] = {k < l->ncarried ? base_of(base, l->inits[k]) : -1,
                k < l->nyields ? base_of(base, l->yields[k]) : -1,
                in->op == OP_IF && l->else_yields ? base_of(base, l->else_yields[k]) : -1};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < i; j++)
            if (b[i] >= 0 && b[j] >= 0 && b[i] != b[j]) return 0;
    return 1;
}

static int check_lanes(MtContext *ctx, const Function *f, const Block *b, const int *base) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        if (!n) continue;
        const Loop *l = in->loop;
        for (int k = 0; k < l->nresults; k++)
            if (f->types[l->results[k]].ptr && !lane_keeps_base(in, k, base)) {
                mt_error(ctx, in->pos,
                         "a loop-carried or branch-merged pointer must keep its base: one pointer "
                         "parameter, or one address cast with tl.pointer_type (the CUDA and host "
                         "backends hold a pointer as an index from one base)");
                return 0;
            }
        for (int k = 0; k < n; k++)
            if (!check_lanes(ctx, f, sub[k], base)) return 0;
    }
    return 1;
}

int ssa_check_pointer_lanes(MtContext *ctx, Arena *a, const Function *f) {
    return check_lanes(ctx, f, &f->body, ssa_pointer_bases(a, f));
}
