/* SSA lowering: lazy and memoized by node identity, in the allocation
 * order of DESIGN 3.5 that makes the printed SSA match the seed:
 *   - a store lowers its value, then its pointer, then its mask;
 *   - a load its pointer, mask, other; binary ops lhs then rhs; where the
 *     condition, the true value, the false value;
 *   - a ForRange lowers start, stop, step, its captures (first-use order),
 *     its carried inputs, then allocates the induction value and region
 *     arguments, lowers the body and the yields, and last allocates the
 *     results;
 *   - a while lowers its captures and carried inputs, allocates its region
 *     arguments, lowers the condition region, then the body and yields,
 *     and last allocates the results;
 *   - an if lowers its condition and captures, the then region and its
 *     yields, the else region and its yields, then allocates the results.
 * Memo entries made inside a region are dropped when it closes, so a value
 * defined in a body can never be reused outside it.
 * Memory order: a load is lowered lazily where it is first used, as in the
 * seed, except when a statement that writes memory (a store, or a loop whose
 * body stores) comes between the load's creation and a later use: such a
 * load is lowered before that statement's write (after its operands, or
 * before the loop's body), so it reads memory as the source order says.
 * An atomic or tl.debug_barrier() is a statement of its own (the frontend
 * appends it where it is called), lowered as a store is. */
#include "ir/lower.h"

typedef struct Lowerer {
    MtContext *ctx;
    Arena *a;
    Function *f;
    Block *block; /* where instructions go now */
    PtrVec undo;  /* Expr* whose memo was set, for region scoping */
    /* use analysis of one statement list, indexed by Expr id */
    int *stamp;    /* the list analysis that last marked the node */
    int *last_use; /* the last statement of that list reading the node */
    int nstamps;
    PtrVec stack; /* scratch for the marking walk */
} Lowerer;

/* A load created before the statement being lowered and not yet attached
 * to a write: `last`, the last statement of its list that reads it. */
typedef struct Waiting {
    Expr *e;
    int last;
} Waiting;

static void memo(Lowerer *L, Expr *e, int value) {
    e->lowered = 1;
    e->lowered_value = value;
    ptrvec_push(L->a, &L->undo, e);
}

static Operand memo_operand(Expr *e) {
    return e->lowered_value >= 0 ? opd_value(e->lowered_value) : opd_none();
}

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

static void lower_stmts(Lowerer *L, PtrVec *stmts, Expr **tail, int ntail);

/* Does the statement write memory? */
static int list_writes(const PtrVec *stmts);
static int stmt_writes(const Stmt *s) {
    if (s->kind == STMT_STORE) return 1;
    return list_writes(&s->loop->body) || list_writes(&s->loop->else_body) ||
           list_writes(&s->loop->cond_body);
}
static int list_writes(const PtrVec *stmts) {
    for (int i = 0; i < stmts->len; i++)
        if (stmt_writes(stmts->items[i])) return 1;
    return 0;
}

/* Marks the nodes read by `root` as last used by statement `idx` of the
 * list analysis `stamp`, unless a later statement already marked them
 * (the statements are walked last to first). Iterative: chains are long. */
static void mark_uses(Lowerer *L, Expr *root, int idx, int stamp) {
    PtrVec *st = &L->stack;
    st->len = 0;
    if (root) ptrvec_push(L->a, st, root);
    while (st->len > 0) {
        Expr *e = st->items[--st->len];
        if (L->stamp[e->id] == stamp) continue;
        L->stamp[e->id] = stamp;
        L->last_use[e->id] = idx;
        if (e->kind != EX_OP) continue;
        for (int i = 0; i < e->nargs; i++)
            if (e->args[i]) ptrvec_push(L->a, st, e->args[i]);
    }
}

static void mark_stmt(Lowerer *L, Stmt *s, int idx, int stamp) {
    if (s->kind == STMT_STORE) {
        mark_uses(L, s->store, idx, stamp);
        return;
    }
    ForRange *fr = s->loop;
    if (s->kind == STMT_IF) {
        for (int i = fr->ncarried - 1; i >= 0; i--) mark_uses(L, fr->else_outputs[i], idx, stamp);
        for (int i = fr->else_body.len - 1; i >= 0; i--)
            mark_stmt(L, fr->else_body.items[i], idx, stamp);
    }
    for (int i = fr->ncarried - 1; i >= 0; i--) mark_uses(L, fr->outputs[i], idx, stamp);
    for (int i = fr->body.len - 1; i >= 0; i--) mark_stmt(L, fr->body.items[i], idx, stamp);
    if (s->kind == STMT_WHILE) {
        mark_uses(L, fr->cond, idx, stamp);
        for (int i = fr->cond_body.len - 1; i >= 0; i--)
            mark_stmt(L, fr->cond_body.items[i], idx, stamp);
    }
    if (s->kind != STMT_IF)
        for (int i = fr->ncarried - 1; i >= 0; i--) mark_uses(L, fr->inputs[i], idx, stamp);
    for (int i = fr->captures.len - 1; i >= 0; i--) mark_uses(L, fr->captures.items[i], idx, stamp);
    if (s->kind == STMT_IF) mark_uses(L, fr->cond, idx, stamp);
    if (s->kind != STMT_FOR) return;
    mark_uses(L, fr->step, idx, stamp);
    mark_uses(L, fr->stop, idx, stamp);
    mark_uses(L, fr->start, idx, stamp);
}

