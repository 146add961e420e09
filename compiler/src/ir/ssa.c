/* SSA construction helpers and the SSA text printer (DESIGN 6). */
#include "ir/ssa.h"

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

static const char *attrs_shape(Arena *a, const Attrs *at) {
    int32_t dims[MT_MAX_RANK] = {0};
    for (int i = 0; i < at->rank && i < MT_MAX_RANK; i++) dims[i] = at->shape[i];
    return shape_str(a, type_with_shape(type_scalar(DT_NONE), at->rank, dims));
}

static void int_list(StrBuf *sb, const int32_t *v, int n) {
    sb_putc(sb, '[');
    for (int i = 0; i < n; i++) sb_printf(sb, "%s%d", i ? ", " : "", (int)v[i]);
    sb_putc(sb, ']');
}

void attrs_print(StrBuf *sb, Op op, const Attrs *at) {
    static const char *const hints[3] = {"multiple_of", "max_contiguous", "max_constancy"};
    switch (op_info(op)->attrs) {
    case AT_NONE: return;
    case AT_AXIS: sb_printf(sb, " {axis=%d}", at->axis); return;
    case AT_RANGE: sb_printf(sb, " {start=%d, end=%d}", at->start, at->end); return;
    case AT_SHAPE:
        sb_printf(sb, " {shape=%s, dtype=%s}", attrs_shape(sb->arena, at), dtype_name(at->dtype));
        return;
    case AT_DTYPE:
        sb_printf(sb, " {dtype=%s%s}", dtype_name(at->dtype), at->flag ? ", rounding=rtz" : "");
        return;
    case AT_NAN:
        if (at->flag) sb_puts(sb, " {nan_ignored}");
        return;
    case AT_DIMS: sb_printf(sb, " {shape=%s}", attrs_shape(sb->arena, at)); return;
    case AT_PERM:
        if (at->rank < 3) return; /* rank 2: the swap */
        sb_puts(sb, " {perm=");
        int_list(sb, at->perm, at->rank);
        sb_putc(sb, '}');
        return;
    case AT_REMAP:
        sb_printf(sb, " {shape=%s, dims=", attrs_shape(sb->arena, at));
        int_list(sb, at->vdims, at->nv);
        sb_puts(sb, ", strides=");
        int_list(sb, at->vstride, at->nv);
        sb_printf(sb, ", offset=%d}", (int)at->voff);
        return;
    case AT_INDEX: sb_printf(sb, " {index=%d}", at->axis); return;
    case AT_HINT:
        sb_printf(sb, " {%s=%d}", hints[at->axis >= 0 && at->axis < 3 ? at->axis : 0], at->start);
        return;
    case AT_REDUCE:
        if (!(at->flag & RED_AXIS)) return; /* the rank-1 full reduction, as the seed */
        if (at->axis < 0) sb_puts(sb, " {axis=None");
        else sb_printf(sb, " {axis=%d", at->axis);
        if (at->flag & RED_KEEP_DIMS) sb_puts(sb, ", keep_dims");
        if (at->flag & RED_REVERSE) sb_puts(sb, ", reverse");
        if (op == OP_TAKE) sb_printf(sb, ", index=%d", at->start);
        sb_putc(sb, '}');
        return;
    case AT_PRINT:
        sb_puts(sb, " {prefix=");
        sb_quote(sb, at->text ? at->text : "");
        if (at->end > 1) sb_printf(sb, ", operand=%d/%d", at->start, at->end);
        if (at->rank > 2) sb_printf(sb, ", shape=%s", attrs_shape(sb->arena, at));
        sb_puts(sb, at->flag ? ", hex}" : "}");
        return;
    case AT_ASSERT:
        sb_puts(sb, " {msg=");
        sb_quote(sb, at->text ? at->text : "");
        sb_puts(sb, ", file=");
        sb_quote(sb, at->file ? at->file : "");
        sb_puts(sb, "}");
        return;
    case AT_ASM:
        sb_puts(sb, " {asm=");
        sb_quote(sb, at->text ? at->text : "");
        sb_puts(sb, ", constraints=");
        sb_quote(sb, at->constraints ? at->constraints : "");
        sb_printf(sb, ", pack=%d", at->pack);
        if (at->nresults > 1) {
            sb_puts(sb, ", results=(");
            for (int r = 0; r < at->nresults && r < 4; r++)
                sb_printf(sb, "%s%s", r ? ", " : "", dtype_name(at->results[r]));
            sb_printf(sb, "), result=%d", at->axis);
        }
        sb_putc(sb, '}');
        return;
    case AT_ATOMIC:
        sb_puts(sb, " {");
        if (op == OP_ATOMIC_RMW)
            sb_printf(sb, "%s, ",
                      at->rmw >= 0 && at->rmw < RMW_COUNT ? atomic_rmw_names[at->rmw] : "?");
        sb_printf(sb, "sem=%s, scope=%s}",
                  at->sem >= 0 && at->sem < SEM_COUNT ? atomic_sem_names[at->sem] : "?",
                  at->scope >= 0 && at->scope < SCOPE_COUNT ? atomic_scope_names[at->scope] : "?");
        return;
    case AT_DOT: {
        static const char *const prec[3] = {"tf32", "ieee", "tf32x3"};
        sb_printf(sb, " {input_precision=%s, max_num_imprecise_acc=%d",
                  prec[at->flag >= 0 && at->flag < 3 ? at->flag : 0], at->start);
        if (at->axis > 1) sb_printf(sb, ", batch=%d", at->axis);
        sb_putc(sb, '}');
        return;
    }
    }
}

