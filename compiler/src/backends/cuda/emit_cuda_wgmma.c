/* The sm_90a branch of -O2's tensor-core path of large tiles (docs/dot.md,
 * "wgmma on sm_90a"): the kernels emit_cuda_mma.c takes, with f16 or
 * bf16 operands, an f32 accumulator and a tile that fits the rules below,
 * get a second body under `#if MT_WGMMA_SM90` (sm_90a's
 * __CUDA_ARCH_FEAT_SM90_ALL); the mma.sync body stays the #else.
 *
 * The warps form warpgroups of 4 (the unit of wgmma), gm x gn of them
 * over the accumulator, along M first: each holds a (wm, wn) sub-tile
 * (wm a multiple of 64, wn <= 256) in registers for the whole loop, in
 * wgmma's D layout, which is mma.sync's m16n8 layout per warp: warp w of
 * the warpgroup has rows 16 w .. 16 w + 15 of every 64-row block, per 8
 * columns 4 floats (rows lane / 4 and + 8, columns 2 (lane % 4) and + 1).
 * So the accumulator array, its init and the epilogue are
 * emit_cuda_mma.c's with another frag_* layout.
 *
 * Per iteration and k-step of 32 bytes, one `wgmma.mma_async
 * m64n<wn>k16` (fp8: k32) per 64 rows reads both operands from shared
 * memory through matrix descriptors: A (BM, BK) K-major, B (BK, BN)
 * N-major (the instruction's transpose-B flag) or, where B is contiguous
 * along k (emit_cuda_mma.c's bt), K-major as A, stored (BN, BK); fp8 takes
 * K-major B alone (its wgmma has no transpose). Each operand is in the
 * canonical swizzled layout of the widest
 * swizzle (128, 64 or 32 bytes) that divides its contiguous extent (BK,
 * the warpgroup's wn): the block stored as columns of that width, each
 * column's rows of `sw` bytes, the 16-byte chunk index of an offset (bits
 * 4..) XORed with its 128-byte line index (bits 7..), 3, 2 or 1 bits for
 * 128, 64 or 32 bytes (the hardware's swizzle of absolute addresses: each
 * column starts on its pattern, 8 rows of `sw` bytes, the buffers on 1024).
 * Descriptors: start address >> 4, leading byte offset (K-major: unused
 * with a swizzle, 16; N-major: the distance between columns of `sw`
 * bytes), stride byte offset (8 rows of `sw` bytes), swizzle mode.
 *
 * The copies are emit_cuda_mma.c's cp.async / element-wise groups of 8
 * with a swizzled destination. The ring: copies run `dist` iterations
 * ahead, one wgmma group in flight past each wait (the element-wise
 * copies' stores, which wgmma reads through the async proxy, fenced by the
 * thread that stored them). Iteration t: wait for its copies,
 * __syncthreads, the wgmma's (descriptors from a warp-uniform warpgroup
 * index), commit,
 * then either (early) the copies of iteration t + dist and wgmma
 * wait_group 1, the copies overwriting iteration t - 2's slot (slots =
 * dist + 2; the __syncthreads above follows every warpgroup's wait for
 * it), or (late) wgmma wait_group 1, __syncthreads, the copies into
 * iteration t - 1's slot (slots = dist + 1, num_stages as Triton's ring).
 * Early issues the copies sooner; late is taken where its smaller ring
 * lets more blocks share an SM (128 x 128 x 64, 4 warps, 3 stages: two
 * blocks of 97 KiB against one of 129 KiB).
 *
 * With tl.range(..., warp_specialize=True) on the K loop, a producer
 * warpgroup copies and the other warps compute, the slots handed over by
 * mbarriers (ws_loop). */
#include <ctype.h>
#include <string.h>

#include "backends/cuda/cuda_mma.h"
#include "backends/cuda/cuda_wgmma.h"

/* The widest swizzle whose rows divide a contiguous extent of `bytes`
 * (a multiple of 32: extents are multiples of 16 two-byte elements);
 * its descriptor code (PTX: 1 128B, 2 64B, 3 32B) and the mask of the
 * XOR (128-byte lines per swizzle pattern - 1). */
static const struct { int bytes, code, mask; } SWIZZLES[] = {{128, 1, 7}, {64, 2, 3}, {32, 3, 1}};

static int swizzle_of(int bytes) {
    for (int i = 0; i < (int)(sizeof SWIZZLES / sizeof SWIZZLES[0]); i++)
        if (bytes % SWIZZLES[i].bytes == 0) return i;
    return -1;
}

static int round_up(int x, int m) { return (x + m - 1) / m * m; }

