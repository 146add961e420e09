#!/usr/bin/env python3
"""Matmul forms benchmark: the kernels whose tl.dot loop sits inside other
control flow, compiled by mytritonc at -O2 (the tensor-core path, docs/dot.md)
and run through their launchers, against Triton 3.6 on the same source files
with the same constexprs, num_warps and num_stages, and torch for the result:

  grouped     test/lang_apps/kernels/grouped_gemm.py: Triton's grouped GEMM
              tutorial form (a loop over problems, a `while` over their
              tiles, matrices from tables of addresses), the tutorial's
              benchmark group: 4 square problems of --size (fp16)
  persistent  test/lang_apps/kernels/matmul_forms.py persistent_matmul_kernel:
              --programs programs over the tiles of one --size problem
  expert      matmul_forms.py expert_matmul_kernel: 8 experts of --size / 8
              rows each (one of them empty, one with twice the rows), K = N =
              --size, early returns past each expert's rows

Prints per form and config the median ms of --reps launches (CUDA events),
mytriton / Triton, and the largest difference from torch's product relative
to its largest magnitude.

On the GPU machine (Triton 3.6, torch, nvcc, the repository's build):
    python3 scripts/bench_forms.py
    python3 scripts/bench_forms.py --forms grouped --size 1024 --reps 30
Compile-only check anywhere (no GPU): python3 scripts/bench_forms.py --compile-only"""
import argparse
import ctypes
import importlib.util
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mtlib  # noqa: E402

KERNELS = os.path.join(ROOT, "test", "lang_apps", "kernels")

# form: (file, kernel, signature, grid, configs: [(constexprs, num_warps, num_stages)])
FORMS = {
    "grouped": ("grouped_gemm.py", "grouped_gemm_kernel", "*i64, *i64, *i64, *i32, *i32, i32", "PROGRAMS",
                [({"BM": 128, "BN": 128, "BK": 32}, 4, 3), ({"BM": 128, "BN": 128, "BK": 64}, 8, 3),
                 ({"BM": 64, "BN": 64, "BK": 32}, 4, 3)]),
    "persistent": ("matmul_forms.py", "persistent_matmul_kernel",
                   "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32:16, i32:16, i32:16", "NUM_SMS",
                   [({"BM": 128, "BN": 256, "BK": 64, "GROUP_M": 8}, 8, 3),
                    ({"BM": 128, "BN": 128, "BK": 64, "GROUP_M": 8}, 8, 3)]),
    "expert": ("matmul_forms.py", "expert_matmul_kernel", "*fp16:16, *fp16:16, *fp16:16, *i32, i32:16, i32:16",
               "cdiv(ROWS_MAX, BM), cdiv(N, BN), EXPERTS",
               [({"BM": 128, "BN": 128, "BK": 64}, 8, 3), ({"BM": 64, "BN": 128, "BK": 64}, 4, 3)]),
}
EXPERTS = 8


def constexprs(form, cfg, args):
    c = dict(cfg[0])
    if form == "grouped":
        c["PROGRAMS"] = args.programs
    if form == "persistent":
        c["NUM_SMS"] = args.programs
    return c


def build(args, tools, form, k):
    file, kernel, sig, grid, configs = FORMS[form]
    cfg = configs[k]
    defs = constexprs(form, cfg, args)
    name = "%s_%d" % (form, k)
    d = os.path.join(tools["work"], name)
    os.makedirs(d, exist_ok=True)
    cmd = [tools["mytritonc"], os.path.join(KERNELS, file), "--kernel", kernel, "--signature", sig, "--name", name,
           "-O2", "--num-warps", str(cfg[1]), "--num-stages", str(cfg[2]), "-o", d]
    if form == "expert":  # the grid's row blocks: of the largest expert
        cmd += ["--grid-param", "ROWS_MAX", "--grid-param", "EXPERTS"]
    cmd += ["--grid", grid]
    for key, v in defs.items():
        cmd += ["-D", "%s=%s" % (key, v)]
    rc, out = mtlib.run(cmd)
    if rc:
        return None, "mytritonc: " + out.strip()
    at = cmd.index("-o")
    rc, lay = mtlib.run(cmd[:at] + cmd[at + 2:] + ["--emit=layout"])
    path = lay.splitlines()[0] if lay else ""
    so = os.path.join(d, "lib%s.so" % name)
    rc, out = mtlib.run([tools["nvcc"], "-shared", "-Xcompiler", "-fPIC", "-O3", "-arch=" + args.arch, "-I",
                             os.path.join(ROOT, "runtime", "include"), "-I", d, os.path.join(d, name + ".cu")] +
                            tools["runtime"] + ["-o", so])
    if rc:
        return None, "nvcc: " + out.strip()[-2000:]
    return (so, "launch_" + name, path), None


