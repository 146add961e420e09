import triton
import triton.language as tl


@triton.jit
def products_kernel(a_ptr, b_ptr, c_ptr, d_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # Which product a sum or difference of products fuses into one
    # multiply-add (the other is rounded first): the rounding of each form
    # is Triton's choice on the GPU, compared bit for bit at -O2.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(a_ptr + offs, mask=m)
    b = tl.load(b_ptr + offs, mask=m)
    c = tl.load(c_ptr + offs, mask=m)
    d = tl.load(d_ptr + offs, mask=m)
    tl.store(out_ptr + offs, a * b + c * d, mask=m)
    tl.store(out_ptr + n + offs, a * b - c * d, mask=m)
    tl.store(out_ptr + 2 * n + offs, a * b + c, mask=m)
    tl.store(out_ptr + 3 * n + offs, c + a * b, mask=m)
    tl.store(out_ptr + 4 * n + offs, a * b - c, mask=m)
    tl.store(out_ptr + 5 * n + offs, c - a * b, mask=m)
