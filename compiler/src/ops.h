/* Opcodes: one enum and one table of properties (ops.def), used by the
 * frontend, type rules, printer, verifier, passes and backends. */
#ifndef MT_OPS_H
#define MT_OPS_H

enum {
    OPF_PURE = 1 << 0,        /* no side effect, no memory read: CSE, LICM, DCE */
    OPF_READS = 1 << 1,       /* reads memory: removable when unused, not merged */
    OPF_WRITES = 1 << 2,      /* writes memory: never removed */
    OPF_NO_RESULT = 1 << 3,   /* defines no value */
    OPF_REGION = 1 << 4,      /* has a body region */
    OPF_ARITH = 1 << 5,       /* numeric operands, promoted */
    OPF_CMP = 1 << 6,         /* numeric operands, bool result */
    OPF_LOGIC = 1 << 7,       /* bool operands and result */
    OPF_COMMUTATIVE = 1 << 8, /* operands may be swapped */
    OPF_REDUCE = 1 << 9       /* rank-1 block to scalar */
};

typedef enum Op {
#define OP(id, name, nargs, flags, cop, meaning) OP_##id,
#include "ops.def"
#undef OP
    OP_COUNT
} Op;

typedef struct OpInfo {
    const char *name;
    int nargs;
    int flags;
    const char *c_op;
    const char *meaning;
} OpInfo;

extern const OpInfo op_table[OP_COUNT];

static inline const OpInfo *op_info(Op op) { return &op_table[op]; }
static inline int op_has(Op op, int flag) { return (op_table[op].flags & flag) != 0; }

#endif
