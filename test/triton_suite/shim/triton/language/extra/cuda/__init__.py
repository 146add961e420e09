"""Stand-in for triton.language.extra.cuda."""
from triton.language import _Placeholder
from . import libdevice  # noqa: F401


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Placeholder("tl.extra.cuda." + name)
