"""dtypes under PyTorch's names, and PyTorch's type promotion.

Inside tapegrad a dtype is NumPy's (``dtypes.float64`` below, ``a.dtype`` of any array: the
hot paths compare them with ``is``).  What a user is given (``tapegrad.float32``,
``Tensor.dtype``, ``get_default_dtype()``...) is the matching ``dtype`` object (``of``),
which prints as PyTorch's and is equal to, hashes as and converts to the NumPy dtype.
"""
import builtins

import functools

import numpy as np


class dtype:  # noqa: N801 (PyTorch's name)
    """A PyTorch-style dtype: prints as ``torch.float32`` and answers PyTorch's questions
    (``is_floating_point``, ``itemsize``, ``to_complex()``...), while equal to, hashing as,
    and converting (through ``.dtype``, which NumPy reads) to its NumPy dtype, so
    ``np.zeros(3, dtype=tg.float32)``, ``a.astype(x.dtype)`` and ``a.dtype == x.dtype`` work.
    One object per NumPy dtype (``is`` compares them); other NumPy attributes (``kind``,
    ``char``, ``name``...) are read from the NumPy dtype."""

    __slots__ = ("dtype", "kind", "itemsize", "is_floating_point", "is_complex", "is_signed",
                 "_word", "_hash")

    def __new__(cls, *args, **kwargs):
        raise TypeError("cannot create 'tapegrad.dtype' instances (use tapegrad.float32, ...)")

    @classmethod
    def _make(cls, np_dtype):
        self = object.__new__(cls)
        self.dtype = np_dtype
        self.kind = np_dtype.kind
        self.itemsize = np_dtype.itemsize
        self.is_floating_point = np_dtype.kind == "f"
        self.is_complex = np_dtype.kind == "c"
        self.is_signed = np_dtype.kind in "ifc"
        self._word = _WORDS.get(np_dtype.name, np_dtype.name)
        self._hash = hash(np_dtype)
        return self

    def __getattr__(self, attr):  # (slots are found first: only NumPy's other attributes)
        return getattr(self.dtype, attr)

    def __repr__(self):
        return "torch." + self._word

    __str__ = __repr__

    def __eq__(self, other):
        if other is self:
            return True
        if isinstance(other, RefusedDtype):  # (bfloat16... no NumPy dtype to compare)
            return False
        if isinstance(other, (dtype, np.dtype)) or (
                isinstance(other, type) and issubclass(other, np.generic)):
            return self.dtype == np.dtype(other)
        return False if isinstance(other, str) else NotImplemented  # (PyTorch: != "float32")

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        return self._hash

    def __reduce__(self):  # (pickles as its NumPy name: one object again when loaded)
        return _of_name, (self.dtype.str,)

    def to_complex(self):
        """The complex dtype of this float dtype (PyTorch's)."""
        if self.kind == "c":
            return self
        if self.kind != "f":
            raise RuntimeError(f"Unknown Complex ScalarType for {torch_name(self)}")
        if self.itemsize == 2:  # (a name only: NumPy has no complex32, REFUSED below)
            return REFUSED["complex32"]
        return of(np.result_type(self.dtype, np.complex64))

    def to_real(self):
        """The real dtype of this complex dtype (self for a real one)."""
        return of(np.finfo(self.dtype).dtype) if self.kind == "c" else self


_WORDS = {}  # (PyTorch's names are NumPy's for every dtype tapegrad has)


class _Interned(dict):
    def __missing__(self, np_dtype):
        t = self[np_dtype] = dtype._make(np_dtype)
        return t


_OF = _Interned()


def of(dt):
    """The tapegrad dtype of a NumPy dtype (or anything np.dtype takes)."""
    return dt if type(dt) is dtype else _OF[np.dtype(dt)]


def _of_name(np_str):
    return of(np.dtype(np_str))


float64 = double = np.dtype(np.float64)
float32 = float = np.dtype(np.float32)
int64 = long = np.dtype(np.int64)
int32 = int = np.dtype(np.int32)
bool = np.dtype(np.bool_)  # noqa: A001 (PyTorch's name)
float16 = half = np.dtype(np.float16)
int16 = short = np.dtype(np.int16)
int8 = np.dtype(np.int8)
uint8 = np.dtype(np.uint8)
uint16 = np.dtype(np.uint16)  # (PyTorch has few ops for these three; NumPy has them all)
uint32 = np.dtype(np.uint32)
uint64 = np.dtype(np.uint64)
complex64 = cfloat = np.dtype(np.complex64)  # (tensors of them: tapegrad/_complex.py)
complex128 = cdouble = np.dtype(np.complex128)

_DEFAULT_FLOAT = float64  # set_default_dtype changes it (float64 unless told otherwise)
ON_CHANGE = []  # called before set_default_dtype changes it (replay: traces compare it then)
_FLOATING = (float64, float32, np.dtype(np.float16))


