/* Statements: assignments, stores, compile-time branches, static and
 * runtime loops (the seed's rules: carried names in source order, an
 * isolated body, captures by identity, names created in a body do not
 * escape). */
#include "frontend/fe_internal.h"

/* ---- Statements --------------------------------------------------------- */

void fe_stmt_append(Interp *I, Stmt *s) {
    StmtList *L = I->list;
    /* loads created by earlier statements are lowered before this one, so
     * memory is read in source order */
    int m = L->mark < L->pending.len ? L->mark : L->pending.len;
    for (int i = 0; i < m; i++) ptrvec_push(I->a, &s->pre_loads, L->pending.items[i]);
    for (int i = m; i < L->pending.len; i++) L->pending.items[i - m] = L->pending.items[i];
    L->pending.len -= m;
    L->mark -= m;
    ptrvec_push(I->a, L->stmts, s);
}

/* A statement of an op with side effects (a store, a print, an assert),
 * kept in source order with the others. */
void fe_effect_stmt(Interp *I, Expr *e, SrcPos pos) {
    Stmt *s = ARENA_NEW(I->a, Stmt);
    s->kind = STMT_STORE;
    s->pos = pos;
    s->store = e;
    fe_stmt_append(I, s);
}

/* A store statement: OP_STORE of ptr, value and mask (NULL: none). */
void fe_store_stmt(Interp *I, const char *fn, SrcPos pos, Expr *ptr, Expr *value, Expr *mask) {
    fe_effect_stmt(I, fe_mk_op(I, OP_STORE, fn, pos, 3, ptr, value, mask, NULL), pos);
}

/* (a loop's induction variable may be rebound in its body, as Triton's
 * `start_n = tl.multiple_of(start_n, BLOCK_N)`: the name changes for the
 * rest of the iteration, the loop still counts by its own index, and the
 * name is never carried) */
void fe_bind_name(Interp *I, const char *name, Val v, SrcPos pos) {
    fe_env_set(I->a, I->env, name, v, pos);
}

void fe_assign_target(Interp *I, const PyNode *target, Val v) {
    if (!target) fe_fail(I, srcpos(0, 0), "malformed assignment");
    if (pyast_isk(target, PK_Name)) {
        if (!pyast_str(target, "id")) fe_fail(I, target->pos, "malformed name");
        fe_bind_name(I, pyast_str(target, "id"), v, target->pos);
        return;
    }
    if (pyast_isk(target, PK_Tuple) || pyast_isk(target, PK_List)) {
        /* `a, b = f(x)`: a compile-time tuple unpacked */
        const PyVal *elts = pyast_list(target, "elts");
        int n = elts ? elts->len : 0;
        for (int i = 0; i < n; i++)
            if (pyast_isk(fe_list_node(elts, i), PK_Starred))
                fe_fail(I, fe_list_node(elts, i)->pos,
                        "starred assignment targets are not supported");
        if (v.kind != V_TUPLE && v.kind != V_LIST)
            fe_fail(I, target->pos, "cannot unpack %s into %d name%s (only a tuple unpacks)",
                    fe_kind_name(v), n, n == 1 ? "" : "s");
        if (v.n != n)
            fe_fail(I, target->pos, "cannot unpack a tuple of %d value%s into %d name%s", v.n,
                    v.n == 1 ? "" : "s", n, n == 1 ? "" : "s");
        for (int i = 0; i < n; i++) {
            Val item = v.items[i];
            if (fe_is_number(item)) item.strong = 1;
            fe_assign_target(I, fe_list_node(elts, i), item);
        }
        return;
    }
    if (pyast_isk(target, PK_Subscript))
        fe_fail(I, target->pos,
                "assignment to a subscript is not supported (blocks are values; write memory with "
                "tl.store)");
    if (pyast_isk(target, PK_Attribute))
        fe_fail(I, target->pos, "assignment to an attribute is not supported");
    if (pyast_isk(target, PK_Starred))
        fe_fail(I, target->pos, "starred assignment targets are not supported");
    fe_fail(I, target->pos, "unsupported assignment target");
}

/* The seed's AssignedNameCollector: simple names assigned by normal,
 * annotated and augmented assignments anywhere in the body, in source
 * order, without duplicates. */
void fe_collect_assigned(Arena *a, const PyVal *stmts, PtrVec *names);

void fe_collect_name(Arena *a, const PyNode *target, PtrVec *names) {
    if (target && (pyast_isk(target, PK_Tuple) || pyast_isk(target, PK_List))) {
        const PyVal *elts = pyast_list(target, "elts");
        for (int i = 0; elts && i < elts->len; i++)
            fe_collect_name(a, fe_list_node(elts, i), names);
        return;
    }
    if (!pyast_isk(target, PK_Name)) return;
    const char *id = pyast_str(target, "id");
    if (!id) return;
    for (int i = 0; i < names->len; i++)
        if (strcmp(names->items[i], id) == 0) return;
    ptrvec_push(a, names, (void *)id);
}

void fe_collect_node(Arena *a, const PyNode *n, PtrVec *names) {
    if (!n) return;
    if (pyast_isk(n, PK_Assign)) {
        const PyVal *targets = pyast_list(n, "targets");
        for (int i = 0; targets && i < targets->len; i++)
            if (targets->items[i]->kind == PYV_NODE)
                fe_collect_name(a, targets->items[i]->node, names);
        return;
    }
    if (pyast_isk(n, PK_AugAssign) || pyast_isk(n, PK_AnnAssign)) {
        fe_collect_name(a, pyast_node(n, "target"), names);
        return;
    }
    if (pyast_isk(n, PK_FunctionDef) || pyast_isk(n, PK_ClassDef) || pyast_isk(n, PK_Lambda))
        return;
    /* statements with bodies: If, For, While, With, Try ... */
    static const char *const fields[] = {"body", "orelse", "finalbody", "handlers"};
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
        const PyVal *list = pyast_list(n, fields[f]);
        if (list) fe_collect_assigned(a, list, names);
    }
}

void fe_collect_assigned(Arena *a, const PyVal *stmts, PtrVec *names) {
    for (int i = 0; stmts && i < stmts->len; i++)
        if (stmts->items[i]->kind == PYV_NODE) fe_collect_node(a, stmts->items[i]->node, names);
}

/* Position of the `else` keyword of a for/else (the AST has none). */
SrcPos fe_find_else(Interp *I, const PyNode *node, const PyVal *orelse) {
    const PyNode *first = fe_list_node(orelse, 0);
    SrcPos at = first ? first->pos : node->pos;
    if (!I->ctx->source || !first) return at;
    /* search backwards from the first else-statement for "else" */
    const char *src = I->ctx->source;
    const char *p = src;
    for (int l = 1; l < first->pos.line && p; l++) {
        p = strchr(p, '\n');
        if (p) p++;
    }
    if (!p) return at;
    const char *q = p + (first->pos.col > 0 ? first->pos.col - 1 : 0);
    for (; q >= src + 3; q--) {
        if (memcmp(q - 3, "else", 4) == 0) {
            const char *s = q - 3;
            int line = 1, col = 1;
            for (const char *r = src; r < s; r++) {
                if (*r == '\n') line++, col = 1;
                else col++;
            }
            return srcpos(line, col);
        }
    }
    return at;
}

/* The runtime parameter a pointer expression points into (-1 if unknown). */
int fe_pointer_param(const Expr *e) {
    for (int guard = 0; e && guard < 100000; guard++) {
        switch (e->kind) {
        case EX_PARAM: return e->param;
        case EX_OP:
            if (e->op != OP_ADDPTR) return -1;
            e = e->args[0];
            break;
        case EX_LOOP_CARRY:
        case EX_LOOP_RESULT:
            e = e->loop->kind == STMT_IF ? e->loop->outputs[e->index] : e->loop->inputs[e->index];
            break;
        default: return -1;
        }
    }
    return -1;
}

/* Whether two pointers are indexes from the same base: one parameter, or
 * one node that made an address a pointer (tl.int_to_ptr, a merge below). */
