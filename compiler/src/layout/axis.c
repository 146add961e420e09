/* Contiguity and divisibility along the vector axis (axis.h). Moved out
 * of the -O2 CUDA emitter: the layout stage analyses, the emitter asks. */
#include "layout/axis.h"

static AxisInfo axis_value(const AxisQuery *C, int v, Layout use);

static int pow2_of(long long c) {
    if (c == 0) return 16;
    int d = 1;
    while (d < 16 && c % (d * 2) == 0) d *= 2;
    return d;
}

static int min_int(int a, int b) { return a < b ? a : b; }

/* A hint (attrs.axis: 0 multiple_of, 1 max_contiguous, 2 max_constancy;
 * attrs.start: its value) on what the operand is known to be. */
static AxisInfo axis_hint(const AxisQuery *C, const Inst *hint, AxisInfo r) {
    int k = hint->attrs.start;
    switch (hint->attrs.axis) {
    case 0: {
        int d = pow2_of(k);
        if (d > r.div) r.div = d;
        break;
    }
    case 1:
        if (k >= C->group && r.stride != 0) r.stride = 1;
        break;
    case 2:
        if (k >= C->group) r.stride = 0;
        break;
    }
    return r;
}

/* The loop index of a `for` (a lane of a region: nothing known). */
static AxisInfo axis_region(const Inst *def, int v, AxisInfo r) {
    if (def->op != OP_FOR || v != def->loop->index) return r;
    const Loop *lp = def->loop;
    r.stride = 0;
    int d = 16;
    if (lp->start.kind == OPD_CONST) d = min_int(d, pow2_of(lp->start.c.i));
    else d = 1;
    if (lp->step.kind == OPD_CONST) d = min_int(d, pow2_of(lp->step.c.i));
    else d = 1;
    r.div = d;
    return r;
}

static AxisInfo axis_mul(const AxisQuery *C, const Inst *def, Layout l, AxisInfo r) {
    AxisInfo a = axis_info(C, def->args[0], l), b = axis_info(C, def->args[1], l);
    const Operand *k = def->args[1].kind == OPD_CONST   ? &def->args[1]
                       : def->args[0].kind == OPD_CONST ? &def->args[0]
                                                        : NULL;
    AxisInfo x = def->args[1].kind == OPD_CONST ? a : b;
    if (k) {
        long long c = k->c.i;
        r.stride = x.stride == 0 ? 0 : (x.stride == 1 && c == 1) ? 1 : -1;
        long long d = (long long)x.div * pow2_of(c);
        r.div = d > 16 ? 16 : (int)d;
        if (c == 0) r.stride = 0, r.div = 16;
        return r;
    }
    if (a.stride == 0 && b.stride == 0) {
        long long d = (long long)a.div * b.div;
        r.stride = 0;
        r.div = d > 16 ? 16 : (int)d;
        return r;
    }
    r.stride = -1;
    r.div = 1;
    return r;
}

/* add, sub, addptr: the strides add, the divisors' minimum. */
static AxisInfo axis_add(const AxisQuery *C, const Inst *def, Layout l, AxisInfo r) {
    AxisInfo a = axis_info(C, def->args[0], l), b = axis_info(C, def->args[1], l);
    int s = (a.stride < 0 || b.stride < 0) ? -1
            : def->op == OP_SUB            ? a.stride - b.stride
                                           : a.stride + b.stride;
    r.stride = (s == 0 || s == 1) ? s : -1;
    r.div = min_int(a.div, b.div);
    return r;
}

/* An integer widened (or kept) has the same values. */
static AxisInfo axis_convert(const AxisQuery *C, const Inst *def, Layout l, AxisInfo r) {
    if (def->op != OP_CAST) return r;
    DType from = (DType)operand_type(C->f, def->args[0]).dtype, to = (DType)def->type.dtype;
    if (dtype_is_int(from) && from != DT_BOOL && dtype_is_int(to) &&
        dtype_info(to)->bits >= dtype_info(from)->bits &&
        dtype_is_signed(to) == dtype_is_signed(from))
        return axis_info(C, def->args[0], l);
    return r;
}

/* An op computed from its (first two) operands: constant along the group
 * where both are. Besides, c < u and c >= u, c contiguous and u constant
 * along the group, both multiples of the group at its start, are constant
 * along it (a mask such as cols < N: one predicate per 16-byte access);
 * the mirrored test (c constant, u contiguous) is taken for every op of
 * this rule but lt/ge, as the emitter has always taken it (issue 45's axis
 * analysis states each op's rule). `bitwise`: the first fact only. */