/* An annotation after each instruction's text (ssa_print_noted). */
typedef struct Note {
    SsaNoteFn fn;
    void *user;
} Note;

static void note(StrBuf *sb, const Note *n, const Inst *in) {
    const char *s = n && n->fn ? n->fn(n->user, in) : NULL;
    if (s && *s) sb_puts(sb, s);
}

static void print_items(StrBuf *sb, Arena *a, const Function *f, const Block *b, int indent,
                        const Note *n);

static void print_yields(StrBuf *sb, Arena *a, const Function *f, const Operand *y, int n,
                         int indent) {
    sb_printf(sb, "%*syield", indent, "");
    for (int i = 0; i < n; i++) sb_printf(sb, "%s%s", i ? ", " : " ", operand_str(a, f, y[i]));
    sb_putc(sb, '\n');
}

static void print_loop(StrBuf *sb, Arena *a, const Function *f, const Inst *in, int indent,
                       const Note *n) {
    const Loop *l = in->loop;
    for (int i = 0; i < l->nresults; i++) sb_printf(sb, "%s%%%d", i ? ", " : "", l->results[i]);
    if (l->nresults) sb_puts(sb, " = ");
    if (in->op == OP_FOR)
        sb_printf(sb, "for %%%d in range(%s, %s, %s)", l->index, operand_str(a, f, l->start),
                  operand_str(a, f, l->stop), operand_str(a, f, l->step));
    else if (in->op == OP_WHILE) sb_puts(sb, "while");
    else sb_printf(sb, "if %s", operand_str(a, f, l->cond));
    if (l->num_stages || l->unroll || l->warp_specialize) {
        sb_puts(sb, " {");
        const char *sep = "";
        if (l->num_stages) sb_printf(sb, "num_stages=%d", l->num_stages), sep = ", ";
        if (l->unroll) sb_printf(sb, "%sloop_unroll_factor=%d", sep, l->unroll), sep = ", ";
        if (l->warp_specialize) sb_printf(sb, "%swarp_specialize=True", sep);
        sb_puts(sb, "}");
    }
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
    note(sb, n, in);
    sb_puts(sb, " {\n");
    if (in->op == OP_WHILE) {
        print_items(sb, a, f, &l->before, indent + 2, n);
        sb_printf(sb, "%*scondition %s\n%*s} do {\n", indent + 2, "", operand_str(a, f, l->cond),
                  indent, "");
    }
    print_items(sb, a, f, &l->body, indent + 2, n);
    print_yields(sb, a, f, l->yields, l->nyields, indent + 2);
    if (in->op == OP_IF) {
        sb_printf(sb, "%*s} else {\n", indent, "");
        print_items(sb, a, f, &l->orelse, indent + 2, n);
        print_yields(sb, a, f, l->else_yields, l->nyields, indent + 2);
    }
    sb_printf(sb, "%*s}\n", indent, "");
}