static int same_pointer_base(const Expr *a, const Expr *b) {
    const Expr *root[2] = {a, b};
    for (int k = 0; k < 2; k++)
        for (int guard = 0; guard < 100000; guard++) {
            const Expr *e = root[k];
            if (e->kind == EX_OP && e->op == OP_ADDPTR) root[k] = e->args[0];
            else if ((e->kind == EX_LOOP_CARRY || e->kind == EX_LOOP_RESULT) &&
                     e->loop->kind == STMT_IF)
                root[k] = e->loop->outputs[e->index];
            else if (e->kind == EX_LOOP_CARRY || e->kind == EX_LOOP_RESULT)
                root[k] = e->loop->inputs[e->index];
            else break;
        }
    if (root[0]->kind == EX_PARAM && root[1]->kind == EX_PARAM)
        return root[0]->param == root[1]->param;
    return root[0] == root[1];
}

/* A runtime if that chooses between scalar pointers of different bases
 * (`if pid == 0: p = a_ptr else: p = b_ptr`, Triton's scf.if of two
 * pointers) merges their addresses: each branch yields the pointer as an
 * i64, and the result is the address cast back, a base of its own (the
 * backends hold a pointer as an index from one base). *ptr_dt: the
 * pointee, for pointer_result. Blocks of pointers keep one parameter. */
static int address_lane(Interp *I, Expr **vals, SrcPos pos, const char *what, int *ptr_dt) {
    if (!vals[0]->type.ptr || same_pointer_base(vals[0], vals[1])) return 0;
    if (vals[0]->type.rank) {
        int a = fe_pointer_param(vals[0]), b = fe_pointer_param(vals[1]);
        if (a != b && a >= 0 && b >= 0)
            fe_fail(I, pos,
                    "%s blocks of pointers into different parameters ('%s' and '%s'): choose "
                    "the scalar pointer in the branch and add the offsets after it",
                    what, I->k->runtime[a]->name, I->k->runtime[b]->name);
        return 0;
    }
    *ptr_dt = vals[0]->type.dtype;
    for (int k = 0; k < 2; k++)
        vals[k] = vals[k]->kind == EX_OP && vals[k]->op == OP_INT_TO_PTR
                      ? vals[k]->args[0] /* (an elif's chosen address) */
                      : fe_mk_op(I, OP_PTR_TO_INT, what, pos, 1, vals[k], NULL, NULL, NULL);
    return 1;
}

static Expr *pointer_result(Interp *I, Expr *addr, int dt, SrcPos pos) {
    Attrs at = {0};
    at.dtype = (DType)dt;
    return fe_mk_op(I, OP_INT_TO_PTR, "a pointer chosen at run time", pos, 1, addr, NULL, NULL,
                    &at);
}

/* ---- Runtime regions: for, while, if ------------------------------------ */

static ForRange *region_new(Interp *I, StmtKind kind, const PyNode *node) {
    if (I->depth >= MAX_LOOP_DEPTH)
        fe_fail(I, node->pos, "runtime loops and branches are nested more than %d deep",
                MAX_LOOP_DEPTH);
    ForRange *L = ARENA_NEW(I->a, ForRange);
    L->kind = kind;
    L->pos = node->pos;
    return L;
}

static void lanes_alloc(Interp *I, ForRange *L, int n) {
    L->ncarried = n;
    L->names = ARENA_ARRAY(I->a, const char *, n + 1);
    L->inputs = ARENA_ARRAY(I->a, Expr *, n + 1);
    L->args = ARENA_ARRAY(I->a, Expr *, n + 1);
    L->outputs = ARENA_ARRAY(I->a, Expr *, n + 1);
    L->results = ARENA_ARRAY(I->a, Expr *, n + 1);
    L->else_outputs = ARENA_ARRAY(I->a, Expr *, n + 1);
}

/* The names a loop carries and their lanes: a number or a block is one
 * lane, a block pointer one lane per offset (its base, shape, strides,
 * block shape and order stay those of `before`: the loop keeps them). */
typedef struct Carried {
    int n;
    const char **name;
    Val *before; /* the value before the loop */
    int *lane;   /* the first lane of each name */
    /* names assigned in the body whose value before the loop is no
     * runtime value (None, a dtype, a function): not carried, and the
     * body must leave them unchanged (assigned under a compile-time
     * condition that does not hold, as `if USE_G: b_dg += ...`) */
    int nfixed;
    const char **fixed;
} Carried;

static int lanes_of(Val v) { return v.kind == V_BLOCKPTR ? v.bp->rank : 1; }

/* Carried lanes of a loop (for, while): names assigned in the body that
 * exist before it; their inputs. */
static void loop_lanes(Interp *I, ForRange *L, const PtrVec *assigned, const char *target,
                       Carried *C) {
    PtrVec carried = {0}, fixed = {0};
    for (int i = 0; i < assigned->len; i++) {
        EnvEntry *e = fe_env_find(I->env, assigned->items[i]);
        if (!e || (target && strcmp(assigned->items[i], target) == 0)) continue;
        int runtime = e->v.kind == V_EXPR || e->v.kind == V_BLOCKPTR || fe_is_number(e->v);
        ptrvec_push(I->a, runtime ? &carried : &fixed, assigned->items[i]);
    }
    C->nfixed = fixed.len;
    C->fixed = (const char **)fixed.items;
    C->n = carried.len;
    C->name = ARENA_ARRAY(I->a, const char *, C->n + 1);
    C->before = ARENA_ARRAY(I->a, Val, C->n + 1);
    C->lane = ARENA_ARRAY(I->a, int, C->n + 1);
    int lanes = 0;
    for (int i = 0; i < C->n; i++) {
        C->name[i] = carried.items[i];
        C->before[i] = fe_env_find(I->env, C->name[i])->v;
        C->lane[i] = lanes;
        lanes += lanes_of(C->before[i]);
    }
    lanes_alloc(I, L, lanes);
    for (int i = 0; i < C->n; i++) {
        EnvEntry *e = fe_env_find(I->env, C->name[i]);
        Val v = e->v;
        fe_note_use(I, v);
        int l = C->lane[i];
        if (v.kind == V_BLOCKPTR) {
            for (int k = 0; k < v.bp->rank; k++) {
                L->names[l + k] = arena_printf(I->a, "%s.offsets[%d]", C->name[i], k);
                L->inputs[l + k] = fe_bp_offset(I, v, k, e->at);
            }
            continue;
        }
        L->names[l] = C->name[i];
        L->inputs[l] = fe_to_expr(I, v, e->at, "a loop-carried value");
    }
}

/* The region arguments (EX_LOOP_CARRY), bound in `env`. */
static void bind_args(Interp *I, ForRange *L, const Carried *C, Env *env, int create) {
    for (int i = 0; create && i < L->ncarried; i++) {
        Expr *arg = fe_new_expr(I, EX_LOOP_CARRY, L->pos, L->inputs[i]->type);
        arg->loop = L;
        arg->index = i;
        L->args[i] = arg;
    }
    for (int i = 0; i < C->n; i++) {
        Val v = C->before[i].kind == V_BLOCKPTR
                    ? fe_bp_with_offsets(I, C->before[i], &L->args[C->lane[i]])
                    : fe_vexpr(L->args[C->lane[i]]);
        fe_env_set(I->a, env, C->name[i], v, fe_env_find(I->env, C->name[i])->at);
    }
}

