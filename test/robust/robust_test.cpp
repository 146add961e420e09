// Robustness (issue 9):
//
//   HostileNames.*   kernels whose names and parameter names collide with C,
//                    C++ and CUDA keywords and builtins, with the headers'
//                    macros and with the names the generated code uses, at
//                    -O1 and -O2: every generated translation unit compiles
//                    (NAME.cu with nvcc -arch=sm_90 when nvcc exists,
//                    NAME_host.c and NAME_mlir.c as strict C11 with -Wall
//                    -Wextra -Werror -Wshadow, NAME.cu against test/emu's CPU
//                    CUDA as C++ with -Wshadow -Werror: no local of the
//                    generated code shadows a parameter)
//   Limits.*         big constants, oversized shapes, 10^4 statements, loops
//                    nested 64 deep, 100 000-character lines, deep nesting,
//                    huge unrolling: each compiles or is a diagnostic, never
//                    a crash (ctest's TIMEOUT catches hangs; no timing asserts,
//                    the times are printed)
//   Determinism.*    every conformance kernel compiled twice, from different
//                    working directories, with relative and absolute kernel
//                    and output paths and another environment: the same bytes
//                    in every file and on stdout, and no path in them
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <dirent.h>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "conformance_cases.h"
#include "process.h"

namespace {

using mt_test::ProcessResult;
using mt_test::run_process;

using ConformanceCase = mt_test::ConformanceCase;

const std::vector<ConformanceCase> &conformance_cases() { return mt_test::conformance_cases(); }

bool have(const char *tool) { return tool[0] != 0 && mt_test::file_exists(tool); }

// mytritonc with the test's Python.
ProcessResult mytritonc(std::vector<std::string> args, const std::vector<std::string> &env = {}) {
    args.insert(args.begin(), MT_TEST_COMPILER);
    args.insert(args.end(), {"--python", MT_TEST_PYTHON});
    return run_process(args, env);
}

std::string describe(const ProcessResult &r) {
    return "status " + std::to_string(r.status) + "\n" + r.out + r.err;
}

// The files of a directory, name -> contents.
std::map<std::string, std::string> files_in(const std::string &dir) {
    std::map<std::string, std::string> files;
    DIR *d = opendir(dir.c_str());
    if (!d) return files;
    for (dirent *e; (e = readdir(d));) {
        std::string name = e->d_name;
        if (name == "." || name == "..") continue;
        files[name] = mt_test::read_file(dir + "/" + name);
    }
    closedir(d);
    return files;
}

// ---- Hostile names ------------------------------------------------------------

struct Hostile {
    const char *name;    // the test's name
    const char *kernel;  // the Python function
    const char *params;  // its parameter list
    const char *signature;
    std::vector<std::string> defines;
    const char *grid;  // nullptr: none
    const char *body;
    int level;
};

const char *kElementwiseBody =
    "    pid = tl.program_id(0)\n"
    "    offs = pid * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offs < threadIdx\n"
    "    v = tl.load(this + offs, mask=mask, other=0.0)\n"
    "    acc = tl.zeros((BLOCK,), tl.float32)\n"
    "    for k in range(blockIdx):\n"
    "        acc += v * k\n"
    "    w = tl.where(v > 0.0, tl.exp(v), tl.maximum(v, -1.0))\n"
    "    s = stream + grid + i + j + t + err + int_kernel + launch_int + int_args + EOF + M_PI + INT32_MAX + errno\n"
    "    tl.store(new + offs, acc + w + s + tl.sum(acc), mask=mask)\n";
const char *kElementwiseParams =
    "this, new, threadIdx, blockIdx, stream, grid, i, j, t, err, int_kernel, launch_int, int_args, EOF, M_PI, "
    "INT32_MAX, errno, BLOCK: tl.constexpr";
const char *kElementwiseSig =
    "*fp32, *fp32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32";

const char *kReductionBody =
    "    row = tl.program_id(0)\n"
    "    cols = tl.arange(0, BLOCK)\n"
    "    x = tl.load(float4 + row * q + cols, mask=cols < q, other=-float('inf'))\n"
    "    m = tl.max(x, axis=0)\n"
    "    e = tl.exp(x - m)\n"
    "    s = tl.sum(e, axis=0)\n"
    "    tl.store(int4 + row * q + cols, e / s + r + off + reduce_smem_1 + tile_i + lane + warp, mask=cols < q)\n";
const char *kReductionParams =
    "float4, int4, r, off, q, reduce_smem_1, tile_i, lane, warp, BLOCK: tl.constexpr";
const char *kReductionSig = "*fp32, *fp32, fp32, fp32, i32, fp32, fp32, fp32, fp32";

const char *kMatmulBody =
    "    pid_m = tl.program_id(0)\n"
    "    pid_n = tl.program_id(1)\n"
    "    offs_m = pid_m * BM + tl.arange(0, BM)[:, None]\n"
    "    offs_n = pid_n * BN + tl.arange(0, BN)[None, :]\n"
    "    c_offsets = offs_m * N + offs_n\n"
    "    c_mask = (offs_m < M) & (offs_n < N)\n"
    "    acc = tl.zeros((BM, BN), tl.float32)\n"
    "    for k in range(K):\n"
    "        a_values = tl.load(t + offs_m * K + k, mask=offs_m < M, other=0.0)\n"
    "        b_values = tl.load(mm_As + k * N + offs_n, mask=offs_n < N, other=0.0)\n"
    "        acc += a_values * b_values\n"
    "    tl.store(tx + c_offsets, acc, mask=c_mask)\n";
const char *kMatmulParams = "t, mm_As, tx, M, N, K, BM: tl.constexpr, BN: tl.constexpr";
const char *kMatmulSig = "*fp32:16, *fp32:16, *fp32:16, i32, i32, i32";

const char *kVectorBody =
    "    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    m = o < n\n"
    "    tl.store(uintptr_t + o, tl.load(x + o, mask=m) + tl.load(x_al16 + o, mask=m), mask=m)\n";
const char *kVectorParams = "x, x_al16, uintptr_t, n, BLOCK: tl.constexpr";
const char *kVectorSig = "*fp32:16, *fp32:16, *fp32:16, i32";

const char *kTileBody =
    "    rm = tl.program_id(0) * BM + tl.arange(0, BM)\n"
    "    rn = tl.program_id(1) * BN + tl.arange(0, BN)\n"
    "    mask = (rm[:, None] < M) & (rn[None, :] < N)\n"
    "    off = rm[:, None] * N + rn[None, :]\n"
    "    a = tl.load(args + off, mask=mask, other=0.0)\n"
    "    tl.store(ctx + off, a * pid_x + ty + tile_j, mask=mask)\n";
const char *kTileParams = "args, ctx, pid_x, M, N, ty, tile_j, BM: tl.constexpr, BN: tl.constexpr";
const char *kTileSig = "*fp32, *fp32, fp32, i32, i32, fp32, fp32";

const std::vector<Hostile> &hostile_kernels() {
    static const std::vector<Hostile> all = {
        {"ElementwiseKernelInt_O1",
         "int",
         kElementwiseParams,
         kElementwiseSig,
         {"BLOCK=256"},
         "cdiv(threadIdx, BLOCK)",
         kElementwiseBody,
         1},
        {"ElementwiseKernelInt_O2",
         "int",
         kElementwiseParams,
         kElementwiseSig,
         {"BLOCK=256"},
         "cdiv(threadIdx, BLOCK)",
         kElementwiseBody,
         2},
        {"ReductionKernelNew_O1",
         "new_kernel",
         kReductionParams,
         kReductionSig,
         {"BLOCK=256"},
         nullptr,
         kReductionBody,
         1},
        {"ReductionKernelNew_O2",
         "new_kernel",
         kReductionParams,
         kReductionSig,
         {"BLOCK=1024"},
         nullptr,
         kReductionBody,
         2},
        {"MatmulKernelThis_O1",
         "this",
         kMatmulParams,
         kMatmulSig,
         {"BM=16", "BN=16"},
         "cdiv(M, BM), cdiv(N, BN)",
         kMatmulBody,
         1},
        {"MatmulKernelThis_O2",
         "this",
         kMatmulParams,
         kMatmulSig,
         {"BM=64", "BN=64"},
         "cdiv(M, BM), cdiv(N, BN)",
         kMatmulBody,
         2},
        {"VectorKernelThreadIdx_O1",
         "threadIdx_kernel",
         kVectorParams,
         kVectorSig,
         {"BLOCK=1024"},
         "cdiv(n, BLOCK)",
         kVectorBody,
         1},
        {"VectorKernelThreadIdx_O2",
         "threadIdx_kernel",
         kVectorParams,
         kVectorSig,
         {"BLOCK=4096"},
         "cdiv(n, BLOCK)",
         kVectorBody,
         2},
        {"TileKernelMain_O1",
         "main",
         kTileParams,
         kTileSig,
         {"BM=16", "BN=32"},
         "cdiv(M, BM), cdiv(N, BN)",
         kTileBody,
         1},
        {"TileKernelMain_O2",
         "main",
         kTileParams,
         kTileSig,
         {"BM=64", "BN=64"},
         "cdiv(M, BM), cdiv(N, BN)",
         kTileBody,
         2},
    };
    return all;
}

std::string kernel_file(const char *kernel, const char *params, const char *body) {
    return std::string("import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef ") +
           kernel + "(" + params + "):\n" + body;
}

std::vector<std::string> options(const Hostile &h, const std::string &path, int level) {
    std::vector<std::string> a = {path,          "--kernel",  h.kernel,
                                  "--signature", h.signature, "-O" + std::to_string(level)};
    for (const std::string &d : h.defines) a.insert(a.end(), {"-D", d});
    if (h.grid) a.insert(a.end(), {"--grid", h.grid});
    return a;
}

// mlir-opt's output as NAME_mlir.c expects it: one gpu.binary whose PTX
// has `.entry NAME_kernel` with one .param per runtime parameter.
std::string synthetic_binary(const std::string &name, int nparams) {
    std::string b = "gpu.binary @kernels [#gpu.object<#nvvm.target, assembly = \".visible .entry " +
                    name + "_kernel(\\0A";
    for (int i = 0; i < nparams; i++)
        b += "\\09.param .u64 p" + std::to_string(i) + (i + 1 < nparams ? ",\\0A" : "\\0A");
    return b + ")\\0A{\\0A\\09ret;\\0A}\\0A\\00\">]\n";
}

int signature_entries(const std::string &sig) {
    return sig.empty() ? 0 : 1 + (int)std::count(sig.begin(), sig.end(), ',');
}

// NAME.cu for test/emu's CPU CUDA: launches become mt_emu::launch calls.
std::string emu_source(const std::string &cu) {
    static const std::regex launch("([A-Za-z_][A-Za-z_0-9]*)<<<([^\n]*)>>>\\(");
    return std::regex_replace(cu, launch, "mt_emu::launch($1, $2)(");
}

enum class Part { Portable, Nvcc };

// A generated NAME.cu waiting for nvcc: its folder and NAME.
struct CudaUnit {
    std::string dir, name;
};

// Compiles the translation units generated for `kernel_text`: Portable,
// NAME_host.c, NAME.cu against the CPU emulation and NAME_mlir.c; Nvcc,
// NAME.cu with nvcc, or, given `later`, adds it there for one nvcc run of
// several units (compile_units_with_nvcc). A failure names the compiler's
// output.
void compile_generated(const std::string &tag, const std::string &kernel_text, const Hostile &h,
                       int level, Part part, std::vector<CudaUnit> *later = nullptr) {
    std::string dir = mt_test::make_temp_dir(tag);
    std::string path = dir + "/k.py";
    mt_test::write_file(path, kernel_text);
    std::string runtime = MT_ROBUST_RUNTIME_INCLUDE;

    // CUDA: NAME.cu with nvcc, or against the CPU emulation (-Wshadow)
    auto a = options(h, path, level);
    a.insert(a.end(), {"--backends", "cuda", "-o", dir + "/cuda"});
    auto r = mytritonc(a);
    ASSERT_EQ(r.status, 0) << describe(r);
    std::string name;
    for (auto &f : files_in(dir + "/cuda"))
        if (f.first.size() > 3 && f.first.compare(f.first.size() - 3, 3, ".cu") == 0)
            name = f.first.substr(0, f.first.size() - 3);
    ASSERT_FALSE(name.empty()) << "no NAME.cu in " << dir << "/cuda";
    if (part == Part::Nvcc && later) {
        later->push_back({dir + "/cuda", name});
        return;
    }
    if (part == Part::Nvcc) {
        auto nvcc =
            run_process({MT_ROBUST_NVCC, "-arch=sm_90", "-c", dir + "/cuda/" + name + ".cu", "-I",
                         dir + "/cuda", "-I", runtime, "-o", dir + "/cuda/" + name + ".o"});
        EXPECT_EQ(nvcc.status, 0) << name << ".cu:\n" << describe(nvcc);
        return;
    }
    std::string cu = mt_test::read_file(dir + "/cuda/" + name + ".cu");
    mt_test::write_file(dir + "/cuda/" + name + "_emu.cpp", emu_source(cu));
    auto emu = run_process({MT_ROBUST_CXX, "-std=c++17", "-fsyntax-only", "-Wshadow", "-Werror",
                            "-isystem", MT_ROBUST_FAKE_CUDA, "-I", dir + "/cuda", "-I", runtime,
                            dir + "/cuda/" + name + "_emu.cpp"});
    EXPECT_EQ(emu.status, 0) << name << ".cu against the CPU emulation:\n" << describe(emu);

    // host C: strict C11, warnings as errors, no shadowing
    a = options(h, path, level);
    a.insert(a.end(), {"--backends", "host", "-o", dir + "/host"});
    r = mytritonc(a);
    ASSERT_EQ(r.status, 0) << describe(r);
    auto cc = run_process({MT_ROBUST_CC, "-std=c11", "-Wall", "-Wextra", "-Werror", "-Wshadow",
                           "-c", dir + "/host/" + name + "_host.c", "-I", dir + "/host", "-I",
                           runtime, "-o", dir + "/host/" + name + "_host.o"});
    EXPECT_EQ(cc.status, 0) << name << "_host.c:\n" << describe(cc);

    // the MLIR backend's launcher, when the module covers the kernel
    if (!MT_ROBUST_CUDA_INCLUDE[0]) return;
    a = options(h, path, level);
    a.insert(a.end(), {"--backends", "mlir", "-o", dir + "/mlir"});
    r = mytritonc(a);
    if (r.status != 0) {
        EXPECT_NE(r.err.find("the MLIR backend does not cover"), std::string::npos) << describe(r);
        return;
    }
    mt_test::write_file(dir + "/binary.mlir",
                        synthetic_binary(name, signature_entries(h.signature)));
    a = options(h, path, level);
    a.insert(a.end(),
             {"--backends", "mlir", "--mlir-binary", dir + "/binary.mlir", "-o", dir + "/mlir"});
    r = mytritonc(a);
    ASSERT_EQ(r.status, 0) << describe(r);
    auto mc =
        run_process({MT_ROBUST_CC, "-std=c11", "-Wall", "-Wextra", "-Werror", "-Wshadow", "-c",
                     dir + "/mlir/" + name + "_mlir.c", "-I", dir + "/mlir", "-I", runtime, "-I",
                     MT_ROBUST_CUDA_INCLUDE, "-o", dir + "/mlir/" + name + "_mlir.o"});
    EXPECT_EQ(mc.status, 0) << name << "_mlir.c:\n" << describe(mc);
}

class HostileNames : public ::testing::TestWithParam<size_t> {};

TEST_P(HostileNames, PortableUnitsCompile) {
    const Hostile &h = hostile_kernels()[GetParam()];
    compile_generated(std::string("robust_") + h.name, kernel_file(h.kernel, h.params, h.body), h,
                      h.level, Part::Portable);
}

TEST_P(HostileNames, CudaUnitCompilesWithNvcc) {
    if (!have(MT_ROBUST_NVCC)) GTEST_SKIP() << "no nvcc";
    const Hostile &h = hostile_kernels()[GetParam()];
    compile_generated(std::string("robust_nvcc_") + h.name, kernel_file(h.kernel, h.params, h.body),
                      h, h.level, Part::Nvcc);
}

INSTANTIATE_TEST_SUITE_P(Kernels, HostileNames,
                         ::testing::Range<size_t>(0, hostile_kernels().size()),
                         [](const ::testing::TestParamInfo<size_t> &info) {
                             return std::string(hostile_kernels()[info.param].name);
                         });

// Kernel names alone: each kernel's symbol, launcher, registry entry and
// host structures derive from NAME (level alternating: they do not depend
// on it).
const char *const kKernelNames[] = {
    "float4_kernel", "grid", "stream",        "v3",       "tile_i", "mm_As", "reduce_smem_1",
    "launch",        "dim3", "mytriton_grid", "_Bool",    "NULL",   "ty",    "cudaStream_t",
    "__global__",    "auto", "template",      "tx_kernel"};

// The units of `units` compiled by one nvcc -arch=sm_90 -c run, as one
// translation unit that includes every NAME.cu (as CMAKE_UNITY_BUILD puts
// the generated units of a kernel library together): nvcc's fixed cost,
// the CUDA headers, once. They share no file-scope name, and each includes
// what it uses (the same headers, first in every unit). When that run
// fails, each unit is compiled alone, to name the one nvcc rejects.
void compile_units_with_nvcc(const std::string &tag, const std::vector<CudaUnit> &units) {
    std::string dir = mt_test::make_temp_dir(tag);
    std::string all;
    std::vector<std::string> args = {MT_ROBUST_NVCC, "-arch=sm_90", "-c", dir + "/all.cu"};
    for (const CudaUnit &u : units) {
        all += "#include \"" + u.dir + "/" + u.name + ".cu\"\n";
        args.insert(args.end(), {"-I", u.dir});
    }
    mt_test::write_file(dir + "/all.cu", all);
    args.insert(args.end(), {"-I", MT_ROBUST_RUNTIME_INCLUDE, "-o", dir + "/all.o"});
    auto nvcc = run_process(args);
    if (nvcc.status == 0) return;
    ADD_FAILURE() << units.size() << " units in one translation unit (" << dir << "/all.cu):\n"
                  << describe(nvcc);
    for (const CudaUnit &u : units) {
        auto one = run_process({MT_ROBUST_NVCC, "-arch=sm_90", "-c", u.dir + "/" + u.name + ".cu",
                                "-I", u.dir, "-I", MT_ROBUST_RUNTIME_INCLUDE, "-o",
                                u.dir + "/" + u.name + ".o"});
        EXPECT_EQ(one.status, 0) << u.name << ".cu:\n" << describe(one);
    }
}

void compile_kernel_names(Part part) {
    std::vector<CudaUnit> units;
    int index = 0;
    for (const char *kernel : kKernelNames) {
        int level = 1 + index++ % 2;
        Hostile h = {"",
                     kernel,
                     "x, k_kernel, n, BLOCK: tl.constexpr",
                     "*fp32, i32, i32",
                     {"BLOCK=128"},
                     "cdiv(n, BLOCK)",
                     "    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                     "    tl.store(x + o, tl.load(x + o, mask=o < n) + k_kernel, mask=o < n)\n",
                     level};
        SCOPED_TRACE(std::string(kernel) + " at -O" + std::to_string(level));
        compile_generated(
            std::string(part == Part::Nvcc ? "robust_kname_nvcc_" : "robust_kname_") + kernel,
            kernel_file(kernel, h.params, h.body), h, level, part, &units);
    }
    if (part == Part::Nvcc) compile_units_with_nvcc("robust_kname_nvcc_all", units);
}

TEST(HostileNames, KernelNamesPortableUnits) { compile_kernel_names(Part::Portable); }

// The 18 NAME.cu in one nvcc run (compile_units_with_nvcc).
TEST(HostileNames, KernelNamesNvcc) {
    if (!have(MT_ROBUST_NVCC)) GTEST_SKIP() << "no nvcc";
    compile_kernel_names(Part::Nvcc);
}

// A NAME whose header would hide a system header is a diagnostic.
TEST(HostileNames, NameThatHidesASystemHeader) {
    std::string dir = mt_test::make_temp_dir("robust_sysheader");
    std::string path = dir + "/k.py";
    mt_test::write_file(path, kernel_file("stdint_kernel", "x", "    tl.store(x, 1.0)\n"));
    auto r =
        mytritonc({path, "--kernel", "stdint_kernel", "--signature", "*fp32", "-o", dir + "/out"});
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(
        r.err,
        path +
            ": error: 'stdint' cannot name the generated files: stdint.h, on the include path of the "
            "generated code, would hide the system header <stdint.h> (pass --name with another name)\n");
    r = mytritonc(
        {path, "--kernel", "stdint_kernel", "--signature", "*fp32", "--name", "cuda_runtime"});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("<cuda_runtime.h>"), std::string::npos) << r.err;
    r = mytritonc({path, "--kernel", "stdint_kernel", "--signature", "*fp32", "--name", "my_stdint",
                   "-o", dir + "/out"});
    EXPECT_EQ(r.status, 0) << describe(r);
}

