# Tensor descriptors passed by the host (Triton's TensorDescriptor
# arguments, signature `tensordesc<fp16[32, 32]>`), the form of Liger's
# fused MLP and of the persistent matmul tutorial: each descriptor arrives
# as its base, shape and strides, and loads and stores through it check
# every dimension (ragged edges read zeros and are not written).
import triton
import triton.language as tl


@triton.jit
def desc_matmul_kernel(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr,
                       BK: tl.constexpr):
    # C = A @ B^T with B stored (N, K), as a linear layer's weight
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([pid_m * BM, k])
        b = b_desc.load([pid_n * BN, k])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(c_desc.dtype))


@triton.jit
def desc_batch_scale_kernel(x_desc, y_desc, scale, BM: tl.constexpr, BN: tl.constexpr):
    # a rank-3 descriptor read one (1, BM, BN) block at a time
    b = tl.program_id(1)
    m = tl.program_id(0) * BM
    x = tl.reshape(x_desc.load([b, m, 0]), [BM, BN])
    y = (x.to(tl.float32) * scale).to(y_desc.dtype)
    y_desc.store([b, m, 0], tl.reshape(y, [1, BM, BN]))
