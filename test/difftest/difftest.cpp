// mytriton_difftest: differential testing of the whole compiler (issue 17).
//
// For each seed, kernel_gen makes a kernel; mytritonc compiles it at -O1
// and -O2 (cuda and host backends); the generated code of all kernels is
// built into a few shared libraries (host C; the CUDA code on the CPU
// emulation of test/emu; on a machine with a GPU and --gpu, by nvcc for the
// GPU) and every variant is launched on the same inputs. Outputs are
// compared with the host -O1 variant: bit for bit where the generator's
// error bound is 0 (integers, loads/stores, comparisons, min/max, exact
// float arithmetic), else within that bound (see kernel_gen.h). A kernel
// mytritonc rejects, a launch that fails or a mismatch is a failure; each
// failure is minimized (statements removed one at a time while it still
// fails) and written to WORK/repro/.
//
//   mytriton_difftest [--seeds A:B] [--dialect full|seed] [--work DIR]
//                     [--backends host,emu,gpu] [--jobs N] [--batch N] [--dump DIR]
//                     [--no-minimize]
//   --batch N: build and run N kernels at a time (long runs); --dump DIR: the
//   host -O1 buffers of each kernel, DIR/<name>.bin (for the Triton oracle).
//   mytriton_difftest --emit DIR [--seeds A:B] [--dialect ...]
//       writes the kernels (DIR/<name>.py) and DIR/manifest.tsv (one kernel a
//       line: name, file, function, signature, constexprs, grid, args) for
//       the Triton oracle (scripts/triton_difftest.py) and the reference corpus.
// Tools: --mytritonc, --python, --cc, --cxx, --nvcc, --runtime-include,
// --emu-dir, --mlir-opt, --mlir-pipeline (a file of mlir-opt arguments)
// (defaults from the build). --backends mlir (needs the gpu backend's
// device memory, added) runs the kernels the mlir backend covers.
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "kernel_gen.h"
#include "mytriton/runtime.h"

using difftest::Arg;
using difftest::ArgKind;
using difftest::Kernel;

namespace {

struct Config {
    uint64_t first = 1, last = 200;
    difftest::Dialect dialect = difftest::Dialect::Full;
    std::string work = "difftest-work";
    std::string emit;
    std::set<std::string> backends = {"host", "emu"};
    int jobs = 2;
    int batch = 0;     // kernels per build (0: all at once)
    std::string dump;  // write the host -O1 buffers of each kernel here
    bool minimize = true;
    std::string mytritonc = MT_DIFF_MYTRITONC, python = MT_DIFF_PYTHON, cc = MT_DIFF_CC,
                cxx = MT_DIFF_CXX, nvcc = MT_DIFF_NVCC, runtime_include = MT_DIFF_RUNTIME_INCLUDE,
                emu_dir = MT_DIFF_EMU_DIR, nvcc_arch = "native",
                cuda_include = MT_DIFF_CUDA_INCLUDE, cuda_lib = MT_DIFF_CUDA_LIB,
                mlir_opt = MT_DIFF_MLIR_OPT, mlir_pipeline = MT_DIFF_MLIR_PIPELINE;
};

// ---- processes ------------------------------------------------------------
struct Proc {
    pid_t pid;
    std::string log;
};

Proc spawn(const std::vector<std::string> &argv, const std::string &log) {
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        std::vector<char *> a;
        for (auto &s : argv) a.push_back(const_cast<char *>(s.c_str()));
        a.push_back(nullptr);
        execvp(a[0], a.data());
        _exit(127);
    }
    return {pid, log};
}

// Runs the commands, `jobs` at a time; their exit codes.
std::vector<int> run_all(const std::vector<std::vector<std::string>> &cmds,
                         const std::vector<std::string> &logs, int jobs) {
    std::vector<int> rc(cmds.size(), -1);
    std::map<pid_t, size_t> running;
    size_t next = 0;
    while (next < cmds.size() || !running.empty()) {
        while (next < cmds.size() && (int)running.size() < jobs) {
            Proc p = spawn(cmds[next], logs[next]);
            running[p.pid] = next++;
        }
        int st = 0;
        pid_t pid = wait(&st);
        if (pid < 0) break;
        auto it = running.find(pid);
        if (it == running.end()) continue;
        rc[it->second] =
            WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
        running.erase(it);
    }
    return rc;
}

