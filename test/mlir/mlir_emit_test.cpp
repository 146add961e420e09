// The MLIR backend's module (emit_mlir.c): its form for the constructs of
// the CUDA backend (elementwise ops, masks, NaN-propagating maximum and
// minimum, runtime loops as scf.for with iter_args, rank-2 tiles,
// workgroup reductions), constants that read back exactly, parameter names
// that cannot collide, and diagnostics naming what it does not cover.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "mytriton/dtypes.h"
#include "unit_support.h"

extern "C" {
#include "cgen/cgen.h"  // c_param_names (after unit_support.h: its headers are in already)
}

namespace {

using namespace mt_unit;

struct Emitted {
    bool ok = false;
    std::string text, diagnostics;
};

// mytritonc's library: the MLIR stage of one kernel.
Emitted emit_mlir(const std::string &path, const std::string &kernel, const std::string &signature,
                  std::vector<std::pair<std::string, std::string>> defines = {}, int opt_level = 1,
                  const char *name = nullptr) {
    std::vector<mt_define> defs;
    for (auto &d : defines) defs.push_back({d.first.c_str(), d.second.c_str()});
    mt_options o{};
    o.path = path.c_str();
    o.kernel = kernel.c_str();
    o.signature = signature.c_str();
    o.defines = defs.empty() ? nullptr : defs.data();
    o.ndefines = static_cast<int>(defs.size());
    o.name = name;
    o.opt_level = opt_level;
    o.backends = MT_BACKEND_MLIR;
    o.python = MT_TEST_PYTHON;
    o.shim = MT_TEST_SHIM;
    mt_compilation *c = mt_compile(&o);
    Emitted e;
    const char *t = mt_ok(c) ? mt_emit(c, MT_EMIT_MLIR) : nullptr;
    if (t) e.text = t;
    e.ok = mt_ok(c) && t;
    e.diagnostics = mt_diagnostics(c);
    mt_free(c);
    return e;
}

std::string kernels(const std::string &file) {
    return std::string(MT_CONFORMANCE_DIR) + "/kernels/" + file;
}

// Lowers `text` with the build's pipeline; "" on success, else mlir-opt's
// errors. *binary: the gpu.binary module (its PTX as an escaped string).
std::string lower(const std::string &tag, const std::string &text, std::string *binary = nullptr) {
    std::string dir = mt_test::make_temp_dir(tag);
    mt_test::write_file(dir + "/k.mlir", text);
    std::vector<std::string> argv = {MT_MLIR_OPT, dir + "/k.mlir"};
    std::string p = MT_MLIR_PIPELINE;
    for (size_t at = 0; at <= p.size();) {
        size_t bar = p.find('|', at);
        if (bar == std::string::npos) bar = p.size();
        argv.push_back(p.substr(at, bar - at));
        at = bar + 1;
    }
    argv.insert(argv.end(), {"-o", dir + "/k.gpu.mlir"});
    auto r = mt_test::run_process(argv);
    if (r.status != 0) return "mlir-opt failed:\n" + r.err;
    std::string bin = mt_test::read_file(dir + "/k.gpu.mlir");
    if (bin.find(".entry ") == std::string::npos) return "no .entry in\n" + bin;
    if (binary) *binary = bin;
    return "";
}

#define EXPECT_HAS(text, piece)                                                             \
    EXPECT_NE((text).find(piece), std::string::npos) << "missing: " << (piece) << "\nin:\n" \
                                                     << (text)

TEST(MlirEmit, ElementwiseWithMasks) {
    auto e = emit_mlir(kernels("vector_add.py"), "add_kernel", "*fp32, *fp32, *fp32, i32",
                       {{"BLOCK", "256"}}, 1, "vector_add");
    ASSERT_TRUE(e.ok) << e.diagnostics;
    EXPECT_EQ(e.diagnostics, "");
    EXPECT_HAS(e.text, "module attributes {gpu.container_module} {\n  gpu.module @vector_add {\n");
    EXPECT_HAS(
        e.text,
        "    gpu.func @vector_add_kernel(%x: !llvm.ptr, %y: !llvm.ptr, %out: !llvm.ptr, %n: i32) kernel "
        "attributes {known_block_size = array<i32: 256, 1, 1>} {\n");
    EXPECT_HAS(e.text, "%tid_index = gpu.thread_id x\n");
    EXPECT_HAS(e.text, "%tid = arith.index_cast %tid_index : index to i32\n");
    EXPECT_HAS(e.text, "%v0_index = gpu.block_id x\n");
    EXPECT_HAS(e.text, "%v1 = arith.muli %v0, %c256_i32 : i32\n");
    EXPECT_HAS(e.text, "%v3 = arith.addi %v1, %tid : i32\n");
    EXPECT_HAS(e.text, "%v4 = llvm.getelementptr %x[%v3] : (!llvm.ptr, i32) -> !llvm.ptr, f32\n");
    EXPECT_HAS(e.text, "%v5 = arith.cmpi slt, %v3, %n : i32\n");
    // a masked load: the load only where the mask holds, else `other`
    EXPECT_HAS(e.text,
               "      %v6 = scf.if %v5 -> (f32) {\n"
               "        %v6_loaded = llvm.load %v4 : !llvm.ptr -> f32\n"
               "        scf.yield %v6_loaded : f32\n"
               "      } else {\n"
               "        scf.yield %c0.0_f32 : f32\n"
               "      }\n");
    EXPECT_HAS(e.text, "%v9 = arith.addf %v6, %v8 : f32\n");
    // a masked store
    EXPECT_HAS(e.text,
               "      scf.if %v5 {\n"
               "        llvm.store %v9, %v10 : f32, !llvm.ptr\n"
               "      }\n"
               "      gpu.return\n");
    EXPECT_EQ(lower("emit_vector_add", e.text), "");
}

TEST(MlirEmit, MaximumMinimumPropagateNanAndPickTheRightOperandOnTies) {
    auto e = emit_mlir(kernels("activations.py"), "clamp_kernel", "*fp32, *fp32, i32, fp32, fp32",
                       {{"BLOCK", "64"}});
    ASSERT_TRUE(e.ok) << e.diagnostics;
    // isnan(a) ? a : isnan(b) ? b : (a > b ? a : b), as the CUDA backend
    EXPECT_HAS(e.text,
               "      %v8_lhs_nan = arith.cmpf uno, %v6, %v6 : f32\n"
               "      %v8_rhs_nan = arith.cmpf uno, %lo, %lo : f32\n"
               "      %v8_gt = arith.cmpf ogt, %v6, %lo : f32\n"
               "      %v8_pick = arith.select %v8_gt, %v6, %lo : f32\n"
               "      %v8_or_rhs_nan = arith.select %v8_rhs_nan, %lo, %v8_pick : f32\n"
               "      %v8 = arith.select %v8_lhs_nan, %v6, %v8_or_rhs_nan : f32\n");
    EXPECT_HAS(e.text, "%v9_lt = arith.cmpf olt, %v8, %hi : f32\n");
    // tl.where
    EXPECT_HAS(e.text, "%v10 = arith.select %v7, %lo, %v9 : f32\n");
    EXPECT_EQ(lower("emit_clamp", e.text), "");
}

TEST(MlirEmit, ExpAndDivision) {
    auto e = emit_mlir(kernels("activations.py"), "silu_kernel", "*fp32, *fp32, i32",
                       {{"BLOCK", "128"}});
    ASSERT_TRUE(e.ok) << e.diagnostics;
    EXPECT_HAS(e.text, " = arith.negf %v6 : f32\n");
    EXPECT_HAS(e.text, " = math.exp %v7 : f32\n");
    EXPECT_HAS(e.text, " = arith.divf %v6, %v9 : f32\n");
    EXPECT_EQ(lower("emit_silu", e.text), "");
}

TEST(MlirEmit, RuntimeLoopIsScfForWithIterArgs) {
    auto e = emit_mlir(kernels("loops.py"), "runtime_sum_kernel", "*fp32, *fp32, i32");
    ASSERT_TRUE(e.ok) << e.diagnostics;
    EXPECT_HAS(
        e.text,
        "      %v5 = scf.for %v0 = %c0_i32 to %K step %c1_i32 iter_args(%v1 = %c0.0_f32) -> (f32) : i32 {\n"
        "        %v2 = llvm.getelementptr %x[%v0] : (!llvm.ptr, i32) -> !llvm.ptr, f32\n"
        "        %v3 = llvm.load %v2 : !llvm.ptr -> f32\n"
        "        %v4 = arith.addf %v1, %v3 : f32\n"
        "        scf.yield %v4 : f32\n"
        "      }\n"
        "      llvm.store %v5, %out : f32, !llvm.ptr\n");
    // a scalar kernel: one thread, no thread id
    EXPECT_HAS(e.text, "known_block_size = array<i32: 1, 1, 1>");
    EXPECT_EQ(e.text.find("gpu.thread_id"), std::string::npos);
    EXPECT_EQ(lower("emit_runtime_sum", e.text), "");
}

TEST(MlirEmit, SeveralCarriedValues) {
    auto e = emit_mlir(kernels("loops.py"), "two_carried_kernel", "*fp32, *fp32, i32");
    ASSERT_TRUE(e.ok) << e.diagnostics;
    EXPECT_HAS(
        e.text,
        "%v8, %v9 = scf.for %v0 = %c1_i32 to %n step %c2_i32 iter_args(%v1 = %c0_i32, %v2 = %c0.0_f32) -> "
        "(i32, f32) : i32 {\n");
    EXPECT_HAS(e.text, "        scf.yield %v3, %v7 : i32, f32\n");
    // i32 + f32 promotes: the i32 result converted
    EXPECT_HAS(e.text, "%v8_f32 = arith.sitofp %v8 : i32 to f32\n");
    EXPECT_HAS(e.text, "%v10 = arith.addf %v9, %v8_f32 : f32\n");
    EXPECT_EQ(lower("emit_two_carried", e.text), "");
}

TEST(MlirEmit, NestedLoops) {
    auto e = emit_mlir(kernels("loops.py"), "nested_count_kernel", "*fp32, i32, i32");
    ASSERT_TRUE(e.ok) << e.diagnostics;
    EXPECT_HAS(
        e.text,
        "      %v6 = scf.for %v0 = %c0_i32 to %M step %c1_i32 iter_args(%v1 = %c0_i32) -> (i32) : i32 {\n"
        "        %v5 = scf.for %v2 = %c0_i32 to %N step %c1_i32 iter_args(%v3 = %v1) -> (i32) : i32 {\n"
        "          %v4 = arith.addi %v3, %c1_i32 : i32\n"
        "          scf.yield %v4 : i32\n"
        "        }\n"
        "        scf.yield %v5 : i32\n"
        "      }\n");
    // the i32 count stored through a float pointer
    EXPECT_HAS(
        e.text,
        "%v6_f32 = arith.sitofp %v6 : i32 to f32\n      llvm.store %v6_f32, %out : f32, !llvm.ptr\n");
    EXPECT_EQ(lower("emit_nested", e.text), "");
}

TEST(MlirEmit, LoopWithoutCarriedValues) {
    std::string path =
        write_kernel("mlir_nocarry", "k.py",
                     kernel_text("x, n", "    for i in range(n):\n        tl.store(x + i, 1.0)\n"));
    auto e = emit_mlir(path, "k", "*fp32, i32");
    ASSERT_TRUE(e.ok) << e.diagnostics;
    EXPECT_HAS(e.text, "      scf.for %v0 = %c0_i32 to %n step %c1_i32 : i32 {\n");
    EXPECT_EQ(e.text.find("scf.yield"), std::string::npos) << e.text;
    EXPECT_EQ(lower("emit_nocarry", e.text), "");
}

TEST(MlirEmit, Rank2TileFromThreadId) {
    auto e = emit_mlir(kernels("matmul.py"), "matmul_runtime_k_kernel",
                       "*fp32, *fp32, *fp32, i32, i32, i32", {{"BM", "16"}, {"BN", "16"}}, 2);
    ASSERT_TRUE(e.ok) << e.diagnostics;
    EXPECT_HAS(e.text, "%tile_i = arith.divui %tid, %c16_i32 : i32\n");
    EXPECT_HAS(e.text, "%tile_j = arith.remui %tid, %c16_i32 : i32\n");
    EXPECT_HAS(e.text, "%v5_index = gpu.block_id y\n");
    EXPECT_HAS(e.text, "%v4 = arith.addi %v1, %tile_i : i32\n");
    EXPECT_HAS(e.text, "%v9 = arith.addi %v6, %tile_j : i32\n");
    EXPECT_HAS(
        e.text,
        "scf.for %v11 = %c0_i32 to %K step %c1_i32 iter_args(%v12 = %c0.0_f32) -> (f32) : i32 {\n");
    EXPECT_HAS(e.text, "%v31 = arith.andi %v16, %v21 : i1\n");
    EXPECT_EQ(lower("emit_matmul", e.text), "");
}

TEST(MlirEmit, ArangeWithAStart) {
    std::string path = write_kernel(
        "mlir_arange", "k.py",
        kernel_text("x, BM: tl.constexpr, BN: tl.constexpr",
                    "    r = tl.arange(2, 2 + BM)[:, None]\n    c = tl.arange(0, BN)[None, :]\n"
                    "    tl.store(x + r * BN + c, (r + c) * 1.0)\n"));
    auto e = emit_mlir(path, "k", "*fp32", {{"BM", "4"}, {"BN", "8"}});
    ASSERT_TRUE(e.ok) << e.diagnostics;
    EXPECT_HAS(e.text, "_rows = arith.addi %tile_i, %c2_i32 : i32\n");
    EXPECT_EQ(lower("emit_arange", e.text), "");
}

TEST(MlirEmit, ReductionsUseWorkgroupMemoryAndBarriers) {
    auto e = emit_mlir(kernels("softmax.py"), "softmax_kernel", "*fp32, *fp32, i32",
                       {{"BLOCK", "1024"}});
    ASSERT_TRUE(e.ok) << e.diagnostics;
    EXPECT_HAS(
        e.text,
        " workgroup(%smem_7 : memref<1024xf32, #gpu.address_space<workgroup>>, %smem_10 : memref<1024xf32, "
        "#gpu.address_space<workgroup>>) kernel ");
    EXPECT_HAS(
        e.text,
        "memref.store %v6, %smem_7[%tid_index] : memref<1024xf32, #gpu.address_space<workgroup>>\n"
        "      gpu.barrier\n");
    // log2(1024) halvings of the stride, a barrier after each
    EXPECT_HAS(e.text, "scf.for %v7_step = %c0_i32 to %c10_i32 step %c1_i32 : i32 {\n");
    EXPECT_HAS(e.text, "%v7_stride = arith.shrui %c512_i32, %v7_step : i32\n");
    EXPECT_HAS(e.text, "%v7_combined = arith.maxnumf %v7_mine, %v7_theirs : f32\n");
    EXPECT_HAS(e.text, "%v10_combined = arith.addf %v10_mine, %v10_theirs : f32\n");
    EXPECT_HAS(
        e.text,
        "%v7 = memref.load %smem_7[%c0] : memref<1024xf32, #gpu.address_space<workgroup>>\n");
    // -inf as other
    EXPECT_HAS(e.text, "%c-inf_f32 = arith.constant 0xFF800000 : f32\n");
    EXPECT_EQ(lower("emit_softmax", e.text), "");
}

TEST(MlirEmit, ReductionInALoopWaitsBeforeTheNextIteration) {
    std::string path = write_kernel(
        "mlir_reduce_loop", "k.py",
        kernel_text(
            "x, out, n, BLOCK: tl.constexpr",
            "    lanes = tl.arange(0, BLOCK)\n    best = 0\n"
            "    for i in range(n):\n        best = best + tl.min(tl.load(x + i * BLOCK + lanes))\n"
            "    tl.store(out, best)\n"));
    auto e = emit_mlir(path, "k", "*i32, *i32, i32", {{"BLOCK", "32"}});
    ASSERT_TRUE(e.ok) << e.diagnostics;
    EXPECT_HAS(e.text, "memref<32xi32, #gpu.address_space<workgroup>>");
    EXPECT_HAS(e.text, " = arith.minsi ");
    // the buffer is read, then the barrier, before the next iteration writes it
    EXPECT_HAS(e.text,
               "[%c0] : memref<32xi32, #gpu.address_space<workgroup>>\n        gpu.barrier\n");
    EXPECT_EQ(lower("emit_reduce_loop", e.text), "");
}

// ---- Reductions and scans along an axis, shape ops --------------------------------

std::string axis_kernels() {
    return write_kernel(
        "mlir_axis", "k.py",
        "import triton\nimport triton.language as tl\n\n\n"
        "@triton.jit\n"
        "def axis_kernel(x, s, a, BM: tl.constexpr, BN: tl.constexpr):\n"
        "    rm = tl.arange(0, BM)\n"
        "    rn = tl.arange(0, BN)\n"
        "    v = tl.load(x + rm[:, None] * BN + rn[None, :])\n"
        "    tl.store(s + rm, tl.sum(v, axis=1))\n"
        "    tl.store(a + rn, tl.argmax(v, axis=0))\n\n\n"
        "@triton.jit\n"
        "def scan_kernel(x, y, z, BLOCK: tl.constexpr):\n"
        "    o = tl.arange(0, BLOCK)\n"
        "    v = tl.load(x + o)\n"
        "    tl.store(y + o, tl.cumsum(v, 0))\n"
        "    tl.store(z + o, tl.cumprod(v, 0, reverse=True))\n\n\n"
        "@triton.jit\n"
        "def _mx(a, b):\n"
        "    return tl.maximum(a, b)\n\n\n"
        "@triton.jit\n"
        "def combine_kernel(x, y, n, BLOCK: tl.constexpr):\n"
        "    o = tl.arange(0, BLOCK)\n"
        "    acc = tl.zeros((BLOCK,), dtype=tl.float32)\n"
        "    for i in range(n):\n"
        "        v = tl.load(x + i * BLOCK + o)\n"
        "        acc += tl.reduce(v, 0, _mx) + tl.associative_scan(v, 0, _mx)\n"
        "    tl.store(y + o, acc)\n\n\n"
        "@triton.jit\n"
        "def bool_join_kernel(x, y, N: tl.constexpr):\n"
        "    o = tl.arange(0, N)\n"
        "    m = tl.load(x + o) > 0\n"
        "    z = tl.join(m, m == 0)\n"
        "    tl.store(y + o[:, None] * 2 + tl.arange(0, 2)[None, :], z.to(tl.int32))\n");
}

TEST(MlirEmit, AxisReductionsFoldTheAxisInOrder) {
    auto e =
        emit_mlir(axis_kernels(), "axis_kernel", "*fp32, *fp32, *i32", {{"BM", "8"}, {"BN", "16"}});
    ASSERT_TRUE(e.ok) << e.diagnostics;
    // the operand once into a workgroup buffer (both reductions read it), a barrier
    EXPECT_HAS(e.text, " workgroup(%red_smem_");
    size_t store = e.text.find("memref.store ");
    ASSERT_NE(store, std::string::npos) << e.text;
    EXPECT_EQ(e.text.find("memref.store ", store + 1), std::string::npos) << "stored once:\n"
                                                                          << e.text;
    EXPECT_HAS(e.text.substr(store), "gpu.barrier\n");
    // a row sum: each thread of row tile_i adds the row's 16 elements left to right
    EXPECT_HAS(e.text, "_base = arith.muli %tile_i, %c16_i32 : i32\n");
    EXPECT_HAS(e.text, " = scf.for %v");
    EXPECT_HAS(e.text, "_t = %c1_i32 to %c16_i32 step %c1_i32 iter_args(");
    EXPECT_HAS(e.text, "_step = arith.addf %v");
    // argmax along the columns: Triton's first-index rule (acc >= x keeps acc)
    EXPECT_HAS(e.text, "_t = %c1_i32 to %c8_i32 step %c1_i32 iter_args(");
    EXPECT_HAS(e.text, "_moves = arith.cmpf ult, %v");
    EXPECT_HAS(e.text, " -> (f32, i32) : i32 {\n");
    EXPECT_EQ(lower("emit_axis", e.text), "");
}

TEST(MlirEmit, ScansForwardAndReverseRoundNarrowFloatsAfterEachStep) {
    auto e = emit_mlir(axis_kernels(), "scan_kernel", "*fp16, *fp16, *fp16", {{"BLOCK", "8"}});
    ASSERT_TRUE(e.ok) << e.diagnostics;
    // an inclusive scan: elements 0 .. tid; f16 partial sums rounded as the C backends
    EXPECT_HAS(e.text, "_end = arith.addi %tid, %c1_i32 : i32\n");
    EXPECT_HAS(e.text, "_step = arith.addf %v");
    EXPECT_HAS(e.text, "_step_f16 = arith.truncf %v");
    // reverse: from the last element down to tid
    EXPECT_HAS(e.text, "_steps = arith.subi %c7_i32, %tid : i32\n");
    EXPECT_HAS(e.text, "_rt = arith.subi %c6_i32, %v");
    EXPECT_HAS(e.text, "_step = arith.mulf %v");
    EXPECT_EQ(lower("emit_scan", e.text), "");
}

TEST(MlirEmit, CombinerReductionsAreTreesOfShuffles) {
    auto e = emit_mlir(axis_kernels(), "combine_kernel", "*fp32, *fp32, i32", {{"BLOCK", "16"}});
    ASSERT_TRUE(e.ok) << e.diagnostics;
    // tl.reduce / tl.associative_scan: log2(16) = 4 steps, each element meeting
    // the one whose position differs in bit i, through one shuffle buffer per
    // dtype and size; the reduction then takes element 0 from one buffer
    size_t wg = e.text.find(" workgroup(");
    ASSERT_NE(wg, std::string::npos) << e.text;
    std::string attrs = e.text.substr(wg, e.text.find(") kernel", wg) - wg);
    EXPECT_EQ(attrs.find("%smem_shuffle_f32_16 "), attrs.rfind("%smem_shuffle_f32_16 ")) << attrs;
    EXPECT_EQ(attrs.find("%red_smem_"), attrs.rfind("%red_smem_")) << attrs;
    for (const char *mask : {"%c1_i32", "%c2_i32", "%c4_i32", "%c8_i32"})
        EXPECT_HAS(e.text, std::string("_src = arith.xori %tid, ") + mask + " : i32\n");
    // a barrier between a shuffle buffer's write and its partner's read
    size_t store = e.text.find("memref.store ");
    ASSERT_NE(store, std::string::npos) << e.text;
    EXPECT_HAS(e.text.substr(store), "\n        gpu.barrier\n        %v");
    EXPECT_HAS(e.text, "_taken = memref.load %red_smem_");
    EXPECT_HAS(e.text, "[%c0] : memref<16xf32, #gpu.address_space<workgroup>>\n");
    EXPECT_EQ(lower("emit_combine", e.text), "");
}

TEST(MlirEmit, ShapeOpsOfBoolBlocksExchangeBytes) {
    auto e = emit_mlir(axis_kernels(), "bool_join_kernel", "*fp32, *i32", {{"N", "16"}});
    ASSERT_TRUE(e.ok) << e.diagnostics;
    EXPECT_HAS(e.text, "memref<32xi8, #gpu.address_space<workgroup>>");
    EXPECT_HAS(e.text, " = arith.extui %v");
    EXPECT_HAS(e.text, " = arith.cmpi ne, %v");
    EXPECT_EQ(lower("emit_bool_join", e.text), "");
}

TEST(MlirEmit, AxisReductionInADotKernelUsesTheBlocksOwnPositions) {
    // tl.dot's (16, 16) x (16, 32): the tile is the (16, 32) bounding box; the
    // (16, 16) operand reduced along its rows is stored at its own row-major
    // positions by the threads inside its shape
    std::string path =
        write_kernel("mlir_dot_axis", "k.py",
                     kernel_text("a, b, c, s, M: tl.constexpr, K: tl.constexpr, N: tl.constexpr",
                                 "    rm = tl.arange(0, M)\n"
                                 "    rk = tl.arange(0, K)\n"
                                 "    rn = tl.arange(0, N)\n"
                                 "    x = tl.load(a + rm[:, None] * K + rk[None, :])\n"
                                 "    y = tl.load(b + rk[:, None] * N + rn[None, :])\n"
                                 "    tl.store(c + rm[:, None] * N + rn[None, :], tl.dot(x, y))\n"
                                 "    tl.store(s + rm, tl.sum(x, axis=1))\n"));
    auto e =
        emit_mlir(path, "k", "*fp32, *fp32, *fp32, *fp32", {{"M", "16"}, {"K", "16"}, {"N", "32"}});
    ASSERT_TRUE(e.ok) << e.diagnostics;
    EXPECT_HAS(e.text, "known_block_size = array<i32: 512, 1, 1>");
    EXPECT_HAS(e.text, "memref<256xf32, #gpu.address_space<workgroup>>");
    EXPECT_HAS(e.text, "_own_row = arith.muli %tile_i, %c16_i32 : i32\n");
    EXPECT_HAS(e.text, "_own = arith.addi %v");
    EXPECT_HAS(e.text, "scf.if %box_cols_16 {\n        memref.store ");
    EXPECT_EQ(e.text.find("[%tid_index] : memref<256xf32"), std::string::npos) << e.text;
    EXPECT_EQ(lower("emit_dot_axis", e.text), "");
}

TEST(MlirEmit, ConstantsReadBackExactly) {
    std::string path =
        write_kernel("mlir_consts", "k.py",
                     kernel_text("x, BLOCK: tl.constexpr",
                                 "    offs = tl.arange(0, BLOCK)\n    v = tl.load(x + offs)\n"
                                 "    v = v * 0.1 + 1e-05 - 1e+20\n"
                                 "    v = tl.where(v < 16777217.0, v, float('inf'))\n"
                                 "    v = tl.where(v > -1.0, v, float('nan'))\n"
                                 "    v = tl.maximum(v, -0.0)\n"
                                 "    tl.store(x + offs, v)\n"));
    auto e = emit_mlir(path, "k", "*fp32", {{"BLOCK", "32"}}, 0);
    ASSERT_TRUE(e.ok) << e.diagnostics;
    EXPECT_HAS(e.text, "%c0.1_f32 = arith.constant 0.1 : f32\n");
    EXPECT_HAS(e.text, "%c1.0e-05_f32 = arith.constant 1.0e-05 : f32\n");
    EXPECT_HAS(e.text, "%c1.0e20_f32 = arith.constant 1.0e+20 : f32\n");
    // 16777217 is no f32: the nearest, as C reads 16777217.0f
    EXPECT_HAS(e.text, "%c16777216.0_f32 = arith.constant 16777216.0 : f32\n");
    EXPECT_HAS(e.text, "%cinf_f32 = arith.constant 0x7F800000 : f32\n");
    EXPECT_HAS(e.text, "%cnan_f32 = arith.constant 0x7FC00000 : f32\n");
    EXPECT_HAS(e.text, "%c-0.0_f32 = arith.constant -0.0 : f32\n");
    EXPECT_EQ(lower("emit_consts", e.text), "");
}

TEST(MlirEmit, ParameterNamesNeverCollide) {
    std::string path = write_kernel(
        "mlir_names", "k.py",
        kernel_text("tid, c1, tile_i, v2, smem, BLOCK: tl.constexpr",
                    "    offs = tl.arange(0, BLOCK)\n"
                    "    tl.store(tid + offs, tl.sum(tl.load(c1 + offs) * v2 + smem))\n"
                    "    tl.store(tile_i + offs, 1.0 * offs)\n"));
    auto e = emit_mlir(path, "k", "*fp32, *fp32, *fp32, fp32, fp32", {{"BLOCK", "16"}});
    ASSERT_TRUE(e.ok) << e.diagnostics;
    EXPECT_HAS(
        e.text,
        "gpu.func @k_kernel(%p_tid: !llvm.ptr, %p_c1: !llvm.ptr, %p_tile_i: !llvm.ptr, %p_v2: f32, "
        "%p_smem: f32) workgroup(%smem_");
    EXPECT_EQ(lower("emit_names", e.text), "");
}

TEST(MlirEmit, Deterministic) {
    auto a = emit_mlir(kernels("softmax.py"), "softmax_kernel", "*fp32, *fp32, i32",
                       {{"BLOCK", "256"}}, 2);
    auto b = emit_mlir(kernels("softmax.py"), "softmax_kernel", "*fp32, *fp32, i32",
                       {{"BLOCK", "256"}}, 2);
    ASSERT_TRUE(a.ok) << a.diagnostics;
    EXPECT_EQ(a.text, b.text);
}

// ---- Every dtype and op of the tables (kernels/dtypes.py) ---------------------

std::string dtypes_py() { return std::string(MT_MLIR_KERNELS_DIR) + "/dtypes.py"; }

TEST(MlirDtypes, HalfPrecisionComputesInF32AndRoundsAfterEachInexactOp) {
    auto e = emit_mlir(dtypes_py(), "half_ops_kernel", "*fp16, *fp16, *fp16, i32, fp16",
                       {{"BLOCK", "128"}}, 1, "half_ops");
    ASSERT_TRUE(e.ok) << e.diagnostics;
    // an f16 parameter crosses as f16 (the header's mytriton_fp16) and is widened once
    EXPECT_HAS(e.text, "%n: i32, %scale: f16) kernel");
    EXPECT_HAS(e.text, "      %scale_f32 = arith.extf %scale : f16 to f32\n");
    // loads of f16 elements, widened in the taken branch
    EXPECT_HAS(e.text,
               "%v4 = llvm.getelementptr %x_ptr[%v3] : (!llvm.ptr, i32) -> !llvm.ptr, f16\n");
    EXPECT_HAS(e.text,
               "        %v6_loaded = llvm.load %v4 : !llvm.ptr -> f16\n"
               "        %v6_loaded_f32 = arith.extf %v6_loaded : f16 to f32\n"
               "        scf.yield %v6_loaded_f32 : f32\n");
    // x * y in f32, rounded to f16 (the bits of f16 arithmetic), then + scale
    EXPECT_HAS(e.text,
               "      %v9_exact = arith.mulf %v6, %v8 : f32\n"
               "      %v9_exact_f16 = arith.truncf %v9_exact : f32 to f16\n"
               "      %v9 = arith.extf %v9_exact_f16 : f16 to f32\n"
               "      %v10_exact = arith.addf %v9, %scale_f32 : f32\n");
    // propagate_nan=NONE: maxnumf (fmaxf); ALL: the NaN-propagating chain
    EXPECT_HAS(e.text, "%v11 = arith.maxnumf %v10, %v6 : f32\n");
    EXPECT_HAS(e.text, "%v12_lhs_nan = arith.cmpf uno, %v11, %v11 : f32\n");
    // tl.fma: one rounding in f32, then to f16
    EXPECT_HAS(e.text, "%v13_exact = llvm.intr.fma(%v6, %v8, %v12) : (f32, f32, f32) -> f32\n");
    EXPECT_HAS(e.text, "%v13_f16 = arith.truncf %v13 : f32 to f16\n");
    EXPECT_HAS(e.text, "llvm.store %v13_f16, %v14 : f16, !llvm.ptr\n");
    std::string bin;
    ASSERT_EQ(lower("dtypes_half", e.text, &bin), "");
    EXPECT_HAS(bin, "cvt.rn.f16.f32");
    EXPECT_HAS(bin, "fma.rn.f32");
    EXPECT_HAS(bin, "max.f32");
}

TEST(MlirDtypes, CastsHaveTritonsSemantics) {
    auto e =
        emit_mlir(dtypes_py(), "cast_kernel", "*fp32, *i8, *u8, *i64, *fp16, *bf16, *fp64, i32",
                  {{"BLOCK", "64"}}, 1, "casts");
    ASSERT_TRUE(e.ok) << e.diagnostics;
    // to 8-bit integers: the 16-bit conversion, then truncation (300.5 -> 44)
    EXPECT_HAS(
        e.text,
        "%v6_i16 = arith.fptosi %v6 : f32 to i16\n      %v7 = arith.trunci %v6_i16 : i16 to i8\n");
    EXPECT_HAS(
        e.text,
        "%v6_u16 = arith.fptoui %v6 : f32 to i16\n      %v9 = arith.trunci %v6_u16 : i16 to i8\n");
    EXPECT_HAS(e.text, "%v11 = arith.fptosi %v6 : f32 to i64\n");
    EXPECT_HAS(
        e.text,
        "%v6_f16 = arith.truncf %v6 : f32 to f16\n      %v13 = arith.extf %v6_f16 : f16 to f32\n");
    // fp_downcast_rounding="rtz": the nearest, stepped toward zero where it is farther
    EXPECT_HAS(e.text,
               "      %v6_bf16 = arith.truncf %v6 : f32 to bf16\n"
               "      %v6_back = arith.extf %v6_bf16 : bf16 to f32\n"
               "      %v6_positive = arith.cmpf ogt, %v6, %c0.0_f32 : f32\n"
               "      %v6_above = arith.cmpf ogt, %v6_back, %v6 : f32\n"
               "      %v6_below = arith.cmpf olt, %v6_back, %v6 : f32\n"
               "      %v6_away = arith.select %v6_positive, %v6_above, %v6_below : i1\n"
               "      %v6_bits = arith.bitcast %v6_bf16 : bf16 to i16\n"
               "      %v6_toward_zero = arith.subi %v6_bits, %c1_i16 : i16\n"
               "      %v6_rz_bits = arith.select %v6_away, %v6_toward_zero, %v6_bits : i16\n"
               "      %v6_is_nan = arith.cmpf uno, %v6, %v6 : f32\n"
               "      %v6_rz_or_nan = arith.select %v6_is_nan, %c32767_i16, %v6_rz_bits : i16\n"
               "      %v6_rz_bf16 = arith.bitcast %v6_rz_or_nan : i16 to bf16\n"
               "      %v15 = arith.extf %v6_rz_bf16 : bf16 to f32\n");
    EXPECT_HAS(
        e.text,
        "%v17 = arith.extf %v6 : f32 to f64\n      %v18 = arith.mulf %v17, %c2.5_f64 : f64\n");
    EXPECT_HAS(e.text, "llvm.getelementptr %i8_ptr[%v3] : (!llvm.ptr, i32) -> !llvm.ptr, i8\n");
    std::string bin;
    ASSERT_EQ(lower("dtypes_casts", e.text, &bin), "");
    // what the GPU does: cvt.rzi saturates at 16 bits and NaN gives 0
    EXPECT_HAS(bin, "cvt.rzi.s16.f32");
    EXPECT_HAS(bin, "cvt.rzi.u16.f32");
    EXPECT_HAS(bin, "cvt.rzi.s64.f32");
    EXPECT_HAS(bin, "cvt.rn.bf16.f32");
}

TEST(MlirDtypes, IntegerOps) {
    auto e = emit_mlir(dtypes_py(), "int_ops_kernel", "*i32, *i32, *i32, i32", {{"BLOCK", "64"}}, 1,
                       "int_ops");
    ASSERT_TRUE(e.ok) << e.diagnostics;
    EXPECT_HAS(e.text, " = arith.shli %v6, %c3_i32 : i32\n");
    EXPECT_HAS(e.text, " = arith.shrsi %v");
    EXPECT_HAS(e.text, ", %c1_i32 : i32\n");
    EXPECT_HAS(e.text, " = arith.xori ");
    EXPECT_HAS(e.text, " = arith.divsi %v6, %v");
    EXPECT_HAS(e.text, " = arith.remsi %v6, %v");
    // tl.umulhi: the high half of the extended product
    EXPECT_HAS(e.text, "_low, %v");
    EXPECT_HAS(e.text, " = arith.mului_extended %v6, %v");
    // tl.abs of a signed integer
    EXPECT_HAS(e.text, "_negative = arith.cmpi slt, %v6, %c0_i32 : i32\n");
    // tl.num_programs(0)
    EXPECT_HAS(e.text, "_index = gpu.grid_dim x\n");
    std::string bin;
    ASSERT_EQ(lower("dtypes_int", e.text, &bin), "");
    EXPECT_HAS(bin, "mul.hi.u32");
    EXPECT_HAS(bin, "%nctaid.x");
    EXPECT_HAS(bin, "div.s32");
    EXPECT_HAS(bin, "shr.s32");
}

TEST(MlirDtypes, UnsignedOpsAreTheUnsignedArithOps) {
    auto e = emit_mlir(dtypes_py(), "unsigned_ops_kernel", "*u32, *u32, *u64, i32",
                       {{"BLOCK", "64"}}, 1, "unsigned_ops");
    ASSERT_TRUE(e.ok) << e.diagnostics;
    EXPECT_HAS(e.text, "%v9 = arith.shrui %v6, %v8 : i32\n");
    EXPECT_HAS(e.text, "%v10 = arith.divui %v6, %v8 : i32\n");
    EXPECT_HAS(e.text, "%v12 = arith.remui %v6, %v8 : i32\n");
    EXPECT_HAS(e.text, "%v14 = arith.cmpi ult, %v6, %v13 : i32\n");
    EXPECT_HAS(e.text, "%v15 = arith.maxui %v6, %v13 : i32\n");
    EXPECT_HAS(e.text, "%v16 = arith.minui %v6, %v13 : i32\n");
    // u32 to u64 zero-extends
    EXPECT_HAS(e.text, " = arith.extui %v17 : i32 to i64\n");
    std::string bin;
    ASSERT_EQ(lower("dtypes_unsigned", e.text, &bin), "");
    EXPECT_HAS(bin, "div.u32");
    EXPECT_HAS(bin, "shr.u32");
}

TEST(MlirDtypes, MathFunctionsLowerToLibdevice) {
    auto e =
        emit_mlir(dtypes_py(), "math_kernel", "*fp32, *fp32, i32", {{"BLOCK", "64"}}, 1, "mathfn");
    ASSERT_TRUE(e.ok) << e.diagnostics;
    for (const char *op : {"math.exp2", "math.log", "math.log2", "math.sqrt", "math.rsqrt",
                           "math.sin", "math.cos", "math.erf", "math.floor", "math.ceil",
                           "math.absf", "math.exp", "arith.divf", "arith.remf"})
        EXPECT_HAS(e.text, std::string(" = ") + op + " ");
    std::string bin;
    ASSERT_EQ(lower("dtypes_math", e.text, &bin), "");
    EXPECT_HAS(bin, "div.rn.f32");
}

TEST(MlirDtypes, Float64) {
    auto e = emit_mlir(dtypes_py(), "math64_kernel", "*fp64, *fp32, i32", {{"BLOCK", "64"}}, 1,
                       "math64");
    ASSERT_TRUE(e.ok) << e.diagnostics;
    EXPECT_HAS(e.text, " = math.exp2 %v6 : f64\n");
    EXPECT_HAS(e.text, " = arith.remf %v6, %c2.0_f64 : f64\n");
    EXPECT_HAS(e.text, "%c3.0_f64 = arith.constant 3.0 : f64\n");
    EXPECT_HAS(e.text, "llvm.getelementptr %x_ptr[%v3] : (!llvm.ptr, i32) -> !llvm.ptr, f64\n");
    // to f32 toward zero
    EXPECT_HAS(e.text, " = arith.truncf %v");
    EXPECT_HAS(e.text, " : f64 to f32\n");
    EXPECT_HAS(e.text, " = arith.bitcast %v");
    EXPECT_EQ(lower("dtypes_math64", e.text), "");
}

TEST(MlirDtypes, Fp8IsBytesConvertedInArith) {
    auto e = emit_mlir(dtypes_py(), "fp8_kernel", "*fp32, *fp8e4nv, *fp8e5, *fp32, i32",
                       {{"BLOCK", "64"}}, 1, "fp8");
    ASSERT_TRUE(e.ok) << e.diagnostics;
    // stored as bytes: the f32 rounded to nearest even, saturated to the largest finite value, NaN 0x7f
    // whatever its sign (the GPU's satfinite conversion, and the runtime's mytriton_fp8e4nv_from_float,
    // checked on every 7th f32 bit pattern)
    EXPECT_HAS(e.text, "llvm.getelementptr %e4_ptr[%v3] : (!llvm.ptr, i32) -> !llvm.ptr, i8\n");
    EXPECT_HAS(e.text, "_sat = arith.minnumf %v6_abs, %c448.0_f32 : f32\n");
    EXPECT_HAS(e.text, "%v6_sat_2 = arith.minnumf %v6_abs_2, %c57344.0_f32 : f32\n");
    EXPECT_HAS(e.text, "%v6_signed = arith.ori %v6_rounded, %v6_sign_bit : i8\n");
    EXPECT_HAS(e.text, "%v6_f8e4nv = arith.select %v6_is_nan, %c127_i8, %v6_signed : i8\n");
    // read back through f16: e4m3 scaled by 2^8, its NaN its own pattern
    EXPECT_HAS(e.text, " = arith.bitcast %v6_f8e4nv_f16bits : i16 to f16\n");
    EXPECT_HAS(e.text, " = arith.mulf %v6_f8e4nv_f32, %c256.0_f32 : f32\n");
    EXPECT_EQ(e.text.find("f8E4M3FN"), std::string::npos)
        << "no fp8 MLIR types: mlir-opt 19 does not lower them";
    EXPECT_EQ(lower("dtypes_fp8", e.text), "");
}

TEST(MlirDtypes, Bitcasts) {
    auto e = emit_mlir(dtypes_py(), "bitcast_kernel", "*fp32, *u32, *fp16, *i16, i32",
                       {{"BLOCK", "64"}}, 1, "bitcasts");
    ASSERT_TRUE(e.ok) << e.diagnostics;
    EXPECT_HAS(e.text, "%v7 = arith.bitcast %v6 : f32 to i32\n");
    // an f16 register (f32) is its f16 first
    EXPECT_HAS(
        e.text,
        "%v10_f16 = arith.truncf %v10 : f32 to f16\n      %v11 = arith.bitcast %v10_f16 : f16 to i16\n");
    EXPECT_EQ(lower("dtypes_bitcast", e.text), "");
}

TEST(MlirDtypes, ReductionsOfEveryNumericDtype) {
    auto e = emit_mlir(dtypes_py(), "reduce_kernel", "*fp32, *bf16, *u8, *fp32, *bf16, *u8",
                       {{"BLOCK", "64"}}, 1, "reduce");
    ASSERT_TRUE(e.ok) << e.diagnostics;
    // tl.max / tl.min of a dtype narrower than 32 bits reduce in i32 / f32, as Triton's
    EXPECT_HAS(e.text, "memref<64xi32, #gpu.address_space<workgroup>>");
    EXPECT_HAS(e.text, " = arith.maxsi %");
    EXPECT_HAS(e.text, " = arith.minsi %");
    // a bf16 sum reduces in f32, as Triton's tl.sum (no partial rounded to bf16)
    EXPECT_EQ(e.text.find("_combined_bf16 = arith.truncf %v"), std::string::npos) << e.text;
    EXPECT_HAS(e.text, " = arith.addf %");
    EXPECT_HAS(e.text, " = arith.maxnumf %");
    EXPECT_EQ(lower("dtypes_reduce", e.text), "");
}

TEST(MlirDtypes, ScalarParametersOfEveryDtype) {
    auto e = emit_mlir(dtypes_py(), "scalar_params_kernel",
                       "*fp32, *i1, fp16, bf16, i64, u32, fp64, i1, fp8e4nv", {{"BLOCK", "32"}}, 1,
                       "params");
    ASSERT_TRUE(e.ok) << e.diagnostics;
    // bools and fp8 cross as bytes, as the launcher's C types
    EXPECT_HAS(
        e.text,
        "(%out_ptr: !llvm.ptr, %flag_ptr: !llvm.ptr, %h: f16, %b: bf16, %l: i64, %u: i32, %d: f64, "
        "%c: i8, %e4: i8) kernel");
    EXPECT_HAS(e.text, "%c_bool = arith.cmpi ne, %c, %c0_i8 : i8\n");
    EXPECT_HAS(e.text, "%b_f32 = arith.extf %b : bf16 to f32\n");
    // a bool stored as a byte
    EXPECT_HAS(e.text, "_byte = arith.extui %v");
    std::string bin;
    ASSERT_EQ(lower("dtypes_params", e.text, &bin), "");
    // one .param per parameter: the launcher's calling convention
    size_t count = 0;
    for (size_t at = bin.find(".param "); at != std::string::npos; at = bin.find(".param ", at + 1))
        count++;
    EXPECT_EQ(count, 9u) << bin;
}

TEST(MlirDtypes, EveryKernelLowersAtO2) {
    // -O2's passes (CSE, LICM, folding) leave other SSA to the same emitter
    struct K {
        const char *kernel, *signature, *block;
    };
    for (K k :
         {K{"half_ops_kernel", "*fp16, *fp16, *fp16, i32, fp16", "128"},
          K{"cast_kernel", "*fp32, *i8, *u8, *i64, *fp16, *bf16, *fp64, i32", "64"},
          K{"int_ops_kernel", "*i32, *i32, *i32, i32", "64"},
          K{"unsigned_ops_kernel", "*u32, *u32, *u64, i32", "64"},
          K{"math_kernel", "*fp32, *fp32, i32", "64"},
          K{"math64_kernel", "*fp64, *fp32, i32", "64"},
          K{"fp8_kernel", "*fp32, *fp8e4nv, *fp8e5, *fp32, i32", "64"},
          K{"bitcast_kernel", "*fp32, *u32, *fp16, *i16, i32", "64"},
          K{"reduce_kernel", "*fp32, *bf16, *u8, *fp32, *bf16, *u8", "64"},
          K{"scalar_params_kernel", "*fp32, *i1, fp16, bf16, i64, u32, fp64, i1, fp8e4nv", "32"}}) {
        auto e = emit_mlir(dtypes_py(), k.kernel, k.signature, {{"BLOCK", k.block}}, 2, "o2");
        ASSERT_TRUE(e.ok) << k.kernel << ": " << e.diagnostics;
        EXPECT_EQ(lower(std::string("dtypes_o2_") + k.kernel, e.text), "") << k.kernel;
    }
}

// ---- What the backend does not cover: a diagnostic naming it, no module ----

struct HandEmit {
    bool ok;
    std::string diagnostics;
};

// Emits hand-built SSA whose tile may hold up to max_elements elements.
HandEmit emit_hand(Ssa &s, int max_elements) {
    MtContext *ctx = mt_context_new("hand.py");
    TileInfo tile{};
    HandEmit r{false, ""};
    if (shape_analyze(ctx, s.f, max_elements, &tile)) {
        Spec spec{};
        spec.name = "hand";
        spec.symbol = "hand_kernel";
        spec.kernel = "k";
        spec.source = "hand.py";
        spec.signature = "";
        spec.constexprs = "";
        spec.f = s.f;
        spec.tile = &tile;
        spec.pnames = c_param_names(ctx->arena, s.f);
        spec.pyname = spec.pnames;
        spec.written = ssa_written_params(ctx->arena, s.f);
        spec.backends = BACKEND_MLIR;
        r.ok = emit_mlir_module(ctx, &spec) != nullptr;
    }
    r.diagnostics = sb_str(&ctx->diagnostics);
    mt_context_free(ctx);
    return r;
}

TEST(MlirEmit, TileBeyondABlockIsADiagnostic) {
    // one thread per element: a 2048-element tile (which the -O2 CUDA
    // backend spreads over fewer threads) does not fit a CUDA block
    Ssa s({{"x", ptr_f32()}});
    Operand offs = s.typed(OP_ARANGE, {}, range_attr(0, 2048));
    Operand p = s.typed(OP_ADDPTR, {param(0), offs});
    s.store(p, cf(1.0));
    auto r = emit_hand(s, 4096);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(
        r.diagnostics.find(
            "hand.py:1:1: error: the MLIR backend does not cover 'arange' of 2048 elements: it "
            "runs one thread per element of the tile (2048,), and a CUDA block has at most 1024 "
            "threads"),
        std::string::npos)
        << r.diagnostics;
}

TEST(MlirEmit, ReductionOverANonPowerOfTwoIsADiagnostic) {
    // the frontend only makes power-of-two reductions; the backend checks
    // its own assumption rather than emit a wrong tree
    Ssa s({{"x", ptr_f32()}});
    Operand offs = s.typed(OP_ARANGE, {}, range_attr(0, 48));
    Operand p = s.typed(OP_ADDPTR, {param(0), offs});
    Operand v = s.typed(OP_LOAD, {p, none(), none()});
    Operand total = s.typed(OP_SUM, {v});
    s.store(param(0), total);
    auto r = emit_hand(s, 1024);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.diagnostics.find(
                  "error: the MLIR backend does not cover tl.sum in a kernel of 48 threads (the "
                  "reduction tree needs a power of two)"),
              std::string::npos)
        << r.diagnostics;
}

