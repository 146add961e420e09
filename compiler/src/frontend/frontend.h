/* The frontend (DESIGN 3.3): an interpreter over the Python AST of one
 * kernel that evaluates compile-time values with Python semantics and
 * builds the expression-tree IR for everything symbolic. */
#ifndef MT_FRONTEND_H
#define MT_FRONTEND_H

#include "ir/expr.h"
#include "frontend/pyast.h"
#include "frontend/signature.h"

typedef struct Define {
    const char *name;
    const char *value; /* the text after '=': a Python literal (fe_define_value) */
    int module_value;  /* 1: a --module-value (MODULE_VALUES), 0: a -D (CONSTEXPR) */
} Define;

/* NULL after a diagnostic. */
Kernel *frontend_build(MtContext *ctx, const PyNode *module, const char *kernel_name,
                       const Signature *sig, const Define *defines, int ndefines);
/* frontend_build without the body (mt_check): the module's imports and
 * functions, the kernel found, its parameters bound to the signature and
 * the defines (every check of the options against the parameters); the
 * kernel's body is empty. NULL after a diagnostic. */
Kernel *frontend_params(MtContext *ctx, const PyNode *module, const char *kernel_name,
                        const Signature *sig, const Define *defines, int ndefines);

/* Parses a -D value as Python would read the literal: 0 if it is none of
 * int, float, True, False. */
int frontend_parse_define(const char *text, int *is_int, long long *i, double *f, int *is_bool);

#endif
