#!/usr/bin/env python3
"""The suite of real library kernels (bench/real/manifest.json) against
Triton: each kernel, extracted from its upstream repository by
scripts/real_extract.py into bench/real/src/, is compiled by mytritonc -O2
(CUDA backend, each kernel alone), built through find_package(mytriton) +
mytriton_add_kernels() (one CMake project for every accepted kernel, built
once), run through its generated launcher and through Triton (triton.jit on
the same extracted file, the same inputs), compared (Triton is the oracle,
the manifest's tolerance) and timed with triton.testing.do_bench
(interleaved rounds, medians). Each case runs in its own process (a CUDA
fault poisons a process), with a timeout; the processes prepare in
parallel and take the GPU one at a time. The host backend runs each kernel
again at the manifest's reduced shape (host_sizes) against Triton's output
at that shape.

On the GPU machine (Triton 3.6, torch, nvcc, CMake), from the repository root:
    python3 scripts/real_suite.py --markdown real.md --json real.json
    python3 scripts/real_suite.py --only 'liger_|mamba_' --build direct
Anywhere (no GPU, no torch): mytritonc on every entry, the accepted K of N
and the rejections' reasons, grouped:
    python3 scripts/real_suite.py --accept-only
Anywhere without a GPU: the host backend at the reduced shapes, against the
manifest's torch reference where it gives one and torch is importable; else
the outputs are only checked to be written and finite (said so per entry):
    python3 scripts/real_suite.py --host

Entries whose extracted source (bench/real/src/<name>.py and index.json) is
missing are reported as such; with none present the script exits 77 (the
ctest's skip code), saying that the snapshots are absent. With --expect
FILE (bench/real/expected.json: the entries known to be accepted and to
pass on the host), an entry listed there that now fails is an error;
--write-expected FILE records this run's.
Exit status: 0, or 1 when an expected entry fails, mytritonc crashes or
times out, or (GPU mode) an accepted kernel mismatches Triton.

mytritonc: --mytritonc PATH, else build-h200/bin/mytritonc, else
build/bin/mytritonc (built in build-h200 when neither exists).
"""
import argparse
import concurrent.futures
import ctypes
import importlib.util
import json
import math
import os
import random
import re
import shlex
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mtlib  # noqa: E402

ROOT = mtlib.ROOT
REAL = os.path.join(ROOT, "bench", "real")
SKIP = 77
GRID_PARAMS = ("real_gx", "real_gy", "real_gz")


# ---- the manifest -------------------------------------------------------------