TEST(MlirEmit, AnOpWithoutAnMlirOpForTheDtypeIsADiagnostic) {
    // ops.def's mlir column has "-" for shifts of floats (the type rules
    // never make one; the backend still names what it cannot express)
    Ssa s({{"x", ptr_f32()}});
    Operand offs = s.typed(OP_ARANGE, {}, range_attr(0, 64));
    Operand p = s.typed(OP_ADDPTR, {param(0), offs});
    Operand v = s.typed(OP_LOAD, {p, none(), none()});
    Operand sh = s.op(OP_SHL, v.kind == OPD_VALUE ? s.f->types[v.id] : Type{}, {v, v});
    s.store(p, sh);
    auto r = emit_hand(s, 1024);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.diagnostics.find("error: the MLIR backend does not cover 'shl' on float32"),
              std::string::npos)
        << r.diagnostics;
}

TEST(MlirEmit, CoveredHandBuiltKernelEmits) {
    Ssa s({{"x", ptr_f32()}});
    Operand offs = s.typed(OP_ARANGE, {}, range_attr(0, 64));
    Operand p = s.typed(OP_ADDPTR, {param(0), offs});
    s.store(p, cf(1.0));
    auto r = emit_hand(s, 1024);
    EXPECT_TRUE(r.ok) << r.diagnostics;
    EXPECT_EQ(r.diagnostics, "");
}

