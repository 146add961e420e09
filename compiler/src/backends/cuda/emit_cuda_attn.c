/* The -O2 CUDA path of a fused attention forward (docs/dot.md, "Two dots
 * per iteration: attention"): a kernel whose work is two tl.dot in one
 * runtime loop, S = dot(q, trans(k)) and acc = dot(p, v, acc), with an
 * online softmax between them.
 *
 * Shape of the kernels it takes (general rules over the IR, attn_match):
 * at the top level, pure ops, one load before the loop (q: a (BM, D) f16
 * or bf16 block), one `for` and, after it, pure ops and stores. In the
 * loop body, values fall in classes:
 *   UNI  pure functions of the loop index, aranges, program ids and
 *        parameters: regenerated at any (row, column) from their IR
 *        definitions (as emit_cuda_mma.c's render);
 *   S    (BM, BN): the first dot (q times the transpose of a (BN, D)
 *        block k loaded in the loop) and elementwise ops of S, UNI and
 *        ROW values (casts included);
 *   ROW  (BM,) or (BM, 1): row reductions (max, sum along axis 1) of S,
 *        carried row vectors and elementwise ops of ROW and UNI values;
 *   ROWX (BM, X) elementwise ops of ROW and UNI values alone (a row
 *        vector broadcast): rendered per element;
 *   O    (BM, D) f32: the carried accumulator, elementwise ops of it with
 *        ROW and UNI values (each used once: updated in place), and the
 *        second dot, dot(p, v, acc) with p an f16 / bf16 S value and v a
 *        (BN, D) block loaded in the loop.
 * The loop's other carried values are row vectors; after the loop,
 * elementwise ops of its results and stores of (BM, D) blocks. Anything
 * else returns "not matched" and the kernel takes the general path.
 *
 * The generated kernel (FlashAttention-2's layout): 32 * num_warps
 * threads, warp w owning rows 16 * MT * w .. of the tile (MT = BM / (16 *
 * warps) blocks of 16 rows) and all the columns. q is copied once into
 * shared memory and its ldmatrix A fragments kept in registers; k and v
 * are copied per iteration into padded shared rows (D + 8 elements: the
 * 8 rows of an ldmatrix fall in distinct banks) by cp.async (a group of 8
 * consecutive, aligned, unmasked elements, or masked off whole where
 * `other` is zero: the zero fill; any other group element-wise with its
 * mask and `other`), double-buffered: iteration t + 1's copies run
 * during iteration t's products. S's fragments come from mma.sync
 * m16n8k16 with B fragments from ldmatrix (non-transposed) of k's rows;
 * every S, ROW and O op is computed per element of the m16n8 accumulator
 * layout (rows g and g + 8, columns 2t and 2t + 1 of each 16 x 8 block;
 * g = lane / 4, t = lane % 4), a row reduction in the thread then over the
 * lanes xor 1 and 2 (the quad holding a row); the f16 S fragments are the
 * A fragments of the second mma.sync (two adjacent 16 x 8 blocks are one
 * 16 x 16 k-slice's A) and v's B fragments come from ldmatrix.trans. The
 * ops after the loop are computed per element of the accumulator's
 * fragments and stored from them.
 *
 * On sm_80+ the helpers are the PTX instructions; elsewhere (older GPUs,
 * nvcc's host pass, test/emu's CPU emulation) the same helpers are
 * written with warp shuffles in the instructions' fragment layouts and
 * synchronous copies, so the one body computes the same result on every
 * target. */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "cgen/asm.h"
#include "cgen/cgen.h"
#include "backends/cuda/cuda_attn.h"
#include "backends/cuda/cuda_blocked.h"
#include "backends/cuda/cuda_regen.h"
#include "backends/cuda/cuda_wgmma.h"
#include "layout/layout.h"

enum {
    ATTN_PAD = 8,
    ATTN_MAX_SMEM = 163 * 1024,
    ATTN_MAX_SMEM_SM90 = 227 * 1024,
    ATTN_MAX_FRAG_REGS = 192
};

/* value classes (the header comment) */
enum { C_NONE, C_UNI, C_Q, C_LOAD, C_KT, C_S, C_ROW, C_ROWX, C_O };

typedef struct AttnPlan {
    const Function *f;
    const Inst *loop, *dot1, *dot2;
    const Inst *ldq, *ldk, *ldv;
    int acc_lane;
    int BM, BN, D;
    DType in_dt;
    int warps, MT;
    int ld;     /* the shared rows' length (elements) */
    int stages; /* k and v buffers: 2 (double-buffered) or 1 */
    int qregs;  /* q's A fragments held in registers */
    int smem;   /* bytes */
    /* the sm_90a body (wgmma): on, the rows' swizzle (bytes, mode code),
     * the bytes of q's buffer and of one k or v buffer (1024-aligned), the
     * ring's slots of k and v (num_stages), the shared memory it takes */
    int wg, sw, swcode, wq, wkv, wslots, wsmem;
    char *cls; /* per value, in the loop and before it */
    char *epi; /* per value after the loop: depends on a loop result */
} AttnPlan;

typedef struct Attn {
    Arena *a;
    const Function *f;
    const AttnPlan *P;
    CudaB cb; /* for cb_op_expr */
    const char **pnames;
    const int *param_div;
    StrBuf pre; /* scalars at kernel entry */
    StrBuf *out;
    int indent;
    const char **sname; /* top-level scalars computed at entry */
    const char **nm;    /* value -> its element's expression in the current loop nest */
    const char **base;  /* S value -> its fragment array */
    const char *index_type;
    int wg;    /* emitting the sm_90a body */
    int rstep; /* rows between a thread's blocks mt_mi: 16 (mma.sync), 64 (wgmma) */
    /* the sm_90a body: the ring's next copies (then their commit), issued
     * while the tensor core runs the second dot (between its commit and
     * its wait) */
    const char *dot2_overlap;
} Attn;

static void ln(Attn *A, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ln(Attn *A, const char *fmt, ...) {
    sb_printf(A->out, "%*s", A->indent * 4, "");
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(A->out, fmt, ap);
    va_end(ap);
    sb_putc(A->out, '\n');
}

static const Inst *def_of(const Function *f, Operand o) {
    return o.kind == OPD_VALUE ? f->defs[o.id] : NULL;
}

static int is_value(Operand o, int id) { return o.kind == OPD_VALUE && o.id == id; }

static int lane_of_result(const Loop *l, int id) {
    for (int i = 0; i < l->nresults; i++)
        if (l->results[i] == id) return i;
    return -1;
}

/* The pointer parameter an address block is based on (-1: none). */
static int pointer_param(const Function *f, Operand o) {
    for (int guard = 0; guard < 1000; guard++) {
        if (o.kind == OPD_PARAM) return o.id;
        if (o.kind != OPD_VALUE) return -1;
        const Inst *d = f->defs[o.id];
        if (!d || (d->op != OP_ADDPTR && d->op != OP_EXPAND_DIMS && d->op != OP_BROADCAST))
            return -1;
        o = d->args[0];
    }
    return -1;
}

static int dims_are(Type t, int r, int c) {
    return !t.ptr && t.rank == 2 && t.dims[0] == r && t.dims[1] == c;
}

/* A row vector's shape: (BM,) or (BM, 1). */
static int row_shape(Type t, int BM) {
    return !t.ptr &&
           ((t.rank == 1 && t.dims[0] == BM) || (t.rank == 2 && t.dims[0] == BM && t.dims[1] == 1));
}

static int opd_class(const AttnPlan *P, Operand o) {
    if (o.kind != OPD_VALUE) return C_UNI;
    if (o.id == P->loop->loop->index) return C_UNI;
    return P->cls[o.id];
}

/* The class of an elementwise op's result from its operands' (C_NONE: not
 * taken). */
static int elementwise_class(const AttnPlan *P, const Inst *in) {
    int s = 0, row = 0, o = 0;
    for (int k = 0; k < in->nargs; k++) {
        int c = opd_class(P, in->args[k]);
        /* a row vector meets a block of its own rank (a (BM,) one would
         * broadcast along the columns) */
        if ((c == C_ROW || c == C_ROWX) && operand_type(P->f, in->args[k]).rank != in->type.rank)
            return C_NONE;
        if (c == C_S) s = 1;
        else if (c == C_ROW || c == C_ROWX) row = 1;
        else if (c == C_O) o = 1;
        else if (c != C_UNI) return C_NONE;
    }
    Type t = in->type;
    if (s && o) return C_NONE;
    if (o) return dims_are(t, P->BM, P->D) && t.dtype == DT_F32 ? C_O : C_NONE;
    if (s) return dims_are(t, P->BM, P->BN) ? C_S : C_NONE;
    if (row) {
        if (row_shape(t, P->BM)) return C_ROW;
        return !t.ptr && t.rank == 2 && t.dims[0] == P->BM ? C_ROWX : C_NONE;
    }
    return C_UNI;
}

/* Whether every rank-2 op (and store) of the block takes rank-2 or scalar
 * operands, a rank-1 one only through expand_dims or broadcast: render()
 * places a rank-1 value by its axis, and a (N,) operand of a rank-2 op
 * broadcasts along the columns. */
static int ranks_ok(const Function *f, const Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        if (in->loop && !ranks_ok(f, &in->loop->body)) return 0;
        int r = in->op == OP_STORE ? operand_type(f, in->args[0]).rank : in->type.rank;
        if (r != 2 || in->op == OP_EXPAND_DIMS || in->op == OP_BROADCAST) continue;
        for (int k = 0; k < in->nargs; k++)
            if (in->args[k].kind == OPD_VALUE && operand_type(f, in->args[k]).rank == 1) return 0;
    }
    return 1;
}

static int is_16bit_float(DType dt) { return dt == DT_F16 || dt == DT_BF16; }

/* The sm_90a body's plan (docs/dot.md, "Two dots per iteration"):
 * warpgroups of 4 warps over the rows, each MT m64 blocks; q, k and v in
 * shared memory as columns of `sw` bytes, swizzled, read by wgmma (q K-major
 * as A of the first dot, k K-major as its B, v N-major as the second's B;
 * p from registers as its A); num_stages buffers of k and v, fewer while
 * above sm_90's shared memory (two at least). */
static void attn_wgmma_plan(AttnPlan *P, int num_stages) {
    P->wg = 0;
    if (P->warps % 4 || P->BM % (64 * (P->warps / 4)) || P->BN > 256 || P->D > 256) return;
    P->sw = wgmma_swizzle(P->D * 2, &P->swcode);
    if (!P->sw) return;
    int round = 1024;
    P->wq = (P->BM * P->D * 2 + round - 1) / round * round;
    P->wkv = (P->BN * P->D * 2 + round - 1) / round * round;
    int slots = num_stages > 0 ? num_stages : 3;
    if (slots < 2) slots = 2;
    while (slots > 2 && P->wq + slots * 2 * P->wkv + 1024 > ATTN_MAX_SMEM_SM90) slots--;
    P->wslots = slots;
    P->wsmem = P->wq + slots * 2 * P->wkv + 1024;
    P->wg = P->wsmem <= ATTN_MAX_SMEM_SM90;
}

