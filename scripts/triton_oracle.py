#!/usr/bin/env python3
"""Triton as the oracle: every kernel of test/oracle/manifest.json (and of
test/oracle/manifest.d/*.json, one manifest per language area) is compiled
by mytritonc (-O1 and -O2 CUDA, or the host backend) and by Triton 3.6, run on
the same deterministic inputs, and the outputs are compared (bit-exact, or
within a ulp bound per output and variant).

On the GPU machine (Triton 3.6, torch, nvcc, an sm_90 GPU):
    python3 scripts/triton_oracle.py                  # -O1 and -O2 CUDA vs Triton
    python3 scripts/triton_oracle.py --host           # the host backend vs Triton
    python3 scripts/triton_oracle.py --variants o1,o2,host --only 'int|cast'
Anywhere (no GPU, no torch): compile and build every entry, nothing runs:
    python3 scripts/triton_oracle.py --compile-only --variants o1,o2,host
    python3 scripts/triton_oracle.py --host --no-triton   # runs the host .so only

mytritonc comes from --build-dir (default: build-h200, then build); if it is
not there it is built there (cmake, mytritonc + shim targets). The runtime's
sources (runtime/src) are compiled once into the work directory.
Prints one line per kernel and variant and `N passed, N failed`; exits 1 on any
failure (a mismatch, a compile error, a Triton error)."""
import argparse
import concurrent.futures
import ctypes
import importlib.util
import json
import math
import os
import random
import re
import struct
import sys
import tempfile
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mtlib import build_runtime, cuda_include, define_text, find_mytritonc, find_nvcc, run  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORACLE = os.path.join(ROOT, "test", "oracle")

# ---- dtypes ---------------------------------------------------------------
# sig: (bytes, class, struct code of the raw bits, torch dtype name, ctypes scalar)


class _Half(ctypes.Structure):
    _fields_ = [("bits", ctypes.c_uint16)]


DTYPES = {
    "i1": (1, "bool", "B", "bool", ctypes.c_bool),
    "i8": (1, "sint", "B", "int8", ctypes.c_int8),
    "i16": (2, "sint", "H", "int16", ctypes.c_int16),
    "i32": (4, "sint", "I", "int32", ctypes.c_int32),
    "i64": (8, "sint", "Q", "int64", ctypes.c_int64),
    "u8": (1, "uint", "B", "uint8", ctypes.c_uint8),
    "u16": (2, "uint", "H", "uint16", ctypes.c_uint16),
    "u32": (4, "uint", "I", "uint32", ctypes.c_uint32),
    "u64": (8, "uint", "Q", "uint64", ctypes.c_uint64),
    "fp16": (2, "float", "H", "float16", _Half),
    "bf16": (2, "float", "H", "bfloat16", _Half),
    "fp32": (4, "float", "I", "float32", ctypes.c_float),
    "fp64": (8, "float", "Q", "float64", ctypes.c_double),
    "fp8e4nv": (1, "float", "B", "float8_e4m3fn", ctypes.c_uint8),
    "fp8e5": (1, "float", "B", "float8_e5m2", ctypes.c_uint8),
}
# (exponent bits, mantissa bits, has infinities) of each float format
FLOAT_FORMATS = {"fp16": (5, 10, True), "bf16": (8, 7, True), "fp32": (8, 23, True), "fp64": (11, 52, True),
                 "fp8e4nv": (4, 3, False), "fp8e5": (5, 2, True)}