// ---- The CLI's MLIR stages ---------------------------------------------------

std::vector<std::string> add_args() {
    return {MT_TEST_COMPILER,
            kernels("vector_add.py"),
            "--kernel",
            "add_kernel",
            "--signature",
            "*fp32, *fp32, *fp32, i32",
            "-D",
            "BLOCK=256",
            "--name",
            "vector_add"};
}

TEST(MlirCli, LauncherStageNeedsTheLoweredModule) {
    auto args = add_args();
    args.push_back("--emit=mlir-launcher");
    auto r = mt_test::run_process(args);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--emit=mlir-launcher needs --mlir-binary FILE"), std::string::npos)
        << r.err;
}

TEST(MlirCli, UnloweredModuleIsRejected) {
    std::string dir = mt_test::make_temp_dir("mlir_cli_unlowered");
    auto args = add_args();
    args.insert(args.end(), {"--backends", "mlir", "-o", dir});
    ASSERT_EQ(mt_test::run_process(args).status, 0);
    args = add_args();
    args.insert(args.end(), {"--mlir-binary", dir + "/vector_add.mlir", "-o", dir});
    auto r = mt_test::run_process(args);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("--mlir-binary: no gpu.binary with an assembly attribute"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(mt_test::file_exists(dir + "/vector_add_mlir.c"));
    EXPECT_TRUE(mt_test::file_exists(dir + "/vector_add.h"))
        << "the second step leaves the first one's outputs";
}

TEST(MlirCli, BinaryOfAnotherKernelIsRejected) {
    std::string dir = mt_test::make_temp_dir("mlir_cli_other");
    auto args = add_args();
    args.insert(args.end(), {"--backends", "mlir", "--name", "other", "--emit=mlir"});
    auto m = mt_test::run_process(args);
    ASSERT_EQ(m.status, 0) << m.err;
    mt_test::write_file(dir + "/other.mlir", m.out);
    std::vector<std::string> opt = {MT_MLIR_OPT, dir + "/other.mlir"};
    std::string p = MT_MLIR_PIPELINE;
    for (size_t at = 0; at <= p.size();) {
        size_t bar = p.find('|', at);
        if (bar == std::string::npos) bar = p.size();
        opt.push_back(p.substr(at, bar - at));
        at = bar + 1;
    }
    opt.insert(opt.end(), {"-o", dir + "/other.gpu.mlir"});
    ASSERT_EQ(mt_test::run_process(opt).status, 0);
    args = add_args();
    args.insert(args.end(), {"--mlir-binary", dir + "/other.gpu.mlir", "--emit=mlir-launcher"});
    auto r = mt_test::run_process(args);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("--mlir-binary: the PTX has no '.entry vector_add_kernel'"),
              std::string::npos)
        << r.err;
}

