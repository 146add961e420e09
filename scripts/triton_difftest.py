#!/usr/bin/env python3
"""Triton as the oracle (issue 17), on the GPU machine.

Generates N random kernels with mytriton_difftest (full dialect), runs
mytriton on them (host backend, and mytriton's CUDA on the GPU at -O1 and
-O2, compared with the host by mytriton_difftest itself) and dumps the host
-O1 buffers; then runs Triton on the same kernel files with the same inputs
and grids, in parallel worker processes, and compares every output element
with mytriton's: bit for bit where the generator's error bound is 0, else
within it (the ~tolerance of each output in manifest.tsv).

Usage (from the repository root, after `cmake --preset h200`):
    python3 scripts/triton_difftest.py --count 10000 --jobs 16
Options: --build DIR (build-h200), --first SEED (1), --work DIR
(/tmp/mytriton-triton-difftest), --no-gpu (mytriton host backend only),
--skip-mytriton (reuse WORK from an earlier run).
Writes WORK/summary.txt and, per failure, WORK/fail/<name>.{py,txt}.
Exit status: 0 when every kernel agrees.
"""
import argparse
import importlib.util
import multiprocessing as mp
import os
import shutil
import struct
import subprocess
import sys
import time

SENTINEL = 0x7FA5A5A5


def sh(cmd, log):
    print("+", " ".join(cmd), flush=True)
    with open(log, "w") as f:
        return subprocess.call(cmd, stdout=f, stderr=subprocess.STDOUT)


def parse_manifest(path):
    kernels = []
    with open(path) as f:
        for line in f:
            name, file, func, sig, defines, grid, args = line.rstrip("\n").split("\t")
            consts = {}
            for d in defines.split():
                k, v = d.split("=")
                consts[k] = int(v)
            parsed = []
            for a in args.split():
                tol = None
                if "~" in a:
                    a, t = a.split("~")
                    tol = float(t)
                aname, rest = a.split(":", 1)
                if rest.startswith("*"):
                    ty, tail = rest.split("[")
                    count, io = tail.split("]")
                    parsed.append({"name": aname, "kind": ty, "count": int(count),
                                   "output": io == "out", "tol": tol})
                else:
                    ty, val = rest.split("=")
                    parsed.append({"name": aname, "kind": ty,
                                   "value": int(val) if ty == "i32" else float(val)})
            kernels.append({"name": name, "file": file, "func": func, "consts": consts,
                            "grid": tuple(int(x) for x in grid.split(",")), "args": parsed})
    return kernels


