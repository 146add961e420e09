/* The verifier. Rules:
 *   - every used value is defined before the use, in an enclosing scope;
 *     values defined in a loop body do not escape it;
 *   - every value is defined once (induction values, region arguments and
 *     results are fresh);
 *   - operand counts follow the opcode table; `none` only as a load's mask
 *     or other and a store's mask;
 *   - the recorded result type equals the op's type rule applied to the
 *     operand types (this checks operand types, broadcasting, pointer
 *     rules, masks and the op-specific attributes);
 *   - loops: bounds are i32 scalars, the step a positive constant or a
 *     runtime i32 (assumed positive), the carried inputs, region
 *     arguments, yields and results have equal counts and one type per
 *     lane; bodies are verified recursively;
 *   - while: carried lanes as a loop's; the condition region sees the
 *     region arguments and ends in an i1 scalar defined in it or outside;
 *     its definitions do not reach the body, which sees the arguments too;
 *   - if: the condition is an i1 scalar defined before; no carried lanes;
 *     both regions yield one value per result, of the result's type; what
 *     a region defines stays in it (the other region cannot use it).
 * Requires nothing; changes nothing. */
#include "ir/verify.h"

#include <string.h>

typedef struct Verifier {
    Arena *a;
    const Function *f;
    char *in_scope; /* by value number */
    char *seen;     /* defined at some point */
    PtrVec scope;   /* value numbers defined, for region exit (as intptr) */
    const char *err;
} Verifier;

#define BAD(...)                                               \
    do {                                                       \
        if (!V->err) V->err = arena_printf(V->a, __VA_ARGS__); \
        return 0;                                              \
    } while (0)

static int check_value_use(Verifier *V, int id, const char *where) {
    if (id < 0 || id >= V->f->nvalues) BAD("%s uses %%%d, which does not exist", where, id);
    if (V->in_scope[id]) return 1;
    if (V->seen[id]) BAD("%s uses %%%d outside the region that defines it", where, id);
    BAD("%s uses %%%d before its definition", where, id);
}

static int check_operand(Verifier *V, Operand o, const char *where) {
    switch (o.kind) {
    case OPD_VALUE: return check_value_use(V, o.id, where);
    case OPD_PARAM:
        if (o.id < 0 || o.id >= V->f->nparams)
            BAD("%s uses parameter #%d, which does not exist", where, o.id);
        return 1;
    case OPD_CONST:
        if (o.c.dt == DT_NONE || o.c.dt >= DT_COUNT) BAD("%s has a constant without a type", where);
        if (!dtype_is_float(o.c.dt) && !const_eq(const_int(o.c.dt, o.c.i), o.c))
            BAD("%s has an %s constant out of range", where, dtype_name(o.c.dt));
        return 1;
    case OPD_NONE: return 1;
    }
    BAD("%s has an operand of unknown kind", where);
}

static int define(Verifier *V, int id, Type t, const char *what) {
    if (id < 0 || id >= V->f->nvalues) BAD("%s defines %%%d, which was never allocated", what, id);
    if (V->seen[id]) BAD("%s defines %%%d a second time", what, id);
    if (!type_eq(V->f->types[id], t))
        BAD("%s defines %%%d as %s but the value table says %s", what, id, type_str(V->a, t),
            type_str(V->a, V->f->types[id]));
    V->seen[id] = 1;
    V->in_scope[id] = 1;
    ptrvec_push(V->a, &V->scope, (void *)(intptr_t)id);
    return 1;
}

static int verify_block(Verifier *V, const Block *b);

static void leave_scope(Verifier *V, int mark) {
    for (int i = mark; i < V->scope.len; i++) V->in_scope[(intptr_t)V->scope.items[i]] = 0;
    V->scope.len = mark;
}

static const char *region_name(Verifier *V, const Inst *in) {
    const Loop *l = in->loop;
    if (in->op == OP_FOR) return arena_printf(V->a, "loop %%%d", l->index);
    const char *what = in->op == OP_IF ? "if" : "while";
    if (l->nresults) return arena_printf(V->a, "the %s defining %%%d", what, l->results[0]);
    return arena_printf(V->a, "the %s at line %d", what, in->pos.line);
}

static int check_cond(Verifier *V, const Inst *in, const char *name) {
    const Loop *l = in->loop;
    const char *where = arena_printf(V->a, "the condition of %s", name);
    if (l->cond.kind == OPD_NONE) BAD("%s is missing", where);
    if (!check_operand(V, l->cond, where)) return 0;
    Type t = operand_type(V->f, l->cond);
    if (t.rank != 0 || t.ptr || t.dtype != DT_BOOL)
        BAD("%s must be an i1 scalar (got %s)", where, type_str(V->a, t));
    return 1;
}

