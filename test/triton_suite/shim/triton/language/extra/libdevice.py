"""Stand-in for triton.language.extra.libdevice."""
from triton.language import _placeholders

__getattr__ = _placeholders("libdevice.")
