"""The kernel side of mytriton's Triton suite: a @triton.jit function's
source with the helpers and module-level values it reads becomes one file
that mytritonc compiles for the host backend; the C compiler builds it with
mytriton's runtime into a shared object (cached by a hash of everything that
goes in); ctypes calls its generated launcher, launch_<name>_host(grid,
args...), on torch CPU tensors' data_ptr().

Triton's specialization of the arguments (3.6, runtime/jit.py and the native
specialize_impl): a tensor is a pointer to its dtype, 16-byte aligned
(`:16`) where its address is; an int is i32, i64 or u64 by its range,
divisible by 16 (`:16`) or equal to 1 (`:1`, compiled in) unless the
parameter is in do_not_specialize; a bool is i1; a float is fp32; None, a
dtype, a string and a @triton.jit function are constexprs. mytritonc takes
constexprs through -D on parameters annotated tl.constexpr, so the file it
reads annotates the parameters Triton makes constexpr (None, dtypes,
strings), and binds a function-valued one at module level (-D takes no
function). Nothing else of the kernel's text changes.

Settings (environment): MYTRITONC (the compiler), MYTRITON_SUITE_CACHE (the
cache folder), CC (the C compiler, default cc), MYTRITON_SUITE_CFLAGS
(default -O1).
"""
import ast
import builtins
import ctypes
import enum
import fcntl
import hashlib
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import types

import triton.language as tl

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", ".."))

OPTION_NAMES = {"num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion", "enable_reflect_ftz",
                "launch_cooperative_grid", "launch_pdl", "debug", "sanitize_overflow", "arch",
                "instrumentation_mode", "extern_libs", "max_num_imprecise_acc_default", "stream", "warmup",
                "allowed_dot_input_precisions", "default_dot_input_precision", "ir_override"}

TL_SIG = {"int1": "i1", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8",
          "uint16": "u16", "uint32": "u32", "uint64": "u64", "fp16": "fp16", "bf16": "bf16", "fp32": "fp32",
          "fp64": "fp64", "fp8e4nv": "fp8e4nv", "fp8e5": "fp8e5"}
# Triton's dtypes mytriton does not have, and why they are not applicable here
TL_NA = {"fp8e4b15": "fp8e4b15 (Triton supports it on GPUs before sm_90 only; mytriton has no such dtype)",
         "fp8e4b8": "fp8e4b8 (an AMD dtype)", "fp8e5b16": "fp8e5b16 (an AMD dtype)"}
TORCH_SIG = {"bool": "i1", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8",
             "uint16": "u16", "uint32": "u32", "uint64": "u64", "float16": "fp16", "bfloat16": "bf16",
             "float32": "fp32", "float64": "fp64", "float8_e4m3fn": "fp8e4nv", "float8_e5m2": "fp8e5"}
SCALAR_CTYPES = {"i1": ctypes.c_bool, "i8": ctypes.c_int8, "i16": ctypes.c_int16, "i32": ctypes.c_int32,
                 "i64": ctypes.c_int64, "u8": ctypes.c_uint8, "u16": ctypes.c_uint16, "u32": ctypes.c_uint32,
                 "u64": ctypes.c_uint64, "fp32": ctypes.c_float, "fp64": ctypes.c_double}


class Grid(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int64), ("y", ctypes.c_int64), ("z", ctypes.c_int64)]


def not_applicable(category, reason):
    """The test needs what this backend cannot be asked (Triton's IR, a GPU, ...)."""
    import pytest
    pytest.skip("not applicable (%s): %s" % (category, reason))


class HarnessLimitation(Exception):
    """What the suite's harness cannot hand to mytritonc (not mytriton's verdict)."""


class HostBuildError(RuntimeError):
    """The C compiler rejected mytritonc's host C."""


class HostLaunchError(RuntimeError):
    """The generated launcher returned an error status."""


