/* The matmul idiom of the -O2 CUDA backend.
 *
 * The seed's runtime-K matmul accumulates, in a runtime loop, the outer
 * product of a row block and a column block loaded from memory:
 *
 *   %25 = for %11 in range(0, K, 1) iter_args(%12 = %10) : block<BMxBN x f32> {
 *     %17 = load <row pointers at k>, <mask>, <other> : block<BMx1 x f32>
 *     %22 = load <column pointers at k>, <mask>, <other> : block<1xBN x f32>
 *     %23 = mul %17, %22 ; %24 = add %12, %23 ; yield %24 }
 *
 * One thread per output element re-reads both operands from global memory
 * for every k. Here the loop runs in chunks of MM_BK iterations: the block
 * stages the chunk's row and column blocks in shared memory (coalesced
 * loads, the mask and `other` applied at staging), then each thread
 * accumulates its tm x tn register micro-tile from shared memory. The
 * values are those of the loop, k in the same order; only the rounding of
 * a * b + acc may differ (fused multiply-add, as nvcc contracts the plain
 * loop too).
 *
 * Matching requires that nothing else happens in the body: its other ops
 * are pure and only compute the loads' addresses and masks, which are
 * regenerated here for any row, column and k from their definitions
 * (aranges, program ids, parameters, arithmetic, comparisons). */
#include <string.h>

#include "cgen.h"
#include "cuda_blocked.h"

enum { MM_BK = 16, MM_MAX_DEPTH = 64 };

typedef struct Match {
    const Loop *l;
    const Inst *load_row, *load_col; /* (BM, 1) and (1, BN) operands */
} Match;

static const Inst *def_in(const Function *f, Operand o) {
    return o.kind == OPD_VALUE ? f->defs[o.id] : NULL;
}

static int in_block(const Block *b, const Inst *x) {
    for (int i = 0; i < b->items.len; i++)
        if (b->items.items[i] == x) return 1;
    return 0;
}

/* Whether operand `o` can be regenerated for any row / column / k:
 * a pure chain over aranges, program ids, parameters and constants. The
 * op table decides which ops may take part: every elementwise op (a type
 * rule other than TR_SPECIAL), which cb_op_expr renders for any operands,
 * and the special ops that regen() renders itself; any other op declines
 * the pattern. */
static int regen_special(Op op) {
    return op == OP_ARANGE || op == OP_PROGRAM_ID || op == OP_NUM_PROGRAMS || op == OP_ZEROS ||
           op == OP_EMPTY || op == OP_FULL || op == OP_EXPAND_DIMS || op == OP_ADDPTR ||
           op == OP_CAST || op == OP_BITCAST || op == OP_HINT;
}

static int regenerable(const Function *f, const Loop *l, Operand o, int depth) {
    if (depth > MM_MAX_DEPTH) return 0;
    if (o.kind != OPD_VALUE) return 1;
    if (o.id == l->index) return 1;
    const Inst *d = f->defs[o.id];
    if (!d) return 0;
    if (f->types[o.id].rank == 0 && !in_block(&l->body, d) && d->op != OP_FOR)
        return 1; /* a uniform scalar in scope */
    if (f->types[o.id].rank == 0 && d->op == OP_FOR)
        return !in_block(&l->body, d) && o.id != l->args[0];
    if (!regen_special(d->op) && op_info(d->op)->rule == TR_SPECIAL) return 0;
    if (!op_has(d->op, OPF_PURE)) return 0;
    for (int k = 0; k < d->nargs; k++)
        if (!regenerable(f, l, d->args[k], depth + 1)) return 0;
    return 1;
}

static int pointer_base(const Function *f, Operand o) {
    for (int guard = 0; guard < 1000; guard++) {
        if (o.kind == OPD_PARAM) return o.id;
        const Inst *d = def_in(f, o);
        if (!d || d->op != OP_ADDPTR) return -1;
        o = d->args[0];
    }
    return -1;
}

static int use_count(const Block *b, int v) {
    int n = 0;
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        for (int k = 0; k < in->nargs; k++)
            n += in->args[k].kind == OPD_VALUE && in->args[k].id == v;
    }
    return n;
}

