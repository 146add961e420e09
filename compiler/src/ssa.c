/* SSA construction helpers and the SSA text printer (DESIGN 6). */
#include "ssa.h"

#include <string.h>

Function *ssa_function_new(Arena *a, const char *name, int nparams) {
    Function *f = ARENA_NEW(a, Function);
    f->name = name;
    f->nparams = nparams;
    f->params = ARENA_ARRAY(a, SsaParam, nparams + 1);
    return f;
}

int ssa_new_value(Arena *a, Function *f, Type t, Inst *def) {
    if (f->nvalues == f->cap) {
        int cap = f->cap ? f->cap * 2 : 64;
        Type *types = ARENA_ARRAY(a, Type, cap);
        Inst **defs = ARENA_ARRAY(a, Inst *, cap);
        if (f->nvalues) {
            memcpy(types, f->types, sizeof(Type) * (size_t)f->nvalues);
            memcpy(defs, f->defs, sizeof(Inst *) * (size_t)f->nvalues);
        }
        f->types = types;
        f->defs = defs;
        f->cap = cap;
    }
    f->types[f->nvalues] = t;
    f->defs[f->nvalues] = def;
    return f->nvalues++;
}

Inst *ssa_inst_new(Arena *a, Op op, SrcPos pos) {
    Inst *i = ARENA_NEW(a, Inst);
    i->op = op;
    i->result = -1;
    i->pos = pos;
    i->nargs = op_info(op)->nargs > 0 ? op_info(op)->nargs : 0;
    return i;
}

int operand_eq(Operand a, Operand b) {
    if (a.kind != b.kind) return 0;
    switch (a.kind) {
    case OPD_NONE: return 1;
    case OPD_VALUE:
    case OPD_PARAM: return a.id == b.id;
    case OPD_CONST: return const_eq(a.c, b.c);
    }
    return 0;
}

Type operand_type(const Function *f, Operand o) {
    switch (o.kind) {
    case OPD_VALUE: return f->types[o.id];
    case OPD_PARAM: return f->params[o.id].type;
    case OPD_CONST: return type_scalar(o.c.dt);
    case OPD_NONE: break;
    }
    return type_scalar(DT_NONE);
}

const char *operand_str(Arena *a, const Function *f, Operand o) {
    switch (o.kind) {
    case OPD_NONE: return "none";
    case OPD_VALUE: return arena_printf(a, "%%%d", o.id);
    case OPD_PARAM: return f->params[o.id].name;
    case OPD_CONST: return const_repr(a, o.c);
    }
    return "?";
}

void attrs_print(StrBuf *sb, Op op, const Attrs *at) {
    static const char *const hints[3] = {"multiple_of", "max_contiguous", "max_constancy"};
    switch (op_info(op)->attrs) {
    case AT_NONE: return;
    case AT_AXIS: sb_printf(sb, " {axis=%d}", at->axis); return;
    case AT_RANGE: sb_printf(sb, " {start=%d, end=%d}", at->start, at->end); return;
    case AT_SHAPE:
        if (at->rank == 1)
            sb_printf(sb, " {shape=(%d,), dtype=%s}", (int)at->shape[0], dtype_name(at->dtype));
        else
            sb_printf(sb, " {shape=(%d, %d), dtype=%s}", (int)at->shape[0], (int)at->shape[1],
                      dtype_name(at->dtype));
        return;
    case AT_DTYPE:
        sb_printf(sb, " {dtype=%s%s}", dtype_name(at->dtype), at->flag ? ", rounding=rtz" : "");
        return;
    case AT_NAN:
        if (at->flag) sb_puts(sb, " {nan_ignored}");
        return;
    case AT_HINT:
        sb_printf(sb, " {%s=%d}", hints[at->axis >= 0 && at->axis < 3 ? at->axis : 0], at->start);
        return;
    }
}

static void print_items(StrBuf *sb, Arena *a, const Function *f, const Block *b, int indent);

static void print_loop(StrBuf *sb, Arena *a, const Function *f, const Loop *l, int indent) {
    for (int i = 0; i < l->nresults; i++) sb_printf(sb, "%s%%%d", i ? ", " : "", l->results[i]);
    if (l->nresults) sb_puts(sb, " = ");
    sb_printf(sb, "for %%%d in range(%s, %s, %s)", l->index, operand_str(a, f, l->start),
              operand_str(a, f, l->stop), operand_str(a, f, l->step));
    if (l->ncarried) {
        sb_puts(sb, " iter_args(");
        for (int i = 0; i < l->ncarried; i++)
            sb_printf(sb, "%s%%%d = %s", i ? ", " : "", l->args[i], operand_str(a, f, l->inits[i]));
        sb_puts(sb, ")");
    }
    if (l->nresults) {
        sb_puts(sb, " : ");
        for (int i = 0; i < l->nresults; i++)
            sb_printf(sb, "%s%s", i ? ", " : "", type_str(a, f->types[l->results[i]]));
    }
    sb_puts(sb, " {\n");
    print_items(sb, a, f, &l->body, indent + 2);
    sb_printf(sb, "%*syield", indent + 2, "");
    for (int i = 0; i < l->nyields; i++)
        sb_printf(sb, "%s%s", i ? ", " : " ", operand_str(a, f, l->yields[i]));
    sb_printf(sb, "\n%*s}\n", indent, "");
}

static void print_inst(StrBuf *sb, Arena *a, const Function *f, const Inst *in, int indent) {
    sb_printf(sb, "%*s", indent, "");
    if (in->op == OP_FOR) {
        print_loop(sb, a, f, in->loop, indent);
        return;
    }
    if (in->result >= 0) sb_printf(sb, "%%%d = ", in->result);
    sb_puts(sb, op_info(in->op)->name);
    for (int i = 0; i < in->nargs; i++)
        sb_printf(sb, "%s%s", i ? ", " : " ", operand_str(a, f, in->args[i]));
    attrs_print(sb, in->op, &in->attrs);
    if (in->result >= 0) sb_printf(sb, " : %s", type_str(a, in->type));
    sb_putc(sb, '\n');
}

static void print_items(StrBuf *sb, Arena *a, const Function *f, const Block *b, int indent) {
    for (int i = 0; i < b->items.len; i++) print_inst(sb, a, f, b->items.items[i], indent);
}

void ssa_print(StrBuf *sb, Arena *a, const Function *f) { print_items(sb, a, f, &f->body, 0); }

void ssa_for_each_operand(Inst *inst, int recurse, OperandFn fn, void *user) {
    if (inst->op != OP_FOR) {
        for (int i = 0; i < inst->nargs; i++) fn(&inst->args[i], user);
        return;
    }
    Loop *l = inst->loop;
    fn(&l->start, user);
    fn(&l->stop, user);
    fn(&l->step, user);
    for (int i = 0; i < l->ncarried; i++) fn(&l->inits[i], user);
    if (recurse)
        for (int i = 0; i < l->body.items.len; i++)
            ssa_for_each_operand(l->body.items.items[i], 1, fn, user);
    for (int i = 0; i < l->nyields; i++) fn(&l->yields[i], user);
}
