#!/usr/bin/env python3
"""The README's examples against reality (tests cmake.readme and house.docs).

Marked code blocks of a Markdown file:

  <!-- file: DIR/PATH -->        the block is the file DIR/PATH of a project
  <!-- commands: DIR -->         the block is the shell commands that build
                                 and run project DIR
  <!-- mytritonc: ARGS -->       the block is what `mytritonc ARGS` prints,
                                 run in the repository's root

  check_docs.py output  DOC --mytritonc PATH [--fix]
      compares each `mytritonc:` block with the compiler's output (--fix
      rewrites the blocks)
  check_docs.py extract DOC --to DIR [--prefix PREFIX]
      writes the `file:` blocks under DIR and, per project, DIR/<project>.sh
      with its `commands:` block, run in DIR/<project>, the mytriton
      installation /path/to/mytriton/install replaced by PREFIX

Exit status 0 when everything matches (or was written), 1 otherwise.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

MARK = re.compile(r"^<!-- (file|commands|mytritonc): (.*?) -->\n```[a-z]*\n(.*?)^```\n",
                  re.MULTILINE | re.DOTALL)
INSTALL = "/path/to/mytriton/install"


def blocks(text):
    return list(MARK.finditer(text))


def output(doc, compiler, fix):
    root = os.path.dirname(os.path.abspath(doc))
    compiler = os.path.abspath(compiler) if os.sep in compiler else compiler
    text = open(doc, encoding="utf-8").read()
    found = [m for m in blocks(text) if m.group(1) == "mytritonc"]
    if not found:
        print(f"{doc}: no <!-- mytritonc: ... --> block", file=sys.stderr)
        return 1
    bad = 0
    new = text
    for m in reversed(found):
        r = subprocess.run([compiler] + shlex.split(m.group(2)), cwd=root,
                           capture_output=True, text=True)
        if r.returncode != 0:
            print(f"{doc}: mytritonc {m.group(2)} failed:\n{r.stderr}", file=sys.stderr)
            bad += 1
            continue
        if r.stdout == m.group(3):
            continue
        if fix:
            new = new[:m.start(3)] + r.stdout + new[m.end(3):]
            print(f"{doc}: rewrote the output of mytritonc {m.group(2)}")
        else:
            line = text.count("\n", 0, m.start()) + 1
            print(f"{doc}:{line}: the block differs from `mytritonc {m.group(2)}`; its output:\n"
                  f"{r.stdout}(run scripts/check_docs.py output --fix)", file=sys.stderr)
            bad += 1
    if fix and new != text:
        open(doc, "w", encoding="utf-8").write(new)
    return 1 if bad else 0


def extract(doc, to, prefix):
    text = open(doc, encoding="utf-8").read()
    files = commands = 0
    for m in blocks(text):
        kind, arg, body = m.group(1), m.group(2).strip(), m.group(3)
        if kind == "file":
            path = os.path.join(to, arg)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "w", encoding="utf-8").write(body)
            files += 1
        elif kind == "commands":
            if prefix:
                body = body.replace(INSTALL, prefix)
            script = f"set -ex\ncd {shlex.quote(os.path.join(to, arg))}\n{body}"
            open(os.path.join(to, arg + ".sh"), "w", encoding="utf-8").write(script)
            commands += 1
    print(f"{doc}: {files} files and {commands} command blocks written under {to}")
    return 0 if files and commands else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    o = sub.add_parser("output")
    o.add_argument("doc")
    o.add_argument("--mytritonc", required=True)
    o.add_argument("--fix", action="store_true")
    e = sub.add_parser("extract")
    e.add_argument("doc")
    e.add_argument("--to", required=True)
    e.add_argument("--prefix", default="")
    a = ap.parse_args()
    if a.what == "output":
        return output(a.doc, a.mytritonc, a.fix)
    return extract(a.doc, a.to, a.prefix)


if __name__ == "__main__":
    sys.exit(main())
