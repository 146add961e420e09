/* Signature strings (DESIGN 9), Triton-AOT style: one entry per runtime
 * parameter, `*fp32`, `*i32`, `i32`, `fp32`, each optionally named
 * (`a: *fp32`) and with a divisibility hint (`*fp32:16`, `i32:16`), or a
 * tensor descriptor `tensordesc<fp16[64, 64]>`. */
#ifndef MT_SIGNATURE_H
#define MT_SIGNATURE_H

#include "base/context.h"
#include "ir/types.h"

typedef struct SigEntry {
    const char *name; /* NULL when the entry names no parameter */
    Type type;
    int divisibility;      /* the :N hint (bytes for pointers), 0 when absent */
    const char *type_text; /* "*fp32" */
    /* A tensor descriptor, `tensordesc<fp16[64, 64]>` (Triton's type of a
     * host TensorDescriptor argument), is passed as its parts, one entry
     * each: the base (a pointer to the dtype, desc_rank and desc_block
     * set), then the shape (i32 each) and the strides (i64 each; the last
     * `i64:1`, contiguous as Triton requires), desc_part 1, 2, ... */
    int desc_rank;
    int32_t desc_block[MT_MAX_RANK];
    int desc_part;
} SigEntry;

typedef struct Signature {
    int n; /* entries, a descriptor's parts counted */
    SigEntry *entries;
    const char *normalized; /* "*fp32, *fp32, i32" (hints kept) */
} Signature;

/* NULL after a diagnostic. */
Signature *signature_parse(MtContext *ctx, const char *text);

#endif
