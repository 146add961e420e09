// Expected diagnostics (DESIGN 4, 14): one test per rejected construct,
// comparing the whole output of diagnostics.c: the message line
// `k.py:LINE:COL: error: MESSAGE`, the source line indented by four spaces
// and the caret line. Each kernel is
//
//   1 import triton
//   2 import triton.language as tl
//   3
//   4
//   5 @triton.jit
//   6 def k(PARAMS):
//   7     <body>...
//
// and the table keeps the snippet beside the exact expected text.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "unit_support.h"

namespace {

using namespace mt_unit;

using Case = DiagnosticCase;

// `[...]` in an expected text stands for any text (for hints that other
// work may reword).
bool matches(const std::string &got, const std::string &expected) {
    size_t star = expected.find("[...]");
    if (star == std::string::npos) return got == expected;
    std::string pre = expected.substr(0, star), post = expected.substr(star + 5);
    return got.size() >= pre.size() + post.size() && got.compare(0, pre.size(), pre) == 0 &&
           got.compare(got.size() - post.size(), post.size(), post) == 0;
}

const std::vector<Case> &cases() {
    static const std::vector<Case> all = {
        // ---- statements ------------------------------------------------------
        {"Return", "x, n", "*fp32, i32", "    tl.store(x, 1.0)\n    return n\n",
         "k.py:8:5: error: a kernel cannot return a value (kernels write results with tl.store)\n"
         "        return n\n"
         "        ^\n"},
        {"ChainedComparison", "x, n", "*fp32, i32", "    o = tl.arange(0, 8)\n    m = 0 <= o < n\n",
         "k.py:8:9: error: chained comparisons are not supported (parenthesize each comparison when combining with &, "
         "e.g. (0 <= x) & (x < n))\n"
         "        m = 0 <= o < n\n"
         "            ^\n"},
        {"TupleTarget", "x, n", "*fp32, i32", "    a, b = n, n, n\n",
         "k.py:7:5: error: cannot unpack a tuple of 3 values into 2 names\n"
         "        a, b = n, n, n\n"
         "        ^\n"},
        {"Power", "x, n", "*fp32, i32", "    y = n ** 2\n",
         "k.py:7:9: error: '**' is only for compile-time numbers (Triton's tensors have none): multiply explicitly, e.g. x * x\n"
         "        y = n ** 2\n"
         "            ^\n"},
        {"PowerCompileTime", "x, n", "*fp32, i32",
         "    tl.static_assert(2 ** 10 == 1024)\n"
         "    tl.static_assert((-2) ** 3 == -8)\n"
         "    tl.static_assert(2 ** -1 == 0.5)\n"
         "    tl.static_assert(9.0 ** 0.5 == 3.0)\n"
         "    y = 2 ** 64\n",
         "k.py:11:9: error: '**': 2 ** 64 does not fit in 64 bits\n"
         "        y = 2 ** 64\n"
         "            ^\n"},
        // a shape equals the list or tuple of its sizes (Triton's tl.tuple
        // compares normalized), sequences repeat, getattr / hasattr look
        // attributes up by name
        {"SequencesAndAttributesByName", "x, n", "*fp32, i32",
         "    v = tl.zeros([2, 4], tl.float32)\n"
         "    tl.static_assert(v.shape == [2, 4] and v.shape == (2, 4) and v.shape != [4, 2])\n"
         "    tl.static_assert([2] * 3 == [2, 2, 2] and 2 * (1, 4) == (1, 4, 1, 4) and [1] * -1 == [])\n"
         "    tl.static_assert(getattr(tl, 'float32') == tl.float32 and getattr(n, 'nope', 3) == 3)\n"
         "    tl.static_assert(hasattr(n, 'dtype') and not hasattr(n, 'nope'))\n"
         "    y = getattr(n, 'nope')\n",
         "k.py:12:9: error: the attribute 'nope' of a block is not supported\n"
         "        y = getattr(n, 'nope')\n"
         "            ^\n"},
        {"UnknownLanguageFunction", "x, n", "*fp32, i32", "    y = tl.foo(n)\n",
         "k.py:7:9: error: 'tl.foo' is not supported by mytriton (docs/language.md lists what is)\n"
         "        y = tl.foo(n)\n"
         "            ^\n"},
        {"CallToUserFunction",
         "x, n",
         "*fp32, i32",
         "    y = helper(n)\n",
         "k.py:7:9: error: 'helper' is not a @triton.jit function (decorate it with @triton.jit to call it from a kernel)\n"
         "        y = helper(n)\n"
         "            ^\n",
         {},
         nullptr,
         "\n\ndef helper(v):\n    return v\n"},
        {"UndefinedName", "x, n", "*fp32, i32", "    tl.store(x, n + offset)\n",
         "k.py:7:21: error: undefined name 'offset'\n"
         "        tl.store(x, n + offset)\n"
         "                        ^\n"},
        {"NameCreatedInRuntimeLoopUsedAfterIt", "x, n", "*fp32, i32",
         "    for i in range(n):\n        last = tl.load(x + i)\n    tl.store(x, last)\n",
         "k.py:9:17: error: undefined name 'last' (it is assigned at line 8 inside the runtime loop at line 7, and "
         "names first created in a loop body do not exist after the loop: assign it before the loop to carry it)\n"
         "        tl.store(x, last)\n"
         "                    ^\n"},
        {"NameCreatedInNestedRuntimeLoopUsedAfterIt", "x, n", "*fp32, i32",
         "    for i in range(n):\n        for j in range(n):\n            last = i + j\n    tl.store(x, last)\n",
         "k.py:10:17: error: undefined name 'last' (it is assigned at line 9 inside the runtime loop at line 7, and "
         "names first created in a loop body do not exist after the loop: assign it before the loop to carry it)\n"
         "        tl.store(x, last)\n"
         "                    ^\n"},
        {"TooManyArguments", "x, n", "*fp32, i32", "    pid = tl.program_id(0, 1)\n",
         "k.py:7:28: error: tl.program_id() takes at most 1 argument (2 given)\n"
         "        pid = tl.program_id(0, 1)\n"
         "                               ^\n"},
        {"MissingRequiredArgument", "x, n", "*fp32, i32", "    o = tl.arange(0)\n",
         "k.py:7:9: error: tl.arange() missing required argument 'end'\n"
         "        o = tl.arange(0)\n"
         "            ^\n"},
        {"UnexpectedKeyword", "x, n", "*fp32, i32", "    tl.store(x, 1.0, msk=n > 0)\n",
         "k.py:7:22: error: tl.store() got an unexpected keyword argument 'msk'\n"
         "        tl.store(x, 1.0, msk=n > 0)\n"
         "                         ^\n"},
        {"Break", "x, n", "*fp32, i32", "    for i in range(n):\n        break\n",
         "k.py:8:9: error: 'break' is not supported (loops always run to the end of their range)\n"
         "            break\n"
         "            ^\n"},
        {"Continue", "x, n", "*fp32, i32", "    for i in range(n):\n        continue\n",
         "k.py:8:9: error: 'continue' is not supported (use tl.where or masks instead)\n"
         "            continue\n"
         "            ^\n"},
        {"ForElse", "x, n", "*fp32, i32",
         "    for i in range(n):\n        tl.store(x + i, 1.0)\n    else:\n        tl.store(x, 2.0)\n",
         "k.py:9:5: error: for/else is not supported (the loop always runs to the end of its range)\n"
         "        else:\n"
         "        ^\n"},
        // ---- runtime loops ---------------------------------------------------
        {"RuntimeLoopStepZero", "x, n", "*fp32, i32",
         "    for i in range(0, n, 0):\n        tl.store(x + i, 1.0)\n",
         "k.py:7:26: error: range() arg 3 must not be zero\n"
         "        for i in range(0, n, 0):\n"
         "                             ^\n"},
        {"NestedLoopReusesInductionVariable", "x, n", "*fp32, i32",
         "    for i in range(n):\n        for i in range(n):\n            tl.store(x + i, 1.0)\n",
         "k.py:8:13: error: cannot assign to 'i', the induction variable of the runtime loop at line 7\n"
         "            for i in range(n):\n"
         "                ^\n"},
        {"LoopTargetTuple", "x, n", "*fp32, i32", "    for i, j in range(n):\n        pass\n",
         "k.py:7:9: error: the target of a for loop must be a simple name (tuple targets are not supported)\n"
         "        for i, j in range(n):\n"
         "            ^\n"},
        {"LoopTargetSubscript", "x, n", "*fp32, i32", "    for x[0] in range(n):\n        pass\n",
         "k.py:7:9: error: the target of a for loop must be a simple name (not a subscript)\n"
         "        for x[0] in range(n):\n"
         "            ^\n"},
        {"StaticRangeWithRuntimeBounds", "x, n", "*fp32, i32",
         "    for i in tl.static_range(0, n):\n        tl.store(x + i, 1.0)\n",
         "k.py:7:33: error: tl.static_range needs compile-time integer bounds (got a runtime value; use range() for a "
         "runtime loop)\n"
         "        for i in tl.static_range(0, n):\n"
         "                                    ^\n"},
        {"CarriedValueChangesType", "x, n", "*fp32, i32",
         "    acc = 0\n    for i in range(n):\n        acc = acc + tl.load(x + i)\n    tl.store(x, acc)\n",
         "k.py:9:9: error: the loop-carried variable 'acc' changes type across an iteration: i32 before the loop, f32 "
         "at the end of the body (a carried value keeps one type; give it its final type before the loop)\n"
         "            acc = acc + tl.load(x + i)\n"
         "            ^\n"},
        {"CarriedValueChangesShape", "x, n", "*fp32, i32",
         "    acc = 0.0\n    for i in range(n):\n        acc += tl.load(x + tl.arange(0, 8))\n",
         "k.py:9:9: error: the loop-carried variable 'acc' changes type across an iteration: f32 before the loop, "
         "vector<8 x f32> at the end of the body (a carried value keeps one type; give it its final type before the "
         "loop)\n"
         "            acc += tl.load(x + tl.arange(0, 8))\n"
         "            ^\n"},
        {"RuntimeLoopBoundNotI32", "x, n, s", "*fp32, i32, fp32",
         "    for i in range(s):\n        pass\n",
         "k.py:7:20: error: the stop of a runtime loop must be an i32 or i64 scalar (got f32)\n"
         "        for i in range(s):\n"
         "                       ^\n"},
        // ---- values, shapes, tiles -------------------------------------------
        {"ReductionWidthNotPowerOfTwo", "x, n", "*fp32, i32",
         "    v = tl.load(x + tl.arange(0, 6))\n    tl.store(x, tl.sum(v))\n",
         "k.py:8:17: error: tl.sum needs a block whose width is a power of two equal to the CUDA block size (got "
         "width 6)\n"
         "        tl.store(x, tl.sum(v))\n"
         "                    ^\n"},
        // at -O1 each element of the tile is one thread
        {"ThreadLimitRank1",
         "x, n",
         "*fp32, i32",
         "    o = tl.arange(0, 2048)\n    tl.store(x + o, 1.0)\n",
         "k.py:7:9: error: the tile (2048,) needs 2048 threads, more than the 1024 of a CUDA block (one thread per "
         "element[...])\n"
         "        o = tl.arange(0, 2048)\n"
         "            ^\n",
         {},
         nullptr,
         "",
         1},
        {"ThreadLimitRank2",
         "x, n",
         "*fp32, i32",
         "    o = tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 32)[None, :]\n    tl.store(x + o, 1.0)\n",
         "k.py:7:29: error: the tile (64, 32) needs 2048 threads, more than the 1024 of a CUDA block (one thread per "
         "element[...])\n"
         "        o = tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 32)[None, :]\n"
         "                                ^\n",
         {},
         nullptr,
         "",
         1},
        {"Rank1WidthDoesNotFitTile", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :]\n"
         "    tl.store(x + o, 1.0)\n"
         "    tl.store(x + tl.arange(0, 16), 2.0)\n",
         "k.py:9:18: error: a rank-1 block of width 16 does not fit the (4, 8) tile (its width must be 4, 8 or 32)\n"
         "        tl.store(x + tl.arange(0, 16), 2.0)\n"
         "                     ^\n"},
        {"LoadOtherWithoutMask", "x, n", "*fp32, i32", "    v = tl.load(x, other=0.0)\n",
         "k.py:7:20: error: tl.load's 'other' needs a mask (other is the value where the mask is false)\n"
         "        v = tl.load(x, other=0.0)\n"
         "                       ^\n"},
        {"ConstantOutsideI32", "x, n", "*fp32, i32", "    tl.store(x, n + 3000000000)\n",
         "k.py:7:17: error: '+': the scalar 3000000000 is out of range for i32\n"
         "        tl.store(x, n + 3000000000)\n"
         "                    ^\n"},
        {"NegativeConstantOutsideI32", "x, n", "*fp32, i32", "    tl.store(x, n - 2147483649)\n",
         "k.py:7:17: error: '-': the scalar 2147483649 is out of range for i32\n"
         "        tl.store(x, n - 2147483649)\n"
         "                    ^\n"},
        {"ConstexprOutsideI32",
         "x, n, B: tl.constexpr",
         "*fp32, i32",
         "    tl.store(x, n * B)\n",
         "k.py:7:17: error: '*': the scalar 4294967296 is out of range for i32\n"
         "        tl.store(x, n * B)\n"
         "                    ^\n",
         {{"B", "4294967296"}}},
        // ---- parameters, -D, signature, grid ---------------------------------
        {"UndefinedConstexpr", "x, n, BLOCK: tl.constexpr", "*fp32, i32",
         "    tl.store(x + tl.arange(0, BLOCK), 1.0)\n",
         "k.py:6:13: error: the constexpr parameter 'BLOCK' has no value (pass -D BLOCK=<value>)\n"
         "    def k(x, n, BLOCK: tl.constexpr):\n"
         "                ^\n"},
        {"DefineOfRuntimeParameter",
         "x, n, BLOCK: tl.constexpr",
         "*fp32, i32",
         "    tl.store(x, 1.0)\n",
         "k.py:6:10: error: -D n: 'n' is a runtime parameter (annotate it ': tl.constexpr' to fix it at build time)\n"
         "    def k(x, n, BLOCK: tl.constexpr):\n"
         "             ^\n",
         {{"BLOCK", "8"}, {"n", "4"}}},
        {"UnknownDefine",
         "x, n, BLOCK: tl.constexpr",
         "*fp32, i32",
         "    tl.store(x, 1.0)\n",
         "k.py:6:1: error: -D BLOKC: the kernel 'k' has no parameter named 'BLOKC'\n"
         "    def k(x, n, BLOCK: tl.constexpr):\n"
         "    ^\n",
         {{"BLOCK", "8"}, {"BLOKC", "8"}}},
        {"DefineValueNotALiteral",
         "x, n, BLOCK: tl.constexpr",
         "*fp32, i32",
         "    tl.store(x, 1.0)\n",
         "k.py: error: -D BLOCK=1+2: the value must be an integer, a float, True, False, None or a string (quote it: BLOCK='...')\n",
         {{"BLOCK", "1+2"}}},
        {"DefineUnknownDtype",
         "x, n, DT: tl.constexpr",
         "*fp32, i32",
         "    tl.store(x, n.to(DT))\n",
         "k.py: error: -D DT=tl.float17: 'float17' is not a dtype of triton.language\n",
         {{"DT", "tl.float17"}}},
        {"SignatureCountMismatch", "x, n", "*fp32", "    tl.store(x, 1.0)\n",
         "k.py:6:1: error: --signature has 1 entry but the kernel 'k' has 2 runtime parameters (x, n)\n"
         "    def k(x, n):\n"
         "    ^\n"},
        {"SignatureNameMismatch", "x, n", "x: *fp32, m: i32", "    tl.store(x, 1.0)\n",
         "k.py:6:10: error: --signature entry 2 is named 'm' but the parameter is 'n'\n"
         "    def k(x, n):\n"
         "             ^\n"},
        {"EqualToOneOnAPointer", "x, n", "*fp32:1, i32", "    tl.store(x, 1.0)\n",
         "k.py:6:7: error: --signature entry 1 ('x'): the hint :1 says the value is 1, which only an integer "
         "parameter can be\n"
         "    def k(x, n):\n"
         "          ^\n"},
        {"BadSignatureType", "x, n", "*fp32, i128", "    tl.store(x, 1.0)\n",
         "k.py: error: --signature: entry 2: unsupported type 'i128' (a dtype, or * and a dtype, of: i1, i8, i16, i32, i64, u8, u16, u32, u64, fp16, bf16, fp32, fp64, fp8e4nv, fp8e5)\n"},
        {"BadTensorDescriptorType", "x, n", "tensordesc<fp16[64, 0]>, i32", "    pass\n",
         "k.py: error: --signature: entry 1: 'tensordesc<fp16[64, 0]>' is not a tensor descriptor type "
         "(tensordesc<DTYPE[B0, B1, ...]>: a dtype and the block shape, 1 to 4 positive sizes)\n"},
        {"TensorDescriptorPartName", "x, x_shape0", "tensordesc<fp32[16, 16]>, i32", "    pass\n",
         "k.py:6:10: error: the parameter 'x_shape0' has the name of a part of the tensor descriptor 'x' "
         "(its shape and strides are passed as x_shape0, ..., x_stride0, ...)\n"
         "    def k(x, x_shape0):\n"
         "             ^\n"},
        {"TensorDescriptorNarrowBlock", "x", "tensordesc<fp32[16, 2]>", "    pass\n",
         "k.py:6:7: error: the tensor descriptor 'x': the block's last dimension has 8 bytes (2 x 4), fewer "
         "than the 16 a tensor descriptor needs (Triton's rule)\n"
         "    def k(x):\n"
         "          ^\n"},
        {"EmptySignatureEntry", "x, n", "*fp32,, i32", "    tl.store(x, 1.0)\n",
         "k.py: error: --signature: entry 2 is empty (entries are separated by commas: \"*fp32, i32\")\n"},
        {"GridUnknownName",
         "x, n, BLOCK: tl.constexpr",
         "*fp32, i32",
         "    tl.store(x, 1.0)\n",
         "k.py: error: --grid \"cdiv(n, BLOK)\": unknown name 'BLOK' (the grid can use the kernel's i32 parameters, "
         "its integer constexprs, launcher-only integers declared with --grid-param, and cdiv) (at column 9)\n",
         {{"BLOCK", "8"}},
         "cdiv(n, BLOK)"},
        {"GridFloatParameter",
         "x, s, BLOCK: tl.constexpr",
         "*fp32, fp32",
         "    tl.store(x, s)\n",
         "k.py: error: --grid \"cdiv(s, BLOCK)\": 's' is f32, but the grid can only use i32 parameters (at column 6)\n",
         {{"BLOCK", "8"}},
         "cdiv(s, BLOCK)"},
        {"GridPointerParameter",
         "x, n",
         "*fp32, i32",
         "    tl.store(x, 1.0)\n",
         "k.py: error: --grid \"x\": 'x' is ptr<f32>, but the grid can only use i32 parameters (at column 1)\n",
         {},
         "x"},
        {"GridTrailingText",
         "x, n, BLOCK: tl.constexpr",
         "*fp32, i32",
         "    tl.store(x, 1.0)\n",
         "k.py: error: --grid \"cdiv(n, BLOCK) 4\": unexpected text '4' after a dimension (dimensions are separated by "
         "commas) (at column 16)\n",
         {{"BLOCK", "8"}},
         "cdiv(n, BLOCK) 4"},
        {"GridFloatConstexpr",
         "x, n, BLOCK: tl.constexpr",
         "*fp32, i32",
         "    tl.store(x, 1.0)\n",
         "k.py: error: --grid \"n // BLOCK\": the constexpr 'BLOCK' is not an integer (at column 6)\n",
         {{"BLOCK", "0.5"}},
         "n // BLOCK"},
        {"GridTrueDivision",
         "x, n",
         "*fp32, i32",
         "    tl.store(x, 1.0)\n",
         "k.py: error: --grid \"n / 2\": use // for division (grid sizes are integers) (at column 3)\n",
         {},
         "n / 2"},
        {"GridTooManyDimensions",
         "x, n",
         "*fp32, i32",
         "    tl.store(x, 1.0)\n",
         "k.py: error: --grid \"1, 1, 1, 1\": a grid has at most three dimensions (at column 9)\n",
         {},
         "1, 1, 1, 1"},
        // ---- other rejected Python ---------------------------------------------
        {"NotOfNonBoolBlock", "x, n", "*fp32, i32", "    m = not n\n",
         "k.py:7:9: error: 'not' needs a bool block (got i32; compare with 0 first)\n"
         "        m = not n\n"
         "            ^\n"},
        {"AndOfAnInteger", "x, n", "*fp32, i32", "    m = (n > 0) and n\n",
         "k.py:7:21: error: 'and' needs bool operands (got i32; compare with 0 first)\n"
         "        m = (n > 0) and n\n"
         "                        ^\n"},
        {"AndChainOnRuntimeValues", "x, n", "*fp32, i32",
         "    m = (n > 0) and (n < 9) and (n < 5)\n",
         "k.py:7:9: error: chained boolean operators (A and B and C) on runtime values are not supported, "
         "as in Triton; use parentheses to split the chain\n"
         "        m = (n > 0) and (n < 9) and (n < 5)\n"
         "            ^\n"},
        {"PointerFromI32", "x, n", "*fp32, i32", "    p = n.to(tl.pointer_type(tl.float32))\n",
         "k.py:7:9: error: '.to': an address is 64 bits: cast the i32 to tl.int64 first, then to a "
         "pointer\n"
         "        p = n.to(tl.pointer_type(tl.float32))\n"
         "            ^\n"},
        {"PointerToFloat", "x, n", "*fp32, i32", "    p = x.to(tl.float32)\n",
         "k.py:7:14: error: '.to': a pointer casts to tl.int64, tl.int1 or a pointer type (not "
         "float32)\n"
         "        p = x.to(tl.float32)\n"
         "                 ^\n"},
        {"PointerLaneChangesBase", "x, n", "*fp32, i32",
         "    p = x\n    for i in range(n):\n        p = n.to(tl.int64).to(tl.pointer_type(tl.float32))\n"
         "    tl.store(p, 1.0)\n",
         "k.py:8:5: error: a loop-carried or branch-merged pointer must keep its base: one pointer "
         "parameter, or one address cast with tl.pointer_type (the CUDA and host backends hold a "
         "pointer as an index from one base)\n"
         "        for i in range(n):\n"
         "        ^\n"},
        // blocks of pointers the CUDA and host backends cannot hold (issue 51;
        // passes/ptrshape.c): a base chosen per element, a loop's block reshaped
        {"WherePointersOfTwoBasesPerElement", "x, y", "*fp32, *fp32",
         "    o = tl.arange(0, 8)\n    tl.store(tl.where(o < 4, x, y) + o, 1.0)\n",
         "k.py:8:14: error: tl.where between pointers of different bases with a block condition (a "
         "base chosen per element) is not supported by the CUDA and host backends: they hold a "
         "block of pointers as indexes from one base (tl.where the loaded values, or choose the "
         "pointer with a scalar condition)\n"
         "        tl.store(tl.where(o < 4, x, y) + o, 1.0)\n"
         "                 ^\n"},
        {"ExpandDimsOfALoopCarriedPointerBlock", "x, n", "*fp32, i32",
         "    p = x + tl.arange(0, 8)\n    for i in range(n):\n"
         "        tl.store(p[:, None] + tl.arange(0, 4)[None, :], 1.0)\n        p += 8\n",
         "k.py:9:23: error: expand_dims of a block of pointers that is not an address computed "
         "from one base (a loop-carried or branch-merged block, or a choice of bases) is not "
         "supported by the CUDA and host backends: they hold a block of pointers as indexes from "
         "one base (apply it to the offsets before adding them to the pointer)\n"
         "            tl.store(p[:, None] + tl.arange(0, 4)[None, :], 1.0)\n"
         "                          ^\n"},
        {"AssumeOfABlock", "x, n", "*fp32, i32", "    tl.assume(tl.arange(0, 8) > 0)\n",
         "k.py:7:15: error: tl.assume needs a bool scalar condition, as Triton's (got vector<8 x "
         "bool>)\n"
         "        tl.assume(tl.arange(0, 8) > 0)\n"
         "                  ^\n"},
        {"BlockOfAddresses", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8).to(tl.int64)\n    p = o.to(tl.pointer_type(tl.float32))\n",
         "k.py:8:9: error: '.to': casts between pointers and integers take a scalar here (got vector<8 x "
         "i64>); blocks of addresses are not supported yet\n"
         "        p = o.to(tl.pointer_type(tl.float32))\n"
         "            ^\n"},
        {"ConditionalExpressionOnBlock", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 8)\n    v = 1.0 if o > 0 else 2.0\n",
         "k.py:8:16: error: the condition of a runtime 'x if c else y' must be a scalar, not vector<8 x bool> (the "
         "truth value of a block is ambiguous: reduce it, or use tl.where to choose per element)\n"
         "        v = 1.0 if o > 0 else 2.0\n"
         "                   ^\n"},
        {"ElementIndexing", "x, n", "*fp32, i32", "    o = tl.arange(0, 8)\n    v = o[0]\n",
         "k.py:8:11: error: only ':' and None can index a block (element indexing is not supported)\n"
         "        v = o[0]\n"
         "              ^\n"},
        {"UnsupportedAugmentedAssignment", "x, n", "*fp32, i32", "    m = n\n    m **= 2\n",
         "k.py:8:5: error: augmented assignment '**=' is not supported\n"
         "        m **= 2\n"
         "        ^\n"},
        {"NestedFunction", "x, n", "*fp32, i32", "    def inner():\n        pass\n",
         "k.py:7:5: error: nested functions are not supported in kernels\n"
         "        def inner():\n"
         "        ^\n"},
        {"AssertStatement", "x, n", "*fp32, i32", "    assert n > 0, 3\n",
         "k.py:7:19: error: the message of 'assert' must be a string (got an int)\n"
         "        assert n > 0, 3\n"
         "                      ^\n"},
        {"Lambda", "x, n", "*fp32, i32", "    f = lambda v: v\n",
         "k.py:7:9: error: lambda expressions are not supported in kernels\n"
         "        f = lambda v: v\n"
         "            ^\n"},
        {"ProgramIdAxis", "x, n", "*fp32, i32", "    pid = tl.program_id(3)\n",
         "k.py:7:25: error: tl.program_id's axis must be 0, 1 or 2 (got 3)\n"
         "        pid = tl.program_id(3)\n"
         "                            ^\n"},
        {"PointerMinusPointer", "x, n", "*fp32, i32", "    p = x - x\n",
         "k.py:7:9: error: pointer subtraction is not supported (add a negative offset instead)\n"
         "        p = x - x\n"
         "            ^\n"},
        {"NoTritonLanguageImport", "x, n", "*fp32, i32", "    o = tle.arange(0, 8)\n",
         "k.py:7:9: error: undefined name 'tle'\n"
         "        o = tle.arange(0, 8)\n"
         "            ^\n"},
        {"NoKernelOfThatName",
         "x, n",
         "*fp32, i32",
         "",
         "k.py: error: no kernel named 'k' (kernels in this file: add_kernel, other_kernel)\n",
         {},
         nullptr,
         "",
         2,
         "import triton\n\n@triton.jit\ndef add_kernel(x):\n    pass\n\n@triton.jit\ndef other_kernel(x):\n    pass\n"},
        {"KernelNotDecorated",
         "x, n",
         "*fp32, i32",
         "",
         "k.py:4:1: error: 'k' is not a kernel: it is not decorated with @triton.jit\n"
         "    def k(x, n):\n"
         "    ^\n",
         {},
         nullptr,
         "",
         2,
         "import triton\nimport triton.language as tl\n\ndef k(x, n):\n    pass\n"},
    };
    return all;
}