/* Before the write of statement `idx`: lowers the waiting loads that a
 * later statement reads and that are not lowered yet. */
static void lower_waiting(Lowerer *L, PtrVec *waiting, int idx) {
    for (int i = 0; i < waiting->len; i++) {
        Waiting *w = waiting->items[i];
        if (!w->e->lowered && w->last > idx) lower_expr(L, w->e);
    }
    waiting->len = 0;
}

/* The waiting ops with side effects of their own (inline asm with
 * is_pure=False: a clock read) run in source order: each but the last is
 * lowered before the statement's operands, which may use them in any
 * order (`t1 - t0`); the last one follows them wherever it is lowered. */
static void lower_effects_in_order(Lowerer *L, PtrVec *waiting) {
    int last = -1;
    for (int i = 0; i < waiting->len; i++) {
        Waiting *w = waiting->items[i];
        if (!w->e->lowered && op_has(w->e->op, OPF_WRITES)) last = i;
    }
    for (int i = 0; i < last; i++) {
        Waiting *w = waiting->items[i];
        if (!w->e->lowered && op_has(w->e->op, OPF_WRITES)) lower_expr(L, w->e);
    }
}

/* Drops the memo entries made since `mark` (a region closes). */
static void unmemo(Lowerer *L, int mark) {
    for (int i = mark; i < L->undo.len; i++) {
        Expr *e = L->undo.items[i];
        e->lowered = 0;
        e->lowered_value = -1;
    }
    L->undo.len = mark;
}

/* A region's statements and yields into `b`; its definitions stay in it. */
static void lower_region(Lowerer *L, Block *b, PtrVec *stmts, Expr **outputs, Operand *yields,
                         int n) {
    int mark = L->undo.len;
    Block *outer = L->block;
    L->block = b;
    lower_stmts(L, stmts, outputs, n);
    for (int i = 0; i < n; i++) yields[i] = lower_expr(L, outputs[i]);
    L->block = outer;
    unmemo(L, mark);
}

static void lower_loop(Lowerer *L, ForRange *fr, SrcPos pos, PtrVec *waiting, int idx, int writes) {
    Arena *a = L->a;
    Op op = fr->kind == STMT_IF ? OP_IF : fr->kind == STMT_WHILE ? OP_WHILE : OP_FOR;
    Inst *in = ssa_inst_new(a, op, pos);
    Loop *lp = ARENA_NEW(a, Loop);
    in->loop = lp;
    lp->index = -1;
    lp->start = lp->stop = lp->step = lp->cond = opd_none();
    lp->num_stages = fr->num_stages;
    lp->unroll = fr->unroll;
    lp->warp_specialize = fr->warp_specialize;
    if (op == OP_FOR) {
        lp->start = lower_expr(L, fr->start);
        lp->stop = lower_expr(L, fr->stop);
        lp->step = lower_expr(L, fr->step);
    }
    if (op == OP_IF) lp->cond = lower_expr(L, fr->cond);
    for (int i = 0; i < fr->captures.len; i++) lower_expr(L, fr->captures.items[i]);
    int n = fr->ncarried;
    lp->ncarried = op == OP_IF ? 0 : n;
    lp->nyields = lp->nresults = n;
    lp->inits = ARENA_ARRAY(a, Operand, n + 1);
    lp->args = ARENA_ARRAY(a, int, n + 1);
    lp->yields = ARENA_ARRAY(a, Operand, n + 1);
    lp->else_yields = ARENA_ARRAY(a, Operand, n + 1);
    lp->results = ARENA_ARRAY(a, int, n + 1);
    if (op != OP_IF)
        for (int i = 0; i < n; i++) lp->inits[i] = lower_expr(L, fr->inputs[i]);
    if (writes) lower_waiting(L, waiting, idx);

    if (op == OP_IF) {
        lower_region(L, &lp->body, &fr->body, fr->outputs, lp->yields, n);
        lower_region(L, &lp->orelse, &fr->else_body, fr->else_outputs, lp->else_yields, n);
    } else {
        int mark = L->undo.len;
        if (op == OP_FOR) {
            lp->index = ssa_new_value(a, L->f, type_scalar(DT_I32), in);
            memo(L, fr->index, lp->index);
        }
        for (int i = 0; i < n; i++) {
            lp->args[i] = ssa_new_value(a, L->f, fr->args[i]->type, in);
            memo(L, fr->args[i], lp->args[i]);
        }
        if (op == OP_WHILE) lower_region(L, &lp->before, &fr->cond_body, &fr->cond, &lp->cond, 1);
        lower_region(L, &lp->body, &fr->body, fr->outputs, lp->yields, n);
        unmemo(L, mark);
    }

    for (int i = 0; i < n; i++) {
        lp->results[i] = ssa_new_value(a, L->f, fr->results[i]->type, in);
        memo(L, fr->results[i], lp->results[i]);
    }
    ptrvec_push(a, &L->block->items, in);
}