/* The top level before the loop: pure ops and q's load; the loop (NULL:
 * not this path). */
static const Inst *match_prologue(const Function *f, AttnPlan *P) {
    /* the top level before the loop: pure ops and q's load */
    const Inst *loop = NULL;
    for (int i = 0; i < f->body.items.len && !loop; i++) {
        const Inst *in = f->body.items.items[i];
        if (in->op == OP_FOR) {
            loop = in;
            break;
        }
        if (in->loop) return NULL;
        /* a scalar read (a scale, a sequence's length or start): loaded
         * once at kernel entry (render) */
        int scalar_load = in->op == OP_LOAD && in->type.rank == 0;
        if (in->op == OP_LOAD && !scalar_load) {
            if (P->ldq) return NULL;
            P->ldq = in;
            P->cls[in->result] = C_Q;
            continue;
        }
        if (scalar_load && pointer_param(f, in->args[0]) < 0) return NULL;
        if (!scalar_load && !op_regenerable(in->op)) return NULL;
        for (int k = 0; k < in->nargs; k++)
            if (in->args[k].kind == OPD_VALUE && P->cls[in->args[k].id] != C_UNI) return NULL;
        P->cls[in->result] = C_UNI;
    }
    return P->ldq ? loop : NULL;
}

/* The loop's bounds and carried lanes (one (BM, D) f32 accumulator, row
 * vectors), q's shape: (BM, D), its addresses, mask and `other`
 * regenerable. */
static int match_lanes(const Function *f, AttnPlan *P) {
    const Inst *loop = P->loop;
    const Loop *l = loop->loop;
    if (l->index < 0 || l->step.kind != OPD_CONST || l->step.c.i <= 0) return 0;
    if (l->ncarried != l->nyields || l->ncarried != l->nresults) return 0;
    if (opd_class(P, l->start) != C_UNI || opd_class(P, l->stop) != C_UNI) return 0;
    /* q: (BM, D), its addresses, mask and `other` regenerable */
    Type tq = P->ldq->type;
    if (tq.ptr || tq.rank != 2 || !is_16bit_float((DType)tq.dtype)) return 0;
    P->BM = tq.dims[0];
    P->D = tq.dims[1];
    P->in_dt = (DType)tq.dtype;
    /* the carried lanes: one (BM, D) f32 accumulator, row vectors */
    P->acc_lane = -1;
    for (int i = 0; i < l->ncarried; i++) {
        Type t = f->types[l->args[i]];
        if (opd_class(P, l->inits[i]) != C_UNI) return 0;
        if (dims_are(t, P->BM, P->D) && t.dtype == DT_F32) {
            if (P->acc_lane >= 0) return 0;
            P->acc_lane = i;
            P->cls[l->args[i]] = C_O;
        } else if (row_shape(t, P->BM) && t.rank == 1 && dtype_is_float((DType)t.dtype)) {
            P->cls[l->args[i]] = C_ROW;
        } else {
            return 0;
        }
    }
    if (P->acc_lane < 0) return 0;
    return 1;
}

/* The loop's body: k and v's loads, trans, two dots, row reductions,
 * elementwise ops; each value's class. */
static int match_body(const Function *f, AttnPlan *P) {
    const Loop *l = P->loop->loop;
    for (int i = 0; i < l->body.items.len; i++) {
        const Inst *in = l->body.items.items[i];
        int c = C_NONE;
        if (in->loop) return 0;
        if (in->op == OP_LOAD) {
            for (int k = 0; k < 3; k++)
                if (opd_class(P, in->args[k]) != C_UNI) return 0;
            c = C_LOAD;
        } else if (in->op == OP_TRANS) {
            const Inst *k = def_of(f, in->args[0]);
            if (P->ldk || !k || P->cls[k->result] != C_LOAD) return 0;
            P->ldk = k;
            c = C_KT;
        } else if (in->op == OP_DOT) {
            if (in->attrs.axis > 1) return 0; /* (the batched form: not this path) */
            if (!P->dot1) {
                if (!is_value(in->args[0], P->ldq->result) || opd_class(P, in->args[1]) != C_KT ||
                    opd_class(P, in->args[2]) != C_UNI)
                    return 0;
                P->dot1 = in;
                P->BN = in->type.dims[1];
                if (!dims_are(in->type, P->BM, P->BN) || in->type.dtype != DT_F32) return 0;
                c = C_S;
            } else if (!P->dot2) {
                const Inst *v = def_of(f, in->args[1]);
                if (opd_class(P, in->args[0]) != C_S || !v || P->cls[v->result] != C_LOAD ||
                    opd_class(P, in->args[2]) != C_O || v == P->ldk)
                    return 0;
                if (operand_type(f, in->args[0]).dtype != P->in_dt) return 0;
                P->ldv = v;
                P->dot2 = in;
                c = C_O;
            } else {
                return 0;
            }
        } else if ((in->op == OP_MAX || in->op == OP_SUM) && (in->attrs.flag & RED_AXIS) &&
                   in->attrs.axis == 1) {
            if (opd_class(P, in->args[0]) != C_S || !row_shape(in->type, P->BM) ||
                in->type.dtype != DT_F32)
                return 0;
            c = C_ROW;
        } else if (in->op == OP_EXPAND_DIMS) {
            int ac = opd_class(P, in->args[0]);
            if (ac == C_UNI) c = C_UNI;
            else if (ac == C_ROW && in->attrs.axis == 1 && row_shape(in->type, P->BM)) c = C_ROW;
        } else if (op_regenerable(in->op)) {
            c = elementwise_class(P, in);
        }
        if (c == C_NONE) return 0;
        P->cls[in->result] = (char)c;
    }
    return 1;
}

/* The operands' shapes and dtypes, the uses of q, k, v and the
 * accumulator's chain, the yields. */
static int match_uses(const Function *f, AttnPlan *P) {
    const Loop *l = P->loop->loop;
    if (!P->dot1 || !P->dot2 || !P->ldk || !P->ldv) return 0;
    /* shapes and dtypes of the operands */
    Type tk = P->ldk->type, tv = P->ldv->type;
    if (!dims_are(tk, P->BN, P->D) || !dims_are(tv, P->BN, P->D) || tk.dtype != P->in_dt ||
        tv.dtype != P->in_dt || !dims_are(P->dot2->type, P->BM, P->D) ||
        P->dot2->type.dtype != DT_F32)
        return 0;
    /* uses: q, k, v and trans once; loads other than k and v: none */
    if (cuda_regen_uses(&f->body, P->ldq->result) != 1 ||
        cuda_regen_uses(&l->body, P->ldk->result) != 1 ||
        cuda_regen_uses(&l->body, P->ldv->result) != 1 ||
        cuda_regen_uses(&l->body, P->dot1->args[1].id) != 1)
        return 0;
    for (int i = 0; i < l->body.items.len; i++) {
        const Inst *in = l->body.items.items[i];
        if (in->op == OP_LOAD && in != P->ldk && in != P->ldv) return 0;
    }
    /* the accumulator's chain: each O value used once (updated in place), the
     * second dot yielded to its lane alone */
    for (int v = 0; v < f->nvalues; v++)
        if (P->cls[v] == C_O && v != P->dot2->result && cuda_regen_uses(&l->body, v) != 1) return 0;
    if (cuda_regen_uses(&l->body, P->dot2->result) != 0) return 0;
    /* the yields: the second dot to the accumulator's lane, (BM,) row vectors to the others */
    for (int i = 0; i < l->nyields; i++) {
        Operand y = l->yields[i];
        if (i == P->acc_lane ? !is_value(y, P->dot2->result)
                             : opd_class(P, y) != C_ROW || y.kind != OPD_VALUE ||
                                   f->types[y.id].rank != 1 || !row_shape(f->types[y.id], P->BM))
            return 0;
    }
    if (pointer_param(f, P->ldq->args[0]) < 0 || pointer_param(f, P->ldk->args[0]) < 0 ||
        pointer_param(f, P->ldv->args[0]) < 0)
        return 0;
    return 1;
}

/* After the loop: elementwise ops of the results, stores of (BM, D)
 * blocks. */
static int match_epilogue(const Function *f, AttnPlan *P) {
    const Inst *loop = P->loop;
    const Loop *l = loop->loop;
    for (int i = 0; i < l->nresults; i++) P->epi[l->results[i]] = 1;
    int past = 0;
    for (int i = 0; i < f->body.items.len; i++) {
        const Inst *in = f->body.items.items[i];
        if (in == loop) {
            past = 1;
            continue;
        }
        if (!past) continue;
        if (in->loop || in->op == OP_FOR) return 0;
        int dep = 0, ok = 1;
        for (int k = 0; k < in->nargs; k++) {
            Operand o = in->args[k];
            if (o.kind != OPD_VALUE) continue;
            if (P->epi[o.id]) dep = 1;
            else if (P->cls[o.id] != C_UNI) ok = 0;
        }
        if (!ok) return 0;
        if (in->op == OP_STORE) {
            if (pointer_param(f, in->args[0]) < 0) return 0;
            Type t = operand_type(f, in->args[0]);
            if (t.rank != 2 || t.dims[0] != P->BM || t.dims[1] != P->D) return 0;
            if ((in->args[0].kind == OPD_VALUE && P->epi[in->args[0].id]) ||
                (in->args[2].kind == OPD_VALUE && P->epi[in->args[2].id]))
                return 0;
            continue;
        }
        if (in->op == OP_LOAD || !op_regenerable(in->op)) return 0;
        if (!dep) {
            P->cls[in->result] = C_UNI;
            continue;
        }
        /* a per-element value of the accumulator's layout */
        Type t = in->type;
        if (t.ptr ||
            !((t.rank == 1 && t.dims[0] == P->BM) ||
              (t.rank == 2 && t.dims[0] == P->BM && (t.dims[1] == P->D || t.dims[1] == 1))))
            return 0;
        P->epi[in->result] = 1;
    }
    return 1;
}

/* Fragments of 16 rows per warp, k-steps of 16; warps, registers and
 * shared memory. */
