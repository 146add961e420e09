"""pytest plugin of mytriton's Triton suite: Triton's own language tests
(test_core.py, ... of the release, extracted by scripts/triton_suite_fetch.py)
run with the stand-in `triton` package of shim/ ahead of Triton on sys.path:
every kernel is compiled by mytritonc for the host backend and run on the
CPU (shim/triton/runtime/_mytriton.py). scripts/triton_suite.py runs it.

Each test ends as one of
  passed          the kernels compiled, ran and gave Triton's expected results
  failed          a mytritonc rejection (its diagnostic), a C compiler error, a
                  launch error, a wrong result, or anything else that raised
  not applicable  the test inspects Triton's IR or compiled form, checks
                  Triton's exact error text, needs a GPU-only feature or a dtype
                  torch 1.13 lacks, or skips itself upstream (its reason kept)
A skip is never silent: every not-applicable case has its category and reason
in the results file (--mt-results) and the runner's table.

Options: --device (default cpu), --mt-per-function K (the first K cases of
each test function in collection order; 0 = all), --mt-results FILE (JSON
lines, one per case; with xdist one file per worker: FILE.<worker>).
"""
import json
import os
import re
import sys
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SHIM = os.path.join(HERE, "shim")
if SHIM not in sys.path:
    sys.path.insert(0, SHIM)

# torch 1.13 (Debian's) lacks these dtypes; names that test files mention at import time
MISSING_TORCH_DTYPES = ["uint16", "uint32", "uint64", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz",
                        "float8_e5m2fnuz", "float8_e8m0fnu", "float4_e2m1fn_x2"]


class MissingTorchDtype:

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "MissingTorchDtype(torch.%s)" % self.name

    __str__ = __repr__

    @property
    def itemsize(self):
        raise TypeError("MissingTorchDtype(torch.%s)" % self.name)

    def __hash__(self):
        return hash(self.name)

    def __eq__(self, other):
        return isinstance(other, MissingTorchDtype) and other.name == self.name


def _shim_torch():
    import torch
    for n in MISSING_TORCH_DTYPES:
        if not hasattr(torch, n):
            setattr(torch, n, MissingTorchDtype(n))

    def no_gpu(what):
        def f(*a, **k):
            from triton.runtime._mytriton import not_applicable
            not_applicable("gpu", "asks torch.cuda for %s" % what)
        return f

    torch.cuda.get_device_capability = no_gpu("the compute capability")
    torch.cuda.get_device_name = no_gpu("the device name")
    torch.cuda.get_device_properties = no_gpu("the device properties")
    torch.cuda.device = no_gpu("a device context")
    torch.cuda.synchronize = lambda *a, **k: None


def pytest_addoption(parser):
    parser.addoption("--device", action="store", default="cpu")
    parser.addoption("--mt-per-function", type=int, default=0,
                     help="run the first K cases of each test function (0: all)")
    parser.addoption("--mt-results", default=None, help="JSON-lines results file")


def pytest_configure(config):
    config.addinivalue_line("markers", "interpreter: indicate whether interpreter supports the test")
    _shim_torch()
    config._mt_results = []
    config._mt_t0 = time.time()


# ---- Triton's conftest fixtures, for the host ----------------------------------------------


@pytest.fixture
def device(request):
    return request.config.getoption("--device")


@pytest.fixture
def fresh_triton_cache(tmp_path):
    yield str(tmp_path)


@pytest.fixture
def fresh_knobs():
    from triton.runtime._mytriton import not_applicable
    not_applicable("knobs", "sets Triton's knobs (triton.knobs), which mytritonc does not read")


@pytest.fixture
def fresh_knobs_except_libraries():
    from triton.runtime._mytriton import not_applicable
    not_applicable("knobs", "sets Triton's knobs (triton.knobs), which mytritonc does not read")


@pytest.fixture
def with_allocator():
    yield


# ---- the subset -----------------------------------------------------------------------------


def function_of(nodeid):
    """'test_core.py::test_bin_op[int8-+]' -> 'test_core.py::test_bin_op'."""
    return nodeid.split("[", 1)[0]


def pytest_collection_modifyitems(session, config, items):
    k = config.getoption("--mt-per-function")
    if not k:
        return
    seen, keep, drop = {}, [], []
    for it in items:
        f = function_of(it.nodeid)
        seen[f] = seen.get(f, 0) + 1
        (keep if seen[f] <= k else drop).append(it)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


# ---- pytest.raises for Triton's errors --------------------------------------------------------

