/* The -O2 CUDA emission of outer-product loops (outer.h): staged through
 * shared memory, accumulated from registers.
 *
 * outer.c finds, in the IR, a runtime loop accumulating acc + X * Y with X
 * a (BM, 1) and Y a (1, BN) operand, each any chain of pure elementwise
 * ops over loads (tl.where, casts, scaling) of the loop index and values
 * from before the loop (its pass has already turned carried pointers into
 * addresses of the iteration number):
 *
 *   %26 = for %16 in range(0, K, 1) iter_args(%17 = %12) : block<BMxBN x f32> {
 *     %20 = load <row pointers at k> ; %21 = select %c, %20, 0.0 : block<BMx1 x f32>
 *     %22 = load <column pointers at k> : block<1xBN x f32>
 *     %23 = mul %21, %22 ; %24 = add %17, %23 ; yield %24 }
 *
 * One thread per output element would re-read both operands from global
 * memory for every k. Here the loop runs in chunks of OUTER_BK iterations: the
 * block stages the chunk's X (BM x OUTER_BK) and Y (OUTER_BK x BN) in shared
 * memory (coalesced loads, the masks, `other` and the operand's transform
 * applied at staging, each element computed once), then each thread
 * accumulates its tm x tn register micro-tile from shared memory. The
 * values are those of the loop, k in the same order; only the rounding of
 * x * y + acc may differ (fused multiply-add, as nvcc contracts the plain
 * loop too).
 *
 * Operands are regenerated for any row, column and k from their
 * definitions (aranges, program ids, parameters, arithmetic, comparisons,
 * loads), so what the source computes in the loop and what it hoisted
 * before it take the same path. */
#include <string.h>

#include "cgen/cgen.h"
#include "backends/cuda/cuda_blocked.h"
#include "backends/cuda/cuda_regen.h"
#include "layout/layout.h"
#include "passes/outer.h"

/* MM_GROUP_COST: the SASS instructions (sm_90) of the general prefetch of
 * one staged group of 4 per chunk: indices, masks, the vector test, the
 * load (about 30 in the suite's matmul, 16 x 16 to 128 x 128). */
enum { MM_GROUP_COST = 30 };

/* ---- Regeneration of operands, addresses and masks ----------------------- */

typedef struct Regen {
    CudaB *C;
    const Loop *l;
    const char *row, *col, *k; /* coordinate expressions */
    /* loads already read into registers: value -> expression */
    int nsub;
    int sub_id[OUTER_MAX_LOADS];
    const char *sub_expr[OUTER_MAX_LOADS];
} Regen;

static const char *regen(Regen *R, Operand o, int axis);

/* A load at the coordinates: the element, or `other` where the mask fails. */
static const char *regen_load(Regen *R, const Inst *ld, int axis) {
    CudaB *C = R->C;
    DType dt = (DType)ld->type.dtype;
    const char *base = C->pnames[outer_pointer_base(C->f, ld->args[0])];
    const char *elem =
        c_load(C->a, dt, C_CUDA, arena_printf(C->a, "%s[%s]", base, regen(R, ld->args[0], axis)));
    if (ld->args[1].kind == OPD_NONE) return elem;
    const char *other = ld->args[2].kind == OPD_NONE ? c_zero(dt) : regen(R, ld->args[2], axis);
    return arena_printf(C->a, "(%s ? %s : (%s)%s)", regen(R, ld->args[1], axis), elem, c_type(dt),
                        other);
}

/* axis: 0 when the operand varies along rows, 1 along columns, -1 not at
 * all (a uniform scalar). */
static const char *regen(Regen *R, Operand o, int axis) {
    CudaB *C = R->C;
    const Function *f = C->f;
    if (o.kind == OPD_CONST) return c_const(C->a, o.c, C_CUDA);
    if (o.kind == OPD_PARAM) return C->pnames[o.id];
    if (o.kind == OPD_NONE) return "0";
    if (o.id == R->l->index) return R->k;
    for (int s = 0; s < R->nsub; s++)
        if (R->sub_id[s] == o.id) return R->sub_expr[s];
    const Inst *d = f->defs[o.id];
    Type t = f->types[o.id];
    /* a uniform scalar in scope (a pointer is an index: regenerated) */
    if (t.rank == 0 && !t.ptr && !ssa_block_holds(&R->l->body, d))
        return cb_elem(C, o, LAYOUT_UNIFORM, "0", "0");
    if (t.rank == 2) axis = t.dims[0] > 1 ? 0 : t.dims[1] > 1 ? 1 : -1;
    if (d->op == OP_LOAD) return regen_load(R, d, axis);
    if (d->op == OP_ARANGE) {
        const char *c = axis == 0 ? R->row : R->col;
        return d->attrs.start ? arena_printf(C->a, "(%s + %d)", c, d->attrs.start) : c;
    }
    if (d->op == OP_PROGRAM_ID) return cb_program_id(C, d->attrs.axis, 1);
    if (d->op == OP_NUM_PROGRAMS) return cb_num_programs(C, d->attrs.axis, 1);
    if (d->op == OP_ZEROS || d->op == OP_EMPTY) return c_zero((DType)d->type.dtype);
    if (d->op == OP_FULL) {
        DType dt = (DType)d->type.dtype;
        if (d->args[0].kind == OPD_CONST)
            return c_const(C->a, const_convert(d->args[0].c, dt), C_CUDA);
        const char *x = regen(R, d->args[0], -1);
        return operand_type(f, d->args[0]).dtype == dt
                   ? x
                   : arena_printf(C->a, "((%s)%s)", c_type(dt), x);
    }
    if (d->op == OP_EXPAND_DIMS)
        return regen(R, d->args[0], d->type.rank == 2 ? (d->attrs.axis == 1 ? 0 : 1) : axis);
    if (d->op == OP_ADDPTR) {
        const char *base = d->args[0].kind == OPD_PARAM ? NULL : regen(R, d->args[0], axis);
        const char *off = regen(R, d->args[1], axis);
        return base ? arena_printf(C->a, "(%s + %s)", base, off) : off;
    }
    /* an elementwise op (outer_match admitted no other) */
    const char *x[3] = {NULL, NULL, NULL};
    for (int k = 0; k < d->nargs && k < 3; k++)
        x[k] =
            d->args[k].kind == OPD_CONST ? cb_const_operand(C, d, k) : regen(R, d->args[k], axis);
    return cb_op_expr(C, d, x[0], x[1], x[2]);
}

