/* Status strings and the thread-local last error.
 *
 * The last error is a fixed buffer per thread (C11 _Thread_local): no
 * allocation, no global constructor, nothing to free. */
#include "mytriton/runtime.h"

#include <stdarg.h>
#include <stdio.h>

#define LAST_ERROR_SIZE 1024 /* 1023 bytes of message and the terminator */

static _Thread_local char last_error[LAST_ERROR_SIZE];

const char *mytriton_status_string(int status) {
    switch (status) {
    case MYTRITON_SUCCESS: return "success";
    case MYTRITON_INVALID_VALUE: return "invalid value";
    case MYTRITON_OUT_OF_MEMORY: return "out of memory";
    case MYTRITON_NO_DEVICE: return "no device";
    case MYTRITON_NOT_FOUND: return "not found";
    case MYTRITON_LAUNCH_FAILED: return "launch failed";
    default: return "unknown status";
    }
}

const char *mytriton_last_error(void) {
    return last_error;
}

void mytriton_set_last_error(const char *fmt, ...) {
    va_list ap;
    if (fmt == NULL) {
        last_error[0] = '\0';
        return;
    }
    va_start(ap, fmt);
    if (vsnprintf(last_error, sizeof last_error, fmt, ap) < 0)
        last_error[0] = '\0';
    va_end(ap);
}

void mytriton_clear_last_error(void) {
    last_error[0] = '\0';
}
