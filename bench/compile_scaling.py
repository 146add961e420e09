"""How mytritonc's compile time grows with kernel size.

    python3 bench/compile_scaling.py [--mytritonc build/bin/mytritonc] [--sizes 100,1000,10000] [--repeat 3]

Generates kernels of N statements in four forms and times mytritonc on each
(wall time, the median of --repeat runs, and the peak memory of one run),
at -O1 and -O2, writing the complete outputs (-o DIR: NAME.cu, NAME.h and
NAME_host.c):

  straight   N assignments on a block: acc = acc * 1.0001 + x (rank 1, 128)
  loop       the same N statements inside one runtime loop (range(n))
  nested     N statements spread over runtime loops nested 8 deep
  unrolled   a tl.static_range(N) loop around one statement (N copies)

and, for the limits of issue 9, single kernels: loops nested 64 deep, a line
of 100 000 characters, an expression nested 200 deep, and static_range
unrolling of 10^5 and 10^6 iterations. Prints a table; asserts nothing.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HEAD = "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(x, out, n, BLOCK: tl.constexpr):\n"
PRO = "    offs = tl.arange(0, BLOCK)\n    v = tl.load(x + offs)\n    acc = tl.zeros((BLOCK,), tl.float32)\n"
EPI = "    tl.store(out + offs, acc)\n"


def straight(n):
    return HEAD + PRO + "".join("    acc = acc * 1.0001 + v\n" for _ in range(n)) + EPI


def loop(n):
    return HEAD + PRO + "    for i in range(n):\n" + "".join("        acc = acc * 1.0001 + v\n" for _ in range(n)) + EPI


def nested(n, depth=8):
    body = ""
    for d in range(depth):
        body += "    " * (d + 1) + "for i%d in range(n):\n" % d
    per = max(1, n // depth)
    for d in range(depth, 0, -1):
        body += "".join("    " * (d + 1) + "acc = acc * 1.0001 + v\n" for _ in range(per))
    return HEAD + PRO + body + EPI


def unrolled(n):
    return HEAD + PRO + "    for i in tl.static_range(%d):\n        acc = acc * 1.0001 + v\n" % n + EPI


def deep_loops(depth=64):
    body = ""
    for d in range(depth):
        body += "    " * (d + 1) + "for i%d in range(n):\n" % d
    body += "    " * (depth + 1) + "acc = acc + v\n"
    return HEAD + PRO + body + EPI


def long_line(chars=100000):
    terms = []
    length = 0
    while length < chars:
        terms.append("v")
        length += 4
    return HEAD + PRO + "    acc = " + " + ".join(terms) + "\n" + EPI


def deep_expression(depth=200):
    return HEAD + PRO + "    acc = " + "(" * depth + "v" + " + v)" * depth + "\n" + EPI


def run(mytritonc, source, level, outdir):
    fd, path = tempfile.mkstemp(suffix=".py")
    with os.fdopen(fd, "w") as f:
        f.write(source)
    try:
        start = time.perf_counter()
        proc = subprocess.Popen([mytritonc, path, "--kernel", "k", "--signature", "*fp32, *fp32, i32", "-D", "BLOCK=128",
                                 "--grid", "1", "-O%d" % level, "--backends", "cuda,host", "-o", outdir],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        err = proc.stderr.read().decode("utf-8", "replace")
        proc.stderr.close()
        code = os.waitstatus_to_exitcode(status)
        return elapsed, usage.ru_maxrss / 1024.0, code, err
    finally:
        os.unlink(path)


def measure(mytritonc, source, level, repeat):
    with tempfile.TemporaryDirectory() as outdir:
        times, peak, code, err = [], 0.0, 0, ""
        for _ in range(repeat):
            t, rss, code, err = run(mytritonc, source, level, outdir)
            times.append(t)
            peak = max(peak, rss)
            if code != 0:
                break
        out = sum(os.path.getsize(os.path.join(outdir, f)) for f in os.listdir(outdir))
    first = err.strip().splitlines()[0] if err.strip() else ""
    return statistics.median(times), peak, code, out, first


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser()
    p.add_argument("--mytritonc", default=os.path.join(here, "..", "build", "bin", "mytritonc"))
    p.add_argument("--sizes", default="100,1000,10000")
    p.add_argument("--repeat", type=int, default=3)
    a = p.parse_args()
    sizes = [int(s) for s in a.sizes.split(",")]
    print("%-10s %7s %3s %9s %9s %10s  %s" % ("form", "N", "-O", "time s", "peak MiB", "out bytes", "status"))
    for name, make in (("straight", straight), ("loop", loop), ("nested", nested), ("unrolled", unrolled)):
        for n in sizes:
            for level in (1, 2):
                t, rss, code, out, err = measure(a.mytritonc, make(n), level, a.repeat)
                print("%-10s %7d %3d %9.3f %9.1f %10d  %s" % (name, n, level, t, rss, out, "ok" if code == 0 else
                                                               "exit %d: %s" % (code, err[:100])))
                sys.stdout.flush()
    limits = (("loops64", deep_loops()), ("line100k", long_line()), ("expr200", deep_expression()),
              ("static1e5", unrolled(100000)), ("static1e6", unrolled(1000000)))
    for name, source in limits:
        for level in (1, 2):
            t, rss, code, out, err = measure(a.mytritonc, source, level, 1)
            print("%-10s %7s %3d %9.3f %9.1f %10d  %s" % (name, "-", level, t, rss, out, "ok" if code == 0 else
                                                           "exit %d: %s" % (code, err[:100])))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