/* The values of the carried names at the end of a loop body. */
static void loop_outputs(Interp *I, ForRange *L, const Carried *C, Env *body_env) {
    const char *what = L->kind == STMT_WHILE ? "while loop" : "runtime loop";
    for (int i = 0; i < C->nfixed; i++) {
        EnvEntry *before = fe_env_find(I->env, C->fixed[i]),
                 *after = fe_env_find(body_env, C->fixed[i]);
        if (after && before && !fe_values_equal(before->v, after->v))
            fe_fail(I, L->pos,
                    "'%s' is assigned in the runtime loop but holds %s before it (only numbers, "
                    "blocks and block pointers can be carried)",
                    C->fixed[i], fe_kind_name(before->v));
    }
    for (int c = 0; c < C->n; c++) {
        const char *name = C->name[c];
        EnvEntry *e = fe_env_find(body_env, name);
        Val v = e->v;
        int i = C->lane[c];
        if (C->before[c].kind == V_BLOCKPTR || v.kind == V_BLOCKPTR) {
            if (C->before[c].kind != V_BLOCKPTR || v.kind != V_BLOCKPTR)
                fe_fail(I, e->at,
                        "'%s' is carried by the %s at line %d: it holds %s before the loop and %s "
                        "at the end of the body (a carried value keeps its kind)",
                        name, what, L->pos.line, fe_kind_name(C->before[c]), fe_kind_name(v));
            if (!fe_bp_same(C->before[c], v))
                fe_fail(I, e->at,
                        "the block pointer '%s' is carried by the %s at line %d, which carries "
                        "only its offsets: its base, shape, strides, block shape and order must "
                        "stay those before the loop (here: %s; move it with tl.advance)",
                        name, what, L->pos.line, fe_bp_difference(I, C->before[c], v));
            for (int k = 0; k < v.bp->rank; k++) L->outputs[i + k] = fe_bp_offset(I, v, k, e->at);
            continue;
        }
        if (v.kind != V_EXPR && !fe_is_number(v))
            fe_fail(I, e->at, "'%s' is carried by the %s at line %d but is assigned %s in its body",
                    name, what, L->pos.line, fe_kind_name(v));
        Expr *out = fe_to_expr(I, v, e->at, "a loop-carried value");
        if (!type_eq(out->type, L->inputs[i]->type))
            fe_fail(
                I, e->at,
                "the loop-carried variable '%s' changes type across an iteration: %s before the "
                "loop, %s at the end of "
                "the body (a carried value keeps one type; give it its final type before the loop)",
                name, type_str(I->a, L->inputs[i]->type), type_str(I->a, out->type));
        if (out->type.ptr) {
            /* backends keep a carried pointer as an offset from one
             * parameter: it must stay inside the same one */
            int before = fe_pointer_param(L->inputs[i]), after = fe_pointer_param(out);
            if (before != after && before >= 0 && after >= 0)
                fe_fail(I, e->at,
                        "the loop-carried pointer '%s' must keep pointing into one parameter: '%s' "
                        "before the loop, '%s' "
                        "at the end of the body",
                        name, I->k->runtime[before]->name, I->k->runtime[after]->name);
        }
        L->outputs[i] = out;
    }
}

/* After a loop: results bound to the carried names; names first created
 * in the body do not escape. */
static void loop_finish(Interp *I, ForRange *L, const Carried *C, const PtrVec *assigned,
                        Env *body_env) {
    for (int i = 0; i < L->ncarried; i++) {
        Expr *r = fe_new_expr(I, EX_LOOP_RESULT, L->pos, L->outputs[i]->type);
        r->loop = L;
        r->index = i;
        L->results[i] = r;
    }
    for (int i = 0; i < C->n; i++) {
        Val v = C->before[i].kind == V_BLOCKPTR
                    ? fe_bp_with_offsets(I, C->before[i], &L->results[C->lane[i]])
                    : fe_vexpr(L->results[C->lane[i]]);
        fe_env_set(I->a, I->env, C->name[i], v, fe_env_find(I->env, C->name[i])->at);
    }
    for (int i = 0; i < assigned->len; i++)
        if (!fe_env_find(I->env, assigned->items[i])) {
            /* the value: the line of the outermost loop it does not escape */
            EnvEntry *inner = fe_env_find(body_env, assigned->items[i]);
            EnvEntry *nested = fe_env_find(&I->loop_locals, assigned->items[i]);
            SrcPos at = inner ? inner->at : nested ? nested->at : L->pos;
            fe_env_set(I->a, &I->loop_locals, assigned->items[i], fe_vint(L->pos.line), at);
        }
    Stmt *s = ARENA_NEW(I->a, Stmt);
    s->kind = L->kind;
    s->pos = L->pos;
    s->loop = L;
    fe_stmt_append(I, s);
}

/* Traces `stmts` as a region body of L in `env`, into `out`. */
/* Tracing into a region: its environment and statement list, then back. */
typedef struct Scope {
    Env *env;
    StmtList *list;
    StmtList inner;
} Scope;

static void scope_enter(Interp *I, Scope *sc, Env *env, PtrVec *out) {
    sc->env = I->env;
    sc->list = I->list;
    sc->inner = (StmtList){out, {0}, 0};
    I->env = env;
    I->list = &sc->inner;
}

static void scope_leave(Interp *I, const Scope *sc) {
    I->env = sc->env;
    I->list = sc->list;
}

static void trace_body(Interp *I, Env *env, PtrVec *out, const PyVal *stmts) {
    Scope sc;
    scope_enter(I, &sc, env, out);
    fe_visit_body_marked(I, stmts, CONT_ROOT);
    scope_leave(I, &sc);
}

/* A runtime condition as Triton takes it: a scalar, converted to i1. */
static Expr *runtime_cond(Interp *I, Val c, SrcPos pos, const char *stmt) {
    Expr *e = fe_to_expr(I, c, pos, "a condition");
    if (e->type.rank != 0)
        fe_fail(
            I, pos,
            "the condition of a runtime '%s' must be a scalar, not %s (the truth value of a block "
            "is "
            "ambiguous: reduce it, or use tl.where to choose per element)",
            stmt, type_str(I->a, e->type));
    if (e->type.ptr) {
        /* `if bias_ptr:` (Triton's cond.to(tl.int1) of a pointer): the
         * address is not 0 */
        Expr *addr = fe_mk_op(I, OP_PTR_TO_INT, stmt, pos, 1, e, NULL, NULL, NULL);
        return fe_binary_expr(I, OP_CMP_NE, stmt, addr, fe_mk_const(I, const_int(DT_I64, 0), pos),
                              pos, NULL);
    }
    return e->type.dtype == DT_BOOL ? e : fe_cast_to(I, e, DT_BOOL, pos);
}

/* `a if cond else b` on a runtime scalar (Triton's visit_IfExp): an if
 * statement with one lane, each branch evaluating its expression. */
Val fe_runtime_ifexp(Interp *I, const PyNode *n, Expr *cond_in) {
    Expr *cond = runtime_cond(I, fe_vexpr(cond_in), pyast_node(n, "test")->pos, "x if c else y");
    ForRange *L = region_new(I, STMT_IF, n);
    L->cond = cond;
    lanes_alloc(I, L, 1);
    L->names[0] = "(if-expression)";
    static const char *const field[2] = {"body", "orelse"};
    PtrVec *bodies[2] = {&L->body, &L->else_body};
    Expr *vals[2];
    I->loops[I->depth] = L;
    I->depth++;
    for (int k = 0; k < 2; k++) {
        const PyNode *e = pyast_node(n, field[k]);
        if (!e) fe_fail(I, n->pos, "malformed conditional expression");
        StmtList *outer = I->list;
        StmtList list = {bodies[k], {0}, 0};
        I->list = &list;
        Val v = fe_eval(I, e);
        if (v.kind != V_EXPR && !fe_is_number(v))
            fe_fail(
                I, e->pos,
                "a conditional expression with a runtime condition must give numbers or blocks, "
                "not %s",
                fe_kind_name(v));
        fe_note_use(I, v);
        vals[k] = fe_to_expr(I, v, e->pos, "a conditional expression's value");
        I->list = outer;
    }
    I->depth--;
    if (!type_eq(vals[0]->type, vals[1]->type))
        fe_fail(
            I, n->pos,
            "a conditional expression with a runtime condition has inconsistent types %s and %s "
            "(as in Triton, both must have one type)",
            type_str(I->a, vals[0]->type), type_str(I->a, vals[1]->type));
    int ptr_dt = 0;
    int addr = address_lane(I, vals, n->pos, "a conditional expression chooses between", &ptr_dt);
    L->outputs[0] = vals[0];
    L->else_outputs[0] = vals[1];
    Expr *r = fe_new_expr(I, EX_LOOP_RESULT, n->pos, vals[0]->type);
    r->loop = L;
    r->index = 0;
    L->results[0] = r;
    Stmt *st = ARENA_NEW(I->a, Stmt);
    st->kind = STMT_IF;
    st->pos = n->pos;
    st->loop = L;
    fe_stmt_append(I, st);
    return fe_vexpr(addr ? pointer_result(I, r, ptr_dt, n->pos) : r);
}

/* A range with an i64 bound (Triton's induction variable then has the
 * promoted type, i64): traced as a while loop over a carried i64 counter,
 * `i = start; while i < stop (i > stop for a negative step): body; i +=
 * step`. The backends' for loops count in i32; a 64-bit row loop (a row
 * index from `tl.program_id(0).to(tl.int64)`) needs none of what they do
 * with for loops (tensor-core K loops, pipelining). */
