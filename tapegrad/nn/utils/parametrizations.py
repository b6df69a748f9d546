"""``nn.utils.parametrizations``: weight normalisation and spectral normalisation as
parametrizations (``nn.utils.parametrize``), with PyTorch's state_dict keys
(``parametrizations.weight.original0``/``original1`` for weight_norm's g and v;
``parametrizations.weight.original`` and ``parametrizations.weight.0._u``/``_v`` for
spectral_norm's power-iteration vectors).

>>> import tapegrad as tg
>>> lin = tg.nn.utils.parametrizations.weight_norm(tg.nn.Linear(3, 2))
>>> sorted(lin.state_dict())
['bias', 'parametrizations.weight.original0', 'parametrizations.weight.original1']
"""
from ... import creation
from ...grad_mode import no_grad
from ...tensor import Tensor
from .. import functional as F
from ..layers import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from ..modules import Module
from . import parametrize
from .weight_norm import _norm_except_dim


class _WeightNorm(Module):
    def __init__(self, dim=0):
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g, weight_v):
        dim = None if self.dim == -1 else self.dim
        return weight_v * (weight_g / _norm_except_dim(weight_v, dim))

    def right_inverse(self, weight):
        dim = None if self.dim == -1 else self.dim
        return _norm_except_dim(weight, dim), weight


def weight_norm(module, name="weight", dim=0):
    """Reparametrize ``module.<name>`` as ``g * v / ||v||`` (the norm over every dim but
    ``dim``; g and v are ``original0`` and ``original1``); returns ``module``."""
    return parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)


class _SpectralNorm(Module):
    """``W / sigma(W)``, sigma estimated by power iteration on W as a matrix (dim ``dim``
    first), one or more steps per forward in training, its vectors kept as buffers."""

    def __init__(self, weight, n_power_iterations=1, dim=0, eps=1e-12):
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [-{ndim}, "
                             f"{ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps, self.n_power_iterations = eps, n_power_iterations
        if ndim > 1:
            w = self._reshape_weight_to_matrix(weight)
            h, wd = w.shape
            u = F.normalize(Tensor(creation._rng.standard_normal(h).astype(w.dtype)), dim=0,
                            eps=eps)
            v = F.normalize(Tensor(creation._rng.standard_normal(wd).astype(w.dtype)), dim=0,
                            eps=eps)
            self.register_buffer("_u", u)
            self.register_buffer("_v", v)
            self._power_method(w, 15)

    def _reshape_weight_to_matrix(self, weight):
        if self.dim != 0:
            weight = weight.movedim(self.dim, 0)
        return weight.flatten(1)

    def _power_method(self, weight_mat, n_power_iterations):
        with no_grad():
            for _ in range(n_power_iterations):
                self._u.copy_(F.normalize(weight_mat.mv(self._v), dim=0, eps=self.eps))
                self._v.copy_(F.normalize(weight_mat.mT.mv(self._u), dim=0, eps=self.eps))

    def forward(self, weight):
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u, v = self._u.clone(), self._v.clone()
        sigma = (u * weight_mat.mv(v)).sum()
        return weight / sigma

    def right_inverse(self, value):
        return value


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Reparametrize ``module.<name>`` as itself divided by its spectral norm (largest
    singular value, by power iteration); returns ``module``."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d,
                                       ConvTranspose3d)) else 0
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module


def orthogonal(module, name="weight", orthogonal_map=None, *, use_trivialization=True):
    """Not available: PyTorch's orthogonal parametrization is not implemented in tapegrad."""
    raise NotImplementedError("nn.utils.parametrizations.orthogonal is not implemented in "
                              "tapegrad; parametrize.register_parametrization with your own "
                              "map (for example matrix_exp of a skew-symmetric matrix) does "
                              "the same job.")


__all__ = ["orthogonal", "spectral_norm", "weight_norm"]