/* Yields of a region against the lane types (`lane`: a value per lane). */
static int check_yields(Verifier *V, const Operand *y, int n, const int *lane, const char *name,
                        const char *region) {
    for (int i = 0; i < n; i++) {
        if (!check_operand(V, y[i], arena_printf(V->a, "%syield %d of %s", region, i, name)))
            return 0;
        if (y[i].kind == OPD_NONE) BAD("%syield %d of %s is none", region, i, name);
        Type t = operand_type(V->f, y[i]);
        if (!type_eq(t, V->f->types[lane[i]]))
            BAD("%s lane %d: the lane is %s but the %syield is %s (no implicit promotion across "
                "regions)",
                name, i, type_str(V->a, V->f->types[lane[i]]), region, type_str(V->a, t));
    }
    return 1;
}

static int define_results(Verifier *V, const Loop *l, const char *name, const int *lane) {
    const Function *f = V->f;
    for (int i = 0; i < l->nresults; i++) {
        if (l->results[i] < 0 || l->results[i] >= f->nvalues)
            BAD("%s's result %d defines %%%d, which was never allocated", name, i, l->results[i]);
        if (!define(V, l->results[i], f->types[l->results[i]],
                    arena_printf(V->a, "%s's result %d", name, i)))
            return 0;
        if (lane && !type_eq(f->types[l->results[i]], f->types[lane[i]]))
            BAD("%s lane %d: the result %%%d is %s but the carried value is %s", name, i,
                l->results[i], type_str(V->a, f->types[l->results[i]]),
                type_str(V->a, f->types[lane[i]]));
    }
    return 1;
}

static int verify_if(Verifier *V, const Inst *in) {
    const Loop *l = in->loop;
    const char *name = region_name(V, in);
    if (!check_cond(V, in, name)) return 0;
    if (l->ncarried != 0) BAD("%s has %d carried inputs (an if has none)", name, l->ncarried);
    if (l->nyields != l->nresults)
        BAD("%s has %d yields per region and %d results (the counts must be equal)", name,
            l->nyields, l->nresults);
    for (int i = 0; i < l->nresults; i++)
        if (l->results[i] < 0 || l->results[i] >= V->f->nvalues)
            BAD("%s's result %d defines %%%d, which was never allocated", name, i, l->results[i]);
    int mark = V->scope.len;
    if (!verify_block(V, &l->body)) return 0;
    if (!check_yields(V, l->yields, l->nyields, l->results, name, "then-")) return 0;
    leave_scope(V, mark);
    if (!verify_block(V, &l->orelse)) return 0;
    if (!check_yields(V, l->else_yields, l->nyields, l->results, name, "else-")) return 0;
    leave_scope(V, mark);
    return define_results(V, l, name, NULL);
}

static int define_args(Verifier *V, const Loop *l, const char *name) {
    const Function *f = V->f;
    for (int i = 0; i < l->ncarried; i++) {
        Type init = operand_type(f, l->inits[i]);
        if (l->inits[i].kind == OPD_NONE) BAD("carried input %d of %s is none", i, name);
        if (l->args[i] < 0 || l->args[i] >= f->nvalues)
            BAD("%s's region argument %d defines %%%d, which was never allocated", name, i,
                l->args[i]);
        if (!define(V, l->args[i], f->types[l->args[i]],
                    arena_printf(V->a, "%s's region argument %d", name, i)))
            return 0;
        if (!type_eq(init, f->types[l->args[i]]))
            BAD("%s lane %d: the carried input is %s but the region argument %%%d is %s", name, i,
                type_str(V->a, init), l->args[i], type_str(V->a, f->types[l->args[i]]));
    }
    return 1;
}

static int verify_while(Verifier *V, const Inst *in) {
    const Loop *l = in->loop;
    const char *name = region_name(V, in);
    if (l->ncarried != l->nyields || l->ncarried != l->nresults)
        BAD("%s has %d carried inputs and region arguments, %d yields and %d results (the counts "
            "must be equal)",
            name, l->ncarried, l->nyields, l->nresults);
    for (int i = 0; i < l->ncarried; i++)
        if (!check_operand(V, l->inits[i], arena_printf(V->a, "carried input %d of %s", i, name)))
            return 0;
    int mark = V->scope.len;
    if (!define_args(V, l, name)) return 0;
    int args_end = V->scope.len;
    if (!verify_block(V, &l->before)) return 0;
    if (!check_cond(V, in, name)) return 0;
    leave_scope(V, args_end);
    if (!verify_block(V, &l->body)) return 0;
    if (!check_yields(V, l->yields, l->nyields, l->args, name, "")) return 0;
    leave_scope(V, mark);
    return define_results(V, l, name, l->args);
}

