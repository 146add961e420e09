/* The CUDA backend (DESIGN 8): verified SSA into one __global__ function.
 * One CUDA thread per element of the kernel's tile; each SSA value becomes
 * a local `vN`; pointer arithmetic folds into indexing (`x[v3]`); a masked
 * load is `(mask ? p[i] : other)`, a masked store an `if`; a reduction
 * uses a __shared__ buffer and a tree with __syncthreads(); a runtime loop
 * is a C `for` whose carried results are declared before the loop and
 * assigned at the end of each iteration. The golden files show each rule. */
#include "emit.h"

#include <string.h>

#include "cgen.h"

typedef struct Cuda {
    Arena *a;
    const Function *f;
    const TileInfo *tile;
    const char **pnames;    /* C names of the parameters */
    const char **vname;     /* by value number: its C expression */
    const char **ptr_base;  /* pointer values: the parameter */
    const char **ptr_index; /* pointer values: the element index (NULL: 0) */
    StrBuf smem;            /* __shared__ declarations */
    StrBuf *out;
    int indent;
    int loop_depth;
    const Inst *user;       /* the item whose operands are being rendered */
    Layout lane_layout;     /* for loop lanes (user == NULL) */
    const char *index_type; /* a carried pointer's element index: int, or
                            * long long when some offset is 64-bit */
} Cuda;

/* Whether an addptr of the block (or of a loop in it) has a 64-bit offset. */
static int wide_offsets(const Function *f, const Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        if (in->op == OP_FOR && wide_offsets(f, &in->loop->body)) return 1;
        if (in->op == OP_ADDPTR &&
            dtype_info((DType)operand_type(f, in->args[1]).dtype)->bits == 64)
            return 1;
    }
    return 0;
}

static const char *arange_index(Cuda *C, const Inst *in, Layout l);

