"""The Python scripts' shared helpers (scripts/*.py import it): find
mytritonc (building it when asked), the C compiler and nvcc; compile the
runtime's sources once; compile a kernel with mytritonc and nvcc (or cc, or
c++ against test/emu's CUDA emulation) into a shared library and call its
generated launcher through ctypes; constexprs as mytritonc's -D takes them;
median CUDA-event timing and Triton's intermediate forms for the benchmarks.

Nothing here imports torch or triton: the callers import them only when
they run kernels, so that compile-only runs work on machines without them.
"""
import ctypes
import os
import re
import shutil
import statistics
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# signature dtype -> ctypes type of a scalar argument (pointers are c_void_p)
SCALAR_CTYPES = {
    "i1": ctypes.c_bool, "i8": ctypes.c_int8, "i16": ctypes.c_int16, "i32": ctypes.c_int32, "i64": ctypes.c_int64,
    "u8": ctypes.c_uint8, "u16": ctypes.c_uint16, "u32": ctypes.c_uint32, "u64": ctypes.c_uint64,
    "fp32": ctypes.c_float, "fp64": ctypes.c_double,
}
# signature dtype -> bytes per element
DTYPE_BYTES = {"i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "u8": 1, "u16": 2, "u32": 4, "u64": 8,
               "fp16": 2, "bf16": 2, "fp32": 4, "fp64": 8, "fp8e4nv": 1, "fp8e5": 1}
# signature dtype -> torch dtype attribute name
TORCH_DTYPES = {"i1": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8",
                "u16": "uint16", "u32": "uint32", "u64": "uint64", "fp16": "float16", "bf16": "bfloat16",
                "fp32": "float32", "fp64": "float64", "fp8e4nv": "float8_e4m3fn", "fp8e5": "float8_e5m2"}


def run(cmd, cwd=None):
    """(exit status, stdout and stderr together)."""
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def parse_signature(text):
    """'*fp32:16, x: i32' -> [(is_pointer, dtype, hint)] (hint: 16 or None)."""
    out = []
    for part in text.split(","):
        pieces = [p.strip() for p in part.split(":")]
        hint = None
        if len(pieces) > 1 and pieces[-1].isdigit():
            hint = int(pieces.pop())
        if len(pieces) == 2:  # "name: type"
            pieces.pop(0)
        m = re.fullmatch(r"(\*?)\s*(\w+)", pieces[0]) if len(pieces) == 1 else None
        if not m:
            raise ValueError("bad signature entry %r" % part.strip())
        out.append((m.group(1) == "*", m.group(2), hint))
    return out


def signature_text(entries):
    return ", ".join(("*" if p else "") + dt + (":%d" % h if h else "") for p, dt, h in entries)


def find_mytritonc(path=None, build_dirs=None, jobs=4, build=True, build_dir=None):
    """mytritonc: `path` if given; else the first build dir (`build_dir`, or
    `build_dirs`, default build-h200 then build) that has bin/mytritonc and
    the parser shim; else built in the first build dir when `build` is set
    (cmake, targets mytritonc and the shim)."""
    if path:
        if not os.path.exists(path):
            raise SystemExit("no mytritonc at %s" % path)
        return os.path.abspath(path)
    if build_dir:
        build_dirs = [build_dir]
    dirs = build_dirs or [os.path.join(ROOT, "build-h200"), os.path.join(ROOT, "build")]
    for d in dirs:
        exe = os.path.join(d, "bin", "mytritonc")
        if os.path.exists(exe) and os.path.exists(os.path.join(d, "bin", "mytriton_parse.py")):
            return os.path.abspath(exe)
    if not build:
        raise SystemExit("no mytritonc in " + ", ".join(dirs) +
                         ": build the repository first (cmake --preset default; ninja -C build mytritonc)")
    d = dirs[0]
    print("== building mytritonc in %s" % d, flush=True)
    if not os.path.exists(os.path.join(d, "CMakeCache.txt")):
        rc, out = run(["cmake", "-S", ROOT, "-B", d, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                       "-DMYTRITON_BUILD_TESTS=OFF", "-DMYTRITON_BUILD_BENCH=OFF"])
        if rc:
            raise SystemExit("cmake configure failed:\n" + out[-3000:])
    rc, out = run(["cmake", "--build", d, "--target", "mytritonc", "mytriton_shim", "-j", str(jobs)])
    if rc:
        raise SystemExit("building mytritonc failed:\n" + out[-3000:])
    return os.path.join(d, "bin", "mytritonc")


