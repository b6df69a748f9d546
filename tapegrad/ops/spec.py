"""Spec rows: one per op, read by every gradient test and by the op benchmarks.

``fn`` takes tapegrad tensors; ``ref(np_, *xs)`` computes the same with a NumPy-like
module, so one lambda gives the forward reference (``numpy``) and the gradient
oracle (``autograd.numpy``).  ``pinned`` lists ``(inputs, expected_grads)`` at points
where the convention is PyTorch's and invisible to finite differences (kinks, ties).
"""
import sys
from dataclasses import dataclass, field


def lib(x):
    """The library of tensor ``x``: tapegrad, or torch when the oracle tests call a row (the
    rows' functions run on both; the module is already imported, as x is its tensor)."""
    return sys.modules[type(x).__module__.partition(".")[0]]


@dataclass(frozen=True)
class Spec:
    name: str
    fn: object
    ref: object
    arity: int = 1
    domain: tuple = (-2.0, 2.0)
    pinned: tuple = ()
    shapes: tuple = ((), (3,), (2, 3))
    oracle: bool = True  # compare with HIPS autograd
    replay: bool = True  # forward rule replays the recorded values
    notes: str = field(default="", compare=False)
