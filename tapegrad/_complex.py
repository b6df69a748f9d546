"""Complex tensors: a complex value is its real and imaginary parts, two real tensors.

Every complex op is written with real ops on the parts, so it records ordinary real rows and
its gradient is right by construction; nothing in the engine (rows, sweep, replay) knows
about complex numbers, and real tensors pay nothing for them.  For a real loss L, a complex
leaf's ``.grad`` is PyTorch's ``dL/d(re) + i dL/d(im)``: its parts' gradients.  A complex
output's ``backward(g)`` is that of the real ``sum(re * g.re + im * g.im)``.

``ComplexTensor`` is a Tensor (isinstance holds) whose real-storage slots (``_data``,
``_rg``...) refuse to be read: a real op handed one raises a clear error naming the op
(``ComplexPart``), and the ops that take complex input catch that on their slow paths and
answer here (the pointwise ones in ops/_pointwise.py, the other top-level functions in
ops/out.py's wrapper, through ``TOP``); its methods are its own, every other Tensor method
refuses by name.  Complex values are eager-only: tapegrad.trace refuses them.
"""
import builtins
import sys
import warnings

import numpy as np

from . import dtypes
from ._format import complex_repr
from ._state import state
from .autograd.function import Function
from .autograd.graph import renamed
from .ops._record import named_result
from .ops.linalg import matmul_node
from .tensor import COMPLEX_HOOKS, ComplexPart, EagerOnlyError, Tensor, _leaf, norm

_CDTYPE = {np.dtype(np.float64): np.dtype(np.complex128),
           np.dtype(np.float32): np.dtype(np.complex64)}
_SUPPORTED = ("complex support covers creation, +, -, *, /, ** by a real number, exp, log, "
              "sqrt, sin, cos, sinh, cosh, tanh, abs, angle, sgn, real, imag, conj, isfinite, "
              "isnan, isinf, isreal, sum, mean, prod, "
              "matmul, einsum, norms, where, shape ops, cat/stack and tapegrad.fft")


def _op_name():
    """The tapegrad function the user called: the outermost tapegrad frame on the stack."""
    frame, name = sys._getframe(2), "this op"
    while frame is not None and frame.f_globals.get("__name__", "").startswith("tapegrad"):
        code = frame.f_code.co_name
        if code in ("fn", "op", "wrapper", "method") or code.startswith("<"):
            op = frame.f_locals.get("op")
            code = getattr(op, "name", None) or frame.f_locals.get("name") or code
        elif code in ("__new__", "__init__"):  # a constructor: its class (nn.Parameter)
            cls = frame.f_locals.get("cls") or type(frame.f_locals.get("self"))
            code = getattr(cls, "__name__", code)
        if isinstance(code, str) and not code.startswith(("_", "<")):
            name = code
        frame = frame.f_back
    return name


def unsupported(name):
    return ComplexPart(f"{name}: tapegrad does not support complex tensors in this op "
                       f"({_SUPPORTED}; docs/limits.md)")


def _refuse(self):
    raise unsupported(_op_name())


_REFUSE = property(_refuse)


def _default_complex():
    return _CDTYPE[dtypes.default_float()]


def _float_part(t):
    """A real tensor (or number) as a part: integers and bools become the default float."""
    if isinstance(t, Tensor):
        return t if t.dtype.kind == "f" else t.to(dtypes.default_float())
    return t


def _values(t):
    """A part's values, read (not shared: no detach, whose bookkeeping costs more than |z|)."""
    return np.asarray(t._data)


def _zeros_like(t):
    return _leaf(norm(np.zeros(t.shape, dtype=t.dtype)))


def make(re, im=None, node=None):
    """The complex tensor of parts ``re`` and ``im`` (None: zero; numbers are filled in),
    brought to one float dtype and one shape; ``node`` is PyTorch's grad_fn name for it."""
    if state.tracing is not None:
        raise EagerOnlyError("tapegrad.trace: complex tensors are eager-only (replay holds "
                             "real values); run the function eagerly")
    if type(re) is Tensor and type(im) is Tensor:  # parts of one float dtype and shape (a
        dr, di = re._data, im._data  # complex op's): checked on their values, a third of
        if (type(dr) is float and type(di) is float) or (  # the checks below' cost
                type(dr) is np.ndarray and type(di) is np.ndarray and dr.dtype == di.dtype and
                dr.dtype in _CDTYPE and dr.shape == di.shape):
            return _pair(re, im, node)
    re, im = _float_part(re), _float_part(im)
    if not isinstance(re, Tensor):
        re = Tensor(np.full(np.shape(im) if isinstance(im, Tensor) else (), re,
                            dtype=im.dtype if isinstance(im, Tensor) else
                            dtypes.default_float()))
    if im is None:
        im = _zeros_like(re)
    elif not isinstance(im, Tensor):
        im = _leaf(norm(np.full(re.shape, im, dtype=re.dtype)))
    if re.dtype != im.dtype:
        dt = np.result_type(re.dtype, im.dtype)
        re, im = re.to(dt), im.to(dt)
    if re.dtype not in _CDTYPE:
        raise TypeError(f"complex: parts of dtype {re.dtype} have no complex dtype in "
                        "tapegrad (float32 and float64 parts: complex64, complex128)")
    if tuple(re.shape) != tuple(im.shape):
        shape = np.broadcast_shapes(tuple(re.shape), tuple(im.shape))
        re, im = re.expand(*shape), im.expand(*shape)
    if re._rg is not im._rg and state.grad_enabled:  # (a real tensor made complex)
        re, im = _linked(re, im)
    return _pair(re, im, node)


