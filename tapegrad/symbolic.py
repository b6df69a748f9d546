"""``torch.sym_*``: torch.compile's symbolic-shape helpers, which on plain Python numbers (all
tapegrad's shapes are) compute what PyTorch's do on them; and the SymInt / SymFloat / SymBool
types, of which no value here is an instance (``isinstance(n, (int, torch.SymInt))``)."""
import builtins
import math


class SymInt:
    """A symbolic int of torch.compile; tapegrad's shapes are plain ints, never SymInts."""

    def __init__(self, *args, **kwargs):
        raise TypeError("tapegrad has no symbolic shapes: sizes are plain ints")


class SymFloat(SymInt):
    """A symbolic float of torch.compile (no value here is one)."""


class SymBool(SymInt):
    """A symbolic bool of torch.compile (no value here is one)."""


def _number(a):
    return a.item() if hasattr(a, "item") and not isinstance(a, (int, float)) else a


def sym_int(a):
    """``int(a)``, truncating toward zero as PyTorch's."""
    return builtins.int(_number(a))


def sym_float(a):
    return builtins.float(_number(a))


def sym_not(a):
    return not a


def sym_max(a, b):
    """``max(a, b)``, a float when either is (``sym_max(2, 3.0) == 3.0``)."""
    m = builtins.max(_number(a), _number(b))
    return builtins.float(m) if isinstance(_number(a), float) or isinstance(_number(b), float) \
        else m


def sym_min(a, b):
    """``min(a, b)``, a float when either is."""
    m = builtins.min(_number(a), _number(b))
    return builtins.float(m) if isinstance(_number(a), float) or isinstance(_number(b), float) \
        else m


def sym_sqrt(a):
    return math.sqrt(_number(a))


def sym_ite(b, t, f):
    """``t if b else f``."""
    return t if b else f


def sym_sum(args):
    return builtins.sum(args)


def sym_fresh_size(expr):
    return expr


def sym_constrain_range(size, *, min=None, max=None):  # noqa: A002 (PyTorch's names)
    """A hint to torch.compile: nothing to do on a plain int."""


def sym_constrain_range_for_size(size, *, min=None, max=None):  # noqa: A002
    """A hint to torch.compile: nothing to do on a plain int."""


FUNCTIONS = {f.__name__: f for f in (
    sym_int, sym_float, sym_not, sym_max, sym_min, sym_sqrt, sym_ite, sym_sum, sym_fresh_size,
    sym_constrain_range, sym_constrain_range_for_size, SymInt, SymFloat, SymBool)}
