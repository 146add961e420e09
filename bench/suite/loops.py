# Runtime loops of the benchmark suite: a sum over K planes of a tensor
# (one program per BLOCK_SIZE elements of a plane), and an exponential
# moving average along a runtime number of steps.
import triton
import triton.language as tl


@triton.jit
def plane_sum_kernel(x_ptr, out_ptr, n_elements, K, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for k in range(K):
        acc += tl.load(x_ptr + k * n_elements + offsets, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + offsets, acc, mask=mask)


@triton.jit
def ema_kernel(x_ptr, out_ptr, n_elements, T, decay, BLOCK_SIZE: tl.constexpr):
    # out = EMA over T time steps of x[t, :] (x is T x n_elements).
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    ptrs = x_ptr + offsets
    avg = tl.load(ptrs, mask=mask, other=0.0)
    for t in range(1, T):
        ptrs += n_elements
        avg = decay * avg + (1.0 - decay) * tl.load(ptrs, mask=mask, other=0.0)
    tl.store(out_ptr + offsets, avg, mask=mask)
