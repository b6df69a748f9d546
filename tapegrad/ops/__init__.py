"""The op families, and the one table that binds them to Tensor as methods and dunders.

Every op function declared with ``registry.api`` in its family module is a Tensor method
(``method=True``) and a name of ``tapegrad`` (``export=True``): nothing here lists ops.
"""
import numpy as np

from ..tensor import Tensor
from . import (  # every family: its declare()s
    control, custom, elementwise, indexing, linalg, nn, reductions, registry, shape,
    strided)  # noqa: F401
from . import (  # composites of the families (api only, no opcodes)
    arithmetic, combine, fused, scans, search, stats)
from . import aliases  # noqa: F401 (PyTorch's other spellings: greater, divide, inner...)

registry.freeze()  # every op is declared: the tables derived from here on are complete
from . import inplace  # noqa: E402 (derives its saved-value table from the registry)
from . import out  # noqa: E402 (out= on the exported functions)

NAMES, OPS = registry.NAMES, registry.OPS
FAMILIES = (elementwise, reductions, nn, shape, indexing, control, linalg, custom,
            arithmetic, scans, stats, combine, fused)
SPECS = [spec for fam in FAMILIES for spec in getattr(fam, "SPECS", ())]

# Tensor's protocol and spellings that are not op functions of their own; every op function
# declared with registry.api(method=True) is bound under its own name below
_PROTOCOL = {
    # arithmetic dunders: Tensor (op) x and x (op) Tensor
    "__add__": elementwise.add, "__radd__": elementwise.add,
    "__sub__": elementwise.sub, "__rsub__": elementwise.rsub,
    "__mul__": elementwise.mul, "__rmul__": elementwise.mul,
    "__truediv__": elementwise.div, "__rtruediv__": elementwise.rdiv,
    "__pow__": elementwise.pow, "__rpow__": elementwise.rpow,
    "__neg__": elementwise.neg, "__abs__": elementwise.abs, "__pos__": arithmetic.positive,
    "__getitem__": indexing.getitem,
    "__eq__": control.eq, "__ne__": control.ne, "__lt__": control.lt, "__le__": control.le,
    "__gt__": control.gt, "__ge__": control.ge,
    "__matmul__": linalg.matmul, "__rmatmul__": linalg.rmatmul,
    # conversions and *_as spellings
    "float": lambda x: shape.to(x, np.float32), "double": lambda x: shape.to(x, np.float64),
    "long": lambda x: shape.to(x, np.int64), "int": lambda x: shape.to(x, np.int32),
    "bool": lambda x: shape.to(x, np.bool_), "type": shape.type_,
    "expand_as": lambda x, other: shape.expand(x, tuple(other.shape)),  # (other may be 0-d)
    "reshape_as": lambda x, other: shape.reshape(x, tuple(other.shape)),
    "where": lambda x, condition, other: elementwise.where(condition, x, other),
    "nelement": lambda x: x.numel(),
    "__and__": control.bitwise("bitwise_and", np.bitwise_and),
    "__or__": control.bitwise("bitwise_or", np.bitwise_or),
    "__xor__": control.bitwise("bitwise_xor", np.bitwise_xor),
    "__invert__": control.invert,
    "__lshift__": control.bitwise("bitwise_left_shift", np.left_shift),
    "__rshift__": control.bitwise("bitwise_right_shift", np.right_shift),
}
for _name in ("and", "or", "xor", "lshift", "rshift"):  # 3 & x, 1 << x: the reflected ones
    _PROTOCOL[f"__r{_name}__"] = (lambda fn: lambda a, b: fn(b, a))(_PROTOCOL[f"__{_name}__"])
METHODS = {name: fn for name, (fn, method, _) in registry.API.items() if method}
METHODS.update(_PROTOCOL)
METHODS.update(arithmetic.PROTOCOL)  # % and // (ops/arithmetic.py)
EXPORTS = out.wrap({name: fn for name, (fn, _, export) in registry.API.items() if export})
globals().update({name: fn for name, (fn, _, _) in registry.API.items()})  # ops.sigmoid...
METHODS.update(inplace.METHODS)  # add_, +=, x[i] = v... (ops/inplace.py)
from . import inplace_more  # noqa: E402 (built on inplace)

METHODS.update({k: v for k, v in inplace_more.METHODS.items() if k not in METHODS})
METHODS.update({k: out.with_numpy_names(v, k) for k, v in METHODS.items() if out.takes_dim(v)})
for _name, _fn in METHODS.items():
    setattr(Tensor, _name, _fn)
Tensor.T = property(shape._T)
Tensor.mT = property(shape._mT)
