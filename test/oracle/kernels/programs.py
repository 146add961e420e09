import triton
import triton.language as tl


@triton.jit
def grouped_ids_kernel(pid_m_ptr, pid_n_ptr, M, N, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                       GROUP_SIZE_M: tl.constexpr):
    # The program ordering of the matmul tutorial (L2 cache grouping).
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    tl.store(pid_m_ptr + pid, pid_m)
    tl.store(pid_n_ptr + pid, max(pid_n, 0))


@triton.jit
def num_programs_kernel(x_ptr, out_ptr, info_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, x * 2.0 + nprog, mask=mask)
    tl.store(info_ptr + pid, nprog * 1000 + tl.num_programs(axis=1) * 100 + min(pid, 7) + max(pid - 30, 0))


@triton.jit
def persistent_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # A persistent grid-stride loop (its runtime step is the control-flow
    # issue's part).
    pid = tl.program_id(0)
    num_tiles = tl.cdiv(n, BLOCK)
    for tile in range(pid, num_tiles, tl.num_programs(0)):
        offs = tile * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask, other=0.0)
        tl.store(out_ptr + offs, x * 2.0 + tile, mask=mask)


@triton.jit
def row_offsets_kernel(x_ptr, out_ptr, stride_row, n_cols, BLOCK: tl.constexpr):
    # 64-bit row offsets, as kernels on large tensors write them.
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=0.0)
    tl.store(out_ptr + row * n_cols + cols, x + row, mask=mask)