def problem(torch, form, size):
    """(mytriton's launch arguments, Triton's, the grid, [C], [reference]) of one form."""
    h = dict(device="cuda", dtype=torch.float16)
    if form == "grouped":
        a = [torch.rand((size, size), **h) for _ in range(4)]
        b = [torch.rand((size, size), **h) for _ in range(4)]
        c = [torch.empty((size, size), **h) for _ in range(4)]
        tables = [torch.tensor([t.data_ptr() for t in m], device="cuda") for m in (a, b, c)]
        sizes = torch.tensor([size] * 12, dtype=torch.int32, device="cuda")
        lds = torch.tensor([size] * 12, dtype=torch.int32, device="cuda")
        argv = tables + [sizes, lds, 4]
        return argv, c, [x @ y for x, y in zip(a, b)]
    if form == "persistent":
        a, b, c = torch.randn((size, size), **h), torch.randn((size, size), **h), torch.empty((size, size), **h)
        return [a, b, c, size, size, size, size, size, size], [c], [a @ b]
    counts = [size // EXPERTS] * EXPERTS
    counts[1], counts[2] = 0, 2 * size // EXPERTS
    offs = [0]
    for n in counts:
        offs.append(offs[-1] + n)
    a = torch.randn((offs[-1], size), **h)
    b = torch.randn((EXPERTS, size, size), **h)
    c = torch.zeros((offs[-1], size), **h)
    offsets = torch.tensor(offs, dtype=torch.int32, device="cuda")
    ref = torch.cat([a[offs[e]:offs[e + 1]] @ b[e] for e in range(EXPERTS)])
    return [a, b, c, offsets, size, size], [c], [ref], max(counts)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir")
    ap.add_argument("--forms", default=",".join(FORMS))
    ap.add_argument("--size", type=int, default=4096)
    ap.add_argument("--programs", type=int, default=132, help="programs of the grouped and persistent forms "
                    "(the H200's SMs)")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("--no-triton", action="store_true")
    ap.add_argument("--compile-only", action="store_true")
    args = ap.parse_args()
    forms = [f for f in args.forms.split(",") if f]
    for f in forms:
        if f not in FORMS:
            sys.exit("unknown form %r (%s)" % (f, ", ".join(FORMS)))
    work = tempfile.mkdtemp(prefix="mytriton-forms-")
    tools = {"work": work, "mytritonc": mtlib.find_mytritonc(build_dir=args.build_dir, build=False),
             "nvcc": mtlib.find_nvcc(), "cc": mtlib.find_cc()}
    tools["runtime"] = mtlib.build_runtime(work, tools["cc"])
    built = {}
    failed = 0
    for f in forms:
        for k in range(len(FORMS[f][4])):
            built[(f, k)], err = build(args, tools, f, k)
            if err:
                failed += 1
                print("FAIL  %s config %d: %s" % (f, k, err))
            else:
                print("built %s config %d: %s" % (f, k, built[(f, k)][2]))
    if args.compile_only:
        return 1 if failed else 0
    import torch
    import triton  # noqa: F401 (the kernels' modules import it)
    torch.manual_seed(0)
    for f in forms:
        file, kernel, _sig, _grid, configs = FORMS[f]
        spec = importlib.util.spec_from_file_location("forms_" + f, os.path.join(KERNELS, file))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        tk = getattr(mod, kernel)
        p = problem(torch, f, args.size)
        argv, outs, refs = p[0], p[1], p[2]
        for k, cfg in enumerate(configs):
            if not built.get((f, k)):
                continue
            so, fn_name, _path = built[(f, k)]
            defs = constexprs(f, cfg, args)
            lib = ctypes.CDLL(so)
            fn = getattr(lib, fn_name)
            fn.restype = ctypes.c_int
            cargs = [ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)]
            for x in argv:
                cargs.append(ctypes.c_void_p(x.data_ptr()) if torch.is_tensor(x) else ctypes.c_int32(x))
            if f == "expert":
                cargs += [ctypes.c_int32(p[3]), ctypes.c_int32(EXPERTS)]
                grid = (-(-p[3] // defs["BM"]), -(-args.size // defs["BN"]), EXPERTS)
            else:
                grid = (args.programs,)

            def ours():
                rc = fn(*cargs)
                if rc:
                    raise RuntimeError("%s returned %d" % (fn_name, rc))

            for o in outs:
                o.zero_()
            ours()
            torch.cuda.synchronize()
            err = max(float((o.float() - r.float()).abs().max() / r.float().abs().max().clamp(min=1e-6))
                      for o, r in zip(outs, refs))
            t_ours = mtlib.time_ms(torch, ours, args.reps)
            line = "%-10s %-28s mytriton %8.3f ms (max rel diff %.1e)" % (
                f, ",".join("%s=%s" % kv for kv in cfg[0].items()), t_ours, err)
            if not args.no_triton:
                def theirs():
                    tk[grid](*argv, num_warps=cfg[1], num_stages=cfg[2], **defs)
                t_tri = mtlib.time_ms(torch, theirs, args.reps)
                line += "   Triton %8.3f ms   ratio %.2f" % (t_tri, t_ours / t_tri)
            print(line, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
