/* Type rules and constants. Every rule lives in op_result_type(), the one
 * place the frontend and the verifier ask. */
#include "ir/types.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Type type_scalar(DType dt) {
    Type t = {0};
    t.dtype = (uint8_t)dt;
    return t;
}

Type type_ptr(DType pointee) {
    Type t = type_scalar(pointee);
    t.ptr = 1;
    return t;
}

Type type_with_shape(Type elem, int rank, const int32_t *dims) {
    Type t = elem;
    t.rank = (uint8_t)rank;
    for (int i = 0; i < MT_MAX_RANK; i++) t.dims[i] = i < rank ? dims[i] : 0;
    return t;
}

Type type_elem(Type t) { return type_with_shape(t, 0, NULL); }

int type_eq(Type a, Type b) {
    if (a.dtype != b.dtype || a.ptr != b.ptr || a.rank != b.rank) return 0;
    for (int i = 0; i < a.rank; i++)
        if (a.dims[i] != b.dims[i]) return 0;
    return 1;
}

int64_t type_numel(Type t) {
    int64_t n = 1;
    for (int i = 0; i < t.rank; i++) n *= t.dims[i];
    return n;
}

int type_is_numeric(Type t) { return !t.ptr && t.dtype != DT_NONE; }

const DTypeInfo dtype_table[DT_COUNT] = {
    [DT_NONE] = {"none", "none", "none", DC_NONE, 0, 0, 0, DT_NONE, "void", "{0}", "{0}", "void",
                 "{0}", "{0}", "void", "none", "NONE"},
#define DT(id, triton, sig, ssa, cls, bits, mant, flags, compute, cuda, cl, cs, host, hl, hs, \
           header, mlir, arg)                                                                 \
    [DT_##id] = {triton, sig, ssa,  cls, bits, mant,   flags, DT_##compute, cuda,             \
                 cl,     cs,  host, hl,  hs,   header, mlir,  arg},
#include "base/dtypes.def"
#undef DT
};

static DType dtype_by(const char *name, size_t field) {
    if (!name) return DT_NONE;
    for (int d = 1; d < DT_COUNT; d++) {
        const char *v = *(const char *const *)((const char *)&dtype_table[d] + field);
        if (strcmp(v, name) == 0) return (DType)d;
    }
    return DT_NONE;
}
DType dtype_by_triton(const char *name) { return dtype_by(name, offsetof(DTypeInfo, triton)); }
DType dtype_by_sig(const char *name) { return dtype_by(name, offsetof(DTypeInfo, sig)); }
DType dtype_by_ssa(const char *name) { return dtype_by(name, offsetof(DTypeInfo, ssa)); }

int64_t dtype_int_min(DType dt) {
    const DTypeInfo *d = dtype_info(dt);
    if (d->cls != DC_SINT) return 0;
    return d->bits >= 64 ? INT64_MIN : -((int64_t)1 << (d->bits - 1));
}

uint64_t dtype_int_max(DType dt) {
    const DTypeInfo *d = dtype_info(dt);
    if (d->cls == DC_BOOL) return 1;
    int b = d->cls == DC_SINT ? d->bits - 1 : d->bits;
    return b >= 64 ? UINT64_MAX : ((uint64_t)1 << b) - 1;
}

const char *dtype_name(DType dt) { return dt < DT_COUNT ? dtype_table[dt].ssa : "none"; }

static void elem_str(char *buf, size_t n, Type t) {
    if (t.ptr) snprintf(buf, n, "ptr<%s>", dtype_name(t.dtype));
    else snprintf(buf, n, "%s", dtype_name(t.dtype));
}

const char *type_str(Arena *a, Type t) {
    char e[32];
    elem_str(e, sizeof e, t);
    if (t.rank == 0) return arena_strdup(a, e);
    if (t.rank == 1) return arena_printf(a, "vector<%d x %s>", (int)t.dims[0], e);
    StrBuf sb;
    sb_init(&sb, a);
    sb_puts(&sb, "block<");
    for (int i = 0; i < t.rank; i++) sb_printf(&sb, "%s%d", i ? "x" : "", (int)t.dims[i]);
    sb_printf(&sb, " x %s>", e);
    return sb_str(&sb);
}

const char *shape_str(Arena *a, Type t) {
    if (t.rank == 0) return "()";
    if (t.rank == 1) return arena_printf(a, "(%d,)", (int)t.dims[0]);
    StrBuf sb;
    sb_init(&sb, a);
    for (int i = 0; i < t.rank; i++) sb_printf(&sb, "%s%d", i ? ", " : "(", (int)t.dims[i]);
    sb_putc(&sb, ')');
    return sb_str(&sb);
}

int shape_broadcast(Type a, Type b, Type *out) {
    int rank = a.rank > b.rank ? a.rank : b.rank;
    int32_t dims[MT_MAX_RANK] = {0};
    for (int i = 0; i < rank; i++) {
        /* align from the right */
        int ia = a.rank - rank + i, ib = b.rank - rank + i;
        int32_t da = ia >= 0 ? a.dims[ia] : 1, db = ib >= 0 ? b.dims[ib] : 1;
        if (da != db && da != 1 && db != 1) return 0;
        dims[i] = da == 1 ? db : da;
    }
    *out = type_with_shape(type_scalar(DT_NONE), rank, dims);
    return 1;
}

/* ---- Constants ----------------------------------------------------------- */

ConstVal const_int(DType dt, int64_t v) {
    ConstVal c = {dt, 0, 0};
    const DTypeInfo *d = dtype_info(dt);
    if (d->cls == DC_BOOL) {
        c.i = v != 0;
    } else if (d->bits >= 64) {
        c.i = v;
    } else {
        uint64_t mask = ((uint64_t)1 << d->bits) - 1, u = (uint64_t)v & mask;
        if (d->cls == DC_SINT && (u >> (d->bits - 1))) u |= ~mask; /* sign-extend */
        memcpy(&c.i, &u, sizeof u);
    }
    return c;
}

/* Rounds to a binary format of `mant` mantissa bits and exponent range
 * [emin, emax] (normal numbers), with subnormals, to nearest even. */
static double round_format(double v, int mant, int emin, int emax, int has_inf) {
    if (!isfinite(v) || v == 0) return v;
    int e;
    frexp(v, &e); /* v = m * 2^e, 0.5 <= |m| < 1: the leading bit is 2^(e-1) */
    int lead = e - 1;
    if (lead < emin) lead = emin; /* subnormal: fixed quantum */
    double quantum = ldexp(1.0, lead - mant);
    double r = nearbyint(v / quantum) * quantum; /* the default rounding mode: nearest even */
    double maxv = ldexp(2.0 - ldexp(1.0, -mant), emax);
    if (!has_inf) { /* fp8e4nv: the top mantissa pattern of the top exponent is NaN */
        maxv = ldexp(2.0 - ldexp(1.0, 1 - mant), emax);
        if (fabs(r) > maxv) return copysign(maxv, v); /* saturates, as satfinite */
        return r;
    }
    if (fabs(r) > maxv) return copysign(INFINITY, v);
    return r;
}

