"""The generic unary and binary elementwise paths every elementwise op is made from: the
scalar fast path (Python floats, written out inline: it is the per-op overhead the eager
benchmarks measure), the NumPy path with broadcasting and dtype promotion, one row each.
"""
import math
import operator
from collections import namedtuple

import numpy as np

from .. import dtypes
from .._eager import MIN_SIZE, broadcast_binary
from .._fp import call as _np
from .._state import state
from ..arena import _F32, _F64, _ndarray
from ..tape import current_tape
from ..tensor import (COMPLEX_HOOKS, TRACE_HOOKS, ComplexData, ComplexPart, Tensor, _leaf, _new,
                      _nonleaf, norm)
from ._record import _result, output, record, slot, tape_for_grad
from .registry import OPS
from .strided import broadcast_shape, expand_slot

# an elementwise op's eager forward (what its rule reads comes from its declaration)
Unary = namedtuple("Unary", "code name pyfn npfn")
# ``fast``: the op of _eager.broadcast_binary that computes a large broadcast (or None)
Binary = namedtuple("Binary", "code code_c code_rc name pyfn npfn float_result fast",
                    defaults=(None,))

_F16 = np.dtype(np.float16)
_OPMATH = (np.multiply, np.true_divide)  # see _half_by_number
_PY_ERRORS = (ValueError, OverflowError, ZeroDivisionError, TypeError)
# opcode -> the opcode of its row with a 0-d operand read as it is, no EXPAND (elementwise.py
# MUL_S, ADD_S, SUB_S fill it in, by their declarations)
SCALAR_ROWS = {}
# Python functions whose result on two floats is always a float (float ** float can be
# complex): the scalar path skips the check of their result
_FLOAT_CLOSED = (operator.add, operator.sub, operator.mul, operator.truediv, math.atan2)


def make_unary(op, doc):
    """The eager function of unary op ``op``: one row when x requires grad.

    The scalar path is written out inline (no helper calls): it is the per-op overhead
    that the eager benchmarks measure.
    """
    code, pyfn, npfn = op.code, op.pyfn, op.npfn
    need, keep = "a" in OPS[code].reads, "o" in OPS[code].reads
    # (its result is a new array: see _record.record; _eager.tanh says so too)
    fresh = type(npfn) is np.ufunc or getattr(npfn, "fresh", False)
    refusal = REFUSED.get(op.name)

    def fn(input):
        try:
            d = input._data
        except AttributeError:
            raise _not_a_tensor(op.name, input) from None
        except ComplexPart:  # a complex tensor (tapegrad/_complex.py)
            return COMPLEX_HOOKS["unary"](op.name, input)
        if type(d) is float:
            try:
                v = pyfn(d)
            except _PY_ERRORS:  # math raises where IEEE gives inf or nan, as PyTorch does
                v = float(_np(npfn, d))
            if input._rg and (st := state.__dict__)["grad_enabled"]:  # (one thread-local
                tape = st["tape"] or current_tape()  # read, not two: ~600 instructions each)
                gen = tape.gen
                if input._gen == gen:  # a live input's token: no begin
                    tok, sx = input._tok, input._slot  # (a leaf's is None)
                    if tok is None:
                        tok = tape.begin()
                        tape = tok.tape  # (a new segment if begin split the tape)
                        gen = tape.gen
                        sx = input._slot if input._gen == gen else slot(input, tape)
                else:
                    tok = tape.begin()  # before any push: the op's output will hold it
                    tape = tok.tape  # (a new segment if begin split the tape, or reset)
                    gen = tape.gen
                    sx = slot(input, tape)
                s, n = tape.nslots, tape.nvals  # (pending first, the counters last: see
                tape.vbuf.append(v)  # Tape.push_scalar; the row once its slot is whole)
                tape.nvals = n + 1
                tape.nslots = s + 1
                tape.rbuf.extend((code, s, sx, -1, -1))
                if s >= tape.flush_at:  # (an int compare: `s & FLUSH` cost ~120 instructions)
                    tape.flush()
                t = _new(Tensor)  # (tensor._nonleaf written out, as in make_binary's fn:
                t._data = v  # a frame is ~3% of a scalar op)
                t._rg = True
                t._slot = s
                t._gen = gen
                t._tok = tok
                t._grad = None
                t._retains_grad = False
                return t
            return _leaf(v)
        dt = d.dtype
        st = state.__dict__  # (one thread-local read: the quiet context, then grad mode)
        try:
            v = st["quiet"].run(npfn, d)  # (_np without its context variable's set/reset)
        except RuntimeError:  # entered already: a finalizer's op inside a ufunc
            v = _np(npfn, d)
        except TypeError:  # NumPy refuses -bool: PyTorch's words (no check on the way in)
            if dt.kind == "b" and op.name == "neg":
                raise RuntimeError(_BOOL_NEG) from None
            raise
        # a ufunc's result on a float array (C-contiguous, as every array tensor's values):
        # a new C-contiguous array of its shape and dtype, with nothing for _result to do
        if not (fresh and type(v) is _ndarray and (dt is _F64 or dt is _F32)):
            if dt.kind in "biu":  # (a float input never enters)
                if refusal is not None and dt.kind in refusal[2]:
                    raise refusal[0](refusal[1].format(dtypes.torch_name(dt)))
                if v.dtype.kind == "f":  # NumPy: exp(bool) is float16
                    v = _np(npfn, d.astype(np.float64))
            v = _result(v)
            dt = None  # (v's own, for record to read)
        if input._rg and st["grad_enabled"]:
            return record(v, code, input, None, need, keep, st["tape"] or current_tape(),
                          fresh, -1, dt)
        return _leaf(v)

    fn.__name__ = fn.__qualname__ = op.name  # (not make_unary.<locals>.fn: printed by scripts)
    fn.__doc__ = doc
    return fn