static void print_inst(StrBuf *sb, Arena *a, const Function *f, const Inst *in, int indent,
                       const Note *n) {
    sb_printf(sb, "%*s", indent, "");
    if (op_has(in->op, OPF_REGION)) {
        print_loop(sb, a, f, in, indent, n);
        return;
    }
    if (in->result >= 0) sb_printf(sb, "%%%d = ", in->result);
    sb_puts(sb, op_info(in->op)->name);
    for (int i = 0; i < in->nargs; i++)
        sb_printf(sb, "%s%s", i ? ", " : " ", operand_str(a, f, in->args[i]));
    attrs_print(sb, in->op, &in->attrs);
    if (in->result >= 0) sb_printf(sb, " : %s", type_str(a, in->type));
    note(sb, n, in);
    sb_putc(sb, '\n');
}

static void print_items(StrBuf *sb, Arena *a, const Function *f, const Block *b, int indent,
                        const Note *n) {
    for (int i = 0; i < b->items.len; i++) print_inst(sb, a, f, b->items.items[i], indent, n);
}

void ssa_print(StrBuf *sb, Arena *a, const Function *f) {
    print_items(sb, a, f, &f->body, 0, NULL);
}

void ssa_print_noted(StrBuf *sb, Arena *a, const Function *f, SsaNoteFn fn, void *user) {
    Note n = {fn, user};
    print_items(sb, a, f, &f->body, 0, &n);
}

int ssa_blocks(const Inst *in, Block *out[2]) {
    if (!op_has(in->op, OPF_REGION)) return 0;
    Loop *l = in->loop;
    if (in->op == OP_WHILE) {
        out[0] = &l->before;
        out[1] = &l->body;
        return 2;
    }
    out[0] = &l->body;
    if (in->op == OP_IF) {
        out[1] = &l->orelse;
        return 2;
    }
    return 1;
}

int ssa_block_writes(const Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        if (op_has(in->op, OPF_WRITES)) return 1;
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++)
            if (ssa_block_writes(sub[k])) return 1;
    }
    return 0;
}

int ssa_block_holds(const Block *b, const Inst *x) {
    for (int i = 0; i < b->items.len; i++)
        if (b->items.items[i] == x) return 1;
    return 0;
}

static void for_each_in_block(Block *b, OperandFn fn, void *user) {
    for (int i = 0; i < b->items.len; i++) ssa_for_each_operand(b->items.items[i], 1, fn, user);
}

void ssa_for_each_operand(Inst *inst, int recurse, OperandFn fn, void *user) {
    if (!op_has(inst->op, OPF_REGION)) {
        for (int i = 0; i < inst->nargs; i++) fn(&inst->args[i], user);
        return;
    }
    Loop *l = inst->loop;
    if (inst->op == OP_FOR) {
        fn(&l->start, user);
        fn(&l->stop, user);
        fn(&l->step, user);
    }
    if (inst->op == OP_IF) fn(&l->cond, user);
    for (int i = 0; i < l->ncarried; i++) fn(&l->inits[i], user);
    if (inst->op == OP_WHILE && recurse) for_each_in_block(&l->before, fn, user);
    if (inst->op == OP_WHILE) fn(&l->cond, user);
    if (recurse) for_each_in_block(&l->body, fn, user);
    for (int i = 0; i < l->nyields; i++) fn(&l->yields[i], user);
    if (inst->op == OP_IF && recurse) for_each_in_block(&l->orelse, fn, user);
    if (inst->op == OP_IF)
        for (int i = 0; i < l->nyields; i++) fn(&l->else_yields[i], user);
}
