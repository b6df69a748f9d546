"""Activation and distance modules that wrap ``nn.functional`` (Hardtanh, ReLU6, SELU,
PReLU, ..., CosineSimilarity, PairwiseDistance), with PyTorch's constructor arguments and
reprs.

>>> import tapegrad as tg
>>> tg.nn.Hardtanh(-2.0, 2.0)
Hardtanh(min_val=-2.0, max_val=2.0)
"""
import warnings

import numpy as np

from ..device import check as check_device
from . import functional as F
from . import init
from .layers import _dtype
from .modules import Module, _AlongDim
from .parameter import Parameter


def _inplace(inplace, first=True):
    return ("inplace=True" if first else ", inplace=True") if inplace else ""


class Hardtanh(Module):
    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False, min_value=None,
                 max_value=None):
        super().__init__()
        for old, value in (("min", min_value), ("max", max_value)):
            if value is not None:  # (the deprecated names, with PyTorch's warning)
                warnings.warn(f"keyword argument `{old}_value` is deprecated and renamed to "
                              f"`{old}_val`", FutureWarning, stacklevel=2)
        min_val = min_val if min_value is None else min_value
        max_val = max_val if max_value is None else max_value
        if max_val <= min_val:
            raise AssertionError(f"max_val ({max_val}) must be greater than min_val "
                                 f"({min_val})")
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}" + _inplace(self.inplace, False)


class ReLU6(Hardtanh):
    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self):
        return _inplace(self.inplace)


class Threshold(Module):
    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return f"threshold={self.threshold}, value={self.value}" + _inplace(self.inplace, False)


class _Stateless(Module):
    """An activation without arguments: ``forward`` is ``_fn(input)``."""

    _fn = None

    def forward(self, input):
        return type(self)._fn(input)


class LogSigmoid(_Stateless):
    _fn = F.logsigmoid


class Softsign(_Stateless):
    _fn = F.softsign


class Tanhshrink(_Stateless):
    _fn = F.tanhshrink


class _InplaceFlag(Module):
    """An activation with only an ``inplace`` argument (not in its repr, as PyTorch)."""

    _fn = None

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return type(self)._fn(input, self.inplace)


class Hardsigmoid(_InplaceFlag):
    _fn = F.hardsigmoid


class Hardswish(_InplaceFlag):
    _fn = F.hardswish


class _InplaceShown(_InplaceFlag):
    """The same, with ``inplace=True`` in its repr when set (as PyTorch's)."""

    def extra_repr(self):
        return _inplace(self.inplace)


class Mish(_InplaceShown):
    _fn = F.mish


class SELU(_InplaceShown):
    _fn = F.selu


class SiLU(_InplaceShown):
    _fn = F.silu


class CELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + _inplace(self.inplace, False)


class _Shrink(Module):
    _fn = None

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return type(self)._fn(input, self.lambd)

    def extra_repr(self):
        return str(self.lambd)


class Softshrink(_Shrink):
    _fn = F.softshrink


class Hardshrink(_Shrink):
    _fn = F.hardshrink


class GLU(Module):
    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmin(_AlongDim):
    def forward(self, input):
        return F.softmin(input, self.dim, _stacklevel=5)


class Softmax2d(Module):
    """Softmax over the channels (dim -3) of (N, C, H, W) or (C, H, W)."""

    def forward(self, input):
        if input.ndim not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.ndim}D "
                             "instead")
        return F.softmax(input, -3)


class PReLU(Module):
    """Leaky relu with a learned slope (one, or one per channel), started at ``init``."""

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        check_device(device, "PReLU")
        self.num_parameters, self.init = num_parameters, init
        self.weight = Parameter(np.full(num_parameters, init, _dtype(dtype)))

    def reset_parameters(self):
        init.constant_(self.weight, self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class RReLU(Module):
    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        return f"lower={self.lower}, upper={self.upper}" + _inplace(self.inplace, False)


class CosineSimilarity(Module):
    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    def __init__(self, p=2.0, eps=1e-6, keepdim=False):
        super().__init__()
        self.norm, self.eps, self.keepdim = p, eps, keepdim

    def forward(self, x1, x2):
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)