// The kernel file's name goes into comments and the registry: a newline
// in it must not end a // comment.
TEST(HostileNames, FileNameWithControlCharacters) {
    std::string dir = mt_test::make_temp_dir("robust_filename");
    std::string path = dir + "/evil\nint injected = 1;\n\t.py";
    mt_test::write_file(path, kernel_file("k", "x", "    tl.store(x, 1.0)\n"));
    auto r = mytritonc({path, "--kernel", "k", "--signature", "*fp32", "--backends", "cuda,host",
                        "-o", dir + "/out"});
    ASSERT_EQ(r.status, 0) << describe(r);
    for (const char *f : {"/out/k.cu", "/out/k.h", "/out/k_host.c"}) {
        std::string text = mt_test::read_file(dir + f);
        EXPECT_NE(text.find("evil?int injected = 1;??.py"), std::string::npos) << f;
        EXPECT_EQ(text.find("\nint injected"), std::string::npos) << f;
    }
    r = mytritonc(
        {path, "--kernel", "k", "--signature", "*fp32", "--backends", "host", "-o", dir + "/host"});
    ASSERT_EQ(r.status, 0) << describe(r);
    auto cc = run_process({MT_ROBUST_CC, "-std=c11", "-Wall", "-Wextra", "-Werror", "-c",
                           dir + "/host/k_host.c", "-I", dir + "/host", "-I",
                           MT_ROBUST_RUNTIME_INCLUDE, "-o", dir + "/host/k_host.o"});
    EXPECT_EQ(cc.status, 0) << describe(cc);
}

