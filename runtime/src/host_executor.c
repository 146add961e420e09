/* The host executor: runs every program of a grid on the CPU.
 *
 * Programs are numbered in x-fastest order (x, then y, then z) and split
 * statically into one contiguous range per thread, so a given grid and
 * thread count always gives every thread the same programs, each thread
 * running its range in increasing order. The calling thread runs the first
 * range itself. If a thread cannot be created, the calling thread runs that
 * range too: every program still runs exactly once. */
#include "mytriton/runtime.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HOST_THREADS_MAX 1024
#define HOST_STACK_MIN ((size_t)8 << 20) /* host programs keep block arrays on the stack */

typedef struct host_range {
    mytriton_host_program program;
    const void *ctx;
    int64_t gx, gy;     /* grid extents along x and y */
    int64_t begin, end; /* linear program indices [begin, end) */
} host_range;

static void run_range(const host_range *r) {
    int64_t i = r->begin;
    int64_t x = i % r->gx, rest = i / r->gx;
    int64_t y = rest % r->gy, z = rest / r->gy;
    for (; i < r->end; i++) {
        r->program(r->ctx, (int32_t)x, (int32_t)y, (int32_t)z);
        if (++x == r->gx) {
            x = 0;
            if (++y == r->gy) {
                y = 0;
                z++;
            }
        }
    }
}

static void *range_thread(void *arg) {
    run_range((const host_range *)arg);
    return NULL;
}

/* MYTRITON_HOST_THREADS: unset or empty, the processors; decimal digits
 * only, at least 1 (counts above HOST_THREADS_MAX, however many digits,
 * are capped); anything else (0, a sign, spaces, other characters) is an
 * error, 0 and the last error, not a silent fallback: host launches fail
 * with MYTRITON_INVALID_VALUE. Read at every launch (no cached state). */
int mytriton_host_threads(void) {
    const char *text = getenv("MYTRITON_HOST_THREADS");
    size_t i, len;
    long value = 0;
    if (text == NULL || *text == '\0') {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        return cpus < 1 ? 1 : cpus > HOST_THREADS_MAX ? HOST_THREADS_MAX : (int)cpus;
    }
    len = strlen(text);
    for (i = 0; i < len && text[i] >= '0' && text[i] <= '9'; i++)
        if (value <= HOST_THREADS_MAX) value = value * 10 + (text[i] - '0');
    if (i < len || value == 0) {
        mytriton_set_last_error(
            "MYTRITON_HOST_THREADS='%.64s%s' is not a positive integer (the host backend's thread "
            "count; unset it to use every processor)",
            text, len > 64 ? "..." : "");
        return 0;
    }
    return value > HOST_THREADS_MAX ? HOST_THREADS_MAX : (int)value;
}

int mytriton_host_run(const mytriton_grid *grid, mytriton_host_program program, const void *ctx) {
    static const char axis_names[3] = {'x', 'y', 'z'};
    host_range ranges[HOST_THREADS_MAX];
    pthread_t threads[HOST_THREADS_MAX];
    int started[HOST_THREADS_MAX];
    pthread_attr_t attr;
    int have_attr;
    int64_t dims[3], total, chunk, extra;
    int ok = 1, n, t, i;

    if (grid == NULL || program == NULL) {
        mytriton_set_last_error("mytriton_host_run: %s",
                                grid == NULL ? "no grid given" : "no program given");
        return MYTRITON_INVALID_VALUE;
    }
    dims[0] = grid->x;
    dims[1] = grid->y;
    dims[2] = grid->z;
    for (i = 0; i < 3; i++) {
        if (dims[i] < 0) {
            mytriton_set_last_error("mytriton_host_run: grid dimension %c is negative (%" PRId64
                                    ")",
                                    axis_names[i], dims[i]);
            return MYTRITON_INVALID_VALUE;
        }
        if (dims[i] > INT32_MAX) {
            mytriton_set_last_error("mytriton_host_run: grid dimension %c is %" PRId64
                                    ", above the limit of %" PRId32,
                                    axis_names[i], dims[i], INT32_MAX);
            return MYTRITON_INVALID_VALUE;
        }
    }
    total = mytriton_i64_mul(mytriton_i64_mul(dims[0], dims[1], &ok), dims[2], &ok);
    if (!ok) {
        mytriton_set_last_error("mytriton_host_run: grid (%" PRId64 ", %" PRId64 ", %" PRId64
                                ") has too many programs",
                                dims[0], dims[1], dims[2]);
        return MYTRITON_INVALID_VALUE;
    }
    n = mytriton_host_threads();
    if (n == 0) return MYTRITON_INVALID_VALUE; /* (the last error says why) */
    if (total == 0) return MYTRITON_SUCCESS;
    if ((int64_t)n > total) n = (int)total;
    chunk = total / n;
    extra = total % n;
    for (t = 0; t < n; t++) {
        ranges[t].program = program;
        ranges[t].ctx = ctx;
        ranges[t].gx = dims[0];
        ranges[t].gy = dims[1];
        ranges[t].begin = (int64_t)t * chunk + (t < extra ? t : extra);
        ranges[t].end = ranges[t].begin + chunk + (t < extra ? 1 : 0);
        started[t] = 0;
    }

    have_attr = n > 1 && pthread_attr_init(&attr) == 0;
    if (have_attr) {
        size_t stack = 0;
        if (pthread_attr_getstacksize(&attr, &stack) == 0 && stack < HOST_STACK_MIN)
            (void)pthread_attr_setstacksize(&attr, HOST_STACK_MIN);
    }
    for (t = 1; t < n; t++)
        started[t] =
            pthread_create(&threads[t], have_attr ? &attr : NULL, range_thread, &ranges[t]) == 0;
    if (have_attr) pthread_attr_destroy(&attr);

    run_range(&ranges[0]);
    for (t = 1; t < n; t++) {
        if (started[t]) pthread_join(threads[t], NULL);
        else run_range(&ranges[t]);
    }
    return MYTRITON_SUCCESS;
}
