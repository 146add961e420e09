/* The f32 -> bf16 conversion LLVM calls (__truncsfbf2) when the CPU has no
 * bf16 instruction, for mlir-cpu-runner's JIT (-shared-libs): libgcc has
 * it from GCC 13 on, Debian 12's libgcc 12 does not. Round to nearest
 * even, a NaN stays a quiet NaN; the result in the low 16 bits of xmm0,
 * as x86-64 returns a _Float16 (and LLVM a bfloat). */
#include <stdint.h>
#include <string.h>

_Float16 __truncsfbf2(float f);

_Float16 __truncsfbf2(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    uint16_t b = (u & 0x7fffffffu) > 0x7f800000u
                     ? (uint16_t)((u >> 16) | 0x40u)
                     : (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
    _Float16 r;
    memcpy(&r, &b, sizeof r);
    return r;
}
