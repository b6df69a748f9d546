"""Attention (``scaled_dot_product_attention`` and ``multi_head_attention_forward``),
composed from primitives: batched matmuls, the mask added to the scores, a softmax row and
dropout, with PyTorch's mask conventions (a boolean mask of scaled_dot_product_attention
marks the pairs that take part; a boolean mask of multi-head attention marks those that do
not).

>>> import tapegrad as tg, tapegrad.nn.functional as F
>>> q = tg.ones(1, 2, 3, 4)
>>> F.scaled_dot_product_attention(q, q, q, is_causal=True).shape
torch.Size([1, 2, 3, 4])
"""
import contextlib
import enum
import math

import numpy as np

from .. import creation, ops
from ..tensor import Tensor, host_values


def _dropout(x, p, training):
    """Inverted dropout of the attention weights (the generator of ``F.dropout``)."""
    if not training or p == 0.0:
        return x
    keep = creation._rng.random(tuple(x.shape)) >= p
    return x * Tensor(keep.astype(x.dtype) / x.dtype.type(1.0 - p))


def _float_mask(mask, dtype, allowed_when_true):
    """A boolean or float mask as an additive float mask: -inf where a pair is left out."""
    if mask is None:
        return None
    if mask.dtype == np.bool_:  # (by an op: a traced mask's values follow the point)
        out = ops.where(mask, 0.0, -math.inf) if allowed_when_true else \
            ops.where(mask, -math.inf, 0.0)
        return out if out.dtype == dtype else out.to(dtype)
    if mask.dtype.kind != "f":
        raise AssertionError(f"only bool and floating types of attn_mask are supported, got "
                             f"{mask.dtype}")
    return mask if mask.dtype == dtype else mask.to(dtype)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None, enable_gqa=False):
    """``softmax(query key^T * scale + mask) value`` over the last two dims (``scale``
    defaults to 1/sqrt(E)); ``attn_mask`` boolean (True: takes part) or float (added);
    ``is_causal``: each query sees the keys up to its own position."""
    for name, t in (("query", query), ("key", key), ("value", value)):
        if not isinstance(t, Tensor):
            raise TypeError(f"scaled_dot_product_attention(): argument '{name}' must be Tensor,"
                            f" not {type(t).__name__}")
    if query.shape[-1] != key.shape[-1] or key.shape[-2] != value.shape[-2]:
        raise RuntimeError(f"scaled_dot_product_attention: expected query (..., L, E), key "
                           f"(..., S, E) and value (..., S, Ev), got {list(query.shape)}, "
                           f"{list(key.shape)} and {list(value.shape)}")
    if is_causal and attn_mask is not None and not (
            query.ndim == key.ndim == value.ndim == 4 and dropout_p == 0.0 and
            value.shape[-1] == query.shape[-1]):
        # (PyTorch's CPU kernel, for 4-D inputs of one head size and no dropout, applies both;
        # its math fallback, for the others, refuses)
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set "
                           "when is_causal=True")
    if enable_gqa and query.ndim >= 3 and query.shape[-3] != key.shape[-3]:
        reps = query.shape[-3] // key.shape[-3]
        key = key.repeat_interleave(reps, -3)
        value = value.repeat_interleave(reps, -3)
    n_q, n_k = query.shape[-2], key.shape[-2]
    s = 1.0 / math.sqrt(query.shape[-1]) if scale is None else float(scale)
    scores = query.matmul(key.transpose(-2, -1)) * s
    bias = _float_mask(attn_mask, scores.dtype, True)
    if is_causal:  # (with a mask too: both apply, as PyTorch's CPU kernel does)
        causal = _float_mask(Tensor(np.tril(np.ones((n_q, n_k), bool))), scores.dtype, True)
        bias = causal if bias is None else bias + causal
    weights = _safe_softmax(scores if bias is None else scores + bias, bias)
    return _dropout(weights, dropout_p, True).matmul(value)


def _safe_softmax(scores, mask):
    """``scores.softmax(-1)`` with 0 (and a zero gradient) in the query rows that the
    additive ``mask`` leaves no key (-inf throughout), as PyTorch's scaled_dot_product_attention
    gives them, where a plain softmax gives NaN."""
    if mask is None:
        return scores.softmax(-1)
    # (which entries are -inf decides the path: a traced mask's are guarded)
    dead = np.isneginf(host_values(mask, "scaled_dot_product_attention",
                                   lambda t: t == -math.inf)).all(-1, keepdims=True)
    if not dead.any():
        return scores.softmax(-1)
    dead = Tensor(dead)
    return ops.where(dead, 0.0, ops.where(dead, 0.0, scores).softmax(-1))


