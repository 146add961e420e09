/* Contiguity and divisibility along the vector axis (layout/axis.c): the
 * analysis the -O2 CUDA backend asks before it makes a load or store one
 * 16-byte access, or a mask one predicate per access (like Triton's
 * AxisInfo, over the tile's blocked layout). */
#ifndef MT_AXIS_H
#define MT_AXIS_H

#include "layout/shape.h"

/* For an integer (or pointer index) value: its step between consecutive
 * elements of a group along the vector axis (0 constant, 1 contiguous, -1
 * unknown) and a power of two dividing its value at the first element of
 * every group (capped at 16). Groups are the plan's group of elements that
 * the layout keeps consecutive, aligned in the tile's index space, like the
 * runs of Triton's AxisInfo; tl.multiple_of, tl.max_contiguous and
 * tl.max_constancy (HINT) state these facts for any value. */
typedef struct AxisInfo {
    int stride;
    int div;
} AxisInfo;

/* What a question is asked over: the function, its tile (the layout of
 * every value: tile->layout), the values the backend stores as others
 * (alias: value -> value it is stored as, -1: itself), the signature's :N
 * hints per parameter (or NULL), and the groups asked about: `group`
 * elements along columns (the plan's 16-byte group); along rows, groups
 * of `rows` rows instead (0: along columns); along columns, accesses of
 * `v` elements (0: the group). */
typedef struct AxisQuery {
    const Function *f;
    const TileInfo *tile;
    const int *alias;
    const int *param_div;
    int group;
    int rows;
    int v;
} AxisQuery;

/* The facts of operand `o` read in layout `use`. */
AxisInfo axis_info(const AxisQuery *q, Operand o, Layout use);

#endif