def float_to_bits(dt, x):
    """x (a Python float) rounded to nearest-even in dtype dt, as raw bits."""
    if dt == "fp64":
        return struct.unpack("<Q", struct.pack("<d", x))[0]
    if dt in ("fp32", "bf16"):
        try:
            b = struct.unpack("<I", struct.pack("<f", x))[0]
        except OverflowError:
            b = 0xFF800000 if x < 0 else 0x7F800000
        if dt == "fp32":
            return b
        if math.isnan(x):
            return 0x7FC0
        return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF
    if dt == "fp16":
        try:
            return struct.unpack("<H", struct.pack("<e", x))[0]
        except OverflowError:
            return 0xFC00 if x < 0 else 0x7C00
    if dt in ("fp8e4nv", "fp8e5"):  # the nearest code, ties to an even mantissa (tl.dot's fp8 inputs)
        if math.isnan(x):
            return 0x7F
        best = None
        for code in range(256):
            v = bits_to_float(dt, code)
            if math.isnan(v) or math.isinf(v):
                continue
            key = (abs(v - x), code & 1)
            if best is None or key < best[0]:
                best = (key, code)
        return best[1]
    raise ValueError("no input generator for " + dt)


def bits_to_float(dt, b):
    if dt == "fp64":
        return struct.unpack("<d", struct.pack("<Q", b))[0]
    if dt == "fp32":
        return struct.unpack("<f", struct.pack("<I", b))[0]
    if dt == "bf16":
        return struct.unpack("<f", struct.pack("<I", b << 16))[0]
    if dt == "fp16":
        return struct.unpack("<e", struct.pack("<H", b))[0]
    e_bits, m_bits, has_inf = FLOAT_FORMATS[dt]
    sign = -1.0 if b >> (e_bits + m_bits) else 1.0
    e = (b >> m_bits) & ((1 << e_bits) - 1)
    m = b & ((1 << m_bits) - 1)
    bias = (1 << (e_bits - 1)) - 1
    if e == (1 << e_bits) - 1:
        if has_inf:
            return sign * math.inf if m == 0 else math.nan
        if m == (1 << m_bits) - 1:
            return math.nan
    if e == 0:
        return sign * m * 2.0 ** (1 - bias - m_bits)
    return sign * (1 + m / (1 << m_bits)) * 2.0 ** (e - bias)


def is_nan_bits(dt, b):
    e_bits, m_bits, has_inf = FLOAT_FORMATS[dt]
    e = (b >> m_bits) & ((1 << e_bits) - 1)
    m = b & ((1 << m_bits) - 1)
    if has_inf:
        return e == (1 << e_bits) - 1 and m != 0
    return e == (1 << e_bits) - 1 and m == (1 << m_bits) - 1


def ordered(dt, b):
    """Raw float bits mapped to integers whose differences count ulps."""
    nbits = DTYPES[dt][0] * 8
    sign = 1 << (nbits - 1)
    return -(b & (sign - 1)) if b & sign else b


def signed(dt, b):
    nbits = DTYPES[dt][0] * 8
    if DTYPES[dt][1] == "sint" and b >> (nbits - 1):
        return b - (1 << nbits)
    return b


def show(dt, b):
    if DTYPES[dt][1] == "float":
        return "%r(0x%0*x)" % (bits_to_float(dt, b), DTYPES[dt][0] * 2, b)
    return str(signed(dt, b))


# ---- inputs -----------------------------------------------------------------

EDGE_FLOATS = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 2.5, 3.5, -0.5, 127.5, 255.5, 300.5, -129.0, -128.5, 65504.0,
               65519.0, 65520.0, -65536.0, 448.0, 464.0, 480.0, 57344.0, 61440.0, 1e10, -1e10, 2147483648.0,
               -2147483904.0, 9.3e18, -9.3e18, 3.4e38, -3.4e38, math.inf, -math.inf, math.nan, 1e-40, -1e-45,
               1.1754944e-38, 6.1e-5, 5.96e-8, -3e-8, 1e-3, 0.1, 1.00048828125, 1.0009765625, 0.333333343]
EDGE_F64 = [1e300, -1e300, 5e-324, 2.2250738585072014e-308, 0.1, 1.0 / 3.0]


def in_dtype(arg):
    """The dtype of an argument with initial contents: "in", or "inout" (an
    input whose buffer the kernel also writes, compared after, as atomics'
    targets), else None."""
    return arg.get("in", arg.get("inout"))


