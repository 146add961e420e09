#!/usr/bin/env python3
"""Extract the kernels of bench/real/manifest.json from snapshots of their
upstream repositories into an ignored folder (default bench/real/src/).

For each manifest entry, the named @triton.jit function is taken from the
file of the repository at the entry's commit, with what it needs: the
@triton.jit helpers it calls (transitively), the module-level constexprs and
aliases it reads, and the imports of triton (and math) those use. Helpers
imported from other files of the same repository (`from .utils import f`,
`from pkg.ops.utils import f`) are followed into those files and written
into the same output. Decorators other than @triton.jit (autotune,
heuristics, the libraries' own wrappers) are dropped: the manifest gives the
configuration. A module-level name the manifest's `replace` names (per
entry or per repository: name -> one import of triton or one assignment) is
bound by that statement instead of upstream's (a value Python computes at
import time, `rsqrt = libdevice_find("rsqrt")`); the header notes it.
Module-level `if` statements take the branch the manifest's
`assume` (per entry or per repository: the condition's source text -> true
or false) or a static evaluation (literals, triton.__version__ taken as
3.6.0) picks, else their first branch; `try` statements their body.

Each entry becomes <out>/<name>.py, a self-contained module (it imports only
triton, triton.language and the standard library, as the kernel's code
does), headed by a comment naming the repository, commit, path, function and
license; <out>/index.json records, per entry, the kernel's parameters (name,
constexpr or not, default) and the jit decorator's do_not_specialize list,
which scripts/real_suite.py reads. The repositories' license files are
copied to <out>/LICENSES/. Nothing extracted is committed: the folder is
ignored, and travels to the GPU machine as a carried path.

Snapshots: --mirrors DIR holds one bare git directory per repository,
DIR/<owner>+<name>/repo or DIR/<owner>+<name> (the layout of the device
tool's fetch, default /work/.mirror), read with `git show COMMIT:path`; or
--snapshots DIR holds DIR/<owner>+<name>/ (or DIR/<owner>/<name>/), a
checked-out tree of the commit (no git needed).

    python3 scripts/real_extract.py                      # every entry
    python3 scripts/real_extract.py --only 'liger_'      # a regular expression on names
    python3 scripts/real_extract.py --check              # report only, write nothing

Exit status 1 when an entry cannot be extracted (the others are written).
"""
import argparse
import ast
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join(ROOT, "bench", "real", "manifest.json")
OUT = os.path.join(ROOT, "bench", "real", "src")

# modules an extracted file may import as the upstream code does (everything
# else must be followed into the repository or left out)
KEEP_MODULES = ("triton", "math", "typing", "functools", "operator", "enum", "importlib")
TRITON_VERSION = (3, 6, 0)


class ExtractError(Exception):
    pass


# ---- reading snapshots -----------------------------------------------------


class Snapshot:
    """One repository at one commit: read(path) -> text or None."""

    def __init__(self, repo, commit, mirrors, snapshots):
        self.repo, self.commit = repo, commit
        key = repo.replace("/", "+")
        self.git_dir = self.tree = None
        if snapshots:
            for d in (os.path.join(snapshots, key), os.path.join(snapshots, *repo.split("/"))):
                if os.path.isdir(d):
                    self.tree = d
                    break
        if not self.tree and mirrors:
            for d in (os.path.join(mirrors, key, "repo"), os.path.join(mirrors, key)):
                if os.path.isfile(os.path.join(d, "HEAD")):
                    self.git_dir = d
                    break
        if not self.tree and not self.git_dir:
            raise ExtractError("no snapshot of %s (looked in %s)" % (
                repo, ", ".join(x for x in (snapshots, mirrors) if x)))
        if self.git_dir:
            p = subprocess.run(["git", "--git-dir", self.git_dir, "cat-file", "-e", commit + "^{commit}"],
                               capture_output=True)
            if p.returncode:
                raise ExtractError("%s: the snapshot in %s lacks commit %s" % (repo, self.git_dir, commit))
        self.cache = {}

    def read(self, path):
        if path not in self.cache:
            text = None
            if self.tree:
                f = os.path.join(self.tree, path)
                if os.path.isfile(f):
                    with open(f, encoding="utf-8") as fh:
                        text = fh.read()
            else:
                p = subprocess.run(["git", "--git-dir", self.git_dir, "show", "%s:%s" % (self.commit, path)],
                                   capture_output=True)
                if p.returncode == 0:
                    text = p.stdout.decode("utf-8")
            self.cache[path] = text
        return self.cache[path]

    def exists(self, path):
        return self.read(path) is not None

    def license_text(self):
        for name in ("LICENSE", "LICENSE.txt", "LICENSE.md", "LICENSE-CODE", "COPYING"):
            t = self.read(name)
            if t:
                return name, t
        return None, None


