"""Stand-in for triton.language (mytriton's Triton suite, test/triton_suite).

Kernels are never run through Python: their source text goes to mytritonc.
What Python code of the tests needs is real here: the dtypes (names, widths,
predicates), tl.constexpr, tl.PropagateNan, tl.pointer_type, and
tl.constexpr_function (kept so that its source reaches mytritonc). Every
other tl.X exists as a placeholder (module __getattr__), so that the test
files import and kernels' annotations evaluate; calling one from Python is
an error, as calling a @triton.jit function from Python is in Triton.
"""
import enum
import math as _pymath


class dtype:
    SINT_TYPES = ['int8', 'int16', 'int32', 'int64']
    UINT_TYPES = ['int1', 'uint8', 'uint16', 'uint32', 'uint64']
    FP_TYPES = ['fp8e4b15', 'fp8e4nv', 'fp8e4b8', 'fp8e5', 'fp8e5b16', 'fp16', 'bf16', 'fp32', 'fp64']
    STANDARD_FP_TYPES = ['fp16', 'bf16', 'fp32', 'fp64']
    OTHER_TYPES = ['void']
    # name -> (bits, mantissa bits, exponent bias)
    _FP = {'fp8e4b15': (8, 3, 15), 'fp8e4nv': (8, 3, 7), 'fp8e4b8': (8, 3, 8), 'fp8e5': (8, 2, 15),
           'fp8e5b16': (8, 2, 16), 'fp16': (16, 10, 15), 'bf16': (16, 7, 127), 'fp32': (32, 23, 127),
           'fp64': (64, 52, 1023)}

    def __init__(self, name):
        name = getattr(name, "value", name)
        if isinstance(name, dtype):
            name = name.name
        if name not in self.SINT_TYPES + self.UINT_TYPES + self.FP_TYPES + self.OTHER_TYPES:
            raise ValueError("unknown dtype %r" % (name, ))
        self.name = name
        if name in self.SINT_TYPES or name in self.UINT_TYPES:
            self.int_bitwidth = 1 if name == 'int1' else int(name.lstrip('uint'))
            self.primitive_bitwidth = self.int_bitwidth
            self.int_signedness = 'signed' if name in self.SINT_TYPES else 'unsigned'
        elif name in self._FP:
            self.primitive_bitwidth, self.fp_mantissa_width, self.exponent_bias = self._FP[name]
        else:
            self.primitive_bitwidth = 0

    def is_fp8(self):
        return self.name.startswith('fp8')

    def is_fp8e4nv(self):
        return self.name == 'fp8e4nv'

    def is_fp8e5(self):
        return self.name == 'fp8e5'

    def is_fp8e4b15(self):
        return self.name == 'fp8e4b15'

    def is_fp16(self):
        return self.name == 'fp16'

    def is_bf16(self):
        return self.name == 'bf16'

    def is_fp32(self):
        return self.name == 'fp32'

    def is_fp64(self):
        return self.name == 'fp64'

    def is_floating(self):
        return self.name in self.FP_TYPES

    def is_standard_floating(self):
        return self.name in self.STANDARD_FP_TYPES

    def is_int_signed(self):
        return self.name in self.SINT_TYPES

    def is_int_unsigned(self):
        return self.name in self.UINT_TYPES

    def is_int(self):
        return self.name in self.SINT_TYPES + self.UINT_TYPES

    def is_integer(self):
        return self.is_int()

    def is_bool(self):
        return self.name == 'int1'

    def is_int1(self):
        return self.name == 'int1'

    def is_void(self):
        return self.name == 'void'

    def is_ptr(self):
        return False

    def is_block(self):
        return False

    @property
    def scalar(self):
        return self

    def get_int_max_value(self):
        if self.is_int_signed():
            return 2**(self.int_bitwidth - 1) - 1
        return 2**self.int_bitwidth - 1

    def get_int_min_value(self):
        return -2**(self.int_bitwidth - 1) if self.is_int_signed() else 0

    def to_ir(self, builder):
        raise RuntimeError("triton.language stand-in: no IR here (mytriton compiles the kernel's source)")

    def __eq__(self, other):
        other = getattr(other, "value", other)
        return isinstance(other, dtype) and type(other) is type(self) and self.name == other.name

    def __hash__(self):
        return hash(self.name)

    @property
    def attr_name(self):
        """The tl attribute naming this dtype (tl.float16 for 'fp16')."""
        return _ATTR_OF.get(self.name, self.name)

    def __str__(self):
        return self.name

    def __repr__(self):
        return "triton.language.%s" % self.attr_name

    @property
    def cache_key_part(self):
        return self.name


class pointer_type(dtype):

    def __init__(self, element_ty, address_space=1, const=False):
        self.element_ty = element_ty
        self.address_space = address_space
        self.const = const
        self.name = "pointer<%s>" % element_ty
        self.primitive_bitwidth = 64

    def is_ptr(self):
        return True

    def __eq__(self, other):
        return isinstance(other, pointer_type) and self.element_ty == other.element_ty

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return "tl.pointer_type(%r)" % (self.element_ty, )


class block_type(dtype):

    def __init__(self, element_ty, shape):
        self.element_ty = element_ty
        self.shape = tuple(shape)
        self.name = "<%s, %s>" % (list(shape), element_ty)

    def is_block(self):
        return True


_ATTR_OF = {'int1': 'int1', 'fp8e4b15': 'float8e4b15', 'fp8e4nv': 'float8e4nv', 'fp8e4b8': 'float8e4b8',
            'fp8e5': 'float8e5', 'fp8e5b16': 'float8e5b16', 'fp16': 'float16', 'bf16': 'bfloat16',
            'fp32': 'float32', 'fp64': 'float64'}

