// The outer-product loop (outer.c, issue 14): the rewrite of its carried
// pointer lanes on hand-built SSA, its analysis, and both on the benchmark
// suite's matmul variations compiled at -O2.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "unit_support.h"

namespace {

using namespace mt_unit;

struct OuterSsa {
    std::unique_ptr<Ssa> s;
    Operand rows, cols;  // (4, 1) and (1, 4) pointer blocks before the loop
    Ssa::LoopRef loop;
};

// acc (4 x 4) += load(a_ptrs) * load(b_ptrs) with a_ptrs += 1, b_ptrs += n
// carried, in range(start, n, step); the results of the pointer lanes
// stored after the loop when `use_ptrs`.
OuterSsa hoisted(Operand start, Operand step, bool use_ptrs = false) {
    OuterSsa o;
    o.s.reset(new Ssa({{"a", ptr_f32()}, {"n", i32()}}));
    Ssa &s = *o.s;
    Operand r = s.typed(OP_ARANGE, {}, range_attr(0, 4));                  // %0
    Operand rc = s.typed(OP_EXPAND_DIMS, {r}, axis_attr(1));               // %1
    Operand rr = s.typed(OP_EXPAND_DIMS, {r}, axis_attr(0));               // %2
    o.rows = s.typed(OP_ADDPTR, {param(0), rc});                           // %3
    o.cols = s.typed(OP_ADDPTR, {param(0), rr});                           // %4
    Operand zero = s.typed(OP_ZEROS, {}, shape_attr({4, 4}, DT_F32));      // %5
    o.loop = s.begin_loop(start, param(1), step, {zero, o.rows, o.cols});  // %6; %7 %8 %9
    Operand x = s.typed(OP_LOAD, {o.loop.args[1], none(), none()});        // %10
    Operand y = s.typed(OP_LOAD, {o.loop.args[2], none(), none()});        // %11
    Operand p = s.typed(OP_MUL, {x, y});                                   // %12
    Operand acc = s.typed(OP_ADD, {o.loop.args[0], p});                    // %13
    Operand na = s.typed(OP_ADDPTR, {o.loop.args[1], ci(1)});              // %14
    Operand nb = s.typed(OP_ADDPTR, {o.loop.args[2], param(1)});           // %15
    auto res = s.end_loop(o.loop, {acc, na, nb});                          // %16 %17 %18
    Operand out = s.typed(OP_ADDPTR, {use_ptrs ? res[1] : o.rows, rr});    // %19
    s.store(out, res[0]);
    return o;
}

std::string run_outer(Ssa &s) {
    PassStats st{};
    pass_outer(s.a, s.f, &st);
    std::string err = s.verify();
    EXPECT_EQ(err, "") << s.print();
    return s.print();
}

TEST(Outer, PointerLanesBecomeAddressesOfTheIndex) {
    OuterSsa o = hoisted(ci(0), ci(1));
    EXPECT_EQ(run_outer(*o.s),
              "%0 = arange {start=0, end=4} : vector<4 x i32>\n"
              "%1 = expand_dims %0 {axis=1} : block<4x1 x i32>\n"
              "%2 = expand_dims %0 {axis=0} : block<1x4 x i32>\n"
              "%3 = addptr a, %1 : block<4x1 x ptr<f32>>\n"
              "%4 = addptr a, %2 : block<1x4 x ptr<f32>>\n"
              "%5 = zeros {shape=(4, 4), dtype=f32} : block<4x4 x f32>\n"
              "%16 = for %6 in range(0, n, 1) iter_args(%7 = %5) : block<4x4 x f32> {\n"
              "  %20 = addptr %3, %6 : block<4x1 x ptr<f32>>\n"
              "  %21 = mul %6, n : i32\n"
              "  %22 = addptr %4, %21 : block<1x4 x ptr<f32>>\n"
              "  %10 = load %20, none, none : block<4x1 x f32>\n"
              "  %11 = load %22, none, none : block<1x4 x f32>\n"
              "  %12 = mul %10, %11 : block<4x4 x f32>\n"
              "  %13 = add %7, %12 : block<4x4 x f32>\n"
              "  %14 = addptr %20, 1 : block<4x1 x ptr<f32>>\n"
              "  %15 = addptr %22, n : block<1x4 x ptr<f32>>\n"
              "  yield %13\n"
              "}\n"
              "%19 = addptr %3, %2 : block<4x4 x ptr<f32>>\n"
              "store %19, %16, none\n");
    OuterLoop m;
    ASSERT_TRUE(outer_match(o.s->f, o.loop.in, &m));
    EXPECT_EQ(m.acc_lane, 0);
    EXPECT_TRUE(m.x.kind == OPD_VALUE && m.x.id == 10);
    EXPECT_TRUE(m.y.kind == OPD_VALUE && m.y.id == 11);
}

TEST(Outer, IterationNumberOfAStartAndAStep) {
    OuterSsa o = hoisted(ci(2), ci(3));
    std::string t = run_outer(*o.s);
    EXPECT_NE(t.find("  %20 = sub %6, 2 : i32\n"
                     "  %21 = floordiv %20, 3 : i32\n"
                     "  %22 = addptr %3, %21 : block<4x1 x ptr<f32>>\n"
                     "  %23 = mul %21, n : i32\n"
                     "  %24 = addptr %4, %23 : block<1x4 x ptr<f32>>\n"),
              std::string::npos)
        << t;
    OuterLoop m;
    EXPECT_TRUE(outer_match(o.s->f, o.loop.in, &m));
}

TEST(Outer, APointerUsedAfterTheLoopStaysCarried) {
    OuterSsa o = hoisted(ci(0), ci(1), true);
    std::string t = run_outer(*o.s);
    // the row pointers' result is stored from: that lane stays
    EXPECT_NE(
        t.find(
            "%16, %17 = for %6 in range(0, n, 1) iter_args(%7 = %5, %8 = %3) : block<4x4 x f32>, "
            "block<4x1 x ptr<f32>> {\n"
            "  %20 = mul %6, n : i32\n"
            "  %21 = addptr %4, %20 : block<1x4 x ptr<f32>>\n"
            "  %10 = load %8, none, none : block<4x1 x f32>\n"
            "  %11 = load %21, none, none : block<1x4 x f32>\n"),
        std::string::npos)
        << t;
    EXPECT_NE(t.find("  yield %13, %14\n}\n%19 = addptr %17, %2"), std::string::npos) << t;
    OuterLoop m;
    EXPECT_FALSE(outer_match(o.s->f, o.loop.in, &m));  // two lanes: not staged
}

TEST(Outer, TheAnalysisDeclinesStoresAndOtherUsesOfTheAccumulator) {
    {
        OuterSsa o = hoisted(ci(0), ci(1));
        run_outer(*o.s);
        // a store in the body
        o.s->cur = &o.loop.l->body;
        o.s->store(o.rows, cf(1.0));
        OuterLoop m;
        EXPECT_FALSE(outer_match(o.s->f, o.loop.in, &m));
    }
    {
        OuterSsa o = hoisted(ci(0), ci(1));
        run_outer(*o.s);
        // the accumulator read twice
        o.s->cur = &o.loop.l->body;
        o.s->typed(OP_MUL, {o.loop.args[0], cf(2.0)});
        OuterLoop m;
        EXPECT_FALSE(outer_match(o.s->f, o.loop.in, &m));
    }
    {
        // a runtime step: not a rewrite, not staged
        OuterSsa o = hoisted(ci(0), param(1));
        std::string before = o.s->print();
        EXPECT_EQ(run_outer(*o.s), before);
    }
}

// ---- The benchmark suite's variations at -O2 --------------------------------

CompileArgs variation(const char *kernel, const char *sig = "*fp32, *fp32, *fp32, i32, i32, i32") {
    CompileArgs a;
    a.path = std::string(MT_TEST_SOURCE_DIR) + "/../bench/suite/matmul.py";
    a.kernel = kernel;
    a.signature = sig;
    a.defines = {{"BM", "64"}, {"BN", "64"}};
    return a;
}

TEST(Outer, EveryVariationIsStaged) {
    struct {
        const char *kernel, *sig;
    } cases[] = {{"matmul_runtime_k_kernel", "*fp32, *fp32, *fp32, i32, i32, i32"},
                 {"matmul_relu_a_kernel", "*fp32, *fp32, *fp32, i32, i32, i32"},
                 {"matmul_scaled_kernel", "*fp32, *fp32, *fp32, *fp32, i32, i32, i32, fp32"},
                 {"matmul_f16_kernel", "*fp16, *fp16, *fp16, i32, i32, i32"},
                 {"matmul_hoisted_kernel", "*fp32, *fp32, *fp32, i32, i32, i32"},
                 {"matmul_scale_in_loop_kernel", "*fp32, *fp32, *fp32, i32, i32, i32, fp32"},
                 {"matmul_kmask_kernel", "*fp32, *fp32, *fp32, i32, i32, i32"}};
    for (auto &c : cases) {
        Compiled r = compile(variation(c.kernel, c.sig));
        ASSERT_TRUE(r.ok) << c.kernel << r.diagnostics;
        EXPECT_NE(r.cuda.find("runtime loop of outer products, staged through shared memory"),
                  std::string::npos)
            << c.kernel << "\n"
            << r.ssa;
        // one carried lane: the accumulator
        EXPECT_NE(r.ssa.find(" : block<64x64 x f32> {\n"), std::string::npos) << c.kernel << "\n"
                                                                              << r.ssa;
        EXPECT_EQ(r.ssa.find("ptr<f32>> {\n"), std::string::npos) << c.kernel << "\n" << r.ssa;
    }
}

TEST(Outer, O1KeepsTheCarriedPointers) {
    CompileArgs a = variation("matmul_hoisted_kernel");
    a.opt_level = 1;
    a.defines = {{"BM", "16"}, {"BN", "16"}};
    Compiled r = compile(a);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_NE(r.ssa.find("iter_args(%17 = %12, %18 = %14, %19 = %15)"), std::string::npos) << r.ssa;
}

// A row operand loaded before the loop would be read again where it is
// staged, after what the kernel stored in between: such loops are not staged.
TEST(Outer, LoadsBeforeTheLoopAreNotReadAgain) {
    CompileArgs a;
    a.path = write_kernel(
        "outer_preload", "k.py",
        kernel_text("a, s, c, K",
                    "    r = tl.arange(0, 16)[:, None]\n"
                    "    n = tl.arange(0, 16)[None, :]\n"
                    "    scale = tl.load(s + r)\n"
                    "    tl.store(s + r, scale * 2.0)\n"
                    "    acc = tl.zeros((16, 16), tl.float32)\n"
                    "    for k in range(K):\n"
                    "        acc += (tl.load(a + r * K + k) * scale) * tl.load(a + k * 16 + n)\n"
                    "    tl.store(c + r * 16 + n, acc)\n"));
    a.signature = "*fp32, *fp32, *fp32, i32";
    Compiled r = compile(a);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_EQ(r.cuda.find("runtime loop of outer products"), std::string::npos) << r.cuda;
    // the same with the scale loaded in the loop is staged
    a.path = write_kernel("outer_inload", "k.py",
                          kernel_text("a, s, c, K",
                                      "    r = tl.arange(0, 16)[:, None]\n"
                                      "    n = tl.arange(0, 16)[None, :]\n"
                                      "    acc = tl.zeros((16, 16), tl.float32)\n"
                                      "    for k in range(K):\n"
                                      "        x = tl.load(a + r * K + k) * tl.load(s + r)\n"
                                      "        acc += x * tl.load(a + k * 16 + n)\n"
                                      "    tl.store(c + r * 16 + n, acc)\n"));
    r = compile(a);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_NE(r.cuda.find("runtime loop of outer products"), std::string::npos) << r.cuda;
}

// A small tile's program is one warp: four neighbouring programs run in one
// block and share the staged chunks (emit_cuda_fma.c cuda_outer_group),
// where the row operand is the same along the grid's y and the column
// operand along its x; larger tiles keep one program per block.
TEST(Outer, SmallTilesGroupFourProgramsPerBlock) {
    CompileArgs a = variation("matmul_runtime_k_kernel");
    a.defines = {{"BM", "16"}, {"BN", "16"}};
    Compiled r = compile(a);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_NE(r.cuda.find("void matmul_runtime_k_kernel("), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("__launch_bounds__(128)\nvoid matmul_runtime_k_kernel_2x2("),
              std::string::npos)
        << r.cuda;
    EXPECT_NE(r.cuda.find("int v0 = ((int)blockIdx.x * 2 + mt_pm);"), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("__shared__ __align__(16) float mm_As[2][16][20];"), std::string::npos)
        << r.cuda;
    EXPECT_NE(r.cuda.find("if (mm_own_a) {"), std::string::npos) << r.cuda;
    a.defines = {{"BM", "64"}, {"BN", "64"}};
    r = compile(a);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_EQ(r.cuda.find("_2x2("), std::string::npos) << r.cuda;
    // 16x16 outer-product snippets k(a, b, c, K): the row operand's index
    // `row`, the loop's length `len`
    auto snippet = [](const char *tag, const char *row, const char *len) {
        CompileArgs s;
        s.path = write_kernel(
            tag, "k.py",
            kernel_text("a, b, c, K",
                        std::string("    r = ") + row +
                            "\n"
                            "    n = tl.program_id(1) * 16 + tl.arange(0, 16)[None, :]\n"
                            "    acc = tl.zeros((16, 16), tl.float32)\n"
                            "    for k in range(" +
                            len +
                            "):\n"
                            "        acc += tl.load(a + r * K + k) * tl.load(b + k * 64 + n)\n"
                            "    tl.store(c + r * 64 + n, acc)\n"));
        s.kernel = "k";
        s.signature = "*fp32, *fp32, *fp32, i32";
        return compile(s);
    };
    // a row operand that depends on tl.program_id(1): each program its own
    r = snippet("outer_pid1", "tl.program_id(1) * 16 + tl.arange(0, 16)[:, None]", "K");
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_NE(r.cuda.find("runtime loop of outer products"), std::string::npos) << r.cuda;
    EXPECT_EQ(r.cuda.find("_2x2("), std::string::npos) << r.cuda;
    // a loop whose length depends on the program: not the same in all
    r = snippet("outer_pidk", "tl.program_id(0) * 16 + tl.arange(0, 16)[:, None]",
                "K - tl.program_id(1)");
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_NE(r.cuda.find("runtime loop of outer products"), std::string::npos) << r.cuda;
    EXPECT_EQ(r.cuda.find("_2x2("), std::string::npos) << r.cuda;
    // the same kernel with the loop the same in every program is grouped
    r = snippet("outer_pidok", "tl.program_id(0) * 16 + tl.arange(0, 16)[:, None]", "K - 1");
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_NE(r.cuda.find("_2x2("), std::string::npos) << r.cuda;
}

}  // namespace
