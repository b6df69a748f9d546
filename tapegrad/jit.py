"""``tapegrad.jit``: the tracer under PyTorch's namespace for it, and the one ``trace`` name
that serves both meanings of ``torch.trace``-like calls.

- ``jit.trace(f, *example_inputs)`` records ``f`` once and returns the replayable
  ``Traced`` tape (``tapegrad.replay.trace``); ``jit.save(traced, path)`` writes it as a
  plain-array ``.npz`` and ``jit.load(path)`` reads one back, checking every field
  (``replay/validate.py``).
- ``tapegrad.trace(A)`` with a tensor is the matrix trace (``torch.trace``: the sum of
  the diagonal of a 2-D tensor, composed of ``diagonal`` and ``sum``); called with a
  function it still traces, as it always has.

>>> import numpy as np, tapegrad as tg
>>> t = tg.jit.trace(lambda x: (x * x).sum(), np.ones(2))
>>> t.grad(np.array([1.0, 3.0]))
array([2., 6.])
>>> tg.trace(tg.tensor([[1.0, 2.0], [3.0, 4.0]]))
tensor(5.)
"""
from typing import Final  # noqa: F401 (torch.jit.Final: an annotation, nothing to enforce)

from . import replay
from .nn.modules import Module
from .ops._record import node
from .replay import validate
from .tensor import Tensor

__all__ = ["load", "save", "trace", "trace_module", "script", "ignore", "unused", "export",
           "annotate", "is_scripting", "is_tracing", "Final"]


def trace(func, *example_inputs, argnums=0, **torch_options):
    """Record ``func(*example_inputs)`` once and return the replayable ``Traced`` tape
    (``tapegrad.replay.trace``: inputs are arrays or numbers, the output a scalar).

    An nn.Module is returned as it is, run eagerly, as ``torch.jit.trace(model, x)`` does
    with ``PYTORCH_JIT=0``: a model's outputs are tensors of any shape, its parameters no
    inputs of a tape (``torch_options``, such as ``check_trace``, then change nothing)."""
    if isinstance(func, Module):
        return func
    if torch_options:
        raise TypeError(f"jit.trace: unexpected keyword argument '{next(iter(torch_options))}' "
                        f"(PyTorch's tracing options are taken for an nn.Module only)")
    return replay.trace(func, *example_inputs, argnums=argnums)


def trace_module(mod, inputs, **torch_options):
    """``mod`` itself, run eagerly (``torch.jit.trace_module`` with ``PYTORCH_JIT=0``)."""
    if not isinstance(mod, Module):
        raise AttributeError(f"expected torch.nn.Module as the first argument (trace_module: "
                             f"got {type(mod).__name__})")
    return mod


def save(traced, f):
    """Save a ``Traced`` tape as a plain-array ``.npz`` (no pickle, no code)."""
    if not isinstance(traced, replay.Traced):
        raise TypeError(f"jit.save: expected a Traced tape (from tapegrad.jit.trace), got "
                        f"{type(traced).__name__}; save tensors and state dicts with "
                        "tapegrad.save")
    traced.save(f)


def load(f, *, max_bytes=validate.MAX_BYTES):
    """A ``Traced`` tape saved with ``jit.save`` / ``Traced.save``, every field checked
    before compiled code sees it (``tapegrad.replay.load``)."""
    return replay.load(f, max_bytes=max_bytes)


@node("TraceBackward0")
def matrix_trace(input):
    """The sum of the main diagonal of a 2-D tensor (``torch.trace``).

    >>> import tapegrad as tg
    >>> tg.tensor([[1.0, 2.0], [3.0, 4.0]]).trace()
    tensor(5.)
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"trace(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    if input.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.ndim}")
    return input.diagonal().sum()


def trace_or_record(input, *args, **kwargs):
    """``tapegrad.trace``: the matrix trace of a tensor (``torch.trace(A)``), or, given a
    function, its replayable ``Traced`` tape (``tapegrad.jit.trace(f, *args)``).

    >>> import tapegrad as tg
    >>> tg.trace(tg.eye(3))
    tensor(3.)
    """
    if isinstance(input, Tensor):
        if args or kwargs:
            raise TypeError("trace() takes 1 positional argument (a 2-D tensor) when given a "
                            "tensor; to record a function use tapegrad.jit.trace(f, *args)")
        return matrix_trace(input)
    if callable(input):
        return trace(input, *args, **kwargs)
    raise TypeError(f"trace(): argument 'input' (position 1) must be Tensor (the matrix "
                    f"trace) or a function (tapegrad.jit.trace), not {type(input).__name__}")


trace_or_record.__name__ = trace_or_record.__qualname__ = "trace"
Tensor.trace = matrix_trace  # the method, bound from this floor (tensor.py stays below it)


# ---- TorchScript's spellings, as PyTorch runs them with PYTORCH_JIT=0 (its documented
# switch that turns scripting off): the function or module itself, run eagerly -----------
def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    """``obj`` itself (a function or an nn.Module), run eagerly, as ``torch.jit.script``
    with ``PYTORCH_JIT=0``: tapegrad has no TorchScript (``tapegrad.compile`` records a
    function for fast replay instead)."""
    return obj


def _itself(fn=None, **kwargs):
    """A decorator that leaves ``fn`` as it is (``@ignore``, ``@ignore(drop=True)``)."""
    return fn if fn is not None else (lambda f: f)


ignore = unused = export = _itself


def annotate(the_type, the_value):
    """``the_value`` (a type hint for TorchScript)."""
    return the_value


def is_scripting():
    """False: nothing is scripted here."""
    return False


def is_tracing():
    """False (``tapegrad.jit.trace`` records a tape, not TorchScript)."""
    return False

