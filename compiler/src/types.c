/* Type rules and constants. Every rule lives in op_result_type(), the one
 * place the frontend and the verifier ask. */
#include "types.h"

#include <math.h>
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
    t.dims[0] = rank > 0 ? dims[0] : 0;
    t.dims[1] = rank > 1 ? dims[1] : 0;
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

int type_is_numeric(Type t) { return !t.ptr && (t.dtype == DT_I32 || t.dtype == DT_F32); }

const char *dtype_name(DType dt) {
    switch (dt) {
    case DT_BOOL: return "bool";
    case DT_I32: return "i32";
    case DT_F32: return "f32";
    default: return "none";
    }
}

static void elem_str(char *buf, size_t n, Type t) {
    if (t.ptr) snprintf(buf, n, "ptr<%s>", dtype_name(t.dtype));
    else snprintf(buf, n, "%s", dtype_name(t.dtype));
}

const char *type_str(Arena *a, Type t) {
    char e[32];
    elem_str(e, sizeof e, t);
    if (t.rank == 0) return arena_strdup(a, e);
    if (t.rank == 1) return arena_printf(a, "vector<%d x %s>", (int)t.dims[0], e);
    return arena_printf(a, "block<%dx%d x %s>", (int)t.dims[0], (int)t.dims[1], e);
}

const char *shape_str(Arena *a, Type t) {
    if (t.rank == 0) return "()";
    if (t.rank == 1) return arena_printf(a, "(%d,)", (int)t.dims[0]);
    return arena_printf(a, "(%d, %d)", (int)t.dims[0], (int)t.dims[1]);
}