def set_default_dtype(d):
    """The dtype of Python floats, float lists and float creation functions: float64
    (tapegrad's default) or float32 (PyTorch's), as ``torch.set_default_dtype``."""
    global _DEFAULT_FLOAT
    dt = np.dtype(d)
    if dt not in (float64, float32):
        raise TypeError("only floating-point types are supported as the default type "
                        f"(tapegrad: float32 or float64, got {dt})")
    if dt is not _DEFAULT_FLOAT:
        for hook in ON_CHANGE:
            hook()
    _DEFAULT_FLOAT = dt


def get_default_dtype():
    return _OF[_DEFAULT_FLOAT]


def default_float():
    """The default float dtype now (module attribute: set_default_dtype rebinds it)."""
    return _DEFAULT_FLOAT


def is_floating(dt):
    return dt.kind == "f"


def _category(dt):
    return {"b": 0, "i": 1, "u": 1, "f": 2}.get(dt.kind, 3)


def to_dtype(dt):
    """A NumPy dtype from a tapegrad dtype, NumPy dtype or Python type (None stays None)."""
    return None if dt is None else np.dtype(dt)


def name(dt):
    """tapegrad's spelling of a dtype, for messages."""
    return "tapegrad." + np.dtype(dt).name


_TORCH_WORDS = {"float64": "double", "float32": "float", "float16": "half", "int64": "long",
                "int32": "int", "int16": "short", "int8": "char", "uint8": "byte",
                "uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64", "bool": "bool",
                "complex64": "complexfloat", "complex128": "complexdouble"}


# the C type names some of PyTorch's errors print (mm's, a Python float cast in place...;
# its other kernels print torch_word's)
C_NAMES = {"float64": "double", "float32": "float", "float16": "c10::Half",
           "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
           "uint8": "unsigned char", "uint16": "short unsigned int", "uint32": "unsigned int",
           "uint64": "long unsigned int", "bool": "bool", "complex64": "c10::complex<float>",
           "complex128": "c10::complex<double>"}


def torch_word(dt):
    """PyTorch's scalar-type word for a dtype in its error messages ('double', 'long'...;
    capitalised where PyTorch writes 'Double'); NumPy's name for the others."""
    word = np.dtype(dt).name
    return _TORCH_WORDS.get(word, word)


def torch_name(dt):
    """PyTorch's ScalarType name in its messages: Double, Long, ComplexDouble, UInt16."""
    word = torch_word(dt)
    return "Complex" + word[7:].capitalize() if word.startswith("complex") else \
        word[0].upper() + word[1:]


def legacy_type_name(dt):
    """PyTorch's legacy tensor type name of a dtype (``Tensor.type()``), as some of its
    errors print it: torch.DoubleTensor, torch.ComplexFloatTensor."""
    return f"torch.{torch_name(dt)}Tensor"


def result_type(*operands):
    """PyTorch's promotion: operands are (dtype, ndim) pairs, ndim None for a Python scalar.

    The highest category (bool < int < float < complex) wins.  Within it, dimensioned
    tensors decide; else zero-dim tensors; else a Python scalar gives the default dtype.
    """
    cat = max(_category(dt) for dt, _ in operands)
    if cat < 3:
        for tier in (lambda n: n is not None and n > 0, lambda n: n == 0):
            dts = [dt for dt, n in operands if tier(n) and _category(dt) == cat]
            if dts:
                return np.result_type(*dts)
        return (bool, int64, _DEFAULT_FLOAT)[cat]
    # complex: PyTorch's three results (dimensioned tensors, zero-dim ones, numbers) combined
    # from the first down, a complex below a float giving the complex of the float's width
    dim, zero = (_promote_all([dt for dt, n in operands if tier(n)])
                 for tier in (lambda n: n is not None and n > 0, lambda n: n == 0))
    numbers = [_category(dt) for dt, n in operands if n is None]
    number = (bool, int64, _DEFAULT_FLOAT, _complex_of(_DEFAULT_FLOAT))[max(numbers)] \
        if numbers else None
    return _combine(dim, _combine(zero, number))


def promote(a, b):
    """PyTorch's promote_types of two NumPy dtypes: the higher category wins (bool < int <
    float < complex), a float and a complex give the complex of the wider float."""
    ca, cb = _category(a), _category(b)
    if ca == cb or {ca, cb} == {2, 3}:
        return np.promote_types(a, b)
    return a if ca > cb else b


def _promote_all(dts):
    return functools.reduce(promote, dts) if dts else None


def _complex_of(dt):
    """The complex dtype with float ``dt``'s parts (float16's complex32 does not exist in
    NumPy: complex64)."""
    return np.result_type(dt, np.complex64)


def _combine(higher, lower):
    """PyTorch's combine_categories: ``higher``'s dtype unless ``lower`` is of a higher
    category (None: absent)."""
    if higher is None or lower is None:
        return lower if higher is None else higher
    ch, cl = _category(higher), _category(lower)
    if ch == 3:
        return higher
    if cl == 3:
        return _complex_of(higher) if ch == 2 else lower
    if ch == 2:
        return higher
    return promote(higher, lower) if ch == 0 or cl == 2 else higher


