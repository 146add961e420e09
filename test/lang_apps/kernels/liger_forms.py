# Kernels written the way Liger-Kernel writes them (our own code, in its
# forms). RMS norm: rsqrt imported from libdevice under a module-level
# try/except (whichever spelling the installed Triton has), 64-bit row
# indexes, and a backward pass whose programs each walk a range of rows
# with 64-bit bounds, accumulating the weight gradient and a 0-d counter
# made by tl.zeros(()). Online softmax: running scalars made by calling a
# dtype, tl.float32(-float("inf")), carried through a tl.range loop (a
# mytriton extension: Triton 3.6 rejects calling a dtype).
# GELU (tanh form) through a module-level alias of libdevice.tanh chosen
# by a version test (Unsloth's form).
import triton
import triton.language as tl

try:
    from triton.language.extra.libdevice import rsqrt
except ModuleNotFoundError:
    from triton.language.extra.cuda.libdevice import rsqrt

# an alias chosen by a version test, as Unsloth picks its tanh
if tuple(int(v) for v in triton.__version__.split(".")[:2]) >= (3, 0):
    from triton.language.extra import libdevice
    tanh_fn = libdevice.tanh
else:
    tanh_fn = tl.math.tanh


@triton.jit
def rms_fwd_kernel(y_ptr, x_ptr, w_ptr, rstd_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    tl.store(rstd_ptr + row, rstd)
    tl.store(y_ptr + row * stride + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def rms_bwd_kernel(dx_ptr, dw_ptr, rows_ptr, dy_ptr, x_ptr, w_ptr, rstd_ptr, stride, n_rows,
                   n_cols, rows_per_program, BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    row_start = pid * rows_per_program
    row_end = tl.minimum(row_start + rows_per_program, n_rows)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    dw = tl.zeros((BLOCK,), dtype=tl.float32)
    rows = tl.zeros((), dtype=tl.int32)
    for row in range(row_start, row_end):
        x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        rstd = tl.load(rstd_ptr + row)
        m = dy * w
        dx = rstd * m - rstd * rstd * rstd * (tl.sum(m * x, axis=0) / n_cols) * x
        tl.store(dx_ptr + row * stride + cols, dx.to(dx_ptr.dtype.element_ty), mask=mask)
        dw += dy * x * rstd
        rows += 1
    tl.store(dw_ptr + pid * n_cols + cols, dw, mask=mask)
    tl.store(rows_ptr + pid, rows)


@triton.jit
def online_softmax_kernel(y_ptr, x_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = tl.float32(-float("inf"))
    d = tl.float32(0.0)
    for start in tl.range(0, n_cols, BLOCK):
        idx = start + offs
        x = tl.load(x_ptr + row * stride + idx, mask=idx < n_cols, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    for start in tl.range(0, n_cols, BLOCK):
        idx = start + offs
        x = tl.load(x_ptr + row * stride + idx, mask=idx < n_cols, other=-float("inf")).to(tl.float32)
        tl.store(y_ptr + row * stride + idx, tl.exp(x - m) / d, mask=idx < n_cols)


@triton.jit
def gelu_alias_kernel(y_ptr, x_ptr, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + o, mask=o < n, other=0.0)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tl.store(y_ptr + o, 0.5 * x * (1.0 + tanh_fn(inner)), mask=o < n)
