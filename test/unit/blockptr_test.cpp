// Block pointers (compiler/src/frontend/fe_blockptr.c): one expected diagnostic per
// rejected use of tl.make_block_ptr, tl.advance, tl.load / tl.store of a
// block pointer (and boundary_check / padding_option without one), block
// pointers used as values, and block pointers that a runtime loop or if
// cannot carry, and of tensor descriptors (tl.make_tensor_descriptor and
// their loads and stores, the same lowering) (the kernel k(...) of
// unit_support.h's kernel_text, body from line 7); and a few accepted
// forms.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "unit_support.h"

namespace {

using namespace mt_unit;

const std::vector<DiagnosticCase> &cases() {
    static const std::vector<DiagnosticCase> all = {
        {"LoadWithMask", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    v = tl.load(p, mask=n > 0)\n",
         "k.py:8:20: error: tl.load: `mask` and `other` arguments cannot be specified for block pointers (use boundary_check= and padding_option=)\n"
         "        v = tl.load(p, mask=n > 0)\n"
         "                       ^\n"},
        {"LoadWithOther", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    v = tl.load(p, boundary_check=(0, 1), other=0.0)\n",
         "k.py:8:43: error: tl.load: `mask` and `other` arguments cannot be specified for block pointers (use boundary_check= and padding_option=)\n"
         "        v = tl.load(p, boundary_check=(0, 1), other=0.0)\n"
         "                                              ^\n"},
        {"StoreWithMask", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    tl.store(p, 1.0, mask=n > 0)\n",
         "k.py:8:22: error: tl.store: a `mask` argument cannot be specified for block pointers (use boundary_check=)\n"
         "        tl.store(p, 1.0, mask=n > 0)\n"
         "                         ^\n"},
        {"NanPaddingOfIntegers", "x, n", "*i32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    v = tl.load(p, boundary_check=(0, ), padding_option=\"nan\")\n",
         "k.py:8:42: error: tl.load: padding option \"nan\" is not supported for integer block pointers (the elements are i32)\n"
         "        v = tl.load(p, boundary_check=(0, ), padding_option=\"nan\")\n"
         "                                             ^\n"},
        {"UnknownPadding", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    v = tl.load(p, boundary_check=(0, ), padding_option=\"one\")\n",
         "k.py:8:42: error: tl.load: padding option 'one' is not supported (\"\", \"zero\" or \"nan\")\n"
         "        v = tl.load(p, boundary_check=(0, ), padding_option=\"one\")\n"
         "                                             ^\n"},
        {"BoundaryDimOutOfRange", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    v = tl.load(p, boundary_check=(0, 2))\n",
         "k.py:8:20: error: tl.load: boundary_check names dimension 2, but the block has 2 (0 .. 1)\n"
         "        v = tl.load(p, boundary_check=(0, 2))\n"
         "                       ^\n"},
        {"BoundaryDimNegative", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    v = tl.load(p, boundary_check=(-1, ))\n",
         "k.py:8:20: error: tl.load: boundary_check names dimension -1, but the block has 2 (0 .. 1)\n"
         "        v = tl.load(p, boundary_check=(-1, ))\n"
         "                       ^\n"},
        {"BoundaryDimTwice", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    tl.store(p, 1.0, boundary_check=(1, 1))\n",
         "k.py:8:22: error: tl.store: boundary_check names dimension 1 twice\n"
         "        tl.store(p, 1.0, boundary_check=(1, 1))\n"
         "                         ^\n"},
        {"BoundaryCheckOfPointerBlock", "x, n", "*fp32, i32",
         "    v = tl.load(x + tl.arange(0, 16), boundary_check=(0, ))\n",
         "k.py:7:39: error: tl.load: `boundary_check` is only for block pointers (made by tl.make_block_ptr): a block of pointers or a scalar pointer has no bounds for the compiler to check (use a mask)\n"
         "        v = tl.load(x + tl.arange(0, 16), boundary_check=(0, ))\n"
         "                                          ^\n"},
        {"PaddingOfPointerBlock", "x, n", "*fp32, i32",
         "    o = tl.arange(0, 16)\n"
         "    v = tl.load(x + o, mask=o < n, padding_option=\"zero\")\n",
         "k.py:8:36: error: tl.load: `padding_option` is only for block pointers (made by tl.make_block_ptr): a block of pointers or a scalar pointer has no bounds for the compiler to check (use a mask)\n"
         "        v = tl.load(x + o, mask=o < n, padding_option=\"zero\")\n"
         "                                       ^\n"},
        {"BoundaryCheckOfStore", "x, n", "*fp32, i32",
         "    tl.store(x + tl.arange(0, 16), 1.0, boundary_check=(0, ))\n",
         "k.py:7:41: error: tl.store: `boundary_check` is only for block pointers (made by tl.make_block_ptr): a block of pointers or a scalar pointer has no bounds for the compiler to check (use a mask)\n"
         "        tl.store(x + tl.arange(0, 16), 1.0, boundary_check=(0, ))\n"
         "                                            ^\n"},
        {"LengthsDiffer", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, ), (0, 0), (16, 16), (1, 0))\n",
         "k.py:7:38: error: tl.make_block_ptr: strides has 1 entry but block_shape has 2 (they must agree)\n"
         "        p = tl.make_block_ptr(x, (n, n), (n, ), (0, 0), (16, 16), (1, 0))\n"
         "                                         ^\n"},
        {"OrderNotAPermutation", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (0, 0))\n",
         "k.py:7:64: error: tl.make_block_ptr: order must be a permutation of 0 .. 1 (got (0, 0))\n"
         "        p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (0, 0))\n"
         "                                                                   ^\n"},
        {"BlockShapeNotPowerOfTwo", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 24), (1, 0))\n",
         "k.py:7:54: error: tl.make_block_ptr: block_shape[1] is 24: each must be a power of 2 (Triton's rule)\n"
         "        p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 24), (1, 0))\n"
         "                                                         ^\n"},
        {"BlockShapeAtRuntime", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (n, 16), (1, 0))\n",
         "k.py:7:54: error: tl.make_block_ptr: block_shape[0] must be a compile-time integer, not a runtime value\n"
         "        p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (n, 16), (1, 0))\n"
         "                                                         ^\n"},
        {"OffsetOf64Bits", "x, n", "*fp32, i64",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (n, 0), (16, 16), (1, 0))\n",
         "k.py:7:46: error: tl.make_block_ptr: offsets[0] is i64: block pointers take 32-bit offsets (Triton's rule; add `.to(tl.int32)`, or index with a block of pointers for 64-bit offsets)\n"
         "        p = tl.make_block_ptr(x, (n, n), (n, 1), (n, 0), (16, 16), (1, 0))\n"
         "                                                 ^\n"},
        {"OffsetFloat", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (1.5, 0), (16, 16), (1, 0))\n",
         "k.py:7:46: error: tl.make_block_ptr: offsets[0] must be an integer, not a float\n"
         "        p = tl.make_block_ptr(x, (n, n), (n, 1), (1.5, 0), (16, 16), (1, 0))\n"
         "                                                 ^\n"},
        {"StrideFloatBlock", "x, n", "*fp32, fp32",
         "    p = tl.make_block_ptr(x, (16, 16), (n, 1), (0, 0), (16, 16), (1, 0))\n",
         "k.py:7:40: error: tl.make_block_ptr: strides[0] must be an integer scalar, not f32\n"
         "        p = tl.make_block_ptr(x, (16, 16), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "                                           ^\n"},
        {"BaseNotAPointer", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(n, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n",
         "k.py:7:27: error: tl.make_block_ptr: base must be a scalar pointer (a pointer parameter plus an offset), not i32\n"
         "        p = tl.make_block_ptr(n, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "                              ^\n"},
        {"BaseBlockOfPointers", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x + tl.arange(0, 4), (n, ), (1, ), (0, ), (4, ), (0, ))\n",
         "k.py:7:27: error: tl.make_block_ptr: base must be a scalar pointer (a pointer parameter plus an offset), not vector<4 x ptr<f32>>\n"
         "        p = tl.make_block_ptr(x + tl.arange(0, 4), (n, ), (1, ), (0, ), (4, ), (0, ))\n"
         "                              ^\n"},
        {"BaseOfBools", "x, n", "*i1, i32",
         "    p = tl.make_block_ptr(x, (n, ), (1, ), (0, ), (4, ), (0, ))\n",
         "k.py:7:27: error: tl.make_block_ptr: block pointers to int1 are not supported (Triton reads them as int8; pass an *i8 pointer)\n"
         "        p = tl.make_block_ptr(x, (n, ), (1, ), (0, ), (4, ), (0, ))\n"
         "                              ^\n"},
        {"RankFive", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n, n, n, n), (1, 1, 1, 1, 1), (0, 0, 0, 0, 0), (2, 2, 2, 2, 2), (4, 3, 2, 1, 0))\n",
         "k.py:7:81: error: tl.make_block_ptr: block_shape has 5 entries: blocks have 1 to 4 dimensions\n"
         "        p = tl.make_block_ptr(x, (n, n, n, n, n), (1, 1, 1, 1, 1), (0, 0, 0, 0, 0), (2, 2, 2, 2, 2), (4, 3, 2, 1, 0))\n"
         "                                                                                    ^\n"},
        {"AdvanceOfAPointer", "x, n", "*fp32, i32", "    p = tl.advance(x, (1, ))\n",
         "k.py:7:20: error: tl.advance needs a block pointer (made by tl.make_block_ptr), not ptr<f32>\n"
         "        p = tl.advance(x, (1, ))\n"
         "                       ^\n"},
        {"AdvanceWrongLength", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    p = tl.advance(p, (16, ))\n",
         "k.py:8:23: error: tl.advance: 1 offset for a block pointer of rank 2\n"
         "        p = tl.advance(p, (16, ))\n"
         "                          ^\n"},
        {"AdvanceResultUnused", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    tl.advance(p, (0, 16))\n",
         "k.py:8:5: error: the result of tl.advance is not used: tl.advance has no side effects; to move the block pointer, assign its result (p = tl.advance(p, offsets))\n"
         "        tl.advance(p, (0, 16))\n"
         "        ^\n"},
        {"AdvanceMethodResultUnused", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    p.advance((0, 16))\n",
         "k.py:8:5: error: the result of tl.advance is not used: tl.advance has no side effects; to move the block pointer, assign its result (p = tl.advance(p, offsets))\n"
         "        p.advance((0, 16))\n"
         "        ^\n"},
        {"Arithmetic", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    p = p + 16\n",
         "k.py:8:9: error: '+' of a block pointer: block pointers take only tl.load, tl.store and tl.advance (move one with tl.advance; load it to get a block of values)\n"
         "        p = p + 16\n"
         "            ^\n"},
        {"AugmentedAssignment", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    p += n\n",
         "k.py:8:5: error: '+' of a block pointer: block pointers take only tl.load, tl.store and tl.advance (move one with tl.advance; load it to get a block of values)\n"
         "        p += n\n"
         "        ^\n"},
        {"Comparison", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    c = p == p\n",
         "k.py:8:9: error: '==' of a block pointer: block pointers take only tl.load, tl.store and tl.advance (move one with tl.advance; load it to get a block of values)\n"
         "        c = p == p\n"
         "            ^\n"},
        {"UnaryMinus", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    q = -p\n",
         "k.py:8:9: error: unary '-' of a block pointer: block pointers take only tl.load, tl.store and tl.advance (move one with tl.advance; load it to get a block of values)\n"
         "        q = -p\n"
         "            ^\n"},
        {"AsABlock", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    s = tl.sum(p)\n",
         "k.py:8:16: error: tl.sum of a block pointer: block pointers take only tl.load, tl.store and tl.advance (move one with tl.advance; load it to get a block of values)\n"
         "        s = tl.sum(p)\n"
         "                   ^\n"},
        {"Attribute", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    t = p.shape\n",
         "k.py:8:9: error: the attribute '.shape' of a block pointer: block pointers take only tl.load, tl.store and tl.advance (move one with tl.advance; load it to get a block of values)\n"
         "        t = p.shape\n"
         "            ^\n"},
        {"Indexing", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    t = p[0]\n",
         "k.py:8:9: error: indexing of a block pointer: block pointers take only tl.load, tl.store and tl.advance (move one with tl.advance; load it to get a block of values)\n"
         "        t = p[0]\n"
         "            ^\n"},
        {"TruthValue", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    if p:\n"
         "        tl.store(x, 1.0)\n",
         "k.py:8:5: error: the truth value of a block pointer: block pointers take only tl.load, tl.store and tl.advance (move one with tl.advance; load it to get a block of values)\n"
         "        if p:\n"
         "        ^\n"},
        {"StoreOfABlockPointer", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    tl.store(p, p)\n",
         "k.py:8:17: error: tl.store: the value is a block pointer (block pointers are not values in memory: store what tl.load reads through one)\n"
         "        tl.store(p, p)\n"
         "                    ^\n"},
        {"StoreShapeMismatch", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    tl.store(p, tl.zeros((16, ), tl.float32))\n",
         "k.py:8:17: error: tl.store: the value is vector<16 x f32> but the block pointer's block is (16, 16) (a block pointer takes a block of its own shape, or a scalar)\n"
         "        tl.store(p, tl.zeros((16, ), tl.float32))\n"
         "                    ^\n"},
        {"StoreDtypeMismatch", "x, n", "*fp16, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    tl.store(p, tl.zeros((16, 16), tl.float32), boundary_check=(0, 1))\n",
         "k.py:8:17: error: tl.store: the value is block<16x16 x f32> but the block pointer's elements are f16 (Triton converts nothing here: convert it with .to(tl.float16))\n"
         "        tl.store(p, tl.zeros((16, 16), tl.float32), boundary_check=(0, 1))\n"
         "                    ^\n"},
        {"StoreIntegerScalarToFloats", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    tl.store(p, 0)\n",
         "k.py:8:17: error: tl.store: the value is i32 but the block pointer's elements are f32 (Triton converts nothing here: convert it with .to(tl.float32))\n"
         "        tl.store(p, 0)\n"
         "                    ^\n"},
        {"LoopChangesTheBase", "x, y, n", "*fp32, *fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    for i in range(n):\n"
         "        p = tl.make_block_ptr(y, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    tl.store(p, 1.0)\n",
         "k.py:9:9: error: the block pointer 'p' is carried by the runtime loop at line 8, which carries only its offsets: its base, shape, strides, block shape and order must stay those before the loop (here: different base pointers; move it with tl.advance)\n"
         "            p = tl.make_block_ptr(y, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "            ^\n"},
        {"LoopChangesTheBlock", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    for i in range(n):\n"
         "        p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 32), (1, 0))\n"
         "    tl.store(p, 1.0)\n",
         "k.py:9:9: error: the block pointer 'p' is carried by the runtime loop at line 8, which carries only its offsets: its base, shape, strides, block shape and order must stay those before the loop (here: block shapes (16, 16) and (16, 32); move it with tl.advance)\n"
         "            p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 32), (1, 0))\n"
         "            ^\n"},
        {"LoopChangesTheKind", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    while n > 0:\n"
         "        p = n\n"
         "        n -= 1\n",
         "k.py:9:9: error: 'p' is carried by the while loop at line 8: it holds a block pointer before the loop and a runtime value at the end of the body (a carried value keeps its kind)\n"
         "            p = n\n"
         "            ^\n"},
        {"IfBranchesDiffer", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    if n > 4:\n"
         "        p = tl.make_block_ptr(x, (n, n), (1, n), (0, 0), (16, 16), (0, 1))\n"
         "    tl.store(p, 1.0)\n",
         "k.py:9:9: error: the block pointer 'p' leaves the runtime if at line 8, which carries only its offsets: its base, shape, strides, block shape and order must be the same before it and in both branches (here: different strides (dimension 0); move it with tl.advance)\n"
         "            p = tl.make_block_ptr(x, (n, n), (1, n), (0, 0), (16, 16), (0, 1))\n"
         "            ^\n"},
        {"IfKindDiffers", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    if n > 4:\n"
         "        p = tl.zeros((16, 16), tl.float32)\n"
         "    tl.store(p, 1.0)\n",
         "k.py:9:9: error: 'p' is a runtime value here but a block pointer before the runtime if at line 8 (a name keeps its kind across a runtime branch)\n"
         "            p = tl.zeros((16, 16), tl.float32)\n"
         "            ^\n"},
        {"IfExpressionOfBlockPointers", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    q = p if n > 0 else tl.advance(p, (16, 0))\n",
         "k.py:8:9: error: a conditional expression with a runtime condition must give numbers or blocks, not a block pointer\n"
         "        q = p if n > 0 else tl.advance(p, (16, 0))\n"
         "            ^\n"},
        // tensor descriptors (tl.make_tensor_descriptor)
        {"DescLastStrideNotOne", "x, n", "*fp32, i32",
         "    d = tl.make_tensor_descriptor(x, [n, n], [n, 2], [16, 16])\n",
         "k.py:7:46: error: tl.make_tensor_descriptor: the last stride must be a compile-time 1 (got 2): a tensor descriptor's last dimension is contiguous (Triton's rule)\n"
         "        d = tl.make_tensor_descriptor(x, [n, n], [n, 2], [16, 16])\n"
         "                                                 ^\n"},
        {"DescLastStrideRuntime", "x, n", "*fp32, i32",
         "    d = tl.make_tensor_descriptor(x, [n, n], [n, n], [16, 16])\n",
         "k.py:7:46: error: tl.make_tensor_descriptor: the last stride must be a compile-time 1 (got a runtime value): a tensor descriptor's last dimension is contiguous (Triton's rule)\n"
         "        d = tl.make_tensor_descriptor(x, [n, n], [n, n], [16, 16])\n"
         "                                                 ^\n"},
        {"DescLastBlockUnder16Bytes", "x, n", "*fp16, i32",
         "    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [16, 4])\n",
         "k.py:7:54: error: tl.make_tensor_descriptor: the block's last dimension has 8 bytes (4 x 2), fewer than the 16 a tensor descriptor needs (Triton's rule)\n"
         "        d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [16, 4])\n"
         "                                                         ^\n"},
        {"DescNanPaddingOfIntegers", "x, n", "*i32, i32",
         "    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [16, 16], padding_option=\"nan\")\n",
         "k.py:7:64: error: tl.make_tensor_descriptor: padding option \"nan\" is not supported for integer blocks (the elements are i32)\n"
         "        d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [16, 16], padding_option=\"nan\")\n"
         "                                                                   ^\n"},
        {"DescEmptyPadding", "x, n", "*fp32, i32",
         "    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [16, 16], padding_option=\"\")\n",
         "k.py:7:64: error: tl.make_tensor_descriptor: padding_option must be \"zero\" or \"nan\"\n"
         "        d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [16, 16], padding_option=\"\")\n"
         "                                                                   ^\n"},
        {"DescOffsetsCount", "x, n", "*fp32, i32",
         "    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [16, 16])\n"
         "    v = d.load([0])\n",
         "k.py:8:16: error: tl.load_tensor_descriptor: 1 offset for a tensor descriptor of rank 2\n"
         "        v = d.load([0])\n"
         "                   ^\n"},
        {"DescStoreShape", "x, n", "*fp32, i32",
         "    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [16, 16])\n"
         "    d.store([0, 0], tl.zeros((16, ), tl.float32))\n",
         "k.py:8:21: error: tl.store_tensor_descriptor: the value is vector<16 x f32> but the descriptor's block is (16, 16) (Triton takes a block of exactly that shape)\n"
         "        d.store([0, 0], tl.zeros((16, ), tl.float32))\n"
         "                        ^\n"},
        {"DescStoreScalar", "x, n", "*fp32, i32",
         "    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [16, 16])\n"
         "    d.store([0, 0], 1.0)\n",
         "k.py:8:21: error: tl.store_tensor_descriptor: the value is f32 but the descriptor's block is (16, 16) (Triton takes a block of exactly that shape)\n"
         "        d.store([0, 0], 1.0)\n"
         "                        ^\n"},
        {"TlLoadOfDesc", "x, n", "*fp32, i32",
         "    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [16, 16])\n"
         "    v = tl.load(d)\n",
         "k.py:8:17: error: tl.load takes no tensor descriptor: use desc.load(offsets)\n"
         "        v = tl.load(d)\n"
         "                    ^\n"},
        {"TlStoreOfDesc", "x, n", "*fp32, i32",
         "    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [16, 16])\n"
         "    tl.store(d, tl.zeros((16, 16), tl.float32))\n",
         "k.py:8:14: error: tl.store takes no tensor descriptor: use desc.store(offsets, value)\n"
         "        tl.store(d, tl.zeros((16, 16), tl.float32))\n"
         "                 ^\n"},
        {"AdvanceOfDesc", "x, n", "*fp32, i32",
         "    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [16, 16])\n"
         "    d = tl.advance(d, (0, 16))\n",
         "k.py:8:20: error: tl.advance: a tensor descriptor has no offsets to advance (pass the offsets to its load and store)\n"
         "        d = tl.advance(d, (0, 16))\n"
         "                       ^\n"},
        {"DescUnknownAttribute", "x, n", "*fp32, i32",
         "    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [16, 16])\n"
         "    v = d.gather(tl.arange(0, 16), 0)\n",
         "k.py:8:9: error: the attribute '.gather' of a tensor descriptor is not supported (load, store, atomic_add, _max, _min, _and, _or, _xor, block_shape, dtype)\n"
         "        v = d.gather(tl.arange(0, 16), 0)\n"
         "            ^\n"},
        {"DescAtomicAddOfI64", "x, n", "*i64, i32",
         "    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [16, 16])\n"
         "    d.atomic_add([0, 0], tl.zeros((16, 16), tl.int64))\n",
         "k.py:8:5: error: desc.atomic_add: Triton's descriptor atomics do not take i64 elements\n"
         "        d.atomic_add([0, 0], tl.zeros((16, 16), tl.int64))\n"
         "        ^\n"},
        {"DescAtomicValueNotConverted", "x, n", "*fp32, i32",
         "    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [16, 16])\n"
         "    d.atomic_add([0, 0], tl.zeros((16, 16), tl.float16))\n",
         "k.py:8:26: error: desc.atomic_add: the value is block<16x16 x f16> but the descriptor's blocks are (16, 16) of f32 (Triton takes exactly that, converting nothing)\n"
         "        d.atomic_add([0, 0], tl.zeros((16, 16), tl.float16))\n"
         "                             ^\n"},
        {"DescLoadOfBlockPtr", "x, n", "*fp32, i32",
         "    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
         "    v = tl.load_tensor_descriptor(p, [0, 0])\n",
         "k.py:8:35: error: tl.load_tensor_descriptor needs a tensor descriptor (made by tl.make_tensor_descriptor), not a block pointer\n"
         "        v = tl.load_tensor_descriptor(p, [0, 0])\n"
         "                                      ^\n"},
        {"DescRankTooHigh", "x, n", "*fp32, i32",
         "    d = tl.make_tensor_descriptor(x, [n, n, n, n, n], [n, n, n, n, 1], [2, 2, 2, 2, 4])\n",
         "k.py:7:72: error: tl.make_tensor_descriptor: block_shape has 5 entries: blocks have 1 to 4 dimensions\n"
         "        d = tl.make_tensor_descriptor(x, [n, n, n, n, n], [n, n, n, n, 1], [2, 2, 2, 2, 4])\n"
         "                                                                           ^\n"},
    };
    return all;
}

