"""The BLAS-style ``beta * input + alpha * (product)`` spellings: addmm, addmv, addr, addbmm,
baddbmm, composed from linalg.py's products.  As in PyTorch, ``beta=0`` ignores ``input``
(its NaNs and infinities do not propagate) and ``alpha``/``beta`` of 1 cost no row.
"""
import dataclasses

import numpy as np

from ..tensor import Tensor
from . import elementwise as ew
from . import linalg as la
from . import reductions as red
from ._record import node
from .registry import api
from .spec import Spec
from .spec import lib as _lib


def _combine(input, product, beta, alpha, op):
    if not isinstance(input, Tensor):
        raise TypeError(f"{op}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    scaled = product if alpha == 1 else product * alpha
    if beta == 0:  # input gives the shape and a zero gradient; its NaNs do not propagate
        shape = np.broadcast_shapes(tuple(input.shape), tuple(scaled.shape))
        return ew.where(Tensor(np.ones(shape, np.bool_)), scaled, input)
    return (input if beta == 1 else input * beta) + scaled


@api
@node("AddmmBackward0")
def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat1 @ mat2)``.

    >>> import tapegrad as tg
    >>> tg.addmm(tg.ones(2, 2), tg.eye(2), tg.eye(2), beta=0.5).tolist()
    [[1.5, 0.5], [0.5, 1.5]]
    """
    return _combine(input, la.mm(mat1, mat2), beta, alpha, "addmm")


@api
@node("AddmvBackward0")
def addmv(input, mat, vec, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat @ vec)``."""
    return _combine(input, la.mv(mat, vec), beta, alpha, "addmv")


@api
@node("AddrBackward0")
def addr(input, vec1, vec2, *, beta=1, alpha=1):
    """``beta * input + alpha * outer(vec1, vec2)``."""
    return _combine(input, la.outer(vec1, vec2), beta, alpha, "addr")


@api
@node("BaddbmmBackward0")
def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * (batch1 @ batch2)``, batch by batch."""
    return _combine(input, la.bmm(batch1, batch2), beta, alpha, "baddbmm")


@api
def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * sum_b (batch1[b] @ batch2[b])``."""
    return _combine(input, red.sum(la.bmm(batch1, batch2), 0), beta, alpha, "addbmm")


SPECS = [
    Spec("addmm", lambda a, b: _lib(a).addmm(a, b, a.T, beta=0.5, alpha=2.0),
         lambda np_, a, b: 0.5 * a + 2.0 * (b @ a.T), arity=2, shapes=((2, 2), (3, 3))),
    Spec("baddbmm", lambda a, b: _lib(a).baddbmm(a, b, a, alpha=-1.0),
         lambda np_, a, b: a - b @ a, arity=2, shapes=((2, 2, 2),)),
]
SPECS = [dataclasses.replace(spec, shapes=spec.shapes[-1:]) for spec in SPECS]  # (one shape:
#                                           a composite's rows are checked by their own rows)