# PyTorch's refusals of bool (b) or integer (iu) tensors by ops whose NumPy function takes
# them: its kernel's name, "{}" the dtype's (neg's is _BOOL_NEG below, where NumPy refuses)
REFUSED = {
    **{name: (NotImplementedError, f'"{kernel}" not implemented for \'{{}}\'', kinds)
       for name, kernel, kinds in (
           ("abs", "abs_cpu", "b"), ("floor", "floor_vml_cpu", "b"),
           ("ceil", "ceil_vml_cpu", "b"), ("round", "round_vml_cpu", "b"),
           ("log_sigmoid", "log_sigmoid_cpu", "biu"))},
    "relu": (RuntimeError, "Boolean inputs not supported for relu", "b")}


# PyTorch's refusals of ``-`` on bool tensors (a mask is inverted by ``~``)
_BOOL_NEG = ("Negation, the `-` operator, on a bool tensor is not supported. If you are "
             "trying to invert a mask, use the `~` or `logical_not()` operator instead.")
_BOOL_SUB = ("Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
             "trying to invert a mask, use the `~` or `logical_not()` operator instead.")
_BOOL_SUB_BOTH = ("Subtraction, the `-` operator, with two bool tensors is not supported. "
                  "Use the `^` or `logical_xor()` operator instead.")


def _not_a_tensor(name, x):
    return TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                     f"{type(x).__name__} (wrap numbers with tapegrad.tensor(...))")


