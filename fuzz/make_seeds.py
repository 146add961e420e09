"""Writes the fuzz harnesses' seed corpora.

    python3 make_seeds.py REPO_ROOT SHIM OUT_DIR

OUT_DIR/source/<case>.py: the kernel file of each conformance case
(test/conformance/manifest.json) and of each execution-test case
(test/exec/CMakeLists.txt) with the options comment on its first line
(fuzz/fuzz_pipeline.h); OUT_DIR/reader/<case>.txt: the options line and
the parser shim's output for the file, plus a few shim failures; and each
source regression (test/fuzz_regressions/source/<name>.py, its options
line first) as source/regress_<name>.py and, where the shim reads it,
reader/regress_<name>.txt, so
that the fuzzers start from the forms that once failed too. Written only
when the content changes, so the corpora keep their timestamps.
"""

import json
import os
import re
import subprocess
import sys


def cases(root):
    with open(os.path.join(root, "test/conformance/manifest.json")) as f:
        manifest = json.load(f)
    for c in manifest["cases"]:
        defines = ["%s=%s" % (k, v) for k, v in c.get("constexprs", {}).items()]
        yield (c["case"], os.path.join(root, "test/conformance", c["file"]), c["kernel"], c["signature"], defines,
               c.get("grid"))
    # the execution tests' own kernels: "case|file|kernel|signature|defines|grid"
    exec_cmake = os.path.join(root, "test/exec/CMakeLists.txt")
    if os.path.exists(exec_cmake):
        with open(exec_cmake) as f:
            text = f.read()
        for line in re.findall(r'^\s+"([a-z0-9_]+\|kernels/[^"|]*\.py\|[^"]*)"', text, re.M):
            parts = line.split("|")
            if len(parts) != 6:
                continue
            path = os.path.join(root, "test/exec", parts[1])
            if os.path.exists(path):
                yield ("exec_" + parts[0], path, parts[2], parts[3], parts[4].split(), parts[5] or None)


def options_line(kernel, signature, defines, grid, status=None):
    fields = ["#mt", "kernel=" + kernel, "sig=" + signature]
    fields += ["D=" + d for d in defines]
    if grid:
        fields.append("grid=" + grid)
    if status is not None:
        fields.append("status=%d" % status)
    return "|".join(fields) + "\n"


def write(path, data):
    if os.path.exists(path):
        with open(path, "rb") as f:
            if f.read() == data:
                return
    with open(path, "wb") as f:
        f.write(data)


def main(argv):
    root, shim, out = argv[1], argv[2], argv[3]
    for sub in ("source", "reader"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    for name, path, kernel, signature, defines, grid in cases(root):
        line = options_line(kernel, signature, defines, grid).encode()
        with open(path, "rb") as f:
            source = f.read()
        write(os.path.join(out, "source", name + ".py"), line + source)
        ast = subprocess.run([sys.executable, "-I", "-S", shim, path], stdout=subprocess.PIPE, check=True).stdout
        write(os.path.join(out, "reader", name + ".txt"), line + ast)
    regressions = os.path.join(root, "test/fuzz_regressions/source")
    for entry in sorted(os.listdir(regressions)) if os.path.isdir(regressions) else []:
        if not entry.endswith(".py"):
            continue
        path = os.path.join(regressions, entry)
        with open(path, "rb") as f:
            source = f.read()
        line = source.split(b"\n", 1)[0] + b"\n"
        if not line.startswith(b"#mt|"):
            continue
        name = "regress_" + entry[:-3]
        write(os.path.join(out, "source", name + ".py"), source)
        # (a regression the shim rejects seeds the source harness alone)
        r = subprocess.run([sys.executable, "-I", "-S", shim, path], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL)
        if r.returncode == 0:
            write(os.path.join(out, "reader", name + ".txt"), line + r.stdout)
    # the shim's failures, as the reader sees them
    failures = {
        "shim_syntax_error": (1, b"mytriton-ast-error 5 12 26 Python syntax error: bad\n"),
        "shim_no_position": (1, b"mytriton-ast-error 0 0 14 cannot read it\n"),
        "shim_garbage": (1, b"Traceback (most recent call last):\n"),
        "shim_exit_127": (127, b""),
    }
    for name, (status, text) in failures.items():
        write(os.path.join(out, "reader", name + ".txt"),
              options_line("k", "*fp32, i32", [], None, status).encode() + text)


if __name__ == "__main__":
    main(sys.argv)
