"""``torch.testing``: ``assert_close`` with PyTorch's tolerances, pairing rules and messages,
and ``make_tensor``."""
import cmath
import collections.abc
import math

import numpy as np

from . import creation, dtypes
from .tensor import Size, Tensor

# PyTorch's default (rtol, atol) per dtype; integers and bools compare exactly
_TOLERANCES = {"float16": (1e-3, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7),
               "complex64": (1.3e-6, 1e-5), "complex128": (1e-7, 1e-7)}
_SCALAR_TOLERANCES = {float: (1e-7, 1e-7), complex: (1e-7, 1e-7), int: (0.0, 0.0),
                      bool: (0.0, 0.0)}


def _tolerances(dts):
    rtol, atol = zip(*(_TOLERANCES.get(np.dtype(d).name, (0.0, 0.0)) for d in dts))
    return max(rtol), max(atol)


def _fail(msg, default, where):
    """PyTorch's: a string ``msg`` replaces the message, a callable one is given it."""
    if isinstance(msg, str):
        raise AssertionError(msg)
    default += f"\n\nThe failure occurred for item {where}" if where else ""
    raise AssertionError(msg(default) if callable(msg) else default)


def _mismatch(what, extra, absd, i_abs, atol, reld, i_rel, rtol):
    """PyTorch's message of values that differ (``i_abs`` None: two scalars)."""
    exact = rtol == 0 and atol == 0
    lines = [f"{what} are not {'equal' if exact else 'close'}!", "", extra]
    for kind, diff, i, tol in (("absolute", absd, i_abs, atol), ("relative", reld, i_rel, rtol)):
        lines.append((f"{kind.title()} difference: {diff}" if i is None else
                      f"Greatest {kind} difference: {diff} at index {i}") +
                     ("" if exact else f" (up to {tol} allowed)"))
    return "\n".join(lines)


def _dtype_name(dt):
    return str(dtypes.of(dt))  # (torch.float32, as PyTorch's message)


def _index(i, shape):
    return tuple(int(v) for v in np.unravel_index(i, shape)) if shape else ()


def _compare_tensors(a, e, rtol, atol, equal_nan, check_dtype, msg, where):
    if tuple(a.shape) != tuple(e.shape):
        _fail(msg, f"The values for attribute 'shape' do not match: {Size(a.shape)!r} != "
                   f"{Size(e.shape)!r}.", where)
    if check_dtype and a.dtype != e.dtype:
        _fail(msg, f"The values for attribute 'dtype' do not match: {_dtype_name(a.dtype)} != "
                   f"{_dtype_name(e.dtype)}.", where)
    x = np.asarray(a.detach().numpy())
    y = np.asarray(e.detach().numpy())
    default_rtol, default_atol = _tolerances((a.dtype, e.dtype))
    rtol = default_rtol if rtol is None else rtol
    atol = default_atol if atol is None else atol
    if x.dtype == np.bool_ or y.dtype == np.bool_:
        x, y = x.astype(np.int64), y.astype(np.int64)
    common = np.result_type(x, y)
    wide = np.complex128 if common.kind == "c" else np.float64  # (moduli of differences)
    xf, yf = x.astype(wide).ravel(), y.astype(wide).ravel()
    with np.errstate(invalid="ignore", divide="ignore"):
        diff = np.abs(xf - yf)
        ok = (xf == yf) | (diff <= atol + rtol * np.abs(yf))
        if equal_nan:
            ok |= np.isnan(xf) & np.isnan(yf)
        if ok.all():
            return
        rel = diff / np.abs(yf)
    bad = ~ok
    n, total = int(bad.sum()), xf.size
    i_abs = int(np.nanargmax(np.where(bad, diff, -1.0))) if not np.isnan(diff[bad]).all() \
        else int(np.flatnonzero(bad)[0])
    i_rel = int(np.nanargmax(np.where(bad, rel, -1.0))) if not np.isnan(rel[bad]).all() \
        else i_abs
    shape = tuple(a.shape)
    if not shape:  # (two 0-dim tensors: PyTorch's message of two scalars, their items)
        _fail(msg, _scalar_mismatch(a.item(), e.item(), rtol, atol), where)
    absd, reld = diff[i_abs], rel[i_rel]
    if common.kind in "iub":
        absd = int(absd)
    _fail(msg, _mismatch("Tensor-likes", f"Mismatched elements: {n} / {total} "
                                         f"({100.0 * n / total:.1f}%)",
                         absd, _index(i_abs, shape), atol, reld, _index(i_rel, shape), rtol),
          where)


def _scalar_mismatch(a, e, rtol, atol):
    diff = abs(a - e)
    return _mismatch("Scalars", f"Expected {e} but got {a}.", diff, None, atol,
                     math.inf if e == 0 else diff / abs(e), None, rtol)


def _compare_scalars(a, e, rtol, atol, equal_nan, check_dtype, msg, where):
    if check_dtype and type(a) is not type(e):
        _fail(msg, f"The (d)types do not match: {type(a)} != {type(e)}.", where)
    default = max(_SCALAR_TOLERANCES[type(a)], _SCALAR_TOLERANCES[type(e)])
    rtol = default[0] if rtol is None else rtol
    atol = default[1] if atol is None else atol
    if a == e or (equal_nan and cmath.isnan(a) and cmath.isnan(e)):
        return
    if abs(a - e) <= atol + rtol * abs(e):
        return
    _fail(msg, _scalar_mismatch(a, e, rtol, atol), where)