// ---- Limits ----------------------------------------------------------------------

struct Outcome {
    int status;
    std::string err;
    double seconds;
};

// Compiles `text` (kernel k(x, out, n, BLOCK)) at `level` with the CUDA and
// host backends; never a crash: exit status 0, or 1 with a diagnostic.
Outcome compile_text(const std::string &tag, const std::string &text, int level,
                     const std::vector<std::string> &extra = {}) {
    std::string dir = mt_test::make_temp_dir(tag);
    std::string path = dir + "/k.py";
    mt_test::write_file(path, text);
    std::vector<std::string> a = {path,
                                  "--kernel",
                                  "k",
                                  "--signature",
                                  "*fp32, *fp32, i32",
                                  "-D",
                                  "BLOCK=128",
                                  "-O" + std::to_string(level),
                                  "--backends",
                                  "cuda,host",
                                  "-o",
                                  dir + "/out"};
    a.insert(a.end(), extra.begin(), extra.end());
    auto t0 = std::chrono::steady_clock::now();
    auto r = mytritonc(a);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("    %-28s -O%d: %.2f s, exit %d\n", tag.c_str(), level, s, r.status);
    EXPECT_TRUE(r.status == 0 || r.status == 1) << tag << ": " << describe(r);
    if (r.status == 1) {
        EXPECT_NE(r.err.find(": error: "), std::string::npos) << r.err;
    } else {
        EXPECT_EQ(r.err, "");
        EXPECT_TRUE(mt_test::file_exists(dir + "/out/k.cu")) << tag;
    }
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
    return {r.status, r.err, s};
}

