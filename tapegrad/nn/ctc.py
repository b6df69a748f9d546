"""Connectionist Temporal Classification loss (``F.ctc_loss``, ``nn.CTCLoss``).

The per-sample negative log-likelihood and its gradient come from the forward-backward
algorithm in log space, run in NumPy over the whole batch at once (one step per time frame,
each sample's extended label sequence ``blank, l1, blank, l2, ..., blank`` padded to the
longest).  The result is one Python stop, an internal ``autograd.Function`` named
PyTorch's ``CtcLossBackward0``, whose backward is PyTorch's formula:
``grad[t, c] = exp(lp[t, c]) - exp(log(sum_{s: l's = c} alpha_t(s) beta_t(s)) + nll - lp[t, c])``
for ``t`` below the sample's input length, 0 beyond.  That is the gradient with respect to
the logits when ``log_probs`` is a ``log_softmax`` (the term ``exp(lp)`` then cancels in
log_softmax's backward): PyTorch's documented use, and the values PyTorch gives for any
``log_probs``.  The reductions are composed from primitives outside the stop.

>>> import tapegrad as tg, tapegrad.nn.functional as F
>>> lp = tg.zeros(2, 1, 2).log_softmax(2)
>>> round(F.ctc_loss(lp, tg.tensor([[1]]), [2], [1], reduction="sum").item(), 4)
0.2877
"""
import numpy as np

from .. import dtypes
from ..autograd.function import Function
from ..tensor import Tensor
from .windows import _check_tensor

_NEG = -np.inf


def _lengths(v, name, n):
    """Lengths as an int64 array of size ``n`` (a tensor, a sequence or an int)."""
    if isinstance(v, Tensor):
        if v.dtype.kind not in "iu":
            raise RuntimeError(f"ctc_loss(): {name} must be an integer tensor, got "
                               f"{dtypes.name(v.dtype)}")
        arr = np.asarray(v._data).reshape(-1)
    else:
        arr = np.asarray(v if isinstance(v, (list, tuple)) else [v])
        if arr.dtype.kind not in "iu":
            raise TypeError(f"ctc_loss(): {name} must be a tuple of ints or an integer tensor")
    if arr.size != n:
        raise RuntimeError(f"{name} must be of size batch_size")
    return arr.astype(np.int64)


def _check_range(arr, name, hi):
    for v in arr:
        if v < 0:
            raise RuntimeError(f"Expected {name} to have value at least 0, but got value {v} "
                               "(while checking arguments for ctc_loss_allocate_outputs)")
        if hi is not None and v > hi:
            raise RuntimeError(f"Expected {name} to have value at most {hi}, but got value {v}"
                               " (while checking arguments for ctc_loss_allocate_outputs)")


def _padded_targets(targets, tl, n):
    """(N, max target length) int64 labels, from padded 2-D or concatenated 1-D targets."""
    tv = np.asarray(targets._data).astype(np.int64)
    smax = int(tl.max()) if tl.size else 0
    if tv.ndim == 1 and n > 1 or tv.ndim == 1 and tv.size != smax:
        if tv.size != tl.sum():
            raise RuntimeError(f"Expected tensor to have size {int(tl.sum())} at dimension 0, "
                               f"but got size {tv.size} for argument #2 'targets' (while "
                               "checking arguments for ctc_loss_allocate_outputs)")
        out = np.zeros((n, smax), np.int64)
        starts = np.concatenate([[0], np.cumsum(tl)[:-1]])
        for i in range(n):
            out[i, :tl[i]] = tv[starts[i]:starts[i] + tl[i]]
        return out
    tv = tv.reshape(n, -1)
    if tv.shape[1] < smax:
        raise RuntimeError(f"Expected tensor to have size at least {smax} at dimension 1, but "
                           f"got size {tv.shape[1]} for argument #2 'targets' (while checking "
                           "arguments for ctc_loss_allocate_outputs)")
    return tv[:, :smax]


