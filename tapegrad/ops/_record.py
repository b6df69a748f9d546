"""What every op family shares: operand slots, broadcasting, and the generic
unary/binary elementwise paths (scalar fast path, NumPy path, one row each)."""
from collections import namedtuple

import numpy as np

from .. import dtypes
from .._state import state
from ..tape import current_tape
from ..tensor import Tensor, _leaf, _nonleaf, norm

Unary = namedtuple("Unary", "code name pyfn npfn")
Binary = namedtuple("Binary", "code code_c code_rc name pyfn npfn float_result")

_PY_ERRORS = (ValueError, OverflowError, ZeroDivisionError, TypeError)


def slot(t, tape):
    """The slot of tensor ``t`` on ``tape``, adopting leaves and constants on first use."""
    if t._gen == tape.gen:
        return t._slot
    if t._tok is not None:
        raise RuntimeError(
            "this tensor was recorded on another thread's tape; tapegrad keeps one tape per "
            "thread, so pass values between threads with .detach() and record anew")
    return tape.adopt(t)


def tape_for_grad():
    return state.tape or current_tape()


def push_value(tape, v):
    return tape.push_scalar(v) if type(v) is float else tape.push_array(v)


def output(tape, v, op, a, b=-1, aux=-1):
    """Append the value slot and row of an op; returns the result tensor."""
    s = push_value(tape, v)
    tape.rbuf.extend((op, s, a, b, aux))
    return _nonleaf(v, s, tape)


def as_tensor_arg(x, op):
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (int, float, bool, np.ndarray, np.generic, list, tuple)):
        return Tensor(x)
    raise TypeError(f"{op}(): expected a Tensor or a number, got {type(x).__name__}")


def _np(fn, *args):
    with np.errstate(all="ignore"):
        return fn(*args)


def unary(op, x):
    """Eager forward of a unary elementwise op, recording one row when x requires grad."""
    d = x._data
    if type(d) is float:
        try:
            v = op.pyfn(d)
        except _PY_ERRORS:  # math raises where IEEE gives inf or nan, as PyTorch does
            v = float(_np(op.npfn, d))
    else:
        v = norm(_np(op.npfn, d))
    if x._rg and state.grad_enabled:
        tape = state.tape or current_tape()
        return output(tape, v, op.code, slot(x, tape))
    return _leaf(v)


def _py_binary(fn, npfn, a, b):
    try:
        v = fn(a, b)
        if type(v) is float:
            return v
    except _PY_ERRORS:
        pass
    return float(_np(npfn, a, b))  # 1/0, 0**-1, (-8)**(1/3): IEEE results, not exceptions


def broadcast_shape(op, sa, sb):
    """The broadcast shape, or PyTorch's error naming the dims that clash."""
    n = max(len(sa), len(sb))
    pa = (1,) * (n - len(sa)) + tuple(sa)
    pb = (1,) * (n - len(sb)) + tuple(sb)
    out = []
    for i, (x, y) in enumerate(zip(pa, pb)):
        if x != y and x != 1 and y != 1:
            raise RuntimeError(
                f"{op}: The size of tensor a ({x}) must match the size of tensor b ({y}) at "
                f"non-singleton dimension {i} (shapes {tuple(sa)} and {tuple(sb)}; broadcasting "
                "needs equal sizes or 1 in each dimension)")
        out.append(max(x, y) if x != 1 and y != 1 else x * y)
    return tuple(out)


def binary(op, a, b, reflected=False):
    """Eager forward of ``a (op) b`` (``b (op) a`` when reflected); ``a`` is a Tensor."""
    ad = a._data
    if isinstance(b, Tensor):
        bd = b._data
        if reflected:
            a, b, ad, bd = b, a, bd, ad
        if type(ad) is float and type(bd) is float:
            v = _py_binary(op.pyfn, op.npfn, ad, bd)
            shape = None
        else:
            shape = broadcast_shape(op.name, np.shape(ad), np.shape(bd))
            v = _array_binary(op, ad, bd, (a.dtype, a.ndim), (b.dtype, b.ndim))
        if (a._rg or b._rg) and state.grad_enabled:
            tape = state.tape or current_tape()
            sa = slot(a, tape)
            sb = slot(b, tape)
            if shape is not None:
                sa = expand_slot(tape, a, sa, shape)
                sb = expand_slot(tape, b, sb, shape)
            return output(tape, v, op.code, sa, sb)
        return _leaf(v)
    if not isinstance(b, (int, float)):
        if isinstance(b, (np.ndarray, np.generic, list, tuple)):
            b = Tensor(b)
            return binary(op, a, b, reflected)
        return NotImplemented
    c = float(b)
    if type(ad) is float:
        v = _py_binary(op.pyfn, op.npfn, c, ad) if reflected else \
            _py_binary(op.pyfn, op.npfn, ad, c)
    else:
        scalar = (dtypes.float64 if type(b) is float else dtypes.int64, None)
        if type(b) is bool:
            scalar = (dtypes.bool, None)
        v = _array_binary(op, b, ad, scalar, (a.dtype, a.ndim)) if reflected else \
            _array_binary(op, ad, b, (a.dtype, a.ndim), scalar)
    if a._rg and state.grad_enabled:
        tape = state.tape or current_tape()
        code = op.code_rc if reflected else op.code_c
        return output(tape, v, code, slot(a, tape), -1, tape.const(c))
    return _leaf(v)


def _array_binary(op, ad, bd, ta, tb):
    rd = dtypes.result_type(ta, tb)
    if op.float_result and rd.kind != "f":
        rd = dtypes.float64
    x = np.asarray(ad, dtype=rd)
    y = np.asarray(bd, dtype=rd)
    return norm(_np(op.npfn, x, y).astype(rd, copy=False))


def expand_slot(tape, t, s, shape):
    """Slot of ``t`` broadcast to ``shape``: an EXPAND row if t requires grad, else a constant."""
    from .shape import record_expand
    if tuple(t.shape) == shape:
        return s
    if not t._rg:
        return tape.push_array(np.broadcast_to(np.asarray(t._data, np.float64), shape))
    return record_expand(tape, t, s, shape)
