"""``tapegrad.autograd.Function``: custom ops whose backward is written in Python.

>>> import tapegrad as tg
>>> class Cube(tg.autograd.Function):
...     @staticmethod
...     def forward(ctx, x):
...         ctx.save_for_backward(x)
...         return x ** 3
...     @staticmethod
...     def backward(ctx, grad):
...         x, = ctx.saved_tensors
...         return grad * 3 * x ** 2
>>> x = tg.tensor(2.0, requires_grad=True)
>>> y = Cube.apply(x)
>>> y
tensor(8., grad_fn=<CubeBackward>)
>>> y.backward()
>>> x.grad
tensor(12.)

One apply records one CUSTOM row (ops/custom.py gives the layout) and keeps its Python side
in ``tape.custom[row]``, a ``CustomRecord``.  The compiled sweep stops at that row, the
engine calls ``run_backward`` (which calls ``CustomRecord.backward``), and the sweep goes on
below it.  Everything else stays in compiled code.

Forward mode (``func.jvp``, ``autograd.forward_ad``): the tangent sweep stops at the row too
and ``run_jvp`` calls the Function's ``jvp(ctx, *tangents)`` staticmethod, which reads what
``ctx.save_for_forward`` kept as ``ctx.saved_tensors``, as PyTorch's.

Saved tensors and the tape's lifetime: a tape resets when no non-leaf of it lives (tape.py),
and ``tape.custom`` is part of the tape, so a record must not hold a non-leaf of its own tape
(it would keep itself alive).  ``save_for_backward`` therefore keeps a non-leaf as its value,
slot and version counter and rebuilds it on ``ctx.saved_tensors``; leaves are kept as they
are.  Non-leaves stored as plain ctx attributes (``ctx.y = y``) keep the tape alive as long
as the graph lives: use ``save_for_backward`` for tensors, as PyTorch advises.
"""
import functools
import threading
import warnings
import weakref

import numpy as np

from .._state import anomaly, state
from ..grad_mode import keeps_grad_mode, no_grad
from ..ops._record import push_value, slot, tape_for_grad
from ..ops.custom import record
from ..ops import views
from ..ops.inplace import _bump, _counter
from ..tape import SECOND_TIME
from ..tensor import EagerOnlyError, Tensor, _leaf, _nonleaf, norm
from .anomaly import _nan_error
from .saved import _modified_message


MISSING_JVP = ("You must implement the jvp function for custom autograd.Function to use it "
               "with forward mode AD.")  # (PyTorch's words)


def _second_time():
    return RuntimeError(SECOND_TIME)


class _Transforms(threading.local):
    """``torch.func`` transforms running a function on this thread (func.py): all of them,
    and those PyTorch runs as a vmap (vmap, jacfwd). A program's Function called inside
    must meet PyTorch's rules for them (_check_transformable)."""
    every = 0
    batched = 0


TRANSFORMS = _Transforms()
_EXTENDING = "For more details, please see https://pytorch.org/docs/main/notes/extending.func.html"


def _check_transformable(cls):
    """PyTorch's refusals of a custom Function inside a transform: one whose forward takes
    ctx (no setup_context), and, inside vmap or jacfwd, one without a vmap rule.  (tapegrad's
    own Functions stand for PyTorch's built-in ops, which every transform takes.)"""
    if cls.__module__.startswith("tapegrad."):
        return
    if cls.setup_context is Function.setup_context:
        raise RuntimeError("In order to use an autograd.Function with functorch transforms "
                           "(vmap, grad, jvp, jacrev, ...), it must override the setup_context "
                           f"staticmethod. {_EXTENDING}")
    if TRANSFORMS.batched and not getattr(cls, "generate_vmap_rule", False) and \
            getattr(cls, "vmap", None) is None:
        raise RuntimeError(f"You tried to vmap over {cls.__name__}, but it does not have vmap "
                           "support. Please override and implement the vmap staticmethod or "
                           f"set generate_vmap_rule=True. {_EXTENDING}")