TEST(MlirCli, TileWiderThanABlockIsADiagnosticNamingTheOp) {
    // -O2 gives the CUDA backend several elements per thread; the MLIR
    // backend keeps one thread per element and says so
    auto args = add_args();
    args[7] = "BLOCK=2048";
    args.insert(args.end(), {"-O2", "--emit=mlir"});
    auto r = mt_test::run_process(args);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_NE(
        r.err.find(
            "vector_add.py:8:29: error: the MLIR backend does not cover 'arange' of 2048 elements"),
        std::string::npos)
        << r.err;
    args = add_args();
    args[7] = "BLOCK=2048";
    args.insert(args.end(), {"-O2", "--emit=cuda"});
    EXPECT_EQ(mt_test::run_process(args).status, 0) << "the cuda backend covers it";
}

TEST(MlirCli, FailedCompileRemovesTheModule) {
    std::string dir = mt_test::make_temp_dir("mlir_cli_uncovered");
    std::string path =
        write_kernel("mlir_cli_uncovered_src", "k.py",
                     kernel_text("x, BLOCK: tl.constexpr",
                                 "    offs = tl.arange(0, BLOCK)\n    tl.store(x + offs, 1.0)\n"));
    mt_test::write_file(dir + "/k.mlir", "stale");
    // 2048 elements: beyond one thread per element at every level
    auto r = mt_test::run_process({MT_TEST_COMPILER, path, "--kernel", "k", "--signature", "*fp32",
                                   "-D", "BLOCK=2048", "-O1", "--backends", "mlir", "-o", dir});
    EXPECT_EQ(r.status, 1);
    EXPECT_FALSE(mt_test::file_exists(dir + "/k.mlir"));
    EXPECT_FALSE(mt_test::file_exists(dir + "/k.h"));
}

}  // namespace

