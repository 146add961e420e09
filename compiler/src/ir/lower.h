/* SSA lowering (DESIGN 3.5): the expression tree into typed SSA. */
#ifndef MT_LOWER_H
#define MT_LOWER_H

#include "ir/expr.h"
#include "ir/ssa.h"

Function *lower_kernel(MtContext *ctx, Kernel *k, const char *function_name);

#endif
