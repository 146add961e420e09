/* Shared helpers of the C-like backends. */
#include "cgen/cgen.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

#include "cgen/asm.h"

/* A register's C type: its compute dtype's memory type (16- and 8-bit
 * floats compute in float). */
const char *c_type(DType dt) { return dtype_info(dtype_info(dt)->compute)->cuda; }
const char *c_type_in(DType dt, CDialect d) {
    const DTypeInfo *c = dtype_info(dtype_info(dt)->compute);
    return d == C_CUDA ? c->cuda : c->host;
}
const char *c_mem_type(DType dt, CDialect d) {
    return d == C_CUDA ? dtype_info(dt)->cuda : dtype_info(dt)->host;
}

/* Substitutes {0} in a dtype table template. */
static const char *subst(Arena *a, const char *tmpl, const char *x) {
    StrBuf sb;
    sb_init(&sb, a);
    for (const char *p = tmpl; *p; p++) {
        if (p[0] == '{' && p[1] == '0' && p[2] == '}') {
            sb_puts(&sb, x);
            p += 2;
        } else {
            sb_putc(&sb, *p);
        }
    }
    return sb_str(&sb);
}

const char *c_load(Arena *a, DType dt, CDialect d, const char *elem) {
    return subst(a, d == C_CUDA ? dtype_info(dt)->cuda_load : dtype_info(dt)->host_load, elem);
}
const char *c_store(Arena *a, DType dt, CDialect d, const char *value) {
    return subst(a, d == C_CUDA ? dtype_info(dt)->cuda_store : dtype_info(dt)->host_store, value);
}
const char *c_round(Arena *a, DType dt, CDialect d, const char *value) {
    if (dtype_info(dt)->compute == dt) return value;
    return c_load(a, dt, d, c_store(a, dt, d, value));
}

const char *c_param_type(Arena *a, Type t) {
    if (t.ptr) return arena_printf(a, "%s*", dtype_info((DType)t.dtype)->cuda);
    return c_type((DType)t.dtype);
}

long long c_param_bytes(const Function *f) {
    long long bytes = 0;
    for (int i = 0; i < f->nparams; i++) {
        Type t = f->params[i].type;
        int bits = dtype_info(dtype_info((DType)t.dtype)->compute)->bits;
        long long size = t.ptr ? 8 : bits < 8 ? 1 : bits / 8; /* bool: one byte */
        bytes = (bytes + size - 1) / size * size + size;
    }
    return bytes;
}

const char *c_launcher_type(Arena *a, Type t, int is_const) {
    const char *h = dtype_info((DType)t.dtype)->header;
    if (t.ptr) return arena_printf(a, "%s%s*", is_const ? "const " : "", h);
    return h;
}

const char *c_zero(DType dt) {
    switch (dtype_info(dtype_info(dt)->compute)->cls) {
    case DC_FLOAT: return dtype_info(dt)->compute == DT_F64 ? "0.0" : "0.0f";
    case DC_BOOL: return "false";
    case DC_SINT:
    case DC_UINT:
    case DC_NONE: break;
    }
    return "0";
}

const char *c_const(Arena *a, ConstVal c, CDialect d) {
    const DTypeInfo *info = dtype_info(c.dt);
    switch (info->cls) {
    case DC_BOOL: return c.i ? "true" : "false";
    case DC_SINT:
        if (c.dt == DT_I64) {
            if (c.i == INT64_MIN) return "(-9223372036854775807LL - 1)";
            return arena_printf(a, "%lldLL", (long long)c.i);
        }
        if (c.i == INT32_MIN) return "(-2147483647 - 1)";
        return arena_printf(a, "%lld", (long long)c.i);
    case DC_UINT:
        return arena_printf(a, "%llu%s", (unsigned long long)(uint64_t)c.i,
                            info->bits == 64 ? "ULL" : "u");
    case DC_FLOAT: {
        int dbl = info->compute == DT_F64;
        if (isnan(c.f)) {
            if (dbl)
                return d == C_CUDA ? "__longlong_as_double(0x7ff8000000000000LL)" : "((double)NAN)";
            return d == C_CUDA ? "__int_as_float(0x7fc00000)" : "NAN";
        }
        if (isinf(c.f)) {
            if (dbl) {
                if (d == C_CUDA)
                    return c.f > 0 ? "__longlong_as_double(0x7ff0000000000000LL)"
                                   : "(-__longlong_as_double(0x7ff0000000000000LL))";
                return c.f > 0 ? "((double)INFINITY)" : "(-(double)INFINITY)";
            }
            if (d == C_CUDA)
                return c.f > 0 ? "__int_as_float(0x7f800000)" : "(-__int_as_float(0x7f800000))";
            return c.f > 0 ? "INFINITY" : "(-INFINITY)";
        }
        if (dbl) {
            char buf[40];
            py_float_repr(c.f, buf);
            /* 17 significant digits where repr's shortest form has an exponent C reads the same */
            return arena_strdup(a, buf);
        }
        return arena_printf(a, "%sf", const_repr(a, c));
    }
    case DC_NONE: break;
    }
    return "0";
}