# ---- one module's bindings -------------------------------------------------


def names_loaded(node):
    """Free names a statement reads (Load context), in order of appearance."""
    out = []
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in out:
            out.append(n.id)
    return out


def function_free_names(fn):
    """Names a function reads that it neither binds nor takes as parameters."""
    bound = {a.arg for a in fn.args.args + fn.args.kwonlyargs + fn.args.posonlyargs}
    if fn.args.vararg:
        bound.add(fn.args.vararg.arg)
    if fn.args.kwarg:
        bound.add(fn.args.kwarg.arg)
    for n in ast.walk(fn):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            bound.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n is not fn:
            bound.add(n.name)
    out = []
    parts = [fn.args, fn.returns] + fn.body
    for part in parts:
        if part is None:
            continue
        for name in names_loaded(part):
            if name not in bound and name not in out:
                out.append(name)
    return out


def static_value(expr, assume, consts=None):
    """True/False for a module-level condition when it can be known, else None
    (consts: the module's names bound so far to conditions known so)."""
    text = ast.unparse(expr)
    if text in assume:
        return bool(assume[text])
    if isinstance(expr, ast.Constant):
        return bool(expr.value)
    if isinstance(expr, ast.Name) and consts is not None and expr.id in consts:
        return consts[expr.id]
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
        v = static_value(expr.operand, assume, consts)
        return None if v is None else not v
    if isinstance(expr, ast.BoolOp):
        vals = [static_value(v, assume, consts) for v in expr.values]
        if isinstance(expr.op, ast.And):
            if any(v is False for v in vals):
                return False
            return True if all(v is True for v in vals) else None
        if any(v is True for v in vals):
            return True
        return False if all(v is False for v in vals) else None
    if isinstance(expr, ast.Compare) and len(expr.ops) == 1:
        def version(e):
            t = ast.unparse(e)
            if "triton.__version__" in t:
                return TRITON_VERSION
            if isinstance(e, ast.Call) and e.args and isinstance(e.args[-1], ast.Constant) and \
                    isinstance(e.args[-1].value, str) and re.fullmatch(r"[\d.]+", e.args[-1].value):
                return tuple(int(x) for x in e.args[-1].value.split("."))
            if isinstance(e, ast.Constant) and isinstance(e.value, str) and re.fullmatch(r"[\d.]+", e.value):
                return tuple(int(x) for x in e.value.split("."))
            return None
        a, b = version(expr.left), version(expr.comparators[0])
        if a is not None and b is not None and "triton.__version__" in text:
            n = max(len(a), len(b))
            a, b = a + (0,) * (n - len(a)), b + (0,) * (n - len(b))
            op = type(expr.ops[0])
            return {ast.Lt: a < b, ast.LtE: a <= b, ast.Gt: a > b, ast.GtE: a >= b, ast.Eq: a == b,
                    ast.NotEq: a != b}.get(op)
    return None