static int match_sizes(AttnPlan *P, int num_warps) {
    if (P->BM % 16 || P->BN % 16 || P->D % 16) return 0;
    /* num_warps as given; by default one block of 16 rows per warp, at most 8 warps */
    int warps = num_warps > 0 ? num_warps : P->BM / 16 < 8 ? P->BM / 16 : 8;
    if (warps < 1) warps = 1;
    while (warps > 1 && P->BM % (16 * warps)) warps /= 2;
    if (P->BM % (16 * warps)) return 0;
    P->warps = warps;
    P->MT = P->BM / (16 * warps);
    /* S's and the accumulator's fragments per thread */
    if (P->MT * (P->BN / 2 + P->D / 2) > ATTN_MAX_FRAG_REGS) return 0;
    P->qregs = P->MT * (P->D / 16) * 4 <= 64;
    P->ld = P->D + ATTN_PAD;
    int eb = 2, qbytes = P->BM * P->ld * eb, kv = 2 * P->BN * P->ld * eb;
    P->stages = qbytes + 2 * kv <= ATTN_MAX_SMEM ? 2 : 1;
    P->smem = qbytes + P->stages * kv;
    if (P->smem > ATTN_MAX_SMEM) return 0;
    return 1;
}

static int attn_match(Arena *a, const Function *f, int num_warps, int num_stages, AttnPlan *P) {
    memset(P, 0, sizeof *P);
    P->f = f;
    P->cls = ARENA_ARRAY(a, char, f->nvalues + 1);
    P->epi = ARENA_ARRAY(a, char, f->nvalues + 1);
    memset(P->cls, 0, (size_t)f->nvalues + 1);
    memset(P->epi, 0, (size_t)f->nvalues + 1);
    if (!ranks_ok(f, &f->body)) return 0;
    P->loop = match_prologue(f, P);
    if (!P->loop || !match_lanes(f, P) || !match_body(f, P) || !match_uses(f, P) ||
        !match_epilogue(f, P) || !match_sizes(P, num_warps))
        return 0;
    attn_wgmma_plan(P, num_stages);
    return 1;
}

const AttnPlan *cuda_attn_plan(Arena *a, const Function *f, int num_warps, int num_stages,
                               TileInfo *t) {
    AttnPlan *P = ARENA_NEW(a, AttnPlan);
    if (!attn_match(a, f, num_warps, num_stages, P)) return NULL;
    t->block_threads = 32 * P->warps;
    t->dyn_smem = P->smem;
    t->dyn_smem_sm90 = P->wg && P->wsmem > P->smem ? P->wsmem : P->smem;
    return P;
}

/* The layout stage's encoding of a value of class c (the epilogue's by
 * shape). */
static TcEnc attn_enc(const AttnPlan *P, int v) {
    Type t = P->f->types[v];
    int c = P->cls[v];
    if (P->epi[v]) c = t.rank == 1 || t.dims[1] == 1 ? C_ROW : C_O;
    switch (c) {
    case C_Q:
    case C_LOAD:
    case C_KT: return TC_STAGED;
    case C_S:
    case C_O: return TC_ACC;
    case C_ROW: return TC_ACC_ROWS;
    case C_ROWX: return t.dims[1] == 1 ? TC_ACC_ROWS : TC_ACC;
    default: return t.rank ? TC_AT_USE : TC_UNIFORM;
    }
}

const LayoutTc *cuda_attn_layout(Arena *a, const Function *f, const AttnPlan *P) {
    LayoutTc *tc = ARENA_NEW(a, LayoutTc);
    tc->what = arena_printf(a,
                            "attention: S = q (%d, %d) x trans(k) (%d, %d), then p (%d, %d) x v "
                            "(%d, %d) per iteration of the loop at %%%d",
                            P->BM, P->D, P->D, P->BN, P->BM, P->BN, P->BN, P->D,
                            P->loop->loop->results[0]);
    tc->bits = dtype_info(P->in_dt)->bits;
    tc->BM = P->BM;
    tc->acc_cols[0] = P->BN;
    tc->acc_cols[1] = P->D;
    tc->enc = layout_tc_encodings(a, f);
    for (int v = 0; v < f->nvalues; v++)
        if (P->cls[v] || P->epi[v]) tc->enc[v] = (unsigned char)attn_enc(P, v);
    const Inst *ld[3] = {P->ldq, P->ldk, P->ldv};
    static const char *const names[3] = {"q", "k", "v"};
    LayoutMmaBody *b = &tc->body[0];
    *b = (LayoutMmaBody){.version = 2,
                         .threads = 32 * P->warps,
                         .wm = P->warps,
                         .wn = 1,
                         .inst_m = 16,
                         .inst_n = 8,
                         .inst_k = 16,
                         .nrings = 3,
                         .smem = P->smem};
    for (int i = 0; i < 3; i++)
        b->ring[i] = (LayoutRing){.name = names[i],
                                  .value = ld[i]->result,
                                  .rows = i ? P->BN : P->BM,
                                  .cols = P->D,
                                  .row_len = P->ld,
                                  .buffers = i ? P->stages : 1};
    tc->nbodies = 1;
    if (P->wg) {
        b = &tc->body[tc->nbodies++];
        *b = (LayoutMmaBody){.version = 3,
                             .threads = 32 * P->warps,
                             .wm = P->warps,
                             .wn = 1,
                             .inst_m = 16,
                             .inst_n = P->BN,
                             .inst_k = 16,
                             .nrings = 3,
                             .smem = P->wsmem};
        for (int i = 0; i < 3; i++)
            b->ring[i] = (LayoutRing){.name = names[i],
                                      .value = ld[i]->result,
                                      .rows = i ? P->BN : P->BM,
                                      .cols = P->D,
                                      .swizzle = P->sw,
                                      .buffers = i ? P->wslots : 1};
    }
    return tc;
}

/* ---- Rendering ------------------------------------------------------------ */

static const char *render(Attn *A, Operand o, const char *row, const char *col, int axis);

static const char *render_cb(void *e, Operand o, const char *row, const char *col, int axis) {
    return render((Attn *)e, o, row, col, axis);
}

static const char *render_op(Attn *A, const Inst *d, const char *row, const char *col, int axis) {
    return cuda_regen_op(&A->cb, d, row, col, axis, render_cb, A);
}

/* Operand o at (row, col) of its block (axis: for a rank-1 value, the
 * dimension it runs along: 0 rows, 1 columns). Pointers render as their
 * element index; values held in fragments as their element (A->nm). */
static const char *render(Attn *A, Operand o, const char *row, const char *col, int axis) {
    const Function *f = A->f;
    if (o.kind == OPD_CONST) return c_const(A->a, o.c, C_CUDA);
    if (o.kind == OPD_PARAM) return f->params[o.id].type.ptr ? "0" : A->pnames[o.id];
    if (o.kind == OPD_NONE) return "0";
    if (o.id == A->P->loop->loop->index) return "mt_k";
    if (A->nm[o.id]) return A->nm[o.id];
    const Inst *d = f->defs[o.id];
    MT_ASSERT(d);
    Type t = f->types[o.id];
    if (t.rank == 0 && !A->P->epi[o.id] && A->P->cls[o.id] == C_UNI) {
        int top = 0;
        for (int i = 0; i < f->body.items.len && !top; i++) top = f->body.items.items[i] == d;
        if (top) {
            if (!A->sname[o.id]) {
                const char *e =
                    d->op == OP_LOAD
                        ? cuda_regen_scalar_load(A->a, d, A->pnames[pointer_param(f, d->args[0])],
                                                 render_cb, A)
                        : render_op(A, d, "0", "0", -1);
                const char *name = arena_printf(A->a, "s%d", o.id);
                sb_printf(&A->pre, "    const %s %s = %s;\n",
                          t.ptr ? A->index_type : c_type((DType)t.dtype), name, e);
                A->sname[o.id] = name;
            }
            return A->sname[o.id];
        }
    }
    return render_op(A, d, row, col, cuda_regen_value_axis(t, axis));
}

/* ---- Helpers of the generated code ----------------------------------------- */

