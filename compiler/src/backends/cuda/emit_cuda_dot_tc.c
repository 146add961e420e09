/* -O2's tensor cores for one tl.dot of the blocked emitter (docs/dot.md
 * "One dot on tensor cores"). emit_cuda_blocked.c's emit_dot asks this
 * file first; what it does not take (f64, ieee f32, tf32x3, mixed operand
 * dtypes, shapes not multiples of the instruction, batched dots) stays on
 * the CUDA cores there, and the CUDA-core loop is the `#else` of the
 * architecture test (below sm_80, sm_89 for fp8, and nvcc's host pass).
 *
 * The surroundings of the dot keep the kernel's blocked layout: its
 * operands' elements are written once to the shared pool, A as A[m][k]
 * and B transposed as Bt[n][k], rows of ldw 4-byte words; a non-zero
 * accumulator goes to an f32 (int32) buffer of the result's shape by the
 * threads holding it. The program's warps, a wm x wn grid over the
 * result's 16 x 8 tiles, each hold their tiles' mma.sync accumulators in
 * registers over the K loop; every fragment register is one 32-bit shared
 * load, the same rule for every dtype (g = lane / 4, t = lane % 4): A's
 * register r the word (row g + 8 (r & 1), k-word t + 4 (r >> 1)) of the
 * 16-row tile, B's register r the word (column g, k-word t + 4 r) of the
 * 8-column tile, the accumulator's element q at (row g + 8 (q >> 1),
 * column 2t + (q & 1)): m16n8k16 f16/bf16, m16n8k8 tf32, m16n8k32 s8 and
 * fp8 alike. The warps store their accumulators to the buffer and every
 * thread reads its elements of the result back in the blocked layout. */
#include <stdlib.h>
#include <string.h>

#include "cgen/cgen.h"
#include "backends/cuda/cuda_dot_tc.h"
#include "backends/cuda/cuda_mma.h"

enum { DOT_TC_PAD_WORDS = 4, DOT_TC_KSTEP_WORDS = 8, DOT_TC_FULL_UNROLL = 16 };

/* A zeros block or a full of 0 (the frontend's absent accumulator). */
static int zero_block(const Function *f, Operand o) {
    const Inst *d = o.kind == OPD_VALUE ? f->defs[o.id] : NULL;
    if (!d) return 0;
    if (d->op == OP_ZEROS) return 1;
    return d->op == OP_FULL && d->args[0].kind == OPD_CONST && d->args[0].c.i == 0 &&
           d->args[0].c.f == 0;
}

/* A reason, in arena a (without one: "", as cuda_dot_tc_plan asks only
 * whether). */
#define WHY(...) (a ? arena_printf(a, __VA_ARGS__) : "")