def out_dtype(arg):
    """The dtype of an argument compared after the launch ("out" / "inout")."""
    return arg.get("out", arg.get("inout"))


def memory(entry):
    """The entry's memory: its tensor arguments and its extra buffers (not
    passed to the kernel, reached through a table of addresses)."""
    return [a for a in entry["args"] + entry.get("buffers", []) if in_dtype(a) or "out" in a]


def tables(entry):
    """The arguments that are tables of addresses: an i64 tensor holding, in
    order, the addresses of the named buffers in this run's memory."""
    return [a for a in entry["args"] if "table" in a]


def generate(entry, arg):
    """The bytes of input `arg` of `entry` (deterministic)."""
    dt, n, gen = in_dtype(arg), arg["n"], arg["gen"]
    rng = random.Random(zlib.crc32((entry["name"] + "/" + arg["name"]).encode()))
    kind = gen["kind"]
    size, cls, code = DTYPES[dt][0], DTYPES[dt][1], DTYPES[dt][2]
    raw = []
    if kind == "bools":
        raw = [rng.randint(0, 1) for _ in range(n)]
    elif kind == "ints":
        edge = list(gen.get("edge", []))
        vals = edge[:n]
        while len(vals) < n:
            v = rng.randint(int(gen["lo"]), int(gen["hi"]))
            if v == 0 and gen.get("nonzero"):
                continue
            vals.append(v)
        nbits = size * 8
        if cls == "float":  # integer values of a float dtype (exact sums in any order)
            raw = [float_to_bits(dt, float(v)) for v in vals]
        else:
            raw = [v & ((1 << nbits) - 1) for v in vals]
    elif kind == "floats":
        edge = gen.get("edge", [])
        if edge is True:
            edge = EDGE_FLOATS + (EDGE_F64 if dt == "fp64" else [])
        vals = [float(v) for v in edge][:n]
        lo, hi = float(gen["lo"]), float(gen["hi"])
        while len(vals) < n:
            if rng.random() < 0.25 and lo < 0 < hi:  # small magnitudes too
                vals.append(rng.uniform(lo, hi) * 10.0 ** -rng.randint(1, 6))
            else:
                vals.append(rng.uniform(lo, hi))
        raw = [float_to_bits(dt, v) for v in vals]
    else:
        raise ValueError("%s: unknown generator %r" % (entry["name"], kind))
    return struct.pack("<%d%s" % (n, code), *raw)


def unpack(dt, data):
    n = len(data) // DTYPES[dt][0]
    return list(struct.unpack("<%d%s" % (n, DTYPES[dt][2]), data))


# ---- comparison ------------------------------------------------------------


def tolerance(arg, variant):
    cmp = arg.get("cmp", "exact")
    if cmp in ("exact", "multiset", "none"):
        return None
    if "rtol" in cmp or "atol" in cmp:  # |got - Triton| <= atol + rtol * |Triton| (tl.dot's sum order)
        return (float(cmp.get("rtol", 0.0)), float(cmp.get("atol", 0.0)))
    return cmp.get(variant, cmp.get("ulp", 0))


