/* The dtype-specific part of -O2's tensor-core path of large dot tiles
 * (emit_cuda_mma.c, docs/dot.md "Operand dtypes: one table"): the table
 * of mma.sync shapes per operand dtype and the device helpers of the
 * dtypes whose B fragments do not come from ldmatrix.trans. */
#include <string.h>

#include "cgen/cgen.h"
#include "backends/cuda/cuda_mma_dtypes.h"

static const MmaShape mma_shapes[] = {
    {DT_F16, DT_F32, -1, "f16", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 16, 8, 1, 0, 0,
     NULL, 80},
    {DT_BF16, DT_F32, -1, "bf16", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", 16, 8, 1,
     0, 0, NULL, 80},
    {DT_F32, DT_F32, DOT_TF32, "tf32", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 8, 4,
     0, 0, 0, "tf32", 80},
    {DT_F32, DT_F32, DOT_TF32X3, "tf32", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 8, 4,
     0, 1, 0, "tf32", 80},
    {DT_I8, DT_I32, -1, "s8", "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", 32, 16, 0, 0, 0,
     "s8", 80},
    {DT_F8E4NV, DT_F32, -1, "e4m3", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", 32, 16,
     0, 0, 0, "s8", 89},
    {DT_F8E5, DT_F32, -1, "e5m2", "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32", 32, 16, 0,
     0, 0, "s8", 89},
    {DT_F32, DT_F32, DOT_IEEE, "ieee", NULL, 4, 4, 0, 0, 1, NULL, 80},
};

const MmaShape *cuda_mma_shape(DType in, DType acc, int precision) {
    for (size_t i = 0; i < sizeof mma_shapes / sizeof mma_shapes[0]; i++) {
        const MmaShape *s = &mma_shapes[i];
        if (s->in == in && s->acc == acc && (s->precision < 0 || s->precision == precision))
            return s;
    }
    return NULL;
}

/* The shared part: the emulation switch, TF32's and fp8's bit helpers,
 * the stage loads and B's fragment loads; then the tensor-core section opens. */