def cdiv(a, b):
    return -(-a // b)


def next_pow2(n):
    return 1 if n <= 1 else 1 << (int(n) - 1).bit_length()


EVAL_BUILTINS = {"cdiv": cdiv, "next_pow2": next_pow2, "min": min, "max": max, "int": int, "float": float,
                 "abs": abs, "math": math, "len": len, "sum": sum, "tuple": tuple, "range": range}


def evaluate(expr, env):
    if isinstance(expr, (int, float, bool)) or expr is None:
        return expr
    return eval(str(expr), {"__builtins__": EVAL_BUILTINS}, env)


def is_dtype_name(v):
    return isinstance(v, str) and re.fullmatch(r"tl\.\w+", v) is not None


class EntryError(Exception):
    pass


class NeedsTorch(Exception):
    """An input maker (init: expr) that only torch can run: the torch-less host run skips the entry."""


class Entry:
    """One manifest entry at its full sizes (host=False) or reduced ones."""

    def __init__(self, raw, meta, host=False):
        self.raw, self.meta, self.host = raw, meta, host
        self.name = raw["name"]
        self.repo = raw["repo"]
        self.function = raw["function"]
        self.c_name = "rk_" + re.sub(r"\W", "_", self.name)
        self.sizes = dict(raw["sizes"])
        if host:
            self.sizes.update(raw.get("host_sizes", {}))
        env = dict(self.sizes)
        self.constexprs = {}
        ce = dict(raw.get("constexprs", {}))
        if host:
            ce.update(raw.get("host_constexprs", {}))
        params = meta["params"]
        ce_params = {p["name"]: p for p in params if p["constexpr"]}
        for k, v in ce.items():
            if k not in ce_params:
                raise EntryError("constexpr %s is not a tl.constexpr parameter of %s" % (k, self.function))
            if isinstance(v, dict):  # {"expr": "next_pow2(N)"}: computed from the sizes
                v = evaluate(v["expr"], env)
            self.constexprs[k] = v
        for k, p in ce_params.items():
            if k not in self.constexprs and not p["has_default"]:
                raise EntryError("constexpr %s has no default and no value in the manifest" % k)
        for k, v in self.constexprs.items():
            env[k] = v
        for k, p in ce_params.items():
            if k not in env and isinstance(p["default"], (int, float, bool)):
                env[k] = p["default"]
        self.num_warps = raw.get("num_warps")
        self.num_stages = raw.get("num_stages")
        runtime = [p["name"] for p in params if not p["constexpr"]]
        sig = mtlib.parse_signature(raw["signature"])
        if len(sig) != len(runtime):
            raise EntryError("the signature has %d entries, %s has %d runtime parameters (%s)" % (
                len(sig), self.function, len(runtime), ", ".join(runtime)))
        args = raw["args"]
        missing = [n for n in runtime if n not in args]
        extra = [n for n in args if n not in runtime]
        if missing or extra:
            raise EntryError("args: %s%s" % ("missing " + ", ".join(missing) if missing else "",
                                              (" unknown " + ", ".join(extra)) if extra else ""))
        self.params = []  # (name, is_ptr, dtype, hint, spec)
        self.shapes = {}
        for name, (is_ptr, dt, hint) in zip(runtime, sig):
            spec = args[name]
            if is_ptr != isinstance(spec, dict):
                raise EntryError("argument %s: the signature says %s, args gives %s" % (
                    name, "a pointer" if is_ptr else "a scalar", "a tensor" if isinstance(spec, dict) else "a value"))
            if is_ptr:
                shape = evaluate(spec["shape"], env)
                self.shapes[name] = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
            self.params.append((name, is_ptr, dt, hint, spec))

        def stride(name, dim):
            s = self.shapes[name]
            return math.prod(s[dim + 1:]) if dim >= 0 else 1

        env["stride"] = stride
        env["numel"] = lambda name: math.prod(self.shapes[name])
        env["shape"] = lambda name, dim: self.shapes[name][dim]
        self.scalars = {}
        for name, is_ptr, dt, _, spec in self.params:
            if not is_ptr:
                v = evaluate(spec, env)
                if dt.startswith(("i", "u")) and dt != "i1":
                    if int(v) != v:
                        raise EntryError("argument %s (%s) = %r is not an integer" % (name, dt, v))
                    v = int(v)
                else:
                    v = float(v)
                self.scalars[name] = v
                env[name] = v
        self.env = env
        grid = evaluate("(" + raw["grid"] + ",)", env)
        self.grid = tuple(int(g) for g in grid)
        if not 1 <= len(self.grid) <= 3:
            raise EntryError("grid %r: 1 to 3 dimensions" % (raw["grid"],))
        # Triton's specialization of the same call: pointers of fresh torch
        # allocations are 16-byte aligned, integers divisible by 16 get :16,
        # integers equal to 1 are constexprs (:1); do_not_specialize ones neither
        dns = set(meta.get("do_not_specialize", []))
        parts = []
        for name, is_ptr, dt, hint, spec in self.params:
            h = hint
            if h is None and name not in dns:
                if is_ptr and spec.get("align16", True):
                    h = 16
                elif not is_ptr and dt.startswith(("i", "u")) and dt != "i1":
                    v = self.scalars[name]
                    h = 1 if v == 1 else (16 if v % 16 == 0 else None)
            parts.append(("*" if is_ptr else "") + dt + (":%d" % h if h else ""))
        self.signature = ", ".join(parts)
        self.grid_text = ", ".join(GRID_PARAMS[:len(self.grid)])

    def tensor_bytes(self):
        return sum(math.prod(self.shapes[n]) * mtlib.DTYPE_BYTES[dt] for n, p, dt, _, _ in self.params if p)

    def work(self):
        """('TFLOP/s', flops) or ('GB/s', bytes)."""
        env = dict(self.env, nbytes=lambda n: math.prod(self.shapes[n]) * mtlib.DTYPE_BYTES[self.dtype_of(n)])
        if "flops" in self.raw:
            return "TFLOP/s", evaluate(self.raw["flops"], env)
        if "bytes" in self.raw:
            return "GB/s", evaluate(self.raw["bytes"], env)
        return "GB/s", self.tensor_bytes()

    def dtype_of(self, name):
        return next(dt for n, _, dt, _, _ in self.params if n == name)

    def tolerance(self, name, dt):
        atol, rtol = {"fp16": (1e-2, 1e-2), "bf16": (2e-2, 2e-2), "fp32": (1e-4, 1e-4), "fp64": (1e-9, 1e-9),
                      "fp8e4nv": (0.125, 0.125), "fp8e5": (0.25, 0.25)}.get(dt, (0, 0))
        tol = dict(self.raw.get("tol", {}))
        spec = dict(self.params_by_name()[name][4])
        tol.update(spec.get("tol", {}))
        return tol.get("atol", atol), tol.get("rtol", rtol), tol.get("max_bad", 0)

    def params_by_name(self):
        return {p[0]: p for p in self.params}

    def mytritonc_args(self, src, backend):
        """mytritonc's arguments (without the executable and -o)."""
        cmd = [src, "--kernel", self.function, "--signature", self.signature, "--name",
               self.c_name + ("_hs" if backend == "host" else ""), "-O2", "--backends", backend]
        for k, v in self.constexprs.items():
            cmd += ["-D", "%s=%s" % (k, v if is_dtype_name(v) else mtlib.define_text(v))]
        cmd += ["--grid", self.grid_text]
        for g in GRID_PARAMS[:len(self.grid)]:
            cmd += ["--grid-param", g]
        if backend == "cuda":
            if self.num_warps:
                cmd += ["--num-warps", str(self.num_warps)]
            if self.num_stages:
                cmd += ["--num-stages", str(self.num_stages)]
        return cmd

    def cmake_block(self, src, backend):
        """The KERNEL block of mytriton_add_kernels() for this entry."""
        def q(s):
            return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
        lines = ["  KERNEL %s" % self.function, "    SOURCE %s" % q(src),
                 "    NAME %s" % (self.c_name + ("_hs" if backend == "host" else "")),
                 "    SIGNATURE %s" % q(self.signature)]
        if self.constexprs:
            lines.append("    CONSTEXPR " + " ".join(
                q("%s=%s" % (k, v if is_dtype_name(v) else mtlib.define_text(v))) for k, v in self.constexprs.items()))
        lines.append("    GRID %s GRID_PARAMS %s" % (q(self.grid_text), " ".join(GRID_PARAMS[:len(self.grid)])))
        if backend == "cuda" and self.num_warps:
            lines.append("    NUM_WARPS %d" % self.num_warps)
        if backend == "cuda" and self.num_stages:
            lines.append("    NUM_STAGES %d" % self.num_stages)
        return "\n".join(lines)


def load_manifest(path, src_dir, only):
    """(raw entries, index metadata or {}, code bases)."""
    man = json.load(open(path))
    raw = man["kernels"]
    names = [e["name"] for e in raw]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise SystemExit("duplicate entry names: " + ", ".join(dup))
    if only:
        raw = [e for e in raw if re.search(only, e["name"]) or re.search(only, e["repo"])]
    idx_path = os.path.join(src_dir, "index.json")
    index = json.load(open(idx_path))["entries"] if os.path.exists(idx_path) else {}
    return raw, index, man.get("repos", {})


def source_of(src_dir, name):
    return os.path.abspath(os.path.join(src_dir, name + ".py"))


def first_error_line(text):
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    for ln in lines:
        if "error:" in ln:
            return ln.strip()
    return lines[0].strip() if lines else ""


def reason_key(line):
    """A diagnostic's first line without its location, numbers masked: the group."""
    m = re.search(r"error:\s*(.*)", line)
    text = m.group(1) if m else line
    return re.sub(r"\d+", "N", text)[:160]


# ---- inputs ---------------------------------------------------------------------

FLOAT_DTS = ("fp16", "bf16", "fp32", "fp64", "fp8e4nv", "fp8e5")


def make_torch_tensor(torch, entry, name, dt, spec, gen, device, fill_out):
    """A tensor of the entry's argument: spec's init (randn, rand, randint, zeros,
    ones, full, arange, expr); outputs filled with fill_out ('nan' or 'sentinel')."""
    shape = entry.shapes[name]
    tdt = getattr(torch, mtlib.TORCH_DTYPES[dt])
    if spec.get("out"):
        v = float("nan") if fill_out == "nan" and dt in FLOAT_DTS else sentinel(dt)
        if dt in ("fp8e4nv", "fp8e5"):  # filled through fp32: fill_ may lack the fp8 types
            return torch.full(shape, v, dtype=torch.float32, device=device).to(tdt)
        return torch.full(shape, v, dtype=tdt, device=device)
    init = spec.get("init", "randn")
    env = dict(entry.env, torch=torch, gen=gen, device=device, shape_=shape, dtype_=tdt)
    if init == "randn":
        t = torch.randn(shape, generator=gen, device=device, dtype=torch.float32)
    elif init == "rand":
        t = torch.rand(shape, generator=gen, device=device, dtype=torch.float32)
    elif init == "randint":
        lo, hi = evaluate(spec.get("low", 0), entry.env), evaluate(spec["high"], entry.env)
        return torch.randint(lo, hi, shape, generator=gen, device=device, dtype=torch.int64).to(tdt)
    elif init == "zeros":
        return torch.zeros(shape, dtype=tdt, device=device)
    elif init == "ones":
        return torch.ones(shape, dtype=tdt, device=device)
    elif init == "full":
        return torch.full(shape, evaluate(spec["value"], entry.env), dtype=tdt, device=device)
    elif init == "arange":
        n = math.prod(shape)
        t = torch.arange(n, device=device, dtype=torch.int64) % evaluate(spec.get("mod", n), entry.env)
        return (t * evaluate(spec.get("step", 1), entry.env)).reshape(shape).to(tdt)
    elif init == "perm":  # distinct indices below high, in random order
        n = math.prod(shape)
        t = torch.randperm(evaluate(spec["high"], entry.env), generator=gen, device=device)[:n]
        return t.reshape(shape).to(tdt)
    elif init == "expr":
        t = eval(spec["expr"], {"__builtins__": EVAL_BUILTINS}, env)
        return t.to(device=device, dtype=tdt).reshape(shape).contiguous()
    else:
        raise EntryError("argument %s: unknown init %r" % (name, init))
    scale, shift = evaluate(spec.get("scale", 1.0), entry.env), evaluate(spec.get("shift", 0.0), entry.env)
    if scale != 1.0 or shift != 0.0:
        t = t * scale + shift
    return t.to(tdt)


def sentinel(dt):
    return 12345.0 if dt in FLOAT_DTS and dt not in ("fp8e4nv", "fp8e5") else (100.0 if dt in FLOAT_DTS else 0x5A)


def mismatch(torch, got, want, atol, rtol, max_bad):
    """'' when got matches want within atol + rtol * |want| (NaN matching NaN;
    at most max_bad elements off), else a short text."""
    def as_double(t):  # on got's device (the GPU compares GPU tensors)
        t = t.detach().to(got.device)
        if t.is_floating_point() and t.element_size() == 1:  # fp8: through fp32
            t = t.float()
        return t.double()

    g = as_double(got)
    w = as_double(want).reshape(g.shape)
    close = (g - w).abs() <= atol + rtol * w.abs()
    close |= (torch.isnan(g) & torch.isnan(w)) | (g == w)
    bad = int((~close).sum())
    if bad <= max_bad:
        return ""
    diff = (g - w).abs()
    diff = torch.where(torch.isnan(diff), torch.full_like(diff, float("inf")), diff)
    i = int(torch.argmax(diff))
    return "%d/%d differ, max |diff| %.3g at %d (%r vs %r)" % (
        bad, g.numel(), float(diff.flatten()[i]), i, float(g.flatten()[i]), float(w.flatten()[i]))


# Pure-Python buffers for the host backend where torch is not importable.


def _fp8_table(exp_bits, man_bits, bias, fn):
    vals = []
    for b in range(256):
        s, e, m = b >> 7, (b >> man_bits) & ((1 << exp_bits) - 1), b & ((1 << man_bits) - 1)
        if fn and e == (1 << exp_bits) - 1 and m == (1 << man_bits) - 1:
            v = float("nan")
        elif not fn and e == (1 << exp_bits) - 1:
            v = float("nan") if m else float("inf")
        elif e == 0:
            v = m / (1 << man_bits) * 2.0 ** (1 - bias)
        else:
            v = (1 + m / (1 << man_bits)) * 2.0 ** (e - bias)
        vals.append(-v if s else v)
    return vals


FP8 = {"fp8e4nv": _fp8_table(4, 3, 7, True), "fp8e5": _fp8_table(5, 2, 15, False)}
INT_CODES = {"i8": "b", "i16": "h", "i32": "i", "i64": "q", "u8": "B", "u16": "H", "u32": "I", "u64": "Q", "i1": "?"}


def encode(dt, v):
    if dt == "fp32":
        return struct.pack("<f", v)
    if dt == "fp64":
        return struct.pack("<d", v)
    if dt == "fp16":
        return struct.pack("<e", v)
    if dt == "bf16":
        b = struct.unpack("<I", struct.pack("<f", v))[0]
        b = (b + 0x7FFF + ((b >> 16) & 1)) >> 16
        return struct.pack("<H", b & 0xFFFF)
    if dt in FP8:
        tab = FP8[dt]
        best = min((i for i in range(256) if tab[i] == tab[i]), key=lambda i: abs(tab[i] - v))
        return bytes([best])
    return struct.pack("<" + INT_CODES[dt], bool(v) if dt == "i1" else int(v))


def decode_all(dt, raw):
    if dt in FP8:
        return [FP8[dt][b] for b in raw]
    if dt == "bf16":
        return [struct.unpack("<f", struct.pack("<I", h << 16))[0]
                for h in struct.unpack("<%dH" % (len(raw) // 2), raw)]
    code = {"fp32": "f", "fp64": "d", "fp16": "e"}.get(dt) or INT_CODES[dt]
    n = len(raw) // struct.calcsize(code)
    return list(struct.unpack("<%d%s" % (n, code), raw))


class PyTensor:
    def __init__(self, entry, name, dt, spec, rng):
        self.dt = dt
        n = math.prod(entry.shapes[name])
        esize = mtlib.DTYPE_BYTES[dt]
        init = spec.get("init", "randn")
        if spec.get("out"):
            vals = [sentinel(dt)] * n
        elif init in ("randn", "rand"):
            scale, shift = evaluate(spec.get("scale", 1.0), entry.env), evaluate(spec.get("shift", 0.0), entry.env)
            f = rng.gauss if init == "randn" else (lambda a, b: rng.random())
            vals = [f(0.0, 1.0) * scale + shift for _ in range(n)]
        elif init == "randint":
            lo, hi = evaluate(spec.get("low", 0), entry.env), evaluate(spec["high"], entry.env)
            vals = [rng.randrange(lo, hi) for _ in range(n)]
        elif init in ("zeros", "ones", "full"):
            vals = [{"zeros": 0, "ones": 1}.get(init) if init != "full" else evaluate(spec["value"], entry.env)] * n
        elif init == "arange":
            mod, step = evaluate(spec.get("mod", n), entry.env), evaluate(spec.get("step", 1), entry.env)
            vals = [(i % mod) * step for i in range(n)]
        elif init == "perm":
            vals = rng.sample(range(evaluate(spec["high"], entry.env)), n)
        else:
            raise NeedsTorch("input %s (init %r) needs torch" % (name, init))
        data = b"".join(encode(dt, v) for v in vals) if len(set(vals)) > 1 or not vals else encode(dt, vals[0]) * n
        self.buf = ctypes.create_string_buffer(data, max(1, n * esize))
        self.nbytes = n * esize
        self.sentinel_bits = encode(dt, sentinel(dt)) if spec.get("out") else None

    def ptr(self):
        return ctypes.addressof(self.buf)

    def values(self):
        return decode_all(self.dt, self.buf.raw[:self.nbytes])


# ---- the accept step -------------------------------------------------------------


def accept_one(entry, src, mytritonc, work, timeout, backend="cuda"):
    """{'accepted': bool, 'reason': first diagnostic line, 'crash': bool}."""
    out = os.path.join(work, "accept", entry.c_name + ("_hs" if backend == "host" else ""))
    os.makedirs(out, exist_ok=True)
    cmd = [mytritonc] + entry.mytritonc_args(src, backend) + ["-o", out]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"accepted": False, "reason": "mytritonc timed out after %d s" % timeout, "crash": True}
    if p.returncode == 0:
        return {"accepted": True, "reason": "", "crash": False, "out": out}
    if p.returncode == 1:
        reason = first_error_line(p.stdout).replace(os.path.dirname(src) + os.sep, "")
        return {"accepted": False, "reason": reason, "crash": False, "log": p.stdout[-4000:]}
    return {"accepted": False, "reason": "mytritonc exit %d: %s" % (p.returncode, first_error_line(p.stdout)),
            "crash": True, "log": p.stdout[-4000:]}


# ---- building (GPU mode) -----------------------------------------------------------


def install_prefix(opts, work):
    """An installed mytriton (compiler and runtime components) for find_package."""
    if opts.prefix:
        return opts.prefix
    exe = mtlib.find_mytritonc(opts.mytritonc, build_dir=opts.build_dir, jobs=opts.jobs)
    bdir = os.path.dirname(os.path.dirname(exe))
    rc, out = mtlib.run(["cmake", "--build", bdir, "--target", "mytritonc", "mytriton_shim", "mytriton_runtime",
                         "-j", str(opts.jobs)])
    if rc:
        raise RuntimeError("building mytriton's runtime in %s failed: %s" % (bdir, out[-2000:]))
    prefix = os.path.join(work, "prefix")
    for comp in ("compiler", "runtime"):
        rc, out = mtlib.run(["cmake", "--install", bdir, "--component", comp, "--prefix", prefix])
        if rc:
            raise RuntimeError("cmake --install %s --component %s failed: %s" % (bdir, comp, out[-2000:]))
    return prefix


def build_cmake(entries, src_dir, opts, work, with_host):
    """One CMake project (find_package(mytriton), one mytriton_add_kernels()
    library per kernel and backend) built once; {name: {cuda: so|None, host:
    so|None, error: text}}, or raises RuntimeError when the project does not
    configure."""
    prefix = install_prefix(opts, work)
    proj = os.path.join(work, "cmake")
    os.makedirs(proj, exist_ok=True)
    lines = ["cmake_minimum_required(VERSION 3.24)",
             "project(mytriton_real LANGUAGES C CXX%s)" % (" CUDA" if not opts.host else ""),
             "find_package(mytriton REQUIRED)", ""]
    backends = ["host"] if opts.host else (["cuda", "host"] if with_host else ["cuda"])
    for e in entries:
        src = source_of(src_dir, e[0].name)
        for b in backends:
            ent = e[0] if b == "cuda" else e[1]
            if ent is None:
                continue
            lines.append("mytriton_add_kernels(real_%s%s SHARED\n%s\n  BACKENDS %s)\n" % (
                ent.c_name, "_hs" if b == "host" else "", ent.cmake_block(src, b), b))
    with open(os.path.join(proj, "CMakeLists.txt"), "w") as f:
        f.write("\n".join(lines))
    bdir = os.path.join(proj, "build")
    cfg = ["cmake", "-S", proj, "-B", bdir, "-G", "Ninja", "-DCMAKE_PREFIX_PATH=" + os.path.abspath(prefix),
           "-DCMAKE_BUILD_TYPE=Release"]
    if not opts.host:
        cfg += ["-DCMAKE_CUDA_ARCHITECTURES=" + opts.arch.replace("sm_", ""),
                "-DCMAKE_CUDA_COMPILER=" + (shutil.which(opts.nvcc) or opts.nvcc)]
    t0 = time.time()
    rc, out = mtlib.run(cfg)
    with open(os.path.join(work, "cmake-configure.log"), "w") as f:
        f.write(out)
    if rc:
        raise RuntimeError("the CMake project does not configure: " + first_error_line(out.replace("CMake Error", "error:")))
    rc, out = mtlib.run(["cmake", "--build", bdir, "-j", str(opts.jobs), "--", "-k", "0"])
    with open(os.path.join(work, "cmake-build.log"), "w") as f:
        f.write(out)
    print("== CMake project of %d kernels (%s) configured and built in %.0f s (exit %d; log %s)" % (
        len(entries), "+".join(backends), time.time() - t0, rc, os.path.join(work, "cmake-build.log")), flush=True)
    res = {}
    for e in entries:
        r = {"cuda": None, "host": None, "error": ""}
        for b in backends:
            ent = e[0] if b == "cuda" else e[1]
            if ent is None:
                continue
            so = os.path.join(bdir, "libreal_%s%s.so" % (ent.c_name, "_hs" if b == "host" else ""))
            if os.path.exists(so):
                r[b] = so
            elif not r["error"]:
                r["error"] = "%s build: %s" % (b, build_error(out, ent.c_name + ("_hs" if b == "host" else "")))
        res[e[0].name] = r
    return res


def build_error(log, c_name):
    lines = log.splitlines()
    for i, ln in enumerate(lines):
        if ln.startswith("FAILED:") and c_name in ln:
            for nxt in lines[i + 1:i + 40]:
                if "error" in nxt:
                    return nxt.strip()[:300]
            return ln[:300]
    return "no library (see cmake-build.log)"


def build_direct(entries, src_dir, opts, work, runtime_objs, with_host):
    """mytritonc + nvcc (and cc) per kernel, as scripts/mtlib.py does."""
    exe = mtlib.find_mytritonc(opts.mytritonc, build_dir=opts.build_dir, jobs=opts.jobs)

    def one(e):
        full, small = e
        r = {"cuda": None, "host": None, "error": ""}
        src = source_of(src_dir, full.name)
        d = os.path.join(work, "direct", full.c_name)
        if not opts.host:
            try:
                r["cuda"] = mtlib.compile_cuda(
                    exe, src, full.function, full.signature, full.c_name, d, runtime_objs,
                    constexprs=constexpr_defines(full), grid=full.grid_text, grid_params=GRID_PARAMS[:len(full.grid)],
                    opt=2, num_warps=full.num_warps, nvcc=opts.nvcc, arch=opts.arch,
                    extra=["--num-stages", str(full.num_stages)] if full.num_stages else [])
            except RuntimeError as ex:
                r["error"] = "cuda build: " + first_error_line(str(ex))
        if small is not None and (with_host or opts.host):
            try:
                r["host"] = mtlib.compile_host(
                    exe, src, small.function, small.signature, small.c_name + "_hs", d + "_hs", runtime_objs,
                    constexprs=constexpr_defines(small), grid=small.grid_text,
                    grid_params=GRID_PARAMS[:len(small.grid)], opt=2, cc=opts.cc)
            except RuntimeError as ex:
                r["error"] = (r["error"] + "; " if r["error"] else "") + "host build: " + first_error_line(str(ex))
        return full.name, r

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        return dict(pool.map(one, entries))


def constexpr_defines(entry):
    """Constexprs for mtlib (which writes them with define_text): dtypes bare."""
    out = {}
    for k, v in entry.constexprs.items():
        out[k] = _RawDefine(v) if is_dtype_name(v) else v
    return out


class _RawDefine:
    def __init__(self, v):
        self.v = v

    def __repr__(self):
        return self.v


# ---- one case (its own process) -------------------------------------------------------


class GpuLock:
    def __init__(self, path):
        self.path = path
        self.f = None

    def __enter__(self):
        import fcntl
        self.f = open(self.path, "w")
        fcntl.flock(self.f, fcntl.LOCK_EX)
        return self

    def __exit__(self, *a):
        import fcntl
        fcntl.flock(self.f, fcntl.LOCK_UN)
        self.f.close()


def load_module(path, name):
    # the modules an extracted kernel imports (<entry>__<alias>.py) lie beside it
    if os.path.dirname(path) not in sys.path:
        sys.path.insert(0, os.path.dirname(path))
    spec = importlib.util.spec_from_file_location("real_" + re.sub(r"\W", "_", name), path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# keywords that Triton's kernel[grid](...) takes for itself (JITFunction.run, launch options)
TRITON_LAUNCH_KEYWORDS = {"grid", "warmup", "num_warps", "num_stages", "num_ctas", "maxnreg", "debug",
                          "enable_fp_fusion", "launch_cooperative_grid", "stream"}


def triton_kwargs(tl, entry):
    kw = {k: (getattr(tl, v[3:]) if is_dtype_name(v) else v) for k, v in entry.constexprs.items()}
    if entry.num_warps:
        kw["num_warps"] = entry.num_warps
    if entry.num_stages:
        kw["num_stages"] = entry.num_stages
    return kw


def make_inputs(torch, entry, device, fill_out):
    gen = torch.Generator(device=device)
    gen.manual_seed(zlib.crc32(entry.name.encode()))
    tensors = {}
    for name, is_ptr, dt, _, spec in entry.params:
        if is_ptr:
            tensors[name] = make_torch_tensor(torch, entry, name, dt, spec, gen, device, fill_out)
    return tensors


def call_values(entry, tensors, ptr):
    """The runtime parameters' values in order (the generated launcher's arguments)."""
    return [ptr(tensors[n]) if p else entry.scalars[n] for n, p, _, _, _ in entry.params]


def triton_call(tl, entry, tensors):
    """(args, kwargs) of Triton's call: the same values as call_values, each
    parameter once. The runtime parameters before the first constexpr go by
    position, every later one by keyword with the constexprs (a constexpr
    between runtime parameters, as in unsloth's _rms_layernorm_forward, would
    otherwise shift the positional ones onto it: 'got multiple values')."""
    values = dict(zip((p[0] for p in entry.params), call_values(entry, tensors, lambda t: t)))
    args, kw, by_name = [], {}, False
    for p in entry.meta["params"]:
        by_name = by_name or p["constexpr"]
        if not p["constexpr"]:
            if by_name:
                kw[p["name"]] = values[p["name"]]
            else:
                args.append(values[p["name"]])
    clash = sorted(set(kw) & TRITON_LAUNCH_KEYWORDS)
    if clash:
        raise EntryError("parameter %s, after a constexpr, is also a keyword of Triton's launch" % ", ".join(clash))
    kw.update(triton_kwargs(tl, entry))
    return args, kw


def compare_all(torch, entry, mine, theirs, label):
    problems = []
    for name, is_ptr, dt, _, _ in entry.params:
        if not is_ptr:
            continue
        atol, rtol, max_bad = entry.tolerance(name, dt)
        m = mismatch(torch, mine[name], theirs[name], atol, rtol, max_bad)
        if m:
            problems.append("%s%s: %s" % (label, name, m))
    return problems


def run_case(opts):
    """The body of `--case NAME`: a JSON result in opts.result."""
    res = {"name": opts.case}
    t_start = time.time()
    try:
        raw, index, _ = load_manifest(opts.manifest, opts.src, "^%s$" % re.escape(opts.case))
        raw = raw[0]
        full = Entry(raw, index[raw["name"]])
        small = Entry(raw, index[raw["name"]], host=True) if opts.host_lib else None
        import torch
        import triton
        import triton.language as tl
        from triton import testing
        kernel = getattr(load_module(source_of(opts.src, full.name), full.name), full.function)
        with GpuLock(opts.lock):
            res.update(gpu_part(torch, triton, tl, testing, kernel, full, small, opts))
        if small is not None and "host_inputs" in res:
            res.update(host_part(torch, small, opts, res.pop("host_inputs"), res.pop("host_triton")))
        else:
            res.pop("host_inputs", None)
            res.pop("host_triton", None)
    except Exception as ex:  # one case's failure is its result
        res.setdefault("result", "error: %s: %s" % (type(ex).__name__, " ".join(str(ex).strip().splitlines()[-1:])))
    res["seconds"] = round(time.time() - t_start, 1)
    with open(opts.result, "w") as f:
        json.dump(res, f)
    return 0


def gpu_part(torch, triton, tl, testing, kernel, full, small, opts):
    r = {}
    dev = "cuda"
    mine = make_inputs(torch, full, dev, "nan")
    theirs = {k: v.clone() for k, v in mine.items()}
    initial = {k: v.clone() for k, v in mine.items()} if full.raw.get("ref") else {}
    launcher = mtlib.Launcher(opts.lib, full.c_name, full.signature, len(full.grid))
    bound = launcher.bind(call_values(full, mine, lambda t: t.data_ptr()) + list(full.grid))
    tr_args, kw = triton_call(tl, full, theirs)
    grid = full.grid

    def mt():
        return launcher(torch.cuda.current_stream().cuda_stream, bound)

    def tr():
        kernel[grid](*tr_args, **kw)

    rc = mt()
    torch.cuda.synchronize()
    if rc:
        r["result"] = "launch error: cudaError %d" % rc
        return r
    try:
        tr()
        torch.cuda.synchronize()
    except Exception as ex:
        r["result"] = "Triton error: %s: %s" % (type(ex).__name__, " ".join(str(ex).strip().splitlines()[-1:])[:300])
        return r
    problems = compare_all(torch, full, mine, theirs, "")
    r["result"] = "ok" if not problems else "MISMATCH " + "; ".join(problems)[:600]
    # the manifest's torch references (used by --host where Triton cannot run),
    # checked here against Triton's output: a disagreement is the manifest's to fix
    refs = full.raw.get("ref", {})
    if refs:
        env = dict(full.env, torch=torch, F=torch.nn.functional, math=math)
        env.update(initial)
        bad = []
        for name, expr in refs.items():
            try:
                want = eval(expr, {"__builtins__": EVAL_BUILTINS}, env)
                atol, rtol, max_bad = full.tolerance(name, full.dtype_of(name))
                rt = full.raw.get("ref_tol", {})
                m = mismatch(torch, theirs[name], want, max(atol, rt.get("atol", 0)), max(rtol, rt.get("rtol", 0)),
                             max_bad)
            except Exception as ex:
                m = "%s: %s" % (type(ex).__name__, " ".join(str(ex).splitlines()[-1:])[:120])
            if m:
                bad.append("%s: %s" % (name, m))
        r["ref"] = "ok" if not bad else "; ".join(bad)[:300]
        del env
    mt_times, tr_times = [], []
    for _ in range(opts.rounds):
        mt_times.append(testing.do_bench(mt, warmup=opts.warmup, rep=opts.rep, return_mode="median"))
        tr_times.append(testing.do_bench(tr, warmup=opts.warmup, rep=opts.rep, return_mode="median"))
    r["mt_ms"], r["tr_ms"] = statistics.median(mt_times), statistics.median(tr_times)
    r["round_ratios"] = [round(a / b, 4) for a, b in zip(mt_times, tr_times)]
    del mine, theirs, initial
    if small is not None:
        # Triton's output at the reduced shape, on the GPU, from CPU inputs
        inputs = make_inputs(torch, small, "cpu", "nan")
        gpu = {k: v.to(dev) for k, v in inputs.items()}
        try:
            s_args, s_kw = triton_call(tl, small, gpu)
            kernel[small.grid](*s_args, **s_kw)
            torch.cuda.synchronize()
            r["host_inputs"] = inputs
            r["host_triton"] = {k: v.cpu() for k, v in gpu.items()}
        except Exception as ex:
            r["host"] = "Triton error at the host shape: %s" % " ".join(str(ex).strip().splitlines()[-1:])[:200]
    return r


def host_part(torch, small, opts, inputs, want):
    # a few threads: the case that holds the GPU meanwhile keeps its CPU
    os.environ.setdefault("MYTRITON_HOST_THREADS", "4")
    launcher = mtlib.Launcher(opts.host_lib, small.c_name + "_hs", small.signature, len(small.grid), host=True)
    bound = launcher.bind(call_values(small, inputs, lambda t: t.data_ptr()) + list(small.grid))
    t0 = time.time()
    rc = launcher(0, bound)
    ms = (time.time() - t0) * 1e3
    if rc:
        return {"host": "host launch returned mytriton_status %d" % rc}
    problems = compare_all(torch, small, inputs, want, "")
    return {"host": "ok" if not problems else "MISMATCH " + "; ".join(problems)[:400], "host_ms": ms}


def run_host_case(opts):
    """`--host-case NAME`: the host backend on the CPU at the reduced shape,
    against the torch reference (where given and torch imports) or checked
    for written, finite outputs."""
    res = {"name": opts.host_case}
    try:
        raw, index, _ = load_manifest(opts.manifest, opts.src, "^%s$" % re.escape(opts.host_case))
        raw = raw[0]
        small = Entry(raw, index[raw["name"]], host=True)
        launcher = mtlib.Launcher(opts.host_lib, small.c_name + "_hs", small.signature, len(small.grid), host=True)
        try:
            import torch
        except ImportError:
            torch = None
        refs = raw.get("ref", {})
        if torch is not None:
            tensors = make_inputs(torch, small, "cpu", "sentinel")
            before = {k: v.clone() for k, v in tensors.items()}
            ptr = (lambda t: t.data_ptr())
        else:
            rng = random.Random(zlib.crc32(small.name.encode()))
            tensors = {n: PyTensor(small, n, dt, spec, rng) for n, p, dt, _, spec in small.params if p}
            ptr = (lambda t: t.ptr())
        bound = launcher.bind(call_values(small, tensors, ptr) + list(small.grid))
        t0 = time.time()
        rc = launcher(0, bound)
        res["host_ms"] = (time.time() - t0) * 1e3
        if rc:
            res["host"] = "host launch returned mytriton_status %d" % rc
        else:
            problems, checked = [], []
            for name, is_ptr, dt, _, spec in small.params:
                if not is_ptr:
                    continue
                if torch is not None and name in refs:
                    env = dict(small.env, torch=torch, F=torch.nn.functional, math=math)
                    env.update(before)
                    want = eval(refs[name], {"__builtins__": EVAL_BUILTINS}, env)
                    atol, rtol, max_bad = small.tolerance(name, dt)
                    atol, rtol = max(atol, raw.get("ref_tol", {}).get("atol", 0)), max(
                        rtol, raw.get("ref_tol", {}).get("rtol", 0))
                    m = mismatch(torch, tensors[name], want, atol, rtol, max_bad)
                    checked.append(name + " vs torch")
                    if m:
                        problems.append("%s vs torch: %s" % (name, m))
                    continue
                if not spec.get("out") and not spec.get("inout"):
                    continue
                vals = tensors[name].flatten().tolist() if torch is not None else tensors[name].values()
                if dt in FLOAT_DTS and not all(math.isfinite(v) for v in vals):
                    bad = sum(1 for v in vals if not math.isfinite(v))
                    problems.append("%s: %d of %d not finite" % (name, bad, len(vals)))
                if spec.get("out"):
                    s = sentinel(dt)
                    if torch is None:
                        s = decode_all(dt, encode(dt, s))[0]
                    else:
                        s = float(torch.tensor(s).to(getattr(torch, mtlib.TORCH_DTYPES[dt])).double())
                    if vals and all(v == s for v in vals):
                        problems.append("%s: not written" % name)
                checked.append(name + " finite")
            res["host"] = "ok" if not problems else "FAIL " + "; ".join(problems)[:400]
            res["host_checked"] = ", ".join(checked)
    except NeedsTorch as ex:
        res["host"] = "skipped: %s" % ex
    except Exception as ex:
        res["host"] = "error: %s: %s" % (type(ex).__name__, " ".join(str(ex).strip().splitlines()[-1:]))
    with open(opts.result, "w") as f:
        json.dump(res, f)
    return 0


def spawn(args, result, timeout, env=None, key="result"):
    """A case in its own process; its JSON result, or what happened to it."""
    try:
        p = subprocess.run([sys.executable, os.path.abspath(__file__)] + args + ["--result", result],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {key: "timeout after %d s" % timeout, "timeout": True}
    if os.path.exists(result):
        with open(result) as f:
            return json.load(f)
    lines = p.stdout.strip().splitlines()
    asan = [ln.strip() for ln in lines if "ERROR: AddressSanitizer" in ln or re.match(r"\s*#[0-3] ", ln)]
    tail = " ".join((asan[:3] if asan else lines[-2:]))[:400]
    return {key: "process died (exit %d): %s" % (p.returncode, tail), "died": True}


def asan_lib():
    """libasan's path (the python process loads it first, for the ASan-built kernels)."""
    for cc in ("gcc", "cc"):
        try:
            p = subprocess.run([cc, "-print-file-name=libasan.so"], capture_output=True, text=True)
        except OSError:
            continue
        path = p.stdout.strip()
        if p.returncode == 0 and os.path.isabs(path) and os.path.exists(path):
            return os.path.realpath(path)
    raise SystemExit("--asan: no libasan.so found (gcc -print-file-name=libasan.so)")


# ---- the table ---------------------------------------------------------------------


def rate(entry, ms):
    if not ms or entry is None:
        return ""
    unit, amount = entry.work()
    scale = 1e9 if unit == "TFLOP/s" else 1e6
    return ("%.1f TFLOP/s" if unit == "TFLOP/s" else "%.0f GB/s") % (amount / ms / scale)


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def short(text, n=70):
    text = text or ""
    return text if len(text) <= n else text[:n - 3] + "..."


def render(rows, header, markdown):
    if markdown:
        out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
        for r in rows:
            out.append("| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |")
        return "\n".join(out)
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header) - 1)]
    out = []
    for r in [header] + rows:
        out.append("  ".join(str(c).ljust(w) for c, w in zip(r, widths)) + "  " + str(r[-1]))
    return "\n".join(out)


def grouped_reasons(results, key):
    groups = {}
    for name, r in results.items():
        reason = r.get(key)
        if reason:
            groups.setdefault(reason_key(reason), []).append(name)
    return sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))