def _rejection_class():
    from triton.compiler.errors import CompilationError

    class MytritoncRejection(CompilationError):
        """mytritonc rejected the kernel: the text is its diagnostic."""

        def __init__(self, text, first, path):
            super().__init__(text)
            self.diagnostic = text
            self.error_message = text  # Triton's CompilationError attribute
            self.src = None
            self.first_error = first
            self.path = path

    return MytritoncRejection


MytritoncRejection = _rejection_class()


def first_error(text):
    lines = text.splitlines()
    for i, ln in enumerate(lines):
        if "error:" in ln:
            msg = ln.split("error:", 1)[1].strip()
            if msg.startswith("static assertion failed") and i + 1 < len(lines):
                msg += " (at `%s`)" % lines[i + 1].strip()[:120]
            return msg
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return lines[0].strip() if lines else "(no diagnostic)"


# ---- the file mytritonc reads ----------------------------------------------------------------


def _py_literal(v):
    """A Python literal mytritonc reads for v, or None."""
    v = getattr(v, "value", v) if isinstance(v, tl.constexpr) else v
    if v is None or isinstance(v, (bool, str)):
        return repr(v)
    if isinstance(v, int):
        return repr(int(v))
    if isinstance(v, float):
        if math.isnan(v):
            return None
        if math.isinf(v):
            return "1e999" if v > 0 else "-1e999"
        return repr(float(v))
    if isinstance(v, tl.dtype) and not isinstance(v, (tl.pointer_type, tl.block_type)):
        return "tl." + v.attr_name
    if isinstance(v, (tuple, list)):
        items = [_py_literal(x) for x in v]
        if any(x is None for x in items):
            return None
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    return None