class FunctionCtx:
    """The ``ctx`` that ``forward`` and ``backward`` receive (PyTorch's FunctionCtx)."""

    def __init__(self):
        self.needs_input_grad = ()
        self.materialize_grads = True
        self.to_save = ()
        self.non_differentiable = ()
        self.dirty_tensors = ()
        self._saved = None  # packed by apply (see the module docstring)
        self._tape = None
        self._freed = False
        self._for_forward = ()  # save_for_forward's tensors (their values: no tape kept)
        self._in_jvp = False

    def save_for_backward(self, *tensors):
        """Keep tensors (or None) for ``backward``, read back as ``ctx.saved_tensors``; an
        in-place change of one before backward raises PyTorch's version-counter error."""
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(f"save_for_backward can only save variables, but argument {i} "
                                f"is of type {type(t).__name__}")
        self.to_save = tensors

    def save_for_forward(self, *tensors):
        """Keep tensors (or None) for ``jvp``, read back there as ``ctx.saved_tensors``."""
        for t in tensors:
            if not (t is None or isinstance(t, Tensor)):
                raise AssertionError("save_for_forward expects all arguments to be tensors; "
                                     "you should save non-tensors as attributes on ctx.")
        self._for_forward = tuple(None if t is None else t.detach() for t in tensors)

    @property
    def saved_tensors(self):
        if self._in_jvp:
            return self._for_forward
        if self._freed:
            raise _second_time()
        if self._saved is None:  # not recorded (no input requires grad): kept as given
            return tuple(self.to_save)
        tape = self._tape()
        return tuple(_unpack(p, tape) for p in self._saved)

    def mark_non_differentiable(self, *tensors):
        """Outputs that get no gradient: they do not require grad, and backward gets
        zeros (or None, without materialized grads) for them."""
        for t in tensors:
            if not isinstance(t, Tensor):
                raise TypeError("mark_non_differentiable only accepts Tensors, got "
                                f"{type(t).__name__}")
        self.non_differentiable = tensors

    def set_materialize_grads(self, value):
        """With False, backward gets None (not zeros) for outputs that got no gradient."""
        self.materialize_grads = bool(value)

    def mark_dirty(self, *tensors):
        """Inputs that forward modified in place and returns: their history moves onto
        this op, as an in-place op's does (ops/inplace.py)."""
        for t in tensors:
            if not isinstance(t, Tensor):
                raise TypeError(f"mark_dirty only accepts Tensors, got {type(t).__name__}")
        self.dirty_tensors = tensors


class Function:
    """Base class of custom ops: subclass it with static ``forward(ctx, *args)`` and
    ``backward(ctx, *grad_outputs)``, and call ``.apply(*args)``.  See the module
    docstring for an example."""

    def __init__(self, *args, **kwargs):
        warnings.warn(f"{type(self)} should not be instantiated. Methods on autograd functions "
                      "are all static, so you should invoke them on the class itself. "
                      "Instantiating an autograd function will raise an error in a future "
                      "version of PyTorch.", DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):  # (an instance is a legacy Function: PyTorch's word)
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        """PyTorch 2's optional split: ``forward(*args)`` without ctx, then this."""
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward mode "
                                  "AD.")

    @staticmethod
    def jvp(ctx, *grad_inputs):
        """Forward mode: the outputs' tangents from the inputs' (one per forward argument,
        None for a non-tensor one), reading ``ctx.save_for_forward``'s tensors as
        ``ctx.saved_tensors``; run by the tangent sweep (autograd/tangent.py)."""
        raise NotImplementedError(MISSING_JVP)

    @classmethod
    @keeps_grad_mode
    def apply(cls, *args, **kwargs):
        """Run ``forward`` (under no_grad) and record one tape row whose backward is
        ``cls.backward``."""
        if state.tracing is not None:  # (called with tensors, compile(f) runs f eagerly)
            raise EagerOnlyError(
                f"tapegrad.trace: the custom autograd.Function {cls.__name__} cannot be traced: "
                "its backward runs in Python, and replay evaluates whole batches in compiled "
                "code without Python per point.  Write it from tapegrad ops instead (then it "
                "needs no backward), or call it eagerly (tapegrad.autograd.grad) in a loop.")
        if TRANSFORMS.every:
            _check_transformable(cls)
        grad_on = state.grad_enabled
        ctx = FunctionCtx()
        ctx.needs_input_grad = tuple(grad_on and isinstance(a, Tensor) and a._rg for a in args)
        with no_grad():
            if cls.setup_context is not Function.setup_context:
                out = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, out)
            else:
                out = cls.forward(ctx, *args, **kwargs)
        if not any(ctx.needs_input_grad):
            return out
        return _record(cls, ctx, args, out)


