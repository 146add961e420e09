/* Regeneration of IR values at coordinates (cuda_regen.h). */
#include "backends/cuda/cuda_regen.h"

#include "cgen/cgen.h"

int cuda_regen_value_axis(Type t, int axis) {
    return t.rank == 2 ? (t.dims[0] > 1 ? 0 : t.dims[1] > 1 ? 1 : axis) : axis;
}

int cuda_regen_arg_axis(const Function *f, const Inst *d, int axis) {
    switch (d->op) {
    case OP_EXPAND_DIMS: return d->type.rank == 2 ? (d->attrs.axis == 1 ? 0 : 1) : axis;
    case OP_BROADCAST: return operand_type(f, d->args[0]).rank == 1 ? 1 : axis;
    case OP_HINT: return axis;
    default: return -2;
    }
}

const char *cuda_regen_op(CudaB *cb, const Inst *d, const char *row, const char *col, int axis,
                          RegenRender render, void *emitter) {
    Arena *a = cb->a;
    switch (d->op) {
    case OP_ARANGE: {
        const char *c = axis == 0 ? row : col;
        return d->attrs.start ? arena_printf(a, "(%s + %d)", c, d->attrs.start) : c;
    }
    case OP_PROGRAM_ID: return cb_program_id(cb, d->attrs.axis, 1);
    case OP_NUM_PROGRAMS: return cb_num_programs(cb, d->attrs.axis, 1);
    case OP_ZEROS: return c_zero((DType)d->type.dtype);
    case OP_FULL: {
        DType dt = (DType)d->type.dtype;
        if (d->args[0].kind == OPD_CONST)
            return c_const(a, const_convert(d->args[0].c, dt), C_CUDA);
        const char *x = render(emitter, d->args[0], row, col, -1);
        return operand_type(cb->f, d->args[0]).dtype == dt
                   ? x
                   : arena_printf(a, "((%s)%s)", c_type(dt), x);
    }
    case OP_EXPAND_DIMS:
    case OP_BROADCAST:
        return render(emitter, d->args[0], row, col, cuda_regen_arg_axis(cb->f, d, axis));
    case OP_ADDPTR: {
        const char *base =
            d->args[0].kind == OPD_PARAM ? NULL : render(emitter, d->args[0], row, col, axis);
        const char *off = render(emitter, d->args[1], row, col, axis);
        return base ? arena_printf(a, "(%s + %s)", base, off) : off;
    }
    default: break;
    }
    const char *x[MT_MAX_OPERANDS] = {NULL, NULL, NULL};
    for (int k = 0; k < d->nargs; k++)
        x[k] = d->args[k].kind == OPD_CONST ? cb_const_operand(cb, d, k)
                                            : render(emitter, d->args[k], row, col, axis);
    if (op_class(d->op) == OC_ASM) return c_op_expr(cb->a, C_CUDA, cb->f, d, x);
    return cb_op_expr(cb, d, x[0], x[1], x[2]);
}

static int is_value(Operand o, int id) { return o.kind == OPD_VALUE && o.id == id; }

int cuda_regen_uses(const Block *b, int v) {
    int n = 0;
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        for (int k = 0; k < in->nargs; k++) n += is_value(in->args[k], v);
        if (in->loop) {
            const Loop *l = in->loop;
            for (int k = 0; k < l->ncarried; k++) n += is_value(l->inits[k], v);
            for (int k = 0; k < l->nyields; k++)
                n += is_value(l->yields[k], v) +
                     (in->op == OP_IF && l->else_yields ? is_value(l->else_yields[k], v) : 0);
            n += is_value(l->start, v) + is_value(l->stop, v) + is_value(l->step, v) +
                 (in->op != OP_FOR ? is_value(l->cond, v) : 0);
            Block *sub[2];
            int ns = ssa_blocks(in, sub);
            for (int k = 0; k < ns; k++) n += cuda_regen_uses(sub[k], v);
        }
    }
    return n;
}

const char *cuda_regen_scalar_load(Arena *a, const Inst *d, const char *base, RegenRender render,
                                   void *emitter) {
    DType dt = (DType)d->type.dtype;
    const char *elem = arena_printf(a, "%s[%s]", base, render(emitter, d->args[0], "0", "0", -1));
    const char *v = c_load(a, dt, C_CUDA, elem);
    if (d->args[1].kind == OPD_NONE) return v;
    const char *other =
        d->args[2].kind == OPD_NONE ? c_zero(dt) : render(emitter, d->args[2], "0", "0", -1);
    return arena_printf(a, "(%s ? %s : (%s)%s)", render(emitter, d->args[1], "0", "0", -1), v,
                        c_type(dt), other);
}