const std::string kHead =
    "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(x, out, n, BLOCK: tl.constexpr):\n";
const std::string kPrologue =
    "    offs = tl.arange(0, BLOCK)\n    v = tl.load(x + offs)\n    acc = tl.zeros((BLOCK,), tl.float32)\n";
const std::string kEpilogue = "    tl.store(out + offs, acc)\n";

std::string repeat(const std::string &s, int n) {
    std::string r;
    for (int i = 0; i < n; i++) r += s;
    return r;
}

void expect_compiles(const std::string &tag, const std::string &text) {
    for (int level = 1; level <= 2; level++)
        EXPECT_EQ(compile_text(tag, text, level).status, 0) << tag;
}

void expect_diagnostic(const std::string &tag, const std::string &text, const std::string &message,
                       const std::vector<std::string> &extra = {}) {
    for (int level = 1; level <= 2; level++) {
        Outcome o = compile_text(tag, text, level, extra);
        EXPECT_EQ(o.status, 1) << tag;
        EXPECT_NE(o.err.find(message), std::string::npos) << tag << ": " << o.err;
    }
}

TEST(Limits, ConstantsOutsideI32) {
    auto kernel = [](const std::string &expr) {
        return kHead + "    offs = tl.arange(0, BLOCK)\n    tl.store(out + offs, (n + " + expr +
               ") * 1.0)\n";
    };
    expect_compiles("const_int32_min", kernel("-2147483648"));
    expect_compiles("const_int32_max", kernel("2147483647"));
    // a literal takes the block's dtype (Triton's weak scalars): out of its range is an error
    expect_diagnostic("const_2p31", kernel("2147483648"),
                      "the scalar 2147483648 is out of range for i32");
    expect_diagnostic("const_minus_2p31_minus_1", kernel("-2147483649"), "is out of range for i32");
    expect_diagnostic("const_2p63", kernel("9223372036854775808"),
                      "the scalar 9223372036854775808 is out of range for i32");
    expect_diagnostic("const_70_digits", kernel(std::string(70, '9')), "is too large");
    // an f64 literal stored through an f32 pointer converts, as Triton's store (to inf)
    expect_compiles("const_float_1e39", kHead + "    tl.store(out, 1e39)\n");
    expect_compiles("const_float_inf", kHead + "    tl.store(out, float('inf'))\n");
    // compile-time arithmetic is 64-bit: its overflow is a diagnostic
    expect_diagnostic("const_ct_overflow", kernel("9223372036854775807 * 2"), "integer overflow");
    // constexprs beyond i32 and beyond 64 bits
    const std::string ck =
        "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
        "def k(x, out, n, BLOCK: tl.constexpr, C: tl.constexpr):\n    tl.store(out, (n + C) * 1.0)\n";
    expect_diagnostic("constexpr_2p40", ck, "is out of range for i32", {"-D", "C=1099511627776"});
    expect_diagnostic("constexpr_2p64", ck, "-D C=", {"-D", "C=18446744073709551616"});
}