/* Why dot `in` does not take the path (NULL: it does, P filled). */
static const char *plan_why(Arena *a, const Function *f, const Inst *in, DotTc *P) {
    memset(P, 0, sizeof *P);
    if (in->attrs.axis > 1) return "a batched (rank-3) dot";
    Type xt = operand_type(f, in->args[0]), yt = operand_type(f, in->args[1]);
    if (in->nargs < 3 || xt.rank != 2 || yt.rank != 2 || in->type.rank != 2)
        return "operands of rank other than 2";
    DType it = (DType)xt.dtype, ot = (DType)in->type.dtype;
    if (xt.dtype != yt.dtype)
        return WHY("mixed operand dtypes (%s by %s)", dtype_name(it), dtype_name((DType)yt.dtype));
    DType acc = it == DT_I8 ? DT_I32 : DT_F32;
    const MmaShape *S = cuda_mma_shape(it, acc, in->attrs.flag);
    if (it == DT_F32 && in->attrs.flag == DOT_IEEE)
        return "input_precision=\"ieee\" (f32 products, as Triton computes them too)";
    if (it == DT_F32 && in->attrs.flag == DOT_TF32X3)
        return "input_precision=\"tf32x3\" (three products per element, not yet on this path)";
    if (!S || !S->ptx || S->split)
        return WHY("%s operands have no tensor-core instruction", dtype_name(it));
    if (acc == DT_I32 ? ot != DT_I32 : ot != DT_F32 && ot != DT_F16 && ot != DT_BF16)
        return WHY("a %s accumulator", dtype_name(ot));
    int M = xt.dims[0], K = xt.dims[1], N = yt.dims[1];
    if (yt.dims[0] != K || M % 16 || N % 8 || K % S->k)
        return WHY(
            "its shape (M %d, N %d, K %d): %s needs M a multiple of 16, N of "
            "8 and K of %d",
            M, N, K, S->ptx, S->k);
    P->shape = S;
    P->M = M, P->N = N, P->K = K;
    P->ldw = K * (dtype_info(it)->bits / 8) / 4 + DOT_TC_PAD_WORDS;
    P->ldc = N + DOT_TC_PAD_WORDS;
    P->zero = zero_block(f, in->args[2]);
    int ab = M * P->ldw * 4, bb = N * P->ldw * 4, cb = M * P->ldc * 4;
    P->b_off = ab;
    P->c_off = P->zero ? 0 : ab + bb; /* (a zero accumulator's buffer: after the K loop) */
    P->bytes = P->zero ? (ab + bb > cb ? ab + bb : cb) : ab + bb + cb;
    if (P->bytes > MMA_MAX_SMEM)
        return WHY(
            "its operands and accumulator need %d bytes of shared memory, "
            "more than the %d of a block",
            P->bytes, MMA_MAX_SMEM);
    return NULL;
}

int cuda_dot_tc_plan(const Function *f, const Inst *in, DotTc *P) {
    return plan_why(NULL, f, in, P) == NULL;
}

const char *cuda_dot_tc_why(Arena *a, const Function *f, const Inst *in, DotTc *P) {
    return plan_why(a, f, in, P);
}

/* The wm x wn warp grid over mt x nt tiles of 16 x 8 (wm | mt, wn | nt):
 * the most warps, then the squarest per-warp block. 0: none. */
static int warp_grid(int mt, int nt, int warps, int *wm, int *wn) {
    int best = 0, bd = 0;
    for (int m = 1; m <= warps && m <= mt; m++) {
        for (int n = 1; m * n <= warps && n <= nt; n++) {
            if (mt % m || nt % n) continue;
            int d = abs(16 * (mt / m) - 8 * (nt / n));
            if (m * n > best || (m * n == best && d < bd)) best = m * n, bd = d, *wm = m, *wn = n;
        }
    }
    return best;
}

/* for (v = 0; v < n; v++), unrolled, opening a line (closed by the caller's
 * statement). */
static void unrolled(CudaB *C, const char *v, int n) {
    cb_line(C, "#pragma unroll");
    cb_line(C, "for (int %s = 0; %s < %d; %s++)", v, v, n, v);
}

/* The accumulator element (mi, ni, q) of the warp in the buffer. */
static const char *acc_at(CudaB *C, const DotTc *P) {
    return arena_printf(C->a,
                        "mt_dacc[(mt_dm + mi * 16 + mt_dg + q / 2 * 8) * %d + mt_dn + ni * 8 + "
                        "2 * mt_dt + q %% 2]",
                        P->ldc);
}

/* The warp's K loop: per k-step of 8 words, its A and B fragments (one
 * 32-bit shared load each) and one mma.sync per 16 x 8 tile. */
