#!/usr/bin/env python3
"""Extract Triton's own language tests from a git mirror of Triton into an
ignored folder (default test/triton_suite/src/), for the conformance suite
of test/triton_suite/ (scripts/triton_suite.py runs it).

    python3 scripts/triton_suite_fetch.py --mirror /work/.mirror/triton-lang+triton/repo
    python3 scripts/triton_suite_fetch.py --mirror DIR --ref v3.6.0

--mirror is a (bare) git directory of Triton or of a fork that carries
upstream's release branches (the fetch tool's layout: DIR/repo also works).
The ref is the first of --ref, tag v3.6.0, branch release/3.6.x (also under
origin/ or refs/remotes/) that the mirror has. What is written:

  test_core.py, test_standard.py, test_random.py   python/test/unit/language/
  _internal_testing.py                             python/triton/ (the helpers test_core imports)
  LICENSE                                          Triton's license
  SOURCE.json                                      mirror, ref, commit, date, files

Nothing extracted is committed (the folder is in .gitignore). Triton's
conftest.py is not extracted: test/triton_suite/mytriton_plugin.py provides
its fixtures (device, fresh_knobs, ...) for the host backend.
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "test", "triton_suite", "src")
REFS = ["v3.6.0", "release/3.6.x", "origin/release/3.6.x", "refs/remotes/origin/release/3.6.x"]
FILES = {
    "test_core.py": "python/test/unit/language/test_core.py",
    "test_standard.py": "python/test/unit/language/test_standard.py",
    "test_random.py": "python/test/unit/language/test_random.py",
    "_internal_testing.py": "python/triton/_internal_testing.py",
    "LICENSE": "LICENSE",
}
OPTIONAL = {"test_standard.py", "test_random.py"}


def git(git_dir, *args):
    p = subprocess.run(["git", "--git-dir", git_dir] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    return p.returncode, p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mirror", required=True, help="git directory of a Triton mirror")
    ap.add_argument("--ref", help="tag, branch or commit (default: v3.6.0, else release/3.6.x)")
    ap.add_argument("--out", default=OUT)
    opts = ap.parse_args()
    git_dir = opts.mirror
    if os.path.isdir(os.path.join(git_dir, "repo")):
        git_dir = os.path.join(git_dir, "repo")
    if git(git_dir, "rev-parse", "--git-dir")[0]:
        raise SystemExit("%s is not a git directory" % git_dir)
    refs = [opts.ref] if opts.ref else REFS
    ref = commit = None
    for r in refs:
        rc, out = git(git_dir, "rev-parse", "--verify", "--quiet", r + "^{commit}")
        if rc == 0:
            ref, commit = r, out.decode().strip()
            break
    if not ref:
        raise SystemExit("none of %s in %s" % (", ".join(refs), git_dir))
    rc, version = git(git_dir, "show", "%s:python/triton/__init__.py" % commit)
    ver = next((ln.split("=")[1].strip().strip("'\"") for ln in version.decode().splitlines()
                if ln.startswith("__version__")), "?")
    _, date = git(git_dir, "log", "-1", "--format=%ci", commit)
    os.makedirs(opts.out, exist_ok=True)
    written = []
    for name, path in FILES.items():
        rc, data = git(git_dir, "show", "%s:%s" % (commit, path))
        if rc:
            if name in OPTIONAL:
                print("  %s: not in %s (skipped)" % (path, ref))
                continue
            raise SystemExit("%s is not in %s" % (path, ref))
        with open(os.path.join(opts.out, name), "wb") as f:
            f.write(data)
        written.append(name)
    info = {"mirror": os.path.abspath(git_dir), "ref": ref, "commit": commit, "date": date.decode().strip(),
            "triton_version": ver, "files": written}
    with open(os.path.join(opts.out, "SOURCE.json"), "w") as f:
        json.dump(info, f, indent=1)
    print("Triton %s (%s, %s %s) -> %s: %s" % (ver, ref, commit[:12], info["date"], opts.out, ", ".join(written)))
    if ref != "v3.6.0":
        print("note: tag v3.6.0 is not in this mirror; %s is used" % ref)
    return 0


if __name__ == "__main__":
    sys.exit(main())
