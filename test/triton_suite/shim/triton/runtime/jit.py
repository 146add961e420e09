"""triton.runtime.jit stand-in: JITFunction keeps a kernel's source;
kernel[grid](*args) specializes the arguments as Triton 3.6 does and runs the
kernel through mytritonc's host backend (see _mytriton.py)."""
import inspect
import os
import re
import textwrap

import numpy as np
import torch

import triton.language as tl
from . import _mytriton as mt

type_canonicalisation_dict = {
    "bool": "i1", "float8e4nv": "fp8e4nv", "float8_e4m3fn": "fp8e4nv", "float8e5": "fp8e5",
    "float8_e5m2": "fp8e5", "float8e4b15": "fp8e4b15", "float8_e4m3fnuz": "fp8e4b8", "float8e4b8": "fp8e4b8",
    "float8_e5m2fnuz": "fp8e5b16", "float8e5b16": "fp8e5b16", "float16": "fp16", "bfloat16": "bf16",
    "float32": "fp32", "float64": "fp64", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64", "void": "void",
}
for _v in list(type_canonicalisation_dict.values()):
    type_canonicalisation_dict[_v] = _v


class TensorWrapper:
    """A tensor's memory seen as another dtype (triton.reinterpret)."""

    def __init__(self, base, dtype):
        self.dtype = dtype
        self.base = base
        self.data = base.data
        self.device = base.device
        self.shape = self.base.shape

    def data_ptr(self):
        return self.base.data_ptr()

    def stride(self, *args):
        return self.base.stride(*args)

    def __str__(self):
        return "TensorWrapper[%s](%s)" % (self.dtype, self.base)

    def element_size(self):
        return self.base.element_size()

    def cpu(self):
        return TensorWrapper(self.base.cpu(), self.dtype)

    def copy_(self, other):
        self.base.copy_(other.base)

    def clone(self):
        return TensorWrapper(self.base.clone(), self.dtype)

    def to(self, device):
        return TensorWrapper(self.base.to(device), self.dtype)

    def new_empty(self, sizes):
        return TensorWrapper(self.base.new_empty(sizes), self.dtype)

    def numel(self):
        return self.base.numel()

    def size(self, *a):
        return self.base.size(*a)


def reinterpret(tensor, dtype):
    if isinstance(tensor, TensorWrapper):
        if dtype == tensor.base.dtype:
            return tensor.base
        return TensorWrapper(tensor.base, dtype)
    if isinstance(tensor, torch.Tensor):
        return TensorWrapper(tensor, dtype)
    raise TypeError("Cannot reinterpret a %s." % type(tensor))


class MockTensor:

    def __init__(self, dtype, shape=None):
        self.dtype = dtype
        self.shape = shape or [1]

    @staticmethod
    def data_ptr():
        return 0


class KernelParam:

    def __init__(self, num, param, dns, dns_oa):
        self.num = num
        self.name = param.name
        self.param = param
        ann = param.annotation
        self.annotation = "" if ann is inspect.Parameter.empty else (ann if isinstance(ann, str) else
                                                                      getattr(ann, "__name__", repr(ann)))
        self.ann_obj = ann
        self.is_constexpr = ann is tl.constexpr or "constexpr" in str(self.annotation)
        self.do_not_specialize = dns
        self.do_not_specialize_on_alignment = dns_oa
        self.has_default = param.default is not inspect.Parameter.empty
        self.default = param.default
        self.is_var = param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD)

    @property
    def annotation_dtype(self):
        a = self.ann_obj
        if isinstance(a, tl.dtype) and not isinstance(a, tl.pointer_type):
            return a
        if isinstance(a, str):
            m = re.fullmatch(r"(?:tl|triton\.language)\.(\w+)", a.strip())
            if m and isinstance(getattr(tl, m.group(1), None), tl.dtype):
                return getattr(tl, m.group(1))
        return None


class CompiledKernel:
    """What a launch returns: Triton's compiled kernel; its IR is Triton's own."""

    def __init__(self, so, name, source_path, signature, repr_hook=None):
        self.so, self._name, self.source_path, self.signature = so, name, source_path, signature
        self.repr_hook = repr_hook

    @property
    def name(self):
        if self.repr_hook is not None:
            mt.not_applicable("ir", "names the compiled kernel through Triton's repr= hook (its specialization)")
        return self._name

    class _Asm:

        def __getitem__(self, k):
            mt.not_applicable("ir", "inspects Triton's compiled form (asm[%r])" % (k, ))

        def __contains__(self, k):
            mt.not_applicable("ir", "inspects Triton's compiled form (asm)")

        def keys(self):
            mt.not_applicable("ir", "inspects Triton's compiled form (asm)")

        get = __getitem__

    asm = _Asm()

    def __getattr__(self, name):
        if name in ("metadata", "n_regs", "n_spills", "n_max_threads", "packed_metadata", "kernel", "module",
                    "function", "src", "hash", "run", "launch_metadata", "shared"):
            mt.not_applicable("ir", "inspects Triton's compiled kernel (.%s)" % name)
        raise AttributeError(name)


