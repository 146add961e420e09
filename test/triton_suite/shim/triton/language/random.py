"""Stand-in for triton.language.random (see triton/language/__init__.py)."""
from triton.language import *  # noqa: F401,F403
from triton.language import constexpr, dtype, pointer_type, block_type, constexpr_function, _Placeholder, _unwrap  # noqa: F401
from triton.language import _constexpr_type as constexpr_type, _placeholders  # noqa: F401

__getattr__ = _placeholders("tl.random.")
