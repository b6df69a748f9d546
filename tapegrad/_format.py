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
    """PyTorch's float format for the values ``a`` (1-D float64) and its column width: whole
    numbers print as ``3.``, else ``precision`` digits, in scientific notation when the
    nonzero finite magnitudes span more than 1e3 or pass 1e8 (or, not whole, go under
    1e-4); the width is the widest nonzero finite value's (nan, inf and 0 are padded to it,
    never widen it), 1 when there is none."""
    p = OPTIONS["precision"]
    nz = a[np.isfinite(a) & (a != 0)]
    whole = bool(np.all(nz == np.ceil(nz)))
    sci, width = False, 1
    if nz.size:
        amax, amin = np.abs(nz).max(), np.abs(nz).min()
        with np.errstate(over="ignore"):  # (1e300 / 1e-300 is inf, as PyTorch's ratio)
            sci = amax / amin > 1000.0 or amax > 1.0e8 or (not whole and amin < 1.0e-4)
        if OPTIONS["sci_mode"] is not None:
            sci = OPTIONS["sci_mode"]
        if sci:
            width = max(len(f"{v:.{p}e}") for v in nz)
        elif whole:
            width = max(len(f"{v:.0f}") for v in nz) + 1
        else:
            width = max(len(f"{v:.{p}f}") for v in nz)
    if sci:
        return (lambda v: _special(v) or f"{v:.{p}e}"), width
    if whole:
        return (lambda v: _special(v) or f"{v:.0f}."), width
    return (lambda v: _special(v) or f"{v:.{p}f}"), width


def _special(v):
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    return ""


def _summarized(a, e):
    """The elements a summarised print shows: the first and last ``e`` along every dim that
    has more than ``2 e`` (the values PyTorch's formatter is fitted to)."""
    for axis in range(a.ndim):
        if a.shape[axis] > 2 * e:
            a = np.concatenate([a.take(range(e), axis), a.take(range(a.shape[axis] - e,
                                                                     a.shape[axis]), axis)],
                               axis)
    return a


def _body(a, indent, summarize, fmt):
    """PyTorch's ``_tensor_str_with_formatter``: rows of ``fmt``-ed elements, as many on a
    line as fit the line width, ``...`` for the middle of a summarised dim."""
    e = int(OPTIONS["edgeitems"])
    cut = summarize and a.shape[0] > 2 * e
    if a.ndim == 1:
        per_line = max(1, (int(OPTIONS["linewidth"] or 80) - indent) // (fmt.width + 2))
        if cut:
            data = [fmt(v) for v in a[:e]] + [" ..."] + [fmt(v) for v in a[-e:]]
        else:
            data = [fmt(v) for v in a]
        lines = [", ".join(data[i:i + per_line]) for i in range(0, len(data), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    rows = range(a.shape[0])
    parts = [_body(a[i], indent + 1, summarize, fmt) for i in (rows[:e] if cut else rows)]
    if cut:
        parts += ["..."] + [_body(a[i], indent + 1, summarize, fmt) for i in rows[-e:]]
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(parts) + "]"


class _Formatter:
    """One element's text, right-aligned to the column ``width``."""

    def __init__(self, text, width):
        self.text, self.width = text, width

    def __call__(self, v):
        return self.text(v).rjust(self.width)


class _ComplexFormatter:
    """PyTorch's complex element: the real part in the real parts' format, then the imaginary
    part in theirs with its sign and a ``j`` (``1.+2.j``, ``-0.5000-1.2500j``)."""

    def __init__(self, re, im):
        self.re, self.im = re, im
        self.width = re.width + im.width + 1

    def __call__(self, v):
        real, imag = self.re(v.real), (self.im(v.imag) + "j").lstrip()
        return real + imag if imag[0] in "+-" else real + "+" + imag


def _formatter(shown):
    """The formatter PyTorch fits to the values ``shown``."""
    if shown.dtype.kind == "c":
        return _ComplexFormatter(_formatter(shown.real), _formatter(shown.imag))
    if shown.dtype.kind == "f":
        return _Formatter(*_float_formatter(shown.astype(np.float64).ravel()))
    text = (lambda v: str(bool(v))) if shown.dtype.kind == "b" else (lambda v: str(int(v)))
    return _Formatter(text, max((len(text(v)) for v in shown.ravel()), default=1))


def tensor_repr(t):
    grad_fn = f"grad_fn=<{type(t.grad_fn).__name__}>" if t._tok is not None else None
    cls = type(t)  # a program's own Tensor subclass prints its name, as in PyTorch
    prefix = "tensor(" if cls.__module__.startswith("tapegrad") else cls.__name__ + "("
    return array_repr(np.asarray(t._data), grad_fn, t._rg, prefix)


def complex_repr(z):
    """A complex tensor's repr (tapegrad/_complex.py): its grad_fn named as PyTorch's."""
    grad_fn = None
    if z.requires_grad and not z.is_leaf:
        grad_fn = f"grad_fn=<{z._node or type(z.grad_fn).__name__}>"
    return array_repr(z.detach().numpy(), grad_fn, z.requires_grad)


def array_repr(a, grad_fn, requires_grad, prefix="tensor("):
    threshold = OPTIONS["threshold"]
    summarize = a.size > (sys.maxsize if threshold == float("inf") else int(threshold))
    fmt = _formatter(_summarized(a, int(OPTIONS["edgeitems"])) if summarize else a)
    if a.size == 0:
        body = "[]"
    elif a.ndim == 0:
        body = fmt(float(a)) if a.dtype.kind == "f" else fmt(a[()]) if a.dtype.kind == "c" \
            else fmt(a[()]).strip()
    else:
        body = _body(a, len(prefix), summarize, fmt)
    extras = []
    if a.size == 0 and a.ndim != 1:  # (PyTorch leaves out the size (0,), as NumPy)
        extras.append(f"size={tuple(a.shape)}")
    default = dtypes.default_float()  # (PyTorch names every dtype of an empty tensor but it)
    if a.dtype.kind == "c":
        default = np.result_type(default, np.complex64)  # (complex128 for float64)
    if a.dtype != default and (a.size == 0 or a.dtype not in (dtypes.int64, dtypes.bool)):
        extras.append(f"dtype={dtypes.of(a.dtype)}")  # (torch.float32, as PyTorch prints)
    if grad_fn is not None:
        extras.append(grad_fn)
    elif requires_grad:
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