/* A while loop's condition (evaluated by `cond` in the condition region,
 * with the carried values) and body, `target` bound to the value of the
 * name `counter` in the body when given: fe_visit_while and the i64 range
 * loop. `next` (when given) is the counter's value at the end of the body. */
typedef struct WhileParts {
    const PyNode *node;
    const PyVal *body;
    const char *target, *counter; /* the i64 range loop's; NULL for while */
    Val (*cond)(Interp *I, const struct WhileParts *w, Val counter);
    Val (*next)(Interp *I, const struct WhileParts *w, Val counter);
    const PyNode *test; /* while's condition */
    Val stop, step;     /* the range's */
    int negative;
    SrcPos stop_pos, step_pos;
} WhileParts;

static void while_loop(Interp *I, const WhileParts *w, SrcPos cond_pos, const char *stmt) {
    ForRange *L = region_new(I, STMT_WHILE, w->node);
    L->index_name = w->target;
    PtrVec assigned = {0};
    fe_collect_assigned(I->a, w->body, &assigned);
    if (w->counter) ptrvec_push(I->a, &assigned, (void *)w->counter);
    Carried C;
    loop_lanes(I, L, &assigned, w->target, &C);

    I->loops[I->depth] = L;
    I->depth++;
    /* the condition region */
    Env cond_env = fe_env_copy(I->a, I->env);
    bind_args(I, L, &C, &cond_env, 1);
    Scope sc;
    scope_enter(I, &sc, &cond_env, &L->cond_body);
    Val counter = w->counter ? fe_env_find(&cond_env, w->counter)->v : vnone();
    L->cond = runtime_cond(I, w->cond(I, w, counter), cond_pos, stmt);
    /* loads made by the condition are read by it: nothing waits */
    scope_leave(I, &sc);
    /* the body */
    Env body_env = fe_env_copy(I->a, I->env);
    bind_args(I, L, &C, &body_env, 0);
    if (w->counter) {
        counter = fe_env_find(&body_env, w->counter)->v;
        fe_env_set(I->a, &body_env, w->target, counter, w->node->pos);
    }
    trace_body(I, &body_env, &L->body, w->body);
    if (w->counter) {
        scope_enter(I, &sc, &body_env, &L->body);
        fe_env_set(I->a, &body_env, w->counter, w->next(I, w, counter), w->node->pos);
        scope_leave(I, &sc);
    }
    loop_outputs(I, L, &C, &body_env);
    I->depth--;
    loop_finish(I, L, &C, &assigned, &body_env);
}

static Val range_cond(Interp *I, const WhileParts *w, Val counter) {
    return fe_compare(I, w->negative ? PK_Gt : PK_Lt, counter, w->stop, w->stop_pos);
}

static Val range_next(Interp *I, const WhileParts *w, Val counter) {
    return fe_binop(I, PK_Add, counter, w->step, w->step_pos);
}

static Val while_cond(Interp *I, const WhileParts *w, Val counter) {
    (void)counter;
    Val c = fe_eval(I, w->test);
    if (c.kind != V_EXPR && fe_truthy(I, c, w->test->pos, ""))
        fe_fail(I, w->test->pos,
                "this while loop never ends: its condition is a compile-time true value (and "
                "'break' is not supported)");
    return c;
}

static int is_i64_scalar(Val v) {
    return v.kind == V_EXPR && v.e->type.rank == 0 && !v.e->type.ptr && v.e->type.dtype == DT_I64;
}

/* A range with an i64 bound (Triton's induction variable then has the
 * promoted type, i64): traced as a while loop over a carried i64 counter,
 * `i = start; while i < stop (i > stop for a negative step): body; i +=
 * step`. The backends' for loops count in i32; a 64-bit row loop (a row
 * index from `tl.program_id(0).to(tl.int64)`) needs none of what they do
 * with for loops (tensor-core K loops, pipelining). */
static void i64_range_loop(Interp *I, const PyNode *node, const char *target, RangeParts *rp) {
    static const char *const part_names[] = {"start", "stop", "step"};
    Val part[3];
    for (int i = 0; i < 3; i++) {
        Val v = rp->v[i];
        if (v.kind == V_EXPR) {
            if (v.e->type.rank != 0 || v.e->type.ptr ||
                (v.e->type.dtype != DT_I32 && v.e->type.dtype != DT_I64))
                fe_fail(I, rp->pos[i],
                        "the %s of a runtime loop must be an i32 or i64 scalar (got %s)",
                        part_names[i], type_str(I->a, v.e->type));
            fe_note_use(I, v);
            part[i] = fe_vexpr(fe_cast_to(I, v.e, DT_I64, rp->pos[i]));
        } else if (v.kind == V_INT) {
            part[i] = v;
        } else {
            fe_fail(I, rp->pos[i], "the %s of range() must be an integer, not %s", part_names[i],
                    fe_kind_name(v));
        }
    }
    if (rp->v[2].kind == V_INT && rp->v[2].i == 0)
        fe_fail(I, rp->pos[2], "range() arg 3 must not be zero");
    /* the counter: a name no Python code can spell, one per loop depth */
    char *counter = arena_printf(I->a, "(range counter %d)", I->depth);
    Expr *start = fe_to_expr(I, part[0], rp->pos[0], "range()");
    if (start->type.dtype != DT_I64) start = fe_cast_to(I, start, DT_I64, rp->pos[0]);
    fe_env_set(I->a, I->env, counter, fe_vexpr(start), node->pos);
    WhileParts w = {0};
    w.node = node;
    w.body = pyast_list(node, "body");
    w.target = target;
    w.counter = counter;
    w.cond = range_cond;
    w.next = range_next;
    w.stop = part[1], w.stop_pos = rp->pos[1];
    w.step = part[2], w.step_pos = rp->pos[2];
    w.negative = rp->v[2].kind == V_INT && rp->v[2].i < 0;
    while_loop(I, &w, rp->pos[1], "for");
}

void fe_runtime_loop(Interp *I, const PyNode *node, const char *target, RangeParts *rp) {
    const PyVal *body = pyast_list(node, "body");
    if (is_i64_scalar(rp->v[0]) || is_i64_scalar(rp->v[1]) || is_i64_scalar(rp->v[2])) {
        i64_range_loop(I, node, target, rp);
        return;
    }
    /* bounds: i32 scalars; step: a nonzero compile-time integer or a runtime
     * i32 (assumed positive, as scf.for) */
    static const char *const part_names[] = {"start", "stop", "step"};
    Expr *bounds[3];
    for (int i = 0; i < 3; i++) {
        Val v = rp->v[i];
        if (v.kind == V_EXPR) {
            if (v.e->type.rank != 0 || v.e->type.ptr || v.e->type.dtype != DT_I32)
                fe_fail(I, rp->pos[i],
                        "the %s of a runtime loop must be an i32 or i64 scalar (got %s)",
                        part_names[i], type_str(I->a, v.e->type));
        } else if (v.kind != V_INT) {
            fe_fail(I, rp->pos[i], "the %s of range() must be an integer, not %s", part_names[i],
                    fe_kind_name(v));
        }
    }
    if (rp->v[2].kind == V_INT && rp->v[2].i == 0)
        fe_fail(I, rp->pos[2], "range() arg 3 must not be zero");
    /* a negative compile-time step, as Triton: the loop runs over
     * range(stop, start, -step) and the index is start - k + stop */
    int negative = rp->v[2].kind == V_INT && rp->v[2].i < 0;
    Val step = negative ? fe_vint(-rp->v[2].i) : rp->v[2];
    bounds[0] = fe_to_expr(I, rp->v[negative ? 1 : 0], rp->pos[negative ? 1 : 0], "range()");
    bounds[1] = fe_to_expr(I, rp->v[negative ? 0 : 1], rp->pos[negative ? 0 : 1], "range()");
    bounds[2] = fe_to_expr(I, step, rp->pos[2], "range()");
    ForRange *L = region_new(I, STMT_FOR, node);
    L->index_name = target;
    L->start = bounds[0];
    L->stop = bounds[1];
    L->step = bounds[2];
    L->num_stages = rp->num_stages;
    L->unroll = rp->unroll;
    L->warp_specialize = rp->warp_specialize;

    PtrVec assigned = {0};
    fe_collect_assigned(I->a, body, &assigned);
    Carried C;
    loop_lanes(I, L, &assigned, target, &C);

    /* trace the body in an isolated environment */
    I->loops[I->depth] = L;
    I->depth++;
    L->index = fe_new_expr(I, EX_LOOP_INDEX, node->pos, type_scalar(DT_I32));
    L->index->loop = L;
    Env body_env = fe_env_copy(I->a, I->env);
    Val index = fe_vexpr(L->index);
    if (negative) {
        fe_note_use(I, rp->v[0]);
        fe_note_use(I, rp->v[1]);
        index = fe_binop(I, PK_Add, fe_binop(I, PK_Sub, rp->v[0], index, node->pos), rp->v[1],
                         node->pos);
    }
    fe_env_set(I->a, &body_env, target, index, node->pos);
    bind_args(I, L, &C, &body_env, 1);
    trace_body(I, &body_env, &L->body, body);
    loop_outputs(I, L, &C, &body_env);
    I->depth--;
    loop_finish(I, L, &C, &assigned, &body_env);
}