static int match_loop(const Function *f, const TileInfo *t, const Inst *in, Match *m) {
    if (in->op != OP_FOR || t->rank != 2 || t->rows < 4 || t->cols < 4 || t->rows % 4 ||
        t->cols % 4)
        return 0;
    const Loop *l = in->loop;
    if (l->ncarried != 1 || l->nyields != 1 || l->nresults != 1) return 0;
    Type acc = f->types[l->args[0]];
    if (acc.ptr || acc.dtype != DT_F32 || acc.rank != 2 || acc.dims[0] != t->rows ||
        acc.dims[1] != t->cols)
        return 0;
    if (l->step.kind != OPD_CONST || l->step.c.i <= 0) return 0;
    const Inst *add = def_in(f, l->yields[0]);
    if (!add || add->op != OP_ADD || !in_block(&l->body, add)) return 0;
    int acc_side = add->args[0].kind == OPD_VALUE && add->args[0].id == l->args[0]   ? 0
                   : add->args[1].kind == OPD_VALUE && add->args[1].id == l->args[0] ? 1
                                                                                     : -1;
    if (acc_side < 0) return 0;
    const Inst *mul = def_in(f, add->args[1 - acc_side]);
    if (!mul || mul->op != OP_MUL || !in_block(&l->body, mul)) return 0;
    const Inst *x = def_in(f, mul->args[0]), *y = def_in(f, mul->args[1]);
    if (!x || !y || x->op != OP_LOAD || y->op != OP_LOAD || !in_block(&l->body, x) ||
        !in_block(&l->body, y))
        return 0;
    Type tx = x->type, ty = y->type;
    if (tx.dtype != DT_F32 || ty.dtype != DT_F32 || tx.rank != 2 || ty.rank != 2) return 0;
    if (tx.dims[1] == 1 && ty.dims[0] == 1 && tx.dims[0] == t->rows && ty.dims[1] == t->cols) {
        m->load_row = x;
        m->load_col = y;
    } else if (ty.dims[1] == 1 && tx.dims[0] == 1 && ty.dims[0] == t->rows &&
               tx.dims[1] == t->cols) {
        m->load_row = y;
        m->load_col = x;
    } else {
        return 0;
    }
    /* the body: nothing but pure ops, the two loads, the product and the sum */
    for (int i = 0; i < l->body.items.len; i++) {
        const Inst *b = l->body.items.items[i];
        if (b == add || b == mul || b == x || b == y) continue;
        if (b->op == OP_FOR || !op_has(b->op, OPF_PURE) || op_has(b->op, OPF_REDUCE)) return 0;
    }
    if (use_count(&l->body, l->args[0]) != 1 || use_count(&l->body, mul->result) != 1) return 0;
    const Inst *loads[2] = {m->load_row, m->load_col};
    for (int k = 0; k < 2; k++) {
        const Inst *ld = loads[k];
        if (pointer_base(f, ld->args[0]) < 0) return 0;
        for (int a = 0; a < 3; a++)
            if (!regenerable(f, l, ld->args[a], 0)) return 0;
    }
    m->l = l;
    return 1;
}

int cuda_matmul_find_loop(const Function *f, const TileInfo *t, const Inst *loop) {
    Match m;
    return match_loop(f, t, loop, &m);
}

const Inst *cuda_matmul_find(const Function *f, const TileInfo *t) {
    Match m;
    for (int i = 0; i < f->body.items.len; i++) {
        const Inst *in = f->body.items.items[i];
        if (match_loop(f, t, in, &m)) return in;
    }
    return NULL;
}

/* ---- Regeneration of addresses and masks ---------------------------------- */

typedef struct Regen {
    CudaB *C;
    const Loop *l;
    const char *row, *col, *k; /* coordinate expressions */
} Regen;

/* axis: 0 when the operand varies along rows, 1 along columns, -1 not at
 * all (a uniform scalar). */
