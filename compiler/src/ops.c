#include "ops.h"

const OpInfo op_table[OP_COUNT] = {
#define OP(id, name, nargs, flags, rule, attrs, cop, tmpl, mlir, meaning) \
    [OP_##id] = {name, nargs, flags, rule, attrs, cop, tmpl, mlir, meaning},
#include "ops.def"
#undef OP
};
