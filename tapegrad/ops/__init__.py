"""The op families, and the one table that binds them to Tensor as methods and dunders."""
import numpy as np

from ..tensor import Tensor
from . import control, elementwise, reductions, shape
from .elementwise import (
    abs, add, cos, div, exp, expm1, log, log1p, mul, neg, pow, relu, sigmoid, sin, sqrt, sub,
    tan, tanh)
from .control import eq, ge, gt, le, lt, ne
from .reductions import mean, sum
from .shape import (
    broadcast_to, cat, chunk, concat, concatenate, expand, flatten, flip, gather, getitem,
    index_select, masked_fill, moveaxis, movedim, narrow, permute, repeat, reshape, roll, select,
    split, squeeze, stack, swapaxes, swapdims, t, tile, to, transpose, unbind, unsqueeze, view)

FAMILIES = (elementwise, reductions, shape, control)
NAMES = {code: name for fam in FAMILIES for code, name in fam.NAMES.items()}
SPECS = [spec for fam in FAMILIES for spec in getattr(fam, "SPECS", ())]

_METHODS = {
    # arithmetic dunders: Tensor (op) x and x (op) Tensor
    "__add__": add, "__radd__": add,
    "__sub__": sub, "__rsub__": elementwise.rsub,
    "__mul__": mul, "__rmul__": mul,
    "__truediv__": div,
    "__rtruediv__": elementwise.rdiv,
    "__pow__": pow, "__rpow__": elementwise.rpow,
    "__neg__": neg, "__abs__": abs, "__pos__": lambda a: a,
    "__getitem__": getitem,
    "__eq__": eq, "__ne__": ne, "__lt__": lt, "__le__": le, "__gt__": gt, "__ge__": ge,
    # methods
    "add": add, "sub": sub, "mul": mul, "div": div, "pow": pow, "neg": neg, "abs": abs,
    "exp": exp, "log": log, "log1p": log1p, "expm1": expm1, "sqrt": sqrt, "sin": sin,
    "cos": cos, "tan": tan, "tanh": tanh, "sigmoid": sigmoid, "relu": relu,
    "sum": sum, "mean": mean,
    "reshape": reshape, "view": view, "flatten": flatten, "squeeze": squeeze,
    "unsqueeze": unsqueeze, "expand": expand, "permute": permute, "transpose": transpose,
    "to": to,
    "float": lambda x: to(x, np.float32), "double": lambda x: to(x, np.float64),
    "long": lambda x: to(x, np.int64), "int": lambda x: to(x, np.int32),
    "bool": lambda x: to(x, np.bool_),
    "eq": eq, "ne": ne, "lt": lt, "le": le, "gt": gt, "ge": ge,
    "expand_as": lambda x, other: expand(x, *other.shape),
    # shapes and indexing (ops/shape.py)
    "broadcast_to": broadcast_to, "split": split, "chunk": chunk, "unbind": unbind,
    "flip": flip, "repeat": repeat, "tile": tile, "gather": gather,
    "index_select": index_select, "masked_fill": masked_fill, "roll": roll, "narrow": narrow,
    "select": select, "movedim": movedim, "moveaxis": moveaxis, "t": t, "swapaxes": swapaxes,
    "swapdims": swapdims,
    "view_as": lambda x, other: reshape(x, *other.shape),
    "reshape_as": lambda x, other: reshape(x, *other.shape),
}
for _name, _fn in _METHODS.items():
    setattr(Tensor, _name, _fn)
Tensor.T = property(shape._T)
Tensor.mT = property(shape._mT)
