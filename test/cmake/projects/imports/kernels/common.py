import triton

import torch

# computed by Python when the module is imported; the build fixes it with
# MODULE_VALUES FAST_PATH=False (the other branch would not compile)
FAST_PATH = torch.cuda.is_available() and torch.version.hip is not None

if FAST_PATH:

    @triton.jit
    def scale(v):
        return v * not_defined_here

else:

    @triton.jit
    def scale(v):
        return v * 2.0
