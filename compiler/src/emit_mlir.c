/* The MLIR backend (DESIGN 13, series part 7). Not written yet: asking for
 * it is a diagnostic, never wrong code. */
#include "emit.h"

const char *emit_mlir_module(MtContext *ctx, const Spec *s) {
    (void)s;
    mt_error(ctx, srcpos(0, 0), "the MLIR backend is not implemented yet");
    return NULL;
}
