/* tl.inline_asm_elementwise: its constraints read as Triton reads them
 * (asm_plan.h). */
#include "ir/asm_plan.h"

#include <stdint.h>
#include <string.h>

#include "base/ops.h"

/* A register class: its letter, C type, bits. nvcc's inline asm takes
 * these five of LLVM's NVPTX classes. */
const AsmClass asm_classes[ASM_NCLASSES] = {
    {'h', "unsigned short", 16}, {'r', "unsigned", 32}, {'l', "unsigned long long", 64},
    {'f', "float", 32},          {'d', "double", 64},
};

int asm_class_index(char c) {
    for (int k = 0; k < ASM_NCLASSES; k++)
        if (asm_classes[k].letter == c) return k;
    return -1;
}

int asm_class_bits(char letter) {
    int k = asm_class_index(letter);
    return k < 0 ? 0 : asm_classes[k].bits;
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
    if (nres < 1 || nres > ASM_MAX_RESULTS || nargs < 0 || nargs > ASM_MAX_ARGS)
        return "too many operands";
    p->nres = nres;
    p->nargs = nargs;
    for (int g = 0; g < nres + nargs; g++) {
        DType dt = g < nres ? res[g] : in[g - nres];
        p->dt[g] = dt;
        p->per[g] = per_register(dt, pack);
        if (pack % p->per[g])
            return g < nres ? arena_printf(a,
                                           "pack must be a multiple of result %d's elements per "
                                           "register",
                                           g)
                            : arena_printf(a,
                                           "pack must be a multiple of argument %d's elements "
                                           "per register",
                                           g - nres);
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
        if (end - c != 1 || asm_class_index(*c) < 0)
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
                            n, p->nregs, pack, p->nout, p->nout == 1 ? "" : "s", p->nregs - p->nout,
                            p->nregs - p->nout == 1 ? "" : "s");
    /* a register holds its elements: 16-bit classes one 16-bit element */
    for (int g = 0; g < nres + nargs; g++)
        for (int k = p->first[g]; k < p->first[g] + p->regs[g]; k++) {
            int need = p->per[g] * dtype_info(p->dt[g])->bits;
            int have = asm_classes[asm_class_index(p->letter[k])].bits;
            if (need > have || (have == 64 && need < 64) || (have == 16 && need != 16))
                return arena_printf(a,
                                    "operand $%d: a '%c' register (%d bits) cannot hold %d %s "
                                    "element%s",
                                    k, p->letter[k], have, p->per[g], dtype_name(p->dt[g]),
                                    p->per[g] == 1 ? "" : "s");
        }
    return NULL;
}

DType asm_arg_dtype(const Function *f, const Inst *in, int i) {
    return (DType)operand_type(f, in->args[i]).dtype;
}

void asm_plan_of(Arena *a, const Function *f, const Inst *in, AsmPlan *p) {
    DType args[ASM_MAX_ARGS], res[ASM_MAX_RESULTS];
    for (int i = 0; i < in->nargs && i < ASM_MAX_ARGS; i++) args[i] = asm_arg_dtype(f, in, i);
    int nres = in->attrs.nresults > 1 ? in->attrs.nresults : 1;
    for (int r = 0; r < nres && r < ASM_MAX_RESULTS; r++)
        res[r] = nres > 1 ? (DType)in->attrs.results[r] : (DType)in->type.dtype;
    const char *err = asm_plan(a, in->attrs.constraints ? in->attrs.constraints : "",
                               in->attrs.pack, res, nres, args, in->nargs, p);
    MT_ASSERT(!err); /* the frontend checked them */
}
