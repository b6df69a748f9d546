"""The op families, and the one table that binds them to Tensor as methods and dunders."""
import numpy as np

from ..tensor import Tensor
from . import control, custom, elementwise, inplace, linalg, reductions, shape
from .elementwise import (
    abs, add, cos, div, exp, expm1, log, log1p, mul, neg, pow, relu, sigmoid, sin, sqrt, sub,
    tan, tanh)
from .control import eq, ge, gt, le, lt, ne
from .elementwise import (
    acos, arccos, arcsin, arctan, arctan2, asin, atan, atan2, ceil, clamp, clamp_max, clamp_min,
    clip, cosh, erf, floor, log_sigmoid, maximum, minimum, round, sign, sinh, softplus, where)
from .linalg import bmm, dot, einsum, ger, matmul, mm, mv, outer
from .reductions import (
    amax, amin, argmax, argmin, cumsum, logsumexp, max, min, norm, prod, std, var)
from .reductions import mean, sum
from .shape import (
    broadcast_to, cat, chunk, concat, concatenate, expand, flatten, flip, gather, getitem,
    index_select, masked_fill, moveaxis, movedim, narrow, permute, repeat, reshape, roll, select,
    split, squeeze, stack, swapaxes, swapdims, t, tile, to, transpose, unbind, unsqueeze, view)

FAMILIES = (elementwise, reductions, shape, control, linalg, custom)
NAMES = {code: name for fam in FAMILIES for code, name in fam.NAMES.items()}
_CODES = [c for fam in FAMILIES for c in fam.NAMES]
_CLASHES = sorted({c for c in _CODES if _CODES.count(c) > 1})
if _CLASHES:  # two families picked the same opcode: the sweeps would run the wrong rule
    raise ImportError(f"tapegrad: opcodes {_CLASHES} are defined by more than one op family")
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
    # linear algebra (ops/linalg.py), reductions and elementwise (issue 3)
    "__matmul__": matmul, "__rmatmul__": linalg.rmatmul,
    "matmul": matmul, "mm": mm, "mv": mv, "bmm": bmm, "dot": dot, "outer": outer, "ger": ger,
    "prod": prod, "max": max, "min": min, "amax": amax, "amin": amin, "argmax": argmax,
    "argmin": argmin, "logsumexp": logsumexp, "norm": norm, "var": var, "std": std,
    "cumsum": cumsum,
    "maximum": maximum, "minimum": minimum, "clamp": clamp, "clip": clip,
    "clamp_min": clamp_min, "clamp_max": clamp_max,
    "where": lambda x, condition, other: where(condition, x, other),
    "sign": sign, "floor": floor, "ceil": ceil, "round": round, "atan2": atan2,
    "arctan2": arctan2, "asin": asin, "acos": acos, "atan": atan, "arcsin": arcsin,
    "arccos": arccos, "arctan": arctan, "sinh": sinh, "cosh": cosh, "erf": erf,
    "view_as": lambda x, other: reshape(x, *other.shape),
    "reshape_as": lambda x, other: reshape(x, *other.shape),
}
_METHODS.update(inplace.METHODS)  # add_, +=, x[i] = v... (ops/inplace.py)
for _name, _fn in _METHODS.items():
    setattr(Tensor, _name, _fn)
Tensor.T = property(shape._T)
Tensor.mT = property(shape._mT)
