// The compiler's internal C headers, for white-box tests in C++.
#pragma once

#define _Noreturn [[noreturn]]
extern "C" {
#include "base/arena.h"
#include "base/context.h"
#include "launch/emit.h"
#include "passes/ptrbase.h"
#include "ir/expr.h"
#include "frontend/frontend.h"
#include "layout/layout.h"
#include "ir/lower.h"
#include "passes/outer.h"
#include "passes/passes.h"
#include "frontend/pyast.h"
#include "layout/shape.h"
#include "frontend/signature.h"
#include "ir/ssa.h"
#include "ir/types.h"
#include "ir/verify.h"
}
#undef _Noreturn
