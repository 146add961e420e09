/* The host (CPU) backend (DESIGN 13): verified SSA into portable C11 that
 * runs every program of the grid on the CPU, through the runtime's host
 * executor (mytriton_host_run).
 *
 * One C function per program. A scalar SSA value is a C local `vN`; a
 * block value is an array over its own shape (R*C elements, row-major;
 * rank 1: its width), held in one heap arena per program, and each op is a
 * loop over the elements of its result, reading each operand by
 * broadcasting (a (R, 1) operand by row, a (1, C) or (C,) operand by
 * column, a one-element block or a scalar everywhere). The results are
 * those of the SSA per element, which the CUDA backend computes per thread:
 *   - a masked load is `(mask ? p[i] : other)`: a masked-off element never
 *     touches memory; a masked store is an `if`;
 *   - i32 arithmetic wraps (through uint32_t, no undefined behaviour); f32
 *     to i32 conversions truncate and saturate, NaN giving 0 (CUDA's
 *     cvt.rzi); `div` is f32 division;
 *   - tl.maximum / tl.minimum propagate NaN and pick operand 1 on ties;
 *   - a reduction copies its operand to a scratch array and reduces it in
 *     the CUDA backend's shared-memory tree order (stride n/2 down to 1,
 *     a[i] op= a[i + stride]), so f32 sums agree bit for bit; tl.max and
 *     tl.min use fmaxf / fminf (NaN ignored unless all NaN);
 *   - a runtime loop is a C loop over a 64-bit counter (no overflow near
 *     INT32_MAX) whose carried values live in the result's variable,
 *     assigned at the end of each iteration (with temporaries where a yield
 *     reads a region argument that an earlier assignment overwrites, as the
 *     CUDA backend does);
 *   - pointers are i32 element indexes from one base parameter, as in the
 *     CUDA backend.
 * A value that only renames another (expand_dims, a parameter plus offsets)
 * shares its variable.
 * The launcher checks the grid as the CUDA launcher does (the same
 * prologue), packs the arguments in a struct and runs the programs; a
 * program that cannot allocate its arena makes the launch return
 * MYTRITON_OUT_OF_MEMORY. */
#include "emit.h"

#include <string.h>

#include "cgen.h"

#define VERSION_LINE "mytritonc " MT_VERSION

/* Helper functions of the generated file, emitted only when used. */
enum {
    H_I32 = 1 << 0,  /* mt_i32: uint32_t to int32_t, modulo 2^32 */
    H_IADD = 1 << 1,
    H_ISUB = 1 << 2,
    H_IMUL = 1 << 3,
    H_INEG = 1 << 4,
    H_F2I = 1 << 5,  /* f32 to i32 as CUDA converts */
    H_FMAX = 1 << 6, /* tl.maximum of f32 */
    H_FMIN = 1 << 7,
    H_IMAX = 1 << 8, /* tl.maximum of i32, and tl.max's tree */
    H_IMIN = 1 << 9
};

/* The elements an op loops over. */
typedef struct Iter {
    Type shape;   /* the op's result (or, for a store, broadcast) shape */
    int numel;
    int flat;     /* one loop over mt_e: every block operand has numel or 1 element */
} Iter;

typedef struct Host {
    MtContext *ctx;
    Arena *a;
    const Spec *s;
    const Function *f;
    const char **pnames;
    int *param_used;
    int *uses;            /* by value number */
    const char **vname;   /* by value number: its C variable (region arguments: the loop result's) */
    int *base;            /* pointer values: the parameter they index, -1 if unknown */
    int pid_used[3];
    unsigned helpers;
    StrBuf blocks;        /* members of the arena struct */
    int nblocks;
    StrBuf *out;
    int indent;
    int failed;
} Host;