/* `while cond: body` (scf.while): the carried names are those the body
 * assigns that exist before; the condition is traced in a region of its
 * own with the carried values, re-evaluated before each iteration. */
void fe_visit_while(Interp *I, const PyNode *node) {
    const PyVal *body = pyast_list(node, "body");
    const PyVal *orelse = pyast_list(node, "orelse");
    const PyNode *test = pyast_node(node, "test");
    if (!body || !test) fe_fail(I, node->pos, "malformed while loop");
    if (orelse && orelse->len > 0)
        fe_fail(
            I, fe_find_else(I, node, orelse),
            "while/else is not supported (Triton rejects it: 'break' does not exist in kernels)");
    WhileParts w = {0};
    w.node = node;
    w.body = body;
    w.test = test;
    w.cond = while_cond;
    while_loop(I, &w, test->pos, "while");
}

static int same_binding(Val a, Val b) { return a.kind == b.kind && fe_values_equal(a, b); }

/* A value that leaves a branch of a runtime if (a lane). */
static Expr *branch_value(Interp *I, ForRange *L, const char *name, EnvEntry *e,
                          const char *which) {
    Val v = e->v;
    if (v.kind != V_EXPR && !fe_is_number(v))
        fe_fail(I, e->at,
                "'%s' is assigned %s in the %s branch of the runtime if at line %d (only numbers, "
                "blocks and block pointers can leave a runtime branch)",
                name, fe_kind_name(v), which, L->pos.line);
    return fe_to_expr(I, v, e->at, "a value of a runtime branch");
}

/* `if cond:` on a runtime scalar (scf.if): both branches are traced; a
 * name that exists before and that a branch changes, or that both
 * branches create, is a result (one type in both branches, as Triton);
 * a name only one branch creates does not exist after the statement. */
void fe_visit_runtime_if(Interp *I, const PyNode *node, Expr *cond_in) {
    const PyVal *body = pyast_list(node, "body");
    const PyVal *orelse = pyast_list(node, "orelse");
    Expr *cond = runtime_cond(I, fe_vexpr(cond_in), pyast_node(node, "test")->pos, "if");
    ForRange *L = region_new(I, STMT_IF, node);
    L->cond = cond;
    PtrVec assigned = {0};
    fe_collect_assigned(I->a, body, &assigned);
    fe_collect_assigned(I->a, orelse, &assigned);

    I->loops[I->depth] = L;
    I->depth++;
    Env then_env = fe_env_copy(I->a, I->env);
    trace_body(I, &then_env, &L->body, body);
    Env else_env = fe_env_copy(I->a, I->env);
    trace_body(I, &else_env, &L->else_body, orelse);

    /* the lanes, in source order of first assignment */
    PtrVec lanes = {0};
    for (int i = 0; i < assigned.len; i++) {
        const char *name = assigned.items[i];
        EnvEntry *before = fe_env_find(I->env, name);
        EnvEntry *t = fe_env_find(&then_env, name), *e = fe_env_find(&else_env, name);
        if (before) {
            if (same_binding(t->v, before->v) && same_binding(e->v, before->v)) continue;
            if (before->v.kind != V_EXPR && before->v.kind != V_BLOCKPTR &&
                !fe_is_number(before->v))
                fe_fail(
                    I, (same_binding(t->v, before->v) ? e : t)->at,
                    "'%s' holds %s before the runtime if at line %d and cannot be reassigned in "
                    "a branch (only numbers, blocks and block pointers can)",
                    name, fe_kind_name(before->v), node->pos.line);
        } else if (!t || !e) {
            EnvEntry *only = t ? t : e;
            if (only) fe_env_set(I->a, &I->branch_locals, name, fe_vint(node->pos.line), only->at);
            continue;
        }
        ptrvec_push(I->a, &lanes, (void *)name);
    }
    /* a block pointer is one lane per offset: the rest must agree */
    int nnames = lanes.len, n = 0;
    int *first = ARENA_ARRAY(I->a, int, nnames + 1);
    for (int c = 0; c < nnames; c++) {
        const char *name = lanes.items[c];
        EnvEntry *before = fe_env_find(I->env, name);
        EnvEntry *t = fe_env_find(&then_env, name), *e = fe_env_find(&else_env, name);
        first[c] = n;
        if (t->v.kind != V_BLOCKPTR && e->v.kind != V_BLOCKPTR &&
            !(before && before->v.kind == V_BLOCKPTR)) {
            n++;
            continue;
        }
        /* the branch that assigns it (the then branch where both do) */
        EnvEntry *changed = before && same_binding(t->v, before->v) ? e : t;
        if (before && before->v.kind != V_BLOCKPTR)
            fe_fail(I, changed->at,
                    "'%s' is %s before the runtime if at line %d but a block pointer here (a name "
                    "keeps its kind across a runtime branch)",
                    name, fe_kind_name(before->v), node->pos.line);
        EnvEntry *ref = before ? before : t, *branch[2] = {t, e};
        for (int k = 0; k < 2; k++) {
            if (branch[k]->v.kind != V_BLOCKPTR)
                fe_fail(I, branch[k]->at,
                        "'%s' is %s here but a block pointer %s the runtime if at line %d (a name "
                        "keeps its kind across a runtime branch)",
                        name, fe_kind_name(branch[k]->v),
                        before ? "before" : "in the other branch of", node->pos.line);
            if (!fe_bp_same(ref->v, branch[k]->v))
                fe_fail(I, branch[k]->at,
                        "the block pointer '%s' leaves the runtime if at line %d, which carries "
                        "only its offsets: its base, shape, strides, block shape and order must "
                        "be the same before it and in both branches (here: %s; move it with "
                        "tl.advance)",
                        name, node->pos.line, fe_bp_difference(I, ref->v, branch[k]->v));
        }
        n += t->v.bp->rank;
    }
    lanes_alloc(I, L, n);
    int *addr = ARENA_ARRAY(I->a, int, n + 1), *ptr_dt = ARENA_ARRAY(I->a, int, n + 1);
    for (int c = 0; c < nnames; c++) {
        const char *name = lanes.items[c];
        EnvEntry *before = fe_env_find(I->env, name);
        EnvEntry *t = fe_env_find(&then_env, name), *e = fe_env_find(&else_env, name);
        int i = first[c];
        /* the outer value, where a branch keeps it, is read in the branch */
        if (before && (same_binding(t->v, before->v) || same_binding(e->v, before->v)))
            fe_note_use(I, before->v);
        if (t->v.kind == V_BLOCKPTR) {
            for (int k = 0; k < t->v.bp->rank; k++) {
                L->names[i + k] = arena_printf(I->a, "%s.offsets[%d]", name, k);
                L->outputs[i + k] = fe_bp_offset(I, t->v, k, t->at);
                L->else_outputs[i + k] = fe_bp_offset(I, e->v, k, e->at);
            }
            continue;
        }
        L->names[i] = name;
        Expr *tv = branch_value(I, L, name, t, "then");
        Expr *ev = branch_value(I, L, name, e, "else");
        if (before) {
            Expr *bv = fe_to_expr(I, before->v, before->at, "a value of a runtime branch");
            Expr *changed[2] = {tv, ev};
            EnvEntry *where[2] = {t, e};
            for (int k = 0; k < 2; k++)
                if (!type_eq(changed[k]->type, bv->type))
                    fe_fail(I, where[k]->at,
                            "'%s' is %s before the runtime if at line %d but the %s branch assigns "
                            "%s (a name keeps its type across a runtime branch, as in Triton)",
                            name, type_str(I->a, bv->type), node->pos.line, k ? "else" : "then",
                            type_str(I->a, changed[k]->type));
        } else if (!type_eq(tv->type, ev->type)) {
            fe_fail(I, e->at,
                    "'%s' is %s in the then branch of the runtime if at line %d but %s in the else "
                    "branch (both branches must give it one type)",
                    name, type_str(I->a, tv->type), node->pos.line, type_str(I->a, ev->type));
        }
        Expr *vals[2] = {tv, ev};
        const char *what =
            arena_printf(I->a, "the runtime if at line %d assigns '%s'", node->pos.line, name);
        if (address_lane(I, vals, node->pos, what, &ptr_dt[i])) addr[i] = 1;
        L->outputs[i] = vals[0];
        L->else_outputs[i] = vals[1];
    }
    I->depth--;
    for (int i = 0; i < n; i++) {
        Expr *r = fe_new_expr(I, EX_LOOP_RESULT, node->pos, L->outputs[i]->type);
        r->loop = L;
        r->index = i;
        L->results[i] = r;
    }
    for (int c = 0; c < nnames; c++) {
        const char *name = lanes.items[c];
        EnvEntry *t = fe_env_find(&then_env, name);
        int i = first[c];
        Val v = t->v.kind == V_BLOCKPTR ? fe_bp_with_offsets(I, t->v, &L->results[i])
                : addr[i] ? fe_vexpr(pointer_result(I, L->results[i], ptr_dt[i], node->pos))
                          : fe_vexpr(L->results[i]);
        fe_env_set(I->a, I->env, name, v, t->at);
    }
    Stmt *s = ARENA_NEW(I->a, Stmt);
    s->kind = STMT_IF;
    s->pos = node->pos;
    s->loop = L;
    fe_stmt_append(I, s);
}

