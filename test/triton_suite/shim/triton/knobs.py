"""triton.knobs: Triton's compiler and runtime settings. Tests that set them
(fresh_knobs) are not applicable: mytritonc has its own options."""


class base_knobs:
    knob_descriptors = {}


class _Any:

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Any()

    def __setattr__(self, name, value):
        pass

    def __call__(self, *a, **k):
        return _Any()

    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False


cache = _Any()
runtime = _Any()
compilation = _Any()
language = _Any()
nvidia = _Any()
amd = _Any()
build = _Any()
propagate_env = True