def f32(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def compare(kern, expected_words, got):
    """got: {arg index: list of uint32}; a description of the first difference, or None."""
    import math
    off = 0
    for i, a in enumerate(kern["args"]):
        if "count" not in a:
            continue
        n = max(a["count"], 1)
        if a["output"]:
            want = expected_words[off:off + n]
            have = got[i]
            for e in range(n):
                w, g = want[e], have[e]
                if w == g:
                    continue
                ok = False
                if a["kind"] == "*fp32" and w != SENTINEL and g != SENTINEL:
                    fw, fg = f32(w), f32(g)
                    if fw == fg or (math.isnan(fw) and math.isnan(fg)):
                        ok = True
                    elif a["tol"] and abs(fw - fg) <= a["tol"]:
                        ok = True
                if not ok:
                    if a["kind"] == "*fp32":
                        return (f"{a['name']}[{e}]: triton {f32(g)!r} (0x{g:08x}) vs mytriton "
                                f"{f32(w)!r} (0x{w:08x}), tolerance {a['tol']}")
                    sg = g - (1 << 32) if g >= 1 << 31 else g
                    sw = w - (1 << 32) if w >= 1 << 31 else w
                    return f"{a['name']}[{e}]: triton {sg} vs mytriton {sw}"
        off += n
    return None


def worker(args):
    work, chunk = args
    import torch  # noqa: F401  (imported in the worker: one CUDA context each)
    results = []
    for kern in chunk:
        name = kern["name"]
        try:
            with open(os.path.join(work, "expected", name + ".bin"), "rb") as f:
                raw = f.read()
            words = list(struct.unpack(f"<{len(raw) // 4}I", raw))
            spec = importlib.util.spec_from_file_location("tdt_" + name, os.path.join(work, "kernels", kern["file"]))
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            fn = getattr(mod, kern["func"])
            call, tensors, off = [], {}, 0
            for i, a in enumerate(kern["args"]):
                if "count" in a:
                    n = max(a["count"], 1)
                    data = words[off:off + n] if not a["output"] else [SENTINEL] * n
                    off += n
                    t = torch.tensor([w - (1 << 32) if w >= 1 << 31 else w for w in data],
                                     dtype=torch.int32, device="cuda")
                    if a["kind"] == "*fp32":
                        t = t.view(torch.float32)
                    tensors[i] = t
                    call.append(t)
                else:
                    call.append(a["value"])
            fn[kern["grid"]](*call, **kern["consts"])
            torch.cuda.synchronize()
            got = {i: [v & 0xFFFFFFFF for v in t.view(torch.int32).cpu().tolist()] for i, t in tensors.items()}
            why = compare(kern, words, got)
            results.append((name, "mismatch" if why else "ok", why or ""))
        except Exception as e:  # a Triton error: the kernel or Triton
            results.append((name, "error", f"{type(e).__name__}: {str(e)[:2000]}"))
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=10000)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 8)
    ap.add_argument("--build", default="build-h200")
    ap.add_argument("--work", default="/tmp/mytriton-triton-difftest")
    ap.add_argument("--no-gpu", action="store_true", help="mytriton's host backend only")
    ap.add_argument("--skip-mytriton", action="store_true")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    build = os.path.join(root, args.build) if not os.path.isabs(args.build) else args.build
    work = args.work
    seeds = f"{args.first}:{args.first + args.count - 1}"
    t0 = time.time()
    dt = os.path.join(build, "test", "difftest", "mytriton_difftest")
    if not args.skip_mytriton:
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        if sh(["cmake", "--build", build, "--target", "mytriton_difftest", "mytritonc", "-j", str(args.jobs)],
              os.path.join(work, "build.log")) != 0:
            sys.exit("building mytriton_difftest failed: see " + os.path.join(work, "build.log"))
        if sh([dt, "--emit", os.path.join(work, "kernels"), "--seeds", seeds], os.path.join(work, "emit.log")) != 0:
            sys.exit("generating kernels failed")
        backends = "host" if args.no_gpu else "host,gpu"
        rc = sh([dt, "--seeds", seeds, "--backends", backends, "--jobs", str(args.jobs), "--batch", "1000",
                 "--dump", os.path.join(work, "expected"), "--work", os.path.join(work, "mytriton")],
                os.path.join(work, "mytriton.log"))
        with open(os.path.join(work, "mytriton.log")) as f:
            mlog = f.read()
        print(mlog[-3000:])
        print(f"mytriton_difftest exit {rc} ({time.time() - t0:.0f} s)", flush=True)
    t1 = time.time()
    os.environ.setdefault("TRITON_CACHE_DIR", os.path.join(work, "triton-cache"))
    kernels = parse_manifest(os.path.join(work, "kernels", "manifest.tsv"))
    kernels = [k for k in kernels if os.path.exists(os.path.join(work, "expected", k["name"] + ".bin"))]
    chunks = [kernels[i::args.jobs * 4] for i in range(args.jobs * 4)]
    ctx = mp.get_context("spawn")
    results = []
    with ctx.Pool(args.jobs) as pool:
        for part in pool.imap_unordered(worker, [(work, c) for c in chunks if c]):
            results.extend(part)
            print(f"triton: {len(results)}/{len(kernels)} kernels", end="\r", flush=True)
    print()
    ok = sum(1 for r in results if r[1] == "ok")
    bad = [r for r in results if r[1] != "ok"]
    os.makedirs(os.path.join(work, "fail"), exist_ok=True)
    by_name = {k["name"]: k for k in kernels}
    for name, kind, why in bad:
        shutil.copy(os.path.join(work, "kernels", by_name[name]["file"]), os.path.join(work, "fail", name + ".py"))
        with open(os.path.join(work, "fail", name + ".txt"), "w") as f:
            f.write(f"{kind}: {why}\n")
    summary = (f"triton_difftest: seeds {seeds}: {len(kernels)} kernels with mytriton results, "
               f"{len(results)} run on Triton, {ok} agree, "
               f"{sum(1 for r in bad if r[1] == 'mismatch')} mismatches, "
               f"{sum(1 for r in bad if r[1] == 'error')} Triton errors "
               f"(mytriton {t1 - t0:.0f} s, Triton {time.time() - t1:.0f} s)")
    with open(os.path.join(work, "summary.txt"), "w") as f:
        f.write(summary + "\n")
        for r in bad:
            f.write("\t".join(r) + "\n")
    print(summary)
    for r in bad[:20]:
        print("  ", r[0], r[1], r[2][:300])
    sys.exit(0 if not bad else 1)


if __name__ == "__main__":
    main()