static const char attn_common_helpers[] =
    "#ifndef MT_ATTN_HELPERS\n#define MT_ATTN_HELPERS\n"
    "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800\n#define MT_ATTN_SM80 1\n"
    "#else\n#define MT_ATTN_SM80 0\n#endif\n"
    "#if !defined(__CUDA_ARCH__) && !defined(__NVCC__)\n#define MT_ATTN_EMULATED 1\n"
    "#else\n#define MT_ATTN_EMULATED 0\n#endif\n"
    "/* one block per multiprocessor at least: all the registers a thread may take */\n"
    "#if MT_ATTN_EMULATED\n#define MT_ATTN_BOUNDS(t) __launch_bounds__(t)\n"
    "#else\n#define MT_ATTN_BOUNDS(t) __launch_bounds__(t, 1)\n#endif\n"
    "/* below sm_80 the shuffle helpers out of line (quick to compile) */\n"
    "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800\n#define MT_ATTN_INLINE __noinline__\n"
    "#else\n#define MT_ATTN_INLINE __forceinline__\n#endif\n"
    "/* sm_80+: cp.async, ldmatrix and mma.sync. Elsewhere (older GPUs, the host\n"
    " * pass, test/emu): the same in C, the copies synchronous, ldmatrix and\n"
    " * mma.sync over the warp's registers exchanged by __shfl_sync in the PTX\n"
    " * ISA's fragment layouts. Offsets are in 16-bit elements from `base`. */\n"
    "static __device__ __forceinline__ void mt_attn_cp16(void *dst, const void *src) {\n"
    "#if MT_ATTN_SM80\n"
    "    unsigned s = (unsigned)__cvta_generic_to_shared(dst);\n"
    "    asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16;\" : : \"r\"(s), \"l\"(src) : "
    "\"memory\");\n"
    "#else\n    memcpy(dst, src, 16);\n#endif\n}\n"
    "/* the same, or 16 zero bytes where !full (src is not read) */\n"
    "static __device__ __forceinline__ void mt_attn_cp16z(void *dst, const void *src, bool full) "
    "{\n"
    "#if MT_ATTN_SM80\n"
    "    unsigned s = (unsigned)__cvta_generic_to_shared(dst);\n"
    "    asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16, %2;\" : : \"r\"(s), \"l\"(src), "
    "\"r\"(full ? 16 : 0) : \"memory\");\n"
    "#else\n    if (full) memcpy(dst, src, 16);\n    else memset(dst, 0, 16);\n#endif\n}\n"
    "static __device__ __forceinline__ void mt_attn_commit() {\n"
    "#if MT_ATTN_SM80\n    asm volatile(\"cp.async.commit_group;\" : : : \"memory\");\n#endif\n}\n"
    "template <int N> static __device__ __forceinline__ void mt_attn_wait() {\n"
    "#if MT_ATTN_SM80\n    asm volatile(\"cp.async.wait_group %0;\" : : \"n\"(N) : \"memory\");\n"
    "#endif\n}\n"
    "/* ldmatrix.x4: register j of lane i holds row i / 4, elements 2 (i % 4) and\n"
    " * 2 (i % 4) + 1 of matrix j, whose row r lane 8j + r addresses */\n"
    "static __device__ MT_ATTN_INLINE void mt_attn_ldsm4(unsigned r[4], const void *base, int off) "
    "{\n"
    "#if MT_ATTN_SM80\n"
    "    unsigned s = (unsigned)__cvta_generic_to_shared((const unsigned short *)base + off);\n"
    "    asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\"\n"
    "                 : \"=r\"(r[0]), \"=r\"(r[1]), \"=r\"(r[2]), \"=r\"(r[3]) : \"r\"(s));\n"
    "#else\n"
    "    const int lane = (int)threadIdx.x & 31;\n"
    "    const unsigned short *p = (const unsigned short *)base;\n"
    "    for (int j = 0; j < 4; j++) {\n"
    "        const int o = __shfl_sync(0xffffffffu, off, j * 8 + lane / 4) + (lane % 4) * 2;\n"
    "        r[j] = (unsigned)p[o] | (unsigned)p[o + 1] << 16;\n"
    "    }\n"
    "#endif\n}\n"
    "/* ldmatrix.x4.trans: register j of lane i holds elements i / 4 of rows\n"
    " * 2 (i % 4) and 2 (i % 4) + 1 of matrix j */\n"
    "static __device__ MT_ATTN_INLINE void mt_attn_ldsm4_trans(unsigned r[4], const void *base, "
    "int "
    "off) {\n"
    "#if MT_ATTN_SM80\n"
    "    unsigned s = (unsigned)__cvta_generic_to_shared((const unsigned short *)base + off);\n"
    "    asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\"\n"
    "                 : \"=r\"(r[0]), \"=r\"(r[1]), \"=r\"(r[2]), \"=r\"(r[3]) : \"r\"(s));\n"
    "#else\n"
    "    const int lane = (int)threadIdx.x & 31;\n"
    "    const unsigned short *p = (const unsigned short *)base;\n"
    "    for (int j = 0; j < 4; j++) {\n"
    "        const int o0 = __shfl_sync(0xffffffffu, off, j * 8 + 2 * (lane % 4));\n"
    "        const int o1 = __shfl_sync(0xffffffffu, off, j * 8 + 2 * (lane % 4) + 1);\n"
    "        r[j] = (unsigned)p[o0 + lane / 4] | (unsigned)p[o1 + lane / 4] << 16;\n"
    "    }\n"
    "#endif\n}\n"
    "#if !MT_ATTN_SM80\n"
    "/* the fallback mma.sync's operands: lane la's A registers, lanes lb's and\n"
    " * lb + 4's B registers (test/emu: one exchange of each group) */\n"
    "static __device__ __forceinline__ void mt_attn_gather(unsigned x[4], unsigned y[4], const "
    "unsigned "
    "a[4], unsigned b0,\n"
    "                                                      unsigned b1, int la, int lb) {\n"
    "#if MT_ATTN_EMULATED\n"
    "    const uint4 ra = __shfl_sync(0xffffffffu, uint4{a[0], a[1], a[2], a[3]}, la);\n"
    "    const uint2 r0 = __shfl_sync(0xffffffffu, uint2{b0, b1}, lb);\n"
    "    const uint2 r1 = __shfl_sync(0xffffffffu, uint2{b0, b1}, lb + 4);\n"
    "    x[0] = ra.x, x[1] = ra.y, x[2] = ra.z, x[3] = ra.w;\n"
    "    y[0] = r0.x, y[1] = r0.y, y[2] = r1.x, y[3] = r1.y;\n"
    "#else\n"
    "    for (int r = 0; r < 4; r++) x[r] = __shfl_sync(0xffffffffu, a[r], la);\n"
    "    y[0] = __shfl_sync(0xffffffffu, b0, lb), y[1] = __shfl_sync(0xffffffffu, b1, lb);\n"
    "    y[2] = __shfl_sync(0xffffffffu, b0, lb + 4), y[3] = __shfl_sync(0xffffffffu, b1, lb + "
    "4);\n"
    "#endif\n"
    "}\n"
    "#endif\n"
    "#endif\n";

/* The dtype's part: its unpacking and packing of two 16-bit floats (the
 * low one first; round to nearest) and its mma.sync. */
static const struct AttnDtype {
    DType dt;
    const char *name, *unpack, *pack;
} attn_dtypes[] = {
    {DT_F16, "f16", "__half2float(__ushort_as_half((unsigned short)(hi ? w >> 16 : w & 0xffffu)))",
     "(unsigned)__half_as_ushort(__float2half_rn(lo)) | "
     "(unsigned)__half_as_ushort(__float2half_rn(hi)) << 16"},
    {DT_BF16, "bf16", "__uint_as_float(hi ? w & 0xffff0000u : w << 16)",
     "(unsigned)__bfloat16_as_ushort(__float2bfloat16_rn(lo)) | "
     "(unsigned)__bfloat16_as_ushort(__float2bfloat16_rn(hi)) << 16"},
};

static const char attn_mma_macro[] =
    "/* mma.sync m16n8k16 (f32 accumulators): lane (g, t) = (lane / 4, lane % 4) holds\n"
    " * a = A[g][2t..], A[g+8][2t..], A[g][2t+8..], A[g+8][2t+8..]; b = B[2t..][g],\n"
    " * B[2t+8..][g]; c = C[g][2t], C[g][2t+1], C[g+8][2t], C[g+8][2t+1] */\n"
    "#if MT_ATTN_SM80\n"
    "#define MT_ATTN_MMA(TY)                                                                   \\\n"
    "    static __device__ MT_ATTN_INLINE void mt_attn_mma_##TY(float c[4], const unsigned a[4], "
    "\\\n"
    "                                                            unsigned b0, unsigned b1) {      "
    "\\\n"
    "        asm volatile(\"mma.sync.aligned.m16n8k16.row.col.f32.\" #TY \".\" #TY \".f32 \"       "
    "   \\\n"
    "                     \"{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\"     "
    "\\\n"
    "                     : \"+f\"(c[0]), \"+f\"(c[1]), \"+f\"(c[2]), \"+f\"(c[3])                 "
    "\\\n"
    "                     : \"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3]), \"r\"(b0), "
    "\"r\"(b1)); \\\n"
    "    }\n"
    "#else\n"
    "#define MT_ATTN_MMA(TY)                                                                   \\\n"
    "    static __device__ MT_ATTN_INLINE void mt_attn_mma_##TY(float c[4], const unsigned a[4], "
    "\\\n"
    "                                                            unsigned b0, unsigned b1) {      "
    "\\\n"
    "        const int lane = (int)threadIdx.x & 31, g = lane >> 2, t = lane & 3;                 "
    "\\\n"
    "        for (int j = 0; j < 4; j++) {                                                        "
    "\\\n"
    "            unsigned x[4], y[4];                                                             "
    "\\\n"
    "            mt_attn_gather(x, y, a, b0, b1, g * 4 + j, 2 * t * 4 + j);                        "
    "\\\n"
    "            for (int e = 0; e < 2; e++) {                                                    "
    "\\\n"
    "                c[0] = fmaf(mt_attn_##TY(x[0], e), mt_attn_##TY(y[0], e), c[0]);            "
    "\\\n"
    "                c[0] = fmaf(mt_attn_##TY(x[2], e), mt_attn_##TY(y[1], e), c[0]);            "
    "\\\n"
    "                c[1] = fmaf(mt_attn_##TY(x[0], e), mt_attn_##TY(y[2], e), c[1]);            "
    "\\\n"
    "                c[1] = fmaf(mt_attn_##TY(x[2], e), mt_attn_##TY(y[3], e), c[1]);            "
    "\\\n"
    "                c[2] = fmaf(mt_attn_##TY(x[1], e), mt_attn_##TY(y[0], e), c[2]);            "
    "\\\n"
    "                c[2] = fmaf(mt_attn_##TY(x[3], e), mt_attn_##TY(y[1], e), c[2]);            "
    "\\\n"
    "                c[3] = fmaf(mt_attn_##TY(x[1], e), mt_attn_##TY(y[2], e), c[3]);            "
    "\\\n"
    "                c[3] = fmaf(mt_attn_##TY(x[3], e), mt_attn_##TY(y[3], e), c[3]);            "
    "\\\n"
    "            }                                                                                "
    "\\\n"
    "        }                                                                                    "
    "\\\n"
    "    }\n"
    "#endif\n";

/* keeps the registers of wgmma's A operand live until the wait (the
 * instruction reads them asynchronously) */
static const char attn_wgmma_fence_regs[] =
    "#if MT_WGMMA_SM90 && !defined(MT_WGMMA_FENCE_REGS)\n#define MT_WGMMA_FENCE_REGS\n"
    "template <int M, int K> static __device__ __forceinline__ void mt_wgmma_fence_regs(unsigned "
    "(&r)[M][K][4]) {\n"
    "#pragma unroll\n"
    "    for (int i = 0; i < M; i++)\n"
    "#pragma unroll\n"
    "        for (int j = 0; j < K; j++)\n"
    "#pragma unroll\n"
    "            for (int q = 0; q < 4; q++) asm volatile(\"\" : \"+r\"(r[i][j][q]) : : "
    "\"memory\");\n"
    "}\n#endif\n";

static const char *attn_helpers(Arena *a, const AttnPlan *P) {
    DType dt = P->in_dt;
    const struct AttnDtype *D = NULL;
    for (size_t i = 0; i < sizeof attn_dtypes / sizeof attn_dtypes[0]; i++)
        if (attn_dtypes[i].dt == dt) D = &attn_dtypes[i];
    MT_ASSERT(D);
    StrBuf sb;
    sb_init(&sb, a);
    sb_puts(&sb, attn_common_helpers);
    sb_printf(&sb, "#ifndef MT_ATTN_HELPERS_%s\n#define MT_ATTN_HELPERS_%s\n", D->name, D->name);
    sb_printf(
        &sb,
        "static __device__ __forceinline__ float mt_attn_%s(unsigned w, int hi) {\n    return "
        "%s;\n}\n",
        D->name, D->unpack);
    sb_printf(&sb,
              "static __device__ __forceinline__ unsigned mt_attn_pack_%s(float lo, float hi) {\n"
              "#if MT_ATTN_SM80\n"
              "    unsigned r;\n"
              "    asm(\"cvt.rn.%sx2.f32 %%0, %%1, %%2;\" : \"=r\"(r) : \"f\"(hi), \"f\"(lo));\n"
              "    return r;\n"
              "#else\n"
              "    return %s;\n"
              "#endif\n}\n",
              D->name, D->name, D->pack);
    sb_puts(&sb, attn_mma_macro);
    sb_printf(&sb, "MT_ATTN_MMA(%s)\n#undef MT_ATTN_MMA\n#endif\n", D->name);
    if (P->wg) {
        sb_puts(&sb, wgmma_common_helpers());
        sb_puts(&sb, attn_wgmma_fence_regs);
        sb_puts(&sb, wgmma_instr(a, WGMMA_SS_K, P->BN, dt));
        sb_puts(&sb, wgmma_instr(a, WGMMA_RS_MN, P->D, dt));
    }
    return sb_str(&sb);
}