def make_binary(op, doc, reflected=False, number_first=False):
    """The eager function of binary op ``op`` (``b (op) a`` when reflected); ``a`` is a
    Tensor.  Scalar-by-scalar is written out inline, as in make_unary.  ``number_first``:
    the function called with a number first (``torch.sub(1, x)``), not an operator."""
    code, pyfn, npfn = op.code, op.pyfn, op.npfn
    code_c = op.code_rc if reflected else op.code_c
    checked = pyfn not in _FLOAT_CLOSED  # whether a float result must be checked for
    reads = OPS[code].reads  # what the tensor-by-tensor row's rule reads (its declaration)
    need, keep = "a" in reads or "b" in reads, "o" in reads
    reads_c = OPS[code_c].reads if code_c in OPS else "ao"  # (by a constant: its own row)
    need_c, keep_c = "a" in reads_c, "o" in reads_c
    alone_c = reads_c == "a"  # (x ** 2 reads x alone: ValueArena.needed)
    # torch.pow(2, x), torch.sub(1, x): a number first is the reflected op by a constant
    swapped = make_binary(op, doc, True, True) if not reflected and op.code_rc >= 0 else None
    fresh = type(npfn) is np.ufunc  # (its result is a new array: see _record.record)

    def complex_op(a, b):  # a complex operand: tapegrad/_complex.py answers
        return COMPLEX_HOOKS["binary"](op.name, b, a) if reflected else \
            COMPLEX_HOOKS["binary"](op.name, a, b)

    def fn(a, b):
        try:
            ad = a._data
        except AttributeError:
            if swapped is not None and isinstance(b, Tensor) and \
                    isinstance(a, (int, float, np.generic)) and not isinstance(a, np.ndarray):
                return swapped(b, a)
            if isinstance(a, complex) and isinstance(b, Tensor):  # torch.mul(1j, x)
                return complex_op(a, b)
            raise _not_a_tensor(op.name, a) from None
        except ComplexPart:  # a complex tensor (tapegrad/_complex.py)
            return complex_op(a, b)
        if type(b) is Tensor:
            bd = b._data
            if reflected:
                a, b, ad, bd = b, a, bd, ad
            if type(ad) is float and type(bd) is float:
                try:
                    v = pyfn(ad, bd)
                    if checked and type(v) is not float:  # (-8) ** (1/3) is complex
                        raise TypeError
                except _PY_ERRORS:  # 1/0, 0**-1: IEEE results, not exceptions
                    v = float(_np(npfn, ad, bd))
                if (a._rg or b._rg) and (st := state.__dict__)["grad_enabled"]:
                    tape = st["tape"] or current_tape()
                    gen = tape.gen
                    if a._gen == gen and (tok := a._tok) is not None:  # a live non-leaf (the
                        sa = a._slot  # common case: its token and slot, in fewer steps)
                        sb = b._slot if b._gen == gen else slot(b, tape)
                    else:  # an input's token is live: no begin() needed (see Tape.begin)
                        tok = b._tok if b._gen == gen else None
                        if tok is None:
                            tok = tape.begin()
                            tape = tok.tape  # (a new segment if begin split the tape)
                            gen = tape.gen
                        sa = a._slot if a._gen == gen else slot(a, tape)
                        sb = b._slot if b._gen == gen else slot(b, tape)
                    s, n = tape.nslots, tape.nvals  # (pending first, the counters last:
                    tape.vbuf.append(v)  # see Tape.push_scalar; the row once its slot is whole)
                    tape.nvals = n + 1
                    tape.nslots = s + 1
                    tape.rbuf.extend((code, s, sa, sb, -1))
                    if s >= tape.flush_at:
                        tape.flush()
                    t = _new(Tensor)  # (tensor._nonleaf written out: ~6% of the op)
                    t._data = v
                    t._rg = True
                    t._slot = s
                    t._gen = gen
                    t._tok = tok
                    t._grad = None
                    t._retains_grad = False
                    return t
                return _leaf(v)
            if (type(ad) is _ndarray and type(bd) is _ndarray and (dt := ad.dtype) is bd.dtype
                    and (sh := ad.shape) == bd.shape and sh and (dt is _F64 or dt is _F32)):
                # the common case written out (no _tensor_binary call: ~3% of a 4-value op):
                # same shape and float dtype, so the result is a new C-contiguous array of
                # that dtype (``_result`` has nothing to do); each NumPy attribute is read
                # once (~300 instructions a read, issue 20; float16 takes the general path)
                st = state.__dict__  # (as in make_unary)
                try:
                    v = st["quiet"].run(npfn, ad, bd)
                except RuntimeError:
                    v = _np(npfn, ad, bd)
                if (a._rg or b._rg) and st["grad_enabled"]:
                    return record(v, code, a, b, need, keep, st["tape"] or current_tape(),
                                  fresh, -1, dt, sh)  # (a ufunc's result: their dtype, shape)
                return _leaf(v)
            return _tensor_binary(op, a, b, need, keep, fresh)
        tb = type(b)
        if tb is not float and tb is not int and tb is not bool:
            if isinstance(b, np.generic) and b.dtype.kind in "biuf":
                return fn(a, b.item())  # a NumPy scalar is a Python number, as to PyTorch
            if isinstance(b, (np.ndarray, np.generic, list, tuple)):
                try:
                    t = Tensor(b)
                except ComplexData:  # x * np.complex128(1j): a complex operand
                    return complex_op(a, b)
                return fn(a, t)
            if isinstance(b, Tensor):  # a subclass (nn.Parameter): the general path
                if tb is COMPLEX_HOOKS["type"]:
                    return complex_op(a, b)
                return _tensor_binary(op, b, a, need, keep, fresh) if reflected else \
                    _tensor_binary(op, a, b, need, keep, fresh)
            if tb is complex or isinstance(b, np.complexfloating):  # x * 1j
                return complex_op(a, b)
            return NotImplemented
        c = float(b)
        if type(ad) is float:
            try:
                v = pyfn(c, ad) if reflected else pyfn(ad, c)
                if checked and type(v) is not float:
                    raise TypeError
            except _PY_ERRORS:
                v = float(_np(npfn, c, ad) if reflected else _np(npfn, ad, c))
            if a._rg and (st := state.__dict__)["grad_enabled"]:
                tape = st["tape"] or current_tape()
                if a._gen == tape.gen and (tok := a._tok) is not None:  # (as above)
                    sa = a._slot
                else:
                    tok = tape.begin()
                    tape = tok.tape  # (a new segment if begin split the tape)
                    sa = a._slot if a._gen == tape.gen else slot(a, tape)
                # Tape.const's reuse of the last constant written out (no call)
                k = tape._last_k if c is tape._last_const else tape.const(c)
                s, n = tape.nslots, tape.nvals  # (pending first, the counters last: see
                tape.vbuf.append(v)  # Tape.push_scalar; the row once its slot is whole)
                tape.nvals = n + 1
                tape.nslots = s + 1
                tape.rbuf.extend((code_c, s, sa, -1, k))
                if s >= tape.flush_at:
                    tape.flush()
                return _nonleaf(v, s, tape, tok)
            return _leaf(v)
        if tb is not bool and (dk := ad.dtype).kind == "f":  # a float tensor keeps its dtype
            if dk is _F16 and npfn in _OPMATH and not number_first:
                # (``torch.mul(c, x)``, ``torch.div(c, x)``: c cast to half first, as NumPy)
                v = _half_by_number(npfn, ad, c, reflected)
            else:
                v = _result(_np(npfn, c, ad) if reflected else _np(npfn, ad, c))
        else:
            scalar = (dtypes.bool if tb is bool else dtypes.int64 if tb is int else
                      dtypes.float64, None)
            v = _array_binary(op, b, ad, scalar, (a.dtype, a.ndim)) if reflected else \
                _array_binary(op, ad, b, (a.dtype, a.ndim), scalar)
        if a._rg and state.grad_enabled:
            tape = tape_for_grad(a)
            t = output(tape, v, code_c, slot(a, tape, need_c, alone_c), -1, tape.const(c),
                       keep_c)
            return t if state.tracing is None else TRACE_HOOKS["truth"](t)
        return _leaf(v)

    fn.__name__ = op.name
    fn.__doc__ = doc
    return fn


