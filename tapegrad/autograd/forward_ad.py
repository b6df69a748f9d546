"""Forward-mode AD with ``torch.autograd.forward_ad``'s API: ``dual_level``, ``make_dual``,
``unpack_dual`` (a namedtuple ``(primal, tangent)``), ``enter_dual_level``,
``exit_dual_level``.

A dual tensor is recorded on the tape like any tensor that requires grad, and
``unpack_dual(y)`` computes ``J t`` by the compiled tangent sweep over the rows recorded
since (``autograd/tangent.py``: each op's forward-mode rule, one pass over y's graph).
Tangents are thus computed when asked for, not at op time: the ops themselves cost what a
recorded op costs, and a tangent nobody unpacks costs nothing.  Where the sweep cannot
run (a custom Function without ``jvp`` raises PyTorch's NotImplementedError, when the
tangent is unpacked rather than at ``apply``; tangents that require grad with grad mode on:
the result must stay differentiable) ``J t`` comes by transposition, from the
reverse graph with the double-vjp identity: ``g(u) = J^T u`` is recorded with
``create_graph`` (it is linear in ``u``), and the vjp of ``g`` with the tangents ``t`` is
``J t`` (two reverse sweeps, one of them over the recorded gradient graph).  Limits: the
ops on dual tensors must run with grad mode on (they are recorded), and a dual tensor
reports ``requires_grad=True``.

>>> import tapegrad as tg
>>> import tapegrad.autograd.forward_ad as fwAD
>>> with fwAD.dual_level():
...     x = fwAD.make_dual(tg.tensor([1.0, 2.0]), tg.tensor([1.0, 0.0]))
...     fwAD.unpack_dual((x * x).sum()).tangent
tensor(2.)
"""
import threading
from collections import namedtuple

import numpy as np

from .. import dtypes
from ..grad_mode import enable_grad, is_grad_enabled
from ..tensor import Tensor, _leaf, norm
from . import tangent
from .engine import grad, grad_and_others

UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])
UnpackedDualTensor.__doc__ = "``unpack_dual``'s result: the primal and its tangent (or None)."


class _Levels(threading.local):
    def __init__(self):
        self.level = None  # the one dual level (PyTorch allows no nesting)
        self.duals = {}  # id(dual) -> (dual, primal, tangent) made at this level


_state = _Levels()


def enter_dual_level():
    """Enter a new forward-grad level; returns its index (0)."""
    if _state.level is not None:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _state.level = 0
    _state.duals = {}
    return 0


def exit_dual_level(*, level=None):
    """Exit the forward-grad level: every dual tensor of it loses its tangent."""
    if _state.level is None or (level is not None and level != _state.level):
        raise RuntimeError("Trying to exit a forward AD level that was not the last one "
                           "that was created. This is not supported.")
    _state.level = None
    _state.duals = {}


class dual_level:  # noqa: N801 (PyTorch's name)
    """Context manager for forward AD: ``with dual_level(): ...`` (no nesting, as PyTorch)."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()


def _check_level(level, what):
    if _state.level is None:
        raise RuntimeError(f"Trying to {what} for forward AD but no level exists, make sure "
                           "to enter_dual_level() first.")
    if level is not None and level != _state.level:
        raise RuntimeError(f"Invalid level {level} given to {what}: the only dual level is "
                           f"{_state.level}")


def make_dual(tensor, tangent, *, level=None):
    """A dual tensor: ``tensor``'s values carrying ``tangent`` as its forward gradient."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"make_dual(): argument 'tensor' must be Tensor, not "
                        f"{type(tensor).__name__}")
    if not tensor.is_floating_point():
        raise ValueError(f"Expected primal to be floating point or complex, but got: "
                         f"{dtypes.name(tensor.dtype)}")
    if not isinstance(tangent, Tensor):
        raise TypeError(f"make_dual(): argument 'tangent' must be Tensor, not "
                        f"{type(tangent).__name__}")
    _check_level(level, "create a dual Tensor")
    if tuple(tangent.shape) != tuple(tensor.shape):
        raise RuntimeError("Trying to set a forward gradient that has a different size than "
                           "that of the original Tensor, this is not supported. Tensor is of "
                           f"size {list(tensor.shape)} while the given forward gradient is of "
                           f"size {list(tangent.shape)}.")
    if id(tensor) in _state.duals:
        raise RuntimeError("Making a dual Tensor based on a Tensor that already has a forward "
                           f"gradient at the same level {_state.level} is not supported.")
    with enable_grad():  # recorded, so that unpack_dual can transpose what was done to it
        dual = tensor.view_as(tensor) if tensor.requires_grad else \
            tensor.detach().requires_grad_(True)
    _state.duals[id(dual)] = (dual, tensor, tangent)
    return dual


