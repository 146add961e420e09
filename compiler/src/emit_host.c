/* The host (CPU) backend (DESIGN 13). Not written yet: asking for it is a
 * diagnostic, never wrong code. */
#include "emit.h"

const char *emit_host_unit(MtContext *ctx, const Spec *s) {
    (void)s;
    mt_error(ctx, srcpos(0, 0), "the host backend is not implemented yet");
    return NULL;
}
