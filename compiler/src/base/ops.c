#include "base/ops.h"

const OpInfo op_table[OP_COUNT] = {
#define OP(id, name, nargs, cls, flags, rule, attrs, cop, tmpl, mlir, meaning) \
    [OP_##id] = {name, nargs, cls, flags, rule, attrs, cop, tmpl, mlir, meaning},
#include "base/ops.def"
#undef OP
};

const char *const op_triton_f32[OP_COUNT] = {
#define MATH(id, name, nargs, rule, tmpl, triton, mlir, meaning) [OP_##id] = triton,
#include "base/ops_math.def"
#undef MATH
};

const char *const atomic_rmw_names[RMW_COUNT] = {"add", "max", "min", "and", "or", "xor", "xchg"};
const char *const atomic_sem_names[SEM_COUNT] = {"acq_rel", "acquire", "release", "relaxed"};
const char *const atomic_scope_names[SCOPE_COUNT] = {"gpu", "cta", "sys"};

int op_regenerable(Op op) {
    if (op == OP_ARANGE || op == OP_PROGRAM_ID || op == OP_NUM_PROGRAMS || op == OP_ZEROS ||
        op == OP_FULL || op == OP_EXPAND_DIMS || op == OP_ADDPTR || op == OP_CAST ||
        op == OP_BITCAST || op == OP_HINT || op == OP_BROADCAST)
        return 1;
    return op_info(op)->rule != TR_SPECIAL && op_has(op, OPF_PURE);
}
