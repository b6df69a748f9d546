"""Comparisons and guards: what replay needs to notice control flow.

Eagerly, comparisons give bool tensors and record nothing (they have no gradient).
While ``tapegrad.trace`` records a function, a comparison on a traced value records a
CMP row, and Python's decisions on traced values record GUARD rows: ``bool(t)`` (an
``if``) checks the truth value, ``float(t)``/``t.item()``/``int(t)`` check the exact
value.  Replay evaluates every guard at every point and flags points that diverge
(``bad[p]`` = 1 + the guard's number), so a replayed tape never silently takes the
branch it recorded at a point where the function would take another.

Values that leave the gradient path are recorded too while tracing: ``detach()``/``.data``
of a traced value, ``tensor(t)`` of one, and every op under ``no_grad`` on one give
STOP_GRAD rows, which replay like a copy and pass no gradient back (see there).
"""
import builtins
import math
import sys
import weakref

import numpy as np

from .. import dtypes
from .._jit import rule
from .._state import anomaly, state
from ..tape import OP_MASK, Tape, set_site_rows
from ..tensor import TRACE_HOOKS, EagerOnlyError, Tensor, _leaf, _settled, _wrap_dims, norm
from ._record import output, slot, tape_for_grad
from . import layout
from .registry import ZERO, api, declare, graph_inputs, no_gradient
from .strided import broadcast_error, broadcast_shape, expand_slot

KINDS = ("lt", "le", "gt", "ge", "eq", "ne")
_NP = (np.less, np.less_equal, np.greater, np.greater_equal, np.equal, np.not_equal)


@rule
def compare(x, y, kind):
    if kind == 0:
        return x < y
    if kind == 1:
        return x <= y
    if kind == 2:
        return x > y
    if kind == 3:
        return x >= y
    if kind == 4:
        return x == y
    return x != y


# ---- cmp: x (kind) y, 1.0 or 0.0; no gradient flows through it ---------------------------
CMP, CMP_C = 27, 28  # CMP: aux = kind; CMP_C: aux -> meta [kind, const index]


@rule
def cmp_fwd(vals, o, a, b, n, kind):
    for i in range(n):
        vals[o + i] = 1.0 if compare(vals[a + i], vals[b + i], kind) else 0.0


def _cmp_kind(lay, kind):
    # compare() reads any other kind as "ne", the fused tier's table not at all: one
    # file, two functions (a kind of -2 was "ne" interpreted, "eq" fused)
    lay.check_each((kind < 0) | (kind >= len(KINDS)), lambda i: f"comparison kind "
                   f"{int(kind[i])} is not one of 0..{len(KINDS) - 1} {KINDS}")


declare(CMP, "CmpBackward0", aux="int", fwd=cmp_fwd, vjp=no_gradient, tan=ZERO, curv=ZERO,
        check=layout.both(layout.elementwise(), lambda lay, R: _cmp_kind(lay, R[:, 4])))


@rule
def cmp_c_fwd(vals, o, a, c, n, kind):
    for i in range(n):
        vals[o + i] = 1.0 if compare(vals[a + i], c, kind) else 0.0


def _cmp_c_layout(lay, R):
    kind, c = lay.fields(R[:, 4], 2).T
    _cmp_kind(lay, kind)
    lay.const_index(c)


declare(CMP_C, "CmpBackward0", aux="meta", fwd=cmp_c_fwd, vjp=no_gradient,
        check=layout.both(layout.elementwise(), _cmp_c_layout),
        tan=ZERO, curv=ZERO)


def _make_compare(kind):
    npfn = _NP[kind]

    def fn(input, other):
        ad = np.asarray(input._data)
        if isinstance(other, Tensor):
            od = other._data
            if (ad.ndim == 0) is not (type(od) is float or od.ndim == 0):
                ad, od = _zero_d_float(ad, od)
        else:
            od = other
        if type(od) is int and ad.dtype.kind in "iu":  # PyTorch casts the number to the
            od = dtypes.wrapped(od, ad.dtype)  # tensor's dtype first (uint8 == 1000 is == 232)
        try:
            v = norm(npfn(ad, od))
        except ValueError:  # (PyTorch's error where the shapes do not broadcast)
            broadcast_shape(KINDS[kind], np.shape(ad), np.shape(od))
            raise
        tape = state.tracing
        if tape is None or not (_traced(input, tape) or _traced(other, tape)):
            return _leaf(v)
        for t in (input, other):  # (replay compares int64 values as float64: exact below 2**53)
            if isinstance(t, Tensor) and t.dtype.itemsize == 8 and t.dtype.kind in "iu" and \
                    _traced(t, tape):
                TRACE_HOOKS["exact_int"](t)
        if isinstance(other, Tensor):
            shape = broadcast_shape(KINDS[kind], input.shape, other.shape)
            sa = expand_slot(tape, input, slot(input, tape), shape)
            sb = expand_slot(tape, other, slot(other, tape), shape)
            t = output(tape, v, CMP, sa, sb, kind)
        else:
            k = tape.push_meta((kind, tape.const(float(other))))
            t = output(tape, v, CMP_C, slot(input, tape), -1, k)
        return t  # requires grad while tracing, so ops on it record too (gradient 0)

    fn.__name__ = KINDS[kind]
    return fn