double round_to_dtype(double v, DType dt) {
    switch (dt) { /* every dtype: a new float dtype must say how it rounds */
    case DT_F64: return v;
    case DT_F32: return (double)(float)v;
    case DT_F16: return round_format(v, 10, -14, 15, 1);
    case DT_BF16: return round_format(v, 7, -126, 127, 1);
    case DT_F8E4NV: /* satfinite: infinities and overflow saturate */
        if (isnan(v)) return v;
        return fmax(-448.0, fmin(448.0, round_format(v, 3, -6, 8, 0)));
    case DT_F8E5: /* satfinite, as the GPU's conversion: overflow saturates */
        if (isnan(v)) return v;
        return fmax(-57344.0, fmin(57344.0, round_format(v, 2, -14, 15, 1)));
    case DT_NONE:
    case DT_BOOL:
    case DT_I8:
    case DT_I16:
    case DT_I32:
    case DT_I64:
    case DT_U8:
    case DT_U16:
    case DT_U32:
    case DT_U64:
    case DT_COUNT: break;
    }
    return v;
}

ConstVal const_float(DType dt, double v) {
    ConstVal c = {dt, 0, round_to_dtype(v, dt)};
    return c;
}

ConstVal const_i32(int64_t v) { return const_int(DT_I32, v); }
ConstVal const_f32(double v) {
    ConstVal c = {DT_F32, 0, v};
    return c;
}
ConstVal const_bool(int v) {
    ConstVal c = {DT_BOOL, v ? 1 : 0, 0};
    return c;
}

DType const_int_dtype(int64_t v, int is_unsigned_big) {
    if (is_unsigned_big) return DT_U64;
    if (v >= INT32_MIN && v <= INT32_MAX) return DT_I32;
    if (v > INT32_MAX && v <= (int64_t)UINT32_MAX) return DT_U32;
    return DT_I64;
}

DType const_float_dtype(double v) {
    double x = fabs(v);
    if (isinf(x) || x == 0 || isnan(v) || (x >= ldexp(1.0, -126) && x <= (double)FLT_MAX))
        return DT_F32;
    return DT_F64;
}

int const_eq(ConstVal a, ConstVal b) {
    if (a.dt != b.dt) return 0;
    if (dtype_is_float(a.dt)) return memcmp(&a.f, &b.f, sizeof a.f) == 0;
    return a.i == b.i;
}

double const_as_double(ConstVal c) {
    if (dtype_is_float(c.dt)) return c.f;
    if (dtype_is_unsigned(c.dt)) return (double)(uint64_t)c.i;
    return (double)c.i;
}

/* Float to integer as the GPU converts for Triton (cvt.rzi): truncation,
 * saturating at the destination's limits, NaN to 0 (to i64: INT64_MIN);
 * 8-bit destinations convert to 16 bits and then wrap. */
static int64_t float_to_int(double v, DType to) {
    if (dtype_info(to)->bits == 8) to = dtype_is_unsigned(to) ? DT_U16 : DT_I16;
    if (isnan(v)) return to == DT_I64 ? INT64_MIN : to == DT_U64 ? INT64_MIN /* 2^63 */ : 0;
    double t = trunc(v);
    if (dtype_is_unsigned(to)) {
        if (t <= 0) return 0;
        double maxv = (double)dtype_int_max(to);
        if (t >= maxv) return (int64_t)dtype_int_max(to);
        return (int64_t)(uint64_t)t;
    }
    double lo = (double)dtype_int_min(to), hi = (double)(int64_t)dtype_int_max(to);
    if (t <= lo) return dtype_int_min(to);
    if (t >= hi) return (int64_t)dtype_int_max(to);
    return (int64_t)t;
}

ConstVal const_convert(ConstVal c, DType to) {
    if (c.dt == to) return c;
    if (to == DT_BOOL) return const_bool(dtype_is_float(c.dt) ? c.f != 0 : c.i != 0);
    if (dtype_is_float(to)) {
        if (dtype_is_float(c.dt)) return const_float(to, c.f);
        if (dtype_is_unsigned(c.dt)) {
            /* one rounding from the exact integer (doubles hold 53 bits) */
            uint64_t u = (uint64_t)c.i;
            if (to == DT_F32) return const_float(to, (double)(float)u);
            return const_float(to, (double)u);
        }
        if (to == DT_F32) return const_float(to, (double)(float)c.i);
        return const_float(to, (double)c.i);
    }
    if (dtype_is_float(c.dt)) return const_int(to, float_to_int(c.f, to));
    return const_int(to, c.i); /* integer to integer: wraps (bool is 0/1) */
}

