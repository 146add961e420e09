/* tl.inline_asm_elementwise: constraints and the CUDA helper (asm.h). */
#include "asm.h"

#include <stdint.h>
#include <string.h>

#include "cgen.h"
#include "ops.h"

/* A register class: its letter, C type, bits. nvcc's inline asm takes
 * these five of LLVM's NVPTX classes. */
static const struct {
    char letter;
    const char *ctype;
    int bits;
} classes[] = {
    {'h', "unsigned short", 16},   {'r', "unsigned", 32}, {'l', "unsigned long long", 64},
    {'f', "float", 32},            {'d', "double", 64},
};

static int class_of(char c) {
    for (int k = 0; k < (int)(sizeof classes / sizeof classes[0]); k++)
        if (classes[k].letter == c) return k;
    return -1;
}

int asm_class_bits(char letter) {
    int k = class_of(letter);
    return k < 0 ? 0 : classes[k].bits;
}

int asm_class_is_float(char letter) { return letter == 'f' || letter == 'd'; }

const char *asm_constraints(Arena *a, const AsmPlan *p) {
    StrBuf sb;
    sb_init(&sb, a);
    for (int k = 0; k < p->nregs; k++)
        sb_printf(&sb, "%s%s%c", k ? "," : "", k < p->nout ? "=" : "", p->letter[k]);
    return sb_str(&sb);
}

/* Elements of `dt` in one register of an asm of `pack` (Triton's rule). */
static int per_register(DType dt, int pack) {
    int bits = dtype_info(dt)->bits;
    int per = bits >= 32 ? 1 : 32 / bits;
    return per < pack ? per : pack;
}

const char *asm_plan(Arena *a, const char *constraints, int pack, const DType *res, int nres,
                     const DType *in, int nargs, AsmPlan *p) {
    memset(p, 0, sizeof *p);
    if (pack < 1 || pack > 16) return arena_printf(a, "pack must be 1 to 16 (got %d)", pack);
    if (nres < 1 || nres > ASM_MAX_RESULTS || nargs < 0 || nargs > 3) return "too many operands";
    p->nres = nres;
    p->nargs = nargs;
    for (int g = 0; g < nres + nargs; g++) {
        DType dt = g < nres ? res[g] : in[g - nres];
        p->dt[g] = dt;
        p->per[g] = per_register(dt, pack);
        if (pack % p->per[g])
            return g < nres ? arena_printf(a, "pack must be a multiple of result %d's elements per register", g)
                            : arena_printf(a, "pack must be a multiple of argument %d's elements per register", g - nres);
        p->regs[g] = pack / p->per[g];
        p->first[g] = p->nregs;
        p->nregs += p->regs[g];
        if (g < nres) p->nout = p->nregs;
    }
    if (p->nregs > ASM_MAX_REGS) return "too many asm operands";
    /* the constraints: the outputs ("=r"), then the inputs ("r") */
    int n = 0;
    const char *s = constraints;
    while (*s) {
        while (*s == ' ' || *s == '\t') s++;
        const char *start = s;
        while (*s && *s != ',') s++;
        const char *end = s;
        while (end > start && (end[-1] == ' ' || end[-1] == '\t')) end--;
        if (*s == ',') s++;
        int out_c = end > start && *start == '=';
        const char *c = start + out_c;
        if (end - c != 1 || class_of(*c) < 0)
            return arena_printf(a,
                                "the constraint '%.*s' is not one mytriton passes to the CUDA asm "
                                "(outputs =r =h =l =f =d, then inputs r h l f d)",
                                (int)(end - start), start);
        if (out_c != (n < p->nout))
            return arena_printf(
                a,
                "the constraints must be %d output%s ('=r') and then %d input%s: an asm of pack=%d "
                "gives %d register%s of the result%s and takes %d of the arguments",
                p->nout, p->nout == 1 ? "" : "s", p->nregs - p->nout,
                p->nregs - p->nout == 1 ? "" : "s", pack, p->nout, p->nout == 1 ? "" : "s",
                nres > 1 ? "s" : "", p->nregs - p->nout);
        if (n >= ASM_MAX_REGS) return "too many constraints";
        p->letter[n++] = *c;
    }
    if (n != p->nregs)
        return arena_printf(a,
                            "%d constraints for %d asm operands (pack=%d: %d output register%s, "
                            "%d input register%s)",
                            n, p->nregs, pack, p->nout, p->nout == 1 ? "" : "s",
                            p->nregs - p->nout, p->nregs - p->nout == 1 ? "" : "s");
    /* a register holds its elements: 16-bit classes one 16-bit element */
    for (int g = 0; g < nres + nargs; g++)
        for (int k = p->first[g]; k < p->first[g] + p->regs[g]; k++) {
            int need = p->per[g] * dtype_info(p->dt[g])->bits;
            int have = classes[class_of(p->letter[k])].bits;
            if (need > have || (have == 64 && need < 64) || (have == 16 && need != 16))
                return arena_printf(a, "operand $%d: a '%c' register (%d bits) cannot hold %d %s element%s",
                                    k, p->letter[k], have, p->per[g], dtype_name(p->dt[g]),
                                    p->per[g] == 1 ? "" : "s");
        }
    return NULL;
}