TEST(Limits, OversizedShapes) {
    expect_diagnostic("arange_2p21", kHead + "    tl.store(out + tl.arange(0, 2097152), 1.0)\n",
                      "exceeds the limit");
    expect_diagnostic("zeros_2p40", kHead + "    acc = tl.zeros((1048576, 1048576), tl.float32)\n",
                      "exceeds the limit");
    expect_diagnostic(
        "broadcast_2p40",
        kHead +
            "    o = tl.arange(0, 1048576)[:, None] + tl.arange(0, 1048576)[None, :]\n"
            "    tl.store(out + o, 1.0)\n",
        "more than the limit");
    expect_diagnostic("tile_2p17", kHead + "    tl.store(out + tl.arange(0, 131072), 1.0)\n",
                      "the tile (131072,)");
    expect_diagnostic("zeros_empty", kHead + "    acc = tl.zeros((0, 4), tl.float32)\n",
                      "between 1 and");
    // the largest -O2 tile compiles there
    EXPECT_EQ(compile_text("tile_2p16", kHead + "    tl.store(out + tl.arange(0, 65536), 1.0)\n", 2)
                  .status,
              0);
}

TEST(Limits, TenThousandStatements) {
    expect_compiles("straight_1e4",
                    kHead + kPrologue + repeat("    acc = acc * 1.0001 + v\n", 10000) + kEpilogue);
    expect_compiles("loop_1e4", kHead + kPrologue + "    for i in range(n):\n" +
                                    repeat("        acc = acc * 1.0001 + v\n", 10000) + kEpilogue);
    expect_compiles("stores_1e4",
                    kHead + kPrologue + repeat("    tl.store(out + offs, v)\n", 10000));
}