def compare(dt, got, want, ulp_bound, inputs_at):
    """(ok, summary, details) comparing raw-bit lists got and want."""
    float_dt = DTYPES[dt][1] == "float"
    bad = []
    max_ulp = 0
    max_abs = 0.0
    for i, (g, w) in enumerate(zip(got, want)):
        if g == w:
            continue
        if float_dt:
            gn, wn = is_nan_bits(dt, g), is_nan_bits(dt, w)
            if gn and wn:
                continue
            if gn or wn:
                bad.append(i)
                max_ulp = math.inf
                continue
            u = abs(ordered(dt, g) - ordered(dt, w))
            d = abs(bits_to_float(dt, g) - bits_to_float(dt, w))
            max_abs = max(max_abs, d) if not math.isnan(d) else math.inf
            max_ulp = max(max_ulp, u)
            if isinstance(ulp_bound, tuple):
                if not d <= ulp_bound[1] + ulp_bound[0] * abs(bits_to_float(dt, w)):
                    bad.append(i)
            elif ulp_bound is None or u > ulp_bound:
                bad.append(i)
        else:
            d = abs(signed(dt, g) - signed(dt, w))
            max_abs = max(max_abs, d)
            bad.append(i)
    if float_dt:
        summary = "max ulp %s, max abs %.3g" % (max_ulp, max_abs)
    else:
        summary = "max abs %d" % max_abs
    if isinstance(ulp_bound, tuple):
        bound = "rtol %g, atol %g" % ulp_bound
    else:
        bound = "exact" if ulp_bound is None else "<=%d ulp" % ulp_bound
    summary += ", %d/%d mismatching (%s)" % (len(bad), len(want), bound)
    details = ["      [%d] got %s, Triton %s%s" % (i, show(dt, got[i]), show(dt, want[i]), inputs_at(i))
               for i in bad[:4]]
    return not bad, summary, details


# ---- building with mytritonc -----------------------------------------------


def signature(entry):
    parts = []
    for a in entry["args"]:
        if in_dtype(a):
            parts.append("*" + in_dtype(a))
        elif "out" in a:
            parts.append("*" + a["out"])
        elif "table" in a:
            parts.append("*i64")
        else:
            parts.append(a["scalar"])
    return ", ".join(parts)


def constexpr_value(v):
    """A manifest constexpr as Triton takes it (a JSON list: a tuple)."""
    return tuple(constexpr_value(x) for x in v) if isinstance(v, list) else v


def c_name(entry, variant):
    return re.sub(r"\W", "_", entry["name"]) + "_" + variant


def build(entry, variant, tools):
    """Compiles one entry at one variant into a shared library.
    Returns (path of the .so, launcher name) or raises RuntimeError(log)."""
    name = c_name(entry, variant)
    d = os.path.join(tools["work"], name)
    os.makedirs(d, exist_ok=True)
    host = variant == "host"
    cmd = [tools["mytritonc"], os.path.join(ORACLE, "kernels", entry["file"]), "--kernel", entry["kernel"],
           "--signature", signature(entry), "--name", name, "--backends", "cuda,host" if host else "cuda",
           "-O2" if variant in ("o2", "host") else "-O1", "-o", d]
    for k, v in entry.get("constexprs", {}).items():
        cmd += ["-D", "%s=%s" % (k, define_text(v))]
    if entry.get("grid"):
        cmd += ["--grid", entry["grid"]]
    rc, out = run(cmd)
    if rc:
        raise RuntimeError("mytritonc: " + out.strip())
    inc = ["-I", os.path.join(ROOT, "runtime", "include"), "-I", d]
    so = os.path.join(d, "lib%s.so" % name)
    if host:
        cmd = [tools["cc"], "-std=c11", "-O2", "-fPIC", "-shared"] + inc + ["-I", tools["cuda_include"],
                                                                          os.path.join(d, name + "_host.c")]
        cmd += tools["runtime"] + ["-lm", "-lpthread", "-o", so]
    else:
        cmd = [tools["nvcc"], "-shared", "-Xcompiler", "-fPIC", "-O2", "-arch=" + tools["arch"]] + inc
        cmd += [os.path.join(d, name + ".cu")] + tools["runtime"] + ["-o", so]
    rc, out = run(cmd)
    if rc:
        raise RuntimeError(("cc" if host else "nvcc") + ": " + out.strip()[-4000:])
    return so, "launch_" + name + ("_host" if host else "")


# ---- launching ---------------------------------------------------------------


