# The MLIR backend's float conversions that it writes as arith on bits
# (8-bit floats, fp_downcast_rounding="rtz"), run on the CPU by
# mlir-cpu-runner in mlir_emit_test.cpp (MlirCpu.*): one program per input.
import triton
import triton.language as tl


@triton.jit
def conversions_kernel(x_ptr, xd_ptr, e4_ptr, e5_ptr, e4z_ptr, e5z_ptr, back4_ptr, back5_ptr, h_ptr, hz_ptr,
                       b_ptr, bz_ptr, dz_ptr, dh_ptr, dhz_ptr):
    i = tl.program_id(0)
    x = tl.load(x_ptr + i)
    xd = tl.load(xd_ptr + i)
    a = x.to(tl.float8e4nv)
    b = x.to(tl.float8e5)
    tl.store(e4_ptr + i, a)
    tl.store(e5_ptr + i, b)
    tl.store(e4z_ptr + i, tl.cast(x, tl.float8e4nv, fp_downcast_rounding="rtz"))
    tl.store(e5z_ptr + i, tl.cast(x, tl.float8e5, fp_downcast_rounding="rtz"))
    tl.store(back4_ptr + i, a.to(tl.float32))
    tl.store(back5_ptr + i, b.to(tl.float32))
    tl.store(h_ptr + i, x.to(tl.float16))
    tl.store(hz_ptr + i, tl.cast(x, tl.float16, fp_downcast_rounding="rtz"))
    tl.store(b_ptr + i, x.to(tl.bfloat16))
    tl.store(bz_ptr + i, tl.cast(x, tl.bfloat16, fp_downcast_rounding="rtz"))
    tl.store(dz_ptr + i, tl.cast(xd, tl.float32, fp_downcast_rounding="rtz"))
    tl.store(dh_ptr + i, xd.to(tl.float16))
    # (f64 to bf16 is left to the GPU tests: the CPU JIT lacks __truncdfbf2)
    tl.store(dhz_ptr + i, tl.cast(xd, tl.float16, fp_downcast_rounding="rtz"))