_real_raises = pytest.raises
_state = {"rejection_in_raises": None}


def _triton_error_types():
    import triton
    from triton.runtime.errors import InterpreterError
    return (triton.TritonError, triton.CompilationError, InterpreterError)


class _Raises:
    """pytest.raises(E, match=...) around a launch. A mytritonc rejection is
    the compile-time error Triton raises, but its type and text are
    mytritonc's: where E is a Triton error and `match` (if any) finds
    Triton's words in mytritonc's text, the case goes on; otherwise it is not
    applicable (error text), the kernel having been rejected as in Triton.
    Where E is a Triton error and mytritonc accepts the kernel, the case
    fails: mytritonc compiled what Triton rejects."""

    def __init__(self, expected, match, triton_error):
        self.expected, self.match, self.triton_error = expected, match, triton_error

    def __enter__(self):
        self.cm = _real_raises(BaseException)
        self.info = self.cm.__enter__()
        return self.info

    def __exit__(self, et, ev, tb):
        from triton.runtime._mytriton import MytritoncRejection, not_applicable
        if et is None:
            if self.triton_error:
                pytest.fail("mytritonc accepted (and the host ran) a kernel that Triton rejects with %s%s" %
                            (_names(self.expected), " matching %r" % self.match if self.match else ""),
                            pytrace=False)
            pytest.fail("DID NOT RAISE %s" % _names(self.expected), pytrace=False)
        self.cm.__exit__(et, ev, tb)
        if isinstance(ev, MytritoncRejection):
            _state["rejection_in_raises"] = ev
            if not self.triton_error:
                not_applicable("error-text", "expects Triton's %s%s; mytritonc rejected the kernel: %s" %
                               (_names(self.expected), " matching %r" % self.match if self.match else "",
                                ev.first_error))
            if self.match and not re.search(self.match, str(ev)):
                not_applicable("error-text", "checks Triton's error text %r; mytritonc's: %s" %
                               (self.match, ev.first_error))
            return True
        if isinstance(ev, self.expected):
            if self.match and not re.search(self.match, str(ev)):
                return False
            return True
        return False


def _names(e):
    return "/".join(x.__name__ for x in (e if isinstance(e, tuple) else (e, )))


def _patched_raises(expected, *args, match=None, **kwargs):
    if args or kwargs:
        return _real_raises(expected, *args, match=match, **kwargs)
    exp = expected if isinstance(expected, tuple) else (expected, )
    tri = _triton_error_types()
    return _Raises(expected, match, any(isinstance(e, type) and issubclass(e, tri) for e in exp))


# cases whose premise is a GPU: what the host backend does differently by design
NOT_APPLICABLE = {
    "test_core.py::test_pointer_arguments[cpu]": ("gpu", "expects Triton to refuse a CPU tensor; the host backend "
                                                  "runs on CPU tensors"),
}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    if item.nodeid in NOT_APPLICABLE:
        from triton.runtime._mytriton import not_applicable
        not_applicable(*NOT_APPLICABLE[item.nodeid])
    _state["rejection_in_raises"] = None
    pytest.raises = _patched_raises
    try:
        yield
    finally:
        pytest.raises = _real_raises


# ---- outcomes -------------------------------------------------------------------------------