def _record(cls, ctx, args, out):
    """Give forward's outputs their slots and the op its rows; returns the outputs."""
    name = getattr(cls, "node_name", None) or cls.__name__ + "Backward"  # (special.py's
    #  functions give PyTorch's own node names: LgammaBackward0)
    outs = list(out) if isinstance(out, tuple) else [out]
    tpos = [i for i, o in enumerate(outs) if isinstance(o, Tensor)]
    if not tpos:
        raise TypeError(f"{cls.__name__}.forward returned {type(out).__name__}; a custom "
                        "Function returns a Tensor or a tuple holding Tensors")
    nondiff = {id(t) for t in ctx.non_differentiable}
    out_ids = {id(outs[i]) for i in tpos}
    if not nondiff <= out_ids:
        raise RuntimeError(f"{cls.__name__}: mark_non_differentiable only accepts output "
                           "tensors of forward")
    dirty = {id(t) for t in ctx.dirty_tensors}
    _check_dirty(cls, ctx.dirty_tensors, dirty <= out_ids)
    diff = [j for j, i in enumerate(tpos)
            if id(outs[i]) not in nondiff and outs[i].dtype.kind == "f"]
    if not diff:  # nothing differentiable comes out: nothing to record
        return out
    tape = tape_for_grad()
    tensor_args = [a for a in args if isinstance(a, Tensor)]
    in_slots = [slot(a, tape) if a._rg else -1 for a in tensor_args]
    out_slots = [push_value(tape, outs[i]._data) for i in tpos]
    row = record(tape, name, [s for s in in_slots if s >= 0], out_slots, diff)
    tok = tape.token()
    arg_ids = {id(a) for a in tensor_args}
    for j in diff:
        i = tpos[j]
        o = outs[i]
        if id(o) in dirty:  # modified in place: rebased onto this op (bumped below)
            pass
        elif id(o) in arg_ids:  # an input returned as is: PyTorch's view of it, made inside
            o = outs[i] = views.custom_view(o, i)  # a custom Function
        elif o._rg or any(outs[k] is o for k in range(i)):
            o = outs[i] = _leaf(o._data)  # (a new tensor, as PyTorch's)
        o._rg = True
        o._slot = out_slots[j]
        o._gen = tape.gen
        o._tok = tok
    for t in ctx.dirty_tensors:
        _bump(t)  # (PyTorch bumps a dirty tensor's version once more as it rebases it)
    ctx._tape = weakref.ref(tape)
    ctx._saved = [_pack(t, tape, outs, tpos, out_slots) for t in ctx.to_save]
    ctx.to_save = ()
    tape.custom[row] = CustomRecord(cls, ctx, name, args, tensor_args, in_slots, outs, tpos,
                                    out_slots, diff)
    return tuple(outs) if isinstance(out, tuple) else outs[0]


def _check_dirty(cls, dirty, all_returned):
    """mark_dirty's tensors, before they are rebased: PyTorch's refusals, and a view's (its
    base would need the new history too: not done here)."""
    if not all_returned:
        raise RuntimeError("Some elements marked as dirty during the forward method were not "
                           "returned as output. The inputs that are modified inplace must all "
                           "be outputs of the Function.")
    for t in dirty:
        if t._rg and t._tok is None:
            raise RuntimeError("a leaf Variable that requires grad has been used in an "
                               "in-place operation.")
        if views.of(t) is not None:
            raise NotImplementedError(
                f"{cls.__name__}: ctx.mark_dirty on a view (of another tensor) is not "
                "supported by tapegrad; pass the tensor itself, or clone the view first")


