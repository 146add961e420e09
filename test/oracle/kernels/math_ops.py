import triton
import triton.language as tl


@triton.jit
def math_f32_kernel(x_ptr, log_ptr, sqrt_ptr, sigmoid_ptr, exp2_ptr, rsqrt_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    tl.store(log_ptr + offs, tl.log(x), mask=mask)
    tl.store(sqrt_ptr + offs, tl.sqrt(x), mask=mask)
    tl.store(sigmoid_ptr + offs, tl.sigmoid(x), mask=mask)
    tl.store(exp2_ptr + offs, tl.exp2(x), mask=mask)
    tl.store(rsqrt_ptr + offs, tl.rsqrt(x), mask=mask)


@triton.jit
def fma_kernel(a_ptr, b_ptr, c_ptr, fma_ptr, div_ptr, divrn_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=1.0)
    b = tl.load(b_ptr + offs, mask=mask, other=1.0)
    c = tl.load(c_ptr + offs, mask=mask, other=1.0)
    tl.store(fma_ptr + offs, tl.fma(a, b, c), mask=mask)
    tl.store(div_ptr + offs, a / b, mask=mask)
    tl.store(divrn_ptr + offs, tl.div_rn(a, b), mask=mask)


@triton.jit
def f64_kernel(x_ptr, y_ptr, out_ptr, sq_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    y = tl.load(y_ptr + offs, mask=mask, other=1.0)
    tl.store(out_ptr + offs, (x * y + 0.1) / (y - 3.0), mask=mask)
    tl.store(sq_ptr + offs, tl.sqrt(tl.abs(x)) + tl.floor(y), mask=mask)


@triton.jit
def softmax_fp16_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_cols,
                        BLOCK_SIZE: tl.constexpr):
    # The fused softmax tutorial on fp16 rows, computing in fp32.
    row_idx = tl.program_id(0)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    input_ptrs = row_start_ptr + col_offsets
    mask = col_offsets < n_cols
    row = tl.load(input_ptrs, mask=mask, other=-float('inf')).to(tl.float32)
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    softmax_output = numerator / denominator
    output_row_start_ptr = output_ptr + row_idx * output_row_stride
    tl.store(output_row_start_ptr + col_offsets, softmax_output.to(tl.float16), mask=mask)