static void line(Cuda *C, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(Cuda *C, const char *fmt, ...) {
    sb_printf(C->out, "%*s", C->indent * 4, "");
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(C->out, fmt, ap);
    va_end(ap);
    sb_putc(C->out, '\n');
}

static const char *opd(Cuda *C, Operand o) {
    switch (o.kind) {
    case OPD_VALUE: {
        const Inst *def = C->f->defs[o.id];
        if (C->tile->rank == 2 && def && def->op == OP_ARANGE) {
            /* an index chosen by the use (tile_i, tile_j, threadIdx.x) */
            Layout l = C->lane_layout;
            if (C->user)
                for (int k = 0; k < C->user->nargs; k++)
                    if (C->user->args[k].kind == OPD_VALUE && C->user->args[k].id == o.id)
                        l = shape_use_layout(C->tile, C->f, C->user, k);
            return arange_index(C, def, l);
        }
        return C->vname[o.id] ? C->vname[o.id] : arena_printf(C->a, "v%d", o.id);
    }
    case OPD_PARAM: return C->pnames[o.id];
    case OPD_CONST: return c_const(C->a, o.c, C_CUDA);
    case OPD_NONE: break;
    }
    return "0";
}

/* An operand as `dt` (explicit conversion where C would not convert). */
static const char *opd_as(Cuda *C, Operand o, DType dt) {
    Type t = operand_type(C->f, o);
    if (o.kind == OPD_CONST) return c_const(C->a, const_convert(o.c, dt), C_CUDA);
    if (t.dtype == dt) return opd(C, o);
    if (dtype_info((DType)t.dtype)->compute == dtype_info(dt)->compute &&
        dtype_info(dt)->compute != dt)
        return c_round(C->a, dt, C_CUDA, opd(C, o)); /* a narrow float as another */
    return arena_printf(C->a, "(%s)%s", c_type(dt), opd(C, o));
}

/* Operand k of `in` as the op takes it: a constant converted to the op's
 * computation dtype (the seed's constants as written). */
static const char *opd_for(Cuda *C, const Inst *in, int k) {
    Operand o = in->args[k];
    if (o.kind == OPD_CONST) {
        DType dt = c_operand_dtype(C->a, C->f, in, k);
        if (in->op == OP_MAXIMUM || in->op == OP_MINIMUM)
            return c_const(C->a, const_convert(o.c, dt), C_CUDA);
        return c_operand_const(C->a, o.c, dt, C_CUDA);
    }
    return opd(C, o);
}

static void pointer(Cuda *C, Operand o, const char **base, const char **index) {
    if (o.kind == OPD_PARAM) {
        *base = C->pnames[o.id];
        *index = NULL;
        return;
    }
    MT_ASSERT(o.kind == OPD_VALUE && C->ptr_base[o.id]);
    *base = C->ptr_base[o.id];
    *index = C->ptr_index[o.id];
}

static const char *element(Cuda *C, Operand p) {
    const char *base, *index;
    pointer(C, p, &base, &index);
    return arena_printf(C->a, "%s[%s]", base, index ? index : "0");
}

static int is_true(Operand o) {
    return o.kind == OPD_NONE || (o.kind == OPD_CONST && o.c.dt == DT_BOOL && o.c.i);
}

static const char *arange_index(Cuda *C, const Inst *in, Layout l) {
    const char *idx = l == LAYOUT_ROWS      ? "tile_i"
                      : l == LAYOUT_COLS    ? "tile_j"
                      : l == LAYOUT_UNIFORM ? NULL
                                            : "threadIdx.x";
    if (!idx) return arena_printf(C->a, "%d", in->attrs.start);
    if (in->attrs.start == 0) return idx;
    return arena_printf(C->a, "(%s + %d)", idx, in->attrs.start);
}

static void emit_reduce(Cuda *C, const Inst *in) {
    int id = in->result;
    DType dt = (DType)in->type.dtype;
    const char *t = c_type(dt);
    int n = C->tile->threads;
    sb_printf(&C->smem, "    __shared__ %s reduce_smem_%d[%d];\n", t, id, n);
    const char *buf = arena_printf(C->a, "reduce_smem_%d", id);
    line(C, "%s[threadIdx.x] = %s;", buf, opd(C, in->args[0]));
    line(C, "__syncthreads();");
    line(C, "for (int stride_%d = %d; stride_%d > 0; stride_%d >>= 1) {", id, n / 2, id, id);
    C->indent++;
    line(C, "if (threadIdx.x < stride_%d) {", id);
    C->indent++;
    const char *lhs = arena_printf(C->a, "%s[threadIdx.x]", buf);
    const char *rhs = arena_printf(C->a, "%s[threadIdx.x + stride_%d]", buf, id);
    int fl = dtype_is_float(dt);
    const char *mx = dtype_info(dt)->compute == DT_F64 ? "fmax" : "fmaxf",
               *mn = dtype_info(dt)->compute == DT_F64 ? "fmin" : "fminf";
    if (in->op == OP_SUM &&
        dtype_info(dt)->compute != dt) /* a narrow float: each partial sum rounded */
        line(C, "%s = %s;", lhs,
             c_round(C->a, dt, C_CUDA, arena_printf(C->a, "%s + %s", lhs, rhs)));
    else if (in->op == OP_SUM) line(C, "%s += %s;", lhs, rhs);
    /* as the seed: fmaxf/fminf on floats, a conditional on integers */
    else if (fl) line(C, "%s = %s(%s, %s);", lhs, in->op == OP_MAX ? mx : mn, lhs, rhs);
    else
        line(C, "%s = (%s %s %s ? %s : %s);", lhs, lhs, in->op == OP_MAX ? ">" : "<", rhs, lhs,
             rhs);
    C->indent--;
    line(C, "}");
    line(C, "__syncthreads();");
    C->indent--;
    line(C, "}");
    line(C, "%s v%d = %s[0];", t, id, buf);
    /* in a loop the buffer is written again next iteration */
    if (C->loop_depth > 0) line(C, "__syncthreads();");
}

static void emit_block(Cuda *C, const Block *b);

static void emit_loop(Cuda *C, const Inst *in) {
    const Loop *l = in->loop;
    const Function *f = C->f;
    for (int k = 0; k < l->ncarried; k++) {
        int r = l->results[k];
        const char *name = arena_printf(C->a, "v%d", r);
        Type t = f->types[r];
        C->user = NULL;
        C->lane_layout = C->tile->layout[l->args[k]];
        if (t.ptr) {
            /* a carried pointer: its element index, from one base parameter */
            const char *base, *index;
            pointer(C, l->inits[k], &base, &index);
            line(C, "%s %s = %s;", C->index_type, name, index ? index : "0");
            C->ptr_base[r] = C->ptr_base[l->args[k]] = base;
            C->ptr_index[r] = C->ptr_index[l->args[k]] = name;
        } else {
            line(C, "%s %s = %s;", c_type((DType)t.dtype), name, opd(C, l->inits[k]));
            C->vname[r] = C->vname[l->args[k]] = name;
        }
    }
    C->user = in;
    line(C, "for (int v%d = %s; v%d < %s; v%d += %s) {", l->index, opd(C, l->start), l->index,
         opd(C, l->stop), l->index, opd(C, l->step));
    C->vname[l->index] = arena_printf(C->a, "v%d", l->index);
    C->indent++;
    C->loop_depth++;
    emit_block(C, &l->body);
    /* yields: parallel assignment; temporaries only when a yield reads a
     * region argument that an earlier assignment overwrites */
    int hazard = 0;
    for (int k = 0; k < l->nyields; k++)
        for (int j = 0; j < k; j++)
            if (l->yields[k].kind == OPD_VALUE && l->yields[k].id == l->args[j]) hazard = 1;
    const char **vals = ARENA_ARRAY(C->a, const char *, l->nyields + 1);
    for (int k = 0; k < l->nyields; k++) {
        Type t = f->types[l->results[k]];
        C->user = NULL;
        C->lane_layout = C->tile->layout[l->args[k]];
        if (t.ptr) {
            const char *base, *index;
            pointer(C, l->yields[k], &base, &index);
            vals[k] = index ? index : "0";
        } else {
            vals[k] = opd(C, l->yields[k]);
        }
        if (hazard) {
            line(C, "%s v%d_next = %s;", t.ptr ? C->index_type : c_type((DType)t.dtype),
                 l->results[k], vals[k]);
            vals[k] = arena_printf(C->a, "v%d_next", l->results[k]);
        }
    }
    for (int k = 0; k < l->nyields; k++) {
        const char *name = arena_printf(C->a, "v%d", l->results[k]);
        if (strcmp(vals[k], name) != 0) line(C, "%s = %s;", name, vals[k]);
    }
    C->loop_depth--;
    C->indent--;
    line(C, "}");
}

static void emit_inst(Cuda *C, const Inst *in) {
    const Function *f = C->f;
    int id = in->result;
    const char *T = c_type((DType)in->type.dtype);
    const Operand *x = in->args;
    if (id >= 0) C->vname[id] = arena_printf(C->a, "v%d", id);
    C->user = in;
    switch (in->op) {
    case OP_PROGRAM_ID: line(C, "int v%d = blockIdx.%c;", id, "xyz"[in->attrs.axis]); return;
    case OP_NUM_PROGRAMS: line(C, "int v%d = gridDim.%c;", id, "xyz"[in->attrs.axis]); return;
    case OP_ARANGE:
        if (C->tile->rank == 2) return; /* rendered at each use, as tile_i / tile_j */
        line(C, "int v%d = %s;", id, arange_index(C, in, C->tile->layout[id]));
        return;
    case OP_EXPAND_DIMS: line(C, "%s v%d = %s;", T, id, opd(C, x[0])); return;
    case OP_ZEROS:
    case OP_EMPTY: line(C, "%s v%d = %s;", T, id, c_zero((DType)in->type.dtype)); return;
    case OP_FULL: /* an i32/f32 constant as written, as the seed: float v0 = 2; */
        line(C, "%s v%d = %s;", T, id,
             x[0].kind == OPD_CONST && (x[0].c.dt == DT_I32 || x[0].c.dt == DT_F32) &&
                     (in->type.dtype == DT_I32 || in->type.dtype == DT_F32)
                 ? opd(C, x[0])
                 : opd_as(C, x[0], (DType)in->type.dtype));
        return;
    case OP_ADDPTR: {
        const char *base, *index;
        pointer(C, x[0], &base, &index);
        const char *off = opd(C, x[1]);
        C->ptr_base[id] = base;
        C->ptr_index[id] = index ? arena_printf(C->a, "(%s + %s)", index, off) : off;
        C->vname[id] = NULL;
        return;
    }
    case OP_LOAD: {
        /* a runtime `other` converts to the pointee (else an f32 one would
         * make the conditional f32 and round an i32 load) */
        DType dt = (DType)in->type.dtype;
        const char *other = x[2].kind == OPD_NONE ? c_zero(dt) : opd_as(C, x[2], dt);
        const char *mask = x[1].kind == OPD_NONE ? "true" : opd(C, x[1]);
        line(C, "%s v%d = (%s ? %s : %s);", T, id, mask, c_load(C->a, dt, C_CUDA, element(C, x[0])),
             other);
        return;
    }
    case OP_STORE: {
        const char *dst = element(C, x[0]);
        DType pt = (DType)operand_type(f, x[0]).dtype;
        const char *val = c_store(
            C->a, pt, C_CUDA, dtype_info(pt)->compute != pt ? opd_as(C, x[1], pt) : opd(C, x[1]));
        if (x[2].kind == OPD_CONST && !x[2].c.i) return; /* never stores */
        if (is_true(x[2])) {
            line(C, "%s = %s;", dst, val);
            return;
        }
        line(C, "if (%s) {", opd(C, x[2]));
        C->indent++;
        line(C, "%s = %s;", dst, val);
        C->indent--;
        line(C, "}");
        return;
    }
    case OP_SUM:
    case OP_MAX:
    case OP_MIN: emit_reduce(C, in); return;
    case OP_FOR: emit_loop(C, in); return;
    case OP_NEG:
    case OP_ABS:
#define MATH(id, name, nargs, rule, tmpl, triton, mlir, meaning) case OP_##id:
#include "ops_math.def"
#undef MATH
    case OP_ADD:
    case OP_SUB:
    case OP_MUL:
    case OP_DIV:
    case OP_DIV_RN:
    case OP_FLOORDIV:
    case OP_MOD:
    case OP_MAXIMUM:
    case OP_MINIMUM:
    case OP_UMULHI:
    case OP_CMP_LT:
    case OP_CMP_LE:
    case OP_CMP_GT:
    case OP_CMP_GE:
    case OP_CMP_EQ:
    case OP_CMP_NE:
    case OP_AND:
    case OP_OR:
    case OP_XOR:
    case OP_SHL:
    case OP_SHR:
    case OP_CAST:
    case OP_BITCAST:
    case OP_HINT:
    case OP_SELECT: {
        const char *ops[3] = {NULL, NULL, NULL};
        for (int k = 0; k < in->nargs; k++) ops[k] = opd_for(C, in, k);
        line(C, "%s v%d = %s;", T, id, c_op_expr(C->a, C_CUDA, f, in, ops));
        return;
    }
    case OP_COUNT: break;
    }
    MT_ASSERT(!"unhandled opcode");
}

static void emit_block(Cuda *C, const Block *b) {
    for (int i = 0; i < b->items.len; i++) emit_inst(C, b->items.items[i]);
}

const char *emit_cuda_kernel(Arena *a, const Function *f, const TileInfo *tile,
                             const char *symbol) {
    Cuda C = {0};
    C.a = a;
    C.f = f;
    C.tile = tile;
    C.pnames = c_param_names(a, f);
    C.vname = ARENA_ARRAY(a, const char *, f->nvalues + 1);
    C.ptr_base = ARENA_ARRAY(a, const char *, f->nvalues + 1);
    C.ptr_index = ARENA_ARRAY(a, const char *, f->nvalues + 1);
    C.index_type = wide_offsets(f, &f->body) ? "long long" : "int";
    sb_init(&C.smem, a);
    StrBuf body, out;
    sb_init(&body, a);
    sb_init(&out, a);
    C.out = &body;
    C.indent = 1;
    if (tile->rank == 2) {
        line(&C, "int tile_i = threadIdx.x / %d;", tile->cols);
        line(&C, "int tile_j = threadIdx.x %% %d;", tile->cols);
    }
    emit_block(&C, &f->body);
    sb_printf(&out, "extern \"C\" __global__\nvoid %s(", symbol);
    for (int i = 0; i < f->nparams; i++)
        sb_printf(&out, "%s%s %s", i ? ", " : "", c_param_type(a, f->params[i].type), C.pnames[i]);
    sb_puts(&out, ") {\n");
    if (C.smem.len) {
        sb_puts(&out, sb_str(&C.smem));
        sb_putc(&out, '\n');
    }
    sb_puts(&out, sb_str(&body));
    sb_puts(&out, "}\n");
    return sb_str(&out);
}