class BlockPtrDiagnostic : public ::testing::TestWithParam<size_t> {};

TEST_P(BlockPtrDiagnostic, MatchesExpectedText) {
    const DiagnosticCase &c = cases()[GetParam()];
    bool ok = true;
    EXPECT_EQ(case_diagnostics(c, "diag_bp_", &ok), c.expected);
    EXPECT_FALSE(ok);
}

INSTANTIATE_TEST_SUITE_P(Rejected, BlockPtrDiagnostic, ::testing::Range<size_t>(0, cases().size()),
                         [](const ::testing::TestParamInfo<size_t> &info) {
                             return std::string(cases()[info.param].name);
                         });

// Forms Triton accepts that the tests of test/lang_blockptr do not run:
// each compiles without a diagnostic.
const std::vector<DiagnosticCase> &accepted() {
    static const std::vector<DiagnosticCase> all = {
        {"CreatedInBothBranches", "x, n", "*fp32, i32",
         "    if n > 0:\n"
         "        p = tl.make_block_ptr(x, (n, n), (n, 1), (n, 0), (16, 16), (1, 0))\n"
         "    else:\n"
         "        p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 16), (16, 16), (1, 0))\n"
         "    tl.store(p, tl.load(p, boundary_check=(0, 1)) + 1.0, boundary_check=(0, 1))\n",
         ""},
        {"InTuplesAndNestedLoops", "x, n", "*fp32, i32",
         "    ps = (tl.make_block_ptr(x, (n, ), (1, ), (0, ), (16, ), (0, )), 2)\n"
         "    p = ps[0]\n"
         "    acc = tl.zeros((16, ), tl.float32)\n"
         "    for i in range(n):\n"
         "        for j in range(n):\n"
         "            acc += tl.load(p, boundary_check=(0, ), padding_option='zero')\n"
         "            p = p.advance((16, ))\n"
         "        p = tl.advance(p, (-n * 16, ))\n"
         "    tl.store(tl.advance(p, (1, )), acc, boundary_check=(0, ))\n",
         ""},
        {"ShapesOfAllIntegerTypes", "x, n, m, k", "*fp16, i64, u32, i16",
         "    p = tl.make_block_ptr(x, (n, m), (k, 1), (k.to(tl.int32), m.to(tl.int32)), (2, 64), (1, 0))\n"
         "    v = tl.load(p, boundary_check=(1, 0), padding_option='nan', volatile=True)\n"
         "    tl.store(p, v * 2, boundary_check=(), cache_modifier='.cg')\n",
         ""},
        {"DescriptorsInLoopsWithAttributes", "x, n", "*fp16, i32",
         "    d = tl.make_tensor_descriptor(x, [n], [1], [64], padding_option='nan')\n"
         "    e = tl.make_tensor_descriptor(x, (n, n), (n, 1), (4, 16))\n"
         "    acc = tl.zeros(d.block_shape, tl.float32)\n"
         "    for i in range(n):\n"
         "        acc += d.load([i * 64]).to(tl.float32)\n"
         "    tl.store_tensor_descriptor(d, [0], acc)\n"
         "    e.store([n, 0], e.load([0, n]) * 2)\n"
         "    tl.static_assert(e.dtype == tl.float16)\n",
         ""},
        {"Rank4", "x, n", "*i8, i32",
         "    p = tl.make_block_ptr(x, (n, n, n, n), (n * n * n, n * n, n, 1), (0, 1, 2, 3),\n"
         "                          (2, 2, 2, 4), (3, 2, 1, 0))\n"
         "    tl.store(p, tl.load(p, boundary_check=(0, 3)) + 1, boundary_check=(0, 1, 2, 3))\n",
         ""},
    };
    return all;
}

class BlockPtrAccepted : public ::testing::TestWithParam<size_t> {};

TEST_P(BlockPtrAccepted, Compiles) {
    const DiagnosticCase &c = accepted()[GetParam()];
    for (int level = 1; level <= 2; level++) {
        DiagnosticCase at = c;
        at.opt_level = level;
        bool ok = false;
        EXPECT_EQ(case_diagnostics(at, "ok_bp_", &ok), "");
        EXPECT_TRUE(ok) << "-O" << level;
    }
}

INSTANTIATE_TEST_SUITE_P(Accepted, BlockPtrAccepted, ::testing::Range<size_t>(0, accepted().size()),
                         [](const ::testing::TestParamInfo<size_t> &info) {
                             return std::string(accepted()[info.param].name);
                         });

}  // namespace