static const char perm_common[] =
    "#ifndef MT_MMA_TILE_HELPERS_PERM\n#define MT_MMA_TILE_HELPERS_PERM\n"
    "#if !defined(__CUDA_ARCH__) && !defined(__NVCC__)\n#define MT_MMA_TILE_EMULATED 1\n"
    "#else\n#define MT_MMA_TILE_EMULATED 0\n#endif\n"
    "/* an f32 as the tensor cores read it for TF32: its upper 19 bits */\n"
    "static __device__ __forceinline__ float mt_tf32_hw(float x) {\n"
    "    unsigned u = __float_as_uint(x);\n"
    "    return (u & 0x7f800000u) == 0x7f800000u ? x : __uint_as_float(u & "
    "0xffffe000u);\n}\n"
    "/* the bytes of {y, x} (x the low four) that the nibbles of s select: __byte_perm */\n"
    "static __device__ __forceinline__ unsigned mt_prmt(unsigned x, unsigned y, unsigned "
    "s) {\n"
    "#if MT_MMA_TILE_EMULATED\n"
    "    unsigned long long v = (unsigned long long)y << 32 | x;\n"
    "    unsigned r = 0;\n"
    "    for (int i = 0; i < 4; i++)\n"
    "        r |= (unsigned)(v >> ((s >> (4 * i)) & 7u) * 8 & 0xffu) << (8 * i);\n"
    "    return r;\n"
    "#else\n    return __byte_perm(x, y, s);\n#endif\n}\n"
    "/* tf32x3's split of an f32 (bits x): x = big + small, big = cvt.rna.tf32.f32(x) */\n"
    "static __device__ __forceinline__ void mt_split_tf32(unsigned &x, unsigned &small) {\n"
    "#if MT_MMA_TILE_EMULATED\n"
    "    const unsigned big = (x & 0x7f800000u) == 0x7f800000u ? x : (x + 0x1000u) & "
    "0xffffe000u;\n"
    "#else\n"
    "    unsigned big;\n"
    "    asm(\"cvt.rna.tf32.f32 %0, %1;\" : \"=r\"(big) : \"f\"(__uint_as_float(x)));\n"
    "#endif\n"
    "    small = __float_as_uint(__uint_as_float(x) - __uint_as_float(big));\n"
    "    x = big;\n}\n"
    "static __device__ __forceinline__ uint4 mt_lds128(const void *p) {\n"
    "#if MT_MMA_TILE_EMULATED\n    uint4 r;\n    memcpy(&r, p, 16);\n    return r;\n"
    "#else\n    return *reinterpret_cast<const uint4 *>(p);\n#endif\n}\n"
    "static __device__ __forceinline__ unsigned mt_lds32(const void *p) {\n"
    "#if MT_MMA_TILE_EMULATED\n    unsigned r;\n    memcpy(&r, p, 4);\n    return r;\n"
    "#else\n    return *reinterpret_cast<const unsigned *>(p);\n#endif\n}\n"
    "/* ieee (CUDA-core FMAs): 4 and 2 consecutive floats of a stage */\n"
    "static __device__ __forceinline__ float4 mt_lds_f4(const float *p) {\n"
    "#if MT_MMA_TILE_EMULATED\n    float4 r;\n    memcpy(&r, p, 16);\n    return r;\n"
    "#else\n    return *reinterpret_cast<const float4 *>(p);\n#endif\n}\n"
    "static __device__ __forceinline__ float2 mt_lds_f2(const float *p) {\n"
    "#if MT_MMA_TILE_EMULATED\n    float2 r;\n    memcpy(&r, p, 8);\n    return r;\n"
    "#else\n    return *reinterpret_cast<const float2 *>(p);\n#endif\n}\n"
    "static __device__ __forceinline__ float mt_f4_at(float4 v, int i) {\n"
    "    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;\n}\n"
    "/* TF32 B fragments of four 8-column blocks, lane (g, t) at p = &B[t][4g]:\n"
    " * block v's b0, b1 = B[t][4g + v], B[t + 4][4g + v] */\n"
    "static __device__ __forceinline__ void mt_ldb_tf32(unsigned b[4][2], const float *p, "
    "int ld) {\n"
    "    const uint4 x = mt_lds128(p), y = mt_lds128(p + 4 * ld);\n"
    "    b[0][0] = x.x, b[1][0] = x.y, b[2][0] = x.z, b[3][0] = x.w;\n"
    "    b[0][1] = y.x, b[1][1] = y.y, b[2][1] = y.z, b[3][1] = y.w;\n}\n"
    "/* int8 (and fp8) B fragments of four 8-column blocks, lane (g, t) at p = "
    "&B[4t][4g]:\n"
    " * block v's b0 = B[4t .. 4t + 3][4g + v] (the first in the low byte), b1\n"
    " * the same 16 rows below: one word per row, 4 x 4 bytes transposed */\n"
    "static __device__ __forceinline__ void mt_ldb_s8(unsigned b[4][2], const void *p, int "
    "ld) {\n"
    "#pragma unroll\n"
    "    for (int h = 0; h < 2; h++) {\n"
    "        const unsigned char *q = (const unsigned char *)p + h * 16 * ld;\n"
    "        const unsigned w0 = mt_lds32(q), w1 = mt_lds32(q + ld), w2 = mt_lds32(q + 2 * "
    "ld),\n"
    "                       w3 = mt_lds32(q + 3 * ld);\n"
    "        const unsigned lo01 = mt_prmt(w0, w1, 0x5140u), hi01 = mt_prmt(w0, w1, "
    "0x7362u);\n"
    "        const unsigned lo23 = mt_prmt(w2, w3, 0x5140u), hi23 = mt_prmt(w2, w3, "
    "0x7362u);\n"
    "        b[0][h] = mt_prmt(lo01, lo23, 0x5410u), b[1][h] = mt_prmt(lo01, lo23, "
    "0x7632u);\n"
    "        b[2][h] = mt_prmt(hi01, hi23, 0x5410u), b[3][h] = mt_prmt(hi01, hi23, "
    "0x7632u);\n"
    "    }\n}\n"
    "#if MT_MMA_TILE_SM80\n";

/* For test/emu: the copies synchronous, ldmatrix and mma.sync over the
 * warp's registers exchanged with __shfl_sync; the sections close. */
