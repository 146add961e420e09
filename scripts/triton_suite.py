#!/usr/bin/env python3
"""Triton's own language tests (test_core.py, test_standard.py, test_random.py
of the 3.6 release) as a conformance suite of mytriton's host backend: every
kernel the tests launch is compiled by mytritonc (--backends host), built by
the C compiler and run on the CPU on torch CPU tensors, through the pytest
plugin and stand-in `triton` package of test/triton_suite/.

    python3 scripts/triton_suite_fetch.py --mirror DIR     # once: the tests into test/triton_suite/src/
    python3 scripts/triton_suite.py --ci                   # the CI subset, against known_failures.txt
    python3 scripts/triton_suite.py --full --jobs 2        # every case (long: see docs/development.md)
    python3 scripts/triton_suite.py --full -k test_dot     # pytest's -k, on the full parametrization
    python3 scripts/triton_suite.py --ci --update-known    # rewrite known_failures.txt from this run

Per test function it prints passed / failed / not applicable, then the
failure causes (mytritonc's diagnostic, the C compiler's, the launch's, a
wrong result, a harness limitation) and the not-applicable reasons, each with
its number of cases. --ci runs the first --per-function cases (default 3) of
every test function, the deterministic subset the ctest test triton_suite.ci
runs, and compares the failures with test/triton_suite/known_failures.txt: a
failure not listed fails the run, and so does a listed case that ran and did
not fail (remove it from the list). --check does the same comparison on any
run.

Needs Python 3 with torch, numpy and pytest (Debian: python3-torch,
python3-pytest; python3-scipy for test_random.py, python3-pytest-xdist for
--jobs, python3-pytest-timeout for the per-case time limit): the first of
this interpreter and /usr/bin/python3 that has them. Without them, or without
the extracted tests, it says why and exits with 77 (ctest's skip).
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITE = os.path.join(ROOT, "test", "triton_suite")
SKIP = 77


def probe(py, mods):
    try:
        p = subprocess.run([py, "-c", "import " + ", ".join(mods)], capture_output=True, text=True, timeout=120)
        return p.returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def find_python():
    for py in (sys.executable, "/usr/bin/python3"):
        if py and os.path.exists(py) and probe(py, ["torch", "numpy", "pytest"]):
            return py
    return None


def matches(case_id, pat):
    """A case id against a known-failures entry: the id itself, or a pattern whose
    only wildcards are * and ? (brackets are the ids' own, never character classes)."""
    if "*" not in pat and "?" not in pat:
        return case_id == pat
    rx = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pat)
    return re.fullmatch(rx, case_id) is not None


def load_known(path):
    entries = []
    if not os.path.exists(path):
        return entries
    with open(path) as f:
        for ln in f:
            s = ln.rstrip("\n")
            if not s.strip() or s.lstrip().startswith("#"):
                continue
            pat, _, reason = s.partition(" # ")
            entries.append((pat.strip(), reason.strip()))
    return entries