def unpack_dual(tensor, *, level=None):
    """``(primal, tangent)`` of ``tensor``; tangent None when it depends on no dual tensor
    of the level (or outside a level)."""
    if _state.level is None:  # (PyTorch checks nothing outside a level either)
        return UnpackedDualTensor(tensor, None)
    if not isinstance(tensor, Tensor):
        raise TypeError(f"_unpack_dual(): argument 'dual' (position 1) must be Tensor, not "
                        f"{type(tensor).__name__}")
    if not _state.duals:
        return UnpackedDualTensor(tensor, None)
    _check_level(level, "unpack a dual Tensor")
    entry = _state.duals.get(id(tensor))
    if entry is not None and entry[0] is tensor:
        return UnpackedDualTensor(entry[1], entry[2])
    duals = [d for d, _, _ in _state.duals.values()]
    tangents = [t for _, _, t in _state.duals.values()]
    create = is_grad_enabled() and any(t.requires_grad for t in tangents)
    swept = None if create else tangent.sweep(  # (strict: a Function without jvp raises)
        [tensor], duals, [np.asarray(t.detach()._data, np.float64).reshape(-1) for t in tangents],
        strict=True)
    if swept is None:  # a row without a tangent rule, or a tangent that must stay connected
        (jt,), _ = transposed_jvp([tensor], duals, tangents, create)
    elif swept[0] is None:
        jt = None
    else:
        jt = _leaf(norm(swept[0].reshape(tuple(tensor.shape)).astype(tensor.dtype, copy=False)))
    if not any(t.requires_grad for _, t, _ in _state.duals.values()) and \
            not _reaches_a_leaf(tensor, duals):
        tensor = tensor.detach()  # (recorded only to carry tangents: PyTorch's has no grad_fn)
    return UnpackedDualTensor(tensor, jt)


def _reaches_a_leaf(tensor, stand_ins):
    """Whether ``tensor``'s graph reaches a leaf that requires grad other than the dual
    tensors' stand-ins (a module's parameters): then its primal keeps that graph."""
    ours = {id(d) for d in stand_ins}
    seen, stack = set(), [tensor.grad_fn]
    kept = []  # (node objects are made on access: kept alive, their ids are not reused)
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        kept.append(fn)
        var = getattr(fn, "variable", None)
        if var is not None:
            if id(var) not in ours:
                return True
            continue
        stack.extend(f for f, _ in fn.next_functions)
    return False


def _ones_like(t):
    return _leaf(norm(np.ones(tuple(t.shape), t.dtype)))


def transposed(outs, ins):
    """Record ``g(u) = J^T u`` for ``outs`` with respect to ``ins`` once (``u`` all ones
    rather than zeros, so that no rule that skips a zero adjoint can leave a row out of the
    recorded ``g``), and return ``jvp(tangents, create_graph)``: ``(J t per output, None
    for one that depends on none of ins; create_graph)``, the vjp of ``g`` with ``t``, one
    sweep of the recorded ``g`` per call (the double-vjp identity: the module docstring).
    Without ``create_graph`` that sweep is plain, unless it reaches a tensor that requires
    grad besides ``ins`` (a parameter the function closed over) with grad mode on: then
    ``J t`` is recorded and ``create_graph`` comes back True, as PyTorch keeps it
    differentiable."""
    with enable_grad():
        diff = [i for i, o in enumerate(outs) if o.requires_grad]
        us = [_ones_like(outs[i]).requires_grad_(True) for i in diff]
        gs = grad([outs[i] for i in diff], ins, us, create_graph=True, allow_unused=True) \
            if diff else [None] * len(ins)

    def jvp(tangents, create_graph):
        jt = [None] * len(outs)
        pairs = [(g, t) for g, t in zip(gs, tangents, strict=True) if g is not None]
        if not pairs:
            return jt, create_graph
        used = [(g, t) for g, t in pairs if g.requires_grad]  # (g constant in u: J = 0)
        got = [None] * len(us)
        if used and not create_graph:
            got, others = grad_and_others([g for g, _ in used], us, [t for _, t in used], ins)
            create_graph = others and is_grad_enabled()
        if used and create_graph:
            with enable_grad():
                got = grad([g for g, _ in used], us, [t for _, t in used], retain_graph=True,
                           create_graph=True, allow_unused=True)
        for i, u, v in zip(diff, us, got, strict=True):
            jt[i] = _zero_like(u) if v is None else v if create_graph else v.detach()
        return jt, create_graph
    return jvp


def transposed_jvp(outs, ins, tangents, create_graph):
    """``transposed(outs, ins)(tangents, create_graph)``: one Jacobian-vector product."""
    return transposed(outs, ins)(tangents, create_graph)


def _zero_like(t):
    return _leaf(norm(np.zeros(tuple(t.shape), t.dtype)))


__all__ = ["UnpackedDualTensor", "dual_level", "enter_dual_level", "exit_dual_level",
           "make_dual", "unpack_dual"]