static const char *regen(Regen *R, Operand o, int axis) {
    CudaB *C = R->C;
    const Function *f = C->f;
    if (o.kind == OPD_CONST) return c_const(C->a, o.c, C_CUDA);
    if (o.kind == OPD_PARAM) return C->pnames[o.id];
    if (o.kind == OPD_NONE) return "0";
    if (o.id == R->l->index) return R->k;
    const Inst *d = f->defs[o.id];
    Type t = f->types[o.id];
    if (t.rank == 0 && !in_block(&R->l->body, d)) return cb_elem(C, o, LAYOUT_UNIFORM, "0", "0");
    if (t.rank == 2) axis = t.dims[0] > 1 ? 0 : t.dims[1] > 1 ? 1 : -1;
    if (d->op == OP_ARANGE) {
        const char *c = axis == 0 ? R->row : R->col;
        return d->attrs.start ? arena_printf(C->a, "(%s + %d)", c, d->attrs.start) : c;
    }
    if (d->op == OP_PROGRAM_ID) return arena_printf(C->a, "(int)blockIdx.%c", "xyz"[d->attrs.axis]);
    if (d->op == OP_NUM_PROGRAMS)
        return arena_printf(C->a, "(int)gridDim.%c", "xyz"[d->attrs.axis]);
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
    /* an elementwise op (regenerable() admitted no other) */
    const char *x[3] = {NULL, NULL, NULL};
    for (int k = 0; k < d->nargs && k < 3; k++)
        x[k] =
            d->args[k].kind == OPD_CONST ? cb_const_operand(C, d, k) : regen(R, d->args[k], axis);
    return cb_op_expr(C, d, x[0], x[1], x[2]);
}

/* Whether the address of `o` advances by exactly one element per step of
 * k (then the k-chunk of a row is contiguous and loads go k-fastest). */
static int coef_k(const CudaB *C, const Loop *l, Operand o, int depth) {
    if (depth > MM_MAX_DEPTH || o.kind != OPD_VALUE) return 0;
    if (o.id == l->index) return 1;
    const Inst *d = C->f->defs[o.id];
    if (!d || !in_block(&l->body, d)) return 0;
    if (d->op == OP_ADDPTR || d->op == OP_ADD) {
        int a = coef_k(C, l, d->args[0], depth + 1), b = coef_k(C, l, d->args[1], depth + 1);
        return (a < 0 || b < 0 || a + b > 1) ? -1 : a + b;
    }
    if (d->op == OP_EXPAND_DIMS) return coef_k(C, l, d->args[0], depth + 1);
    for (int k = 0; k < d->nargs; k++)
        if (coef_k(C, l, d->args[k], depth + 1) != 0) return -1;
    return 0;
}

/* Staging of one operand: element e of the chunk (MM_BK x n) maps to
 * (kk, r), k-fastest when the address advances by one element per k (so
 * that neighbouring threads read neighbouring words), r-fastest otherwise.
 * `load` reads the chunk starting at iteration `chunk` (of `len`
 * iterations) into the registers `regs`; the store moves them to `dst`. */
typedef struct Staged {
    const Inst *ld;
    int n; /* rows (or columns) of the tile */
    int along_rows;
    const char *dst;  /* shared buffer */
    const char *regs; /* prefetch registers */
    int k_fastest;
} Staged;

/* The chunk is staged in groups of 4 elements along its contiguous axis
 * (k when k-fastest, else the tile's rows or columns): a group is one
 * 128-bit load when its addresses are consecutive and aligned and its mask
 * holds (checked at run time), else 4 single loads. */
static int groups_per_thread(const CudaB *C, const Staged *S) {
    int groups = S->n * MM_BK / 4, T = C->tile->block_threads;
    return (groups + T - 1) / T;
}

static void group_coords(CudaB *C, const Staged *S) {
    cb_line(C, "const int mm_g = mm_s * %d + (int)threadIdx.x;", C->tile->block_threads);
    if (S->k_fastest)
        cb_line(C, "const int mm_kk = (mm_g %% %d) * 4, mm_r = mm_g / %d;", MM_BK / 4, MM_BK / 4);
    else cb_line(C, "const int mm_kk = mm_g / %d, mm_r = (mm_g %% %d) * 4;", S->n / 4, S->n / 4);
}