static const char *const reserved[] = {
    /* C and C++ keywords */
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "auto",
    "bitand",
    "bitor",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "char8_t",
    "char16_t",
    "char32_t",
    "class",
    "compl",
    "concept",
    "const",
    "consteval",
    "constexpr",
    "constinit",
    "const_cast",
    "continue",
    "co_await",
    "co_return",
    "co_yield",
    "decltype",
    "default",
    "delete",
    "do",
    "double",
    "dynamic_cast",
    "else",
    "enum",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "not_eq",
    "nullptr",
    "operator",
    "or",
    "or_eq",
    "private",
    "protected",
    "public",
    "register",
    "reinterpret_cast",
    "requires",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "struct",
    "switch",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "wchar_t",
    "while",
    "xor",
    "xor_eq",
    "_Bool",
    "_Complex",
    "_Imaginary",
    "_Alignas",
    "_Alignof",
    "_Atomic",
    "_Generic",
    "_Noreturn",
    "_Static_assert",
    "_Thread_local",
    "main",
    "NULL",
    /* CUDA and the generated code */
    "threadIdx",
    "blockIdx",
    "blockDim",
    "gridDim",
    "warpSize",
    "tile_i",
    "tile_j",
    "stream",
    "grid",
    "dim3",
    "isnan",
    "expf",
    "fmaxf",
    "fminf",
    "max",
    "min",
    "INFINITY",
    "NAN",
    "cudaStream_t",
    "cudaError_t",
    "int32_t",
    "int64_t",
    "uint32_t",
    "size_t",
    "ctx",
    "args",
    "pid_x",
    "pid_y",
    "pid_z",
    "ok",
    "status",
    "empty",
    "self",
    /* locals and helpers of the generated code: the -O2 CUDA backend's
     * loops and lane indices, the launchers' error variable, CUDA vector
     * types and math the backends call, the MLIR launcher's driver API */
    "i",
    "j",
    "q",
    "r",
    "t",
    "off",
    "tx",
    "ty",
    "err",
    "fmaf",
    "uintptr_t",
    "intptr_t",
    "ptrdiff_t",
    "int8_t",
    "int16_t",
    "uint8_t",
    "uint16_t",
    "uint64_t",
    "texture",
    "surface",
    "atomicAdd",
    "clock",
    "abs",
    "exp",
    /* macros and functions of the headers the generated code includes
     * (stdint.h, stdlib.h, string.h, math.h, stdbool.h, dlfcn.h, pthread.h,
     * cuda_runtime.h): a parameter of that name would be replaced or shadow
     * what the code calls */
    "errno",
    "EOF",
    "stdin",
    "stdout",
    "stderr",
    "assert",
    "offsetof",
    "malloc",
    "calloc",
    "realloc",
    "free",
    "memcpy",
    "memset",
    "memmove",
    "strlen",
    "printf",
    "abort",
    "exit",
    "dlopen",
    "dlsym",
    "dlclose",
    "dlerror",
    "EXIT_SUCCESS",
    "EXIT_FAILURE",
    "RAND_MAX",
    "MB_CUR_MAX",
    "HUGE_VAL",
    "HUGE_VALF",
    "HUGE_VALL",
    "isinf",
    "isfinite",
    "isnormal",
    "signbit",
    "fpclassify",
    "math_errhandling",
    "MATH_ERRNO",
    "MATH_ERREXCEPT",
    "M_E",
    "M_LOG2E",
    "M_LOG10E",
    "M_LN2",
    "M_LN10",
    "M_PI",
    "M_PI_2",
    "M_PI_4",
    "M_1_PI",
    "M_2_PI",
    "M_2_SQRTPI",
    "M_SQRT2",
    "M_SQRT1_2",
    "float_t",
    "double_t",
    "CHAR_BIT",
    "MB_LEN_MAX",
};

/* <stdint.h>/<limits.h> limits: INT32_MAX, UINT8_MAX, INT64_C, INT_MAX,
 * LLONG_MIN, SIZE_MAX, ...; <float.h>: FLT_*, DBL_*; <math.h>: FP_*. */
static int c_limit_macro(const char *name) {
    static const char *const families[] = {"INT",        "CHAR",  "SCHAR",   "SHRT",
                                           "LONG",       "LLONG", "PTRDIFF", "SIZE",
                                           "SIG_ATOMIC", "WCHAR", "WINT"};
    static const char *const suffixes[] = {"_MAX", "_MIN", "_C", "_WIDTH"};
    const char *n = name[0] == 'U' ? name + 1 : name;
    if (strncmp(name, "FLT_", 4) == 0 || strncmp(name, "DBL_", 4) == 0 ||
        strncmp(name, "LDBL_", 5) == 0 || strncmp(name, "FP_", 3) == 0)
        return 1;
    size_t len = strlen(n);
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++) {
        if (strncmp(n, families[f], strlen(families[f])) != 0) continue;
        for (size_t s = 0; s < sizeof suffixes / sizeof suffixes[0]; s++) {
            size_t sl = strlen(suffixes[s]);
            if (len > sl && strcmp(n + len - sl, suffixes[s]) == 0) return 1;
        }
    }
    return 0;
}

/* CUDA's vector types (float4, int2, uchar3, ...; make_float4 is covered
 * by the make_ prefix). */