TEST(Limits, LoopsNested64Deep) {
    std::string body;
    for (int d = 0; d < 64; d++)
        body += std::string(4 * (d + 1), ' ') + "for i" + std::to_string(d) + " in range(n):\n";
    body += std::string(4 * 65, ' ') + "acc = acc + v\n";
    expect_compiles("loops_64", kHead + kPrologue + body + kEpilogue);
    // Python itself stops at 100 indentation levels
    body.clear();
    for (int d = 0; d < 100; d++)
        body += std::string(d + 1, ' ') + "for i" + std::to_string(d) + " in range(n):\n";
    body += std::string(101, ' ') + "acc = acc + v\n";
    expect_diagnostic("loops_100", kHead + kPrologue + body + kEpilogue, "Python syntax error");
}

TEST(Limits, LinesOf100000Characters) {
    // a wide line compiles: a tuple of 20000 constants
    std::string tuple;
    for (int i = 0; tuple.size() < 100000; i++) tuple += std::to_string(i % 10) + ", ";
    expect_compiles("line_tuple_100k", kHead + kPrologue + "    t = (" + tuple +
                                           ")\n    acc = acc + len(t)\n" + kEpilogue);
    // a comment and a string of 100 000 characters
    expect_compiles("line_comment_100k",
                    kHead + kPrologue + "    # " + std::string(100000, 'c') + "\n" + kEpilogue);
    expect_compiles("line_string_100k",
                    kHead + kPrologue + "    s = '" + std::string(100000, 's') + "'\n" + kEpilogue);
    // a chain of 25000 additions is too deep: a diagnostic
    std::string chain = "v";
    while (chain.size() < 100000) chain += " + v";
    expect_diagnostic("line_chain_100k",
                      kHead + kPrologue + "    acc = " + chain + "\n" + kEpilogue, "nested");
}