static void stage_load(CudaB *C, const Loop *l, const Staged *S, const char *chunk,
                       const char *len) {
    int groups = S->n * MM_BK / 4, T = C->tile->block_threads;
    const Inst *ld = S->ld;
    int base = pointer_base(C->f, ld->args[0]);
    const char *bname = C->pnames[base];
    int axis = S->along_rows ? 0 : 1;
    /* element q of the group: k and the row/column */
    const char *kq = S->k_fastest ? "(mm_kk + q)" : "mm_kk";
    const char *rq = S->k_fastest ? "mm_r" : "(mm_r + q)";
    Regen R = {C, l, rq, rq, "mm_k"};
    const char *idx = regen(&R, ld->args[0], axis);
    const char *mask = ld->args[1].kind == OPD_NONE ? NULL : regen(&R, ld->args[1], axis);
    const char *other = ld->args[2].kind == OPD_NONE ? "0.0f" : regen(&R, ld->args[2], axis);
    cb_line(C, "#pragma unroll");
    cb_line(C, "for (int mm_s = 0; mm_s < %d; mm_s++) {", groups_per_thread(C, S));
    C->indent++;
    group_coords(C, S);
    cb_line(C, "float mm_v[4] = {0.0f, 0.0f, 0.0f, 0.0f};");
    if (groups % T) cb_line(C, "if (mm_g < %d) {", groups), C->indent++;
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
    const char *al = C->param_div && C->param_div[base] >= 16
                         ? NULL
                         : arena_printf(C->a, "(((uintptr_t)%s) & 15) == 0", bname);
    cb_line(
        C,
        "if (%s%smm_m[0] && mm_m[1] && mm_m[2] && mm_m[3] && (mm_i[0] & 3) == 0 && mm_i[1] == mm_i[0] + 1 && "
        "mm_i[2] == mm_i[0] + 2 && mm_i[3] == mm_i[0] + 3) {",
        al ? al : "", al ? " && " : "");
    C->indent++;
    cb_line(C, "const float4 t = *(const float4 *)&%s[mm_i[0]];", bname);
    cb_line(C, "mm_v[0] = t.x, mm_v[1] = t.y, mm_v[2] = t.z, mm_v[3] = t.w;");
    C->indent--;
    cb_line(C, "} else {");
    C->indent++;
    cb_line(C, "#pragma unroll");
    cb_line(C, "for (int q = 0; q < 4; q++) {");
    C->indent++;
    if (mask)
        cb_line(C, "if (mm_m[q]) mm_v[q] = %s[mm_i[q]];\n%*selse if (%s < %s) mm_v[q] = %s;", bname,
                C->indent * 4, "", kq, len, other);
    else cb_line(C, "if (%s < %s) mm_v[q] = %s[mm_i[q]];", kq, len, bname);
    C->indent--;
    cb_line(C, "}");
    C->indent--;
    cb_line(C, "}");
    if (groups % T) C->indent--, cb_line(C, "}");
    cb_line(C, "%s[mm_s] = make_float4(mm_v[0], mm_v[1], mm_v[2], mm_v[3]);", S->regs);
    C->indent--;
    cb_line(C, "}");
}

