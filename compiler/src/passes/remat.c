/* Rematerialization of index blocks (remat.h). Triton moves such a block to
 * the other layout through a conversion, or recomputes it (its backward
 * rematerialization); with one thread per tile element a copy of the chain
 * in the other orientation is the cheaper of the two. */
#include "passes/remat.h"

#include "base/ops.h"

enum { MAX_CHAIN = 16 }; /* longer chains are left alone */

typedef struct Remat {
    Arena *a;
    Function *f;
    int n;                      /* the values before the pass */
    unsigned char *rows, *cols; /* by value: used as x[:, None] / x[None, :] */
    int copied;
} Remat;

static int elementwise(Op op) {
    return op == OP_CAST || op == OP_HINT ||
           (op_has(op, OPF_PURE) &&
            (op_has(op, OPF_ARITH) || op_has(op, OPF_CMP) || op_has(op, OPF_LOGIC)));
}

/* The size of v's chain if v is an index block (0: it is not). */
static int chain_size(const Function *f, int v, int depth) {
    const Inst *d = f->defs[v];
    if (!d || depth > MAX_CHAIN || f->types[v].rank != 1) return 0;
    if (d->op == OP_ARANGE) return 1;
    if (!elementwise(d->op)) return 0;
    int n = 1;
    for (int k = 0; k < d->nargs; k++) {
        Operand o = d->args[k];
        if (o.kind != OPD_VALUE || f->types[o.id].rank == 0) continue; /* scalars, constants */
        int m = chain_size(f, o.id, depth + 1);
        if (!m) return 0;
        n += m;
    }
    return n > MAX_CHAIN ? 0 : n;
}

static void note_uses(Remat *R, const Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++) note_uses(R, sub[k]);
        if (in->op != OP_EXPAND_DIMS || in->args[0].kind != OPD_VALUE || in->type.rank != 2)
            continue;
        int v = in->args[0].id;
        if (R->f->types[v].rank != 1) continue;
        if (v >= R->n) continue;
        if (in->attrs.axis == 1) R->rows[v] = 1;
        else R->cols[v] = 1;
    }
}

/* The orientations of a use reach the rank-1 operands of the chain behind
 * it: `rm = base + idx` as the rows and `rn = other + idx` as the columns
 * use the shared `idx` both ways (a cast of an arange that two index
 * blocks share, say). */
static void propagate(Remat *R) {
    const Function *f = R->f;
    for (int changed = 1, round = 0; changed && round < MAX_CHAIN; round++) {
        changed = 0;
        for (int v = R->n - 1; v >= 0; v--) {
            const Inst *d = f->defs[v];
            if ((!R->rows[v] && !R->cols[v]) || !d || f->types[v].rank != 1 || !elementwise(d->op))
                continue;
            for (int k = 0; k < d->nargs; k++) {
                Operand o = d->args[k];
                if (o.kind != OPD_VALUE || o.id >= R->n || f->types[o.id].rank != 1) continue;
                if (R->rows[v] && !R->rows[o.id]) R->rows[o.id] = 1, changed = 1;
                if (R->cols[v] && !R->cols[o.id]) R->cols[o.id] = 1, changed = 1;
            }
        }
    }
}

/* Whether v or a value of its chain is used both ways. */
static int chain_both(const Remat *R, int v, int depth) {
    const Inst *d = R->f->defs[v];
    if (v >= R->n || depth > MAX_CHAIN) return 0;
    if (R->rows[v] && R->cols[v]) return 1;
    if (!d || d->op == OP_ARANGE) return 0;
    for (int k = 0; k < d->nargs; k++) {
        Operand o = d->args[k];
        if (o.kind == OPD_VALUE && R->f->types[o.id].rank == 1 && chain_both(R, o.id, depth + 1))
            return 1;
    }
    return 0;
}

/* A copy of v's chain inserted into b before item *at (which moves on);
 * the copy's value number. Aranges are copied too (each is rendered at its
 * uses anyway). */
static int copy_chain(Remat *R, Block *b, int *at, int v) {
    const Inst *d = R->f->defs[v];
    Inst *c = ssa_inst_new(R->a, d->op, d->pos);
    *c = *d;
    for (int k = 0; k < d->nargs; k++) {
        Operand o = d->args[k];
        if (o.kind == OPD_VALUE && R->f->types[o.id].rank == 1)
            c->args[k] = opd_value(copy_chain(R, b, at, o.id));
    }
    c->result = ssa_new_value(R->a, R->f, d->type, c);
    ptrvec_insert(R->a, &b->items, (*at)++, c);
    return c->result;
}

static void rewrite(Remat *R, Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++) rewrite(R, sub[k]);
        if (in->op != OP_EXPAND_DIMS || in->args[0].kind != OPD_VALUE || in->type.rank != 2)
            continue;
        int v = in->args[0].id;
        /* the columns keep the original; each row use gets its copy */
        if (v >= R->n || in->attrs.axis != 1 || !chain_both(R, v, 0)) continue;
        if (!chain_size(R->f, v, 0)) continue;
        in->args[0] = opd_value(copy_chain(R, b, &i, v));
        R->copied++;
    }
}

int remat_index_blocks(Arena *a, Function *f) {
    int n = f->nvalues;
    Remat R = {a, f, n, NULL, NULL, 0};
    R.rows = ARENA_ARRAY(a, unsigned char, n + 1);
    R.cols = ARENA_ARRAY(a, unsigned char, n + 1);
    note_uses(&R, &f->body);
    propagate(&R);
    rewrite(&R, &f->body);
    return R.copied;
}