static int c_vector_type(const char *name) {
    static const char *const bases[] = {"char",     "uchar",     "short", "ushort",
                                        "int",      "uint",      "long",  "ulong",
                                        "longlong", "ulonglong", "float", "double"};
    size_t len = strlen(name);
    if (len < 2 || name[len - 1] < '1' || name[len - 1] > '4') return 0;
    for (size_t b = 0; b < sizeof bases / sizeof bases[0]; b++)
        if (strlen(bases[b]) == len - 1 && strncmp(name, bases[b], len - 1) == 0) return 1;
    return 0;
}

int c_name_reserved(const char *name) {
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
        if (strcmp(reserved[i], name) == 0) return 1;
    /* generated locals: v<digits>..., t<digits>, reduce_smem_*,
     * stride_<digits> (the reductions' loops; Triton's stride_am stays the
     * kernel's name), mt_*, g<digit>, double underscores */
    if (name[0] == 'v' && isdigit((unsigned char)name[1])) return 1;
    if (strncmp(name, "stride_", 7) == 0 && name[7]) {
        const char *d = name + 7;
        while (isdigit((unsigned char)*d)) d++;
        if (!*d) return 1;
    }
    if (strncmp(name, "reduce_", 7) == 0 || strncmp(name, "mt_", 3) == 0 ||
        strncmp(name, "mytriton", 8) == 0 || strncmp(name, "cuda", 4) == 0 ||
        strncmp(name, "__", 2) == 0)
        return 1;
    /* mm_* (the -O2 matmul lowering), launch_* (launchers), make_*, CUDA's
     * and the driver API's CU..., MYTRITON_*, pthread_*, RTLD_*; X_al16 is
     * the -O2 backend's alignment flag of a parameter X */
    if (strncmp(name, "mm_", 3) == 0 || strncmp(name, "launch_", 7) == 0 ||
        strncmp(name, "make_", 5) == 0 || strncmp(name, "CU", 2) == 0 ||
        strncmp(name, "MYTRITON", 8) == 0 || strncmp(name, "pthread_", 8) == 0 ||
        strncmp(name, "PTHREAD_", 8) == 0 || strncmp(name, "RTLD_", 5) == 0)
        return 1;
    size_t len = strlen(name);
    if (len > 5 && strcmp(name + len - 5, "_al16") == 0) return 1;
    if (c_limit_macro(name) || c_vector_type(name)) return 1;
    if (name[0] == '_' && isupper((unsigned char)name[1])) return 1;
    if ((name[0] == 'g' || name[0] == 't') && isdigit((unsigned char)name[1])) return 1;
    return 0;
}

/* Names the generated code derives from the kernel's symbol NAME_kernel:
 * the symbol itself, the host backend's NAME_args, NAME_blocks and
 * NAME_program, and the NAME_host / NAME_mlir registry ids. */
static int derived_name(const Function *f, const char *name) {
    if (!f->name) return 0;
    size_t n = strlen(f->name);
    if (n > 7 && strcmp(f->name + n - 7, "_kernel") == 0) n -= 7;
    if (strncmp(name, f->name, n) != 0 || name[n] != '_') return 0;
    static const char *const suffixes[] = {"kernel", "args", "blocks", "program", "host", "mlir"};
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
        if (strcmp(name + n + 1, suffixes[i]) == 0) return 1;
    return 0;
}

const char **c_param_names(Arena *a, const Function *f) {
    const char **names = ARENA_ARRAY(a, const char *, f->nparams + 1);
    for (int i = 0; i < f->nparams; i++) {
        const char *n = f->params[i].name;
        int ascii = 1;
        for (const char *q = n; *q; q++) ascii &= (unsigned char)*q < 0x80;
        if (!ascii) n = arena_printf(a, "arg%d", i);
        if (ascii && !c_name_reserved(n) && !derived_name(f, n)) {
            names[i] = n;
            continue;
        }
        /* p_<name>, made unique against every parameter name */
        for (int k = 0;; k++) {
            const char *cand = k ? arena_printf(a, "p%d_%s", k, n) : arena_printf(a, "p_%s", n);
            /* a reserved suffix (X_al16) stays reserved under any prefix */
            if (c_name_reserved(cand)) cand = arena_printf(a, "%s_", cand);
            int clash = c_name_reserved(cand) || derived_name(f, cand);
            for (int j = 0; j < f->nparams && !clash; j++)
                clash = strcmp(f->params[j].name, cand) == 0;
            for (int j = 0; j < i && !clash; j++) clash = strcmp(names[j], cand) == 0;
            if (!clash) {
                names[i] = cand;
                break;
            }
        }
    }
    return names;
}

/* ---- Elementwise ops as C expressions (every C-like backend) ------------- */

