"""``out=``: PyTorch's functions that write their result into a tensor they are given
(``torch.mul(a, b, out=c)``).

Every exported op function takes it; methods and operators (``a.mul(b)``, ``a * b``) are
the op functions themselves, so the recording hot path pays nothing for it.  As in
PyTorch, ``out=`` does not record (an input that requires grad is refused), an ``out`` of
another shape is resized (with PyTorch's warning unless it was empty), and the result is
cast to ``out``'s dtype where PyTorch allows it (within a kind: float into float); sum,
prod, cumsum and cumprod compute in ``out``'s dtype, as with their ``dtype=``.
"""
import functools
import warnings

import numpy as np

from .. import return_types
from .._errors import FUNCTIONS, METHODS, WRAPPERS, parser_words
from .._state import state
from ..dtypes import to_dtype, torch_name
from ..grad_mode import no_grad
from ..tensor import COMPLEX_HOOKS, ComplexPart, Tensor
from . import inplace

_RESIZED = ("An output with one or more elements was resized since it had shape {}, which "
            "does not match the required output shape {}. This behavior is deprecated, and in "
            "a future PyTorch release outputs will not be resized unless they have zero "
            "elements. You can explicitly reuse an out tensor t by resizing it, inplace, to "
            "zero elements with t.resize_(0).")


def _requires_grad(args, kwargs):
    for a in (*args, *kwargs.values()):
        if isinstance(a, Tensor) and a._rg:
            return True
        if isinstance(a, (list, tuple)) and _requires_grad(a, {}):
            return True
    return False


def _into(out, result, name):
    r = np.asarray(result._data)
    if not np.can_cast(r.dtype, out.dtype, "same_kind"):
        raise RuntimeError(f"result type {torch_name(r.dtype)} can't be cast to "
                           f"the desired output type {torch_name(out.dtype)}")
    if tuple(out.shape) == r.shape:
        with no_grad():
            return inplace.copy_(out, result)
    if out.numel():
        warnings.warn(_RESIZED.format(list(out.shape), list(r.shape)), UserWarning,
                      stacklevel=3)
    return inplace.replace_storage(out, r)


def takes_dim(fn):
    """Whether ``fn`` (an op function) has a parameter named ``dim``."""
    code = getattr(fn, "__code__", None)
    return code is not None and "dim" in code.co_varnames[
        :code.co_argcount + code.co_kwonlyargcount]


def numpy_names(kwargs):
    """NumPy's ``axis=`` and ``keepdims=`` as ``dim=`` and ``keepdim=``, as PyTorch's argument
    parser takes them for every function with a ``dim`` (``x.sum(axis=0)``)."""
    if "axis" in kwargs:
        if "dim" in kwargs:
            raise TypeError("got multiple values for argument 'dim' (axis= is its NumPy name)")
        kwargs["dim"] = kwargs.pop("axis")
    if "keepdims" in kwargs and "keepdim" not in kwargs:
        kwargs["keepdim"] = kwargs.pop("keepdims")
    return kwargs


def with_numpy_names(fn, name=None):
    """Method ``fn`` (it has a ``dim``) also taking ``axis=`` / ``keepdims=`` (and, called
    without its required arguments, raising PyTorch's words for method ``name``)."""
    name = name or fn.__name__

    @functools.wraps(fn)
    def method(*args, **kwargs):
        if kwargs and ("axis" in kwargs or "keepdims" in kwargs):
            numpy_names(kwargs)
        try:
            return fn(*args, **kwargs)
        except TypeError as e:
            parser_words(e, METHODS, name, len(args) - 1, kwargs)
            raise
    WRAPPERS.add(method.__code__)
    return method


# the reductions PyTorch computes in out's dtype, as with their dtype= argument
_OUT_DTYPE = {"sum", "prod", "cumsum", "cumprod"}


