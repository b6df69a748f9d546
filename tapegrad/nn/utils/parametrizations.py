"""``nn.utils.parametrizations``: weight normalisation, spectral normalisation and orthogonal
matrices as parametrizations (``nn.utils.parametrize``), with PyTorch's state_dict keys
(``parametrizations.weight.original0``/``original1`` for weight_norm's g and v;
``parametrizations.weight.original`` and ``parametrizations.weight.0._u``/``_v`` for
spectral_norm's power-iteration vectors).

>>> import tapegrad as tg
>>> lin = tg.nn.utils.parametrizations.weight_norm(tg.nn.Linear(3, 2))
>>> sorted(lin.state_dict())
['bias', 'parametrizations.weight.original0', 'parametrizations.weight.original1']
"""
import enum

import numpy as np

from ... import creation, linalg
from ...ops import EXPORTS as ops
from ...grad_mode import no_grad
from ...tensor import Tensor
from .. import functional as F
from ..layers import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from ..modules import Module
from . import parametrize
from .weight_norm import _norm_except_dim, _weight_norm


class _WeightNorm(Module):
    def __init__(self, dim=0):
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g, weight_v):
        return _weight_norm(weight_v, weight_g, self.dim)

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


def _make_orthogonal(a):
    """The Q of a's QR with R's diagonal made positive (PyTorch's: geqrf, then
    householder_product with the signs of that diagonal)."""
    q, r = linalg.qr(a)
    return q * r.diagonal(dim1=-2, dim2=-1).sign().unsqueeze(-2)


def _householder_start(a):
    """LAPACK's geqrf of each matrix of ``a`` (NumPy's raw QR holds it, transposed): the
    reflectors below the diagonal, and on it the signs of R's diagonal (flipped where tau is
    0), as PyTorch's right_inverse without trivialization."""
    x = np.asarray(a.detach(), np.float64)
    out = np.empty_like(x)
    for i in np.ndindex(x.shape[:-2]):
        h, tau = np.linalg.qr(x[i], mode="raw")
        m = h.T.copy()
        k = min(m.shape)
        m[range(k), range(k)] = np.sign(np.diagonal(m)) * np.where(tau == 0, -1.0, 1.0)
        out[i] = m
    return Tensor(out.astype(a.dtype))


def _is_orthogonal(q):
    n, k = q.shape[-2], q.shape[-1]
    eps = 10.0 * n * float(np.finfo(q.dtype).eps)
    return bool(ops["allclose"](q.mT @ q, creation.eye(k, dtype=q.dtype), atol=eps))


class _OrthMaps(enum.Enum):  # (PyTorch's: what orthogonal_map shows)
    matrix_exp = enum.auto()
    cayley = enum.auto()
    householder = enum.auto()


class _Orthogonal(Module):
    """PyTorch's orthogonal parametrization: a skew-symmetric matrix's exponential or Cayley
    transform, or a product of Householder reflectors, times ``base`` (the orthogonal
    matrix assigned last, when ``use_trivialization``)."""

    def __init__(self, weight, orthogonal_map, *, use_trivialization=True):
        super().__init__()
        self.shape = tuple(weight.shape)
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, x):
        n, k = x.shape[-2], x.shape[-1]
        transposed = n < k
        if transposed:
            x = x.mT
            n, k = k, n
        if self.orthogonal_map in (_OrthMaps.matrix_exp, _OrthMaps.cayley):
            x = x.tril()  # (n k - k (k - 1) / 2 free parameters)
            if n != k:  # embedded in a square matrix
                x = ops["cat"]([x, x.new_zeros(n, n - k).expand(*x.shape[:-2], -1, -1)], dim=-1)
            a = x - x.mT
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                q = linalg.matrix_exp(a)
            else:  # (I + A/2)(I - A/2)^-1
                eye = creation.eye(n, dtype=a.dtype)
                q = linalg.solve(eye - 0.5 * a, eye + 0.5 * a)
            if n != k:
                q = q[..., :k]
        else:
            a = x.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (a * a).sum(dim=-2))
            q = linalg.householder_product(a, tau)
            # x's diagonal holds 1s and -1s (not differentiated through, as PyTorch's)
            q = q * x.diagonal(dim1=-2, dim2=-1).detach().int().unsqueeze(-2)
        if getattr(self, "base", None) is not None:
            q = self.base @ q
        return q.mT if transposed else q

    def right_inverse(self, q):
        with no_grad():
            if tuple(q.shape) != self.shape:
                raise ValueError(f"Expected a matrix or batch of matrices of shape "
                                 f"{self.shape}. Got a tensor of shape {tuple(q.shape)}.")
            q_init = q
            n, k = q.shape[-2], q.shape[-1]
            if n < k:
                q = q.mT
                n, k = k, n
            if "base" not in self._buffers:
                if self.orthogonal_map != _OrthMaps.householder:
                    raise NotImplementedError(
                        "It is not possible to assign to the matrix exponential or the Cayley "
                        "parametrizations when use_trivialization=False.")
                a = _householder_start(q)
                return a.mT if n != q_init.shape[-2] else a
            if n == k:
                q = q.clone() if _is_orthogonal(q) else _make_orthogonal(q)
            else:  # completed to a full n x n orthogonal matrix
                filler = Tensor(creation._rng.standard_normal(
                    tuple(q.shape[:-2]) + (n, n - k)).astype(q.dtype))
                q = _make_orthogonal(ops["cat"]([q, filler], dim=-1))
            self.base = q
            # -I: with it, householder(zeros) is eye, as in PyTorch
            shape = tuple(q_init.shape)
            return -creation.eye(shape[-2], shape[-1], dtype=q_init.dtype).expand(shape).clone()


def orthogonal(module, name="weight", orthogonal_map=None, *, use_trivialization=True):
    """Reparametrize ``module.<name>`` (a matrix, or a batch of them) as an orthogonal
    matrix: ``orthogonal_map`` "matrix_exp" (square default), "cayley" or "householder"
    (the default otherwise); returns ``module``."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError("Expected a matrix or batch of matrices. Got a tensor of "
                         f"{weight.ndim} dimensions.")
    if orthogonal_map is None:
        orthogonal_map = "matrix_exp" if weight.shape[-2] == weight.shape[-1] else "householder"
    if orthogonal_map not in _OrthMaps.__members__:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", '
                         f'"householder". Got: {orthogonal_map}')
    orth = _Orthogonal(weight, _OrthMaps[orthogonal_map],
                       use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module


__all__ = ["orthogonal", "spectral_norm", "weight_norm"]