def _forward_backward(lp, labels, il, tl, blank):
    """(nll (N,), grad (T, N, C)) of the CTC loss, in log space; ``lp`` is (T, N, C)."""
    t_max, n, c = lp.shape
    width = 2 * labels.shape[1] + 1
    ext = np.full((n, width), blank, np.int64)  # blank, l1, blank, l2, ..., blank
    ext[:, 1::2] = labels
    s = np.arange(width)
    live = s[None, :] < (2 * tl + 1)[:, None]
    skip = np.zeros((n, width), bool)  # s - 2 -> s allowed: a label unlike the one before it
    skip[:, 2:] = (s[2:] % 2 == 1)[None, :] & (ext[:, 2:] != ext[:, :-2])
    rows = np.arange(n)[:, None]
    emit = np.where(live[None], lp[:, rows, ext], _NEG)  # (T, N, width)

    alpha = np.full((t_max, n, width), _NEG)
    if t_max:
        alpha[0, :, :2] = emit[0, :, :2]
    for t in range(1, t_max):
        prev = alpha[t - 1]
        acc = np.logaddexp(prev, _shift(prev, 1))
        acc = np.where(skip, np.logaddexp(acc, _shift(prev, 2)), acc)
        alpha[t] = acc + emit[t]
    last = np.maximum(il - 1, 0)
    end = alpha[last, np.arange(n)]  # (N, width) at each sample's last frame
    fin = np.take_along_axis(end, (2 * tl)[:, None], 1)[:, 0]
    fin_l = np.where(tl > 0, np.take_along_axis(end, np.maximum(2 * tl - 1, 0)[:, None], 1)[:, 0],
                     _NEG)
    ll = np.logaddexp(fin, fin_l)
    ll = np.where(il > 0, ll, np.where(tl == 0, 0.0, _NEG))  # no frames: only "" is possible
    beta = np.full((t_max, n, width), _NEG)
    finals = live & ((s[None, :] == 2 * tl[:, None]) | (s[None, :] == 2 * tl[:, None] - 1))
    for t in range(t_max - 1, -1, -1):
        if t + 1 < t_max:
            nxt = beta[t + 1]
            back = np.logaddexp(nxt, _shift(nxt, -1))
            skip_next = np.zeros_like(skip)
            skip_next[:, :-2] = skip[:, 2:]
            back = np.where(skip_next, np.logaddexp(back, _shift(nxt, -2)), back)
            rec = back + emit[t]
        else:
            rec = np.full((n, width), _NEG)
        start = (t == il - 1)[:, None] & finals
        beta[t] = np.where(start, emit[t], np.where((t < il - 1)[:, None], rec, _NEG))
    nll = -ll
    with np.errstate(invalid="ignore", over="ignore"):
        post = np.exp(alpha + beta - np.where(np.isfinite(emit), emit, 0.0) + nll[None, :, None])
        post = np.where(live[None], post, 0.0)
        occupancy = np.zeros((t_max, n, c))
        for k in range(width):  # sum the posteriors of the positions that emit each class
            np.add.at(occupancy, (slice(None), np.arange(n), ext[:, k]), post[:, :, k])
        grad = np.exp(lp) - occupancy
    grad[np.arange(t_max)[:, None] >= il[None, :]] = 0.0
    return nll, grad


def _shift(a, k):
    """``a`` (N, width) moved ``k`` positions right (left for k < 0), -inf filling in."""
    out = np.full_like(a, _NEG)
    if k > 0:
        out[:, k:] = a[:, :-k]
    else:
        out[:, :k] = a[:, -k:]
    return out


class _CTC(Function):
    node_name = "CtcLossBackward0"

    @staticmethod
    def forward(ctx, log_probs, labels, il, tl, blank, zero_infinity):
        lp = np.asarray(log_probs._data, dtype=np.float64)
        nll, grad = _forward_backward(lp, labels, il, tl, blank)
        if zero_infinity:  # (the loss itself is zeroed by ctc_nll's where, as PyTorch's)
            grad[:, np.isinf(nll)] = 0.0
        ctx.grad = grad.astype(log_probs.dtype)
        return Tensor(nll.astype(log_probs.dtype))

    @staticmethod
    def backward(ctx, g):
        return g.reshape(1, -1, 1) * Tensor(ctx.grad), None, None, None, None, None


def ctc_nll(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity):
    """The per-sample losses (N,) of ``ctc_loss`` (its arguments checked, with PyTorch's
    messages) and the target lengths (for ``reduction='mean'``)."""
    _check_tensor(log_probs, "ctc_loss", "log_probs")
    _check_tensor(targets, "ctc_loss", "targets")
    if log_probs.dtype.kind != "f":
        raise NotImplementedError(f'"ctc_loss_cpu" not implemented for '
                                  f"'{dtypes.torch_name(log_probs.dtype)}'")
    if log_probs.ndim not in (2, 3):
        raise RuntimeError(f"ctc_loss(): expected log_probs to be 2-D (T, C) or 3-D (T, N, C), "
                           f"but got a tensor of size {list(log_probs.shape)}")
    lp = log_probs if log_probs.ndim == 3 else log_probs.unsqueeze(1)
    t_max, n, c = lp.shape
    if not 0 <= blank < c:
        raise RuntimeError("blank must be in label range")
    il = _lengths(input_lengths, "input_lengths", n)
    tl = _lengths(target_lengths, "target_lengths", n)
    _check_range(il, "input_lengths", t_max)
    _check_range(tl, "target_lengths", None)
    labels = _padded_targets(targets, tl, n)
    used = labels[np.arange(labels.shape[1])[None, :] < tl[:, None]]
    if used.size and (used.min() < 0 or used.max() >= c):
        raise IndexError(f"ctc_loss(): target index out of range: labels must be in [0, {c}), "
                         f"got {int(used.min())}..{int(used.max())}")
    nll = _CTC.apply(lp, labels, il, tl, int(blank), bool(zero_infinity))
    if zero_infinity:  # PyTorch's ctc_loss: where(loss == inf, 0, loss), WhereBackward0
        nll = nll.where(nll != np.inf, 0.0)
    return nll, tl
