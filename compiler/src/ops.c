#include "ops.h"

const OpInfo op_table[OP_COUNT] = {
#define OP(id, name, nargs, flags, cop, meaning) [OP_##id] = {name, nargs, flags, cop, meaning},
#include "ops.def"
#undef OP
};