TEST(Limits, DeeplyNestedExpressions) {
    auto chain = [](int n) {
        std::string c = "v";
        for (int i = 1; i < n; i++) c += " + v";
        return kHead + kPrologue + "    acc = " + c + "\n" + kEpilogue;
    };
    expect_compiles("chain_900", chain(900));
    expect_diagnostic("chain_1500", chain(1500), "nested more than 1000 levels");
    expect_diagnostic("chain_3000", chain(3000), "nested more than 1900 levels");
    expect_diagnostic("chain_50000", chain(50000), "nested too deeply");
    auto parens = [](int n) {
        return kHead + kPrologue + "    acc = " + std::string(n, '(') + "v" + std::string(n, ')') +
               "\n" + kEpilogue;
    };
    expect_compiles("parens_150", parens(150));
    expect_diagnostic("parens_250", parens(250), "too many nested parentheses");
    // a deep chain of compile-time arithmetic
    std::string ct = "1";
    for (int i = 0; i < 400; i++) ct += " * 2 // 2";
    expect_compiles("ct_chain_800",
                    kHead + kPrologue + "    acc = acc + (" + ct + ")\n" + kEpilogue);
}

TEST(Limits, HugeStaticRange) {
    auto unrolled = [](const std::string &range, const std::string &stmt) {
        return kHead + kPrologue + "    for i in tl.static_range(" + range + "):\n        " + stmt +
               "\n" + kEpilogue;
    };
    expect_compiles("static_1e4_chain", unrolled("10000", "acc = acc * 1.0001 + v"));
    expect_compiles("static_1e4_stores", unrolled("10000", "tl.store(out + offs + i, v)"));
    expect_diagnostic("static_1e5_chain", unrolled("100000", "acc = acc * 1.0001 + v"),
                      "dependent operations");
    expect_diagnostic("static_1e6_stores", unrolled("1000000", "tl.store(out + offs + i, v)"),
                      "grows past");
    expect_diagnostic("static_1e9", unrolled("1000000000", "acc = acc + v"),
                      "unrolls 1000000000 iterations");
    // nested compile-time loops multiply
    expect_diagnostic("static_nested",
                      kHead + kPrologue +
                          "    for i in tl.static_range(2000):\n"
                          "        for j in tl.static_range(2000):\n"
                          "            tl.store(out + offs + i + j, v)\n",
                      "grows past");
}

