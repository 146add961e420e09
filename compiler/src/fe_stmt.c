/* Statements: assignments, stores, compile-time branches, static and
 * runtime loops (the seed's rules: carried names in source order, an
 * isolated body, captures by identity, names created in a body do not
 * escape). */
#include "fe_internal.h"

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

void fe_bind_name(Interp *I, const char *name, Val v, SrcPos pos) {
    for (int d = 0; d < I->depth; d++)
        if (strcmp(I->loops[d]->index_name, name) == 0)
            fe_fail(I, pos,
                    "cannot assign to '%s', the induction variable of the runtime loop at line %d",
                    name, I->loops[d]->pos.line);
    if (v.kind == V_MODULE || v.kind == V_FUNC || v.kind == V_USERFUNC) {
        /* aliases of functions are fine: they are compile-time values */
    }
    fe_env_set(I->a, I->env, name, v, pos);
}

void fe_assign_target(Interp *I, const PyNode *target, Val v) {
    if (!target) fe_fail(I, srcpos(0, 0), "malformed assignment");
    if (pyast_isk(target, PK_Name)) {
        if (!pyast_str(target, "id")) fe_fail(I, target->pos, "malformed name");
        fe_bind_name(I, pyast_str(target, "id"), v, target->pos);
        return;
    }
    if (pyast_isk(target, PK_Tuple) || pyast_isk(target, PK_List))
        fe_fail(I, target->pos,
                "tuple targets are not supported (assign each name on its own line)");
    if (pyast_isk(target, PK_Subscript))
        fe_fail(
            I, target->pos,
            "assignment to a subscript is not supported (blocks are values; write memory with tl.store)");
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
        case EX_LOOP_RESULT: e = e->loop->inputs[e->index]; break;
        default: return -1;
        }
    }
    return -1;
}