/* The warp-specialized body's producer: one warpgroup. Its copies' hoisted
 * indices live in registers (at most 32 groups of an operand per thread,
 * as in the other bodies), and more than 8 warps leave every thread 168
 * registers (a quarter of the SM's registers over at most 3 warps per
 * scheduler), which the computing warps' accumulators need. */
enum { WS_PRODUCERS = 128 };

/* Blocks of `smem` bytes and `warps` warps an sm_90 SM holds at once, by
 * shared memory (228 KiB, 1 KiB reserved per block) and threads (2048). */
static int blocks_per_sm(int smem, int warps) {
    int by_smem = MMA_SM90_SMEM_PER_SM / (smem + 1024), by_threads = 64 / warps;
    return by_smem < by_threads ? by_smem : by_threads;
}

/* The warp-specialized ring's shared memory: the slots, the base aligned
 * up to 1024 bytes, a full and an empty mbarrier per slot after them. */
static int ws_smem(const WgmmaPlan *W, int slots) { return slots * W->stage + 1024 + 16 * slots; }

void wgmma_plan(MmaPlan *P, int stages) {
    WgmmaPlan *W = &P->wg;
    memset(W, 0, sizeof *W);
    int fp8 = dtype_is_fp8(P->in_dt), eb = dtype_info(P->in_dt)->bits / 8;
    if (!(P->in_dt == DT_F16 || P->in_dt == DT_BF16 || (fp8 && P->bt)) || P->warps % 4) return;
    /* warpgroups along M while the rows split into multiples of 64 (as
     * Triton's mmav3 warps), the rest along N */
    int groups = P->warps / 4, gm = groups;
    while (gm > 1 && P->BM % (64 * gm)) gm /= 2;
    int gn = groups / gm;
    if (P->BM % (64 * gm) || P->BN % (16 * gn)) return;
    W->gm = gm;
    W->gn = gn;
    W->wm = P->BM / gm;
    W->wn = P->BN / gn;
    if (W->wn > 256) return;
    if (P->BK * eb % 32) return; /* whole instructions of k */
    int sa = swizzle_of(P->BK * eb), sb = swizzle_of(P->bt ? P->BK * eb : W->wn * eb);
    if (sa < 0 || sb < 0) return;
    W->swa = SWIZZLES[sa].bytes;
    W->swb = SWIZZLES[sb].bytes;
    W->a_bytes = round_up(P->BM * P->BK * eb, 1024);
    W->stage = W->a_bytes + round_up(P->BK * P->BN * eb, 1024);
    /* num_stages - 1 iterations ahead as the mma.sync ring, fewer while
     * above sm_90's shared memory (the launcher asks for this ring on sm_90
     * devices, for the mma.sync one elsewhere) */
    W->dist = stages > 2 ? stages - 1 : 1;
    while (W->dist > 1 && (W->dist + 1) * W->stage + 1024 > MMA_MAX_SMEM_SM90) W->dist--;
    /* the copies issued right after the wgmma's (before waiting for the
     * previous iteration's: one more buffer) unless the smaller ring
     * lets more blocks share an SM */
    int late = (W->dist + 1) * W->stage + 1024, early = late + W->stage;
    W->early = early <= MMA_MAX_SMEM_SM90 &&
               blocks_per_sm(early, P->warps) >= blocks_per_sm(late, P->warps);
    W->slots = W->dist + 1 + W->early;
    W->smem = W->slots * W->stage + 1024;
    W->threads = 32 * P->warps;
    W->on = W->smem <= MMA_MAX_SMEM_SM90;
    /* warp-specialized: a producer warpgroup more, num_stages slots (at
     * least 2; fewer while above sm_90's shared memory), one more while
     * the blocks an SM holds stay as many */
    /* (not in a loop over tiles: its producers copy one tile's blocks) */
    if (!P->loop->loop->warp_specialize || P->outer) return;
    W->producers = WS_PRODUCERS;
    int ws_threads = 32 * P->warps + W->producers, slots = stages > 2 ? stages : 2;
    while (slots > 2 && ws_smem(W, slots) > MMA_MAX_SMEM_SM90) slots--;
    if (ws_threads > 1024 || ws_smem(W, slots) > MMA_MAX_SMEM_SM90) return;
    if (ws_smem(W, slots + 1) <= MMA_MAX_SMEM_SM90 &&
        blocks_per_sm(ws_smem(W, slots + 1), ws_threads / 32) >=
            blocks_per_sm(ws_smem(W, slots), ws_threads / 32))
        slots++;
    W->ws = 1;
    W->on = 1;
    W->slots = slots;
    W->smem = ws_smem(W, slots);
    W->threads = ws_threads;
}

