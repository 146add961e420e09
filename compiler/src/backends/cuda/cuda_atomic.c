/* Atomics in generated CUDA. A helper per (operation, sem, scope, dtype),
 * named mt_atom_<op>_<sem>_<scope>_<dtype> (sem without its underscore:
 * acqrel), is inline PTX under nvcc's device pass, as Triton emits it:
 *   atom.<sem>.<scope>.global.<op>.<type> (add: .u32 .s32 .u64 .f32 .f64,
 *   .noftz.f16 / .noftz.bf16; max / min: .s32 .u32 .s64 .u64; and / or /
 *   xor / exch: .b32 .b64; cas: .b16 .b32 .b64);
 * a float max / min is Triton's lowering: a value >= 0 (-0.0 included) is
 * a signed integer max (min) of the bits, a value < 0 an unsigned min
 * (max), a NaN does nothing. Compiled as plain C++ (test/emu's CPU
 * emulation of CUDA) the helper calls mytriton/atomic.h. */
#include "backends/cuda/cuda_atomic.h"

#include "cgen/cgen.h"

#include <stdio.h>
#include <string.h>

static const char *const sem_tag[SEM_COUNT] = {"acqrel", "acquire", "release", "relaxed"};

const char *cuda_atomic_call(Arena *a, const Inst *in, const char *elem, const char *cmp,
                             const char *v) {
    DType dt = (DType)in->type.dtype;
    int cas = in->op == OP_ATOMIC_CAS;
    const char *name =
        arena_printf(a, "mt_atom_%s_%s_%s_%s", cas ? "cas" : atomic_rmw_names[in->attrs.rmw],
                     sem_tag[in->attrs.sem], atomic_scope_names[in->attrs.scope], dtype_name(dt));
    if (cas) return arena_printf(a, "%s(&%s, %s, %s)", name, elem, cmp, v);
    return arena_printf(a, "%s(&%s, %s)", name, elem, v);
}

/* The register class and the PTX type of dtype's bits. */
typedef struct Bits {
    const char *reg;   /* constraint letter */
    const char *utype; /* C type of the bits */
    const char *to;    /* a compute value ({0}) as its bits */
    const char *from;  /* bits ({0}) as a compute value */
} Bits;

static Bits bits_of(DType dt) {
    switch (dt) {
    case DT_F32: return (Bits){"r", "unsigned", "__float_as_uint({0})", "__uint_as_float({0})"};
    case DT_F64:
        return (Bits){"l", "unsigned long long", "(unsigned long long)__double_as_longlong({0})",
                      "__longlong_as_double((long long){0})"};
    case DT_F16:
        return (Bits){"h", "unsigned short", "__half_as_ushort(__float2half_rn({0}))",
                      "__half2float(__ushort_as_half({0}))"};
    case DT_BF16:
        return (Bits){"h", "unsigned short", "__bfloat16_as_ushort(__float2bfloat16_rn({0}))",
                      "__bfloat162float(__ushort_as_bfloat16({0}))"};
    case DT_I16:
    case DT_U16: return (Bits){"h", "unsigned short", "(unsigned short){0}", "{0}"};
    case DT_I32:
    case DT_U32: return (Bits){"r", "unsigned", "(unsigned){0}", "{0}"};
    case DT_I64:
    case DT_U64: return (Bits){"l", "unsigned long long", "(unsigned long long){0}", "{0}"};
    case DT_NONE:
    case DT_BOOL:
    case DT_I8:
    case DT_U8:
    case DT_F8E4NV:
    case DT_F8E5:
    case DT_COUNT: break;
    }
    return (Bits){"r", "unsigned", "{0}", "{0}"};
}

static const char *subst(Arena *a, const char *tmpl, const char *x) {
    StrBuf sb;
    sb_init(&sb, a);
    for (const char *p = tmpl; *p; p++) {
        if (p[0] == '{' && p[1] == '0' && p[2] == '}') {
            sb_puts(&sb, x);
            p += 2;
        } else sb_putc(&sb, *p);
    }
    return sb_str(&sb);
}

