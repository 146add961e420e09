/* mytriton/dtypes.h: the C types of the dtypes that C has no type for
 * (16-bit and 8-bit floats), as they cross the generated headers, and
 * their conversions to and from float, bit-exact (round to nearest even,
 * as CUDA's __float2half_rn / __float2bfloat16_rn and Triton's casts).
 * Valid C11 and C++; no CUDA headers needed. The host backend computes
 * with these functions. */
#ifndef MYTRITON_DTYPES_H
#define MYTRITON_DTYPES_H

#include <stdint.h>
#include <string.h>

/* Host and device: the generated CUDA code calls these too. */
#if defined(__CUDACC__)
#define MYTRITON_HD __host__ __device__
#else
#define MYTRITON_HD
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The bits of a value, as the GPU stores them. */
typedef struct mytriton_fp16 {
    uint16_t bits;
} mytriton_fp16; /* IEEE binary16 (tl.float16) */
typedef struct mytriton_bf16 {
    uint16_t bits;
} mytriton_bf16; /* bfloat16 (tl.bfloat16) */
typedef struct mytriton_fp8e4nv {
    uint8_t bits;
} mytriton_fp8e4nv; /* e4m3, no infinities (tl.float8e4nv) */
typedef struct mytriton_fp8e5 {
    uint8_t bits;
} mytriton_fp8e5; /* e5m2 (tl.float8e5) */

