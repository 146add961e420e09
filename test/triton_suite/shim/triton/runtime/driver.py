"""triton.runtime.driver.active: a target that is neither CUDA nor HIP."""
from ._mytriton import not_applicable


class _Target:
    backend = "mytriton-host"
    arch = "host"
    warp_size = 32

    def __repr__(self):
        return "GPUTarget(mytriton-host)"


class _Utils:

    def get_device_properties(self, device):
        not_applicable("gpu", "queries GPU device properties")


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