static const char *dt_name(DType dt) {
    return dt == DT_F16 ? "f16" : dt == DT_BF16 ? "bf16" : dt == DT_F8E4NV ? "e4m3" : "e5m2";
}

int wgmma_swizzle(int bytes, int *code) {
    int s = swizzle_of(bytes);
    if (s < 0) return 0;
    if (code) *code = SWIZZLES[s].code;
    return SWIZZLES[s].bytes;
}

/* Per variant of the instruction: the helper's name prefix and its
 * include guard's, A from registers (else a descriptor), B's transpose
 * flag. */
static const struct {
    const char *prefix, *guard;
    int a_regs, trans_b;
} WGMMA_FORMS[] = {
    [WGMMA_SS_MN] = {"mt_wgmma", "MT_WGMMA", 0, 1},
    [WGMMA_SS_K] = {"mt_wgmma_kb", "MT_WGMMA_KB", 0, 0},
    [WGMMA_RS_MN] = {"mt_wgmma_rs", "MT_WGMMA_RS", 1, 1},
};

/* wgmma m64n<n>k16, D += A B, A from shared memory (K-major) or from
 * registers (mma.sync's A fragment per warp: 4 words of two 16-bit
 * elements), B from shared memory, K-major or N-major (transpose flag):
 * the n / 2 floats of the thread's fragment. */
const char *wgmma_instr(Arena *a, WgmmaForm form, int n, DType dt) {
    StrBuf sb;
    sb_init(&sb, a);
    const char *t = dt_name(dt), *pre = WGMMA_FORMS[form].prefix;
    int ar = WGMMA_FORMS[form].a_regs, regs = n / 2, k = 32 * 8 / dtype_info(dt)->bits;
    const char *g = WGMMA_FORMS[form].guard;
    sb_printf(&sb, "#if MT_WGMMA_SM90 && !defined(%s_N%d_%s)\n#define %s_N%d_%s\n", g, n, t, g, n,
              t);
    sb_printf(&sb,
              "static __device__ __forceinline__ void %s_n%d_%s(float (&d)[%d][4], %s, "
              "unsigned long long b) {\n",
              pre, n, t, n / 8, ar ? "const unsigned (&a)[4]" : "unsigned long long a");
    sb_printf(&sb, "    asm volatile(\"wgmma.mma_async.sync.aligned.m64n%dk%d.f32.%s.%s {\"\n", n,
              k, t, t);
    for (int i = 0; i < regs; i += 8) {
        sb_puts(&sb, "                 \"");
        for (int j = i; j < i + 8 && j < regs; j++)
            sb_printf(&sb, "%%%d%s", j, j + 1 < regs ? ", " : "");
        sb_puts(&sb, "\"\n");
    }
    if (ar)
        sb_printf(&sb, "                 \"}, {%%%d, %%%d, %%%d, %%%d}, %%%d, 1, 1, 1, %d;\"\n",
                  regs, regs + 1, regs + 2, regs + 3, regs + 4, WGMMA_FORMS[form].trans_b);
    else if (k == 32) /* 8-bit operands: K-major, no transpose immediates */
        sb_printf(&sb, "                 \"}, %%%d, %%%d, 1, 1, 1;\"\n", regs, regs + 1);
    else
        sb_printf(&sb, "                 \"}, %%%d, %%%d, 1, 1, 1, 0, %d;\"\n", regs, regs + 1,
                  WGMMA_FORMS[form].trans_b);
    for (int i = 0; i < regs; i += 4) {
        sb_puts(&sb, i ? "                   " : "                 : ");
        for (int j = i; j < i + 4 && j < regs; j++)
            sb_printf(&sb, "\"+f\"(d[%d][%d])%s", j / 4, j % 4, j + 1 < regs ? ", " : "");
        sb_puts(&sb, "\n");
    }
    if (ar)
        sb_puts(&sb,
                "                 : \"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3]), "
                "\"l\"(b));\n}\n#endif\n");
    else sb_puts(&sb, "                 : \"l\"(a), \"l\"(b));\n}\n#endif\n");
    return sb_str(&sb);
}