def _half_by_number(npfn, ad, c, reflected=False):
    """A float16 array times (or over) the number ``c`` as PyTorch computes it: c as it is
    (its original_scalar_value) in float32, rounded to float16 once (``tensor(3).half() *
    0.1`` is 0.30005, where NumPy rounds 0.1 to float16 first and gives 0.2998).  PyTorch's
    other ops (add, sub, pow, comparisons) cast c to half first, as NumPy does.  A number
    over the array (``reflected``, a division) is c times the reciprocal rounded to half.
    (The cast to half is quiet: a product beyond its range is inf, as PyTorch's.)"""
    if reflected:
        v = _np(np.multiply, _np(np.reciprocal, ad).astype(_F32), c)
    else:
        v = _np(npfn, ad.astype(_F32), c)
    return _result(_np(np.asarray, v, _F16))  # (v may be a NumPy scalar: a 0-d tensor's)


def _tensor_binary(op, a, b, need, keep, fresh):
    """Tensor (op) Tensor where either is an array: broadcasting and dtype promotion (``fn``
    of make_binary takes two plain Tensors of one shape and float dtype itself).
    ``need``/``keep``: the row's rule reads its inputs' / its output's values; ``fresh``:
    op.npfn is a ufunc."""
    ad, bd = a._data, b._data
    fa, fb = type(ad) is float, type(bd) is float
    if fa is not fb and fresh and type(arr := bd if fa else ad) is _ndarray and \
            arr.dtype is _F64 and arr.ndim:
        # a 0-d float64 tensor (a Python float) by a float64 array, written out as the
        # general path below takes it (issue 20: the polynomial fit's parameters): the
        # array's shape, a new C-contiguous result, a row reading the 0-d operand as it is
        st = state.__dict__  # (as in make_unary)
        try:
            v = st["quiet"].run(op.npfn, ad, bd)
        except RuntimeError:
            v = _np(op.npfn, ad, bd)
        if (a._rg or b._rg) and st["grad_enabled"]:
            tape = st["tape"] or current_tape()
            code = SCALAR_ROWS.get(op.code)
            if code is not None and st["tracing"] is not tape:
                return record(v, code, a, b, need, keep, tape, True, 0 if fa else 1)
            return _recorded(op, a, b, need, keep, v, () if fa else arr.shape,
                             () if fb else arr.shape, arr.shape)
        return _leaf(v)
    sa_, sb_ = () if fa else ad.shape, () if fb else bd.shape
    ta, tb = dtypes.float64 if fa else ad.dtype, dtypes.float64 if fb else bd.dtype
    shape = sa_ if sa_ == sb_ else broadcast_shape(op.name, sa_, sb_)
    if ta is tb and ta.kind == "f":  # the common case: one float dtype, no promotion
        v = None
        if op.fast is not None and not (fa or fb) and sa_ != sb_ and \
                (ad.size if sa_ == shape else bd.size if sb_ == shape else MIN_SIZE) >= MIN_SIZE:
            # NumPy's values, compiled where large (the short runs of a broadcast:
            # _eager.py; below MIN_SIZE it declines, after ~1 us of checks: an LSTM's bias)
            v = broadcast_binary(op.fast, ad, bd, shape)
        if v is None:
            v = _result(_np(op.npfn, ad, bd))
    elif ta is _F16 and not sb_ and sa_ and tb.kind in "biuf" and op.npfn in _OPMATH:
        # half by a 0-d tensor on its right: PyTorch reads it as a number (its cpu_scalar),
        # in float32 (on the left, it is cast to half first, as NumPy does)
        v = _half_by_number(op.npfn, ad, bd.item() if type(bd) is _ndarray else bd)
    else:
        v = _array_binary(op, ad, bd, (ta, len(sa_)), (tb, len(sb_)))
    if (a._rg or b._rg) and state.grad_enabled:
        return _recorded(op, a, b, need, keep, v, sa_, sb_, shape)
    return _leaf(v)


