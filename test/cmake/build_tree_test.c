/* cmake.build_tree: mytriton_add_kernels() used inside mytriton's own build
 * tree (mytriton::compiler is the ALIAS of mytritonc). Checks the registry's
 * record of the generated host kernel, launches it by name and through its
 * launcher, and checks empty and negative sizes. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mytriton_build_tree_kernels.h"

#define N 300

static int failures;

static void expect_str(const char *what, const char *got, const char *want) {
    if (got == NULL || strcmp(got, want) != 0) {
        printf("FAIL: %s is \"%s\", expected \"%s\"\n", what, got ? got : "(null)", want);
        failures++;
    }
}

static void expect_int(const char *what, long got, long want) {
    if (got != want) {
        printf("FAIL: %s is %ld, expected %ld\n", what, got, want);
        failures++;
    }
}

int main(void) {
    static float x[N], y[N], out[N];
    const float *px = x, *py = y;
    float *pout = out;
    int32_t n = N;
    void *args[4];
    const mytriton_kernel_info *info;
    int i;

    mytriton_build_tree_kernels_register_kernels();
    mytriton_build_tree_kernels_register_kernels(); /* again: a no-op */
    expect_int("registered kernels", mytriton_kernel_count(), 3);
    info = mytriton_find_kernel("build_tree_add", "host");
    if (info == NULL || mytriton_find_kernel("build_tree_add", NULL) != info) {
        printf("FAIL: build_tree_add (host) is not registered\n");
        return 1;
    }
    expect_str("name", info->name, "build_tree_add");
    expect_str("backend", info->backend, "host");
    expect_str("kernel", info->kernel, "add_kernel");
    expect_str("source", info->source, "add.py");
    expect_str("signature", info->signature, "*fp32, *fp32, *fp32, i32");
    expect_str("constexprs", info->constexprs, "BLOCK=64");
    expect_str("grid", info->grid, "cdiv(n, BLOCK)");
    expect_int("threads per block", info->threads_per_block, 64);
    expect_int("arguments", info->num_args, 4);
    if (info->num_args == 4) {
        expect_str("argument 0", info->arg_names[0], "x");
        expect_str("argument 3", info->arg_names[3], "n");
        expect_int("kind of argument 0", info->arg_kinds[0], MYTRITON_ARG_PTR_FP32);
        expect_int("kind of argument 3", info->arg_kinds[3], MYTRITON_ARG_I32);
    }

    for (i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 0.25f * (float)i;
        out[i] = NAN;
    }
    args[0] = (void *)&px;
    args[1] = (void *)&py;
    args[2] = (void *)&pout;
    args[3] = (void *)&n;
    expect_int("mytriton_launch", mytriton_launch("build_tree_add", "host", NULL, args, NULL),
               MYTRITON_SUCCESS);
    for (i = 0; i < N; i++)
        if (out[i] != x[i] + y[i]) {
            printf("FAIL: out[%d] = %g, expected %g\n", i, out[i], x[i] + y[i]);
            failures++;
            break;
        }

    /* An empty grid (n = 0) launches nothing and succeeds. A negative n
     * launches nothing either: the launcher may treat it as an empty grid
     * (cdiv(-5, 64) = 0) or refuse it with a message. */
    for (i = 0; i < N; i++) out[i] = -1.0f;
    expect_int("launch with n = 0", launch_build_tree_add_host(x, y, out, 0), MYTRITON_SUCCESS);
    mytriton_clear_last_error();
    {
        int status = launch_build_tree_add_host(x, y, out, -5);
        if (status == MYTRITON_INVALID_VALUE) {
            if (strstr(mytriton_last_error(), "launch_build_tree_add_host") == NULL) {
                printf("FAIL: the refusal of n = -5 does not name the launcher: \"%s\"\n",
                       mytriton_last_error());
                failures++;
            }
        } else {
            expect_int("launch with n = -5", status, MYTRITON_SUCCESS);
        }
    }
    for (i = 0; i < N; i++)
        if (out[i] != -1.0f) {
            printf("FAIL: an empty launch wrote out[%d]\n", i);
            failures++;
            break;
        }

    expect_int("launch of an unknown kernel", mytriton_launch("nope", "host", NULL, args, NULL),
               MYTRITON_NOT_FOUND);

    /* NULL buffers: an empty grid reads none and succeeds (a kernel may
     * take NULL where a runtime flag guards its use, as Triton allows). A
     * NULL entry of the argument array is refused by mytriton_launch. */
    expect_int("launch with NULL buffers and n = 0",
               launch_build_tree_add_host(NULL, NULL, NULL, 0), MYTRITON_SUCCESS);
    {
        const float *null_x = NULL;
        int32_t zero = 0;
        void *null_buffer[4], *null_entry[4];
        memcpy(null_buffer, args, sizeof args);
        memcpy(null_entry, args, sizeof args);
        null_buffer[0] = (void *)&null_x;
        null_buffer[3] = (void *)&zero;
        null_entry[2] = NULL;
        expect_int("mytriton_launch with x = NULL and n = 0",
                   mytriton_launch("build_tree_add", "host", NULL, null_buffer, NULL),
                   MYTRITON_SUCCESS);
        mytriton_clear_last_error();
        expect_int("mytriton_launch with args[2] = NULL",
                   mytriton_launch("build_tree_add", "host", NULL, null_entry, NULL),
                   MYTRITON_INVALID_VALUE);
        if (strstr(mytriton_last_error(), "args[2] (argument 'out') is NULL") == NULL) {
            printf("FAIL: args[2] = NULL: \"%s\"\n", mytriton_last_error());
            failures++;
        }
    }
    for (i = 0; i < N; i++)
        if (out[i] != -1.0f) {
            printf("FAIL: a refused launch wrote out[%d]\n", i);
            failures++;
            break;
        }

    /* GRID "blocks" GRID_PARAMS blocks: the launcher takes the number of
     * programs after the kernel's parameters; 2 programs of 64 write 128. */
    for (i = 0; i < N; i++) out[i] = -1.0f;
    expect_int("launch with blocks = 2", launch_build_tree_add_blocks_host(x, y, out, N, 2),
               MYTRITON_SUCCESS);
    for (i = 0; i < N; i++)
        if (out[i] != (i < 128 ? x[i] + y[i] : -1.0f)) {
            printf("FAIL: blocks = 2: out[%d] = %g\n", i, out[i]);
            failures++;
            break;
        }
    mytriton_clear_last_error();
    expect_int("launch with blocks = -1", launch_build_tree_add_blocks_host(x, y, out, N, -1),
               MYTRITON_INVALID_VALUE);
    if (strstr(mytriton_last_error(), "blocks = -1 is negative") == NULL) {
        printf("FAIL: blocks = -1: \"%s\"\n", mytriton_last_error());
        failures++;
    }
    info = mytriton_find_kernel("build_tree_add_blocks", "host");
    if (info == NULL || info->num_args != 5) {
        printf("FAIL: build_tree_add_blocks is not registered with 5 arguments\n");
        failures++;
    } else {
        int32_t blocks = 5;
        void *args5[5];
        memcpy(args5, args, sizeof args);
        args5[4] = &blocks;
        expect_str("argument 4", info->arg_names[4], "blocks");
        expect_int("kind of argument 4", info->arg_kinds[4], MYTRITON_ARG_I32);
        for (i = 0; i < N; i++) out[i] = -1.0f;
        expect_int("mytriton_launch with blocks = 5",
                   mytriton_launch("build_tree_add_blocks", "host", NULL, args5, NULL),
                   MYTRITON_SUCCESS);
        expect_int("out[299] after blocks = 5", out[N - 1] == x[N - 1] + y[N - 1], 1);
    }

    /* No GRID: the caller's grid. {2} (y and z left 0) is an error with a
     * message, not a silent success; mytriton_grid_1d(2) runs 2 programs;
     * an x of 0 is an empty launch. */
    {
        mytriton_grid bad = {2, 0, 0}; /* what `mytriton_grid bad = {2};` leaves */
        for (i = 0; i < N; i++) out[i] = -1.0f;
        mytriton_clear_last_error();
        expect_int("explicit grid {2}", launch_build_tree_add_explicit_host(bad, x, y, out, N),
                   MYTRITON_INVALID_VALUE);
        if (strstr(mytriton_last_error(),
                   "launch_build_tree_add_explicit_host: grid dimension y is 0") == NULL) {
            printf("FAIL: grid {2}: \"%s\"\n", mytriton_last_error());
            failures++;
        }
        expect_int("out[0] after grid {2}", out[0] == -1.0f, 1);
        expect_int("explicit grid {0, 1, 1}",
                   launch_build_tree_add_explicit_host(mytriton_grid_3d(0, 1, 1), x, y, out, N),
                   MYTRITON_SUCCESS);
        expect_int("out[0] after an empty grid", out[0] == -1.0f, 1);
        expect_int("mytriton_grid_1d(2)",
                   launch_build_tree_add_explicit_host(mytriton_grid_1d(2), x, y, out, N),
                   MYTRITON_SUCCESS);
        for (i = 0; i < N; i++)
            if (out[i] != (i < 128 ? x[i] + y[i] : -1.0f)) {
                printf("FAIL: mytriton_grid_1d(2): out[%d] = %g\n", i, out[i]);
                failures++;
                break;
            }
    }
    if (failures == 0) printf("build-tree kernel library: registry and launches OK\n");
    return failures != 0;
}