const char *wgmma_common_helpers(void) {
    return "#ifndef MT_WGMMA_HELPERS\n#define MT_WGMMA_HELPERS\n"
           "#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)\n"
           "#define MT_WGMMA_SM90 1\n"
           "/* the swizzle of a byte offset from a 1024-byte aligned base: bits 4.. of\n"
           " * the 16-byte chunk XOR the 128-byte line's bits (mask: 7 128B, 3 64B, 1 32B) */\n"
           "static __device__ __forceinline__ int mt_swz(int o, int mask) {\n"
           "    return o ^ (((o >> 7) & mask) << 4);\n}\n"
           "/* a wgmma matrix descriptor: start address, leading and stride byte offsets\n"
           " * (each >> 4, 14 bits), swizzle mode in bits 62-63 (base offset 0: every\n"
           " * swizzle pattern starts 1024-byte aligned) */\n"
           "static __device__ __forceinline__ unsigned long long mt_wgmma_desc(unsigned addr, "
           "unsigned lbo,\n"
           "                                                                   unsigned sbo, "
           "unsigned mode) {\n"
           "    return (unsigned long long)((addr & 0x3FFFF) >> 4) | (unsigned long long)((lbo >> "
           "4) & 0x3FFF) << 16 |\n"
           "           (unsigned long long)((sbo >> 4) & 0x3FFF) << 32 | (unsigned long long)mode "
           "<< 62;\n}\n"
           "/* generic-proxy writes (cp.async, st.shared) made visible to wgmma's async proxy */\n"
           "static __device__ __forceinline__ void mt_fence_proxy_async() {\n"
           "    asm volatile(\"fence.proxy.async.shared::cta;\" : : : \"memory\");\n}\n"
           "static __device__ __forceinline__ void mt_wgmma_fence() {\n"
           "    asm volatile(\"wgmma.fence.sync.aligned;\" : : : \"memory\");\n}\n"
           "static __device__ __forceinline__ void mt_wgmma_commit() {\n"
           "    asm volatile(\"wgmma.commit_group.sync.aligned;\" : : : \"memory\");\n}\n"
           "template <int N> static __device__ __forceinline__ void mt_wgmma_wait() {\n"
           "    asm volatile(\"wgmma.wait_group.sync.aligned %0;\" : : \"n\"(N) : \"memory\");\n}\n"
           "/* keeps the compiler from moving accumulator reads and writes across the\n"
           " * asynchronous wgmma's (their registers are in flight until the wait) */\n"
           "template <int NT> static __device__ __forceinline__ void mt_wgmma_fence_acc(float "
           "(&d)[NT][4]) {\n"
           "#pragma unroll\n"
           "    for (int j = 0; j < NT; j++)\n"
           "#pragma unroll\n"
           "        for (int q = 0; q < 4; q++) asm volatile(\"\" : \"+f\"(d[j][q]) : : "
           "\"memory\");\n}\n"
           "/* mbarriers in shared memory: init (the arrivals of a phase), arrive (release),\n"
           " * arrive once the thread's earlier cp.async's land, wait for a phase's parity */\n"
           "static __device__ __forceinline__ void mt_mbar_init(unsigned long long *bar, unsigned "
           "count) {\n"
           "    asm volatile(\"mbarrier.init.shared::cta.b64 [%0], %1;\" : : "
           "\"r\"((unsigned)__cvta_generic_to_shared(bar)),\n"
           "                 \"r\"(count) : \"memory\");\n}\n"
           "static __device__ __forceinline__ void mt_mbar_arrive(unsigned long long *bar) {\n"
           "    asm volatile(\"mbarrier.arrive.shared::cta.b64 _, [%0];\" : : "
           "\"r\"((unsigned)__cvta_generic_to_shared(bar))\n"
           "                 : \"memory\");\n}\n"
           "static __device__ __forceinline__ void mt_mbar_arrive_cp_async(unsigned long long "
           "*bar) {\n"
           "    asm volatile(\"cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\"\n"
           "                 : : \"r\"((unsigned)__cvta_generic_to_shared(bar)) : \"memory\");\n}\n"
           "static __device__ __forceinline__ void mt_mbar_wait(unsigned long long *bar, unsigned "
           "parity) {\n"
           "    asm volatile(\"{\\n .reg .pred p;\\n mt_wait:\\n "
           "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\\n\"\n"
           "                 \" @!p bra mt_wait;\\n}\" : : "
           "\"r\"((unsigned)__cvta_generic_to_shared(bar)), \"r\"(parity)\n"
           "                 : \"memory\");\n}\n"
           "static __device__ __forceinline__ void mt_cp_async_wait_all() {\n"
           "    asm volatile(\"cp.async.wait_all;\" : : : \"memory\");\n}\n"
           "/* a barrier of `count` threads (named barrier `id`; 0 is __syncthreads') */\n"
           "static __device__ __forceinline__ void mt_bar_sync(int id, int count) {\n"
           "    asm volatile(\"bar.sync %0, %1;\" : : \"r\"(id), \"r\"(count) : \"memory\");\n}\n"
           "#else\n#define MT_WGMMA_SM90 0\n#endif\n"
           "/* sm_90 devices (sm_90 and sm_90a code) launch a warp-specialized kernel with\n"
           " * its producer warpgroup; a body without one returns from those threads */\n"
           "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 900\n#define MT_ARCH_SM90 1\n#else\n"
           "#define MT_ARCH_SM90 0\n#endif\n#endif\n";
}

