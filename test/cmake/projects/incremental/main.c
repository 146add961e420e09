/* Runs both kernels on the host: add through its launcher, scale by name
 * through the registry. Exits 1 on a wrong result. */
#include <math.h>
#include <stdio.h>

#include "two_kernels.h"

#define N 1000

int main(void) {
    static float x[N], y[N], out[N];
    int32_t n = N;
    int i, status;

    for (i = 0; i < N; i++) {
        x[i] = (float)i * 0.5f;
        y[i] = 3.0f - (float)i;
        out[i] = NAN;
    }
    two_kernels_register_kernels();

    status = launch_add_host(x, y, out, n);
    if (status != MYTRITON_SUCCESS) {
        printf("launch_add_host: %s: %s\n", mytriton_status_string(status), mytriton_last_error());
        return 1;
    }
    for (i = 0; i < N; i++)
        if (out[i] != x[i] + y[i]) {
            printf("add: out[%d] = %g, expected %g\n", i, out[i], x[i] + y[i]);
            return 1;
        }

    {
        const float *px = x;
        float *pout = out;
        void *args[3];
        const mytriton_kernel_info *info = mytriton_find_kernel("scale", "host");
        args[0] = (void *)&px;
        args[1] = (void *)&pout;
        args[2] = (void *)&n;
        if (info == NULL) {
            printf("scale is not registered\n");
            return 1;
        }
        status = mytriton_launch("scale", "host", NULL, args, NULL);
        if (status != MYTRITON_SUCCESS) {
            printf("mytriton_launch(scale): %s: %s\n", mytriton_status_string(status),
                   mytriton_last_error());
            return 1;
        }
        for (i = 0; i < N; i++)
            if (out[i] != 2.0f * x[i]) {
                printf("scale: out[%d] = %g, expected %g\n", i, out[i], 2.0f * x[i]);
                return 1;
            }
        printf("add and scale (%s, %s, %d threads per program) are correct on %d elements\n",
               info->kernel, info->constexprs, info->threads_per_block, N);
    }
    return 0;
}
