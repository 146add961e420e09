/* Runs scale_kernel on the host; argv[1]: the factor expected (default 2).
 * Exits 1 on a wrong result. */
#include <stdio.h>
#include <stdlib.h>

#include "imported_kernels.h"

#define N 300

int main(int argc, char **argv) {
    static float x[N], out[N];
    float factor = argc > 1 ? (float)atof(argv[1]) : 2.0f;
    for (int i = 0; i < N; i++) x[i] = (float)i - 100.0f;
    int status = launch_scale_host(x, out, N);
    if (status != MYTRITON_SUCCESS) {
        printf("launch_scale_host: %s\n", mytriton_status_string(status));
        return 1;
    }
    for (int i = 0; i < N; i++)
        if (out[i] != x[i] * factor) {
            printf("out[%d] = %g, expected %g\n", i, out[i], x[i] * factor);
            return 1;
        }
    printf("ok: factor %g\n", factor);
    return 0;
}
