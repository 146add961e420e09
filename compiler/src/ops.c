#include "ops.h"

const OpInfo op_table[OP_COUNT] = {
#define OP(id, name, nargs, flags, rule, attrs, cop, tmpl, mlir, meaning) \
    [OP_##id] = {name, nargs, flags, rule, attrs, cop, tmpl, mlir, meaning},
#include "ops.def"
#undef OP
};

const char *const op_triton_f32[OP_COUNT] = {
#define MATH(id, name, nargs, rule, tmpl, triton, mlir, meaning) [OP_##id] = triton,
#include "ops_math.def"
#undef MATH
};

const char *const atomic_rmw_names[RMW_COUNT] = {"add", "max", "min", "and", "or", "xor", "xchg"};
const char *const atomic_sem_names[SEM_COUNT] = {"acq_rel", "acquire", "release", "relaxed"};
const char *const atomic_scope_names[SCOPE_COUNT] = {"gpu", "cta", "sys"};