const char *wgmma_helpers(Arena *a, const MmaPlan *P) {
    StrBuf sb;
    sb_init(&sb, a);
    sb_puts(&sb, wgmma_common_helpers());
    sb_puts(&sb, wgmma_instr(a, P->bt ? WGMMA_SS_K : WGMMA_SS_MN, P->wg.wn, P->in_dt));
    return sb_str(&sb);
}

/* The element index in a stage buffer of the copy group (mt_gr, mt_gc) of
 * a (rows, cols) block stored as columns of `sw` bytes, swizzled. */
const char *wgmma_swizzled_index(Arena *a, int rows, int cols, int sw, int eb) {
    int s = swizzle_of(sw), per = sw / eb;
    const char *shift = eb == 1 ? "" : eb == 2 ? " >> 1" : " >> 2";
    const char *col = eb == 1 ? "mt_gc" : arena_printf(a, "mt_gc * %d", eb);
    if (cols == per)
        return arena_printf(a, "mt_swz(mt_gr * %d + %s, %d)%s", sw, col, SWIZZLES[s].mask, shift);
    return arena_printf(a, "mt_swz((mt_gc / %d) * %d + mt_gr * %d + (mt_gc %% %d) * %d, %d)%s", per,
                        rows * sw, sw, per, eb, SWIZZLES[s].mask, shift);
}

int wgmma_swizzled_offset(int rows, int sw, int gr, int gc, int eb) {
    int per = sw / eb, o = (gc / per) * rows * sw + gr * sw + (gc % per) * eb;
    return (o ^ (((o >> 7) & SWIZZLES[swizzle_of(sw)].mask) << 4)) / eb;
}

/* One iteration's wgmma's from slot offset mt_so (a k-step, a 64-row
 * block add their offsets to the descriptors), one commit group. */
static void issue_wgmmas(Mma *M) {
    const MmaPlan *P = M->P;
    const WgmmaPlan *W = &P->wg;
    /* the descriptors of the warpgroup's rows (A) and columns (B) in slot
     * 0 from a warpgroup index ptxas knows to be uniform over the warp
     * (lane 0's): uniform registers, no per-wgmma moves into them; made
     * here, in the loop, where ptxas 13 keeps the wgmma's unserialized */
    int code_a = SWIZZLES[swizzle_of(W->swa)].code, code_b = SWIZZLES[swizzle_of(W->swb)].code;
    int eb = dtype_info(P->in_dt)->bits / 8;
    ln(M, "const int mt_wu = __shfl_sync(0xffffffffu, mt_wg, 0);");
    ln(M, "const unsigned long long mt_da = mt_wgmma_desc(mt_s0 + (mt_wu / %d) * %d, 16, %d, %d);",
       W->gn, W->wm * W->swa, 8 * W->swa, code_a);
    if (P->bt) /* K-major B, (BN, BK) as A's (BM, BK): the warpgroup's rows wn */
        ln(M,
           "const unsigned long long mt_db = mt_wgmma_desc(mt_s0 + %d + (mt_wu %% %d) * %d, 16, "
           "%d, %d);",
           W->a_bytes, W->gn, W->wn * W->swb, 8 * W->swb, code_b);
    else
        ln(M,
           "const unsigned long long mt_db = mt_wgmma_desc(mt_s0 + %d + (mt_wu %% %d) * %d, %d, "
           "%d, "
           "%d);",
           W->a_bytes, W->gn, W->wn * eb / W->swb * P->BK * W->swb, P->BK * W->swb, 8 * W->swb,
           code_b);
    ln(M, "mt_wgmma_fence();");
    const char *pre = P->bt ? "mt_wgmma_kb" : "mt_wgmma";
    for (int kb = 0; kb < P->BK * eb; kb += 32) { /* bytes of k per instruction */
        int b_off = P->bt ? (kb / W->swb) * P->BN * W->swb + kb % W->swb : kb / eb * W->swb;
        for (int mi = 0; mi < W->wm / 64; mi++) {
            int a_off = (kb / W->swa) * P->BM * W->swa + mi * 64 * W->swa + kb % W->swa;
            ln(M, "%s_n%d_%s(mt_acc[%d], mt_da + (mt_so + %du), mt_db + (mt_so + %du));", pre,
               W->wn, dt_name(P->in_dt), mi, a_off >> 4, b_off >> 4);
        }
    }
    ln(M, "mt_wgmma_commit();");
}

