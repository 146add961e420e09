/* Typed SSA (DESIGN 3.5-3.6 and the seed): a function is a list of items;
 * an item is an instruction or a structured `for` whose body is again a
 * list of items. Values are numbered in allocation order; passes never
 * renumber. */
#ifndef MT_SSA_H
#define MT_SSA_H

#include "base/context.h"
#include "ir/types.h"

typedef enum OperandKind {
    OPD_NONE,  /* an absent mask / other ("none") */
    OPD_VALUE, /* %N */
    OPD_PARAM, /* a runtime parameter, by name */
    OPD_CONST  /* a constant, in Python repr */
} OperandKind;

typedef struct Operand {
    OperandKind kind;
    int id;     /* OPD_VALUE: value number; OPD_PARAM: runtime parameter index */
    ConstVal c; /* OPD_CONST */
} Operand;

typedef struct Block {
    PtrVec items; /* Inst* */
} Block;

/* A region op's fields (OP_FOR, OP_WHILE, OP_IF):
 *   for:   index in range(start, stop, step); carried lanes; body.
 *   while: carried lanes; `before` (the condition region, which reads the
 *          region arguments and ends in `cond`, an i1 scalar), then `body`
 *          (reads the same region arguments, yields the next values); the
 *          results are the arguments when `cond` is false. index is -1.
 *   if:    `cond` (an i1 scalar defined outside); `body` (then) yields
 *          `yields`, `orelse` yields `else_yields`; no carried inputs or
 *          arguments (ncarried 0), nyields == nresults. index is -1. */
typedef struct Loop {
    int index; /* value number of the induction variable (for), else -1 */
    Operand start, stop, step;
    /* The carried lanes. The four counts are equal in valid SSA (the
     * verifier checks); lane i pairs inits[i], args[i], yields[i] and
     * results[i]. */
    int ncarried; /* inits and region arguments */
    int nyields, nresults;
    Operand *inits;  /* carried inputs */
    int *args;       /* region arguments (value numbers) */
    Operand *yields; /* values at the end of an iteration */
    int *results;    /* value numbers after the loop */
    Block body;
    Operand cond;         /* if, while */
    Block before;         /* while: the condition region */
    Block orelse;         /* if: the else region */
    Operand *else_yields; /* if: the else region's yields (nyields of them) */
    int num_stages;       /* for: tl.range's num_stages (0: none) */
    int unroll;           /* for: tl.range's loop_unroll_factor (0: none) */
    int warp_specialize;  /* for: tl.range's warp_specialize=True */
} Loop;

typedef struct Inst {
    Op op;
    int result; /* value number, -1 if none (store, for) */
    Type type;
    int nargs;
    Operand args[MT_MAX_OPERANDS];
    Attrs attrs;
    SrcPos pos;
    Loop *loop; /* OP_FOR, OP_WHILE, OP_IF */
} Inst;

typedef struct SsaParam {
    const char *name;
    Type type;
} SsaParam;

typedef struct Function {
    const char *name;
    int nparams;
    SsaParam *params; /* runtime parameters */
    Block body;
    int nvalues;
    int cap;
    Type *types; /* by value number */
    Inst **defs; /* defining item by value number (NULL: unused number) */
} Function;

Function *ssa_function_new(Arena *a, const char *name, int nparams);
int ssa_new_value(Arena *a, Function *f, Type t, Inst *def);
Inst *ssa_inst_new(Arena *a, Op op, SrcPos pos);

static inline Operand opd_make(OperandKind kind, int id, ConstVal c) {
    Operand o;
    o.kind = kind;
    o.id = id;
    o.c = c;
    return o;
}
static inline ConstVal const_none(void) {
    ConstVal c;
    c.dt = DT_NONE;
    c.i = 0;
    c.f = 0;
    return c;
}
static inline Operand opd_none(void) { return opd_make(OPD_NONE, 0, const_none()); }
static inline Operand opd_value(int id) { return opd_make(OPD_VALUE, id, const_none()); }
static inline Operand opd_param(int idx) { return opd_make(OPD_PARAM, idx, const_none()); }
static inline Operand opd_const(ConstVal c) { return opd_make(OPD_CONST, 0, c); }
int operand_eq(Operand a, Operand b);
/* The operand's type (none: DT_NONE scalar). */
Type operand_type(const Function *f, Operand o);

/* An op's attributes as the SSA text prints them (" {axis=0}"; nothing
 * for ops without attributes). */
void attrs_print(StrBuf *sb, Op op, const Attrs *at);
/* The SSA text (DESIGN 6). */
void ssa_print(StrBuf *sb, Arena *a, const Function *f);
/* The same with fn's text (or nothing, for NULL) after each instruction's
 * type, and after a region's result types (--emit=layout). */
typedef const char *(*SsaNoteFn)(void *user, const Inst *in);
void ssa_print_noted(StrBuf *sb, Arena *a, const Function *f, SsaNoteFn fn, void *user);
const char *operand_str(Arena *a, const Function *f, Operand o);

/* The nested blocks of a region op in execution order (for: body; while:
 * before, body; if: then, else); 0 for other items. */
int ssa_blocks(const Inst *in, Block *out[2]);
/* Whether the block (or a region in it) writes memory. */
int ssa_block_writes(const Block *b);
/* Whether `x` is an item of the block itself (not of a region in it). */
int ssa_block_holds(const Block *b, const Inst *x);

/* Calls fn on every operand slot of an item (recursing into loops when
 * `recurse`): used by passes to rewrite uses and count them. */
typedef void (*OperandFn)(Operand *o, void *user);
void ssa_for_each_operand(Inst *inst, int recurse, OperandFn fn, void *user);

#endif