def _pair(actual, expected, where, kw):
    if isinstance(actual, np.ndarray) and isinstance(expected, np.ndarray):
        actual, expected = Tensor(actual), Tensor(expected)
    if isinstance(actual, Tensor) and isinstance(expected, Tensor):
        return _compare_tensors(actual, expected, where=where, **kw)
    if actual is None or expected is None:  # (PyTorch's NonePair: equal only to None)
        if actual is not expected:
            _fail(kw["msg"], f"None mismatch: {actual} is not {expected}", where)
        return None
    numbers = (bool, int, float, complex)
    if type(actual) in numbers and type(expected) in numbers:
        return _compare_scalars(actual, expected, where=where, **kw)
    if isinstance(actual, collections.abc.Mapping) and \
            isinstance(expected, collections.abc.Mapping):
        if set(actual) != set(expected):
            _fail(kw["msg"], f"The keys of the mappings do not match:\nMissing keys in the "
                             f"actual mapping: {sorted(set(expected) - set(actual))}\n"
                             f"Additional keys in the actual mapping: "
                             f"{sorted(set(actual) - set(expected))}", where)
        for k in actual:
            _pair(actual[k], expected[k], f"{where or ''}[{k!r}]", kw)
        return None
    seq = (list, tuple)
    if isinstance(actual, seq) and isinstance(expected, seq):
        if len(actual) != len(expected):
            _fail(kw["msg"], f"The length of the sequences mismatch: {len(actual)} != "
                             f"{len(expected)}", where)
        for i, (x, y) in enumerate(zip(actual, expected)):
            _pair(x, y, f"{where or ''}[{i}]", kw)
        return None
    raise TypeError(f"No comparison pair was able to handle inputs of type "
                    f"{_class_name(actual)} and {_class_name(expected)}.")


def _class_name(x):
    """``repr(type(x))`` with tapegrad's own classes under PyTorch's names (the Tensor type
    is torch.Tensor, and tapegrad.nn.parameter.Parameter torch.nn.parameter.Parameter)."""
    cls = type(x)
    if cls is Tensor:
        return "<class 'torch.Tensor'>"
    if cls.__module__.startswith("tapegrad."):
        return f"<class 'torch.{cls.__module__[len('tapegrad.'):]}.{cls.__qualname__}'>"
    return repr(cls)


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None,
                 equal_nan=False, check_device=True, check_dtype=True, check_layout=True,
                 check_stride=False, msg=None):
    """Raise AssertionError unless ``actual`` and ``expected`` (tensors, numbers, or
    sequences and mappings of them) agree: ``|a - e| <= atol + rtol * |e|`` elementwise,
    with PyTorch's default tolerances per dtype; shapes and (unless ``check_dtype=False``)
    dtypes must match.

    >>> import tapegrad as tg
    >>> assert_close(tg.tensor([1.0, 2.0]), tg.tensor([1.0, 2.0 + 1e-9]))
    """
    if (rtol is None) != (atol is None):
        raise ValueError(f"Both 'rtol' and 'atol' must be either specified or omitted, but got "
                         f"no {'rtol' if rtol is None else 'atol'}.")
    _pair(actual, expected, None, dict(rtol=rtol, atol=atol, equal_nan=equal_nan,
                                       check_dtype=check_dtype, msg=msg))


def make_tensor(*shape, dtype, device=None, low=None, high=None, requires_grad=False,
                noncontiguous=False, exclude_zero=False, memory_format=None):
    """A tensor of random values in ``[low, high)`` (PyTorch's defaults: [-9, 9] for
    floats, [-9, 10) for integers, {0, 1} for bool), for tests."""
    if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
        shape = tuple(shape[0])
    dt = np.dtype(dtypes.to_dtype(dtype))
    g = creation._rng
    if dt == np.bool_:
        data = g.integers(0, 2, shape).astype(bool)
    elif dt.kind in "iu":
        lo = max(-9 if low is None else int(math.ceil(low)), np.iinfo(dt).min)
        hi = min(10 if high is None else int(math.ceil(high)), int(np.iinfo(dt).max) + 1)
        data = g.integers(lo, hi, shape)
        if exclude_zero:
            data[data == 0] = 1
    else:
        lo = -9.0 if low is None else float(low)
        hi = 9.0 if high is None else float(high)
        data = g.uniform(lo, hi, shape)
        if exclude_zero:
            data[data == 0] = np.finfo(dt).tiny
    return creation.tensor(data, dtype=dt, device=device, requires_grad=requires_grad)


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=""):
    """PyTorch's deprecated ``assert_allclose``: ``assert_close`` without the dtype check."""
    if not isinstance(actual, Tensor):
        actual = creation.tensor(actual)
    if not isinstance(expected, Tensor):
        expected = creation.tensor(expected, dtype=actual.dtype)
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan,
                 check_dtype=False, msg=msg or None)


__all__ = ["assert_allclose", "assert_close", "make_tensor"]