static void stage_store(CudaB *C, const Staged *S) {
    int groups = S->n * MM_BK / 4, T = C->tile->block_threads;
    cb_line(C, "#pragma unroll");
    cb_line(C, "for (int mm_s = 0; mm_s < %d; mm_s++) {", groups_per_thread(C, S));
    C->indent++;
    group_coords(C, S);
    if (groups % T) cb_line(C, "if (mm_g < %d) {", groups), C->indent++;
    const char *v = arena_printf(C->a, "%s[mm_s]", S->regs);
    if (S->k_fastest) {
        for (int q = 0; q < 4; q++)
            cb_line(C, "%s[mm_kk + %d][mm_r] = %s.%c;", S->dst, q, v, "xyzw"[q]);
    } else {
        cb_line(C, "*(float4 *)&%s[mm_kk][mm_r] = %s;", S->dst, v);
    }
    if (groups % T) C->indent--, cb_line(C, "}");
    C->indent--;
    cb_line(C, "}");
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

static void compute(CudaB *C, int acc, const char *bound) {
    const TileInfo *t = C->tile;
    cb_line(C, "for (int mm_kk = 0; mm_kk < %s; mm_kk++) {", bound);
    C->indent++;
    cb_line(C, "float mm_a[%d], mm_b[%d];", t->tm, t->tn);
    read_fragment(C, "mm_a", "mm_As", t->tm, 1);
    read_fragment(C, "mm_b", "mm_Bs", t->tn, 0);
    int n = cb_open(C, LAYOUT_TILE);
    const char *dst =
        arena_printf(C->a, "v%d%s%s", acc, t->tm > 1 ? "[i]" : "", t->tn > 1 ? "[j]" : "");
    cb_line(C, "%s = fmaf(mm_a[%s], mm_b[%s], %s);", dst, t->tm > 1 ? "i" : "0",
            t->tn > 1 ? "j" : "0", dst);
    cb_close(C, n);
    C->indent--;
    cb_line(C, "}");
}

int cuda_matmul_emit(CudaB *C, const Inst *in) {
    Match m;
    if (!match_loop(C->f, C->tile, in, &m)) return 0;
    const Loop *l = m.l;
    const TileInfo *t = C->tile;
    int acc = l->results[0];
    C->alias[l->args[0]] = acc;
    /* the accumulator, from the carried input */
    cb_line(C,
            "// %%%d: runtime loop of outer products, staged through shared memory in chunks of %d",
            acc, MM_BK);
    cb_line(C, "float v%d%s%s;", acc, t->tm > 1 ? arena_printf(C->a, "[%d]", t->tm) : "",
            t->tn > 1 ? arena_printf(C->a, "[%d]", t->tn) : "");
    int n = cb_open(C, LAYOUT_TILE);
    cb_line(C, "v%d%s%s = %s;", acc, t->tm > 1 ? "[i]" : "", t->tn > 1 ? "[j]" : "",
            cb_elem(C, l->inits[0], LAYOUT_TILE, "i", "j"));
    cb_close(C, n);
    if (!strstr(sb_str(&C->smem), "mm_As")) {
        sb_printf(&C->smem, "    __shared__ __align__(16) float mm_As[%d][%d];\n", MM_BK,
                  t->rows + 4);
        sb_printf(&C->smem, "    __shared__ __align__(16) float mm_Bs[%d][%d];\n", MM_BK,
                  t->cols + 4);
    }
    Staged A = {m.load_row, t->rows, 1,
                "mm_As",    "mm_pa", coef_k(C, l, m.load_row->args[0], 0) == 1};
    Staged B = {m.load_col, t->cols, 0,
                "mm_Bs",    "mm_pb", coef_k(C, l, m.load_col->args[0], 0) == 1};
    cb_line(C, "{");
    C->indent++;
    cb_line(C, "const int mm_start = %s, mm_stop = %s, mm_step = %s;",
            cb_elem(C, l->start, LAYOUT_UNIFORM, "0", "0"),
            cb_elem(C, l->stop, LAYOUT_UNIFORM, "0", "0"),
            cb_elem(C, l->step, LAYOUT_UNIFORM, "0", "0"));
    cb_line(
        C,
        "const long long mm_n = mm_stop > mm_start ? ((long long)mm_stop - mm_start + mm_step - 1) / mm_step : 0;");
    cb_line(C, "float4 mm_pa[%d], mm_pb[%d];", groups_per_thread(C, &A), groups_per_thread(C, &B));
    cb_line(C, "/* the first chunk into registers */");
    cb_line(C, "if (mm_n > 0) {");
    C->indent++;
    cb_line(C, "const long long mm_c = 0;");
    cb_line(C, "const int mm_len = mm_n < %d ? (int)mm_n : %d;", MM_BK, MM_BK);
    stage_load(C, l, &A, "mm_c", "mm_len");
    stage_load(C, l, &B, "mm_c", "mm_len");
    C->indent--;
    cb_line(C, "}");
    cb_line(C, "for (long long mm_c = 0; mm_c < mm_n; mm_c += %d) {", MM_BK);
    C->indent++;
    cb_line(C, "const int mm_len = mm_n - mm_c < %d ? (int)(mm_n - mm_c) : %d;", MM_BK, MM_BK);
    stage_store(C, &A);
    stage_store(C, &B);
    cb_line(C, "__syncthreads();");
    cb_line(C, "/* the next chunk's loads are in flight while this one is used */");
    cb_line(C, "if (mm_c + %d < mm_n) {", MM_BK);
    C->indent++;
    cb_line(C, "const long long mm_next = mm_c + %d;", MM_BK);
    cb_line(C, "const int mm_next_len = mm_n - mm_next < %d ? (int)(mm_n - mm_next) : %d;", MM_BK,
            MM_BK);
    stage_load(C, l, &A, "mm_next", "mm_next_len");
    stage_load(C, l, &B, "mm_next", "mm_next_len");
    C->indent--;
    cb_line(C, "}");
    cb_line(C, "if (mm_len == %d) {", MM_BK);
    C->indent++;
    cb_line(C, "#pragma unroll");
    compute(C, acc, arena_printf(C->a, "%d", MM_BK));
    C->indent--;
    cb_line(C, "} else {");
    C->indent++;
    compute(C, acc, "mm_len");
    C->indent--;
    cb_line(C, "}");
    cb_line(C, "__syncthreads();");
    C->indent--;
    cb_line(C, "}");
    C->indent--;
    cb_line(C, "}");
    return 1;
}
