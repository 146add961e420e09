/* Shared helpers of the C-like backends. */
#include "cgen.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

const char *c_type(DType dt) {
    switch (dt) {
    case DT_BOOL: return "bool";
    case DT_I32: return "int";
    case DT_F32: return "float";
    default: return "void";
    }
}

const char *c_param_type(Type t) {
    if (t.ptr) return t.dtype == DT_F32 ? "float*" : "int*";
    return c_type((DType)t.dtype);
}

const char *c_launcher_type(Type t, int is_const) {
    if (t.ptr) {
        if (t.dtype == DT_F32) return is_const ? "const float*" : "float*";
        return is_const ? "const int32_t*" : "int32_t*";
    }
    return t.dtype == DT_F32 ? "float" : "int32_t";
}

const char *c_zero(DType dt) { return dt == DT_F32 ? "0.0f" : dt == DT_BOOL ? "false" : "0"; }

const char *c_const(Arena *a, ConstVal c, CDialect d) {
    switch (c.dt) {
    case DT_BOOL: return c.i ? "true" : "false";
    case DT_I32:
        if (c.i == INT32_MIN) return "(-2147483647 - 1)";
        return arena_printf(a, "%lld", (long long)c.i);
    case DT_F32:
        if (isnan(c.f)) return d == C_CUDA ? "__int_as_float(0x7fc00000)" : "NAN";
        if (isinf(c.f)) {
            if (d == C_CUDA) return c.f > 0 ? "__int_as_float(0x7f800000)" : "(-__int_as_float(0x7f800000))";
            return c.f > 0 ? "INFINITY" : "(-INFINITY)";
        }
        return arena_printf(a, "%sf", const_repr(a, c));
    default: return "0";
    }
}

static const char *const reserved[] = {
    /* C and C++ keywords */
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char",
    "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr", "constinit",
    "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete", "do", "double",
    "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if",
    "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or",
    "or_eq", "private", "protected", "public", "register", "reinterpret_cast", "requires", "restrict", "return",
    "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template", "this",
    "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual",
    "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "_Bool", "_Complex", "_Imaginary", "_Alignas",
    "_Alignof", "_Atomic", "_Generic", "_Noreturn", "_Static_assert", "_Thread_local", "main", "NULL",
    /* CUDA and the generated code */
    "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "tile_i", "tile_j", "stream", "grid", "dim3",
    "isnan", "expf", "fmaxf", "fminf", "max", "min", "INFINITY", "NAN", "cudaStream_t", "cudaError_t", "int32_t",
    "int64_t", "uint32_t", "size_t", "ctx", "args", "pid_x", "pid_y", "pid_z", "ok", "status", "empty", "self",
    /* locals and helpers of the generated code: the -O2 CUDA backend's
     * loops and lane indices, the launchers' error variable, CUDA vector
     * types and math the backends call, the MLIR launcher's driver API */
    "i", "j", "q", "r", "t", "off", "tx", "ty", "err",
    "fmaf", "uintptr_t", "intptr_t", "ptrdiff_t", "int8_t", "int16_t", "uint8_t", "uint16_t", "uint64_t", "texture",
    "surface", "atomicAdd", "clock", "abs", "exp",
    /* macros and functions of the headers the generated code includes
     * (stdint.h, stdlib.h, string.h, math.h, stdbool.h, dlfcn.h, pthread.h,
     * cuda_runtime.h): a parameter of that name would be replaced or shadow
     * what the code calls */
    "errno", "EOF", "stdin", "stdout", "stderr", "assert", "offsetof", "malloc", "calloc", "realloc", "free",
    "memcpy", "memset", "memmove", "strlen", "printf", "abort", "exit", "dlopen", "dlsym", "dlclose", "dlerror",
    "EXIT_SUCCESS", "EXIT_FAILURE", "RAND_MAX", "MB_CUR_MAX", "HUGE_VAL", "HUGE_VALF", "HUGE_VALL", "isinf",
    "isfinite", "isnormal", "signbit", "fpclassify", "math_errhandling", "MATH_ERRNO", "MATH_ERREXCEPT", "M_E",
    "M_LOG2E", "M_LOG10E", "M_LN2", "M_LN10", "M_PI", "M_PI_2", "M_PI_4", "M_1_PI", "M_2_PI", "M_2_SQRTPI",
    "M_SQRT2", "M_SQRT1_2", "float_t", "double_t", "CHAR_BIT", "MB_LEN_MAX",
};

/* <stdint.h>/<limits.h> limits: INT32_MAX, UINT8_MAX, INT64_C, INT_MAX,
 * LLONG_MIN, SIZE_MAX, ...; <float.h>: FLT_*, DBL_*; <math.h>: FP_*. */
static int c_limit_macro(const char *name) {
    static const char *const families[] = {"INT", "CHAR", "SCHAR", "SHRT", "LONG", "LLONG", "PTRDIFF", "SIZE",
                                           "SIG_ATOMIC", "WCHAR", "WINT"};
    static const char *const suffixes[] = {"_MAX", "_MIN", "_C", "_WIDTH"};
    const char *n = name[0] == 'U' ? name + 1 : name;
    if (strncmp(name, "FLT_", 4) == 0 || strncmp(name, "DBL_", 4) == 0 || strncmp(name, "LDBL_", 5) == 0 ||
        strncmp(name, "FP_", 3) == 0)
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
    static const char *const bases[] = {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong",
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
    /* generated locals: v<digits>..., t<digits>, reduce_smem_*, stride_*,
     * mt_*, g<digit>, double underscores */
    if (name[0] == 'v' && isdigit((unsigned char)name[1])) return 1;
    if (strncmp(name, "reduce_", 7) == 0 || strncmp(name, "stride_", 7) == 0 || strncmp(name, "mt_", 3) == 0 ||
        strncmp(name, "mytriton", 8) == 0 || strncmp(name, "cuda", 4) == 0 || strncmp(name, "__", 2) == 0)
        return 1;
    /* mm_* (the -O2 matmul lowering), launch_* (launchers), make_*, CUDA's
     * and the driver API's CU..., MYTRITON_*, pthread_*, RTLD_*; X_al16 is
     * the -O2 backend's alignment flag of a parameter X */
    if (strncmp(name, "mm_", 3) == 0 || strncmp(name, "launch_", 7) == 0 || strncmp(name, "make_", 5) == 0 ||
        strncmp(name, "CU", 2) == 0 || strncmp(name, "MYTRITON", 8) == 0 || strncmp(name, "pthread_", 8) == 0 ||
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
            for (int j = 0; j < f->nparams && !clash; j++) clash = strcmp(f->params[j].name, cand) == 0;
            for (int j = 0; j < i && !clash; j++) clash = strcmp(names[j], cand) == 0;
            if (!clash) {
                names[i] = cand;
                break;
            }
        }
    }
    return names;
}