def _linked(re, im):
    """``re`` and ``im`` as the two halves of one recorded stack: PyTorch's complex tensor
    is one node, so a use of one part reaches the other part's inputs too, which get zeros
    (not None) from a use of ``.imag`` alone (``torch.complex(x, y).imag``)."""
    s = _TOP_REAL["stack"]([re, im], -1)
    return s[..., 0], s[..., 1]


def _pair(re, im, node):
    z = object.__new__(ComplexTensor)
    z._re, z._im, z._node, z._conj = re, im, node, False
    return z


def from_array(arr, dtype=None, requires_grad=False, param=False):
    """A complex leaf holding a copy of NumPy array ``arr`` (``param``: an nn.Parameter)."""
    arr = np.asarray(arr)
    dt = np.dtype(dtype) if dtype is not None else (
        arr.dtype if arr.dtype.kind == "c" else _default_complex())
    if dt.kind != "c":
        raise TypeError(f"expected a complex dtype, got {dt}")
    arr = arr.astype(dt)
    z = make(_leaf(norm(arr.real.copy())), _leaf(norm(arr.imag.copy())))
    if param:
        z._is_param = True
    return z.requires_grad_(True) if requires_grad else z


def parameter(data, requires_grad=True):
    """``nn.Parameter(z)``: a complex leaf on z's memory that isinstance(., Parameter) and so
    a Module take for a parameter (PyTorch's ``_is_param`` flag)."""
    z = make(data._re.detach(), data._im.detach())
    z._is_param = True
    return z.requires_grad_(requires_grad)


def parts(x):
    """(re, im) of an operand: im None for a real one (a Tensor, number or array)."""
    if type(x) is ComplexTensor:
        return x._re, x._im
    if isinstance(x, builtins.complex) or (isinstance(x, np.generic) and x.dtype.kind == "c"):
        return float(x.real), float(x.imag)
    if isinstance(x, np.ndarray):
        return parts(from_array(x)) if x.dtype.kind == "c" else (Tensor(x), None)
    if isinstance(x, (list, tuple)):
        return parts(as_complex(x))
    return x, None


def as_complex(x):
    """``x`` as a ComplexTensor (a real tensor or number gets a zero imaginary part)."""
    if type(x) is ComplexTensor:
        return x
    if isinstance(x, Tensor):
        return make(x)
    arr = np.asarray(x)
    return from_array(arr, arr.dtype if arr.dtype.kind == "c" else None)


# ---- arithmetic on parts (None is a zero part) ----------------------------------------------
def _add(x, y):
    return y if x is None else x if y is None else x + y


def _sub(x, y):
    return (None if y is None else -y) if x is None else x if y is None else x - y


def _mul(x, y):
    return None if x is None or y is None else x * y


def _own(part, *inputs):
    """``part``, copied if it is one of the inputs' own tensors (a result must not alias)."""
    return part.clone() if isinstance(part, Tensor) and builtins.any(
        part is p for p in inputs) else part


def add(a, b, alpha=1):
    (ar, ai), (br, bi) = parts(a), parts(b)
    if alpha != 1:
        br, bi = _mul(br, alpha), _mul(bi, alpha)
    return make(_own(_add(ar, br), ar, br), _own(_add(ai, bi), ai, bi), "AddBackward0")


def sub(a, b, alpha=1):
    (ar, ai), (br, bi) = parts(a), parts(b)
    if alpha != 1:
        br, bi = _mul(br, alpha), _mul(bi, alpha)
    return make(_own(_sub(ar, br), ar), _own(_sub(ai, bi), ai),
                "SubBackward0" if isinstance(a, Tensor) else "RsubBackward1")


def rsub(a, b):
    return sub(b, a)


def mul(a, b):
    (ar, ai), (br, bi) = parts(a), parts(b)
    return make(_sub(_mul(ar, br), _mul(ai, bi)), _add(_mul(ar, bi), _mul(ai, br)),
                "MulBackward0")


def div(a, b):
    (ar, ai), (br, bi) = parts(a), parts(b)
    node = "DivBackward0" if isinstance(a, Tensor) else "MulBackward0"  # (2 / x: PyTorch's)
    if bi is None:
        return make(ar / br, None if ai is None else ai / br, node)
    d = br * br + bi * bi
    return make(_add(_mul(ar, br), _mul(ai, bi)) / d, _sub(_mul(ai, br), _mul(ar, bi)) / d,
                node)


def rdiv(a, b):
    return div(b, a)


def neg(z):
    return make(-z._re, -z._im, "NegBackward0")


def conj(z):
    if type(z) is not ComplexTensor:
        return z
    out = make(z._re.clone(), -z._im, "ConjBackward0")
    out._conj = not z._conj  # (PyTorch's lazy conjugate bit: is_conj() shows it)
    return out


def resolve_conj(z):
    """z with its conjugate bit cleared (its values are held resolved already)."""
    if type(z) is not ComplexTensor or not z._conj:
        return z
    return make(z._re.clone(), z._im.clone(), "CloneBackward0")


def _safe_sqrt(s):
    """sqrt of nonnegative ``s`` with a zero (not nan) gradient where s is 0."""
    pos = s > 0
    return Tensor.where(Tensor.sqrt(Tensor.where(s, pos, 1.0)), pos, 0.0)


def _abs_parts(re, im):
    return _safe_sqrt(re * re + im * im)


def _inverse_or_zero(s):
    """1 / s, and 0 where s is 0 (the gradients of |z| and angle(z) at z = 0: PyTorch's)."""
    pos = s > 0
    return Tensor.where(1.0 / Tensor.where(s, pos, 1.0), pos, 0.0)