void = dtype('void')
int1 = dtype('int1')
int8 = dtype('int8')
int16 = dtype('int16')
int32 = dtype('int32')
int64 = dtype('int64')
uint8 = dtype('uint8')
uint16 = dtype('uint16')
uint32 = dtype('uint32')
uint64 = dtype('uint64')
float8e5 = dtype('fp8e5')
float8e5b16 = dtype('fp8e5b16')
float8e4nv = dtype('fp8e4nv')
float8e4b8 = dtype('fp8e4b8')
float8e4b15 = dtype('fp8e4b15')
float16 = dtype('fp16')
bfloat16 = dtype('bf16')
float32 = dtype('fp32')
float64 = dtype('fp64')
pi32_t = pointer_type(int32)

_STR_TO_TY = {'i1': int1, 'i8': int8, 'i16': int16, 'i32': int32, 'i64': int64, 'u1': int1, 'u8': uint8,
              'u16': uint16, 'u32': uint32, 'u64': uint64, 'fp8e5': float8e5, 'fp8e5b16': float8e5b16,
              'fp8e4nv': float8e4nv, 'fp8e4b8': float8e4b8, 'fp8e4b15': float8e4b15, 'fp16': float16,
              'bf16': bfloat16, 'fp32': float32, 'fp64': float64}


def str_to_ty(name, c=None):
    if name.startswith('*'):
        return pointer_type(str_to_ty(name[1:]))
    return _STR_TO_TY[name]


class constexpr:
    """Triton's compile-time value wrapper, for the Python side of the tests."""

    def __init__(self, value):
        while isinstance(value, constexpr):
            value = value.value
        self.value = value
        self.type = self

    def __repr__(self):
        return "constexpr[%r]" % (self.value, )

    def __hash__(self):
        return hash(self.value)

    def __bool__(self):
        return bool(self.value)

    def __index__(self):
        return self.value

    def __int__(self):
        return int(self.value)

    def __float__(self):
        return float(self.value)

    def __call__(self, *args, **kwargs):
        return self.value(*args, **kwargs)

    def __getattr__(self, name):
        if name == "value":
            raise AttributeError(name)
        return getattr(self.value, name)


def _binop(op):
    def f(self, other):
        return constexpr(op(self.value, _unwrap(other)))

    def r(self, other):
        return constexpr(op(_unwrap(other), self.value))

    return f, r


def _unwrap(v):
    return v.value if isinstance(v, constexpr) else v


import operator as _op  # noqa: E402

for _name, _fn in [("add", _op.add), ("sub", _op.sub), ("mul", _op.mul), ("truediv", _op.truediv),
                   ("floordiv", _op.floordiv), ("mod", _op.mod), ("pow", _op.pow), ("and", _op.and_),
                   ("or", _op.or_), ("xor", _op.xor), ("lshift", _op.lshift), ("rshift", _op.rshift)]:
    _f, _r = _binop(_fn)
    setattr(constexpr, "__%s__" % _name, _f)
    setattr(constexpr, "__r%s__" % _name, _r)
for _name, _fn in [("eq", _op.eq), ("ne", _op.ne), ("lt", _op.lt), ("le", _op.le), ("gt", _op.gt),
                   ("ge", _op.ge)]:
    setattr(constexpr, "__%s__" % _name, (lambda fn: lambda self, other: constexpr(fn(self.value, _unwrap(other))))(_fn))
constexpr.__neg__ = lambda self: constexpr(-self.value)
constexpr.__pos__ = lambda self: constexpr(+self.value)
constexpr.__invert__ = lambda self: constexpr(~self.value)
constexpr.__abs__ = lambda self: constexpr(abs(self.value))
constexpr.__hash__ = lambda self: hash(self.value)


class const:
    """tl.const, an annotation (a pointer the kernel does not write)."""


class tensor:
    """tl.tensor: a class for isinstance checks in kernels; never instantiated here."""

    def __init__(self, *a, **k):
        raise RuntimeError("tl.tensor cannot be built from Python")


class tensor_descriptor:
    pass


class tensor_descriptor_base:
    pass


class PropagateNan(enum.Enum):
    NONE = 0
    ALL = 0xFFFF


class _Placeholder:
    """A tl.X that Python code never needs: it exists, and calling it fails."""

    def __init__(self, qual):
        self._qual = qual

    def __call__(self, *a, **k):
        raise RuntimeError("%s called from Python: kernels are compiled by mytritonc, not run here" % self._qual)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Placeholder(self._qual + "." + name)

    def __repr__(self):
        return "<%s (mytriton suite stand-in)>" % self._qual


class _ConstexprFunction:
    """@tl.constexpr_function: Python run at compile time. Kept with its
    source so that a kernel using it gets it in the file mytritonc reads."""

    def __init__(self, fn):
        self.fn = fn
        self.__name__ = fn.__name__
        self.__wrapped__ = fn

    def __call__(self, *args, **kwargs):
        return self.fn(*[_unwrap(a) for a in args], **{k: _unwrap(v) for k, v in kwargs.items()})


def constexpr_function(fn):
    return _ConstexprFunction(fn)


def cdiv(a, b):
    return (_unwrap(a) + _unwrap(b) - 1) // _unwrap(b)


def _placeholders(prefix):
    """A module's __getattr__: each name it lacks is the placeholder prefix + name."""

    def module_getattr(name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Placeholder(prefix + name)

    return module_getattr


def _constexpr_type(v):
    """core.constexpr_type (the submodules' constexpr_type)."""
    return type(v)


__getattr__ = _placeholders("tl.")


from . import core, math, standard, random, extra  # noqa: E402,F401

TRITON_MAX_TENSOR_NUMEL = 1048576
