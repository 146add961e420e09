/* Grid checks shared by every launcher: CUDA's limits, negative and empty
 * grids. Invalid dimensions are reported before an empty one, so a grid of
 * (0, -1, 1) is an error, not an empty launch. Explicit grids (passed by the
 * caller) must also have y and z of at least 1: only x may be 0. */
#include "mytriton/runtime.h"

#include <inttypes.h>

int mytriton_check_grid(const char *launcher, const mytriton_grid *grid, int *empty) {
    static const char axis_names[3] = {'x', 'y', 'z'};
    int64_t dims[3];
    int i;

    if (launcher == NULL) launcher = "mytriton";
    if (empty != NULL) *empty = 0;
    if (grid == NULL) {
        mytriton_set_last_error("%s: no grid given", launcher);
        return MYTRITON_INVALID_VALUE;
    }
    dims[0] = grid->x;
    dims[1] = grid->y;
    dims[2] = grid->z;
    for (i = 0; i < 3; i++) {
        int64_t limit = i == 0 ? MYTRITON_GRID_X_MAX : MYTRITON_GRID_YZ_MAX;
        if (dims[i] < 0) {
            mytriton_set_last_error("%s: grid dimension %c is negative (%" PRId64 ")", launcher,
                                    axis_names[i], dims[i]);
            return MYTRITON_INVALID_VALUE;
        }
        if (dims[i] > limit) {
            mytriton_set_last_error("%s: grid dimension %c is %" PRId64
                                    ", above CUDA's limit of %" PRId64,
                                    launcher, axis_names[i], dims[i], limit);
            return MYTRITON_INVALID_VALUE;
        }
    }
    if ((dims[0] == 0 || dims[1] == 0 || dims[2] == 0) && empty != NULL) *empty = 1;
    return MYTRITON_SUCCESS;
}

int mytriton_check_explicit_grid(const char *launcher, const mytriton_grid *grid, int *empty) {
    int status = mytriton_check_grid(launcher, grid, empty);
    if (status != MYTRITON_SUCCESS) return status;
    if (grid->y == 0 || grid->z == 0) {
        if (empty != NULL) *empty = 0;
        mytriton_set_last_error(
            "%s: grid dimension %c is 0 in the grid {%" PRId64 ", %" PRId64 ", %" PRId64
            "}; "
            "unused dimensions are 1 (mytriton_grid_1d(n) gives {n, 1, 1}; an x of 0 launches "
            "nothing)",
            launcher == NULL ? "mytriton" : launcher, grid->y == 0 ? 'y' : 'z', grid->x, grid->y,
            grid->z);
        return MYTRITON_INVALID_VALUE;
    }
    return MYTRITON_SUCCESS;
}
