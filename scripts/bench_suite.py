#!/usr/bin/env python3
"""The -O2 benchmark suite against Triton: every kernel of
bench/suite/suite.json is compiled by mytritonc -O2 (CUDA backend) and
nvcc, launched through its generated launcher (ctypes, torch tensors), run
by Triton on the same source and the same inputs, checked against Triton's
output and a torch reference, and timed against Triton with
triton.testing.do_bench (medians, interleaved rounds, one process).

On the GPU machine (Triton 3.6, torch, nvcc), from the repository root:
    python3 scripts/bench_suite.py                      # the whole suite, the table
    python3 scripts/bench_suite.py --markdown bench.md  # also the table as Markdown
    python3 scripts/bench_suite.py --quick --only 'softmax|matmul'
Anywhere (no GPU, no torch, no Triton): compile and build every entry:
    python3 scripts/bench_suite.py --compile-only [--werror] [--unity]
Anywhere with torch (CPU): the host backend against the torch references
(checks the manifest and the launch plumbing; the times are no benchmark):
    python3 scripts/bench_suite.py --host --quick
and the -O2 CUDA units and their launchers on test/emu's CPU emulation of
CUDA (fp32 entries; small sizes):
    python3 scripts/bench_suite.py --emu --quick --shrink 16

mytritonc: --mytritonc PATH, else build-h200/bin/mytritonc, else
build/bin/mytritonc (built in build-h200 when neither exists).
The table: kernel, shape, mytriton ms, Triton ms, ratio (mytriton / Triton:
below 1 is faster), GB/s (or TFLOP/s) of both, the check; then the geometric
mean of the ratios, the matmul variations and the tile sweep of the seed's
matmul. Exit status 1 when an entry fails to build, to run or to match.
"""
import argparse
import concurrent.futures
import importlib.util
import json
import math
import os
import re
import shlex
import statistics
import sys
import tempfile
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mtlib  # noqa: E402

ROOT = mtlib.ROOT
SUITE = os.path.join(ROOT, "bench", "suite")


# ---- the manifest ----------------------------------------------------------


