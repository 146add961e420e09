// Hostile input (issue 50), label "robust":
//
//   HostileInput.GridTextIsNeverAFormat         a '%' in the grid (its text was part of
//                                               a printf format in every launcher)
//   HostileInput.StringConstexprsInGeneratedCode "/*", "*/" and trigraphs in string
//                                               constexprs and config values
//   HostileInput.CudaParameterLimit             over 32764 bytes of CUDA parameters:
//                                               a diagnostic naming the limit
//   HostileInput.OutputsTogetherOrNone          a failed write leaves no partial set
//   HostileInput.ShimReadsBoundedRegularFiles   FIFOs, devices and oversized files as
//                                               the kernel file or an imported module
//   HostileInput.HugeSourceFileIsRefusedInBoundedMemory  a 20 MiB kernel file or
//                                               module: the diagnostic, in bounded memory
//   HostileInput.KernelDefinitionsAsPythonBinds module-level if/try, two definitions
//   HostileInput.FuzzRegressionsCompileWarningFree  test/fuzz_regressions/source/hostile_*:
//                                               the generated code compiles with
//                                               warnings as errors
//
// The generated host C is compiled as strict C11 with -Wall -Wextra -Werror
// -Wformat=2 -Wcomment -Wtrigraphs (and run where a test says so), NAME.cu
// against test/emu's CPU CUDA with -Werror -Wformat=2 -Wcomment -Wtrigraphs,
// and with nvcc (-Werror all-warnings, its host compiler's -Wall -Wextra
// -Werror -Wformat=2) when it exists. Commands that could hang run under
// timeout(1).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "process.h"