static const char perm_emulated[] =
    "#elif MT_MMA_TILE_EMULATED\n"
    "static inline void mt_cp_async16(void *dst, const void *src) { memcpy(dst, src, 16); }\n"
    "static inline int mt_opaque(int x) { return x; }\n"
    "static inline void mt_cp_async_commit() {}\n"
    "template <int N> static inline void mt_cp_async_wait() {}\n"
    "/* ldmatrix.x4: register j of lane i is word i % 4 of row i / 4 of matrix j,\n"
    " * the row that lane 8j + i / 4 addresses */\n"
    "static inline void mt_ldsm4(unsigned r[4], const void *p) {\n"
    "    const int lane = (int)threadIdx.x & 31;\n"
    "    for (int j = 0; j < 4; j++) {\n"
    "        const unsigned char *row =\n"
    "            (const unsigned char *)__shfl_sync(0xffffffffu, p, j * 8 + lane / 4);\n"
    "        memcpy(&r[j], row + (lane % 4) * 4, 4);\n"
    "    }\n}\n"
    "/* m16n8k8 .tf32: a = A[g][t], A[g+8][t], A[g][t+4], A[g+8][t+4]; b = B[t][g], "
    "B[t+4][g];\n"
    " * c = C[g][2t], C[g][2t+1], C[g+8][2t], C[g+8][2t+1] (g = lane / 4, t = lane % 4) */\n"
    "static inline void mt_mma_tile_tf32(float c[4], const unsigned a[4], unsigned b0, "
    "unsigned b1) {\n"
    "    const int lane = (int)threadIdx.x & 31, g = lane >> 2, t = lane & 3;\n"
    "    const uint4 ra = {a[0], a[1], a[2], a[3]};\n"
    "    const uint2 rb = {b0, b1};\n"
    "    for (int j = 0; j < 4; j++) {\n"
    "        const uint4 x = __shfl_sync(0xffffffffu, ra, g * 4 + j);\n"
    "        const uint2 y0 = __shfl_sync(0xffffffffu, rb, 2 * t * 4 + j);\n"
    "        const uint2 y1 = __shfl_sync(0xffffffffu, rb, (2 * t + 1) * 4 + j);\n"
    "        const float a0 = mt_tf32_hw(__uint_as_float(x.x)), a1 = "
    "mt_tf32_hw(__uint_as_float(x.y));\n"
    "        const float a2 = mt_tf32_hw(__uint_as_float(x.z)), a3 = "
    "mt_tf32_hw(__uint_as_float(x.w));\n"
    "        const float p0 = mt_tf32_hw(__uint_as_float(y0.x)), p1 = "
    "mt_tf32_hw(__uint_as_float(y0.y));\n"
    "        const float q0 = mt_tf32_hw(__uint_as_float(y1.x)), q1 = "
    "mt_tf32_hw(__uint_as_float(y1.y));\n"
    "        c[0] = fmaf(a2, p1, fmaf(a0, p0, c[0]));\n"
    "        c[1] = fmaf(a2, q1, fmaf(a0, q0, c[1]));\n"
    "        c[2] = fmaf(a3, p1, fmaf(a1, p0, c[2]));\n"
    "        c[3] = fmaf(a3, q1, fmaf(a1, q0, c[3]));\n"
    "    }\n}\n"
    "/* m16n8k32 .s8: a = A[g][4t..], A[g+8][4t..], A[g][16+4t..], A[g+8][16+4t..];\n"
    " * b = B[4t..][g], B[16+4t..][g] (4 bytes each, the first in the low byte); c as above "
    "*/\n"
    "static inline int mt_s8(unsigned w, int i) { return (int)(signed char)(w >> (8 * i)); }\n"
    "static inline void mt_mma_tile_s8(int c[4], const unsigned a[4], unsigned b0, unsigned "
    "b1) {\n"
    "    const int lane = (int)threadIdx.x & 31, g = lane >> 2, t = lane & 3;\n"
    "    const uint4 ra = {a[0], a[1], a[2], a[3]};\n"
    "    const uint2 rb = {b0, b1};\n"
    "    unsigned s[4] = {(unsigned)c[0], (unsigned)c[1], (unsigned)c[2], (unsigned)c[3]};\n"
    "    for (int j = 0; j < 4; j++) {\n"
    "        const uint4 x = __shfl_sync(0xffffffffu, ra, g * 4 + j);\n"
    "        const uint2 y0 = __shfl_sync(0xffffffffu, rb, 2 * t * 4 + j);\n"
    "        const uint2 y1 = __shfl_sync(0xffffffffu, rb, (2 * t + 1) * 4 + j);\n"
    "        for (int i = 0; i < 4; i++) {\n"
    "            s[0] += (unsigned)(mt_s8(x.x, i) * mt_s8(y0.x, i) + mt_s8(x.z, i) * "
    "mt_s8(y0.y, i));\n"
    "            s[1] += (unsigned)(mt_s8(x.x, i) * mt_s8(y1.x, i) + mt_s8(x.z, i) * "
    "mt_s8(y1.y, i));\n"
    "            s[2] += (unsigned)(mt_s8(x.y, i) * mt_s8(y0.x, i) + mt_s8(x.w, i) * "
    "mt_s8(y0.y, i));\n"
    "            s[3] += (unsigned)(mt_s8(x.y, i) * mt_s8(y1.x, i) + mt_s8(x.w, i) * "
    "mt_s8(y1.y, i));\n"
    "        }\n"
    "    }\n"
    "    for (int i = 0; i < 4; i++) c[i] = (int)s[i];\n}\n"
    "/* fp8 byte i of w as a float: e4m3 (bias 7, no inf, S.1111.111 NaN) and\n"
    " * e5m2 (bias 15, IEEE's inf and NaN) */\n"
    "static inline float mt_f8_bits(unsigned s, unsigned e, unsigned m, int mant, int bias) {\n"
    "    const unsigned u = s << 31 | (e + 127u - (unsigned)bias) << 23 | m << (23 - mant);\n"
    "    float r;\n    memcpy(&r, &u, 4);\n    return r;\n}\n"
    "static inline float mt_e4m3(unsigned w, int i) {\n"
    "    const unsigned x = w >> (8 * i) & 0xffu, e = x >> 3 & 15u, m = x & 7u;\n"
    "    const float v = e == 15u && m == 7u ? __uint_as_float(0x7fc00000u)\n"
    "                    : e ? mt_f8_bits(0, e, m, 3, 7) : (float)m * 0x1p-9f;\n"
    "    return x & 0x80u ? -v : v;\n}\n"
    "static inline float mt_e5m2(unsigned w, int i) {\n"
    "    const unsigned x = w >> (8 * i) & 0xffu, e = x >> 2 & 31u, m = x & 3u;\n"
    "    const float v = e == 31u ? __uint_as_float(m ? 0x7fc00000u : 0x7f800000u)\n"
    "                    : e ? mt_f8_bits(0, e, m, 2, 15) : (float)m * 0x1p-16f;\n"
    "    return x & 0x80u ? -v : v;\n}\n"
    "/* m16n8k32 .e4m3 / .e5m2: the .s8 fragment layouts, f32 products summed in f32 */\n"
    "template <float (*D)(unsigned, int)>\n"
    "static inline void mt_mma_tile_f8(float c[4], const unsigned a[4], unsigned b0, unsigned "
    "b1) {\n"
    "    const int lane = (int)threadIdx.x & 31, g = lane >> 2, t = lane & 3;\n"
    "    const uint4 ra = {a[0], a[1], a[2], a[3]};\n"
    "    const uint2 rb = {b0, b1};\n"
    "    for (int j = 0; j < 4; j++) {\n"
    "        const uint4 x = __shfl_sync(0xffffffffu, ra, g * 4 + j);\n"
    "        const uint2 y0 = __shfl_sync(0xffffffffu, rb, 2 * t * 4 + j);\n"
    "        const uint2 y1 = __shfl_sync(0xffffffffu, rb, (2 * t + 1) * 4 + j);\n"
    "        for (int i = 0; i < 4; i++) {\n"
    "            c[0] = fmaf(D(x.z, i), D(y0.y, i), fmaf(D(x.x, i), D(y0.x, i), c[0]));\n"
    "            c[1] = fmaf(D(x.z, i), D(y1.y, i), fmaf(D(x.x, i), D(y1.x, i), c[1]));\n"
    "            c[2] = fmaf(D(x.w, i), D(y0.y, i), fmaf(D(x.y, i), D(y0.x, i), c[2]));\n"
    "            c[3] = fmaf(D(x.w, i), D(y1.y, i), fmaf(D(x.y, i), D(y1.x, i), c[3]));\n"
    "        }\n"
    "    }\n}\n"
    "static inline void mt_mma_tile_e4m3(float c[4], const unsigned a[4], unsigned b0, "
    "unsigned b1) {\n"
    "    mt_mma_tile_f8<mt_e4m3>(c, a, b0, b1);\n}\n"
    "static inline void mt_mma_tile_e5m2(float c[4], const unsigned a[4], unsigned b0, "
    "unsigned b1) {\n"
    "    mt_mma_tile_f8<mt_e5m2>(c, a, b0, b1);\n}\n"
    "/* half h of w as a float: f16 (bias 15) or bf16 (an f32's upper half) */\n"
    "static inline float mt_h16(unsigned w, int h, int bf) {\n"
    "    const unsigned x = w >> (16 * h) & 0xffffu, e = x >> 10 & 31u, m = x & 1023u;\n"
    "    if (bf) return __uint_as_float(x << 16);\n"
    "    const float v = e == 31u ? __uint_as_float(m ? 0x7fc00000u : 0x7f800000u)\n"
    "                    : e ? mt_f8_bits(0, e, m, 10, 15) : (float)m * 0x1p-24f;\n"
    "    return x & 0x8000u ? -v : v;\n}\n"
    "/* m16n8k16 .f16 / .bf16: the .tf32 fragment layouts, two elements per register\n"
    " * (the lower k in the low half), f32 products summed in f32 */\n"
    "template <int BF>\n"
    "static inline void mt_mma16816_emu(float c[4], const unsigned a[4], unsigned b0, "
    "unsigned b1) {\n"
    "    const int lane = (int)threadIdx.x & 31, g = lane >> 2, t = lane & 3;\n"
    "    const uint4 ra = {a[0], a[1], a[2], a[3]};\n"
    "    const uint2 rb = {b0, b1};\n"
    "    for (int j = 0; j < 4; j++) {\n"
    "        const uint4 x = __shfl_sync(0xffffffffu, ra, g * 4 + j);\n"
    "        const uint2 y0 = __shfl_sync(0xffffffffu, rb, 2 * t * 4 + j);\n"
    "        const uint2 y1 = __shfl_sync(0xffffffffu, rb, (2 * t + 1) * 4 + j);\n"
    "        for (int h = 0; h < 2; h++) {\n"
    "            const float a0 = mt_h16(x.x, h, BF), a1 = mt_h16(x.y, h, BF);\n"
    "            const float a2 = mt_h16(x.z, h, BF), a3 = mt_h16(x.w, h, BF);\n"
    "            const float p0 = mt_h16(y0.x, h, BF), p1 = mt_h16(y0.y, h, BF);\n"
    "            const float q0 = mt_h16(y1.x, h, BF), q1 = mt_h16(y1.y, h, BF);\n"
    "            c[0] = fmaf(a2, p1, fmaf(a0, p0, c[0]));\n"
    "            c[1] = fmaf(a2, q1, fmaf(a0, q0, c[1]));\n"
    "            c[2] = fmaf(a3, p1, fmaf(a1, p0, c[2]));\n"
    "            c[3] = fmaf(a3, q1, fmaf(a1, q0, c[3]));\n"
    "        }\n"
    "    }\n}\n"
    "static inline void mt_mma16816_f16(float c[4], const unsigned a[4], unsigned b0, "
    "unsigned b1) {\n"
    "    mt_mma16816_emu<0>(c, a, b0, b1);\n}\n"
    "static inline void mt_mma16816_bf16(float c[4], const unsigned a[4], unsigned b0, "
    "unsigned b1) {\n"
    "    mt_mma16816_emu<1>(c, a, b0, b1);\n}\n"
    "#endif\n#endif\n";