lt, le, gt, ge, eq, ne = (api(_make_compare(k)) for k in range(6))


def _zero_d_float(ad, od):
    """A 0-d float tensor compared with a dimensioned float one is cast to the other's dtype
    first, as PyTorch promotes (half(x) == tensor(0.1) compares with half(0.1)); NumPy would
    widen both, and reads a Python float (a 0-d float64 tensor) so on the right only."""
    a, o = np.asarray(ad), np.asarray(od)
    if a.dtype.kind != "f" or o.dtype.kind != "f" or a.dtype == o.dtype:
        return ad, od
    return (a.astype(o.dtype), od) if a.ndim == 0 else (ad, o.astype(a.dtype))


# ---- boolean logic and whole-tensor tests: eager (NumPy's), and refused while tracing a
# traced value (escape: replay could not follow them), never silently replayed -------------
def _eager(op, *ts):
    for t in ts:
        if isinstance(t, Tensor):
            escape(t, f"{op}()")
    return [np.asarray(t._data) if isinstance(t, Tensor) else t for t in ts]


def _logical(name, npfn):
    def fn(input, other):
        a, b = _eager(name, input, other)
        broadcast_shape(name, np.shape(a), np.shape(b))  # (PyTorch's error, not NumPy's)
        return _leaf(norm(npfn(a.astype(bool), np.asarray(b).astype(bool))))
    fn.__name__ = name
    fn.__doc__ = f"Elementwise ``{name}`` of the truth values (a bool tensor)."
    return api(fn)


logical_and = _logical("logical_and", np.logical_and)
logical_or = _logical("logical_or", np.logical_or)
logical_xor = _logical("logical_xor", np.logical_xor)


@api
def logical_not(input):
    """Elementwise ``not`` of the truth values (a bool tensor)."""
    (a,) = _eager("logical_not", input)
    return _leaf(norm(np.logical_not(a.astype(bool))))


_SHIFTS = {"bitwise_left_shift": "lshift", "bitwise_right_shift": "rshift"}  # (kernels)


def _is_bool(x):
    """A bool tensor or Python bool (as given: _eager's values take a tensor's dtype)."""
    return x.dtype.kind == "b" if isinstance(x, Tensor) else isinstance(x, (bool, np.bool_))


def bitwise(name, npfn):
    """``& | ^`` (and ``~``) of bool or integer tensors, as PyTorch's operators."""
    def fn(input, other=None):
        args = _eager(name, input, *(() if other is None else (other,)))
        floats = [x for x in args if np.asarray(x).dtype.kind not in "biu"]  # (all: ours)
        if floats:  # PyTorch names the operands' float dtype (a Python float: the default)
            f = floats[0]
            dt = dtypes.default_float() if isinstance(f, builtins.float) else np.asarray(f).dtype
            raise NotImplementedError(f'"{name}_cpu" not implemented for '
                                      f"'{dtypes.torch_name(dt)}'")
        if name in _SHIFTS and _is_bool(input) and _is_bool(other):
            raise NotImplementedError(f'"{_SHIFTS[name]}_cpu" not implemented for \'Bool\'')
        if len(args) == 2:  # a Python int takes the tensor's integer dtype, as in PyTorch
            for i in (0, 1):  # (wrapped: uint8 & 1000 is & 232)
                t = np.asarray(args[1 - i])
                if type(args[i]) is int and t.dtype.kind in "iu":
                    args[i] = dtypes.wrapped(args[i], t.dtype)
        try:
            return _leaf(norm(npfn(*args)))
        except ValueError:  # (NumPy's broadcast error: PyTorch's words)
            broadcast_error(name, (input, other))
            raise
    fn.__name__ = name
    return fn


