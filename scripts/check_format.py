#!/usr/bin/env python3
"""The project's C and C++ sources against its style (.clang-format).

    check_format.py [--fix] [ROOT]

Checks every C/C++ source of the project (compiler/, runtime/, fuzz/,
bench/, example_project/, test/; not the golden outputs of test/refconf
and test/conformance, which are generated code kept byte for byte): each
file must be what clang-format 14 makes of it, and no line of the
compiler, the runtime, the fuzzers, the benchmarks or the example may
exceed 100 columns (the tests' kernel texts in raw strings are Python
lines of their own: the tests are exempt from the column rule). Prints each file that differs (with the first differing line) and
each long line as FILE:LINE. --fix rewrites the files with clang-format
(long lines that clang-format cannot break, strings and comments, stay for
a person). Exits 0 when clean, 1 when not, 77 (ctest's skip) when no
clang-format 14 is installed (the style is that version's output).
clang-format runs on 40 files at a time, in parallel (--output-replacements-xml):
a file it would change is then formatted alone and compared whole.
"""
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys

DIRS = ["compiler", "runtime", "fuzz", "bench", "example_project", "test"]
COLUMN_RULE = ["compiler", "runtime", "fuzz", "bench", "example_project"]
SKIP = [os.path.join("test", "refconf"), os.path.join("test", "conformance")]
EXTS = (".c", ".h", ".cpp", ".hpp", ".cu", ".cuh")
COLUMNS = 100


def clang_format():
    for name in (os.environ.get("CLANG_FORMAT"), "clang-format-14", "clang-format"):
        if not name:
            continue
        exe = shutil.which(name)
        if not exe:
            continue
        out = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
        if re.search(r"version 14\.", out):
            return exe
    return None


def sources(root):
    for top in DIRS:
        for dp, dns, fns in os.walk(os.path.join(root, top)):
            rel = os.path.relpath(dp, root)
            dns[:] = sorted(d for d in dns if not d.startswith((".", "build"))
                            and os.path.join(rel, d) not in SKIP)
            for fn in sorted(fns):
                if fn.endswith(EXTS):
                    yield os.path.join(dp, fn)


def formatted(exe, style, path):
    """clang-format's output for `path` (its own process)."""
    return subprocess.run([exe, style, "--assume-filename=" + path, path],
                          capture_output=True, text=True, check=True).stdout


def clean_files(exe, style, paths):
    """The files of `paths` that clang-format leaves as they are, found with
    one clang-format process per chunk of files (--output-replacements-xml:
    a file without replacements is its own output), chunks run in parallel.
    Any other file is compared whole by the caller, as when each had its
    own process."""
    chunks = [paths[i:i + 40] for i in range(0, len(paths), 40)]

    def run(chunk):
        r = subprocess.run([exe, style, "--output-replacements-xml"] + chunk,
                           capture_output=True, text=True)
        docs = r.stdout.split("<?xml")[1:]
        if r.returncode != 0 or len(docs) != len(chunk):
            return []  # compared one by one
        return [p for p, d in zip(chunk, docs) if "<replacement " not in d]

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        return set(p for clean in pool.map(run, chunks) for p in clean)


def main():
    args = sys.argv[1:]
    fix = "--fix" in args
    args = [a for a in args if a != "--fix"]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    exe = clang_format()
    if not exe:
        print("skipped: no clang-format 14 (Debian: clang-format); the style is its output")
        return 77
    style = "--style=file:" + os.path.join(root, ".clang-format")
    bad = files = 0
    paths = list(sources(root))
    clean = clean_files(exe, style, paths)
    for path in paths:
        files += 1
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        out = text if path in clean else formatted(exe, style, path)
        if out != text:
            if fix:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(out)
                text = out
            else:
                a, b = text.split("\n"), out.split("\n")
                n = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
                print("%s:%d: not clang-format clean (run scripts/check_format.py --fix)"
                      % (rel, n + 1))
                bad += 1
        if rel.split(os.sep)[0] not in COLUMN_RULE:
            continue
        for i, line in enumerate(text.split("\n")):
            if len(line) > COLUMNS:
                print("%s:%d: %d columns (at most %d)" % (rel, i + 1, len(line), COLUMNS))
                bad += 1
    print("%d files checked with %s, %d problems" % (files, exe, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
