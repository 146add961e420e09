/* Runs the four kernels of kernels/defs.py on the host; exits 1 on a wrong
 * result (each multiplies by its own factor: the definition that ran). */
#include <stdio.h>

#include "definition_kernels.h"

#define N 300

static int check(const char *name, int status, const float *x, const float *out, float factor) {
    if (status != MYTRITON_SUCCESS) {
        printf("%s: %s\n", name, mytriton_last_error());
        return 1;
    }
    for (int i = 0; i < N; i++)
        if (out[i] != x[i] * factor) {
            printf("%s: out[%d] = %g, expected %g\n", name, i, out[i], x[i] * factor);
            return 1;
        }
    printf("ok: %s (factor %g)\n", name, factor);
    return 0;
}

int main(void) {
    static float x[N], out[N];
    int bad = 0;
    for (int i = 0; i < N; i++) x[i] = (float)i - 100.0f;
    bad |= check("in_try", launch_in_try_host(x, out, N), x, out, 2.0f);
    bad |= check("in_if", launch_in_if_host(x, out, N), x, out, 3.0f);
    bad |= check("twice", launch_twice_host(x, out, N), x, out, 4.0f);
    bad |= check("branch", launch_branch_host(x, out, N), x, out, 5.0f);
    return bad;
}