class Module:
    """A parsed file of the snapshot and its module-level bindings: name ->
    (statement, decision notes). Statements inside module-level if/try are
    bound as the branch taken."""

    def __init__(self, snap, path, assume):
        self.snap, self.path = snap, path
        text = snap.read(path)
        if text is None:
            raise ExtractError("%s has no file %s at %s" % (snap.repo, path, snap.commit[:12]))
        self.text = text
        try:
            self.tree = ast.parse(text, filename=path)
        except SyntaxError as e:
            raise ExtractError("%s: %s" % (path, e))
        self.bindings = {}
        self.notes = {}  # name -> the undecided conditions its binding sits under
        self.consts = {}  # name -> True/False: module-level flags known here
        self._bind(self.tree.body, assume)

    def _bind(self, body, assume, notes=()):
        for st in body:
            if isinstance(st, ast.If):
                v = static_value(st.test, assume, self.consts)
                if v is None:
                    # unknown condition: every branch binds, the first wins
                    # (as mytriton reads it); the header says so where it matters
                    note = "line %d: `if %s` unknown here: its first branch binds first" % (
                        st.lineno, ast.unparse(st.test)[:80])
                    self._bind(st.body, assume, notes + (note,))
                    self._bind(st.orelse, assume, notes + (note,))
                else:
                    self._bind(st.body if v else st.orelse, assume, notes)
            elif isinstance(st, ast.Try):
                self._bind(st.body, assume, notes)
                for h in st.handlers:
                    self._bind(h.body, assume, notes)
                self._bind(st.orelse, assume, notes)
            elif isinstance(st, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
                self._set(st.name, st, notes)
            elif isinstance(st, (ast.Assign, ast.AnnAssign)):
                targets = st.targets if isinstance(st, ast.Assign) else [st.target]
                flag = isinstance(st.value, (ast.Compare, ast.BoolOp, ast.UnaryOp)) or (
                    isinstance(st.value, ast.Constant) and isinstance(st.value.value, bool))
                if len(targets) == 1 and isinstance(targets[0], ast.Name) and flag and not notes:
                    v = static_value(st.value, assume, self.consts)
                    if v is not None:  # TRITON3 = version.parse(triton.__version__) >= ...
                        self.consts[targets[0].id] = v
                for t in targets:
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name):
                            self._set(n.id, st, notes)
            elif isinstance(st, (ast.Import, ast.ImportFrom)):
                for a in st.names:
                    name = a.asname or a.name.split(".")[0]
                    if name != "*":
                        self._set(name, (st, a), notes)

    def _set(self, name, binding, notes):
        if name not in self.bindings:
            self.bindings[name] = binding
            self.notes[name] = notes

    def source(self, node):
        seg = ast.get_source_segment(self.text, node)
        if seg is None:
            raise ExtractError("%s:%d: no source text" % (self.path, node.lineno))
        return seg


def is_jit_decorator(d):
    t = ast.unparse(d.func if isinstance(d, ast.Call) else d)
    return t in ("triton.jit", "jit", "tl.jit")


def is_constexpr_function(d):
    t = ast.unparse(d.func if isinstance(d, ast.Call) else d)
    return t in ("tl.constexpr_function", "triton.constexpr_function", "triton.language.constexpr_function",
                 "constexpr_function")


# ---- the closure of one kernel -----------------------------------------------


def attribute_uses(node):
    """name -> the attributes read of it (`tle.program_id` -> tle: [program_id])."""
    out = {}
    for n in ast.walk(node):
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name):
            out.setdefault(n.value.id, [])
            if n.attr not in out[n.value.id]:
                out[n.value.id].append(n.attr)
    return out