/* ---- A runtime if with a `return` (Triton's visit_if_top_level) -------- */

static void visit_from(Interp *I, const PyVal *stmts, int from);

/* Whether a statement list holds a `return` (in nested statements too), as
 * Triton's ContainsReturnChecker on the statement's own code. */
static int stmts_return(const PyVal *stmts) {
    static const char *const lists[] = {"body", "orelse", "finalbody"};
    for (int i = 0; stmts && i < stmts->len; i++) {
        const PyNode *s = fe_list_node(stmts, i);
        if (!s) continue;
        if (s->kind_id == PK_Return) return 1;
        if (s->kind_id == PK_FunctionDef || s->kind_id == PK_AsyncFunctionDef ||
            s->kind_id == PK_ClassDef)
            continue;
        for (size_t k = 0; k < sizeof lists / sizeof lists[0]; k++)
            if (stmts_return(pyast_list(s, lists[k]))) return 1;
    }
    return 0;
}

static _Noreturn void fail_return_in_loop(Interp *I, SrcPos pos) {
    fe_fail(I, pos,
            "cannot have 'return' statements inside 'while' or 'for' statements (runtime loops), "
            "as in Triton (a 'return' may be in a runtime if outside loops, or at the end of "
            "the function)");
}

/* Iterations `from` .. count - 1 of an unrolled loop (u: its frame, with
 * I->cont the frames after the loop), until a `return` runs. */
static void unrolled_loop(Interp *I, const Cont *u, int64_t from) {
    Cont f = *u;
    f.next = I->cont;
    const Cont *outer = I->cont;
    for (int64_t k = from; k < f.count && !I->returned; k++) {
        fe_bind_name(I, f.name, f.items ? f.items[k] : fe_vint(f.start + k * f.step), f.name_pos);
        f.at = k + 1;
        I->cont = &f;
        fe_visit_body(I, f.body);
    }
    I->cont = outer;
}

/* The rest of the function after a statement: each continuation frame's
 * remaining statements (an unrolled loop's: its later iterations), up to
 * the function's body. */
static void visit_rest(Interp *I, const Cont *k) {
    for (; k && k->mark != CONT_ROOT && !I->returned; k = k->next) {
        const Cont *outer = I->cont;
        I->cont = k->next;
        if (k->mark == CONT_UNROLLED) unrolled_loop(I, k, k->at);
        else visit_from(I, k->stmts, k->from);
        I->cont = outer;
    }
}

/* One branch and then the rest of the function (until a `return`), traced
 * into `out` in `env`. Returns the branch's return value (None where it
 * runs to the end of the function); *returned: whether a `return` ran. */
static Val trace_returning(Interp *I, Env *env, PtrVec *out, const PyVal *stmts, const Cont *rest,
                           int *returned) {
    Env *outer_env = I->env;
    StmtList *outer_list = I->list;
    const Cont *outer_cont = I->cont;
    StmtList list = {out, {0}, 0};
    I->env = env;
    I->list = &list;
    I->cont = rest;
    fe_visit_body(I, stmts);
    visit_rest(I, rest);
    *returned = I->returned;
    Val r = I->returned ? I->ret : vnone();
    I->returned = 0;
    I->ret = vnone();
    I->env = outer_env;
    I->list = outer_list;
    I->cont = outer_cont;
    return r;
}

/* The value a helper returns from a branch, flattened into lanes (a
 * number, a block, or a tuple of them); 0 when there is none (None). */
static int return_lanes(Interp *I, Val v, SrcPos pos, Expr **out, int max) {
    if (v.kind == V_NONE) return 0;
    if (v.kind == V_TUPLE) {
        int n = 0;
        for (int k = 0; k < v.n; k++) {
            if (v.items[k].kind == V_TUPLE || v.items[k].kind == V_NONE)
                fe_fail(I, pos,
                        "a helper that returns inside a runtime if must return numbers, blocks "
                        "or a flat tuple of them (got a nested %s)",
                        fe_kind_name(v.items[k]));
            n += return_lanes(I, v.items[k], pos, out + n, max - n);
        }
        return n;
    }
    if (v.kind != V_EXPR && !fe_is_number(v))
        fe_fail(I, pos,
                "a helper that returns inside a runtime if must return numbers or blocks (got %s)",
                fe_kind_name(v));
    if (max < 1) fe_fail(I, pos, "a helper returns too many values from a runtime if");
    out[0] = fe_to_expr(I, v, pos, "a returned value");
    return 1;
}

/* `if cond:` on a runtime scalar whose branches hold a `return`, outside
 * runtime loops (Triton's visit_if_top_level: the rest of the function
 * runs after each branch that does not return): each branch is traced
 * followed by the rest of the function, which therefore ends with this
 * statement. No name leaves it; in a helper, the returned values do (the
 * two branches must return the same types, as Triton's one function type). */
static void visit_returning_if(Interp *I, const PyNode *node, Expr *cond_in) {
    for (int d = I->frame ? I->frame->base_depth : 0; d < I->depth; d++)
        if (!I->returning[d]) fail_return_in_loop(I, node->pos);
    const PyVal *body = pyast_list(node, "body");
    const PyVal *orelse = pyast_list(node, "orelse");
    Expr *cond = runtime_cond(I, fe_vexpr(cond_in), pyast_node(node, "test")->pos, "if");
    ForRange *L = region_new(I, STMT_IF, node);
    L->cond = cond;
    const Cont *rest = I->cont;
    I->loops[I->depth] = L;
    I->returning[I->depth] = 1;
    I->depth++;
    Env then_env = fe_env_copy(I->a, I->env);
    int then_ret, else_ret;
    Val tv = trace_returning(I, &then_env, &L->body, body, rest, &then_ret);
    Env else_env = fe_env_copy(I->a, I->env);
    Val ev = trace_returning(I, &else_env, &L->else_body, orelse, rest, &else_ret);
    I->depth--;
    I->returning[I->depth] = 0;
    enum { MAX_RET = 16 };
    Expr *to[MAX_RET], *eo[MAX_RET];
    int n = I->frame ? return_lanes(I, tv, node->pos, to, MAX_RET) : 0;
    int m = I->frame ? return_lanes(I, ev, node->pos, eo, MAX_RET) : 0;
    int tk = tv.kind == V_NONE ? 0 : tv.kind == V_TUPLE ? 2 : 1;
    int ek = ev.kind == V_NONE ? 0 : ev.kind == V_TUPLE ? 2 : 1;
    if (n != m || tk != ek)
        fe_fail(I, node->pos,
                "the branches of the runtime if at line %d return different kinds of values (%s "
                "and %s)",
                node->pos.line, then_ret ? fe_kind_name(tv) : "None (the end of the function)",
                else_ret ? fe_kind_name(ev) : "None (the end of the function)");
    lanes_alloc(I, L, n);
    for (int i = 0; i < n; i++) {
        if (!type_eq(to[i]->type, eo[i]->type))
            fe_fail(I, node->pos,
                    "the branches of the runtime if at line %d return %s and %s (a helper returns "
                    "one type, as in Triton)",
                    node->pos.line, type_str(I->a, to[i]->type), type_str(I->a, eo[i]->type));
        L->names[i] = "<return>";
        L->outputs[i] = to[i];
        L->else_outputs[i] = eo[i];
        Expr *r = fe_new_expr(I, EX_LOOP_RESULT, node->pos, to[i]->type);
        r->loop = L;
        r->index = i;
        L->results[i] = r;
    }
    Stmt *s = ARENA_NEW(I->a, Stmt);
    s->kind = STMT_IF;
    s->pos = node->pos;
    s->loop = L;
    fe_stmt_append(I, s);
    /* the rest of the function ran in the branches */
    I->returned = 1;
    if (n == 0) {
        I->ret = vnone();
    } else if (tv.kind != V_TUPLE) {
        I->ret = fe_vexpr(L->results[0]);
    } else {
        Val t = tv;
        t.items = ARENA_ARRAY(I->a, Val, n);
        for (int i = 0; i < n; i++) t.items[i] = fe_vexpr(L->results[i]);
        I->ret = t;
    }
}