int shape_broadcast(Type a, Type b, Type *out) {
    int rank = a.rank > b.rank ? a.rank : b.rank;
    int32_t dims[2] = {0, 0};
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

ConstVal const_i32(int64_t v) {
    ConstVal c = {DT_I32, v, 0};
    return c;
}
ConstVal const_f32(double v) {
    ConstVal c = {DT_F32, 0, v};
    return c;
}
ConstVal const_bool(int v) {
    ConstVal c = {DT_BOOL, v ? 1 : 0, 0};
    return c;
}

int const_eq(ConstVal a, ConstVal b) {
    if (a.dt != b.dt) return 0;
    if (a.dt == DT_F32) return memcmp(&a.f, &b.f, sizeof a.f) == 0;
    return a.i == b.i;
}

ConstVal const_convert(ConstVal c, DType to) {
    if (c.dt == to) return c;
    if (to == DT_F32) return const_f32((double)c.i);
    if (to == DT_I32 && c.dt == DT_F32) {
        double t = trunc(c.f);
        if (!(t >= -2147483648.0 && t <= 2147483647.0)) t = 0; /* callers check range */
        return const_i32((int64_t)t);
    }
    if (to == DT_BOOL) return const_bool(c.dt == DT_F32 ? c.f != 0 : c.i != 0);
    return c;
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
            else
                *o++ = '0';
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
    switch (c.dt) {
    case DT_BOOL: return c.i ? "True" : "False";
    case DT_I32: return arena_printf(a, "%lld", (long long)c.i);
    case DT_F32: {
        char buf[40];
        py_float_repr(c.f, buf);
        return arena_strdup(a, buf);
    }
    default: return "none";
    }
}

int dtype_convertible(DType from, DType to) {
    if (from == to) return 1;
    return (from == DT_I32 || from == DT_F32) && (to == DT_I32 || to == DT_F32);
}

static DType promote(Type a, Type b) {
    return (a.dtype == DT_F32 || b.dtype == DT_F32) ? DT_F32 : DT_I32;
}

#define FAIL(...) do { *err = arena_printf(a, __VA_ARGS__); return 0; } while (0)

static int broadcast_or_fail(Arena *a, const char *name, const Type *args, const int *present, int n, Type *shape,
                             const char **err) {
    Type s = type_scalar(DT_NONE);
    for (int i = 0; i < n; i++) {
        if (!present[i]) continue;
        Type next;
        if (!shape_broadcast(s, args[i], &next)) {
            StrBuf sb;
            sb_init(&sb, a);
            sb_printf(&sb, "cannot broadcast the operand shapes of %s:", name);
            int first = 1;
            for (int k = 0; k < n; k++)
                if (present[k]) sb_printf(&sb, "%s%s", first ? " " : " and ", shape_str(a, args[k])), first = 0;
            *err = sb_str(&sb);
            return 0;
        }
        s = next;
    }
    /* every operand is within the limit, their broadcast may not be */
    long long numel = 1;
    for (int i = 0; i < s.rank; i++) numel *= s.dims[i];
    if (numel > MT_MAX_NUMEL)
        FAIL("the operands of %s broadcast to %s, %lld elements, more than the limit of %d", name, shape_str(a, s), numel,
             MT_MAX_NUMEL);
    *shape = s;
    return 1;
}

int op_result_type(Arena *a, Op op, const Type *args, const int *present, const Attrs *at, Type *out,
                   const char **err) {
    return op_result_type_named(a, op, NULL, args, present, at, out, err);
}

int op_result_type_named(Arena *a, Op op, const char *display, const Type *args, const int *present,
                         const Attrs *at, Type *out, const char **err) {
    const OpInfo *info = op_info(op);
    static const int all[3] = {1, 1, 1};
    if (!present) present = all;
    Type shape;
    const char *name = display ? display : info->name;
    switch (op) {
    case OP_PROGRAM_ID:
        if (at->axis < 0 || at->axis > 2) FAIL("program_id axis must be 0, 1 or 2 (got %d)", at->axis);
        *out = type_scalar(DT_I32);
        return 1;
    case OP_ARANGE: {
        if (at->end <= at->start) FAIL("arange needs start < end (got %d, %d)", at->start, at->end);
        int64_t n = (int64_t)at->end - at->start;
        if (n > MT_MAX_NUMEL) FAIL("arange of %lld elements exceeds the limit of %d", (long long)n, MT_MAX_NUMEL);
        int32_t d = (int32_t)n;
        *out = type_with_shape(type_scalar(DT_I32), 1, &d);
        return 1;
    }
    case OP_ZEROS:
    case OP_FULL:
    case OP_EMPTY: {
        if (at->rank < 1 || at->rank > 2) FAIL("%s needs a shape of rank 1 or 2 (got rank %d)", name, at->rank);
        int64_t n = 1;
        for (int i = 0; i < at->rank; i++) {
            if (at->shape[i] <= 0) FAIL("%s needs positive dimensions (got %d)", name, (int)at->shape[i]);
            n *= at->shape[i];
        }
        if (n > MT_MAX_NUMEL) FAIL("%s of %lld elements exceeds the limit of %d", name, (long long)n, MT_MAX_NUMEL);
        if (at->dtype != DT_BOOL && at->dtype != DT_I32 && at->dtype != DT_F32)
            FAIL("%s needs dtype tl.int1, tl.int32 or tl.float32", name);
        if (op == OP_FULL) {
            if (args[0].rank != 0 || args[0].ptr) FAIL("%s needs a scalar fill value (got %s)", name, type_str(a, args[0]));
            if (!dtype_convertible(args[0].dtype, at->dtype))
                FAIL("%s cannot fill a %s block with a %s value", name, dtype_name(at->dtype), dtype_name(args[0].dtype));
        }
        *out = type_with_shape(type_scalar(at->dtype), at->rank, at->shape);
        return 1;
    }
    case OP_EXPAND_DIMS: {
        Type x = args[0];
        if (x.rank > 1) FAIL("expand_dims needs a scalar or a rank-1 block (got %s): blocks have at most 2 dimensions", type_str(a, x));
        if (at->axis < 0 || at->axis > x.rank) FAIL("expand_dims axis %d is out of range for %s", at->axis, type_str(a, x));
        int32_t dims[2];
        int k = 0;
        for (int i = 0; i <= x.rank; i++) dims[i] = (i == at->axis) ? 1 : x.dims[k++];
        *out = type_with_shape(x, x.rank + 1, dims);
        return 1;
    }
    case OP_NEG:
        if (!type_is_numeric(args[0])) FAIL("%s needs an i32 or f32 operand (got %s)", name, type_str(a, args[0]));
        *out = args[0];
        return 1;
    case OP_EXP:
        if (args[0].ptr || args[0].dtype != DT_F32) FAIL("%s needs an f32 operand (got %s)", name, type_str(a, args[0]));
        *out = args[0];
        return 1;
    case OP_ADD:
    case OP_SUB:
    case OP_MUL:
    case OP_DIV:
    case OP_MAXIMUM:
    case OP_MINIMUM:
        if (!type_is_numeric(args[0]) || !type_is_numeric(args[1]))
            FAIL("%s needs i32 or f32 operands (got %s and %s)", name, type_str(a, args[0]), type_str(a, args[1]));
        if (!broadcast_or_fail(a, name, args, present, 2, &shape, err)) return 0;
        *out = type_with_shape(type_scalar(op == OP_DIV ? DT_F32 : promote(args[0], args[1])), shape.rank, shape.dims);
        return 1;
    case OP_CMP_LT:
    case OP_CMP_LE:
    case OP_CMP_GT:
    case OP_CMP_GE:
    case OP_CMP_EQ:
    case OP_CMP_NE: {
        int both_numeric = type_is_numeric(args[0]) && type_is_numeric(args[1]);
        int both_bool = !args[0].ptr && !args[1].ptr && args[0].dtype == DT_BOOL && args[1].dtype == DT_BOOL;
        if (!both_numeric && !(both_bool && (op == OP_CMP_EQ || op == OP_CMP_NE)))
            FAIL("%s needs i32 or f32 operands (got %s and %s)", name, type_str(a, args[0]), type_str(a, args[1]));
        if (!broadcast_or_fail(a, name, args, present, 2, &shape, err)) return 0;
        *out = type_with_shape(type_scalar(DT_BOOL), shape.rank, shape.dims);
        return 1;
    }
    case OP_AND:
    case OP_OR:
        for (int i = 0; i < 2; i++)
            if (args[i].ptr || args[i].dtype != DT_BOOL)
                FAIL("%s needs bool operands (got %s and %s)", name, type_str(a, args[0]), type_str(a, args[1]));
        if (!broadcast_or_fail(a, name, args, present, 2, &shape, err)) return 0;
        *out = type_with_shape(type_scalar(DT_BOOL), shape.rank, shape.dims);
        return 1;
    case OP_SELECT: {
        if (args[0].ptr || args[0].dtype != DT_BOOL) FAIL("%s needs a bool condition (got %s)", name, type_str(a, args[0]));
        DType dt;
        if (type_is_numeric(args[1]) && type_is_numeric(args[2])) dt = promote(args[1], args[2]);
        else if (!args[1].ptr && !args[2].ptr && args[1].dtype == DT_BOOL && args[2].dtype == DT_BOOL) dt = DT_BOOL;
        else FAIL("%s needs two numeric or two bool values (got %s and %s)", name, type_str(a, args[1]), type_str(a, args[2]));
        if (!broadcast_or_fail(a, name, args, present, 3, &shape, err)) return 0;
        *out = type_with_shape(type_scalar(dt), shape.rank, shape.dims);
        return 1;
    }
    case OP_ADDPTR:
        if (!args[0].ptr) FAIL("addptr needs a pointer (got %s)", type_str(a, args[0]));
        if (args[1].ptr || args[1].dtype != DT_I32) FAIL("a pointer offset must be i32 (got %s)", type_str(a, args[1]));
        if (!broadcast_or_fail(a, name, args, present, 2, &shape, err)) return 0;
        *out = type_with_shape(type_ptr(args[0].dtype), shape.rank, shape.dims);
        return 1;
    case OP_LOAD:
        if (!args[0].ptr) FAIL("load needs a pointer (got %s)", type_str(a, args[0]));
        if (present[1] && (args[1].ptr || args[1].dtype != DT_BOOL)) FAIL("a load mask must be bool (got %s)", type_str(a, args[1]));
        if (present[2]) {
            if (!present[1]) FAIL("a load's 'other' needs a mask");
            if (args[2].ptr || !dtype_convertible(args[2].dtype, args[0].dtype))
                FAIL("a load's 'other' (%s) cannot convert to the pointee %s", type_str(a, args[2]), dtype_name(args[0].dtype));
        }
        if (!broadcast_or_fail(a, name, args, present, 3, &shape, err)) return 0;
        *out = type_with_shape(type_scalar(args[0].dtype), shape.rank, shape.dims);
        return 1;
    case OP_STORE:
        if (!args[0].ptr) FAIL("store needs a pointer (got %s)", type_str(a, args[0]));
        if (args[1].ptr || !dtype_convertible(args[1].dtype, args[0].dtype))
            FAIL("cannot store %s through %s", type_str(a, args[1]), type_str(a, args[0]));
        if (present[2] && (args[2].ptr || args[2].dtype != DT_BOOL)) FAIL("a store mask must be bool (got %s)", type_str(a, args[2]));
        if (!broadcast_or_fail(a, name, args, present, 3, &shape, err)) return 0;
        *out = type_scalar(DT_NONE);
        return 1;
    case OP_SUM:
    case OP_MAX:
    case OP_MIN:
        if (args[0].rank != 1 || !type_is_numeric(args[0]))
            FAIL("%s needs a rank-1 block of i32 or f32 (got %s)", name, type_str(a, args[0]));
        *out = type_scalar(args[0].dtype);
        return 1;
    case OP_FOR:
    case OP_COUNT: break;
    }
    FAIL("'%s' has no type rule", name);
}