class Diagnostic : public ::testing::TestWithParam<size_t> {};

TEST_P(Diagnostic, MatchesExpectedText) {
    const Case &c = cases()[GetParam()];
    std::string text = c.file ? c.file : kernel_text(c.params, c.body) + c.after;
    std::string path = write_kernel(std::string("diag_") + c.name, "k.py", text);
    std::string dir = path.substr(0, path.size() - 4);
    CompileArgs a;
    a.path = path;
    a.signature = c.signature;
    a.defines = c.defines;
    a.grid = c.grid;
    a.opt_level = c.opt_level;
    Compiled r = compile(a);
    EXPECT_FALSE(r.ok);
    std::string got = r.diagnostics;
    for (size_t at; (at = got.find(dir)) != std::string::npos;) got.erase(at, dir.size());
    EXPECT_TRUE(matches(got, c.expected)) << "got:\n"
                                          << got << "expected:\n"
                                          << c.expected << "kernel:\n"
                                          << text;
}

INSTANTIATE_TEST_SUITE_P(Rejected, Diagnostic, ::testing::Range<size_t>(0, cases().size()),
                         [](const ::testing::TestParamInfo<size_t> &info) {
                             return std::string(cases()[info.param].name);
                         });

// The same through the command line: exit status 1, the diagnostic on
// stderr, nothing on stdout.
TEST(DiagnosticCli, ExitStatusAndStreams) {
    std::string path =
        write_kernel("diag_cli", "k.py", kernel_text("x, n", "    with n:\n        pass\n"));
    auto r = mt_test::run_process(
        {MT_TEST_COMPILER, path, "--kernel", "k", "--signature", "*fp32, i32", "--emit=ssa"});
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, path +
                         ":7:5: error: 'with' statements are not supported in kernels\n"
                         "        with n:\n"
                         "        ^\n");
}

