/* tl.inline_asm_elementwise (ops.def OP_INLINE_ASM): its constraints read
 * as Triton reads them (docs/language.md, "Inline assembly"); the CUDA
 * helper that runs it is cgen/asm.h's.
 *
 * Triton's rule (ElementwiseInlineAsmOpConversion): one instance of the
 * asm takes `pack` elements of each operand and gives `pack` of the
 * result; elements narrower than 32 bits are packed, min(32 / bits, pack)
 * to a register. The asm's operands are the result's registers, then each
 * argument's in order; `$N` names operand N. Here an element is computed
 * by one instance whose `pack` input elements are all that element, so a
 * pack > 1 asm costs `pack` times the work and computes the same values
 * (the contract is elementwise). */
#ifndef MT_ASM_PLAN_H
#define MT_ASM_PLAN_H

#include "ir/ssa.h"

enum {
    ASM_MAX_REGS = 64,
    ASM_MAX_RESULTS = 4,
    ASM_MAX_ARGS = MT_MAX_OPERANDS, /* Triton takes any number; the SSA op up to 8 */
    ASM_MAX_GROUPS = ASM_MAX_RESULTS + ASM_MAX_ARGS,
    ASM_NCLASSES = 5
};

/* A register class of nvcc's inline asm (five of LLVM's NVPTX classes):
 * its letter, C type and bits; asm_class_index: its row (-1: none). */
typedef struct AsmClass {
    char letter;
    const char *ctype;
    int bits;
} AsmClass;
extern const AsmClass asm_classes[ASM_NCLASSES];
int asm_class_index(char letter);

/* The asm's operands in groups: each result's registers, then each
 * argument's. */
typedef struct AsmPlan {
    int nres, nargs;           /* the groups: nres results, then nargs arguments */
    DType dt[ASM_MAX_GROUPS];  /* a group's dtype */
    int per[ASM_MAX_GROUPS];   /* its elements per register */
    int regs[ASM_MAX_GROUPS];  /* its registers */
    int first[ASM_MAX_GROUPS]; /* its first operand ($N) */
    int nout, nregs;           /* the results' registers; all of them (the constraints) */
    char letter[ASM_MAX_REGS]; /* each operand's register class: r h l f d */
} AsmPlan;

/* Reads `constraints` ("=r,=r,r"; spaces allowed) for an asm of `pack`
 * elements giving results of dtypes res[0..nres) from arguments of dtypes
 * in[0..nargs): NULL, or what is wrong, in words. */
const char *asm_plan(Arena *a, const char *constraints, int pack, const DType *res, int nres,
                     const DType *in, int nargs, AsmPlan *p);
/* Operand i's dtype. */
DType asm_arg_dtype(const Function *f, const Inst *in, int i);
/* The plan of inline asm `in` (its attributes checked by the frontend). */
void asm_plan_of(Arena *a, const Function *f, const Inst *in, AsmPlan *p);
/* A register class's bits (r h l f d: 32 16 64 32 64), and whether it is
 * a float register (f d). */
int asm_class_bits(char letter);
int asm_class_is_float(char letter);
/* The constraints in LLVM's spelling without spaces ("=r,r,r"). */
const char *asm_constraints(Arena *a, const AsmPlan *p);

#endif