class JITFunction:

    def __init__(self, fn, version=None, do_not_specialize=None, do_not_specialize_on_alignment=None, debug=None,
                 noinline=None, repr=None, launch_metadata=None):
        self.fn = fn
        self.module = fn.__module__
        self.version = version
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__doc__ = fn.__doc__
        self.__globals__ = fn.__globals__
        self.__module__ = fn.__module__
        self.debug = debug
        self.noinline = noinline
        self.repr = repr
        self.signature = inspect.signature(fn)
        self.arg_names = [p.name for p in self.signature.parameters.values()]
        dns = do_not_specialize or []
        dns_oa = do_not_specialize_on_alignment or []
        self.params = []
        for i, p in enumerate(self.signature.parameters.values()):
            self.params.append(KernelParam(i, p, i in dns or p.name in dns, i in dns_oa or p.name in dns_oa))
        self.constexprs = [p.num for p in self.params if p.is_constexpr]
        src = textwrap.dedent(inspect.getsource(fn))
        m = re.search(r"^def\s+\w+\s*\(", src, re.MULTILINE)
        self.src = src[m.start():] if m else src
        self.starting_line_number = inspect.getsourcelines(fn)[1]
        self.cache = {}

    def _unsafe_update_src(self, new_src):
        self.src = new_src

    @property
    def cache_key(self):
        return self.src

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, warmup=False, **kwargs)

    def warmup(self, *args, grid, **kwargs):
        return self.run(*args, grid=grid, warmup=True, **kwargs)

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Cannot call @triton.jit'd outside of the scope of a kernel")

    def __repr__(self):
        return "JITFunction(%s:%s)" % (self.module, self.fn.__qualname__)

    # ---- one launch ------------------------------------------------------------------------

    def run(self, *args, grid, warmup=False, **kwargs):
        options = {k: kwargs.pop(k) for k in list(kwargs) if k in mt.OPTION_NAMES}
        kwargs.pop("warmup", None)
        names = {p.name for p in self.params}
        for k in list(kwargs):
            if k not in names:
                options[k] = kwargs.pop(k)  # an option Triton knows and mytriton need not
        if options.get("num_ctas", 1) not in (1, None):
            mt.not_applicable("gpu", "num_ctas=%s (thread-block clusters)" % options["num_ctas"])
        if self.debug or os.environ.get("TRITON_DEBUG", "0") == "1":
            options.setdefault("debug", True)
        bound = {}
        if len(args) > len(self.params):
            raise TypeError("%s() takes %d arguments, %d given" % (self.__name__, len(self.params), len(args)))
        for p, a in zip(self.params, args):
            bound[p.name] = a
        for k, v in kwargs.items():
            if k in bound:
                raise TypeError("%s() got multiple values for argument %r" % (self.__name__, k))
            bound[k] = v
        for p in self.params:
            if p.name not in bound and not p.has_default:
                raise TypeError("%s() missing argument %r" % (self.__name__, p.name))
        meta = {p.name: (bound[p.name] if p.name in bound else p.default) for p in self.params}
        meta.update(options)
        if callable(grid):
            grid = grid(meta)
        grid = tuple(int(g) for g in (grid if isinstance(grid, (tuple, list)) else (grid, )))
        if not 1 <= len(grid) <= 3:
            raise mt.HarnessLimitation("a grid of %d dimensions" % len(grid))
        grid = grid + (1, ) * (3 - len(grid))

        sig, defines, launch_sig, values, edits, fn_bindings = [], [], [], [], {}, {}
        for p in self.params:
            if p.is_var:
                raise mt.HarnessLimitation("*args/**kwargs parameters")
            given = p.name in bound
            v = bound[p.name] if given else p.default
            if p.is_constexpr:
                if given:
                    self._constexpr(p, v, defines, edits, fn_bindings, annotate=False)
                continue
            kind = self._specialize(p, v)
            if kind[0] == "constexpr":
                self._constexpr(p, v, defines, edits, fn_bindings, annotate=True)
                continue
            _, is_ptr, dt, hint, value = kind
            sig.append(("*" if is_ptr else "") + dt + (":%d" % hint if hint else ""))
            launch_sig.append((is_ptr, dt))
            values.append(value)
        src = mt.edit_params(self.src, edits)
        source = mt.Source(self, src, fn_bindings).text()
        so, name = mt.build(self.__name__, source, ", ".join(sig), defines, options)
        ck = CompiledKernel(so, name, os.path.join(os.path.dirname(so), "kernel.py"), sig, self.repr)
        if warmup:
            return ck
        if 0 in grid:
            return ck
        mt.launch(so, name, launch_sig, values, grid)
        return ck

    def _constexpr(self, p, v, defines, edits, fn_bindings, annotate):
        from .autotuner import Autotuner, Heuristics
        if isinstance(v, (JITFunction, Autotuner, Heuristics, tl._ConstexprFunction)):
            # -D takes no function: the parameter is renamed, and its name bound at module level
            edits[p.name] = "_mt_fn_%s: tl.constexpr" % p.name
            defines.append(("_mt_fn_%s" % p.name, "None"))
            fn_bindings[p.name] = v
            return
        lit = mt._py_literal(v)
        if lit is None:
            raise mt.HarnessLimitation("constexpr %s=%r: mytritonc's -D takes no such value" % (p.name, v))
        if isinstance(v, str) and ("'" in v or "\\" in v):
            raise mt.HarnessLimitation("constexpr string %r with a quote" % v)
        if annotate:
            edits[p.name] = "%s: tl.constexpr" % p.name
        defines.append((p.name, lit))

    def _specialize(self, p, v):
        """("constexpr",) or ("rt", is_ptr, dtype, hint, value)."""
        spec = not p.do_not_specialize
        ann = p.annotation_dtype
        if isinstance(v, tl.constexpr):
            return ("constexpr", )
        if isinstance(v, (TensorWrapper, torch.Tensor)):
            base = v.base if isinstance(v, TensorWrapper) else v
            if base.device.type != "cpu":
                raise mt.HarnessLimitation("a tensor on %s (the host backend takes CPU tensors)" % base.device)
            if isinstance(v, TensorWrapper):
                name = v.dtype.name if isinstance(v.dtype, tl.dtype) else str(v.dtype)
                if name in mt.TL_NA:
                    mt.not_applicable("dtype", mt.TL_NA[name])
                dt = mt.TL_SIG.get(name)
            else:
                tname = str(v.dtype).replace("torch.", "")
                dt = mt.TORCH_SIG.get(tname)
            if dt is None:
                raise mt.HarnessLimitation("no signature type for a tensor of %s" % v.dtype)
            ptr = v.data_ptr()
            hint = 16 if (spec and not p.do_not_specialize_on_alignment and ptr % 16 == 0) else None
            return ("rt", True, dt, hint, ptr)
        if v is None or isinstance(v, (str, tl.dtype, JITFunction, tl._ConstexprFunction)) or callable(v):
            return ("constexpr", )
        if isinstance(v, (bool, np.bool_)):
            return ("rt", False, "i1", None, bool(v))
        if isinstance(v, (int, np.integer)):
            v = int(v)
            if not -2**63 <= v < 2**64:
                raise OverflowError("integer %d is out of range for a kernel argument (Triton's specialization)" % v)
            if ann is not None and ann.is_int():
                dt = mt.TL_SIG[ann.name]
            elif -2**31 <= v < 2**31:
                dt = "i32"
            elif 2**63 <= v < 2**64:
                dt = "u64"
            else:
                dt = "i64"
            hint = None
            if spec and ann is None:
                if v == 1:
                    hint = 1
                elif v % 16 == 0:
                    hint = 16
            return ("rt", False, dt, hint, v)
        if isinstance(v, (float, np.floating)):
            dt = "fp32"
            if ann is not None and ann.is_floating():
                dt = mt.TL_SIG.get(ann.name, "fp32")
                if dt not in mt.SCALAR_CTYPES:
                    raise mt.HarnessLimitation("a %s scalar argument (ctypes has no such type)" % dt)
            return ("rt", False, dt, None, float(v))
        if isinstance(v, tuple):
            raise mt.HarnessLimitation("a tuple argument (Triton 3.6 passes tuples; the harness does not)")
        if hasattr(v, "data_ptr"):
            raise mt.HarnessLimitation("an argument of type %s" % type(v).__name__)
        raise mt.HarnessLimitation("an argument of type %s" % type(v).__name__)


def jit(fn=None, *, version=None, repr=None, launch_metadata=None, do_not_specialize=None,
        do_not_specialize_on_alignment=None, debug=None, noinline=None):

    def decorator(fn):
        return JITFunction(fn, version=version, do_not_specialize=do_not_specialize,
                           do_not_specialize_on_alignment=do_not_specialize_on_alignment, debug=debug,
                           noinline=noinline, repr=repr, launch_metadata=launch_metadata)

    if fn is not None:
        return decorator(fn)
    return decorator