/* One helper, from its name's parts. */
static void helper(StrBuf *sb, Arena *a, const char *name, const char *op, int sem, int scope,
                   DType dt) {
    const char *T = dtype_info(dt)->cuda; /* memory */
    const char *C = c_type((DType)dtype_info(dt)->compute);
    int cas = strcmp(op, "cas") == 0;
    int fl = dtype_is_float(dt), uns = dtype_is_unsigned(dt);
    int bits = dtype_info(dt)->bits;
    Bits B = bits_of(dt);
    const char *q =
        arena_printf(a, "atom.%s.%s.global", atomic_sem_names[sem], atomic_scope_names[scope]);
    sb_printf(sb, "#ifndef MYTRITON_HELPER_%s\n#define MYTRITON_HELPER_%s\n", name + 3, name + 3);
    sb_printf(sb, "static __device__ __forceinline__ %s %s(%s *p, %s%s v) {\n", C, name, T,
              cas ? arena_printf(a, "%s cmp, ", C) : "", C);
    sb_puts(sb, "#if defined(__CUDA_ARCH__)\n");
    if (dt == DT_BF16 && !cas) {
        /* atom.add.noftz.bf16 needs sm_90: before, a compare-and-swap loop
         * (the sum rounded once to bf16, as the instruction) */
        sb_puts(sb, "#if __CUDA_ARCH__ >= 900\n");
        sb_printf(
            sb,
            "    unsigned short r;\n    asm volatile(\"%s.add.noftz.bf16 %%0, [%%1], %%2;\" : "
            "\"=h\"(r) : \"l\"(p), \"h\"(%s) : \"memory\");\n",
            q, subst(a, B.to, "v"));
        sb_puts(sb, "#else\n");
        sb_puts(sb, "    unsigned short r = *(volatile unsigned short *)p, seen;\n");
        sb_puts(sb, "    do {\n        seen = r;\n");
        sb_printf(sb, "        unsigned short sum = %s;\n",
                  subst(a, B.to, arena_printf(a, "%s + v", subst(a, B.from, "seen"))));
        sb_printf(
            sb,
            "        asm volatile(\"%s.cas.b16 %%0, [%%1], %%2, %%3;\" : \"=h\"(r) : \"l\"(p), "
            "\"h\"(seen), \"h\"(sum) : \"memory\");\n",
            q);
        sb_puts(sb, "    } while (r != seen);\n#endif\n");
        sb_printf(sb, "    return %s;\n", subst(a, B.from, "r"));
    } else if (cas) {
        sb_printf(sb, "    %s r;\n", B.utype);
        sb_printf(sb,
                  "    asm volatile(\"%s.cas.b%d %%0, [%%1], %%2, %%3;\" : \"=%s\"(r) : \"l\"(p), "
                  "\"%s\"(%s), \"%s\"(%s) : \"memory\");\n",
                  q, bits, B.reg, B.reg, subst(a, B.to, "cmp"), B.reg, subst(a, B.to, "v"));
        sb_printf(sb, "    return %s;\n", subst(a, B.from, "r"));
    } else if (fl && (strcmp(op, "max") == 0 || strcmp(op, "min") == 0)) {
        int mx = strcmp(op, "max") == 0;
        const char *S = bits == 32 ? "int" : "long long";
        sb_printf(sb, "    %s b = %s;\n    %s r;\n", B.utype, subst(a, B.to, "v"), B.utype);
        sb_puts(sb, "    if (v >= 0) {\n");
        sb_printf(sb, "        %s s = (%s)b, o;\n", S, S);
        sb_printf(sb,
                  "        asm volatile(\"%s.%s.s%d %%0, [%%1], %%2;\" : \"=%s\"(o) : \"l\"(p), "
                  "\"%s\"(s) : \"memory\");\n",
                  q, mx ? "max" : "min", bits, B.reg, B.reg);
        sb_printf(sb, "        r = (%s)o;\n", B.utype);
        sb_puts(sb, "    } else if (v < 0) {\n");
        sb_printf(sb,
                  "        asm volatile(\"%s.%s.u%d %%0, [%%1], %%2;\" : \"=%s\"(r) : \"l\"(p), "
                  "\"%s\"(b) : \"memory\");\n",
                  q, mx ? "min" : "max", bits, B.reg, B.reg);
        sb_puts(sb, "    } else {\n");
        sb_printf(sb, "        r = *(volatile %s *)p;\n", B.utype);
        sb_puts(sb, "    }\n");
        sb_printf(sb, "    return %s;\n", subst(a, B.from, "r"));
    } else {
        const char *ptx_op, *ptx_ty;
        if (strcmp(op, "add") == 0) {
            ptx_op = "add";
            ptx_ty = dt == DT_F16    ? "noftz.f16"
                     : dt == DT_BF16 ? "noftz.bf16"
                     : fl            ? (bits == 32 ? "f32" : "f64")
                     : bits == 32    ? (uns ? "u32" : "s32")
                                     : "u64";
        } else if (strcmp(op, "max") == 0 || strcmp(op, "min") == 0) {
            ptx_op = op;
            ptx_ty = arena_printf(a, "%c%d", uns ? 'u' : 's', bits);
        } else {
            ptx_op = strcmp(op, "xchg") == 0 ? "exch" : op;
            ptx_ty = arena_printf(a, "b%d", bits);
        }
        int native_float = fl && strcmp(op, "add") == 0 && (dt == DT_F32 || dt == DT_F64);
        if (native_float) {
            const char *reg = dt == DT_F32 ? "f" : "d";
            sb_printf(sb, "    %s r;\n", C);
            sb_printf(sb,
                      "    asm volatile(\"%s.%s.%s %%0, [%%1], %%2;\" : \"=%s\"(r) : \"l\"(p), "
                      "\"%s\"(v) : \"memory\");\n    return r;\n",
                      q, ptx_op, ptx_ty, reg, reg);
        } else {
            sb_printf(sb, "    %s r;\n", B.utype);
            sb_printf(sb,
                      "    asm volatile(\"%s.%s.%s %%0, [%%1], %%2;\" : \"=%s\"(r) : \"l\"(p), "
                      "\"%s\"(%s) : \"memory\");\n",
                      q, ptx_op, ptx_ty, B.reg, B.reg, subst(a, B.to, "v"));
            sb_printf(sb, "    return %s;\n",
                      fl ? subst(a, B.from, "r") : arena_printf(a, "(%s)r", C));
        }
    }
    /* nvcc's host pass never runs a __device__ body */
    sb_puts(sb, "#elif defined(__CUDACC__)\n");
    sb_printf(sb, "    (void)p;\n%s    return v;\n", cas ? "    (void)cmp;\n" : "");
    sb_puts(sb, "#else\n");
    sb_printf(sb, "    return mytriton_atomic_%s_%s((%s *)(void *)p, %sv);\n", op, dtype_name(dt),
              dtype_info(dt)->host, cas ? "cmp, " : "");
    sb_puts(sb, "#endif\n}\n#endif\n");
}