static void k_loop(CudaB *C, const DotTc *P, int mi, int ni) {
    const MmaShape *S = P->shape;
    int kw = P->ldw - DOT_TC_PAD_WORDS, steps = kw / DOT_TC_KSTEP_WORDS;
    const char *mma = arena_printf(C->a, S->ldsm_b ? "mt_mma16816_%s" : "mt_mma_tile_%s", S->name);
    cb_line(C, "const unsigned char *const mt_dpa = mt_dsa + ((mt_dm + mt_dg) * %d + mt_dt) * 4;",
            P->ldw);
    cb_line(C, "const unsigned char *const mt_dpb = mt_dsb + ((mt_dn + mt_dg) * %d + mt_dt) * 4;",
            P->ldw);
    if (steps <= DOT_TC_FULL_UNROLL) cb_line(C, "#pragma unroll");
    else cb_line(C, "#pragma unroll 4");
    cb_line(C, "for (int mt_dk = 0; mt_dk < %d; mt_dk += %d) {", kw, DOT_TC_KSTEP_WORDS);
    C->indent++;
    cb_line(C, "unsigned mt_da[%d][4], mt_db[%d][2];", mi, ni);
    unrolled(C, "mi", mi);
    C->indent++;
    unrolled(C, "r", 4);
    cb_line(C,
            "    mt_da[mi][r] = mt_lds32(mt_dpa + ((mi * 16 + r %% 2 * 8) * %d + mt_dk + r / 2 * "
            "4) * 4);",
            P->ldw);
    C->indent--;
    unrolled(C, "ni", ni);
    C->indent++;
    unrolled(C, "r", 2);
    cb_line(C, "    mt_db[ni][r] = mt_lds32(mt_dpb + (ni * %d + mt_dk + r * 4) * 4);", 8 * P->ldw);
    C->indent--;
    unrolled(C, "mi", mi);
    C->indent++;
    unrolled(C, "ni", ni);
    cb_line(C, "    %s(mt_dc[mi][ni], mt_da[mi], mt_db[ni][0], mt_db[ni][1]);", mma);
    C->indent--;
    C->indent--;
    cb_line(C, "}");
}

/* The warp's accumulators from (load 1) or to (0) the buffer. */
static void acc_copy(CudaB *C, const DotTc *P, int mi, int ni, int load) {
    unrolled(C, "mi", mi);
    C->indent++;
    unrolled(C, "ni", ni);
    C->indent++;
    unrolled(C, "q", 4);
    if (load) cb_line(C, "    mt_dc[mi][ni][q] = %s;", acc_at(C, P));
    else cb_line(C, "    %s = mt_dc[mi][ni][q];", acc_at(C, P));
    C->indent -= 2;
}

/* The warps' part: wm x wn warps of mi x ni tiles each; the others only
 * meet the barriers. */
static void warps_part(CudaB *C, const DotTc *P, int wm, int wn) {
    int mi = P->M / 16 / wm, ni = P->N / 8 / wn, warps = C->tile->block_threads / 32;
    const char *tid = C->tid, *T = P->shape->acc == DT_I32 ? "int" : "float";
    cb_line(C, "const int mt_dwarp = %s / 32, mt_dg = %s %% 32 / 4, mt_dt = %s %% 4;", tid, tid,
            tid);
    cb_line(C, "const int mt_dm = mt_dwarp / %d * %d, mt_dn = mt_dwarp %% %d * %d;", wn, mi * 16,
            wn, ni * 8);
    cb_line(C, "%s mt_dc[%d][%d][4] = {};", T, mi, ni);
    const char *busy = wm * wn < warps ? arena_printf(C->a, "mt_dwarp < %d", wm * wn) : NULL;
    if (busy) cb_line(C, "if (%s) {", busy);
    else cb_line(C, "{");
    C->indent++;
    if (!P->zero) acc_copy(C, P, mi, ni, 1);
    k_loop(C, P, mi, ni);
    C->indent--;
    cb_line(C, "}");
    cb_line(C, "__syncthreads(); /* (the operands read) */");
    if (busy) cb_line(C, "if (%s) {", busy);
    else cb_line(C, "{");
    C->indent++;
    acc_copy(C, P, mi, ni, 0);
    C->indent--;
    cb_line(C, "}");
    cb_line(C, "__syncthreads();");
}

const char *cuda_dot_tc_fit(Arena *a, const DotTc *P, const TileInfo *t, int progs) {
    int threads = t->block_threads, wm = 0, wn = 0;
    if (progs > 1) return "the block holds several programs";
    if (threads % 32) return WHY("the block's %d threads are not whole warps", threads);
    if (!t->smem_pool) return "the kernel stages no shared pool";
    if (!warp_grid(P->M / 16, P->N / 8, threads / 32, &wm, &wn))
        return WHY("no grid of its %d warps divides its %d x %d tiles of 16 x 8", threads / 32,
                   P->M / 16, P->N / 8);
    return NULL;
}

