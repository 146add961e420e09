"""Stand-in for triton.language.extra."""
from triton.language import _Placeholder
from . import libdevice, cuda  # noqa: F401


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Placeholder("tl.extra." + name)