DType c_operand_dtype(Arena *a, const Function *f, const Inst *in, int k) {
    DType rt = (DType)in->type.dtype;
    switch (op_info(in->op)->rule) {
    case TR_CMP: {
        Operand x = in->args[0], y = in->args[1];
        const char *err;
        DType ct = promote_dtypes(a, (DType)operand_type(f, x).dtype, x.kind == OPD_CONST,
                                  (DType)operand_type(f, y).dtype, y.kind == OPD_CONST, 0, &err);
        return ct == DT_NONE ? (DType)operand_type(f, in->args[k]).dtype : ct;
    }
    case TR_SELECT: return k == 0 ? DT_BOOL : rt;
    case TR_DIV:
        /* the seed's i32 / i32: the operands stay i32 */
        if (!dtype_is_float((DType)operand_type(f, in->args[0]).dtype) &&
            !dtype_is_float((DType)operand_type(f, in->args[1]).dtype))
            return (DType)operand_type(f, in->args[k]).dtype;
        return rt;
    case TR_UNARY_NUM:
    case TR_UNARY_FLOAT:
    case TR_UNARY_F32:
    case TR_DIV_F32:
    case TR_ARITH:
    case TR_DIVMOD:
    case TR_INT_DIVMOD:
    case TR_FMA:
    case TR_BINARY_FLOAT:
    case TR_UMULHI:
    case TR_BITWISE:
    case TR_SHIFT: return rt;
    case TR_SPECIAL: break;
    }
    /* the ops with rules of their own that convert an operand */
    if (in->op == OP_LOAD) return k == 1 ? DT_BOOL : rt;
    if (in->op == OP_STORE)
        return k == 2 ? DT_BOOL : k == 1 ? (DType)operand_type(f, in->args[0]).dtype : DT_NONE;
    if (in->op == OP_FULL) return in->attrs.dtype;
    return (DType)operand_type(f, in->args[k]).dtype;
}

static int seed_dtype(DType dt) { return dt == DT_I32 || dt == DT_F32 || dt == DT_BOOL; }

const char *c_operand_const(Arena *a, ConstVal c, DType opdt, CDialect d) {
    /* the seed's constants print as written: C converts them */
    if (seed_dtype(c.dt) && seed_dtype(opdt) && !(opdt == DT_BOOL && c.dt != DT_BOOL))
        return c_const(a, c, d);
    return c_const(a, const_convert(c, opdt), d);
}

/* Fills a template: {0} {1} {2} the operands, {f} "f" in f32 and "" in f64. */
static const char *fill(Arena *a, const char *tmpl, const char *const *x, DType ct) {
    StrBuf sb;
    sb_init(&sb, a);
    for (const char *p = tmpl; *p; p++) {
        if (p[0] == '{' && p[1] >= '0' && p[1] <= '2' && p[2] == '}') {
            sb_puts(&sb, x[p[1] - '0']);
            p += 2;
        } else if (p[0] == '{' && p[1] == 'f' && p[2] == '}') {
            if (ct != DT_F64) sb_putc(&sb, 'f');
            p += 2;
        } else {
            sb_putc(&sb, *p);
        }
    }
    return sb_str(&sb);
}

static const char *int_literal(Arena *a, DType dt, int max) {
    if (dtype_is_unsigned(dt))
        return arena_printf(a, "%lluULL", (unsigned long long)(max ? dtype_int_max(dt) : 0));
    if (max) return arena_printf(a, "%lldLL", (long long)dtype_int_max(dt));
    if (dtype_int_min(dt) == INT64_MIN) return "(-9223372036854775807LL - 1)";
    return arena_printf(a, "%lldLL", (long long)dtype_int_min(dt));
}