static void lower_store(Lowerer *L, Expr *e, PtrVec *waiting, int idx) {
    if (e->op != OP_STORE) {
        /* device_print, device_assert, an atomic (its value lowered here,
         * where the source performs it, and reused by later statements) or a
         * barrier: operands, then the waiting loads, then the op itself */
        for (int k = 0; k < e->nargs; k++)
            if (e->args[k]) lower_expr(L, e->args[k]);
        lower_waiting(L, waiting, idx);
        if (op_has(e->op, OPF_NO_RESULT)) {
            Inst *in = ssa_inst_new(L->a, e->op, e->pos);
            in->nargs = e->nargs;
            for (int k = 0; k < e->nargs; k++)
                in->args[k] = e->args[k] ? lower_expr(L, e->args[k]) : opd_none();
            in->attrs = e->attrs;
            in->type = type_scalar(DT_NONE);
            ptrvec_push(L->a, &L->block->items, in);
            return;
        }
        lower_expr(L, e);
        return;
    }
    Inst *in = ssa_inst_new(L->a, OP_STORE, e->pos);
    in->nargs = 3;
    in->args[1] = lower_expr(L, e->args[1]);
    in->args[0] = lower_expr(L, e->args[0]);
    in->args[2] = e->args[2] ? lower_expr(L, e->args[2]) : opd_none();
    in->type = type_scalar(DT_NONE);
    lower_waiting(L, waiting, idx);
    ptrvec_push(L->a, &L->block->items, in);
}

/* A statement list; `tail` (the loop's yields) reads after its last
 * statement. */
static void lower_stmts(Lowerer *L, PtrVec *stmts, Expr **tail, int ntail) {
    int n = stmts->len;
    int stamp = ++L->nstamps;
    for (int i = ntail - 1; i >= 0; i--) mark_uses(L, tail[i], n, stamp);
    for (int i = n - 1; i >= 0; i--) mark_stmt(L, stmts->items[i], i, stamp);
    /* the last reader of each statement's earlier loads, taken now: the
     * analyses of nested bodies mark the same nodes again */
    Waiting **pre = ARENA_ARRAY(L->a, Waiting *, n + 1);
    for (int i = 0; i < n; i++) {
        Stmt *s = stmts->items[i];
        pre[i] = ARENA_ARRAY(L->a, Waiting, s->pre_loads.len + 1);
        for (int k = 0; k < s->pre_loads.len; k++) {
            Expr *e = s->pre_loads.items[k];
            pre[i][k].e = e;
            pre[i][k].last = L->stamp[e->id] == stamp ? L->last_use[e->id] : -1;
        }
    }
    PtrVec waiting = {0};
    for (int i = 0; i < n; i++) {
        Stmt *s = stmts->items[i];
        for (int k = 0; k < s->pre_loads.len; k++) ptrvec_push(L->a, &waiting, &pre[i][k]);
        lower_effects_in_order(L, &waiting);
        if (s->kind == STMT_STORE) lower_store(L, s->store, &waiting, i);
        else lower_loop(L, s->loop, s->pos, &waiting, i, stmt_writes(s));
    }
}

Function *lower_kernel(MtContext *ctx, Kernel *k, const char *function_name) {
    Lowerer L = {ctx, ctx->arena, NULL, NULL, {0}, NULL, NULL, 0, {0}};
    L.stamp = ARENA_ARRAY(ctx->arena, int, k->nexprs + 1);
    L.last_use = ARENA_ARRAY(ctx->arena, int, k->nexprs + 1);
    L.f = ssa_function_new(ctx->arena, function_name, k->nruntime);
    for (int i = 0; i < k->nruntime; i++) {
        L.f->params[i].name = k->runtime[i]->name;
        L.f->params[i].type = k->runtime[i]->type;
    }
    L.block = &L.f->body;
    lower_stmts(&L, &k->body, NULL, 0);
    return L.f;
}
