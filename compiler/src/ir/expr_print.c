/* The expression tree as text (--emit=expr): each node once, as
 * `eN = op(operands) {attrs} : type`, printed where a statement first needs
 * it; loops show their index, captures, carried values and results. */
#include "ir/expr.h"
#include "ir/ssa.h"

typedef struct EPrinter {
    StrBuf *sb;
    Arena *a;
    const Kernel *k;
    char *done; /* by node id */
    int indent;
} EPrinter;

static const char *ref(EPrinter *P, const Expr *e) {
    if (!e) return "none";
    switch (e->kind) {
    case EX_CONST: return const_repr(P->a, e->c);
    case EX_PARAM: return P->k->runtime[e->param]->name;
    case EX_LOOP_INDEX: return e->loop->index_name;
    case EX_LOOP_CARRY: return arena_printf(P->a, "%s.iter", e->loop->names[e->index]);
    case EX_LOOP_RESULT: return arena_printf(P->a, "%s.final", e->loop->names[e->index]);
    case EX_OP: break;
    }
    return arena_printf(P->a, "e%d", e->id);
}

/* One node's line, its operands printed already. */
static void define_line(EPrinter *P, const Expr *e) {
    sb_printf(P->sb, "%*se%d = %s(", P->indent, "", e->id, op_info(e->op)->name);
    for (int i = 0; i < e->nargs; i++) sb_printf(P->sb, "%s%s", i ? ", " : "", ref(P, e->args[i]));
    sb_puts(P->sb, ")");
    attrs_print(P->sb, e->op, &e->attrs);
    if (e->op != OP_STORE) sb_printf(P->sb, " : %s", type_str(P->a, e->type));
    sb_putc(P->sb, '\n');
}

typedef struct Visit {
    const Expr *e;
    int next; /* the next operand to define */
} Visit;

/* Defines `root` after its operands, left to right, each node once: a
 * post-order walk with an explicit stack (a chain of 10^6 operations must
 * not exhaust the C stack). */
static void define(EPrinter *P, const Expr *root) {
    if (!root || root->kind != EX_OP || P->done[root->id]) return;
    P->done[root->id] = 1;
    PtrVec stack = {0};
    Visit *v = ARENA_NEW(P->a, Visit);
    v->e = root;
    ptrvec_push(P->a, &stack, v);
    while (stack.len > 0) {
        Visit *top = stack.items[stack.len - 1];
        if (top->next < top->e->nargs) {
            const Expr *arg = top->e->args[top->next++];
            if (arg && arg->kind == EX_OP && !P->done[arg->id]) {
                P->done[arg->id] = 1;
                v = ARENA_NEW(P->a, Visit);
                v->e = arg;
                ptrvec_push(P->a, &stack, v);
            }
            continue;
        }
        define_line(P, top->e);
        stack.len--;
    }
}