const char *c_cast_expr(Arena *a, CDialect d, DType from, DType to, int rtz, const char *x) {
    const char *T = c_type_in(to, d);
    if (from == to) return x;
    if (to == DT_BOOL) return arena_printf(a, "(%s != 0)", x);
    if (from == DT_BOOL || (dtype_is_int(from) && dtype_is_int(to)))
        return arena_printf(a, "(%s)%s", T, x);
    if (dtype_is_int(from)) { /* to a float: one rounding to f32 / f64, then to a narrower float */
        if (d == C_CUDA && (to == DT_F16 || to == DT_BF16)) {
            /* one rounding, as Triton's cvt.rn.f16 / .bf16 (through f32, an integer above 2^24
             * rounds twice) */
            int b64 = dtype_info(from)->bits == 64, u = dtype_is_unsigned(from);
            const char *fn = b64 ? (u ? "ull" : "ll") : (u ? "uint" : "int");
            const char *ct =
                b64 ? (u ? "unsigned long long" : "long long") : (u ? "unsigned" : "int");
            if (to == DT_F16)
                return arena_printf(a, "__half2float(__%s2half_rn((%s)%s))", fn, ct, x);
            return arena_printf(a, "__bfloat162float(__%s2bfloat16_rn((%s)%s))", fn, ct, x);
        }
        DType ct = dtype_info(to)->compute;
        return c_round(a, to, d, arena_printf(a, "(%s)%s", c_type_in(ct, d), x));
    }
    if (dtype_is_int(to)) {
        /* truncation, saturating, NaN to 0 (PTX cvt.rzi); the hardware's
         * own conversion where the C cast compiles to it */
        if (d == C_CUDA) {
            /* 8- and 16-bit results: PTX's cvt.rzi.s16 / .u16 (NaN to 0, saturating at 16 bits),
             * which
             * an 8-bit result truncates (PTX has no 8-bit cvt; Triton's result). A C cast to short
             * would not saturate at 16 bits: the 32-bit conversion, clamped. */
            if (dtype_info(to)->bits <= 16) {
                int dbl = dtype_info(from)->compute == DT_F64;
                if (dtype_is_unsigned(to))
                    return arena_printf(a, "(%s)min(%s(%s), 65535u)", T,
                                        dbl ? "__double2uint_rz" : "__float2uint_rz", x);
                return arena_printf(a, "(%s)max(-32768, min(%s(%s), 32767))", T,
                                    dbl ? "__double2int_rz" : "__float2int_rz", x);
            }
            return arena_printf(a, "(%s)%s", T, x);
        }
        /* host: the same, in software (mytriton/dtypes.h) */
        DType sat = dtype_info(to)->bits == 8 ? (dtype_is_unsigned(to) ? DT_U16 : DT_I16) : to;
        if (dtype_is_unsigned(to))
            return arena_printf(a, "(%s)mytriton_f2u((double)%s, %s)", T, x,
                                int_literal(a, sat, 1));
        if (to == DT_I64) return arena_printf(a, "(%s)mytriton_f2i64((double)%s)", T, x);
        return arena_printf(a, "(%s)mytriton_f2i((double)%s, %s, %s)", T, x, int_literal(a, sat, 0),
                            int_literal(a, sat, 1));
    }
    /* float to float */
    int fb = dtype_info(from)->bits, tb = dtype_info(to)->bits;
    if (tb > fb || (tb == fb && from != to && tb > 16))
        return to == DT_F64 ? arena_printf(a, "(double)%s", x) : x;
    if (to == DT_F32) {
        if (!rtz) return arena_printf(a, "(float)%s", x);
        return d == C_CUDA ? arena_printf(a, "__double2float_rz(%s)", x)
                           : arena_printf(a, "mytriton_f64_to_f32_rz(%s)", x);
    }
    if (rtz) {
        if (d == C_CUDA && to == DT_F16 && from == DT_F32)
            return arena_printf(a, "__half2float(__float2half_rz(%s))", x);
        if (d == C_CUDA && to == DT_BF16 && from == DT_F32)
            return arena_printf(a, "__bfloat162float(__float2bfloat16_rz(%s))", x);
        return arena_printf(a, "mytriton_round_rz((double)%s, %d, %d)", x,
                            to == DT_F16      ? 5
                            : to == DT_BF16   ? 8
                            : to == DT_F8E4NV ? 4
                                              : 5,
                            dtype_info(to)->mant);
    }
    if (from == DT_F64) {
        /* one rounding from the double */
        if (d == C_CUDA && to == DT_F16)
            return arena_printf(a, "__half2float(__double2half(%s))", x);
        if (d == C_CUDA && to == DT_BF16)
            return arena_printf(a, "__bfloat162float(__double2bfloat16(%s))", x);
        if (d == C_HOST && to == DT_F16)
            return arena_printf(a, "mytriton_fp16_to_float(mytriton_fp16_from_double(%s))", x);
        if (d == C_HOST && to == DT_BF16)
            return arena_printf(a, "mytriton_bf16_to_float(mytriton_bf16_from_double(%s))", x);
        return c_round(a, to, d, arena_printf(a, "(float)%s", x));
    }
    return c_round(a, to, d, x);
}

const char *c_bitcast_expr(Arena *a, CDialect d, DType from, DType to, const char *x) {
    const char *bits = c_store(a, from, d, x);
    if (d == C_CUDA)
        return c_load(a, to, d,
                      arena_printf(a, "mytriton_bitcast<%s>(%s)", c_mem_type(to, d), bits));
    return c_load(a, to, d,
                  arena_printf(a, "MYTRITON_BITCAST(%s, %s, %s)", c_mem_type(to, d),
                               c_mem_type(from, d), bits));
}

