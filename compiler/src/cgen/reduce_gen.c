/* The generic axis path of reductions and scans (reduce_gen.h). */
#include "cgen/reduce_gen.h"

const char *red_step_default(void *user, Op op, DType dt, const char *acc, const char *x) {
    Arena *a = user;
    int fl = dtype_is_float(dt), dbl = dtype_info(dt)->compute == DT_F64;
    int narrow = dtype_info(dt)->compute != dt;
    switch (op) {
    case OP_SUM:
    case OP_CUMSUM:
    case OP_CUMPROD: {
        const char *e = arena_printf(a, "%s %s %s", acc, op == OP_CUMPROD ? "*" : "+", x);
        return fl && narrow ? c_round(a, dt, C_CUDA, e) : e;
    }
    case OP_XOR_SUM: /* integers only: ops.def's c_op */
        return arena_printf(a, "%s %s %s", acc, op_info(op)->c_op, x);
    case OP_MAX:
        if (fl) return arena_printf(a, "%s(%s, %s)", dbl ? "fmax" : "fmaxf", acc, x);
        return arena_printf(a, "(%s > %s ? %s : %s)", acc, x, acc, x);
    case OP_MIN:
        if (fl) return arena_printf(a, "%s(%s, %s)", dbl ? "fmin" : "fminf", acc, x);
        return arena_printf(a, "(%s < %s ? %s : %s)", acc, x, acc, x);
    default:
    case OP_COUNT: break;
    }
    MT_ASSERT(!"not a combining reduction");
    return acc;
}

typedef struct Lines {
    Arena *a;
    const char **v;
    int n, cap;
} Lines;

static void add(Lines *L, int indent, const char *s) {
    if (L->n + 2 > L->cap) {
        int cap = L->cap ? L->cap * 2 : 16;
        const char **v = ARENA_ARRAY(L->a, const char *, cap);
        for (int i = 0; i < L->n; i++) v[i] = L->v[i];
        L->v = v;
        L->cap = cap;
    }
    L->v[L->n++] = arena_printf(L->a, "%*s%s", indent * 4, "", s);
    L->v[L->n] = NULL;
}

const char **red_lines(const RedGen *g, const char *out, const char *dst) {
    Arena *a = g->a;
    const Inst *in = g->in;
    Type xt = operand_type(g->f, in->args[0]);
    DType xdt = (DType)xt.dtype;
    const char *T = c_type_in(xdt, g->d);
    RedStepFn step = g->step ? g->step : red_step_default;
    void *user = g->step ? g->user : (void *)a;
    int d0 = xt.rank == 2 ? xt.dims[0] : 1, d1 = xt.rank == 2   ? xt.dims[1]
                                                 : xt.rank == 1 ? xt.dims[0]
                                                                : 1;
    int axis = (in->attrs.flag & RED_AXIS) ? in->attrs.axis : -1;
    if (xt.rank == 1 && axis == 0) axis = 1; /* a rank-1 block is one row */
    int scan = op_has(in->op, OPF_SCAN);
    const char *base, *k = NULL;
    int stride, count;
    if (!scan && axis < 0) {
        base = "0", stride = 1, count = d0 * d1;
    } else if (axis == 1) {
        stride = 1, count = d1;
        if (scan) {
            base = d0 == 1 ? "0" : arena_printf(a, "(%s) / %d * %d", out, d1, d1);
            k = d0 == 1 ? out : arena_printf(a, "(%s) %% %d", out, d1);
        } else {
            base = d1 == 1 ? out : arena_printf(a, "(%s) * %d", out, d1);
        }
    } else {
        stride = d1, count = d0;
        if (scan) {
            base = d1 == 1 ? "0" : arena_printf(a, "(%s) %% %d", out, d1);
            k = d1 == 1 ? out : arena_printf(a, "(%s) / %d", out, d1);
        } else {
            base = out;
        }
    }
    const char *at_t =
        stride == 1 ? "red_base + red_t" : arena_printf(a, "red_base + red_t * %d", stride);
    const char *x_t = arena_printf(a, g->elem_fmt, at_t);
    const char *x_0 = arena_printf(a, g->elem_fmt, "red_base");
    Lines L = {a, NULL, 0, 0};
    add(&L, 0, "{");
    int argx = in->op == OP_ARGMAX || in->op == OP_ARGMIN;
    if (argx && count == 1) {
        add(&L, 1, arena_printf(a, "%s = 0;", dst));
        add(&L, 0, "}");
        return L.v;
    }
    if (in->op == OP_TAKE) {
        add(&L, 1, arena_printf(a, "int red_base = %s;", base));
        add(&L, 1,
            arena_printf(a, "%s = %s;", dst,
                         arena_printf(a, g->elem_fmt,
                                      arena_printf(a, "red_base + %d", in->attrs.start * stride))));
        add(&L, 0, "}");
        return L.v;
    }
    add(&L, 1, arena_printf(a, "int red_base = %s;", base));
    if (argx) {
        add(&L, 1, arena_printf(a, "%s red_acc = %s;", T, x_0));
        add(&L, 1, "int red_idx = 0;");
        add(&L, 1, arena_printf(a, "for (int red_t = 1; red_t < %d; red_t++) {", count));
        add(&L, 2, arena_printf(a, "%s red_x = %s;", T, x_t));
        /* Triton's combine (standard.py, tie_break_left) folded left to
         * right: the accumulated element stays while it is >= (<=) the next */
        add(&L, 2,
            arena_printf(a, "if (!(red_acc %s red_x)) {", in->op == OP_ARGMAX ? ">=" : "<="));
        add(&L, 3, "red_acc = red_x;");
        add(&L, 3, "red_idx = red_t;");
        add(&L, 2, "}");
        add(&L, 1, "}");
        add(&L, 1, arena_printf(a, "%s = red_idx;", dst));
    } else if (!scan) {
        add(&L, 1, arena_printf(a, "%s red_acc = %s;", T, x_0));
        if (count > 1)
            add(&L, 1,
                arena_printf(a, "for (int red_t = 1; red_t < %d; red_t++) red_acc = %s;", count,
                             step(user, in->op, xdt, "red_acc", x_t)));
        add(&L, 1, arena_printf(a, "%s = red_acc;", dst));
    } else if (!(in->attrs.flag & RED_REVERSE)) {
        add(&L, 1, arena_printf(a, "int red_k = %s;", k));
        add(&L, 1, arena_printf(a, "%s red_acc = %s;", T, x_0));
        add(&L, 1,
            arena_printf(a, "for (int red_t = 1; red_t <= red_k; red_t++) red_acc = %s;",
                         step(user, in->op, xdt, "red_acc", x_t)));
        add(&L, 1, arena_printf(a, "%s = red_acc;", dst));
    } else {
        add(&L, 1, arena_printf(a, "int red_k = %s;", k));
        add(&L, 1,
            arena_printf(a, "%s red_acc = %s;", T,
                         arena_printf(a, g->elem_fmt,
                                      stride == 1 ? arena_printf(a, "red_base + %d", count - 1)
                                                  : arena_printf(a, "red_base + %d",
                                                                 (count - 1) * stride))));
        add(&L, 1,
            arena_printf(a, "for (int red_t = %d; red_t >= red_k; red_t--) red_acc = %s;",
                         count - 2, step(user, in->op, xdt, "red_acc", x_t)));
        add(&L, 1, arena_printf(a, "%s = red_acc;", dst));
    }
    add(&L, 0, "}");
    return L.v;
}
