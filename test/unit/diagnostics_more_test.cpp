// More expected diagnostics (DESIGN 4, 14), in the style of
// diagnostics_test.cpp: every construct the frontend rejects that the first
// table does not show (each fail() of frontend.c reachable from Python
// source; the "malformed ..." ones need a hostile serialization and are
// covered by reader_test.cpp and the fuzz corpus), and the parser shim's own
// failures. Each kernel is
//
//   1 import triton
//   2 import triton.language as tl
//   3
//   4
//   5 @triton.jit
//   6 def k(PARAMS):
//   7     <body>...
//
// unless the case gives the whole file. Not reachable from source, and so
// not here: 'await'/'async for'/'async with' outside an async function,
// 'nonlocal' at the top of a function, duplicate parameters (all Python
// syntax errors); runtime loops nested more than 256 deep (Python stops at
// 100 indentation levels); expressions nested past the frontend's limit
// (the shim or Python stops first: test/robust covers deep nesting).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "unit_support.h"

namespace {

using namespace mt_unit;
using namespace std::string_literals;

using Case = DiagnosticCase;

const std::vector<Case> &cases() {
    static const std::vector<Case> all = {
        // ---- statements ------------------------------------------------------------
        {"WithStatement", "x, n", "*fp32, i32",
         "    with n:\n"
         "        pass\n",
         "k.py:7:5: error: 'with' statements are not supported in kernels\n"
         "        with n:\n"
         "        ^\n"},
        {"TryStatement", "x, n", "*fp32, i32",
         "    try:\n"
         "        pass\n"
         "    except Exception:\n"
         "        pass\n",
         "k.py:7:5: error: 'try' statements are not supported in kernels\n"
         "        try:\n"
         "        ^\n"},
        {"RaiseStatement", "x, n", "*fp32, i32", "    raise ValueError\n",
         "k.py:7:5: error: 'raise' statements are not supported in kernels\n"
         "        raise ValueError\n"
         "        ^\n"},
        {"DelStatement", "x, n", "*fp32, i32",
         "    m = n\n"
         "    del m\n",
         "k.py:8:5: error: 'del' statements are not supported in kernels\n"
         "        del m\n"
         "        ^\n"},
        {"GlobalStatement", "x, n", "*fp32, i32", "    global g\n",
         "k.py:7:5: error: 'global' statements are not supported in kernels\n"
         "        global g\n"
         "        ^\n"},
        {"ImportStatement", "x, n", "*fp32, i32", "    import math\n",
         "k.py:7:5: error: 'import' statements are not supported in kernels\n"
         "        import math\n"
         "        ^\n"},
        {"ImportFromStatement", "x, n", "*fp32, i32", "    from math import exp\n",
         "k.py:7:5: error: 'import' statements are not supported in kernels\n"
         "        from math import exp\n"
         "        ^\n"},
        {"NestedAsyncFunction", "x, n", "*fp32, i32",
         "    async def inner():\n"
         "        pass\n",
         "k.py:7:5: error: nested functions are not supported in kernels\n"
         "        async def inner():\n"
         "        ^\n"},
        {"NestedClass", "x, n", "*fp32, i32",
         "    class C:\n"
         "        pass\n",
         "k.py:7:5: error: classes are not supported in kernels\n"
         "        class C:\n"
         "        ^\n"},
        {"MatchStatement", "x, n", "*fp32, i32",
         "    match n:\n"
         "        case 1:\n"
         "            pass\n",
         "k.py:7:5: error: 'match' statements are not supported in kernels\n"
         "        match n:\n"
         "        ^\n"},
        {"AsyncKernel",
         "x, n",
         "*fp32, i32",
         "",
         "k.py:6:1: error: the kernel 'k' cannot be 'async'\n"
         "    async def k(x, n):\n"
         "    ^\n",
         {},
         nullptr,
         "",
         2,
         "import triton\n"
         "import triton.language as tl\n"
         "\n"
         "\n"
         "@triton.jit\n"
         "async def k(x, n):\n"
         "    pass\n"},
        {"AssignToAttribute", "x, n", "*fp32, i32", "    x.y = 1\n",
         "k.py:7:5: error: assignment to an attribute is not supported\n"
         "        x.y = 1\n"
         "        ^\n"},
        {"AssignToSubscript", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n"
         "    o[0] = 1\n",
         "k.py:8:5: error: assignment to a subscript is not supported (blocks are values; write memory with tl.store)\n"
         "        o[0] = 1\n"
         "        ^\n"},
        {"StarredAssignTarget", "x, n", "*fp32, i32", "    *a, = (1, 2)\n",
         "k.py:7:5: error: starred assignment targets are not supported\n"
         "        *a, = (1, 2)\n"
         "        ^\n"},
        {"AugmentedAssignToSubscript", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n"
         "    o[0] += 1\n",
         "k.py:8:5: error: assignment to a subscript is not supported (blocks are values; write memory with tl.store)\n"
         "        o[0] += 1\n"
         "        ^\n"},
        {"AugmentedMatMult", "x, n", "*fp32, i32",
         "    m = n\n"
         "    m @= 1\n",
         "k.py:8:5: error: augmented assignment '@=' is not supported\n"
         "        m @= 1\n"
         "        ^\n"},
        // ---- expressions -----------------------------------------------------------
        {"ListComprehension", "x, n", "*fp32, i32", "    v = [i for i in range(4)]\n",
         "k.py:7:9: error: list comprehensions are not supported in kernels\n"
         "        v = [i for i in range(4)]\n"
         "            ^\n"},
        {"SetComprehension", "x, n", "*fp32, i32", "    v = {i for i in range(4)}\n",
         "k.py:7:9: error: set comprehensions are not supported in kernels\n"
         "        v = {i for i in range(4)}\n"
         "            ^\n"},
        {"DictComprehension", "x, n", "*fp32, i32", "    v = {i: i for i in range(4)}\n",
         "k.py:7:9: error: dict comprehensions are not supported in kernels\n"
         "        v = {i: i for i in range(4)}\n"
         "            ^\n"},
        {"GeneratorExpression", "x, n", "*fp32, i32", "    v = (i for i in range(4))\n",
         "k.py:7:9: error: generator expressions are not supported in kernels\n"
         "        v = (i for i in range(4))\n"
         "            ^\n"},
        {"DictLiteral", "x, n", "*fp32, i32", "    v = {1: 2}\n",
         "k.py:7:9: error: dict literals are not supported in kernels\n"
         "        v = {1: 2}\n"
         "            ^\n"},
        {"SetLiteral", "x, n", "*fp32, i32", "    v = {1, 2}\n",
         "k.py:7:9: error: set literals are not supported in kernels\n"
         "        v = {1, 2}\n"
         "            ^\n"},
        {"FStringOfARuntimeValue", "x, n", "*fp32, i32", "    v = f\"{n}\"\n",
         "k.py:7:9: error: an f-string field must be a compile-time value (got i32): Triton formats "
         "constexprs only\n"
         "        v = f\"{n}\"\n"
         "            ^\n"},
        {"AssignmentExpression", "x, n", "*fp32, i32", "    v = (m := 2)\n",
         "k.py:7:10: error: assignment expressions (:=) are not supported in kernels\n"
         "        v = (m := 2)\n"
         "             ^\n"},
        {"Yield", "x, n", "*fp32, i32", "    yield n\n",
         "k.py:7:5: error: 'yield' expressions are not supported in kernels\n"
         "        yield n\n"
         "        ^\n"},
        {"YieldFrom", "x, n", "*fp32, i32", "    yield from (1, 2)\n",
         "k.py:7:5: error: 'yield from' expressions are not supported in kernels\n"
         "        yield from (1, 2)\n"
         "        ^\n"},
        {"StarredInTuple", "x, n", "*fp32, i32",
         "    t = (1, 2)\n"
         "    v = (*t, 3)\n",
         "k.py:8:10: error: starred expressions are not supported\n"
         "        v = (*t, 3)\n"
         "             ^\n"},
        {"StarredArgument", "x, n", "*fp32, i32",
         "    t = (0, 8)\n"
         "    o = tl.arange(*t)\n",
         "k.py:8:19: error: *args in calls are not supported\n"
         "        o = tl.arange(*t)\n"
         "                      ^\n"},
        {"DoubleStarArgument", "x, n", "*fp32, i32",
         "    kw = 1\n"
         "    o = tl.arange(0, 8, **kw)\n",
         "k.py:8:25: error: **kwargs in calls are not supported\n"
         "        o = tl.arange(0, 8, **kw)\n"
         "                            ^\n"},
        {"MatrixMultiply", "x, n", "*fp32, i32", "    v = n @ n\n",
         "k.py:7:9: error: '@' needs blocks of rank 2 or 3 (got i32)\n"
         "        v = n @ n\n"
         "            ^\n"},
        {"ModuloOfPointer", "x, n", "*fp32, i32", "    v = x % 2\n",
         "k.py:7:9: error: '%' is not supported on pointers (only pointer + integer offset)\n"
         "        v = x % 2\n"
         "            ^\n"},
        {"FloorDivisionOfFloats", "x, n, s", "*fp32, i32, fp32", "    v = s // 2\n",
         "k.py:7:9: error: '//' needs integer or bool operands (got f32 and i32): Triton has no '//' on floats\n"
         "        v = s // 2\n"
         "            ^\n"},
        {"ShiftOfFloat", "x, n, s", "*fp32, i32, fp32", "    v = s << 1\n",
         "k.py:7:9: error: '<<' needs integer or bool operands (got f32 and i32): Triton has no '<<' on floats\n"
         "        v = s << 1\n"
         "            ^\n"},
        {"XorOfFloat", "x, n, s", "*fp32, i32, fp32", "    v = s ^ 1\n",
         "k.py:7:9: error: '^' needs integer or bool operands (got f32 and i32): Triton has no '^' on floats\n"
         "        v = s ^ 1\n"
         "            ^\n"},
        {"PointerTimesInteger", "x, n", "*fp32, i32", "    p = x * 2\n",
         "k.py:7:9: error: '*' is not supported on pointers (only pointer + integer offset)\n"
         "        p = x * 2\n"
         "            ^\n"},
        {"PointerPlusPointer", "x, n", "*fp32, i32", "    p = x + x\n",
         "k.py:7:9: error: cannot add two pointers\n"
         "        p = x + x\n"
         "            ^\n"},
        {"InvertFloatBlock", "x, n, s", "*fp32, i32, fp32", "    v = ~s\n",
         "k.py:7:9: error: '~' needs an integer or bool block (got f32): Triton has no '~' on floats\n"
         "        v = ~s\n"
         "            ^\n"},
        {"UnaryPlusOnPointer", "x, n", "*fp32, i32", "    p = +x\n",
         "k.py:7:9: error: unary '+' needs a number (got ptr<f32>)\n"
         "        p = +x\n"
         "            ^\n"},
        {"UnaryMinusOnString", "x, n", "*fp32, i32", "    v = -'a'\n",
         "k.py:7:9: error: bad operand type for unary '-': a string\n"
         "        v = -'a'\n"
         "            ^\n"},
        {"InvertFloat", "x, n", "*fp32, i32", "    v = ~1.5\n",
         "k.py:7:9: error: bad operand type for unary '~': a float\n"
         "        v = ~1.5\n"
         "            ^\n"},
        {"OrOfAFloat", "x, n", "*fp32, i32", "    m = (n > 0) or 2.5\n",
         "k.py:7:20: error: 'or' needs bool operands (got f32; compare with 0 first)\n"
         "        m = (n > 0) or 2.5\n"
         "                       ^\n"},
        {"InOnRuntimeValue", "x, n", "*fp32, i32", "    m = n in (1, 2)\n",
         "k.py:7:9: error: 'in' is not supported on runtime values\n"
         "        m = n in (1, 2)\n"
         "            ^\n"},
        {"InNeedsASequence", "x, n", "*fp32, i32", "    m = 1 in 2\n",
         "k.py:7:9: error: 'in' needs a tuple or a list on its right\n"
         "        m = 1 in 2\n"
         "            ^\n"},
        {"CompareStringWithInt", "x, n", "*fp32, i32", "    m = 'a' < 1\n",
         "k.py:7:9: error: '<' is not supported between a string and an int\n"
         "        m = 'a' < 1\n"
         "            ^\n"},
        {"AddStringAndInt", "x, n", "*fp32, i32", "    v = 'a' + 1\n",
         "k.py:7:9: error: unsupported operand types for '+': a string and an int\n"
         "        v = 'a' + 1\n"
         "            ^\n"},
        {"ComplexLiteral", "x, n", "*fp32, i32", "    v = 1j\n",
         "k.py:7:9: error: complex numbers are not supported\n"
         "        v = 1j\n"
         "            ^\n"},
        {"BytesLiteral", "x, n", "*fp32, i32", "    v = b'x'\n",
         "k.py:7:9: error: bytes literals are not supported\n"
         "        v = b'x'\n"
         "            ^\n"},
        {"EllipsisValue", "x, n", "*fp32, i32", "    v = ...\n",
         "k.py:7:9: error: '...' is not supported\n"
         "        v = ...\n"
         "            ^\n"},
        {"IntegerLiteralTooLarge", "x, n", "*fp32, i32", "    v = 99999999999999999999999\n",
         "k.py:7:9: error: the integer literal 99999999999999999999999 is too large\n"
         "        v = 99999999999999999999999\n"
         "            ^\n"},
        {"NearMissLanguageName", "x, n", "*fp32, i32", "    y = tl.maximun(n, 1)\n",
         "k.py:7:9: error: 'tl.maximun' is not supported by mytriton (did you mean 'tl.maximum'?)\n"
         "        y = tl.maximun(n, 1)\n"
         "            ^\n"},
        {"DivisionByZero", "x, n", "*fp32, i32", "    v = 1 / 0\n",
         "k.py:7:9: error: division by zero\n"
         "        v = 1 / 0\n"
         "            ^\n"},
        {"FloorDivisionByZero", "x, n", "*fp32, i32", "    v = 1 // 0\n",
         "k.py:7:9: error: integer division or modulo by zero\n"
         "        v = 1 // 0\n"
         "            ^\n"},
        {"FloatDivisionByZero", "x, n", "*fp32, i32", "    v = 1.5 / 0\n",
         "k.py:7:9: error: float division by zero\n"
         "        v = 1.5 / 0\n"
         "            ^\n"},
        {"FloatModuloByZero", "x, n", "*fp32, i32", "    v = 1.5 % 0\n",
         "k.py:7:9: error: float floor division or modulo by zero\n"
         "        v = 1.5 % 0\n"
         "            ^\n"},
        {"CompileTimeOverflow", "x, n", "*fp32, i32", "    v = 9223372036854775807 + 1\n",
         "k.py:7:9: error: integer overflow in a compile-time '+' (compile-time integers are 64-bit)\n"
         "        v = 9223372036854775807 + 1\n"
         "            ^\n"},
        {"NegativeShiftCount", "x, n", "*fp32, i32", "    v = 1 << -1\n",
         "k.py:7:9: error: negative shift count\n"
         "        v = 1 << -1\n"
         "            ^\n"},
        {"NegationOverflow", "x, n", "*fp32, i32", "    v = -(-9223372036854775807 - 1)\n",
         "k.py:7:9: error: integer overflow in a compile-time '-'\n"
         "        v = -(-9223372036854775807 - 1)\n"
         "            ^\n"},
        {"AbsOverflow", "x, n", "*fp32, i32", "    v = abs(-9223372036854775807 - 1)\n",
         "k.py:7:9: error: integer overflow in abs()\n"
         "        v = abs(-9223372036854775807 - 1)\n"
         "            ^\n"},
        // ---- attributes and calls --------------------------------------------------
        {"TritonAttribute", "x, n", "*fp32, i32", "    v = triton.foo\n",
         "k.py:7:9: error: 'triton.foo' is not supported\n"
         "        v = triton.foo\n"
         "            ^\n"},
        {"OtherModuleAttribute",
         "x, n",
         "*fp32, i32",
         "    v = math.sqrt\n",
         "k.py:7:9: error: 'math.sqrt' is not supported (only triton.language functions can be used in kernels)\n"
         "        v = math.sqrt\n"
         "            ^\n",
         {},
         nullptr,
         "",
         2,
         "import math\n"
         "import triton\n"
         "import triton.language as tl\n"
         "\n"
         "@triton.jit\n"
         "def k(x, n):\n"
         "    v = math.sqrt\n"},
        {"BlockAttribute", "x, n", "*fp32, i32", "    v = n.foo\n",
         "k.py:7:9: error: the attribute 'foo' of a block is not supported\n"
         "        v = n.foo\n"
         "            ^\n"},
        {"IntAttribute",
         "x, n, B: tl.constexpr",
         "*fp32, i32",
         "    v = B.bit_length\n",
         "k.py:7:9: error: an int has no attribute 'bit_length'\n"
         "        v = B.bit_length\n"
         "            ^\n",
         {{"B", "8"}},
         nullptr,
         "",
         2},
        {"ModuleNotCallable", "x, n", "*fp32, i32", "    v = tl(1)\n",
         "k.py:7:9: error: the module 'triton.language' is not callable\n"
         "        v = tl(1)\n"
         "            ^\n"},
        {"IntNotCallable",
         "x, n, B: tl.constexpr",
         "*fp32, i32",
         "    v = B(1)\n",
         "k.py:7:9: error: an int is not callable\n"
         "        v = B(1)\n"
         "            ^\n",
         {{"B", "8"}},
         nullptr,
         "",
         2},
        {"JitInsideKernel", "x, n", "*fp32, i32", "    f = triton.jit(n)\n",
         "k.py:7:9: error: triton.jit can only decorate the kernel\n"
         "        f = triton.jit(n)\n"
         "            ^\n"},
        {"RangeOutsideFor", "x, n", "*fp32, i32", "    r = range(4)\n",
         "k.py:7:9: error: range() can only be the iterable of a for loop\n"
         "        r = range(4)\n"
         "            ^\n"},
        {"MultipleValuesForArgument", "x, n", "*fp32, i32", "    v = tl.load(x, pointer=x)\n",
         "k.py:7:20: error: tl.load() got multiple values for argument 'pointer'\n"
         "        v = tl.load(x, pointer=x)\n"
         "                       ^\n"},
        {"HintMustBeCompileTime", "x, n", "*fp32, i32", "    v = tl.load(x, cache_modifier=n)\n",
         "k.py:7:20: error: tl.load(): 'cache_modifier' must be a compile-time value\n"
         "        v = tl.load(x, cache_modifier=n)\n"
         "                       ^\n"},
        {"MinOfNothing", "x, n", "*fp32, i32", "    v = min()\n",
         "k.py:7:9: error: min() expects at least 1 argument\n"
         "        v = min()\n"
         "            ^\n"},
        {"MinOfOneNumber", "x, n", "*fp32, i32", "    v = min(3)\n",
         "k.py:7:9: error: min() of one argument needs a tuple or a list\n"
         "        v = min(3)\n"
         "            ^\n"},
        {"MinOfEmptyTuple", "x, n", "*fp32, i32", "    v = min(())\n",
         "k.py:7:9: error: min() of an empty sequence\n"
         "        v = min(())\n"
         "            ^\n"},
        {"MinOfPointer", "x, n", "*fp32, i32", "    v = min(x, 1)\n",
         "k.py:7:9: error: min is not supported on pointers (got ptr<f32>)\n"
         "        v = min(x, 1)\n"
         "            ^\n"},
        {"MinOfSeventeen", "x, n", "*fp32, i32",
         "    v = min(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17)\n",
         "k.py:7:68: error: min() takes at most 16 arguments here\n"
         "        v = min(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17)\n"
         "                                                                       ^\n"},
        {"AbsOfRuntimeValue", "x, n", "*fp32, i32", "    v = abs(n)\n",
         "k.py:7:9: error: abs() needs a compile-time number, not a runtime value\n"
         "        v = abs(n)\n"
         "            ^\n"},
        {"LenOfRuntimeValue", "x, n", "*fp32, i32", "    v = len(n)\n",
         "k.py:7:9: error: len() needs a tuple, a list or a string, not a runtime value\n"
         "        v = len(n)\n"
         "            ^\n"},
        {"FloatOfRuntimeValue", "x, n", "*fp32, i32", "    v = float(n)\n",
         "k.py:7:15: error: float() needs a compile-time number or string, not a runtime value\n"
         "        v = float(n)\n"
         "                  ^\n"},
        {"FloatOfBadString", "x, n", "*fp32, i32", "    v = float('abc')\n",
         "k.py:7:15: error: float() cannot convert the string 'abc'\n"
         "        v = float('abc')\n"
         "                  ^\n"},
        {"IntOfBadString", "x, n", "*fp32, i32", "    v = int('abc')\n",
         "k.py:7:13: error: int() cannot convert the string 'abc'\n"
         "        v = int('abc')\n"
         "                ^\n"},
        {"IntOfInfinity", "x, n", "*fp32, i32", "    v = int(float('inf'))\n",
         "k.py:7:13: error: int() of a float that is not finite or too large\n"
         "        v = int(float('inf'))\n"
         "                ^\n"},
        {"IntOfRuntimeValue", "x, n", "*fp32, i32", "    v = int(n)\n",
         "k.py:7:13: error: int() needs a compile-time number or string, not a runtime value\n"
         "        v = int(n)\n"
         "                ^\n"},
        {"BoolOfRuntimeValue", "x, n", "*fp32, i32", "    v = bool(n)\n",
         "k.py:7:14: error: bool() of a runtime value is not supported\n"
         "        v = bool(n)\n"
         "                 ^\n"},
        {"RtzCastOfInteger", "x, n", "*fp32, i32",
         "    v = n + 1\n"
         "    w = v.to(tl.float16, fp_downcast_rounding=\"rtz\")\n",
         "k.py:8:9: error: '.to': fp_downcast_rounding applies only to a float cast to a narrower float\n"
         "        w = v.to(tl.float16, fp_downcast_rounding=\"rtz\")\n"
         "            ^\n"},
        // ---- subscripts and tuples -------------------------------------------------
        {"TupleIndexOutOfRange", "x, n", "*fp32, i32",
         "    t = (1, 2)\n"
         "    v = t[2]\n",
         "k.py:8:11: error: tuple index 2 out of range (length 2)\n"
         "        v = t[2]\n"
         "              ^\n"},
        {"TupleIndexNotAnInt", "x, n", "*fp32, i32",
         "    t = (1, 2)\n"
         "    v = t['a']\n",
         "k.py:8:11: error: a tuple index must be a compile-time integer, not a string\n"
         "        v = t['a']\n"
         "              ^\n"},
        {"SlicingATuple", "x, n", "*fp32, i32",
         "    t = (1, 2)\n"
         "    v = t[0:1]\n",
         "k.py:8:11: error: slicing a tuple is not supported\n"
         "        v = t[0:1]\n"
         "              ^\n"},
        {"SliceOutsideSubscript", "x, n", "*fp32, i32",
         "    t = (1, 2)\n"
         "    v = t[0, 1:2]\n",
         "k.py:8:14: error: a slice is only valid inside [...]\n"
         "        v = t[0, 1:2]\n"
         "                 ^\n"},
        {"IndexingAnInt",
         "x, n, B: tl.constexpr",
         "*fp32, i32",
         "    v = B[0]\n",
         "k.py:7:9: error: an int cannot be indexed\n"
         "        v = B[0]\n"
         "            ^\n",
         {{"B", "8"}},
         nullptr,
         "",
         2},
        {"BlockSliceWithBounds", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n"
         "    v = o[1:4]\n",
         "k.py:8:11: error: only ':' and None can index a block (slicing with bounds is not supported)\n"
         "        v = o[1:4]\n"
         "              ^\n"},
        {"BlockTooManyIndices", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n"
         "    v = o[:, None, None, None, None, None, None, None, None]\n",
         "k.py:8:11: error: too many indices\n"
         "        v = o[:, None, None, None, None, None, None, None, None]\n"
         "              ^\n"},
        {"BlockIndexRankMismatch", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n"
         "    v = o[:, :]\n",
         "k.py:8:11: error: the index has 2 ':' but the block has rank 1 (one ':' per dimension)\n"
         "        v = o[:, :]\n"
         "              ^\n"},
        // ---- language functions ----------------------------------------------------
        {"ArangeRuntimeBound", "x, n", "*fp32, i32", "    o = tl.arange(0, n)\n",
         "k.py:7:22: error: tl.arange's end must be a compile-time integer, not a runtime value\n"
         "        o = tl.arange(0, n)\n"
         "                         ^\n"},
        {"ArangeEmpty", "x, n", "*fp32, i32", "    o = tl.arange(8, 8)\n",
         "k.py:7:9: error: tl.arange needs start < end (got 8, 8)\n"
         "        o = tl.arange(8, 8)\n"
         "            ^\n"},
        {"ArangeTooLarge", "x, n", "*fp32, i32", "    o = tl.arange(0, 2097152)\n",
         "k.py:7:9: error: tl.arange of 2097152 elements exceeds the limit of 1048576\n"
         "        o = tl.arange(0, 2097152)\n"
         "            ^\n"},
        {"ArangeOutsideI32", "x, n", "*fp32, i32", "    o = tl.arange(4294967296, 4294967300)\n",
         "k.py:7:9: error: tl.arange's bounds must fit in i32\n"
         "        o = tl.arange(4294967296, 4294967300)\n"
         "            ^\n"},
        {"LoadOfNonPointer", "x, n", "*fp32, i32", "    v = tl.load(n)\n",
         "k.py:7:17: error: tl.load needs a pointer (got i32)\n"
         "        v = tl.load(n)\n"
         "                    ^\n"},
        {"StoreToNonPointer", "x, n", "*fp32, i32", "    tl.store(n, 1.0)\n",
         "k.py:7:14: error: tl.store needs a pointer (got i32)\n"
         "        tl.store(n, 1.0)\n"
         "                 ^\n"},
        {"StoreOfPointer", "x, n", "*fp32, i32", "    tl.store(x, x)\n",
         "k.py:7:17: error: tl.store's value: a pointer cannot convert to f32\n"
         "        tl.store(x, x)\n"
         "                    ^\n"},
        {"ClampOfIntegers", "x, n", "*fp32, i32", "    tl.store(x, tl.clamp(n, 0, 1))\n",
         "k.py:7:17: error: tl.clamp needs floats (got i32): Triton clamps only floating-point values\n"
         "        tl.store(x, tl.clamp(n, 0, 1))\n"
         "                    ^\n"},
        {"MathFunctionOfHalf", "x, n", "*fp16, i32", "    tl.store(x, tl.exp(tl.load(x)))\n",
         "k.py:7:17: error: tl.exp needs an f32 or f64 operand, as Triton's math functions (got f16; convert with .to(tl.float32))\n"
         "        tl.store(x, tl.exp(tl.load(x)))\n"
         "                    ^\n"},
        {"DivisionOfMixedSignedness", "x, n", "*u32, i32", "    tl.store(x, tl.load(x) // n)\n",
         "k.py:7:17: error: '//': u32 and i32 have different signedness (cast them to the same signedness first, as Triton requires)\n"
         "        tl.store(x, tl.load(x) // n)\n"
         "                    ^\n"},
        {"UnsignedWithNegativeScalar", "x, n", "*u32, i32", "    tl.store(x, tl.load(x) + (-1))\n",
         "k.py:7:17: error: '+' between an unsigned u32 value and the negative scalar -1 (cast one of them explicitly, as Triton requires)\n"
         "        tl.store(x, tl.load(x) + (-1))\n"
         "                    ^\n"},
        {"BitcastOfOtherWidth", "x, n", "*fp32, i32", "    v = n.to(tl.int8, bitcast=True)\n",
         "k.py:7:9: error: '.to' cannot reinterpret i32 (32 bits) as i8 (8 bits)\n"
         "        v = n.to(tl.int8, bitcast=True)\n"
         "            ^\n"},
        {"FullFloatOutsideI32", "x, n", "*fp32, i32", "    v = tl.full((8,), 1e10, tl.int32)\n",
         "k.py:7:23: error: tl.full's value: the float does not fit in i32\n"
         "        v = tl.full((8,), 1e10, tl.int32)\n"
         "                          ^\n"},
        {"ExpOfString", "x, n", "*fp32, i32", "    v = tl.exp('a')\n",
         "k.py:7:16: error: tl.exp needs a number or a block, not a string\n"
         "        v = tl.exp('a')\n"
         "                   ^\n"},
        {"SumAlongAxis1", "x, n", "*fp32, i32",
         "    v = tl.sum(tl.load(x + tl.arange(0, 8)), axis=1)\n",
         "k.py:7:46: error: tl.sum: axis 1 is out of range for a block of rank 1 (expected -1 <= axis < 1)\n"
         "        v = tl.sum(tl.load(x + tl.arange(0, 8)), axis=1)\n"
         "                                                 ^\n"},
        {"SumOfScalar", "x, n", "*fp32, i32", "    v = tl.sum(n)\n",
         "k.py:7:9: error: tl.sum needs a block (got i32)\n"
         "        v = tl.sum(n)\n"
         "            ^\n"},
        {"ZerosFiveDimensions", "x, n", "*fp32, i32",
         "    v = tl.zeros((2, 2, 2, 2, 2), tl.float32)\n",
         "k.py:7:18: error: tl.zeros: blocks have 1 to 4 dimensions (the shape has 5)\n"
         "        v = tl.zeros((2, 2, 2, 2, 2), tl.float32)\n"
         "                     ^\n"},
        {"ZerosRuntimeShape", "x, n", "*fp32, i32", "    v = tl.zeros((n, 2), tl.float32)\n",
         "k.py:7:18: error: tl.zeros: shape dimension 0 is a runtime value, not a compile-time int\n"
         "        v = tl.zeros((n, 2), tl.float32)\n"
         "                     ^\n"},
        {"ZerosShapeNotATuple", "x, n", "*fp32, i32", "    v = tl.zeros('a', tl.float32)\n",
         "k.py:7:18: error: tl.zeros: the shape must be an int or a tuple of compile-time ints, not a string\n"
         "        v = tl.zeros('a', tl.float32)\n"
         "                     ^\n"},
        {"ZerosShapeZero", "x, n", "*fp32, i32", "    v = tl.zeros(0, tl.float32)\n",
         "k.py:7:18: error: tl.zeros: shape dimensions must be between 1 and 1048576 (got 0)\n"
         "        v = tl.zeros(0, tl.float32)\n"
         "                     ^\n"},
        {"ZerosBadDtype", "x, n", "*fp32, i32", "    v = tl.zeros(8, 3)\n",
         "k.py:7:21: error: tl.zeros: the dtype must be a tl dtype such as tl.float16 or tl.int32, not an int\n"
         "        v = tl.zeros(8, 3)\n"
         "                        ^\n"},
        {"ExpOfInteger", "x, n", "*fp32, i32", "    v = tl.exp(n)\n",
         "k.py:7:9: error: tl.exp needs an f32 or f64 operand, as Triton's math functions (got i32; convert with .to(tl.float32))\n"
         "        v = tl.exp(n)\n"
         "            ^\n"},
        {"WhereNotBool", "x, n", "*fp32, i32", "    v = tl.where(x, 1.0, 2.0)\n",
         "k.py:7:9: error: tl.where needs a bool condition (got ptr<f32>)\n"
         "        v = tl.where(x, 1.0, 2.0)\n"
         "            ^\n"},
        {"ShapeMismatch", "x, n", "*fp32, i32", "    v = tl.arange(0, 8) + tl.arange(0, 16)\n",
         "k.py:7:9: error: cannot broadcast the operand shapes of '+': (8,) and (16,)\n"
         "        v = tl.arange(0, 8) + tl.arange(0, 16)\n"
         "            ^\n"},
        // ---- loops -----------------------------------------------------------------
        {"RangeStopFloat", "x, n", "*fp32, i32",
         "    for i in range(n, 2.5):\n"
         "        pass\n",
         "k.py:7:23: error: the stop of range() must be an integer, not a float\n"
         "        for i in range(n, 2.5):\n"
         "                          ^\n"},
        {"RangeStepZero", "x, n", "*fp32, i32",
         "    for i in range(0, 8, 0):\n"
         "        pass\n",
         "k.py:7:26: error: range() arg 3 must not be zero\n"
         "        for i in range(0, 8, 0):\n"
         "                             ^\n"},
        {"UnrollTooFar", "x, n", "*fp32, i32",
         "    for i in tl.static_range(2000000):\n"
         "        pass\n",
         "k.py:7:14: error: tl.static_range unrolls 2000000 iterations, more than 1048576\n"
         "        for i in tl.static_range(2000000):\n"
         "                 ^\n"},
        {"IterateOverRuntimeValue", "x, n", "*fp32, i32",
         "    for i in n:\n"
         "        pass\n",
         "k.py:7:14: error: a for loop must iterate over range(...), tl.static_range(...) or a compile-time tuple\n"
         "        for i in n:\n"
         "                 ^\n"},
        {"CarriedTupleBeforeLoop", "x, n", "*fp32, i32",
         "    t = (1, 2)\n"
         "    for i in range(n):\n"
         "        t = 3\n",
         "k.py:8:5: error: 't' is assigned in the runtime loop but holds a tuple before it (only numbers, blocks and block pointers can be carried)\n"
         "        for i in range(n):\n"
         "        ^\n"},
        {"CarriedAssignedTuple", "x, n", "*fp32, i32",
         "    acc = 0\n"
         "    for i in range(n):\n"
         "        acc = (1, 2)\n",
         "k.py:9:9: error: 'acc' is carried by the runtime loop at line 8 but is assigned a tuple in its body\n"
         "            acc = (1, 2)\n"
         "            ^\n"},
        {"RuntimeLoopStepFloat", "x, n", "*fp32, i32",
         "    for i in range(0, n, 1.5):\n"
         "        pass\n",
         "k.py:7:26: error: the step of range() must be an integer, not a float\n"
         "        for i in range(0, n, 1.5):\n"
         "                             ^\n"},
        // ---- parameters and the kernel ---------------------------------------------
        {"KeywordOnlyParameter", "x, *, n", "*fp32, i32", "    pass\n",
         "k.py:6:13: error: keyword-only parameters are not supported in kernels\n"
         "    def k(x, *, n):\n"
         "                ^\n"},
        {"VarargsParameter", "x, *rest", "*fp32", "    pass\n",
         "k.py:6:11: error: *args parameters are not supported in kernels\n"
         "    def k(x, *rest):\n"
         "              ^\n"},
        {"KwargsParameter", "x, **rest", "*fp32", "    pass\n",
         "k.py:6:12: error: **kwargs parameters are not supported in kernels\n"
         "    def k(x, **rest):\n"
         "               ^\n"},
        {"ConstexprDefaultNotCompileTime", "x, n, B: tl.constexpr = [1, 2]", "*fp32, i32",
         "    pass\n",
         "k.py:6:31: error: the default of constexpr 'B' must be a compile-time value\n"
         "    def k(x, n, B: tl.constexpr = [1, 2]):\n"
         "                                  ^\n"},
        {"DefineGivenTwice",
         "x, n, B: tl.constexpr",
         "*fp32, i32",
         "    pass\n",
         "k.py: error: -D B is given twice\n",
         {{"B", "8"}, {"B", "9"}},
         nullptr,
         "",
         2},
        {"NoJitFunctionInFile",
         "x, n",
         "*fp32, i32",
         "",
         "k.py: error: no kernel named 'k' (this file has no @triton.jit functions)\n",
         {},
         nullptr,
         "",
         2,
         "import triton\n"
         "\n"
         "def helper(x):\n"
         "    pass\n"},
        {"TlNotImported",
         "x, n",
         "*fp32, i32",
         "",
         "k.py:5:9: error: undefined name 'tl' (add 'import triton.language as tl')\n"
         "        o = tl.arange(0, 8)\n"
         "            ^\n",
         {},
         nullptr,
         "",
         2,
         "import triton\n"
         "\n"
         "@triton.jit\n"
         "def k(x, n):\n"
         "    o = tl.arange(0, 8)\n"},
        {"PlainGlobalRead",
         "x, n",
         "*fp32, i32",
         "",
         "k.py:8:17: error: cannot access the global variable 'SCALE' from a @triton.jit function (line 4): Triton lets kernels read only module-level constexprs made as `SCALE = tl.constexpr(value)`\n"
         "        tl.store(x, SCALE)\n"
         "                    ^\n",
         {},
         nullptr,
         "",
         2,
         "import triton\n"
         "import triton.language as tl\n"
         "\n"
         "SCALE = 4\n"
         "\n"
         "@triton.jit\n"
         "def k(x, n):\n"
         "    tl.store(x, SCALE)\n"},
        {"AnnotatedGlobalConstexpr",
         "x, n",
         "*fp32, i32",
         "",
         "k.py:8:17: error: cannot access the global variable 'SCALE' from a @triton.jit function (line 4): Triton lets kernels read only module-level constexprs made as `SCALE = tl.constexpr(value)`; annotating it (`x: tl.constexpr = value`) at module level is not supported\n"
         "        tl.store(x, SCALE)\n"
         "                    ^\n",
         {},
         nullptr,
         "",
         2,
         "import triton\n"
         "import triton.language as tl\n"
         "\n"
         "SCALE: tl.constexpr = 4\n"
         "\n"
         "@triton.jit\n"
         "def k(x, n):\n"
         "    tl.store(x, SCALE)\n"},
        {"ModuleAssignedToName",
         "x, n",
         "*fp32, i32",
         "",
         "k.py:7:5: error: cannot assign the module 'tl.extra.cuda.libdevice' to a name in a @triton.jit function (Triton cannot convert a module to a tensor): call through its full name, or import it at module level (`from triton.language.extra import libdevice`)\n"
         "        ld = tl.extra.cuda.libdevice\n"
         "        ^\n",
         {},
         nullptr,
         "",
         2,
         "import triton\n"
         "import triton.language as tl\n"
         "\n"
         "\n"
         "@triton.jit\n"
         "def k(x, n):\n"
         "    ld = tl.extra.cuda.libdevice\n"
         "    tl.store(x, ld.tanh(tl.load(x)))\n"},
        {"Fp8LoadIntOther",
         "x, n",
         "*fp8e4nv, i32",
         "",
         "k.py:8:48: error: tl.load's other: cannot cast i32 to f8e4nv (Triton has no conversion between integers and fp8; go through a float type, or write a float literal such as 0.0)\n"
         "        tl.store(x + o, tl.load(x + o, mask=o < n, other=0))\n"
         "                                                   ^\n",
         {},
         nullptr,
         "",
         2,
         "import triton\n"
         "import triton.language as tl\n"
         "\n"
         "\n"
         "@triton.jit\n"
         "def k(x, n):\n"
         "    o = tl.arange(0, 8)\n"
         "    tl.store(x + o, tl.load(x + o, mask=o < n, other=0))\n"},
        {"Fp8ToIntCast",
         "x, n",
         "*fp8e5, i32",
         "",
         "k.py:7:17: error: '.to': cannot cast f8e5 to i32 (Triton has no conversion between integers and fp8; go through a float type, or write a float literal such as 0.0)\n"
         "        tl.store(x, tl.load(x).to(tl.int32).to(tl.float32))\n"
         "                    ^\n",
         {},
         nullptr,
         "",
         2,
         "import triton\n"
         "import triton.language as tl\n"
         "\n"
         "\n"
         "@triton.jit\n"
         "def k(x, n):\n"
         "    tl.store(x, tl.load(x).to(tl.int32).to(tl.float32))\n"},
    };
    return all;
}

// The diagnostic output with the scratch directory taken out of the paths.
std::string compile_and_strip(const std::string &path, const CompileArgs &args) {
    Compiled r = compile(args);
    EXPECT_FALSE(r.ok);
    std::string dir = path.substr(0, path.size() - 4);
    std::string got = r.diagnostics;
    for (size_t at; (at = got.find(dir)) != std::string::npos;) got.erase(at, dir.size());
    return got;
}

class MoreDiagnostic : public ::testing::TestWithParam<size_t> {};

TEST_P(MoreDiagnostic, MatchesExpectedText) {
    const Case &c = cases()[GetParam()];
    std::string text = c.file ? c.file : kernel_text(c.params, c.body) + c.after;
    std::string path = write_kernel(std::string("diag_more_") + c.name, "k.py", text);
    CompileArgs a;
    a.path = path;
    a.signature = c.signature;
    a.defines = c.defines;
    a.grid = c.grid;
    a.opt_level = c.opt_level;
    std::string got = compile_and_strip(path, a);
    EXPECT_EQ(got, c.expected) << "kernel:\n" << text;
}

INSTANTIATE_TEST_SUITE_P(Rejected, MoreDiagnostic, ::testing::Range<size_t>(0, cases().size()),
                         [](const ::testing::TestParamInfo<size_t> &info) {
                             return std::string(cases()[info.param].name);
                         });

// ---- The parser shim's own failures ------------------------------------------

enum class Setup { File, Missing, Directory };

struct ShimCase {
    const char *name;
    Setup setup;
    std::string file;    // the kernel file's bytes (Setup::File)
    const char *python;  // nullptr: the test's interpreter
    const char *expected;
};

const std::vector<ShimCase> &shim_cases() {
    static const std::vector<ShimCase> all = {
        {"ShimUnterminatedString", Setup::File,
         "import triton\n"
         "\n"
         "@triton.jit\n"
         "def k(x):\n"
         "    y = \"abc\n",
         nullptr,
         "k.py:5:9: error: Python syntax error: unterminated string literal (detected at line 5)\n"
         "        y = \"abc\n"
         "            ^\n"},
        {"ShimUnmatchedParenthesis", Setup::File,
         "import triton\n"
         "\n"
         "@triton.jit\n"
         "def k(x):\n"
         "    y = 1)\n",
         nullptr,
         "k.py:5:10: error: Python syntax error: unmatched ')'\n"
         "        y = 1)\n"
         "             ^\n"},
        {"ShimInvalidCharacter", Setup::File,
         "import triton\n"
         "\n"
         "@triton.jit\n"
         "def k(x):\n"
         "    y = 1 \xe2\x82\xac"
         " 2\n",
         nullptr,
         "k.py:5:11: error: Python syntax error: invalid character '\xe2\x82\xac"
         "' (U+20AC)\n"
         "        y = 1 \xe2\x82\xac"
         " 2\n"
         "              ^\n"},
        {"ShimInconsistentTabs", Setup::File,
         "import triton\n"
         "\n"
         "@triton.jit\n"
         "def k(x):\n"
         "    if x:\n"
         "\ty = 1\n"
         "        z = 2\n",
         nullptr,
         "k.py:6:1: error: Python syntax error: inconsistent use of tabs and spaces in indentation\n"
         "    \ty = 1\n"
         "    ^\n"},
        {"ShimNullByte", Setup::File,
         "import triton\n"
         "\n"
         "@triton.jit\n"
         "def k(x):\n"
         "    y = 1\x00\n"s,
         nullptr,
         "k.py: error: Python syntax error: source code string cannot contain null bytes\n"},
        {"ShimNotUtf8", Setup::File,
         "import triton\n\n@triton.jit\ndef k(x):\n    y = \"\xff\xfe\"\n", nullptr,
         "k.py:5:10: error: file is not valid UTF-8\n"
         "        y = \"??\"\n"
         "             ^\n"},
        {"ShimMissingFile", Setup::Missing, "", nullptr,
         "k.py: error: cannot read the kernel file: No such file or directory\n"},
        {"ShimDirectory", Setup::Directory, "", nullptr,
         "k.py: error: cannot read the kernel file: Is a directory\n"},
        {"ShimNoPython", Setup::File,
         "import triton\n"
         "\n"
         "@triton.jit\n"
         "def k(x):\n"
         "    pass\n",
         "/nonexistent/python3",
         "k.py: error: cannot run the Python interpreter '/nonexistent/python3': No such file or directory (mytritonc runs python3 to parse kernel files; name another with --python or MYTRITON_PYTHON)\n"},
        {"ShimPythonFails", Setup::File,
         "import triton\n"
         "\n"
         "@triton.jit\n"
         "def k(x):\n"
         "    pass\n",
         "false", "k.py: error: the parser shim failed (exit status 1): no output\n"},
    };
    return all;
}

class ShimDiagnostic : public ::testing::TestWithParam<size_t> {};

TEST_P(ShimDiagnostic, MatchesExpectedText) {
    const ShimCase &c = shim_cases()[GetParam()];
    std::string dir = mt_test::make_temp_dir(std::string("diag_shim_") + c.name);
    std::string path = dir + "/k.py";
    if (c.setup == Setup::File) mt_test::write_file(path, c.file);
    if (c.setup == Setup::Directory) {
        ASSERT_EQ(mkdir(path.c_str(), 0755), 0);
    }
    CompileArgs a;
    a.path = path;
    a.signature = "*fp32";
    if (c.python) a.python = c.python;
    std::string got = compile_and_strip(path, a);
    EXPECT_EQ(got, c.expected);
}

INSTANTIATE_TEST_SUITE_P(Shim, ShimDiagnostic, ::testing::Range<size_t>(0, shim_cases().size()),
                         [](const ::testing::TestParamInfo<size_t> &info) {
                             return std::string(shim_cases()[info.param].name);
                         });

// Every rejected kernel, through the command line too: exit status 1, the
// same text on stderr, nothing on stdout, and no output files.
TEST(MoreDiagnosticCli, ExitStatusStreamsAndNoFiles) {
    for (const Case &c : cases()) {
        std::string text = c.file ? c.file : kernel_text(c.params, c.body) + c.after;
        std::string path = write_kernel(std::string("diag_more_cli_") + c.name, "k.py", text);
        std::string dir = path.substr(0, path.size() - 4);
        std::vector<std::string> argv = {MT_TEST_COMPILER,
                                         path,
                                         "--kernel",
                                         "k",
                                         "--signature",
                                         c.signature,
                                         "-O" + std::to_string(c.opt_level),
                                         "--python",
                                         MT_TEST_PYTHON,
                                         "--backends",
                                         "cuda,host",
                                         "-o",
                                         dir + "out"};
        for (auto &d : c.defines) argv.insert(argv.end(), {"-D", d.first + "=" + d.second});
        if (c.grid) argv.insert(argv.end(), {"--grid", c.grid});
        auto r = mt_test::run_process(argv);
        EXPECT_EQ(r.status, 1) << c.name;
        EXPECT_EQ(r.out, "") << c.name;
        std::string err = r.err;
        for (size_t at; (at = err.find(dir)) != std::string::npos;) err.erase(at, dir.size());
        EXPECT_EQ(err, c.expected) << c.name;
        EXPECT_FALSE(mt_test::file_exists(dir + "out/k.cu")) << c.name;
        EXPECT_FALSE(mt_test::file_exists(dir + "out/k.h")) << c.name;
    }
}

}  // namespace
