"""Optimizers with PyTorch's names, arguments and update formulas (its single-tensor CPU
code path, term by term, so the iterates agree to rounding): SGD, Adam, AdamW, RMSprop,
Adagrad, LBFGS, Adafactor, SparseAdam, Muon; and ``tapegrad.optim.lr_scheduler``.

A step updates each parameter's values in place, as PyTorch does under ``no_grad``: the
parameter stays the same leaf object, its version counter moves on, and a graph recorded
before the step that still needs the old values refuses to backward (ops/inplace.py).
The arithmetic runs in NumPy on the parameter's dtype (float32 stays float32).

>>> import tapegrad as tg
>>> w = tg.tensor([1.0, -2.0], requires_grad=True)
>>> opt = tg.optim.SGD([w], lr=0.1)
>>> (w * w).sum().backward()
>>> opt.step()
>>> w
tensor([ 0.8000, -1.6000], requires_grad=True)
"""
from . import lr_scheduler, swa_utils
from .factored import Adafactor, Muon, SparseAdam
from .lbfgs import LBFGS
from .more import ASGD, Adadelta, Adamax, NAdam, RAdam, Rprop
from .optimizer import SGD, Adagrad, Adam, AdamW, Optimizer, RMSprop

__all__ = ["ASGD", "Adadelta", "Adafactor", "Muon", "SparseAdam", "Adagrad", "Adam", "Adamax", "AdamW", "LBFGS", "NAdam",
           "Optimizer", "RAdam", "RMSprop", "Rprop", "SGD", "lr_scheduler", "swa_utils"]
