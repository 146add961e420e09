// The op and dtype tables against the documentation, the runtime's
// conversions (mytriton/dtypes.h) against the compiler's constant rounding,
// and Triton's conversions as measured on the H200
// (scripts/triton_numerics_probe.py).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "mytriton/dtypes.h"
#include "unit_support.h"

namespace {

std::string read_file(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

TEST(Tables, LanguageReferenceListsEveryDtypeAndFunction) {
    std::string doc = read_file(std::string(MT_DOCS_DIR) + "/language.md");
    ASSERT_FALSE(doc.empty()) << "docs/language.md is missing";
    for (int d = 1; d < DT_COUNT; d++) {
        const DTypeInfo *info = dtype_info((DType)d);
        EXPECT_NE(doc.find(std::string("`tl.") + info->triton + "`"), std::string::npos)
            << info->triton;
    }
    for (int op = 0; op < OP_COUNT; op++) {
        if (op_has((Op)op, OPF_CALL)) {
            EXPECT_NE(doc.find(std::string("`tl.") + op_info((Op)op)->name), std::string::npos)
                << op_info((Op)op)->name;
        }
    }
}

// A function is one row of ops_math.def: every backend takes it by its op
// class, with no switch to edit. Each row, called on fp32 blocks, compiles
// to CUDA at -O1 and -O2, to host C and to the MLIR module.
TEST(Tables, EveryMathRowReachesEveryBackend) {
    int rows = 0;
    for (int op = 0; op < OP_COUNT; op++) {
        if (op_class((Op)op) != OC_MATH) continue;
        rows++;
        const OpInfo *info = op_info((Op)op);
        // (rows of libdevice's own version of a tl function are named libdevice.X)
        bool prefixed = std::strncmp(info->name, "libdevice.", 10) == 0;
        std::string call = std::string(prefixed                        ? ""
                                       : op_has((Op)op, OPF_LIBDEVICE) ? "libdevice."
                                                                       : "tl.") +
                           info->name + "(";
        const char *args[] = {"x", "y", "z"};
        for (int k = 0; k < info->nargs && k < 3; k++) call += std::string(k ? ", " : "") + args[k];
        call += ")";
        std::string path = mt_unit::write_kernel(
            "mathrow", "k.py",
            "import triton\nimport triton.language as tl\n"
            "from triton.language.extra import libdevice\n\n\n@triton.jit\n"
            "def k(x_ptr, y_ptr, z_ptr, o_ptr):\n    offs = tl.arange(0, 64)\n"
            "    x = tl.load(x_ptr + offs)\n    y = tl.load(y_ptr + offs)\n"
            "    z = tl.load(z_ptr + offs)\n    tl.store(o_ptr + offs, " +
                call + ")\n");
        for (int level : {1, 2}) {
            mt_options o{};
            o.path = path.c_str();
            o.kernel = "k";
            o.signature = "*fp32, *fp32, *fp32, *fp32";
            o.grid = "1";
            o.opt_level = level;
            o.backends = MT_BACKEND_CUDA | MT_BACKEND_HOST | MT_BACKEND_MLIR;
            o.python = MT_TEST_PYTHON;
            o.shim = MT_TEST_SHIM;
            mt_compilation *c = mt_compile(&o);
            EXPECT_TRUE(mt_ok(c)) << call << " -O" << level << ": " << mt_diagnostics(c);
            if (mt_ok(c)) {
                const mt_stage kinds[] = {MT_EMIT_CUDA, MT_EMIT_HOST, MT_EMIT_MLIR};
                for (mt_stage e : kinds) {
                    const char *text = mt_emit(c, e);
                    EXPECT_TRUE(text && *text)
                        << call << " -O" << level << " emit " << e << ": " << mt_diagnostics(c);
                }
            }
            mt_free(c);
        }
    }
    EXPECT_GT(rows, 20);
}

TEST(Tables, EveryDtypeHasItsSpellings) {
    for (int d = 1; d < DT_COUNT; d++) {
        const DTypeInfo *info = dtype_info((DType)d);
        EXPECT_EQ(dtype_by_triton(info->triton), d);
        EXPECT_EQ(dtype_by_sig(info->sig), d);
        EXPECT_EQ(dtype_by_ssa(info->ssa), d);
        // the compute dtype computes in itself
        EXPECT_EQ(dtype_info(info->compute)->compute, info->compute) << info->triton;
        EXPECT_NE(std::strstr(info->cuda_load, "{0}"), nullptr) << info->triton;
        EXPECT_NE(std::strstr(info->host_store, "{0}"), nullptr) << info->triton;
    }
}

TEST(Tables, EveryOpHasARuleAndAttributes) {
    for (int op = 0; op < OP_COUNT; op++) {
        const OpInfo *info = op_info((Op)op);
        // ops callable from Python have a rule of the table and a rendering
        if (op_has((Op)op, OPF_CALL)) {
            EXPECT_NE(info->rule, TR_SPECIAL) << info->name;
        }
        EXPECT_EQ(std::count(info->mlir, info->mlir + std::strlen(info->mlir), '|'), 2)
            << info->name;
    }
}

double round16(double v) { return mytriton_fp16_to_float(mytriton_fp16_from_double(v)); }

TEST(Tables, RuntimeConversionsRoundAsTheCompiler) {
    std::mt19937_64 rng(12345);
    std::uniform_real_distribution<double> mant(1.0, 2.0);
    std::uniform_int_distribution<int> ex(-30, 20);
    for (int i = 0; i < 200000; i++) {
        double v = std::ldexp(mant(rng), ex(rng)) * (i & 1 ? -1 : 1);
        ASSERT_EQ(round16(v), round_to_dtype(v, DT_F16)) << v;
        float f = (float)v;
        ASSERT_EQ((double)mytriton_bf16_to_float(mytriton_bf16_from_float(f)),
                  round_to_dtype(f, DT_BF16))
            << f;
        ASSERT_EQ((double)mytriton_bf16_to_float(mytriton_bf16_from_double((double)f)),
                  round_to_dtype(f, DT_BF16))
            << f;
        ASSERT_EQ((double)mytriton_fp8e4nv_to_float(mytriton_fp8e4nv_from_float(f)),
                  round_to_dtype(f, DT_F8E4NV))
            << f;
        ASSERT_EQ((double)mytriton_fp8e5_to_float(mytriton_fp8e5_from_float(f)),
                  round_to_dtype(f, DT_F8E5))
            << f;
    }
    // halfway cases round to even
    EXPECT_EQ(round16(1.0 + std::ldexp(1.0, -11)), 1.0);
    EXPECT_EQ(round16(1.0 + 3 * std::ldexp(1.0, -11)), 1.0 + std::ldexp(1.0, -9));
    EXPECT_EQ(round16(65519.0), 65504.0);
    EXPECT_TRUE(std::isinf(round16(65520.0)));
    EXPECT_EQ(mytriton_fp16_from_float(-0.0f).bits, 0x8000);
    EXPECT_EQ(mytriton_fp16_from_float(std::ldexp(1.0f, -24)).bits,
              0x0001);  // the smallest subnormal
    EXPECT_EQ(mytriton_fp16_from_float(std::ldexp(1.0f, -25)).bits, 0x0000);  // half of it: to even
}

// f32 values and what Triton 3.6 stored for each cast on the H200.
const float probe[] = {NAN,     INFINITY, -INFINITY, 1e10f,    -1e10f,   300.5f,
                       -300.5f, 127.9f,   -128.9f,   65519.0f, 65520.0f, 1e6f,
                       500.0f,  57344.0f, 61440.0f,  3.0e-5f,  -0.0f};

TEST(Tables, CastsMatchTritonOnTheGpu) {
    const int64_t i8[] = {0, -1, 0, -1, 0, 44, -44, 127, -128, -1, -1, -1, -12, -1, -1, 0, 0};
    const int64_t i16[] = {0,     32767, -32768, 32767, -32768, 300,   -300, 127, -128,
                           32767, 32767, 32767,  500,   32767,  32767, 0,    0};
    const int64_t u8[] = {0, 255, 0, 255, 0, 44, 0, 127, 0, 239, 240, 255, 244, 0, 0, 0, 0};
    const int64_t i64[] = {
        INT64_MIN, INT64_MAX, INT64_MIN, 10000000000LL, -10000000000LL, 300,   -300, 127, -128,
        65519,     65520,     1000000,   500,           57344,          61440, 0,    0};
    const int fp8e4nv[] = {127, 126, 254, 126, 254, 121, 249, 112, 240,
                           126, 126, 126, 126, 126, 126, 0,   128};
    const int fp8e5[] = {127, 123, 251, 123, 251, 93,  221, 88, 216,
                         123, 123, 123, 96,  123, 123, 2,   128};
    for (size_t k = 0; k < sizeof probe / sizeof probe[0]; k++) {
        float v = probe[k];
        ConstVal c = const_f32(v);
        EXPECT_EQ(const_convert(c, DT_I16).i, i16[k]) << v;
        EXPECT_EQ(const_convert(c, DT_I64).i, i64[k]) << v;
        EXPECT_EQ(const_convert(c, DT_I8).i, i8[k]) << v;
        EXPECT_EQ(const_convert(c, DT_U8).i, u8[k]) << v;
        double r8 = mytriton_fp8e4nv_to_float(mytriton_fp8e4nv_from_float(v));
        if (std::isnan(v)) EXPECT_TRUE(std::isnan(const_convert(c, DT_F8E4NV).f));
        else EXPECT_EQ(const_convert(c, DT_F8E4NV).f, r8) << v;
        // 8-bit results: the GPU converts to 16 bits, then truncates
        EXPECT_EQ((int8_t)mytriton_f2i(v, -32768, 32767), i8[k]) << v;
        EXPECT_EQ((uint8_t)mytriton_f2u(v, 65535), u8[k]) << v;
        EXPECT_EQ(mytriton_f2i64(v), i64[k]) << v;
        EXPECT_EQ(mytriton_fp8e4nv_from_float(v).bits, fp8e4nv[k]) << v;
        EXPECT_EQ(mytriton_fp8e5_from_float(v).bits, fp8e5[k]) << v;
    }
}

}  // namespace

namespace {

// The reader finds a node's kind by binary search: the table must be sorted.
TEST(Tables, EveryPythonNodeKindIsFound) {
    const char *names[] = {
#define PK(name) #name,
#include "frontend/pyast_kinds.def"
#undef PK
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        EXPECT_EQ(pyast_kind_of(names[i]), (PyKind)(i + 1)) << names[i];
    EXPECT_EQ(pyast_kind_of("NotAKind"), PK_OTHER);
}

}  // namespace
