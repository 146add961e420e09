/* The layout stage of the tensor-core paths (DESIGN 8b; layout.h LayoutTc).
 *
 * The matmul path (emit_cuda_mma.c, emit_cuda_wgmma.c) and the attention
 * path (emit_cuda_attn.c) choose their own layouts: a warp grid over the
 * accumulator in the instruction's fragments, rings of shared-memory
 * buffers for the operands, the copy of each operand block into them. Their
 * planners describe that choice as a LayoutTc; this file marks the
 * conversions it implies, checks it and prints it in Triton's terms:
 *
 *   #mma, #mma_sm90a  the accumulator's fragments (nvidia_mma, versionMajor
 *                     2 for mma.sync, 3 for wgmma), warpsPerCTA over its
 *                     rows and columns, the instruction's shape per warp;
 *   #mma_rows         a row vector of the accumulator (slice along dim 1);
 *   #mma_cols         a column vector (slice along dim 0);
 *   #smem_<x>         an operand's ring: padded rows (mma.sync) or
 *                     swizzled ones (wgmma), and its number of buffers;
 *   #at_use           an index, address or mask block: never held, computed
 *                     where it is read at the reader's coordinates;
 *   #uniform          a scalar.
 *
 * Elements move between threads at an operand's copy into its ring, at a
 * dot (operands from the rings in the instruction's operand layouts, or
 * from the accumulator's registers) and at a reduction along the
 * accumulator's rows; every other op reads its operands in its result's
 * encoding, a slice of it, an #at_use block or a scalar. */
#include <string.h>

#include "layout/layout.h"

static const char *const tc_names[TC_ENC_COUNT] = {
    [TC_AT_USE] = "#at_use", [TC_UNIFORM] = "#uniform",   [TC_STAGED] = "#smem",
    [TC_ACC] = "#mma",       [TC_ACC_ROWS] = "#mma_rows", [TC_ACC_COLS] = "#mma_cols",
};

static TcEnc enc(const LayoutTc *tc, Operand o) {
    return o.kind == OPD_VALUE ? (TcEnc)tc->enc[o.id] : TC_UNIFORM;
}

/* The ring holding value v (NULL: none). */
static const LayoutRing *ring_of(const LayoutTc *tc, int body, int v) {
    for (int i = 0; i < tc->body[body].nrings; i++)
        if (tc->body[body].ring[i].value == v) return &tc->body[body].ring[i];
    return NULL;
}

static const char *enc_text(Arena *a, const Function *f, const LayoutTc *tc, int v) {
    TcEnc e = (TcEnc)tc->enc[v];
    if (e != TC_STAGED) return tc_names[e];
    const LayoutRing *r = ring_of(tc, 0, v);
    if (r) return arena_printf(a, "#smem_%s", r->name);
    /* a transposed view of a ring (attention's trans(k)) */
    const Inst *d = f->defs[v];
    if (d && d->op == OP_TRANS && d->args[0].kind == OPD_VALUE &&
        (r = ring_of(tc, 0, d->args[0].id)))
        return arena_printf(a, "#smem_%s, transposed", r->name);
    return tc_names[e];
}

static Conv conv_of(void *user, const Inst *in) {
    const LayoutTc *tc = user;
    if (in->result < 0) return CONV_NONE;
    TcEnc e = (TcEnc)tc->enc[in->result];
    if (in->op == OP_LOAD && e == TC_STAGED) return CONV_COPY;
    if (in->op == OP_DOT) return CONV_MMA;
    if (op_has(in->op, OPF_REDUCE) && e == TC_ACC_ROWS && enc(tc, in->args[0]) == TC_ACC)
        return CONV_ROWRED;
    return CONV_NONE;
}

unsigned char *layout_tc_encodings(Arena *a, const Function *f) {
    unsigned char *e = ARENA_ARRAY(a, unsigned char, f->nvalues + 1);
    for (int v = 0; v < f->nvalues; v++) e[v] = f->types[v].rank ? TC_AT_USE : TC_UNIFORM;
    return e;
}

LayoutPlan *layout_plan_tc(Arena *a, const Function *f, const TileInfo *t, const LayoutTc *tc,
                           const char *path) {
    LayoutPlan *p = ARENA_NEW(a, LayoutPlan);
    p->tile = t;
    p->tc = tc;
    p->path = path;
    layout_mark(a, f, p, conv_of, (void *)tc);
    return p;
}

