"""Every kernel of the build through every backend: no internal error.

    python3 all_backends.py MYTRITONC PYTHON SHIM BUILD_DIR [JOBS]

Each mytriton_add_kernels() call of the build records the compiler's
options of each kernel in BUILD_DIR/.../CMakeFiles/<target>.mytriton/
<name>.options (one argument a line, the source first). This compiles
every distinct kernel (the options less -O, --name and --backends) at -O1
and -O2 with the CUDA, host and MLIR backends at once (-o writes each
backend's output even when another reported a diagnostic; a dispatching
kernel, --config, without MLIR, which has no dispatching launcher), and
fails when a run aborts, dies of a signal, prints "internal error" or
takes more than a minute. Diagnostics are fine: a kernel the suites build
for the host alone may well be rejected elsewhere.
"""

import concurrent.futures
import glob
import os
import subprocess
import sys
import tempfile


def invocations(build_dir):
    seen = {}
    pattern = os.path.join(build_dir, "**", "CMakeFiles", "*.mytriton", "*.options")
    for path in sorted(glob.glob(pattern, recursive=True)):
        with open(path) as f:
            args = [a for a in f.read().split("\n") if a != ""]
        kept, i = [], 0
        while i < len(args):
            if args[i] in ("--name", "--backends"):
                i += 2
                continue
            if args[i] in ("-O0", "-O1", "-O2"):
                i += 1
                continue
            kept.append(args[i])
            i += 1
        seen.setdefault(tuple(kept), path)
    return seen


def run(mytritonc, python, shim, args, level, out):
    backends = "cuda,host" if "--config" in args else "cuda,host,mlir"
    cmd = [mytritonc] + list(args) + ["-O%d" % level, "--backends", backends, "--name", "k",
                                      "--python", python, "--shim", shim, "-o", out]
    try:
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60)
    except subprocess.TimeoutExpired:
        return cmd, "timed out after 60 s"
    err = r.stderr.decode("utf-8", "replace")
    if r.returncode < 0 or r.returncode == 134 or "internal error" in err:
        return cmd, "exit status %d:\n%s" % (r.returncode, err)
    return None


def main(argv):
    if len(argv) < 5:
        sys.stderr.write(__doc__)
        return 2
    mytritonc, python, shim, build_dir = argv[1:5]
    jobs = int(argv[5]) if len(argv) > 5 else max(1, os.cpu_count() or 1)
    kernels = invocations(build_dir)
    if not kernels:
        sys.stderr.write("no kernel options under %s\n" % build_dir)
        return 1
    failures = []
    with tempfile.TemporaryDirectory(prefix="mt_all_backends_") as tmp:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(run, mytritonc, python, shim, args, level,
                                   os.path.join(tmp, "%d_o%d" % (i, level)))
                       for i, args in enumerate(kernels) for level in (1, 2)]
            for f in futures:
                r = f.result()
                if r:
                    failures.append(r)
    for cmd, why in failures:
        sys.stderr.write("FAILED: %s\n  %s\n" % (" ".join("'%s'" % a for a in cmd), why))
    print("%d kernels (from %s), %d compilations at -O1 and -O2, %d failed"
          % (len(kernels), build_dir, 2 * len(kernels), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