/* The loads of an operand's chain, each once, in the order they are first
 * reached (a depth-first walk of the operands); -1 when more than fit. */
/* Whether the address of `o` advances by exactly one element per step of
 * k (then the k-chunk of a row is contiguous and loads go k-fastest). */
static int coef_k(const CudaB *C, const Loop *l, Operand o, int depth) {
    if (depth > 64 || o.kind != OPD_VALUE) return 0;
    if (o.id == l->index) return 1;
    const Inst *d = C->f->defs[o.id];
    if (!d || !ssa_block_holds(&l->body, d)) return 0;
    if (d->op == OP_ADDPTR || d->op == OP_ADD) {
        int a = coef_k(C, l, d->args[0], depth + 1), b = coef_k(C, l, d->args[1], depth + 1);
        return (a < 0 || b < 0 || a + b > 1) ? -1 : a + b;
    }
    if (d->op == OP_EXPAND_DIMS) return coef_k(C, l, d->args[0], depth + 1);
    for (int k = 0; k < d->nargs; k++)
        if (coef_k(C, l, d->args[k], depth + 1) != 0) return -1;
    return 0;
}

/* How `o` depends on the loop index: 0 not at all, 1 as an affine function
 * of it modulo 2^32 (sums, differences, products with a factor free of k,
 * negations, conversions between integers of 32 bits and more, pointer
 * offsets; the iteration number (k - start) / step of outer.c's carried
 * pointers counts as one), -1 otherwise. An index affine in k advances by
 * the same 32-bit difference from one chunk to the next. */
static int int32_plus(Type t) {
    return !t.ptr && dtype_is_int((DType)t.dtype) && dtype_info((DType)t.dtype)->bits >= 32;
}

static int affine_k(const CudaB *C, const Loop *l, Operand o, int depth) {
    if (depth > 64) return -1;
    if (o.kind != OPD_VALUE) return 0;
    if (o.id == l->index) return 1;
    const Inst *d = C->f->defs[o.id];
    if (!d || !ssa_block_holds(&l->body, d)) return 0;
    int dep[3] = {0, 0, 0}, any = 0;
    for (int k = 0; k < d->nargs && k < 3; k++) {
        dep[k] = affine_k(C, l, d->args[k], depth + 1);
        if (dep[k] < 0) return -1;
        any |= dep[k];
    }
    for (int k = 3; k < d->nargs; k++)
        if (affine_k(C, l, d->args[k], depth + 1) != 0) return -1;
    if (!any) return 0;
    Type t = C->f->types[o.id];
    int wide = t.ptr || int32_plus(t);
    switch (d->op) {
    case OP_ADDPTR:
    case OP_EXPAND_DIMS:
    case OP_HINT: return 1;
    case OP_ADD:
    case OP_SUB:
    case OP_NEG: return wide ? 1 : -1;
    case OP_MUL: return wide && !(dep[0] && dep[1]) ? 1 : -1;
    case OP_CAST: return wide && int32_plus(operand_type(C->f, d->args[0])) ? 1 : -1;
    case OP_FLOORDIV: {
        /* (k - start) / step, the iteration number */
        const Inst *sub = d->args[0].kind == OPD_VALUE ? C->f->defs[d->args[0].id] : NULL;
        int exact = sub && sub->op == OP_SUB && sub->args[0].kind == OPD_VALUE &&
                    sub->args[0].id == l->index && l->step.kind == OPD_CONST &&
                    d->args[1].kind == OPD_CONST && d->args[1].c.i == l->step.c.i &&
                    sub->args[1].kind == l->start.kind &&
                    (l->start.kind == OPD_CONST ? sub->args[1].c.i == l->start.c.i
                                                : sub->args[1].id == l->start.id);
        return exact && wide ? 1 : -1;
    }
    default: return -1;
    }
}

