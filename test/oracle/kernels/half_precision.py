import triton
import triton.language as tl


@triton.jit
def add_fp16_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)


@triton.jit
def scale_bf16_kernel(x_ptr, out_ptr, n_elements, scale, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    y = x * scale + 1.0
    tl.store(out_ptr + offsets, y.to(tl.bfloat16), mask=mask)


@triton.jit
def downcast_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    # The accumulator idiom of the matmul tutorial: compute in fp32, store
    # in the output's element type, whatever it is.
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    acc = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    acc = acc * 2.0
    c = acc.to(out_ptr.dtype.element_ty)
    tl.store(out_ptr + offsets, c, mask=mask)


@triton.jit
def mixed_float_kernel(a_ptr, b_ptr, h_ptr, f_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    # fp16 with bf16 promotes to fp16 (Triton prefers fp16); fp16 with a Python
    # float stays fp16.
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    a = tl.load(a_ptr + offsets, mask=mask, other=0.0)
    b = tl.load(b_ptr + offsets, mask=mask, other=0.0)
    h = a * 0.5 + 3.0
    f = a + b
    tl.store(h_ptr + offsets, h, mask=mask)
    tl.store(f_ptr + offsets, f, mask=mask)
