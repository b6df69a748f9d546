"""Normalisation layers' functions (batch_norm, layer_norm, group_norm) and embedding,
composed from primitives: a mean, a biased variance (VarBackward0) and elementwise rows, so
their gradients are PyTorch's to rounding.  batch_norm updates the running statistics in
place, outside the graph, with the unbiased variance, as PyTorch does.

>>> import tapegrad as tg, tapegrad.nn.functional as F
>>> F.layer_norm(tg.tensor([[1.0, 3.0]]), (2,), eps=0.0).tolist()
[[-1.0, 1.0]]
"""
import numpy as np

from .. import ops
from ..autograd.function import Function
from ..grad_mode import no_grad
from ..ops._record import named_result
from ..tensor import Tensor, host_values
from .windows import _check_tensor, _float_input


def _normalise(x, dims, eps):
    """(x - mean) / sqrt(var + eps) over ``dims`` (biased variance), with the mean and var."""
    mean = x.mean(dims, keepdim=True)
    var = x.var(dims, keepdim=True, correction=0)
    return (x - mean) / (var + eps).sqrt(), mean, var


def _affine(y, weight, bias, shape):
    if weight is not None:
        y = y * weight.reshape(*shape)
    if bias is not None:
        y = y + bias.reshape(*shape)
    return y


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):
    """Normalise each channel (dim 1) of ``input`` by the batch's statistics (``training``)
    or by ``running_mean``/``running_var``; in training, the running statistics (if given)
    move towards the batch's by ``momentum``, the variance unbiased.

    >>> import tapegrad as tg, tapegrad.nn.functional as F
    >>> F.batch_norm(tg.tensor([[1.0], [3.0]]), None, None, training=True, eps=0.0).tolist()
    [[-1.0], [1.0]]
    """
    _float_input(input, "batch_norm")
    if input.ndim < 2:
        raise ValueError(f"expected 2D or 3D input (got {input.ndim}D input)")
    c = input.shape[1]
    for name, t in (("running_mean", running_mean), ("running_var", running_var),
                    ("weight", weight), ("bias", bias)):
        if t is not None:
            _check_tensor(t, "batch_norm", name)
            if t.numel() != c:
                raise RuntimeError(f"{name} should contain {c} elements not {t.numel()}")
    shape = (1, c) + (1,) * (input.ndim - 2)
    dims = (0,) + tuple(range(2, input.ndim))
    if training:
        count = input.numel() // c if c else 0
        if count <= 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got "
                             f"input size torch.Size({list(input.shape)})")
        y, mean, var = _normalise(input, dims, eps)
        with no_grad():
            m = 0.0 if momentum is None else momentum
            if running_mean is not None:
                new = running_mean * (1 - m) + mean.detach().reshape(c) * m
                running_mean.copy_(new)
            if running_var is not None:
                unbiased = var.detach().reshape(c) * (count / (count - 1))
                running_var.copy_(running_var * (1 - m) + unbiased * m)
    else:
        if running_mean is None or running_var is None:
            raise RuntimeError("batch_norm: running_mean and running_var must be defined "
                               "in evaluation mode (pass training=True to use the batch's "
                               "statistics)")
        mean = running_mean.to(input.dtype).reshape(*shape)
        var = running_var.to(input.dtype).reshape(*shape)
        y = (input - mean) / (var + eps).sqrt()
    return named_result(_affine(y, weight, bias, shape), "NativeBatchNormBackward0", input,
                        weight, bias)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalise over the last ``len(normalized_shape)`` dims, then scale and shift."""
    _float_input(input, "layer_norm")
    ns = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None:
            _check_tensor(t, "layer_norm", name)
            if tuple(t.shape) != ns:
                raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, "
                                   f"but got {name} of shape {list(t.shape)} and "
                                   f"normalized_shape = {list(ns)}")
    if not ns or tuple(input.shape[input.ndim - len(ns):]) != ns or input.ndim < len(ns):
        raise RuntimeError(f"Given normalized_shape={list(ns)}, expected input with shape "
                           f"[*, {', '.join(map(str, ns))}], but got input of size"
                           f"{list(input.shape)}")
    dims = tuple(range(input.ndim - len(ns), input.ndim))
    y, _, _ = _normalise(input, dims, eps)
    return named_result(_affine(y, weight, bias, ns), "NativeLayerNormBackward0", input,
                        weight, bias)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Normalise each group of ``num_groups`` channel groups (over its channels and
    positions), then scale and shift per channel."""
    _float_input(input, "group_norm")
    if input.ndim < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received "
                           f"{input.ndim}")
    n, c = input.shape[:2]
    if c % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by "
                           f"num_groups, but got input of shape {list(input.shape)} and "
                           f"num_groups={num_groups}")
    y, _, _ = _normalise(input.reshape(n, num_groups, -1), (2,), eps)
    y = _affine(y.reshape(*input.shape), weight, bias, (1, c) + (1,) * (input.ndim - 2))
    return named_result(y, "NativeGroupNormBackward0", input, weight, bias)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    """The rows of ``weight`` at the indices ``input`` (an IndexSelect row, named
    EmbeddingBackward0 as PyTorch's node); no
    gradient reaches row ``padding_idx``; ``max_norm`` renormalises the rows looked up, in
    place, as PyTorch does.

    >>> import tapegrad as tg, tapegrad.nn.functional as F
    >>> F.embedding(tg.tensor([1, 0]), tg.tensor([[0.0, 1.0], [2.0, 3.0]])).tolist()
    [[2.0, 3.0], [0.0, 1.0]]
    """
    _check_tensor(input, "embedding")
    _check_tensor(weight, "embedding", "weight")
    if input.dtype not in (np.int64, np.int32):  # (PyTorch names a bool tensor's type so)
        got = "CPUBoolType" if input.dtype == np.bool_ else input.type()
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the "
                           f"following scalar types: Long, Int; but got {got} instead (while "
                           f"checking arguments for embedding)")
    if weight.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    num = weight.shape[0]
    idx = host_values(input, "embedding").astype(np.int64).reshape(-1)  # (read in NumPy)
    if idx.size and (idx.min() < 0 or idx.max() >= num):
        raise IndexError("index out of range in self")
    if padding_idx is not None:
        if not -num <= padding_idx < num:
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx = padding_idx % num
    if max_norm is not None:
        _renorm(weight, np.unique(idx), max_norm, norm_type)
    rows = weight.index_select(0, Tensor(idx))
    if padding_idx is not None and (idx == padding_idx).any():
        # the looked-up value of the padding row, but no gradient to it
        keep = Tensor((idx != padding_idx)[:, None])
        rows = ops.where(keep, rows, weight.detach().index_select(0, Tensor(idx)))
    if scale_grad_by_freq and rows.requires_grad:
        rows = _grad_over_counts(rows, idx)
    return named_result(rows.reshape(*input.shape, weight.shape[1]), "EmbeddingBackward0",
                        weight)


