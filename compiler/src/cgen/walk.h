/* The one walker of the SSA for the C-like backends (the CUDA backends at
 * -O0/-O1 and -O2, the host backend): each item of a block, in order, goes
 * to the backend's hook for its op class (ops.h OpClass), so a backend
 * handles classes, and a new op of a class (a MATH row) reaches every
 * backend through the hook of its class. The hooks print; the walker
 * knows nothing of C. */
#ifndef MT_WALK_H
#define MT_WALK_H

#include "ir/ssa.h"

typedef void (*CWalkFn)(void *be, const Inst *in);

typedef struct CWalk {
    void *be;        /* the backend's state, every hook's first argument */
    CWalkFn begin;   /* before every item's hook (NULL: nothing) */
    CWalkFn index;   /* OC_INDEX: program_id, num_programs, arange */
    CWalkFn create;  /* OC_CREATE: zeros, full, empty */
    CWalkFn shape;   /* OC_SHAPE: expand_dims, broadcast and the exchanges */
    CWalkFn compute; /* one expression per element: OC_UNARY, OC_MATH,
                      * OC_BINARY, OC_COMPARE, OC_BITWISE, OC_CONVERT,
                      * OC_HINT, OC_SELECT, OC_ASM */
    CWalkFn pointer; /* OC_POINTER: addptr, int_to_ptr, ptr_to_int */
    CWalkFn load;    /* OC_MEMORY: load */
    CWalkFn store;   /* OC_MEMORY: store */
    CWalkFn reduce;  /* OC_REDUCE and OC_SCAN */
    CWalkFn region;  /* OC_REGION: for, while, if (the hook walks the bodies) */
    CWalkFn atomic;  /* OC_ATOMIC */
    CWalkFn debug;   /* OC_DEBUG: device_print, device_assert, debug_barrier */
    CWalkFn dot;     /* OC_DOT */
    CWalkFn item;    /* how cwalk_block takes an item (NULL: cwalk_inst; -O2
                      * defers some items to their first use) */
} CWalk;

/* The item's hook (after `begin`). */
void cwalk_inst(const CWalk *w, const Inst *in);
/* Every item of the block, in order, through w->item (or cwalk_inst). */
void cwalk_block(const CWalk *w, const Block *b);

#endif