class _Abs(Function):
    """|z|: NumPy's hypot of the parts (PyTorch's values) and PyTorch's node; its backward,
    ``g z / |z|``, is written with ops (so it differentiates again)."""
    node_name = "AbsBackward0"

    @staticmethod
    def forward(ctx, re, im):
        ctx.save_for_backward(re, im)
        return Tensor(np.hypot(_values(re), _values(im)))

    @staticmethod
    def backward(ctx, g):
        re, im = ctx.saved_tensors
        if not state.grad_enabled:  # a plain backward: the same operations in NumPy
            return _abs_grad_values(g, re, im)
        w = g * _inverse_or_zero(_abs_parts(re, im))
        return w * re, w * im


def _abs_grad_values(g, re, im):
    """``_Abs.backward``'s gradients as ``w re, w im`` with ``w = g / sqrt(re^2 + im^2)``
    (0 where that is 0), rounded step by step as its ops are (test_outliers31 compares
    them bit for bit), without an op's overhead each: for a backward that records nothing."""
    g, re, im = np.asarray(g._data), np.asarray(re._data), np.asarray(im._data)
    with np.errstate(all="ignore"):
        s = re * re + im * im
        pos = s > 0
        w = g * np.where(pos, 1.0 / np.sqrt(np.where(pos, s, 1.0)), 0.0).astype(s.dtype)
        return _leaf(norm(w * re)), _leaf(norm(w * im))


class _Angle(Function):
    """angle(z): atan2 of the parts, with PyTorch's node; ``d angle = (re dim - im dre) /
    |z|^2``."""
    node_name = "AngleBackward0"

    @staticmethod
    def forward(ctx, re, im):
        ctx.save_for_backward(re, im)
        return Tensor(np.arctan2(_values(im), _values(re)))

    @staticmethod
    def backward(ctx, g):
        re, im = ctx.saved_tensors
        w = g * _inverse_or_zero(re * re + im * im)
        return -(w * im), w * re


def abs(z):  # noqa: A001 (PyTorch's name)
    return _Abs.apply(z._re, z._im)


def angle(z):
    return _Angle.apply(z._re, z._im)


def exp(z):
    e = z._re.exp()
    return make(e * z._im.cos(), e * z._im.sin(), "ExpBackward0")


def log(z):
    return make(abs(z).log(), angle(z), "LogBackward0")


def sqrt(z):
    """The principal square root, from the half-angle formulas in the form that is stable on
    each half-plane (no cancellation, no infinite gradient at a real positive z)."""
    re, im = z._re, z._im
    r = abs(z)
    right = np.asarray(re.detach().numpy()) >= 0
    a = _safe_sqrt(Tensor.where((r + re) * 0.5, Tensor(right), (r - re) * 0.5))
    # the other part, im / (2 a); 0 where a is 0 (z == 0)
    nz = a > 0
    b = im / (2.0 * Tensor.where(a, nz, 1.0)) * Tensor.where(a, nz, 0.0).sign()
    imd = np.asarray(im.detach().numpy())
    sgn = Tensor(np.where(np.signbit(imd), -1.0, 1.0).astype(re.dtype))
    rmask = Tensor(right)
    return make(Tensor.where(a, rmask, b * sgn), Tensor.where(b, rmask, a * sgn),
                "SqrtBackward0")


def sin(z):
    a, b = z._re, z._im
    return make(a.sin() * b.cosh(), a.cos() * b.sinh(), "SinBackward0")


def cos(z):
    a, b = z._re, z._im
    return make(a.cos() * b.cosh(), -(a.sin() * b.sinh()), "CosBackward0")


def sinh(z):
    a, b = z._re, z._im
    return make(a.sinh() * b.cos(), a.cosh() * b.sin(), "SinhBackward0")


def cosh(z):
    a, b = z._re, z._im
    return make(a.cosh() * b.cos(), a.sinh() * b.sin(), "CoshBackward0")


def tanh(z):
    out = div(sinh(z), cosh(z))
    out._node = "TanhBackward0"
    return out


def sgn(z):
    """z / |z| (0 at 0): PyTorch's sgn of a complex tensor."""
    w = _inverse_or_zero(abs(z))
    return make(z._re * w, z._im * w, "SgnBackward0")


def pow(z, p):  # noqa: A001
    if type(z) is not ComplexTensor or isinstance(p, Tensor) or isinstance(p, builtins.complex):
        raise unsupported("pow (a complex or tensor exponent)")
    p = float(p)
    if p == 1.0:
        return make(z._re.clone(), z._im.clone(), "PowBackward0")
    if p == 2.0:
        return make(z._re * z._re - z._im * z._im, 2.0 * (z._re * z._im), "PowBackward0")
    if p == 0.5:
        out = sqrt(z)
        out._node = "PowBackward0"
        return out
    if p == 0.0:
        return make(z._re * 0.0 + 1.0, z._im * 0.0, "PowBackward0")
    if p == int(p) and builtins.abs(p) <= 64:  # by products, exact as PyTorch's for integers
        return _int_pow(z, int(p))
    r, th = abs(z), angle(z)
    rp = r ** p
    return make(rp * (th * p).cos(), rp * (th * p).sin(), "PowBackward0")


def _int_pow(z, k):
    """z ** k by squaring (k a nonzero int; 1 / z ** -k for a negative k)."""
    result, base, n = None, z, builtins.abs(k)
    while n:
        if n & 1:
            result = base if result is None else mul(result, base)
        n >>= 1
        if n:
            base = mul(base, base)
    out = result if k > 0 else div(1.0, result)
    out._node = "PowBackward0"
    return out


def square(z):
    return pow(z, 2)


def reciprocal(z):
    return div(1.0, z)


def _c10(t):
    """PyTorch's C++ name of a dtype, for its matmul error."""
    return dtypes.C_NAMES.get(np.dtype(t.dtype).name, dtypes.torch_word(t.dtype))


def matmul(a, b):
    if not (isinstance(a, Tensor) and isinstance(b, Tensor)) or a.dtype != b.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                           f"{_c10(a)} != {_c10(b)}")
    (ar, ai), (br, bi) = parts(a), parts(b)  # (one dtype: both complex)
    return make(ar @ br - ai @ bi, ar @ bi + ai @ br,
                matmul_node(a.shape, b.shape, a.requires_grad))