/* The helpers of the TF32, int8 and fp8 kernels, once per translation unit
 * (after emit_cuda_mma.c's mma_helpers): B's fragment loads (mt_ldb_*),
 * the tf32x3 split, the mma.sync of each shape (mt_mma_tile_*); for test/emu
 * (compiled without nvcc) the same in C: the copies synchronous, ldmatrix
 * and mma.sync over the warp's registers exchanged with __shfl_sync in the
 * PTX ISA's fragment layouts, so that the CPU runs the path's index arithmetic. */
const char *cuda_mma_perm_helpers(Arena *a) {
    StrBuf sb;
    sb_init(&sb, a);
    sb_puts(&sb, perm_common);
    for (size_t i = 0; i < sizeof mma_shapes / sizeof mma_shapes[0]; i++) {
        const MmaShape *S = &mma_shapes[i];
        if (S->ldsm_b || !S->ptx || (i > 0 && !strcmp(mma_shapes[i - 1].name, S->name))) continue;
        const char *c = S->acc == DT_I32 ? "int" : "float", *r = S->acc == DT_I32 ? "r" : "f";
        if (S->sm > 80) sb_printf(&sb, "#if __CUDA_ARCH__ >= %d\n", S->sm * 10);
        sb_printf(&sb,
                  "static __device__ __forceinline__ void mt_mma_tile_%s(%s c[4], const unsigned "
                  "a[4], "
                  "unsigned b0, unsigned b1) {\n"
                  "    asm volatile(\"%s {%%0, %%1, %%2, %%3}, {%%4, %%5, %%6, %%7}, {%%8, %%9}, "
                  "{%%0, %%1, %%2, %%3};\"\n"
                  "                 : \"+%s\"(c[0]), \"+%s\"(c[1]), \"+%s\"(c[2]), \"+%s\"(c[3])\n"
                  "                 : \"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3]), "
                  "\"r\"(b0), "
                  "\"r\"(b1));\n}\n",
                  S->name, c, S->ptx, r, r, r, r);
        if (S->sm > 80) sb_puts(&sb, "#endif\n");
    }
    sb_puts(&sb, perm_emulated);
    return sb_str(&sb);
}