/* ---- Emission ---------------------------------------------------------------- */

/* The fragment loop nest of a (BM, cols) block: per thread MT x (cols / 8)
 * blocks of 16 x 8, element mt_q of block (mt_mi, mt_ni) at (mt_r, mt_c);
 * mt_h: its row's index among the thread's two rows of the block. */
static void open_frag(Attn *A, int cols) {
    ln(A, "#pragma unroll");
    ln(A, "for (int mt_mi = 0; mt_mi < %d; mt_mi++) {", A->P->MT);
    A->indent++;
    ln(A, "#pragma unroll");
    ln(A, "for (int mt_ni = 0; mt_ni < %d; mt_ni++) {", cols / 8);
    A->indent++;
    ln(A, "#pragma unroll");
    ln(A, "for (int mt_q = 0; mt_q < 4; mt_q++) {");
    A->indent++;
    ln(A, "const int mt_h = mt_q >> 1;");
    ln(A, "const int mt_r = mt_row0 + mt_mi * %d + (mt_lane >> 2) + mt_h * 8;", A->rstep);
    ln(A, "const int mt_c = mt_ni * 8 + (mt_lane & 3) * 2 + (mt_q & 1);");
    ln(A, "(void)mt_h, (void)mt_r, (void)mt_c;");
}

static void close_n(Attn *A, int n) {
    for (int i = 0; i < n; i++) {
        A->indent--;
        ln(A, "}");
    }
}

/* The row loop nest: the thread's rows mt_r (mt_h = 0, 1 of each block of 16). */
static void open_rows(Attn *A) {
    ln(A, "#pragma unroll");
    ln(A, "for (int mt_mi = 0; mt_mi < %d; mt_mi++) {", A->P->MT);
    A->indent++;
    ln(A, "#pragma unroll");
    ln(A, "for (int mt_h = 0; mt_h < 2; mt_h++) {");
    A->indent++;
    ln(A, "const int mt_r = mt_row0 + mt_mi * %d + (mt_lane >> 2) + mt_h * 8;", A->rstep);
    ln(A, "(void)mt_r;");
}

/* `other` of a load is zero (absent, or a +0 constant): a masked-off
 * group of 16 bytes is cp.async's zero fill. */
static int zero_other(Operand o) {
    if (o.kind == OPD_NONE) return 1;
    if (o.kind != OPD_CONST) return 0;
    return dtype_is_float(o.c.dt) ? o.c.f == 0.0 && !signbit(o.c.f) : o.c.i == 0;
}

/* The copy of load `in`'s (rows, D) block into the shared rows at `buf`:
 * groups of 8 elements along a row, all threads; a group of 8
 * consecutive, 16-byte aligned, unmasked elements is one cp.async, and
 * where `other` is zero so is a group masked off whole (zero fill); any
 * other group element-wise with the mask and `other`. */
static void emit_copy(Attn *A, const Inst *in, int rows, const char *buf) {
    const AttnPlan *P = A->P;
    int T = 32 * P->warps, groups = rows * P->D / 8, per = (groups + T - 1) / T;
    int base = pointer_param(A->f, in->args[0]);
    const char *bname = A->pnames[base];
    const char *idx = render(A, in->args[0], "mt_gr", "(mt_gc + mt_e)", -1);
    const char *mask =
        in->args[1].kind == OPD_NONE ? NULL : render(A, in->args[1], "mt_gr", "(mt_gc + mt_e)", -1);
    const char *other = in->args[2].kind == OPD_NONE
                            ? c_zero(P->in_dt)
                            : render(A, in->args[2], "mt_gr", "(mt_gc + mt_e)", -1);
    if (in->args[2].kind == OPD_VALUE && operand_type(A->f, in->args[2]).dtype != P->in_dt)
        other = arena_printf(A->a, "(%s)%s", c_type(P->in_dt), other);
    const char *al = A->param_div && A->param_div[base] >= 16
                         ? ""
                         : arena_printf(A->a, " && (((uintptr_t)%s) & 15) == 0", bname);
    const char *mt = c_mem_type(P->in_dt, C_CUDA);
    ln(A, "#pragma unroll");
    ln(A, "for (int mt_s = 0; mt_s < %d; mt_s++) {", per);
    A->indent++;
    ln(A, "const int mt_g = mt_s * %d + (int)threadIdx.x;", T);
    ln(A, "const int mt_gr = mt_g / %d, mt_gc = (mt_g %% %d) * 8;", P->D / 8, P->D / 8);
    if (groups % T) ln(A, "if (mt_g < %d) {", groups), A->indent++;
    ln(A, "%s mt_i[8];", A->index_type);
    ln(A, "bool mt_m[8];");
    int zf = mask && zero_other(in->args[2]);
    ln(A, "bool mt_all = true%s;", zf ? ", mt_none = true" : "");
    ln(A, "#pragma unroll");
    ln(A, "for (int mt_e = 0; mt_e < 8; mt_e++) {");
    A->indent++;
    ln(A, "mt_i[mt_e] = %s;", idx);
    ln(A, "mt_m[mt_e] = %s;", mask ? mask : "true");
    ln(A, "mt_all = mt_all && mt_m[mt_e] && mt_i[mt_e] == mt_i[0] + mt_e;");
    if (zf) ln(A, "mt_none = mt_none && !mt_m[mt_e];");
    close_n(A, 1);
    if (A->wg)
        ln(A, "%s *mt_dst = &%s[%s];", mt, buf, wgmma_swizzled_index(A->a, rows, P->D, P->sw, 2));
    else ln(A, "%s *mt_dst = &%s[mt_gr * %d + mt_gc];", mt, buf, P->ld);
    if (zf) {
        ln(A, "if (mt_none || (mt_all && (mt_i[0] & 7) == 0%s)) {", al);
        ln(A, "    mt_attn_cp16z(mt_dst, &%s[mt_i[0]], !mt_none);", bname);
    } else {
        ln(A, "if (mt_all && (mt_i[0] & 7) == 0%s) {", al);
        ln(A, "    mt_attn_cp16(mt_dst, &%s[mt_i[0]]);", bname);
    }
    ln(A, "} else {");
    ln(A, "    #pragma unroll");
    ln(A,
       "    for (int mt_e = 0; mt_e < 8; mt_e++) mt_dst[mt_e] = mt_m[mt_e] ? %s[mt_i[mt_e]] : %s;",
       bname, c_store(A->a, P->in_dt, C_CUDA, other));
    ln(A, "}");
    if (groups % T) close_n(A, 1);
    close_n(A, 1);
}

static const char *mma_name(const AttnPlan *P) { return P->in_dt == DT_F16 ? "f16" : "bf16"; }

/* S's fragments, set to the first dot's accumulator argument. */
static void emit_s_init(Attn *A) {
    const AttnPlan *P = A->P;
    ln(A, "float mt_s[%d][%d][4];", P->MT, P->BN / 8);
    open_frag(A, P->BN);
    ln(A, "mt_s[mt_mi][mt_ni][mt_q] = %s;", render(A, P->dot1->args[2], "mt_r", "mt_c", -1));
    close_n(A, 3);
}

/* S = q k^T: per k-step of 16 (of D), per 16 columns (k's rows) the two B
 * fragments (ldmatrix of k's rows: k^T's column-major fragments). */
static void emit_dot1(Attn *A) {
    const AttnPlan *P = A->P;
    emit_s_init(A);
    ln(A, "#pragma unroll");
    ln(A, "for (int mt_kk = 0; mt_kk < %d; mt_kk++) {", P->D / 16);
    A->indent++;
    if (!P->qregs) {
        ln(A, "unsigned mt_qf[%d][4];", P->MT);
        ln(A, "#pragma unroll");
        ln(A, "for (int mt_mi = 0; mt_mi < %d; mt_mi++)", P->MT);
        ln(A,
           "    mt_attn_ldsm4(mt_qf[mt_mi], mt_sq, (mt_row0 + mt_mi * 16 + (mt_lane & 15)) * %d + "
           "mt_kk * 16 + (mt_lane >> 4) * 8);",
           P->ld);
    }
    const char *qa = P->qregs ? "mt_qf[mt_mi][mt_kk]" : "mt_qf[mt_mi]";
    ln(A, "#pragma unroll");
    ln(A, "for (int mt_nj = 0; mt_nj < %d; mt_nj++) {", P->BN / 16);
    A->indent++;
    ln(A, "unsigned mt_kb[4];");
    ln(A,
       "mt_attn_ldsm4(mt_kb, mt_sk, (mt_nj * 16 + (mt_lane >> 4) * 8 + (mt_lane & 7)) * %d + "
       "mt_kk * 16 + ((mt_lane >> 3) & 1) * 8);",
       P->ld);
    ln(A, "#pragma unroll");
    ln(A, "for (int mt_mi = 0; mt_mi < %d; mt_mi++) {", P->MT);
    ln(A, "    mt_attn_mma_%s(mt_s[mt_mi][2 * mt_nj], %s, mt_kb[0], mt_kb[1]);", mma_name(P), qa);
    ln(A, "    mt_attn_mma_%s(mt_s[mt_mi][2 * mt_nj + 1], %s, mt_kb[2], mt_kb[3]);", mma_name(P),
       qa);
    ln(A, "}");
    close_n(A, 2);
    A->base[P->dot1->result] = "mt_s";
    A->nm[P->dot1->result] = "mt_s[mt_mi][mt_ni][mt_q]";
}

/* p's round-to-nearest cast of an f32 S value where the second dot alone
 * uses it: the pack rounds the cast's operand the same way, once, and the
 * cast itself is not emitted. NULL otherwise. */
static const Inst *p_cast(const Attn *A) {
    const AttnPlan *P = A->P;
    const Function *f = A->f;
    Operand p = P->dot2->args[0];
    const Inst *d = def_of(f, p);
    if (d && d->op == OP_CAST && !d->attrs.flag && d->args[0].kind == OPD_VALUE &&
        f->types[d->args[0].id].dtype == DT_F32 && P->cls[d->args[0].id] == C_S &&
        cuda_regen_uses(&P->loop->loop->body, p.id) == 1)
        return d;
    return NULL;
}

/* The S fragments packed as the second dot's A. */
static const char *p_fragments(Attn *A) {
    const Inst *c = p_cast(A);
    const char *p = A->base[c ? c->args[0].id : A->P->dot2->args[0].id];
    MT_ASSERT(p);
    return p;
}

/* p's 16-bit A fragment of k-slice mt_kk of row block mt_mi into the four
 * words `dst`[0..3]: blocks 2kk and 2kk + 1 of 8 columns of the S value
 * `p` are the 16 x 16 k-slice kk (mma.sync's and wgmma's register A). */
