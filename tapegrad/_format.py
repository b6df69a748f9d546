"""PyTorch's tensor repr: ``tensor([2.0000, 1.0000], grad_fn=<MulBackward0>)``."""
import sys

import numpy as np

from . import dtypes

# torch.set_printoptions's settings (PyTorch's defaults)
_DEFAULTS = {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": None,
             "sci_mode": None}  # (linewidth None: PyTorch's 80)
OPTIONS = dict(_DEFAULTS)
_PROFILES = {"default": _DEFAULTS, "short": {"precision": 2, "threshold": 1000, "edgeitems": 2,
                                             "linewidth": None},
             "full": {"precision": 4, "threshold": float("inf"), "edgeitems": 3,
                      "linewidth": None}}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None):
    """How tensors print (``torch.set_printoptions``): digits after the point, the element
    count above which a tensor is summarised, the items kept at each edge then, the line
    width, a profile ('default', 'short', 'full'), and scientific notation (True/False,
    None: automatic)."""
    if profile is not None:
        if profile not in _PROFILES:
            raise ValueError(f"Unknown profile {profile!r}: use 'default', 'short' or 'full'")
        OPTIONS.update(_PROFILES[profile])
    for key, value in (("precision", precision), ("threshold", threshold),
                       ("edgeitems", edgeitems), ("linewidth", linewidth)):
        if value is not None:
            OPTIONS[key] = value
    OPTIONS["sci_mode"] = sci_mode


def get_printoptions():
    """The current print options, as a dict."""
    return dict(OPTIONS)


def _float_formatter(a):
    p, sci = OPTIONS["precision"], OPTIONS["sci_mode"]
    finite = a[np.isfinite(a)]
    if sci is None and finite.size and np.all(finite == np.round(finite)) and \
            np.abs(finite).max() < 1e8:
        return lambda v: _special(v) or f"{v:.0f}."
    amax = np.abs(finite).max() if finite.size else 0.0
    nz = np.abs(finite[finite != 0])
    amin = nz.min() if nz.size else 0.0
    auto = amax >= 1e8 or (amin and amin < 1e-4) or (amin and amax / amin > 1e3)
    if sci or (sci is None and auto):
        return lambda v: _special(v) or f"{v:.{p}e}"
    return lambda v: _special(v) or f"{v:.{p}f}"


def _special(v):
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    return ""


def _layout():
    threshold = OPTIONS["threshold"]
    layout = {"threshold": sys.maxsize if threshold == float("inf") else int(threshold),
              "edgeitems": int(OPTIONS["edgeitems"])}
    # PyTorch fits floor((linewidth - indent) / (width + 2)) elements on a line; NumPy's
    # wrapping, given one column more, fits as many (widths 1-13, 1-3 dims, checked)
    layout["max_line_width"] = int(OPTIONS["linewidth"] or 80) + 1
    return layout


def tensor_repr(t):
    a = np.asarray(t._data)
    prefix = "tensor("
    if a.dtype.kind == "f":
        fmt = _float_formatter(a.astype(np.float64).ravel())
        width = max((len(fmt(v)) for v in a.ravel()), default=0)
        body = np.array2string(a, separator=", ", prefix=prefix, formatter={
            "float_kind": lambda v: fmt(v).rjust(width)}, **_layout())
    elif a.dtype.kind == "b":  # PyTorch pads to the widest value present: [True, True]
        width = 5 if a.size and not a.all() else 4
        body = np.array2string(a, separator=", ", prefix=prefix, formatter={
            "bool": lambda v: str(bool(v)).rjust(width)}, **_layout())
    else:
        body = np.array2string(a, separator=", ", prefix=prefix, **_layout())
    extras = []
    if a.size == 0:
        extras.append(f"size={tuple(a.shape)}")
    if a.dtype not in (dtypes.float64, dtypes.int64, dtypes.bool):
        extras.append(f"dtype={dtypes.name(a.dtype)}")
    if t._tok is not None:
        extras.append(f"grad_fn=<{t.grad_fn.name()}>")
    elif t._rg:
        extras.append("requires_grad=True")
    return _add_suffixes(prefix + body, extras, len(prefix))


def _add_suffixes(text, extras, indent):
    """``text`` closed with its suffixes (dtype=, grad_fn=...), each moved to a line of its
    own, indented, where it would pass the line width (PyTorch's rule)."""
    width = OPTIONS["linewidth"] or 80
    parts = [text]
    last = len(text) - text.rfind("\n") + 1
    for extra in extras:
        if last + len(extra) + 2 > width:
            parts.append(",\n" + " " * indent + extra)
            last = indent + len(extra)
        else:
            parts.append(", " + extra)
            last += len(extra) + 2
    return "".join(parts) + ")"
