"""Stand-in for triton.language.random (see triton/language/__init__.py)."""
from triton.language import *  # noqa: F401,F403
from triton.language import constexpr, dtype, pointer_type, block_type, constexpr_function, _Placeholder, _unwrap  # noqa: F401


def constexpr_type(v):
    return type(v)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Placeholder("tl.random." + name)
