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
 * those of the SSA per element, which the CUDA backend computes per thread.
 *
 * Values. A value of every dtype of dtypes.def is held in the C type of its
 * compute dtype (cgen.c: int8_t ... uint64_t, bool, float, double; f16,
 * bf16, fp8e4nv and fp8e5 in a float holding a value of the dtype, rounded
 * to it after every inexact op with mytriton/dtypes.h, bit-exact). Memory
 * holds the dtype's own type (mytriton_fp16, ...); loads and stores convert
 * (cgen.c c_load / c_store); a narrow-float scalar parameter is converted
 * where it is read. Pointers are 64-bit element indexes from one base
 * parameter. Elementwise ops render through cgen.c's c_op_expr (C_HOST),
 * except where C would have undefined or implementation-defined behaviour,
 * which this file renders itself:
 *   - integer + - * and negation wrap modulo 2^bits: computed in uint64_t
 *     and converted back with mt_wrap_<dtype> (no signed overflow, no
 *     implementation-defined narrowing);
 *   - '//' and '%' on integers truncate (Triton's arith.divsi / remsi):
 *     x // 0 is -1 for signed dtypes and the largest value for unsigned ones
 *     (all bits set), x % 0 is x; MIN // -1 wraps to MIN and MIN % -1 is 0.
 *     (Triton leaves division by zero undefined; these are defined picks.)
 *   - '<<' and '>>' by a negative amount or by at least the width give 0,
 *     except '>>' of a negative signed value, which gives -1 (the PTX
 *     shl/shr clamping); '>>' is arithmetic on signed dtypes;
 *   - casts are Triton's (cgen.c c_cast_expr): integers wrap, float to
 *     integer truncates and saturates (8-bit through 16 bits, then wraps),
 *     NaN giving 0 (i64: INT64_MIN); integers to f16 / bf16 round once
 *     (64-bit integers through a round-to-odd double); abs(MIN) is MIN;
 *   - a masked load is `(mask ? p[i] : other)`: a masked-off element never
 *     touches memory; a masked store is an `if`;
 *   - tl.maximum / tl.minimum propagate NaN (PropagateNan.ALL) or ignore it
 *     (NONE), and pick operand 1 on ties (+0 and -0 included);
 *   - a reduction copies its operand to a scratch array and reduces it in
 *     the CUDA backend's shared-memory tree order (stride n/2 down to 1,
 *     a[i] op= a[i + stride]), each partial of a narrow float rounded, so
 *     sums agree bit for bit; tl.max and tl.min use fmaxf / fminf (NaN
 *     ignored unless all NaN); integer sums wrap;
 *   - a runtime loop is a C loop over a 64-bit counter (no overflow near
 *     INT32_MAX) whose carried values live in the result's variable,
 *     assigned at the end of each iteration (with temporaries where a yield
 *     reads a region argument that an earlier assignment overwrites, as the
 *     CUDA backend does).
 *   - tl.dot loops over (i, j) and k: one fused multiply-add per k in k
 *     order from the accumulator, in f32 (f64; int8 wrapping in 32 bits),
 *     TF32 operands truncated to 19 bits, tf32x3 split (docs/dot.md);
 * A value that only renames another (expand_dims, a parameter plus offsets)
 * shares its variable.
 *
 * Float results against CUDA (the same operands; docs/host-backend.md):
 *   exact (bit for bit): + - * of every float dtype, '/' and div_rn in f64
 *     and the narrow floats, sqrt_rn, fma in f32 / f64, floor, ceil, abs,
 *     neg, maximum, minimum, comparisons, casts, bitcasts, loads, stores,
 *     reductions (the same tree), '%' where C's fmod and CUDA's agree;
 *   f32 '/': IEEE here, CUDA -O1 IEEE too (exact); Triton and -O2 use
 *     div.full.f32 (<= 2 ulp);
 *   f32 exp, exp2, log, log2, sin, cos, erf, sqrt, rsqrt: the C library's
 *     (glibc: <= 1 ulp; rsqrt is 1/sqrtf, two roundings) against CUDA's
 *     (-O1: expf etc. <= 2 ulp; -O2/Triton: ex2.approx, sqrt.approx,
 *     rsqrt.approx, libdevice: <= 2 ulp, ftz); relative 4e-6 covers both;
 *   f64 math: the C library against libdevice, <= 2 ulp (relative 1e-15);
 *   fma of f16 / bf16: fma in double, then one rounding to the dtype
 *     (exact except when the double sum itself rounds onto a midpoint of
 *     the dtype: operands of widely different scales).
 *
 * The launcher checks the grid as the CUDA launcher does (the same
 * prologue), packs the arguments in a struct and runs the programs; a
 * program that cannot allocate its arena makes the launch return
 * MYTRITON_OUT_OF_MEMORY. */
#include "launch/emit.h"

#include <string.h>

#include "cgen/cgen.h"
#include "cgen/walk.h"
#include "cgen/reduce_gen.h"

#define VERSION_LINE "mytritonc " MT_VERSION

/* Helper functions of the generated file, emitted only when used, per
 * dtype (need[dtype]) or once (need_any). */
enum {
    N_WRAP = 1 << 0, /* mt_wrap_<dt>: uint64_t to the signed dtype, modulo 2^bits */
    N_DIV = 1 << 1,  /* mt_div_<dt>: '//' without undefined behaviour */
    N_MOD = 1 << 2,  /* mt_mod_<dt>: '%' */
    N_SHL = 1 << 3,  /* mt_shl_<dt>: '<<' */
    N_SHR = 1 << 4   /* mt_shr_<dt>: '>>' */
};
enum {
    NA_ODD = 1 << 0,  /* mt_odd_double: a 64-bit integer as a double, rounded to odd */
    NA_TF32 = 1 << 1, /* mt_tf32_trunc / mt_tf32_rna: f32 to TF32 (tl.dot) */
    NA_TIMER = 1 << 2 /* mt_globaltimer: %globaltimer's nanoseconds (<time.h>) */
};

/* The elements an op loops over. */
typedef struct Iter {
    Type shape; /* the op's result (or, for a store, broadcast) shape */
    int numel;
    int flat; /* one loop over mt_e: every block operand has numel or 1 element */
} Iter;

