/* Common-subexpression elimination of pure ops: a pure op equal to an
 * earlier one in scope (same opcode, operands, attributes and type) is
 * replaced by it. Loads, stores and loops are never merged.
 * Requires: verified SSA. Preserves: value numbers, region structure.
 * Region-aware: the table is scoped; an op in a loop body can reuse a value
 * from an enclosing scope, and entries made in a body are dropped when it
 * closes, so nothing outside can refer to a value defined inside. */
#include <string.h>

#include "passes/passes.h"

typedef struct Cse {
    Arena *a;
    Function *f;
    Operand *repl;
    Inst **table; /* open addressing */
    int cap, count;
    PtrVec inserted; /* slots filled, for scope exit (as intptr) */
    PassStats *st;
} Cse;

static unsigned mix(unsigned h, uint64_t v) {
    h ^= (unsigned)(v ^ (v >> 32));
    return h * 16777619u;
}

static uint64_t operand_bits(Operand o) {
    uint64_t v = (uint64_t)o.kind << 56;
    if (o.kind == OPD_VALUE || o.kind == OPD_PARAM) return v ^ (uint64_t)(uint32_t)o.id;
    if (o.kind == OPD_CONST) {
        uint64_t bits;
        if (o.c.dt == DT_F32) memcpy(&bits, &o.c.f, sizeof bits);
        else bits = (uint64_t)o.c.i;
        return v ^ ((uint64_t)o.c.dt << 48) ^ bits;
    }
    return v;
}

static unsigned hash_inst(const Inst *in) {
    unsigned h = 2166136261u;
    h = mix(h, (uint64_t)in->op);
    for (int i = 0; i < in->nargs; i++) h = mix(h, operand_bits(in->args[i]));
    h = mix(h, ((uint64_t)in->attrs.axis << 32) ^ (uint64_t)(uint32_t)in->attrs.start);
    h = mix(h, ((uint64_t)(uint32_t)in->attrs.end << 32) ^ (uint64_t)in->attrs.dtype);
    h = mix(
        h, ((uint64_t)(uint32_t)in->attrs.shape[0] << 32) ^ (uint64_t)(uint32_t)in->attrs.shape[1]);
    h = mix(h, (uint64_t)(uint32_t)in->attrs.flag);
    return h;
}

static int same_ints(const int32_t *x, const int32_t *y, int n) {
    for (int i = 0; i < n; i++)
        if (x[i] != y[i]) return 0;
    return 1;
}

static int same_text(const char *x, const char *y) {
    return x == y || (x && y && strcmp(x, y) == 0);
}

static int same_attrs(const Attrs *x, const Attrs *y) {
    return x->axis == y->axis && x->start == y->start && x->end == y->end && x->rank == y->rank &&
           same_ints(x->shape, y->shape, MT_MAX_RANK) && same_ints(x->perm, y->perm, MT_MAX_RANK) &&
           x->nv == y->nv && same_ints(x->vdims, y->vdims, MT_MAX_RANK) &&
           same_ints(x->vstride, y->vstride, MT_MAX_RANK) && x->voff == y->voff &&
           x->dtype == y->dtype && x->flag == y->flag && x->pack == y->pack &&
           x->nresults == y->nresults && same_ints(x->results, y->results, 4) &&
           same_text(x->text, y->text) && same_text(x->constraints, y->constraints);
}

static int same_inst(const Inst *x, const Inst *y) {
    if (x->op != y->op || x->nargs != y->nargs || !type_eq(x->type, y->type) ||
        !same_attrs(&x->attrs, &y->attrs))
        return 0;
    for (int i = 0; i < x->nargs; i++)
        if (!operand_eq(x->args[i], y->args[i])) return 0;
    return 1;
}

static void grow(Cse *C);

static Inst *find_or_insert(Cse *C, Inst *in) {
    if ((C->count + 1) * 2 > C->cap) grow(C);
    unsigned mask = (unsigned)C->cap - 1;
    unsigned i = hash_inst(in) & mask;
    for (; C->table[i]; i = (i + 1) & mask)
        if (same_inst(C->table[i], in)) return C->table[i];
    C->table[i] = in;
    C->count++;
    ptrvec_push(C->a, &C->inserted, (void *)(intptr_t)i);
    return NULL;
}

/* Rehashing keeps scope exit simple: we rebuild from the live entries and
 * re-record their slots in insertion order. */
static void grow(Cse *C) {
    int oldcap = C->cap;
    Inst **old = C->table;
    PtrVec order = C->inserted;
    C->cap = oldcap ? oldcap * 2 : 256;
    C->table = ARENA_ARRAY(C->a, Inst *, C->cap);
    C->count = 0;
    C->inserted = (PtrVec){0};
    for (int k = 0; k < order.len; k++) {
        Inst *in = old[(intptr_t)order.items[k]];
        if (in) find_or_insert(C, in);
    }
}

/* Removes the entries inserted after `mark` (a region closes). Removing
 * from open addressing needs a rehash of the cluster; we rebuild. */
static void pop_scope(Cse *C, int mark) {
    if (C->inserted.len == mark) return;
    PtrVec keep = {0};
    for (int k = 0; k < mark; k++)
        ptrvec_push(C->a, &keep, C->table[(intptr_t)C->inserted.items[k]]);
    memset(C->table, 0, sizeof(Inst *) * (size_t)C->cap);
    C->count = 0;
    C->inserted.len = 0;
    for (int k = 0; k < keep.len; k++) find_or_insert(C, keep.items[k]);
}

static void resolve_one(Operand *o, void *user) { *o = ssa_resolve(((Cse *)user)->repl, *o); }

static void cse_block(Cse *C, Block *b) {
    int out = 0;
    for (int i = 0; i < b->items.len; i++) {
        Inst *in = b->items.items[i];
        if (op_has(in->op, OPF_REGION)) {
            /* each region is a scope: what it computes is not available
             * after it, nor in the other branch of an if */
            Loop *l = in->loop;
            resolve_one(&l->start, C), resolve_one(&l->stop, C), resolve_one(&l->step, C);
            if (in->op == OP_IF) resolve_one(&l->cond, C);
            for (int k = 0; k < l->ncarried; k++) resolve_one(&l->inits[k], C);
            int mark = C->inserted.len;
            if (in->op == OP_WHILE) {
                cse_block(C, &l->before);
                resolve_one(&l->cond, C);
                pop_scope(C, mark);
            }
            cse_block(C, &l->body);
            for (int k = 0; k < l->nyields; k++) resolve_one(&l->yields[k], C);
            pop_scope(C, mark);
            if (in->op == OP_IF) {
                cse_block(C, &l->orelse);
                for (int k = 0; k < l->nyields; k++) resolve_one(&l->else_yields[k], C);
                pop_scope(C, mark);
            }
            b->items.items[out++] = in;
            continue;
        }
        ssa_for_each_operand(in, 0, resolve_one, C);
        if (op_has(in->op, OPF_PURE) && in->result >= 0) {
            Inst *prev = find_or_insert(C, in);
            if (prev) {
                C->repl[in->result] = opd_value(prev->result);
                C->f->defs[in->result] = NULL;
                C->st->merged++;
                continue;
            }
        }
        b->items.items[out++] = in;
    }
    b->items.len = out;
}

void pass_cse(Arena *a, Function *f, PassStats *st) {
    Cse C = {a, f, ARENA_ARRAY(a, Operand, f->nvalues + 1), NULL, 0, 0, {0}, st};
    grow(&C);
    cse_block(&C, &f->body);
}
