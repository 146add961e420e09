# Helpers imported by fn.py (`from fn_common import ...`, `import fn_common`):
# parsed by mytritonc, never run.
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
    # a helper calling a helper of its own module
    return square(x) + c