def _pack(t, tape, outs, tpos, out_slots):
    """A saved tensor as ``(tensor or value, slot, gen, counter, version, is_output)``."""
    if t is None:
        return None
    c = _counter(t)
    for j, i in enumerate(tpos):
        if outs[i] is t:
            return (t._data, out_slots[j], tape.gen, c, c.version, True)
    if t._tok is not None and t._gen == tape.gen:  # a non-leaf of this tape: no reference
        return (t._data, t._slot, tape.gen, c, c.version, False)
    if t._tok is not None:  # from a tape already freed: only its value is still of use
        t = _leaf(t._data)
    return (t, -1, 0, c, c.version, False)


def _unpack(p, tape):
    if p is None:
        return None
    data, s, gen, c, ver, is_output = p
    if c.version != ver:
        where = s if s >= 0 else tape.nslots  # (a slot-less tensor names no producer)
        raise RuntimeError(_modified_message(tape, where, c, ver, is_output))
    if s < 0:
        return data
    t = _nonleaf(data, s, tape, None)
    t._ver = c
    return t


class CustomRecord:
    """The Python side of one custom op's row: ``tape.custom[row]``.

    Interface (used by the eager engine and by create_graph's Python walk of the rows):

    - ``outputs``: the output slots (ints), one per Tensor that forward returned, in
      forward-return order, non-differentiable ones included;
    - ``inputs``: one entry per Tensor argument of forward, in order: its slot, or -1 when
      that argument does not require grad;
    - ``backward(grads)``: ``grads`` holds one Tensor or None per entry of ``outputs`` (None:
      no gradient reached it; zeros are passed instead unless the ctx turned
      ``set_materialize_grads`` off).  Calls the Function's backward under the CURRENT grad
      mode (the caller decides: no_grad for a plain backward, enable_grad for
      create_graph), checks the count and shapes of what it returns with PyTorch's errors,
      and returns one Tensor (in the input's shape and dtype) or None per entry of
      ``inputs``.
    """

    __slots__ = ("fn", "ctx", "name", "outputs", "inputs", "_out_meta", "_out_pos", "_nout",
                 "_in_meta", "_arg_pos", "_nargs")

    def __init__(self, fn, ctx, name, args, tensor_args, in_slots, outs, tpos, out_slots,
                 diff):
        self.fn = fn
        self.ctx = ctx
        self.name = name
        self.outputs = out_slots
        self.inputs = in_slots
        dset = set(diff)
        self._out_meta = [(tuple(outs[i].shape), outs[i].dtype, j in dset)
                          for j, i in enumerate(tpos)]
        self._out_pos = tpos
        self._nout = len(outs)
        self._in_meta = [(tuple(a.shape), a.dtype) for a in tensor_args]
        self._arg_pos = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        self._nargs = len(args)

    def backward(self, grads):
        """Run the Function's backward; see the class docstring."""
        ctx = self.ctx
        full = [None] * self._nout
        for g, pos, (shape, dtype, _) in zip(grads, self._out_pos, self._out_meta, strict=True):
            if g is None and ctx.materialize_grads:
                g = _leaf(norm(np.zeros(shape, dtype)))
            full[pos] = g
        res = self.fn.backward(ctx, *full)
        res = res if isinstance(res, tuple) else (res,)
        return self._check(res)

    def has_jvp(self):
        return self.fn.jvp is not Function.jvp

    def jvp(self, tangents):
        """Run the Function's jvp: ``tangents`` holds an ndarray or None per entry of
        ``inputs`` (zeros are passed for None unless the ctx turned materialize_grads off);
        returns an ndarray (flat, float64) or None per entry of ``outputs``."""
        full = [None] * self._nargs
        for t, pos, (shape, dtype) in zip(tangents, self._arg_pos, self._in_meta, strict=True):
            if t is None and self.ctx.materialize_grads:
                t = np.zeros(shape)
            full[pos] = None if t is None else _leaf(norm(t.reshape(shape).astype(dtype)))
        self.ctx._in_jvp = True
        try:
            res = self.fn.jvp(self.ctx, *full)
        finally:
            self.ctx._in_jvp = False
        res = res if isinstance(res, tuple) else (res,)
        if len(res) != self._nout:
            raise RuntimeError(f"function {self.name} returned an incorrect number of forward "
                               f"gradients (expected {self._nout}, got {len(res)})")
        out = []
        for pos, (shape, _, diff) in zip(self._out_pos, self._out_meta, strict=True):
            t = res[pos]
            if t is not None and not isinstance(t, Tensor):
                raise RuntimeError(f"function {self.name} jvp returned {type(t).__name__}, "
                                   "not a Tensor or None")
            if t is not None and tuple(t.shape) != shape:
                raise RuntimeError(f"Function {self.name} returned an invalid forward "
                                   f"gradient: got {list(t.shape)} but expected {list(shape)}")
            out.append(np.asarray(t._data, np.float64).ravel() if t is not None and diff
                       else None)
        return out

    def _check(self, res):
        """PyTorch's validation of what backward returned: count, types, shapes."""
        n = self._nargs
        if len(res) != n:
            if len(res) > n and all(g is None for g in res[n:]):
                res = res[:n]  # PyTorch accepts trailing Nones
            else:
                raise RuntimeError(f"function {self.name} returned an incorrect number of "
                                   f"gradients (expected {n}, got {len(res)})")
        tensor_pos = set(self._arg_pos)
        for i, g in enumerate(res):
            if i not in tensor_pos and g is not None:
                raise RuntimeError(f"function {self.name} returned a gradient different than "
                                   f"None at position {i + 1}, but the corresponding forward "
                                   "input was not a Variable")
        out = []
        for idx, (pos, s, (shape, dtype)) in enumerate(zip(self._arg_pos, self.inputs,
                                                          self._in_meta, strict=True)):
            g = res[pos]
            if g is not None and not isinstance(g, Tensor):
                raise RuntimeError(f"expected Variable or None (got {type(g).__name__}) as "
                                   f"gradient {idx} returned by function {self.name}")
            if g is None or s < 0:
                out.append(None)
                continue
            gs = tuple(g.shape)
            if gs != shape:
                if not _expandable(shape, gs):
                    raise RuntimeError(
                        f"Function {self.name} returned an invalid gradient at index {idx} - "
                        f"got {list(gs)} but expected shape compatible with {list(shape)}")
                g = _sum_to(g, shape)
            if g.dtype != dtype:
                g = g.to(dtype)
            out.append(g)
        return out


