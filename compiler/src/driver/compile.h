/* The driver's entry points beyond the public API (mytriton.h), for tools
 * and tests inside the project (the fuzz harnesses). */
#ifndef MT_COMPILE_H
#define MT_COMPILE_H

#include <stddef.h>

#include "mytriton/mytriton.h"

/* mt_compile() with the parser shim's result given: its exit status, its
 * stdout (the serialization, or a `mytriton-ast-error` line) and stderr,
 * instead of running the shim on options->path (which still names the
 * file in diagnostics; options->shim may be NULL). `source` (NULL: none)
 * is the kernel text the diagnostics quote. */
mt_compilation *mt_compile_shim_output(const mt_options *options, int status, const char *out,
                                       size_t out_len, const char *err, size_t err_len,
                                       const char *source, size_t source_len);

/* mt_compile() with `fn` called on the kernel's SSA after the passes, before
 * the tile analysis and the backends (test/rank_forms: forms that no
 * frontend produces yet, such as the rank lowering's remap and batched
 * dot, built by rewriting ops of a kernel). fn may change ops, attributes
 * and operands; it returns 0 on failure. The verifier then checks the
 * SSA; either failure is a diagnostic. */
struct Arena;
struct Function;
typedef int (*MtRewriteFn)(struct Arena *a, struct Function *f, void *user);
mt_compilation *mt_compile_rewrite(const mt_options *options, MtRewriteFn fn, void *user);

#endif