class Extraction:
    def __init__(self, snap, assume, prefix, replace=None):
        self.snap, self.assume, self.prefix = snap, assume, prefix
        self.replace = replace or {}  # module-level name -> the statement that binds it instead
        self.children = {}  # module path -> Extraction of the attributes used of it
        self.modules = {}
        self.emitted = []  # (key, text) in dependency order
        self.keys = set()
        self.defined = {}  # emitted top-level name -> (module path, original name)
        self.imports = []  # import lines, in order
        self.notes = []
        self.helpers = []

    def module(self, path):
        if path not in self.modules:
            self.modules[path] = Module(self.snap, path, self.assume)
        return self.modules[path]

    def resolve_module(self, from_path, level, modname):
        """The repository file of `from <dots><modname> import ...` in from_path, or None."""
        parts = modname.split(".") if modname else []
        if level:
            base = os.path.dirname(from_path)
            for _ in range(level - 1):
                base = os.path.dirname(base)
            cands = [base]
        else:
            # an absolute import: a package of the repository, at its root or
            # under src/ (or beside the file, as scripts import siblings)
            cands = ["", "src", os.path.dirname(from_path)]
        for base in cands:
            stem = os.path.join(base, *parts)
            if not stem:
                continue
            for f in (stem + ".py", os.path.join(stem, "__init__.py")):
                f = os.path.normpath(f)
                if self.snap.exists(f):
                    return f
        return None

    def add_import_line(self, line):
        if line not in self.imports:
            self.imports.append(line)

    def need(self, mod, name, alias=None, where="", attrs=()):
        """Make `alias` (default name) of the output mean `name` of module mod
        (attrs: the attributes the code reads of it, where it is a module)."""
        alias = alias or name
        if name not in mod.bindings:
            return False  # a builtin, or a name the code binds elsewhere
        b = mod.bindings[name]
        key = (mod.path, name)
        if name in self.replace:
            return self.need_replaced(mod, name, alias, b)
        for n in mod.notes[name]:
            n = "%s %s" % (mod.path, n)
            if n not in self.notes:
                self.notes.append(n)
        if isinstance(b, tuple):  # an import
            st, a = b
            if isinstance(st, ast.Import):
                top = a.name.split(".")[0]
                if top in KEEP_MODULES:
                    self.add_import_line("import %s%s" % (a.name, " as " + a.asname if a.asname else ""))
                    return True
                target = self.resolve_module(mod.path, 0, a.name)
                if target is None or not a.asname:
                    raise ExtractError("%s: `%s` (%s) imports module %s, which the extracted file cannot"
                                       % (mod.path, alias, where, a.name))
                return self.module_alias(target, alias, attrs, where)
            modname = st.module or ""
            top = modname.split(".")[0]
            if st.level == 0 and top in KEEP_MODULES:
                self.add_import_line("from %s import %s%s" % (modname, a.name, " as " + a.asname if a.asname else ""))
                return True
            target = self.resolve_module(mod.path, st.level, modname)
            if target is None:
                raise ExtractError("%s:%d: `from %s%s import %s` is neither triton nor a file of %s"
                                   % (mod.path, st.lineno, "." * st.level, modname, a.name, self.snap.repo))
            tmod = self.module(target)
            if a.name not in tmod.bindings:
                # `from pkg import mod`: the module itself
                sub = self.resolve_module(target, 1, a.name) if target.endswith("__init__.py") else None
                if sub is None:
                    raise ExtractError("%s:%d: `%s` is not defined in %s" % (mod.path, st.lineno, a.name, target))
                return self.module_alias(sub, alias, attrs, where)
            if not self.need(tmod, a.name, a.name, where, attrs):
                raise ExtractError("%s: %s of %s binds nothing extractable" % (mod.path, a.name, target))
            if alias != a.name and (tmod.path, a.name) in self.keys:
                self.emit(key + ("alias",), "%s = %s\n" % (alias, a.name), alias, mod.path)
            return True
        if key in self.keys:
            return True
        self.keys.add(key)
        st = b
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            jit = [d for d in st.decorator_list if is_jit_decorator(d)]
            cfn = [d for d in st.decorator_list if is_constexpr_function(d)]
            uses = attribute_uses(st)
            for n in function_free_names(st):
                self.need(mod, n, where=name, attrs=uses.get(n, ()))
            for d in jit + cfn:
                for n in names_loaded(d):
                    self.need(mod, n, where=name)
            text = self.function_text(mod, st, jit, cfn)
            if jit:
                self.add_import_line("import triton")
                self.helpers.append(name)
        elif isinstance(st, ast.ClassDef):
            for n in names_loaded(st):
                self.need(mod, n, where=name)
            text = mod.source(st) + "\n"
        else:  # a module-level assignment: a constexpr, an alias
            value = st.value
            if value is None:
                raise ExtractError("%s:%d: %s is annotated but not assigned" % (mod.path, st.lineno, name))
            uses = attribute_uses(value)
            for n in names_loaded(value):
                self.need(mod, n, where=name, attrs=uses.get(n, ()))
            if isinstance(st, ast.AnnAssign):
                for n in names_loaded(st.annotation):
                    self.need(mod, n, where=name)
            text = mod.source(st) + "\n"
        self.emit(key, text, alias, mod.path)
        return True

    def need_replaced(self, mod, name, alias, b):
        """A module-level name the manifest's `replace` binds by a statement of
        its own (an import of triton, or an assignment) in place of upstream's:
        a value Python computes at import time that neither mytritonc nor the
        extraction can (`rsqrt = libdevice_find("rsqrt")`, an importlib search)."""
        key = (mod.path, name)
        if key in self.keys:
            return True
        self.keys.add(key)
        text = self.replace[name]
        try:
            body = ast.parse(text).body
        except SyntaxError as e:
            raise ExtractError("replace[%s]: %s" % (name, e))
        st = body[0] if len(body) == 1 else None
        if isinstance(st, (ast.Import, ast.ImportFrom)):
            names = [a.asname or a.name.split(".")[0] for a in st.names]
            top = (st.module if isinstance(st, ast.ImportFrom) else st.names[0].name) or ""
            if getattr(st, "level", 0) or top.split(".")[0] not in KEEP_MODULES:
                raise ExtractError("replace[%s]: `%s` imports other than %s" % (name, text, ", ".join(KEEP_MODULES)))
        elif isinstance(st, ast.Assign):
            names = [n.id for t in st.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        else:
            raise ExtractError("replace[%s]: `%s` is not one import or assignment" % (name, text))
        if names != [name]:
            raise ExtractError("replace[%s]: `%s` binds %s, not %s alone" % (name, text, ", ".join(names), name))
        upstream = b[0] if isinstance(b, tuple) else b
        note = "%s:%d: `%s` replaced (the manifest's `replace`) by `%s`" % (
            mod.path, upstream.lineno, ast.unparse(upstream).split("\n")[0][:80], text)
        if note not in self.notes:
            self.notes.append(note)
        if isinstance(st, ast.Assign):
            uses = attribute_uses(st.value)
            for n in names_loaded(st.value):
                self.need(mod, n, where=name, attrs=uses.get(n, ()))
            self.emit(key, text + "\n", name, mod.path)
        else:
            self.add_import_line(text)
        if alias != name:
            self.emit(key + ("alias",), "%s = %s\n" % (alias, name), alias, mod.path)
        return True

    def module_alias(self, target, alias, attrs, where):
        """`alias.attr` of a module of the repository: the attributes used are
        extracted into a module of their own, written beside the kernel's
        file (<prefix>__<alias>.py), which the output imports as alias."""
        if not attrs:
            raise ExtractError("module %s (%s, in %s) is used other than as alias.attr" % (target, alias, where))
        child = self.children.get(target)
        if child is None:
            child = Extraction(self.snap, self.assume, "%s__%s" % (self.prefix, alias), self.replace)
            self.children[target] = child
        tmod = child.module(target)
        for at in attrs:
            if not child.need(tmod, at, where="%s.%s" % (alias, at)):
                raise ExtractError("%s.%s: %s has no %s" % (alias, at, target, at))
        self.add_import_line("import %s as %s" % (child.prefix, alias))
        return True

    def function_text(self, mod, fn, jit, cfn):
        """The function's source with only its @triton.jit (or
        @constexpr_function) decorator, written as triton.jit."""
        lines = mod.text.splitlines(keepends=True)
        start = fn.lineno - 1  # the def line (decorators are above it)
        end = fn.end_lineno
        prefix = lines[start][:len(lines[start]) - len(lines[start].lstrip())]
        # a function defined inside a module-level if/try: its lines dedented
        body = "".join(ln[len(prefix):] if ln.startswith(prefix) else ln for ln in lines[start:end])
        decos = []
        for d in jit:
            if isinstance(d, ast.Call):
                decos.append("@triton.jit(%s)" % ", ".join(ast.unparse(x) for x in d.args + d.keywords))
            else:
                decos.append("@triton.jit")
        for d in cfn:
            decos.append("@" + ast.unparse(d))
        return "".join(x + "\n" for x in decos) + body + ("" if body.endswith("\n") else "\n")

    def emit(self, key, text, name, path):
        if name in self.defined and self.defined[name] != (path, key[1]):
            raise ExtractError("name clash: %s is defined in %s and in %s" % (name, self.defined[name][0], path))
        self.defined[name] = (path, key[1])
        self.emitted.append((key, text))


def kernel_params(fn):
    out = []
    args = fn.args.args
    defaults = [None] * (len(args) - len(fn.args.defaults)) + list(fn.args.defaults)
    for a, d in zip(args, defaults):
        ce = a.annotation is not None and "constexpr" in ast.unparse(a.annotation)
        dv = None
        if d is not None:
            try:
                dv = ast.literal_eval(d)
            except ValueError:
                dv = ast.unparse(d)
        out.append({"name": a.arg, "constexpr": ce, "default": dv, "has_default": d is not None})
    return out


def do_not_specialize(fn):
    for d in fn.decorator_list:
        if isinstance(d, ast.Call) and is_jit_decorator(d):
            for k in d.keywords:
                if k.arg == "do_not_specialize":
                    try:
                        v = ast.literal_eval(k.value)
                    except ValueError:
                        return []
                    return list(v)
    return []


def render(ex, entry, repo_info, what):
    """The text of one output file of an Extraction."""
    repo, commit = entry["repo"], entry["commit"]
    lic_name, _ = ex.snap.license_text()
    lic = repo_info.get("license", "see the repository")
    head = [
        "# Extracted by scripts/real_extract.py for mytriton's bench/real suite: not part of mytriton,",
        "# not to be committed (bench/real/src/ is ignored).",
        "#   repository: https://github.com/%s" % repo,
        "#   commit:     %s" % commit,
        "#   path:       %s" % what[0],
        "#   %s%s" % (what[1], (" (helpers: %s)" % ", ".join(ex.helpers)) if ex.helpers else ""),
        "#   license:    %s%s" % (lic, (" (its text: LICENSES/%s.%s)" % (repo.replace("/", "+"), lic_name))
                                  if lic_name else ""),
        "# The code below is the upstream code, unchanged but for decorators other than",
        "# @triton.jit (autotuning, heuristics, wrappers), which are left out, and the",
        "# module-level code the kernel does not use.",
    ]
    if any("the manifest's `replace`" in n for n in ex.notes):
        head.append("# Module-level bindings that a note below names are the manifest's `replace`.")
    for n in ex.notes:
        head.append("# note: " + n)
    imports = ["import triton", "import triton.language as tl"]
    imports += [x for x in ex.imports if x not in imports]
    body = "\n\n".join(text.rstrip("\n") + "\n" for _, text in ex.emitted)
    return "\n".join(head) + "\n" + "\n".join(imports) + "\n\n\n" + body


def files_of(ex, entry, repo_info, what):
    """[(file name, text)] of an Extraction and of the modules it imports."""
    out = [(ex.prefix + ".py", render(ex, entry, repo_info, what))]
    for path, child in ex.children.items():
        out += files_of(child, entry, repo_info, (path, "module:     the names %s's kernel reads of it" % entry["name"]))
    return out


def extract_entry(entry, repo_info, snaps, opts):
    repo, commit = entry["repo"], entry["commit"]
    key = (repo, commit)
    if key not in snaps:
        snaps[key] = Snapshot(repo, commit, opts.mirrors, opts.snapshots)
    snap = snaps[key]
    assume = dict(repo_info.get("assume", {}))
    assume.update(entry.get("assume", {}))
    replace = dict(repo_info.get("replace", {}))
    replace.update(entry.get("replace", {}))
    ex = Extraction(snap, assume, entry["name"], replace)
    mod = ex.module(entry["path"])
    fn = mod.bindings.get(entry["function"])
    if not isinstance(fn, ast.FunctionDef):
        raise ExtractError("%s has no function %s" % (entry["path"], entry["function"]))
    if not any(is_jit_decorator(d) for d in fn.decorator_list):
        raise ExtractError("%s.%s is not a @triton.jit function" % (entry["path"], entry["function"]))
    ex.need(mod, entry["function"])
    ex.helpers.remove(entry["function"])
    files = files_of(ex, entry, repo_info, (entry["path"], "function:   " + entry["function"]))
    helpers = list(ex.helpers)
    for child in ex.children.values():
        helpers += [c for c in child.helpers if c not in helpers]
    meta = {"repo": repo, "commit": commit, "path": entry["path"], "function": entry["function"],
            "params": kernel_params(fn), "do_not_specialize": do_not_specialize(fn), "helpers": helpers,
            "files": [f for f, _ in files], "upstream_files": sorted(ex.modules)}
    return files, meta, snap.license_text()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--manifest", default=MANIFEST)
    ap.add_argument("--mirrors", default=os.environ.get("MYTRITON_REAL_MIRRORS", "/work/.mirror"),
                    help="folder of bare git directories <owner>+<name>[/repo] (default /work/.mirror)")
    ap.add_argument("--snapshots", help="folder of checked-out trees <owner>+<name>/ at the manifest's commits")
    ap.add_argument("--out", default=OUT, help="output folder (default bench/real/src)")
    ap.add_argument("--only", help="a regular expression on entry names")
    ap.add_argument("--check", action="store_true", help="extract in memory, write nothing")
    opts = ap.parse_args()
    man = json.load(open(opts.manifest))
    entries = [e for e in man["kernels"] if not opts.only or re.search(opts.only, e["name"])]
    snaps, index, licenses, failed = {}, {}, {}, 0
    old_index = {}
    idx_path = os.path.join(opts.out, "index.json")
    if opts.only and os.path.exists(idx_path):
        old_index = json.load(open(idx_path)).get("entries", {})
    for e in entries:
        try:
            files, meta, lic = extract_entry(e, man["repos"].get(e["repo"], {}), snaps, opts)
        except ExtractError as ex:
            failed += 1
            print("FAIL  %-34s %s" % (e["name"], ex), flush=True)
            continue
        index[e["name"]] = meta
        if lic[0]:
            licenses[e["repo"]] = lic
        if not opts.check:
            os.makedirs(opts.out, exist_ok=True)
            for fname, text in files:
                with open(os.path.join(opts.out, fname), "w") as f:
                    f.write(text)
        print("ok    %-34s %s %s:%s (%d lines%s%s)" % (
            e["name"], e["repo"], e["path"], e["function"], sum(t.count("\n") for _, t in files),
            (", helpers " + ", ".join(meta["helpers"])) if meta["helpers"] else "",
            (", modules " + ", ".join(f for f, _ in files[1:])) if len(files) > 1 else ""), flush=True)
    if not opts.check:
        os.makedirs(os.path.join(opts.out, "LICENSES"), exist_ok=True)
        for repo, (name, text) in licenses.items():
            with open(os.path.join(opts.out, "LICENSES", "%s.%s" % (repo.replace("/", "+"), name)), "w") as f:
                f.write(text)
        old_index.update(index)
        with open(idx_path, "w") as f:
            json.dump({"manifest": os.path.relpath(opts.manifest, ROOT), "entries": old_index}, f, indent=1,
                      sort_keys=True)
    print("extracted %d of %d entries%s" % (len(entries) - failed, len(entries),
                                           "" if opts.check else " into %s" % opts.out))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