namespace {

// ---- On the CPU: the conversions the backend writes as arith on bits --------
//
// kernels/conversions.py's module, its gpu.func made a func.func taking the
// program id, runs under mlir-cpu-runner (mlir-19-tools) once per input;
// a main function compares every output with the runtime's conversions
// (mytriton/dtypes.h, the host backend's) and returns a bitmask of the
// outputs that differ. Integer casts are left to the GPU tests: the CPU's
// float-to-integer conversion does not saturate.

// The kernel's module as a CPU module: func.func @<symbol>(%pid_arg: i32, ...).
std::string cpu_kernel(const std::string &text) {
    std::string t = text;
    auto replace = [&t](const std::string &from, const std::string &to) {
        size_t at = t.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        if (at != std::string::npos) t.replace(at, from.size(), to);
    };
    replace("module attributes {gpu.container_module} {\n", "module {\n");
    size_t g = t.find("  gpu.module @");
    t.erase(g, t.find('\n', g) + 1 - g);
    size_t f = t.find("gpu.func @");
    size_t open = t.find('(', f), attrs = t.find(") kernel attributes", f),
           body = t.find("{\n", attrs);
    t.replace(f, body - f,
              "func.func @k(%pid_arg: i32, " + t.substr(open + 1, attrs - open - 1) + ") ");
    replace("= gpu.block_id x", "= arith.index_cast %pid_arg : i32 to index");
    replace("gpu.return", "return");
    // the gpu.module's closing brace
    size_t end = t.rfind("  }\n}");
    t.erase(end, 4);
    return t;
}

struct Output {
    const char *name;
    int bits;                   // element width
    uint32_t nan_above;         // magnitudes above this are NaN (0: none expected)
    std::vector<int64_t> want;  // -1: any NaN, -2: not checked
};

std::string dense(const std::vector<int64_t> &v, const char *type) {
    std::string s = "dense<[";
    for (size_t i = 0; i < v.size(); i++) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]> : tensor<" + std::to_string(v.size()) + "x" + type + ">";
}

