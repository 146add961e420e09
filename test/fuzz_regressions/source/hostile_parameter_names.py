#mt|kernel=k|sig=*fp32, *fp32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32|D=BLOCK=128|grid=cdiv(int, BLOCK)
import triton
import triton.language as tl


@triton.jit
def k(x, out, int, new, this, threadIdx, blockIdx, v3, tile_i, ty, tx, mm_As, reduce_smem_1, stream, grid, float4, i, j, q, r, t, off, err, ok, empty, status, args, ctx, k_kernel, launch_k, k_args, k_program, k_blocks, int4, make_float4, fmaf, uintptr_t, size_t, errno, EOF, INT32_MAX, M_PI, stdout, printf, memcpy, CUresult, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    for kk in range(int):
        acc += tl.load(x + offs + kk, mask=offs < new, other=0.0)
    s = int + new + this + threadIdx + blockIdx + v3 + tile_i + ty + tx + mm_As + reduce_smem_1 + stream + grid + float4 + i + j + q + r + t + off + err + ok + empty + status + args + ctx + k_kernel + launch_k + k_args + k_program + k_blocks + int4 + make_float4 + fmaf + uintptr_t + size_t + errno + EOF + INT32_MAX + M_PI + stdout + printf + memcpy + CUresult
    tl.store(out + offs, acc + s + tl.sum(acc), mask=offs < this)