def _recorded(op, a, b, need, keep, v, sa_, sb_, shape):
    """_tensor_binary's row for result ``v`` of shape ``shape`` (a's shape ``sa_``, b's
    ``sb_``)."""
    tape = tape_for_grad(a, b)
    sa, sb = slot(a, tape, need), slot(b, tape, need)  # both first: a refused b must not
    code, k = op.code, -1  # leave a's EXPAND
    if code in SCALAR_ROWS and state.tracing is not tape:
        # the other operand has out's shape, or is a constant broadcast to it (no EXPAND
        # row: k-means' points (n, 1, d) minus its centroids (1, K, d))
        k = 1 if (sa_ == shape or not a._rg) and _repeats(sb_, shape) else \
            0 if (sb_ == shape or not b._rg) and _repeats(sa_, shape) else -1
    if k >= 0:  # a 0-d or row operand as it is
        code = SCALAR_ROWS[code]
    if sa_ != shape and k != 0:
        sa = expand_slot(tape, a, sa, shape, need)
    if sb_ != shape and k != 1:
        sb = expand_slot(tape, b, sb, shape, need)
    t = output(tape, v, code, sa, sb, k, keep)
    return t if state.tracing is None else TRACE_HOOKS["truth"](t)


def _repeats(small, shape):
    """Whether an operand of shape ``small`` broadcast to ``shape`` repeats its values along
    ``shape``'s leading dims (0-d, or a trailing row such as a bias): MUL_S/ADD_S/SUB_S read it
    as it is.  Not when it is empty (no repeat count) or has ``shape`` itself."""
    i = 0
    while i < len(small) and small[i] == 1:
        i += 1
    tail = small[i:]
    return small != shape and 0 not in tail and tail == shape[len(shape) - len(tail):]


def _array_binary(op, ad, bd, ta, tb):
    if op.name == "sub" and dtypes.bool in (ta[0], tb[0]):
        raise RuntimeError(_BOOL_SUB_BOTH if ta[0] == tb[0] else _BOOL_SUB)
    rd = dtypes.result_type(ta, tb)
    if op.float_result and rd.kind != "f":
        rd = dtypes.default_float()  # (int / int: the default dtype, as PyTorch)
    x = dtypes.wrapped(ad, rd)  # (a Python int beyond an integer dtype wraps, as in PyTorch)
    y = dtypes.wrapped(bd, rd)
    return norm(_np(op.npfn, x, y).astype(rd, copy=False))
