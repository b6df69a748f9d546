"""The transforms of ``torch.distributions.transforms`` that act on a vector or a matrix
(softmax, stick-breaking, Cholesky factors, correlation Cholesky factors), on slices (cat,
stack), on shapes (reshape, independent), and through a distribution's cdf.  PyTorch's
formulas, in tapegrad ops, so gradients flow through forward, inverse and Jacobian."""
import math

import numpy as np

from .. import creation, linalg
from ..nn import functional as F
from ..ops import EXPORTS as _OPS
from ..tensor import Size
from . import constraints
from .distribution import sum_rightmost
from .transforms import ComposeTransform, Transform, _clipped_sigmoid, equal_if_a

_cat, _stack = _OPS["cat"], _OPS["stack"]


identity_transform = ComposeTransform([])  # PyTorch's: the empty composition


class _Vector(Transform):
    """A transform of the last dim as one event."""

    event_dim = 1
    domain = constraints.real_vector


@equal_if_a
class SoftmaxTransform(_Vector):
    """``softmax`` over the last dim; not a bijection (the inverse is ``log``)."""

    bijective = False
    codomain = constraints.simplex

    def _call(self, x):
        p = (x - x.amax(-1, keepdim=True)).exp()
        return p / p.sum(-1, keepdim=True)

    def _inverse(self, y):
        return y.log()


def _sticks(n, like):
    """``log(K - k)`` for k = 0..n-1 (K = n + 1): the offsets that centre the sticks."""
    return creation.tensor(np.log(np.arange(n, 0, -1, dtype=np.float64)), dtype=like.dtype)


@equal_if_a
class StickBreakingTransform(_Vector):
    """R^(K-1) onto the K-simplex by breaking a stick: a bijection."""

    codomain = constraints.simplex

    def _call(self, x):
        z = _clipped_sigmoid(x - _sticks(x.shape[-1], x))
        rest = (1 - z).cumprod(-1)
        return F.pad(z, (0, 1), value=1.0) * F.pad(rest, (1, 0), value=1.0)

    def _inverse(self, y):
        crop = y[..., :-1]
        left = (1 - crop.cumsum(-1)).clamp(min=float(np.finfo(y.dtype).tiny))
        return crop.log() - left.log() + _sticks(crop.shape[-1], y)

    def log_abs_det_jacobian(self, x, y):
        x = x - _sticks(x.shape[-1], x)
        return (-x + F.logsigmoid(x) + y[..., :-1].log()).sum(-1)

    def forward_shape(self, shape):
        if len(shape) < 1:
            raise ValueError("Too few dimensions on input")
        return Size(tuple(shape[:-1]) + (shape[-1] + 1,))

    def inverse_shape(self, shape):
        if len(shape) < 1:
            raise ValueError("Too few dimensions on input")
        return Size(tuple(shape[:-1]) + (shape[-1] - 1,))


def _diag_embed(d):
    return linalg.diag_embed(d)


@equal_if_a
class LowerCholeskyTransform(Transform):
    """An unconstrained square matrix to a lower-triangular one with positive diagonal
    (the strict lower part kept, the diagonal exponentiated)."""

    event_dim = 2
    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.lower_cholesky

    def _call(self, x):
        return x.tril(-1) + _diag_embed(x.diagonal(dim1=-2, dim2=-1).exp())

    def _inverse(self, y):
        return y.tril(-1) + _diag_embed(y.diagonal(dim1=-2, dim2=-1).log())


@equal_if_a
class PositiveDefiniteTransform(Transform):
    """An unconstrained square matrix to ``L L^T``, L from LowerCholeskyTransform."""

    event_dim = 2
    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.positive_definite

    def _call(self, x):
        L = LowerCholeskyTransform()(x)
        return L @ L.mT

    def _inverse(self, y):
        return LowerCholeskyTransform().inv(linalg.cholesky(y))


def _tril_index(n, diag):
    """Flat positions (row-major) of the entries of an n x n matrix on or below diagonal
    ``diag``, in PyTorch's order."""
    r, c = np.indices((n, n))
    return np.flatnonzero(c <= r + diag)


def vec_to_tril_matrix(vec, diag=0):
    """A vector of the lower-triangular entries (row-major) as a square matrix."""
    m = vec.shape[-1]
    n = int(round((-(1 + 2 * diag) + math.sqrt((1 + 2 * diag) ** 2 + 8 * m
                                                 + 4 * abs(diag) * (diag + 1))) / 2))
    idx = _tril_index(n, diag)
    if len(idx) != m:
        raise ValueError("Incorrect number of elements in vec")
    where = np.full(n * n, m)  # the entries above point at a padded zero
    where[idx] = np.arange(m)
    padded = F.pad(vec, (0, 1))
    return padded[..., where].reshape(tuple(vec.shape[:-1]) + (n, n))


