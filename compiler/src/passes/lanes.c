/* Invariant lanes (-O2): a lane of a `for` or `while` whose yield is its
 * own region argument carries its init through every iteration, and a
 * result of an `if` whose two branches yield the same value (defined
 * before the `if`) is that value. Their uses become the init (the operand), and the lanes go.
 * Block pointers make such lanes: the frontend carries every offset of a
 * block pointer a loop reads, also the ones it never advances
 * (fe_blockptr.c), and once they are gone LICM hoists what depends on them
 * (a row block's addresses and masks) out of the loop.
 * Requires: verified SSA. Preserves: value numbers of what remains; the
 * removed region arguments and results are no longer defined, and no
 * longer used. */
#include "passes/passes.h"

/* The same value or parameter (constants are left to the branches). */
static int same_operand(Operand x, Operand y) {
    return x.kind == y.kind && (x.kind == OPD_VALUE || x.kind == OPD_PARAM) && x.id == y.id;
}

/* Removes the lanes marked in `drop` (by lane) from loop l, in place. */
static void compact(Loop *l, const char *drop, int is_if) {
    int n = is_if ? l->nyields : l->ncarried, k = 0;
    for (int i = 0; i < n; i++) {
        if (drop[i]) continue;
        if (!is_if) {
            l->inits[k] = l->inits[i];
            l->args[k] = l->args[i];
        } else {
            l->else_yields[k] = l->else_yields[i];
        }
        l->yields[k] = l->yields[i];
        l->results[k] = l->results[i];
        k++;
    }
    if (!is_if) l->ncarried = k;
    l->nyields = l->nresults = k;
}

static void lanes_block(Arena *a, Block *b, Operand *repl, PassStats *st) {
    for (int i = 0; i < b->items.len; i++) {
        Inst *in = b->items.items[i];
        Block *sub[2];
        int nsub = ssa_blocks(in, sub);
        for (int k = 0; k < nsub; k++) lanes_block(a, sub[k], repl, st);
        if (!nsub) continue;
        Loop *l = in->loop;
        int is_if = in->op == OP_IF, n = l->nresults, any = 0;
        if (n <= 0) continue;
        char *drop = ARENA_ARRAY(a, char, n);
        for (int r = 0; r < n; r++) {
            if (is_if) {
                if (!same_operand(l->yields[r], l->else_yields[r])) continue;
                repl[l->results[r]] = l->yields[r];
            } else {
                if (l->yields[r].kind != OPD_VALUE || l->yields[r].id != l->args[r]) continue;
                repl[l->args[r]] = l->inits[r];
                repl[l->results[r]] = l->inits[r];
            }
            drop[r] = 1;
            any = 1;
            st->removed++;
        }
        if (any) compact(l, drop, is_if);
    }
}

void pass_lanes(Arena *a, Function *f, PassStats *st) {
    Operand *repl = ARENA_ARRAY(a, Operand, f->nvalues + 1);
    for (int v = 0; v <= f->nvalues; v++) repl[v].kind = OPD_NONE;
    lanes_block(a, &f->body, repl, st);
    ssa_apply_replacements(&f->body, repl);
}
