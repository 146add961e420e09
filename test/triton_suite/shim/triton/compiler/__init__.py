from .errors import CompilationError  # noqa: F401
from . import errors  # noqa: F401