const char *cuda_atomic_helpers(Arena *a, const char *code) {
    StrBuf sb;
    sb_init(&sb, a);
    PtrVec seen = {0};
    for (const char *p = strstr(code, "mt_atom_"); p; p = strstr(p + 1, "mt_atom_")) {
        size_t n = 0;
        while (p[n] == '_' || (p[n] >= 'a' && p[n] <= 'z') || (p[n] >= '0' && p[n] <= '9')) n++;
        const char *name = arena_strndup(a, p, n);
        int dup = 0;
        for (int i = 0; i < seen.len; i++) dup |= strcmp(seen.items[i], name) == 0;
        if (dup) continue;
        ptrvec_push(a, &seen, (void *)name);
        char op[8] = {0}, sem[8] = {0}, scope[8] = {0}, dts[8] = {0};
        if (sscanf(name, "mt_atom_%7[a-z]_%7[a-z]_%7[a-z]_%7[a-z0-9]", op, sem, scope, dts) != 4)
            continue;
        int si = 0, ci = 0;
        for (int i = 0; i < SEM_COUNT; i++)
            if (strcmp(sem_tag[i], sem) == 0) si = i;
        for (int i = 0; i < SCOPE_COUNT; i++)
            if (strcmp(atomic_scope_names[i], scope) == 0) ci = i;
        DType dt = DT_NONE;
        for (int d = 1; d < DT_COUNT; d++)
            if (strcmp(dtype_name((DType)d), dts) == 0) dt = (DType)d;
        if (dt == DT_NONE) continue;
        if (!sb.len)
            sb_puts(&sb,
                    "// atomics: Triton's atom instructions (mytriton/atomic.h when emulated)\n"
                    "#if !defined(__CUDACC__)\n#include \"mytriton/atomic.h\"\n#endif\n");
        helper(&sb, a, name, op, si, ci, dt);
    }
    if (sb.len) sb_putc(&sb, '\n');
    return sb_str(&sb);
}