static void emit_pack_p(Attn *A, const char *p, const char *dst) {
    for (int r = 0; r < 4; r++)
        ln(A,
           "%s[%d] = mt_attn_pack_%s(%s[mt_mi][2 * mt_kk + %d][%d], %s[mt_mi][2 * mt_kk + "
           "%d][%d]);",
           dst, r, mma_name(A->P), p, r >> 1, (r & 1) * 2, p, r >> 1, (r & 1) * 2 + 1);
}

/* acc += p v: p's f16 S fragments packed as the A fragments, v's B
 * fragments by ldmatrix.trans. */
static void emit_dot2(Attn *A) {
    const AttnPlan *P = A->P;
    const char *p = p_fragments(A);
    ln(A, "#pragma unroll");
    ln(A, "for (int mt_kk = 0; mt_kk < %d; mt_kk++) {", P->BN / 16);
    A->indent++;
    ln(A, "unsigned mt_pa[%d][4];", P->MT);
    ln(A, "#pragma unroll");
    ln(A, "for (int mt_mi = 0; mt_mi < %d; mt_mi++) {", P->MT);
    A->indent++;
    emit_pack_p(A, p, "mt_pa[mt_mi]");
    close_n(A, 1);
    ln(A, "#pragma unroll");
    ln(A, "for (int mt_nj = 0; mt_nj < %d; mt_nj++) {", P->D / 16);
    A->indent++;
    ln(A, "unsigned mt_vb[4];");
    ln(A,
       "mt_attn_ldsm4_trans(mt_vb, mt_sv, (mt_kk * 16 + (mt_lane & 15)) * %d + mt_nj * 16 + "
       "(mt_lane >> 4) * 8);",
       P->ld);
    ln(A, "#pragma unroll");
    ln(A, "for (int mt_mi = 0; mt_mi < %d; mt_mi++) {", P->MT);
    ln(A, "    mt_attn_mma_%s(mt_o[mt_mi][2 * mt_nj], mt_pa[mt_mi], mt_vb[0], mt_vb[1]);",
       mma_name(P));
    ln(A, "    mt_attn_mma_%s(mt_o[mt_mi][2 * mt_nj + 1], mt_pa[mt_mi], mt_vb[2], mt_vb[3]);",
       mma_name(P));
    ln(A, "}");
    close_n(A, 2);
}

/* sm_90a: S = q k^T as MT wgmma m64n<BN>k16 per k-step of 16 (of D), q's
 * and k's descriptors (both K-major) advanced by the step's offset in
 * their swizzled columns; waited for at once (the softmax reads S). */
static void emit_dot1_wg(Attn *A) {
    const AttnPlan *P = A->P;
    emit_s_init(A);
    ln(A, "mt_wgmma_fence();");
    for (int kk = 0; kk < P->D; kk += 16) {
        int col = kk * 2 / P->sw * P->sw, in = kk * 2 % P->sw;
        for (int mi = 0; mi < P->MT; mi++)
            ln(A, "mt_wgmma_kb_n%d_%s(mt_s[%d], mt_dq + %du, mt_dk + %du);", P->BN, mma_name(P), mi,
               (col * P->BM + mi * 64 * P->sw + in) >> 4, (col * P->BN + in) >> 4);
    }
    ln(A, "mt_wgmma_commit();");
    ln(A, "mt_wgmma_wait<0>();");
    for (int mi = 0; mi < P->MT; mi++) ln(A, "mt_wgmma_fence_acc(mt_s[%d]);", mi);
    A->base[P->dot1->result] = "mt_s";
    A->nm[P->dot1->result] = "mt_s[mt_mi][mt_ni][mt_q]";
}

/* sm_90a: acc += p v as MT wgmma m64n<D>k16 per k-step of 16 (of BN), p's
 * f16 S fragments packed as the A registers (mma.sync's A layout per warp),
 * v's descriptor (N-major) advanced by 16 rows; p's registers kept until
 * the wait (the instruction reads them asynchronously). */
static void emit_dot2_wg(Attn *A) {
    const AttnPlan *P = A->P;
    const char *p = p_fragments(A);
    int KS = P->BN / 16;
    ln(A, "unsigned mt_pa[%d][%d][4];", P->MT, KS);
    ln(A, "#pragma unroll");
    ln(A, "for (int mt_mi = 0; mt_mi < %d; mt_mi++) {", P->MT);
    A->indent++;
    ln(A, "#pragma unroll");
    ln(A, "for (int mt_kk = 0; mt_kk < %d; mt_kk++) {", KS);
    A->indent++;
    emit_pack_p(A, p, "mt_pa[mt_mi][mt_kk]");
    close_n(A, 2);
    ln(A, "mt_wgmma_fence();");
    for (int kk = 0; kk < KS; kk++)
        for (int mi = 0; mi < P->MT; mi++)
            ln(A, "mt_wgmma_rs_n%d_%s(mt_o[%d], mt_pa[%d][%d], mt_dv + %du);", P->D, mma_name(P),
               mi, mi, kk, (kk * 16 * P->sw) >> 4);
    ln(A, "mt_wgmma_commit();");
    if (A->dot2_overlap) ln(A, "%s", A->dot2_overlap), ln(A, "mt_attn_commit();");
    ln(A, "mt_wgmma_wait<0>();");
    for (int mi = 0; mi < P->MT; mi++) ln(A, "mt_wgmma_fence_acc(mt_o[%d]);", mi);
    ln(A, "mt_wgmma_fence_regs(mt_pa);");
}

/* A row reduction of an S value: the thread's elements of the row, then
 * the quad's lanes (xor 1, 2); max ignores NaN (fmaxf) as -O2's tl.max. */
static void emit_row_reduce(Attn *A, const Inst *in) {
    const AttnPlan *P = A->P;
    int id = in->result;
    const char *x = A->base[in->args[0].id];
    MT_ASSERT(x);
    const char *comb = in->op == OP_SUM ? "mt_v = mt_v + %s;" : "mt_v = fmaxf(mt_v, %s);";
    ln(A, "float v%d[%d][2];", id, P->MT);
    open_rows(A);
    ln(A, "float mt_v = %s[mt_mi][0][2 * mt_h];", x);
    ln(A, "#pragma unroll");
    ln(A, "for (int mt_ni = 0; mt_ni < %d; mt_ni++) {", P->BN / 8);
    A->indent++;
    ln(A, "if (mt_ni) %s",
       arena_printf(A->a, comb, arena_printf(A->a, "%s[mt_mi][mt_ni][2 * mt_h]", x)));
    ln(A, comb, arena_printf(A->a, "%s[mt_mi][mt_ni][2 * mt_h + 1]", x));
    close_n(A, 1);
    ln(A, comb, "__shfl_xor_sync(0xffffffffu, mt_v, 1)");
    ln(A, comb, "__shfl_xor_sync(0xffffffffu, mt_v, 2)");
    ln(A, "v%d[mt_mi][mt_h] = mt_v;", id);
    close_n(A, 2);
    A->nm[id] = arena_printf(A->a, "v%d[mt_mi][mt_h]", id);
}

/* A run of elementwise ops of one class from body item i: one loop nest
 * (S: over S's fragments; O: over the accumulator's, in place; ROW: over
 * the thread's rows). Returns the index after the run. */
static int emit_run(Attn *A, const Block *b, int i) {
    const AttnPlan *P = A->P;
    const Inst *first = b->items.items[i];
    int c = P->cls[first->result];
    int j = i;
    while (j < b->items.len) {
        const Inst *in = b->items.items[j];
        if (in->op == OP_LOAD || in->op == OP_TRANS || in->op == OP_DOT) break;
        if ((in->op == OP_MAX || in->op == OP_SUM) && (in->attrs.flag & RED_AXIS)) break;
        int cj = P->cls[in->result];
        if (cj != c && cj != C_UNI && cj != C_ROWX) break;
        j++;
    }
    /* declarations, then the nest */
    const Inst *skip = p_cast(A);
    for (int k = i; k < j; k++) {
        const Inst *in = b->items.items[k];
        int ck = in == skip ? C_NONE : P->cls[in->result];
        if (ck == C_S) {
            ln(A, "float v%d[%d][%d][4];", in->result, P->MT, P->BN / 8);
            A->base[in->result] = arena_printf(A->a, "v%d", in->result);
        } else if (ck == C_ROW) {
            ln(A, "float v%d[%d][2];", in->result, P->MT);
        }
    }
    if (c == C_S) open_frag(A, P->BN);
    else if (c == C_O) open_frag(A, P->D);
    else open_rows(A);
    for (int k = i; k < j; k++) {
        const Inst *in = b->items.items[k];
        int ck = in == skip ? C_NONE : P->cls[in->result];
        if (ck != c) continue;
        const char *col = c == C_ROW ? "0" : "mt_c";
        const char *e = render_op(A, in, "mt_r", col, 0);
        if (c == C_S) {
            ln(A, "v%d[mt_mi][mt_ni][mt_q] = %s;", in->result, e);
            A->nm[in->result] = arena_printf(A->a, "v%d[mt_mi][mt_ni][mt_q]", in->result);
        } else if (c == C_O) {
            ln(A, "mt_o[mt_mi][mt_ni][mt_q] = %s;", e);
            A->nm[in->result] = "mt_o[mt_mi][mt_ni][mt_q]";
        } else {
            ln(A, "v%d[mt_mi][mt_h] = %s;", in->result, e);
            A->nm[in->result] = arena_printf(A->a, "v%d[mt_mi][mt_h]", in->result);
        }
    }
    close_n(A, c == C_ROW ? 2 : 3);
    return j;
}

/* The loop body: the ops of S, ROW and O in order (UNI values are rendered
 * where used), then the carried row vectors' next values. */
static void emit_body(Attn *A) {
    const AttnPlan *P = A->P;
    const Loop *l = P->loop->loop;
    const Block *b = &l->body;
    for (int i = 0; i < b->items.len;) {
        const Inst *in = b->items.items[i];
        int c = P->cls[in->result];
        if (in == P->dot1) {
            if (A->wg) emit_dot1_wg(A);
            else emit_dot1(A);
            i++;
        } else if (in == P->dot2) {
            if (A->wg) emit_dot2_wg(A);
            else emit_dot2(A);
            A->nm[in->result] = "mt_o[mt_mi][mt_ni][mt_q]";
            i++;
        } else if ((in->op == OP_MAX || in->op == OP_SUM) && (in->attrs.flag & RED_AXIS)) {
            emit_row_reduce(A, in);
            i++;
        } else if (in->op == OP_EXPAND_DIMS && c == C_ROW) {
            A->nm[in->result] = A->nm[in->args[0].id];
            i++;
        } else if (in == p_cast(A)) {
            i++; /* packed from its operand */
        } else if (c == C_S || c == C_ROW || c == C_O) {
            i = emit_run(A, b, i);
        } else {
            i++; /* loads (the copies), trans, UNI and ROWX values (rendered where used) */
        }
    }
    /* the next values of the carried row vectors */
    int any = 0;
    for (int i = 0; i < l->ncarried; i++) {
        if (i == P->acc_lane) continue;
        if (!any) ln(A, "float mt_y[%d][%d][2];", l->ncarried, P->MT), any = 1;
    }
    if (!any) return;
    open_rows(A);
    for (int i = 0; i < l->ncarried; i++)
        if (i != P->acc_lane)
            ln(A, "mt_y[%d][mt_mi][mt_h] = %s;", i, render(A, l->yields[i], "mt_r", "0", 0));
    for (int i = 0; i < l->ncarried; i++)
        if (i != P->acc_lane) ln(A, "mt_c%d[mt_mi][mt_h] = mt_y[%d][mt_mi][mt_h];", i, i);
    close_n(A, 2);
}