def wrapped(value, dt):
    """A Python int as an array of integer dtype ``dt``, wrapped modulo 2**bits when out of
    range (``uint8 + 1000`` adds 232), as PyTorch casts a scalar into an integer tensor's
    dtype; NumPy refuses it instead.  Anything else as ``np.asarray`` makes it."""
    try:
        return np.asarray(value, dtype=dt)
    except OverflowError:
        if type(value) is not builtins.int or dt.kind not in "iu" or not -2 ** 63 <= value < 2 ** 64:
            raise
        return np.asarray(value % 2 ** 64, dtype=np.uint64).astype(dt)


def check_fits(value, dt, name=None):
    """Refuse a number that a fill (full, fill_, masked_fill, where, index_fill, a
    setitem) would store into integer dtype ``dt`` out of its range, as PyTorch's checked
    conversion (c10::overflows) does: a float must lie in the range (nan and inf never do),
    an int too, except that an unsigned dtype takes a negative int whose magnitude fits
    (-1 into uint8 is 255).  Arithmetic (``uint8 + 1000``) wraps instead: ``wrapped``.
    ``name``: the dtype's word in the message (the fills' is its C type, ``uint8_t``)."""
    dt = np.dtype(dt)
    if dt.kind not in "iu" or isinstance(value, (builtins.bool, np.bool_)):
        return
    info = np.iinfo(dt)
    if isinstance(value, (builtins.int, np.integer)):
        v = builtins.int(value)
        bad = v > info.max or (v < info.min if dt.kind == "i" else -v > info.max)
    elif isinstance(value, (builtins.float, np.floating)):
        bad = not info.min <= builtins.float(value) <= info.max
    else:
        return
    if bad:
        word = name or ("int" if dt == np.int32 else f"{dt.name}_t")
        raise RuntimeError(f"value cannot be converted to type {word} without overflow")

# The user's dtypes, by PyTorch's names (tapegrad/__init__.py exports them)
PUBLIC = {word: of(dt) for word, dt in (
    ("float64", float64), ("double", float64), ("float32", float32), ("float", float32),
    ("int64", int64), ("long", int64), ("int32", int32), ("int", int32), ("bool", bool),
    ("float16", float16), ("half", float16), ("int16", int16), ("short", int16),
    ("int8", int8), ("uint8", uint8), ("uint16", uint16), ("uint32", uint32),
    ("uint64", uint64), ("complex64", complex64), ("cfloat", complex64),
    ("complex128", complex128), ("cdouble", complex128))}


class RefusedDtype(dtype):
    """A PyTorch dtype NumPy cannot hold (bfloat16, float8, complex32): it can be named,
    printed, compared and asked ``is_floating_point`` / ``itemsize``, so a script that only
    mentions it runs; making a tensor of it raises NotImplementedError saying why (NumPy
    reads ``.dtype`` to convert it: tapegrad.zeros(2, dtype=...), x.to(...))."""

    __slots__ = ("_why",)

    @classmethod
    def _refused(cls, word, itemsize, kind, why):
        self = object.__new__(cls)
        self._word, self.itemsize, self.kind, self._why = word, itemsize, kind, why
        self.is_floating_point, self.is_complex, self.is_signed = kind == "f", kind == "c", True
        self._hash = hash(("torch", word))
        return self

    def error(self):
        return NotImplementedError(f"torch.{self._word}: tapegrad does not support {self._why}")

    @property
    def dtype(self):
        raise self.error()

    def __getattr__(self, attr):
        raise AttributeError(f"'torch.dtype' object has no attribute '{attr}'")

    def __eq__(self, other):
        return other is self

    def __hash__(self):
        return self._hash

    def __reduce__(self):
        raise self.error()

    def to_complex(self):  # (PyTorch's answers: a dtype's name needs no NumPy dtype)
        if self.kind == "c":
            return self
        if self._word == "bfloat16":  # (PyTorch's own answer, not complex32)
            return of(np.complex64)
        raise RuntimeError(f"Unknown Complex ScalarType for {self._word.capitalize()}")

    def to_real(self):
        return of(np.float16) if self.kind == "c" else self


_NO_NUMPY = "{} (NumPy, which holds the values, has no such dtype; use {})"
REFUSED = {word: RefusedDtype._refused(word, size, kind, _NO_NUMPY.format(word, use))
           for word, size, kind, use in (
               ("bfloat16", 2, "f", "float16 or float32"),
               ("float8_e4m3fn", 1, "f", "float16 or float32"),
               ("float8_e4m3fnuz", 1, "f", "float16 or float32"),
               ("float8_e5m2", 1, "f", "float16 or float32"),
               ("float8_e5m2fnuz", 1, "f", "float16 or float32"),
               ("float8_e8m0fnu", 1, "f", "float16 or float32"),
               ("complex32", 4, "c", "complex64"))}
REFUSED["chalf"] = REFUSED["complex32"]
