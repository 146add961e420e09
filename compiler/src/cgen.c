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
};

int c_name_reserved(const char *name) {
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
        if (strcmp(reserved[i], name) == 0) return 1;
    /* generated locals: v<digits>..., t<digits>, reduce_smem_*, stride_*,
     * mt_*, g<digit>, double underscores */
    if (name[0] == 'v' && isdigit((unsigned char)name[1])) return 1;
    if (strncmp(name, "reduce_", 7) == 0 || strncmp(name, "stride_", 7) == 0 || strncmp(name, "mt_", 3) == 0 ||
        strncmp(name, "mytriton", 8) == 0 || strncmp(name, "cuda", 4) == 0 || strncmp(name, "__", 2) == 0)
        return 1;
    if (name[0] == '_' && isupper((unsigned char)name[1])) return 1;
    if ((name[0] == 'g' || name[0] == 't') && isdigit((unsigned char)name[1])) return 1;
    return 0;
}

const char **c_param_names(Arena *a, const Function *f) {
    const char **names = ARENA_ARRAY(a, const char *, f->nparams + 1);
    for (int i = 0; i < f->nparams; i++) {
        const char *n = f->params[i].name;
        int ascii = 1;
        for (const char *q = n; *q; q++) ascii &= (unsigned char)*q < 0x80;
        if (!ascii) n = arena_printf(a, "arg%d", i);
        if (ascii && !c_name_reserved(n)) {
            names[i] = n;
            continue;
        }
        /* p_<name>, made unique against every parameter name */
        for (int k = 0;; k++) {
            const char *cand = k ? arena_printf(a, "p%d_%s", k, n) : arena_printf(a, "p_%s", n);
            int clash = 0;
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
