/* Loop-invariant code motion: a pure op in a loop body whose operands are
 * all defined outside the loop moves in front of the loop (the runtime-K
 * matmul's `offs_m * K` and its masks leave the loop). Inner loops are
 * processed first, so a value can climb several levels. Loads stay: a
 * store in the loop could change what they read.
 * Requires: verified SSA. Preserves: value numbers; every moved value is
 * still defined before its uses and in a scope that encloses them.
 * Hoisting out of a loop that runs zero times computes a value nobody
 * uses: harmless for pure ops, which cannot trap (division is f32). */
#include "passes/passes.h"

typedef struct Licm {
    Arena *a;
    Function *f;
    char *inside; /* by value number: defined in the loop being processed */
    PassStats *st;
} Licm;

static int operand_outside(Licm *L, Operand o) { return o.kind != OPD_VALUE || !L->inside[o.id]; }

static void mark_defs(Licm *L, const Inst *in, char v) {
    if (in->result >= 0) L->inside[in->result] = v;
    Block *sub[2];
    int n = ssa_blocks(in, sub);
    if (!n) return;
    const Loop *l = in->loop;
    if (l->index >= 0) L->inside[l->index] = v;
    for (int k = 0; k < l->ncarried; k++) L->inside[l->args[k]] = v;
    for (int k = 0; k < l->nresults; k++) L->inside[l->results[k]] = v;
    for (int b = 0; b < n; b++)
        for (int k = 0; k < sub[b]->items.len; k++) mark_defs(L, sub[b]->items.items[k], v);
}

static void licm_block(Licm *L, Block *b);

/* Hoists invariant items of loop `in` (at *pos in `parent`) before it. */
static void licm_loop(Licm *L, Block *parent, int *pos) {
    Inst *in = parent->items.items[*pos];
    Loop *l = in->loop;
    licm_block(L, &l->body);
    /* values defined by the loop itself are inside */
    L->inside[l->index] = 1;
    for (int k = 0; k < l->ncarried; k++) L->inside[l->args[k]] = 1;
    for (int i = 0; i < l->body.items.len; i++) {
        Inst *item = l->body.items.items[i];
        int invariant =
            !op_has(item->op, OPF_REGION) && op_has(item->op, OPF_PURE) && item->result >= 0;
        for (int k = 0; invariant && k < item->nargs; k++)
            invariant = operand_outside(L, item->args[k]);
        if (!invariant) {
            mark_defs(L, item, 1);
            continue;
        }
        ptrvec_remove(&l->body.items, i);
        i--;
        ptrvec_insert(L->a, &parent->items, *pos, item);
        (*pos)++;
        L->st->hoisted++;
    }
    /* leave everything as "outside" for the enclosing loop's analysis */
    L->inside[l->index] = 0;
    for (int k = 0; k < l->ncarried; k++) L->inside[l->args[k]] = 0;
    for (int i = 0; i < l->body.items.len; i++) mark_defs(L, l->body.items.items[i], 0);
}

/* Loops nested in a while or an if are processed (values climb to the
 * start of that region), but nothing leaves a while or an if: a branch
 * may guard what it computes, and a while's body may run zero times. */
static void licm_block(Licm *L, Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        Inst *in = b->items.items[i];
        if (in->op == OP_FOR) {
            licm_loop(L, b, &i);
            continue;
        }
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++) licm_block(L, sub[k]);
    }
}

void pass_licm(Arena *a, Function *f, PassStats *st) {
    Licm L = {a, f, ARENA_ARRAY(a, char, f->nvalues + 1), st};
    licm_block(&L, &f->body);
}