const char *c_op_expr(Arena *a, CDialect d, const Function *f, const Inst *in,
                      const char *const *x) {
    const OpInfo *info = op_info(in->op);
    DType rt = (DType)in->type.dtype;
    DType ct = dtype_info(rt)->compute;
    DType od = in->nargs > 0 ? (DType)operand_type(f, in->args[0]).dtype : DT_NONE;
    int fl = dtype_is_float(rt);
    const char *e = NULL;
    int round = 0; /* an inexact result: rounded to a narrow float dtype */
    switch (in->op) {
    case OP_NEG: return arena_printf(a, "-(%s)", x[0]);
    case OP_ABS:
        if (fl) return arena_printf(a, "fabs%s(%s)", ct == DT_F64 ? "" : "f", x[0]);
        if (!dtype_is_signed(rt) || rt == DT_BOOL) return x[0];
        return arena_printf(a, "(%s < 0 ? -%s : %s)", x[0], x[0], x[0]);
#define MATH(id, name, nargs, rule, tmpl, triton, mlir, meaning) case OP_##id:
#include "base/ops_math.def"
#undef MATH
        e = fill(a, info->c_tmpl, x, ct);
        round = 1;
        break;
    case OP_ADD:
    case OP_SUB:
    case OP_MUL:
    case OP_FLOORDIV:
    case OP_CMP_LT:
    case OP_CMP_LE:
    case OP_CMP_GT:
    case OP_CMP_GE:
    case OP_CMP_EQ:
    case OP_CMP_NE:
    case OP_SHL:
    case OP_SHR:
        e = arena_printf(a, "(%s %s %s)", x[0], info->c_op, x[1]);
        round = fl;
        break;
    case OP_DIV:
    case OP_DIV_RN:
        if (!dtype_is_float(od) && !dtype_is_float((DType)operand_type(f, in->args[1]).dtype))
            return arena_printf(a, "((float)%s / (float)%s)", x[0], x[1]);
        e = arena_printf(a, "(%s / %s)", x[0], x[1]);
        round = 1;
        break;
    case OP_MOD:
        if (fl) {
            e = arena_printf(a, "fmod%s(%s, %s)", ct == DT_F64 ? "" : "f", x[0], x[1]);
            round = 1;
        } else {
            e = arena_printf(a, "(%s %% %s)", x[0], x[1]);
        }
        break;
    case OP_AND:
    case OP_OR:
    case OP_XOR:
        if (rt == DT_BOOL) {
            const char *op = in->op == OP_AND ? "&&" : in->op == OP_OR ? "||" : "!=";
            return arena_printf(a, "(%s %s %s)", x[0], op, x[1]);
        }
        return arena_printf(a, "(%s %s %s)", x[0], info->c_op, x[1]);
    case OP_MAXIMUM:
    case OP_MINIMUM: {
        const char *p = x[0], *q = x[1];
        const char *T = c_type_in(rt, d);
        if (in->args[0].kind != OPD_CONST && operand_type(f, in->args[0]).dtype != rt)
            p = arena_printf(a, "(%s)%s", T, x[0]);
        if (in->args[1].kind != OPD_CONST && operand_type(f, in->args[1]).dtype != rt)
            q = arena_printf(a, "(%s)%s", T, x[1]);
        const char *cmp = in->op == OP_MAXIMUM ? ">" : "<";
        if (fl && in->attrs.flag)
            return arena_printf(a, "f%s%s(%s, %s)", in->op == OP_MAXIMUM ? "max" : "min",
                                ct == DT_F64 ? "" : "f", p, q);
        if (fl)
            return arena_printf(
                a, "(isnan(%s) ? (%s) : (isnan(%s) ? (%s) : ((%s) %s (%s) ? (%s) : (%s))))", p, p,
                q, q, p, cmp, q, p, q);
        return arena_printf(a, "((%s) %s (%s) ? (%s) : (%s))", p, cmp, q, p, q);
    }
    case OP_UMULHI: {
        int b64 = dtype_info(rt)->bits == 64;
        const char *T = c_type_in(rt, d);
        if (d == C_CUDA)
            return b64 ? arena_printf(
                             a, "(%s)__umul64hi((unsigned long long)%s, (unsigned long long)%s)", T,
                             x[0], x[1])
                       : arena_printf(a, "(%s)__umulhi((unsigned)%s, (unsigned)%s)", T, x[0], x[1]);
        return b64 ? arena_printf(a, "(%s)mytriton_umul64hi((uint64_t)%s, (uint64_t)%s)", T, x[0],
                                  x[1])
                   : arena_printf(a, "(%s)(((uint64_t)(uint32_t)%s * (uint32_t)%s) >> 32)", T, x[0],
                                  x[1]);
    }
    case OP_SELECT: return arena_printf(a, "(%s ? %s : %s)", x[0], x[1], x[2]);
    case OP_INLINE_ASM:
    case OP_INLINE_ASM_VOLATILE: {
        /* PTX: the CUDA backends only (asm.c's helper, one element a call) */
        if (d != C_CUDA) return NULL;
        StrBuf sb;
        sb_init(&sb, a);
        sb_printf(&sb, "%s(", asm_helper_name(a, f, in));
        for (int k = 0; k < in->nargs; k++) sb_printf(&sb, "%s%s", k ? ", " : "", x[k]);
        sb_putc(&sb, ')');
        return sb_str(&sb);
    }
    case OP_CAST: return c_cast_expr(a, d, od, rt, in->attrs.flag, x[0]);
    case OP_BITCAST: return c_bitcast_expr(a, d, od, rt, x[0]);
    case OP_HINT:
    case OP_BROADCAST: return x[0]; /* (broadcast: the operand's element, read broadcast) */
    default: /* the ops each backend renders itself: indices, shapes, pointers,
              * memory, reductions, regions */
    case OP_COUNT: return NULL;
    }
    if (round && ct != rt) return c_round(a, rt, d, e);
    return e;
}

/* Triton's instructions where CUDA has no function compiling to exactly
 * them (measured: scripts/triton_numerics_probe.py). A helper with `ptx`
 * is that instruction (%0 the result, %1 x, %2 y); under a compiler without
 * PTX (test/emu's CPU emulation) it is the nearest C (`body`). */