void fe_runtime_loop(Interp *I, const PyNode *node, const char *target, RangeParts *rp) {
    const PyVal *body = pyast_list(node, "body");
    /* bounds: i32 scalars; step: a positive compile-time integer */
    static const char *const part_names[] = {"start", "stop", "step"};
    Expr *bounds[3];
    for (int i = 0; i < 2; i++) {
        Val v = rp->v[i];
        if (v.kind == V_EXPR) {
            if (v.e->type.rank != 0 || v.e->type.ptr || v.e->type.dtype != DT_I32)
                fe_fail(I, rp->pos[i], "the %s of a runtime loop must be an i32 scalar (got %s)",
                        part_names[i], type_str(I->a, v.e->type));
        } else if (v.kind != V_INT) {
            fe_fail(I, rp->pos[i], "the %s of range() must be an integer, not %s", part_names[i],
                    fe_kind_name(v));
        }
        bounds[i] = fe_to_expr(I, v, rp->pos[i], "range()");
    }
    if (rp->v[2].kind == V_EXPR)
        fe_fail(
            I, rp->pos[2],
            "the step of a runtime loop must be a positive compile-time integer (got a runtime value)");
    if (rp->v[2].kind == V_INT && rp->v[2].i <= 0)
        fe_fail(I, rp->pos[2],
                "the step of a runtime loop must be a positive compile-time integer (got %lld)",
                (long long)rp->v[2].i);
    if (rp->v[2].kind != V_INT)
        fe_fail(I, rp->pos[2],
                "the step of a runtime loop must be a positive compile-time integer (got %s)",
                fe_kind_name(rp->v[2]));
    bounds[2] = fe_to_expr(I, rp->v[2], rp->pos[2], "range()");
    if (I->depth >= MAX_LOOP_DEPTH)
        fe_fail(I, node->pos, "runtime loops are nested more than %d deep", MAX_LOOP_DEPTH);

    ForRange *L = ARENA_NEW(I->a, ForRange);
    L->pos = node->pos;
    L->index_name = target;
    L->start = bounds[0];
    L->stop = bounds[1];
    L->step = bounds[2];

    /* carried: names assigned in the body that exist before the loop */
    PtrVec assigned = {0}, carried = {0};
    fe_collect_assigned(I->a, body, &assigned);
    for (int i = 0; i < assigned.len; i++)
        if (fe_env_find(I->env, assigned.items[i]) && strcmp(assigned.items[i], target) != 0)
            ptrvec_push(I->a, &carried, assigned.items[i]);
    int n = carried.len;
    L->ncarried = n;
    L->names = ARENA_ARRAY(I->a, const char *, n + 1);
    L->inputs = ARENA_ARRAY(I->a, Expr *, n + 1);
    L->args = ARENA_ARRAY(I->a, Expr *, n + 1);
    L->outputs = ARENA_ARRAY(I->a, Expr *, n + 1);
    L->results = ARENA_ARRAY(I->a, Expr *, n + 1);
    for (int i = 0; i < n; i++) {
        L->names[i] = carried.items[i];
        EnvEntry *e = fe_env_find(I->env, L->names[i]);
        Val v = e->v;
        if (v.kind != V_EXPR && !fe_is_number(v))
            fe_fail(
                I, node->pos,
                "'%s' is assigned in the runtime loop but holds %s before it (only numbers and blocks can be carried)",
                L->names[i], fe_kind_name(v));
        fe_note_use(I, v);
        L->inputs[i] = fe_to_expr(I, v, e->at, "a loop-carried value");
    }

    /* trace the body in an isolated environment */
    I->loops[I->depth] = L;
    I->depth++;
    L->index = fe_new_expr(I, EX_LOOP_INDEX, node->pos, type_scalar(DT_I32));
    L->index->loop = L;
    Env body_env = fe_env_copy(I->a, I->env);
    fe_env_set(I->a, &body_env, target, fe_vexpr(L->index), node->pos);
    for (int i = 0; i < n; i++) {
        Expr *arg = fe_new_expr(I, EX_LOOP_CARRY, node->pos, L->inputs[i]->type);
        arg->loop = L;
        arg->index = i;
        L->args[i] = arg;
        fe_env_set(I->a, &body_env, L->names[i], fe_vexpr(arg),
                   fe_env_find(I->env, L->names[i])->at);
    }
    Env *outer_env = I->env;
    StmtList *outer_list = I->list;
    StmtList body_list = {&L->body, {0}, 0};
    I->env = &body_env;
    I->list = &body_list;
    fe_visit_body(I, body);
    for (int i = 0; i < n; i++) {
        EnvEntry *e = fe_env_find(&body_env, L->names[i]);
        Val v = e->v;
        if (v.kind != V_EXPR && !fe_is_number(v))
            fe_fail(I, e->at,
                    "'%s' is carried by the runtime loop at line %d but is assigned %s in its body",
                    L->names[i], node->pos.line, fe_kind_name(v));
        Expr *out = fe_to_expr(I, v, e->at, "a loop-carried value");
        if (!type_eq(out->type, L->inputs[i]->type))
            fe_fail(
                I, e->at,
                "the loop-carried variable '%s' changes type across an iteration: %s before the loop, %s at the end of "
                "the body (a carried value keeps one type; give it its final type before the loop)",
                L->names[i], type_str(I->a, L->inputs[i]->type), type_str(I->a, out->type));
        if (out->type.ptr) {
            /* backends keep a carried pointer as an offset from one
             * parameter: it must stay inside the same one */
            int before = fe_pointer_param(L->inputs[i]), after = fe_pointer_param(out);
            if (before != after && before >= 0 && after >= 0)
                fe_fail(
                    I, e->at,
                    "the loop-carried pointer '%s' must keep pointing into one parameter: '%s' before the loop, '%s' "
                    "at the end of the body",
                    L->names[i], I->k->runtime[before]->name, I->k->runtime[after]->name);
        }
        L->outputs[i] = out;
    }
    I->env = outer_env;
    I->list = outer_list;
    I->depth--;

    for (int i = 0; i < n; i++) {
        Expr *r = fe_new_expr(I, EX_LOOP_RESULT, node->pos, L->outputs[i]->type);
        r->loop = L;
        r->index = i;
        L->results[i] = r;
        fe_env_set(I->a, I->env, L->names[i], fe_vexpr(r), fe_env_find(I->env, L->names[i])->at);
    }
    /* names first created in the body do not escape */
    for (int i = 0; i < assigned.len; i++)
        if (!fe_env_find(I->env, assigned.items[i])) {
            /* the value: the line of the outermost loop it does not escape */
            EnvEntry *inner = fe_env_find(&body_env, assigned.items[i]);
            EnvEntry *nested = fe_env_find(&I->loop_locals, assigned.items[i]);
            SrcPos at = inner ? inner->at : nested ? nested->at : node->pos;
            fe_env_set(I->a, &I->loop_locals, assigned.items[i], fe_vint(node->pos.line), at);
        }

    Stmt *s = ARENA_NEW(I->a, Stmt);
    s->kind = STMT_FOR;
    s->pos = node->pos;
    s->loop = L;
    fe_stmt_append(I, s);
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
            is_range = callee.kind == V_FUNC && (callee.i == B_RANGE || callee.i == B_STATIC_RANGE);
        }
    }
    if (!is_range) {
        Val seq = fe_eval(I, iter);
        if (seq.kind != V_TUPLE && seq.kind != V_LIST)
            fe_fail(
                I, iter->pos,
                "a for loop must iterate over range(...), tl.static_range(...) or a compile-time tuple");
        for (int i = 0; i < seq.n; i++) {
            fe_bind_name(I, name, seq.items[i], target->pos);
            fe_visit_body(I, body);
        }
        return;
    }
    int is_static = callee.i == B_STATIC_RANGE;
    const char *fn = is_static ? "tl.static_range" : "range";
    Args A;
    fe_bind_args(I, iter, (Builtin)callee.i, &A);
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
    int all_int = rp.v[0].kind == V_INT && rp.v[1].kind == V_INT && rp.v[2].kind == V_INT;
    if (all_int) {
        int64_t start = rp.v[0].i, stop = rp.v[1].i, step = rp.v[2].i;
        if (step == 0) fe_fail(I, rp.pos[2], "%s() arg 3 must not be zero", fn);
        int64_t count = step > 0 ? (stop > start ? (stop - start + step - 1) / step : 0)
                                 : (start > stop ? (start - stop - step - 1) / -step : 0);
        if (count > MAX_UNROLL)
            fe_fail(I, iter->pos, "%s unrolls %lld iterations, more than %d", fn, (long long)count,
                    MAX_UNROLL);
        for (int64_t k = 0; k < count; k++) {
            fe_bind_name(I, name, fe_vint(start + k * step), target->pos);
            fe_visit_body(I, body);
        }
        return;
    }
    if (is_static) {
        for (int i = 0; i < 3; i++)
            if (rp.v[i].kind != V_INT)
                fe_fail(
                    I, rp.pos[i],
                    "tl.static_range needs compile-time integer bounds (got %s; use range() for a runtime loop)",
                    fe_kind_name(rp.v[i]));
    }
    for (int d = 0; d < I->depth; d++)
        if (strcmp(I->loops[d]->index_name, name) == 0)
            fe_fail(I, target->pos,
                    "cannot assign to '%s', the induction variable of the runtime loop at line %d",
                    name, I->loops[d]->pos.line);
    fe_runtime_loop(I, node, name, &rp);
}