def invert(input):
    """``~x``: bitwise_not, whose operator refuses floats with a TypeError of its own."""
    if isinstance(input, Tensor) and input.dtype.kind not in "biu":
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")
    return _bitwise_not(input)


_bitwise_not = bitwise("bitwise_not", np.invert)


def _axes(a, dim, op):
    """any/all's ``dim`` as NumPy's axis, checked in PyTorch's words (a 0-d input takes 0
    and -1, as one of one element)."""
    if dim is None or type(dim) is int and -a.ndim <= dim < a.ndim:
        return dim
    dims = _wrap_dims(dim, a.ndim, op)
    return tuple(dims) if a.ndim else None


def _truth(fn, op, input, dim, keepdim):
    """any/all: bool, but uint8 for a uint8 input (PyTorch's legacy rule)."""
    (a,) = _eager(op, input)
    r = fn(a, axis=_axes(a, dim, op), keepdims=keepdim)
    return _leaf(norm(r.astype(np.uint8) if a.dtype == np.uint8 else r))


@api
def all(input, dim=None, keepdim=False, *, keepdims=None):  # noqa: A001 (PyTorch's name)
    """True where every element (along ``dim``) is nonzero."""
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    return _truth(np.all, "all", input, dim, keepdim)


@api
def any(input, dim=None, keepdim=False, *, keepdims=None):  # noqa: A001 (PyTorch's name)
    """True where some element (along ``dim``) is nonzero."""
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    return _truth(np.any, "any", input, dim, keepdim)


@api
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``|input - other| <= atol + rtol * |other|`` elementwise (a bool tensor)."""
    a, b = _eager("isclose", input, other)
    broadcast_shape("isclose", np.shape(a), np.shape(b))  # (PyTorch's error, not NumPy's)
    return _leaf(norm(np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


@api
def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True if ``isclose`` holds everywhere (a Python bool, as PyTorch's)."""
    a, b = _eager("allclose", input, other)
    broadcast_shape("allclose", np.shape(a), np.shape(b))  # (PyTorch's error, not NumPy's)
    return bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


@api
def equal(input, other):
    """True if both have the same shape and elements (a Python bool, as PyTorch's)."""
    a, b = _eager("equal", input, other)
    return a.shape == np.shape(b) and bool(np.array_equal(a, b))


# ---- value tests, as comparisons (so a traced value's test is a CMP row that replays) -------
@api
def isnan(input):
    """True where ``input`` is NaN (the one value unequal to itself)."""
    return ne(input, input)


@api
def isinf(input):
    """True where ``input`` is +inf or -inf."""
    r = _of_bools(input, False)
    return eq(abs(input), math.inf) if r is None else r


@api
def isfinite(input):
    """True where ``input`` is neither inf nor NaN (``x - x`` is 0 exactly there)."""
    r = _of_bools(input, True)
    return eq(input - input, 0.0) if r is None else r


def _of_bools(input, value):
    """isinf's or isfinite's answer for a bool tensor (which has no abs nor `-`), else None."""
    if isinstance(input, Tensor) and input.dtype.kind == "b":
        return _leaf(np.full(tuple(input.shape), value))
    return None


def _traced(t, tape):
    return isinstance(t, Tensor) and t._rg and (t._gen == tape.gen or t._tok is not None)


# ---- guards: Python decided something from a traced value ---------------------------
GUARD, GUARD_EQ = 29, 30  # aux -> meta [expected truth (GUARD) or const index, guard number]


@rule
def guard_fwd(vals, meta, a, k, w, bad):
    # the truth value at each point must be the recorded one
    expect = meta[k] != 0
    for p in range(w):
        if (vals[a + p] != 0.0) != expect and bad[p] == 0:
            bad[p] = 1 + meta[k + 1]


def _guard_rows(eq):
    def check(lay, R):
        lay.no_output(R[:, 1])
        a = R[:, 2]
        n = lay.sizes(a, "in0")
        lay.check_each(n != 1, lambda i: f"a guard reads one element; slot {int(a[i])} has "
                                         f"{int(n[i])}")
        value, number = lay.fields(R[:, 4], 2).T
        if eq:
            lay.const_index(value)
        lay.check_each((number < 0) | (number >= lay.nguards), lambda i: f"guard number "
                       f"{int(number[i])} is out of range (the trace has {lay.nguards} guards)")
    return check


declare(GUARD, "Guard", aux="meta", fwd=guard_fwd, check=_guard_rows(False), tan=ZERO, curv=ZERO)