class Source:
    """The text mytritonc reads for one kernel: imports, the module-level
    values and helpers the kernel reads (transitively), then the kernel."""

    def __init__(self, jf, kernel_src, fn_bindings):
        from .jit import JITFunction
        self.JITFunction = JITFunction
        self.imports = ["import triton", "import triton.language as tl", "import math"]
        self.lines = []  # module-level bindings
        self.funcs = []  # function texts
        self.bound = {"triton": triton_module(), "tl": tl, "math": math}
        self.visited = set()
        for name, obj in fn_bindings.items():
            self.bind(name, obj)
        self.visit(jf, kernel_src)

    def text(self):
        return "\n".join(self.imports) + "\n\n" + "\n".join(self.lines) + "\n\n\n" + "\n\n\n".join(
            self.funcs) + "\n"

    def lookup(self, fn, name):
        code = fn.__code__
        if name in code.co_freevars and fn.__closure__:
            cell = fn.__closure__[code.co_freevars.index(name)]
            try:
                return True, cell.cell_contents
            except ValueError:
                return False, None
        if name in fn.__globals__:
            return True, fn.__globals__[name]
        return False, None

    def visit(self, jf, src):
        if id(jf) in self.visited:
            return
        self.visited.add(id(jf))
        tree = ast.parse(src)
        fdef = tree.body[0]
        params = {a.arg for a in fdef.args.posonlyargs + fdef.args.args + fdef.args.kwonlyargs}
        if fdef.args.vararg:
            params.add(fdef.args.vararg.arg)
        stores, loads = set(), set()
        for node in ast.walk(fdef):
            if isinstance(node, ast.Name):
                (stores if isinstance(node.ctx, (ast.Store, ast.Del)) else loads).add(node.id)
        for name in sorted(loads - params - stores):
            if name in self.bound:
                continue
            found, obj = self.lookup(jf.fn, name)
            if not found:
                continue  # a builtin, or an error mytritonc reports
            self.bind(name, obj)
        deco = "@triton.jit" + ("(noinline=True)" if getattr(jf, "noinline", False) else "")
        self.funcs.append(deco + "\n" + src.rstrip() + "\n")

    def bind(self, name, obj):
        if name in self.bound:
            if self.bound[name] is obj:
                return
            raise HarnessLimitation("two different values named %r in one kernel's module" % name)
        self.bound[name] = obj
        from .autotuner import Autotuner, Heuristics
        while isinstance(obj, (Autotuner, Heuristics)):
            obj = obj.fn
        if isinstance(obj, self.JITFunction):
            self.visit(obj, obj.src)
            if obj.__name__ != name:
                if obj.__name__ in self.bound and self.bound[obj.__name__] is not obj:
                    raise HarnessLimitation("two different functions named %r" % obj.__name__)
                self.bound[obj.__name__] = obj
                self.lines.append("%s = %s" % (name, obj.__name__))
            return
        if isinstance(obj, tl._ConstexprFunction):
            import inspect
            import textwrap
            src = textwrap.dedent(inspect.getsource(obj.fn))
            src = src[src.index("def "):] if not src.startswith("def ") else src
            self.funcs.append("@tl.constexpr_function\n" + src.rstrip() + "\n")
            if obj.__name__ != name:
                self.lines.append("%s = %s" % (name, obj.__name__))
            return
        if isinstance(obj, tl._Placeholder):
            qual = obj._qual
            if qual.startswith("tl."):
                self.lines.append("%s = %s" % (name, qual))
            elif qual.startswith("libdevice."):
                self.imports.append("from triton.language.extra import libdevice")
                self.lines.append("%s = %s" % (name, qual))
            return
        if isinstance(obj, types.FunctionType) and (obj.__module__ or "").startswith("triton."):
            self.imports.append("from %s import %s as %s" % (obj.__module__, obj.__name__, name))
            return
        if isinstance(obj, types.ModuleType):
            mod = obj.__name__
            if mod == "math":
                self.imports.append("import math as %s" % name)
            elif mod == "triton":
                self.imports.append("import triton as %s" % name)
            elif mod.startswith("triton."):
                parent, _, last = mod.rpartition(".")
                self.imports.append("from %s import %s as %s" % (parent, last, name))
            return  # numpy, torch, ...: not the kernel's
        if isinstance(obj, tl.pointer_type):
            lit = _py_literal(obj.element_ty)
            if lit:
                self.lines.append("%s = tl.pointer_type(%s)" % (name, lit))
            return
        if isinstance(obj, tl.dtype):
            lit = _py_literal(obj)
            if lit:
                self.lines.append("%s = %s" % (name, lit))
            return
        if isinstance(obj, enum.Enum) and type(obj).__name__ == "PropagateNan":
            self.lines.append("%s = tl.PropagateNan.%s" % (name, obj.name))
            return
        if isinstance(obj, (tl.constexpr, bool, int, float, str, tuple)) or obj is None:
            lit = _py_literal(obj)
            if lit is None:
                raise HarnessLimitation("module-level value %s = %r has no literal mytritonc reads" % (name, obj))
            self.lines.append("%s = tl.constexpr(%s)" % (name, lit))
            return
        # anything else (a Python function, a numpy array, ...) stays unbound: mytritonc
        # reports it where the kernel uses it


_TRITON = None


def triton_module():
    global _TRITON
    if _TRITON is None:
        import triton
        _TRITON = triton
    return _TRITON


def edit_params(src, edits):
    """The function text with parameters renamed or annotated: edits is
    name -> new text for the whole parameter (name and annotation)."""
    if not edits:
        return src
    fdef = ast.parse(src).body[0]
    lines = src.splitlines(True)
    spans = []
    for a in fdef.args.posonlyargs + fdef.args.args + fdef.args.kwonlyargs:
        if a.arg in edits:
            spans.append((a.lineno, a.col_offset, a.end_lineno, a.end_col_offset, edits[a.arg]))
    for l0, c0, l1, c1, text in sorted(spans, reverse=True):
        if l0 != l1:
            raise HarnessLimitation("a parameter over several lines")
        ln = lines[l0 - 1].encode()
        lines[l0 - 1] = (ln[:c0] + text.encode() + ln[c1:]).decode()
    return "".join(lines)


# ---- compiling and building ---------------------------------------------------------------