typedef struct Host {
    MtContext *ctx;
    Arena *a;
    const Spec *s;
    const Function *f;
    const char **pnames;
    int *param_used;
    int *uses;          /* by value number */
    const char **vname; /* by value number: its C variable (region arguments: the loop result's) */
    int *base;          /* pointer values: the parameter they index, -1 if unknown */
    int pid_used[3];
    int grid_used; /* tl.num_programs: the launch's grid travels in the arguments */
    unsigned need[DT_COUNT];
    unsigned need_any;
    StrBuf blocks; /* members of the arena struct */
    int nblocks;
    StrBuf *out;
    int indent;
    int failed;
    int stdio;   /* device_print / device_assert: <stdio.h> */
    int aborts;  /* device_assert: abort() of <stdlib.h> */
    int atomics; /* mytriton/atomic.h is needed */
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

/* The dtype a value is held in: pointers are 64-bit element indexes. */
static DType reg_dtype(Type t) { return t.ptr ? DT_I64 : (DType)t.dtype; }
static const char *host_type(DType dt) { return c_type_in(dt, C_HOST); }

static int64_t numel(Type t) { return type_numel(t); }

/* ---- Integer arithmetic without undefined behaviour ---------------------- */

/* A uint64_t expression as a value of integer dtype `dt`, modulo 2^bits. */
static const char *wrap(Host *H, DType dt, const char *u) {
    switch (dtype_info(dt)->cls) {
    case DC_SINT:
        H->need[dt] |= N_WRAP;
        return arena_printf(H->a, "mt_wrap_%s(%s)", dtype_name(dt), u);
    case DC_UINT: return arena_printf(H->a, "(%s)(%s)", host_type(dt), u);
    case DC_BOOL: return arena_printf(H->a, "(((%s) & 1u) != 0)", u);
    case DC_FLOAT:
    case DC_NONE: break;
    }
    MT_ASSERT(!"not an integer dtype");
    return u;
}

static const char *u64(Host *H, const char *x) { return arena_printf(H->a, "(uint64_t)%s", x); }

static const char *helper_call(Host *H, unsigned n, const char *fn, DType dt, const char *x,
                               const char *y) {
    H->need[dt] |= n;
    /* (of these, only the signed div and shl helpers call mt_wrap) */
    if (n & (N_DIV | N_SHL)) H->need[dt] |= dtype_is_unsigned(dt) ? 0 : N_WRAP;
    return arena_printf(H->a, "mt_%s_%s(%s, %s)", fn, dtype_name(dt), x, y);
}

/* Whether every value of integer dtype `from` is a value of `to`. */
static int int_fits(DType from, DType to) {
    const DTypeInfo *f = dtype_info(from), *t = dtype_info(to);
    if (from == DT_BOOL) return 1;
    if (to == DT_BOOL) return 0;
    if (f->cls == t->cls) return f->bits <= t->bits;
    return f->cls == DC_UINT && f->bits < t->bits;
}

/* A register value converted from one dtype to another as Triton casts
 * (rtz: fp_downcast_rounding="rtz"): cgen.c's c_cast_expr, except where C
 * would narrow to a signed type implementation-defined, or where an
 * integer would round twice on its way to a 16-bit float. */
static const char *host_cast(Host *H, DType from, DType to, int rtz, const char *x) {
    if (from == to) return x;
    if (dtype_is_int(to) && to != DT_BOOL && dtype_is_signed(to)) {
        if (dtype_is_int(from))
            return int_fits(from, to) ? arena_printf(H->a, "(%s)%s", host_type(to), x)
                                      : wrap(H, to, u64(H, x));
        if (to == DT_I64) return arena_printf(H->a, "mytriton_f2i64((double)%s)", x);
        /* truncation saturating at 16 bits for 8-bit results (the GPU's cvt.rzi.s16), then wrapping
         * */
        if (dtype_info(to)->bits == 8)
            return wrap(H, to,
                        u64(H, arena_printf(H->a, "mytriton_f2i((double)%s, -32768, 32767)", x)));
        return arena_printf(H->a, "(%s)mytriton_f2i((double)%s, %lld, %lld)", host_type(to), x,
                            (long long)dtype_int_min(to), (long long)dtype_int_max(to));
    }
    if ((to == DT_F16 || to == DT_BF16) && dtype_is_int(from) && from != DT_BOOL) {
        const char *d = arena_printf(H->a, "(double)%s", x);
        if (dtype_info(from)->bits == 64 && to == DT_BF16) {
            /* |x| >= 2^53: rounded to odd first, so that the one rounding to bf16 is exact */
            H->need_any |= NA_ODD;
            d = dtype_is_signed(from)
                    ? arena_printf(H->a,
                                   "(%s < 0 ? -mt_odd_double(0u - (uint64_t)%s) : "
                                   "mt_odd_double((uint64_t)%s))",
                                   x, x, x)
                    : arena_printf(H->a, "mt_odd_double(%s)", x);
        }
        const char *host = dtype_info(to)->host;
        return arena_printf(H->a, "%s_to_float(%s_from_double(%s))", host, host, d);
    }
    return c_cast_expr(H->a, C_HOST, from, to, rtz, x);
}

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

/* An operand's element under iteration `it` (NULL: a scalar context), as a
 * register value. */
static const char *opd(Host *H, Operand o, const Iter *it) {
    static const Iter scalar = {{0}, 1, 1};
    if (!it) it = &scalar;
    switch (o.kind) {
    case OPD_VALUE:
        return element_of(H, H->vname[o.id] ? H->vname[o.id] : arena_printf(H->a, "v%d", o.id),
                          H->f->types[o.id], it);
    case OPD_PARAM: {
        H->param_used[o.id] = 1;
        Type t = H->f->params[o.id].type;
        if (!t.ptr)
            return c_load(H->a, (DType)t.dtype, C_HOST,
                          H->pnames[o.id]); /* a narrow float: to float */
        return H->pnames[o.id];
    }
    case OPD_CONST: return c_const(H->a, o.c, C_HOST);
    case OPD_NONE: break;
    }
    return "0";
}

/* An operand converted to `dt` with Triton's cast (a load's other, a
 * store's value, a fill, a loop's initial and yielded values). */
static const char *opd_as(Host *H, Operand o, DType dt, const Iter *it) {
    if (o.kind == OPD_CONST) return c_const(H->a, const_convert(o.c, dt), C_HOST);
    return host_cast(H, (DType)operand_type(H->f, o).dtype, dt, 0, opd(H, o, it));
}

/* Operand k of `in` as the op takes it: a constant converted to the op's
 * computation dtype (the seed's constants as written), as the CUDA
 * backend renders it. */
static const char *opd_for(Host *H, const Inst *in, int k, const Iter *it) {
    Operand o = in->args[k];
    if (o.kind == OPD_CONST) {
        DType dt = c_operand_dtype(H->a, H->f, in, k);
        if (in->op == OP_MAXIMUM || in->op == OP_MINIMUM)
            return c_const(H->a, const_convert(o.c, dt), C_HOST);
        return c_operand_const(H->a, o.c, dt, C_HOST);
    }
    return opd(H, o, it);
}

/* The C name of a pointer base: a parameter b (b < nparams), or the
 * variable of the scalar pointer that tl.int_to_ptr made (nparams + v). */
static const char *base_name(Host *H, int b) {
    if (b >= H->f->nparams) return arena_printf(H->a, "v%d", b - H->f->nparams);
    H->param_used[b] = 1;
    return H->pnames[b];
}

/* A pointer operand: its base and the element it points at. */
static const char *element_at(Host *H, Operand p, const Iter *it) {
    if (p.kind == OPD_PARAM) {
        H->param_used[p.id] = 1;
        return arena_printf(H->a, "%s[0]", H->pnames[p.id]);
    }
    MT_ASSERT(p.kind == OPD_VALUE && H->base[p.id] >= 0);
    return arena_printf(H->a, "%s[%s]", base_name(H, H->base[p.id]), opd(H, p, it));
}

/* A pointer operand's element index (a parameter: 0). */
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
    sb_printf(&H->blocks, "    %s %s[%lld];\n", host_type((DType)t.dtype), name,
              (long long)numel(t));
    H->nblocks++;
    line(H, "%s *%s = mt_b->%s;", host_type((DType)t.dtype), name, name);
}