# ---- main ------------------------------------------------------------------------------


def mytriton_commit():
    """The commit of the mytriton tree measured, for the table's header: the
    caller's MYTRITON_COMMIT (scripts/gpu.sh passes it on: the GPU machine's
    copy of the tree may carry a stale .git, or none), else git's HEAD of this
    tree, said to be so, else unknown, said why."""
    c = os.environ.get("MYTRITON_COMMIT", "").strip()
    if c:
        return c
    try:
        p = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        head = p.stdout.strip() if p.returncode == 0 else ""
    except OSError:
        head = ""
    if head:
        return "%s (git HEAD of the tree it ran in: MYTRITON_COMMIT not set)" % head
    return "unknown (MYTRITON_COMMIT not set, and no git HEAD in the tree it ran in)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--manifest", default=os.path.join(REAL, "manifest.json"))
    ap.add_argument("--src", default=os.path.join(REAL, "src"), help="the extracted sources (real_extract.py's --out)")
    ap.add_argument("--only", help="a regular expression on entry names (or repositories)")
    ap.add_argument("--accept-only", action="store_true", help="mytritonc on every entry, nothing built or run")
    ap.add_argument("--host", action="store_true", help="the host backend on the CPU at the reduced shapes")
    ap.add_argument("--build-only", action="store_true",
                    help="accept, then build every accepted kernel (CUDA at the full shapes, host at the reduced ones) "
                         "as the GPU mode does, running nothing (nvcc, no GPU, no torch)")
    ap.add_argument("--mytritonc", help="the compiler (default build-h200/bin/mytritonc, then build/bin/mytritonc)")
    ap.add_argument("--build-dir", help="mytriton's build dir (its mytritonc, and the package installed from it)")
    ap.add_argument("--prefix", help="an installed mytriton for find_package (default: installed from the build dir)")
    ap.add_argument("--build", choices=("cmake", "direct"),
                    help="one CMake project through find_package(mytriton) + mytriton_add_kernels() (the GPU mode's "
                         "default), or mytritonc + nvcc (cc) per kernel (the host mode's default)")
    ap.add_argument("--no-host-check", action="store_true", help="GPU mode: skip the host backend's run")
    ap.add_argument("--asan", action="store_true",
                    help="--host: the kernels built with AddressSanitizer, so that an access outside the manifest's "
                         "tensors stops the case (checks the manifest's shapes and strides at the reduced sizes)")
    ap.add_argument("--work", help="work directory (default: a fresh temporary one)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 4, help="parallel compiles")
    ap.add_argument("--case-jobs", type=int, default=4,
                    help="case processes preparing at once (the GPU is taken by one at a time)")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per mytritonc and per case")
    ap.add_argument("--deadline", type=int,
                    help="seconds from the start after which no further case starts (the rest are reported "
                         "'not run (deadline)'; the table is written all the same)")
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("--nvcc", default=mtlib.find_nvcc())
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--rounds", type=int, default=3, help="interleaved timing rounds (median)")
    ap.add_argument("--warmup", type=int, default=25, help="do_bench warmup (ms)")
    ap.add_argument("--rep", type=int, default=100, help="do_bench repetition time (ms)")
    ap.add_argument("--markdown", metavar="FILE", help="write the table as Markdown")
    ap.add_argument("--json", metavar="FILE", help="write every result as JSON")
    ap.add_argument("--expect", metavar="FILE", help="the entries known to be accepted / to pass on the host")
    ap.add_argument("--write-expected", metavar="FILE", help="record this run's accepted / host-passing entries")
    # internal: one case in this process
    ap.add_argument("--case", help=argparse.SUPPRESS)
    ap.add_argument("--host-case", help=argparse.SUPPRESS)
    ap.add_argument("--lib", help=argparse.SUPPRESS)
    ap.add_argument("--host-lib", help=argparse.SUPPRESS)
    ap.add_argument("--lock", help=argparse.SUPPRESS)
    ap.add_argument("--result", help=argparse.SUPPRESS)
    opts = ap.parse_args()
    if opts.case:
        return run_case(opts)
    if opts.host_case:
        return run_host_case(opts)
    t0 = time.time()

    raw, index, repos = load_manifest(opts.manifest, opts.src, opts.only)
    if not raw:
        raise SystemExit("no entry matches --only %r" % opts.only)
    present = {e["name"] for e in raw if e["name"] in index and os.path.exists(source_of(opts.src, e["name"]))}
    if not present:
        print("real_suite: SKIP: the extracted sources are absent (%s has no index.json or no entry's .py): the "
              "upstream snapshots were not fetched and extracted here (scripts/real_extract.py)" % opts.src)
        return SKIP
    mode = "accept-only" if opts.accept_only else ("host" if opts.host else ("build-only" if opts.build_only else "gpu"))
    banner = "mytriton -O2 vs Triton"
    torch = None
    if mode == "gpu":
        import torch
        import triton
        if not torch.cuda.is_available():
            raise SystemExit("no GPU: use --accept-only or --host")
        props = torch.cuda.get_device_properties(0)
        banner = "%s (%d SMs), Triton %s, torch %s" % (props.name, props.multi_processor_count, triton.__version__,
                                                       torch.__version__)
        print("# " + banner, flush=True)
    work = opts.work or tempfile.mkdtemp(prefix="mytriton-real-")
    os.makedirs(work, exist_ok=True)
    mytritonc = mtlib.find_mytritonc(opts.mytritonc, build_dir=opts.build_dir, jobs=opts.jobs)

    results = {e["name"]: {"name": e["name"], "repo": e["repo"]} for e in raw}
    entries = {}  # name -> (full Entry, host Entry or None)
    for e in raw:
        r = results[e["name"]]
        if e["name"] not in present:
            r["reason"] = "not extracted (no %s)" % os.path.relpath(source_of(opts.src, e["name"]), ROOT)
            r["status"] = "absent"
            continue
        try:
            full = Entry(e, index[e["name"]], host=opts.host)
            small = None
            if opts.host:
                small = full
            elif mode in ("gpu", "build-only") and not opts.no_host_check:
                small = Entry(e, index[e["name"]], host=True)
            entries[e["name"]] = (full, small)
        except (EntryError, KeyError, TypeError, ValueError, NameError, SyntaxError) as ex:
            r["reason"] = "manifest: %s: %s" % (type(ex).__name__, ex)
            r["status"] = "bad entry"

    # 1. accept: mytritonc per kernel, each alone (CUDA backend; --host: host)
    backend = "host" if opts.host else "cuda"
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        futs = {n: pool.submit(accept_one, ent[0], source_of(opts.src, n), mytritonc, work, opts.timeout, backend)
                for n, ent in entries.items()}
        for n in futs:
            a = futs[n].result()
            results[n]["accepted"] = a["accepted"]
            results[n]["crash"] = a["crash"]
            if not a["accepted"]:
                results[n]["reason"] = a["reason"]
                results[n]["status"] = "rejected"
            print("%-8s %-34s %s" % ("accepted" if a["accepted"] else ("CRASH" if a["crash"] else "rejected"), n,
                                     a["reason"]), flush=True)
    accepted = [n for n in entries if results[n].get("accepted")]

    # 2. build and run
    if mode != "accept-only" and accepted:
        todo = [entries[n] for n in accepted]
        built = None
        results_build = "direct"
        how = opts.build or ("direct" if opts.host else "cmake")
        if opts.asan and opts.host:
            how = "direct"
            wrapper = os.path.join(work, "asan-cc")
            with open(wrapper, "w") as f:
                f.write('#!/bin/sh\nexec %s -fsanitize=address -fno-omit-frame-pointer "$@"\n' % shlex.quote(opts.cc))
            os.chmod(wrapper, 0o755)
            opts.cc = wrapper
        runtime_objs = mtlib.build_runtime(work, opts.cc) if how == "direct" else []
        if how == "cmake":
            try:
                built = build_cmake(todo, opts.src, opts, work, with_host=not opts.no_host_check)
                results_build = "cmake"
            except RuntimeError as ex:
                print("== %s; building directly instead" % ex, flush=True)
                runtime_objs = mtlib.build_runtime(work, opts.cc)
        if built is None:
            t1 = time.time()
            built = build_direct(todo, opts.src, opts, work, runtime_objs, with_host=not opts.no_host_check)
            print("== built %d kernels directly (mytritonc + %s) in %.0f s" % (
                len(todo), "cc" if opts.host else "nvcc", time.time() - t1), flush=True)
        banner += "; built through %s" % ("find_package(mytriton) + mytriton_add_kernels()"
                                          if results_build == "cmake" else "mytritonc + nvcc directly")
        if mode == "build-only":
            for n in accepted:
                b = built[n]
                ok = bool(b["cuda"]) and (bool(b["host"]) or opts.no_host_check)
                results[n]["built"] = ok
                results[n]["result"] = "built" if ok else "not built: " + b["error"]
                print("%-8s %-34s %s" % ("built" if ok else "FAIL", n, "" if ok else b["error"]), flush=True)
            accepted_to_run = []
        else:
            accepted_to_run = accepted
        lock = os.path.join(work, "gpu.lock")
        os.makedirs(os.path.join(work, "results"), exist_ok=True)

        def case(n):
            if opts.deadline and time.time() - t0 > opts.deadline:
                return n, {("host" if opts.host else "result"): "not run (deadline %d s)" % opts.deadline}
            b = built[n]
            res_file = os.path.join(work, "results", n + ".json")
            if os.path.exists(res_file):
                os.remove(res_file)
            base = ["--manifest", opts.manifest, "--src", opts.src]
            if opts.host:
                if not b["host"]:
                    return n, {"host": "not built: " + b["error"], "status": "build failed"}
                env = None
                if opts.asan:
                    env = dict(os.environ, LD_PRELOAD=asan_lib(), ASAN_OPTIONS="detect_leaks=0")
                return n, spawn(base + ["--host-case", n, "--host-lib", b["host"]], res_file, opts.timeout, env,
                                key="host")
            if not b["cuda"]:
                return n, {"result": "not built: " + b["error"], "status": "build failed"}
            args = base + ["--case", n, "--lib", b["cuda"], "--lock", lock, "--rounds", str(opts.rounds),
                           "--warmup", str(opts.warmup), "--rep", str(opts.rep)]
            if b["host"]:
                args += ["--host-lib", b["host"]]
            r = spawn(args, res_file, opts.timeout)
            if not b["host"] and not opts.no_host_check:
                r.setdefault("host", "not built: " + (b["error"] or "?"))
            return n, r

        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, 1 if opts.host else opts.case_jobs)) as pool:
            for n, r in pool.map(case, accepted_to_run):
                r.pop("name", None)
                results[n].update(r)
                rr = results[n]
                times = ""
                if rr.get("mt_ms"):
                    times = "%.4f ms vs Triton %.4f ms (%.2fx); " % (rr["mt_ms"], rr["tr_ms"], rr["mt_ms"] / rr["tr_ms"])
                print("%-8s %-34s %s%s%s" % ("ok" if rr.get("result", rr.get("host")) == "ok" else "FAIL", n, times,
                                             rr.get("result", ""), ("; host: " + rr["host"]) if rr.get("host") else ""),
                      flush=True)

    # 3. the report
    n_all = len(raw)
    n_acc = len(accepted)
    lines = ["accepted %d of %d (mytritonc -O2, %s backend)" % (n_acc, n_all, backend)]
    groups = grouped_reasons({n: r for n, r in results.items() if not r.get("accepted")}, "reason")
    if groups:
        lines.append("rejections and other failures before building, grouped:")
        for k, names in groups:
            lines.append("  %2d  %s: %s" % (len(names), k, ", ".join(names)))
    ratios = []
    if mode == "gpu":
        correct = [n for n in accepted if results[n].get("result") == "ok"]
        lines.append("correct (matches Triton) %d of %d (%d accepted)" % (len(correct), n_all, n_acc))
        ratios = [(n, results[n]["mt_ms"] / results[n]["tr_ms"]) for n in correct
                  if results[n].get("mt_ms") and results[n].get("tr_ms")]
        if ratios:
            g = geomean([x for _, x in ratios])
            lines.append("geometric mean of mytriton / Triton over the %d correct kernels: %.3fx (below 1: faster)"
                         % (len(ratios), g))
        badref = [n for n in accepted if results[n].get("ref") not in (None, "ok")]
        nref = [n for n in accepted if results[n].get("ref")]
        if nref:
            lines.append("the manifest's torch references vs Triton's output: %d of %d agree%s" % (
                len(nref) - len(badref), len(nref), (" (disagree: %s)" % ", ".join(badref)) if badref else ""))
        hosts = [n for n in accepted if results[n].get("host")]
        hok = [n for n in hosts if results[n]["host"] == "ok"]
        if hosts:
            lines.append("host backend at the reduced shapes vs Triton: %d of %d ok" % (len(hok), len(hosts)))
        fails = grouped_reasons({n: r for n, r in results.items() if r.get("accepted") and r.get("result") != "ok"},
                                "result")
        if fails:
            lines.append("accepted but not correct, grouped:")
            for k, names in fails:
                lines.append("  %2d  %s: %s" % (len(names), short(k, 120), ", ".join(names)))
    if mode == "build-only":
        okb = [n for n in accepted if results[n].get("built")]
        lines.append("built %d of %d accepted (%s)" % (len(okb), n_acc, banner.split("; built through ")[-1]))
        for k, names in grouped_reasons({n: r for n, r in results.items() if r.get("accepted") and not r.get("built")},
                                        "result"):
            lines.append("  %2d  %s: %s" % (len(names), short(k, 120), ", ".join(names)))
    if mode == "host":
        hok = [n for n in accepted if results[n].get("host") == "ok"]
        skipped = [n for n in accepted if str(results[n].get("host", "")).startswith("skipped")]
        try:
            import torch as _t  # noqa: F401
            how = "against the manifest's torch references where given, else written and finite"
        except ImportError:
            how = "torch is not importable here: outputs checked to be written and finite only (no reference)"
        lines.append("host backend at the reduced shapes: %d of %d accepted ok%s (%s)" % (
            len(hok), n_acc, (", %d skipped" % len(skipped)) if skipped else "", how))
        fails = grouped_reasons({n: r for n, r in results.items() if r.get("accepted") and r.get("host") != "ok"},
                                "host")
        for k, names in fails:
            lines.append("  %2d  %s: %s" % (len(names), short(k, 120), ", ".join(names)))

    header = ["kernel", "code base", "accepted", "result", "mytriton ms", "Triton ms", "ratio", "mytriton", "Triton"]
    if mode != "gpu":
        header = ["kernel", "code base", "accepted", {"host": "host", "build-only": "build"}.get(mode, "reason")]
    rows = []
    for e in raw:
        n = e["name"]
        r = results[n]
        ent = entries.get(n, (None, None))[0]
        acc = "yes" if r.get("accepted") else ("CRASH" if r.get("crash") else "no")
        if mode == "gpu":
            res = r.get("result") or short(r.get("reason"), 60)
            if r.get("host"):
                res += "; host " + short(r["host"], 40)
            mt, tr = r.get("mt_ms"), r.get("tr_ms")
            rows.append([n, e["repo"], acc, short(res, 90), "%.4f" % mt if mt else "-", "%.4f" % tr if tr else "-",
                         "%.2fx" % (mt / tr) if mt and tr else "-", rate(ent, mt), rate(ent, tr)])
        elif mode == "host":
            rows.append([n, e["repo"], acc, short(r.get("host") or r.get("reason"), 100)])
        elif mode == "build-only":
            rows.append([n, e["repo"], acc, short(r.get("result") or r.get("reason"), 100)])
        else:
            rows.append([n, e["repo"], acc, short(r.get("reason"), 110)])
    if ratios:
        rows.append(["geometric mean", "%d kernels" % len(ratios), "", "", "", "", "%.2fx" % geomean(
            [x for _, x in ratios]), "", ""])
    print()
    print(render(rows, header, False))
    print()
    for ln in lines:
        print(ln)
    code_bases = sorted({e["repo"] for e in raw})
    commit = mytriton_commit()
    if opts.markdown:
        head = ("%s, mytriton %s, %s: `%s`. %d kernels from %d code bases. ratio = mytriton / Triton (below 1: "
                "faster); medians of triton.testing.do_bench, %d interleaved rounds.\n\n" % (
                    time.strftime("%Y-%m-%d"), commit, banner,
                    shlex.join(["python3", "scripts/real_suite.py"] + sys.argv[1:]), n_all, len(code_bases),
                    opts.rounds)) if mode == "gpu" else "%s, mytriton %s, %s mode: `%s`.\n\n" % (
                        time.strftime("%Y-%m-%d"), commit, mode,
                        shlex.join(["python3", "scripts/real_suite.py"] + sys.argv[1:]))
        with open(opts.markdown, "w") as f:
            f.write(head + render(rows, header, True) + "\n\n" + "\n".join(
                ("- " + ln) if not ln.startswith("  ") else ("  - " + ln.strip()) for ln in lines) + "\n")
        print("Markdown written to %s" % opts.markdown)
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump({"date": time.strftime("%Y-%m-%d"), "commit": commit, "mode": mode, "banner": banner,
                       "code_bases": code_bases, "results": results, "summary": lines}, f, indent=1, default=str)
        print("JSON written to %s" % opts.json)

    status = 0
    crashes = [n for n, r in results.items() if r.get("crash")]
    if crashes:
        print("mytritonc crashed or timed out on: " + ", ".join(crashes))
        status = 1
    if mode == "gpu" and any(results[n].get("result") != "ok" for n in accepted):
        status = 1
    if mode == "build-only" and any(not results[n].get("built") for n in accepted):
        status = 1
    bad = [n for n, r in results.items() if r.get("status") == "bad entry"]
    if bad:
        print("manifest entries that do not resolve: " + ", ".join(bad))
        status = 1
    if opts.expect and os.path.exists(opts.expect) and mode != "build-only":
        exp = json.load(open(opts.expect))
        key = {"accept-only": "accept", "host": "host", "gpu": "gpu"}[mode]
        want = [n for n in exp.get(key, []) if n in results and results[n].get("status") != "absent"]
        if mode == "accept-only":
            lost = [n for n in want if not results[n].get("accepted")]
            gained = [n for n in accepted if n not in exp.get(key, [])]
        else:
            field = "host" if mode == "host" else "result"
            lost = [n for n in want if results[n].get(field) != "ok"]
            gained = [n for n in accepted if results[n].get(field) == "ok" and n not in exp.get(key, [])]
        if lost:
            print("EXPECTED to %s but did not: %s" % ("be accepted" if key == "accept" else "pass", ", ".join(lost)))
            status = 1
        if gained:
            print("newly %s (update %s with --write-expected): %s" % (
                "accepted" if key == "accept" else "passing", os.path.relpath(opts.expect, ROOT), ", ".join(gained)))
    if opts.write_expected and mode != "build-only":
        exp = json.load(open(opts.write_expected)) if os.path.exists(opts.write_expected) else {}
        key = {"accept-only": "accept", "host": "host", "gpu": "gpu"}[mode]
        if mode == "accept-only":
            exp[key] = sorted(accepted)
        else:
            field = "host" if mode == "host" else "result"
            exp[key] = sorted(n for n in accepted if results[n].get(field) == "ok")
        with open(opts.write_expected, "w") as f:
            json.dump(exp, f, indent=1, sort_keys=True)
            f.write("\n")
        print("expected entries (%s) written to %s" % (key, opts.write_expected))
    print("%.1f s; work directory %s" % (time.time() - t0, work))
    return status


if __name__ == "__main__":
    sys.exit(main())