static DType arg_dtype(const Function *f, const Inst *in, int i) {
    return (DType)operand_type(f, in->args[i]).dtype;
}

void asm_plan_of(Arena *a, const Function *f, const Inst *in, AsmPlan *p) {
    DType args[3], res[ASM_MAX_RESULTS];
    for (int i = 0; i < in->nargs && i < 3; i++) args[i] = arg_dtype(f, in, i);
    int nres = in->attrs.nresults > 1 ? in->attrs.nresults : 1;
    for (int r = 0; r < nres && r < ASM_MAX_RESULTS; r++)
        res[r] = nres > 1 ? (DType)in->attrs.results[r] : (DType)in->type.dtype;
    const char *err = asm_plan(a, in->attrs.constraints ? in->attrs.constraints : "",
                               in->attrs.pack, res, nres, args, in->nargs, p);
    MT_ASSERT(!err); /* the frontend checked them */
}

const char *asm_helper_name(Arena *a, const Function *f, const Inst *in) {
    uint32_t h = 2166136261u;
    const char *parts[2] = {in->attrs.text ? in->attrs.text : "",
                            in->attrs.constraints ? in->attrs.constraints : ""};
    for (int k = 0; k < 2; k++)
        for (const unsigned char *s = (const unsigned char *)parts[k]; ; s++) {
            h = (h ^ *s) * 16777619u;
            if (!*s) break;
        }
    int tail[11] = {in->attrs.pack, in->op, in->type.dtype, -1, -1, -1, in->attrs.axis, -1, -1, -1, -1};
    for (int i = 0; i < in->nargs; i++) tail[3 + i] = arg_dtype(f, in, i);
    for (int r = 0; r < in->attrs.nresults && r < 4; r++) tail[7 + r] = in->attrs.results[r];
    for (int k = 0; k < 11; k++) h = (h ^ (uint32_t)tail[k]) * 16777619u;
    return arena_printf(a, "mt_asm_%08x", (unsigned)h);
}

static const char *uint_type(int bits) {
    return bits == 8 ? "unsigned char" : bits == 16 ? "unsigned short" : bits == 32 ? "unsigned"
                                                                                    : "unsigned long long";
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
    sb_printf(sb, "// tl.inline_asm_elementwise at line %d, one element (pack=%d: every\n"
                  "// element of an instance is this one, the first of result %d is returned)\n",
              in->pos.line, in->attrs.pack, w);
    sb_printf(sb, "static __device__ __forceinline__ %s %s(", c_type(rt), name);
    for (int i = 0; i < in->nargs; i++)
        sb_printf(sb, "%s%s x%d", i ? ", " : "", c_type(arg_dtype(f, in, i)), i);
    sb_puts(sb, in->nargs ? ") {\n" : "void) {\n");
    /* the inputs: each argument's bits, repeated over its register's elements */
    int k = p->nout;
    for (int i = 0; i < in->nargs; i++) {
        int g = p->nres + i;
        DType dt = arg_dtype(f, in, i);
        int bits = dtype_info(dt)->bits;
        const char *U = uint_type(bits);
        sb_printf(sb, "    %s b%d = mytriton_bitcast<%s>(%s);\n", U, i, U,
                  c_store(a, dt, C_CUDA, arena_printf(a, "x%d", i)));
        for (int r = 0; r < p->regs[g]; r++, k++) {
            int c = class_of(p->letter[k]);
            const char *word = arena_printf(a, "(%s)b%d", uint_type(classes[c].bits), i);
            for (int e = 1; e < p->per[g]; e++)
                word = arena_printf(a, "%s | ((%s)b%d << %d)", word, uint_type(classes[c].bits), i,
                                    e * bits);
            if (asm_class_is_float(classes[c].letter))
                word = arena_printf(a, "mytriton_bitcast<%s>(%s)", classes[c].ctype, word);
            sb_printf(sb, "    %s i%d = %s;\n", classes[c].ctype, k, word);
        }
    }
    /* the results' registers (all set, one read) */
    for (int r = 0; r < p->nout; r++)
        sb_printf(sb, "    %s%s o%d;\n", r == p->first[w] ? "" : "[[maybe_unused]] ",
                  classes[class_of(p->letter[r])].ctype, r);
    sb_printf(sb, "    asm%s(", in->op == OP_INLINE_ASM_VOLATILE ? " volatile" : "");
    sb_quote(sb, cuda_text(a, in->attrs.text ? in->attrs.text : ""));
    sb_puts(sb, "\n        :");
    for (int r = 0; r < p->nout; r++) sb_printf(sb, "%s \"=%c\"(o%d)", r ? "," : "", p->letter[r], r);
    sb_puts(sb, "\n        :");
    for (int r = p->nout; r < p->nregs; r++)
        sb_printf(sb, "%s \"%c\"(i%d)", r > p->nout ? "," : "", p->letter[r], r);
    sb_puts(sb, ");\n");
    /* the result: the first element of result w's first register */
    int o = p->first[w], c = class_of(p->letter[o]);
    int bits = dtype_info(rt)->bits;
    const char *word = asm_class_is_float(classes[c].letter)
                           ? arena_printf(a, "mytriton_bitcast<%s>(o%d)", uint_type(classes[c].bits), o)
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