/* The one store after the loop of a 2- or 4-byte dtype (NULL: none, or
 * several: each stored where computed). */
static const Inst *paired_store(const Attn *A) {
    const Function *f = A->f;
    const Inst *st = NULL;
    int past = 0, n = 0;
    for (int i = 0; i < f->body.items.len; i++) {
        const Inst *in = f->body.items.items[i];
        if (in == A->P->loop) past = 1;
        if (past && in->op == OP_STORE) st = in, n++;
    }
    if (n != 1) return NULL;
    int bytes = dtype_info((DType)operand_type(f, st->args[1]).dtype)->bits / 8;
    return bytes == 2 || bytes == 4 ? st : NULL;
}

/* After the loop, per element of the accumulator's fragments: the ops
 * that depend on the loop's results, and the stores. A kernel's single
 * store goes out per pair of neighbouring columns (2t, 2t + 1): one
 * 2-element store where both masks hold and the addresses are
 * consecutive and aligned, else two masked ones. */
static void emit_epilogue(Attn *A) {
    const Function *f = A->f;
    const AttnPlan *P = A->P;
    const Loop *l = P->loop->loop;
    const Inst *pair = paired_store(A);
    ln(A, "#pragma unroll");
    ln(A, "for (int mt_mi = 0; mt_mi < %d; mt_mi++) {", P->MT);
    A->indent++;
    ln(A, "#pragma unroll");
    ln(A, "for (int mt_ni = 0; mt_ni < %d; mt_ni++) {", P->D / 8);
    A->indent++;
    DType pdt = DT_NONE;
    if (pair) {
        pdt = (DType)operand_type(f, pair->args[1]).dtype;
        ln(A, "%s mt_j[4];", A->index_type);
        ln(A, "bool mt_m[4];");
        ln(A, "%s mt_e[4];", c_mem_type(pdt, C_CUDA));
    }
    ln(A, "#pragma unroll");
    ln(A, "for (int mt_q = 0; mt_q < 4; mt_q++) {");
    A->indent++;
    ln(A, "const int mt_h = mt_q >> 1;");
    ln(A, "const int mt_r = mt_row0 + mt_mi * %d + (mt_lane >> 2) + mt_h * 8;", A->rstep);
    ln(A, "const int mt_c = mt_ni * 8 + (mt_lane & 3) * 2 + (mt_q & 1);");
    ln(A, "(void)mt_h, (void)mt_r, (void)mt_c;");
    int past = 0;
    for (int i = 0; i < f->body.items.len; i++) {
        const Inst *in = f->body.items.items[i];
        if (in == P->loop) {
            past = 1;
            continue;
        }
        if (!past) continue;
        if (in->op == OP_STORE) {
            int base = pointer_param(f, in->args[0]);
            DType dt = (DType)operand_type(f, in->args[1]).dtype;
            const char *idx = render(A, in->args[0], "mt_r", "mt_c", -1);
            const char *mask =
                in->args[2].kind == OPD_NONE ? NULL : render(A, in->args[2], "mt_r", "mt_c", -1);
            const char *val = in->args[1].kind == OPD_CONST
                                  ? c_const(A->a, const_convert(in->args[1].c, dt), C_CUDA)
                                  : render(A, in->args[1], "mt_r", "mt_c", -1);
            if (in == pair) {
                ln(A, "mt_j[mt_q] = %s;", idx);
                ln(A, "mt_m[mt_q] = %s;", mask ? mask : "true");
                ln(A, "mt_e[mt_q] = %s;", c_store(A->a, dt, C_CUDA, val));
                continue;
            }
            const char *st = arena_printf(A->a, "%s[%s] = %s;", A->pnames[base], idx,
                                          c_store(A->a, dt, C_CUDA, val));
            if (mask) ln(A, "if (%s) %s", mask, st);
            else ln(A, "%s", st);
            continue;
        }
        if (!P->epi[in->result]) continue;
        if (lane_of_result(l, in->result) >= 0) continue;
        DType dt = (DType)in->type.dtype;
        ln(A, "const %s v%d = %s;", c_type(dt), in->result, render_op(A, in, "mt_r", "mt_c", 0));
        A->nm[in->result] = arena_printf(A->a, "v%d", in->result);
    }
    close_n(A, 1);
    if (pair) {
        int base = pointer_param(f, pair->args[0]), bytes = dtype_info(pdt)->bits / 8;
        const char *bname = A->pnames[base], *mt = c_mem_type(pdt, C_CUDA);
        const char *u = bytes == 2 ? "unsigned" : "uint2";
        const char *al =
            A->param_div && A->param_div[base] >= 2 * bytes
                ? ""
                : arena_printf(A->a, " && (((uintptr_t)%s) & %d) == 0", bname, 2 * bytes - 1);
        ln(A, "#pragma unroll");
        ln(A, "for (int mt_p = 0; mt_p < 4; mt_p += 2) {");
        A->indent++;
        ln(A,
           "if (mt_m[mt_p] && mt_m[mt_p + 1] && mt_j[mt_p + 1] == mt_j[mt_p] + 1 && (mt_j[mt_p] & "
           "1) == 0%s) {",
           al);
        ln(A, "    __align__(%d) %s mt_w[2] = {mt_e[mt_p], mt_e[mt_p + 1]};", 2 * bytes, mt);
        ln(A, "    *reinterpret_cast<%s *>(&%s[mt_j[mt_p]]) = *reinterpret_cast<const %s *>(mt_w);",
           u, bname, u);
        ln(A, "} else {");
        ln(A, "    if (mt_m[mt_p]) %s[mt_j[mt_p]] = mt_e[mt_p];", bname);
        ln(A, "    if (mt_m[mt_p + 1]) %s[mt_j[mt_p + 1]] = mt_e[mt_p + 1];", bname);
        ln(A, "}");
        close_n(A, 1);
    }
    close_n(A, 2);
}

/* The carried values' registers and their initial values, and the trip
 * count (mt_start, mt_n). */
static void emit_carried(Attn *A) {
    const AttnPlan *P = A->P;
    const Loop *l = P->loop->loop;
    long long step = l->step.c.i;
    /* the carried values */
    ln(A, "float mt_o[%d][%d][4];", P->MT, P->D / 8);
    open_frag(A, P->D);
    ln(A, "mt_o[mt_mi][mt_ni][mt_q] = %s;", render(A, l->inits[P->acc_lane], "mt_r", "mt_c", -1));
    close_n(A, 3);
    for (int i = 0; i < l->ncarried; i++) {
        if (i == P->acc_lane) continue;
        ln(A, "float mt_c%d[%d][2];", i, P->MT);
        open_rows(A);
        ln(A, "mt_c%d[mt_mi][mt_h] = %s;", i, render(A, l->inits[i], "mt_r", "0", 0));
        close_n(A, 2);
    }
    for (int i = 0; i < l->ncarried; i++) {
        const char *e = i == P->acc_lane ? "mt_o[mt_mi][mt_ni][mt_q]"
                                         : arena_printf(A->a, "mt_c%d[mt_mi][mt_h]", i);
        A->nm[l->args[i]] = e;
        A->nm[l->results[i]] = e;
    }
    /* the trip count */
    ln(A, "const int mt_start = %s, mt_stop = %s;", render(A, l->start, "0", "0", -1),
       render(A, l->stop, "0", "0", -1));
    ln(A,
       "const int mt_n = mt_stop > mt_start ? (int)(((long long)mt_stop - mt_start + %lld) / %lld) "
       ": 0;",
       step - 1, step);
}

/* The mma.sync body (sm_80+, and every other target through the helpers'
 * fallbacks). */
static void emit_kernel_mma(Attn *A) {
    const AttnPlan *P = A->P;
    const Loop *l = P->loop->loop;
    int ld = P->ld;
    int kv_elems = 2 * P->BN * ld;
    const char *mt = c_mem_type(P->in_dt, C_CUDA);
    long long step = l->step.c.i;
    ln(A,
       "// two dots per iteration (attention): S (%d, %d) = (%d, %d) x (%d, %d)^T, acc (%d, %d) += "
       "S x (%d, %d), %s; %d warps of %d rows; k and v %s",
       P->BM, P->BN, P->BM, P->D, P->BN, P->D, P->BM, P->D, P->BN, P->D, mma_name(P), P->warps,
       16 * P->MT, P->stages > 1 ? "double-buffered" : "in one buffer");
    ln(A, "const int mt_lane = (int)threadIdx.x & 31, mt_warp = (int)threadIdx.x >> 5;");
    ln(A, "const int mt_row0 = mt_warp * %d;", 16 * P->MT);
    ln(A, "#if MT_ATTN_EMULATED");
    ln(A, "static __align__(16) unsigned char mt_smem[%d];", P->smem);
    ln(A, "#else");
    ln(A, "extern __shared__ __align__(16) unsigned char mt_smem[];");
    ln(A, "#endif");
    ln(A, "%s *const mt_sq = (%s *)mt_smem;", mt, mt);
    ln(A, "%s *const mt_kv = mt_sq + %d;", mt, P->BM * ld);
    /* q: copied once, its A fragments */
    emit_copy(A, P->ldq, P->BM, "mt_sq");
    ln(A, "mt_attn_commit();");
    ln(A, "mt_attn_wait<0>();");
    ln(A, "__syncthreads();");
    if (P->qregs) {
        ln(A, "unsigned mt_qf[%d][%d][4];", P->MT, P->D / 16);
        ln(A, "#pragma unroll");
        ln(A, "for (int mt_mi = 0; mt_mi < %d; mt_mi++)", P->MT);
        ln(A, "    #pragma unroll");
        ln(A, "    for (int mt_kk = 0; mt_kk < %d; mt_kk++)", P->D / 16);
        ln(A,
           "        mt_attn_ldsm4(mt_qf[mt_mi][mt_kk], mt_sq, (mt_row0 + mt_mi * 16 + (mt_lane & "
           "15)) * "
           "%d + mt_kk * 16 + (mt_lane >> 4) * 8);",
           ld);
    }
    emit_carried(A);
    /* iteration mt_t's k and v into buffer mt_b */
    ln(A, "auto mt_copy = [&](int mt_t, int mt_b) {");
    A->indent++;
    ln(A, "const int mt_k = mt_start + mt_t * %lld;", step);
    ln(A, "(void)mt_k;");
    ln(A, "%s *const mt_dk = mt_kv + mt_b * %d;", mt, kv_elems);
    ln(A, "%s *const mt_dv = mt_dk + %d;", mt, P->BN * ld);
    emit_copy(A, P->ldk, P->BN, "mt_dk");
    emit_copy(A, P->ldv, P->BN, "mt_dv");
    A->indent--;
    ln(A, "};");
    if (P->stages > 1) ln(A, "if (mt_n > 0) mt_copy(0, 0);"), ln(A, "mt_attn_commit();");
    ln(A, "for (int mt_t = 0; mt_t < mt_n; mt_t++) {");
    A->indent++;
    ln(A, "const int mt_k = mt_start + mt_t * %lld;", step);
    ln(A, "(void)mt_k;");
    if (P->stages > 1) {
        ln(A, "if (mt_t + 1 < mt_n) mt_copy(mt_t + 1, (mt_t + 1) & 1);");
        ln(A, "mt_attn_commit();");
        ln(A, "mt_attn_wait<1>();");
        ln(A, "__syncthreads();");
        ln(A, "const %s *const mt_sk = mt_kv + (mt_t & 1) * %d;", mt, kv_elems);
    } else {
        ln(A, "mt_copy(mt_t, 0);");
        ln(A, "mt_attn_commit();");
        ln(A, "mt_attn_wait<0>();");
        ln(A, "__syncthreads();");
        ln(A, "const %s *const mt_sk = mt_kv;", mt);
    }
    ln(A, "const %s *const mt_sv = mt_sk + %d;", mt, P->BN * ld);
    emit_body(A);
    ln(A, "__syncthreads(); /* the buffer is written again next iteration */");
    A->indent--;
    ln(A, "}");
    emit_epilogue(A);
}