// Only the first error is reported: no cascade.
TEST(DiagnosticCli, OneErrorPerCompile) {
    std::string path = write_kernel(
        "diag_one", "k.py",
        kernel_text("x, n", "    with n:\n        pass\n    y = n ** 2\n    return\n"));
    CompileArgs a;
    a.path = path;
    a.signature = "*fp32, i32";
    Compiled r = compile(a);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.diagnostics.find("error:"), r.diagnostics.rfind("error:")) << r.diagnostics;
}

// Tabs and long lines keep the caret under the column.
TEST(DiagnosticFormat, TabsAndLongLines) {
    std::string path = write_kernel("diag_tab", "k.py", kernel_text("x, n", "\ty = n ** 2\n"));
    CompileArgs a;
    a.path = path;
    a.signature = "*fp32, i32";
    Compiled r = compile(a);
    EXPECT_EQ(
        r.diagnostics,
        path +
            ":7:6: error: '**' is only for compile-time numbers (Triton's tensors have none): multiply explicitly, e.g. x * x\n"
            "    \ty = n ** 2\n"
            "    \t    ^\n");
    std::string pad(300, ' ');
    std::string long_line = "    y = 1 +" + pad + "n ** 2\n";
    path = write_kernel("diag_long", "k.py", kernel_text("x, n", long_line));
    a.path = path;
    r = compile(a);
    // at most 200 bytes of the line around the column, elided with "..."
    std::string head =
        path +
        ":7:312: error: '**' is only for compile-time numbers (Triton's tensors have none): multiply explicitly, e.g. x * x\n";
    ASSERT_EQ(r.diagnostics.rfind(head, 0), 0u) << r.diagnostics;
    std::string rest = r.diagnostics.substr(head.size());
    size_t nl = rest.find('\n');
    std::string src = rest.substr(0, nl), caret = rest.substr(nl + 1);
    EXPECT_EQ(src.rfind("    ...", 0), 0u) << src;
    EXPECT_LE(src.size(), 4u + 3u + 200u + 3u);
    ASSERT_EQ(caret.back(), '\n');
    caret.pop_back();
    // the caret stands under the "n" of "n ** 2"
    ASSERT_LT(caret.size() - 1, src.size());
    EXPECT_EQ(caret.back(), '^');
    EXPECT_EQ(src[caret.size() - 1], 'n') << src << "\n" << caret;
}

// CRLF line ends do not show in the source line; a byte order mark is not
// part of line 1 (Python's columns start after it).
TEST(DiagnosticFormat, CrlfAndByteOrderMark) {
    std::string path = write_kernel(
        "diag_crlf", "k.py",
        "import triton\r\nimport triton.language as tl\r\n\r\n@triton.jit\r\ndef k(x, n):\r\n"
        "    y = n ** 2\r\n");
    CompileArgs a;
    a.path = path;
    a.signature = "*fp32, i32";
    Compiled r = compile(a);
    EXPECT_EQ(
        r.diagnostics,
        path +
            ":6:9: error: '**' is only for compile-time numbers (Triton's tensors have none): multiply explicitly, e.g. x * x\n"
            "        y = n ** 2\n"
            "            ^\n");
    path = write_kernel("diag_bom", "k.py",
                        "\xef\xbb\xbf"
                        "def k(x, n): pass\n");
    a.path = path;
    r = compile(a);
    EXPECT_EQ(r.diagnostics,
              path +
                  ":1:1: error: 'k' is not a kernel: it is not decorated with @triton.jit\n"
                  "    def k(x, n): pass\n"
                  "    ^\n");
}

}  // namespace