static const struct TritonHelper {
    const char *name, *type, *params, *ptx, *body, *what;
} triton_helpers[] = {
    {"mt_ex2_approx", "float", "float x", "ex2.approx.f32 %0, %1;", "exp2f(x)",
     "2^x (tl.exp: after a product by log2 e)"},
    {"mt_ex2_approx_ftz", "float", "float x", "ex2.approx.ftz.f32 %0, %1;", "exp2f(x)",
     "2^x, subnormals flushed (tl.exp2)"},
    {"mt_sqrt_approx", "float", "float x", "sqrt.approx.ftz.f32 %0, %1;", "sqrtf(x)", "tl.sqrt"},
    {"mt_rsqrt_approx", "float", "float x", "rsqrt.approx.ftz.f32 %0, %1;", "1.0f / sqrtf(x)",
     "tl.rsqrt"},
    {"mt_div_full", "float", "float x, float y", "div.full.f32 %0, %1, %2;", "x / y",
     "'/' and tl.fdiv"},
    {"mt_floor_ftz", "float", "float x", "cvt.rmi.ftz.f32.f32 %0, %1;", "floorf(x)",
     "tl.floor (subnormals flushed, as Triton)"},
    {"mt_ceil_ftz", "float", "float x", "cvt.rpi.ftz.f32.f32 %0, %1;", "ceilf(x)",
     "tl.ceil (subnormals flushed, as Triton)"},
    {"mt_ftz", "float", "float x", NULL, "fabsf(x) < 1.17549435e-38f ? copysignf(0.0f, x) : x",
     "a subnormal flushed to a zero of its sign (Triton's libdevice calls flush them)"},
    {"mt_frem_f32", "float", "float x, float y", NULL,
     "fabsf(y) == __int_as_float(0x7f800000) ? x : fmaf(-truncf(__fdiv_rn(x, y)), y, x)",
     "'%': LLVM's frem, x - trunc(x / y) * y fused (y infinite: x)"},
    {"mt_frem_f64", "double", "double x, double y", NULL,
     "fabs(y) == __longlong_as_double(0x7ff0000000000000LL) ? x : fma(-trunc(__ddiv_rn(x, y)), y, "
     "x)",
     "'%' on f64"},
};

/* Integer maximum and minimum, guarded against ptxas's VIMNMX3 fusion
 * (cb_int_minmax in emit_cuda_blocked.c says why): a compare and a select
 * in inline PTX; without PTX (test/emu) the conditional. */
static const struct TritonHelper ptxas_guard_helpers[] = {
    {"mt_max_s32", "int", "int x, int y",
     "{ .reg .pred p; setp.gt.s32 p, %1, %2; selp.b32 %0, %1, %2, p; }", "x > y ? x : y",
     "signed maximum"},
    {"mt_min_s32", "int", "int x, int y",
     "{ .reg .pred p; setp.lt.s32 p, %1, %2; selp.b32 %0, %1, %2, p; }", "x < y ? x : y",
     "signed minimum"},
    {"mt_max_u32", "unsigned", "unsigned x, unsigned y",
     "{ .reg .pred p; setp.gt.u32 p, %1, %2; selp.b32 %0, %1, %2, p; }", "x > y ? x : y",
     "unsigned maximum"},
    {"mt_min_u32", "unsigned", "unsigned x, unsigned y",
     "{ .reg .pred p; setp.lt.u32 p, %1, %2; selp.b32 %0, %1, %2, p; }", "x < y ? x : y",
     "unsigned minimum"},
};

/* The helpers of `table` that `code` calls, after `heading` (once). */
static void put_helpers(Arena *a, StrBuf *sb, const struct TritonHelper *table, size_t n,
                        const char *heading, const char *code) {
    int first = 1;
    for (size_t h = 0; h < n; h++) {
        const struct TritonHelper *H = &table[h];
        if (!strstr(code, arena_printf(a, "%s(", H->name))) continue;
        if (first) sb_puts(sb, heading);
        first = 0;
        const char *guard = arena_printf(a, "MYTRITON_HELPER_%s", H->name + 3);
        sb_printf(sb, "#ifndef %s\n#define %s\n", guard, guard);
        sb_printf(sb, "static __device__ __forceinline__ %s %s(%s) { // %s\n", H->type, H->name,
                  H->params, H->what);
        if (!H->ptx) {
            sb_printf(sb, "    return %s;\n}\n#endif\n", H->body);
            continue;
        }
        int two = strchr(H->params, ',') != NULL;
        const char *k = strcmp(H->type, "float") == 0 ? "f" : "r"; /* the register class */
        sb_printf(
            sb,
            "#ifdef __CUDA_ARCH__\n    %s r;\n    asm(\"%s\" : \"=%s\"(r) : \"%s\"(x)%s%s%s);\n"
            "    return r;\n",
            H->type, H->ptx, k, k, two ? ", \"" : "", two ? k : "", two ? "\"(y)" : "");
        sb_printf(sb, "#else\n    return %s;\n#endif\n}\n#endif\n", H->body);
    }
}

const char *c_triton_helpers(Arena *a, const char *code) {
    StrBuf sb;
    sb_init(&sb, a);
    put_helpers(
        a, &sb, triton_helpers, sizeof triton_helpers / sizeof triton_helpers[0],
        "// Triton's numerics: the instructions Triton emits for these ops (each defined once\n"
        "// in a translation unit that includes several generated kernels)\n",
        code);
    put_helpers(
        a, &sb, ptxas_guard_helpers, sizeof ptxas_guard_helpers / sizeof ptxas_guard_helpers[0],
        "// Integer maximum and minimum as compare and select: CUDA 13.0's ptxas fuses\n"
        "// max.s32 chains into VIMNMX3 and can drop an operand's negation (docs/design.md)\n",
        code);
    if (sb.len) sb_putc(&sb, '\n');
    return sb_str(&sb);
}