static inline MYTRITON_HD uint32_t mytriton_f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}
static inline MYTRITON_HD float mytriton_bits_f32(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
static inline MYTRITON_HD uint64_t mytriton_f64_bits(double f) {
    uint64_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* A small float format of `ebits` exponent and `mbits` mantissa bits with
 * bias 2^(ebits-1)-1, from a double, rounded to nearest even. `inf`: the
 * format has infinities (else the all-ones exponent and mantissa is NaN).
 * `sat`: overflow and infinities give the largest finite value (the GPU's
 * satfinite conversions to fp8) instead of infinity. */
static inline MYTRITON_HD uint32_t mytriton_encode_small(double v, int ebits, int mbits, int inf,
                                                         int sat) {
    uint64_t u = mytriton_f64_bits(v);
    uint32_t sign = (uint32_t)(u >> 63) << (ebits + mbits);
    int bias = (1 << (ebits - 1)) - 1;
    uint32_t expmask = (1u << ebits) - 1;
    if (v != v) /* NaN: all ones; the satfinite conversions (fp8) give the
                 * GPU's canonical 0x7f whatever the sign, as Triton's */
        return (sat ? 0u : sign) | (expmask << mbits) | ((1u << mbits) - 1u);
    double a = v < 0 ? -v : v;
    uint32_t maxfin = inf ? (((expmask - 1) << mbits) | ((1u << mbits) - 1))
                          : ((expmask << mbits) | ((1u << mbits) - 2));
    if (a == 0) return sign;
    /* the exponent of a's leading bit */
    int e = (int)((u >> 52) & 0x7ff) - 1023;
    int emin = 1 - bias;
    if (a > 1e300 || e > (int)expmask - bias + 1) /* infinite, or far above the range */
        return sign | ((inf && !sat) ? (expmask << mbits) : maxfin);
    if (e < emin - mbits - 2)
        return sign; /* far below half the smallest subnormal: rounds to zero */
    int q = (e < emin ? emin : e) - mbits; /* quantum exponent */
    /* scaled = a / 2^q, rounded to nearest even (exact: a has 53 bits) */
    double scaled = a;
    for (int k = 0; k < (q < 0 ? -q : q); k++) scaled = q < 0 ? scaled * 2 : scaled / 2;
    double fl = (double)(uint64_t)scaled;
    double frac = scaled - fl;
    uint64_t m = (uint64_t)fl;
    if (frac > 0.5 || (frac == 0.5 && (m & 1))) m++;
    /* m * 2^q; normalize into the format */
    uint32_t bits;
    if (q == emin - mbits && m < (1ull << mbits)) {
        bits = (uint32_t)m; /* subnormal */
    } else {
        int ex = q + mbits;
        while (m >= (2ull << mbits))
            m >>= 1, ex++; /* rounding carried into the next binade (m even) */
        if (m < (1ull << mbits)) return sign | (uint32_t)m; /* not reached */
        int biased = ex + bias;
        if (biased >= (int)expmask + (inf ? 0 : 1))
            return sign | ((inf && !sat) ? (expmask << mbits) : maxfin);
        bits = ((uint32_t)biased << mbits) | (uint32_t)(m & ((1ull << mbits) - 1));
        if (bits > maxfin) return sign | ((inf && !sat) ? (expmask << mbits) : maxfin);
    }
    return sign | bits;
}

/* The value of a small float's bits, exactly, as a double. */
static inline MYTRITON_HD double mytriton_decode_small(uint32_t bits, int ebits, int mbits,
                                                       int inf) {
    int bias = (1 << (ebits - 1)) - 1;
    uint32_t expmask = (1u << ebits) - 1;
    uint32_t s = (bits >> (ebits + mbits)) & 1, e = (bits >> mbits) & expmask,
             m = bits & ((1u << mbits) - 1);
    double v;
    if (e == expmask && (inf || m == (1u << mbits) - 1)) {
        if (inf && m == 0) v = 1.0 / 0.0 * 1; /* infinity */
        else v = 0.0 / 0.0 * 1;               /* NaN */
        if (v != v) return v;
    } else if (e == 0) {
        v = (double)m;
        for (int k = 0; k < bias - 1 + mbits; k++) v /= 2;
    } else {
        v = (double)(m | (1u << mbits));
        int sh = (int)e - bias - mbits;
        for (int k = 0; k < (sh < 0 ? -sh : sh); k++) v = sh < 0 ? v / 2 : v * 2;
    }
    return s ? -v : v;
}

static inline MYTRITON_HD mytriton_fp16 mytriton_fp16_from_double(double v) {
    mytriton_fp16 h = {(uint16_t)mytriton_encode_small(v, 5, 10, 1, 0)};
    return h;
}
static inline MYTRITON_HD mytriton_fp16 mytriton_fp16_from_float(float v) {
    return mytriton_fp16_from_double((double)v);
}
static inline MYTRITON_HD float mytriton_fp16_to_float(mytriton_fp16 h) {
    return (float)mytriton_decode_small(h.bits, 5, 10, 1);
}

static inline MYTRITON_HD mytriton_bf16 mytriton_bf16_from_double(double v) {
    mytriton_bf16 h = {(uint16_t)mytriton_encode_small(v, 8, 7, 1, 0)};
    return h;
}
static inline MYTRITON_HD mytriton_bf16 mytriton_bf16_from_float(float v) {
    /* bfloat16 is the top half of a float: round the low half to nearest even */
    uint32_t u = mytriton_f32_bits(v);
    mytriton_bf16 h;
    if ((u & 0x7fffffffu) > 0x7f800000u) {
        h.bits = (uint16_t)((u >> 16) | 0x40); /* a quiet NaN */
        return h;
    }
    u += 0x7fffu + ((u >> 16) & 1u);
    h.bits = (uint16_t)(u >> 16);
    return h;
}
static inline MYTRITON_HD float mytriton_bf16_to_float(mytriton_bf16 h) {
    return mytriton_bits_f32((uint32_t)h.bits << 16);
}

static inline MYTRITON_HD mytriton_fp8e4nv mytriton_fp8e4nv_from_double(double v) {
    mytriton_fp8e4nv h = {(uint8_t)mytriton_encode_small(v, 4, 3, 0, 1)};
    return h;
}
static inline MYTRITON_HD mytriton_fp8e4nv mytriton_fp8e4nv_from_float(float v) {
    return mytriton_fp8e4nv_from_double((double)v);
}
static inline MYTRITON_HD float mytriton_fp8e4nv_to_float(mytriton_fp8e4nv h) {
    return (float)mytriton_decode_small(h.bits, 4, 3, 0);
}
static inline MYTRITON_HD mytriton_fp8e5 mytriton_fp8e5_from_double(double v) {
    mytriton_fp8e5 h = {(uint8_t)mytriton_encode_small(v, 5, 2, 1, 1)};
    return h;
}
static inline MYTRITON_HD mytriton_fp8e5 mytriton_fp8e5_from_float(float v) {
    return mytriton_fp8e5_from_double((double)v);
}
static inline MYTRITON_HD float mytriton_fp8e5_to_float(mytriton_fp8e5 h) {
    return (float)mytriton_decode_small(h.bits, 5, 2, 1);
}

/* Float to integer as the GPU converts (cvt.rzi): truncation toward zero,
 * saturating at the destination's limits, NaN to 0. */
static inline MYTRITON_HD int64_t mytriton_f2i(double v, int64_t lo, int64_t hi) {
    if (v != v) return 0;
    if (v <= (double)lo) return lo;
    if (v >= (double)hi) return hi;
    return (int64_t)v;
}
/* To i64: as cvt.rzi.s64, NaN gives the smallest value. */
static inline MYTRITON_HD int64_t mytriton_f2i64(double v) {
    if (v != v) return INT64_MIN;
    if (v <= -9223372036854775808.0) return INT64_MIN;
    if (v >= 9223372036854775808.0) return INT64_MAX;
    return (int64_t)v;
}
static inline MYTRITON_HD uint64_t mytriton_f2u(double v, uint64_t hi) {
    if (v != v)
        return hi == UINT64_MAX ? (uint64_t)1 << 63 : 0; /* as cvt.rzi.u64: NaN gives 2^63 */
    if (v <= 0) return 0;
    if (v >= (double)hi) return hi;
    return (uint64_t)v;
}

/* A double rounded toward zero to a float format (fp_downcast_rounding="rtz"),
 * returned as its exact value: ebits exponent bits (5: f16 and fp8e5, 8:
 * bf16, 4: fp8e4nv) and mbits mantissa bits; overflow gives the largest
 * finite value, as rtz does. */
static inline MYTRITON_HD float mytriton_round_rz(double v, int ebits, int mbits) {
    if (v != v || v == 0) return (float)v;
    if (v - v != 0) /* infinite: stays so where the format has infinities (not e4m3) */
        return ebits == 4 ? (v < 0 ? -448.0f : 448.0f) : (float)v;
    int bias = (1 << (ebits - 1)) - 1;
    int emax = ebits == 4 ? 8 : bias, emin = 1 - bias;
    double a = v < 0 ? -v : v, q = 1;
    int e = 0;
    while (a >= 2 * q && e < 1100) q *= 2, e++;
    while (a < q && e > -1100) q /= 2, e--;
    if (e < emin) e = emin;
    double quantum = 1;
    for (int k = 0; k < (e - mbits < 0 ? mbits - e : e - mbits); k++)
        quantum = e - mbits < 0 ? quantum / 2 : quantum * 2;
    double r = (double)(int64_t)(a / quantum) * quantum;
    double maxv = 1;
    for (int k = 0; k < emax; k++) maxv *= 2;
    maxv *= 2 - 1.0 / (double)(1 << mbits) * (ebits == 4 ? 2 : 1);
    if (r > maxv) r = maxv;
    return (float)(v < 0 ? -r : r);
}
static inline MYTRITON_HD float mytriton_f64_to_f32_rz(double v) {
    float f = (float)v;
    if (f != f || v == (double)f) return f;
    /* (float) rounds to nearest: step back toward zero if it went outward */
    if ((v > 0 && (double)f > v) || (v < 0 && (double)f < v)) {
        uint32_t u = mytriton_f32_bits(f);
        if ((u & 0x7fffffffu) == 0x7f800000u) u -= 1; /* infinity: the largest finite */
        else u -= 1;
        f = mytriton_bits_f32(u);
    }
    return f;
}

/* The high 64 bits of the unsigned 128-bit product. */
static inline MYTRITON_HD uint64_t mytriton_umul64hi(uint64_t a, uint64_t b) {
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

#ifdef __cplusplus
}
/* The bits of a value read as another type of the same size. */
template <class To, class From>
static inline MYTRITON_HD To mytriton_bitcast(From x) {
    To y;
    memcpy(&y, &x, sizeof y);
    return y;
}
#else
#define MYTRITON_BITCAST(To, From, x) \
    (((union {                        \
         From f;                      \
         To t;                        \
     }){.f = (x)})                    \
         .t)
#endif

#endif