def _expandable(shape, to):
    """True if ``shape`` broadcasts to ``to`` (PyTorch's is_expandable_to)."""
    if len(shape) > len(to):
        return False
    return all(a == b or a == 1 for a, b in zip(reversed(shape), reversed(to), strict=False))


def _sum_to(g, shape):
    """``g`` summed over the axes ``shape`` was broadcast along (recorded when grad is on)."""
    lead = g.ndim - len(shape)
    axes = list(range(lead)) + [lead + i for i, n in enumerate(shape)
                                if n == 1 and g.shape[lead + i] != 1]
    if axes:
        g = g.sum(dim=tuple(axes), keepdim=True)
    return g.reshape(shape)


def run_backward(tape, args, r):
    """The engine's stop at custom row ``r``: read the outputs' adjoints, run the record's
    backward (under no_grad), and add what it returns into the inputs' adjoints."""
    rows, offs, vals, consts, meta, adj, reach = args
    rec = tape.custom.get(r)
    if rec is None:
        raise _second_time()
    grads = []
    for s, (shape, dtype, diff) in zip(rec.outputs, rec._out_meta, strict=True):
        if not (diff and reach[s]):
            grads.append(None)
        elif shape == () and dtype == np.float64:  # a 0-d float64 tensor holds a float
            grads.append(_leaf(float(adj[offs[s]])))
        else:
            grads.append(_leaf(norm(adj[offs[s]:offs[s + 1]].reshape(shape).astype(dtype))))
    with no_grad():
        gin = rec.backward(grads)
    check = anomaly.enabled and anomaly.check_nan
    for i, (s, g) in enumerate(zip(rec.inputs, gin, strict=True)):
        if g is None:
            continue
        d = g._data
        if check and np.isnan(d).any():
            raise _nan_error(tape, r, i)
        if not reach[s]:  # its first gradient (the adjoint buffer is not zeroed beforehand)
            adj[offs[s]:offs[s + 1]] = 0.0
            reach[s] = 1
        if type(d) is float:
            adj[offs[s]] += d
        else:
            adj[offs[s]:offs[s + 1]] += np.asarray(d, np.float64).ravel()


