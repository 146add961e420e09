/* mytriton/atomic.h: the atomics of the host backend's generated C
 * (tl.atomic_add / max / min / and / or / xor / xchg / cas), on the
 * element types of host memory. The host executor runs programs on
 * several threads, so these are real atomics: GCC / Clang __atomic
 * builtins (valid under -std=c11 -pedantic), sequentially consistent (at
 * least as strong as any sem= Triton accepts). Each returns the old
 * value, as a value of the dtype's compute type (float for fp16 / bf16).
 *   - integers: add, and, or, xor, xchg, cas natively; max / min by a
 *     compare-exchange loop; signed add wraps;
 *   - floats: add by a compare-exchange loop on the bits (fp16 / bf16: the
 *     sum rounded once to the dtype, as atom.add.noftz.f16 / .bf16); max /
 *     min as Triton lowers them: a value >= 0 (-0.0 included) by a signed
 *     integer max (min) of the bits, a value < 0 by an unsigned min (max),
 *     a NaN does nothing; xchg and cas on the bits. */
#ifndef MYTRITON_ATOMIC_H
#define MYTRITON_ATOMIC_H

#include <stdint.h>
#include <string.h>

#include "mytriton/dtypes.h"

#define MYTRITON_SEQ __ATOMIC_SEQ_CST

#define MYTRITON_ATOMIC_INT(sfx, T)                                                        \
    static inline T mytriton_atomic_add_##sfx(T *p, T v) {                                 \
        return __atomic_fetch_add(p, v, MYTRITON_SEQ);                                     \
    }                                                                                      \
    static inline T mytriton_atomic_and_##sfx(T *p, T v) {                                 \
        return __atomic_fetch_and(p, v, MYTRITON_SEQ);                                     \
    }                                                                                      \
    static inline T mytriton_atomic_or_##sfx(T *p, T v) {                                  \
        return __atomic_fetch_or(p, v, MYTRITON_SEQ);                                      \
    }                                                                                      \
    static inline T mytriton_atomic_xor_##sfx(T *p, T v) {                                 \
        return __atomic_fetch_xor(p, v, MYTRITON_SEQ);                                     \
    }                                                                                      \
    static inline T mytriton_atomic_xchg_##sfx(T *p, T v) {                                \
        return __atomic_exchange_n(p, v, MYTRITON_SEQ);                                    \
    }                                                                                      \
    static inline T mytriton_atomic_cas_##sfx(T *p, T cmp, T v) {                          \
        __atomic_compare_exchange_n(p, &cmp, v, 0, MYTRITON_SEQ, MYTRITON_SEQ);            \
        return cmp;                                                                        \
    }                                                                                      \
    static inline T mytriton_atomic_max_##sfx(T *p, T v) {                                 \
        T old = __atomic_load_n(p, MYTRITON_SEQ);                                          \
        while (old < v &&                                                                  \
               !__atomic_compare_exchange_n(p, &old, v, 0, MYTRITON_SEQ, MYTRITON_SEQ)) {} \
        return old;                                                                        \
    }                                                                                      \
    static inline T mytriton_atomic_min_##sfx(T *p, T v) {                                 \
        T old = __atomic_load_n(p, MYTRITON_SEQ);                                          \
        while (old > v &&                                                                  \
               !__atomic_compare_exchange_n(p, &old, v, 0, MYTRITON_SEQ, MYTRITON_SEQ)) {} \
        return old;                                                                        \
    }

MYTRITON_ATOMIC_INT(i16, int16_t)
MYTRITON_ATOMIC_INT(u16, uint16_t)
MYTRITON_ATOMIC_INT(i32, int32_t)
MYTRITON_ATOMIC_INT(u32, uint32_t)
MYTRITON_ATOMIC_INT(i64, int64_t)
MYTRITON_ATOMIC_INT(u64, uint64_t)

/* A float dtype F held in memory as bits of the unsigned U (and the signed
 * S of its width), computing in C: add, max, min, xchg, cas. */