static AxisInfo axis_operands(const AxisQuery *C, const Inst *def, Layout l, AxisInfo r,
                              int bitwise) {
    AxisInfo a = axis_info(C, def->args[0], l), b = axis_info(C, def->args[1], l);
    int g = C->rows ? C->rows : C->v ? C->v : C->group;
    if (a.stride == 0 && b.stride == 0) r.stride = 0;
    else if (!bitwise && a.div >= g && b.div >= g) {
        int lt = def->op == OP_CMP_LT || def->op == OP_CMP_GE; /* c OP u with c = a */
        if ((a.stride == 1 && b.stride == 0 && lt) || (a.stride == 0 && b.stride == 1 && !lt))
            r.stride = 0;
    }
    r.div = 1;
    return r;
}

static AxisInfo axis_value(const AxisQuery *C, int v, Layout use) {
    while (C->alias[v] >= 0) {
        const Inst *hop = C->f->defs[v];
        if (hop && hop->op == OP_EXPAND_DIMS && hop->type.rank == 2)
            use = hop->attrs.axis == 1 ? LAYOUT_ROWS : LAYOUT_COLS;
        v = C->alias[v];
    }
    const Inst *def = C->f->defs[v];
    AxisInfo r = {-1, 1};
    Layout l = C->tile->layout[v];
    /* only columns/tile/flat layouts vary along the vector axis (rows and
     * tile ones along rows, when C->rows asks about groups of that
     * many rows) */
    int varies = C->rows ? l == LAYOUT_ROWS || l == LAYOUT_TILE
                         : l == LAYOUT_COLS || l == LAYOUT_TILE || l == LAYOUT_FLAT;
    if (def && def->op == OP_ARANGE) {
        Layout ul = use;
        if (C->rows) {
            r.stride = ul == LAYOUT_ROWS ? 1 : 0;
            r.div = ul == LAYOUT_ROWS ? min_int(C->rows, pow2_of(def->attrs.start)) : 1;
        } else if (ul == LAYOUT_COLS || ul == LAYOUT_FLAT) {
            int per = ul == LAYOUT_COLS ? C->tile->tn : C->tile->tm * C->tile->tn;
            r.stride = 1;
            r.div = min_int(min_int(pow2_of(per), C->group), pow2_of(def->attrs.start));
        } else {
            r.stride = 0;
            r.div = 1;
        }
        return r;
    }
    if (!varies) r.stride = 0;
    if (!def) return r;
    switch (op_class(def->op)) {
    case OC_REGION: return axis_region(def, v, r);
    case OC_POINTER:
        if (def->op == OP_ADDPTR) return axis_add(C, def, l, r);
        if (def->op == OP_INT_TO_PTR) { /* a base of its own (a scalar): index 0 */
            r.stride = 0;
            r.div = 16;
        }
        return r;
    case OC_BINARY:
        if (def->op == OP_MUL) return axis_mul(C, def, l, r);
        if (def->op == OP_ADD || def->op == OP_SUB) return axis_add(C, def, l, r);
        if (def->op == OP_UMULHI) return r;
        return axis_operands(C, def, l, r, 0);
    case OC_SHAPE:
        if (def->op == OP_EXPAND_DIMS) return axis_info(C, def->args[0], use);
        return r;
    case OC_HINT: return axis_hint(C, def, axis_info(C, def->args[0], l));
    case OC_CONVERT: return axis_convert(C, def, l, r);
    case OC_COMPARE:
        if (def->op == OP_CMP_EQ || def->op == OP_CMP_NE) return r;
        return axis_operands(C, def, l, r, 0);
    case OC_BITWISE:
        if (def->op == OP_SHL || def->op == OP_SHR) return r;
        return axis_operands(C, def, l, r, 1);
    case OC_ASM:
    case OC_INDEX:
    case OC_CREATE:
    case OC_UNARY:
    case OC_MATH: return axis_operands(C, def, l, r, 0);
    case OC_SELECT:
    case OC_MEMORY:
    case OC_REDUCE:
    case OC_SCAN:
    case OC_DEBUG:
    case OC_ATOMIC:
    case OC_DOT: break;
    }
    return r;
}

AxisInfo axis_info(const AxisQuery *C, Operand o, Layout use) {
    AxisInfo r = {0, 1};
    switch (o.kind) {
    case OPD_CONST:
        r.div = dtype_is_int(o.c.dt) && o.c.dt != DT_BOOL ? pow2_of(o.c.i) : 1;
        return r;
    case OPD_PARAM: {
        Type t = C->f->params[o.id].type;
        r.div =
            t.ptr ? 16 : (C->param_div && C->param_div[o.id] ? min_int(16, C->param_div[o.id]) : 1);
        return r;
    }
    case OPD_NONE: return r;
    case OPD_VALUE: return axis_value(C, o.id, use);
    }
    return r;
}