void fe_visit_stmt(Interp *I, const PyNode *s) {
    PyKind k = s->kind_id;
    I->list->mark = I->list->pending.len;
    if (k == PK_Expr) {
        const PyNode *v = pyast_node(s, "value");
        if (pyast_isk(v, PK_Constant)) return; /* docstrings and bare literals */
        fe_eval(I, v);
        return;
    }
    if (k == PK_Assign) {
        const PyVal *targets = pyast_list(s, "targets");
        Val v = fe_eval(I, pyast_node(s, "value"));
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
        int t = fe_truthy(
            I, c, s->pos,
            "'if' on a runtime value is not supported (use tl.where to choose per element, or make the "
            "condition a tl.constexpr)");
        fe_visit_body(I, pyast_list(s, t ? "body" : "orelse"));
        return;
    }
    if (k == PK_Pass) return;
    if (k == PK_Return)
        fe_fail(I, s->pos,
                "'return' in a kernel is not supported (kernels write results with tl.store)");
    if (k == PK_While)
        fe_fail(I, s->pos, "'while' loops are not supported (use 'for i in range(n)')");
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

void fe_visit_body(Interp *I, const PyVal *stmts) {
    for (int i = 0; stmts && i < stmts->len; i++) {
        const PyNode *s = fe_list_node(stmts, i);
        if (!s) fe_fail(I, srcpos(0, 0), "malformed statement list");
        fe_visit_stmt(I, s);
    }
}
