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
 *   - loops: bounds are i32 scalars, the step a positive constant, the
 *     carried inputs, region arguments, yields and results have equal
 *     counts and one type per lane; bodies are verified recursively.
 * Requires nothing; changes nothing. */
#include "verify.h"

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
    if (V->seen[id]) BAD("%s uses %%%d outside the loop body that defines it", where, id);
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

static int verify_loop(Verifier *V, const Inst *in) {
    const Loop *l = in->loop;
    const Function *f = V->f;
    if (!l) BAD("a 'for' item has no loop");
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
    if (l->step.kind != OPD_CONST || l->step.c.i <= 0)
        BAD("the step of loop %%%d must be a positive constant", l->index);
    if (l->ncarried != l->nyields || l->ncarried != l->nresults)
        BAD("loop %%%d has %d carried inputs and region arguments, %d yields and %d results (the counts must be equal)",
            l->index, l->ncarried, l->nyields, l->nresults);
    for (int i = 0; i < l->ncarried; i++)
        if (!check_operand(V, l->inits[i],
                           arena_printf(V->a, "carried input %d of loop %%%d", i, l->index)))
            return 0;
    int mark = V->scope.len;
    if (!define(V, l->index, type_scalar(DT_I32),
                arena_printf(V->a, "loop %%%d's induction variable", l->index)))
        return 0;
    for (int i = 0; i < l->ncarried; i++) {
        Type init = operand_type(f, l->inits[i]);
        if (l->inits[i].kind == OPD_NONE) BAD("carried input %d of loop %%%d is none", i, l->index);
        if (l->args[i] < 0 || l->args[i] >= f->nvalues)
            BAD("loop %%%d's region argument %d defines %%%d, which was never allocated", l->index,
                i, l->args[i]);
        if (!define(V, l->args[i], f->types[l->args[i]],
                    arena_printf(V->a, "loop %%%d's region argument %d", l->index, i)))
            return 0;
        if (!type_eq(init, f->types[l->args[i]]))
            BAD("loop %%%d lane %d: the carried input is %s but the region argument %%%d is %s",
                l->index, i, type_str(V->a, init), l->args[i],
                type_str(V->a, f->types[l->args[i]]));
    }
    if (!verify_block(V, &l->body)) return 0;
    for (int i = 0; i < l->nyields; i++) {
        if (!check_operand(V, l->yields[i],
                           arena_printf(V->a, "yield %d of loop %%%d", i, l->index)))
            return 0;
        Type y = operand_type(f, l->yields[i]);
        if (l->yields[i].kind == OPD_NONE) BAD("yield %d of loop %%%d is none", i, l->index);
        if (!type_eq(y, f->types[l->args[i]]))
            BAD("loop %%%d lane %d: the region argument is %s but the yield is %s (no implicit promotion across "
                "iterations)",
                l->index, i, type_str(V->a, f->types[l->args[i]]), type_str(V->a, y));
    }
    /* leave the region: its definitions go out of scope */
    for (int i = mark; i < V->scope.len; i++) V->in_scope[(intptr_t)V->scope.items[i]] = 0;
    V->scope.len = mark;
    for (int i = 0; i < l->nresults; i++) {
        if (l->results[i] < 0 || l->results[i] >= f->nvalues)
            BAD("loop %%%d's result %d defines %%%d, which was never allocated", l->index, i,
                l->results[i]);
        if (!define(V, l->results[i], f->types[l->results[i]],
                    arena_printf(V->a, "loop %%%d's result %d", l->index, i)))
            return 0;
        if (!type_eq(f->types[l->results[i]], f->types[l->args[i]]))
            BAD("loop %%%d lane %d: the result %%%d is %s but the carried value is %s", l->index, i,
                l->results[i], type_str(V->a, f->types[l->results[i]]),
                type_str(V->a, f->types[l->args[i]]));
    }
    return 1;
}

static int verify_inst(Verifier *V, const Inst *in) {
    const Function *f = V->f;
    if ((unsigned)in->op >= OP_COUNT) BAD("an item has an unknown opcode");
    const OpInfo *info = op_info(in->op);
    if (in->op == OP_FOR) return verify_loop(V, in);
    const char *where =
        in->result >= 0 ? arena_printf(V->a, "%%%d = %s", in->result, info->name) : info->name;
    if (in->nargs != info->nargs)
        BAD("%s has %d operands (it takes %d)", where, in->nargs, info->nargs);
    Type types[3];
    uint8_t flags[3] = {0};
    for (int i = 0; i < in->nargs; i++) {
        if (!check_operand(V, in->args[i], where)) return 0;
        int optional = (in->op == OP_LOAD && i >= 1) || (in->op == OP_STORE && i == 2);
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