def with_out(name, fn):
    """``fn`` (an exported op) with PyTorch's ``out=`` keyword (and, where it has a ``dim``,
    NumPy's names for it: numpy_names)."""
    numpy = takes_dim(fn)

    @functools.wraps(fn)
    def op(*args, out=None, **kwargs):
        if numpy and kwargs and ("axis" in kwargs or "keepdims" in kwargs):
            numpy_names(kwargs)
        if out is None:
            try:
                return fn(*args, **kwargs)
            except ComplexPart:  # a complex operand: its form, if the op has one (_complex.py)
                return COMPLEX_HOOKS["top"](name, args, kwargs)
            except TypeError as e:
                parser_words(e, FUNCTIONS, name, len(args), kwargs)
                raise
        several = isinstance(out, (tuple, list)) and all(isinstance(o, Tensor) for o in out)
        if not (several or isinstance(out, Tensor)):
            raise TypeError(f"{name}(): argument 'out' must be Tensor, not "
                            f"{type(out).__name__}")
        if state.grad_enabled and (_requires_grad([out], {}) or _requires_grad(args, kwargs)):
            raise RuntimeError(f"{name}(): functions with out=... arguments don't support "
                               "automatic differentiation, but one of the arguments requires "
                               "grad.")
        if name in _OUT_DTYPE and not several and "dtype" not in kwargs:
            kwargs["dtype"] = out.dtype  # (PyTorch's sum(x, out=int64 t): summed as int64)
        result = fn(*args, **kwargs)
        if not several:
            if not isinstance(result, Tensor):
                raise TypeError(f"{name}(): out= needs a function with one tensor result")
            return _into(out, result, name)
        # a tuple of results (sort's values and indices): each into its own, returned in
        # the result's named tuple, as PyTorch's torch.return_types
        if not isinstance(result, tuple) or len(result) != len(out):
            raise TypeError(f"{name}(): argument 'out' must be Tensor, not "
                            f"{type(out).__name__} (this function has one result)"
                            if isinstance(result, Tensor) else
                            f"{name}(): out= takes a tuple of {len(result)} tensors here, got "
                            f"{len(out)}")
        written = [_into(o, r, name) for o, r in zip(out, result, strict=True)]
        if not hasattr(result, "_fields"):
            return tuple(written)
        kind = f"{type(result).__name__}_out"  # (PyTorch's: torch.return_types.sort_out)
        return (getattr(return_types, kind, None) or return_types.named(kind, result._fields))(
            *written)
    op.catches_complex = True  # (tapegrad/_complex.py's install needs no wrapper of its own)
    WRAPPERS.add(op.__code__)
    return op


FACTORIES = ("zeros", "ones", "full", "empty", "eye", "arange", "linspace", "logspace", "rand",
             "randn", "randint", "randperm")


def factories(funcs):
    """The factory functions (FACTORIES) with PyTorch's ``out=``: the tensor is made in
    ``out``'s dtype (a ``dtype=`` naming another is refused, in PyTorch's words) and written
    into ``out``, which is returned (``torch.arange(5, out=t)``)."""
    def with_out_of(name, fn):
        @functools.wraps(fn)
        def make(*args, out=None, **kwargs):
            if out is None:
                return fn(*args, **kwargs)
            if not isinstance(out, Tensor):
                raise TypeError(f"{name}(): argument 'out' must be Tensor, not "
                                f"{type(out).__name__}")
            dtype = kwargs.get("dtype")
            if dtype is not None and to_dtype(dtype) != out.dtype:
                raise RuntimeError(f"dtype {torch_name(to_dtype(dtype))} does not "
                                   f"match dtype of out parameter "
                                   f"({torch_name(out.dtype)})")
            if state.grad_enabled and out._rg:
                raise RuntimeError(f"{name}(): functions with out=... arguments don't support "
                                   "automatic differentiation, but one of the arguments "
                                   "requires grad.")
            return _into(out, fn(*args, **{**kwargs, "dtype": out.dtype}), name)
        return make
    return {k: with_out_of(k, funcs[k]) for k in FACTORIES}


def wrap(exports):
    """The exported op functions, each taking ``out=`` (a superset of PyTorch's: where
    PyTorch has no ``out=``, tapegrad's is harmless)."""
    return {k: with_out(k, f) for k, f in exports.items()}