static void line(Host *H, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(Host *H, const char *fmt, ...) {
    sb_printf(H->out, "%*s", H->indent * 4, "");
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(H->out, fmt, ap);
    va_end(ap);
    sb_putc(H->out, '\n');
}

static const char *host_type(DType dt) { return dt == DT_F32 ? "float" : dt == DT_BOOL ? "bool" : "int32_t"; }

static int64_t numel(Type t) { return type_numel(t); }

/* ---- Operands ------------------------------------------------------------ */

/* The element of a block value that iteration `it` reads. */
static const char *element_of(Host *H, const char *name, Type t, const Iter *it) {
    if (t.rank == 0) return name;
    if (numel(t) == 1) return arena_printf(H->a, "%s[0]", name);
    if (it->flat) return arena_printf(H->a, "%s[mt_e]", name);
    /* a rank-2 iteration with broadcasting */
    MT_ASSERT(it->shape.rank == 2);
    if (t.rank == 1) return arena_printf(H->a, "%s[mt_j]", name);
    int r = t.dims[0] > 1, c = t.dims[1] > 1;
    if (r && c) return arena_printf(H->a, "%s[mt_i * %d + mt_j]", name, (int)t.dims[1]);
    return arena_printf(H->a, "%s[%s]", name, r ? "mt_i" : "mt_j");
}

/* An operand's element under iteration `it` (NULL: a scalar context). */
static const char *opd(Host *H, Operand o, const Iter *it) {
    static const Iter scalar = {{0}, 1, 1};
    if (!it) it = &scalar;
    switch (o.kind) {
    case OPD_VALUE: return element_of(H, H->vname[o.id] ? H->vname[o.id] : arena_printf(H->a, "v%d", o.id), H->f->types[o.id], it);
    case OPD_PARAM: H->param_used[o.id] = 1; return H->pnames[o.id];
    case OPD_CONST: return c_const(H->a, o.c, C_HOST);
    case OPD_NONE: break;
    }
    return "0";
}

/* f32 to i32 as CUDA's cvt.rzi.s32.f32. */
static const char *f2i(Host *H, const char *x) {
    H->helpers |= H_F2I;
    return arena_printf(H->a, "mt_f2i(%s)", x);
}

/* An operand converted to `dt` (numeric to numeric). */
static const char *opd_as(Host *H, Operand o, DType dt, const Iter *it) {
    if (o.kind == OPD_CONST) return c_const(H->a, const_convert(o.c, dt), C_HOST);
    DType from = (DType)operand_type(H->f, o).dtype;
    const char *x = opd(H, o, it);
    if (from == dt) return x;
    if (dt == DT_F32) return arena_printf(H->a, "(float)%s", x);
    if (dt == DT_I32 && from == DT_F32) return f2i(H, x);
    return x;
}

/* A pointer operand: its base parameter and the element it points at. */
static const char *element_at(Host *H, Operand p, const Iter *it) {
    if (p.kind == OPD_PARAM) {
        H->param_used[p.id] = 1;
        return arena_printf(H->a, "%s[0]", H->pnames[p.id]);
    }
    MT_ASSERT(p.kind == OPD_VALUE && H->base[p.id] >= 0);
    H->param_used[H->base[p.id]] = 1;
    return arena_printf(H->a, "%s[%s]", H->pnames[H->base[p.id]], opd(H, p, it));
}

/* A pointer operand's index, as i32 (a parameter: 0). */
static const char *ptr_index(Host *H, Operand p, const Iter *it) {
    if (p.kind == OPD_PARAM) {
        H->param_used[p.id] = 1;
        return "0";
    }
    return opd(H, p, it);
}

static int ptr_base_of(const Host *H, Operand p) {
    if (p.kind == OPD_PARAM) return p.id;
    if (p.kind == OPD_VALUE) return H->base[p.id];
    return -1;
}

static const char *helper2(Host *H, unsigned h, const char *fn, const char *x, const char *y) {
    H->helpers |= h;
    return arena_printf(H->a, "%s(%s, %s)", fn, x, y);
}

/* ---- Iteration ------------------------------------------------------------- */

static Iter iter_for(Host *H, const Inst *in, Type shape) {
    Iter it;
    it.shape = shape;
    it.numel = (int)numel(shape);
    it.flat = 1;
    for (int k = 0; k < in->nargs; k++) {
        if (in->args[k].kind != OPD_VALUE) continue;
        int64_t n = numel(H->f->types[in->args[k].id]);
        if (H->f->types[in->args[k].id].rank > 0 && n != 1 && n != it.numel) it.flat = 0;
    }
    return it;
}

/* Opens the element loop(s) of `it`; returns the number of levels. */
static int open_iter(Host *H, const Iter *it) {
    if (it->numel == 1) return 0;
    if (it->flat) {
        line(H, "for (int mt_e = 0; mt_e < %d; mt_e++)", it->numel);
        H->indent++;
        return 1;
    }
    line(H, "for (int mt_i = 0; mt_i < %d; mt_i++)", (int)it->shape.dims[0]);
    H->indent++;
    line(H, "for (int mt_j = 0; mt_j < %d; mt_j++)", (int)it->shape.dims[1]);
    H->indent++;
    return 2;
}

/* A block value's storage: a member of the arena struct and a local
 * pointer to it. */
static void declare_block(Host *H, const char *name, Type t) {
    sb_printf(&H->blocks, "    %s %s[%lld];\n", host_type((DType)t.dtype), name, (long long)numel(t));
    H->nblocks++;
    line(H, "%s *%s = mt_b->%s;", host_type((DType)t.dtype), name, name);
}

/* Declares the value `id` (scalar: `T vN = expr;`, block: a loop). */
static void define(Host *H, const Inst *in, const Iter *it, const char *expr) {
    int id = in->result;
    Type t = in->type;
    DType dt = t.ptr ? DT_I32 : (DType)t.dtype;
    const char *name = H->vname[id];
    if (t.rank == 0) {
        line(H, "%s %s = %s;", host_type(dt), name, expr);
        if (!H->uses[id]) line(H, "(void)%s;", name);
        return;
    }
    Type st = t;
    st.ptr = 0;
    st.dtype = (uint8_t)dt;
    declare_block(H, name, st);
    int levels = open_iter(H, it);
    line(H, "%s = %s;", element_of(H, name, t, it), expr);
    H->indent -= levels;
}

/* ---- Ops --------------------------------------------------------------- */

static const char *arith(Host *H, const Inst *in, const Iter *it) {
    const Operand *x = in->args;
    DType rt = (DType)in->type.dtype;
    if (in->op == OP_DIV)
        return arena_printf(H->a, "(%s / %s)", opd_as(H, x[0], DT_F32, it), opd_as(H, x[1], DT_F32, it));
    const char *a = opd_as(H, x[0], rt, it), *b = opd_as(H, x[1], rt, it);
    if (rt == DT_F32) {
        switch (in->op) {
        case OP_MAXIMUM: return helper2(H, H_FMAX, "mt_fmax", a, b);
        case OP_MINIMUM: return helper2(H, H_FMIN, "mt_fmin", a, b);
        default: return arena_printf(H->a, "(%s %s %s)", a, op_info(in->op)->c_op, b);
        }
    }
    switch (in->op) {
    case OP_ADD: return helper2(H, H_IADD | H_I32, "mt_iadd", a, b);
    case OP_SUB: return helper2(H, H_ISUB | H_I32, "mt_isub", a, b);
    case OP_MUL: return helper2(H, H_IMUL | H_I32, "mt_imul", a, b);
    case OP_MAXIMUM: return helper2(H, H_IMAX, "mt_imax", a, b);
    case OP_MINIMUM: return helper2(H, H_IMIN, "mt_imin", a, b);
    default: break;
    }
    MT_ASSERT(!"not an arithmetic op");
    return "0";
}

static const char *compare(Host *H, const Inst *in, const Iter *it) {
    const Operand *x = in->args;
    Type ta = operand_type(H->f, x[0]), tb = operand_type(H->f, x[1]);
    const char *a, *b;
    if (ta.dtype == DT_F32 || tb.dtype == DT_F32) {
        a = opd_as(H, x[0], DT_F32, it);
        b = opd_as(H, x[1], DT_F32, it);
    } else {
        a = opd(H, x[0], it);
        b = opd(H, x[1], it);
    }
    return arena_printf(H->a, "(%s %s %s)", a, op_info(in->op)->c_op, b);
}

static void emit_reduce(Host *H, const Inst *in) {
    int id = in->result;
    DType dt = (DType)in->type.dtype;
    const char *T = host_type(dt);
    Type xt = operand_type(H->f, in->args[0]);
    int n = (int)numel(xt);
    const char *buf = arena_printf(H->a, "reduce_%d", id);
    Type bt = type_with_shape(type_scalar(dt), 1, xt.dims);
    declare_block(H, buf, bt);
    Iter it = {bt, n, 1};
    int levels = open_iter(H, &it);
    line(H, "%s = %s;", element_of(H, buf, bt, &it), opd(H, in->args[0], &it));
    H->indent -= levels;
    line(H, "for (int stride_%d = %d; stride_%d > 0; stride_%d >>= 1)", id, n / 2, id, id);
    H->indent++;
    line(H, "for (int mt_e = 0; mt_e < stride_%d; mt_e++)", id);
    H->indent++;
    const char *lhs = arena_printf(H->a, "%s[mt_e]", buf);
    const char *rhs = arena_printf(H->a, "%s[mt_e + stride_%d]", buf, id);
    const char *v;
    if (in->op == OP_SUM) v = dt == DT_F32 ? arena_printf(H->a, "%s + %s", lhs, rhs) : helper2(H, H_IADD | H_I32, "mt_iadd", lhs, rhs);
    else if (in->op == OP_MAX) v = dt == DT_F32 ? arena_printf(H->a, "fmaxf(%s, %s)", lhs, rhs) : helper2(H, H_IMAX, "mt_imax", lhs, rhs);
    else v = dt == DT_F32 ? arena_printf(H->a, "fminf(%s, %s)", lhs, rhs) : helper2(H, H_IMIN, "mt_imin", lhs, rhs);
    line(H, "%s = %s;", lhs, v);
    H->indent -= 2;
    line(H, "%s v%d = %s[0];", T, id, buf);
    if (!H->uses[id]) line(H, "(void)v%d;", id);
}

static void emit_store(Host *H, const Inst *in) {
    const Operand *x = in->args;
    if (x[2].kind == OPD_CONST && !x[2].c.i) return; /* never stores */
    Type shape = type_scalar(DT_NONE);
    for (int k = 0; k < 3; k++) {
        Type s2;
        if (x[k].kind != OPD_NONE && shape_broadcast(shape, operand_type(H->f, x[k]), &s2)) shape = s2;
    }
    Iter it = iter_for(H, in, shape);
    DType pointee = (DType)operand_type(H->f, x[0]).dtype;
    int levels = shape.rank ? open_iter(H, &it) : 0;
    const char *dst = element_at(H, x[0], shape.rank ? &it : NULL);
    const char *val = opd_as(H, x[1], pointee, shape.rank ? &it : NULL);
    if (x[2].kind == OPD_NONE || x[2].kind == OPD_CONST) line(H, "%s = %s;", dst, val);
    else line(H, "if (%s) %s = %s;", opd(H, x[2], shape.rank ? &it : NULL), dst, val);
    H->indent -= levels;
}

static void emit_block(Host *H, const Block *b);

static void emit_loop(Host *H, const Inst *in) {
    const Loop *l = in->loop;
    const Function *f = H->f;
    /* carried values: the result's variable, initialized before the loop */
    for (int k = 0; k < l->ncarried; k++) {
        int r = l->results[k];
        Type t = f->types[r];
        const char *name = arena_printf(H->a, "v%d", r);
        H->vname[r] = H->vname[l->args[k]] = name;
        if (t.ptr) {
            int b = ptr_base_of(H, l->inits[k]);
            H->base[r] = H->base[l->args[k]] = b;
        }
        DType dt = t.ptr ? DT_I32 : (DType)t.dtype;
        if (t.rank == 0) {
            const char *init = t.ptr ? ptr_index(H, l->inits[k], NULL) : opd_as(H, l->inits[k], dt, NULL);
            line(H, "%s %s = %s;", host_type(dt), name, init);
        } else {
            Type st = type_with_shape(type_scalar(dt), t.rank, t.dims);
            declare_block(H, name, st);
            Iter it = {st, (int)numel(st), 1};
            Operand o = l->inits[k];
            if (o.kind == OPD_VALUE && f->types[o.id].rank > 0 && numel(f->types[o.id]) != it.numel) it.flat = 0;
            int levels = open_iter(H, &it);
            line(H, "%s = %s;", element_of(H, name, st, &it), t.ptr ? ptr_index(H, o, &it) : opd_as(H, o, dt, &it));
            H->indent -= levels;
        }
    }
    const char *k64 = arena_printf(H->a, "v%d_k", l->index);
    line(H, "for (int64_t %s = %s; %s < %s; %s += %s) {", k64, opd(H, l->start, NULL), k64, opd(H, l->stop, NULL), k64,
         opd(H, l->step, NULL));
    H->indent++;
    H->vname[l->index] = arena_printf(H->a, "v%d", l->index);
    if (H->uses[l->index]) line(H, "int32_t v%d = (int32_t)%s;", l->index, k64);
    emit_block(H, &l->body);
    /* yields: a parallel assignment; temporaries only when a yield reads a
     * region argument that an earlier assignment overwrites */
    int hazard = 0;
    for (int k = 0; k < l->nyields; k++)
        for (int j = 0; j < k; j++)
            if (l->yields[k].kind == OPD_VALUE && strcmp(H->vname[l->yields[k].id], H->vname[l->args[j]]) == 0) hazard = 1;
    const char **src = ARENA_ARRAY(H->a, const char *, l->nyields + 1);
    for (int k = 0; k < l->nyields; k++) {
        int r = l->results[k];
        Type t = f->types[r];
        DType dt = t.ptr ? DT_I32 : (DType)t.dtype;
        Operand y = l->yields[k];
        if (t.ptr && ptr_base_of(H, y) != H->base[r]) {
            mt_error(H->ctx, in->pos, "a loop-carried pointer must keep its base parameter (the host backend indexes one "
                                      "parameter per pointer)");
            H->failed = 1;
        }
        src[k] = NULL;
        /* a lane yielding its own region argument keeps its value */
        if (y.kind == OPD_VALUE && H->vname[y.id] && strcmp(H->vname[y.id], H->vname[r]) == 0) continue;
        if (!hazard) {
            src[k] = "";
            continue;
        }
        /* a temporary copy of the yielded value */
        const char *tmp = arena_printf(H->a, "v%d_next", r);
        if (t.rank == 0) {
            line(H, "%s %s = %s;", host_type(dt), tmp, t.ptr ? ptr_index(H, y, NULL) : opd_as(H, y, dt, NULL));
        } else {
            Type st = type_with_shape(type_scalar(dt), t.rank, t.dims);
            declare_block(H, tmp, st);
            Iter it = {st, (int)numel(st), 1};
            if (y.kind == OPD_VALUE && f->types[y.id].rank > 0 && numel(f->types[y.id]) != it.numel) it.flat = 0;
            int levels = open_iter(H, &it);
            line(H, "%s = %s;", element_of(H, tmp, st, &it), t.ptr ? ptr_index(H, y, &it) : opd_as(H, y, dt, &it));
            H->indent -= levels;
        }
        src[k] = tmp;
    }
    for (int k = 0; k < l->nyields; k++) {
        if (!src[k]) continue;
        int r = l->results[k];
        Type t = f->types[r];
        DType dt = t.ptr ? DT_I32 : (DType)t.dtype;
        Operand y = l->yields[k];
        const char *name = H->vname[r];
        if (t.rank == 0) {
            const char *v = hazard ? src[k] : t.ptr ? ptr_index(H, y, NULL) : opd_as(H, y, dt, NULL);
            line(H, "%s = %s;", name, v);
            continue;
        }
        Type st = type_with_shape(type_scalar(dt), t.rank, t.dims);
        Iter it = {st, (int)numel(st), 1};
        if (!hazard && y.kind == OPD_VALUE && f->types[y.id].rank > 0 && numel(f->types[y.id]) != it.numel) it.flat = 0;
        int levels = open_iter(H, &it);
        const char *v = hazard ? element_of(H, src[k], st, &it) : t.ptr ? ptr_index(H, y, &it) : opd_as(H, y, dt, &it);
        line(H, "%s = %s;", element_of(H, name, st, &it), v);
        H->indent -= levels;
    }
    H->indent--;
    line(H, "}");
    for (int k = 0; k < l->ncarried; k++)
        if (f->types[l->results[k]].rank == 0 && !H->uses[l->results[k]] && !H->uses[l->args[k]])
            line(H, "(void)%s;", H->vname[l->results[k]]);
}

static void emit_inst(Host *H, const Inst *in) {
    const Function *f = H->f;
    const Operand *x = in->args;
    int id = in->result;
    if (id >= 0) H->vname[id] = arena_printf(H->a, "v%d", id);
    Iter it = iter_for(H, in, in->type);
    switch (in->op) {
    case OP_PROGRAM_ID:
        H->pid_used[in->attrs.axis] = 1;
        define(H, in, &it, in->attrs.axis == 0 ? "pid_x" : in->attrs.axis == 1 ? "pid_y" : "pid_z");
        return;
    case OP_ARANGE: {
        const char *e = it.numel == 1 ? "0" : "mt_e";
        define(H, in, &it, in->attrs.start ? arena_printf(H->a, "(%s + %d)", e, in->attrs.start) : e);
        return;
    }
    case OP_ZEROS:
    case OP_EMPTY: define(H, in, &it, c_zero((DType)in->type.dtype)); return;
    case OP_FULL: define(H, in, &it, opd_as(H, x[0], (DType)in->type.dtype, &it)); return;
    case OP_EXPAND_DIMS:
        /* the same elements in the same order: a new name for the operand */
        if (x[0].kind == OPD_VALUE) {
            H->vname[id] = H->vname[x[0].id];
            return;
        }
        define(H, in, &it, opd(H, x[0], &it));
        return;
    case OP_NEG:
        if (in->type.dtype == DT_F32) define(H, in, &it, arena_printf(H->a, "(-%s)", opd(H, x[0], &it)));
        else {
            H->helpers |= H_INEG | H_I32;
            define(H, in, &it, arena_printf(H->a, "mt_ineg(%s)", opd(H, x[0], &it)));
        }
        return;
    case OP_EXP: define(H, in, &it, arena_printf(H->a, "expf(%s)", opd(H, x[0], &it))); return;
    case OP_ADD:
    case OP_SUB:
    case OP_MUL:
    case OP_DIV:
    case OP_MAXIMUM:
    case OP_MINIMUM: define(H, in, &it, arith(H, in, &it)); return;
    case OP_CMP_LT:
    case OP_CMP_LE:
    case OP_CMP_GT:
    case OP_CMP_GE:
    case OP_CMP_EQ:
    case OP_CMP_NE: define(H, in, &it, compare(H, in, &it)); return;
    case OP_AND:
    case OP_OR:
        define(H, in, &it, arena_printf(H->a, "(%s %s %s)", opd(H, x[0], &it), op_info(in->op)->c_op, opd(H, x[1], &it)));
        return;
    case OP_SELECT: {
        DType dt = (DType)in->type.dtype;
        define(H, in, &it,
               arena_printf(H->a, "(%s ? %s : %s)", opd(H, x[0], &it), opd_as(H, x[1], dt, &it), opd_as(H, x[2], dt, &it)));
        return;
    }
    case OP_ADDPTR: {
        H->base[id] = ptr_base_of(H, x[0]);
        MT_ASSERT(H->base[id] >= 0);
        H->param_used[H->base[id]] = 1;
        if (x[0].kind == OPD_PARAM && x[1].kind == OPD_VALUE && numel(f->types[x[1].id]) == numel(in->type)) {
            /* the parameter's element indexes are the offsets */
            H->vname[id] = H->vname[x[1].id];
            return;
        }
        const char *off = opd(H, x[1], &it);
        if (x[0].kind == OPD_PARAM) define(H, in, &it, off);
        else define(H, in, &it, helper2(H, H_IADD | H_I32, "mt_iadd", ptr_index(H, x[0], &it), off));
        return;
    }
    case OP_LOAD: {
        DType dt = (DType)in->type.dtype;
        const char *src = element_at(H, x[0], &it);
        if (x[1].kind == OPD_NONE || (x[1].kind == OPD_CONST && x[1].c.i)) {
            define(H, in, &it, src);
            return;
        }
        const char *other = x[2].kind == OPD_NONE ? c_zero(dt) : opd_as(H, x[2], dt, &it);
        define(H, in, &it, arena_printf(H->a, "(%s ? %s : %s)", opd(H, x[1], &it), src, other));
        return;
    }
    case OP_STORE: emit_store(H, in); return;
    case OP_SUM:
    case OP_MAX:
    case OP_MIN: emit_reduce(H, in); return;
    case OP_FOR: emit_loop(H, in); return;
    case OP_NUM_PROGRAMS:
    case OP_ABS:
    case OP_EXP2:
    case OP_LOG:
    case OP_LOG2:
    case OP_SQRT:
    case OP_SQRT_RN:
    case OP_RSQRT:
    case OP_SIN:
    case OP_COS:
    case OP_ERF:
    case OP_FLOOR:
    case OP_CEIL:
    case OP_DIV_RN:
    case OP_FLOORDIV:
    case OP_MOD:
    case OP_FMA:
    case OP_UMULHI:
    case OP_XOR:
    case OP_SHL:
    case OP_SHR:
    case OP_CAST:
    case OP_BITCAST:
    case OP_HINT:
        mt_error(H->ctx, in->pos, "the host backend does not support '%s' yet", op_info(in->op)->name);
        return;
    case OP_COUNT: break;
    }
    MT_ASSERT(!"unhandled opcode");
}

static void emit_block(Host *H, const Block *b) {
    for (int i = 0; i < b->items.len; i++) emit_inst(H, b->items.items[i]);
}

static void count_use(Operand *o, void *user) {
    int *uses = user;
    if (o->kind == OPD_VALUE) uses[o->id]++;
}

static void count_uses(const Block *b, int *uses) {
    for (int i = 0; i < b->items.len; i++) ssa_for_each_operand(b->items.items[i], 1, count_use, uses);
}

/* ---- The translation unit ------------------------------------------------ */

static void emit_helpers(StrBuf *sb, unsigned h) {
    if (!h) return;
    sb_puts(sb, "/* i32 arithmetic wraps as on the GPU; f32 to i32 truncates and saturates,\n"
                " * NaN giving 0 (CUDA's cvt.rzi); maximum/minimum propagate NaN and pick\n"
                " * the second operand on ties. */\n");
    if (h & H_I32)
        sb_puts(sb, "static inline int32_t mt_i32(uint32_t x) {\n"
                    "    return x <= 0x7fffffffu ? (int32_t)x : (int32_t)(x - 0x80000000u) - 0x7fffffff - 1;\n}\n");
    if (h & H_IADD)
        sb_puts(sb, "static inline int32_t mt_iadd(int32_t a, int32_t b) { return mt_i32((uint32_t)a + (uint32_t)b); }\n");
    if (h & H_ISUB)
        sb_puts(sb, "static inline int32_t mt_isub(int32_t a, int32_t b) { return mt_i32((uint32_t)a - (uint32_t)b); }\n");
    if (h & H_IMUL)
        sb_puts(sb, "static inline int32_t mt_imul(int32_t a, int32_t b) { return mt_i32((uint32_t)a * (uint32_t)b); }\n");
    if (h & H_INEG) sb_puts(sb, "static inline int32_t mt_ineg(int32_t a) { return mt_i32(0u - (uint32_t)a); }\n");
    if (h & H_IMAX) sb_puts(sb, "static inline int32_t mt_imax(int32_t a, int32_t b) { return a > b ? a : b; }\n");
    if (h & H_IMIN) sb_puts(sb, "static inline int32_t mt_imin(int32_t a, int32_t b) { return a < b ? a : b; }\n");
    if (h & H_F2I)
        sb_puts(sb, "static inline int32_t mt_f2i(float x) {\n"
                    "    if (isnan(x)) return 0;\n"
                    "    if (x >= 2147483648.0f) return INT32_MAX;\n"
                    "    if (x <= -2147483648.0f) return INT32_MIN;\n"
                    "    return (int32_t)x;\n}\n");
    if (h & H_FMAX)
        sb_puts(sb, "static inline float mt_fmax(float a, float b) { return isnan(a) ? a : isnan(b) ? b : a > b ? a : b; }\n");
    if (h & H_FMIN)
        sb_puts(sb, "static inline float mt_fmin(float a, float b) { return isnan(a) ? a : isnan(b) ? b : a < b ? a : b; }\n");
    sb_putc(sb, '\n');
}

static const char *param_ctype(Arena *a, const Spec *s, int i) {
    Type t = s->f->params[i].type;
    return c_launcher_type(a, t, t.ptr && !s->written[i]);
}

/* "const float*" -> "const float *x" */
static const char *decl(Arena *a, const char *ctype, const char *name) {
    size_t n = strlen(ctype);
    if (n && ctype[n - 1] == '*') return arena_printf(a, "%.*s *%s", (int)(n - 1), ctype, name);
    return arena_printf(a, "%s %s", ctype, name);
}

const char *emit_host_unit(MtContext *ctx, const Spec *s) {
    Arena *a = ctx->arena;
    const Function *f = s->f;
    Host H = {0};
    H.ctx = ctx;
    H.a = a;
    H.s = s;
    H.f = f;
    H.pnames = s->pnames;
    H.param_used = ARENA_ARRAY(a, int, f->nparams + 1);
    H.uses = ARENA_ARRAY(a, int, f->nvalues + 1);
    H.vname = ARENA_ARRAY(a, const char *, f->nvalues + 1);
    H.base = ARENA_ARRAY(a, int, f->nvalues + 1);
    for (int i = 0; i < f->nvalues; i++) H.base[i] = -1;
    count_uses(&f->body, H.uses);
    sb_init(&H.blocks, a);
    StrBuf body;
    sb_init(&body, a);
    H.out = &body;
    H.indent = 1;
    emit_block(&H, &f->body);
    if (H.failed) return NULL;

    const char *name = s->name;
    const char *launcher = arena_printf(a, "launch_%s_host", name);
    const char *program = arena_printf(a, "%s_program", name);
    int arena_needed = H.nblocks > 0;
    StrBuf sb;
    sb_init(&sb, a);
    sb_printf(&sb, "/* Generated by %s from %s (kernel %s). Do not edit. */\n", VERSION_LINE, s->source, s->kernel);
    sb_puts(&sb, "/* Host (CPU) backend: each program of the grid runs as one call of the\n"
                 " * program function; a block value is an array of its elements. */\n");
    sb_puts(&sb, "#include <math.h>\n#include <stdbool.h>\n#include <stdint.h>\n");
    if (arena_needed) sb_puts(&sb, "#include <stdlib.h>\n");
    sb_putc(&sb, '\n');
    sb_printf(&sb, "#include \"mytriton/runtime.h\"\n#include \"%s.h\"\n\n", name);
    emit_helpers(&sb, H.helpers);

    /* the arguments of one launch */
    sb_printf(&sb, "struct %s_args {\n", name);
    int members = 0;
    for (int i = 0; i < f->nparams; i++, members++) sb_printf(&sb, "    %s;\n", decl(a, param_ctype(a, s, i), s->pnames[i]));
    if (arena_needed) sb_puts(&sb, "    _Atomic int *mt_failed; /* set by a program that cannot allocate its blocks */\n"), members++;
    if (!members) sb_puts(&sb, "    char mt_unused;\n");
    sb_puts(&sb, "};\n\n");
    if (arena_needed) {
        sb_printf(&sb, "/* The block values of one program. */\nstruct %s_blocks {\n", name);
        sb_puts(&sb, sb_str(&H.blocks));
        sb_puts(&sb, "};\n\n");
    }

    /* the program */
    sb_printf(&sb, "static void %s(const void *ctx, int32_t pid_x, int32_t pid_y, int32_t pid_z) {\n", program);
    int any_param = 0;
    for (int i = 0; i < f->nparams; i++) any_param |= H.param_used[i];
    if (any_param || arena_needed)
        sb_printf(&sb, "    const struct %s_args *args = (const struct %s_args *)ctx;\n", name, name);
    else sb_puts(&sb, "    (void)ctx;\n");
    for (int i = 0; i < f->nparams; i++)
        if (H.param_used[i]) sb_printf(&sb, "    %s = args->%s;\n", decl(a, param_ctype(a, s, i), s->pnames[i]), s->pnames[i]);
    for (int d = 0; d < 3; d++)
        if (!H.pid_used[d]) sb_printf(&sb, "    (void)pid_%c;\n", "xyz"[d]);
    if (arena_needed) {
        sb_printf(&sb, "    struct %s_blocks *mt_b = (struct %s_blocks *)malloc(sizeof(struct %s_blocks));\n", name, name, name);
        sb_puts(&sb, "    if (mt_b == NULL) {\n        *args->mt_failed = 1;\n        return;\n    }\n");
    }
    sb_puts(&sb, sb_str(&body));
    if (arena_needed) sb_puts(&sb, "    free(mt_b);\n");
    sb_puts(&sb, "}\n\n");

    /* the launcher */
    sb_printf(&sb, "mytriton_status %s(%s) {\n", launcher, launcher_params(a, s, 0));
    emit_grid_prologue(&sb, a, s, launcher, "MYTRITON_INVALID_VALUE", "MYTRITON_SUCCESS");
    sb_printf(&sb, "    struct %s_args args;\n", name);
    for (int i = 0; i < f->nparams; i++) sb_printf(&sb, "    args.%s = %s;\n", s->pnames[i], s->pnames[i]);
    if (arena_needed) sb_puts(&sb, "    _Atomic int mt_failed = 0;\n    args.mt_failed = &mt_failed;\n");
    if (!members) sb_puts(&sb, "    args.mt_unused = 0;\n");
    sb_printf(&sb, "    int status = mytriton_host_run(&grid, %s, &args);\n", program);
    sb_puts(&sb, "    if (status != MYTRITON_SUCCESS) return (mytriton_status)status;\n");
    if (arena_needed) {
        sb_puts(&sb, "    if (mt_failed) {\n");
        sb_printf(&sb,
                  "        mytriton_set_last_error(\"%s: out of memory for the block values of a program (%%zu bytes)\",\n"
                  "                                sizeof(struct %s_blocks));\n",
                  launcher, name);
        sb_puts(&sb, "        return MYTRITON_OUT_OF_MEMORY;\n    }\n");
    }
    sb_puts(&sb, "    return MYTRITON_SUCCESS;\n}\n\n");

    const char *generic = arena_printf(a, "mytriton_generic_%s_host", name);
    emit_generic(&sb, a, s, launcher, generic, 0);
    emit_info(&sb, a, s, "_host", "host", generic, NULL, NULL);
    return sb_str(&sb);
}