def cdiv(a, b):
    return -(-a // b)


def evaluate(expr, env):
    if isinstance(expr, (int, float)):
        return expr
    return eval(str(expr), {"__builtins__": {}, "cdiv": cdiv, "math": math, "min": min, "max": max, "int": int},
                env)


def shape_of(arg, env):
    v = evaluate(arg["shape"], env)
    return tuple(v) if isinstance(v, (tuple, list)) else (v,)


class Entry:
    """One manifest entry with its sizes resolved (default or --quick)."""

    def __init__(self, raw, quick, sms, specialize, shrink=1):
        self.raw = raw
        self.name = raw["name"]
        self.group = raw.get("group", "")
        self.sizes = {k: max(1, v // shrink) for k, v in (raw["quick"] if quick and "quick" in raw
                                                          else raw["sizes"]).items()}
        self.env = dict(self.sizes, SMS=sms)
        self.constexprs = raw.get("constexprs", {})
        self.num_warps = raw.get("num_warps")
        sig = mtlib.parse_signature(raw["signature"])
        if len(sig) != len(raw["args"]):
            raise SystemExit("%s: the signature has %d entries, args %d" % (self.name, len(sig), len(raw["args"])))
        self.params = []  # (arg, is_pointer, dtype)
        self.scalars = {}
        for arg, (is_ptr, dt, _) in zip(raw["args"], sig):
            if is_ptr != ("shape" in arg):
                raise SystemExit("%s: argument %s: the signature and args disagree" % (self.name, arg["name"]))
            if not is_ptr:
                self.scalars[arg["name"]] = evaluate(arg["value"], self.env)
            self.params.append((arg, is_ptr, dt))
        self.grid_params = {k: int(evaluate(v, dict(self.env, **self.scalars)))
                            for k, v in raw.get("grid_params", {}).items()}
        genv = dict(self.env, **self.scalars)
        genv.update(self.constexprs)
        genv.update(self.grid_params)
        self.grid = tuple(int(g) for g in evaluate("(" + raw["grid"] + ",)", genv))
        # Triton's specialization of the same call: pointers 16-byte aligned
        # (fresh torch allocations), integers divisible by 16.
        parts = []
        for arg, is_ptr, dt in self.params:
            hint = ""
            if specialize and (is_ptr or (dt.startswith(("i", "u")) and self.scalars[arg["name"]] % 16 == 0)):
                hint = ":16"
            parts.append(("*" if is_ptr else "") + dt + hint)
        self.signature = ", ".join(parts)
        self.c_name = "bs_" + re.sub(r"\W", "_", self.name)
        self.shape_text = "x".join(str(v) for v in self.sizes.values())

    def tensor_bytes(self):
        total = 0
        for arg, is_ptr, dt in self.params:
            if is_ptr:
                total += math.prod(shape_of(arg, self.env)) * mtlib.DTYPE_BYTES[dt]
        return total

    def work(self):
        """('GB/s', bytes) or ('TFLOP/s', flops)."""
        if "flops" in self.raw:
            return "TFLOP/s", evaluate(self.raw["flops"], self.env)
        if "bytes" in self.raw:
            return "GB/s", evaluate(self.raw["bytes"], self.env)
        return "GB/s", self.tensor_bytes()


def load_entries(path, only, quick, sms, specialize, shrink=1):
    raw = json.load(open(path))["kernels"]
    names = [e["name"] for e in raw]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise SystemExit("duplicate entry names: " + ", ".join(dup))
    if only:
        raw = [e for e in raw if re.search(only, e["name"]) or re.search(only, e.get("group", ""))]
    return [Entry(e, quick, sms, specialize, shrink) for e in raw]


def build(entry, tools):
    if tools["emu"]:
        if any(dt in ("fp16", "bf16") for _, _, dt in entry.params):
            return None  # fake_cuda has no cuda_fp16.h / cuda_bf16.h
        cu = mtlib.compile_cuda(
            tools["mytritonc"], os.path.join(SUITE, entry.raw["file"]), entry.raw["kernel"], entry.signature,
            entry.c_name, os.path.join(tools["work"], entry.c_name), tools["runtime"], constexprs=entry.constexprs,
            grid=entry.raw["grid"], grid_params=list(entry.grid_params), opt=2, num_warps=entry.num_warps, link=False)
        return mtlib.compile_emu(cu, entry.c_name, tools["runtime"], cxx=tools["cxx"])
    if tools["host"]:
        return mtlib.compile_host(
            tools["mytritonc"], os.path.join(SUITE, entry.raw["file"]), entry.raw["kernel"], entry.signature,
            entry.c_name, os.path.join(tools["work"], entry.c_name), tools["runtime"], constexprs=entry.constexprs,
            grid=entry.raw["grid"], grid_params=list(entry.grid_params), opt=2, cc=tools["cc"])
    return mtlib.compile_cuda(
        tools["mytritonc"], os.path.join(SUITE, entry.raw["file"]), entry.raw["kernel"], entry.signature,
        entry.c_name, os.path.join(tools["work"], entry.c_name), tools["runtime"], constexprs=entry.constexprs,
        grid=entry.raw["grid"], grid_params=list(entry.grid_params), opt=2, num_warps=entry.num_warps,
        nvcc=tools["nvcc"], arch=tools["arch"], werror=tools["werror"], link=not tools["no_nvcc"])


# ---- running (GPU only) ----------------------------------------------------


def ema(x, decay):
    """Reference of loops.py's ema_kernel: x is T x n."""
    avg = x[0].double()
    for t in range(1, x.shape[0]):
        avg = decay * avg + (1.0 - decay) * x[t].double()
    return avg


def make_tensor(torch, arg, dt, entry, gen, device):
    shape = shape_of(arg, entry.env)
    tdt = getattr(torch, mtlib.TORCH_DTYPES[dt])
    init = arg.get("init", "randn")
    if arg.get("out"):
        t = torch.empty(shape, dtype=tdt, device=device)
        if t.is_floating_point():
            t.fill_(float("nan"))
        else:
            t.fill_(0x5A)
        return t
    if init == "randn":
        return torch.randn(shape, generator=gen, device=device).to(tdt)
    if init == "rand":
        return torch.rand(shape, generator=gen, device=device).to(tdt)
    if init == "ones":
        return torch.ones(shape, dtype=tdt, device=device)
    if init == "zeros":
        return torch.zeros(shape, dtype=tdt, device=device)
    raise SystemExit("%s: unknown init %r" % (entry.name, init))


def default_tol(dt):
    return {"fp16": (1e-2, 1e-2), "bf16": (2e-2, 2e-2)}.get(dt, (1e-5, 1e-5))


def mismatch(torch, got, want, atol, rtol):
    """'' when got matches want within atol + rtol * |want|, else a short text."""
    g = got.double()
    w = want.to(device=g.device).double().reshape(g.shape)
    close = (g - w).abs() <= atol + rtol * w.abs()
    close |= (torch.isnan(g) & torch.isnan(w)) | (g == w)
    bad = int((~close).sum())
    if not bad:
        return ""
    diff = (g - w).abs()
    diff = torch.where(torch.isnan(diff), torch.full_like(diff, float("inf")), diff)
    i = int(torch.argmax(diff))
    return "%d/%d differ, max |diff| %.3g at %d (%r vs %r)" % (bad, g.numel(), float(diff.flatten()[i]), i,
                                                              float(g.flatten()[i]), float(w.flatten()[i]))


class Runner:
    """Runs entries on the GPU against Triton; or on the CPU against the torch
    references only: the host backend's libraries (opts.host) or the CUDA
    units on test/emu's CPU emulation of CUDA (opts.emu)."""

    def __init__(self, opts):
        import torch
        self.torch = torch
        self.opts = opts
        self.host = opts.host or opts.emu  # on the CPU, no Triton
        self.host_launcher = opts.host
        self.device = "cpu" if self.host else "cuda"
        self.modules = {}
        if self.host:
            return
        import triton
        from triton import testing
        if not torch.cuda.is_available():
            raise SystemExit("no GPU: use --compile-only (or --host)")
        self.triton, self.testing = triton, testing

    def sync(self):
        if not self.host:
            self.torch.cuda.synchronize()

    def module(self, file):
        if file not in self.modules:
            path = os.path.join(SUITE, file)
            spec = importlib.util.spec_from_file_location("bench_suite_" + re.sub(r"\W", "_", file), path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            self.modules[file] = mod
        return self.modules[file]

    def time(self, fn):
        if self.opts.cudagraph:  # Triton's graph capture refuses the default stream
            with self.torch.cuda.stream(self.torch.cuda.Stream()):
                return self.testing.do_bench_cudagraph(fn, rep=self.opts.rep, return_mode="median")
        return self.testing.do_bench(fn, warmup=self.opts.warmup, rep=self.opts.rep, return_mode="median")

    def run(self, entry, so):
        """A result dict: mt_ms, tr_ms, check (text, '' = ok)."""
        torch = self.torch
        gen = torch.Generator(device=self.device)
        gen.manual_seed(zlib.crc32(entry.name.encode()))
        mt_args, tr_args, outs, ref_env = [], [], [], dict(entry.env)
        for arg, is_ptr, dt in entry.params:
            if not is_ptr:
                v = entry.scalars[arg["name"]]
                mt_args.append(v)
                tr_args.append(v)
                ref_env[arg["name"]] = v
                continue
            t = make_tensor(torch, arg, dt, entry, gen, self.device)
            if arg.get("out"):
                t2 = make_tensor(torch, arg, dt, entry, gen, self.device)
                outs.append((arg, dt, t, t2))
                mt_args.append(t.data_ptr())
                tr_args.append(t2)
            else:
                mt_args.append(t.data_ptr())
                tr_args.append(t)
                ref_env[arg["name"]] = t
        launcher = mtlib.Launcher(so, entry.c_name, entry.signature, len(entry.grid_params),
                                   host=self.host_launcher)
        bound = launcher.bind(mt_args + list(entry.grid_params.values()))
        if self.host:
            def mt():
                return launcher(0, bound)
        else:
            kernel = getattr(self.module(entry.raw["file"]), entry.raw["kernel"])
            kwargs = dict(entry.constexprs)
            if entry.num_warps:
                kwargs["num_warps"] = entry.num_warps
            grid = entry.grid

            def mt():
                return launcher(torch.cuda.current_stream().cuda_stream, bound)

            def tr():
                kernel[grid](*tr_args, **kwargs)

        t_first = time.perf_counter()
        rc = mt()
        self.sync()
        t_first = (time.perf_counter() - t_first) * 1e3
        if rc:
            return {"check": "launch_%s returned %s %d" % (entry.c_name, "mytriton_status" if self.host_launcher
                                                              else "cudaError", rc)}
        if not self.host:
            tr()
            self.sync()
        problems = []
        refs = entry.raw.get("ref", {})
        env = dict(ref_env, torch=torch, F=torch.nn.functional, math=math, ema=ema)
        for arg, dt, mine, theirs in outs:
            atol, rtol = default_tol(dt)
            if "tol" in entry.raw:
                atol, rtol = entry.raw["tol"].get("atol", atol), entry.raw["tol"].get("rtol", rtol)
            m = "" if self.host else mismatch(torch, mine, theirs, atol, rtol)
            if m:
                problems.append("%s vs Triton: %s" % (arg["name"], m))
            if arg["name"] in refs:
                want = eval(refs[arg["name"]], {"__builtins__": {}}, env)
                m = mismatch(torch, mine, want, atol, rtol)
                if m:
                    problems.append("%s vs torch: %s" % (arg["name"], m))
                m = "" if self.host else mismatch(torch, theirs, want, atol, rtol)
                if m:
                    problems.append("(Triton's %s vs torch: %s)" % (arg["name"], m))
        if self.host:  # on the CPU: the time of the one call above, no benchmark
            return {"mt_ms": t_first, "tr_ms": None, "check": "; ".join(problems)}
        mt_times, tr_times = [], []
        for _ in range(self.opts.rounds):
            mt_times.append(self.time(mt))
            tr_times.append(self.time(tr))
        return {"mt_ms": statistics.median(mt_times), "tr_ms": statistics.median(tr_times),
                "round_ratios": [m / t for m, t in zip(mt_times, tr_times)],
                "check": "; ".join(problems)}


# ---- the table -------------------------------------------------------------


def rate(entry, ms):
    unit, amount = entry.work()
    if ms is None or not ms:
        return ""
    scale = 1e9 if unit == "TFLOP/s" else 1e6  # per ms
    value = amount / ms / scale
    return ("%.1f TFLOP/s" if unit == "TFLOP/s" else "%.0f GB/s") % value


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def make_rows(entries, results):
    rows = []
    for e in entries:
        r = results.get(e.name, {})
        mt_ms, tr_ms = r.get("mt_ms"), r.get("tr_ms")
        ratio = mt_ms / tr_ms if mt_ms and tr_ms else None
        rows.append([e.name, e.shape_text, "%.4f" % mt_ms if mt_ms else "-", "%.4f" % tr_ms if tr_ms else "-",
                     "%.2fx" % ratio if ratio else "-", rate(e, mt_ms), rate(e, tr_ms),
                     "ok" if r.get("check", None) == "" else (r.get("check") or "not run")])
    ratios = [results[e.name]["mt_ms"] / results[e.name]["tr_ms"] for e in entries
              if e.group != "sweep" and results.get(e.name, {}).get("mt_ms") and results[e.name].get("tr_ms")]
    if ratios:
        rows.append(["geometric mean", "%d kernels" % len(ratios), "", "", "%.2fx" % geomean(ratios), "", "", ""])
    return rows


HEADER = ["kernel", "shape", "mytriton ms", "Triton ms", "ratio", "mytriton", "Triton", "check"]


def summary(entries, results):
    lines = []
    suite = [e for e in entries if e.group != "sweep"]
    ratios = [(e, results[e.name]["mt_ms"] / results[e.name]["tr_ms"]) for e in suite
              if results.get(e.name, {}).get("mt_ms") and results[e.name].get("tr_ms")]
    if ratios:
        g = geomean([r for _, r in ratios])
        over = [e.name for e, r in ratios if r > 1.0]
        lines.append("geometric mean of mytriton / Triton over %d kernels: %.3fx (target <= 0.9: %s)"
                     % (len(ratios), g, "met" if g <= 0.9 else "not met"))
        lines.append("kernels at or below 1.0x Triton: %d of %d%s" % (
            len(ratios) - len(over), len(ratios), (" (above: " + ", ".join(over) + ")") if over else ""))
        # each round times both kernels back to back: a kernel above 1.0x in
        # some rounds only is within the run's noise
        spread = []
        for name in over:
            rr = results[name].get("round_ratios") or []
            if len(rr) > 1:
                spread.append("%s %.3f-%.3f" % (name, min(rr), max(rr)))
        if spread:
            every = [n for n in over if min(results[n].get("round_ratios") or [0]) > 1.0]
            lines.append("  their ratios per round: " + ", ".join(spread))
            lines.append("  above 1.0x in every round: %d%s" % (
                len(every), (" (" + ", ".join(every) + ")") if every else ""))
    mm = [e for e in suite if e.group == "matmul" and results.get(e.name, {}).get("mt_ms")]
    if len(mm) > 1:
        ts = [results[e.name]["mt_ms"] for e in mm]
        speedups = [results[e.name]["tr_ms"] / results[e.name]["mt_ms"] for e in mm if results[e.name].get("tr_ms")]
        spread = max(ts) / min(ts) - 1
        lines.append("matmul variations (%s): slowest %.1f%% above the fastest (target <= 10%%: %s)"
                     % (", ".join(e.name for e in mm), 100 * spread, "met" if spread <= 0.10 else "not met"))
        if speedups:
            lines.append("matmul variations vs Triton: %.2fx to %.2fx faster (target >= 4x: %s)"
                         % (min(speedups), max(speedups), "met" if min(speedups) >= 4 else "not met"))
    sweep = [e for e in entries if e.group == "sweep" and results.get(e.name, {}).get("mt_ms")]
    if sweep:
        best = min(sweep, key=lambda e: results[e.name]["mt_ms"])
        b = results[best.name]["mt_ms"]
        parts = ["%s %.2fx" % ("x".join(str(best_v) for best_v in (e.constexprs["BM"], e.constexprs["BN"])),
                               results[e.name]["mt_ms"] / b) for e in sweep]
        worst = max(results[e.name]["mt_ms"] for e in sweep) / b
        lines.append("seed matmul tile sweep (time / best, best %s at %.4f ms): %s; worst %.2fx (target <= 2x: %s)"
                     % (best.name, b, ", ".join(parts), worst, "met" if worst <= 2 else "not met"))
        tr = [e for e in sweep if results[e.name].get("tr_ms")]
        if tr:
            tb = min(tr, key=lambda e: results[e.name]["tr_ms"])
            lines.append("Triton's best tile: %s at %.4f ms (Triton's best / mytriton's best: %.2fx)"
                         % (tb.name, results[tb.name]["tr_ms"], results[tb.name]["tr_ms"] / b))
    return lines


def text_table(rows):
    widths = [max(len(str(r[i])) for r in rows + [HEADER]) for i in range(len(HEADER) - 1)]
    out = []
    for r in [HEADER] + rows:
        cells = [str(c).rjust(w) if 1 < i < 7 else str(c).ljust(w) for i, (c, w) in enumerate(zip(r, widths))]
        out.append("  ".join(cells) + "  " + str(r[-1]))
    return "\n".join(out)


def markdown_table(rows):
    out = ["| " + " | ".join(HEADER) + " |", "|" + "|".join(["---", "---"] + ["---:"] * 5 + ["---"]) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |")
    return "\n".join(out)


# ---- main --------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--manifest", default=os.path.join(SUITE, "suite.json"))
    ap.add_argument("--mytritonc", help="the compiler (default build-h200/bin/mytritonc, then build/bin/mytritonc)")
    ap.add_argument("--only", help="a regular expression on the entry names (or groups)")
    ap.add_argument("--quick", action="store_true", help="the manifest's smaller sizes")
    ap.add_argument("--compile-only", action="store_true", help="build every entry, run nothing (no torch)")
    ap.add_argument("--no-nvcc", action="store_true", help="with --compile-only: mytritonc alone")
    ap.add_argument("--unity", action="store_true",
                    help="with --compile-only: one nvcc -c of all the generated units together (the CI test)")
    ap.add_argument("--host", action="store_true",
                    help="the host backend on the CPU against the torch references (no GPU, no Triton; "
                         "use with --quick): checks the manifest, not a benchmark")
    ap.add_argument("--markdown", metavar="FILE", help="also write the table as Markdown to FILE")
    ap.add_argument("--work", help="the work directory (default: a fresh temporary one)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 4, help="parallel compiles")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--nvcc", default=mtlib.find_nvcc())
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--cxx", default=os.environ.get("CXX", "c++"), help="the C++ compiler of --emu")
    ap.add_argument("--emu", action="store_true",
                    help="the -O2 CUDA units compiled as C++ against test/emu/fake_cuda and run on the CPU against "
                         "the torch references (no GPU, no Triton; fp32 entries only; use with --quick)")
    ap.add_argument("--werror", action="store_true", help="nvcc warnings are errors (-Werror all-warnings)")
    ap.add_argument("--no-specialize", action="store_true",
                    help="compile without the :16 hints Triton's launcher would specialize on")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved timing rounds per kernel (median)")
    ap.add_argument("--warmup", type=int, default=25, help="do_bench warmup (ms)")
    ap.add_argument("--rep", type=int, help="do_bench repetition time (ms; default 100, 20 with --quick)")
    ap.add_argument("--cudagraph", action="store_true", help="time with do_bench_cudagraph")
    ap.add_argument("--shrink", type=int, default=1, metavar="F",
                    help="divide every size by F (for --host / --emu: e.g. --quick --shrink 16)")
    ap.add_argument("--sms", type=int, help="multiprocessor count for the sizes (default: the GPU's; 132 offline)")
    opts = ap.parse_args()
    if opts.rep is None:
        opts.rep = 20 if opts.quick else 100
    t0 = time.time()

    runner = None
    banner = "the host backend (CPU)"
    sms = opts.sms or 132
    if not opts.compile_only:
        runner = Runner(opts)
    if runner and not runner.host:
        props = runner.torch.cuda.get_device_properties(0)
        sms = opts.sms or props.multi_processor_count
        banner = "%s (%d SMs), Triton %s, torch %s" % (props.name, props.multi_processor_count,
                                                       runner.triton.__version__, runner.torch.__version__)
        print("# " + banner, flush=True)
    entries = load_entries(opts.manifest, opts.only, opts.quick, sms, not opts.no_specialize, opts.shrink)
    if not entries:
        raise SystemExit("no entry matches --only %r" % opts.only)
    work = opts.work or tempfile.mkdtemp(prefix="mytriton-bench-")
    os.makedirs(work, exist_ok=True)
    tools = {"mytritonc": mtlib.find_mytritonc(opts.mytritonc, jobs=opts.jobs), "work": work, "nvcc": opts.nvcc,
             "arch": opts.arch, "werror": opts.werror, "host": opts.host, "emu": opts.emu, "cc": opts.cc,
             "cxx": opts.cxx,
             "no_nvcc": (opts.no_nvcc or opts.unity) and opts.compile_only}
    tools["runtime"] = mtlib.build_runtime(work, opts.cc)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs))
    futures = {e.name: pool.submit(build, e, tools) for e in entries}

    passed = failed = skipped = 0
    results = {}
    for e in entries:
        try:
            so = futures[e.name].result()
        except RuntimeError as ex:
            failed += 1
            msg = str(ex).splitlines()
            print("FAIL  %-28s does not build: %s" % (e.name, msg[0] if msg else ""), flush=True)
            for line in msg[1:8]:
                print("      " + line)
            results[e.name] = {"check": "does not build"}
            continue
        if so is None:
            skipped += 1
            print("SKIP  %-28s 16-bit dtypes: not emulated" % e.name, flush=True)
            results[e.name] = {"check": "skipped (16-bit, not emulated)"}
            continue
        if opts.compile_only:
            passed += 1
            print("OK    %-28s %s (%s; grid %s)" % (e.name, "compiled" if tools["no_nvcc"] else "built",
                                                  e.signature, ",".join(map(str, e.grid))), flush=True)
            continue
        try:
            r = runner.run(e, so)
        except Exception as ex:  # one entry's failure (Triton, torch) does not hide the others
            r = {"check": "error: %s: %s" % (type(ex).__name__, " ".join(str(ex).strip().splitlines()[-1:]))}
        results[e.name] = r
        if r.get("check"):
            failed += 1
        else:
            passed += 1
        times = ""
        if r.get("mt_ms"):
            times = "%.4f ms" % r["mt_ms"] + (" vs Triton %.4f ms" % r["tr_ms"] if r.get("tr_ms") else "")
        print("%-5s %-28s %s" % ("ok" if not r.get("check") else "FAIL", e.name,
                                 "; ".join(x for x in (times, r.get("check")) if x)), flush=True)
    pool.shutdown()
    if opts.compile_only and opts.unity and not opts.no_nvcc:
        ok = [e for e in entries if e.name not in results]
        unity = os.path.join(work, "bench_suite_unity.cu")
        with open(unity, "w") as f:
            f.write("".join('#include "%s/%s.cu"\n' % (e.c_name, e.c_name) for e in ok))
        cmd = [opts.nvcc, "-arch=" + opts.arch, "-c", "-I", os.path.join(ROOT, "runtime", "include"), unity, "-o",
               unity[:-3] + ".o"] + (["-Werror", "all-warnings"] if opts.werror else [])
        rc, out = mtlib.run(cmd)
        if rc or (opts.werror and out.strip()):
            failed += len(ok)
            passed -= len(ok)
            print("FAIL  nvcc of the %d generated units together:\n%s" % (len(ok), out.strip()[-4000:]))
        else:
            print("OK    nvcc -arch=%s -c of the %d generated units together" % (opts.arch, len(ok)))
    if not opts.compile_only:
        rows = make_rows(entries, results)
        lines = ["%s on the CPU: correctness against torch only; the times (one call) are no benchmark"
                 % ("emulated CUDA" if opts.emu else "host backend")] \
            if runner.host else summary(entries, results)
        print()
        print(text_table(rows))
        print()
        for line in lines:
            print(line)
        if opts.markdown:
            head = "%s, %s: `%s`. mytriton: -O2 CUDA through the generated launcher; ratio = mytriton / " \
                "Triton (below 1: faster); medians of triton.testing.do_bench%s, %d interleaved rounds.\n\n" % (
                    time.strftime("%Y-%m-%d"), banner, shlex.join(["python3", "scripts/bench_suite.py"] + sys.argv[1:]),
                    "_cudagraph" if opts.cudagraph else "", opts.rounds)
            # the summary as a list, its indented lines (the per-round ratios) nested
            items = [("  - " + line.strip()) if line.startswith(" ") else ("- " + line) for line in lines]
            with open(opts.markdown, "w") as f:
                f.write(head + markdown_table(rows) + "\n\n" + "\n".join(items) + "\n")
            print("Markdown table written to %s" % opts.markdown)
    print("%d passed, %d failed%s (%.1f s; work directory %s)" % (
        passed, failed, (", %d skipped" % skipped) if skipped else "", time.time() - t0, work))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