void py_float_repr(double v, char *buf) {
    if (isnan(v)) {
        strcpy(buf, "nan");
        return;
    }
    if (isinf(v)) {
        strcpy(buf, v < 0 ? "-inf" : "inf");
        return;
    }
    if (v == 0) {
        strcpy(buf, signbit(v) ? "-0.0" : "0.0");
        return;
    }
    char tmp[40];
    int prec;
    for (prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*e", prec - 1, v);
        if (strtod(tmp, NULL) == v) break;
    }
    /* tmp: [-]d[.ddd]e[+-]XX */
    char digits[24];
    int nd = 0, neg = 0;
    const char *p = tmp;
    if (*p == '-') neg = 1, p++;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9') digits[nd++] = *p;
    digits[nd] = 0;
    int exp10 = atoi(p + 1);
    while (nd > 1 && digits[nd - 1] == '0') digits[--nd] = 0;
    char *o = buf;
    if (neg) *o++ = '-';
    if (exp10 >= -4 && exp10 < 16) {
        if (exp10 < 0) {
            *o++ = '0';
            *o++ = '.';
            for (int i = 0; i < -exp10 - 1; i++) *o++ = '0';
            for (int i = 0; i < nd; i++) *o++ = digits[i];
        } else {
            for (int i = 0; i <= exp10; i++) *o++ = i < nd ? digits[i] : '0';
            *o++ = '.';
            if (nd > exp10 + 1)
                for (int i = exp10 + 1; i < nd; i++) *o++ = digits[i];
            else *o++ = '0';
        }
        *o = 0;
    } else {
        *o++ = digits[0];
        if (nd > 1) {
            *o++ = '.';
            for (int i = 1; i < nd; i++) *o++ = digits[i];
        }
        sprintf(o, "e%c%02d", exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
    }
}

const char *const_repr(Arena *a, ConstVal c) {
    if (c.dt == DT_BOOL) return c.i ? "True" : "False";
    if (c.dt == DT_NONE) return "none";
    if (dtype_is_float(c.dt)) {
        char buf[40];
        py_float_repr(c.f, buf);
        return arena_strdup(a, buf);
    }
    if (dtype_is_unsigned(c.dt)) return arena_printf(a, "%llu", (unsigned long long)(uint64_t)c.i);
    return arena_printf(a, "%lld", (long long)c.i);
}

int dtype_convertible(DType from, DType to) {
    return from != DT_NONE && to != DT_NONE && from < DT_COUNT && to < DT_COUNT;
}

/* Triton's dtype.kind() for rule 0: bool < integral < floating. */
static int dtype_kind(DType dt) {
    switch (dtype_info(dt)->cls) {
    case DC_BOOL: return 0;
    case DC_UINT:
    case DC_SINT: return 1;
    case DC_FLOAT: return 2;
    case DC_NONE: break;
    }
    return -1;
}

DType integer_promote(DType x, DType y) {
    const DTypeInfo *a = dtype_info(x), *b = dtype_info(y);
    int ua = a->cls == DC_UINT, ub = b->cls == DC_UINT;
    if (ua == ub) return a->bits > b->bits ? x : y;
    if (ua) return a->bits >= b->bits ? x : y;
    return b->bits >= a->bits ? y : x;
}

DType promote_dtypes(Arena *a, DType x, int x_weak, DType y, int y_weak, int div_or_mod,
                     const char **err) {
    if (x_weak != y_weak) {
        DType scalar = x_weak ? x : y, tensor = x_weak ? y : x;
        if (dtype_kind(scalar) <= dtype_kind(tensor)) {
            if (div_or_mod && (tensor == DT_F16 || tensor == DT_BF16)) return DT_F32;
            return tensor;
        }
    }
    if (x == DT_F64 || y == DT_F64) return DT_F64;
    if (x == DT_F32 || y == DT_F32) return DT_F32;
    if (x == DT_F16 || y == DT_F16) return div_or_mod ? DT_F32 : DT_F16;
    if (x == DT_BF16 && y == DT_BF16) return div_or_mod ? DT_F32 : DT_BF16;
    if (x == DT_BF16 || y == DT_BF16) return DT_F32;
    if (dtype_is_fp8(x) && dtype_is_fp8(y)) return x == y ? x : DT_F16;
    if (!dtype_is_int(x) || !dtype_is_int(y)) {
        *err = arena_printf(a, "no common type of %s and %s", dtype_name(x), dtype_name(y));
        return DT_NONE;
    }
    /* Triton's int1 counts as unsigned here */
    if (div_or_mod &&
        (dtype_is_unsigned(x) || x == DT_BOOL) != (dtype_is_unsigned(y) || y == DT_BOOL)) {
        *err = arena_printf(
            a,
            "%s and %s have different signedness (cast them to the same signedness first, as "
            "Triton requires)",
            dtype_name(x), dtype_name(y));
        return DT_NONE;
    }
    return integer_promote(x, y);
}

int dtype_implicit(DType from, DType to) {
    return from == to || ((from == DT_I32 || from == DT_BOOL) && to == DT_F32);
}

const char *broadcast_error(Arena *a, const char *name, Type x, int rank, const int32_t *shape) {
    if (x.rank == 0) return NULL;
    const char *to = shape_str(a, type_with_shape(x, rank, shape));
    if (x.rank != rank)
        return arena_printf(a, "%s cannot broadcast %s to %s: the ranks differ", name,
                            type_str(a, x), to);
    for (int i = 0; i < x.rank; i++)
        if (x.dims[i] != 1 && x.dims[i] != shape[i])
            return arena_printf(a, "%s cannot broadcast %s to %s: dimension %d is %d, not 1 or %d",
                                name, type_str(a, x), to, i, (int)x.dims[i], (int)shape[i]);
    return NULL;
}

#define FAIL(...)                            \
    do {                                     \
        *err = arena_printf(a, __VA_ARGS__); \
        return 0;                            \
    } while (0)

static int broadcast_or_fail(Arena *a, const char *name, const Type *args, const uint8_t *flags,
                             int n, Type *shape, const char **err) {
    Type s = type_scalar(DT_NONE);
    for (int i = 0; i < n; i++) {
        if (!(flags[i] & ARG_PRESENT)) continue;
        Type next;
        if (!shape_broadcast(s, args[i], &next)) {
            StrBuf sb;
            sb_init(&sb, a);
            sb_printf(&sb, "cannot broadcast the operand shapes of %s:", name);
            int first = 1;
            for (int k = 0; k < n; k++)
                if (flags[k] & ARG_PRESENT)
                    sb_printf(&sb, "%s%s", first ? " " : " and ", shape_str(a, args[k])), first = 0;
            *err = sb_str(&sb);
            return 0;
        }
        s = next;
    }
    /* every operand is within the limit, their broadcast may not be */
    long long numel = 1;
    for (int i = 0; i < s.rank; i++) numel *= s.dims[i];
    if (numel > MT_MAX_NUMEL)
        FAIL("the operands of %s broadcast to %s, %lld elements, more than the limit of %d", name,
             shape_str(a, s), numel, MT_MAX_NUMEL);
    *shape = s;
    return 1;
}

static Type shaped(DType dt, Type shape) {
    return type_with_shape(type_scalar(dt), shape.rank, shape.dims);
}

/* The computation type of operands 0 and 1 and a check that each one
 * reaches it without a cast the frontend should have made. */
static int computation(Arena *a, const char *name, const Type *args, const uint8_t *flags,
                       int div_or_mod, DType *out, const char **err) {
    for (int i = 0; i < 2; i++)
        if (!type_is_numeric(args[i]))
            FAIL("%s needs numbers (got %s and %s)", name, type_str(a, args[0]),
                 type_str(a, args[1]));
    const char *why = NULL;
    DType ct = promote_dtypes(a, (DType)args[0].dtype, (flags[0] & ARG_WEAK) != 0,
                              (DType)args[1].dtype, (flags[1] & ARG_WEAK) != 0, div_or_mod, &why);
    if (ct == DT_NONE) FAIL("%s: %s", name, why);
    for (int i = 0; i < 2; i++)
        if (!(flags[i] & ARG_WEAK) && !dtype_implicit((DType)args[i].dtype, ct))
            FAIL("%s computes in %s but operand %d is %s (a cast is missing)", name, dtype_name(ct),
                 i, type_str(a, args[i]));
    *out = ct;
    return 1;
}

int op_result_type(Arena *a, Op op, const Type *args, const int *present, const Attrs *at,
                   Type *out, const char **err) {
    return op_result_type_named(a, op, NULL, args, present, at, out, err);
}

int op_result_type_named(Arena *a, Op op, const char *display, const Type *args, const int *present,
                         const Attrs *at, Type *out, const char **err) {
    uint8_t flags[MT_MAX_OPERANDS] = {0};
    for (int i = 0; i < 3; i++) flags[i] = (!present || present[i]) ? ARG_PRESENT : 0;
    return op_result_type_ex(a, op, display, args, flags, at, out, err);
}

/* tl.dot (Triton's semantic.dot): (M, K) x (K, N) + (M, N). Operands of
 * one dtype among i8, f16, bf16, f32, f64, or two fp8 dtypes (any pair);
 * the accumulator: i32 for i8, f32 for f32 and bf16, f64 for f64, f16 or
 * f32 for f16 and fp8. M, N, K powers of two, M, N >= 16, K >= 16 (32 for
 * 8-bit operands), as Triton's NVIDIA backend (min_dot_size). */
static int dot_result_type(Arena *a, const char *name, const Type *args, const Attrs *at, Type *out,
                           const char **err) {
    Type x = args[0], y = args[1], c = args[2];
    if (x.ptr || y.ptr || c.ptr || x.rank < 2 || x.rank > 3 || y.rank != x.rank || c.rank != x.rank)
        FAIL(
            "%s needs two blocks and an accumulator, all of rank 2 or all of rank 3 (got %s, %s "
            "and %s)",
            name, type_str(a, x), type_str(a, y), type_str(a, c));
    int o = x.rank - 2; /* rank 3: the batch axis first */
    if (o && (y.dims[0] != x.dims[0] || c.dims[0] != x.dims[0]))
        FAIL("%s: the batch dimensions of %s, %s and %s differ", name, shape_str(a, x),
             shape_str(a, y), shape_str(a, c));
    DType dx = (DType)x.dtype, dy = (DType)y.dtype, dc = (DType)c.dtype;
    int fp8x = dtype_is_fp8(dx), fp8y = dtype_is_fp8(dy);
    DType want = DT_NONE;
    if (fp8x && fp8y) want = (dc == DT_F16) ? DT_F16 : DT_F32;
    else if (dx != dy)
        FAIL("%s needs operands of one dtype (got %s and %s)", name, dtype_name(dx),
             dtype_name(dy));
    else if (dx == DT_I8) want = DT_I32;
    else if (dx == DT_F32 || dx == DT_BF16) want = DT_F32;
    else if (dx == DT_F64) want = DT_F64;
    else if (dx == DT_F16) want = (dc == DT_F16) ? DT_F16 : DT_F32;
    else
        FAIL("%s does not take %s operands (int8, float16, bfloat16, float32, float64 or fp8)",
             name, dtype_name(dx));
    if (dc != want)
        FAIL("%s of %s operands accumulates in %s (got a %s accumulator)", name, dtype_name(dx),
             dtype_name(want), dtype_name(dc));
    int32_t M = x.dims[o], K = x.dims[o + 1], N = y.dims[o + 1];
    /* the rank lowering's batched form (rank.c): rank-2 operands (B*M, K),
     * (B*K, N) and (B*M, N) with {batch=B} */
    int32_t B = at->axis > 1 ? at->axis : 1;
    if (B > 1 && (o || M % B || y.dims[0] % B || c.dims[0] % B))
        FAIL("%s {batch=%d} needs rank-2 operands whose rows hold %d batches (got %s, %s and %s)",
             name, (int)B, (int)B, shape_str(a, x), shape_str(a, y), shape_str(a, c));
    if (B > 1) {
        M /= B;
        if (y.dims[0] / B != K)
            FAIL("%s {batch=%d}: the shapes %s and %s are not compatible for a batched product",
                 name, (int)B, shape_str(a, x), shape_str(a, y));
        if (c.dims[0] / B != M || c.dims[1] != N)
            FAIL("%s {batch=%d}: the accumulator has shape %s, the product (%d, %d)", name, (int)B,
                 shape_str(a, c), (int)(B * M), (int)N);
    } else {
        if (y.dims[o] != K)
            FAIL("%s: the shapes %s and %s are not compatible for a matrix product (K: %d and %d)",
                 name, shape_str(a, x), shape_str(a, y), (int)K, (int)y.dims[o]);
        if (c.dims[o] != M || c.dims[o + 1] != N)
            FAIL("%s: the accumulator has shape %s, the product (%d, %d)", name, shape_str(a, c),
                 (int)M, (int)N);
    }
    int kmin = dtype_info(dx)->bits == 8 ? 32 : 16;
    if (M < 16 || N < 16 || K < kmin)
        FAIL("%s needs M >= 16, N >= 16 and K >= %d (got M=%d, N=%d, K=%d)", name, kmin, (int)M,
             (int)N, (int)K);
    if ((M & (M - 1)) || (N & (N - 1)) || (K & (K - 1)))
        FAIL("%s needs power-of-two M, N and K (got M=%d, N=%d, K=%d)", name, (int)M, (int)N,
             (int)K);
    if (at->flag < DOT_TF32 || at->flag > DOT_TF32X3)
        FAIL("%s: input_precision must be tf32, tf32x3 or ieee", name);
    *out = c;
    return 1;
}

/* A type rule's question: the op, the name its messages use, its operands
 * (flags: ARG_*) and attributes. Each rule below answers it for one rule
 * class of the op table (TypeRule) or, for TR_SPECIAL, one op class. */
typedef struct Query {
    Arena *a;
    Op op;
    const char *name;
    const Type *args;
    const uint8_t *flags;
    const Attrs *at;
} Query;

typedef int (*RuleFn)(const Query *q, Type *out, const char **err);

/* ---- The rules of the elementwise ops (ops.def's rule column) ---------- */

static int rule_unary_num(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    if (!type_is_numeric(q->args[0]))
        FAIL("%s needs a number (got %s)", q->name, type_str(a, q->args[0]));
    *out = q->args[0];
    return 1;
}

static int rule_unary_float(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const Type *args = q->args;
    if (args[0].ptr || (args[0].dtype != DT_F32 && args[0].dtype != DT_F64))
        FAIL(
            "%s needs an f32 or f64 operand, as Triton's math functions (got %s; convert with "
            ".to(tl.float32))",
            q->name, type_str(a, args[0]));
    *out = args[0];
    return 1;
}

static int rule_unary_f32(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const Type *args = q->args;
    if (args[0].ptr || args[0].dtype != DT_F32)
        FAIL("%s needs an f32 operand, as Triton (got %s)", q->name, type_str(a, args[0]));
    *out = args[0];
    return 1;
}

/* The broadcast shape of the first n operands, the result of dtype dt. */
static int shaped_result(const Query *q, int n, DType dt, Type *out, const char **err) {
    Type shape;
    if (!broadcast_or_fail(q->a, q->name, q->args, q->flags, n, &shape, err)) return 0;
    *out = shaped(dt, shape);
    return 1;
}

static int rule_div_f32(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const Type *args = q->args;
    for (int i = 0; i < 2; i++)
        if (args[i].ptr || args[i].dtype != DT_F32)
            FAIL("%s needs two f32 operands, as Triton (got %s and %s)", q->name,
                 type_str(a, args[0]), type_str(a, args[1]));
    return shaped_result(q, 2, DT_F32, out, err);
}

/* TR_ARITH and TR_CMP: the computation type, bool for a comparison. */
static int rule_arith(const Query *q, Type *out, const char **err) {
    DType ct;
    if (!computation(q->a, q->name, q->args, q->flags, 0, &ct, err)) return 0;
    return shaped_result(q, 2, op_info(q->op)->rule == TR_CMP ? DT_BOOL : ct, out, err);
}

static int rule_div(const Query *q, Type *out, const char **err) {
    DType ct;
    if (!computation(q->a, q->name, q->args, q->flags, 1, &ct, err)) return 0;
    return shaped_result(q, 2, dtype_is_float(ct) ? ct : DT_F32, out, err);
}

/* TR_DIVMOD and TR_INT_DIVMOD ('%' and '//'). */
static int rule_divmod(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    DType ct;
    if (!computation(a, q->name, q->args, q->flags, 1, &ct, err)) return 0;
    if (op_info(q->op)->rule == TR_INT_DIVMOD && !dtype_is_int(ct))
        FAIL("%s needs integers (got %s and %s; Triton has no '//' on floats)", q->name,
             type_str(a, q->args[0]), type_str(a, q->args[1]));
    return shaped_result(q, 2, ct, out, err);
}

/* TR_BITWISE and TR_SHIFT. */
static int rule_bitwise(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const Type *args = q->args;
    DType ct;
    for (int i = 0; i < 2; i++)
        if (args[i].ptr || !dtype_is_int((DType)args[i].dtype))
            FAIL("%s needs integers or bools (got %s and %s)", q->name, type_str(a, args[0]),
                 type_str(a, args[1]));
    if (!computation(a, q->name, args, q->flags, 0, &ct, err)) return 0;
    return shaped_result(q, 2, ct, out, err);
}

static int rule_fma(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const Type *args = q->args;
    for (int i = 0; i < 3; i++)
        if (args[i].ptr || !dtype_is_float((DType)args[i].dtype) ||
            dtype_is_fp8((DType)args[i].dtype) || args[i].dtype != args[0].dtype)
            FAIL("%s needs three floats of one dtype (got %s, %s and %s)", q->name,
                 type_str(a, args[0]), type_str(a, args[1]), type_str(a, args[2]));
    return shaped_result(q, 3, (DType)args[0].dtype, out, err);
}

/* As Triton's libdevice: (f32, f32), (f64, f64), and pow's integer
 * exponent (powi), taken here in the float type. */
static int rule_binary_float(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const Type *args = q->args;
    int is_pow = q->op == OP_POW;
    if (args[0].ptr || (args[0].dtype != DT_F32 && args[0].dtype != DT_F64) || args[1].ptr ||
        !(args[1].dtype == args[0].dtype ||
          (is_pow && dtype_is_int((DType)args[1].dtype) && args[1].dtype != DT_BOOL)))
        FAIL(
            "%s needs two f32 or two f64 operands, as Triton's libdevice%s (got %s and %s; "
            "convert with .to(tl.float32))",
            q->name, is_pow ? " (or an integer exponent)" : "", type_str(a, args[0]),
            type_str(a, args[1]));
    return shaped_result(q, 2, (DType)args[0].dtype, out, err);
}

static int rule_umulhi(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const Type *args = q->args;
    for (int i = 0; i < 2; i++)
        if (args[i].ptr || !dtype_is_int((DType)args[i].dtype) || args[i].dtype != args[0].dtype ||
            dtype_info((DType)args[i].dtype)->bits < 32)
            FAIL("%s needs two integers of one 32- or 64-bit dtype (got %s and %s)", q->name,
                 type_str(a, args[0]), type_str(a, args[1]));
    return shaped_result(q, 2, (DType)args[0].dtype, out, err);
}

static int rule_select(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const Type *args = q->args;
    Type shape;
    if (args[0].ptr || args[0].dtype != DT_BOOL)
        FAIL("%s needs a bool condition (got %s)", q->name, type_str(a, args[0]));
    DType dt;
    if (args[1].ptr || args[2].ptr) {
        if (!args[1].ptr || !args[2].ptr || args[1].dtype != args[2].dtype)
            FAIL("%s needs two values of one type (got %s and %s)", q->name, type_str(a, args[1]),
                 type_str(a, args[2]));
        if (!broadcast_or_fail(a, q->name, args, q->flags, 3, &shape, err)) return 0;
        Type t = type_ptr((DType)args[1].dtype);
        *out = type_with_shape(t, shape.rank, shape.dims);
        return 1;
    }
    if (!computation(a, q->name, args + 1, q->flags + 1, 0, &dt, err)) return 0;
    return shaped_result(q, 3, dt, out, err);
}

/* By ops.def's rule column; TR_SPECIAL: by the op's class (below). */
static const RuleFn rule_fns[] = {
    [TR_SPECIAL] = NULL,
    [TR_UNARY_NUM] = rule_unary_num,
    [TR_UNARY_FLOAT] = rule_unary_float,
    [TR_UNARY_F32] = rule_unary_f32,
    [TR_ARITH] = rule_arith,
    [TR_DIV] = rule_div,
    [TR_DIV_F32] = rule_div_f32,
    [TR_DIVMOD] = rule_divmod,
    [TR_INT_DIVMOD] = rule_divmod,
    [TR_FMA] = rule_fma,
    [TR_BINARY_FLOAT] = rule_binary_float,
    [TR_UMULHI] = rule_umulhi,
    [TR_CMP] = rule_arith,
    [TR_BITWISE] = rule_bitwise,
    [TR_SHIFT] = rule_bitwise,
    [TR_SELECT] = rule_select,
};

/* ---- The rules of the other ops, by op class --------------------------- */

/* OC_INDEX: program_id, num_programs, arange. */
static int class_index(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const Attrs *at = q->at;
    if (q->op != OP_ARANGE) {
        if (at->axis < 0 || at->axis > 2)
            FAIL("%s axis must be 0, 1 or 2 (got %d)", q->name, at->axis);
        *out = type_scalar(DT_I32);
        return 1;
    }
    if (at->end <= at->start) FAIL("arange needs start < end (got %d, %d)", at->start, at->end);
    int64_t n = (int64_t)at->end - at->start;
    if (n > MT_MAX_NUMEL)
        FAIL("arange of %lld elements exceeds the limit of %d", (long long)n, MT_MAX_NUMEL);
    int32_t d = (int32_t)n;
    *out = type_with_shape(type_scalar(DT_I32), 1, &d);
    return 1;
}

/* OC_CREATE: zeros, full, empty. */
static int class_create(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const Attrs *at = q->at;
    const char *name = q->name;
    if (at->rank < 1 || at->rank > MT_MAX_RANK)
        FAIL("%s needs a shape of rank 1 to %d (got rank %d)", name, MT_MAX_RANK, at->rank);
    int64_t n = 1;
    for (int i = 0; i < at->rank; i++) {
        if (at->shape[i] <= 0)
            FAIL("%s needs positive dimensions (got %d)", name, (int)at->shape[i]);
        n *= at->shape[i];
    }
    if (n > MT_MAX_NUMEL)
        FAIL("%s of %lld elements exceeds the limit of %d", name, (long long)n, MT_MAX_NUMEL);
    if (at->dtype == DT_NONE || at->dtype >= DT_COUNT) FAIL("%s needs a dtype", name);
    if (q->op == OP_FULL) {
        Type v = q->args[0];
        if (v.rank != 0 || v.ptr)
            FAIL("%s needs a scalar fill value (got %s)", name, type_str(a, v));
        if (!dtype_convertible((DType)v.dtype, at->dtype))
            FAIL("%s cannot fill a %s block with a %s value", name, dtype_name(at->dtype),
                 dtype_name(v.dtype));
    }
    *out = type_with_shape(type_scalar(at->dtype), at->rank, at->shape);
    return 1;
}

static int shape_expand_dims(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const Attrs *at = q->at;
    Type x = q->args[0];
    if (x.rank >= MT_MAX_RANK)
        FAIL("expand_dims of %s: blocks have at most %d dimensions", type_str(a, x), MT_MAX_RANK);
    if (at->axis < 0 || at->axis > x.rank)
        FAIL("expand_dims axis %d is out of range for %s", at->axis, type_str(a, x));
    int32_t dims[MT_MAX_RANK];
    int k = 0;
    for (int i = 0; i <= x.rank; i++) dims[i] = (i == at->axis) ? 1 : x.dims[k++];
    *out = type_with_shape(x, x.rank + 1, dims);
    return 1;
}

/* reshape and broadcast: to the shape of the attributes. */
static int shape_reshape(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const Attrs *at = q->at;
    const char *name = q->name;
    Type x = q->args[0];
    /* (blocks of pointers: ptrshape.c moves them to the offsets; the rank
     * lowering moves only reshapes that add or drop axes of 1) */
    if (x.ptr && q->op == OP_RESHAPE && (x.rank > 2 || at->rank > 2))
        FAIL(
            "%s of a block of pointers of rank 3 or more is not supported (reshape the offsets "
            "instead)",
            name);
    if (at->rank < 0 || at->rank > MT_MAX_RANK)
        FAIL("%s: blocks have at most %d dimensions (the shape has %d)", name, MT_MAX_RANK,
             at->rank);
    int64_t n = 1;
    for (int i = 0; i < at->rank; i++) {
        if (at->shape[i] <= 0)
            FAIL("%s needs positive dimensions (got %d)", name, (int)at->shape[i]);
        n *= at->shape[i];
    }
    if (q->op == OP_RESHAPE && n != type_numel(x))
        FAIL("%s cannot change the number of elements: %s has %lld, the shape %s has %lld", name,
             type_str(a, x), (long long)type_numel(x),
             shape_str(a, type_with_shape(x, at->rank, at->shape)), (long long)n);
    if (q->op == OP_BROADCAST) {
        const char *e = broadcast_error(a, name, x, at->rank, at->shape);
        if (e) FAIL("%s", e);
    }
    *out = type_with_shape(x, at->rank, at->shape);
    return 1;
}

static int shape_trans(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const char *name = q->name;
    Type x = q->args[0];
    if (x.rank < 2) FAIL("%s needs a block of rank 2 or more (got %s)", name, type_str(a, x));
    if (x.rank == 2) {
        int32_t dims[2] = {x.dims[1], x.dims[0]};
        *out = type_with_shape(x, 2, dims);
        return 1;
    }
    int32_t dims[MT_MAX_RANK];
    int seen = 0;
    for (int k = 0; k < x.rank; k++) {
        int p = q->at->perm[k];
        if (p < 0 || p >= x.rank || (seen >> p & 1))
            FAIL("%s: the permutation of %s is not one of its axes", name, type_str(a, x));
        seen |= 1 << p;
        dims[k] = x.dims[p];
    }
    *out = type_with_shape(x, x.rank, dims);
    return 1;
}

static int shape_remap(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const Attrs *at = q->at;
    const char *name = q->name;
    Type x = q->args[0];
    if (x.ptr || x.rank < 1 || x.rank > 2)
        FAIL("%s needs a block of rank 1 or 2 (got %s)", name, type_str(a, x));
    if (at->rank < 1 || at->rank > 2 || at->nv < 1 || at->nv > MT_MAX_RANK)
        FAIL("%s needs a result of rank 1 or 2 and 1 to %d index dimensions", name, MT_MAX_RANK);
    Type r = type_with_shape(x, at->rank, at->shape);
    int64_t n = 1, lo = at->voff, hi = at->voff;
    for (int k = 0; k < at->nv; k++) {
        if (at->vdims[k] < 1) FAIL("%s needs positive index dimensions", name);
        n *= at->vdims[k];
        int64_t span = (int64_t)(at->vdims[k] - 1) * at->vstride[k];
        if (span < 0) lo += span;
        else hi += span;
    }
    if (n != type_numel(r))
        FAIL("%s: the index dimensions hold %lld elements, the result %s %lld", name, (long long)n,
             shape_str(a, r), (long long)type_numel(r));
    if (lo < 0 || hi >= type_numel(x))
        FAIL("%s reads outside %s (elements %lld to %lld)", name, type_str(a, x), (long long)lo,
             (long long)hi);
    *out = r;
    return 1;
}

static int shape_join(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const char *name = q->name;
    const Type *args = q->args;
    if (args[0].ptr || args[1].ptr) FAIL("%s of pointers is not supported", name);
    if (!type_eq(args[0], args[1]))
        FAIL("%s needs two values of one type and shape (got %s and %s)", name,
             type_str(a, args[0]), type_str(a, args[1]));
    if (args[0].rank >= MT_MAX_RANK)
        FAIL("%s of %s: blocks have at most %d dimensions", name, type_str(a, args[0]),
             MT_MAX_RANK);
    int32_t dims[MT_MAX_RANK];
    for (int k = 0; k < args[0].rank; k++) dims[k] = args[0].dims[k];
    dims[args[0].rank] = 2;
    *out = type_with_shape(args[0], args[0].rank + 1, dims);
    return 1;
}

static int shape_split(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const char *name = q->name;
    Type x = q->args[0];
    if (x.ptr) FAIL("%s of a pointer block is not supported", name);
    if (x.rank < 1 || x.dims[x.rank - 1] != 2)
        FAIL("%s needs a block whose last dimension is 2 (got %s)", name, type_str(a, x));
    if (q->at->axis < 0 || q->at->axis > 1) FAIL("%s index %d is not 0 or 1", name, q->at->axis);
    *out = type_with_shape(x, x.rank - 1, x.dims);
    return 1;
}

static int shape_gather(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const char *name = q->name;
    int axis = q->at->axis;
    Type x = q->args[0], i = q->args[1];
    if (x.ptr) FAIL("%s of a pointer block is not supported", name);
    if (i.ptr || !dtype_is_int((DType)i.dtype) || i.dtype == DT_BOOL)
        FAIL("%s needs an integer index (got %s)", name, type_str(a, i));
    if (x.rank < 1 || x.rank > 2)
        FAIL("%s needs a block of rank 1 or 2 (got %s)", name, type_str(a, x));
    if (i.rank != x.rank)
        FAIL("%s needs an index of the source's rank (got %s and %s)", name, type_str(a, x),
             type_str(a, i));
    if (axis < 0 || axis >= x.rank)
        FAIL("%s: axis %d is out of range for %s", name, axis, type_str(a, x));
    for (int k = 0; k < x.rank; k++)
        if (k != axis && i.dims[k] != x.dims[k])
            FAIL(
                "%s: the index's shape must be the source's except along axis %d (got %s "
                "and %s)",
                name, axis, type_str(a, x), type_str(a, i));
    *out = type_with_shape(type_scalar((DType)x.dtype), i.rank, i.dims);
    return 1;
}

static int shape_xor_shuffle(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const char *name = q->name;
    Type x = q->args[0];
    if (x.ptr) FAIL("%s of a pointer block is not supported", name);
    if (x.rank < 1) FAIL("%s needs a block (got %s)", name, type_str(a, x));
    for (int k = 0; k < x.rank; k++)
        if (x.dims[k] & (x.dims[k] - 1))
            FAIL("%s needs power-of-two dimensions (got %s)", name, type_str(a, x));
    if (q->at->axis <= 0 || q->at->axis >= type_numel(x))
        FAIL("%s: index %d is out of range for %s", name, q->at->axis, type_str(a, x));
    *out = x;
    return 1;
}

/* OC_SHAPE: each op moves elements its own way. */
static int class_shape(const Query *q, Type *out, const char **err) {
    switch (q->op) {
    case OP_EXPAND_DIMS: return shape_expand_dims(q, out, err);
    case OP_TRANS: return shape_trans(q, out, err);
    case OP_REMAP: return shape_remap(q, out, err);
    case OP_JOIN: return shape_join(q, out, err);
    case OP_SPLIT: return shape_split(q, out, err);
    case OP_GATHER: return shape_gather(q, out, err);
    case OP_XOR_SHUFFLE: return shape_xor_shuffle(q, out, err);
    default: return shape_reshape(q, out, err); /* OP_RESHAPE, OP_BROADCAST */
    }
}

/* OC_CONVERT: cast, bitcast (and, through class_pointer, int_to_ptr and ptr_to_int). */
static int class_convert(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const char *name = q->name;
    const Attrs *at = q->at;
    Type x = q->args[0];
    const DTypeInfo *from = dtype_info((DType)x.dtype);
    int from_float = dtype_is_float((DType)x.dtype);
    if (q->op == OP_PTR_TO_INT) {
        if (!x.ptr) FAIL("%s needs a pointer (got %s)", name, type_str(a, x));
        *out = type_with_shape(type_scalar(DT_I64), x.rank, x.dims);
        return 1;
    }
    if (q->op == OP_INT_TO_PTR) {
        /* Triton: any integer; here the 64 bits of an address */
        if (x.ptr || from_float || from->bits != 64)
            FAIL("%s needs a 64-bit integer (got %s)", name, type_str(a, x));
        if (at->dtype == DT_NONE || at->dtype >= DT_COUNT) FAIL("%s needs a pointee dtype", name);
        *out = type_with_shape(type_ptr(at->dtype), x.rank, x.dims);
        return 1;
    }
    if (x.ptr) FAIL("%s of a pointer is not supported", name);
    if (at->dtype == DT_NONE || at->dtype >= DT_COUNT) FAIL("%s needs a dtype", name);
    int to_bits = dtype_info(at->dtype)->bits;
    if (q->op == OP_CAST && at->flag &&
        !(from_float && dtype_is_float(at->dtype) && to_bits < from->bits))
        FAIL("%s: fp_downcast_rounding applies only to a float cast to a narrower float", name);
    if (q->op == OP_BITCAST && to_bits != from->bits)
        FAIL("%s cannot reinterpret %s (%d bits) as %s (%d bits)", name, dtype_name(x.dtype),
             from->bits, dtype_name(at->dtype), to_bits);
    *out = type_with_shape(type_scalar(at->dtype), x.rank, x.dims);
    return 1;
}

/* OC_HINT: the operand, with a fact. */
static int class_hint(const Query *q, Type *out, const char **err) {
    (void)err;
    *out = q->args[0];
    return 1;
}

/* OC_POINTER: addptr; int_to_ptr and ptr_to_int convert like casts. */
static int class_pointer(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const Type *args = q->args;
    Type shape;
    if (q->op == OP_INT_TO_PTR || q->op == OP_PTR_TO_INT) return class_convert(q, out, err);
    if (!args[0].ptr) FAIL("addptr needs a pointer (got %s)", type_str(a, args[0]));
    if (args[1].ptr || !dtype_is_int((DType)args[1].dtype) || args[1].dtype == DT_BOOL)
        FAIL("a pointer offset must be an integer (got %s)", type_str(a, args[1]));
    if (!broadcast_or_fail(a, q->name, args, q->flags, 2, &shape, err)) return 0;
    *out = type_with_shape(type_ptr((DType)args[0].dtype), shape.rank, shape.dims);
    return 1;
}

static int memory_load(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const Type *args = q->args;
    const uint8_t *flags = q->flags;
    Type shape;
    if (!args[0].ptr) FAIL("load needs a pointer (got %s)", type_str(a, args[0]));
    if ((flags[1] & ARG_PRESENT) && (args[1].ptr || args[1].dtype != DT_BOOL))
        FAIL("a load mask must be bool (got %s)", type_str(a, args[1]));
    if (flags[2] & ARG_PRESENT) {
        if (!(flags[1] & ARG_PRESENT)) FAIL("a load's 'other' needs a mask");
        if (args[2].ptr || !dtype_convertible((DType)args[2].dtype, (DType)args[0].dtype))
            FAIL("a load's 'other' (%s) cannot convert to the pointee %s", type_str(a, args[2]),
                 dtype_name(args[0].dtype));
    }
    if (!broadcast_or_fail(a, q->name, args, flags, 3, &shape, err)) return 0;
    *out = type_with_shape(type_scalar((DType)args[0].dtype), shape.rank, shape.dims);
    return 1;
}

static int memory_store(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const Type *args = q->args;
    Type shape;
    if (!args[0].ptr) FAIL("store needs a pointer (got %s)", type_str(a, args[0]));
    if (args[1].ptr || !dtype_convertible((DType)args[1].dtype, (DType)args[0].dtype))
        FAIL("cannot store %s through %s", type_str(a, args[1]), type_str(a, args[0]));
    if ((q->flags[2] & ARG_PRESENT) && (args[2].ptr || args[2].dtype != DT_BOOL))
        FAIL("a store mask must be bool (got %s)", type_str(a, args[2]));
    if (!broadcast_or_fail(a, q->name, args, q->flags, 3, &shape, err)) return 0;
    *out = type_scalar(DT_NONE);
    return 1;
}

/* OC_MEMORY: load, store. */
static int class_memory(const Query *q, Type *out, const char **err) {
    return q->op == OP_LOAD ? memory_load(q, out, err) : memory_store(q, out, err);
}

/* OC_DEBUG: device_print, device_assert, debug_barrier: no result. */
static int class_debug(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const Type *args = q->args; /* none for debug_barrier */
    if (q->op == OP_PRINT && args[0].dtype == DT_NONE) FAIL("%s needs a value", q->name);
    if (q->op == OP_ASSERT && (args[0].ptr || args[0].dtype == DT_NONE))
        FAIL("%s needs a condition (got %s)", q->name, type_str(a, args[0]));
    *out = type_scalar(DT_NONE);
    return 1;
}

/* OC_ATOMIC: atomic_rmw (pointer, value, mask), atomic_cas (pointer,
 * compared, value). */
static int class_atomic(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const char *name = q->name;
    const Type *args = q->args;
    Type shape;
    if (!args[0].ptr) FAIL("%s needs a pointer (got %s)", name, type_str(a, args[0]));
    DType pt = (DType)args[0].dtype;
    const char *why = atomic_dtype_error(q->op, q->at->rmw, pt);
    if (why) FAIL("%s: %s", name, why);
    for (int k = 1; k < 3; k++) {
        if (!(q->flags[k] & ARG_PRESENT)) continue;
        int is_mask = q->op == OP_ATOMIC_RMW && k == 2;
        if (is_mask && (args[k].ptr || args[k].dtype != DT_BOOL))
            FAIL("an atomic's mask must be bool (got %s)", type_str(a, args[k]));
        if (!is_mask && (args[k].ptr || args[k].dtype != pt))
            FAIL("%s: operand %d (%s) must be the pointee %s", name, k, type_str(a, args[k]),
                 dtype_name(pt));
        int fits = shape_broadcast(args[0], args[k], &shape) && shape.rank == args[0].rank;
        for (int d = 0; fits && d < shape.rank; d++) fits = shape.dims[d] == args[0].dims[d];
        if (!fits)
            FAIL("%s: operand %d (%s) does not broadcast to the pointer's shape %s", name, k,
                 type_str(a, args[k]), type_str(a, args[0]));
    }
    *out = type_with_shape(type_scalar(pt), args[0].rank, args[0].dims);
    return 1;
}

/* A reduction's result shape: axis removed (kept as 1 with keep_dims);
 * axis -1 or a rank-1 block: every element. */
static Type reduced(Type x, DType rdt, int axis, int flag) {
    int32_t dims[MT_MAX_RANK];
    int rank = x.rank;
    for (int k = 0; k < rank; k++) dims[k] = x.dims[k];
    if (flag & RED_KEEP_DIMS) {
        for (int k = 0; k < rank; k++)
            if (axis < 0 || k == axis) dims[k] = 1;
    } else if (axis < 0 || rank == 1) {
        rank = 0;
    } else {
        for (int k = axis; k + 1 < rank; k++) dims[k] = x.dims[k + 1];
        rank--;
    }
    return type_with_shape(type_scalar(rdt), rank, dims);
}

/* OC_REDUCE and OC_SCAN: along an axis (RED_AXIS), or a rank-1 block to
 * a scalar. */
static int class_reduce(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const char *name = q->name;
    const Attrs *at = q->at;
    Op op = q->op;
    Type x = q->args[0];
    int scan = op_has(op, OPF_SCAN), flag = at ? at->flag : 0;
    int axis = at ? at->axis : 0, arg = op == OP_ARGMAX || op == OP_ARGMIN;
    DType rdt = arg ? DT_I32 : (DType)x.dtype;
    if (op == OP_TAKE && (flag & RED_AXIS) && axis >= 0 && axis < x.rank &&
        (at->start < 0 || at->start >= x.dims[axis]))
        FAIL("take: index %d is out of range for axis %d of %s", at->start, axis, type_str(a, x));
    if (!(flag & RED_AXIS)) {
        if (scan || arg) FAIL("%s needs an axis attribute", name);
        if (x.rank != 1 || !type_is_numeric(x))
            FAIL("%s needs a rank-1 block of numbers (got %s)", name, type_str(a, x));
        *out = type_scalar(rdt);
        return 1;
    }
    if (x.rank < 1 || !type_is_numeric(x))
        FAIL("%s needs a block of numbers (got %s)", name, type_str(a, x));
    if (op == OP_XOR_SUM && dtype_is_float((DType)x.dtype))
        FAIL("%s needs a block of integers (got %s)", name, type_str(a, x));
    if (axis < -1 || axis >= x.rank || (axis == -1 && (scan || x.rank < 2)))
        FAIL("%s: axis %d is out of range for a block of rank %d", name, axis, (int)x.rank);
    if (scan) {
        if (flag & RED_KEEP_DIMS) FAIL("%s: a scan has no keep_dims", name);
        *out = x;
        return 1;
    }
    if (flag & RED_REVERSE) FAIL("%s: a reduction has no reverse", name);
    *out = reduced(x, rdt, axis, flag);
    return 1;
}

/* OC_DOT: tl.dot. */
static int class_dot(const Query *q, Type *out, const char **err) {
    return dot_result_type(q->a, q->name, q->args, q->at, out, err);
}

/* OC_ASM: operands of one shape (the frontend broadcasts them), numbers. */
static int class_asm(const Query *q, Type *out, const char **err) {
    Arena *a = q->a;
    const char *name = q->name;
    const Attrs *at = q->at;
    const Type *args = q->args;
    Type first = type_scalar(DT_NONE);
    for (int i = 0; i < MT_MAX_OPERANDS; i++) {
        if (!(q->flags[i] & ARG_PRESENT)) continue;
        if (args[i].ptr || args[i].dtype == DT_BOOL)
            FAIL("%s takes numbers, not %s (pass a pointer's address as an integer)", name,
                 type_str(a, args[i]));
        if (first.dtype == DT_NONE) first = args[i];
        else if (first.rank != args[i].rank ||
                 memcmp(first.dims, args[i].dims, sizeof first.dims[0] * (size_t)first.rank))
            FAIL("%s needs operands of one shape (got %s and %s)", name, type_str(a, first),
                 type_str(a, args[i]));
    }
    if (at->dtype == DT_NONE || at->dtype >= DT_COUNT || at->dtype == DT_BOOL)
        FAIL("%s needs a numeric result dtype", name);
    if (at->pack < 1) FAIL("%s needs pack >= 1 (got %d)", name, at->pack);
    *out = first.dtype == DT_NONE ? type_scalar(at->dtype)
                                  : type_with_shape(type_scalar(at->dtype), first.rank, first.dims);
    return 1;
}

/* The rules of TR_SPECIAL ops, by ops.def's class column; NULL: no rule
 * (the regions, whose results the frontend types). */
static const RuleFn class_fns[] = {
    [OC_INDEX] = class_index,   [OC_CREATE] = class_create, [OC_SHAPE] = class_shape,
    [OC_UNARY] = NULL,          [OC_MATH] = NULL,           [OC_BINARY] = NULL,
    [OC_COMPARE] = NULL,        [OC_BITWISE] = NULL,        [OC_CONVERT] = class_convert,
    [OC_HINT] = class_hint,     [OC_SELECT] = NULL,         [OC_POINTER] = class_pointer,
    [OC_MEMORY] = class_memory, [OC_REDUCE] = class_reduce, [OC_SCAN] = class_reduce,
    [OC_DEBUG] = class_debug,   [OC_ATOMIC] = class_atomic, [OC_DOT] = class_dot,
    [OC_REGION] = NULL,         [OC_ASM] = class_asm,
};

int op_result_type_ex(Arena *a, Op op, const char *display, const Type *args, const uint8_t *flags,
                      const Attrs *at, Type *out, const char **err) {
    static const uint8_t all[MT_MAX_OPERANDS] = {ARG_PRESENT, ARG_PRESENT, ARG_PRESENT,
                                                 ARG_PRESENT, ARG_PRESENT, ARG_PRESENT,
                                                 ARG_PRESENT, ARG_PRESENT};
    const OpInfo *info = op_info(op);
    Query q = {a, op, display ? display : info->name, args, flags ? flags : all, at};
    int nargs = info->nargs < 0 ? 0 : info->nargs;
    for (int i = 0; i < nargs; i++)
        if ((q.flags[i] & ARG_PRESENT) && (args[i].dtype == DT_NONE || args[i].dtype >= DT_COUNT))
            FAIL("%s has an operand without a type", q.name);
    RuleFn rule = info->rule != TR_SPECIAL ? rule_fns[info->rule] : class_fns[info->cls];
    if (rule) return rule(&q, out, err);
    FAIL("'%s' has no type rule", q.name);
}

const char *atomic_dtype_error(Op op, int rmw, DType dt) {
    int bits = dtype_info(dt)->bits;
    if (op == OP_ATOMIC_CAS) {
        if (bits != 16 && bits != 32 && bits != 64)
            return "atomic_cas only supports elements of 16, 32 or 64 bits";
        return NULL;
    }
    if (rmw < 0 || rmw >= RMW_COUNT) return "unknown atomic operation";
    if ((dt == DT_F16 || dt == DT_BF16) && rmw != RMW_ADD)
        return rmw == RMW_XCHG ? "atomic_xchg does not support fp16 or bf16"
                               : "this atomic does not support fp16 or bf16 (only atomic_add does)";
    if (bits < 32 && dt != DT_F16 && dt != DT_BF16)
        return "atomics need elements of 32 or 64 bits (of 16 bits: atomic_add of fp16 / bf16, "
               "atomic_cas)";
    if (dtype_is_float(dt) && (rmw == RMW_AND || rmw == RMW_OR || rmw == RMW_XOR))
        return "bitwise atomics need integers";
    return NULL;
}
