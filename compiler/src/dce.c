/* Dead-code elimination: removes ops whose values are never used and that
 * write nothing (pure ops and loads), and loops whose results are unused
 * and whose bodies store nothing.
 * Requires: verified SSA. Preserves: value numbers of what remains.
 * Region-aware: uses are counted across all regions (yields, bounds and
 * carried inputs included). */
#include "passes.h"

typedef struct Dce {
    Function *f;
    int *uses;
    PassStats *st;
    int changed;
} Dce;

static void count_one(Operand *o, void *user) {
    if (o->kind == OPD_VALUE) ((Dce *)user)->uses[o->id]++;
}

static void uncount_one(Operand *o, void *user) {
    if (o->kind == OPD_VALUE) ((Dce *)user)->uses[o->id]--;
}

static int block_writes(const Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        if (op_has(in->op, OPF_WRITES)) return 1;
        if (in->op == OP_FOR && block_writes(&in->loop->body)) return 1;
    }
    return 0;
}

static int removable(Dce *D, Inst *in) {
    if (in->op == OP_FOR) {
        for (int k = 0; k < in->loop->nresults; k++)
            if (D->uses[in->loop->results[k]] > 0) return 0;
        return !block_writes(&in->loop->body);
    }
    if (op_has(in->op, OPF_WRITES) || in->result < 0) return 0;
    return D->uses[in->result] == 0;
}

static void dce_block(Dce *D, Block *b) {
    /* backwards, so a chain of dead values goes in one sweep */
    for (int i = b->items.len - 1; i >= 0; i--) {
        Inst *in = b->items.items[i];
        if (in->op == OP_FOR) dce_block(D, &in->loop->body);
        if (!removable(D, in)) continue;
        ssa_for_each_operand(in, 1, uncount_one, D);
        if (in->result >= 0) D->f->defs[in->result] = NULL;
        ptrvec_remove(&b->items, i);
        D->st->removed++;
        D->changed = 1;
    }
}

void pass_dce(Arena *a, Function *f, PassStats *st) {
    Dce D = {f, ARENA_ARRAY(a, int, f->nvalues + 1), st, 1};
    for (int i = 0; i < f->body.items.len; i++)
        ssa_for_each_operand(f->body.items.items[i], 1, count_one, &D);
    while (D.changed) {
        D.changed = 0;
        dce_block(&D, &f->body);
    }
}
