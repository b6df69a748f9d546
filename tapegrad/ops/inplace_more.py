"""In-place spellings of the composites and of common unary ops (``lerp_``, ``addcmul_``,
``addcdiv_``, ``scatter_``, ``index_add_``, ``masked_fill_``, ``exp_``...): each runs its
out-of-place op and makes the tensor hold the result, as ``inplace.py``'s ops do (PyTorch's
version counters and leaf checks included).  Optimisers written by hand call these.
"""
import numpy as np

from .._state import state
from ..tensor import Tensor
from . import arithmetic as ar
from . import combine as cb
from . import elementwise as ew
from . import shape as sh
from ._record import named_result
from .inplace import (
    _LEAF,
    _before,
    _bump,
    _check_leaf,
    _inplace,
    _log_mutation,
    _old_slots,
    _rebase,
    _records,
)


def _same_shape(t, r, op):
    if tuple(r.shape) != tuple(t.shape):
        raise RuntimeError(f"output with shape {list(t.shape)} doesn't match the broadcast "
                           f"shape {list(r.shape)}")
    if r.dtype != t.dtype and t.dtype.kind != "f" and r.dtype.kind == "f":
        raise RuntimeError(f"result type Float can't be cast to the desired output type "
                           f"{t.dtype}")


def _method(fn, name):
    def method(self, *args, **kwargs):
        def run(t, *a):
            state.in_place, outer = name, state.in_place  # (a node's error names it)
            try:
                r = fn(t, *a, **kwargs)
            finally:
                state.in_place = outer
            _same_shape(self, r, name)
            r = r if r.dtype == self.dtype else sh.to(r, self.dtype)
            if t._rg and not r._rg and state.grad_enabled:
                # a result without gradient (lt_, bitwise ops...) on a tensor with history:
                # it keeps a history with a zero gradient, as PyTorch's LtBackward0
                r = ew.where(Tensor(np.ones(t.shape, np.bool_)), r, t)
            return r
        others = tuple(a for a in args if isinstance(a, Tensor))
        return _inplace(self, lambda t, *o: run(t, *args), (self, *others), name)
    method.__name__ = name
    method.__doc__ = f"``{name[:-1]}``, in place."
    return method


_OPS = {
    "lerp_": ar.lerp, "addcmul_": ar.addcmul, "addcdiv_": ar.addcdiv,
    "scatter_": cb.scatter, "scatter_add_": cb.scatter_add, "index_add_": cb.index_add,
    "index_copy_": cb.index_copy, "index_fill_": cb.index_fill, "masked_fill_": sh.masked_fill,
    "nan_to_num_": ar.nan_to_num, "remainder_": ar.remainder, "fmod_": ar.fmod,
    "trunc_": ar.trunc, "frac_": ar.frac, "reciprocal_": ar.reciprocal, "rsqrt_": ar.rsqrt,
    "xlogy_": ar.xlogy, "hypot_": ar.hypot, "logit_": ar.logit,
    "exp_": ew.exp, "log_": ew.log, "sqrt_": ew.sqrt, "neg_": ew.neg, "abs_": ew.abs,
    "pow_": ew.pow, "sin_": ew.sin, "cos_": ew.cos, "tanh_": ew.tanh, "sigmoid_": ew.sigmoid,
    "relu_": ew.relu, "floor_": ew.floor, "ceil_": ew.ceil, "round_": ew.round,
    "sign_": ew.sign, "square_": ew.square, "log1p_": ew.log1p, "expm1_": ew.expm1,
    "maximum_": ew.maximum, "minimum_": ew.minimum,
    "index_put_": cb.index_put, "copysign_": ar.copysign,
}
METHODS = {name: _method(fn, name) for name, fn in _OPS.items()}



# ---- in-place shape changes: unsqueeze_, squeeze_, t_, transpose_ -----------------------
def _reshaping(fn, name):
    """``name``: ``fn``'s result becomes the tensor.  Recorded, it is rebased onto the
    result (the shape op's row carries the gradient); a plain tensor or a leaf under
    no_grad takes the new shape over the same values."""
    def method(self, *args, **kwargs):
        _check_leaf(self, _LEAF)
        self._vb = None  # (a view's new shape is not written back to its base)
        if _records(self):
            before = _before(self, ())
            # (PyTorch's in-place nodes: UnsqueezeBackward1, SqueezeBackward3/4, TBackward1...)
            node = "SqueezeBackward4" if name == "squeeze_" and (args or kwargs) else \
                _INPLACE_NODES[name]
            return named_result(_rebase(self, fn(self, *args, **kwargs), before), node)
        tape = state.tape
        if tape is not None and self._tok is not None and self._tok.tape is tape and \
                self._gen == tape.gen:
            raise RuntimeError(f"{name}(): tapegrad cannot change the shape of a tensor with "
                               "history under no_grad in place; use the out-of-place "
                               f"{name[:-1]}() and rebind the name")
        r = fn(self, *args, **kwargs)._data
        if tape is not None:
            _log_mutation(self, tape, _old_slots(self, tape))
        self._data = r if type(r) is float else np.ascontiguousarray(r)
        self._gen = 0
        _bump(self)
        return self
    method.__name__ = name
    method.__doc__ = f"``{name[:-1]}``, in place: the tensor takes the new shape."
    return method


_INPLACE_NODES = {"unsqueeze_": "UnsqueezeBackward1", "squeeze_": "SqueezeBackward3",
                  "t_": "TBackward1", "transpose_": "TransposeBackward1"}
METHODS.update({name: _reshaping(getattr(sh, name[:-1]), name)
                for name in ("unsqueeze_", "squeeze_", "t_", "transpose_")})
