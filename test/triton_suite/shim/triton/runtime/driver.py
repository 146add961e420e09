"""triton.runtime.driver.active: a target that is neither CUDA nor HIP."""
from ._mytriton import not_applicable


class _Target:
    backend = "mytriton-host"
    arch = "host"
    warp_size = 32

    def __repr__(self):
        return "GPUTarget(mytriton-host)"


class _Properties(dict):
    """The host has the memory a test's guard asks for; other keys are a GPU's."""

    def __missing__(self, key):
        not_applicable("gpu", "queries the GPU's %r" % key)


class _Utils:

    def get_device_properties(self, device):
        import os
        return _Properties(max_shared_mem=1 << 31, multiprocessor_count=os.cpu_count() or 1)


class _Active:
    utils = _Utils()

    def get_current_target(self):
        return _Target()

    def get_current_device(self):
        return 0

    def get_current_stream(self, device=None):
        return 0

    def get_device_interface(self):
        not_applicable("gpu", "needs a GPU device interface")

    def get_empty_cache_for_benchmark(self):
        not_applicable("gpu", "benchmarks on a GPU")


active = _Active()
