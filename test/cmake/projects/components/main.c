/* Links the runtime component alone: a status string and a grid helper. */
#include <stdio.h>
#include <string.h>

#include "mytriton/runtime.h"

int main(void) {
    mytriton_grid g = mytriton_grid_1d(4);
    int empty = 1;
    if (mytriton_check_explicit_grid("status", &g, &empty) != MYTRITON_SUCCESS || empty) return 1;
    if (strcmp(mytriton_status_string(MYTRITON_INVALID_VALUE), "invalid value") != 0) return 1;
    printf("runtime component: %s\n", mytriton_status_string(9));
    return 0;
}
