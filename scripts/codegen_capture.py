#!/usr/bin/env python3
"""Show that a change of the compiler's code leaves generated code unchanged:
every mytritonc run of a build and of its tests is made by two compilers,
the new one and a baseline, and their outputs are compared.

    codegen_capture.py install BUILD BASELINE LOG   # wrap BUILD/bin/mytritonc
    ninja -C BUILD && ctest --test-dir BUILD        # every run is compared
    codegen_capture.py uninstall BUILD              # the real mytritonc back
    codegen_capture.py report LOG                   # runs, files, differences
    codegen_capture.py replay NEW BASE LOG/argv.jsonl LOG2   # a build's runs again

The wrapper runs the real (new) compiler as asked, so the build and the
tests go on as usual; then it runs both compilers once more with the same
arguments, each with its outputs (-o DIR, --depfile FILE, stdout, stderr,
exit status) sent to a fresh folder of its own, and compares them file by
file (the folder's own path inside an output reads the same for both).
LOG/runs lists one line per run: "same N" or "DIFFERS", and the arguments.
BASELINE is a mytritonc built from the commit before the change, copied
into BUILD/bin (it finds the Python shim beside itself).
"""
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile

WRAPPER = """#!/bin/sh
exec "{python}" "{script}" run "{real}" "{base}" "{log}" "$@"
"""


def redirected(argv, d):
    args, i = [], 0
    while i < len(argv):
        a = argv[i]
        for flag, repl in (("-o", os.path.join(d, "out")), ("--depfile", os.path.join(d, "dep"))):
            if a == flag and i + 1 < len(argv):
                args += [flag, repl]
                i += 2
                break
            if a.startswith(flag + "="):
                args.append(flag + "=" + repl)
                i += 1
                break
        else:
            args.append(a)
            i += 1
    return args


def outputs(exe, argv, d):
    os.makedirs(os.path.join(d, "out"))
    with open(os.path.join(d, "stdout"), "wb") as out, open(os.path.join(d, "stderr"), "wb") as err:
        rc = subprocess.call([exe] + redirected(argv, d), stdout=out, stderr=err,
                             stdin=subprocess.DEVNULL)
    files = {"rc": b"%d" % rc}
    for dp, _, fns in os.walk(d):
        for fn in fns:
            p = os.path.join(dp, fn)
            with open(p, "rb") as f:
                files[os.path.relpath(p, d)] = f.read().replace(d.encode(), b"@DIR@")
    # The compilers' own names differ (argv[0] in messages).
    for k in ("stdout", "stderr"):
        files[k] = files[k].replace(exe.encode(), b"@EXE@").replace(
            os.path.basename(exe).encode(), b"@EXE@")
    return files


def compare_run(real, base, log, argv):
    tmp = tempfile.mkdtemp(prefix="cap")
    try:
        # Both under one name length, so that paths in outputs line up.
        a = outputs(real, argv, os.path.join(tmp, "a"))
        b = outputs(base, argv, os.path.join(tmp, "b"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    same = a == b
    line = "%s %d\t%s\t%s\n" % ("same" if same else "DIFFERS", len(a), os.getcwd(),
                                 json.dumps(argv))
    if not same:
        diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
        line += "\tfiles: %s\n" % " ".join(diff)
    with open(os.path.join(log, "runs"), "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.write(line)
    return same


def run(real, base, log, argv):
    rc = subprocess.call([real] + argv)
    compare_run(real, base, log, argv)
    with open(os.path.join(log, "argv.jsonl"), "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.write(json.dumps([os.getcwd()] + argv) + "\n")
    return rc


def replay(real, base, runs, log):
    """Runs again the recorded runs whose files still exist (those of the
    build: test-time runs use temporary files), both compilers, compared."""
    real, base = os.path.abspath(real), os.path.abspath(base)
    os.makedirs(log, exist_ok=True)
    seen, n = set(), 0
    with open(runs) as f:
        for line in f:
            cwd, *argv = json.loads(line)
            key = json.dumps([cwd] + argv)
            if key in seen or not os.path.isdir(cwd):
                continue
            seen.add(key)
            if not all(os.path.exists(os.path.join(cwd, a)) for a in argv
                       if a.endswith(".py") and not a.startswith("-")):
                continue
            os.chdir(cwd)
            compare_run(real, base, log, argv)
            n += 1
    print("replayed %d runs" % n)
    return report(log)


def report(log):
    runs = same = files = 0
    differ = []
    with open(os.path.join(log, "runs")) as f:
        for line in f:
            if line.startswith("\tfiles: ") and differ:
                differ[-1] += line
                continue
            head = line.split("\t")[0].split()
            if len(head) != 2 or head[0] not in ("same", "DIFFERS") or not head[1].isdigit():
                continue  # (the rest of an argument with a newline, logged before json)
            runs += 1
            files += int(head[1])
            if head[0] == "same":
                same += 1
            else:
                differ.append(line)
    print("mytritonc runs compared: %d; outputs compared: %d files (with stdout, stderr, rc)"
          % (runs, files))
    print("runs with identical outputs: %d; runs whose outputs differ: %d" % (same, len(differ)))
    for d in differ:
        print(d, end="")
    return 1 if differ else 0


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "run":
        return run(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    if cmd == "install":
        build = sys.argv[2]
        exe = os.path.join(build, "bin", "mytritonc")
        base = os.path.abspath(os.path.join(build, "bin", "mytritonc.base"))
        real = os.path.abspath(exe + ".real")
        log = os.path.abspath(sys.argv[4])
        shutil.copy(sys.argv[3], base)
        if not os.path.exists(real):
            os.rename(exe, real)
        os.makedirs(log, exist_ok=True)
        with open(exe, "w") as f:
            f.write(WRAPPER.format(python=sys.executable, script=os.path.abspath(__file__),
                                   real=real, base=base, log=log))
        os.chmod(exe, 0o755)
        return 0
    if cmd == "uninstall":
        exe = os.path.join(sys.argv[2], "bin", "mytritonc")
        os.replace(exe + ".real", exe)
        return 0
    if cmd == "replay":
        return replay(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
    if cmd == "report":
        return report(sys.argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