def _in_projection(query, key, value, w, b, sizes):
    """The query, key and value projections: one weight split in three (``sizes``), or
    three weights."""
    ws = w.split(sizes, 0) if isinstance(w, Tensor) else w
    bs = (None,) * 3 if b is None else b.split(sizes, 0)
    return [x.matmul(wi.t()) + bi if bi is not None else x.matmul(wi.t())
            for x, wi, bi in zip((query, key, value), ws, bs, strict=True)]


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn,
                                 dropout_p, out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights=True, is_causal=False):
    """Multi-head attention of ``query`` (L, N, E) over ``key`` (S, N, Ek) and ``value``
    (S, N, Ev) (or unbatched (L, E), ...): (output (L, N, E), the attention weights
    (N, L, S) averaged over heads, or per head, or None if not ``need_weights``)."""
    if static_k is not None or static_v is not None:
        raise NotImplementedError("multi_head_attention_forward: static_k and static_v are not "
                                  "supported here")
    batched = query.ndim == 3
    if query.ndim not in (2, 3) or key.ndim != query.ndim or value.ndim != query.ndim:
        raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received "
                             f"{query.ndim}-D query tensor")
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the "
                           "Transformer module method `generate_square_subsequent_mask` to "
                           "create this mask.")
    if not batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but "
                             f"got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if key.shape[:2] != value.shape[:2]:
        raise AssertionError(f"key shape {tuple(key.shape)} does not match value shape "
                             f"{tuple(value.shape)}")
    dtype = query.dtype
    mask = _float_mask(attn_mask, dtype, False)
    pad_mask = _float_mask(key_padding_mask, dtype, False)
    if mask is not None:
        want = (tgt_len, key.shape[0]) if mask.ndim == 2 else \
            (bsz * num_heads, tgt_len, key.shape[0])
        if tuple(mask.shape) != want:
            raise RuntimeError(f"The shape of the {mask.ndim}D attn_mask is "
                               f"{tuple(mask.shape)}, but should be {want}.")
        if mask.ndim == 2:
            mask = mask.unsqueeze(0)
    w = (q_proj_weight, k_proj_weight, v_proj_weight) if use_separate_proj_weight else \
        in_proj_weight
    q, k, v = _in_projection(query, key, value, w, in_proj_bias,
                             [embed_dim, embed_dim, embed_dim])
    if bias_k is not None and bias_v is not None:
        k = ops.cat([k, bias_k.reshape(1, 1, embed_dim).expand(1, bsz, embed_dim)], 0)
        v = ops.cat([v, bias_v.reshape(1, 1, embed_dim).expand(1, bsz, embed_dim)], 0)
        mask, pad_mask = _pad_last(mask), _pad_last(pad_mask)
    # heads: (L, N, E) -> (N * H, L, head_dim)
    q = q.reshape(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = k.reshape(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    v = v.reshape(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    if add_zero_attn:
        k = ops.cat([k, Tensor(np.zeros((bsz * num_heads, 1, head_dim), k.dtype))], 1)
        v = ops.cat([v, Tensor(np.zeros((bsz * num_heads, 1, head_dim), v.dtype))], 1)
        mask, pad_mask = _pad_last(mask), _pad_last(pad_mask)
    src_len = k.shape[1]
    if pad_mask is not None:
        if tuple(pad_mask.shape) != (bsz, src_len):
            raise AssertionError(f"expecting key_padding_mask shape of {(bsz, src_len)}, but "
                                 f"got {tuple(pad_mask.shape)}")
        pad_mask = pad_mask.reshape(bsz, 1, 1, src_len).expand(bsz, num_heads, 1, src_len)
        pad_mask = pad_mask.reshape(bsz * num_heads, 1, src_len)
        mask = pad_mask if mask is None else mask + pad_mask
    scores = (q * math.sqrt(1.0 / head_dim)).matmul(k.transpose(1, 2))
    if mask is not None:
        scores = scores + mask
    # without weights PyTorch runs scaled_dot_product_attention: 0 in a fully masked row;
    # with them, its softmax: NaN there
    weights = _dropout(scores.softmax(-1) if need_weights else _safe_softmax(scores, mask),
                       dropout_p, training)
    out = weights.matmul(v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
    out = (out.matmul(out_proj_weight.t()) + out_proj_bias if out_proj_bias is not None else
           out.matmul(out_proj_weight.t())).reshape(tgt_len, bsz, embed_dim)
    if not batched:
        out = out.squeeze(1)
    if not need_weights:
        return out, None
    weights = weights.reshape(bsz, num_heads, tgt_len, src_len)
    if average_attn_weights:
        weights = weights.mean(1)
    return out, (weights if batched else weights.squeeze(0))


def _pad_last(mask):
    """An additive mask with one more key position (0: it takes part)."""
    if mask is None:
        return None
    zeros = Tensor(np.zeros(tuple(mask.shape[:-1]) + (1,), mask.dtype))
    return ops.cat([mask, zeros], -1)


# ---- torch.nn.attention's backend selection -------------------------------------------------
class SDPBackend(enum.Enum):
    """The kernels ``sdpa_kernel`` chooses among (PyTorch's names and values); tapegrad has
    one, composed from primitives, whichever is named."""

    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4

    def __int__(self):
        return self.value

    __index__ = __int__


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority=False):
    """PyTorch's context that picks scaled_dot_product_attention's backends: checked as
    PyTorch checks them; attention inside runs tapegrad's one kernel.

    >>> import tapegrad as tg
    >>> from tapegrad.nn.attention import SDPBackend, sdpa_kernel
    >>> with sdpa_kernel([SDPBackend.MATH, SDPBackend.FLASH_ATTENTION]) as state:
    ...     state
    {}
    """
    if not isinstance(backends, (list, SDPBackend)):
        raise AssertionError("Backend must be an instance of SDPBackend or a list of "
                             f"SDPBackend instances, got {type(backends).__name__}")
    yield {}