def write_known(path, failures, kept):
    lines = ["# Known failures of mytriton's host backend on Triton's own tests (test/triton_suite/).",
             "# One case id (or a pattern: * and ? are wildcards) a line, then ' # ' and the cause. scripts/triton_suite.py",
             "# --ci fails on a failure not listed here, and on a listed case that ran and did not fail.",
             "# Remade by: python3 scripts/triton_suite.py --ci --update-known (entries of cases that the run",
             "# did not run are kept)."]
    rows = sorted(set([(r["id"], r["reason"]) for r in failures] + kept))
    for pat, reason in rows:
        lines.append("%s # %s" % (pat, reason.replace("\n", " ")))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def table(rows, header):
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    out = ["  ".join(str(h).ljust(w) if i == 0 else str(h).rjust(w) for i, (h, w) in enumerate(zip(header, widths)))]
    out.append("  ".join("-" * w for w in widths))
    for r in rows:
        out.append("  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
    return "\n".join(out)


def report(results, not_collected, show_all):
    funcs = {}
    for r in results:
        f = funcs.setdefault(r["function"], {"passed": 0, "failed": 0, "na": 0})
        f[r["outcome"]] += 1
    rows = []
    for name in sorted(funcs, key=lambda n: (n.split("::")[0], n)):
        c = funcs[name]
        rows.append((name, c["passed"], c["failed"], c["na"]))
    for name, why in not_collected:
        rows.append((name + " (not collected: %s)" % why, 0, 0, 0))
    print(table(rows, ("test function", "passed", "failed", "n/a")))
    tot = [sum(r[i] for r in rows) for i in (1, 2, 3)]
    print("\n%d cases of %d test functions: %d passed, %d failed, %d not applicable" %
          (sum(tot), len(funcs), tot[0], tot[1], tot[2]))
    causes, nas = {}, {}
    for r in results:
        if r["outcome"] == "failed":
            causes.setdefault((r["category"], r["reason"]), []).append(r)
        elif r["outcome"] == "na":
            nas.setdefault((r["category"], r["reason"]), []).append(r)
    n = None if show_all else 40
    print("\nfailure causes (cases, test functions):")
    for (cat, reason), rs in sorted(causes.items(), key=lambda kv: -len(kv[1]))[:n]:
        fs = sorted({x["function"].split("::")[1] for x in rs})
        print("  %5d  [%s] %s  (%s)" % (len(rs), cat, reason[:220], ", ".join(fs[:6]) + (", ..." if len(fs) > 6 else "")))
    cats = {}
    for (cat, reason), rs in nas.items():
        cats[cat] = cats.get(cat, 0) + len(rs)
    print("\nnot applicable, by category: " + ", ".join("%s %d" % kv for kv in sorted(cats.items(), key=lambda kv: -kv[1])))
    for (cat, reason), rs in sorted(nas.items(), key=lambda kv: -len(kv[1]))[:n if n is None else 25]:
        print("  %5d  [%s] %s" % (len(rs), cat, reason[:200]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--ci", action="store_true", help="the bounded subset, checked against the known failures")
    mode.add_argument("--full", action="store_true", help="every case")
    ap.add_argument("--per-function", type=int, default=None, help="cases per test function (--ci: 2; --full: all)")
    ap.add_argument("--check", action="store_true", help="compare with the known failures (implied by --ci)")
    ap.add_argument("--update-known", action="store_true", help="rewrite the known-failures file from this run")
    ap.add_argument("--known", default=os.path.join(SUITE, "known_failures.txt"))
    ap.add_argument("--src", default=os.environ.get("MYTRITON_SUITE_SRC") or os.path.join(SUITE, "src"))
    ap.add_argument("--mytritonc", default=None, help="default: build/bin/mytritonc")
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "triton_suite"), help="results and kernel cache")
    ap.add_argument("--fresh-cache", action="store_true", help="empty the kernel cache first")
    ap.add_argument("--jobs", type=int, default=1, help="pytest-xdist workers (needs python3-pytest-xdist)")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per case (needs pytest-timeout)")
    ap.add_argument("-k", dest="kexpr", default=None, help="pytest -k expression")
    ap.add_argument("--files", nargs="*", default=["test_core.py", "test_standard.py", "test_random.py"])
    ap.add_argument("--all-causes", action="store_true", help="list every cause, not the first 40")
    ap.add_argument("pytest_args", nargs="*", help="more pytest arguments (after --)")
    opts = ap.parse_args()
    per = opts.per_function if opts.per_function is not None else (3 if opts.ci else 0)
    check = opts.ci or opts.check

    if not os.path.exists(os.path.join(opts.src, "test_core.py")):
        print("SKIP: Triton's tests are not extracted (%s has no test_core.py): fetch a Triton mirror and run "
              "python3 scripts/triton_suite_fetch.py --mirror DIR" % opts.src)
        return SKIP
    py = find_python()
    if not py:
        print("SKIP: no Python with torch, numpy and pytest (tried %s and /usr/bin/python3; Debian: apt-get install "
              "python3-torch python3-pytest)" % sys.executable)
        return SKIP
    exe = opts.mytritonc or os.path.join(ROOT, "build", "bin", "mytritonc")
    if not os.path.exists(exe):
        print("error: no mytritonc at %s (build it, or pass --mytritonc)" % exe)
        return 1
    opts.work = os.path.abspath(opts.work)  # pytest runs in the tests' folder
    os.makedirs(opts.work, exist_ok=True)
    cache = os.path.join(opts.work, "cache")
    if opts.fresh_cache and os.path.isdir(cache):
        shutil.rmtree(cache)
    results_path = os.path.join(opts.work, "results.jsonl")
    for p in glob.glob(results_path + "*"):
        os.remove(p)

    files, not_collected = [], []
    for f in opts.files:
        if not os.path.exists(os.path.join(opts.src, f)):
            not_collected.append((f, "not in %s" % opts.src))
        elif f == "test_random.py" and not probe(py, ["scipy.stats"]):
            not_collected.append((f, "needs scipy (python3-scipy)"))
        else:
            files.append(f)
    for f, why in not_collected:
        print("not applicable: %s: %s" % (f, why))
    cmd = [py, "-m", "pytest", "-p", "mytriton_plugin", "-p", "no:cacheprovider", "-q", "--no-header", "-rN",
           "--tb=no", "--continue-on-collection-errors", "--mt-results", results_path]
    if per:
        cmd += ["--mt-per-function", str(per)]
    if opts.kexpr:
        cmd += ["-k", opts.kexpr]
    if opts.jobs > 1:
        if probe(py, ["xdist"]):
            cmd += ["-n", str(opts.jobs)]
        else:
            print("note: no pytest-xdist (python3-pytest-xdist): one process")
    if opts.timeout and probe(py, ["pytest_timeout"]):
        cmd += ["--timeout", str(opts.timeout)]
    cmd += files + opts.pytest_args
    env = dict(os.environ)
    env["PYTHONPATH"] = SUITE + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["MYTRITONC"] = os.path.abspath(exe)
    env["MYTRITON_SUITE_CACHE"] = cache
    env["MYTRITON_SUITE_SRC"] = os.path.abspath(opts.src)
    env.setdefault("MYTRITON_HOST_THREADS", "2")
    env.setdefault("MYTRITON_PYTHON", py)
    env.pop("TRITON_INTERPRET", None)
    with open(os.path.join(opts.src, "SOURCE.json")) as f:
        src_info = json.load(f)
    print("== Triton %s tests (%s, %s) on mytriton's host backend (%s), %s" %
          (src_info.get("triton_version"), src_info.get("ref"), src_info.get("commit", "")[:12], exe,
           "first %d cases of each test function" % per if per else "every case"), flush=True)
    t0 = time.time()
    p = subprocess.run(cmd, cwd=opts.src, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.time() - t0
    results, stats = [], []
    for path in sorted(glob.glob(results_path + "*")):
        with open(path) as f:
            for ln in f:
                r = json.loads(ln)
                (stats.append(r) if "stats" in r else results.append(r))
    if not results:
        print(p.stdout[-6000:])
        print("error: pytest ran no case (exit %d)" % p.returncode)
        return 1
    tail = [ln for ln in p.stdout.splitlines() if ln.strip()][-3:]
    errors = [ln for ln in p.stdout.splitlines() if ln.startswith("ERROR ")]
    report(results, not_collected, opts.all_causes)
    compiles = sum(s["stats"]["compiles"] for s in stats)
    hits = sum(s["stats"]["cache_hits"] for s in stats)
    print("\n%.0f s wall; %d kernels compiled (mytritonc %.0f s, cc %.0f s), %d from the cache; pytest: %s" %
          (wall, compiles, sum(s["stats"]["compile_s"] for s in stats), sum(s["stats"]["cc_s"] for s in stats), hits,
           tail[-1] if tail else ""))
    for e in errors:
        print("pytest: " + e)
    rc = 0
    if errors:
        rc = 1
    if check or opts.update_known:
        known = load_known(opts.known)
        ran = {r["id"]: r for r in results}
        failed = {i for i, r in ran.items() if r["outcome"] == "failed"}
        new = sorted(i for i in failed if not any(matches(i, pat) for pat, _ in known))
        fixed, not_run = [], []
        for pat, reason in known:
            hit = [i for i in ran if matches(i, pat)]
            if not hit:
                not_run.append((pat, reason))
            for i in hit:
                if i not in failed:
                    fixed.append((i, pat, ran[i]["outcome"]))
        if opts.update_known:
            write_known(opts.known, [ran[i] for i in sorted(failed)], not_run)
            print("\nwrote %s: %d entries (%d failures of this run, %d entries of cases not run kept)" %
                  (opts.known, len(failed) + len(not_run), len(failed), len(not_run)))
        elif check:
            print("\nknown failures (%s): %d entries, %d of them matched cases of this run" %
                  (os.path.relpath(opts.known, ROOT), len(known), len(known) - len(not_run)))
            for i in new:
                print("NEW FAILURE: %s: %s" % (i, ran[i]["reason"]))
            for i, pat, o in fixed:
                print("NOW %s: %s (listed as %s: remove it from the list)" %
                      ("PASSES" if o == "passed" else "NOT APPLICABLE", i, pat))
            if new or fixed:
                print("triton_suite: %d new failures, %d listed cases that did not fail" % (len(new), len(fixed)))
                rc = 1
            else:
                print("triton_suite: every failure is a known one, and every known one that ran failed")
    return rc


if __name__ == "__main__":
    sys.exit(main())