std::string slurp(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

void write_file(const std::string &path, const std::string &text) {
    std::ofstream f(path, std::ios::binary);
    f << text;
}

void mkdirs(const std::string &path) {
    std::string p;
    std::stringstream ss(path);
    std::string part;
    if (!path.empty() && path[0] == '/') p = "/";
    while (std::getline(ss, part, '/')) {
        if (part.empty()) continue;
        p += part + "/";
        mkdir(p.c_str(), 0755);
    }
}

// ---- variants ---------------------------------------------------------------
// A kernel compiled at one level for one backend: the symbol of its kernel
// info in one of the built libraries.
struct Variant {
    std::string backend;  // host, emu, gpu
    int level;
    std::string label() const { return backend + "-O" + std::to_string(level); }
};

std::string gen_name(const Kernel &k, int level, const std::string &tag) {
    return k.name + tag + "_o" + std::to_string(level);
}

// Device memory of the gpu library (gpu_mem in the generated unit).
struct GpuMem {
    void *(*alloc)(size_t) = nullptr;
    int (*to_device)(void *, const void *, size_t) = nullptr;
    int (*to_host)(void *, const void *, size_t) = nullptr;
    void (*release)(void *) = nullptr;
    int (*sync)(void) = nullptr;
};

struct Libs {
    void *host = nullptr;
    void *emu = nullptr;
    void *gpu = nullptr;
    void *mlir = nullptr;  // device memory from the gpu library
    GpuMem mem;
};

// Launches one variant; its outputs (bits) per argument, or an error text.
bool launch(const Kernel &k, const Variant &v, const std::string &tag, const Libs &libs,
            std::vector<std::vector<uint32_t>> *outs, std::string *error) {
    std::string sym = "mytriton_kernel_info_" + gen_name(k, v.level, tag) +
                      (v.backend == "host"   ? "_host"
                       : v.backend == "mlir" ? "_mlir"
                                             : "");
    void *lib = v.backend == "host"   ? libs.host
                : v.backend == "emu"  ? libs.emu
                : v.backend == "mlir" ? libs.mlir
                                      : libs.gpu;
    auto *info = lib ? (const mytriton_kernel_info *)dlsym(lib, sym.c_str()) : nullptr;
    if (!info) {
        *error = "no symbol " + sym;
        return false;
    }
    size_t n = k.args.size();
    std::vector<std::vector<uint32_t>> host(n);
    std::vector<void *> ptrs(n, nullptr);
    std::vector<int32_t> ints(n);
    std::vector<float> floats(n);
    std::vector<void *> argp(n);
    bool gpu = v.backend == "gpu" || v.backend == "mlir";
    for (size_t i = 0; i < n; i++) {
        const Arg &a = k.args[i];
        if (a.kind == ArgKind::PtrF32 || a.kind == ArgKind::PtrI32) {
            host[i].assign((size_t)std::max<int64_t>(a.count, 1), difftest::kSentinel);
            if (!a.output) difftest::fill_input(k, (int)i, host[i].data());
            size_t bytes = host[i].size() * 4;
            if (gpu) {
                ptrs[i] = libs.mem.alloc(bytes);
                if (!ptrs[i] || libs.mem.to_device(ptrs[i], host[i].data(), bytes) != 0) {
                    *error = "device allocation or copy failed";
                    return false;
                }
            } else {
                ptrs[i] = host[i].data();
            }
            argp[i] = &ptrs[i];
        } else if (a.kind == ArgKind::I32) {
            ints[i] = a.ival;
            argp[i] = &ints[i];
        } else {
            floats[i] = a.fval;
            argp[i] = &floats[i];
        }
    }
    mytriton_grid grid;
    grid.x = k.grid[0], grid.y = k.grid[1], grid.z = k.grid[2];
    int rc = info->launch(nullptr, argp.data(), &grid);
    if (gpu && rc == 0) rc = libs.mem.sync();
    outs->assign(n, {});
    for (size_t i = 0; i < n; i++) {
        if (!k.args[i].output) continue;
        if (gpu) libs.mem.to_host(host[i].data(), ptrs[i], host[i].size() * 4);
        (*outs)[i] = host[i];
    }
    if (gpu)
        for (size_t i = 0; i < n; i++)
            if (ptrs[i]) libs.mem.release(ptrs[i]);
    if (rc != 0) {
        *error = "launch returned " + std::to_string(rc) + ": " + mytriton_last_error();
        return false;
    }
    return true;
}

float as_float(uint32_t b) {
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}

// Output elements compared, and those a kernel wrote (not the sentinel).
long g_compared = 0, g_written = 0;

// Compares `got` with `want`; a description of the first difference.
bool same(const Kernel &k, const std::vector<std::vector<uint32_t>> &want,
          const std::vector<std::vector<uint32_t>> &got, std::string *why) {
    for (size_t i = 0; i < k.args.size(); i++) {
        const Arg &a = k.args[i];
        if (!a.output) continue;
        for (size_t e = 0; e < want[i].size(); e++) {
            uint32_t w = want[i][e], g = got[i][e];
            g_compared++;
            g_written += w != difftest::kSentinel;
            if (w == g) continue;
            bool ok = false;
            if (a.kind == ArgKind::PtrF32 && w != difftest::kSentinel && g != difftest::kSentinel) {
                float fw = as_float(w), fg = as_float(g);
                if (fw == fg) ok = true;  // +0 and -0
                else if (std::isnan(fw) && std::isnan(fg)) ok = true;
                else if (a.tol > 0 && std::fabs((double)fw - (double)fg) <= a.tol) ok = true;
            }
            if (!ok) {
                char buf[256];
                if (a.kind == ArgKind::PtrF32)
                    std::snprintf(
                        buf, sizeof buf, "%s[%zu]: %.9g (0x%08x) vs %.9g (0x%08x), tolerance %.3g",
                        a.name.c_str(), e, (double)as_float(g), g, (double)as_float(w), w, a.tol);
                else
                    std::snprintf(buf, sizeof buf, "%s[%zu]: %d vs %d", a.name.c_str(), e,
                                  (int32_t)g, (int32_t)w);
                *why = buf;
                return false;
            }
        }
    }
    return true;
}

// ---- building -------------------------------------------------------------
struct Build {
    const Config &cfg;
    std::string dir;  // work subfolder
    std::vector<Variant> variants;

    // mytritonc for every kernel and level; the kernels that compiled.
    std::vector<bool> compile(const std::vector<Kernel> &ks, const std::string &tag,
                              std::vector<std::string> *failures) {
        std::vector<std::vector<std::string>> cmds;
        std::vector<std::string> logs;
        mkdirs(dir + "/src");
        mkdirs(dir + "/gen");
        mkdirs(dir + "/log");
        for (auto &k : ks) {
            std::string src = dir + "/src/" + k.name + tag + ".py";
            write_file(src, k.source());
            for (int level = 1; level <= 2; level++) {
                std::vector<std::string> c = {cfg.mytritonc,
                                              src,
                                              "--kernel",
                                              k.func,
                                              "--signature",
                                              k.signature(),
                                              "-O" + std::to_string(level),
                                              "--name",
                                              gen_name(k, level, tag),
                                              "--backends",
                                              "cuda,host",
                                              "--python",
                                              cfg.python,
                                              "-o",
                                              dir + "/gen"};
                for (auto &d : k.constexprs)
                    c.insert(c.end(), {"-D", d.first + "=" + std::to_string(d.second)});
                cmds.push_back(c);
                logs.push_back(dir + "/log/" + gen_name(k, level, tag) + ".log");
            }
        }
        std::vector<int> rc = run_all(cmds, logs, cfg.jobs);
        std::vector<bool> ok(ks.size(), true);
        for (size_t i = 0; i < ks.size(); i++)
            for (int l = 0; l < 2; l++)
                if (rc[2 * i + (size_t)l] != 0) {
                    ok[i] = false;
                    if (failures)
                        failures->push_back(ks[i].name + " -O" + std::to_string(l + 1) +
                                            ": mytritonc exit " +
                                            std::to_string(rc[2 * i + (size_t)l]) + "\n" +
                                            slurp(logs[2 * i + (size_t)l]));
                }
        if (cfg.backends.count("mlir")) compile_mlir(ks, ok, tag);
        return ok;
    }

    // The mlir backend, in gen-mlir/: NAME.mlir, mlir-opt to PTX, NAME_mlir.c.
    // A kernel the backend does not cover (a diagnostic) has no mlir variant.
    std::set<std::string> mlir_ok;  // gen names with NAME_mlir.c
    void compile_mlir(const std::vector<Kernel> &ks, const std::vector<bool> &ok,
                      const std::string &tag) {
        std::string out = dir + "/gen-mlir";
        mkdirs(out);
        std::vector<std::string> pipeline;
        std::stringstream ps(slurp(cfg.mlir_pipeline));  // mlir-opt's arguments, one a line
        std::string item;
        while (std::getline(ps, item))
            if (!item.empty()) pipeline.push_back(item);
        std::vector<std::vector<std::string>> base;  // mytritonc arguments per (kernel, level)
        std::vector<std::string> names;
        for (size_t i = 0; i < ks.size(); i++) {
            if (!ok[i]) continue;
            for (int level = 1; level <= 2; level++) {
                std::vector<std::string> c = {cfg.mytritonc,
                                              dir + "/src/" + ks[i].name + tag + ".py",
                                              "--kernel",
                                              ks[i].func,
                                              "--signature",
                                              ks[i].signature(),
                                              "-O" + std::to_string(level),
                                              "--name",
                                              gen_name(ks[i], level, tag),
                                              "--backends",
                                              "mlir",
                                              "--python",
                                              cfg.python,
                                              "-o",
                                              out};
                for (auto &d : ks[i].constexprs)
                    c.insert(c.end(), {"-D", d.first + "=" + std::to_string(d.second)});
                base.push_back(c);
                names.push_back(gen_name(ks[i], level, tag));
            }
        }
        std::vector<std::string> logs;
        for (auto &n : names) logs.push_back(dir + "/log/" + n + ".mlir.log");
        std::vector<int> rc = run_all(base, logs, cfg.jobs);
        std::vector<std::vector<std::string>> opt, bin;
        std::vector<std::string> opt_names;
        for (size_t i = 0; i < names.size(); i++) {
            if (rc[i] != 0) continue;
            std::vector<std::string> c = {cfg.mlir_opt, out + "/" + names[i] + ".mlir"};
            c.insert(c.end(), pipeline.begin(), pipeline.end());
            c.insert(c.end(), {"-o", out + "/" + names[i] + ".gpu.mlir"});
            opt.push_back(c);
            std::vector<std::string> b = base[i];
            b.insert(b.end(), {"--mlir-binary", out + "/" + names[i] + ".gpu.mlir"});
            bin.push_back(b);
            opt_names.push_back(names[i]);
        }
        std::vector<std::string> opt_logs, bin_logs;
        for (auto &n : opt_names) {
            opt_logs.push_back(dir + "/log/" + n + ".mlir-opt.log");
            bin_logs.push_back(dir + "/log/" + n + ".mlir-binary.log");
        }
        std::vector<int> orc = run_all(opt, opt_logs, cfg.jobs);
        std::vector<std::vector<std::string>> bin2;
        std::vector<std::string> bin_names, bin_logs2;
        for (size_t i = 0; i < opt.size(); i++)
            if (orc[i] == 0)
                bin2.push_back(bin[i]), bin_names.push_back(opt_names[i]),
                    bin_logs2.push_back(bin_logs[i]);
        std::vector<int> brc = run_all(bin2, bin_logs2, cfg.jobs);
        for (size_t i = 0; i < bin2.size(); i++)
            if (brc[i] == 0) mlir_ok.insert(bin_names[i]);
    }

    // The static inline helpers of a host file, renamed per kernel so many
    // files share one translation unit.
    static std::vector<std::string> static_helpers(const std::string &text) {
        std::vector<std::string> names;
        std::stringstream ss(text);
        std::string line;
        while (std::getline(ss, line)) {
            if (line.rfind("static inline ", 0) != 0) continue;
            size_t paren = line.find('(');
            if (paren == std::string::npos) continue;
            size_t start = line.rfind(' ', paren);
            std::string name = line.substr(start + 1, paren - start - 1);
            while (!name.empty() && name[0] == '*') name.erase(0, 1);
            names.push_back(name);
        }
        return names;
    }

    // Writes the units (each backend's kernels split over `jobs` units,
    // compiled in parallel) and links and loads the libraries; false (and
    // the log) when a build fails.
    bool build(const std::vector<Kernel> &ks, const std::vector<bool> &ok, const std::string &tag,
               Libs *libs, std::string *error) {
        std::string gen = dir + "/gen";
        size_t nunits = (size_t)std::max(1, cfg.jobs);
        const std::string host_head =
            "// host kernels of this run\n#include <math.h>\n#include <stdbool.h>\n"
            "#include <stdint.h>\n#include <stdlib.h>\n#include \"mytriton/runtime.h\"\n";
        const std::string cuda_head =
            "// CUDA kernels of this run, each in its namespace\n#include <stdint.h>\n"
            "#include <cuda_runtime.h>\n#include \"mytriton/runtime.h\"\n";
        std::vector<std::string> host_units(nunits, host_head), cuda_units(nunits, cuda_head),
            mlir_files;
        size_t n = 0;
        for (size_t i = 0; i < ks.size(); i++) {
            if (!ok[i]) continue;
            for (int level = 1; level <= 2; level++, n++) {
                std::string name = gen_name(ks[i], level, tag);
                std::string text = slurp(gen + "/" + name + "_host.c");
                auto helpers = static_helpers(text);
                std::string &hu = host_units[n % nunits];
                for (auto &h : helpers) hu += "#define " + h + " " + name + "_" + h + "\n";
                hu += "#include \"" + name + "_host.c\"\n";
                for (auto &h : helpers) hu += "#undef " + h + "\n";
                cuda_units[n % nunits] += "#include \"" + name + ".h\"\nnamespace " + name +
                                          "_ns {\n#include \"" + name + ".cu\"\n}\n";
                // the -O2 units' helpers (Triton's instructions) are guarded for
                // unity builds; each namespace here needs its own copy
                std::string cu = slurp(gen + "/" + name + ".cu");
                for (size_t at = 0;
                     (at = cu.find("#define MYTRITON_HELPER_", at)) != std::string::npos; at++) {
                    size_t end = cu.find_first_of(" \n", at + 8);
                    cuda_units[n % nunits] += "#undef " + cu.substr(at + 8, end - at - 8) + "\n";
                }
                // the mlir launchers do not share a unit (each defines the
                // same driver-loading helpers): one object each
                if (mlir_ok.count(name)) mlir_files.push_back(name);
            }
        }
        std::string inc = "-I" + cfg.runtime_include, geninc = "-I" + gen;
        mkdirs(dir + "/obj");
        // the generated header includes cuda_runtime_api.h: a C stub for the host units
        mkdirs(dir + "/stub");
        write_file(
            dir + "/stub/cuda_runtime_api.h",
            "/* host-only build of generated headers */\n#ifndef MT_STUB\n#define MT_STUB\ntypedef int cudaError_t;\n"
            "typedef void *cudaStream_t;\n#endif\n");
        std::vector<std::vector<std::string>> cmds;
        std::vector<std::string> logs;
        std::map<std::string, std::vector<std::string>> objects;  // backend -> objects
        auto unit = [&](const std::string &backend, size_t u, const std::string &ext,
                        const std::string &text, std::vector<std::string> cmd) {
            std::string src = dir + "/obj/" + backend + tag + "_" + std::to_string(u) + ext;
            std::string obj = src + ".o";
            write_file(src, text);
            cmd.insert(cmd.end(), {"-c", src, "-o", obj});
            cmds.push_back(cmd);
            logs.push_back(dir + "/log/" + backend + tag + "_" + std::to_string(u) + ".log");
            objects[backend].push_back(obj);
        };
        for (size_t u = 0; u < nunits; u++) {
            if (cfg.backends.count("host"))
                unit("host", u, ".c", host_units[u],
                     {cfg.cc, "-std=c11", "-O1", "-w", "-fPIC", inc, geninc, "-I" + dir + "/stub"});
            if (cfg.backends.count("emu"))
                unit("emu", u, ".cpp", cuda_units[u],
                     {cfg.cxx, "-std=c++17", "-O0", "-w", "-fPIC", "-pthread", inc, geninc,
                      "-I" + cfg.emu_dir + "/fake_cuda"});
            if (cfg.backends.count("gpu"))
                unit("gpu", u, ".cu", cuda_units[u],
                     {cfg.nvcc, "-O2", "-w", "-arch=" + cfg.nvcc_arch, "-Xcompiler", "-fPIC", inc,
                      geninc});
        }
        for (size_t u = 0; u < mlir_files.size(); u++)
            unit("mlir", u, ".c",
                 "#include \"" + dir + "/gen-mlir/" + mlir_files[u] + "_mlir.c\"\n",
                 {cfg.cc, "-std=c11", "-O1", "-w", "-fPIC", inc, "-I" + dir + "/gen-mlir",
                  "-I" + cfg.cuda_include});
        if (cfg.backends.count("emu"))
            unit("emu", nunits, ".cpp", "#include \"" + cfg.emu_dir + "/emu_globals.cpp\"\n",
                 {cfg.cxx, "-std=c++17", "-O0", "-w", "-fPIC", "-pthread",
                  "-I" + cfg.emu_dir + "/fake_cuda"});
        if (cfg.backends.count("gpu"))
            unit(
                "gpu", nunits, ".cu",
                "#include <cuda_runtime.h>\n"
                "extern \"C\" void* mt_diff_alloc(size_t n) { void* p = nullptr; return cudaMalloc(&p, n) == cudaSuccess ? p : nullptr; }\n"
                "extern \"C\" int mt_diff_to_device(void* d, const void* h, size_t n) { return (int)cudaMemcpy(d, h, n, cudaMemcpyHostToDevice); }\n"
                "extern \"C\" int mt_diff_to_host(void* h, const void* d, size_t n) { return (int)cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost); }\n"
                "extern \"C\" void mt_diff_release(void* p) { cudaFree(p); }\n"
                "extern \"C\" int mt_diff_sync(void) { return (int)cudaDeviceSynchronize(); }\n",
                {cfg.nvcc, "-O2", "-w", "-arch=" + cfg.nvcc_arch, "-Xcompiler", "-fPIC"});
        std::vector<int> rc = run_all(cmds, logs, cfg.jobs);
        for (size_t i = 0; i < rc.size(); i++)
            if (rc[i] != 0) {
                *error = "compiling " + cmds[i][cmds[i].size() - 3] + " failed:\n" +
                         slurp(logs[i]).substr(0, 4000);
                return false;
            }
        // link
        cmds.clear();
        logs.clear();
        std::vector<std::string> outs;
        for (auto &[backend, objs] : objects) {
            outs.push_back(dir + "/" + backend + tag + ".so");
            std::vector<std::string> c;
            if (backend == "host" || backend == "mlir") c = {cfg.cc, "-shared"};
            else if (backend == "emu") c = {cfg.cxx, "-shared", "-pthread"};
            else c = {cfg.nvcc, "-shared", "-arch=" + cfg.nvcc_arch};
            c.insert(c.end(), objs.begin(), objs.end());
            c.insert(c.end(), {"-o", outs.back()});
            if (backend == "host") c.push_back("-lm");
            if (backend == "gpu") c.push_back("-lcudart");
            if (backend == "mlir")
                c.insert(c.end(), {"-L" + cfg.cuda_lib, "-L" + cfg.cuda_lib + "/stubs", "-lcuda",
                                   "-lcudart"});
            cmds.push_back(c);
            logs.push_back(dir + "/log/link_" + backend + tag + ".log");
        }
        rc = run_all(cmds, logs, cfg.jobs);
        for (size_t i = 0; i < rc.size(); i++)
            if (rc[i] != 0) {
                *error = "linking " + outs[i] + " failed:\n" + slurp(logs[i]).substr(0, 4000);
                return false;
            }
        for (size_t i = 0; i < outs.size(); i++) {
            void *h = dlopen(outs[i].c_str(), RTLD_NOW | RTLD_LOCAL);
            if (!h) {
                *error = std::string("dlopen: ") + dlerror();
                return false;
            }
            std::string base = outs[i].substr(outs[i].rfind('/') + 1);
            if (base.rfind("host", 0) == 0) libs->host = h;
            else if (base.rfind("mlir", 0) == 0) libs->mlir = h;
            else if (base.rfind("emu", 0) == 0) libs->emu = h;
            else {
                libs->gpu = h;
                libs->mem.alloc = (void *(*)(size_t))dlsym(h, "mt_diff_alloc");
                libs->mem.to_device =
                    (int (*)(void *, const void *, size_t))dlsym(h, "mt_diff_to_device");
                libs->mem.to_host =
                    (int (*)(void *, const void *, size_t))dlsym(h, "mt_diff_to_host");
                libs->mem.release = (void (*)(void *))dlsym(h, "mt_diff_release");
                libs->mem.sync = (int (*)(void))dlsym(h, "mt_diff_sync");
            }
        }
        return true;
    }
};

// The result of one kernel over all variants: "" when they agree.
std::string check(const Kernel &k, const std::vector<Variant> &variants, const std::string &tag,
                  const Libs &libs, int *runs) {
    std::vector<std::vector<uint32_t>> ref, got;
    std::string err;
    if (!launch(k, variants[0], tag, libs, &ref, &err)) return variants[0].label() + ": " + err;
    ++*runs;
    for (size_t v = 1; v < variants.size(); v++) {
        if (variants[v].backend == "mlir" &&
            (!libs.mlir || !dlsym(libs.mlir, ("mytriton_kernel_info_" +
                                              gen_name(k, variants[v].level, tag) + "_mlir")
                                                 .c_str())))
            continue;  // not covered by the mlir backend
        if (!launch(k, variants[v], tag, libs, &got, &err)) return variants[v].label() + ": " + err;
        ++*runs;
        std::string why;
        if (!same(k, ref, got, &why))
            return variants[v].label() + " vs " + variants[0].label() + ": " + why;
    }
    return "";
}

// Does the kernel with these body lines still fail (compile error or
// mismatch)? Each attempt builds its own libraries (a fresh tag).
bool still_fails(const Config &cfg, const Kernel &k0, const std::vector<std::string> &lines,
                 bool compile_failure, int attempt, const std::vector<Variant> &variants) {
    Kernel k = k0;
    k.body = lines;
    Build b{cfg, cfg.work + "/min/" + k.name, variants, {}};
    std::string tag = "_m" + std::to_string(attempt);
    std::vector<std::string> fails;
    std::vector<bool> ok = b.compile({k}, tag, &fails);
    if (!ok[0]) {
        // interesting only if it is still a compiler failure, not a Python error
        if (!compile_failure) return false;
        for (auto &f : fails)
            if (f.find("internal error") != std::string::npos ||
                f.find("exit 1") == std::string::npos)
                return true;
        return false;
    }
    if (compile_failure) return false;
    Libs libs;
    std::string err;
    if (!b.build({k}, ok, tag, &libs, &err)) return false;
    int runs = 0;
    return !check(k, variants, tag, libs, &runs).empty();
}

// Removes statements one at a time (then again while it helps).
std::vector<std::string> minimize(const Config &cfg, const Kernel &k, bool compile_failure,
                                  const std::vector<Variant> &variants) {
    std::vector<std::string> lines = k.body;
    int attempt = 0;
    bool progress = true;
    while (progress && attempt < 200) {
        progress = false;
        for (size_t i = lines.size(); i-- > 0;) {
            if (i >= lines.size()) continue;
            std::vector<std::string> cand = lines;
            // a line and the lines indented under it (a whole loop)
            size_t ind = lines[i].find_first_not_of(' '), end = i + 1;
            while (end < lines.size() && lines[end].find_first_not_of(' ') > ind) end++;
            cand.erase(cand.begin() + (long)i, cand.begin() + (long)end);
            if (still_fails(cfg, k, cand, compile_failure, attempt++, variants)) {
                lines = cand;
                progress = true;
            }
        }
    }
    return lines;
}

// Writes DIR/<name>.bin: every pointer argument after the host -O1 launch
// (inputs as given, outputs as computed), 4-byte elements in order.
void dump(const Kernel &k, const Variant &v, const std::string &tag, const Libs &libs,
          const std::string &dir) {
    std::vector<std::vector<uint32_t>> outs;
    std::string err;
    if (!launch(k, v, tag, libs, &outs, &err)) return;
    std::string bytes;
    for (size_t i = 0; i < k.args.size(); i++) {
        const Arg &a = k.args[i];
        if (a.kind != ArgKind::PtrF32 && a.kind != ArgKind::PtrI32) continue;
        std::vector<uint32_t> data((size_t)std::max<int64_t>(a.count, 1), difftest::kSentinel);
        if (a.output) data = outs[i];
        else difftest::fill_input(k, (int)i, data.data());
        bytes.append(reinterpret_cast<const char *>(data.data()), data.size() * 4);
    }
    write_file(dir + "/" + k.name + ".bin", bytes);
}

std::string arg_text(const Arg &a) {
    switch (a.kind) {
    case ArgKind::PtrF32:
        return a.name + ":*fp32[" + std::to_string(a.count) + "]" + (a.output ? "out" : "in");
    case ArgKind::PtrI32:
        return a.name + ":*i32[" + std::to_string(a.count) + "]" + (a.output ? "out" : "in");
    case ArgKind::I32: return a.name + ":i32=" + std::to_string(a.ival);
    case ArgKind::F32: {
        char b[64];
        std::snprintf(b, sizeof b, "%.9g", (double)a.fval);
        return a.name + ":fp32=" + b;
    }
    }
    return "";
}

std::string manifest_line(const Kernel &k, const std::string &file) {
    std::string s = k.name + "\t" + file + "\t" + k.func + "\t" + k.signature() + "\t" +
                    k.defines() + "\t" + std::to_string(k.grid[0]) + "," +
                    std::to_string(k.grid[1]) + "," + std::to_string(k.grid[2]) + "\t";
    for (size_t i = 0; i < k.args.size(); i++) {
        s += (i ? " " : "") + arg_text(k.args[i]);
        if (k.args[i].output) {
            char b[64];
            std::snprintf(b, sizeof b, "~%.6g", k.args[i].tol);
            s += b;
        }
    }
    return s + "\n";
}

int usage() {
    std::fprintf(
        stderr,
        "usage: mytriton_difftest [--seeds A:B] [--dialect full|seed] [--work DIR] [--backends host,emu,gpu]\n"
        "                         [--jobs N] [--batch N] [--dump DIR] [--no-minimize] [--emit DIR]\n"
        "                         [--mytritonc P] [--python P]\n"
        "                         [--cc P] [--cxx P] [--nvcc P] [--nvcc-arch A] [--runtime-include D] [--emu-dir D]\n");
    return 2;
}

}  // namespace