def classify_exception(excinfo, nodeid=""):
    """(outcome, category, reason) of a test that raised."""
    from triton.runtime import _mytriton as mt
    e = excinfo.value
    text = "%s: %s" % (type(e).__name__, e)
    chain = text
    c = e
    while c is not None and (c.__cause__ or c.__context__):
        c = c.__cause__ or c.__context__
        chain += " | %s: %s" % (type(c).__name__, c)
    if "MissingTorchDtype" in chain:
        m = re.search(r"MissingTorchDtype\(torch\.(\w+)\)", chain)
        name = m.group(1) if m else next((n for n in MISSING_TORCH_DTYPES if n in nodeid), "(a dtype)")
        return "na", "torch-1.13", "torch 1.13 has no torch.%s" % name
    m = re.search(r"module 'torch' has no attribute '(\w+)'", chain)
    if m:
        return "na", "torch-1.13", "torch 1.13 has no torch.%s" % m.group(1)
    if "not compiled with CUDA" in chain or "no NVIDIA driver" in chain or "CUDA driver" in chain or \
            "requires CUDA" in chain:
        return "na", "gpu", "needs a CUDA device (torch: %s)" % str(e).splitlines()[0][:100]
    m = re.search(r'"(\w+)" not implemented for \'(Half|BFloat16)\'', chain)
    if m and not isinstance(e, mt.MytritoncRejection):
        return "na", "torch-1.13", "torch 1.13 has no %s CPU kernel %s (the test's reference)" % (m.group(2), m.group(1))
    if isinstance(e, mt.MytritoncRejection):
        return "failed", "mytritonc", "mytritonc: " + normalize(e.first_error)
    if _state["rejection_in_raises"] is not None and isinstance(e, AssertionError):
        return "na", "error-text", "checks Triton's error text after the rejection; mytritonc's: %s" % (
            _state["rejection_in_raises"].first_error[:150])
    if isinstance(e, mt.HostBuildError):
        return "failed", "cc", normalize(str(e))
    if isinstance(e, mt.HostLaunchError):
        return "failed", "launch", normalize(str(e))
    if isinstance(e, mt.HarnessLimitation):
        return "failed", "harness", "harness: " + normalize(str(e))
    if isinstance(e, AssertionError):
        msg = str(e).strip().splitlines()
        head = next((ln for ln in msg if ln.strip()), "")
        if "Not equal to tolerance" in str(e) or "Arrays are not equal" in str(e) or "Mismatch" in str(e) or \
                "not close" in str(e):
            return "failed", "wrong-result", "wrong result: " + normalize(head)
        head = re.sub(r"\[[^\]]{40,}\]", "[...]", head)  # the values differ case by case
        return "failed", "assert", "assertion: " + normalize(head)
    if type(e).__name__ == "Failed":
        return "failed", "assert", normalize(str(e).splitlines()[0] if str(e) else "pytest.fail")
    return "failed", "python", "%s: %s" % (type(e).__name__, normalize(str(e).splitlines()[0] if str(e) else ""))


def normalize(s):
    """A reason without the parts that differ between cases (paths, numbers of lines)."""
    s = re.sub(r"/\S+/k_[0-9a-f]+\S*|/\S+/kernel\.py(:\d+)*", "<kernel>", s)
    s = re.sub(r"\b0x[0-9a-f]+\b", "0x..", s)
    return s.strip()[:300]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if call.when == "call" or (call.when == "setup" and rep.outcome != "passed"):
        res = {"id": item.nodeid, "function": function_of(item.nodeid), "when": call.when,
               "duration": round(call.duration, 3)}
        if rep.outcome == "passed":
            if hasattr(rep, "wasxfail"):
                res.update(outcome="na", category="upstream-xfail", reason=str(rep.wasxfail)[:300])
            else:
                res.update(outcome="passed")
        elif rep.outcome == "skipped":
            reason = ""
            if isinstance(rep.longrepr, tuple):
                reason = rep.longrepr[2]
            elif hasattr(rep, "wasxfail"):
                reason = "xfail: " + str(rep.wasxfail)
            reason = reason.replace("Skipped: ", "")
            m = re.match(r"not applicable \(([\w.-]+)\): (.*)", reason, re.S)
            if m:
                res.update(outcome="na", category=m.group(1), reason=m.group(2)[:300])
            else:
                if reason.strip() in ("", "Skipped"):
                    reason = "pytest.skip() without a reason (upstream; the test's guard, e.g. device != 'cuda')"
                res.update(outcome="na", category="upstream-skip", reason=reason[:300])
        else:
            o, cat, reason = classify_exception(call.excinfo, item.nodeid)
            if o == "na":
                rep.outcome = "skipped"
                rep.longrepr = (str(item.path), item.location[1] or 0, "not applicable (%s): %s" % (cat, reason))
            res.update(outcome=o, category=cat, reason=reason)
            if o == "failed" and call.excinfo is not None:
                src = getattr(call.excinfo.value, "path", None)
                if src:
                    res["kernel"] = src
        item.config._mt_results.append(res)


def pytest_sessionfinish(session, exitstatus):
    cfg = session.config
    path = cfg.getoption("--mt-results")
    if not path:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        path = "%s.%s" % (path, worker)
    elif hasattr(cfg, "workerinput"):
        path = "%s.%s" % (path, cfg.workerinput.get("workerid", "w"))
    if hasattr(cfg, "workerinput") or not os.environ.get("PYTEST_XDIST_WORKER"):
        from triton.runtime import _mytriton as mt
        with open(path, "w") as f:
            for r in cfg._mt_results:
                f.write(json.dumps(r) + "\n")
            f.write(json.dumps({"stats": mt.STATS, "wall": time.time() - cfg._mt_t0}) + "\n")