/* Declares the value `id` (scalar: `T vN = expr;`, block: a loop). */
static void define(Host *H, const Inst *in, const Iter *it, const char *expr) {
    int id = in->result;
    Type t = in->type;
    DType dt = reg_dtype(t);
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

/* An elementwise op over operands already rendered (x[k]): cgen.c's shared
 * renderer, except the integer ops whose C form has undefined behaviour. */
static const char *elementwise(Host *H, const Inst *in, const char *const *x) {
    DType rt = (DType)in->type.dtype;
    int integer = dtype_is_int(rt) && rt != DT_BOOL;
    switch (in->op) {
    case OP_NEG:
        if (integer) return wrap(H, rt, arena_printf(H->a, "0u - %s", u64(H, x[0])));
        break;
    case OP_ABS:
        if (integer && dtype_is_signed(rt))
            return arena_printf(H->a, "(%s < 0 ? %s : %s)", x[0],
                                wrap(H, rt, arena_printf(H->a, "0u - %s", u64(H, x[0]))), x[0]);
        break;
    case OP_ADD:
    case OP_SUB:
    case OP_MUL:
        if (integer)
            return wrap(
                H, rt,
                arena_printf(H->a, "%s %s %s", u64(H, x[0]), op_info(in->op)->c_op, u64(H, x[1])));
        break;
    case OP_FLOORDIV:
        if (integer) return helper_call(H, N_DIV, "div", rt, x[0], x[1]);
        break;
    case OP_MOD:
        if (integer) return helper_call(H, N_MOD, "mod", rt, x[0], x[1]);
        break;
    case OP_SHL:
        if (integer) return helper_call(H, N_SHL, "shl", rt, x[0], x[1]);
        break;
    case OP_SHR:
        if (integer) return helper_call(H, N_SHR, "shr", rt, x[0], x[1]);
        break;
    case OP_UMULHI: {
        const char *hi =
            dtype_info(rt)->bits == 64
                ? arena_printf(H->a, "mytriton_umul64hi(%s, %s)", u64(H, x[0]), u64(H, x[1]))
                : arena_printf(H->a, "((uint64_t)(uint32_t)%s * (uint32_t)%s) >> 32", x[0], x[1]);
        return wrap(H, rt, hi);
    }
    case OP_FMA:
        if (dtype_info(rt)->compute != rt) {
            /* one rounding of the exact product plus the addend (in double) */
            const char *host = dtype_info(rt)->host;
            return arena_printf(
                H->a, "%s_to_float(%s_from_double(fma((double)%s, (double)%s, (double)%s)))", host,
                host, x[0], x[1], x[2]);
        }
        break;
    case OP_MAXIMUM:
    case OP_MINIMUM:
        if (dtype_is_float(rt) && in->attrs.flag) {
            /* NaN ignored; ties (+0 and -0) give operand 1 as the references say, where fmaxf may
             * give either */
            const char *p = x[0], *q = x[1], *T = c_type_in(rt, C_HOST);
            if (in->args[0].kind != OPD_CONST && operand_type(H->f, in->args[0]).dtype != rt)
                p = arena_printf(H->a, "(%s)%s", T, p);
            if (in->args[1].kind != OPD_CONST && operand_type(H->f, in->args[1]).dtype != rt)
                q = arena_printf(H->a, "(%s)%s", T, q);
            return arena_printf(
                H->a, "(isnan(%s) ? (%s) : isnan(%s) ? (%s) : (%s) %s (%s) ? (%s) : (%s))", p, q, q,
                p, p, in->op == OP_MAXIMUM ? ">" : "<", q, p, q);
        }
        break;
    case OP_CAST:
        return host_cast(H, (DType)operand_type(H->f, in->args[0]).dtype, rt, in->attrs.flag, x[0]);
    case OP_EXP:
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
    /* the libdevice functions (unary, rendered from their templates) */
    default:
    case OP_COUNT: break;
    }
    return c_op_expr(H->a, C_HOST, H->f, in, x);
}

/* One step of a reduction's tree: lhs combined with rhs. */
static const char *reduce_step(Host *H, Op op, DType dt, const char *lhs, const char *rhs) {
    int fl = dtype_is_float(dt), dbl = dtype_info(dt)->compute == DT_F64;
    if (op == OP_CUMPROD) {
        if (fl) return c_round(H->a, dt, C_HOST, arena_printf(H->a, "%s * %s", lhs, rhs));
        return wrap(H, dt, arena_printf(H->a, "%s * %s", u64(H, lhs), u64(H, rhs)));
    }
    if (op == OP_SUM || op == OP_CUMSUM) {
        if (fl)
            return c_round(
                H->a, dt, C_HOST,
                arena_printf(H->a, "%s + %s", lhs, rhs)); /* a narrow float: each partial rounded */
        return wrap(H, dt, arena_printf(H->a, "%s + %s", u64(H, lhs), u64(H, rhs)));
    }
    if (op == OP_XOR_SUM) /* integers only: ops.def's c_op */
        return arena_printf(H->a, "(%s)(%s %s %s)", host_type(dt), lhs, op_info(op)->c_op, rhs);
    if (op == OP_MAX) {
        if (fl) return arena_printf(H->a, "%s(%s, %s)", dbl ? "fmax" : "fmaxf", lhs, rhs);
        return arena_printf(H->a, "(%s > %s ? %s : %s)", lhs, rhs, lhs, rhs);
    }
    if (op == OP_MIN) {
        if (fl) return arena_printf(H->a, "%s(%s, %s)", dbl ? "fmin" : "fminf", lhs, rhs);
        return arena_printf(H->a, "(%s < %s ? %s : %s)", lhs, rhs, lhs, rhs);
    }
    MT_ASSERT(!"not a reduction");
    return lhs;
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
    line(H, "%s = %s;", element_of(H, buf, bt, &it), opd_as(H, in->args[0], dt, &it));
    H->indent -= levels;
    line(H, "for (int stride_%d = %d; stride_%d > 0; stride_%d >>= 1)", id, n / 2, id, id);
    H->indent++;
    line(H, "for (int mt_e = 0; mt_e < stride_%d; mt_e++)", id);
    H->indent++;
    const char *lhs = arena_printf(H->a, "%s[mt_e]", buf);
    const char *rhs = arena_printf(H->a, "%s[mt_e + stride_%d]", buf, id);
    line(H, "%s = %s;", lhs, reduce_step(H, in->op, dt, lhs, rhs));
    H->indent -= 2;
    line(H, "%s v%d = %s[0];", T, id, buf);
    if (!H->uses[id]) line(H, "(void)v%d;", id);
}

static const char *red_step(void *user, Op op, DType dt, const char *acc, const char *x) {
    return reduce_step((Host *)user, op, dt, acc, x);
}

/* The generic axis path of a reduction or scan (reduce_gen.h): each result
 * element combines the operand's elements along the axis in order, as the
 * CUDA backends do. */
static void emit_axis_reduce(Host *H, const Inst *in) {
    int id = in->result;
    Operand x = in->args[0];
    MT_ASSERT(x.kind == OPD_VALUE);
    const char *src = H->vname[x.id] ? H->vname[x.id] : arena_printf(H->a, "v%d", x.id);
    RedGen g = {H->a, C_HOST, H->f, in, arena_printf(H->a, "%s[%%s]", src), red_step, H};
    const char *T = host_type((DType)in->type.dtype);
    const char **ls;
    if (in->type.rank == 0) {
        line(H, "%s v%d;", T, id);
        ls = red_lines(&g, "0", arena_printf(H->a, "v%d", id));
    } else {
        declare_block(H, arena_printf(H->a, "v%d", id), in->type);
        line(H, "for (int mt_e = 0; mt_e < %lld; mt_e++)", (long long)numel(in->type));
        H->indent++;
        ls = red_lines(&g, "mt_e", arena_printf(H->a, "v%d[mt_e]", id));
    }
    for (int k = 0; ls[k]; k++) line(H, "%s", ls[k]);
    if (in->type.rank > 0) H->indent--;
    else if (!H->uses[id]) line(H, "(void)v%d;", id);
}

static void emit_store(Host *H, const Inst *in) {
    const Operand *x = in->args;
    if (x[2].kind == OPD_CONST && !x[2].c.i) return; /* never stores */
    Type shape = type_scalar(DT_NONE);
    for (int k = 0; k < 3; k++) {
        Type s2;
        if (x[k].kind != OPD_NONE && shape_broadcast(shape, operand_type(H->f, x[k]), &s2))
            shape = s2;
    }
    Iter it = iter_for(H, in, shape);
    DType pointee = (DType)operand_type(H->f, x[0]).dtype;
    int levels = shape.rank ? open_iter(H, &it) : 0;
    const char *dst = element_at(H, x[0], shape.rank ? &it : NULL);
    const char *val = opd_as(H, x[1], pointee, shape.rank ? &it : NULL);
    /* a value of fp8e5 stores as it is: infinities too (the table's store conversion is the cast's
     * satfinite one) */
    if (pointee == DT_F8E5)
        val = arena_printf(
            H->a, "(mytriton_fp8e5){(uint8_t)mytriton_encode_small((double)%s, 5, 2, 1, 0)}", val);
    else val = c_store(H->a, pointee, C_HOST, val);
    if (x[2].kind == OPD_NONE || x[2].kind == OPD_CONST) line(H, "%s = %s;", dst, val);
    else line(H, "if (%s) %s = %s;", opd(H, x[2], shape.rank ? &it : NULL), dst, val);
    H->indent -= levels;
}

/* The element indices of an op iterating over a single operand of type t
 * (device_print, device_assert): after open_iter(). */
static void element_indices(Host *H, const Iter *it, Type t, const char **idx) {
    idx[0] = idx[1] = "0";
    if (t.rank == 0 || it->numel == 1) return;
    if (!it->flat) {
        idx[0] = "mt_i", idx[1] = "mt_j";
        return;
    }
    if (t.rank == 1) {
        idx[0] = "mt_e";
        return;
    }
    idx[0] = arena_printf(H->a, "mt_e / %d", (int)t.dims[1]);
    idx[1] = arena_printf(H->a, "mt_e %% %d", (int)t.dims[1]);
}

/* device_print: every element in order, as Triton formats it on the GPU. */
static void emit_print(Host *H, const Inst *in) {
    const Operand *x = in->args;
    Type t = operand_type(H->f, x[0]);
    Iter it = iter_for(H, in, t);
    int levels = t.rank ? open_iter(H, &it) : 0;
    const char *idx[2];
    element_indices(H, &it, t, idx);
    DType dt = (DType)t.dtype;
    const char *v = dtype_is_float(dt)
                        ? opd_as(H, x[0], dtype_info(dt)->compute, t.rank ? &it : NULL)
                        : opd(H, x[0], t.rank ? &it : NULL);
    StrBuf args;
    sb_init(&args, H->a);
    c_print_indices(&args, H->a, &in->attrs, t, idx, "(unsigned)(%s)");
    StrBuf prefix;
    sb_init(&prefix, H->a);
    sb_quote(&prefix, in->attrs.text ? in->attrs.text : "");
    H->pid_used[0] = H->pid_used[1] = H->pid_used[2] = 1;
    H->stdio = 1;
    line(H, "printf(\"%s\", (unsigned)pid_x, (unsigned)pid_y, (unsigned)pid_z%s, %s, %s);",
         c_print_format(H->a, c_print_type(&in->attrs, t), in->attrs.flag, in->attrs.start,
                        in->attrs.end),
         sb_str(&args), sb_str(&prefix), c_print_arg(H->a, dt, in->attrs.flag, v));
    H->indent -= levels;
}

/* device_assert (--debug): CUDA's message, then abort() (the launch cannot
 * go on, as a failed assertion ends the CUDA context). */
static void emit_assert(Host *H, const Inst *in) {
    const Operand *x = in->args;
    Type t = operand_type(H->f, x[0]);
    Iter it = iter_for(H, in, t);
    int levels = t.rank ? open_iter(H, &it) : 0;
    const char *thread = t.rank == 0 || it.numel == 1 ? "0"
                         : it.flat                    ? "mt_e"
                                   : arena_printf(H->a, "mt_i * %d + mt_j", (int)t.dims[1]);
    StrBuf sb;
    sb_init(&sb, H->a);
    sb_puts(&sb,
            "fprintf(stderr, \"%s:%d: %s: block: [%d,%d,%d], thread: [%d,0,0] Assertion `%s` "
            "failed.\\n\", ");
    sb_quote(&sb, in->attrs.file ? in->attrs.file : "");
    sb_printf(&sb, ", %d, ", in->pos.line);
    sb_quote(&sb, in->attrs.func ? in->attrs.func : "");
    sb_printf(&sb, ", (int)pid_x, (int)pid_y, (int)pid_z, (int)(%s), ", thread);
    sb_quote(&sb, in->attrs.text ? in->attrs.text : "");
    sb_puts(&sb, ");");
    H->pid_used[0] = H->pid_used[1] = H->pid_used[2] = 1;
    H->stdio = H->aborts = 1;
    line(H, "if (!(%s)) {", opd(H, x[0], t.rank ? &it : NULL));
    H->indent++;
    line(H, "%s", sb_str(&sb));
    line(H, "abort();");
    H->indent--;
    line(H, "}");
    H->indent -= levels;
}

/* An atomic: per element of its shape (a scalar pointer: once per
 * program), through mytriton/atomic.h; a masked-off element does nothing
 * and reads 0. */
static void emit_atomic(Host *H, const Inst *in, const Iter *it) {
    const Operand *x = in->args;
    DType pt = (DType)in->type.dtype;
    H->atomics = 1;
    const char *fn = in->op == OP_ATOMIC_CAS ? "cas" : atomic_rmw_names[in->attrs.rmw];
    const char *call;
    if (in->op == OP_ATOMIC_CAS)
        call = arena_printf(H->a, "mytriton_atomic_cas_%s(&%s, %s, %s)", dtype_name(pt),
                            element_at(H, x[0], it), opd(H, x[1], it), opd(H, x[2], it));
    else
        call = arena_printf(H->a, "mytriton_atomic_%s_%s(&%s, %s)", fn, dtype_name(pt),
                            element_at(H, x[0], it), opd(H, x[1], it));
    if (in->op == OP_ATOMIC_RMW && x[2].kind == OPD_CONST && !x[2].c.i) call = c_zero(pt);
    else if (in->op == OP_ATOMIC_RMW && x[2].kind != OPD_NONE && x[2].kind != OPD_CONST)
        call = arena_printf(H->a, "(%s ? %s : %s)", opd(H, x[2], it), call, c_zero(pt));
    define(H, in, it, call);
}

static void emit_block(Host *H, const Block *b);

/* The variables of a region op's lanes, named after its results (a loop's
 * region arguments share them), initialized from the carried inputs (an
 * if's: zero scalars and undefined blocks, which each branch assigns). */
static void declare_lanes(Host *H, const Inst *in) {
    const Loop *l = in->loop;
    const Function *f = H->f;
    for (int k = 0; k < l->nresults; k++) {
        int r = l->results[k];
        int arg = k < l->ncarried ? l->args[k] : r;
        Type t = f->types[r];
        const char *name = arena_printf(H->a, "v%d", r);
        H->vname[r] = H->vname[arg] = name;
        H->base[r] = H->base[arg] = -1;
        if (t.ptr && k < l->ncarried) {
            int b = ptr_base_of(H, l->inits[k]);
            H->base[r] = H->base[arg] = b;
        }
        DType dt = reg_dtype(t);
        if (k >= l->ncarried) {
            if (t.rank == 0) line(H, "%s %s = 0;", host_type(dt), name);
            else declare_block(H, name, type_with_shape(type_scalar(dt), t.rank, t.dims));
            continue;
        }
        if (t.rank == 0) {
            const char *init =
                t.ptr ? ptr_index(H, l->inits[k], NULL) : opd_as(H, l->inits[k], dt, NULL);
            line(H, "%s %s = %s;", host_type(dt), name, init);
        } else {
            Type st = type_with_shape(type_scalar(dt), t.rank, t.dims);
            declare_block(H, name, st);
            Iter it = {st, (int)numel(st), 1};
            Operand o = l->inits[k];
            if (o.kind == OPD_VALUE && f->types[o.id].rank > 0 && numel(f->types[o.id]) != it.numel)
                it.flat = 0;
            int levels = open_iter(H, &it);
            line(H, "%s = %s;", element_of(H, name, st, &it),
                 t.ptr ? ptr_index(H, o, &it) : opd_as(H, o, dt, &it));
            H->indent -= levels;
        }
    }
}

/* The lanes take the yields: a parallel assignment; temporaries only when
 * a yield reads a region argument that an earlier assignment overwrites. */
static void assign_lanes(Host *H, const Inst *in, const Operand *yields) {
    const Loop *l = in->loop;
    const Function *f = H->f;
    int hazard = 0;
    for (int k = 0; k < l->nyields; k++)
        for (int j = 0; j < k && j < l->ncarried; j++)
            if (yields[k].kind == OPD_VALUE &&
                strcmp(H->vname[yields[k].id], H->vname[l->args[j]]) == 0)
                hazard = 1;
    const char **src = ARENA_ARRAY(H->a, const char *, l->nyields + 1);
    for (int k = 0; k < l->nyields; k++) {
        int r = l->results[k];
        Type t = f->types[r];
        DType dt = reg_dtype(t);
        Operand y = yields[k];
        if (t.ptr && H->base[r] < 0 && k >= l->ncarried) H->base[r] = ptr_base_of(H, y);
        if (t.ptr && ptr_base_of(H, y) != H->base[r]) {
            mt_error(H->ctx, in->pos,
                     "a loop-carried or branch-merged pointer must keep its base: one pointer "
                     "parameter, or one address cast with tl.pointer_type (the CUDA and host "
                     "backends hold a pointer as an index from one base)");
            H->failed = 1;
        }
        src[k] = NULL;
        /* a lane yielding its own region argument keeps its value */
        if (y.kind == OPD_VALUE && H->vname[y.id] && strcmp(H->vname[y.id], H->vname[r]) == 0)
            continue;
        if (!hazard) {
            src[k] = "";
            continue;
        }
        /* a temporary copy of the yielded value */
        const char *tmp = arena_printf(H->a, "v%d_next", r);
        if (t.rank == 0) {
            line(H, "%s %s = %s;", host_type(dt), tmp,
                 t.ptr ? ptr_index(H, y, NULL) : opd_as(H, y, dt, NULL));
        } else {
            Type st = type_with_shape(type_scalar(dt), t.rank, t.dims);
            declare_block(H, tmp, st);
            Iter it = {st, (int)numel(st), 1};
            if (y.kind == OPD_VALUE && f->types[y.id].rank > 0 && numel(f->types[y.id]) != it.numel)
                it.flat = 0;
            int levels = open_iter(H, &it);
            line(H, "%s = %s;", element_of(H, tmp, st, &it),
                 t.ptr ? ptr_index(H, y, &it) : opd_as(H, y, dt, &it));
            H->indent -= levels;
        }
        src[k] = tmp;
    }
    for (int k = 0; k < l->nyields; k++) {
        if (!src[k]) continue;
        int r = l->results[k];
        Type t = f->types[r];
        DType dt = reg_dtype(t);
        Operand y = yields[k];
        const char *name = H->vname[r];
        if (t.rank == 0) {
            const char *v = hazard  ? src[k]
                            : t.ptr ? ptr_index(H, y, NULL)
                                    : opd_as(H, y, dt, NULL);
            line(H, "%s = %s;", name, v);
            continue;
        }
        Type st = type_with_shape(type_scalar(dt), t.rank, t.dims);
        Iter it = {st, (int)numel(st), 1};
        if (!hazard && y.kind == OPD_VALUE && f->types[y.id].rank > 0 &&
            numel(f->types[y.id]) != it.numel)
            it.flat = 0;
        int levels = open_iter(H, &it);
        const char *v = hazard  ? element_of(H, src[k], st, &it)
                        : t.ptr ? ptr_index(H, y, &it)
                                : opd_as(H, y, dt, &it);
        line(H, "%s = %s;", element_of(H, name, st, &it), v);
        H->indent -= levels;
    }
}

static void emit_loop(Host *H, const Inst *in) {
    const Loop *l = in->loop;
    const Function *f = H->f;
    declare_lanes(H, in);
    if (in->op == OP_IF) {
        line(H, "if (%s) {", opd(H, l->cond, NULL));
        H->indent++;
        emit_block(H, &l->body);
        assign_lanes(H, in, l->yields);
        H->indent--;
        line(H, "} else {");
        H->indent++;
        emit_block(H, &l->orelse);
        assign_lanes(H, in, l->else_yields);
        H->indent--;
        line(H, "}");
    } else if (in->op == OP_WHILE) {
        line(H, "for (;;) {");
        H->indent++;
        emit_block(H, &l->before);
        line(H, "if (!%s) break;", opd(H, l->cond, NULL));
        emit_block(H, &l->body);
        assign_lanes(H, in, l->yields);
        H->indent--;
        line(H, "}");
    } else {
        const char *k64 = arena_printf(H->a, "v%d_k", l->index);
        line(H, "for (int64_t %s = %s; %s < %s; %s += %s) {", k64, opd(H, l->start, NULL), k64,
             opd(H, l->stop, NULL), k64, opd(H, l->step, NULL));
        H->indent++;
        H->vname[l->index] = arena_printf(H->a, "v%d", l->index);
        if (H->uses[l->index]) {
            DType it = (DType)f->types[l->index].dtype;
            /* in the range of the loop's dtype: start <= k < stop */
            if (it == DT_I64) line(H, "int64_t v%d = %s;", l->index, k64);
            else line(H, "%s v%d = (%s)%s;", host_type(it), l->index, host_type(it), k64);
        }
        emit_block(H, &l->body);
        assign_lanes(H, in, l->yields);
        H->indent--;
        line(H, "}");
    }
    for (int k = 0; k < l->nresults; k++) {
        int r = l->results[k];
        if (f->types[r].rank == 0 && !H->uses[r] && (k >= l->ncarried || !H->uses[l->args[k]]))
            line(H, "(void)%s;", H->vname[r]);
    }
}

/* Element `e` (a row-major index expression) of a shape op's operand. */
static const char *flat_element(Host *H, Operand o, const char *e) {
    Type t = operand_type(H->f, o);
    if (t.rank == 0 || o.kind != OPD_VALUE) return opd(H, o, NULL);
    if (numel(t) == 1) return arena_printf(H->a, "%s[0]", H->vname[o.id]);
    return arena_printf(H->a, "%s[%s]", H->vname[o.id], e);
}

/* Reshape, trans, remap, join and split: index remapping over row-major arrays
 * (a reshape copies: a new name for the operand's array could hide a
 * loop's carried value that the end of an iteration overwrites). */
static void emit_shape(Host *H, const Inst *in) {
    const Operand *x = in->args;
    int id = in->result;
    Type t = in->type, xt = operand_type(H->f, x[0]);
    const char *name = H->vname[id];
    if (t.rank == 0) { /* (1,) reshaped to a scalar, a (2,) split */
        const char *e = in->op == OP_SPLIT ? (in->attrs.axis ? "1" : "0") : "0";
        line(H, "%s %s = %s;", host_type((DType)t.dtype), name, flat_element(H, x[0], e));
        if (!H->uses[id]) line(H, "(void)%s;", name);
        return;
    }
    declare_block(H, name, t);
    const char *src = flat_element(H, x[0], "mt_e"); /* reshape */
    if (in->op == OP_TRANS) /* result (C0, R0) at e is operand (R0, C0) at (e % R0, e / R0) */
        src = flat_element(H, x[0],
                           arena_printf(H->a, "(mt_e %% %d) * %d + mt_e / %d", (int)xt.dims[0],
                                        (int)xt.dims[1], (int)xt.dims[0]));
    if (in->op == OP_SPLIT)
        src = flat_element(H, x[0], arena_printf(H->a, "mt_e * 2 + %d", in->attrs.axis));
    if (in->op == OP_XOR_SHUFFLE)
        src = flat_element(H, x[0], arena_printf(H->a, "mt_e ^ %d", in->attrs.axis));
    if (in->op == OP_REMAP) /* a gather: result element e from its multi-index over dims */
        src = flat_element(H, x[0], c_remap_index(H->a, &in->attrs, "mt_e"));
    if (in->op == OP_GATHER) /* tl.gather: at the index operand 1 holds there */
        src = flat_element(H, x[0],
                           c_gather_index(H->a, H->f, in, "mt_e", flat_element(H, x[1], "mt_e")));
    if (in->op == OP_JOIN)
        src = arena_printf(H->a, "(mt_e %% 2 == 0 ? %s : %s)", flat_element(H, x[0], "mt_e / 2"),
                           flat_element(H, x[1], "mt_e / 2"));
    line(H, "for (int mt_e = 0; mt_e < %d; mt_e++)", (int)numel(t));
    H->indent++;
    line(H, "%s[mt_e] = %s;", name, src);
    H->indent--;
}

/* tl.dot: for each (i, j), acc[i, j] plus the sum over k of a[i, k] * b[k, j]
 * in k order, one fused multiply-add per k in the accumulator's compute
 * type (products of f16, bf16, fp8 and TF32 operands are exact in f32, so
 * this is the sum Triton's FMA path computes); f16 results are rounded
 * once at the end; int8 sums wrap in 32 bits. TF32: each f32 operand
 * truncated to TF32; tf32x3: a = big + small (cvt.rna), the small cross
 * products first, then big * big onto acc. The batched form ({batch=B}:
 * M is B times one batch's rows) reads row (i / (M / B)) * K + k of b. */
static void emit_dot(Host *H, const Inst *in) {
    int id = in->result;
    Type xt = operand_type(H->f, in->args[0]), yt = operand_type(H->f, in->args[1]);
    int M = xt.dims[0], K = xt.dims[1], N = yt.dims[1];
    DType ot = (DType)in->type.dtype, it = (DType)xt.dtype;
    const char *A = H->vname[in->args[0].id], *B = H->vname[in->args[1].id],
               *C = H->vname[in->args[2].id], *R = H->vname[id];
    declare_block(H, R, in->type);
    line(H, "for (int mt_i = 0; mt_i < %d; mt_i++)", M);
    H->indent++;
    line(H, "for (int mt_j = 0; mt_j < %d; mt_j++) {", N);
    H->indent++;
    const char *a = arena_printf(H->a, "%s[mt_i * %d + mt_k]", A, K);
    const char *b = arena_printf(H->a, "%s[mt_k * %d + mt_j]", B, N);
    if (in->attrs.axis > 1)
        b = arena_printf(H->a, "%s[(mt_i / %d * %d + mt_k) * %d + mt_j]", B, M / in->attrs.axis, K,
                         N);
    const char *c = arena_printf(H->a, "%s[mt_i * %d + mt_j]", C, N);
    const char *r = arena_printf(H->a, "%s[mt_i * %d + mt_j]", R, N);
    if (ot == DT_I32) {
        line(H, "uint32_t mt_s = (uint32_t)%s;", c);
        line(H, "for (int mt_k = 0; mt_k < %d; mt_k++)", K);
        line(H, "    mt_s += (uint32_t)((int32_t)%s * (int32_t)%s);", a, b);
        line(H, "%s = %s;", r, wrap(H, DT_I32, "mt_s"));
    } else if (ot == DT_F64) {
        line(H, "double mt_s = %s;", c);
        line(H, "for (int mt_k = 0; mt_k < %d; mt_k++)", K);
        line(H, "    mt_s = fma(%s, %s, mt_s);", a, b);
        line(H, "%s = mt_s;", r);
    } else if (it == DT_F32 && in->attrs.flag == DOT_TF32X3) {
        H->need_any |= NA_TF32;
        line(H, "float mt_t = 0.0f;");
        line(H, "for (int mt_k = 0; mt_k < %d; mt_k++) {", K);
        line(H, "    float mt_ab = mt_tf32_rna(%s), mt_bb = mt_tf32_rna(%s);", a, b);
        line(H, "    mt_t = fmaf(mt_tf32_trunc(%s - mt_ab), mt_bb, mt_t);", a);
        line(H, "}");
        line(H, "for (int mt_k = 0; mt_k < %d; mt_k++) {", K);
        line(H, "    float mt_ab = mt_tf32_rna(%s), mt_bb = mt_tf32_rna(%s);", a, b);
        line(H, "    mt_t = fmaf(mt_ab, mt_tf32_trunc(%s - mt_bb), mt_t);", b);
        line(H, "}");
        line(H, "float mt_s = %s + mt_t;", c);
        line(H, "for (int mt_k = 0; mt_k < %d; mt_k++)", K);
        line(H, "    mt_s = fmaf(mt_tf32_rna(%s), mt_tf32_rna(%s), mt_s);", a, b);
        line(H, "%s = mt_s;", r);
    } else {
        int tf32 = it == DT_F32 && in->attrs.flag == DOT_TF32;
        if (tf32) H->need_any |= NA_TF32;
        line(H, "float mt_s = %s;", c);
        line(H, "for (int mt_k = 0; mt_k < %d; mt_k++)", K);
        if (tf32) line(H, "    mt_s = fmaf(mt_tf32_trunc(%s), mt_tf32_trunc(%s), mt_s);", a, b);
        else line(H, "    mt_s = fmaf(%s, %s, mt_s);", a, b);
        line(H, "%s = %s;", r, ot == DT_F32 ? "mt_s" : c_round(H->a, ot, C_HOST, "mt_s"));
    }
    H->indent -= 2;
    line(H, "}");
}

/* ---- The hooks of the walker (cgen/walk.h), one per op class ---------- */

static void on_begin(void *be, const Inst *in) {
    Host *H = be;
    if (in->result >= 0) H->vname[in->result] = arena_printf(H->a, "v%d", in->result);
}

static void on_index(void *be, const Inst *in) {
    Host *H = be;
    Iter it = iter_for(H, in, in->type);
    if (in->op == OP_PROGRAM_ID) {
        H->pid_used[in->attrs.axis] = 1;
        define(H, in, &it, in->attrs.axis == 0 ? "pid_x" : in->attrs.axis == 1 ? "pid_y" : "pid_z");
    } else if (in->op == OP_NUM_PROGRAMS) {
        /* the launcher checked the grid: every dimension fits an i32 */
        H->grid_used = 1;
        define(H, in, &it, arena_printf(H->a, "(int32_t)args->mt_grid.%c", "xyz"[in->attrs.axis]));
    } else {
        const char *e = it.numel == 1 ? "0" : "mt_e";
        define(H, in, &it,
               in->attrs.start ? arena_printf(H->a, "(%s + %d)", e, in->attrs.start) : e);
    }
}

static void on_create(void *be, const Inst *in) {
    Host *H = be;
    Iter it = iter_for(H, in, in->type);
    if (in->op == OP_FULL) define(H, in, &it, opd_as(H, in->args[0], (DType)in->type.dtype, &it));
    else define(H, in, &it, c_zero((DType)in->type.dtype));
}

static void on_shape(void *be, const Inst *in) {
    Host *H = be;
    const Operand *x = in->args;
    Iter it = iter_for(H, in, in->type);
    if (in->op == OP_EXPAND_DIMS && x[0].kind == OPD_VALUE) {
        /* the same elements in the same order: a new name for the operand */
        H->vname[in->result] = H->vname[x[0].id];
    } else if (in->op == OP_EXPAND_DIMS || in->op == OP_BROADCAST) {
        define(H, in, &it, opd(H, x[0], &it));
    } else {
        emit_shape(H, in);
    }
}

/* The inline asm the host can run: reads of PTX's special registers, as
 * tl.extra.cuda's globaltimer() and smid() write them (a clock; the one
 * "SM" of the host). */
static const struct {
    const char *asm, *constraints, *expr;
    unsigned need;
} host_sregs[] = {{"mov.u64 $0, %globaltimer;", "=l", "mt_globaltimer()", NA_TIMER},
                  {"mov.u32 $0, %smid;", "=r", "0", 0}};

static int host_sreg(Host *H, const Inst *in) {
    for (size_t k = 0; k < sizeof host_sregs / sizeof host_sregs[0]; k++)
        if (in->nargs == 0 && strcmp(in->attrs.text, host_sregs[k].asm) == 0 &&
            strcmp(in->attrs.constraints, host_sregs[k].constraints) == 0) {
            Iter it = iter_for(H, in, in->type);
            H->need_any |= host_sregs[k].need;
            define(H, in, &it, host_sregs[k].expr);
            return 1;
        }
    return 0;
}

static void on_compute(void *be, const Inst *in) {
    Host *H = be;
    if (op_class(in->op) == OC_ASM && host_sreg(H, in)) return;
    if (op_class(in->op) == OC_ASM) {
        /* PTX: nothing on a CPU runs it */
        mt_error(H->ctx, in->pos,
                 "tl.inline_asm_elementwise runs PTX, which the host backend cannot run (the "
                 "CUDA backends can; leave this kernel out of the host build)");
        H->failed = 1;
        return;
    }
    if (in->type.ptr) {
        /* a pointer through a select or a hint: the host backend indexes
         * one base parameter per pointer */
        mt_error(H->ctx, in->pos, "the host backend does not support '%s' on pointers",
                 op_info(in->op)->name);
        H->failed = 1;
        return;
    }
    Iter it = iter_for(H, in, in->type);
    const char *ops[MT_MAX_OPERANDS] = {NULL, NULL, NULL};
    for (int k = 0; k < in->nargs; k++) ops[k] = opd_for(H, in, k, &it);
    const char *e = elementwise(H, in, ops);
    if (!e) {
        mt_error(H->ctx, in->pos, "the host backend cannot express '%s' on %s",
                 op_info(in->op)->name, dtype_name((DType)in->type.dtype));
        H->failed = 1;
        return;
    }
    define(H, in, &it, e);
}

static void on_pointer(void *be, const Inst *in) {
    Host *H = be;
    const Function *f = H->f;
    const Operand *x = in->args;
    int id = in->result;
    Iter it = iter_for(H, in, in->type);
    if (in->op == OP_INT_TO_PTR) {
        /* a scalar (the frontend casts no blocks to pointers): a pointer
         * variable, the base of the pointers computed from it (index 0) */
        const char *P = c_mem_type((DType)in->attrs.dtype, C_HOST);
        line(H, "%s *v%d = (%s *)(uintptr_t)%s;", P, id, P, opd(H, x[0], NULL));
        H->base[id] = f->nparams + id;
        H->vname[id] = "0";
        return;
    }
    if (in->op == OP_PTR_TO_INT) {
        const char *P = c_mem_type((DType)operand_type(f, x[0]).dtype, C_HOST);
        int b = ptr_base_of(H, x[0]);
        MT_ASSERT(b >= 0);
        line(H, "int64_t v%d = (int64_t)(uintptr_t)((%s *)%s + %s);", id, P, base_name(H, b),
             ptr_index(H, x[0], NULL));
        if (!H->uses[id]) line(H, "(void)v%d;", id);
        return;
    }
    H->base[id] = ptr_base_of(H, x[0]);
    MT_ASSERT(H->base[id] >= 0);
    if (H->base[id] < f->nparams) H->param_used[H->base[id]] = 1;
    DType ot = (DType)operand_type(f, x[1]).dtype;
    if (x[0].kind == OPD_PARAM && x[1].kind == OPD_VALUE &&
        numel(f->types[x[1].id]) == numel(in->type) && ot != DT_BOOL) {
        /* the parameter's element indexes are the offsets (of any integer dtype) */
        H->vname[id] = H->vname[x[1].id];
        return;
    }
    const char *off = opd(H, x[1], &it);
    if (x[0].kind == OPD_PARAM) define(H, in, &it, host_cast(H, ot, DT_I64, 0, off));
    else
        define(H, in, &it,
               wrap(H, DT_I64,
                    arena_printf(H->a, "%s + %s", u64(H, ptr_index(H, x[0], &it)), u64(H, off))));
}

static void on_load(void *be, const Inst *in) {
    Host *H = be;
    const Operand *x = in->args;
    Iter it = iter_for(H, in, in->type);
    DType dt = (DType)in->type.dtype;
    const char *src = c_load(H->a, dt, C_HOST, element_at(H, x[0], &it));
    if (x[1].kind == OPD_NONE || (x[1].kind == OPD_CONST && x[1].c.i)) {
        define(H, in, &it, src);
        return;
    }
    const char *other = x[2].kind == OPD_NONE ? c_zero(dt) : opd_as(H, x[2], dt, &it);
    define(H, in, &it, arena_printf(H->a, "(%s ? %s : %s)", opd(H, x[1], &it), src, other));
}

static void on_store(void *be, const Inst *in) { emit_store(be, in); }

static void on_atomic(void *be, const Inst *in) {
    Host *H = be;
    Iter it = iter_for(H, in, in->type);
    emit_atomic(H, in, &it);
}

static void on_debug(void *be, const Inst *in) {
    if (in->op == OP_PRINT) emit_print(be, in);
    else if (in->op == OP_ASSERT) emit_assert(be, in);
    /* debug_barrier: the programs of the host run one thread each */
}

static void on_reduce(void *be, const Inst *in) {
    int flat_op = in->op == OP_SUM || in->op == OP_MAX || in->op == OP_MIN;
    if (flat_op && !(in->attrs.flag & RED_AXIS)) emit_reduce(be, in);
    else emit_axis_reduce(be, in);
}

static void on_region(void *be, const Inst *in) { emit_loop(be, in); }
static void on_dot(void *be, const Inst *in) { emit_dot(be, in); }

static const CWalk host_walk = {.begin = on_begin,
                                .index = on_index,
                                .create = on_create,
                                .shape = on_shape,
                                .compute = on_compute,
                                .pointer = on_pointer,
                                .load = on_load,
                                .store = on_store,
                                .reduce = on_reduce,
                                .region = on_region,
                                .atomic = on_atomic,
                                .debug = on_debug,
                                .dot = on_dot};

static void emit_block(Host *H, const Block *b) {
    CWalk w = host_walk;
    w.be = H;
    cwalk_block(&w, b);
}

static void count_use(Operand *o, void *user) {
    int *uses = user;
    if (o->kind == OPD_VALUE) uses[o->id]++;
}

static void count_uses(const Block *b, int *uses) {
    for (int i = 0; i < b->items.len; i++)
        ssa_for_each_operand(b->items.items[i], 1, count_use, uses);
}

/* ---- The translation unit ------------------------------------------------ */

/* The helpers of one integer dtype. */
static void emit_int_helpers(StrBuf *sb, DType dt, unsigned n) {
    const char *T = c_type_in(dt, C_HOST), *nm = dtype_name(dt);
    int bits = dtype_info(dt)->bits;
    int sgn = dtype_is_signed(dt);
    if (n & N_WRAP) {
        if (bits == 64)
            sb_printf(sb,
                      "static inline int64_t mt_wrap_i64(uint64_t x) {\n"
                      "    return x <= 0x7fffffffffffffffu ? (int64_t)x : (int64_t)(x - "
                      "0x8000000000000000u) - INT64_MAX - 1;\n}\n");
        else
            sb_printf(sb,
                      "static inline %s mt_wrap_%s(uint64_t x) {\n    x &= 0x%llxu;\n"
                      "    return x < 0x%llxu ? (%s)x : (%s)((int64_t)x - 0x%llx);\n}\n",
                      T, nm, (1ull << bits) - 1, 1ull << (bits - 1), T, T, 1ull << bits);
    }
    if (n & N_DIV) {
        if (sgn)
            sb_printf(sb,
                      "static inline %s mt_div_%s(%s a, %s b) {\n"
                      "    return b == 0 ? -1 : b == -1 ? mt_wrap_%s(0u - (uint64_t)a) : (%s)(a / "
                      "b);\n}\n",
                      T, nm, T, T, nm, T);
        else
            sb_printf(
                sb,
                "static inline %s mt_div_%s(%s a, %s b) { return b == 0 ? (%s)-1 : (%s)(a / b); "
                "}\n",
                T, nm, T, T, T, T);
    }
    if (n & N_MOD) {
        if (sgn)
            sb_printf(
                sb,
                "static inline %s mt_mod_%s(%s a, %s b) { return b == 0 ? a : b == -1 ? 0 : (%s)(a "
                "%% b); }\n",
                T, nm, T, T, T);
        else
            sb_printf(
                sb,
                "static inline %s mt_mod_%s(%s a, %s b) { return b == 0 ? a : (%s)(a %% b); }\n", T,
                nm, T, T, T);
    }
    if (n & N_SHL) {
        if (sgn)
            sb_printf(
                sb,
                "static inline %s mt_shl_%s(%s a, %s b) {\n    return (uint64_t)b >= %d ? 0 : "
                "mt_wrap_%s((uint64_t)a << b);\n}\n",
                T, nm, T, T, bits, nm);
        else
            sb_printf(
                sb,
                "static inline %s mt_shl_%s(%s a, %s b) {\n    return (uint64_t)b >= %d ? 0 : "
                "(%s)((uint64_t)a << b);\n}\n",
                T, nm, T, T, bits, T);
    }
    if (n & N_SHR) {
        if (sgn)
            sb_printf(sb,
                      "static inline %s mt_shr_%s(%s a, %s b) {\n"
                      "    if ((uint64_t)b >= %d) return a < 0 ? -1 : 0;\n"
                      "    return a < 0 ? (%s)~(~a >> b) : (%s)(a >> b);\n}\n",
                      T, nm, T, T, bits, T, T);
        else
            sb_printf(
                sb,
                "static inline %s mt_shr_%s(%s a, %s b) { return (uint64_t)b >= %d ? 0 : (%s)(a >> "
                "b); }\n",
                T, nm, T, T, bits, T);
    }
}

static void emit_helpers(StrBuf *sb, const Host *H) {
    int any = H->need_any != 0;
    for (int d = 0; d < DT_COUNT; d++) any |= H->need[d] != 0;
    if (!any) return;
    int ints = (H->need_any & NA_ODD) != 0;
    for (int d = 0; d < DT_COUNT; d++) ints |= H->need[d] != 0;
    if (ints)
        sb_puts(sb,
                "/* Integer arithmetic wraps as on the GPU, without undefined behaviour:\n"
                " * x // 0 is all ones, x % 0 is x, shifts by the width or more give 0\n"
                " * (-1 for '>>' of a negative value). */\n");
    for (int d = 0; d < DT_COUNT; d++)
        if (H->need[d]) emit_int_helpers(sb, (DType)d, H->need[d]);
    if (H->need_any & NA_ODD)
        sb_puts(sb,
                "/* A 64-bit integer as a double rounded to odd: one more rounding to a\n"
                " * 16-bit float then rounds as the integer itself would. */\n"
                "static inline double mt_odd_double(uint64_t m) {\n"
                "    int e = 0;\n"
                "    while (m >> 53) m = (m >> 1) | (m & 1u), e++;\n"
                "    return ldexp((double)m, e);\n}\n");
    if (H->need_any & NA_TF32)
        sb_puts(sb,
                "/* TF32 (tl.dot): the tensor cores read the upper 19 bits of an f32\n"
                " * (truncation); tf32x3 splits with cvt.rna.tf32.f32 (to nearest, ties\n"
                " * away from zero). NaN and infinities pass unchanged. */\n"
                "static inline float mt_tf32_trunc(float x) {\n"
                "    union { float f; uint32_t u; } v = {x};\n"
                "    if ((v.u & 0x7f800000u) == 0x7f800000u) return x;\n"
                "    v.u &= 0xffffe000u;\n"
                "    return v.f;\n}\n"
                "static inline float mt_tf32_rna(float x) {\n"
                "    union { float f; uint32_t u; } v = {x};\n"
                "    if ((v.u & 0x7f800000u) == 0x7f800000u) return x;\n"
                "    v.u = (v.u + 0x1000u) & 0xffffe000u;\n"
                "    return v.f;\n}\n");
    if (H->need_any & NA_TIMER)
        sb_puts(sb,
                "/* %globaltimer: nanoseconds of a clock, monotonic where C has one. */\n"
                "static inline int64_t mt_globaltimer(void) {\n"
                "    struct timespec ts;\n"
                "#ifdef TIME_MONOTONIC\n"
                "    timespec_get(&ts, TIME_MONOTONIC);\n"
                "#else\n"
                "    timespec_get(&ts, TIME_UTC);\n"
                "#endif\n"
                "    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;\n}\n");
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
    sb_printf(&sb, "/* Generated by %s from %s (kernel %s). Do not edit. */\n", VERSION_LINE,
              s->source, s->kernel);
    sb_puts(&sb,
            "/* Host (CPU) backend: each program of the grid runs as one call of the\n"
            " * program function; a block value is an array of its elements. */\n");
    sb_puts(&sb, "#include <math.h>\n#include <stdbool.h>\n#include <stdint.h>\n");
    if (H.stdio) sb_puts(&sb, "#include <stdio.h>\n");
    if (arena_needed || H.aborts) sb_puts(&sb, "#include <stdlib.h>\n");
    if (H.need_any & NA_TIMER) sb_puts(&sb, "#include <time.h>\n");
    sb_putc(&sb, '\n');
    sb_puts(&sb, "#include \"mytriton/runtime.h\"\n");
    if (H.atomics) sb_puts(&sb, "#include \"mytriton/atomic.h\"\n");
    sb_printf(&sb, "#include \"%s.h\"\n\n", name);
    emit_helpers(&sb, &H);

    /* the arguments of one launch */
    sb_printf(&sb, "struct %s_args {\n", name);
    int members = 0;
    for (int i = 0; i < f->nparams; i++, members++)
        sb_printf(&sb, "    %s;\n", decl(a, param_ctype(a, s, i), s->pnames[i]));
    if (H.grid_used) sb_puts(&sb, "    mytriton_grid mt_grid; /* tl.num_programs */\n"), members++;
    if (arena_needed)
        sb_puts(
            &sb,
            "    _Atomic int *mt_failed; /* set by a program that cannot allocate its blocks */\n"),
            members++;
    if (!members) sb_puts(&sb, "    char mt_unused;\n");
    sb_puts(&sb, "};\n\n");
    if (arena_needed) {
        sb_printf(&sb, "/* The block values of one program. */\nstruct %s_blocks {\n", name);
        sb_puts(&sb, sb_str(&H.blocks));
        sb_puts(&sb, "};\n\n");
    }

    /* the program */
    sb_printf(&sb,
              "static void %s(const void *ctx, int32_t pid_x, int32_t pid_y, int32_t pid_z) {\n",
              program);
    int any_param = 0;
    for (int i = 0; i < f->nparams; i++) any_param |= H.param_used[i];
    if (any_param || arena_needed || H.grid_used)
        sb_printf(&sb, "    const struct %s_args *args = (const struct %s_args *)ctx;\n", name,
                  name);
    else sb_puts(&sb, "    (void)ctx;\n");
    for (int i = 0; i < f->nparams; i++)
        if (H.param_used[i])
            sb_printf(&sb, "    %s = args->%s;\n", decl(a, param_ctype(a, s, i), s->pnames[i]),
                      s->pnames[i]);
    for (int d = 0; d < 3; d++)
        if (!H.pid_used[d]) sb_printf(&sb, "    (void)pid_%c;\n", "xyz"[d]);
    if (arena_needed) {
        sb_printf(
            &sb,
            "    struct %s_blocks *mt_b = (struct %s_blocks *)malloc(sizeof(struct %s_blocks));\n",
            name, name, name);
        sb_puts(&sb,
                "    if (mt_b == NULL) {\n        *args->mt_failed = 1;\n        return;\n    }\n");
    }
    sb_puts(&sb, sb_str(&body));
    if (arena_needed) sb_puts(&sb, "    free(mt_b);\n");
    sb_puts(&sb, "}\n\n");

    /* the launcher */
    sb_printf(&sb, "mytriton_status %s(%s) {\n", launcher, launcher_params(a, s, 0));
    emit_grid_prologue(&sb, a, s, launcher, "MYTRITON_INVALID_VALUE", "MYTRITON_SUCCESS");
    sb_printf(&sb, "    struct %s_args args;\n", name);
    for (int i = 0; i < f->nparams; i++)
        sb_printf(&sb, "    args.%s = %s;\n", s->pnames[i], s->pnames[i]);
    if (H.grid_used) sb_puts(&sb, "    args.mt_grid = grid;\n");
    if (arena_needed)
        sb_puts(&sb, "    _Atomic int mt_failed = 0;\n    args.mt_failed = &mt_failed;\n");
    if (!members) sb_puts(&sb, "    args.mt_unused = 0;\n");
    sb_printf(&sb, "    int status = mytriton_host_run(&grid, %s, &args);\n", program);
    sb_puts(&sb, "    if (status != MYTRITON_SUCCESS) return (mytriton_status)status;\n");
    if (arena_needed) {
        sb_puts(&sb, "    if (mt_failed) {\n");
        sb_printf(
            &sb,
            "        mytriton_set_last_error(\"%s: out of memory for the block values of a program "
            "(%%zu bytes)\",\n"
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
