// The compiler's internal C headers, for white-box tests in C++.
#pragma once

#define _Noreturn [[noreturn]]
extern "C" {
#include "arena.h"
#include "context.h"
#include "emit.h"
#include "expr.h"
#include "frontend.h"
#include "layout.h"
#include "lower.h"
#include "outer.h"
#include "passes.h"
#include "pyast.h"
#include "shape.h"
#include "signature.h"
#include "ssa.h"
#include "types.h"
#include "verify.h"
}
#undef _Noreturn
