/* Signature strings (DESIGN 9), Triton-AOT style: one entry per runtime
 * parameter, `*fp32`, `*i32`, `i32`, `fp32`, each optionally named
 * (`a: *fp32`) and with a divisibility hint (`*fp32:16`, `i32:16`). */
#ifndef MT_SIGNATURE_H
#define MT_SIGNATURE_H

#include "context.h"
#include "types.h"

typedef struct SigEntry {
    const char *name; /* NULL when the entry names no parameter */
    Type type;
    int divisibility;      /* the :N hint (bytes for pointers), 0 when absent */
    const char *type_text; /* "*fp32" */
} SigEntry;

typedef struct Signature {
    int n;
    SigEntry *entries;
    const char *normalized; /* "*fp32, *fp32, i32" (hints kept) */
} Signature;

/* NULL after a diagnostic. */
Signature *signature_parse(MtContext *ctx, const char *text);

#endif
