from . import jit, errors, driver, autotuner  # noqa: F401
from .jit import JITFunction  # noqa: F401
from .autotuner import Config, Autotuner, Heuristics, autotune, heuristics  # noqa: F401
from .errors import OutOfResources, InterpreterError  # noqa: F401