const char *c_gather_index(Arena *a, const Function *f, const Inst *in, const char *p,
                           const char *idx) {
    Type x = operand_type(f, in->args[0]);
    int ax = in->attrs.axis, d = (int)x.dims[ax];
    const char *i = arena_printf(a,
                                 "((unsigned long long)(%s) < %dull ? (int)(%s) : "
                                 "0)",
                                 idx, d, idx);
    if (x.rank == 1) return i;
    int cs = (int)x.dims[1], cr = (int)in->type.dims[1];
    if (ax == 0) return arena_printf(a, "%s * %d + (%s) %% %d", i, cs, p, cr);
    return arena_printf(a, "(%s) / %d * %d + %s", p, cr, cs, i);
}

const char *c_remap_index(Arena *a, const Attrs *at, const char *e) {
    StrBuf sb;
    sb_init(&sb, a);
    sb_printf(&sb, "(%d", (int)at->voff);
    long long inner = 1; /* elements of one step of index k */
    for (int k = at->nv - 1; k >= 0; k--) {
        int d = at->vdims[k], s = at->vstride[k];
        if (d > 1 && s != 0) {
            const char *i =
                inner == 1 ? arena_printf(a, "(%s)", e) : arena_printf(a, "(%s) / %lld", e, inner);
            /* the outermost index is below its dimension already */
            if (k > 0) i = arena_printf(a, "%s %% %d", i, d);
            if (s == 1) sb_printf(&sb, " + (%s)", i);
            else sb_printf(&sb, " + (%s) * %d", i, s);
        }
        inner *= d;
    }
    sb_putc(&sb, ')');
    return sb_str(&sb);
}

const char *c_template(Arena *a, const char *tmpl, const char *const *x, DType ct) {
    return fill(a, tmpl, x, ct);
}

/* Triton pads each index to the digits of its dimension: ceil(log10(dim)). */
static int index_width(int dim) {
    int w = 0;
    for (long long p = 1; p < dim; p *= 10) w++;
    return w;
}

static const char *print_conversion(Arena *a, DType dt, int hex) {
    const DTypeInfo *d = dtype_info(dt);
    if (hex) {
        if (dt == DT_BOOL) return "0x%x";
        return arena_printf(a, "0x%%0%d%sx", d->bits / 4, d->bits > 32 ? "ll" : "");
    }
    if (d->cls == DC_FLOAT) return "%f";
    if (d->cls == DC_SINT) return d->bits == 64 ? "%lld" : "%d";
    return d->bits == 64 ? "%llu" : "%u";
}

const char *c_print_format(Arena *a, Type t, int hex, int operand, int noperands) {
    StrBuf sb;
    sb_init(&sb, a);
    sb_puts(&sb, "pid (%u, %u, %u) idx (");
    for (int k = 0; k < t.rank; k++) {
        int w = index_width((int)t.dims[k]);
        if (w > 0) sb_printf(&sb, "%s%%%du", k ? ", " : "", w);
        else sb_printf(&sb, "%s%%u", k ? ", " : "");
    }
    sb_puts(&sb, ")%s");
    if (noperands > 1) sb_printf(&sb, "(operand %d) ", operand);
    sb_printf(&sb, "%s\\n", print_conversion(a, (DType)t.dtype, hex));
    return sb_str(&sb);
}

Type c_print_type(const Attrs *at, Type t) {
    if (at->rank <= 2 || t.rank != 2) return t;
    return type_with_shape(t, at->rank, at->shape);
}

void c_print_indices(StrBuf *args, Arena *a, const Attrs *at, Type t, const char *const *idx,
                     const char *fmt) {
    Type p = c_print_type(at, t);
    if (p.rank == t.rank) {
        for (int k = 0; k < t.rank; k++) {
            sb_puts(args, ", ");
            sb_printf(args, fmt, idx[k]);
        }
        return;
    }
    long long below = 1; /* the row's indices: all but the last */
    for (int k = p.rank - 2; k > 0; k--) below *= p.dims[k];
    for (int k = 0; k < p.rank; k++) {
        const char *i = idx[1];
        if (k + 1 < p.rank) {
            i = below > 1 ? arena_printf(a, "(%s) / %lld", idx[0], below)
                          : arena_printf(a, "(%s)", idx[0]);
            if (k > 0) i = arena_printf(a, "(%s %% %d)", i, (int)p.dims[k]);
            else if (below > 1) i = arena_printf(a, "(%s)", i);
            if (k + 2 < p.rank) below /= p.dims[k + 1];
        }
        sb_puts(args, ", ");
        sb_printf(args, fmt, i);
    }
}

const char *c_print_arg(Arena *a, DType dt, int hex, const char *v) {
    const DTypeInfo *d = dtype_info(dt);
    if (hex) {
        if (d->bits == 64) return arena_printf(a, "(unsigned long long)(%s)", v);
        if (d->bits == 32) return arena_printf(a, "(unsigned)(%s)", v);
        /* the bits of a narrow integer, not its sign extension */
        return arena_printf(a, "(unsigned)((%s) & 0x%xu)", v, (1u << d->bits) - 1);
    }
    if (d->cls == DC_FLOAT) return arena_printf(a, "(double)(%s)", v);
    if (d->cls == DC_SINT)
        return arena_printf(a, d->bits == 64 ? "(long long)(%s)" : "(int)(%s)", v);
    return arena_printf(a, d->bits == 64 ? "(unsigned long long)(%s)" : "(unsigned)(%s)", v);
}