/* The swizzled stage layout of operand k as a number. */
static int swizzled_offset(const Mma *M, int k, int gr, int gc) {
    const MmaPlan *P = M->P;
    int eb = dtype_info(P->in_dt)->bits / 8;
    return k ? wgmma_swizzled_offset(mma_stage_rows(P, 1), P->wg.swb, gr, gc, eb)
             : wgmma_swizzled_offset(P->BM, P->wg.swa, gr, gc, eb);
}

/* The copy of iteration mt_t's operand blocks into slot mt_st (the
 * element-wise stores fenced for wgmma's proxy; cp.async's writes are
 * not generic stores, as Triton's fence insertion takes them). */
static void copy_lambda(Mma *M) {
    const MmaPlan *P = M->P;
    const WgmmaPlan *W = &P->wg;
    const char *mt = c_mem_type(P->in_dt, C_CUDA);
    int eb = dtype_info(P->in_dt)->bits / 8;
    M->dst_index[0] = wgmma_swizzled_index(M->a, P->BM, P->BK, W->swa, eb);
    M->dst_index[1] =
        wgmma_swizzled_index(M->a, mma_stage_rows(P, 1), mma_stage_cols(P, 1), W->swb, eb);
    M->dst_offset = swizzled_offset;
    M->proxy_fence = 1;
    mma_copy_bases(M, 0);
    mma_copy_bases(M, 1);
    ln(M, "auto mt_copy = [&](int mt_t, int mt_st) {");
    M->indent++;
    ln(M, "const int mt_k = mt_start + mt_t * %lld;", (long long)P->loop->loop->step.c.i);
    ln(M, "(void)mt_k;");
    ln(M, "%s *const mt_sa = mt_stages + mt_st * %d;", mt, W->stage / eb);
    ln(M, "%s *const mt_sb = mt_sa + %d;", mt, W->a_bytes / eb);
    mma_copy(M, 0, "mt_sa");
    mma_copy(M, 1, "mt_sb");
    M->indent--;
    ln(M, "};");
    M->dst_index[0] = M->dst_index[1] = NULL;
    M->dst_offset = NULL;
    M->proxy_fence = 0;
}

/* Every warp copies and computes: iteration t waits for its copies
 * (cp.async groups), a block-wide barrier, the wgmma's, the copies of
 * iteration t + dist. */
static void ring_loop(Mma *M) {
    const WgmmaPlan *W = &M->P->wg;
    int R = W->slots, D = W->dist;
    mma_acc_init(M);
    copy_lambda(M);
    ln(M, "#pragma unroll");
    ln(M, "for (int mt_p = 0; mt_p < %d; mt_p++) {", D);
    ln(M, "    if (mt_p < mt_n) mt_copy(mt_p, mt_p);");
    ln(M, "    mt_cp_async_commit();");
    ln(M, "}");
    for (int mi = 0; mi < W->wm / 64; mi++) ln(M, "mt_wgmma_fence_acc(mt_acc[%d]);", mi);
    ln(M, "for (int mt_t = 0; mt_t < mt_n; mt_t++) {");
    M->indent++;
    ln(M, "mt_cp_async_wait<%d>();", D - 1);
    ln(M, "__syncthreads();");
    ln(M, "const unsigned mt_so = (unsigned)(mt_t %% %d) * %du;", R, W->stage >> 4);
    issue_wgmmas(M);
    if (W->early) {
        /* iteration t - 1's slot is still being read: the copies go to
         * iteration t - 2's */
        ln(M, "if (mt_t + %d < mt_n) mt_copy(mt_t + %d, (mt_t + %d) %% %d);", D, D, D, R);
        ln(M, "mt_cp_async_commit();");
        ln(M, "mt_wgmma_wait<1>();");
    } else {
        ln(M, "mt_wgmma_wait<1>();");
        ln(M, "__syncthreads();");
        ln(M, "if (mt_t + %d < mt_n) mt_copy(mt_t + %d, (mt_t + %d) %% %d);", D, D, D, R);
        ln(M, "mt_cp_async_commit();");
    }
    M->indent--;
    ln(M, "}");
    ln(M, "mt_wgmma_wait<0>();");
}

/* Whether C text mentions identifier `name`. */
static int mentions(const char *text, const char *name) {
    size_t n = strlen(name);
    for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
        int before = p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
        int after = isalnum((unsigned char)p[n]) || p[n] == '_';
        if (!before && !after) return 1;
    }
    return 0;
}

/* The producer warps' body as a __noinline__ function of the kernel's
 * parameters, entry scalars and ring that it reads, and its call: ptxas
 * allocates each function's registers on its own, where one function
 * holding both roles spilled (and serialized the wgmma's: C7514) at the
 * 168 registers per thread that more than 8 warps leave. */