#define MYTRITON_ATOMIC_FLOAT(sfx, F, C, U, S, usfx, ssfx, TO, FROM)                         \
    static inline C mytriton_atomic_bits_to_##sfx(U b) {                                     \
        F x;                                                                                 \
        memcpy(&x, &b, sizeof x);                                                            \
        return TO(x);                                                                        \
    }                                                                                        \
    static inline U mytriton_atomic_bits_of_##sfx(C v) {                                     \
        F x = FROM(v);                                                                       \
        U b;                                                                                 \
        memcpy(&b, &x, sizeof b);                                                            \
        return b;                                                                            \
    }                                                                                        \
    static inline C mytriton_atomic_add_##sfx(F *p, C v) {                                   \
        U *q = (U *)(void *)p;                                                               \
        U old = __atomic_load_n(q, MYTRITON_SEQ), sum;                                       \
        do {                                                                                 \
            sum = mytriton_atomic_bits_of_##sfx(mytriton_atomic_bits_to_##sfx(old) + v);     \
        } while (!__atomic_compare_exchange_n(q, &old, sum, 0, MYTRITON_SEQ, MYTRITON_SEQ)); \
        return mytriton_atomic_bits_to_##sfx(old);                                           \
    }                                                                                        \
    static inline C mytriton_atomic_xchg_##sfx(F *p, C v) {                                  \
        return mytriton_atomic_bits_to_##sfx(                                                \
            mytriton_atomic_xchg_##usfx((U *)(void *)p, mytriton_atomic_bits_of_##sfx(v)));  \
    }                                                                                        \
    static inline C mytriton_atomic_cas_##sfx(F *p, C cmp, C v) {                            \
        return mytriton_atomic_bits_to_##sfx(                                                \
            mytriton_atomic_cas_##usfx((U *)(void *)p, mytriton_atomic_bits_of_##sfx(cmp),   \
                                       mytriton_atomic_bits_of_##sfx(v)));                   \
    }                                                                                        \
    static inline C mytriton_atomic_maxmin_##sfx(F *p, C v, int is_max) {                    \
        U b = mytriton_atomic_bits_of_##sfx(v), old;                                         \
        S sb;                                                                                \
        memcpy(&sb, &b, sizeof sb);                                                          \
        if (v >= 0) {                                                                        \
            S so = is_max ? mytriton_atomic_max_##ssfx((S *)(void *)p, sb)                   \
                          : mytriton_atomic_min_##ssfx((S *)(void *)p, sb);                  \
            memcpy(&old, &so, sizeof old);                                                   \
        } else if (v < 0) {                                                                  \
            old = is_max ? mytriton_atomic_min_##usfx((U *)(void *)p, b)                     \
                         : mytriton_atomic_max_##usfx((U *)(void *)p, b);                    \
        } else {                                                                             \
            old = __atomic_load_n((U *)(void *)p, MYTRITON_SEQ);                             \
        }                                                                                    \
        return mytriton_atomic_bits_to_##sfx(old);                                           \
    }                                                                                        \
    static inline C mytriton_atomic_max_##sfx(F *p, C v) {                                   \
        return mytriton_atomic_maxmin_##sfx(p, v, 1);                                        \
    }                                                                                        \
    static inline C mytriton_atomic_min_##sfx(F *p, C v) {                                   \
        return mytriton_atomic_maxmin_##sfx(p, v, 0);                                        \
    }

#define MYTRITON_ATOMIC_SAME(x) (x)
MYTRITON_ATOMIC_FLOAT(f32, float, float, uint32_t, int32_t, u32, i32, MYTRITON_ATOMIC_SAME,
                      MYTRITON_ATOMIC_SAME)
MYTRITON_ATOMIC_FLOAT(f64, double, double, uint64_t, int64_t, u64, i64, MYTRITON_ATOMIC_SAME,
                      MYTRITON_ATOMIC_SAME)
MYTRITON_ATOMIC_FLOAT(f16, mytriton_fp16, float, uint16_t, int16_t, u16, i16,
                      mytriton_fp16_to_float, mytriton_fp16_from_float)
MYTRITON_ATOMIC_FLOAT(bf16, mytriton_bf16, float, uint16_t, int16_t, u16, i16,
                      mytriton_bf16_to_float, mytriton_bf16_from_float)

#endif