def tril_matrix_to_vec(mat, diag=0):
    """The entries of ``mat`` on or below diagonal ``diag``, row-major, as a vector."""
    n = mat.shape[-1]
    return mat.reshape(tuple(mat.shape[:-2]) + (n * n,))[..., _tril_index(n, diag)]


class CorrCholeskyTransform(Transform):
    """R^(D(D-1)/2) onto Cholesky factors of D x D correlation matrices (tanh, then
    stick-breaking of each row's unit norm): a bijection."""

    domain = constraints.real_vector
    event_dim = 1

    @property
    def codomain(self):
        return constraints.corr_cholesky

    @property
    def _dims(self):
        return 1, 2

    def _call(self, x):
        eps = float(np.finfo(x.dtype).eps)
        r = vec_to_tril_matrix(x.tanh().clamp(min=-1 + eps, max=1 - eps), diag=-1)
        left = (1 - r ** 2).sqrt().cumprod(-1)
        eye = creation.eye(r.shape[-1], dtype=r.dtype)
        return (r + eye) * F.pad(left[..., :-1], (1, 0), value=1.0)

    def _inverse(self, y):
        left = 1 - (y * y).cumsum(-1)
        shifted = F.pad(left[..., :-1], (1, 0), value=1.0)
        t = tril_matrix_to_vec(y, diag=-1) / tril_matrix_to_vec(shifted, diag=-1).sqrt()
        return (t.log1p() - (-t).log1p()) / 2

    def log_abs_det_jacobian(self, x, y, intermediates=None):
        left = tril_matrix_to_vec(1 - (y * y).cumsum(-1), diag=-2)
        tanh_part = -2 * (x + F.softplus(-2 * x) - math.log(2.0)).sum(-1)
        return 0.5 * left.log().sum(-1) + tanh_part

    def forward_shape(self, shape):
        if len(shape) < 1:
            raise ValueError("Too few dimensions on input")
        n = shape[-1]
        d = round((0.25 + 2 * n) ** 0.5 + 0.5)
        if d * (d - 1) // 2 != n:
            raise ValueError("Input is not a flattend lower-diagonal number")
        return Size(tuple(shape[:-1]) + (d, d))

    def inverse_shape(self, shape):
        if len(shape) < 2:
            raise ValueError("Too few dimensions on input")
        if shape[-2] != shape[-1]:
            raise ValueError("Input is not square")
        d = shape[-1]
        return Size(tuple(shape[:-2]) + (d * (d - 1) // 2,))


class IndependentTransform(Transform):
    """``base_transform`` with ``reinterpreted_batch_ndims`` more dims counted as one event
    (its log-Jacobian summed over them)."""

    def __init__(self, base_transform, reinterpreted_batch_ndims, cache_size=0):
        super().__init__(cache_size)
        self.base_transform = base_transform
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        self.event_dim = base_transform._dims[0] + reinterpreted_batch_ndims
        self.bijective = base_transform.bijective

    @property
    def _dims(self):
        d_in, d_out = self.base_transform._dims
        return d_in + self.reinterpreted_batch_ndims, d_out + self.reinterpreted_batch_ndims

    @property
    def domain(self):
        return constraints.independent(self.base_transform.domain,
                                       self.reinterpreted_batch_ndims)

    @property
    def codomain(self):
        return constraints.independent(self.base_transform.codomain,
                                       self.reinterpreted_batch_ndims)

    def _call(self, x):
        return self.base_transform(x)

    def _inverse(self, y):
        return self.base_transform.inv(y)

    def log_abs_det_jacobian(self, x, y):
        return sum_rightmost(self.base_transform.log_abs_det_jacobian(x, y),
                             self.reinterpreted_batch_ndims)

    def forward_shape(self, shape):
        return self.base_transform.forward_shape(shape)

    def inverse_shape(self, shape):
        return self.base_transform.inverse_shape(shape)

    def __repr__(self):
        return f"IndependentTransform({self.base_transform!r}, {self.reinterpreted_batch_ndims})"


class ReshapeTransform(Transform):
    """The rightmost ``in_shape`` dims reshaped to ``out_shape`` (same number of elements);
    the log-Jacobian is 0."""

    def __init__(self, in_shape, out_shape, cache_size=0):
        super().__init__(cache_size)
        self.in_shape, self.out_shape = Size(in_shape), Size(out_shape)
        if self.in_shape.numel() != self.out_shape.numel():
            raise ValueError("in_shape, out_shape have different numbers of elements")
        self.event_dim = len(self.in_shape)

    @property
    def _dims(self):
        return len(self.in_shape), len(self.out_shape)

    @property
    def domain(self):
        return constraints.independent(constraints.real, len(self.in_shape))

    @property
    def codomain(self):
        return constraints.independent(constraints.real, len(self.out_shape))

    def _call(self, x):
        lead = tuple(x.shape[:x.ndim - len(self.in_shape)])
        return x.reshape(lead + tuple(self.out_shape))

    def _inverse(self, y):
        lead = tuple(y.shape[:y.ndim - len(self.out_shape)])
        return y.reshape(lead + tuple(self.in_shape))

    def log_abs_det_jacobian(self, x, y):
        return x.new_zeros(tuple(x.shape[:x.ndim - len(self.in_shape)]))

    def _swap(self, shape, a, b):
        if len(shape) < len(a):
            raise ValueError("Too few dimensions on input")
        cut = len(shape) - len(a)
        if tuple(shape[cut:]) != tuple(a):
            raise ValueError(f"Shape mismatch: expected {tuple(shape[cut:])} but got {tuple(a)}")
        return Size(tuple(shape[:cut]) + tuple(b))

    def forward_shape(self, shape):
        return self._swap(shape, self.in_shape, self.out_shape)

    def inverse_shape(self, shape):
        return self._swap(shape, self.out_shape, self.in_shape)


class CumulativeDistributionTransform(Transform):
    """``y = distribution.cdf(x)`` onto the unit interval; its log-Jacobian is the
    log-density."""

    codomain = constraints.unit_interval

    def __init__(self, distribution, cache_size=0):
        super().__init__(cache_size)
        self.distribution = distribution

    @property
    def domain(self):
        return self.distribution.support

    def _call(self, x):
        return self.distribution.cdf(x)

    def _inverse(self, y):
        return self.distribution.icdf(y)

    def log_abs_det_jacobian(self, x, y):
        return self.distribution.log_prob(x)


class _Slices(Transform):
    """One transform per slice of ``dim``: shared by CatTransform and StackTransform."""

    @property
    def event_dim(self):
        return max(t._dims[0] for t in self.transforms)

    @property
    def bijective(self):
        return all(t.bijective for t in self.transforms)

    def _map(self, v, how):
        return self._join([how(t, s) for t, s in zip(self.transforms, self._split(v),
                                                      strict=True)])

    def _call(self, x):
        return self._map(x, lambda t, s: t(s))

    def _inverse(self, y):
        return self._map(y, lambda t, s: t.inv(s))


class CatTransform(_Slices):
    """``tseq[i]`` applied to the ``lengths[i]`` slices of ``dim``, joined as ``cat``."""

    def __init__(self, tseq, dim=0, lengths=None, cache_size=0):
        super().__init__(cache_size)
        self.transforms = list(tseq)
        self.lengths = list(lengths) if lengths is not None else [1] * len(self.transforms)
        if len(self.lengths) != len(self.transforms):
            raise AssertionError(f"lengths ({len(self.lengths)}) must match transforms "
                                 f"({len(self.transforms)})")
        self.dim = dim

    @property
    def length(self):
        return sum(self.lengths)

    def _split(self, v):
        if v.shape[self.dim] != self.length:
            raise AssertionError(f"x.size({self.dim}) = {v.shape[self.dim]} must equal "
                                 f"length {self.length}")
        starts = np.cumsum([0] + self.lengths[:-1])
        return [v.narrow(self.dim, int(s), n) for s, n in zip(starts, self.lengths, strict=True)]

    def _join(self, parts):
        return _cat(parts, self.dim)

    def log_abs_det_jacobian(self, x, y):
        ev = self.event_dim
        terms = [sum_rightmost(t.log_abs_det_jacobian(a, b), ev - t._dims[0])
                 for t, a, b in zip(self.transforms, self._split(x), self._split(y), strict=True)]
        dim = (self.dim - x.ndim if self.dim >= 0 else self.dim) + ev
        return _cat(terms, dim) if dim < 0 else sum(terms)


class StackTransform(_Slices):
    """``tseq[i]`` applied to slice i of ``dim``, joined as ``stack``."""

    def __init__(self, tseq, dim=0, cache_size=0):
        super().__init__(cache_size)
        self.transforms, self.dim = list(tseq), dim

    def _split(self, v):
        if v.shape[self.dim] != len(self.transforms):
            raise AssertionError(f"x.size({self.dim}) = {v.shape[self.dim]} must equal "
                                 f"{len(self.transforms)}")
        return v.unbind(self.dim)

    def _join(self, parts):
        return _stack(parts, self.dim)

    def log_abs_det_jacobian(self, x, y):
        terms = [t.log_abs_det_jacobian(a, b)
                 for t, a, b in zip(self.transforms, self._split(x), self._split(y), strict=True)]
        return _stack(terms, self.dim)


__all__ = ["CatTransform", "ComposeTransform", "CorrCholeskyTransform",
           "CumulativeDistributionTransform", "IndependentTransform", "LowerCholeskyTransform",
           "PositiveDefiniteTransform", "ReshapeTransform", "SoftmaxTransform",
           "StackTransform", "StickBreakingTransform", "identity_transform",
           "tril_matrix_to_vec", "vec_to_tril_matrix"]
