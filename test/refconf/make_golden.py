#!/usr/bin/python3
"""Produce golden output of the reference compiler (pbelevich/mytriton, the
seed's Python code) for the cases of a manifest: golden/<case>.ssa and
golden/<case>.cu, the reference's --emit=ssa and --emit=cuda at its only level
(constant folding, CSE, DCE: mytritonc -O1).

Run by hand, never at test time (Debian's interpreter, for its numpy):
    /usr/bin/python3 test/refconf/make_golden.py --ref /path/to/pbelevich-mytriton \
        test/refconf/manifest.json test/refconf/golden
The reference needs Debian's python3-numpy. Its code is imported from --ref,
not copied here. Kernel files say `import triton` / `import triton.language as
tl`; those names are bound to the reference's modules while importing.
"""
import argparse
import importlib.util
import json
import os
import sys
import types


def load_reference(ref):
    sys.path.insert(0, os.path.join(ref, "src"))
    import mytriton  # noqa: E402
    import mytriton.language  # noqa: E402
    from mytriton.ssa import SSAPrinter  # noqa: E402

    triton = types.ModuleType("triton")
    triton.jit = mytriton.jit
    triton.cdiv = mytriton.cdiv
    triton.language = mytriton.language
    sys.modules["triton"] = triton
    sys.modules["triton.language"] = mytriton.language
    return SSAPrinter


def runtime_arg(ty):
    import numpy as np

    ty = ty.strip()
    if ":" in ty and not ty.startswith("*"):  # "name: type"
        ty = ty.split(":", 1)[1].strip()
    ty = ty.split(":")[0].strip()  # "*fp32:16": the hint is not a type
    if ty == "*fp32":
        return np.zeros(1, dtype=np.float32)
    if ty == "i32":
        return 1
    if ty == "fp32":
        return 1.0
    raise SystemExit(f"unsupported signature type {ty!r}")


def read_manifest(path):
    """manifest.json of test/conformance, or the tab-separated cases of
    mytriton_difftest --emit (name, file, function, signature, K=V ...)."""
    if path.endswith(".json"):
        with open(path) as f:
            return json.load(f)
    cases = []
    with open(path) as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) < 5:
                continue
            consts = dict((kv.split("=")[0], int(kv.split("=")[1])) for kv in cols[4].split())
            cases.append({"case": cols[0], "file": cols[1], "kernel": cols[2],
                          "signature": cols[3], "constexprs": consts})
    return {"cases": cases}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ref", required=True)
    ap.add_argument("manifest")
    ap.add_argument("outdir")
    ap.add_argument("--accepted", help="write the names of the cases the reference compiled here "
                    "(and do not fail on the others)")
    args = ap.parse_args()
    printer = load_reference(args.ref)
    os.environ.pop("MYTRITON_BACKEND", None)

    manifest = read_manifest(args.manifest)
    base = os.path.dirname(os.path.abspath(args.manifest))
    os.makedirs(args.outdir, exist_ok=True)
    modules = {}
    failed = 0
    accepted = []
    for case in manifest["cases"]:
        path = os.path.join(base, case["file"])
        mod = modules.get(path)
        if mod is None:
            name = "refconf_" + os.path.splitext(os.path.basename(path))[0]
            spec = importlib.util.spec_from_file_location(name, path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            modules[path] = mod
        kernel = getattr(mod, case["kernel"])
        rt = [runtime_arg(t) for t in case["signature"].split(",")]
        try:
            _, ssa_ops, src = kernel[(1,)](*rt, **case.get("constexprs", {}))
        except Exception as e:  # the reference rejects it: no golden
            print(f"{case['case']}: reference error: {type(e).__name__}: {e}", file=sys.stderr)
            failed += 1
            continue
        accepted.append(case["case"])
        with open(os.path.join(args.outdir, case["case"] + ".ssa"), "w") as f:
            f.write(printer().print_ops(list(ssa_ops)) + "\n")
        with open(os.path.join(args.outdir, case["case"] + ".cu"), "w") as f:
            f.write(src if src.endswith("\n") else src + "\n")
    if args.accepted:
        with open(args.accepted, "w") as f:
            f.write("".join(c + "\n" for c in accepted))
    print(f"{len(accepted)} cases written, {failed} rejected by the reference", file=sys.stderr)
    return 1 if failed and not args.accepted else 0


if __name__ == "__main__":
    sys.exit(main())