void fe_visit_for(Interp *I, const PyNode *node) {
    const PyNode *target = pyast_node(node, "target");
    const PyVal *orelse = pyast_list(node, "orelse");
    const PyVal *body = pyast_list(node, "body");
    if (!target || !body) fe_fail(I, node->pos, "malformed for loop");
    if (pyast_isk(target, PK_Tuple) || pyast_isk(target, PK_List))
        fe_fail(I, target->pos,
                "the target of a for loop must be a simple name (tuple targets are not supported)");
    if (!pyast_isk(target, PK_Name))
        fe_fail(I, target->pos, "the target of a for loop must be a simple name (not %s)",
                pyast_isk(target, PK_Subscript)   ? "a subscript"
                : pyast_isk(target, PK_Attribute) ? "an attribute"
                                                  : "this expression");
    const char *name = pyast_str(target, "id");
    if (!name) fe_fail(I, target->pos, "malformed name");
    if (orelse && orelse->len > 0)
        fe_fail(I, fe_find_else(I, node, orelse),
                "for/else is not supported (the loop always runs to the end of its range)");
    const PyNode *iter = pyast_node(node, "iter");
    if (!iter) fe_fail(I, node->pos, "malformed for loop");
    Val callee = {0};
    int is_range = 0;
    if (pyast_isk(iter, PK_Call)) {
        const PyNode *func = pyast_node(iter, "func");
        if (pyast_isk(func, PK_Name) || pyast_isk(func, PK_Attribute)) {
            callee = fe_eval(I, func);
            is_range =
                callee.kind == V_FUNC &&
                (callee.i == B_RANGE || callee.i == B_STATIC_RANGE || callee.i == B_TL_RANGE);
        }
    }
    if (!is_range) {
        Val seq = fe_eval(I, iter);
        if (seq.kind != V_TUPLE && seq.kind != V_LIST)
            fe_fail(
                I, iter->pos,
                "a for loop must iterate over range(...), tl.static_range(...) or a compile-time "
                "tuple");
        Cont u = {0};
        u.mark = CONT_UNROLLED, u.body = body, u.name = name, u.name_pos = target->pos;
        u.items = seq.items, u.count = seq.n;
        unrolled_loop(I, &u, 0);
        return;
    }
    int is_static = callee.i == B_STATIC_RANGE, is_tl_range = callee.i == B_TL_RANGE;
    const char *fn = is_static ? "tl.static_range" : is_tl_range ? "tl.range" : "range";
    Args A;
    /* range(..., flatten=...): Triton visits a plain range's keywords and
     * ignores them; they are bound (and checked) as tl.range's */
    const PyVal *kws = pyast_list(iter, "keywords");
    int range_kws = callee.i == B_RANGE && kws && kws->len > 0;
    fe_bind_args(I, iter, range_kws ? B_TL_RANGE : (Builtin)callee.i, &A);
    RangeParts rp;
    int given = A.given[2] ? 3 : A.given[1] ? 2 : 1;
    if (given == 1) {
        rp.v[0] = fe_vint(0), rp.pos[0] = iter->pos;
        rp.v[1] = A.v[0], rp.pos[1] = A.pos[0];
        rp.v[2] = fe_vint(1), rp.pos[2] = iter->pos;
    } else {
        rp.v[0] = A.v[0], rp.pos[0] = A.pos[0];
        rp.v[1] = A.v[1], rp.pos[1] = A.pos[1];
        if (given == 3) rp.v[2] = A.v[2], rp.pos[2] = A.pos[2];
        else rp.v[2] = fe_vint(1), rp.pos[2] = iter->pos;
    }
    rp.num_stages = rp.unroll = rp.warp_specialize = 0;
    if (is_tl_range) {
        /* tl.range: always a runtime loop; its hints compile-time values */
        static const char *const hint[] = {"num_stages", "loop_unroll_factor"};
        for (int k = 0; k < 2; k++) {
            if (!A.given[3 + k] || A.v[3 + k].kind == V_NONE) continue;
            if (A.v[3 + k].kind != V_INT || A.v[3 + k].i < 0 || A.v[3 + k].i > 1024)
                fe_fail(I, A.pos[3 + k],
                        "tl.range's %s must be a compile-time integer from 0 to 1024 (got %s)",
                        hint[k], fe_kind_name(A.v[3 + k]));
            *(k ? &rp.unroll : &rp.num_stages) = (int)A.v[3 + k].i;
        }
        static const char *const other[] = {"disallow_acc_multi_buffer", "flatten",
                                            "warp_specialize", "disable_licm"};
        for (int k = 5; k < 9; k++)
            if (A.given[k] && A.v[k].kind == V_EXPR)
                fe_fail(I, A.pos[k], "tl.range's %s must be a compile-time value", other[k - 5]);
        /* warp_specialize: a producer warpgroup in the wgmma matmul body
         * (emit_cuda_wgmma.c); the other hints change nothing here */
        if (A.given[7] && fe_is_intlike(A.v[7])) rp.warp_specialize = A.v[7].i != 0;
    }
    int all_int = rp.v[0].kind == V_INT && rp.v[1].kind == V_INT && rp.v[2].kind == V_INT;
    int64_t count = 0;
    if (all_int && !is_tl_range) {
        int64_t start = rp.v[0].i, stop = rp.v[1].i, step = rp.v[2].i;
        if (step == 0) fe_fail(I, rp.pos[2], "%s() arg 3 must not be zero", fn);
        count = step > 0 ? (stop > start ? (stop - start + step - 1) / step : 0)
                         : (start > stop ? (start - stop - step - 1) / -step : 0);
    }
    /* A plain range() of compile-time bounds is a loop in Triton, its index
     * a tensor: at -O2 a long one stays a loop (unrolled, its body would be
     * repeated count times); the seed's rule (-O1) unrolls every one. */
    if (all_int && !is_tl_range &&
        (is_static || I->ctx->unroll_limit == 0 || count <= I->ctx->unroll_limit)) {
        int64_t start = rp.v[0].i, step = rp.v[2].i;
        if (count > MAX_UNROLL)
            fe_fail(I, iter->pos, "%s unrolls %lld iterations, more than %d", fn, (long long)count,
                    MAX_UNROLL);
        Cont u = {0};
        u.mark = CONT_UNROLLED, u.body = body, u.name = name, u.name_pos = target->pos;
        u.start = start, u.step = step, u.count = count;
        unrolled_loop(I, &u, 0);
        return;
    }
    if (is_static) {
        for (int i = 0; i < 3; i++)
            if (rp.v[i].kind != V_INT)
                fe_fail(
                    I, rp.pos[i],
                    "tl.static_range needs compile-time integer bounds (got %s; use range() for a "
                    "runtime loop)",
                    fe_kind_name(rp.v[i]));
    }
    for (int d = I->frame ? I->frame->base_depth : 0; d < I->depth; d++)
        if (I->loops[d]->index_name && strcmp(I->loops[d]->index_name, name) == 0)
            fe_fail(I, target->pos,
                    "cannot assign to '%s', the induction variable of the runtime loop at line %d",
                    name, I->loops[d]->pos.line);
    fe_runtime_loop(I, node, name, &rp);
}

