"""PyTorch's tensor repr: ``tensor([2.0000, 1.0000], grad_fn=<MulBackward0>)``."""
import numpy as np

from . import dtypes


def _float_formatter(a):
    finite = a[np.isfinite(a)]
    if finite.size and np.all(finite == np.round(finite)) and np.abs(finite).max() < 1e8:
        return lambda v: _special(v) or f"{v:.0f}."
    amax = np.abs(finite).max() if finite.size else 0.0
    nz = np.abs(finite[finite != 0])
    amin = nz.min() if nz.size else 0.0
    if amax >= 1e8 or (amin and amin < 1e-4) or (amin and amax / amin > 1e3):
        return lambda v: _special(v) or f"{v:.4e}"
    return lambda v: _special(v) or f"{v:.4f}"


def _special(v):
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    return ""


def tensor_repr(t):
    a = np.asarray(t._data)
    prefix = "tensor("
    if a.dtype.kind == "f":
        fmt = _float_formatter(a.astype(np.float64).ravel())
        width = max((len(fmt(v)) for v in a.ravel()), default=0)
        body = np.array2string(a, separator=", ", prefix=prefix, threshold=1000,
                               formatter={"float_kind": lambda v: fmt(v).rjust(width)})
    else:
        body = np.array2string(a, separator=", ", prefix=prefix, threshold=1000)
    extras = []
    if a.size == 0:
        extras.append(f"size={tuple(a.shape)}")
    if a.dtype not in (dtypes.float64, dtypes.int64, dtypes.bool):
        extras.append(f"dtype={dtypes.name(a.dtype)}")
    if t._tok is not None:
        extras.append(f"grad_fn=<{t.grad_fn.name()}>")
    elif t._rg:
        extras.append("requires_grad=True")
    return prefix + ", ".join([body, *extras]) + ")"
