/* Grid expressions (DESIGN 9): up to three comma-separated integer
 * expressions over the runtime i32 parameters and the integer constexprs,
 * with + - * // %, parentheses and cdiv(a, b). Launchers evaluate them in
 * checked 64-bit arithmetic. */
#ifndef MT_GRID_H
#define MT_GRID_H

#include "base/context.h"
#include "ir/expr.h"

typedef enum GridKind {
    G_NUM,
    G_PARAM,
    G_NEG,
    G_ADD,
    G_SUB,
    G_MUL,
    G_FLOORDIV,
    G_MOD,
    G_CDIV
} GridKind;

typedef struct GridExpr {
    GridKind kind;
    long long num; /* G_NUM */
    int param;     /* G_PARAM: runtime parameter index (then the
                             * launcher-only grid parameters) */
    struct GridExpr *a, *b;
} GridExpr;

typedef struct Grid {
    int ndims; /* 1..3 */
    GridExpr *dims[3];
    const char *text;     /* as given */
    const char *resolved; /* with constexprs substituted, e.g. "cdiv(n, 256)" */
    int uses_param[64];   /* parameters the grid reads (first 64) */
} Grid;

/* NULL after a diagnostic. `extra` names nextra launcher-only integer
 * parameters (--grid-param) the grid may use besides the kernel's: G_PARAM
 * index k->nruntime + j for extra[j]. */
Grid *grid_parse(MtContext *ctx, const char *text, const Kernel *k, const char *const *extra,
                 int nextra);
/* C code (using mytriton_i64_* and `ok`) evaluating one dimension; names
 * are the C names of the runtime parameters. */
const char *grid_c_expr(Arena *a, const GridExpr *e, const char *const *names);

#endif