static void print_stmts(EPrinter *P, const PtrVec *stmts) {
    for (int i = 0; i < stmts->len; i++) {
        const Stmt *s = stmts->items[i];
        for (int k = 0; k < s->pre_loads.len; k++) define(P, s->pre_loads.items[k]);
        if (s->kind == STMT_STORE) {
            const Expr *st = s->store;
            if (st->op != OP_STORE) { /* an atomic or a barrier: its node, where it happens */
                if (st->nargs) define(P, st);
                else sb_printf(P->sb, "%*s%s()\n", P->indent, "", op_info(st->op)->name);
                continue;
            }
            for (int k = 0; k < 3; k++) define(P, st->args[k]);
            sb_printf(P->sb, "%*sstore(%s, %s, %s)\n", P->indent, "", ref(P, st->args[0]),
                      ref(P, st->args[1]), ref(P, st->args[2]));
            continue;
        }
        const ForRange *L = s->loop;
        int is_if = s->kind == STMT_IF;
        if (s->kind == STMT_FOR) define(P, L->start), define(P, L->stop), define(P, L->step);
        if (is_if) define(P, L->cond);
        for (int k = 0; k < L->captures.len; k++) define(P, L->captures.items[k]);
        for (int k = 0; !is_if && k < L->ncarried; k++) define(P, L->inputs[k]);
        if (s->kind == STMT_FOR)
            sb_printf(P->sb, "%*sfor %s in range(%s, %s, %s)", P->indent, "", L->index_name,
                      ref(P, L->start), ref(P, L->stop), ref(P, L->step));
        else if (is_if) sb_printf(P->sb, "%*sif %s", P->indent, "", ref(P, L->cond));
        else sb_printf(P->sb, "%*swhile", P->indent, "");
        if (L->captures.len) {
            sb_puts(P->sb, " captures(");
            for (int k = 0; k < L->captures.len; k++)
                sb_printf(P->sb, "%s%s", k ? ", " : "", ref(P, L->captures.items[k]));
            sb_puts(P->sb, ")");
        }
        if (L->ncarried && !is_if) {
            sb_puts(P->sb, " carried(");
            for (int k = 0; k < L->ncarried; k++)
                sb_printf(P->sb, "%s%s = %s", k ? ", " : "", ref(P, L->args[k]),
                          ref(P, L->inputs[k]));
            sb_puts(P->sb, ")");
        }
        sb_puts(P->sb, " {\n");
        P->indent += 2;
        char *saved = P->done;
        P->done = ARENA_ARRAY(P->a, char, P->k->nexprs + 1);
        for (int k = 0; k < P->k->nexprs; k++) P->done[k] = saved[k];
        if (s->kind == STMT_WHILE) {
            print_stmts(P, &L->cond_body);
            define(P, L->cond);
            sb_printf(P->sb, "%*scondition %s\n", P->indent, "", ref(P, L->cond));
            sb_printf(P->sb, "%*s} do {\n", P->indent - 2, "");
            for (int k = 0; k < P->k->nexprs; k++) P->done[k] = saved[k];
        }
        print_stmts(P, &L->body);
        for (int k = 0; k < L->ncarried; k++) define(P, L->outputs[k]);
        sb_printf(P->sb, "%*syield", P->indent, "");
        for (int k = 0; k < L->ncarried; k++)
            sb_printf(P->sb, "%s%s", k ? ", " : " ", ref(P, L->outputs[k]));
        sb_putc(P->sb, '\n');
        if (is_if) {
            for (int k = 0; k < P->k->nexprs; k++) P->done[k] = saved[k];
            sb_printf(P->sb, "%*s} else {\n", P->indent - 2, "");
            print_stmts(P, &L->else_body);
            for (int k = 0; k < L->ncarried; k++) define(P, L->else_outputs[k]);
            sb_printf(P->sb, "%*syield", P->indent, "");
            for (int k = 0; k < L->ncarried; k++)
                sb_printf(P->sb, "%s%s", k ? ", " : " ", ref(P, L->else_outputs[k]));
            sb_putc(P->sb, '\n');
        }
        P->done = saved;
        P->indent -= 2;
        sb_printf(P->sb, "%*s}", P->indent, "");
        if (L->ncarried) {
            sb_puts(P->sb, " -> ");
            for (int k = 0; k < L->ncarried; k++)
                sb_printf(P->sb, "%s%s : %s", k ? ", " : "", ref(P, L->results[k]),
                          type_str(P->a, L->results[k]->type));
        }
        sb_putc(P->sb, '\n');
    }
}

void expr_print_kernel(StrBuf *sb, Arena *a, const Kernel *k) {
    EPrinter P = {sb, a, k, ARENA_ARRAY(a, char, k->nexprs + 1), 0};
    sb_printf(sb, "kernel %s(", k->name);
    for (int i = 0; i < k->nparams; i++) {
        const KernelParam *p = &k->params[i];
        if (p->is_constexpr) sb_printf(sb, "%s%s=%s", i ? ", " : "", p->name, p->constexpr_text);
        else sb_printf(sb, "%s%s: %s", i ? ", " : "", p->name, type_str(a, p->type));
    }
    sb_puts(sb, ")\n");
    print_stmts(&P, &k->body);
}
