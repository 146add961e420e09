/* The generic axis path of reductions and scans (issue 13), shared by the
 * C-like backends (CUDA -O1, CUDA -O2, host C): given the operand's
 * elements in row-major order (in shared memory on CUDA, in the value's
 * own array on the host), the statements that compute one element of the
 * result by combining, in order, the operand's elements along the axis.
 * The combination order is sequential (left to right; a reverse scan right
 * to left), so float sums differ from Triton's tree order by rounding. */
#ifndef MT_REDUCE_GEN_H
#define MT_REDUCE_GEN_H

#include "cgen/cgen.h"

/* acc combined with x by the reduction or scan `op` (OP_SUM, OP_MAX,
 * OP_MIN, OP_CUMSUM, OP_CUMPROD) in register type of `dt`. */
typedef const char *(*RedStepFn)(void *user, Op op, DType dt, const char *acc, const char *x);

typedef struct RedGen {
    Arena *a;
    CDialect d;
    const Function *f;
    const Inst *in;
    const char *elem_fmt; /* the operand's element at a linear index: a format with one %s */
    RedStepFn step;       /* NULL: red_step_default */
    void *user;
} RedGen;

/* The default combination (CUDA): narrow floats rounded after each + and
 * *, fmaxf / fminf on floats (NaN ignored), a conditional on integers. */
const char *red_step_default(void *user, Op op, DType dt, const char *acc, const char *x);
/* The statements (a NULL-terminated array of lines, one block in braces)
 * that assign to `dst` the result element whose linear index (row-major in
 * the result's shape) is the C expression `out`. */
const char **red_lines(const RedGen *g, const char *out, const char *dst);

#endif
