/* SSA lowering: lazy and memoized by node identity, in the allocation
 * order of DESIGN 3.5 that makes the printed SSA match the seed:
 *   - a store lowers its value, then its pointer, then its mask;
 *   - a load its pointer, mask, other; binary ops lhs then rhs; where the
 *     condition, the true value, the false value;
 *   - a ForRange lowers start, stop, step, its captures (first-use order),
 *     its carried inputs, then allocates the induction value and region
 *     arguments, lowers the body and the yields, and last allocates the
 *     results.
 * Memo entries made inside a region are dropped when it closes, so a value
 * defined in a body can never be reused outside it. Before each statement,
 * the loads that earlier statements created are lowered (memory order). */
#include "lower.h"

typedef struct Lowerer {
    MtContext *ctx;
    Arena *a;
    Function *f;
    Block *block;  /* where instructions go now */
    PtrVec undo;   /* Expr* whose memo was set, for region scoping */
} Lowerer;

static void memo(Lowerer *L, Expr *e, int value) {
    e->lowered = 1;
    e->lowered_value = value;
    ptrvec_push(L->a, &L->undo, e);
}

static Operand memo_operand(Expr *e) { return e->lowered_value >= 0 ? opd_value(e->lowered_value) : opd_none(); }

/* An operand that needs no new instruction: a constant, a parameter, a
 * node already lowered (0: the op still has to be lowered). */
static int lowered_operand(Expr *e, Operand *out) {
    switch (e->kind) {
    case EX_CONST: *out = opd_const(e->c); return 1;
    case EX_PARAM: *out = opd_param(e->param); return 1;
    default: break;
    }
    if (e->lowered) {
        *out = memo_operand(e);
        return 1;
    }
    /* loop nodes are memoized when their loop is lowered */
    MT_ASSERT(e->kind == EX_OP);
    return 0;
}

/* An op being lowered: its instruction and the next argument to lower. */
typedef struct Pending {
    Expr *e;
    Inst *in;
    int next;
} Pending;

static Pending *pending_new(Lowerer *L, Expr *e) {
    Pending *p = ARENA_NEW(L->a, Pending);
    p->e = e;
    p->in = ssa_inst_new(L->a, e->op, e->pos);
    p->in->nargs = e->nargs;
    p->in->attrs = e->attrs;
    return p;
}

/* Post-order over the operands, left to right, each op's value allocated
 * after its operands' (the order of a recursive descent), with an explicit
 * stack: a chain of 10^6 dependent operations must not exhaust the C
 * stack. */
static Operand lower_expr(Lowerer *L, Expr *root) {
    Operand done;
    if (lowered_operand(root, &done)) return done;
    PtrVec stack = {0};
    ptrvec_push(L->a, &stack, pending_new(L, root));
    for (;;) {
        Pending *p = stack.items[stack.len - 1];
        if (p->next < p->e->nargs) {
            Expr *arg = p->e->args[p->next];
            if (!arg) {
                p->in->args[p->next++] = opd_none();
            } else if (lowered_operand(arg, &done)) {
                p->in->args[p->next++] = done;
            } else {
                ptrvec_push(L->a, &stack, pending_new(L, arg));
            }
            continue;
        }
        Inst *in = p->in;
        in->type = p->e->type;
        in->result = ssa_new_value(L->a, L->f, p->e->type, in);
        ptrvec_push(L->a, &L->block->items, in);
        memo(L, p->e, in->result);
        stack.len--;
        if (stack.len == 0) return opd_value(in->result);
        Pending *parent = stack.items[stack.len - 1];
        parent->in->args[parent->next++] = opd_value(in->result);
    }
}

static void lower_stmts(Lowerer *L, PtrVec *stmts);

static void lower_loop(Lowerer *L, ForRange *fr, SrcPos pos) {
    Arena *a = L->a;
    Inst *in = ssa_inst_new(a, OP_FOR, pos);
    Loop *lp = ARENA_NEW(a, Loop);
    in->loop = lp;
    lp->start = lower_expr(L, fr->start);
    lp->stop = lower_expr(L, fr->stop);
    lp->step = lower_expr(L, fr->step);
    for (int i = 0; i < fr->captures.len; i++) lower_expr(L, fr->captures.items[i]);
    int n = fr->ncarried;
    lp->ncarried = lp->nyields = lp->nresults = n;
    lp->inits = ARENA_ARRAY(a, Operand, n + 1);
    lp->args = ARENA_ARRAY(a, int, n + 1);
    lp->yields = ARENA_ARRAY(a, Operand, n + 1);
    lp->results = ARENA_ARRAY(a, int, n + 1);
    for (int i = 0; i < n; i++) lp->inits[i] = lower_expr(L, fr->inputs[i]);

    int mark = L->undo.len;
    lp->index = ssa_new_value(a, L->f, type_scalar(DT_I32), in);
    memo(L, fr->index, lp->index);
    for (int i = 0; i < n; i++) {
        lp->args[i] = ssa_new_value(a, L->f, fr->args[i]->type, in);
        memo(L, fr->args[i], lp->args[i]);
    }
    Block *outer = L->block;
    L->block = &lp->body;
    lower_stmts(L, &fr->body);
    for (int i = 0; i < n; i++) lp->yields[i] = lower_expr(L, fr->outputs[i]);
    L->block = outer;
    for (int i = mark; i < L->undo.len; i++) {
        Expr *e = L->undo.items[i];
        e->lowered = 0;
        e->lowered_value = -1;
    }
    L->undo.len = mark;

    for (int i = 0; i < n; i++) {
        lp->results[i] = ssa_new_value(a, L->f, fr->results[i]->type, in);
        memo(L, fr->results[i], lp->results[i]);
    }
    ptrvec_push(a, &L->block->items, in);
}

static void lower_store(Lowerer *L, Expr *e) {
    Inst *in = ssa_inst_new(L->a, OP_STORE, e->pos);
    in->nargs = 3;
    in->args[1] = lower_expr(L, e->args[1]);
    in->args[0] = lower_expr(L, e->args[0]);
    in->args[2] = e->args[2] ? lower_expr(L, e->args[2]) : opd_none();
    in->type = type_scalar(DT_NONE);
    ptrvec_push(L->a, &L->block->items, in);
}

static void lower_stmts(Lowerer *L, PtrVec *stmts) {
    for (int i = 0; i < stmts->len; i++) {
        Stmt *s = stmts->items[i];
        for (int k = 0; k < s->pre_loads.len; k++) lower_expr(L, s->pre_loads.items[k]);
        if (s->kind == STMT_STORE) lower_store(L, s->store);
        else lower_loop(L, s->loop, s->pos);
    }
}

Function *lower_kernel(MtContext *ctx, Kernel *k, const char *function_name) {
    Lowerer L = {ctx, ctx->arena, NULL, NULL, {0}};
    L.f = ssa_function_new(ctx->arena, function_name, k->nruntime);
    for (int i = 0; i < k->nruntime; i++) {
        L.f->params[i].name = k->runtime[i]->name;
        L.f->params[i].type = k->runtime[i]->type;
    }
    L.block = &L.f->body;
    lower_stmts(&L, &k->body);
    return L.f;
}