def dot(a, b):
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    return matmul(a, b)


def vdot(a, b):
    """sum(conj(a) * b)."""
    return dot(conj(as_complex(a)), b)


def outer(a, b):
    return mul(as_complex(a).unsqueeze(1), as_complex(b).unsqueeze(0))


def einsum(equation, *operands):
    """The product of the operands' parts, term by term: each term a real einsum of one part
    of every operand, times i^(number of imaginary parts)."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    terms = [((), 0)]
    for x in operands:
        xr, xi = parts(as_complex(x) if not isinstance(x, Tensor) else x)
        terms = [(ts + (xr,), k) for ts, k in terms] + (
            [] if xi is None else [(ts + (xi,), k + 1) for ts, k in terms])
    real_einsum = _TOP_REAL["einsum"]
    re = im = None
    for ts, k in terms:
        v = real_einsum(equation, *ts)
        if k % 4 == 0:
            re = _add(re, v)
        elif k % 4 == 1:
            im = _add(im, v)
        elif k % 4 == 2:
            re = _sub(re, v)
        else:
            im = _sub(im, v)
    return make(re, im)


def where(condition, input, other):  # noqa: A002
    (ar, ai), (br, bi) = parts(input), parts(other)
    w = _TOP_REAL["where"]
    return make(w(condition, ar, br), w(condition, 0.0 if ai is None else ai,
                                        0.0 if bi is None else bi), "WhereBackward0")


def _norm_of_moduli(name):
    """A norm of a complex tensor: that of its moduli |z| (every vector norm, and the matrix
    norms that read only |a_ij|); the spectral and nuclear norms are refused."""
    def fn(z, *args, **kwargs):
        key = "p" if name == "norm" else "ord"
        order = kwargs.get(key, args[0] if args else None)
        dim = kwargs.get("dim", args[1] if len(args) > 1 else None)
        matrix = name == "linalg.matrix_norm" or isinstance(dim, (tuple, list)) and len(
            dim) == 2 or (dim is None and z.ndim == 2 and name == "linalg.norm"
                          and order is not None)
        if order == "nuc" or (matrix and order in (2, -2)):
            raise unsupported(f"{name} (ord={order!r}: singular values)")
        return _TOP_REAL[name](abs(z), *args, **kwargs)
    fn.__name__ = name
    return fn


def _inv(A, *, out=None):
    """linalg.inv of complex matrices: that of their real 2n x 2n form [[re, -im], [im, re]],
    whose inverse has the same form (so the gradients are PyTorch's by construction)."""
    if out is not None:
        raise unsupported("linalg.inv (out=)")
    n, cat = A.shape[-1], _TOP_REAL["cat"]
    Y = _TOP_REAL["linalg.inv"](cat([cat([A._re, -A._im], -1), cat([A._im, A._re], -1)], -2))
    return make(Y[..., :n, :n], Y[..., n:, :n])


def _reduce(name, node):
    def fn(z, *args, dtype=None, **kwargs):
        if dtype is not None and not np.dtype(dtype).kind == "c":
            raise TypeError(f"{name}(): a complex tensor's {name} must have a complex dtype, "
                            f"not {dtypes.of(dtype)}")
        out = make(getattr(z._re, name)(*args, **kwargs),
                   getattr(z._im, name)(*args, **kwargs), node)
        return out if dtype is None else out.to(dtype)
    fn.__name__ = name
    return fn


sum = _reduce("sum", "SumBackward0")  # noqa: A001
mean = _reduce("mean", "MeanBackward0")


def _joined(name, node):
    def fn(tensors, dim=0, *, out=None):
        zs = [as_complex(t) for t in tensors]
        f = _TOP_REAL[name]
        return make(f([z._re for z in zs], dim), f([z._im for z in zs], dim), node)
    fn.__name__ = name
    return fn


_TOP_REAL = {}  # the real top-level functions install() wraps (cat, stack...)
cat = _joined("cat", "CatBackward0")
stack = _joined("stack", "StackBackward0")


def eq(a, b):
    (ar, ai), (br, bi) = parts(a), parts(b)
    return (ar == br) & ((0.0 if ai is None else ai) == (0.0 if bi is None else bi))


def ne(a, b):
    return ~eq(a, b)


def isfinite(z):
    """Both parts finite (PyTorch's rule for complex values)."""
    return z._re.isfinite() & z._im.isfinite()


def isnan(z):
    return z._re.isnan() | z._im.isnan()


def isinf(z):
    return z._re.isinf() | z._im.isinf()


def isreal(z):
    """True where the imaginary part is 0 (a real tensor's every element is real)."""
    return z._im == 0 if type(z) is ComplexTensor else z.isreal()


def prod(z, dim=None, keepdim=False, *, dtype=None):
    """The product of the elements (of ``dim``): complex multiplications one element after
    another, as a chain of MulBackward rows (a complex product has no log-sum form that
    keeps zeros)."""
    if dtype is not None and not np.dtype(dtype).kind == "c":
        raise TypeError(f"prod(): a complex tensor's prod must have a complex dtype, not "
                        f"{dtypes.of(dtype)}")
    x = z.reshape(-1) if dim is None else z
    d = 0 if dim is None else dim
    if x.shape[d] == 0:
        out = make(_leaf(norm(np.ones(x._re.sum(d, keepdim=True).shape, x._re.dtype))))
    else:
        items = x.split(1, d)
        out = items[0]
        for item in items[1:]:
            out = mul(out, item)
    if not keepdim:
        out = out.squeeze(d) if dim is not None else out.reshape(())
    out = make(out._re, out._im, "ProdBackward0" if dim is None else "ProdBackward1")
    return out if dtype is None else out.to(dtype)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|a - b| <= atol + rtol |b|, with complex moduli (PyTorch's rule)."""
    za, zb = as_complex(a).detach(), as_complex(b).detach()
    x, y = za.numpy(), zb.numpy()
    return Tensor(np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan))


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return builtins.bool(isclose(a, b, rtol, atol, equal_nan).all())


def inner(z, gradient):
    """The real scalar whose gradient is z's for output gradient ``gradient``:
    ``sum(re * g.re + im * g.im)``."""
    gr, gi = parts(gradient)
    total = (z._re * gr).sum()
    return total if gi is None else total + (z._im * gi).sum()


_SHAPE_METHODS = ("reshape view flatten unflatten squeeze unsqueeze permute transpose t "
                  "expand expand_as contiguous flip roll narrow repeat movedim swapaxes "
                  "swapdims __getitem__ view_as reshape_as select unbind split chunk tril "
                  "triu diagonal diag diag_embed trace tile rot90 repeat_interleave cumsum").split()


def _shape_method(name):
    real = getattr(Tensor, name)

    def method(self, *args, **kwargs):
        args = tuple(a._re if type(a) is ComplexTensor else a for a in args)
        re, im = real(self._re, *args, **kwargs), real(self._im, *args, **kwargs)
        if isinstance(re, (tuple, list)):
            return type(re)(make(r, i) for r, i in builtins.zip(re, im))
        return make(re, im)
    method.__name__ = name
    return method


class ComplexTensor(Tensor):
    """A complex tensor: its real and imaginary parts, two real tensors (see the module)."""

    __slots__ = ("_re", "_im", "_node", "_conj", "_is_param")
    _data = _rg = _slot = _gen = _tok = _grad = _retains_grad = _REFUSE

    # -- metadata -------------------------------------------------------------------------
    @property
    def shape(self):
        return self._re.shape

    def size(self, dim=None):
        return self._re.size() if dim is None else self._re.size(dim)

    def dim(self):
        return self._re.dim()

    ndimension = dim

    @property
    def ndim(self):
        return self._re.ndim

    def numel(self):
        return self._re.numel()

    nelement = numel

    def __len__(self):
        return len(self._re)

    def __iter__(self):
        return (make(r, i) for r, i in builtins.zip(self._re, self._im))

    @property
    def dtype(self):
        return dtypes.of(_CDTYPE[np.dtype(self._re.dtype)])

    @property
    def device(self):
        return self._re.device

    @property
    def is_cuda(self):
        return False

    def is_complex(self):
        return True

    def is_floating_point(self):
        return False

    def cpu(self):
        return self

    def element_size(self):
        return self.dtype.itemsize

    # -- autograd -------------------------------------------------------------------------
    @property
    def requires_grad(self):
        return self._re.requires_grad or self._im.requires_grad

    @requires_grad.setter
    def requires_grad(self, flag):
        self.requires_grad_(flag)

    def requires_grad_(self, requires_grad=True):
        self._re.requires_grad_(requires_grad)
        self._im.requires_grad_(requires_grad)
        return self

    @property
    def is_leaf(self):
        return self._re.is_leaf and self._im.is_leaf

    @property
    def grad(self):
        gr = self._re.grad  # (a non-leaf's: PyTorch's warning, unless it retains its grad)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            gi = self._im.grad
        if gr is None and gi is None:
            return None
        return make(_zeros_like(self._re) if gr is None else gr,
                    _zeros_like(self._im) if gi is None else gi)

    @grad.setter
    def grad(self, value):
        if value is None:
            self._re.grad = self._im.grad = None
        else:
            self._re.grad, self._im.grad = as_complex(value)._re, as_complex(value)._im

    @property
    def grad_fn(self):
        fn = self._re.grad_fn or self._im.grad_fn
        if fn is None or self._node is None:
            return fn
        return renamed(fn, self._node)  # (the parts' rows, shown as PyTorch's one node)

    def retain_grad(self):
        self._re.retain_grad()
        self._im.retain_grad()

    def detach(self):
        return make(self._re.detach(), self._im.detach())

    @property
    def data(self):
        return self.detach()

    @data.setter
    def data(self, value):
        v = as_complex(value)
        self._re.data, self._im.data = v._re, v._im

    def detach_(self):
        self._re.detach_()
        self._im.detach_()
        return self

    def clone(self, *, memory_format=None):
        return make(self._re.clone(), self._im.clone(), "CloneBackward0")

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        if gradient is None:
            raise _implicit_grad_error(self)
        inner(self, gradient).backward(retain_graph=retain_graph, create_graph=create_graph,
                                       inputs=_real_inputs(inputs))

    # -- values ---------------------------------------------------------------------------
    def __reduce_ex__(self, protocol):  # (as a real tensor's: values and requires_grad)
        if state.tracing is not None:
            raise RuntimeError("pickle of a complex tensor while tracing: its values are this "
                               "point's only; pickle outside the traced function")
        return (from_array, (self.numpy(force=True), None, self.requires_grad,
                             getattr(self, "_is_param", False)))

    def numpy(self, *, force=False):
        if self.requires_grad and not force:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                               "tensor.detach().numpy() instead.")
        dt = _CDTYPE[np.dtype(self._re.dtype)]
        out = np.empty(tuple(self.shape), dtype=dt)
        out.real = self._re.detach().numpy()
        out.imag = self._im.detach().numpy()
        return out

    def item(self):
        if self.numel() != 1:
            raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted "
                               "to Scalar")
        return builtins.complex(self._re.item(), self._im.item())

    __complex__ = item

    def tolist(self):
        return self.detach().numpy().tolist()

    def __bool__(self):
        if self.numel() != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return builtins.bool(self.item())

    def __float__(self):
        raise TypeError("can't convert complex to float")

    __int__ = __float__

    def __repr__(self):
        text = complex_repr(self)
        return "Parameter containing:\n" + text if getattr(self, "_is_param", False) else text

    def __format__(self, spec):  # (PyTorch: f"{z}" of a 0-d z is its number's, "(1+2j)")
        return self.item().__format__(spec) if self.dim() == 0 else object.__format__(self, spec)

    def __hash__(self):
        return id(self)

    def to(self, *args, **kwargs):
        dt = next((a for a in (*args, kwargs.get("dtype")) if isinstance(
            a, (dtypes.dtype, np.dtype, type)) and a is not None), None)
        if dt is None or np.dtype(dt) == self.dtype:
            return self
        dt = np.dtype(dt)
        if dt.kind != "c":
            raise unsupported(f"to({dtypes.of(dt)}) (a complex-to-real cast; use .real or "
                              ".abs())")
        real = np.dtype(np.float32 if dt == np.complex64 else np.float64)
        return make(self._re.to(real), self._im.to(real), "ToCopyBackward0")

    def type(self, dtype=None):
        return str(self.dtype) if dtype is None else self.to(dtype)

    def cfloat(self):
        return self.to(np.complex64)

    def cdouble(self):
        return self.to(np.complex128)

    # -- complex parts --------------------------------------------------------------------
    @property
    def real(self):
        return _part(_one_node(self)._re)

    @real.setter
    def real(self, value):
        self._re.copy_(value)

    @property
    def imag(self):
        return _part(_one_node(self)._im)

    @imag.setter
    def imag(self, value):
        self._im.copy_(value)

    conj = conj
    resolve_conj = resolve_conj
    resolve_neg = lambda self: self  # noqa: E731

    def is_conj(self):
        return self._conj

    def conj_physical(self):
        return conj(self)

    abs = abs
    __abs__ = abs
    absolute = abs
    angle = angle
    exp = exp
    log = log
    sqrt = sqrt
    sin = sin
    cos = cos
    sinh = sinh
    cosh = cosh
    tanh = tanh
    sgn = sgn
    dot = dot
    vdot = vdot
    outer = outer

    def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        return _norm_of_moduli("norm")(self, p, dim, keepdim, dtype)
    square = square
    reciprocal = reciprocal
    sum = sum
    mean = mean
    matmul = __matmul__ = mm = matmul

    def __rmatmul__(self, other):
        return matmul(other, self)

    __add__ = __radd__ = add
    __sub__ = sub
    __rsub__ = rsub
    __mul__ = __rmul__ = mul
    __truediv__ = div
    __rtruediv__ = rdiv
    __neg__ = neg
    __pow__ = pow
    __eq__ = eq
    __ne__ = ne
    add = add
    sub = subtract = sub
    mul = multiply = mul
    div = divide = div
    neg = negative = neg
    pow = pow
    isclose = isclose
    allclose = allclose
    isfinite = isfinite
    isnan = isnan
    isinf = isinf
    isreal = isreal
    prod = prod

    def __pos__(self):
        return self

    def __rpow__(self, other):
        raise unsupported("pow (a complex exponent)")

    @property
    def T(self):  # noqa: N802 (PyTorch's name)
        return make(self._re.T, self._im.T)

    @property
    def mT(self):  # noqa: N802
        return make(self._re.mT, self._im.mT)

    @property
    def mH(self):  # noqa: N802
        return conj(self.mT)

    H = property(lambda self: conj(self.T))

    def adjoint(self):
        return self.mH

    # -- in place: on the parts (a leaf's own tensors, so .grad and optimisers follow) ------
    def _inplace(self, result):
        r = as_complex(result)
        self._re.copy_(r._re)
        self._im.copy_(r._im)
        return self

    def __iadd__(self, other):
        return self._inplace(add(self, other))

    def __isub__(self, other):
        return self._inplace(sub(self, other))

    def __imul__(self, other):
        return self._inplace(mul(self, other))

    def __itruediv__(self, other):
        return self._inplace(div(self, other))

    def add_(self, other, alpha=1):
        return self._inplace(add(self, other, alpha))

    def sub_(self, other, alpha=1):
        return self._inplace(sub(self, other, alpha))

    def mul_(self, other):
        return self._inplace(mul(self, other))

    def div_(self, other):
        return self._inplace(div(self, other))

    def copy_(self, src, non_blocking=False):
        return self._inplace(src)

    def zero_(self):
        self._re.zero_()
        self._im.zero_()
        return self

    def __setitem__(self, index, value):
        vr, vi = parts(value)
        self._re[index] = vr
        self._im[index] = 0.0 if vi is None else vi


