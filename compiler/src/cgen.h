/* What the C-like backends (CUDA, host C, launchers) share: C type names,
 * constant literals, and the renaming of parameter names that collide with
 * C, C++ or CUDA keywords and builtins or with generated names. */
#ifndef MT_CGEN_H
#define MT_CGEN_H

#include "ssa.h"

typedef enum CDialect { C_CUDA, C_HOST } CDialect;

const char *c_type(DType dt);                 /* "float", "int", "bool" */
const char *c_param_type(Type t);             /* "float*", "int", ... */
const char *c_launcher_type(Type t, int is_const); /* "const float*", "int32_t" */
/* A constant as a C expression of its own type. */
const char *c_const(Arena *a, ConstVal c, CDialect d);
const char *c_zero(DType dt);                 /* "0.0f", "0", "false" */
/* The C names of the function's parameters: the Python names, except where
 * they would collide; deterministic. */
const char **c_param_names(Arena *a, const Function *f);
/* Whether `name` is reserved in the generated C/CUDA. */
int c_name_reserved(const char *name);

#endif