std::string check_function(int bits) {
    std::string w = "i" + std::to_string(bits), n = std::to_string(bits);
    std::string load = bits == 32 ? "      %g = llvm.load %p : !llvm.ptr -> i32\n"
                                  : "      %v = llvm.load %p : !llvm.ptr -> " + w +
                                        "\n      %g = arith.extui %v : " + w + " to i32\n";
    return "  func.func @check" + n +
           "(%out: !llvm.ptr, %want: !llvm.ptr, %n: i32, %nan_above: i32) -> i32 {\n"
           "    %c0 = arith.constant 0 : i32\n    %c1 = arith.constant 1 : i32\n    %cm1 = arith.constant -1 : i32\n"
           "    %cm2 = arith.constant -2 : i32\n"
           "    %mask = arith.constant " +
           std::to_string(bits == 32 ? 0x7fffffffLL : (1LL << (bits - 1)) - 1) +
           " : i32\n"
           "    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {\n"
           "      %p = llvm.getelementptr %out[%i] : (!llvm.ptr, i32) -> !llvm.ptr, " +
           w + "\n" + load +
           "      %q = llvm.getelementptr %want[%i] : (!llvm.ptr, i32) -> !llvm.ptr, i32\n"
           "      %w = llvm.load %q : !llvm.ptr -> i32\n"
           "      %eq = arith.cmpi eq, %g, %w : i32\n"
           "      %any_nan = arith.cmpi eq, %w, %cm1 : i32\n"
           "      %any = arith.cmpi eq, %w, %cm2 : i32\n"
           "      %mag = arith.andi %g, %mask : i32\n"
           "      %is_nan = arith.cmpi ugt, %mag, %nan_above : i32\n"
           "      %nan_ok = arith.andi %any_nan, %is_nan : i1\n"
           "      %ok_nan = arith.ori %eq, %nan_ok : i1\n"
           "      %ok = arith.ori %ok_nan, %any : i1\n"
           "      %bad = arith.select %ok, %c0, %c1 : i32\n"
           "      %next = arith.addi %acc, %bad : i32\n"
           "      scf.yield %next : i32\n    }\n    return %r : i32\n  }\n";
}