static int verify_loop(Verifier *V, const Inst *in) {
    const Loop *l = in->loop;
    const Function *f = V->f;
    if (!l) BAD("a '%s' item has no loop", op_info(in->op)->name);
    if (in->op == OP_IF) return verify_if(V, in);
    if (in->op == OP_WHILE) return verify_while(V, in);
    const char *names[3] = {"start", "stop", "step"};
    const Operand *bounds[3] = {&l->start, &l->stop, &l->step};
    for (int i = 0; i < 3; i++) {
        const char *where = arena_printf(V->a, "the %s of loop %%%d", names[i], l->index);
        if (bounds[i]->kind == OPD_NONE) BAD("%s is missing", where);
        if (!check_operand(V, *bounds[i], where)) return 0;
        Type t = operand_type(f, *bounds[i]);
        if (t.rank != 0 || t.ptr || t.dtype != DT_I32)
            BAD("%s must be an i32 scalar (got %s)", where, type_str(V->a, t));
    }
    if (l->step.kind == OPD_CONST && l->step.c.i <= 0)
        BAD("the step of loop %%%d must be a positive constant or a runtime i32", l->index);
    if (l->num_stages < 0 || l->unroll < 0)
        BAD("loop %%%d has a negative num_stages or loop_unroll_factor", l->index);
    const char *name = region_name(V, in);
    if (l->ncarried != l->nyields || l->ncarried != l->nresults)
        BAD("loop %%%d has %d carried inputs and region arguments, %d yields and %d results (the "
            "counts must be equal)",
            l->index, l->ncarried, l->nyields, l->nresults);
    for (int i = 0; i < l->ncarried; i++)
        if (!check_operand(V, l->inits[i],
                           arena_printf(V->a, "carried input %d of loop %%%d", i, l->index)))
            return 0;
    int mark = V->scope.len;
    if (!define(V, l->index, type_scalar(DT_I32),
                arena_printf(V->a, "loop %%%d's induction variable", l->index)))
        return 0;
    if (!define_args(V, l, name)) return 0;
    if (!verify_block(V, &l->body)) return 0;
    for (int i = 0; i < l->nyields; i++) {
        if (!check_operand(V, l->yields[i],
                           arena_printf(V->a, "yield %d of loop %%%d", i, l->index)))
            return 0;
        Type y = operand_type(f, l->yields[i]);
        if (l->yields[i].kind == OPD_NONE) BAD("yield %d of loop %%%d is none", i, l->index);
        if (!type_eq(y, f->types[l->args[i]]))
            BAD("loop %%%d lane %d: the region argument is %s but the yield is %s (no implicit "
                "promotion across "
                "iterations)",
                l->index, i, type_str(V->a, f->types[l->args[i]]), type_str(V->a, y));
    }
    /* leave the region: its definitions go out of scope */
    leave_scope(V, mark);
    return define_results(V, l, name, l->args);
}

static int verify_inst(Verifier *V, const Inst *in) {
    const Function *f = V->f;
    if ((unsigned)in->op >= OP_COUNT) BAD("an item has an unknown opcode");
    const OpInfo *info = op_info(in->op);
    if (op_has(in->op, OPF_REGION)) return verify_loop(V, in);
    const char *where =
        in->result >= 0 ? arena_printf(V->a, "%%%d = %s", in->result, info->name) : info->name;
    if (op_has(in->op, OPF_VARIADIC) ? in->nargs < 0 || in->nargs > info->nargs
                                     : in->nargs != info->nargs)
        BAD("%s has %d operands (it takes %d)", where, in->nargs, info->nargs);
    Type types[MT_MAX_OPERANDS];
    uint8_t flags[MT_MAX_OPERANDS] = {0};
    for (int i = 0; i < in->nargs; i++) {
        if (!check_operand(V, in->args[i], where)) return 0;
        int optional = (in->op == OP_LOAD && i >= 1) ||
                       ((in->op == OP_STORE || in->op == OP_ATOMIC_RMW) && i == 2);
        if (in->args[i].kind == OPD_NONE && !optional)
            BAD("%s: operand %d cannot be none", where, i);
        flags[i] = (uint8_t)((in->args[i].kind != OPD_NONE ? ARG_PRESENT : 0) |
                             (in->args[i].kind == OPD_CONST ? ARG_WEAK : 0));
        types[i] = operand_type(f, in->args[i]);
    }
    Type t;
    const char *err;
    if (!op_result_type_ex(V->a, in->op, NULL, types, flags, &in->attrs, &t, &err))
        BAD("%s: %s", where, err);
    if (op_has(in->op, OPF_NO_RESULT)) {
        if (in->result >= 0) BAD("%s must not define a value", where);
        return 1;
    }
    if (in->result < 0) BAD("%s defines no value", info->name);
    if (in->result >= f->nvalues)
        BAD("%s defines %%%d, which was never allocated", where, in->result);
    if (!type_eq(t, in->type))
        BAD("%s is typed %s but its operands give %s", where, type_str(V->a, in->type),
            type_str(V->a, t));
    if (!define(V, in->result, in->type, where)) return 0;
    if (f->defs[in->result] != in) BAD("%s: the value table names another definition", where);
    return 1;
}

static int verify_block(Verifier *V, const Block *b) {
    for (int i = 0; i < b->items.len; i++)
        if (!verify_inst(V, b->items.items[i])) return 0;
    return 1;
}

int ssa_verify(Arena *a, const Function *f, const char **err) {
    Verifier V = {
        a,   f,   ARENA_ARRAY(a, char, f->nvalues + 1), ARENA_ARRAY(a, char, f->nvalues + 1),
        {0}, NULL};
    int ok = verify_block(&V, &f->body);
    *err = ok ? NULL : V.err;
    return ok;
}
