/* The case labels of the elementwise ops rendered from the tables: ops.def's
 * arithmetic, comparison and bitwise rows and ops_math.def's functions, for
 * the exhaustive switches over ops that treat them alike (included inside a
 * switch; a new row of those kinds reaches every such switch at once). */
case OP_NEG:
case OP_ABS:
#define MATH(id, name, nargs, rule, tmpl, triton, mlir, meaning) case OP_##id:
#include "base/ops_math.def"
#undef MATH
case OP_ADD:
case OP_SUB:
case OP_MUL:
case OP_DIV:
case OP_DIV_RN:
case OP_FLOORDIV:
case OP_MOD:
case OP_MAXIMUM:
case OP_MINIMUM:
case OP_UMULHI:
case OP_CMP_LT:
case OP_CMP_LE:
case OP_CMP_GT:
case OP_CMP_GE:
case OP_CMP_EQ:
case OP_CMP_NE:
case OP_AND:
case OP_OR:
case OP_XOR:
case OP_SHL:
case OP_SHR:
