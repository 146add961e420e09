"""Stand-in for triton.language.extra.libdevice."""
from triton.language import _Placeholder


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Placeholder("libdevice." + name)