/* Staging of one operand: element e of the chunk (OUTER_BK x n) maps to
 * (kk, r), k-fastest when the address advances by one element per k (so
 * that neighbouring threads read neighbouring words), r-fastest otherwise.
 * `load` reads the chunk starting at iteration `chunk` (of `len`
 * iterations) into the registers `regs`; the store moves them to `dst`. */
typedef struct Staged {
    Operand v;       /* the operand, X or Y */
    const Inst *vec; /* its f32 load read in 128-bit groups (or NULL) */
    int nloads;      /* the loads of its chain */
    const Inst *loads[OUTER_MAX_LOADS];
    int n; /* rows (or columns) of the tile */
    int along_rows;
    const char *dst;  /* shared buffer */
    const char *regs; /* prefetch registers */
    int k_fastest;
    /* The vector load's index is affine in k and its mask free of k: a
     * group's index advances by the same difference each chunk and whether
     * it is one aligned 128-bit (64-bit) load of a full chunk is known
     * before the loop (stage_fast_init); the loop's prefetch then reads it
     * with neither indices nor masks recomputed. */
    int fast;
} Staged;

/* The chunk is staged in groups of 4 elements along its contiguous axis
 * (k when k-fastest, else the tile's rows or columns): a group is one
 * 128-bit load when its addresses are consecutive and aligned and its mask
 * holds (checked at run time), else 4 single loads. */
static int groups_per_thread(const CudaB *C, const Staged *S) {
    int groups = S->n * OUTER_BK / 4, T = C->tile->block_threads;
    return (groups + T - 1) / T;
}

static void group_coords(CudaB *C, const Staged *S) {
    cb_line(C, "const int mm_g = mm_s * %d + (int)%s;", C->tile->block_threads, C->tid);
    if (S->k_fastest)
        cb_line(C, "const int mm_kk = (mm_g %% %d) * 4, mm_r = mm_g / %d;", OUTER_BK / 4,
                OUTER_BK / 4);
    else cb_line(C, "const int mm_kk = mm_g / %d, mm_r = (mm_g %% %d) * 4;", S->n / 4, S->n / 4);
}

