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