/* ---- The verifier ---------------------------------------------------------- */

typedef struct Check {
    MtContext *ctx;
    const Function *f;
    const LayoutPlan *p;
    const LayoutTc *tc;
} Check;

static int fail(Check *K, const Inst *in, const char *msg) {
    mt_error(K->ctx, in ? in->pos : srcpos(0, 0), "internal error: layout: %s", msg);
    return 0;
}

/* The encodings an op whose result is in `res` (and makes no conversion)
 * may read its operands in: the same, a slice of it, #at_use, #uniform. */
static int readable(TcEnc res, TcEnc held) {
    if (held == TC_UNIFORM || held == res) return 1;
    switch (res) {
    case TC_ACC: return held == TC_ACC_ROWS || held == TC_ACC_COLS || held == TC_AT_USE;
    case TC_ACC_ROWS:
    case TC_ACC_COLS:
    case TC_STAGED: return held == TC_AT_USE;
    default: return 0;
    }
}

static int bad_read(Check *K, const Inst *in, Operand o, TcEnc res) {
    if (readable(res, enc(K->tc, o))) return 1;
    return fail(K, in,
                arena_printf(K->ctx->arena,
                             "%%%d is %s, but %s reads it as %s without a "
                             "conversion",
                             o.id, enc_text(K->ctx->arena, K->f, K->tc, o.id),
                             op_info(in->op)->name, tc_names[res]));
}

/* A value's encoding fits its type: a scalar is #uniform; #mma is an
 * accumulator's shape (or a column of it broadcast); #mma_rows has BM
 * rows and one column; #mma_cols one row of an accumulator's columns; a
 * (1, 1) block is either slice. */
static int fits(Check *K, int v) {
    const LayoutTc *tc = K->tc;
    Type t = K->f->types[v];
    TcEnc e = (TcEnc)tc->enc[v];
    int r = t.rank, d0 = r ? t.dims[0] : 1, d1 = r == 2 ? t.dims[1] : 1;
    int cols = 0;
    for (int i = 0; i < 2; i++) cols |= tc->acc_cols[i] > 0 && d1 == tc->acc_cols[i];
    int ok = 1;
    switch (e) {
    case TC_UNIFORM: ok = r == 0; break;
    case TC_AT_USE: ok = r > 0; break;
    case TC_STAGED: ok = r == 2 && !t.ptr; break;
    case TC_ACC: ok = r == 2 && !t.ptr && d0 == tc->BM && (cols || d1 == 1); break;
    /* (a (1, 1) block: one element broadcast) */
    case TC_ACC_ROWS: ok = !t.ptr && (d0 == tc->BM || d0 == 1) && d1 == 1; break;
    case TC_ACC_COLS: ok = r == 2 && !t.ptr && d0 == 1 && (cols || d1 == 1); break;
    default: ok = 0;
    }
    if (ok) return 1;
    return fail(K, K->f->defs[v],
                arena_printf(K->ctx->arena, "%%%d (%s) is %s, which does not hold it", v,
                             type_str(K->ctx->arena, t), enc_text(K->ctx->arena, K->f, tc, v)));
}

static int check_block(Check *K, const Block *b);

static int check_inst(Check *K, const Inst *in) {
    const LayoutTc *tc = K->tc;
    if (op_has(in->op, OPF_REGION)) {
        const Loop *l = in->loop;
        for (int r = 0; r < l->nresults; r++) {
            TcEnc e = (TcEnc)tc->enc[l->results[r]];
            if (!fits(K, l->results[r])) return 0;
            if (r < l->ncarried && (tc->enc[l->args[r]] != e || !bad_read(K, in, l->inits[r], e)))
                return fail(K, in, "a loop's carried value changes its encoding");
            if (!bad_read(K, in, l->yields[r], e)) return 0;
            if (in->op == OP_IF && !bad_read(K, in, l->else_yields[r], e)) return 0;
        }
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++)
            if (!check_block(K, sub[k])) return 0;
        return 1;
    }
    if (in->result < 0) {
        /* a store: element by element at the accumulator's coordinates */
        for (int k = 0; k < in->nargs; k++)
            if (!bad_read(K, in, in->args[k], TC_ACC)) return 0;
        return 1;
    }
    if (!fits(K, in->result)) return 0;
    TcEnc res = (TcEnc)tc->enc[in->result];
    switch ((Conv)K->p->conv[in->result]) {
    case CONV_COPY:
        /* addresses, mask and `other` at the copying thread's groups */
        for (int k = 0; k < in->nargs; k++)
            if (!bad_read(K, in, in->args[k], TC_AT_USE)) return 0;
        if (!ring_of(tc, 0, in->result)) return fail(K, in, "a staged load has no ring");
        return 1;
    case CONV_MMA:
        for (int k = 0; k < 2; k++) {
            TcEnc e = enc(tc, in->args[k]);
            if (e != TC_STAGED && e != TC_ACC)
                return fail(K, in, "a dot's operand is neither in a ring nor in registers");
        }
        if (res != TC_ACC || !readable(TC_ACC, enc(tc, in->args[2])))
            return fail(K, in, "a dot's accumulator is not #mma");
        return 1;
    case CONV_ROWRED: return 1;
    default: break;
    }
    if (in->op == OP_LOAD && res == TC_STAGED) return fail(K, in, "a staged load is not a copy");
    for (int k = 0; k < in->nargs; k++)
        if (!bad_read(K, in, in->args[k], res)) return 0;
    return 1;
}