/* The sm_90a body: warpgroup g of warps 4g .. 4g + 3 owns rows g * 64 MT ..
 * (blocks of 64 rows mt_mi, warp w % 4 rows 16 (w % 4) .. of each: the
 * wgmma accumulator layout, mma.sync's m16n8 per warp); q copied once
 * into swizzled columns; k and v copied num_stages - 1 iterations ahead
 * into a ring of num_stages buffers: at the top of an iteration the wait
 * and barrier, then the dots; the copies into the buffer the previous
 * iteration read are issued between the second dot's commit and its wait
 * (the tensor core busy meanwhile). */
static void emit_kernel_wg(Attn *A) {
    const AttnPlan *P = A->P;
    const Loop *l = P->loop->loop;
    const char *mt = c_mem_type(P->in_dt, C_CUDA);
    long long step = l->step.c.i;
    int R = P->wslots, stage = 2 * P->wkv;
    ln(A,
       "// sm_90a: two wgmma dots per iteration (attention): S (%d, %d) = (%d, %d) x (%d, %d)^T, "
       "acc "
       "(%d, %d) += S x (%d, %d), %s; %d warpgroup%s of %d rows; q, k, v %dB-swizzled; k and v in "
       "%d "
       "buffers",
       P->BM, P->BN, P->BM, P->D, P->BN, P->D, P->BM, P->D, P->BN, P->D, mma_name(P), P->warps / 4,
       P->warps > 4 ? "s" : "", 64 * P->MT, P->sw, R);
    /* the warp index through a shuffle: ptxas then knows it uniform over
     * the warp, and keeps the descriptors in uniform registers */
    ln(A, "const int mt_lane = (int)threadIdx.x & 31;");
    ln(A, "const int mt_warp = __shfl_sync(0xffffffffu, (int)threadIdx.x >> 5, 0);");
    ln(A, "const int mt_row0 = (mt_warp >> 2) * %d + (mt_warp & 3) * 16;", 64 * P->MT);
    /* the dynamic shared memory's base rounded up to 1024 bytes (the plan
     * asked for 1024 more) */
    ln(A, "extern __shared__ __align__(1024) unsigned char mt_smem[];");
    ln(A,
       "%s *const mt_sq = (%s *)(mt_smem + ((1024u - ((unsigned)__cvta_generic_to_shared(mt_smem) "
       "& "
       "1023u)) & 1023u));",
       mt, mt);
    ln(A, "%s *const mt_kv = mt_sq + %d;", mt, P->wq / 2);
    emit_copy(A, P->ldq, P->BM, "mt_sq");
    ln(A, "mt_attn_commit();");
    ln(A, "mt_attn_wait<0>();");
    ln(A, "mt_fence_proxy_async();");
    ln(A, "__syncthreads();");
    /* descriptors: q at the warpgroup's rows, k and v of buffer 0 (a
     * buffer, a k-step and a 64-row block add their offsets >> 4) */
    ln(A,
       "const unsigned long long mt_dq = mt_wgmma_desc((unsigned)__cvta_generic_to_shared(mt_sq) + "
       "(mt_warp >> 2) * %du, 16, %d, %d);",
       64 * P->MT * P->sw, 8 * P->sw, P->swcode);
    ln(A, "const unsigned mt_s0 = (unsigned)__cvta_generic_to_shared(mt_kv);");
    ln(A, "const unsigned long long mt_dk0 = mt_wgmma_desc(mt_s0, 16, %d, %d);", 8 * P->sw,
       P->swcode);
    ln(A, "const unsigned long long mt_dv0 = mt_wgmma_desc(mt_s0 + %du, %d, %d, %d);", P->wkv,
       P->BN * P->sw, 8 * P->sw, P->swcode);
    emit_carried(A);
    ln(A, "auto mt_copy = [&](int mt_t, int mt_b) {");
    A->indent++;
    ln(A, "const int mt_k = mt_start + mt_t * %lld;", step);
    ln(A, "(void)mt_k;");
    ln(A, "%s *const mt_dk = mt_kv + mt_b * %d;", mt, stage / 2);
    ln(A, "%s *const mt_dv = mt_dk + %d;", mt, P->wkv / 2);
    emit_copy(A, P->ldk, P->BN, "mt_dk");
    emit_copy(A, P->ldv, P->BN, "mt_dv");
    A->indent--;
    ln(A, "};");
    ln(A, "#pragma unroll");
    ln(A, "for (int mt_p = 0; mt_p < %d; mt_p++) {", R - 1);
    ln(A, "    if (mt_p < mt_n) mt_copy(mt_p, mt_p);");
    ln(A, "    mt_attn_commit();");
    ln(A, "}");
    ln(A, "for (int mt_t = 0; mt_t < mt_n; mt_t++) {");
    A->indent++;
    ln(A, "const int mt_k = mt_start + mt_t * %lld;", step);
    ln(A, "(void)mt_k;");
    ln(A, "mt_attn_wait<%d>();", R - 2);
    ln(A, "mt_fence_proxy_async();");
    ln(A, "__syncthreads();");
    /* iteration t + R - 1's copies into the buffer iteration t - 1 read
     * (every warp has waited for its dots: the barrier), issued after the
     * second dot (the tensor core busy meanwhile) */
    A->dot2_overlap =
        arena_printf(A->a, "if (mt_t + %d < mt_n) mt_copy(mt_t + %d, (mt_t + %d) %% %d);", R - 1,
                     R - 1, R - 1, R);
    ln(A, "const unsigned mt_so = (unsigned)(mt_t %% %d) * %du;", R, stage >> 4);
    ln(A, "const unsigned long long mt_dk = mt_dk0 + mt_so, mt_dv = mt_dv0 + mt_so;");
    emit_body(A);
    A->dot2_overlap = NULL;
    A->indent--;
    ln(A, "}");
    emit_epilogue(A);
}

const char *emit_cuda_attn(Arena *a, const Function *f, const AttnPlan *plan, const char *symbol,
                           const int *param_div) {
    AttnPlan P = *plan;
    Attn A;
    memset(&A, 0, sizeof A);
    A.a = a;
    A.f = f;
    A.P = &P;
    A.cb.a = a;
    A.cb.f = f;
    A.pnames = c_param_names(a, f);
    A.param_div = param_div;
    A.sname = ARENA_ARRAY(a, const char *, f->nvalues + 1);
    A.nm = ARENA_ARRAY(a, const char *, f->nvalues + 1);
    A.base = ARENA_ARRAY(a, const char *, f->nvalues + 1);
    memset(A.sname, 0, sizeof(const char *) * ((size_t)f->nvalues + 1));
    memset(A.nm, 0, sizeof(const char *) * ((size_t)f->nvalues + 1));
    memset(A.base, 0, sizeof(const char *) * ((size_t)f->nvalues + 1));
    A.index_type = "int";
    for (int i = 0; i < f->nvalues; i++)
        if (f->defs[i] && f->defs[i]->op == OP_ADDPTR &&
            dtype_info((DType)operand_type(f, f->defs[i]->args[1]).dtype)->bits == 64)
            A.index_type = "long long";
    sb_init(&A.pre, a);
    StrBuf body;
    sb_init(&body, a);
    A.out = &body;
    A.indent = 1;
    int T = 32 * P.warps;
    A.rstep = 16;
    if (P.wg) {
        A.wg = 1;
        A.rstep = 64;
        ln(&A, "#if MT_WGMMA_SM90");
        emit_kernel_wg(&A);
        ln(&A, "#else");
        /* the mma.sync body starts afresh */
        memset(A.nm, 0, sizeof(const char *) * ((size_t)f->nvalues + 1));
        memset(A.base, 0, sizeof(const char *) * ((size_t)f->nvalues + 1));
        A.wg = 0;
        A.rstep = 16;
    }
    emit_kernel_mma(&A);
    if (P.wg) ln(&A, "#endif");

    StrBuf out;
    sb_init(&out, a);
    sb_puts(&out, attn_helpers(a, &P));
    const char *code = arena_printf(a, "%s%s", sb_str(&A.pre), sb_str(&body));
    sb_puts(&out, c_triton_helpers(a, code));
    sb_puts(&out, asm_cuda_helpers(a, f, code));
    sb_printf(&out, "extern \"C\" __global__ MT_ATTN_BOUNDS(%d)\nvoid %s(", T, symbol);
    for (int i = 0; i < f->nparams; i++)
        sb_printf(&out, "%s%s %s", i ? ", " : "", c_param_type(a, f->params[i].type), A.pnames[i]);
    sb_puts(&out, ") {\n");
    sb_puts(&out, sb_str(&A.pre));
    sb_puts(&out, sb_str(&body));
    sb_puts(&out, "}\n");
    return sb_str(&out);
}
