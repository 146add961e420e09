# Helpers imported by fn.py (`from fn_helpers import ...`, `import
# fn_helpers`): mytritonc parses this file; Triton imports it (the oracle
# puts the kernels directory on sys.path).
import triton
import triton.language as tl


# a module-level constexpr (Triton lets jit functions read tl.constexpr globals)
DEFAULT_SLOPE = tl.constexpr(0.01)


@triton.jit
def leaky_relu(x, slope: tl.constexpr = DEFAULT_SLOPE):
    return tl.where(x > 0, x, x * slope)


@triton.jit
def square(x):
    return x * x


@triton.jit
def square_plus(x, c):
    return square(x) + c
