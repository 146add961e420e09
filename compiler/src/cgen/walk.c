/* The walker of the C-like backends (walk.h). */
#include "cgen/walk.h"

void cwalk_inst(const CWalk *w, const Inst *in) {
    if (w->begin) w->begin(w->be, in);
    CWalkFn fn = NULL;
    switch (op_class(in->op)) {
    case OC_INDEX: fn = w->index; break;
    case OC_CREATE: fn = w->create; break;
    case OC_SHAPE: fn = w->shape; break;
    case OC_UNARY:
    case OC_MATH:
    case OC_BINARY:
    case OC_COMPARE:
    case OC_BITWISE:
    case OC_CONVERT:
    case OC_HINT:
    case OC_SELECT:
    case OC_ASM: fn = w->compute; break;
    case OC_POINTER: fn = w->pointer; break;
    case OC_MEMORY: fn = in->op == OP_LOAD ? w->load : w->store; break;
    case OC_REDUCE:
    case OC_SCAN: fn = w->reduce; break;
    case OC_REGION: fn = w->region; break;
    case OC_ATOMIC: fn = w->atomic; break;
    case OC_DEBUG: fn = w->debug; break;
    case OC_DOT: fn = w->dot; break;
    }
    MT_ASSERT(fn);
    fn(w->be, in);
}

void cwalk_block(const CWalk *w, const Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        if (w->item) w->item(w->be, in);
        else cwalk_inst(w, in);
    }
}