static int check_block(Check *K, const Block *b) {
    for (int i = 0; i < b->items.len; i++)
        if (!check_inst(K, b->items.items[i])) return 0;
    return 1;
}

/* A body's warps cover the accumulators in the instruction's blocks, its
 * threads are the block's, its rings fit its shared memory. */
static int check_body(Check *K, const LayoutMmaBody *b, int threads, int smem) {
    const LayoutTc *tc = K->tc;
    Arena *a = K->ctx->arena;
    int warps = b->wm * b->wn;
    if (warps < 1 || b->threads < 32 * warps || (threads && b->threads != threads))
        return fail(K, NULL,
                    arena_printf(a, "#mma v%d: %d x %d warps in %d threads, the CUDA block %d",
                                 b->version, b->wm, b->wn, b->threads, threads));
    if (b->version == 3 && b->wm % 4)
        return fail(K, NULL, "#mma v3: warps along the rows not in warpgroups of 4");
    if (tc->BM % (b->inst_m * b->wm))
        return fail(K, NULL,
                    arena_printf(a, "#mma v%d: %d rows over %d warps of %d", b->version, tc->BM,
                                 b->wm, b->inst_m));
    /* (attention's second accumulator has its own instruction N) */
    for (int i = 0; i < 2; i++)
        if (tc->acc_cols[i] && tc->acc_cols[i] % (b->wn * (i ? 8 : b->inst_n)))
            return fail(K, NULL,
                        arena_printf(a, "#mma v%d: %d columns over %d warps of %d", b->version,
                                     tc->acc_cols[i], b->wn, i ? 8 : b->inst_n));
    long bytes = 0;
    for (int i = 0; i < b->nrings; i++) {
        const LayoutRing *r = &b->ring[i];
        int len = r->row_len ? r->row_len : r->cols;
        if (r->row_len && r->row_len < r->cols)
            return fail(K, NULL,
                        arena_printf(a, "#smem_%s: rows of %d elements hold %d", r->name,
                                     r->row_len, r->cols));
        const Inst *ld = K->f->defs[r->value];
        if (!ld || ld->op != OP_LOAD || K->tc->enc[r->value] != TC_STAGED)
            return fail(K, NULL, arena_printf(a, "#smem_%s does not hold a staged load", r->name));
        Type t = ld->type;
        if (t.rank != 2 || t.dims[0] * t.dims[1] != r->rows * r->cols)
            return fail(K, ld,
                        arena_printf(a, "#smem_%s (%d x %d) does not hold %%%d", r->name, r->rows,
                                     r->cols, r->value));
        bytes += (long)r->rows * len * tc->bits / 8 * r->buffers;
    }
    if (bytes > b->smem || (smem && b->smem > smem))
        return fail(K, NULL,
                    arena_printf(a,
                                 "#mma v%d: its rings take %ld bytes of shared memory, the body "
                                 "%d, the launch %d",
                                 b->version, bytes, b->smem, smem));
    return 1;
}