def scalar_ctype(arg):
    dt = arg["scalar"]
    ct = DTYPES[dt][4]
    if ct is _Half:
        return ct, _Half(float_to_bits(dt, float(arg["value"])))
    if DTYPES[dt][1] == "float":
        return ct, ct(float(arg["value"]))
    return ct, ct(arg["value"])


def launch_mytriton(so, fn_name, entry, buffers, stream):
    """buffers: per pointer argument an address. stream: None for the host."""
    lib = ctypes.CDLL(so)
    fn = getattr(lib, fn_name)
    fn.restype = ctypes.c_int
    types, values = [], []
    if stream is not None:
        types.append(ctypes.c_void_p)
        values.append(ctypes.c_void_p(stream))
    for a in entry["args"]:
        if "scalar" in a:
            t, v = scalar_ctype(a)
        else:
            t, v = ctypes.c_void_p, ctypes.c_void_p(buffers[a["name"]])
        types.append(t)
        values.append(v)
    fn.argtypes = types
    return fn(*values)


SENTINEL = 0x5A


def grid_of(entry):
    env = {"cdiv": lambda a, b: -(-a // b)}
    env.update(entry.get("constexprs", {}))
    for a in entry["args"]:
        if "scalar" in a:
            env[a["name"]] = a["value"]
    return tuple(eval("(" + entry["grid"] + ",)", {"__builtins__": {}}, env))


def load_module(path, cache):
    if path not in cache:
        spec = importlib.util.spec_from_file_location("oracle_" + re.sub(r"\W", "_", os.path.basename(path)), path)
        mod = importlib.util.module_from_spec(spec)
        # helper modules beside the kernel file (from fn_helpers import ...)
        kernels_dir = os.path.dirname(os.path.abspath(path))
        if kernels_dir not in sys.path:
            sys.path.insert(0, kernels_dir)
        spec.loader.exec_module(mod)
        cache[path] = mod
    return cache[path]


def torch_buffer(torch, data, dt, device):
    t = torch.frombuffer(bytearray(data), dtype=torch.uint8).to(device)
    return t.view(getattr(torch, DTYPES[dt][3]))


def to_bytes(torch, t):
    return bytes(t.view(torch.uint8).cpu().tolist())


def cuda_memory(torch, entry, inputs):
    """(tensors by name, the outputs among them): the entry's memory on the
    GPU, then its tables of the tensors' addresses."""
    tensors, outs = {}, {}
    for a in memory(entry):
        if in_dtype(a):
            t = torch_buffer(torch, inputs[a["name"]], in_dtype(a), "cuda")
        else:
            t = torch_buffer(torch, bytes([SENTINEL]) * (a["n"] * DTYPES[a["out"]][0]), a["out"], "cuda")
        if out_dtype(a):
            outs[a["name"]] = t
        tensors[a["name"]] = t
    for a in tables(entry):
        addrs = [tensors[b].data_ptr() for b in a["table"]]
        tensors[a["name"]] = torch.tensor(addrs, dtype=torch.int64, device="cuda")
    return tensors, outs


def run_triton(torch, entry, inputs, modules):
    mod = load_module(os.path.join(ORACLE, "kernels", entry["file"]), modules)
    kernel = getattr(mod, entry["kernel"])
    tensors, outs = cuda_memory(torch, entry, inputs)
    args = [a["value"] if "scalar" in a else tensors[a["name"]] for a in entry["args"]]
    kernel[grid_of(entry)](*args, **{k: constexpr_value(v) for k, v in entry.get("constexprs", {}).items()})
    torch.cuda.synchronize()
    return {k: to_bytes(torch, t) for k, t in outs.items()}


def run_cuda(torch, so, fn, entry, inputs):
    tensors, outs = cuda_memory(torch, entry, inputs)
    bufs = {name: t.data_ptr() for name, t in tensors.items()}
    rc = launch_mytriton(so, fn, entry, bufs, torch.cuda.current_stream().cuda_stream)
    torch.cuda.synchronize()
    if rc:
        raise RuntimeError("%s returned cudaError %d" % (fn, rc))
    return {k: to_bytes(torch, t) for k, t in outs.items()}


def run_host(so, fn, entry, inputs):
    bufs, outs = {}, {}
    for a in memory(entry):
        if in_dtype(a):
            b = ctypes.create_string_buffer(inputs[a["name"]], len(inputs[a["name"]]))
        else:
            size = a["n"] * DTYPES[a["out"]][0]
            b = ctypes.create_string_buffer(bytes([SENTINEL]) * size, size)
        if out_dtype(a):
            outs[a["name"]] = b
        bufs[a["name"]] = ctypes.addressof(b)
        bufs["_keep_" + a["name"]] = b
    for a in tables(entry):
        addrs = [bufs[name] for name in a["table"]]
        b = ctypes.create_string_buffer(struct.pack("<%dq" % len(addrs), *addrs), 8 * len(addrs))
        bufs[a["name"]] = ctypes.addressof(b)
        bufs["_keep_" + a["name"]] = b
    rc = launch_mytriton(so, fn, entry, bufs, None)
    if rc:
        raise RuntimeError("%s returned mytriton_status %d" % (fn, rc))
    return {k: b.raw for k, b in outs.items()}


def check(entry, variant, got, want, inputs):
    ok, lines = True, []
    in_args = [a for a in memory(entry) if "in" in a]
    decoded = {a["name"]: unpack(a["in"], inputs[a["name"]]) for a in in_args}

    def inputs_at(i):
        parts = ["%s=%s" % (a["name"], show(a["in"], decoded[a["name"]][i])) for a in in_args
                 if i < len(decoded[a["name"]])]
        return (" at " + ", ".join(parts)) if parts else ""

    for a in memory(entry):
        if not out_dtype(a):
            continue
        dt = out_dtype(a)
        if a.get("cmp") == "none":  # values that depend on an order Triton leaves open
            lines.append("    %-12s %-8s not compared (its values depend on an order Triton leaves open)" % (a["name"], dt))
            continue
        g, w = unpack(dt, got[a["name"]]), unpack(dt, want[a["name"]])
        if a.get("cmp") == "multiset":  # an order Triton leaves open (tl.cat): the same values
            g, w = sorted(g), sorted(w)
        o, summary, details = compare(dt, g, w, tolerance(a, variant), inputs_at)
        ok = ok and o
        lines.append("    %-12s %-8s %s" % (a["name"], dt, summary))
        lines.extend(details)
    return ok, lines


# ---- main --------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", help="a build directory holding bin/mytritonc (default build-h200, then build)")
    ap.add_argument("--manifest", action="append",
                    help="a manifest (repeatable; default: test/oracle/manifest.json and test/oracle/manifest.d/*.json)")
    ap.add_argument("--variants", default=None, help="comma-separated: o1, o2, host (default o1,o2)")
    ap.add_argument("--host", action="store_true", help="the host backend against Triton (--variants host)")
    ap.add_argument("--only", help="a regular expression on the entry names")
    ap.add_argument("--compile-only", action="store_true", help="build every library, run nothing")
    ap.add_argument("--no-triton", action="store_true", help="with --host: run the host libraries only")
    ap.add_argument("--work", help="the work directory (default: a fresh temporary one)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 4)
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--nvcc", default=find_nvcc())
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("-v", "--verbose", action="store_true", help="print every output's figures, also on success")
    opts = ap.parse_args()
    variants = (opts.variants or ("host" if opts.host else "o1,o2")).split(",")
    for v in variants:
        if v not in ("o1", "o2", "host"):
            ap.error("unknown variant %r" % v)
    t0 = time.time()
    manifests = opts.manifest or [os.path.join(ORACLE, "manifest.json")] + sorted(
        os.path.join(ORACLE, "manifest.d", f) for f in os.listdir(os.path.join(ORACLE, "manifest.d"))
        if f.endswith(".json"))
    entries = [e for m in manifests for e in json.load(open(m))["kernels"]]
    names = [e["name"] for e in entries]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        sys.exit("duplicate entry names across the manifests: " + ", ".join(dup))
    if opts.only:
        entries = [e for e in entries if re.search(opts.only, e["name"])]
    work = opts.work or tempfile.mkdtemp(prefix="mytriton-oracle-")
    os.makedirs(work, exist_ok=True)
    tools = {"mytritonc": find_mytritonc(build_dir=opts.build_dir, jobs=opts.jobs), "work": work, "cc": opts.cc,
             "nvcc": opts.nvcc, "arch": opts.arch, "cuda_include": cuda_include(opts.nvcc)}
    tools["runtime"] = build_runtime(work, opts.cc)
    jobs = [(e, v) for e in entries for v in variants if v in e.get("variants", ["o1", "o2", "host"])]
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=opts.jobs)
    futures = {(e["name"], v): pool.submit(build, e, v, tools) for e, v in jobs}

    inputs = {e["name"]: {a["name"]: generate(e, a) for a in memory(e) if in_dtype(a)} for e in entries}
    need_triton = not opts.compile_only and not opts.no_triton
    torch = None
    reference = {}
    if need_triton or (not opts.compile_only and variants != ["host"]):
        import torch  # noqa: F811 (on the GPU machine only)
        if not torch.cuda.is_available():
            sys.exit("no GPU: use --compile-only (or --host --no-triton)")
    if need_triton:
        import triton  # noqa: F811 (on the GPU machine only)
        # device-side tensor descriptors (tl.make_tensor_descriptor) take
        # their scratch memory from the allocator
        triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device="cuda", dtype=torch.int8))
        modules = {}
        for e in entries:
            try:
                reference[e["name"]] = run_triton(torch, e, inputs[e["name"]], modules)
            except Exception as ex:  # the corpus must be valid Triton: report it
                reference[e["name"]] = ex
        print("== Triton ran %d kernels (%.1f s)" % (len(entries), time.time() - t0), flush=True)

    passed = failed = 0
    for e, v in jobs:
        tag = "%-5s %-24s" % (v, e["name"])
        try:
            so, fn = futures[(e["name"], v)].result()
        except RuntimeError as ex:
            failed += 1
            msg = str(ex).splitlines()
            print("FAIL  %s does not build: %s" % (tag, msg[0] if msg else ""))
            for line in msg[1:8]:
                print("      " + line)
            continue
        if opts.compile_only:
            passed += 1
            print("OK    %s built" % tag)
            continue
        ref = reference.get(e["name"])
        if isinstance(ref, Exception):
            failed += 1
            print("FAIL  %s Triton rejected the kernel: %s" % (tag, str(ref).strip().splitlines()[-1:]))
            continue
        try:
            if v == "host":
                got = run_host(so, fn, e, inputs[e["name"]])
            else:
                got = run_cuda(torch, so, fn, e, inputs[e["name"]])
        except Exception as ex:
            failed += 1
            print("FAIL  %s %s" % (tag, ex))
            continue
        if ref is None:  # --no-triton
            passed += 1
            print("RAN   %s (no Triton to compare with)" % tag)
            continue
        ok, lines = check(e, v, got, ref, inputs[e["name"]])
        worst = [line.strip() for line in lines if not line.startswith("      ")]
        if ok:
            passed += 1
            print("PASS  %s %s" % (tag, "; ".join(w.split(None, 2)[0] + " " + w.split(None, 2)[2].split(",")[0]
                                                  for w in worst)))
            if opts.verbose:
                print("\n".join(lines))
        else:
            failed += 1
            print("FAIL  %s" % tag)
            print("\n".join(lines))
    pool.shutdown()
    print("%d passed, %d failed (%.1f s; work directory %s)" % (passed, failed, time.time() - t0, work))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