// ---- Determinism -------------------------------------------------------------------

std::string relative_path(const std::string &from_dir, const std::string &to) {
    // both absolute: climb to the root, then down
    std::string up;
    for (char c : from_dir)
        if (c == '/') up += "../";
    return up + to.substr(1);
}

TEST(Determinism, SameBytesFromOtherDirectoriesPathsAndEnvironments) {
    std::string root = mt_test::make_temp_dir("robust_determinism");
    std::string a = root + "/a", b = root + "/b/c/d";
    ASSERT_EQ(system(("mkdir -p " + a + " " + b).c_str()), 0);
    int compared = 0;
    for (const ConformanceCase &c : conformance_cases())
        for (int level = 1; level <= 2; level++) {
            SCOPED_TRACE(std::string(c.name) + " at -O" + std::to_string(level));
            std::string kernel = std::string(MT_TEST_SOURCE_DIR) + "/conformance/" + c.file;
            std::vector<std::string> common = {"--kernel",
                                               c.kernel,
                                               "--signature",
                                               c.signature,
                                               "-O" + std::to_string(level),
                                               "--backends",
                                               "cuda,host,mlir",
                                               "--emit=ast",
                                               "--emit=expr",
                                               "--emit=ssa",
                                               "--emit=cuda",
                                               "--emit=header",
                                               "--emit=host",
                                               "--emit=mlir"};
            for (const std::string &d : c.defines) common.insert(common.end(), {"-D", d});
            if (c.grid) common.insert(common.end(), {"--grid", c.grid});
            std::string tag = std::string(c.name) + "_O" + std::to_string(level);
            // run 1: absolute paths, from directory a
            std::vector<std::string> args1 = {
                "sh", "-c", "cd \"$0\" && exec \"$@\"", a, MT_TEST_COMPILER, kernel};
            args1.insert(args1.end(), common.begin(), common.end());
            args1.insert(args1.end(), {"--python", MT_TEST_PYTHON, "-o", a + "/" + tag});
            auto r1 = run_process(args1, {"LC_ALL=C", "PYTHONHASHSEED=1"});
            ASSERT_EQ(r1.status, 0) << describe(r1);
            // run 2: relative kernel and output paths, from b, another locale and hash seed
            std::vector<std::string> args2 = {"sh",
                                              "-c",
                                              "cd \"$0\" && exec \"$@\"",
                                              b,
                                              MT_TEST_COMPILER,
                                              relative_path(b, kernel)};
            args2.insert(args2.end(), common.begin(), common.end());
            args2.insert(args2.end(), {"--python", MT_TEST_PYTHON, "-o", "out_" + tag});
            auto r2 =
                run_process(args2, {"LC_ALL=C.UTF-8", "PYTHONHASHSEED=12345", "TZ=Asia/Kolkata"});
            ASSERT_EQ(r2.status, 0) << describe(r2);
            EXPECT_EQ(r1.out, r2.out) << "stdout differs";
            EXPECT_EQ(r1.err, "");
            auto f1 = files_in(a + "/" + tag), f2 = files_in(b + "/out_" + tag);
            EXPECT_GE(f1.size(), 3u);
            ASSERT_EQ(f1.size(), f2.size());
            for (auto &f : f1) {
                ASSERT_TRUE(f2.count(f.first)) << f.first;
                EXPECT_TRUE(f.second == f2[f.first]) << f.first << " differs";
                for (const std::string &path :
                     {std::string(MT_TEST_SOURCE_DIR), root, std::string(MT_TEST_BINARY_DIR)})
                    EXPECT_EQ(f.second.find(path), std::string::npos)
                        << f.first << " names " << path;
                compared++;
            }
            for (const std::string &path : {std::string(MT_TEST_SOURCE_DIR), root})
                EXPECT_EQ(r1.out.find(path), std::string::npos) << "stdout names " << path;
        }
    std::printf("    compared %d generated files\n", compared);
}

}  // namespace
