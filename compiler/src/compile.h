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

#endif