def _grad_over_counts(rows, idx):
    """``rows`` (one per index of ``idx``), the gradient reaching each divided by how often
    its index occurs in ``idx`` (embedding's scale_grad_by_freq)."""
    _, where, counts = np.unique(idx, return_inverse=True, return_counts=True)
    return _OverCounts.apply(rows, (1.0 / counts[where.reshape(-1)])[:, None])


class _OverCounts(Function):
    """The identity, its backward the gradient times ``scale``.  That backward's own
    derivative (in a double backward) is the identity, as PyTorch's embedding double
    backward: the lookup's Jacobian, with the 1/count applied once, by this node."""

    @staticmethod
    def forward(ctx, rows, scale):
        ctx.scale = scale
        return rows.clone()

    @staticmethod
    def backward(ctx, grad):
        if not grad.requires_grad:  # PyTorch's bits: each occurrence's grad * (1 / count)
            return grad * Tensor(ctx.scale.astype(grad.dtype)), None
        return grad + (grad * Tensor((ctx.scale - 1.0).astype(grad.dtype))).detach(), None


def _renorm(weight, rows, max_norm, norm_type):
    """Scale each of ``rows`` whose ``norm_type``-norm exceeds ``max_norm`` down to it.
    Computed in NumPy and written back as a constant: while traced, a weight f computes is
    guarded at which rows exceed, and at its values if any does (replay repeated the traced
    point's rows)."""
    how = "embedding's max_norm"
    with no_grad():
        w = np.array(host_values(weight, how, decides=lambda t: t.index_select(
            0, Tensor(rows)).norm(p=norm_type, dim=1) > max_norm), dtype=np.float64)
        norms = np.linalg.norm(w[rows], ord=norm_type, axis=1)
        big = norms > max_norm
        if big.any():
            host_values(weight, how)
            w[rows[big]] *= (max_norm / (norms[big] + 1e-7))[:, None]
            weight.copy_(Tensor(w.astype(weight.dtype)))


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.1, eps=1e-5):
    """Normalise each channel of each sample over its positions (batch_norm of the input
    seen as one sample of N * C channels, as PyTorch computes it); the running statistics,
    if given, move by the average over the batch."""
    _float_input(input, "instance_norm")
    if input.ndim < 3:
        raise ValueError(f"expected 3D or higher input (got {input.ndim}D input)")
    n, c = input.shape[:2]
    if use_input_stats and input.numel() // max(n * c, 1) <= 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size "
                         f"torch.Size({list(input.shape)})")
    x = input.reshape(1, n * c, *input.shape[2:])
    tiled = [None if t is None else Tensor(np.tile(np.asarray(t._data), n))
             for t in (running_mean, running_var)]
    w = None if weight is None else weight.repeat(n)
    b = None if bias is None else bias.repeat(n)
    y = batch_norm(x, tiled[0], tiled[1], w, b, use_input_stats, momentum, eps)
    with no_grad():
        for own, tile in zip((running_mean, running_var), tiled, strict=True):
            if own is not None and use_input_stats:
                own.copy_(Tensor(np.asarray(tile._data).reshape(n, c).mean(0).astype(
                    own.dtype)))
    return y.reshape(*input.shape)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """``x / sqrt(mean(x^2) + eps)`` over the trailing ``normalized_shape`` dims (``eps``
    defaults to the dtype's machine epsilon), times ``weight``."""
    _float_input(input, "rms_norm")
    ns = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if not ns or tuple(input.shape[input.ndim - len(ns):]) != ns or input.ndim < len(ns):
        raise RuntimeError(f"Given normalized_shape={list(ns)}, expected input with shape "
                           f"[*, {', '.join(map(str, ns))}], but got input of size"
                           f"{list(input.shape)}")
    eps = float(np.finfo(input.dtype).eps) if eps is None else eps
    dims = tuple(range(input.ndim - len(ns), input.ndim))
    y = input * ((input * input).mean(dims, keepdim=True) + eps).rsqrt()
    return y if weight is None else y * weight


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """``x / (k + alpha * mean of x^2 over the ``size`` neighbouring channels) ^ beta``
    (the window zero-padded by size // 2 before and (size - 1) // 2 after)."""
    _float_input(input, "local_response_norm")
    if input.ndim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input "
                         f"(got {input.ndim} dimensions)")
    if input.numel() == 0:
        return input
    c = input.shape[1]
    sq = input * input
    lo, hi = size // 2, (size - 1) // 2
    parts = [Tensor(np.zeros((input.shape[0], lo, *input.shape[2:]), input.dtype)), sq,
             Tensor(np.zeros((input.shape[0], hi, *input.shape[2:]), input.dtype))]
    padded = ops.cat(parts, 1)
    total = padded.narrow(1, 0, c)
    for j in range(1, size):
        total = total + padded.narrow(1, j, c)
    return input / (total * (alpha / size) + k) ** beta


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False,
                  mode="mean", sparse=False, per_sample_weights=None, include_last_offset=False,
                  padding_idx=None):
    """Sums, means or maxima of bags of embeddings: the rows of a 2-D ``input`` are the
    bags, or a 1-D ``input`` is cut at ``offsets``; entries equal to ``padding_idx`` are
    left out (an empty bag gives zeros); ``per_sample_weights`` scale the rows (mode
    'sum')."""
    _check_tensor(input, "embedding_bag")
    _check_tensor(weight, "embedding_bag", "weight")
    if mode not in ("sum", "mean", "max"):
        raise ValueError(f"mode has to be one of sum, mean or max, got {mode}")
    if scale_grad_by_freq:
        raise NotImplementedError("embedding_bag(scale_grad_by_freq=True) is not supported "
                                  "here")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. "
                                  f"per_sample_weights is only supported for mode='sum' (got "
                                  f"mode='{mode}'). Please open a feature request on GitHub.")
    idx = host_values(input, "embedding_bag").astype(np.int64)
    if input.ndim == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated "
                             "is a mini-batch of fixed length sequences.")
        bags = [np.arange(i * idx.shape[1], (i + 1) * idx.shape[1]) for i in range(idx.shape[0])]
        idx = idx.reshape(-1)
    elif input.ndim == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        offs = host_values(offsets, "embedding_bag").astype(np.int64).reshape(-1)
        if offs.size and offs[0] != 0:
            raise RuntimeError(f"offsets[0] has to be 0, i.e., the first sequence in the "
                               f"mini-batch has to start from position 0. However, got "
                               f"{offs[0]}")
        ends = np.append(offs[1:], idx.size) if not include_last_offset else offs[1:]
        starts = offs if not include_last_offset else offs[:-1]
        bags = [np.arange(s, e) for s, e in zip(starts, ends, strict=True)]
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                         f"{input.ndim}")
    num = weight.shape[0]
    if idx.size and (idx.min() < 0 or idx.max() >= num):
        raise IndexError("index out of range in self")
    if padding_idx is not None:
        padding_idx %= num
        bags = [b[idx[b] != padding_idx] for b in bags]
    if max_norm is not None:
        _renorm(weight, np.unique(idx), max_norm, norm_type)
    width = max([len(b) for b in bags] + [1])
    # each bag's positions in the flat input, padded with the extra row after them
    slots = np.full((len(bags), width), idx.size, np.int64)
    for i, b in enumerate(bags):
        slots[i, :len(b)] = b
    extra = Tensor(np.full((1, weight.shape[1]), -np.inf if mode == "max" else 0.0,
                           weight.dtype))
    rows = ops.cat([weight.index_select(0, Tensor(idx)), extra], 0)
    if per_sample_weights is not None:
        scale = ops.cat([per_sample_weights.reshape(-1), Tensor(np.zeros(1, weight.dtype))], 0)
        rows = rows * scale.unsqueeze(1)
    picked = rows.index_select(0, Tensor(slots.reshape(-1))).reshape(len(bags), width, -1)
    counts = np.array([len(b) for b in bags])
    if mode == "max":
        out = picked.max(1)[0]
        if (counts == 0).any():
            out = ops.where(Tensor((counts == 0)[:, None]), Tensor(np.zeros(1, weight.dtype)), out)
    else:
        out = picked.sum(1)
        if mode == "mean":
            out = out / Tensor(np.maximum(counts, 1)[:, None].astype(weight.dtype))
    # PyTorch's one node, whatever the mode, leads to the weight and the sample weights
    return named_result(out, "EmbeddingBagBackward0", weight, per_sample_weights)