/* Whether identifier `id` occurs in `s`. */
static int uses_ident(const char *s, const char *id) {
    size_t n = strlen(id);
    for (const char *p = strstr(s, id); p; p = strstr(p + 1, id)) {
        int before = p > s && (p[-1] == '_' || (p[-1] >= '0' && p[-1] <= '9') ||
                               (p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z'));
        char c = p[n];
        int after =
            c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (!before && !after) return 1;
    }
    return 0;
}

/* The group's elements of the vector load S->vec into its prefetch
 * register as they are: 4 f32 as one 128-bit load (a float4), 4 f16 /
 * bf16 as one 64-bit load (a uint2); masked and ragged elements as single
 * loads, `other` and zeros in the load's dtype. Conversion and transform
 * wait for the store to shared memory, a chunk later, so that no
 * instruction reads a prefetched load before the chunk in hand is
 * computed (ptxas keeps a load's first use where it is: in the prefetch,
 * it would wait out the load's latency there). */
static void stage_vector(CudaB *C, Regen *R, const Staged *S, const char *chunk, const char *len,
                         const char *kq) {
    const Inst *ld = S->vec;
    int base = outer_pointer_base(C->f, ld->args[0]);
    const char *bname = C->pnames[base];
    int axis = S->along_rows ? 0 : 1;
    const char *idx = regen(R, ld->args[0], axis);
    const char *mask = ld->args[1].kind == OPD_NONE ? NULL : regen(R, ld->args[1], axis);
    const char *other = ld->args[2].kind == OPD_NONE ? "0.0f" : regen(R, ld->args[2], axis);
    /* the group's indices, masks and bounds */
    cb_line(C, "int mm_i[4];");
    cb_line(C, "bool mm_m[4];");
    cb_line(C, "#pragma unroll");
    cb_line(C, "for (int q = 0; q < 4; q++) {");
    C->indent++;
    cb_line(C, "const int mm_k = (int)(mm_start + (long long)(%s + %s) * mm_step);", chunk, kq);
    cb_line(C, "mm_i[q] = %s;", idx);
    cb_line(C, "mm_m[q] = %s < %s%s%s;", kq, len, mask ? " && " : "", mask ? mask : "");
    C->indent--;
    cb_line(C, "}");
    DType dt = (DType)ld->type.dtype;
    int bytes = 4 * dtype_bytes(dt);
    const char *al = C->param_div && C->param_div[base] >= bytes
                         ? NULL
                         : arena_printf(C->a, "(((uintptr_t)%s) & %d) == 0", bname, bytes - 1);
    cb_line(C,
            "if (%s%smm_m[0] && mm_m[1] && mm_m[2] && mm_m[3] && (mm_i[0] & 3) == 0 && mm_i[1] == "
            "mm_i[0] + 1 && "
            "mm_i[2] == mm_i[0] + 2 && mm_i[3] == mm_i[0] + 3) {",
            al ? al : "", al ? " && " : "");
    C->indent++;
    const char *mt = c_mem_type(dt, C_CUDA), *vt = bytes == 16 ? "float4" : "uint2";
    const char *reg = arena_printf(C->a, "%s[mm_s]", S->regs);
    cb_line(C, "%s = *(const %s *)&%s[mm_i[0]];", reg, vt, bname);
    C->indent--;
    cb_line(C, "} else {");
    C->indent++;
    /* the raw elements in a local array of the load's dtype, then the
     * register (the array's bytes) */
    const char *zero = c_store(C->a, dt, C_CUDA, "0.0f");
    cb_line(C, "__align__(%d) %s mm_h[4] = {%s, %s, %s, %s};", bytes, mt, zero, zero, zero, zero);
    const char *dst = "mm_h[q]", *elem = arena_printf(C->a, "%s[mm_i[q]]", bname);
    other = c_store(C->a, dt, C_CUDA, other);
    cb_line(C, "#pragma unroll");
    cb_line(C, "for (int q = 0; q < 4; q++) {");
    C->indent++;
    if (mask)
        cb_line(C, "if (mm_m[q]) %s = %s;\n%*selse if (%s < %s) %s = %s;", dst, elem, C->indent * 4,
                "", kq, len, dst, other);
    else cb_line(C, "if (%s < %s) %s = %s;", kq, len, dst, elem);
    C->indent--;
    cb_line(C, "}");
    cb_line(C, "%s = *reinterpret_cast<const %s *>(mm_h);", reg, vt);
    C->indent--;
    cb_line(C, "}");
}

/* Group q's operand values from its loads (those not read by
 * stage_vector, each once) and its transform, for the k inside the loop. */
static void stage_transform(CudaB *C, Regen *R, const Staged *S, const char *chunk, const char *len,
                            const char *kq) {
    int axis = S->along_rows ? 0 : 1;
    if (S->nloads == 1 && S->vec == S->loads[0]) {
        /* a transform that is the identity in the compute type (a cast of
         * f16 to f32): the vector's values are the operand's */
        R->nsub = 1;
        R->sub_id[0] = S->vec->result;
        R->sub_expr[0] = "mm_v[q]";
        int same = strcmp(regen(R, S->v, axis), "mm_v[q]") == 0;
        R->nsub = 0;
        if (same) return;
    }
    cb_line(C, "#pragma unroll");
    cb_line(C, "for (int q = 0; q < 4; q++) {");
    C->indent++;
    cb_line(C, "if (%s < %s) {", kq, len);
    C->indent++;
    /* the loads' and the transform's expressions first: mm_k is declared
     * where they read it */
    StrBuf body;
    sb_init(&body, C->a);
    R->nsub = 0;
    for (int i = 0; i < S->nloads; i++) {
        const Inst *ld = S->loads[i];
        const char *name = ld == S->vec ? "mm_v[q]" : arena_printf(C->a, "mm_l%d", ld->result);
        if (ld != S->vec)
            sb_printf(&body, "%*sconst %s %s = %s;\n", C->indent * 4, "",
                      c_type((DType)ld->type.dtype), name, regen_load(R, ld, axis));
        R->sub_id[R->nsub] = ld->result;
        R->sub_expr[R->nsub++] = name;
    }
    sb_printf(&body, "%*smm_v[q] = %s;\n", C->indent * 4, "", regen(R, S->v, axis));
    R->nsub = 0;
    if (uses_ident(sb_str(&body), "mm_k"))
        cb_line(C, "const int mm_k = (int)(mm_start + (long long)(%s + %s) * mm_step);", chunk, kq);
    sb_puts(C->out, sb_str(&body));
    C->indent--;
    cb_line(C, "}");
    C->indent--;
    cb_line(C, "}");
}

/* In a block of several programs (TileInfo.group_m x group_n) one warp
 * loads and stores each program row's chunk of X (mm_own_a) and one each
 * program column's chunk of Y (mm_own_b) for all of them: own_open and
 * own_close put an operand's staging under its flag. */
static int own_open(CudaB *C, const Staged *S) {
    if (C->progs <= 1) return 0;
    cb_line(C, "if (%s) {", S->along_rows ? "mm_own_a" : "mm_own_b");
    C->indent++;
    return 1;
}

static void own_close(CudaB *C, int open) {
    if (!open) return;
    C->indent--;
    cb_line(C, "}");
}

/* The Regen of group element q of a chunk (coordinates as group_coords
 * gives them). */
static void group_regen(CudaB *C, const Loop *l, const Staged *S, Regen *R) {
    memset(R, 0, sizeof *R);
    R->C = C, R->l = l, R->k = "mm_k";
    R->row = R->col = S->k_fastest ? "mm_r" : "(mm_r + q)";
}

/* The chunk starting at iteration `chunk` (of `len` iterations) into the
 * registers S->regs: the vector load's elements (stage_vector), or
 * without one the operand's values. */
static void stage_load(CudaB *C, const Loop *l, const Staged *S, const char *chunk,
                       const char *len) {
    int groups = S->n * OUTER_BK / 4, T = C->tile->block_threads;
    /* element q of the group: k and the row/column */
    const char *kq = S->k_fastest ? "(mm_kk + q)" : "mm_kk";
    Regen R;
    group_regen(C, l, S, &R);
    int own = own_open(C, S);
    cb_line(C, "#pragma unroll");
    cb_line(C, "for (int mm_s = 0; mm_s < %d; mm_s++) {", groups_per_thread(C, S));
    C->indent++;
    group_coords(C, S);
    if (!S->vec) cb_line(C, "float mm_v[4] = {0.0f, 0.0f, 0.0f, 0.0f};");
    if (groups % T) cb_line(C, "if (mm_g < %d) {", groups), C->indent++;
    if (S->vec) stage_vector(C, &R, S, chunk, len, kq);
    else stage_transform(C, &R, S, chunk, len, kq);
    if (groups % T) C->indent--, cb_line(C, "}");
    if (!S->vec) cb_line(C, "%s[mm_s] = make_float4(mm_v[0], mm_v[1], mm_v[2], mm_v[3]);", S->regs);
    C->indent--;
    cb_line(C, "}");
    own_close(C, own);
}

/* Before the loops, for an operand staged fast: each group's index at the
 * first chunk and its difference to the second, the same to every next
 * one (the index is affine in k); and into mm_ok whether the group of a
 * full chunk is one vector load at every chunk: aligned, its elements
 * consecutive at the first two chunks (so at all), its mask true (free of
 * k, it holds at every chunk). */
static void stage_fast_init(CudaB *C, const Loop *l, const Staged *S) {
    const Inst *ld = S->vec;
    int groups = S->n * OUTER_BK / 4, T = C->tile->block_threads, G = groups_per_thread(C, S);
    int base = outer_pointer_base(C->f, ld->args[0]);
    int bytes = 4 * dtype_bytes((DType)ld->type.dtype);
    const char *kq = S->k_fastest ? "(mm_kk + q)" : "mm_kk";
    int axis = S->along_rows ? 0 : 1;
    Regen R;
    group_regen(C, l, S, &R);
    cb_line(C, "int %s_i[%d], %s_d[%d];", S->regs, G, S->regs, G);
    cb_line(C, "#pragma unroll");
    cb_line(C, "for (int mm_s = 0; mm_s < %d; mm_s++) {", G);
    C->indent++;
    group_coords(C, S);
    cb_line(C, "int mm_i0[4], mm_i1[4];");
    cb_line(C, "bool mm_m[4];");
    cb_line(C, "#pragma unroll");
    cb_line(C, "for (int q = 0; q < 4; q++) {");
    C->indent++;
    for (int chunk = 0; chunk < 2; chunk++) {
        cb_line(C, "{");
        C->indent++;
        cb_line(C, "const int mm_k = (int)(mm_start + (long long)(%d + %s) * mm_step);",
                chunk * OUTER_BK, kq);
        cb_line(C, "mm_i%d[q] = %s;", chunk, regen(&R, ld->args[0], axis));
        if (!chunk)
            cb_line(C, "mm_m[q] = %s;",
                    ld->args[1].kind == OPD_NONE ? "true" : regen(&R, ld->args[1], axis));
        C->indent--;
        cb_line(C, "}");
    }
    C->indent--;
    cb_line(C, "}");
    cb_line(C, "%s_i[mm_s] = mm_i0[0];", S->regs);
    cb_line(C, "%s_d[mm_s] = (int)((unsigned)mm_i1[0] - (unsigned)mm_i0[0]);", S->regs);
    const char *al =
        C->param_div && C->param_div[base] >= bytes
            ? ""
            : arena_printf(C->a, "(((uintptr_t)%s) & %d) == 0 && ", C->pnames[base], bytes - 1);
    cb_line(C,
            "mm_ok = mm_ok && (%s(%smm_m[0] && mm_m[1] && mm_m[2] && mm_m[3] && "
            "(mm_i0[0] & 3) == 0 && (%s_d[mm_s] & 3) == 0 && mm_i0[1] == mm_i0[0] + 1 && "
            "mm_i0[2] == mm_i0[0] + 2 && mm_i0[3] == mm_i0[0] + 3 && mm_i1[1] == mm_i1[0] + 1 && "
            "mm_i1[2] == mm_i1[0] + 2 && mm_i1[3] == mm_i1[0] + 3));",
            groups % T ? arena_printf(C->a, "mm_g >= %d || ", groups) : "", al, S->regs);
    C->indent--;
    cb_line(C, "}");
}

/* An operand staged fast, the full chunk at its groups' indices into the
 * registers, the indices first advanced to the next chunk when `advance`. */
static void stage_fast_load(CudaB *C, const Staged *S, int advance) {
    int groups = S->n * OUTER_BK / 4, T = C->tile->block_threads;
    int wide = dtype_bytes((DType)S->vec->type.dtype) == 4;
    const char *r = S->regs;
    int own = own_open(C, S);
    cb_line(C, "#pragma unroll");
    cb_line(C, "for (int mm_s = 0; mm_s < %d; mm_s++) {", groups_per_thread(C, S));
    C->indent++;
    if (advance)
        cb_line(C, "%s_i[mm_s] = (int)((unsigned)%s_i[mm_s] + (unsigned)%s_d[mm_s]);", r, r, r);
    if (groups % T) cb_line(C, "if (mm_s * %d + (int)%s < %d)", T, C->tid, groups), C->indent++;
    cb_line(C, "%s[mm_s] = *(const %s *)&%s[%s_i[mm_s]];", r, wide ? "float4" : "uint2",
            C->pnames[outer_pointer_base(C->f, S->vec->args[0])], r);
    if (groups % T) C->indent--;
    C->indent--;
    cb_line(C, "}");
    own_close(C, own);
}

/* The operand's loads, the one read in vector groups (its first f32, f16 or bf16
 * load) and the order of its staging. */
static void stage_init(CudaB *C, const Loop *l, Staged *S) {
    S->nloads = layout_outer_loads(C->f, l, S->v, S->loads, 0, 0);
    DType dt = S->nloads > 0 ? (DType)S->loads[0]->type.dtype : DT_F32;
    int bytes = dtype_bytes(dt);
    S->vec = S->nloads > 0 && dtype_is_float(dt) && (bytes == 4 || bytes == 2) ? S->loads[0] : NULL;
    S->k_fastest = S->nloads > 0 && coef_k(C, l, S->loads[0]->args[0], 0) == 1;
    S->fast = S->vec && affine_k(C, l, S->vec->args[0], 0) >= 0 &&
              (S->vec->args[1].kind == OPD_NONE || affine_k(C, l, S->vec->args[1], 0) == 0);
}

/* The prefetch registers' declaration. */
static const char *stage_regs_decl(CudaB *C, const Staged *S) {
    int wide = !S->vec || dtype_bytes((DType)S->vec->type.dtype) == 4;
    return arena_printf(C->a, "%s %s[%d];", wide ? "float4" : "uint2", S->regs,
                        groups_per_thread(C, S));
}

/* The chunk mm_c (of mm_len iterations) from the registers into shared
 * memory; a vector load's elements converted and transformed on the way. */
static void stage_store(CudaB *C, const Loop *l, const Staged *S) {
    int groups = S->n * OUTER_BK / 4, T = C->tile->block_threads;
    int own = own_open(C, S);
    cb_line(C, "#pragma unroll");
    cb_line(C, "for (int mm_s = 0; mm_s < %d; mm_s++) {", groups_per_thread(C, S));
    C->indent++;
    group_coords(C, S);
    if (groups % T) cb_line(C, "if (mm_g < %d) {", groups), C->indent++;
    const char *v = arena_printf(C->a, "%s[mm_s]", S->regs);
    if (S->vec) {
        DType dt = (DType)S->vec->type.dtype;
        if (dtype_bytes(dt) == 4) {
            cb_line(C, "float mm_v[4] = {%s.x, %s.y, %s.z, %s.w};", v, v, v, v);
        } else {
            const char *mt = c_mem_type(dt, C_CUDA);
            cb_line(C, "const %s *const h = reinterpret_cast<const %s *>(&%s);", mt, mt, v);
            cb_line(C, "float mm_v[4];");
            cb_line(C, "#pragma unroll");
            cb_line(C, "for (int q = 0; q < 4; q++) mm_v[q] = %s;",
                    c_load(C->a, dt, C_CUDA, "h[q]"));
        }
        const Inst *def = S->v.kind == OPD_VALUE ? C->f->defs[S->v.id] : NULL;
        if (def != S->vec) {
            Regen R;
            group_regen(C, l, S, &R);
            stage_transform(C, &R, S, "mm_c", "mm_len", S->k_fastest ? "(mm_kk + q)" : "mm_kk");
        }
        v = "make_float4(mm_v[0], mm_v[1], mm_v[2], mm_v[3])";
    }
    if (S->k_fastest) {
        for (int q = 0; q < 4; q++)
            cb_line(C, "%s[mm_kk + %d][mm_r] = %s;", S->dst, q,
                    S->vec ? arena_printf(C->a, "mm_v[%d]", q)
                           : arena_printf(C->a, "%s.%c", v, "xyzw"[q]));
    } else {
        cb_line(C, "*(float4 *)&%s[mm_kk][mm_r] = %s;", S->dst, v);
    }
    if (groups % T) C->indent--, cb_line(C, "}");
    C->indent--;
    cb_line(C, "}");
    own_close(C, own);
}

/* Reads the thread's n elements of row kk of a staged buffer: 128-bit
 * reads when they come in aligned groups of 4. */
static void read_fragment(CudaB *C, const char *dst, const char *buf, int n, int rows) {
    const char *(*coordf)(CudaB *, const char *) = rows ? cb_row : cb_col;
    if (n % 4 == 0) {
        cb_line(C, "#pragma unroll");
        cb_line(C, "for (int q = 0; q < %d; q += 4) {", n);
        C->indent++;
        cb_line(C, "const float4 t = *(const float4 *)&%s[mm_kk][%s];", buf, coordf(C, "q"));
        cb_line(C, "%s[q] = t.x, %s[q + 1] = t.y, %s[q + 2] = t.z, %s[q + 3] = t.w;", dst, dst, dst,
                dst);
        C->indent--;
        cb_line(C, "}");
        return;
    }
    cb_line(C, "#pragma unroll");
    cb_line(C, "for (int q = 0; q < %d; q++) %s[q] = %s[mm_kk][%s];", n, dst, buf, coordf(C, "q"));
}

static void compute(CudaB *C, const Staged *A, const Staged *B, int acc, const char *bound) {
    const TileInfo *t = C->tile;
    cb_line(C, "for (int mm_kk = 0; mm_kk < %s; mm_kk++) {", bound);
    C->indent++;
    cb_line(C, "float mm_a[%d], mm_b[%d];", t->tm, t->tn);
    read_fragment(C, "mm_a", A->dst, t->tm, 1);
    read_fragment(C, "mm_b", B->dst, t->tn, 0);
    int n = cb_open(C, LAYOUT_TILE);
    const char *dst =
        arena_printf(C->a, "v%d%s%s", acc, t->tm > 1 ? "[i]" : "", t->tn > 1 ? "[j]" : "");
    cb_line(C, "%s = fmaf(mm_a[%s], mm_b[%s], %s);", dst, t->tm > 1 ? "i" : "0",
            t->tn > 1 ? "j" : "0", dst);
    cb_close(C, n);
    C->indent--;
    cb_line(C, "}");
}

/* The full chunks' loop of cuda_outer_emit (loop versioning): where every
 * thread's groups of the operands staged fast are vector loads at every
 * chunk (a block-uniform flag), the full chunks run a loop whose prefetch
 * reads them at indices advanced by a constant difference (no index, mask
 * or alignment recomputed); the last, partial chunk, and every chunk
 * elsewhere, the general loop after it. */
static void emit_full_chunks(CudaB *C, const Loop *l, const Staged *A, const Staged *B, int acc) {
    cb_line(C, "bool mm_ok = true;");
    if (A->fast) stage_fast_init(C, l, A);
    if (B->fast) stage_fast_init(C, l, B);
    cb_line(C, "long long mm_c0 = 0;");
    cb_line(C, "if (__syncthreads_and(mm_ok) && mm_n >= %d) {", OUTER_BK);
    C->indent++;
    cb_line(C, "const long long mm_nf = mm_n - mm_n %% %d;", OUTER_BK);
    const Staged *ops[2] = {A, B};
    cb_line(C, "{");
    C->indent++;
    cb_line(C, "const long long mm_c = 0;");
    cb_line(C, "const int mm_len = %d;", OUTER_BK);
    for (int o = 0; o < 2; o++) {
        if (ops[o]->fast) stage_fast_load(C, ops[o], 0);
        else stage_load(C, l, ops[o], "mm_c", "mm_len");
    }
    C->indent--;
    cb_line(C, "}");
    cb_line(C, "for (long long mm_c = 0; mm_c < mm_nf; mm_c += %d) {", OUTER_BK);
    C->indent++;
    cb_line(C, "const int mm_len = %d;", OUTER_BK);
    stage_store(C, l, A);
    stage_store(C, l, B);
    cb_line(C, "__syncthreads();");
    cb_line(C, "if (mm_c + %d < mm_nf) {", OUTER_BK);
    C->indent++;
    cb_line(C, "const long long mm_next = mm_c + %d;", OUTER_BK);
    cb_line(C, "const int mm_next_len = %d;", OUTER_BK);
    for (int o = 0; o < 2; o++) {
        if (ops[o]->fast) stage_fast_load(C, ops[o], 1);
        else stage_load(C, l, ops[o], "mm_next", "mm_next_len");
    }
    C->indent--;
    cb_line(C, "}");
    cb_line(C, "#pragma unroll");
    compute(C, A, B, acc, arena_printf(C->a, "%d", OUTER_BK));
    cb_line(C, "__syncthreads();");
    C->indent--;
    cb_line(C, "}");
    cb_line(C, "mm_c0 = mm_nf;");
    C->indent--;
    cb_line(C, "}");
}

int cuda_outer_emit(CudaB *C, const Inst *in) {
    OuterLoop m;
    if (!layout_outer_match(C->f, C->tile, in, &m)) return 0;
    const Loop *l = in->loop;
    const TileInfo *t = C->tile;
    int acc = l->results[0];
    C->alias[l->args[0]] = acc;
    /* the accumulator, from the carried input */
    cb_line(C,
            "// %%%d: runtime loop of outer products, staged through shared memory in chunks of %d",
            acc, OUTER_BK);
    cb_line(C, "float v%d%s%s;", acc, t->tm > 1 ? arena_printf(C->a, "[%d]", t->tm) : "",
            t->tn > 1 ? arena_printf(C->a, "[%d]", t->tn) : "");
    int n = cb_open(C, LAYOUT_TILE);
    cb_line(C, "v%d%s%s = %s;", acc, t->tm > 1 ? "[i]" : "", t->tn > 1 ? "[j]" : "",
            cb_elem(C, l->inits[0], LAYOUT_TILE, "i", "j"));
    cb_close(C, n);
    int grouped = C->progs > 1;
    if (!strstr(sb_str(&C->smem), "mm_As")) {
        /* a block of several programs: a chunk per program row (column) */
        const char *gm = grouped ? arena_printf(C->a, "[%d]", t->group_m) : "";
        const char *gn = grouped ? arena_printf(C->a, "[%d]", t->group_n) : "";
        sb_printf(&C->smem, "    __shared__ __align__(16) float mm_As%s[%d][%d];\n", gm, OUTER_BK,
                  t->rows + 4);
        sb_printf(&C->smem, "    __shared__ __align__(16) float mm_Bs%s[%d][%d];\n", gn, OUTER_BK,
                  t->cols + 4);
    }
    Staged A, B;
    memset(&A, 0, sizeof A);
    memset(&B, 0, sizeof B);
    A.v = m.x, A.n = t->rows, A.along_rows = 1, A.regs = "mm_pa";
    B.v = m.y, B.n = t->cols, B.along_rows = 0, B.regs = "mm_pb";
    A.dst = grouped ? "mm_As[mt_pm]" : "mm_As";
    B.dst = grouped ? "mm_Bs[mt_pn]" : "mm_Bs";
    stage_init(C, l, &A);
    stage_init(C, l, &B);
    /* The versioned loop (below) only where the general prefetch would cost
     * at least a third as many instructions as the FMAs it feeds: about
     * MM_GROUP_COST per group and chunk against tm * tn * OUTER_BK. Its second
     * copy of the chunk loop costs registers (ptxas -v, sm_90, the suite's
     * matmul: 16 x 16 72 against 71, 32 x 32 145 against 141, 64 x 64 109
     * against 90, one block less per SM there) for fewer instructions per
     * chunk (SASS of the full chunk: 16 x 16 201 against 323, 32 x 32 622
     * against 821, 64 x 64 601 against 720, 128 x 128 1126 against 1239). */
    int fast = (A.fast || B.fast) &&
               3 * MM_GROUP_COST * (groups_per_thread(C, &A) + groups_per_thread(C, &B)) >=
                   t->tm * t->tn * OUTER_BK;
    cb_line(C, "{");
    C->indent++;
    cb_line(C, "const int mm_start = %s, mm_stop = %s, mm_step = %s;",
            cb_elem(C, l->start, LAYOUT_UNIFORM, "0", "0"),
            cb_elem(C, l->stop, LAYOUT_UNIFORM, "0", "0"),
            cb_elem(C, l->step, LAYOUT_UNIFORM, "0", "0"));
    cb_line(
        C,
        "const long long mm_n = mm_stop > mm_start ? ((long long)mm_stop - mm_start + mm_step - 1) "
        "/ mm_step : 0;");
    cb_line(C, "%s", stage_regs_decl(C, &A));
    cb_line(C, "%s", stage_regs_decl(C, &B));
    if (grouped)
        /* program (pm, pn) stages row pm's X when pn == pm % group_n, and
         * column pn's Y when pm == (pn + 1) % group_m */
        cb_line(
            C, "const bool mm_own_a = mt_pn == mt_pm %% %d, mm_own_b = mt_pm == (mt_pn + 1) %% %d;",
            t->group_n, t->group_m);
    if (fast) emit_full_chunks(C, l, &A, &B, acc);
    cb_line(C, "/* the first chunk into registers */");
    cb_line(C, "if (%s) {", fast ? "mm_c0 < mm_n" : "mm_n > 0");
    C->indent++;
    if (fast) {
        cb_line(C, "const long long mm_c = mm_c0;");
        cb_line(C, "const int mm_len = mm_n - mm_c < %d ? (int)(mm_n - mm_c) : %d;", OUTER_BK,
                OUTER_BK);
    } else {
        cb_line(C, "const long long mm_c = 0;");
        cb_line(C, "const int mm_len = mm_n < %d ? (int)mm_n : %d;", OUTER_BK, OUTER_BK);
    }
    stage_load(C, l, &A, "mm_c", "mm_len");
    stage_load(C, l, &B, "mm_c", "mm_len");
    C->indent--;
    cb_line(C, "}");
    cb_line(C, "for (long long mm_c = %s; mm_c < mm_n; mm_c += %d) {", fast ? "mm_c0" : "0",
            OUTER_BK);
    C->indent++;
    cb_line(C, "const int mm_len = mm_n - mm_c < %d ? (int)(mm_n - mm_c) : %d;", OUTER_BK,
            OUTER_BK);
    stage_store(C, l, &A);
    stage_store(C, l, &B);
    cb_line(C, "__syncthreads();");
    cb_line(C, "/* the next chunk's loads are in flight while this one is used */");
    cb_line(C, "if (mm_c + %d < mm_n) {", OUTER_BK);
    C->indent++;
    cb_line(C, "const long long mm_next = mm_c + %d;", OUTER_BK);
    cb_line(C, "const int mm_next_len = mm_n - mm_next < %d ? (int)(mm_n - mm_next) : %d;",
            OUTER_BK, OUTER_BK);
    stage_load(C, l, &A, "mm_next", "mm_next_len");
    stage_load(C, l, &B, "mm_next", "mm_next_len");
    C->indent--;
    cb_line(C, "}");
    cb_line(C, "if (mm_len == %d) {", OUTER_BK);
    C->indent++;
    cb_line(C, "#pragma unroll");
    compute(C, &A, &B, acc, arena_printf(C->a, "%d", OUTER_BK));
    C->indent--;
    cb_line(C, "} else {");
    C->indent++;
    compute(C, &A, &B, acc, "mm_len");
    C->indent--;
    cb_line(C, "}");
    cb_line(C, "__syncthreads();");
    C->indent--;
    cb_line(C, "}");
    C->indent--;
    cb_line(C, "}");
    return 1;
}