def find_nvcc():
    return shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"


def find_cc():
    return shutil.which("cc") or "gcc"


def cuda_include(nvcc):
    """The CUDA toolkit's include directory, beside nvcc's bin/."""
    real = shutil.which(nvcc) or nvcc
    return os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(real))), "include")


def build_runtime(work, cc="cc"):
    """The runtime's C sources compiled once, position-independent; the objects."""
    objs = []
    src_dir = os.path.join(ROOT, "runtime", "src")
    for src in sorted(os.listdir(src_dir)):
        if not src.endswith(".c"):
            continue
        obj = os.path.join(work, "rt_" + src[:-2] + ".o")
        rc, out = run([cc, "-std=c11", "-O2", "-fPIC", "-D_POSIX_C_SOURCE=200809L", "-I",
                       os.path.join(ROOT, "runtime", "include"), "-c", os.path.join(src_dir, src), "-o", obj])
        if rc:
            raise SystemExit("compiling the runtime failed:\n" + out)
        objs.append(obj)
    return objs


def define_text(v):
    """A constexpr value as mytritonc's -D takes it (a list or tuple: a tuple constexpr)."""
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, str):
        return "'" + v + "'"
    if isinstance(v, (list, tuple)):
        return "(" + ", ".join(define_text(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    return repr(v)


def compile_cuda(mytritonc, source, kernel, signature, name, out_dir, runtime_objs, constexprs=None, grid=None,
                 grid_params=(), opt=2, num_warps=None, nvcc=None, arch="sm_90", werror=False, extra=(), link=True):
    """mytritonc (CUDA backend) then nvcc into out_dir/lib<name>.so with the
    runtime. Returns the .so's path (link=False: mytritonc only, the .cu's
    path); raises RuntimeError with the log."""
    os.makedirs(out_dir, exist_ok=True)
    cmd = [mytritonc, source, "--kernel", kernel, "--signature", signature, "--name", name, "-O%d" % opt,
           "--backends", "cuda", "-o", out_dir]
    for k, v in (constexprs or {}).items():
        cmd += ["-D", "%s=%s" % (k, define_text(v))]
    if grid:
        cmd += ["--grid", grid]
    for p in grid_params:
        cmd += ["--grid-param", p]
    if num_warps:
        cmd += ["--num-warps", str(num_warps)]
    cmd += list(extra)
    rc, out = run(cmd)
    if rc:
        raise RuntimeError("mytritonc: " + out.strip())
    if not link:
        return os.path.join(out_dir, name + ".cu")
    so = os.path.join(out_dir, "lib%s.so" % name)
    cmd = [nvcc or find_nvcc(), "-shared", "-Xcompiler", "-fPIC", "-O3", "-arch=" + arch,
           "-I", os.path.join(ROOT, "runtime", "include"), "-I", out_dir]
    if werror:
        cmd += ["-Werror", "all-warnings"]
    cmd += [os.path.join(out_dir, name + ".cu")] + list(runtime_objs) + ["-lpthread", "-o", so]
    rc, out = run(cmd)
    if rc:
        raise RuntimeError("nvcc: " + out.strip()[-4000:])
    if werror and out.strip():
        raise RuntimeError("nvcc warnings: " + out.strip()[-4000:])
    return so


def compile_host(mytritonc, source, kernel, signature, name, out_dir, runtime_objs, constexprs=None, grid=None,
                 grid_params=(), opt=2, cc="cc", extra=()):
    """mytritonc (host backend) then cc into out_dir/lib<name>_host.so with the
    runtime. Returns the .so's path; raises RuntimeError with the log."""
    os.makedirs(out_dir, exist_ok=True)
    cmd = [mytritonc, source, "--kernel", kernel, "--signature", signature, "--name", name, "-O%d" % opt,
           "--backends", "host", "-o", out_dir]
    for k, v in (constexprs or {}).items():
        cmd += ["-D", "%s=%s" % (k, define_text(v))]
    if grid:
        cmd += ["--grid", grid]
    for p in grid_params:
        cmd += ["--grid-param", p]
    cmd += list(extra)
    rc, out = run(cmd)
    if rc:
        raise RuntimeError("mytritonc: " + out.strip())
    so = os.path.join(out_dir, "lib%s_host.so" % name)
    cmd = [cc, "-std=c11", "-O2", "-fPIC", "-shared", "-I", os.path.join(ROOT, "runtime", "include"), "-I", out_dir,
           os.path.join(out_dir, name + "_host.c")] + list(runtime_objs) + ["-lm", "-lpthread", "-o", so]
    rc, out = run(cmd)
    if rc:
        raise RuntimeError("cc: " + out.strip()[-4000:])
    return so


def compile_emu(cu, name, runtime_objs, cxx="c++"):
    """A generated CUDA unit (from compile_cuda(link=False)) compiled as C++
    against test/emu's CPU emulation of CUDA into lib<name>_emu.so beside it:
    its launcher runs the kernel on CPU threads. Raises RuntimeError."""
    out_dir = os.path.dirname(cu)
    cpp = os.path.join(out_dir, name + "_emu.cpp")
    shutil.copyfile(cu, cpp)
    so = os.path.join(out_dir, "lib%s_emu.so" % name)
    emu = os.path.join(ROOT, "test", "emu")
    cmd = [cxx, "-std=c++17", "-O1", "-fPIC", "-shared", "-I", os.path.join(emu, "fake_cuda"), "-I",
           os.path.join(ROOT, "runtime", "include"), "-I", out_dir, cpp, os.path.join(emu, "emu_globals.cpp")]
    cmd += list(runtime_objs) + ["-lpthread", "-o", so]
    rc, out = run(cmd)
    if rc:
        raise RuntimeError("c++ (emulated CUDA): " + out.strip()[-4000:])
    return so


class Launcher:
    """launch_<name>(stream, args...) of a generated CUDA library (or
    launch_<name>_host(args...) with host=True), typed from the kernel's
    signature plus `n_grid_params` trailing int32 grid parameters. Call with
    the stream handle (int; ignored on the host) and the bound arguments:
    addresses (int) for pointers, numbers for scalars."""

    def __init__(self, so, name, signature, n_grid_params=0, host=False):
        self.lib = ctypes.CDLL(so)
        self.host = host
        self.fn = getattr(self.lib, "launch_" + name + ("_host" if host else ""))
        self.fn.restype = ctypes.c_int
        types = [] if host else [ctypes.c_void_p]
        for is_ptr, dt, _ in parse_signature(signature):
            if is_ptr:
                types.append(ctypes.c_void_p)
            elif dt in SCALAR_CTYPES:
                types.append(SCALAR_CTYPES[dt])
            else:
                raise ValueError("no ctypes scalar for %s" % dt)
        types += [ctypes.c_int32] * n_grid_params
        self.fn.argtypes = types
        self.types = types

    def bind(self, values):
        """The arguments (without the stream) converted once, for repeated calls."""
        return [t(v) for t, v in zip(self.types[0 if self.host else 1:], values)]

    def __call__(self, stream, bound):
        if self.host:
            return self.fn(*bound)
        return self.fn(ctypes.c_void_p(stream), *bound)


def time_ms(torch, fn, reps):
    """The median of `reps` timed calls of fn (CUDA events), after 3 warm-up calls."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    return statistics.median(times)


def dump_triton(d, kernel, name):
    """A compiled Triton kernel's intermediate forms (Triton's launch returns it)
    written to d/<name>.{ttgir,ptx,sass}."""
    os.makedirs(d, exist_ok=True)
    for form in ("ttgir", "ptx", "sass"):
        try:
            text = kernel.asm[form]
        except Exception as e:  # no cuobjdump for the SASS, ...
            text = "unavailable: %s\n" % e
        with open(os.path.join(d, "%s.%s" % (name, form)), "w") as f:
            f.write(text if isinstance(text, str) else text.decode("utf-8", "replace"))