const char *cuda_dot_describe(Arena *a, const Function *f, const Inst *in) {
    Type xt = operand_type(f, in->args[0]), yt = operand_type(f, in->args[1]);
    const char *prec = "";
    if (xt.dtype == DT_F32)
        prec = in->attrs.flag == DOT_IEEE     ? " (ieee)"
               : in->attrs.flag == DOT_TF32X3 ? " (tf32x3)"
                                              : " (tf32)";
    if (in->attrs.axis > 1)
        return arena_printf(a, "tl.dot of %d batches (%d x %d) @ (%d x %d) %s%s -> %s",
                            in->attrs.axis, xt.dims[0] / in->attrs.axis, xt.dims[1],
                            yt.dims[0] / in->attrs.axis, yt.dims[1], dtype_name((DType)xt.dtype),
                            prec, dtype_name((DType)in->type.dtype));
    return arena_printf(a, "tl.dot (%d x %d) @ (%d x %d) %s%s%s%s -> %s", xt.dims[0], xt.dims[1],
                        yt.dims[0], yt.dims[1], dtype_name((DType)xt.dtype),
                        yt.dtype != xt.dtype ? " by " : "",
                        yt.dtype != xt.dtype ? dtype_name((DType)yt.dtype) : "", prec,
                        dtype_name((DType)in->type.dtype));
}

const char *cuda_dot_tc_taken(Arena *a, const DotTc *P, const TileInfo *t) {
    int wm = 0, wn = 0;
    warp_grid(P->M / 16, P->N / 8, t->block_threads / 32, &wm, &wn);
    return arena_printf(a, "%s, %d x %d warps of %d x %d, operands staged in shared memory",
                        P->shape->ptx, wm, wn, P->M / wm, P->N / wn);
}

int cuda_dot_tc_open(CudaB *C, const Inst *in, const DotTc *P) {
    const MmaShape *S = P->shape;
    int threads = C->tile->block_threads, wm = 0, wn = 0;
    if (cuda_dot_tc_fit(NULL, P, C->tile, C->progs)) return 0; /* (the caller asked already) */
    warp_grid(P->M / 16, P->N / 8, threads / 32, &wm, &wn);
    int epw = 32 / dtype_info(S->in)->bits; /* elements per word */
    if (S->sm > 80)
        cb_line(C, "#if (MT_MMA_TILE_SM80 && __CUDA_ARCH__ >= %d) || MT_MMA_TILE_EMULATED",
                S->sm * 10);
    else cb_line(C, "#if MT_MMA_TILE_SM80 || MT_MMA_TILE_EMULATED");
    cb_line(C, "{");
    C->indent++;
    cb_line(C, "/* tl.dot on tensor cores: %s, %d x %d warps of %d x %d */", S->ptx, wm, wn,
            P->M / wm, P->N / wn);
    const char *T = c_mem_type(S->in, C_CUDA), *AT = S->acc == DT_I32 ? "int" : "float";
    cb_line(C, "unsigned char *const mt_dsa = mt_smem, *const mt_dsb = mt_smem + %d;", P->b_off);
    cb_line(C, "%s *const mt_dacc = (%s *)(mt_smem + %d);", AT, AT, P->c_off);
    cb_dot_stage(C, in, 0, arena_printf(C->a, "((%s *)mt_dsa)", T), P->ldw * epw, 1);
    cb_dot_stage(C, in, 1, arena_printf(C->a, "((%s *)mt_dsb)", T), 1, P->ldw * epw);
    if (!P->zero) cb_dot_tile_io(C, in, "mt_dacc", P->ldc, 1);
    cb_line(C, "__syncthreads();");
    warps_part(C, P, wm, wn);
    cb_dot_tile_io(C, in, "mt_dacc", P->ldc, 0);
    C->indent--;
    cb_line(C, "}");
    cb_line(C, "#else");
    return 1;
}

const char *cuda_dot_tc_helpers(Arena *a, const char *code) {
    if (!strstr(code, "/* tl.dot on tensor cores: ")) return "";
    return arena_printf(a, "%s%s", cuda_mma_helpers(), cuda_mma_perm_helpers(a));
}