int main(int argc, char **argv) {
    Config cfg;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto val = [&](std::string *out) {
            if (i + 1 >= argc) return false;
            *out = argv[++i];
            return true;
        };
        std::string v;
        if (a == "--seeds" && val(&v)) {
            size_t c = v.find(':');
            cfg.first = std::strtoull(v.c_str(), nullptr, 10);
            cfg.last =
                c == std::string::npos ? cfg.first : std::strtoull(v.c_str() + c + 1, nullptr, 10);
        } else if (a == "--dialect" && val(&v)) {
            if (v != "full" && v != "seed") return usage();
            cfg.dialect = v == "seed" ? difftest::Dialect::Seed : difftest::Dialect::Full;
        } else if (a == "--work" && val(&v)) cfg.work = v;
        else if (a == "--emit" && val(&v)) cfg.emit = v;
        else if (a == "--backends" && val(&v)) {
            cfg.backends.clear();
            std::stringstream ss(v);
            std::string b;
            while (std::getline(ss, b, ','))
                if (b == "host" || b == "emu" || b == "gpu" || b == "mlir") cfg.backends.insert(b);
                else return usage();
        } else if (a == "--jobs" && val(&v)) cfg.jobs = std::max(1, std::atoi(v.c_str()));
        else if (a == "--no-minimize") cfg.minimize = false;
        else if (a == "--batch" && val(&v)) cfg.batch = std::max(0, std::atoi(v.c_str()));
        else if (a == "--dump" && val(&v)) cfg.dump = v;
        else if (a == "--mytritonc" && val(&v)) cfg.mytritonc = v;
        else if (a == "--python" && val(&v)) cfg.python = v;
        else if (a == "--cc" && val(&v)) cfg.cc = v;
        else if (a == "--cxx" && val(&v)) cfg.cxx = v;
        else if (a == "--nvcc" && val(&v)) cfg.nvcc = v;
        else if (a == "--nvcc-arch" && val(&v)) cfg.nvcc_arch = v;
        else if (a == "--runtime-include" && val(&v)) cfg.runtime_include = v;
        else if (a == "--emu-dir" && val(&v)) cfg.emu_dir = v;
        else if (a == "--mlir-opt" && val(&v)) cfg.mlir_opt = v;
        else if (a == "--mlir-pipeline" && val(&v)) cfg.mlir_pipeline = v;
        else return usage();
    }
    if (cfg.last < cfg.first) return usage();

    std::vector<Kernel> ks;
    for (uint64_t s = cfg.first; s <= cfg.last; s++)
        ks.push_back(difftest::generate(s, cfg.dialect));

    if (!cfg.emit.empty()) {
        mkdirs(cfg.emit);
        std::string manifest;
        for (auto &k : ks) {
            write_file(cfg.emit + "/" + k.name + ".py", k.source());
            manifest += manifest_line(k, k.name + ".py");
        }
        write_file(cfg.emit + "/manifest.tsv", manifest);
        std::printf("difftest: wrote %zu kernels and manifest.tsv to %s\n", ks.size(),
                    cfg.emit.c_str());
        return 0;
    }

    // host -O1 first: the reference of the comparisons
    std::vector<Variant> variants;
    if (cfg.backends.count("mlir")) cfg.backends.insert("gpu");  // its device memory
    for (const char *b : {"host", "emu", "gpu", "mlir"})
        if (cfg.backends.count(b))
            for (int level = 1; level <= 2; level++) variants.push_back({b, level});
    if (!cfg.backends.count("host")) return usage();

    mkdirs(cfg.work);
    if (!cfg.dump.empty()) mkdirs(cfg.dump);
    Build b{cfg, cfg.work, variants, {}};
    std::vector<std::string> compile_failures;
    std::vector<bool> ok(ks.size(), false);
    int runs = 0, run_kernels = 0;
    double t_compile = 0, t_build = 0, t_run = 0;
    std::vector<std::pair<size_t, std::string>> failures;
    size_t batch = cfg.batch > 0 ? (size_t)cfg.batch : ks.size();
    auto secs = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
    for (size_t first = 0; first < ks.size(); first += batch) {
        size_t last = std::min(ks.size(), first + batch);
        std::vector<Kernel> part(ks.begin() + (long)first, ks.begin() + (long)last);
        std::string tag = cfg.batch > 0 ? "_b" + std::to_string(first / batch) : "";
        auto t0 = std::chrono::steady_clock::now();
        std::vector<bool> pok = b.compile(part, tag, &compile_failures);
        auto t1 = std::chrono::steady_clock::now();
        Libs libs;
        std::string err;
        if (!b.build(part, pok, tag, &libs, &err)) {
            std::fprintf(stderr, "difftest: %s\n", err.c_str());
            return 1;
        }
        auto t2 = std::chrono::steady_clock::now();
        for (size_t j = 0; j < part.size(); j++) {
            ok[first + j] = pok[j];
            if (!pok[j]) {
                failures.push_back({first + j, "mytritonc rejected it"});
                continue;
            }
            run_kernels++;
            std::string r = check(part[j], variants, tag, libs, &runs);
            if (!r.empty()) failures.push_back({first + j, r});
            if (!cfg.dump.empty()) dump(part[j], variants[0], tag, libs, cfg.dump);
        }
        auto t3 = std::chrono::steady_clock::now();
        t_compile += secs(t0, t1), t_build += secs(t1, t2), t_run += secs(t2, t3);
        if (cfg.batch > 0) {
            std::printf("difftest: batch %zu..%zu done, %zu failures so far\n", first, last - 1,
                        failures.size());
            std::fflush(stdout);
        }
    }
    std::string labels;
    for (auto &v : variants) labels += " " + v.label();
    std::printf(
        "difftest: seeds %llu..%llu (%s dialect): %zu kernels generated, %d compiled and run on%s; %d runs; "
        "%ld output elements compared (%ld written); %zu failures (compile %.1f s, build %.1f s, run %.1f s)\n",
        (unsigned long long)cfg.first, (unsigned long long)cfg.last,
        cfg.dialect == difftest::Dialect::Seed ? "seed" : "full", ks.size(), run_kernels,
        labels.c_str(), runs, g_compared, g_written, failures.size(), t_compile, t_build, t_run);
    for (auto &f : compile_failures) std::printf("  compile failure: %s\n", f.c_str());
    int minimized = 0;
    for (auto &f : failures) {
        const Kernel &k = ks[f.first];
        std::printf("FAIL %s (seed %llu): %s\n", k.name.c_str(), (unsigned long long)k.seed,
                    f.second.c_str());
        mkdirs(cfg.work + "/repro");
        std::string base = cfg.work + "/repro/" + k.name;
        std::vector<std::string> lines = k.body;
        if (cfg.minimize && minimized < 5) {
            lines = minimize(cfg, k, !ok[f.first], variants);
            minimized++;
        }
        write_file(base + ".py", k.source_with(lines));
        write_file(base + ".txt",
                   "failure: " + f.second + "\nkernel: " + manifest_line(k, k.name + ".py") +
                       "original (" + std::to_string(k.body.size()) + " statements): " + base +
                       ".orig.py\nminimized: " + std::to_string(lines.size()) + " statements\n");
        write_file(base + ".orig.py", k.source());
        std::printf("  reproducer: %s.py (%zu of %zu lines)\n", base.c_str(), lines.size(),
                    k.body.size());
    }
    return failures.empty() ? 0 : 1;
}
