// test/emu: cuda_fp8.h's two 8-bit float types as the generated code uses
// them (a byte `__x`, made from a float, read as a float), converted by
// the runtime's own e4m3 / e5m2 rules (mytriton/dtypes.h).
#pragma once
#include <mytriton/dtypes.h>

#include "cuda_runtime.h"

struct __nv_fp8_e4m3 {
    unsigned char __x;
    __nv_fp8_e4m3() = default;
    explicit __nv_fp8_e4m3(float f) : __x(mytriton_fp8e4nv_from_float(f).bits) {}
    explicit operator float() const { return mytriton_fp8e4nv_to_float(mytriton_fp8e4nv{__x}); }
};
struct __nv_fp8_e5m2 {
    unsigned char __x;
    __nv_fp8_e5m2() = default;
    explicit __nv_fp8_e5m2(float f) : __x(mytriton_fp8e5_from_float(f).bits) {}
    explicit operator float() const { return mytriton_fp8e5_to_float(mytriton_fp8e5{__x}); }
};