def run_jvp(tape, offs, tan, reach, r):
    """The tangent sweep's stop at custom row ``r``: the record's jvp (under no_grad) from
    its inputs' tangents into its outputs'.  False where the Function has no jvp."""
    rec = tape.custom.get(r)
    if rec is None or not rec.has_jvp():
        return False
    ins = [tan[offs[s]:offs[s + 1]] if s >= 0 and reach[s] else None for s in rec.inputs]
    with no_grad():
        outs = rec.jvp(ins)
    for s, t in zip(rec.outputs, outs, strict=True):
        if t is not None:
            tan[offs[s]:offs[s + 1]] = t
            reach[s] = 1
    return True


ONCE_MESSAGE = ("trying to differentiate twice a function that was marked with "
                "@once_differentiable")  # (PyTorch's words)


class _DelayedError(Function):
    """Passes its inputs through; differentiating through it raises (PyTorch's DelayedError
    node, which once_differentiable puts above a backward's results)."""

    node_name = "Error"  # (PyTorch's name for it)

    @staticmethod
    def forward(ctx, *xs):
        return xs if len(xs) > 1 else xs[0]

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError(ONCE_MESSAGE)


def once_differentiable(fn):
    """Decorate a Function's ``backward`` that is not itself differentiable: it runs under
    no_grad, and under create_graph its results carry a node whose backward raises
    PyTorch's "trying to differentiate twice" error instead of silently giving zero."""

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with no_grad():
            outputs = fn(ctx, *args)
        if not (state.grad_enabled and any(isinstance(a, Tensor) and a._rg for a in args)):
            return outputs
        single = not isinstance(outputs, tuple)
        outs = (outputs,) if single else outputs
        pos = [i for i, o in enumerate(outs) if isinstance(o, Tensor)]
        if not pos:
            return outputs
        passed = [o.detach().requires_grad_(o.dtype.kind == "f") for o in (outs[i] for i in pos)]
        wrapped = _DelayedError.apply(*passed)
        wrapped = wrapped if isinstance(wrapped, tuple) else (wrapped,)
        res = list(outs)
        for i, w in zip(pos, wrapped, strict=True):
            res[i] = w
        return res[0] if single else tuple(res)

    return wrapper


def not_differentiable(name, *values, node_name="torch::autograd::NotImplemented",
                       error=None):
    """A Function giving ``values`` as tensors that require grad when an input does, whose
    backward raises PyTorch's error for an op without a derivative (``aten::name``, or
    ``error``): the node PyTorch shows as ``NotImplemented`` (ldl_factor, floor_divide) or,
    for a few ops, by a name of its own (``node_name``: unique's ``Unique2Backward0``)."""
    class _NoDerivative(Function):
        @staticmethod
        def forward(ctx, *inputs):
            outs = tuple(_leaf(norm(v)) for v in values)
            return outs if len(outs) > 1 else outs[0]

        @staticmethod
        def backward(ctx, *grads):
            if error is not None:  # (a new one each time: one raised twice grows its traceback)
                raise type(error)(*error.args)
            raise RuntimeError(f"derivative for aten::{name} is not implemented")

    _NoDerivative.node_name = node_name
    return _NoDerivative


def free_records(tape, rows, reach, lo, hi):
    """After a backward without retain_graph swept rows ``lo .. hi-1``: the custom rows it
    went through drop their saved tensors, and ``ctx.saved_tensors`` then raises PyTorch's
    error (whether or not anything was saved, as PyTorch's); a backward that does not read
    them runs again, as PyTorch's."""
    for r, rec in tape.custom.items():
        if lo <= r < hi and reach[rows[r, 1]]:
            rec.ctx._saved = None
            rec.ctx._freed = True


__all__ = ["Function", "FunctionCtx", "once_differentiable"]