def mytritonc_path():
    exe = os.environ.get("MYTRITONC")
    if exe:
        return exe
    for d in ("build", "build-h200"):
        p = os.path.join(ROOT, d, "bin", "mytritonc")
        if os.path.exists(p):
            return p
    raise HarnessLimitation("no mytritonc: set MYTRITONC or build build/bin/mytritonc")


def cache_dir():
    d = os.environ.get("MYTRITON_SUITE_CACHE") or os.path.join(ROOT, "build", "triton_suite_cache")
    os.makedirs(d, exist_ok=True)
    return d


def _cc():
    return os.environ.get("CC") or shutil.which("cc") or "gcc"


def _cflags():
    return os.environ.get("MYTRITON_SUITE_CFLAGS", "-O1").split()


_RUNTIME = None


def runtime_objects():
    """mytriton's runtime compiled once (position-independent) into the cache."""
    global _RUNTIME
    if _RUNTIME is not None:
        return _RUNTIME
    src_dir = os.path.join(ROOT, "runtime", "src")
    inc = os.path.join(ROOT, "runtime", "include")
    h = hashlib.sha256()
    names = sorted(n for n in os.listdir(src_dir) if n.endswith(".c"))
    for root in (src_dir, os.path.join(inc, "mytriton")):
        for n in sorted(os.listdir(root)):
            with open(os.path.join(root, n), "rb") as f:
                h.update(n.encode() + f.read())
    h.update((_cc() + " ".join(_cflags())).encode())
    d = os.path.join(cache_dir(), "runtime-" + h.hexdigest()[:16])
    os.makedirs(d, exist_ok=True)
    objs = [os.path.join(d, n[:-2] + ".o") for n in names]
    with open(os.path.join(d, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for n, o in zip(names, objs):
            if os.path.exists(o):
                continue
            p = subprocess.run([_cc(), "-std=c11", "-O2", "-fPIC", "-D_POSIX_C_SOURCE=200809L", "-I", inc, "-c",
                                os.path.join(src_dir, n), "-o", o + ".tmp"], capture_output=True, text=True)
            if p.returncode:
                raise HarnessLimitation("compiling mytriton's runtime failed: " + p.stderr[-2000:])
            os.replace(o + ".tmp", o)
    _RUNTIME = objs
    return objs


def _exe_stamp(exe):
    st = os.stat(exe)
    return "%s:%d:%d" % (os.path.realpath(exe), st.st_mtime_ns, st.st_size)


_LIBS = {}
STATS = {"compiles": 0, "cache_hits": 0, "compile_s": 0.0, "cc_s": 0.0}


def build(kernel_name, source_text, signature, defines, options):
    """(so path, launcher name); raises MytritoncRejection, HostBuildError."""
    import time
    exe = mytritonc_path()
    args = []
    for k, v in defines:
        args += ["-D", "%s=%s" % (k, v)]
    nw = options.get("num_warps")
    if nw is not None:
        args += ["--num-warps", str(nw)]
    ns = options.get("num_stages")
    if ns is not None and 1 <= int(ns) <= 16:
        args += ["--num-stages", str(ns)]
    if options.get("debug"):
        args.append("--debug")
    key_text = json.dumps([_exe_stamp(exe), source_text, kernel_name, signature, args, _cc(), _cflags()])
    key = hashlib.sha256(key_text.encode()).hexdigest()[:24]
    name = "k_" + key[:16]
    d = os.path.join(cache_dir(), key[:2], key)
    so = os.path.join(d, "lib%s_host.so" % name)
    err = os.path.join(d, "rejected.json")
    if os.path.exists(so):
        STATS["cache_hits"] += 1
        return so, name
    if os.path.exists(err):
        STATS["cache_hits"] += 1
        with open(err) as f:
            e = json.load(f)
        _raise(e, os.path.join(d, "kernel.py"))
    STATS["compiles"] += 1
    tmp = tempfile.mkdtemp(prefix="tmp-" + key + "-", dir=cache_dir())
    py = os.path.join(tmp, "kernel.py")
    with open(py, "w") as f:
        f.write(source_text)
    cmd = [exe, py, "--kernel", kernel_name, "--signature", signature, "--name", name, "-O2", "--backends", "host",
           "-o", tmp] + args
    with open(os.path.join(tmp, "cmd.txt"), "w") as f:
        f.write(" ".join("'%s'" % c if (" " in c or not c) else c for c in cmd) + "\n")
    t0 = time.time()
    try:
        env = dict(os.environ)
        env.setdefault("MYTRITON_PYTHON", sys.executable)  # the parser shim's interpreter
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
        out, rc = (p.stdout + p.stderr), p.returncode
    except subprocess.TimeoutExpired:
        out, rc = "mytritonc timed out after 300 s", -1000
    STATS["compile_s"] += time.time() - t0
    result = None
    if rc != 0:
        kind = "rejected" if rc in (1, 2) else ("timeout" if rc == -1000 else
                                             "crash" if rc < 0 else "usage")
        result = {"kind": kind, "rc": rc, "text": out.replace(tmp, d)}
    else:
        t0 = time.time()
        cc = [_cc(), "-std=c11"] + _cflags() + ["-fPIC", "-shared", "-I", os.path.join(ROOT, "runtime", "include"),
                                               "-I", tmp, os.path.join(tmp, name + "_host.c")] + runtime_objects()
        cc += ["-lm", "-lpthread", "-o", os.path.join(tmp, "lib%s_host.so" % name)]
        try:
            p = subprocess.run(cc, capture_output=True, text=True, timeout=600)
            crc, cout = p.returncode, p.stdout + p.stderr
        except subprocess.TimeoutExpired:
            crc, cout = -1, "cc timed out after 600 s"
        STATS["cc_s"] += time.time() - t0
        if crc:
            result = {"kind": "cc", "rc": crc, "text": cout.replace(tmp, d)[-4000:]}
    if result is not None:
        with open(os.path.join(tmp, "rejected.json"), "w") as f:
            json.dump(result, f)
    os.makedirs(os.path.dirname(d), exist_ok=True)
    try:
        os.rename(tmp, d)
    except OSError:  # another process made it meanwhile
        if not os.path.isdir(d):
            raise
        shutil.rmtree(tmp, ignore_errors=True)
    if result is not None:
        _raise(result, os.path.join(d, "kernel.py"))
    return so, name


def _raise(e, path):
    if e["kind"] == "rejected" or (e["kind"] == "usage" and e["rc"] == 2):
        raise MytritoncRejection(e["text"].strip(), first_error(e["text"]), path)
    if e["kind"] == "cc":
        raise HostBuildError("the C compiler rejected mytritonc's host C (%s): %s" % (path, first_error(e["text"])))
    if e["kind"] == "crash":
        raise HostBuildError("mytritonc crashed (signal %d) on %s: %s" % (-e["rc"], path, e["text"][-500:]))
    if e["kind"] == "timeout":
        raise HostBuildError("mytritonc timed out on %s" % path)
    raise HarnessLimitation("mytritonc exit %d on %s: %s" % (e["rc"], path, first_error(e["text"])))


def launch(so, name, sig_entries, values, grid):
    lib = _LIBS.get(so)
    if lib is None:
        lib = _LIBS[so] = ctypes.CDLL(so)
        fn = getattr(lib, "launch_%s_host" % name)
        fn.restype = ctypes.c_int
        types_ = [Grid]
        for is_ptr, dt in sig_entries:
            types_.append(ctypes.c_void_p if is_ptr else SCALAR_CTYPES[dt])
        fn.argtypes = types_
        lib.mytriton_last_error.restype = ctypes.c_char_p
    fn = getattr(lib, "launch_%s_host" % name)
    g = Grid(*grid)
    rc = fn(g, *values)
    if rc:
        msg = lib.mytriton_last_error()
        raise HostLaunchError("host launch returned status %d: %s" % (rc, msg.decode("utf-8", "replace") if msg else ""))