static void producer_fn(Mma *M, const char *body) {
    const Function *f = M->f;
    const MmaPlan *P = M->P;
    Arena *a = M->a;
    StrBuf params, args;
    sb_init(&params, a);
    sb_init(&args, a);
    const char *mt = c_mem_type(P->in_dt, C_CUDA);
    for (int i = 0; i < f->nparams; i++)
        if (mentions(body, M->pnames[i])) {
            sb_printf(&params, "%s%s %s",
                      params.len ? ", "
                                   ""
                                 : "",
                      c_param_type(a, f->params[i].type), M->pnames[i]);
            sb_printf(&args, "%s%s", args.len ? ", " : "", M->pnames[i]);
        }
    for (int v = 0; v < f->nvalues; v++)
        if (M->sname[v] && mentions(body, M->sname[v])) {
            Type t = f->types[v];
            /* (an address cast to a pointer: the base itself; other
             * pointers: their element index) */
            const char *T = f->defs[v] && f->defs[v]->op == OP_INT_TO_PTR
                                ? arena_printf(a, "%s *", c_mem_type((DType)t.dtype, C_CUDA))
                            : t.ptr ? M->index_type
                                    : c_type((DType)t.dtype);
            sb_printf(&params, "%s%s %s", params.len ? ", " : "", T, M->sname[v]);
            sb_printf(&args, "%s%s", args.len ? ", " : "", M->sname[v]);
        }
    sb_printf(&params, "%sint mt_start, int mt_n, %s *mt_stages, unsigned long long *mt_bar",
              params.len ? ", " : "", mt);
    sb_printf(&args, "%smt_start, mt_n, mt_stages, mt_bar", args.len ? ", " : "");
    sb_printf(&M->fns,
              "#if MT_WGMMA_SM90\n/* %s's producer warps: the operand blocks into the ring */\n"
              "static __device__ __noinline__ void %s_producer(%s) {\n%s}\n#endif\n",
              M->symbol, M->symbol, sb_str(&params), body);
    ln(M, "if (mt_warp >= %d) {", P->warps);
    ln(M, "    %s_producer(%s);", M->symbol, sb_str(&args));
    ln(M, "    return;");
    ln(M, "}");
}

/* Warp-specialized: the last warpgroup copies, the others compute. Slot
 * s has two mbarriers: full (the producer's threads arrive twice per
 * fill: once when their cp.async's land, once after their element-wise
 * stores) and empty (every computing thread arrives once the wgmma's
 * that read the slot are done). Iteration t uses slot t % R in phase
 * t / R; the producer refills a slot after its previous use's empty
 * phase, so it runs up to R iterations ahead and no warp waits at a
 * block-wide barrier in the loop. */
static void ws_loop(Mma *M) {
    const MmaPlan *P = M->P;
    const WgmmaPlan *W = &P->wg;
    int R = W->slots, T = 32 * P->warps;
    ln(M, "unsigned long long *const mt_bar = (unsigned long long *)(mt_stages + %d);",
       R * W->stage / (dtype_info(P->in_dt)->bits / 8));
    ln(M, "if (threadIdx.x == 0) {");
    ln(M, "    #pragma unroll");
    ln(M, "    for (int mt_s = 0; mt_s < %d; mt_s++) {", R);
    ln(M, "        mt_mbar_init(&mt_bar[mt_s], %d);", 2 * W->producers);
    ln(M, "        mt_mbar_init(&mt_bar[%d + mt_s], %d);", R, T);
    ln(M, "    }");
    ln(M, "}");
    ln(M, "__syncthreads();");
    /* the producer's body: a function of its own (below) */
    StrBuf *kernel = M->out, prod;
    int indent = M->indent;
    sb_init(&prod, M->a);
    M->out = &prod;
    M->indent = 1;
    M->copy_threads = W->producers;
    M->copy_tid = arena_printf(M->a, "((int)threadIdx.x - %d)", T);
    /* the producer's registers are the computing warps' share too: its
     * shared offsets computed per copy (the producer has issue slots to
     * spare) */
    M->copy_q_inline = 1;
    copy_lambda(M);
    M->copy_threads = 0;
    M->copy_tid = NULL;
    M->copy_q_inline = 0;
    ln(M, "for (int mt_t = 0; mt_t < mt_n; mt_t++) {");
    M->indent++;
    ln(M, "const int mt_st = mt_t %% %d;", R);
    ln(M, "if (mt_t >= %d) mt_mbar_wait(&mt_bar[%d + mt_st], ((mt_t / %d) - 1) & 1);", R, R, R);
    ln(M, "mt_copy(mt_t, mt_st);");
    ln(M, "mt_mbar_arrive_cp_async(&mt_bar[mt_st]);");
    ln(M, "mt_mbar_arrive(&mt_bar[mt_st]);");
    M->indent--;
    ln(M, "}");
    ln(M, "mt_cp_async_wait_all();");
    M->out = kernel;
    M->indent = indent;
    producer_fn(M, sb_str(&prod));
    mma_acc_init(M);
    for (int mi = 0; mi < W->wm / 64; mi++) ln(M, "mt_wgmma_fence_acc(mt_acc[%d]);", mi);
    ln(M, "for (int mt_t = 0; mt_t < mt_n; mt_t++) {");
    M->indent++;
    ln(M, "const int mt_st = mt_t %% %d;", R);
    ln(M, "mt_mbar_wait(&mt_bar[mt_st], (mt_t / %d) & 1);", R);
    ln(M, "const unsigned mt_so = (unsigned)mt_st * %du;", W->stage >> 4);
    issue_wgmmas(M);
    ln(M, "mt_wgmma_wait<1>();");
    ln(M, "if (mt_t > 0) mt_mbar_arrive(&mt_bar[%d + (mt_t + %d) %% %d]);", R, R - 1, R);
    M->indent--;
    ln(M, "}");
    ln(M, "mt_wgmma_wait<0>();");
    M->epi_bar = arena_printf(M->a, "mt_bar_sync(1, %d);", T);
}