/* Triton turns an assigned value into a tensor, which a module is not
 * ("cannot convert <module ...> to tensor"). */
static void no_module_value(Interp *I, Val v, const PyNode *s) {
    if (v.kind == V_MODULE)
        fe_fail(I, s->pos,
                "cannot assign the module '%s' to a name in a @triton.jit function (Triton cannot "
                "convert a module to a tensor): call through its full name, or import it at module "
                "level (`from triton.language.extra import libdevice`)",
                v.s ? v.s : "?");
}

/* Whether `call` calls tl.advance (Triton's must_use_result function):
 * `tl.advance(...)`, `p.advance(...)`, or a name bound to it. */
static int advance_call(Interp *I, const PyNode *call) {
    const PyNode *f = pyast_isk(call, PK_Call) ? pyast_node(call, "func") : NULL;
    if (pyast_isk(f, PK_Attribute)) {
        const char *attr = pyast_str(f, "attr");
        return attr && strcmp(attr, "advance") == 0;
    }
    if (pyast_isk(f, PK_Name) && pyast_str(f, "id")) {
        EnvEntry *e = fe_env_find(I->env, pyast_str(f, "id"));
        if (!e) e = fe_env_find(&I->globals, pyast_str(f, "id"));
        return e && e->v.kind == V_FUNC && e->v.i == B_ADVANCE;
    }
    return 0;
}

void fe_visit_stmt(Interp *I, const PyNode *s) {
    PyKind k = s->kind_id;
    I->list->mark = I->list->pending.len;
    if (k == PK_Expr) {
        const PyNode *v = pyast_node(s, "value");
        if (pyast_isk(v, PK_Constant)) return; /* docstrings and bare literals */
        Val r = fe_eval(I, v);
        if (r.kind == V_BLOCKPTR && advance_call(I, v))
            fe_fail(I, v->pos,
                    "the result of tl.advance is not used: tl.advance has no side effects; to move "
                    "the block pointer, assign its result (p = tl.advance(p, offsets))");
        return;
    }
    if (k == PK_Assign) {
        const PyVal *targets = pyast_list(s, "targets");
        Val v = fe_eval(I, pyast_node(s, "value"));
        no_module_value(I, v, s);
        /* Triton makes a Python number assigned to a variable a tensor */
        if (fe_is_number(v)) v.strong = 1;
        for (int i = 0; targets && i < targets->len; i++)
            fe_assign_target(I, fe_list_node(targets, i), v);
        return;
    }
    if (k == PK_AnnAssign) {
        const PyNode *value = pyast_node(s, "value");
        const PyNode *target = pyast_node(s, "target");
        if (!value) {
            if (!pyast_isk(target, PK_Name)) fe_assign_target(I, target, vnone());
            return;
        }
        Val v = fe_eval(I, value);
        no_module_value(I, v, s);
        /* `x: tl.constexpr = 3` stays a Python value; another annotation
         * makes a tensor of it, as a plain assignment does */
        if (fe_is_number(v) && !fe_is_constexpr_annotation(I, pyast_node(s, "annotation")))
            v.strong = 1;
        fe_assign_target(I, target, v);
        return;
    }
    if (k == PK_AugAssign) {
        const PyNode *target = pyast_node(s, "target");
        const PyNode *op = pyast_node(s, "op");
        if (!target || !op) fe_fail(I, s->pos, "malformed augmented assignment");
        if (!pyast_isk(target, PK_Name)) fe_assign_target(I, target, vnone());
        static const PyKind ok[] = {PK_Add,    PK_Sub,   PK_Mult,   PK_Div,    PK_FloorDiv, PK_Mod,
                                    PK_BitAnd, PK_BitOr, PK_BitXor, PK_LShift, PK_RShift};
        int supported = 0;
        for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) supported |= op->kind_id == ok[i];
        if (!supported)
            fe_fail(I, s->pos, "augmented assignment '%s=' is not supported",
                    fe_py_op_symbol(op->kind_id));
        const char *name = pyast_str(target, "id");
        if (!name) fe_fail(I, target->pos, "malformed name");
        Val cur = fe_lookup(I, name, target->pos);
        Val rhs = fe_eval(I, pyast_node(s, "value"));
        Val r = fe_binop(I, op->kind_id, cur, rhs, s->pos);
        if (fe_is_number(r)) r.strong = 1;
        fe_bind_name(I, name, r, target->pos);
        return;
    }
    if (k == PK_For) {
        fe_visit_for(I, s);
        return;
    }
    if (k == PK_If) {
        Val c = fe_eval(I, pyast_node(s, "test"));
        if (c.kind == V_EXPR) {
            if (stmts_return(pyast_list(s, "body")) || stmts_return(pyast_list(s, "orelse")))
                visit_returning_if(I, s, c.e);
            else fe_visit_runtime_if(I, s, c.e);
            return;
        }
        int t = fe_truthy(I, c, s->pos, "");
        fe_visit_body(I, pyast_list(s, t ? "body" : "orelse"));
        return;
    }
    if (k == PK_Pass) return;
    if (k == PK_Assert) {
        fe_assert_stmt(I, s);
        return;
    }
    if (k == PK_Return) {
        const PyNode *value = pyast_node(s, "value");
        if (!I->frame && value)
            fe_fail(I, s->pos,
                    "a kernel cannot return a value (kernels write results with tl.store)");
        for (int d = I->frame ? I->frame->base_depth : 0; d < I->depth; d++)
            if (!I->returning[d]) fail_return_in_loop(I, s->pos);
        I->ret = value ? fe_eval(I, value) : vnone();
        I->returned = 1;
        return;
    }
    if (k == PK_While) {
        fe_visit_while(I, s);
        return;
    }
    if (k == PK_Break)
        fe_fail(I, s->pos, "'break' is not supported (loops always run to the end of their range)");
    if (k == PK_Continue)
        fe_fail(I, s->pos, "'continue' is not supported (use tl.where or masks instead)");
    if (k == PK_AsyncFor) fe_fail(I, s->pos, "'async for' is not supported");
    static const struct {
        PyKind kind;
        const char *what;
    } unsupported[] = {
        {PK_Assert, "'assert' statements"},        {PK_With, "'with' statements"},
        {PK_AsyncWith, "'async with' statements"}, {PK_Try, "'try' statements"},
        {PK_TryStar, "'try' statements"},          {PK_Raise, "'raise' statements"},
        {PK_Delete, "'del' statements"},           {PK_Global, "'global' statements"},
        {PK_Nonlocal, "'nonlocal' statements"},    {PK_Import, "'import' statements"},
        {PK_ImportFrom, "'import' statements"},    {PK_FunctionDef, "nested functions"},
        {PK_AsyncFunctionDef, "nested functions"}, {PK_ClassDef, "classes"},
        {PK_Match, "'match' statements"},          {PK_TypeAlias, "'type' statements"}};
    for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++)
        if (unsupported[i].kind == k)
            fe_fail(I, s->pos, "%s are not supported in kernels", unsupported[i].what);
    fe_fail(I, s->pos, "'%s' statements are not supported in kernels", s->kind);
}

/* Visits stmts from statement `from`, each with the rest of the list
 * (then I->cont) as its continuation. */
static void visit_from(Interp *I, const PyVal *stmts, int from) {
    Cont f = {.stmts = stmts, .from = from, .mark = CONT_STMTS, .next = I->cont};
    const Cont *outer = I->cont;
    I->cont = &f;
    for (int i = from; stmts && i < stmts->len && !I->returned; i++) {
        const PyNode *s = fe_list_node(stmts, i);
        if (!s) fe_fail(I, srcpos(0, 0), "malformed statement list");
        f.from = i + 1;
        fe_visit_stmt(I, s);
    }
    I->cont = outer;
}

void fe_visit_body(Interp *I, const PyVal *stmts) { visit_from(I, stmts, 0); }

void fe_visit_body_marked(Interp *I, const PyVal *stmts, int mark) {
    Cont m = {.mark = mark, .next = I->cont};
    const Cont *outer = I->cont;
    I->cont = &m;
    visit_from(I, stmts, 0);
    I->cont = outer;
}