for _name in _SHAPE_METHODS:
    setattr(ComplexTensor, _name, _shape_method(_name))


def _refusing(name):
    def method(self, *args, **kwargs):
        raise unsupported(name)
    method.__name__ = name
    return method


# every other Tensor method refuses by name (never a real op's result on complex input)
for _name in list(vars(Tensor)):
    _attr = vars(Tensor)[_name]
    if callable(_attr) and _name not in vars(ComplexTensor) and not isinstance(
            _attr, (type, staticmethod, classmethod)) and (
            not _name.startswith("_") or _name in ("__lt__", "__le__", "__gt__", "__ge__",
                                                    "__mod__", "__floordiv__", "__and__",
                                                    "__or__", "__xor__", "__invert__")):
        setattr(ComplexTensor, _name, _refusing(_name))


Tensor.cfloat = lambda self: self.to(np.complex64)  # (a real tensor made complex)
Tensor.cdouble = lambda self: self.to(np.complex128)


def _real_inputs(inputs):
    if inputs is None:
        return None
    if isinstance(inputs, Tensor):
        inputs = [inputs]
    out = []
    for t in inputs:
        out += [t._re, t._im] if type(t) is ComplexTensor else [t]
    return out


def _listed(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def has_complex(*groups):
    """Whether any of the tensors (or sequences of them) in ``groups`` is complex."""
    return builtins.any(type(t) is ComplexTensor for g in groups if g is not None
                        for t in _listed(g))


def _implicit_grad_error(z):
    """PyTorch's refusal of a complex output's implicit gradient (its size checked first)."""
    if z.numel() != 1:
        return RuntimeError("grad can be implicitly created only for scalar outputs")
    return RuntimeError(f"grad can be implicitly created only for real scalar outputs but got "
                        f"{z.dtype}")


def _real_outputs(outputs, grad_outputs):
    """Outputs and their gradients with each complex output z (gradient g) replaced by the
    real scalar ``inner(z, g)`` (gradient 1)."""
    outs = _listed(outputs)
    gos = [None] * len(outs) if grad_outputs is None else _listed(grad_outputs)
    real_outs, real_gos = [], []
    for z, g in builtins.zip(outs, gos, strict=True):
        if type(z) is ComplexTensor:
            if g is None:
                raise _implicit_grad_error(z)
            z, g = inner(z, g), None
        real_outs.append(z)
        real_gos.append(g)
    return real_outs, (None if builtins.all(g is None for g in real_gos) else real_gos)


def grad(real_grad, outputs, inputs, grad_outputs, **kwargs):
    """``autograd.grad`` with complex outputs or inputs, through their parts."""
    outs, gos = _real_outputs(outputs, grad_outputs)
    ins = _listed(inputs)
    gs = list(real_grad(outs, _real_inputs(ins), gos, **kwargs))
    result = []
    for t in ins:
        if type(t) is ComplexTensor:
            gr, gi = gs.pop(0), gs.pop(0)
            result.append(None if gr is None and gi is None else make(
                _zeros_like(t._re) if gr is None else gr,
                _zeros_like(t._im) if gi is None else gi))
        else:
            result.append(gs.pop(0))
    return tuple(result)


def backward(real_backward, tensors, grad_tensors=None, **kwargs):
    """``autograd.backward`` with complex outputs or inputs."""
    outs, gos = _real_outputs(tensors, grad_tensors)
    kwargs["inputs"] = _real_inputs(kwargs.get("inputs"))
    return real_backward(outs, gos, **kwargs)


# ---- top-level functions ---------------------------------------------------------------------
def complex(real, imag, *, out=None):  # noqa: A001 (PyTorch's name)
    """The complex tensor ``real + i imag`` (float parts of one dtype, broadcast)."""
    for name, t in (("real", real), ("imag", imag)):
        if not isinstance(t, Tensor) or type(t) is ComplexTensor:
            raise TypeError(f"complex(): argument '{name}' must be a real Tensor, not "
                            f"{type(t).__name__}")
    re_word, im_word = (dtypes.torch_name(t.dtype) for t in (real, imag))
    if any(t.dtype.kind != "f" or t.dtype == np.float16 for t in (real, imag)):
        raise RuntimeError("Expected both inputs to be Half, Float or Double tensors but "
                           f"got {re_word} and {im_word}")
    if real.dtype != imag.dtype:
        raise RuntimeError(f"Expected object of scalar type {re_word} but got scalar type "
                           f"{im_word} for second argument")
    if (real._rg or imag._rg) and state.grad_enabled:
        if tuple(real.shape) != tuple(imag.shape):
            shape = np.broadcast_shapes(tuple(real.shape), tuple(imag.shape))
            real, imag = real.expand(*shape), imag.expand(*shape)
        return make(*_linked(real, imag), "ComplexBackward0")
    return make(real.clone(), imag.clone(), "ComplexBackward0")


def polar(abs, angle, *, out=None):  # noqa: A002
    """``abs * (cos(angle) + i sin(angle))``."""
    return make(abs * angle.cos(), abs * angle.sin(), "PolarBackward0")


def view_as_real(input):  # noqa: A002
    """The parts as a last dim of size 2 (a copy here: tapegrad holds the parts apart)."""
    if type(input) is not ComplexTensor:
        raise RuntimeError("view_as_real is only supported for complex tensors")
    return named_result(_TOP_REAL["stack"]([input._re, input._im], -1), "ViewAsRealBackward0",
                        input._re, input._im)


def view_as_complex(input):  # noqa: A002
    """The complex tensor whose parts are ``input[..., 0]`` and ``input[..., 1]``."""
    if not isinstance(input, Tensor) or type(input) is ComplexTensor or \
            input.dtype.kind != "f" or input.dtype == np.float16:
        raise RuntimeError("view_as_complex is only supported for float and double tensors, "
                           f"but got a tensor of scalar type: {getattr(input, 'dtype', None)}")
    if input.ndim == 0 or input.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    return make(input[..., 0], input[..., 1], "ViewAsComplexBackward0")


def real(input):  # noqa: A002
    return _part(_one_node(input)._re) if type(input) is ComplexTensor else input


def imag(input):  # noqa: A002
    if type(input) is not ComplexTensor:
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return _part(_one_node(input)._im)


def _one_node(z):
    """``z`` with its parts made the halves of one recorded stack (``_linked``) before one
    part is used alone, if both are results built apart (``x + 1j * y``: the imaginary
    part's rows do not reach x): PyTorch's complex tensor is one node, so an input reached
    through the other part only gets zeros, not None.  Views (parts linked already, of
    ``view_as_complex``) and leaves stay as they are."""
    re, im = z._re, z._im
    if state.grad_enabled and re._tok is not None and im._tok is not None and \
            getattr(re, "_vb", None) is None and getattr(im, "_vb", None) is None:
        z._re, z._im = _linked(re, im)
    return z


def _part(p):
    """A part of a complex tensor as PyTorch gives it: a view of the tensor (of its part
    here), a SelectBackward0 node where it records (PyTorch selects from view_as_real)."""
    v = p.view(tuple(p.shape))
    return named_result(v, "SelectBackward0") if v is not p else p


def is_complex(input):  # noqa: A002
    return type(input) is ComplexTensor


def to_complex(x, dt):
    """A real tensor cast to complex dtype ``dt`` (``x.to(torch.cfloat)``)."""
    real = np.dtype(np.float32 if dt == np.complex64 else np.float64)
    return make(x.to(real), None, "ToCopyBackward0")


def _complex_unary(name, z):
    fn = _UNARY.get(name)
    if fn is None:
        raise unsupported(name)
    return fn(z)


def _complex_binary(name, a, b):
    fn = _BINARY.get(name)
    if fn is None:
        raise unsupported(name)
    return fn(a, b)


_UNARY = {"neg": neg, "abs": abs, "exp": exp, "log": log, "sqrt": sqrt, "sin": sin, "cos": cos,
          "sinh": sinh, "cosh": cosh, "tanh": tanh, "sgn": sgn}
_BINARY = {"add": add, "sub": sub, "mul": mul, "div": div, "pow": pow}  # (reflected: swapped)
COMPLEX_HOOKS.update(unary=_complex_unary, binary=_complex_binary, make=from_array, parts=make,
                     to_complex=to_complex, type=ComplexTensor, grad=grad, backward=backward,
                     has_complex=has_complex, unsupported=unsupported)

# the top-level functions that take complex input besides the pointwise ones (those catch
# ComplexPart themselves); a wrapper answers when the real function meets a complex operand
TOP = {"sum": sum, "mean": mean, "matmul": matmul, "mm": matmul, "cat": cat, "concat": cat,
       "concatenate": cat, "stack": stack, "real": real, "imag": imag, "conj": conj,
       "conj_physical": conj, "resolve_conj": resolve_conj, "angle": angle,
       "is_complex": is_complex, "allclose": allclose, "isclose": isclose, "square": square,
       "reciprocal": reciprocal, "absolute": abs, "eq": eq, "ne": ne, "dot": dot,
       "vdot": vdot, "outer": outer, "einsum": einsum, "where": where, "sgn": sgn,
       "norm": _norm_of_moduli("norm"), "isfinite": isfinite, "isnan": isnan,
       "isinf": isinf, "isreal": isreal, "prod": prod}
for _name in ("reshape", "flatten", "squeeze", "unsqueeze", "permute", "transpose", "t",
              "flip", "roll", "narrow", "movedim", "swapaxes", "unbind", "split", "chunk",
              "clone", "detach", "tril", "triu", "diagonal", "diag", "diag_embed", "trace",
              "tile", "rot90", "repeat_interleave", "cumsum"):  # (linear: part by part)
    TOP[_name] = (lambda n: lambda z, *a, **k: getattr(as_complex(z), n)(*a, **k))(_name)
NEW = {"complex": complex, "polar": polar, "view_as_real": view_as_real,
       "view_as_complex": view_as_complex}


def _top(name, args, kwargs):
    """A top-level op that met a complex operand (ops/out.py catches ComplexPart): its
    complex form, or the op's refusal again."""
    fn = TOP.get(name)
    if fn is None or not builtins.any(_has_complex(a) for a in (*args, *kwargs.values())):
        raise unsupported(name)
    return fn(*args, **kwargs)


COMPLEX_HOOKS["top"] = _top
COMPLEX_HOOKS["parameter"] = parameter

# these answer a complex operand without reading its data (real(z) would return z): they
# get a wrapper that looks at the operand's type first
_TYPE_FIRST = {"real", "imag", "conj", "conj_physical", "resolve_conj", "is_complex",
               "isreal"}


def _dispatching(real_fn, complex_fn):
    def fn(*args, **kwargs):
        if args and type(args[0]) is ComplexTensor:  # (real, conj... do not read the data)
            return complex_fn(*args, **kwargs)
        try:
            return real_fn(*args, **kwargs)
        except ComplexPart:
            if not builtins.any(_has_complex(a) for a in (*args, *kwargs.values())):
                raise
            return complex_fn(*args, **kwargs)
    fn.__name__ = getattr(real_fn, "__name__", "fn")
    fn.__doc__ = real_fn.__doc__
    fn.__wrapped__ = getattr(real_fn, "__wrapped__", real_fn)  # (out.py's wrapper's)
    return fn


def _has_complex(a):
    return type(a) is ComplexTensor or (isinstance(a, (list, tuple)) and builtins.any(
        type(t) is ComplexTensor for t in a))


def install(namespace):
    """Wrap ``namespace``'s real functions named in TOP and add the complex-only ones."""
    for name, cfn in TOP.items():
        real_fn = namespace.get(name)
        if real_fn is None:
            continue
        if name in ("cat", "stack", "einsum", "where", "norm"):
            _TOP_REAL[name] = real_fn
        if name in _TYPE_FIRST or not getattr(real_fn, "catches_complex", False):
            namespace[name] = _dispatching(real_fn, cfn)
    namespace.update(NEW)
    linalg = namespace["linalg"]
    for name in ("vector_norm", "norm", "matrix_norm"):
        _TOP_REAL["linalg." + name] = getattr(linalg, name)
        LINALG[name] = _norm_of_moduli("linalg." + name)
    _TOP_REAL["linalg.inv"] = linalg.inv
    LINALG["inv"] = _inv
    COMPLEX_HOOKS["linalg"] = LINALG


LINALG = {}  # linalg's functions of complex input (linalg.py asks through COMPLEX_HOOKS)


__all__ = ["ComplexTensor", "complex", "polar", "view_as_real", "view_as_complex"]