@rule
def guard_eq_fwd(vals, consts, meta, a, k, w, bad):
    # the value at each point must be the recorded one, exactly (nan matches nan), its sign
    # too: -0.0 == 0.0, but f may tell them apart (copysign, 1 / x, atan2, str)
    c = consts[meta[k]]
    for p in range(w):
        x = vals[a + p]
        if (x != c or math.copysign(1.0, x) != math.copysign(1.0, c)) and \
                not (x != x and c != c) and bad[p] == 0:
            bad[p] = 1 + meta[k + 1]


declare(GUARD_EQ, "Guard", aux="meta", fwd=guard_eq_fwd, check=_guard_rows(True),
        tan=ZERO, curv=ZERO)


def guard(t, how):
    """Called by Tensor.__bool__/item/__float__/__int__ while tracing: record the decision."""
    tape = state.tracing
    if tape is None or not _traced(t, tape):
        return
    if t.numel() != 1:
        return  # bool()/item() of a multi-element tensor raises right after this
    value = float(np.asarray(t._data).reshape(()))
    frame = sys._getframe(2)
    while frame is not None and frame.f_globals.get("__name__", "").startswith("tapegrad."):
        frame = frame.f_back
    where = f"{frame.f_code.co_filename}:{frame.f_lineno}" if frame else "?"
    number = len(tape.guards)
    tape.guards.append(f"{how} at {where}")
    if how == "bool":
        k = tape.push_meta((int(value != 0.0), number))
        tape.rbuf.extend((GUARD, -1, slot(t, tape), -1, k))
    else:
        k = tape.push_meta((tape.const(value), number))
        tape.rbuf.extend((GUARD_EQ, -1, slot(t, tape), -1, k))


def escape(t, how, hint="Keep the computation in tapegrad ops, or use float(t)/t.item()/"
           "bool(t), which are recorded as guards."):
    """Called where a traced value would leave the tape (NumPy, lists): refuse while tracing
    (an EagerOnlyError: ``compile(f)`` called with tensors runs f eagerly instead, as
    torch.compile breaks its graph)."""
    tape = state.tracing
    if tape is not None and _traced(t, tape):
        raise EagerOnlyError(
            f"tapegrad.trace: {how} of a traced tensor (shape {tuple(t.shape)}) takes its values "
            f"out of the tape, so replay could not follow them. {hint}")


TRACE_HOOKS.update(guard=guard, escape=escape)  # Tensor.item(), bool(t), np.asarray(t)...


# ---- stop_grad: a traced value off the gradient path (detach, .data, tensor(t), no_grad) --
# Eagerly detach() records nothing (its result is a constant).  While tracing, a value
# computed from the inputs must replay whatever way it was computed, so detach() of a
# traced value records this row: its forward copies its input, and its reverse passes
# nothing back, nor marks its input reached: the rows above it are not swept at all, so no
# 0 * inf of theirs can reach the inputs (test_trace_stopgrad.py::
# test_rows_above_a_stop_are_not_swept), as PyTorch never visits them.  Its output requires
# grad while tracing, so ops on it record too (gradient 0), as CMP's does.
STOP_GRAD = 32


@rule
def stop_grad_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = vals[a + i]


declare(STOP_GRAD, "DetachBackward0", fwd=stop_grad_fwd, vjp=no_gradient, tan=ZERO, curv=ZERO)


def stop_gradient(t, alias=True):
    """``t.detach()`` while tracing: a STOP_GRAD row if t is traced, else None (a plain
    detach: t is a constant of f).  ``alias``: the result stands for a view of t's memory
    (detach, .data), not a copy (tensor(t))."""
    tape = state.tracing
    if tape is None or not _traced(t, tape):
        return None
    d = output(tape, _settled(t), STOP_GRAD, slot(t, tape))
    _stopped(tape).add(d._slot)
    if alias:
        if "aliases" not in tape.__dict__:
            tape.aliases = set()
        tape.aliases.add(d._slot)
        # t's slot -> the alias slots copied from it: an in-place change of t changes them
        # too (ops/inplace.py _log_mutation), also once the alias is gone
        tape.note_alias(t._slot, d._slot)
    return d


def stopped(t):
    """``t`` through a STOP_GRAD row, also eagerly: the rows before it replay, and no
    gradient flows back into them (an input reached only through it is unused)."""
    if not (t._rg and state.grad_enabled):
        return t
    s = stop_gradient(t, alias=False)  # (while tracing, with its bookkeeping)
    if s is not None:
        return s
    tape = tape_for_grad()
    return output(tape, t._data, STOP_GRAD, slot(t, tape))


