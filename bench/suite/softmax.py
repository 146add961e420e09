# Softmax kernels of the benchmark suite, after Triton's fused-softmax
# tutorial: one row per program (plain, and scaled as in attention), and a
# persistent form where each of a fixed number of programs walks the rows
# pid, pid + num_programs, ... (runtime loops take a constant step, so the
# loop counts iterations and computes the row).
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    input_ptrs = row_start_ptr + col_offsets
    mask = col_offsets < n_cols
    row = tl.load(input_ptrs, mask=mask, other=-float("inf"))
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    softmax_output = numerator / denominator
    output_row_start_ptr = output_ptr + row_idx * output_row_stride
    tl.store(output_row_start_ptr + col_offsets, softmax_output, mask=mask)


@triton.jit
def scaled_softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_cols, scale,
                          BLOCK_SIZE: tl.constexpr):
    # softmax(x * scale) of 16-bit rows, computed in fp32 with exp2.
    row_idx = tl.program_id(0)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    row = tl.load(input_ptr + row_idx * input_row_stride + col_offsets, mask=mask, other=-float("inf"))
    row = row.to(tl.float32) * (scale * 1.4426950408889634)
    numerator = tl.exp2(row - tl.max(row, axis=0))
    denominator = tl.sum(numerator, axis=0)
    out = numerator / denominator
    tl.store(output_ptr + row_idx * output_row_stride + col_offsets, out.to(output_ptr.dtype.element_ty), mask=mask)


@triton.jit
def softmax_persistent_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                              BLOCK_SIZE: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    for i in range(0, tl.cdiv(n_rows - row_start, row_step)):
        row_idx = row_start + i * row_step
        row = tl.load(input_ptr + row_idx * input_row_stride + col_offsets, mask=mask, other=-float("inf"))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        tl.store(output_ptr + row_idx * output_row_stride + col_offsets, numerator / denominator, mask=mask)
