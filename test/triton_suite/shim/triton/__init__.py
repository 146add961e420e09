"""Stand-in for the `triton` package: mytriton's Triton suite (test/triton_suite).

Triton's tests import this instead of Triton. `@triton.jit` keeps the
kernel's source; `kernel[grid](*args)` compiles it with mytritonc for the
host backend (portable C), builds it with the C compiler, and launches it on
the CPU through the generated launcher (triton/runtime/_mytriton.py).
`triton.autotune` and `triton.heuristics` are Triton's decorators in effect:
autotune launches the first config, heuristics computes its values.
"""
__version__ = "3.6.0"

from . import language  # noqa: F401
from .compiler.errors import TritonError, CompilationError  # noqa: F401
from .runtime.errors import InterpreterError, OutOfResources  # noqa: F401
from .runtime.jit import JITFunction, jit, TensorWrapper, reinterpret, MockTensor  # noqa: F401
from .runtime.autotuner import Config, autotune, heuristics  # noqa: F401
from . import runtime, compiler, knobs, testing  # noqa: F401


def cdiv(x, y):
    return (x + y - 1) // y


def next_power_of_2(n):
    n = int(n)
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


def set_allocator(fn):
    """Scratch memory for tensor descriptors on the GPU: nothing to do on the host."""


def must_use_result(x, s=True):
    return x