int layout_tc_verify(MtContext *ctx, const Function *f, const LayoutPlan *p) {
    Check K = {ctx, f, p, p->tc};
    const TileInfo *t = p->tile;
    /* the launcher asks dyn_smem, on sm_90 devices dyn_smem_sm90 (the larger
     * of the two bodies') */
    int smem90 = t->dyn_smem_sm90 ? t->dyn_smem_sm90 : t->dyn_smem;
    if (!check_body(&K, &p->tc->body[0], t->block_threads, t->dyn_smem)) return 0;
    if (p->tc->nbodies > 1 &&
        !check_body(&K, &p->tc->body[1], t->block_threads_sm90 ? t->block_threads_sm90 : 0, smem90))
        return 0;
    return check_block(&K, &f->body);
}

/* ---- The text ---------------------------------------------------------------- */

typedef struct Printer {
    Arena *a;
    const Function *f;
    const LayoutPlan *p;
} Printer;

static const char *enc_cb(void *user, int v) {
    Printer *P = user;
    return enc_text(P->a, P->f, P->p->tc, v);
}

static const char *note_of(void *user, const Inst *in) {
    Printer *P = user;
    const LayoutTc *tc = P->p->tc;
    const char *words = NULL;
    if (in->result >= 0 && P->p->conv[in->result] == CONV_MMA) {
        /* where each operand comes from */
        const char *from[2];
        for (int k = 0; k < 2; k++) {
            Operand o = in->args[k];
            from[k] = enc(tc, o) == TC_STAGED ? enc_text(P->a, P->f, tc, o.id)
                                              : arena_printf(P->a, "the registers of %%%d", o.id);
        }
        words = arena_printf(P->a, "tensor cores: #a from %s, #b from %s", from[0], from[1]);
    }
    return layout_note(P->a, P->p, in, enc_cb, P, words);
}

static void print_body(StrBuf *sb, const LayoutTc *tc, const LayoutMmaBody *b, const char *sfx) {
    sb_printf(sb,
              "#mma%s = #mt.nvidia_mma<{versionMajor = %d, warpsPerCTA = [%d, %d], instrShape = ",
              sfx, b->version, b->wm, b->wn);
    if (b->version == 2) sb_printf(sb, "[%d, %d]}>", b->inst_m, b->inst_n);
    else sb_printf(sb, "[%d, %d, %d]}>", b->inst_m, b->inst_n, b->inst_k);
    sb_printf(sb, "  // %d threads", b->threads);
    if (b->threads > 32 * b->wm * b->wn)
        sb_printf(sb, " (%d of them copying)", b->threads - 32 * b->wm * b->wn);
    sb_printf(sb, ", %d bytes of shared memory\n", b->smem);
    for (int k = 0; k < 2; k++)
        sb_printf(sb, "#%s%s = #mt.dot_op<{opIdx = %d, parent = #mma%s, kWidth = %d}>\n",
                  k ? "b" : "a", sfx, k, sfx, 32 / tc->bits);
    for (int i = 0; i < b->nrings; i++) {
        const LayoutRing *r = &b->ring[i];
        if (r->swizzle)
            sb_printf(sb,
                      "#smem_%s%s = #mt.nvmma_shared<{swizzlingByteWidth = %d, shape = [%d, %d], "
                      "buffers = %d}>\n",
                      r->name, sfx, r->swizzle, r->rows, r->cols, r->buffers);
        else
            sb_printf(sb,
                      "#smem_%s%s = #mt.padded_shared<{shape = [%d, %d], rowLength = %d, buffers "
                      "= %d}>\n",
                      r->name, sfx, r->rows, r->cols, r->row_len ? r->row_len : r->cols,
                      r->buffers);
    }
}

const char *layout_tc_print(Arena *a, const Function *f, const LayoutPlan *p) {
    const LayoutTc *tc = p->tc;
    StrBuf sb;
    sb_init(&sb, a);
    sb_printf(&sb, "// layout of %s: %s (%s)\n", f->name, tc->what, p->path);
    print_body(&sb, tc, &tc->body[0], "");
    sb_puts(&sb, "#mma_rows = #mt.slice<{dim = 1, parent = #mma}>\n");
    sb_puts(&sb, "#mma_cols = #mt.slice<{dim = 0, parent = #mma}>\n");
    if (tc->nbodies > 1) {
        sb_puts(&sb, "// the sm_90a body (MT_WGMMA_SM90) takes these instead, its slices alike:\n");
        print_body(&sb, tc, &tc->body[1], "_sm90a");
    }
    Printer P = {a, f, p};
    ssa_print_noted(&sb, a, f, note_of, &P);
    return sb_str(&sb);
}
