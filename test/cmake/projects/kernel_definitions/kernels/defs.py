import triton
import triton.language as tl

# A kernel defined inside a module-level try (a fallback import pattern).
try:
    @triton.jit
    def in_try_kernel(x, out, n, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offsets < n
        tl.store(out + offsets, tl.load(x + offsets, mask=mask) * 2.0, mask=mask)
except ImportError:
    pass

# A kernel defined inside a module-level if (a version test).
if triton.__version__ >= "3.0":
    @triton.jit
    def in_if_kernel(x, out, n, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offsets < n
        tl.store(out + offsets, tl.load(x + offsets, mask=mask) * 3.0, mask=mask)


# A kernel defined twice: the last definition is the one Python binds.
@triton.jit
def twice_kernel(x, n):
    tl.store(x, n * 1.0)


@triton.jit
def twice_kernel(x, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out + offsets, tl.load(x + offsets, mask=mask) * 4.0, mask=mask)


# Which definition counts depends on a name Python computes (MODULE_VALUES
# fixes it): the definitions' parameters differ, CMake leaves the check to
# the compiler.
if WIDE:
    @triton.jit
    def branch_kernel(x, out, n, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offsets < n
        tl.store(out + offsets, tl.load(x + offsets, mask=mask) * 5.0, mask=mask)
else:
    @triton.jit
    def branch_kernel(x, n):
        tl.store(x, n * 1.0)
