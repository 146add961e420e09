"""triton._internal_testing: Triton's own helpers (numpy_random, to_triton,
the dtype lists, is_cuda, ...), read from the extracted release
(test/triton_suite/src/_internal_testing.py, or $MYTRITON_SUITE_SRC) and run
against this stand-in package."""
import os

_src_dir = os.environ.get("MYTRITON_SUITE_SRC") or os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "src")
_path = os.path.join(_src_dir, "_internal_testing.py")
with open(_path) as _f:
    exec(compile(_f.read(), _path, "exec"), globals())
