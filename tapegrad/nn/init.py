"""nn.init: fill a tensor in place, outside the graph, and return it, as PyTorch's
initialisers do.  Draws come from tapegrad's default generator (``tapegrad.manual_seed``)
or ``generator=``: the same distributions as PyTorch's, not the same numbers.

>>> import tapegrad as tg
>>> w = tg.nn.init.constant_(tg.empty(2, 3), 0.5)
>>> w.tolist()
[[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]]
"""
import math
import warnings

import numpy as np

from .. import creation
from ..grad_mode import no_grad
from ..tensor import Tensor


def _rng(generator):
    return creation._rng if generator is None else generator._np


def _fill(tensor, values):
    """Write ``values`` into ``tensor`` in place (no gradient recorded); return tensor."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"nn.init: expected a Tensor, got {type(tensor).__name__}")
    with no_grad():
        tensor.copy_(Tensor(np.asarray(values).astype(tensor.dtype, copy=False)))
    return tensor


def calculate_gain(nonlinearity, param=None):
    """The recommended gain for ``nonlinearity`` (PyTorch's table): 1 for linear and
    sigmoid, 5/3 for tanh, sqrt(2) for relu, sqrt(2 / (1 + a^2)) for leaky_relu, 3/4 for
    selu.

    >>> import tapegrad as tg
    >>> round(tg.nn.init.calculate_gain("leaky_relu", 0.2), 6)
    1.38675
    """
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d")
    if nonlinearity in linear or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    """(fan_in, fan_out): dims 1 and 0 times the receptive field (the product of the
    rest), as PyTorch counts them."""
    if tensor.ndim < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than "
                         "2 dimensions")
    field = math.prod(tensor.shape[2:])
    return tensor.shape[1] * field, tensor.shape[0] * field


def _calculate_correct_fan(tensor, mode):  # (PyTorch's name: custom inits call it)
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    """Fill with draws from U(a, b)."""
    return _fill(tensor, _rng(generator).uniform(a, b, tuple(tensor.shape)))


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    """Fill with draws from N(mean, std^2)."""
    return _fill(tensor, _rng(generator).normal(mean, std, tuple(tensor.shape)))


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """Fill with draws from N(mean, std^2) conditioned on [a, b] (by redrawing the draws
    outside it: the exact truncated distribution)."""
    g = _rng(generator)
    v = g.normal(mean, std, tuple(tensor.shape))
    for _ in range(1000):
        out = (v < a) | (v > b)
        if not out.any():
            break
        v[out] = g.normal(mean, std, int(out.sum()))
    return _fill(tensor, np.clip(v, a, b))  # (a far tail: the few left clamped)


def constant_(tensor, val):
    """Fill with ``val``."""
    return _fill(tensor, np.full(tuple(tensor.shape), val))


def ones_(tensor):
    return constant_(tensor, 1.0)


def zeros_(tensor):
    return constant_(tensor, 0.0)


def eye_(tensor):
    """The identity matrix (a 2-D tensor), ones on the diagonal of a rectangle."""
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _fill(tensor, np.eye(*tensor.shape))


def dirac_(tensor, groups=1):
    """The identity of a convolution (3-, 4- or 5-D weight): a one at the centre of each
    kernel whose output channel equals its input channel, per group."""
    if tensor.ndim not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    out = tensor.shape[0]
    if out % groups:
        raise ValueError("dim 0 must be divisible by groups")
    per = out // groups
    w = np.zeros(tuple(tensor.shape))
    centre = tuple(k // 2 for k in tensor.shape[2:])
    for g in range(groups):
        for d in range(min(per, tensor.shape[1])):
            w[(g * per + d, d) + centre] = 1.0
    return _fill(tensor, w)


def xavier_uniform_(tensor, gain=1.0, generator=None):
    """U(-a, a) with a = gain * sqrt(6 / (fan_in + fan_out)) (Glorot)."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    a = gain * math.sqrt(6.0 / float(fan_in + fan_out))
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    """N(0, std^2) with std = gain * sqrt(2 / (fan_in + fan_out)) (Glorot)."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)), generator)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """U(-b, b) with b = gain * sqrt(3 / fan) (He); ``a`` is leaky_relu's slope.  Linear
    and Conv layers start from ``a = sqrt(5)``: b = 1 / sqrt(fan_in).

    >>> import tapegrad as tg
    >>> w = tg.nn.init.kaiming_uniform_(tg.empty(4, 100), a=5 ** 0.5)
    >>> bool(w.abs().max() <= 0.1)
    True
    """
    if 0 in tuple(tensor.shape):
        return tensor
    bound = calculate_gain(nonlinearity, a) * math.sqrt(3.0 / _calculate_correct_fan(tensor, mode))
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """N(0, std^2) with std = gain / sqrt(fan) (He)."""
    if 0 in tuple(tensor.shape):
        return tensor
    std = calculate_gain(nonlinearity, a) / math.sqrt(_calculate_correct_fan(tensor, mode))
    return normal_(tensor, 0.0, std, generator)


def orthogonal_(tensor, gain=1.0, generator=None):
    """A (semi-)orthogonal matrix from the QR factorisation of a normal draw, the tensor
    seen as (dim 0, the rest), times ``gain``."""
    if tensor.ndim < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    flat = _rng(generator).standard_normal((rows, cols))
    if rows < cols:
        flat = flat.T
    q, r = np.linalg.qr(flat)
    q = q * np.sign(np.diag(r))  # a uniform (Haar) draw, as PyTorch makes it
    if rows < cols:
        q = q.T
    return _fill(tensor, gain * q.reshape(tuple(tensor.shape)))


def sparse_(tensor, sparsity, std=0.01, generator=None):
    """A 2-D tensor N(0, std^2) with a fraction ``sparsity`` of each column zero."""
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    g = _rng(generator)
    w = g.normal(0.0, std, (rows, cols))
    zeros = int(math.ceil(sparsity * rows))
    for c in range(cols):
        w[g.permutation(rows)[:zeros], c] = 0.0
    return _fill(tensor, w)


def _deprecated(method):
    """PyTorch's old name (no trailing underscore) of an initialiser: warns, then calls it."""
    old, new = method.__name__[:-1], method.__name__

    def call(*args, **kwargs):
        warnings.warn(f"`nn.init.{old}` is now deprecated in favor of `nn.init.{new}`.",
                      FutureWarning, stacklevel=2)
        return method(*args, **kwargs)

    call.__name__, call.__doc__ = old, f"Deprecated: ``{new}``."
    return call


uniform = _deprecated(uniform_)
normal = _deprecated(normal_)
constant = _deprecated(constant_)
eye = _deprecated(eye_)
dirac = _deprecated(dirac_)
xavier_uniform = _deprecated(xavier_uniform_)
xavier_normal = _deprecated(xavier_normal_)
kaiming_uniform = _deprecated(kaiming_uniform_)
kaiming_normal = _deprecated(kaiming_normal_)
orthogonal = _deprecated(orthogonal_)
sparse = _deprecated(sparse_)