def set_requires_grad(t, flag):
    """``t.requires_grad_(flag)`` of a traced ``t`` while tracing, or None (as eagerly).
    A value off the gradient path (detach, .data, no_grad) is eagerly a leaf: False leaves
    it be, True makes a leaf whose gradient f's inputs never see, as its stop row does.
    An input turned off becomes its stop-gradient copy (detach_), so ops on it replay; on
    again, it cannot be joined to the input it was: refused."""
    tape = state.tracing
    if not _traced(t, tape):
        return None
    if t._slot in tape.stopped and t._gen == tape.gen:
        if flag and t._slot in tape.__dict__.get("unlinked", ()):
            raise RuntimeError(
                "tapegrad.trace: requires_grad_(True) of an input of f after its "
                "requires_grad_(False): replay cannot join it to the input again. Use "
                "d = x.detach() for the values without gradient, and keep x")
        return t
    if t._tok is None and not flag:
        t.detach_()
        tape.__dict__.setdefault("unlinked", set()).add(t._slot)
        return t
    return None


def _stopped(tape):
    """The slots of ``tape`` that STOP_GRAD rows write (ops/inplace.py: in-place ops on them
    under no_grad are fine while tracing, unless they stand for an alias: ``aliases``)."""
    if "stopped" not in tape.__dict__:
        tape.stopped = set()
    return tape.stopped


class _NoGradRows(list):
    """A tracing tape's pending-rows list while grad mode is off (``no_grad``,
    ``set_grad_enabled(False)``, ``inference_mode``): ops on traced values still record
    (replay must compute them), and this list gives each such row a hidden output slot and
    a STOP_GRAD row from it to the op's own, so the op's result carries no gradient.  Every
    op appends its row with one ``tape.rbuf.extend(...)`` (as anomaly mode's
    ``tape._SiteRows``), so no op needs a check of its own and eager recording pays
    nothing."""

    __slots__ = ("tape",)

    def extend(self, rows):
        tape = self.tape()
        for j in range(0, len(rows), 5):
            op, o, a, b, k = rows[j:j + 5]
            if o < 0 or op == STOP_GRAD:  # guards; detach() inside no_grad
                list.extend(self, (op, o, a, b, k))
                continue
            v = tape.slot_values(o)  # (flushes this list: the rows so far keep their order)
            shape = tape.shapes.get(o)
            h = tape.push_scalar(float(v[0])) if shape is None else \
                tape.push_array(v.reshape(shape))
            list.extend(self, (op, h, a, b, k, STOP_GRAD, o, h, -1, -1))
            _stopped(tape).add(o)
            tape.__dict__.setdefault("unrecorded", set()).add(h)  # (eagerly: no row)
            if state.inference:  # an inference tensor eagerly: replay's saved_inference
                tape.__dict__.setdefault("inference", set()).add(o)


def _set_grad_mode(tape, enabled):
    """Grad mode while ``tape`` traces (grad_mode.py): ops keep recording, through
    _NoGradRows while it is off; ``tape.grad_mode`` is the mode user code sees."""
    tape.grad_mode = bool(enabled)
    off = type(tape.rbuf) is _NoGradRows
    if not enabled and not off:
        rbuf = _NoGradRows(tape.rbuf)
        rbuf.tape = weakref.ref(tape)
        tape.rbuf = rbuf
    elif enabled and off:
        tape.rbuf = list(tape.rbuf)
        set_site_rows(tape, anomaly.enabled)


def _constant_row(tape, a):
    return output(tape, a, STOP_GRAD, tape.push_array(a.copy()))


def no_derivative_traced(name, error, values, inputs):
    """An op without a derivative (floor_divide, heaviside, unique...) while tracing:
    ``values`` (arrays, or tensors f's rows computed) as f's values, and a note on the tape
    when grad mode is on and an input is traced: eagerly its result requires grad when an
    input does, and a backward reaching it raises ``error``.  The note is (the result's
    slot, the traced inputs' slots, the error as "Type: message"); replay reads it
    (``replay.no_derivative_notes``) and refuses a gradient whose sweep reaches the slot
    from inputs eager would have requiring grad.  Arrays become rows (a STOP_GRAD copy of
    a constant) so that the note has a slot to name."""
    tape = state.tracing
    ins = [t._slot for t in inputs if isinstance(t, Tensor) and t._rg and t._gen == tape.gen]
    if not ins or not tape.grad_mode:
        return tuple(v if isinstance(v, Tensor) else _leaf(norm(v)) for v in values)
    outs = tuple(v if isinstance(v, Tensor) else _constant_row(tape, norm(v)) for v in values)
    text = f"{type(error).__name__}: {error}"
    notes = tape.__dict__.setdefault("no_derivative", [])
    notes.extend((t._slot, tuple(ins), text) for t in outs)
    return outs