void emit_wgmma(Mma *M) {
    Arena *a = M->a;
    const MmaPlan *P = M->P;
    const WgmmaPlan *W = &P->wg;
    int MI = W->wm / 64, NT = W->wn / 8, R = W->slots, D = W->dist;
    const char *mt = c_mem_type(P->in_dt, C_CUDA);
    if (W->ws)
        ln(M,
           "// sm_90a: %d warpgroup%s as %d x %d, each a (%d, %d) accumulator of m64n%dk%d wgmma, "
           "and a producer warpgroup; A %dB-, B %dB-swizzled%s; %d buffers",
           P->warps / 4, P->warps > 4 ? "s" : "", W->gm, W->gn, W->wm, W->wn, W->wn,
           256 / dtype_info(P->in_dt)->bits, W->swa, W->swb, P->bt ? " (K-major)" : "", R);
    else
        ln(M,
           "// sm_90a: %d warpgroup%s as %d x %d, each a (%d, %d) accumulator of m64n%dk%d wgmma; "
           "A %dB-, B %dB-swizzled%s; copies %d iteration%s ahead in %d buffers",
           P->warps / 4, P->warps > 4 ? "s" : "", W->gm, W->gn, W->wm, W->wn, W->wn,
           256 / dtype_info(P->in_dt)->bits, W->swa, W->swb, P->bt ? " (K-major)" : "", D,
           D > 1 ? "s" : "", R);
    ln(M, "const int mt_wg = mt_warp >> 2, mt_wr = mt_wg / %d, mt_wc = mt_wg %% %d;", W->gn, W->gn);
    ln(M, "(void)mt_wr, (void)mt_wc;");
    M->frag_mt = MI;
    M->frag_nt = NT;
    M->frag_rstep = 64;
    M->frag_r0 = arena_printf(a, "mt_wr * %d + (mt_warp & 3) * 16", W->wm);
    M->frag_c0 = arena_printf(a, "mt_wc * %d", W->wn);
    mma_trip_count(M);
    /* the dynamic shared memory's base rounded up to 1024 bytes (the plan
     * asked for 1024 more) */
    ln(M, "extern __shared__ __align__(1024) unsigned char mt_smem[];");
    ln(M,
       "%s *const mt_stages = (%s *)(mt_smem + ((1024u - "
       "((unsigned)__cvta_generic_to_shared(mt_smem) & "
       "1023u)) & 1023u));",
       mt, mt);
    /* the ring's shared address (the descriptors: issue_wgmmas; a k-step,
     * a 64-row block and a slot add their offsets >> 4) */
    ln(M, "const unsigned mt_s0 = (unsigned)__cvta_generic_to_shared(mt_stages);");
    if (W->ws) ws_loop(M);
    else ring_loop(M);
    for (int mi = 0; mi < MI; mi++) ln(M, "mt_wgmma_fence_acc(mt_acc[%d]);", mi);
    /* the ring is free after the last wait: the epilogue's stores staged
     * through it (16-byte stores along the rows) */
    M->stage_smem = "mt_stages";
    M->stage_bytes = W->slots * W->stage;
    mma_epilogue(M);
    M->stage_smem = NULL;
    M->epi_bar = NULL;
    /* the mma.sync body starts afresh */
    M->ename = ARENA_ARRAY(a, const char *, M->f->nvalues + 1);
    M->acc_elem = NULL;
}