namespace {

using mt_test::ProcessResult;
using mt_test::run_process;

bool have(const char *tool) { return tool[0] != 0 && mt_test::file_exists(tool); }

std::string describe(const ProcessResult &r) {
    return "status " + std::to_string(r.status) + "\n" + r.out + r.err;
}

// mytritonc with the test's Python, under a 60 s timeout (a hang is a
// failure, status 124, not a stuck test).
ProcessResult mytritonc(std::vector<std::string> args) {
    args.insert(args.begin(), {"timeout", "60", MT_TEST_COMPILER});
    args.insert(args.end(), {"--python", MT_TEST_PYTHON});
    return run_process(args);
}

std::vector<std::string> files_in(const std::string &dir) {
    std::vector<std::string> names;
    DIR *d = opendir(dir.c_str());
    if (!d) return names;
    for (dirent *e; (e = readdir(d));)
        if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
            names.push_back(e->d_name);
    closedir(d);
    std::sort(names.begin(), names.end());
    return names;
}

std::string joined(const std::vector<std::string> &v) {
    std::string s;
    for (const std::string &x : v) s += (s.empty() ? "" : " ") + x;
    return s;
}

const std::vector<std::string> kWarnings = {"-Wall",      "-Wextra",   "-Werror",
                                            "-Wformat=2", "-Wcomment", "-Wtrigraphs"};

// NAME_host.c of dir (and NAME.h) as strict C11, warnings as errors.
void compile_host(const std::string &dir, const std::string &name, const std::string &what) {
    std::vector<std::string> a = {MT_ROBUST_CC, "-std=c11",
                                  "-c",         dir + "/" + name + "_host.c",
                                  "-I",         dir,
                                  "-I",         MT_ROBUST_RUNTIME_INCLUDE,
                                  "-o",         dir + "/" + name + "_host.o"};
    a.insert(a.begin() + 2, kWarnings.begin(), kWarnings.end());
    auto cc = run_process(a);
    EXPECT_EQ(cc.status, 0) << what << ": " << name << "_host.c:\n" << describe(cc);
}

// NAME.cu of dir against the CPU emulation (C++17), and with nvcc when it
// exists.
void compile_cuda(const std::string &dir, const std::string &name, const std::string &what) {
    static const std::regex launch("([A-Za-z_][A-Za-z_0-9]*)<<<([^\n]*)>>>\\(");
    std::string cu = mt_test::read_file(dir + "/" + name + ".cu");
    mt_test::write_file(dir + "/" + name + "_emu.cpp",
                        std::regex_replace(cu, launch, "mt_emu::launch($1, $2)("));
    std::vector<std::string> a = {MT_ROBUST_CXX,
                                  "-std=c++17",
                                  "-fsyntax-only",
                                  "-Wno-unknown-pragmas",  // (#pragma unroll)
                                  "-isystem",  // (the CPU CUDA and what dispatchers call)
                                  std::string(MT_TEST_SOURCE_DIR) + "/autotune/emu",
                                  "-isystem",
                                  MT_ROBUST_FAKE_CUDA,
                                  "-I",
                                  dir,
                                  "-I",
                                  MT_ROBUST_RUNTIME_INCLUDE,
                                  dir + "/" + name + "_emu.cpp"};
    // (the CUDA kernels are not -Wextra clean: unused and signed-unsigned)
    a.insert(a.begin() + 3, {"-Werror", "-Wformat=2", "-Wcomment", "-Wtrigraphs"});
    auto emu = run_process(a);
    EXPECT_EQ(emu.status, 0) << what << ": " << name << ".cu against the CPU emulation:\n"
                             << describe(emu);
    if (!have(MT_ROBUST_NVCC)) return;
    auto nvcc =
        run_process({MT_ROBUST_NVCC, "-arch=sm_90", "-c", dir + "/" + name + ".cu", "-I", dir, "-I",
                     MT_ROBUST_RUNTIME_INCLUDE, "-Werror", "all-warnings", "-Xcompiler",
                     "-Wall,-Wextra,-Werror,-Wformat=2", "-o", dir + "/" + name + ".o"});
    EXPECT_EQ(nvcc.status, 0) << what << ": " << name << ".cu with nvcc:\n" << describe(nvcc);
}

// Links `main_c` with dir's NAME_host.o and the runtime, runs it: its
// output.
ProcessResult run_host_program(const std::string &dir, const std::string &name,
                               const std::string &main_c) {
    mt_test::write_file(dir + "/main.c", main_c);
    std::vector<std::string> argv = {MT_ROBUST_CC, "-std=c11", "-Wall", "-Werror"};
    argv.insert(argv.end(), {dir + "/main.c", dir + "/" + name + "_host.o", "-I", dir, "-I",
                             MT_ROBUST_RUNTIME_INCLUDE, MT_ROBUST_RUNTIME_LIB, "-lpthread", "-lm"});
    argv.insert(argv.end(), {"-o", dir + "/main"});
    if (MT_ROBUST_SANITIZE) argv.push_back("-fsanitize=address,undefined");  // the runtime's
    auto ld = run_process(argv);
    EXPECT_EQ(ld.status, 0) << describe(ld);
    if (ld.status != 0) return ld;
    return run_process({"timeout", "60", dir + "/main"});
}

// mytritonc `args` for each backend: --backends host -o OUT/host, then
// --backends cuda -o OUT/cuda (NAME.h of the host backend alone needs no
// CUDA header); the first failure, or success.
ProcessResult generate(const std::vector<std::string> &args, const std::string &out) {
    ProcessResult r;
    mkdir(out.c_str(), 0755);
    for (const char *backend : {"host", "cuda"}) {
        auto a = args;
        a.insert(a.end(), {"--backends", backend, "-o", out + "/" + backend});
        r = mytritonc(a);
        if (r.status != 0) break;
    }
    return r;
}

std::string kernel_file(const std::string &def, const std::string &body) {
    return "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef " + def + ":\n" +
           body;
}

const std::string kStoreBody =
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    tl.store(x + offs, 1.0, mask=offs < n)\n";

// ---- the grid's text in the launchers' messages ----------------------------------

TEST(HostileInput, GridTextIsNeverAFormat) {
    std::string dir = mt_test::make_temp_dir("hostile_grid");
    std::string path = dir + "/k.py";
    mt_test::write_file(path, kernel_file("k(x, n, BLOCK: tl.constexpr)", kStoreBody));
    // "% s" read a pointer never passed; "% 6" and "% B" are conversions too
    auto r = generate({path, "--kernel", "k", "--signature", "*fp32, i32", "-D", "BLOCK=64",
                       "--grid", "n % s + (n % BLOCK) * 0", "--grid-param", "s"},
                      dir + "/out");
    ASSERT_EQ(r.status, 0) << describe(r);
    std::string host = mt_test::read_file(dir + "/out/host/k_host.c");
    EXPECT_NE(host.find("\"launch_k_host: the grid (n %% s + (n %% 64) * 0) overflows or divides "
                        "by a non-positive value\""),
              std::string::npos)
        << host;
    compile_host(dir + "/out/host", "k", "grid n % s");
    compile_cuda(dir + "/out/cuda", "k", "grid n % s");
    // the message, as the launcher sets it: s = 0 divides by zero
    auto run = run_host_program(dir + "/out/host", "k",
                                "#include <stdio.h>\n#include \"k.h\"\n"
                                "int main(void) {\n"
                                "    static float x[16];\n"
                                "    int status = launch_k_host(x, 10, 0);\n"
                                "    printf(\"%d|%s\\n\", status, mytriton_last_error());\n"
                                "    return 0;\n}\n");
    EXPECT_EQ(run.status, 0) << describe(run);
    EXPECT_EQ(run.out, std::to_string(1) +
                           "|launch_k_host: the grid (n % s + (n % 64) * 0) overflows or divides "
                           "by a non-positive value\n")
        << describe(run);
}

// ---- text in comments and string literals -----------------------------------------

TEST(HostileInput, StringConstexprsInGeneratedCode) {
    const std::string act = "'a/*b?\?/c*/d?\?=e?\?(f\\\\g\"h'";  // Python: a/*b??/c*/d??=e??(f\g"h
    std::string dir = mt_test::make_temp_dir("hostile_constexpr");
    std::string path = dir + "/k.py";
    mt_test::write_file(path, kernel_file("k(x, n, BLOCK: tl.constexpr, ACT: tl.constexpr)",
                                          "    offs = tl.program_id(0) * BLOCK + tl.arange(0, "
                                          "BLOCK)\n"
                                          "    v = tl.load(x + offs, mask=offs < n)\n"
                                          "    if ACT == 'relu':\n"
                                          "        v = tl.maximum(v, 0.0)\n"
                                          "    tl.store(x + offs, v, mask=offs < n)\n"));
    auto r = generate({path, "--kernel", "k", "--signature", "*fp32, i32", "-D", "BLOCK=64", "-D",
                       "ACT=" + act, "--grid", "cdiv(n, BLOCK)"},
                      dir + "/out");
    ASSERT_EQ(r.status, 0) << describe(r);
    compile_host(dir + "/out/host", "k", "string constexpr");
    compile_cuda(dir + "/out/cuda", "k", "string constexpr");
    // the comment shows it defused; the registry keeps it exactly
    std::string h = mt_test::read_file(dir + "/out/host/k.h");
    EXPECT_NE(h.find(" *   constexprs: BLOCK=64, ACT='a/?b? ?/c*?d? ?=e? ?(f\\\\g\"h'\n"),
              std::string::npos)
        << h;
    auto run = run_host_program(dir + "/out/host", "k",
                                "#include <stdio.h>\n#include \"k.h\"\n"
                                "int main(void) {\n"
                                "    printf(\"%s\\n\", mytriton_kernel_info_k_host.constexprs);\n"
                                "    return 0;\n}\n");
    EXPECT_EQ(run.out, "BLOCK=64, ACT=" + act + "\n") << describe(run);

    // config values of a dispatching launcher: in comments and literals too
    const std::string cfg0 = "BLOCK=64 ACT='x*/y/*z?\?/'", cfg1 = "BLOCK=128 ACT='relu?\?='";
    r = generate({path, "--kernel", "k", "--signature", "*fp32, i32", "--grid", "cdiv(n, BLOCK)",
                  "--config", cfg0, "--config", cfg1, "--key", "n", "--specialize", "off"},
                 dir + "/tuned");
    ASSERT_EQ(r.status, 0) << describe(r);
    const std::string variants[2][2] = {{"BLOCK=64", "ACT='x*/y/*z?\?/'"},
                                        {"BLOCK=128", "ACT='relu?\?='"}};
    for (int c = 0; c < 2; c++) {
        r = generate(
            {path, "--kernel", "k", "--signature", "*fp32, i32", "--grid", "cdiv(n, BLOCK)", "-D",
             variants[c][0], "-D", variants[c][1], "--name", "k_cfg" + std::to_string(c)},
            dir + "/tuned");
        ASSERT_EQ(r.status, 0) << describe(r);
    }
    compile_host(dir + "/tuned/host", "k", "config values");
    compile_cuda(dir + "/tuned/cuda", "k", "config values");
}

// ---- CUDA's parameter limit -------------------------------------------------------

// A kernel of `pointers` *fp32 parameters and `ints` i32 ones (`ints_first`:
// the i32 ones before the pointers).
void parameter_kernel(const std::string &path, int pointers, int ints, bool ints_first,
                      std::string *signature) {
    std::vector<std::string> names, types;
    for (int i = 0; i < ints; i++) names.push_back("n" + std::to_string(i)), types.push_back("i32");
    for (int i = 0; i < pointers; i++)
        names.insert(ints_first ? names.end() : names.begin() + i, "p" + std::to_string(i)),
            types.insert(ints_first ? types.end() : types.begin() + i, "*fp32");
    std::string params, sig;
    for (size_t i = 0; i < names.size(); i++) {
        params += (i ? ", " : "") + names[i];
        sig += (i ? ", " : "") + types[i];
    }
    mt_test::write_file(path, kernel_file("k(" + params + ")", "    tl.store(p0, n0 * 1.0)\n"));
    *signature = sig;
}

TEST(HostileInput, CudaParameterLimit) {
    std::string dir = mt_test::make_temp_dir("hostile_params");
    std::string sig;
    // 4095 pointers and one i32: 32764 bytes, CUDA's limit exactly
    parameter_kernel(dir + "/fits.py", 4095, 1, false, &sig);
    auto r =
        mytritonc({dir + "/fits.py", "--kernel", "k", "--signature", sig, "-o", dir + "/fits"});
    ASSERT_EQ(r.status, 0) << describe(r);
    if (have(MT_ROBUST_NVCC)) {  // nvcc agrees: it compiles
        auto nvcc =
            run_process({MT_ROBUST_NVCC, "-arch=sm_90", "-c", dir + "/fits/k.cu", "-I",
                         dir + "/fits", "-I", MT_ROBUST_RUNTIME_INCLUDE, "-o", dir + "/fits/k.o"});
        EXPECT_EQ(nvcc.status, 0) << describe(nvcc);
    }
    // one i32 more: 32768 bytes; an i32 first: 4 bytes of padding before
    // the first pointer, 32768 too
    for (bool ints_first : {false, true}) {
        SCOPED_TRACE(ints_first ? "i32 first" : "pointers first");
        parameter_kernel(dir + "/over.py", 4095, ints_first ? 1 : 2, ints_first, &sig);
        r = mytritonc({dir + "/over.py", "--kernel", "k", "--signature", sig, "-o", dir + "/over"});
        EXPECT_EQ(r.status, 1) << describe(r);
        EXPECT_NE(r.err.find("over.py:6:1: error: the kernel's " +
                             std::to_string(ints_first ? 4096 : 4097) +
                             " runtime parameters take 32768 bytes as CUDA kernel parameters, "
                             "more than CUDA's limit of 32764 bytes"),
                  std::string::npos)
            << r.err;
        EXPECT_FALSE(mt_test::file_exists(dir + "/over/k.cu"));
        // the host backend has no such limit
        r = mytritonc({dir + "/over.py", "--kernel", "k", "--signature", sig, "--backends", "host",
                       "-o", dir + "/over_host"});
        EXPECT_EQ(r.status, 0) << describe(r);
    }
}

// ---- the outputs of a compilation: together or none --------------------------------

std::vector<std::string> add_args(const std::string &path, const std::string &out, int block) {
    return {path,
            "--kernel",
            "k",
            "--signature",
            "*fp32, i32",
            "-D",
            "BLOCK=" + std::to_string(block),
            "--grid",
            "cdiv(n, BLOCK)",
            "--backends",
            "cuda,host",
            "-o",
            out};
}

TEST(HostileInput, OutputsTogetherOrNone) {
    std::string dir = mt_test::make_temp_dir("hostile_outputs");
    std::string path = dir + "/k.py";
    mt_test::write_file(path, kernel_file("k(x, n, BLOCK: tl.constexpr)", kStoreBody));

    // NAME_host.c cannot be written (a directory is in the way): neither
    // NAME.cu nor NAME.h is written, and no temporary is left
    std::string out = dir + "/fresh";
    ASSERT_EQ(mkdir(out.c_str(), 0755), 0);
    ASSERT_EQ(mkdir((out + "/k_host.c").c_str(), 0755), 0);
    auto r = mytritonc(add_args(path, out, 64));
    EXPECT_EQ(r.status, 1) << describe(r);
    EXPECT_NE(r.err.find("cannot write " + out + "/k_host.c: it is not a regular file"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(joined(files_in(out)), "k_host.c");

    // a previous compilation's outputs stay as they were when this one's
    // cannot all be written
    std::string prev = dir + "/prev";
    r = mytritonc(add_args(path, prev, 64));
    ASSERT_EQ(r.status, 0) << describe(r);
    std::string cu = mt_test::read_file(prev + "/k.cu"), h = mt_test::read_file(prev + "/k.h");
    ASSERT_EQ(unlink((prev + "/k_host.c").c_str()), 0);
    ASSERT_EQ(mkdir((prev + "/k_host.c").c_str(), 0755), 0);
    r = mytritonc(add_args(path, prev, 128));
    EXPECT_EQ(r.status, 1) << describe(r);
    EXPECT_EQ(mt_test::read_file(prev + "/k.cu"), cu);
    EXPECT_EQ(mt_test::read_file(prev + "/k.h"), h);
    EXPECT_EQ(joined(files_in(prev)), "k.cu k.h k_host.c");

    // the depfile is one of the outputs
    std::string dep = dir + "/dep";
    ASSERT_EQ(mkdir((dir + "/k.d").c_str(), 0755), 0);
    auto a = add_args(path, dep, 64);
    a.insert(a.end(), {"--depfile", dir + "/k.d"});
    r = mytritonc(a);
    EXPECT_EQ(r.status, 1) << describe(r);
    EXPECT_EQ(joined(files_in(dep)), "");

    // a FIFO in an output's place: refused at once, never opened for reading
    std::string fifo = dir + "/fifo";
    ASSERT_EQ(mkdir(fifo.c_str(), 0755), 0);
    ASSERT_EQ(mkfifo((fifo + "/k.h").c_str(), 0644), 0);
    r = mytritonc(add_args(path, fifo, 64));
    EXPECT_EQ(r.status, 1) << describe(r);
    EXPECT_NE(r.err.find("k.h: it is not a regular file"), std::string::npos) << r.err;
    EXPECT_EQ(joined(files_in(fifo)), "k.h");

    // and every output, the depfile too, when all can be written
    a = add_args(path, dep, 64);
    a.insert(a.end(), {"--depfile", dep + "/k.d"});
    r = mytritonc(a);
    EXPECT_EQ(r.status, 0) << describe(r);
    EXPECT_EQ(joined(files_in(dep)), "k.cu k.d k.h k_host.c");
    EXPECT_NE(mt_test::read_file(dep + "/k.d").find("k.py"), std::string::npos);
}

// ---- the files the shim reads ------------------------------------------------------

TEST(HostileInput, ShimReadsBoundedRegularFiles) {
    std::string dir = mt_test::make_temp_dir("hostile_shim");
    auto compile = [](const std::string &path) {
        return mytritonc({path, "--kernel", "k", "--signature", "*fp32, i32", "-D", "BLOCK=64"});
    };
    // a FIFO (no writer: opening it for reading waited forever) and devices
    std::string fifo = dir + "/fifo.py";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
    for (const std::string &path : {fifo, std::string("/dev/zero"), std::string("/dev/urandom")}) {
        auto r = compile(path);
        EXPECT_EQ(r.status, 1) << path << ": " << describe(r);
        EXPECT_EQ(r.err, path +
                             ": error: cannot read the kernel file: it is not a regular file (a "
                             "FIFO, a device or a socket)\n");
    }
    // an imported module that is a FIFO
    ASSERT_EQ(mkfifo((dir + "/helpers.py").c_str(), 0644), 0);
    mt_test::write_file(dir + "/k.py",
                        "import triton\nimport triton.language as tl\nfrom helpers import f\n\n\n"
                        "@triton.jit\ndef k(x, n, BLOCK: tl.constexpr):\n    tl.store(x, f(n))\n");
    auto r = compile(dir + "/k.py");
    EXPECT_EQ(r.status, 1) << describe(r);
    EXPECT_NE(r.err.find(dir + "/helpers.py: error: cannot read the kernel file: it is not a "
                               "regular file"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("note: 'helpers' is imported here"), std::string::npos) << r.err;

    // the size bound: 2 MiB is read, one byte more is a diagnostic (Python's
    // parser needs about 230 times a file's size in memory)
    std::string kernel = kernel_file("k(x, n, BLOCK: tl.constexpr)", kStoreBody);
    std::string padding = std::string(100, '#') + "\n";
    std::string text = kernel;
    while (text.size() + padding.size() <= (2u << 20)) text += padding;
    text += std::string((2u << 20) - text.size() - 1, '#') + "\n";
    ASSERT_EQ(text.size(), 2u << 20);
    mt_test::write_file(dir + "/max.py", text);
    r = compile(dir + "/max.py");
    EXPECT_EQ(r.status, 0) << describe(r);
    mt_test::write_file(dir + "/over.py", text + "#");
    r = compile(dir + "/over.py");
    EXPECT_EQ(r.status, 1) << describe(r);
    EXPECT_EQ(r.err, dir +
                         "/over.py: error: the file is larger than 2 MiB, the most mytritonc "
                         "reads (Python's parser needs about 230 times a file's size in "
                         "memory)\n");

    // the shim itself refuses them too (it opens the file again)
    for (const std::string &path : {fifo, dir + "/over.py"}) {
        auto s = run_process({"timeout", "60", MT_TEST_PYTHON, "-I", "-S", MT_TEST_SHIM, path});
        EXPECT_EQ(s.status, 1) << describe(s);
        EXPECT_EQ(s.out.rfind("mytriton-ast-error 0 0 ", 0), 0u) << describe(s);
        EXPECT_NE(s.out.find(path == fifo ? "not a regular file" : "larger than 2 MiB"),
                  std::string::npos)
            << s.out;
    }
}

// A huge kernel file or imported module (20 MiB: the shim needed about 4 GB,
// then the timeout): the size diagnostic, quickly and in bounded memory (the
// largest process of mytritonc's tree, measured by a Python parent that runs
// nothing else).
TEST(HostileInput, HugeSourceFileIsRefusedInBoundedMemory) {
    std::string dir = mt_test::make_temp_dir("hostile_huge");
    std::string text = kernel_file("k(x, n, BLOCK: tl.constexpr)", kStoreBody);
    std::string line = std::string(99, '#') + "\n";
    while (text.size() < (20u << 20)) text += line;
    mt_test::write_file(dir + "/huge.py", text);
    mt_test::write_file(dir + "/helpers.py", text);
    mt_test::write_file(dir + "/imports.py",
                        "import triton\nimport triton.language as tl\nfrom helpers import k as h\n"
                        "\n\n@triton.jit\ndef k(x, n, BLOCK: tl.constexpr):\n    h(x, n, BLOCK)\n");
    const char *measure =
        "import resource, subprocess, sys\n"
        "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "sys.exit(r.returncode)\n";
    // each file, and the file the diagnostic names
    for (auto [file, named] : {std::pair{"huge.py", "huge.py"}, {"imports.py", "helpers.py"}}) {
        SCOPED_TRACE(file);
        std::string path = dir + "/" + file;
        auto r = run_process({MT_TEST_PYTHON, "-c", measure, "timeout", "60", MT_TEST_COMPILER,
                              path, "--kernel", "k", "--signature", "*fp32, i32", "-D", "BLOCK=64",
                              "--python", MT_TEST_PYTHON, "-o", dir + "/out"});
        EXPECT_EQ(r.status, 1) << describe(r);
        EXPECT_NE(r.err.find(dir + "/" + named +
                             ": error: the file is larger than 2 MiB, the most mytritonc reads"),
                  std::string::npos)
            << r.err;
        long max_kib = std::atol(r.out.c_str());
        std::printf("    %s: largest process %ld KiB\n", file, max_kib);
        EXPECT_GT(max_kib, 0) << r.out;
        EXPECT_LT(max_kib, 256L << 10) << "KiB";  // the whole file in Python's parser: gigabytes
    }
    EXPECT_TRUE(files_in(dir + "/out").empty()) << joined(files_in(dir + "/out"));
}

// ---- which definition is the kernel ------------------------------------------------

TEST(HostileInput, KernelDefinitionsAsPythonBinds) {
    std::string dir = mt_test::make_temp_dir("hostile_defs");
    std::string path = dir + "/k.py";
    const std::string head = "import triton\nimport triton.language as tl\n\n";
    const std::string body =
        "        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
        "        tl.store(x + offs, 1.0, mask=offs < n)\n";
    auto compile = [&](const std::string &text, const std::string &sig) {
        mt_test::write_file(path, text);
        return mytritonc({path, "--kernel", "k", "--signature", sig, "-D", "BLOCK=64", "--grid",
                          "cdiv(n, BLOCK)", "--emit=ssa"});
    };
    // inside a module-level try, and an if whose condition Python computes
    for (const std::string &open : {std::string("try:\n"), std::string("if is_cuda():\n")}) {
        std::string close = open == "try:\n" ? "except ImportError:\n    pass\n" : "";
        auto r = compile(
            head + open + "    @triton.jit\n    def k(x, n, BLOCK: tl.constexpr):\n" + body + close,
            "*fp32, i32");
        EXPECT_EQ(r.status, 0) << open << describe(r);
    }
    // an if whose condition is known false: not defined
    auto r = compile(head +
                         "if triton.__version__ < '2.0':\n    @triton.jit\n"
                         "    def k(x, n, BLOCK: tl.constexpr):\n" +
                         body,
                     "*fp32, i32");
    EXPECT_EQ(r.status, 1) << describe(r);
    EXPECT_NE(r.err.find("no kernel named 'k'"), std::string::npos) << r.err;
    // defined twice: the last definition
    const std::string twice = head +
                              "@triton.jit\ndef k(x, n):\n    tl.store(x, n * 1.0)\n\n\n"
                              "@triton.jit\ndef k(x, y, n, BLOCK: tl.constexpr):\n" +
                              body;
    r = compile(twice, "*fp32, *fp32, i32");
    EXPECT_EQ(r.status, 0) << describe(r);
    r = compile(twice, "*fp32, i32");
    EXPECT_EQ(r.status, 1) << describe(r);
    // the last one not a kernel: not a kernel, whatever came before
    r = compile(head + "@triton.jit\ndef k(x, n, BLOCK: tl.constexpr):\n" + body +
                    "\n\ndef k(x):\n"
                    "    pass\n",
                "*fp32, i32");
    EXPECT_EQ(r.status, 1) << describe(r);
    EXPECT_NE(r.err.find("'k' is not a kernel: it is not decorated with @triton.jit"),
              std::string::npos)
        << r.err;
}

// ---- the fuzz regressions of this issue ----------------------------------------------

// The options line of a fuzz input (fuzz/fuzz_pipeline.h): "#mt|key=value|...".
std::vector<std::string> options_of(const std::string &text) {
    std::vector<std::string> a;
    std::string line = text.substr(0, text.find('\n'));
    if (line.rfind("#mt|", 0) != 0) return a;
    size_t i = 4;
    while (i <= line.size()) {
        size_t j = line.find('|', i);
        if (j == std::string::npos) j = line.size();
        std::string f = line.substr(i, j - i);
        size_t eq = f.find('=');
        if (eq != std::string::npos) {
            std::string k = f.substr(0, eq), v = f.substr(eq + 1);
            if (k == "kernel") a.insert(a.end(), {"--kernel", v});
            else if (k == "sig") a.insert(a.end(), {"--signature", v});
            else if (k == "grid") a.insert(a.end(), {"--grid", v});
            else if (k == "name") a.insert(a.end(), {"--name", v});
            else if (k == "D") a.insert(a.end(), {"-D", v});
        }
        i = j + 1;
    }
    return a;
}

TEST(HostileInput, FuzzRegressionsCompileWarningFree) {
    std::string src = std::string(MT_TEST_SOURCE_DIR) + "/fuzz_regressions/source";
    int compiled = 0, diagnosed = 0;
    for (const std::string &file : files_in(src)) {
        if (file.rfind("hostile_", 0) != 0) continue;
        SCOPED_TRACE(file);
        std::string text = mt_test::read_file(src + "/" + file);
        std::string dir = mt_test::make_temp_dir("hostile_fuzz");
        for (int level = 1; level <= 2; level++) {
            auto a = options_of(text);
            a.insert(a.begin(), src + "/" + file);
            a.insert(a.end(), {"-O" + std::to_string(level), "--name", "k"});
            std::string out = dir + "/O" + std::to_string(level);
            auto r = generate(a, out);
            ASSERT_TRUE(r.status == 0 || r.status == 1) << describe(r);
            if (r.status == 1) {  // a diagnostic, never a crash
                EXPECT_NE(r.err.find(": error: "), std::string::npos) << r.err;
                EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
                diagnosed++;
                continue;
            }
            compile_host(out + "/host", "k", file);
            compile_cuda(out + "/cuda", "k", file);
            compiled++;
        }
    }
    std::printf("    %d compiled warning-free, %d diagnosed\n", compiled, diagnosed);
    EXPECT_GE(compiled, 8);
    EXPECT_GE(diagnosed, 2);  // the parameter limit at -O1 and -O2
}

}  // namespace
