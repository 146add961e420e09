/* tl.inline_asm_elementwise: the CUDA helper that runs it on one element
 * (asm.h). */
#include "cgen/asm.h"

#include <stdint.h>
#include <string.h>

#include "cgen/cgen.h"
#include "base/ops.h"

const char *asm_helper_name(Arena *a, const Function *f, const Inst *in) {
    uint32_t h = 2166136261u;
    const char *parts[2] = {in->attrs.text ? in->attrs.text : "",
                            in->attrs.constraints ? in->attrs.constraints : ""};
    for (int k = 0; k < 2; k++)
        for (const unsigned char *s = (const unsigned char *)parts[k];; s++) {
            h = (h ^ *s) * 16777619u;
            if (!*s) break;
        }
    int tail[11] = {
        in->attrs.pack, in->op, in->type.dtype, -1, -1, -1, in->attrs.axis, -1, -1, -1, -1};
    for (int i = 0; i < in->nargs && i < 3; i++) tail[3 + i] = asm_arg_dtype(f, in, i);
    for (int r = 0; r < in->attrs.nresults && r < 4; r++) tail[7 + r] = in->attrs.results[r];
    for (int k = 0; k < 11; k++) h = (h ^ (uint32_t)tail[k]) * 16777619u;
    for (int i = 3; i < in->nargs; i++) h = (h ^ (uint32_t)asm_arg_dtype(f, in, i)) * 16777619u;
    return arena_printf(a, "mt_asm_%08x", (unsigned)h);
}

static const char *uint_type(int bits) {
    return bits == 8    ? "unsigned char"
           : bits == 16 ? "unsigned short"
           : bits == 32 ? "unsigned"
                        : "unsigned "
                          "long long";
}

/* The asm text in nvcc's spelling: $N -> %N, ${N} -> %N, $$ -> $, % -> %%. */
static const char *cuda_text(Arena *a, const char *s) {
    StrBuf sb;
    sb_init(&sb, a);
    for (; *s; s++) {
        if (*s == '%') sb_puts(&sb, "%%");
        else if (s[0] == '$' && s[1] == '$') sb_putc(&sb, '$'), s++;
        else if (s[0] == '$' && s[1] == '{' && s[2] >= '0' && s[2] <= '9') {
            const char *e = s + 2;
            while (*e >= '0' && *e <= '9') e++;
            if (*e != '}') {
                sb_putc(&sb, *s);
                continue;
            }
            sb_printf(&sb, "%%%.*s", (int)(e - s - 2), s + 2);
            s = e;
        } else if (s[0] == '$' && s[1] >= '0' && s[1] <= '9') sb_putc(&sb, '%');
        else sb_putc(&sb, *s);
    }
    return sb_str(&sb);
}

static void helper(StrBuf *sb, Arena *a, const Function *f, const Inst *in, const char *name,
                   const AsmPlan *p) {
    DType rt = (DType)in->type.dtype;
    sb_printf(sb, "#ifndef MT_ASM_%s\n#define MT_ASM_%s\n", name + 7, name + 7);
    int w = p->nres > 1 ? in->attrs.axis : 0; /* the result it gives */
    sb_printf(sb,
              "// tl.inline_asm_elementwise at line %d, one element (pack=%d: every\n"
              "// element of an instance is this one, the first of result %d is returned)\n",
              in->pos.line, in->attrs.pack, w);
    sb_printf(sb, "static __device__ __forceinline__ %s %s(", c_type(rt), name);
    for (int i = 0; i < in->nargs; i++)
        sb_printf(sb, "%s%s x%d", i ? ", " : "", c_type(asm_arg_dtype(f, in, i)), i);
    sb_puts(sb, in->nargs ? ") {\n" : "void) {\n");
    /* the inputs: each argument's bits, repeated over its register's elements */
    int k = p->nout;
    for (int i = 0; i < in->nargs; i++) {
        int g = p->nres + i;
        DType dt = asm_arg_dtype(f, in, i);
        int bits = dtype_info(dt)->bits;
        const char *U = uint_type(bits);
        sb_printf(sb, "    %s b%d = mytriton_bitcast<%s>(%s);\n", U, i, U,
                  c_store(a, dt, C_CUDA, arena_printf(a, "x%d", i)));
        for (int r = 0; r < p->regs[g]; r++, k++) {
            int c = asm_class_index(p->letter[k]);
            const char *word = arena_printf(a, "(%s)b%d", uint_type(asm_classes[c].bits), i);
            for (int e = 1; e < p->per[g]; e++)
                word = arena_printf(a,
                                    "%s | ((%s)b%d << "
                                    "%d)",
                                    word, uint_type(asm_classes[c].bits), i, e * bits);
            if (asm_class_is_float(asm_classes[c].letter))
                word = arena_printf(a, "mytriton_bitcast<%s>(%s)", asm_classes[c].ctype, word);
            sb_printf(sb, "    %s i%d = %s;\n", asm_classes[c].ctype, k, word);
        }
    }
    /* the results' registers (all set, one read) */
    for (int r = 0; r < p->nout; r++)
        sb_printf(sb, "    %s%s o%d;\n", r == p->first[w] ? "" : "[[maybe_unused]] ",
                  asm_classes[asm_class_index(p->letter[r])].ctype, r);
    sb_printf(sb, "    asm%s(", in->op == OP_INLINE_ASM_VOLATILE ? " volatile" : "");
    sb_quote(sb, cuda_text(a, in->attrs.text ? in->attrs.text : ""));
    sb_puts(sb, "\n        :");
    for (int r = 0; r < p->nout; r++)
        sb_printf(sb,
                  "%s "
                  "\"=%c\"(o%d)",
                  r ? "," : "", p->letter[r], r);
    sb_puts(sb, "\n        :");
    for (int r = p->nout; r < p->nregs; r++)
        sb_printf(sb, "%s \"%c\"(i%d)", r > p->nout ? "," : "", p->letter[r], r);
    sb_puts(sb, ");\n");
    /* the result: the first element of result w's first register */
    int o = p->first[w], c = asm_class_index(p->letter[o]);
    int bits = dtype_info(rt)->bits;
    const char *word =
        asm_class_is_float(asm_classes[c].letter)
            ? arena_printf(a, "mytriton_bitcast<%s>(o%d)", uint_type(asm_classes[c].bits), o)
            : arena_printf(a, "o%d", o);
    const char *elem = arena_printf(a, "mytriton_bitcast<%s>((%s)%s)", c_mem_type(rt, C_CUDA),
                                    uint_type(bits), word);
    sb_printf(sb, "    return %s;\n}\n#endif\n", c_load(a, rt, C_CUDA, elem));
}

static void walk(StrBuf *sb, Arena *a, const Function *f, const Block *b, const char *code) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++) walk(sb, a, f, sub[k], code);
        if (in->op != OP_INLINE_ASM && in->op != OP_INLINE_ASM_VOLATILE) continue;
        const char *name = asm_helper_name(a, f, in);
        /* not rendered (removed, computed otherwise), or defined already */
        if (!strstr(code, name) || (sb->len && strstr(sb_str(sb), name))) continue;
        AsmPlan p;
        asm_plan_of(a, f, in, &p);
        helper(sb, a, f, in, name, &p);
    }
}

const char *asm_cuda_helpers(Arena *a, const Function *f, const char *code) {
    StrBuf sb;
    sb_init(&sb, a);
    walk(&sb, a, f, &f->body, code);
    if (sb.len) sb_putc(&sb, '\n');
    return sb_str(&sb);
}
