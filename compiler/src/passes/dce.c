/* Dead-code elimination: removes ops whose values are never used and that
 * write nothing (pure ops and loads), and loops whose results are unused
 * and whose bodies store nothing (also ifs, and whiles that neither
 * store nor load).
 * Requires: verified SSA. Preserves: value numbers of what remains.
 * Region-aware: uses are counted across all regions (yields, bounds and
 * carried inputs included). */
#include "passes/passes.h"

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

/* Whether the block (or a region in it) reads memory. */
static int block_reads(const Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        if (op_has(in->op, OPF_READS)) return 1;
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++)
            if (block_reads(sub[k])) return 1;
    }
    return 0;
}

/* A region op (for, while, if) is live when a result is used or a
 * region writes memory; a while also when it reads memory (it may wait for
 * a value another program writes). */
static int removable(Dce *D, Inst *in) {
    Block *sub[2];
    int n = ssa_blocks(in, sub);
    if (n) {
        for (int k = 0; k < in->loop->nresults; k++)
            if (D->uses[in->loop->results[k]] > 0) return 0;
        for (int k = 0; k < n; k++)
            if (ssa_block_writes(sub[k]) || (in->op == OP_WHILE && block_reads(sub[k]))) return 0;
        return 1;
    }
    if (op_has(in->op, OPF_WRITES) || in->result < 0) return 0;
    return D->uses[in->result] == 0;
}

static void dce_block(Dce *D, Block *b) {
    /* backwards, so a chain of dead values goes in one sweep */
    for (int i = b->items.len - 1; i >= 0; i--) {
        Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++) dce_block(D, sub[k]);
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