def eager_notes(tape, rows, meta, nslots, roots):
    """(slot, "Type: message") of the tape's values made by an op without a derivative
    (``no_derivative_traced``) from values that eager would have requiring grad.  While
    tracing, every value computed from the inputs requires grad (that is how it records);
    eagerly one requires grad when an op with a gradient made it from one that does,
    starting from ``roots`` (slots): not past a detach or no_grad (STOP_GRAD rows), nor an
    integer or bool result (a comparison, argmax, sort's indices, an integer cast).  Only a
    tape with notes pays this one pass over its rows."""
    notes = tape.__dict__.get("no_derivative")
    if not notes:
        return []
    dts = tape.__dict__.get("dtypes") or {}
    rg = np.zeros(nslots, bool)
    rg[list(roots)] = True
    made = {s: ins for s, ins, _ in notes}
    for r in np.nonzero(rows[:, 1] >= 0)[0].tolist():
        o = int(rows[r, 1])
        if o in made:  # (eagerly one node of its inputs, whatever rows compute it)
            rg[o] = builtins.any(rg[i] for i in made[o])  # (any: the op, here)
        elif int(rows[r, 0]) & OP_MASK == STOP_GRAD or (o in dts and dts[o].kind in "biu"):
            rg[o] = False
        else:
            rg[o] = builtins.any(rg[i] for i in graph_inputs(rows, meta, r))
    return [(s, text) for s, ins, text in notes if rg[s]]


def no_derivative_error(text):
    """The exception of a note's "Type: message" (eager's, ``not_differentiable``)."""
    kind, _, msg = text.partition(": ")
    return (NotImplementedError if kind == "NotImplementedError" else RuntimeError)(msg)


def swept_notes(tape, rows, meta, reach, inputs=None):
    """A backward or autograd.grad inside f while it is traced (autograd/engine.py): eager
    backward's error where the sweep reached a noted value (the last made first), from
    f's inputs and the leaves it made.  With ``inputs`` (autograd.grad's), only values on
    a path from them count, as PyTorch runs only the nodes needed for them (``z // 2``
    beside, asked for x alone, raised while traced where eager answered)."""
    roots = [t._slot for t in getattr(tape, "inputs", ())] + [s for s, _ in tape.leaves]
    notes = eager_notes(tape, rows, meta, len(reach), roots)
    if not notes:
        return
    made = np.nonzero(rows[:, 1] >= 0)[0].tolist()
    on = np.ones(len(reach), bool)
    if inputs:  # the values made from them (through every row but a stop; a noted value
        # from its op's inputs, eagerly one node, whatever rows compute it: eager_notes)
        on[:] = False
        on[[s for t in inputs for s in tape.slots_of(t)]] = True
        ops = {s: ins for s, ins, _ in tape.__dict__["no_derivative"]}
        for r in made:
            o = int(rows[r, 1])
            ins = ops[o] if o in ops else () if int(rows[r, 0]) & OP_MASK == STOP_GRAD \
                else graph_inputs(rows, meta, r)
            on[o] |= builtins.any(on[i] for i in ins)
    reach[~on] = 0
    # on from the slots the adjoints reached, through every row but a stop: the sweep
    # skipped rows no row joins to the inputs (scatter's value, a copy of a constant),
    # whose node eagerly leads to them
    for r in made[::-1]:
        if reach[rows[r, 1]] and int(rows[r, 0]) & OP_MASK != STOP_GRAD:
            ins = graph_inputs(rows, meta, r)
            reach[[i for i in ins if on[i]]] = 1
    for s, text in reversed(notes):
        if reach[s]:
            raise no_derivative_error(text)


Tape.grad_mode = True  # the grad mode user code sees while this tape traces
Tape.stopped = Tape.aliases = frozenset()  # (a tracing tape's own sets: stop_gradient)
Tape.set_grad_mode = _set_grad_mode
TRACE_HOOKS.update(detach=stop_gradient,  # Tensor.detach(), .data, detach_(), tensor(t)
                   requires_grad=set_requires_grad, no_derivative=no_derivative_traced,
                   swept=swept_notes)
