// test/emu: the 16-bit float types live in the emulation's cuda_runtime.h.
#pragma once
#include "cuda_runtime.h"