TEST(MlirCpu, ConversionsWrittenAsArithMatchTheRuntime) {
    if (!MT_MLIR_CPU_RUNNER[0]) GTEST_SKIP() << "no mlir-cpu-runner (Debian: mlir-19-tools)";
    std::string path = std::string(MT_MLIR_KERNELS_DIR) + "/conversions.py";
    auto e = emit_mlir(
        path, "conversions_kernel",
        "*fp32, *fp64, *fp8e4nv, *fp8e5, *fp8e4nv, *fp8e5, *fp32, *fp32, *fp16, *fp16, *bf16, *bf16, "
        "*fp32, *fp16, *fp16");
    ASSERT_TRUE(e.ok) << e.diagnostics;

    // inputs: the edges of every format, then random values of every scale
    std::vector<float> xs = {0.0f,
                             -0.0f,
                             1.0f,
                             -1.0f,
                             0.1f,
                             300.5f,
                             448.0f,
                             464.0f,
                             480.0f,
                             1e6f,
                             -1e6f,
                             57344.0f,
                             61440.0f,
                             65504.0f,
                             65519.0f,
                             65520.0f,
                             -65520.0f,
                             1e-8f,
                             -1e-8f,
                             0.001953125f,
                             0.0029296875f,
                             0.0009765625f,
                             1.52587890625e-05f,
                             2.2e-05f,
                             3e38f,
                             1e-40f,
                             -1e-40f,
                             1.0f + 1.0f / 16,
                             1.0f + 3.0f / 16,
                             1.0f + 1.0f / 32,
                             NAN,
                             -NAN,
                             INFINITY,
                             -INFINITY};
    std::mt19937 gen(12);
    std::uniform_real_distribution<float> mant(1.0f, 2.0f);
    std::uniform_int_distribution<int> expo(-30, 20), sign(0, 1);
    while (xs.size() < 600)
        xs.push_back((sign(gen) ? -1.0f : 1.0f) * std::ldexp(mant(gen), expo(gen)));
    std::vector<double> xds;
    for (size_t i = 0; i < xs.size(); i++)
        xds.push_back(static_cast<double>(xs[i]) * (1.0 + 1e-9 * (i % 7)));

    auto f32 = [](float v) -> int64_t {
        uint32_t u;
        std::memcpy(&u, &v, 4);
        return std::isnan(v) ? -1 : static_cast<int64_t>(u);
    };
    auto nan_or = [](double v, int64_t bits) -> int64_t { return v != v ? -1 : bits; };
    // rtz toward zero for finite values; infinities stay (16-bit) or
    // saturate like the round-to-nearest conversion (8-bit, satfinite)
    auto rz = [](double v, int e, int m) {
        return std::isinf(v) ? v : static_cast<double>(mytriton_round_rz(v, e, m));
    };
    std::vector<Output> outs = {{"fp8e4nv", 8, 0, {}},
                                {"fp8e5", 8, 0, {}},
                                {"fp8e4nv rtz", 8, 0, {}},
                                {"fp8e5 rtz", 8, 0, {}},
                                {"fp8e4nv to f32", 32, 0x7f800000u, {}},
                                {"fp8e5 to f32", 32, 0x7f800000u, {}},
                                {"f16", 16, 0x7c00u, {}},
                                {"f16 rtz", 16, 0x7c00u, {}},
                                {"bf16", 16, 0x7f80u, {}},
                                {"bf16 rtz", 16, 0x7f80u, {}},
                                {"f64 to f32 rtz", 32, 0x7f800000u, {}},
                                {"f64 to f16", 16, 0x7c00u, {}},
                                {"f64 to f16 rtz", 16, 0x7c00u, {}}};
    for (size_t i = 0; i < xs.size(); i++) {
        float x = xs[i];
        double xd = xds[i];
        mytriton_fp8e4nv a = mytriton_fp8e4nv_from_float(x);
        mytriton_fp8e5 b = mytriton_fp8e5_from_float(x);
        outs[0].want.push_back(a.bits);
        outs[1].want.push_back(b.bits);
        outs[2].want.push_back(x != x ? a.bits : mytriton_fp8e4nv_from_double(rz(x, 4, 3)).bits);
        outs[3].want.push_back(x != x ? b.bits : mytriton_fp8e5_from_double(rz(x, 5, 2)).bits);
        outs[4].want.push_back(f32(mytriton_fp8e4nv_to_float(a)));
        outs[5].want.push_back(f32(mytriton_fp8e5_to_float(b)));
        outs[6].want.push_back(nan_or(x, mytriton_fp16_from_float(x).bits));
        outs[7].want.push_back(nan_or(x, mytriton_fp16_from_double(rz(x, 5, 10)).bits));
        outs[8].want.push_back(nan_or(x, mytriton_bf16_from_float(x).bits));
        outs[9].want.push_back(nan_or(x, mytriton_bf16_from_double(rz(x, 8, 7)).bits));
        outs[10].want.push_back(f32(mytriton_f64_to_f32_rz(xd)));
        outs[11].want.push_back(nan_or(xd, mytriton_fp16_from_double(xd).bits));
        outs[12].want.push_back(nan_or(xd, mytriton_fp16_from_double(rz(xd, 5, 10)).bits));
    }
    // f32 subnormals to bf16: the CPU's conversion (LLVM's expansion of
    // fptrunc to bf16 on x86) flushes them to zero, the GPU's cvt.rn.bf16.f32
    // does not; the GPU tests compare those
    for (size_t i = 0; i < xs.size(); i++)
        if (std::fpclassify(xs[i]) == FP_SUBNORMAL) outs[8].want[i] = outs[9].want[i] = -2;
    // infinities of the fp8 rtz outputs: the largest finite value, as the
    // round-to-nearest conversion saturates
    for (size_t i = 0; i < xs.size(); i++)
        if (std::isinf(xs[i])) {
            outs[2].want[i] = outs[0].want[i];
            outs[3].want[i] = outs[1].want[i];
        }

    const std::string n = std::to_string(xs.size());
    std::string main = "  llvm.mlir.global internal @in_x(";
    std::vector<int64_t> xbits, xdbits;
    for (float x : xs) {
        uint32_t u;
        std::memcpy(&u, &x, 4);
        xbits.push_back(static_cast<int32_t>(u));
    }
    for (double x : xds) {
        int64_t u;
        std::memcpy(&u, &x, 8);
        xdbits.push_back(u);
    }
    main += dense(xbits, "i32") + ") : !llvm.array<" + n + " x i32>\n";
    main += "  llvm.mlir.global internal @in_xd(" + dense(xdbits, "i64") + ") : !llvm.array<" + n +
            " x i64>\n";
    for (size_t k = 0; k < outs.size(); k++) {
        std::string w = "i" + std::to_string(outs[k].bits), K = std::to_string(k);
        main += "  llvm.mlir.global internal @out" + K + "(dense<0> : tensor<" + n + "x" + w +
                ">) : !llvm.array<" + n + " x " + w + ">\n";
        main += "  llvm.mlir.global internal @want" + K + "(" + dense(outs[k].want, "i32") +
                ") : !llvm.array<" + n + " x i32>\n";
    }
    for (int bits : {8, 16, 32}) main += check_function(bits);
    main +=
        "  func.func @main() -> i32 {\n    %x = llvm.mlir.addressof @in_x : !llvm.ptr\n"
        "    %xd = llvm.mlir.addressof @in_xd : !llvm.ptr\n";
    std::string args = "%i, %x, %xd", types = "i32, !llvm.ptr, !llvm.ptr";
    for (size_t k = 0; k < outs.size(); k++) {
        std::string K = std::to_string(k);
        main += "    %out" + K + " = llvm.mlir.addressof @out" + K + " : !llvm.ptr\n";
        main += "    %want" + K + " = llvm.mlir.addressof @want" + K + " : !llvm.ptr\n";
        args += ", %out" + K;
        types += ", !llvm.ptr";
    }
    main +=
        "    %c0 = arith.constant 0 : i32\n    %c1 = arith.constant 1 : i32\n    %n = arith.constant " +
        n + " : i32\n    scf.for %i = %c0 to %n step %c1 : i32 {\n      func.call @k(" + args +
        ") : (" + types + ") -> ()\n    }\n    %mask0 = arith.constant 0 : i32\n";
    for (size_t k = 0; k < outs.size(); k++) {
        std::string K = std::to_string(k), N = std::to_string(k + 1);
        main += "    %nan" + K + " = arith.constant " +
                std::to_string(outs[k].nan_above ? outs[k].nan_above : 0xffffffffu) + " : i32\n";
        main += "    %bad" + K + " = func.call @check" + std::to_string(outs[k].bits) + "(%out" +
                K + ", %want" + K + ", %n, %nan" + K +
                ") : (!llvm.ptr, !llvm.ptr, i32, i32) -> i32\n";
        main += "    %any" + K + " = arith.cmpi ne, %bad" + K + ", %c0 : i32\n";
        main += "    %bit" + K + " = arith.constant " + std::to_string(1 << k) + " : i32\n";
        main += "    %set" + K + " = arith.select %any" + K + ", %bit" + K + ", %c0 : i32\n";
        main += "    %mask" + N + " = arith.ori %mask" + K + ", %set" + K + " : i32\n";
    }
    main += "    return %mask" + std::to_string(outs.size()) + " : i32\n  }\n";
    std::string module = cpu_kernel(e.text);
    module.insert(module.rfind("}"), main);

    std::string dir = mt_test::make_temp_dir("mlir_cpu_conversions");
    mt_test::write_file(dir + "/cpu.mlir", module);
    auto l = mt_test::run_process({MT_MLIR_OPT, dir + "/cpu.mlir", "--convert-scf-to-cf",
                                   "--convert-arith-to-llvm", "--convert-func-to-llvm",
                                   "--reconcile-unrealized-casts", "-o", dir + "/cpu.ll.mlir"});
    ASSERT_EQ(l.status, 0) << l.err << "\n" << module;
    std::vector<std::string> run = {MT_MLIR_CPU_RUNNER, dir + "/cpu.ll.mlir", "-e", "main",
                                    "-entry-point-result=i32"};
    if (MT_MLIR_BF16_LIBCALL[0]) run.push_back(std::string("-shared-libs=") + MT_MLIR_BF16_LIBCALL);
    auto r = mt_test::run_process(run);
    ASSERT_EQ(r.status, 0) << r.err;
    int mask = std::stoi(r.out);
    std::string bad;
    for (size_t k = 0; k < outs.size(); k++)
        if (mask & (1 << k)) bad += std::string(bad.empty() ? "" : ", ") + outs[k].name;
    EXPECT_EQ(mask, 0) << "the conversions that differ from the runtime's: " << bad;
}

}  // namespace
