"""Activations, losses and friends, composed from primitives (so they need no rules of their
own): each is a few recorded rows whose reverse rules already exist; ``linear`` (2-D) and
``log_softmax`` are primitives of their own (ops/linalg.py, ops/nn.py), one row each.
Convolution, pooling and padding live in windows.py, the normalisations and embedding in
norm.py; all are names of this module.
Arguments are checked before anything is recorded, with PyTorch's messages.

>>> import tapegrad as tg, tapegrad.nn.functional as F
>>> F.cross_entropy(tg.tensor([[2.0, 0.0]]), tg.tensor([0])).item() < 0.13
True
"""
import math
import warnings

import numpy as np

from .. import creation, dtypes, ops
from .._errors import missing, with_note
from .._fp import quiet
from .._state import state
from ..ops._record import named_result
from ..tensor import ComplexPart, Tensor, _wrap_dim, host_values
from .activations import (  # noqa: F401 (re-exported)
    _get_softmax_dim,
    celu,
    celu_,
    elu,
    elu_,
    glu,
    gumbel_softmax,
    hardshrink,
    hardsigmoid,
    hardswish,
    hardtanh,
    hardtanh_,
    mish,
    prelu,
    relu6,
    relu_,
    rrelu,
    rrelu_,
    selu,
    selu_,
    softmin,
    softshrink,
    softsign,
    tanhshrink,
    threshold,
    threshold_,
)
from ._refusals import non_float
from .activations import _operand
from .activations import _out as _maybe_inplace
from .attention import multi_head_attention_forward, scaled_dot_product_attention  # noqa: F401
from .ctc import ctc_nll
from .distance import cosine_similarity, pairwise_distance, pdist  # noqa: F401 (re-exported)
from .linear_cross_entropy import logits_of
from .norm import (  # noqa: F401 (re-exported)
    batch_norm,
    embedding,
    embedding_bag,
    group_norm,
    instance_norm,
    layer_norm,
    local_response_norm,
    rms_norm,
)
from .resize import (  # noqa: F401 (re-exported)
    interpolate,
    pixel_shuffle,
    pixel_unshuffle,
    upsample,
    upsample_bilinear,
    upsample_nearest,
)
from .sampling import (  # noqa: F401 (re-exported)
    GRID_SAMPLE_INTERPOLATION_MODES,
    GRID_SAMPLE_PADDING_MODES,
    affine_grid,
    grid_sample,
)
from .unpool import (  # noqa: F401 (re-exported)
    fractional_max_pool2d,
    fractional_max_pool2d_with_indices,
    fractional_max_pool3d,
    fractional_max_pool3d_with_indices,
    max_unpool1d,
    max_unpool2d,
    max_unpool3d,
)
from .windows import (  # noqa: F401 (re-exported)
    adaptive_max_pool1d,
    adaptive_max_pool1d_with_indices,
    adaptive_max_pool2d,
    adaptive_max_pool2d_with_indices,
    adaptive_max_pool3d,
    adaptive_max_pool3d_with_indices,
    channel_shuffle,
    lp_pool1d,
    lp_pool2d,
    lp_pool3d,
    max_pool1d_with_indices,
    max_pool2d_with_indices,
    max_pool3d_with_indices,
    adaptive_avg_pool1d,
    adaptive_avg_pool2d,
    adaptive_avg_pool3d,
    avg_pool1d,
    avg_pool2d,
    avg_pool3d,
    conv1d,
    conv2d,
    conv3d,
    conv_transpose1d,
    conv_transpose2d,
    conv_transpose3d,
    fold,
    max_pool1d,
    max_pool2d,
    max_pool3d,
    pad,
    unfold,
)

sigmoid = ops.sigmoid
tanh = ops.tanh
softplus = ops.softplus
logsigmoid = ops.log_sigmoid

_REDUCTIONS = ("mean", "sum", "none")


def _reduction(reduction, size_average=None, reduce=None):
    """The reduction string, from PyTorch's legacy ``size_average``/``reduce`` if given."""
    if size_average is not None or reduce is not None:
        warnings.warn("size_average and reduce args will be deprecated, please use "
                      "reduction='mean' (or 'sum', 'none') instead.", stacklevel=3)
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        reduction = "none" if not reduce else "mean" if size_average else "sum"
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction "
                         "(use 'mean', 'sum' or 'none')")
    return reduction


def _reduce(loss, reduction, node=None, *inputs):
    """``loss`` reduced; ``node``: PyTorch's node name for the loss (its grad_fn prints so),
    its next_functions those of ``inputs`` (shape.named_result)."""
    if reduction == "mean":
        loss = loss.mean()
    elif reduction == "sum":
        loss = loss.sum()
    return loss if node is None else named_result(loss, node, *inputs)


def _float_kernel(kernel, input, target):
    """PyTorch's refusal of a loss kernel (mse, smooth_l1, huber) between integer or bool
    tensors, before their subtraction could refuse bools in other words."""
    if isinstance(input, Tensor) and isinstance(target, Tensor) and \
            "f" not in (input.dtype.kind, target.dtype.kind):  # (a float one: a float result)
        dt = dtypes.result_type((input.dtype, input.ndim), (target.dtype, target.ndim))
        if np.dtype(dt).kind in "biu":
            raise NotImplementedError(f'"{kernel}_cpu" not implemented for '
                                      f"'{dtypes.torch_name(dt)}'")


def _tensor(x, op, name="input"):
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument '{name}' must be Tensor, not {type(x).__name__}")
    return x


def _float_tensor(x, op, name="input"):
    _tensor(x, op, name)
    if x.dtype.kind != "f":
        raise non_float(x, op, f"{op}(): expected a floating point '{name}', got "
                        f"{dtypes.torch_name(x.dtype)} (convert it with .double() or .float())")
    return x


def _target_size_warning(input, target, op):
    _tensor(input, op)
    _tensor(target, op, "target")
    if tuple(input.shape) != tuple(target.shape):
        warnings.warn(
            f"Using a target size ({_size(target)}) that is different to the input size "
            f"({_size(input)}). This will likely lead to incorrect results due to "
            "broadcasting. Please ensure they have the same size.", stacklevel=3)


def _size(t):
    return f"torch.Size({list(t.shape)})"


def _const(value, like):
    """A constant tensor in ``like``'s float dtype."""
    return Tensor(np.asarray(value, dtype=like.dtype))


# ---- softmax family ----------------------------------------------------------------------
def _softmax_dim(input, dim, op, stacklevel):
    if dim is None:
        dim = _get_softmax_dim(op, input.ndim, stacklevel + 1)
    return _wrap_dim(dim, input.ndim, op)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """``x - logsumexp(x, dim)``, computed after subtracting the max (no overflow): one row
    (LogSoftmaxBackward0).

    >>> import tapegrad as tg, tapegrad.nn.functional as F
    >>> F.log_softmax(tg.tensor([0.0, 0.0]), dim=0).exp()
    tensor([0.5000, 0.5000])
    """
    dim = _softmax_dim(_tensor(input, "log_softmax"), dim, "log_softmax", _stacklevel)
    x = input.to(dtype) if dtype is not None else input
    if x.ndim == 0 and x.is_floating_point():
        return x - x  # PyTorch: log_softmax of a 0-d tensor is 0
    if x.ndim == 0:  # (an integer one: refused by the row's check, in PyTorch's words)
        return ops.nn.log_softmax(x.reshape(1), 0).reshape(())
    return ops.nn.log_softmax(x, dim)


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """``exp(x) / sum(exp(x), dim)``, computed after subtracting the max (no overflow).

    >>> import tapegrad as tg, tapegrad.nn.functional as F
    >>> F.softmax(tg.tensor([1.0, 1.0]), dim=0)
    tensor([0.5000, 0.5000])
    """
    dim = _softmax_dim(_tensor(input, "softmax"), dim, "softmax", _stacklevel)
    x = input.to(dtype) if dtype is not None else input
    if x.ndim == 0 and x.is_floating_point():
        return (x - x).exp()  # 1 and gradient 0 (nan at inf, nan), as PyTorch; x / x: nan at 0
    if x.ndim == 0:  # (an integer one: refused by the row's check, in PyTorch's words)
        return ops.nn.softmax(x.reshape(1), 0).reshape(())
    return ops.nn.softmax(x, dim)


# ---- activations ---------------------------------------------------------------------------
def gelu(input, approximate="none"):
    """``x * Phi(x)`` (``approximate='none'``) or its tanh approximation.

    >>> import tapegrad as tg, tapegrad.nn.functional as F
    >>> round(F.gelu(tg.tensor(1.0)).item(), 6)
    0.841345
    """
    _float_tensor(input, "gelu")
    if approximate == "none":
        y = input * 0.5 * (1.0 + (input * (1.0 / math.sqrt(2.0))).erf())
        return named_result(y, "GeluBackward0", input)
    if approximate == "tanh":
        inner = (input + input ** 3 * 0.044715) * math.sqrt(2.0 / math.pi)
        y = input * 0.5 * (1.0 + inner.tanh())
        return named_result(y, "GeluBackward0", input)
    raise RuntimeError(f"approximate argument must be either none or tanh (got {approximate!r})")


def relu(input, inplace=False):
    """``max(x, 0)``, gradient 0 at 0."""
    # (out of place, ops.relu's row is PyTorch's node already: no name noted per call)
    return _maybe_inplace(input, ops.relu(input), inplace, "ReluBackward0" if inplace else None)


def leaky_relu_(input, negative_slope=0.01):
    """``leaky_relu`` in place."""
    return leaky_relu(input, negative_slope, True)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """``x`` where ``x > 0``, else ``negative_slope * x`` (the slope at 0, as PyTorch)."""
    _float_tensor(input, "leaky_relu")
    y = ops.where(input > 0, input, input * negative_slope)
    return _maybe_inplace(input, y, inplace, "LeakyReluBackward0")


def silu(input, inplace=False):
    """``x * sigmoid(x)`` (swish)."""
    _float_tensor(input, "silu")
    x = _operand(input, inplace)
    return _maybe_inplace(input, x * x.sigmoid(), inplace, "SiluBackward0")


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``; the
    identity when not ``training``.  The mask comes from tapegrad's generator
    (``tapegrad.manual_seed``)."""
    _tensor(input, "dropout")
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    if p == 1.0:
        mask = np.zeros(tuple(input.shape), input.dtype)
    else:
        if input.dtype.kind in "biu":  # (PyTorch's scaling by 1 / (1 - p) makes a float)
            raise non_float(input, "dropout", "dropout(): expected a floating point input")
        keep = creation._rng.random(tuple(input.shape)) >= p
        mask = keep.astype(input.dtype) / input.dtype.type(1.0 - p)
    return _maybe_inplace(input, input * Tensor(mask), inplace)


def _channel_dropout(input, p, training, inplace, lead, op):
    """Zero whole channels: the mask has ``input``'s first ``lead`` dims, ones after."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    shape = tuple(input.shape[:lead]) + (1,) * (input.ndim - lead)
    if p == 1.0:
        mask = np.zeros(shape, input.dtype)
    else:
        keep = creation._rng.random(shape) >= p
        mask = keep.astype(input.dtype) / input.dtype.type(1.0 - p)
    return _maybe_inplace(input, input * Tensor(mask), inplace)


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Zero each channel of (N, C, L) or (C, L) with probability ``p``, scale the rest by
    ``1 / (1 - p)``."""
    _tensor(input, "dropout1d")
    if input.ndim not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {input.ndim}D "
                           "input. Note that dropout1d exists to provide channel-wise dropout "
                           "on inputs with 1 spatial dimension, a channel dimension, and an "
                           "optional batch dimension (i.e. 2D or 3D inputs).")
    return _channel_dropout(input, p, training, inplace, input.ndim - 1, "dropout1d")


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zero each channel of (N, C, H, W) with probability ``p``, scale the rest by
    ``1 / (1 - p)``; a 3-D input is (N, C, L), as PyTorch reads it (with its warning)."""
    _tensor(input, "dropout2d")
    if input.ndim == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that "
                      "channel-wise 1D dropout behavior is desired - input is interpreted as "
                      "shape (N, C, L), where C is the channel dim. This behavior will change "
                      "in a future release to interpret the input as one without a batch "
                      "dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise "
                      "dropout behavior, please switch to using dropout1d instead.",
                      stacklevel=2)
    elif input.ndim != 4:
        warnings.warn(f"dropout2d: Received a {input.ndim}-D input to dropout2d, which is "
                      "deprecated and will result in an error in a future release. To retain "
                      "the behavior and silence this warning, please use dropout instead. "
                      "Note that dropout2d exists to provide channel-wise dropout on inputs "
                      "with 2 spatial dimensions, a channel dimension, and an optional batch "
                      "dimension (i.e. 3D or 4D inputs).", stacklevel=2)
        return dropout(input, p, training, inplace)
    return _channel_dropout(input, p, training, inplace, 2, "dropout2d")


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Zero each channel of (N, C, D, H, W) or (C, D, H, W) with probability ``p``, scale
    the rest by ``1 / (1 - p)``."""
    _tensor(input, "dropout3d")
    if input.ndim not in (4, 5):
        warnings.warn(f"dropout3d: Received a {input.ndim}-D input to dropout3d, which is "
                      "deprecated and will result in an error in a future release. To retain "
                      "the behavior and silence this warning, please use dropout instead. "
                      "Note that dropout3d exists to provide channel-wise dropout on inputs "
                      "with 3 spatial dimensions, a channel dimension, and an optional batch "
                      "dimension (i.e. 4D or 5D inputs).", stacklevel=2)
        return dropout(input, p, training, inplace)
    return _channel_dropout(input, p, training, inplace, input.ndim - 3, "dropout3d")


_SELU_ALPHA_PRIME = 1.7580993408473766  # -scale * alpha of selu


def _alpha_dropout(input, p, training, inplace, shape):
    """Dropout that keeps a selu network's mean and variance: dropped elements are set to
    selu's negative saturation, then all are scaled and shifted back (``shape``: the mask's,
    by element or by channel)."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    if p == 1.0:
        return _maybe_inplace(input, input * 0.0, inplace)
    keep = (creation._rng.random(shape) >= p).astype(input.dtype)
    a = 1.0 / math.sqrt((_SELU_ALPHA_PRIME ** 2 * p + 1) * (1 - p))
    shift = (keep - 1.0) * (_SELU_ALPHA_PRIME * a) + _SELU_ALPHA_PRIME * a * p
    return _maybe_inplace(input, input * Tensor(keep * a) + Tensor(shift), inplace)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Alpha dropout of each element (for selu networks); the identity when not
    ``training``."""
    _float_tensor(input, "alpha_dropout")
    return _alpha_dropout(input, p, training, inplace, tuple(input.shape))


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Alpha dropout of whole channels (dim 1)."""
    _float_tensor(input, "feature_alpha_dropout")
    shape = tuple(input.shape[:2]) + (1,) * (input.ndim - 2)
    return _alpha_dropout(input, p, training, inplace, shape)


def bilinear(input1, input2, weight, bias=None):
    """``y_o = x1^T W_o x2 + b_o`` over the last dims of ``input1`` (in1) and ``input2``
    (in2), ``weight`` (out, in1, in2)."""
    _float_tensor(input1, "bilinear", "input1")
    _float_tensor(input2, "bilinear", "input2")
    _tensor(weight, "bilinear", "weight")
    if weight.ndim != 3:
        raise RuntimeError(f"bilinear(): weight must be three-dimensional, but got "
                           f"{weight.ndim}-dimensional")
    n_out, in1, in2 = weight.shape
    if input1.shape[-1] != in1:
        raise RuntimeError(f"bilinear(): input1 size does not match weight size: got "
                           f"{input1.shape[-1]} but expected {in1}")
    if input2.shape[-1] != in2:
        raise RuntimeError(f"bilinear(): input2 size does not match weight size: got "
                           f"{input2.shape[-1]} but expected {in2}")
    # x1 W: (..., out * in2), then the product with x2 summed over in2
    left = input1.matmul(weight.permute(1, 0, 2).reshape(in1, n_out * in2))
    y = (left.reshape(*left.shape[:-1], n_out, in2) * input2.unsqueeze(-2)).sum(-1)
    if bias is not None:
        return y + bias
    return named_result(y, "ViewBackward0", input1, input2, weight)  # (PyTorch's last op)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """``x / max(||x||_p, eps)`` along ``dim``."""
    if out is not None:
        raise NotImplementedError("normalize(out=...) is not supported; use the result")
    _float_tensor(input, "normalize")
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps)
    return input / denom


def one_hot(tensor, num_classes=-1):
    """Class indices as rows of zeros with a one (int64; not differentiable).

    >>> import tapegrad as tg, tapegrad.nn.functional as F
    >>> F.one_hot(tg.tensor([0, 2])).tolist()
    [[1, 0, 0], [0, 0, 1]]
    """
    _tensor(tensor, "one_hot", "tensor")
    if tensor.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    idx = host_values(tensor, "one_hot")  # (NumPy's, no row)
    if idx.size and idx.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        if not idx.size:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(idx.max()) + 1
    elif idx.size and idx.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    out = np.zeros(idx.shape + (num_classes,), np.int64)
    np.put_along_axis(out, idx[..., None], 1, axis=-1)
    return Tensor(out)


def _linear_dtypes(input, weight, bias):
    """Refuse mixed dtypes in the words of the kernel PyTorch runs (addmm with a bias, its
    self the bias; mm without), unless a float32 / float64 mix may promote (ops.linalg's
    _stand_in: float64 the default)."""
    try:  # one dtype object for all: nothing to refuse (8 Tensor.dtype reads a step of
        dt = weight._data.dtype  # a 2-layer MLP fewer, issue 20)
        if input._data.dtype is dt and (bias is None or bias._data.dtype is dt):
            return
    except (AttributeError, ComplexPart):  # (a Python float's values; a complex tensor)
        pass
    if bias is None:
        return ops.linalg.same_dtype(input, weight, "mm")
    for first, second, name in ((bias, weight, "self"), (input, weight, "mat1")):
        if first.dtype != second.dtype and not ops.linalg._stand_in(first, second):
            raise RuntimeError(
                f"{name} and mat2 must have the same dtype, but got "
                f"{dtypes.torch_name(first.dtype)} and "
                f"{dtypes.torch_name(second.dtype)}")


def linear(input, weight, bias=None):
    """``input @ weight.T + bias``: one row (AddmmBackward0, or MmBackward0 without a bias)
    for a 2-D input and weight of one float dtype and a bias of shape (out_features,), a
    C-contiguous input of other dims folded to 2-D around it (as PyTorch's); other shapes
    and dtypes are composed from matmul and add.

    >>> import tapegrad as tg, tapegrad.nn.functional as F
    >>> F.linear(tg.ones(1, 2), tg.ones(3, 2), tg.zeros(3)).tolist()
    [[2.0, 2.0, 2.0]]
    """
    _tensor(input, "linear")
    _tensor(weight, "linear", "weight")
    if bias is not None:
        _tensor(bias, "linear", "bias")
    _linear_dtypes(input, weight, bias)
    x, w, b = input._data, weight._data, None if bias is None else bias._data
    if type(x) is np.ndarray and type(w) is np.ndarray and x.ndim and w.ndim == 2 and \
            x.shape[-1] == w.shape[1] and x.dtype == w.dtype and x.dtype.kind == "f" and (
                b is None or (type(b) is np.ndarray and b.shape == w.shape[:1] and
                              b.dtype == x.dtype)):
        if x.ndim == 2:
            return ops.linalg.linear(input, weight, bias)  # one row, as PyTorch's addmm / mm
        if x.flags.c_contiguous:  # PyTorch's too: folded to 2-D, the result viewed back
            y = ops.linalg.linear(input.reshape(-1, x.shape[-1]), weight, bias).reshape(
                *x.shape[:-1], w.shape[0])
            if bias is not None:
                return y
            return named_result(y, "SqueezeBackward4" if x.ndim == 1 else "UnsafeViewBackward0")
    if weight.ndim not in (1, 2):
        raise RuntimeError(f"linear(): weight must be 1-d or 2-d, got shape {list(weight.shape)}")
    k = weight.shape[-1]
    if input.ndim == 0 or input.shape[-1] != k:
        rows = input.numel() // input.shape[-1] if input.ndim and input.shape[-1] else 1
        raise with_note(RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({rows}x"
            f"{input.shape[-1] if input.ndim else 1} and {k}x"
            f"{weight.shape[0] if weight.ndim == 2 else 1})"),
            f"linear: input {list(input.shape)}, weight {list(weight.shape)}")
    if bias is not None:
        n_out = weight.shape[0] if weight.ndim == 2 else 1
        if bias.ndim > 1 or (bias.ndim == 1 and bias.shape[0] not in (1, n_out)):
            raise RuntimeError(f"linear(): bias of shape {list(bias.shape)} does not match the "
                               f"{n_out} output features")
    out = input.matmul(weight.t() if weight.ndim == 2 else weight)
    return out + bias if bias is not None else out


# ---- regression losses ---------------------------------------------------------------------
def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean squared error: ``mean((input - target) ** 2)`` (or ``sum``, or ``none``)."""
    reduction = _reduction(reduction, size_average, reduce)
    _target_size_warning(input, target, "mse_loss")
    _float_kernel("mse", input, target)
    diff = input - target
    if weight is not None:  # (PyTorch composes the weighted loss too)
        return _reduce(diff * diff * weight, reduction)
    return _reduce(diff * diff, reduction, "MseLossBackward0", input, target)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean absolute error ``mean(|input - target|)`` (gradient 0 where they are equal)."""
    reduction = _reduction(reduction, size_average, reduce)
    _target_size_warning(input, target, "l1_loss")
    loss = (input - target).abs()
    return _reduce(loss if weight is None else loss * weight, reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean",
                   beta=1.0):
    """``0.5 d^2 / beta`` where ``d = |input - target| < beta``, else ``d - 0.5 beta``."""
    reduction = _reduction(reduction, size_average, reduce)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    _target_size_warning(input, target, "smooth_l1_loss")
    if beta != 0.0:
        _float_kernel("smooth_l1", input, target)
    diff = input - target
    d = diff.abs()
    if beta == 0.0:  # (PyTorch's l1_loss then: no SmoothL1Loss node)
        return _reduce(d, reduction)
    # the square of diff, not of |diff|: the same value, and PyTorch's second derivative
    # 1 / beta at diff = 0 too (|diff|'s sign 0 made it 0 there)
    return _reduce(ops.where(d < beta, diff * diff * (0.5 / beta), d - 0.5 * beta), reduction,
                   "SmoothL1LossBackward0", input, target)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """``0.5 d^2`` where ``d = |input - target| < delta``, else ``delta (d - 0.5 delta)``."""
    reduction = _reduction(reduction)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    _target_size_warning(input, target, "huber_loss")
    _float_kernel("huber", input, target)
    diff = input - target
    d = diff.abs()
    # (delta 1, the default: delta * (d - 0.5 delta) is d - 0.5 exactly, one row fewer)
    far = d - 0.5 * delta if delta == 1.0 else (d - 0.5 * delta) * delta
    # (diff's square, as smooth_l1's: PyTorch's second derivative 1 at diff = 0 too)
    loss = ops.where(d < delta, diff * diff * 0.5, far)
    if weight is not None:  # (PyTorch composes the weighted loss too)
        return _reduce(loss * weight, reduction)
    return _reduce(loss, reduction, "HuberLossBackward0", input, target)


# ---- classification losses ---------------------------------------------------------------
def _class_target(input, target, op, ignore_index):
    """Check class-index targets against ``input`` (N, C, d1...) or (C,); PyTorch's errors.
    Returns whether some target is ``ignore_index``."""
    d, t = input._data, target._data
    if type(d) is np.ndarray and type(t) is np.ndarray and d.ndim == 2 and t.ndim == 1 and \
            t.dtype == np.int64 and t.shape[0] == d.shape[0] > 0 and \
            state.tracing is None and t.view(np.uint64).max() < d.shape[1]:
        # (N, C) input, N int64 targets all in [0, C) (one pass: a negative one read as
        # unsigned is above 2^63): every check below passes, in a fifth of their time
        # (eagerly: a trace's targets computed from its inputs are guarded, host_values)
        return bool(0 <= ignore_index < d.shape[1] and (t == ignore_index).any())
    # PyTorch's checks in its order: batch size, shape, then dtype (int64, or uint8 for
    # (N, C) or (C,) input; a float target reaches here only in the wrong shape)
    if input.ndim == 0:
        raise ValueError(f"Expected 1 or more dimensions (got {input.ndim})")
    if input.ndim >= 2 and (target.ndim == 0 or target.shape[0] != input.shape[0]):
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target "
                         f"batch_size ({target.shape[0] if target.ndim else 0}).")
    if input.ndim <= 2 and target.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input.ndim > 2 and tuple(target.shape) != (input.shape[0],) + tuple(input.shape[2:]):
        raise RuntimeError(f"Expected target size {[input.shape[0], *input.shape[2:]]}, got "
                           f"{list(target.shape)}")
    if target.dtype not in (np.int64, np.uint8):
        raise with_note(RuntimeError(f"expected target dtype to be Long or Byte, but got "
                                     f"{dtypes.torch_name(target.dtype)}"),
                        f"{op}: class indices must be int64; class probabilities must have "
                        "the input's shape")
    if input.ndim > 2 and target.dtype == np.uint8:
        raise with_note(RuntimeError("expected scalar type Long but found Byte"),
                        f"{op}: class indices of (N, C, d1, ...) input must be int64")
    if input.ndim == 1 and target.numel() != 1:
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: "
                         f"{target.numel()}")
    n_classes = input.shape[1] if input.ndim > 1 else input.shape[0]
    t = host_values(target, op)  # (read in NumPy)
    if not t.size:
        return False
    # int64 (PyTorch's Long), the common case, in one pass: every target in [0, C), as a
    # negative one read as unsigned is above 2^63 (the min and max cost a reduction each)
    if t.dtype == np.int64 and t.view(np.uint64).max() < n_classes:
        return bool(0 <= ignore_index < n_classes and (t == ignore_index).any())
    lo, hi = t.min(), t.max()
    if lo < 0 or hi >= n_classes:
        bad = t[(t != ignore_index) & ((t < 0) | (t >= n_classes))]
        if bad.size:
            raise IndexError(f"Target {int(bad[0])} is out of bounds.")  # (PyTorch's words)
    return bool(lo <= ignore_index <= hi and (t == ignore_index).any())


def _not_differentiable(t, fn, argument):
    """PyTorch's refusal of a tensor that requires grad as an argument its kernel has no
    derivative for (a loss's class weights, soft margin's target)."""
    if isinstance(t, Tensor) and t._rg and state.grad_enabled:
        raise RuntimeError(f"The function '{fn}' is not differentiable with respect to "
                           f"argument '{argument}'. This input cannot have requires_grad True.")


def _nll_weight(weight, input):
    """nll_loss's class weights (PyTorch's kernel for (C,) and (N, C) inputs, and its 2-d
    one, into which it reshapes (N, C, d1...) ones, have no derivative for them)."""
    _not_differentiable(weight, "nll_loss_forward" if input.ndim <= 2 else "nll_loss2d_forward",
                        "weight")


def _check_weight(weight, n_classes, op):
    if weight is not None:
        _tensor(weight, op, "weight")
        if weight.ndim != 1 or weight.shape[0] != n_classes:
            raise RuntimeError(f"weight tensor should be defined either for all {n_classes} "
                               f"classes or no classes but got weight tensor of shape: "
                               f"{list(weight.shape)}")


def _class_dim_last(x):
    """(N, C, d1...) as (N*d1*..., C); (C,) as (1, C)."""
    if x.ndim == 1:
        return x.reshape(1, -1)
    if x.ndim == 2:
        return x
    return x.movedim(1, -1).reshape(-1, x.shape[1])


def _nll(logp, target, weight, ignore_index, reduction, ignored):
    """PyTorch's nll_loss on log-probabilities (N, C, d1...) or (C,); targets checked
    (``ignored``: some target is ignore_index, from _class_target)."""
    flat = _class_dim_last(logp)
    t = np.asarray(target._data).reshape(-1)
    keep = t != ignore_index if ignored else True
    safe = np.where(keep, t, 0) if ignored else t
    index = np.arange(t.size) * flat.shape[1] + safe  # of logp[i, t_i] in flat
    if weight is None and reduction != "none" and t.size and not ignored:  # the common case:
        return _nll_node(ops.nn.nll(flat, index, t.size if reduction == "mean" else 1), logp,
                         reduction)  # one row
    # logp[i, t_i] for each i in one GATHER row (_class_target has checked the targets)
    picked = ops.shape._gathered(flat, np.asarray(flat._data), index, "GatherBackward0")
    if weight is None:
        w = _const(keep, logp) if ignored else None
    elif weight._rg and state.grad_enabled:
        w = weight.index_select(0, Tensor(safe)) * _const(keep, logp)
    else:
        w = _const(np.asarray(weight._data)[safe] * keep, logp)
    loss = -picked if w is None else -(picked * w)
    if reduction == "none":
        loss = loss.reshape(*target.shape)
    elif reduction == "sum":
        loss = loss.sum()
    elif w is None:
        loss = loss.sum() / float(t.size)  # mean: by the total weight, as PyTorch
    elif float(total := w.sum()) == 0.0:  # every target ignored (or weighted 0): PyTorch's
        loss = loss.sum() + math.nan  # loss is 0 / 0 = nan, its gradient 0 (test_torch_parity)
    else:
        loss = loss.sum() / total
    return _nll_node(loss, logp, reduction)


def _nll_node(loss, logp, reduction):
    """PyTorch's node: NllLossBackward0 of (N, C) or (C,) log-probabilities, else its 2-D
    kernel's (NllLoss2DBackward0), which it runs on (N, C, d...) viewed as 4-D, so that a
    loss per element of other than 4-D input is viewed back (ViewBackward0)."""
    if logp.ndim <= 2:
        return named_result(loss, "NllLossBackward0", logp)
    if logp.ndim == 4:
        return named_result(loss, "NllLoss2DBackward0", logp)
    return loss if reduction == "none" else named_result(loss, "NllLoss2DBackward0")


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
             reduction="mean"):
    """Negative log-likelihood of class indices under log-probabilities ``input``."""
    reduction = _reduction(reduction, size_average, reduce)
    _float_tensor(input, "nll_loss")
    _tensor(target, "nll_loss", "target")
    ignored = _class_target(input, target, "nll_loss", ignore_index)
    _nll_weight(weight, input)
    _check_weight(weight, input.shape[1] if input.ndim > 1 else input.shape[0], "nll_loss")
    return _nll(input, target, weight, ignore_index, reduction, ignored)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100,
                  reduce=None, reduction="mean", label_smoothing=0.0):
    """Cross-entropy of logits ``input`` (N, C, d1...) or (C,) against class indices or
    class probabilities (a float ``target`` of the input's shape), with PyTorch's
    ``weight``, ``ignore_index``, ``reduction`` and ``label_smoothing``.

    >>> import tapegrad as tg, tapegrad.nn.functional as F
    >>> round(F.cross_entropy(tg.tensor([[0.0, 0.0]]), tg.tensor([1])).item(), 6)
    0.693147
    """
    reduction = _reduction(reduction, size_average, reduce)
    _float_tensor(input, "cross_entropy")
    _tensor(target, "cross_entropy", "target")
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: "
                           f"{label_smoothing}")
    shape = tuple(input.shape)  # (a plain tuple: a Size's reads are Python calls)
    if not shape:
        raise ValueError("Expected 1 or more dimensions (got 0)")
    class_dim = 1 if len(shape) > 1 else 0
    n_classes = shape[class_dim]
    _check_weight(weight, n_classes, "cross_entropy")
    # a float target of the input's shape holds class probabilities; any other target is
    # read as class indices (and refused in PyTorch's words if it is not)
    probs = target.dtype.kind == "f" and tuple(target.shape) == shape
    if not probs:
        ignored = _class_target(input, target, "cross_entropy", ignore_index)
        if weight is not None:
            _nll_weight(weight, input)
        if class_dim == 1 and len(shape) == 2 and weight is None and reduction != "none" \
                and label_smoothing == 0.0 and not ignored and shape[0]:
            # the common case (a training step's loss): its two rows in one call
            n = shape[0]
            t = np.asarray(target._data)
            return ops.nn.log_softmax_nll(input, np.arange(n) * n_classes + t,
                                          n if reduction == "mean" else 1)
    logp = log_softmax(input, class_dim)
    if probs:
        return _soft_cross_entropy(logp, target, weight, reduction, label_smoothing, class_dim)
    nll = _nll(logp, target, weight, ignore_index, reduction, ignored)
    if label_smoothing == 0.0:
        return nll
    return _smoothed(logp, target, weight, ignore_index, reduction, label_smoothing,
                     class_dim, nll)


def linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None,
                         reduction="mean", ignore_index=None, label_smoothing=0.0,
                         options=None):
    """``cross_entropy(linear(input, linear_weight, linear_bias), target, ...)``:
    ``linear_weight`` (C, *out_features, in_features) gives (N, C, *out_features) logits
    (nn/linear_cross_entropy.py; ``options`` selects PyTorch's chunked path, which gives the
    same values: tapegrad computes the reference path)."""
    logits = logits_of(input, linear_weight, linear_bias)
    if isinstance(target, Tensor) and tuple(target.shape) == tuple(logits.shape) and \
            ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains "
                           "probabilities")
    return cross_entropy(logits, target, weight=weight, reduction=reduction,
                         ignore_index=-100 if ignore_index is None else ignore_index,
                         label_smoothing=label_smoothing)


def conv_tbc(input, weight, bias, pad=0):  # noqa: F811 (PyTorch's argument name)
    """1-D convolution in time-batch-channel layout: ``input`` (T, N, C_in), ``weight``
    (K, C_in, C_out), ``bias`` (C_out,), ``pad`` zeros at both ends of time."""
    _float_tensor(input, "conv_tbc")
    if input.ndim != 3:
        raise RuntimeError("Input must have 3 dims: time, batch, in_channel")
    if weight.ndim != 3:
        raise RuntimeError("Weight tensor must have 3 dims: kernel_width, in_channels, "
                           "out_channels.")
    if bias.ndim != 1:
        raise RuntimeError("Bias must be 1-D")
    if input.shape[2] != weight.shape[1]:
        raise RuntimeError("Input dim 2 (input channels) is not == dim 1 in the weight tensor")
    if weight.shape[2] != bias.shape[0]:
        raise RuntimeError("Bias size must equal dim 2 in the weight tensor (output channels).")
    y = conv1d(input.permute(1, 2, 0), weight.permute(2, 1, 0), bias, padding=pad)
    return y.permute(2, 0, 1)


def native_channel_shuffle(input, groups):
    """``channel_shuffle`` (PyTorch's native op under its own name)."""
    return channel_shuffle(input, groups)


def _weight_along(weight, logp, class_dim):
    shape = [1] * logp.ndim
    shape[class_dim] = weight.shape[0]
    return weight.to(logp.dtype).reshape(*shape)


def _soft_cross_entropy(logp, target, weight, reduction, eps, class_dim):
    n_classes = logp.shape[class_dim]
    t = target if eps == 0.0 else target * (1 - eps) + eps / n_classes
    prod = logp * t if weight is None else logp * t * _weight_along(weight, logp, class_dim)
    if reduction == "none":
        return -prod.sum(class_dim)
    total = -prod.sum()
    if reduction == "sum":
        return total
    # no classes: 0 / 0, as PyTorch; its mean divides by a number (DivBackward1)
    return named_result(total / float(logp.numel() // max(n_classes, 1)), "DivBackward1")


def _smoothed(logp, target, weight, ignore_index, reduction, eps, class_dim, nll):
    """PyTorch's label smoothing: (1 - eps) * nll + eps / C * the smooth term."""
    n_classes = logp.shape[class_dim]
    t = np.asarray(target._data)
    ignored = t == ignore_index
    if weight is None:
        smooth = -logp.sum(class_dim)
    else:
        smooth = -(logp * _weight_along(weight, logp, class_dim)).sum(class_dim)
    if ignored.any():
        smooth = smooth * _const(~ignored, logp)
    if reduction == "none":
        ret = smooth
    elif reduction == "sum":
        ret = smooth.sum()
    elif weight is None:
        ret = smooth.sum() / float((~ignored).sum())
    else:
        w = np.asarray(weight._data)
        ret = smooth.sum() / float(w[t[~ignored]].sum())
    return nll * (1 - eps) + ret * (eps / n_classes)


_BCE_EPS = float(np.float32(1e-12))  # PyTorch's EPSILON, a float 1e-12


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction="mean"):
    """``-(t log(x) + (1 - t) log(1 - x))`` for probabilities ``x``; each log is clamped
    at -100, as PyTorch does, so ``x = 0`` or ``1`` gives a finite loss.  Where a log is
    The gradient is PyTorch's ``(x - t) / max(x (1 - x), 1e-12)`` everywhere (within
    ~1e-12 of 0 or 1 too, where it is not the clamped loss's derivative)."""
    reduction = _reduction(reduction, size_average, reduce)
    _float_tensor(input, "binary_cross_entropy")
    _tensor(target, "binary_cross_entropy", "target")
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Using a target size ({_size(target)}) that is different to the "
                         f"input size ({_size(input)}) is deprecated. Please ensure they have "
                         "the same size.")
    if target.dtype != input.dtype:  # (PyTorch's kernel takes one dtype; its weight is cast)
        if not ops.linalg._stand_in(input, target):
            raise RuntimeError(f"Found dtype {dtypes.torch_name(target.dtype)} "
                               f"but expected {dtypes.torch_name(input.dtype)}")
        target = target.to(input.dtype)
    _not_differentiable(weight, "binary_cross_entropy", "weight")
    if weight is not None and weight.dtype != input.dtype:
        weight = weight.to(input.dtype)
    # (an error on values is a branch: guarded where a traced input is in range)
    x = host_values(input, "binary_cross_entropy",
                    lambda t: (t >= 0).double() * (t <= 1).double())
    eps = _BCE_EPS
    with quiet():  # (x (1 - x) of a huge x overflows: refused below)
        interior = bool((x * (1.0 - x) >= eps).all())  # (so every x is in [0, 1] too)
    if not interior and x.size and not ((x >= 0) & (x <= 1)).all():
        raise RuntimeError("all elements of input should be between 0 and 1")
    if state.tracing is None and interior:
        # every x inside [eps, 1 - eps] (an eager read: a trace keeps the whole form, which
        # no guard on these values ties to this point): no clamp, where or eps term below
        # acts, so their 7 rows give the same values and gradients bit for bit (a third of
        # the rows: the loss of a small batch is most of a small training step's time)
        loss = (target - 1.0) * (-input).log1p() - target * input.log()
    else:
        tiny = float(np.finfo(input.dtype).tiny)  # log of a clamped x: no 0 / 0 in the rule
        log_x = input.clamp_min(tiny).log().clamp_min(-100.0)
        # PyTorch's log1p(-x) (exact near x = 0, where log(1 - x) is not), -100 at x = 1
        # through a where that keeps log1p's rule off x = 1 (0 * inf there)
        below = input < 1.0
        log_1mx = ops.where(below, (-ops.where(below, input, 0.0)).log1p().clamp_min(-100.0),
                            -100.0)
        loss = (target - 1.0) * log_1mx - target * log_x  # (PyTorch's order: signed zeros)
        # where x (1 - x) < eps PyTorch's gradient is (x - t) / eps: that of
        # q = (x - t)^2 / (2 eps), added as q - q.detach() (value 0) to the loss's value
        # (tests/test_torch_parity.py), subtracted as q.detach() - q so -0 stays -0
        q = (input - target) ** 2 / (2 * eps)
        loss = ops.where(input * (1.0 - input) < eps, loss.detach() - (q.detach() - q), loss)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction, "BinaryCrossEntropyBackward0", input, target)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None,
                                     reduce=None, reduction="mean", pos_weight=None):
    """``binary_cross_entropy(sigmoid(x), t)`` computed stably from the logits ``x``:
    ``(1 - t) x - log_sigmoid(x)``, with ``pos_weight`` scaling the positive term."""
    reduction = _reduction(reduction, size_average, reduce)
    _float_tensor(input, "binary_cross_entropy_with_logits")
    _tensor(target, "binary_cross_entropy_with_logits", "target")
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Target size ({_size(target)}) must be the same as input size "
                         f"({_size(input)})")
    if target.dtype.kind != "f":
        raise RuntimeError(f"result type {dtypes.torch_name(input.dtype)} can't "
                           f"be cast to the desired output type "
                           f"{dtypes.torch_name(target.dtype)}")
    _not_differentiable(weight, "binary_cross_entropy_with_logits", "weight")
    _not_differentiable(pos_weight, "binary_cross_entropy_with_logits", "pos_weight")
    log_sig = ops.log_sigmoid(input)
    if pos_weight is not None:
        log_sig = log_sig * ((pos_weight - 1) * target + 1)
    loss = (1 - target) * input - log_sig
    if weight is not None:
        loss = loss * weight
    if loss.dtype != target.dtype:  # (whatever pos_weight's and weight's dtypes)
        loss = loss.to(target.dtype)  # PyTorch's kernel works in place on 1 - target
    return _reduce(loss, reduction, "BinaryCrossEntropyWithLogitsBackward0", input, target)



# ---- more losses (composed; PyTorch's formulas, so its gradients at the kinks) -------------
def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """KL divergence of ``target`` from the log-probabilities ``input``:
    ``target * (log(target) - input)`` (0 where target is 0), or with ``log_target``
    ``exp(target) * (target - input)``; ``reduction='batchmean'`` divides the sum by the
    batch size (the KL divergence's definition)."""
    if reduction == "batchmean":
        if size_average is not None or reduce is not None:
            reduction = _reduction("mean", size_average, reduce)
    else:
        reduction = _reduction(reduction, size_average, reduce)
    if reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and "
                      "the support size.'batchmean' divides only by the batch size, and aligns "
                      "with the KL div math definition.'mean' will be changed to behave the "
                      "same as 'batchmean' in the next major release.", stacklevel=2)
    _float_tensor(input, "kl_div")
    _tensor(target, "kl_div", "target")
    if log_target:
        loss = target.exp() * (target - input)
    else:
        loss = ops.arithmetic.xlogy(target, target) - target * input
    if reduction == "batchmean":
        return loss.sum() / float(input.shape[0]) if input.ndim else loss.sum()
    return _reduce(loss, reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """``log(1 + exp(-target * input))`` for targets of +-1."""
    reduction = _reduction(reduction, size_average, reduce)
    _float_tensor(input, "soft_margin_loss")
    _not_differentiable(target, "soft_margin_loss", "target")
    return _reduce(ops.softplus(-target * input), reduction, "SoftMarginLossBackward0", input)


def margin_ranking_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None,
                        reduction="mean"):
    """``max(0, -target * (input1 - input2) + margin)``."""
    reduction = _reduction(reduction, size_average, reduce)
    if not input1.ndim == input2.ndim == target.ndim:
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension "
                           f"but got sizes: input1: {_size(input1)}, input2: {_size(input2)}, "
                           f"target: {_size(target)} ")
    return _reduce((-target * (input1 - input2) + margin).clamp_min(0.0), reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None,
                         reduction="mean"):
    """``input`` where ``target`` is 1, ``max(0, margin - input)`` where it is -1."""
    reduction = _reduction(reduction, size_average, reduce)
    _float_tensor(input, "hinge_embedding_loss")
    zero = _const(0.0, input)
    hinge = ops.where(target != 1, (margin - input).clamp_min(0.0), zero)
    return _reduce(hinge + ops.where(target != -1, input, zero), reduction)


def cosine_embedding_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None,
                          reduction="mean"):
    """``1 - cos(x1, x2)`` where ``target`` is 1, ``max(0, cos(x1, x2) - margin)`` where it
    is -1 (the cosine over the last dim, each squared norm plus 1e-12)."""
    reduction = _reduction(reduction, size_average, reduce)
    _float_tensor(input1, "cosine_embedding_loss", "input1")
    if input1.ndim not in (1, 2) or tuple(input1.shape) != tuple(input2.shape):
        raise RuntimeError(f"cosine_embedding_loss: expected input1 and input2 of one shape, "
                           f"1D or 2D, got {list(input1.shape)} and {list(input2.shape)}")
    if target.ndim != input1.ndim - 1:
        raise RuntimeError(f"{input1.ndim}D target tensor expects {input1.ndim - 1}D input "
                           f"tensors, but found inputs with sizes {list(input1.shape)} and "
                           f"{list(input2.shape)}.")
    dim = input1.ndim - 1
    eps = 1e-12
    cos = (input1 * input2).sum(dim) / (((input1 * input1).sum(dim) + eps) *
                                       ((input2 * input2).sum(dim) + eps)).sqrt()
    zero = _const(0.0, cos)
    loss = ops.where(target == 1, 1.0 - cos, zero) + \
        ops.where(target == -1, (cos - margin).clamp_min(0.0), zero)
    return _reduce(loss, reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
                        size_average=None, reduce=None, reduction="mean"):
    """``max(0, d(a, p) - d(a, n) + margin)`` with the pairwise p-norm distance ``d``
    (``swap``: ``d(a, n)`` replaced by ``d(p, n)`` where smaller)."""
    reduction = _reduction(reduction, size_average, reduce)
    if not anchor.ndim == positive.ndim == negative.ndim:
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have "
                           f"the same number of dimensions, but got: anchor {anchor.ndim}D, "
                           f"positive {positive.ndim}D, and negative {negative.ndim}D inputs")
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = ops.minimum(d_neg, pairwise_distance(positive, negative, p, eps))
    return _reduce((margin + d_pos - d_neg).clamp_min(0.0), reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None,
                                      margin=1.0, swap=False, reduction="mean"):
    """``triplet_margin_loss`` with any ``distance_function`` (default the pairwise
    2-norm distance)."""
    reduction = _reduction(reduction)
    if margin <= 0:
        raise ValueError(f"triplet_margin_with_distance_loss: expected margin to be greater "
                         f"than 0, got {margin} instead")
    dist = distance_function if distance_function is not None else pairwise_distance
    d_pos, d_neg = dist(anchor, positive), dist(anchor, negative)
    if swap:
        d_neg = ops.minimum(d_neg, dist(positive, negative))
    return _reduce((margin + d_pos - d_neg).clamp_min(0.0), reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8,
                     reduce=None, reduction="mean"):
    """Poisson negative log-likelihood: ``exp(input) - target * input`` (``log_input``), or
    ``input - target * log(input + eps)``; ``full`` adds Stirling's term where target > 1."""
    reduction = _reduction(reduction, size_average, reduce)
    _float_tensor(input, "poisson_nll_loss")
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * (input + eps).log()
    if full:
        t = np.asarray(target._data, dtype=input.dtype)
        safe = np.where(t > 1, t, 1.0)
        stirling = np.where(t > 1, safe * np.log(safe) - safe + 0.5 * np.log(2 * np.pi * safe),
                            0.0)
        if target._rg:
            ts = target.clamp_min(1.0)
            stirling = ops.where(target > 1, ts * ts.log() - ts + 0.5 * (2 * math.pi * ts).log(),
                                 _const(0.0, input))
        else:
            stirling = _const(stirling, input)
        loss = loss + stirling
    return _reduce(loss, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """Gaussian negative log-likelihood ``0.5 (log(var) + (input - target)^2 / var)`` (plus
    ``0.5 log(2 pi)`` if ``full``); ``var`` clamped at ``eps`` (the value only, as PyTorch),
    of the input's shape, or with one dim fewer or a last dim of 1 (one variance per
    sample)."""
    reduction = _reduction(reduction)
    if isinstance(var, (int, float)):
        var = _const(np.full(tuple(input.shape), var), input)
    if tuple(var.shape) != tuple(input.shape):
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = var.unsqueeze(-1)
        elif not (tuple(input.shape[:-1]) == tuple(var.shape[:-1]) and var.shape[-1] == 1):
            raise ValueError("var is of incorrect size")
    if (host_values(var, "gaussian_nll_loss", lambda t: (t < 0).double()) < 0).any():
        raise ValueError("var has negative entry/entries")
    var = var + (var.clamp_min(eps) - var).detach()
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,
                                reduction="mean"):
    """Per-class logistic loss ``-(t log(sigmoid(x)) + (1 - t) log(sigmoid(-x)))``, averaged
    over the classes (last dim), then reduced over the batch."""
    reduction = _reduction(reduction, size_average, reduce)
    _float_tensor(input, "multilabel_soft_margin_loss")
    loss = -(target * ops.log_sigmoid(input) + (1 - target) * ops.log_sigmoid(-input))
    if weight is not None:
        loss = loss * weight
    loss = loss.sum(input.ndim - 1) / float(input.shape[-1]) if input.ndim else loss
    return _reduce(loss, reduction)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
             zero_infinity=False):
    """The CTC loss of ``log_probs`` (T, N, C) (log_softmax outputs; or (T, C) unbatched)
    against ``targets``, padded (N, S) or concatenated 1-D, with per-sample
    ``input_lengths`` and ``target_lengths`` (nn/ctc.py).  ``reduction='mean'`` divides each
    sample's loss by its target length, then averages over the batch; ``zero_infinity``
    zeroes impossible alignments' losses and gradients."""
    reduction = _reduction(reduction)
    nll, tl = ctc_nll(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity)
    if reduction == "mean":
        return (nll / _const(np.maximum(tl, 1), nll)).mean()
    if reduction == "sum":
        return nll.sum()
    return nll if log_probs.ndim == 3 else nll.squeeze(0)  # (SqueezeBackward1, as PyTorch's)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """Multi-label hinge loss: per sample, ``sum_{j in y} sum_{i not in y}
    max(0, 1 - (x[j] - x[i])) / C``, where ``y`` is the target's classes up to its first -1."""
    reduction = _reduction(reduction, size_average, reduce)
    _float_tensor(input, "multilabel_margin_loss")
    _tensor(target, "multilabel_margin_loss", "target")
    if input.ndim > 2 or input.ndim == 2 and input.shape[1] == 0:
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch "
                           f"size, but got: {list(input.shape)}")
    if target.dtype != np.int64:
        raise RuntimeError(f"expected scalar type Long but found "
                           f"{dtypes.torch_name(target.dtype)}")
    x = input.reshape(1 if input.ndim < 2 else input.shape[0], -1)
    n, c = x.shape
    t = host_values(target, "multilabel_margin_loss")  # (its classes decide the rows)
    if t.size != n * c or (input.ndim == 2 and target.ndim != 2):
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: "
                           f"{list(input.shape)}")
    t = t.reshape(n, c)
    listed = np.cumsum(t == -1, axis=1) == 0  # the classes before the first -1
    if ((t[listed] < 0) | (t[listed] >= c)).any():
        raise RuntimeError("argument #2 'target' is out of range")
    is_target = np.zeros((n, c), bool)
    rows = np.broadcast_to(np.arange(n)[:, None], (n, c))
    is_target[rows[listed], t[listed]] = True
    picked = x.gather(1, Tensor(np.where(listed, t, 0)))  # x[y_j], one per target slot
    hinge = ops.relu(1.0 - picked.unsqueeze(2) + x.unsqueeze(1))  # (N, slot, class)
    pairs = listed[:, :, None] & ~is_target[:, None, :]
    loss = (hinge * _const(pairs, input)).sum((1, 2)) / float(c)
    if input.ndim < 2:
        loss = loss.reshape(())
    return _reduce(loss, reduction, "MultilabelMarginLossBackward0", input)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None,
                      reduce=None, reduction="mean"):
    """Multi-class hinge loss: ``sum_{j != y} max(0, margin - x[y] + x[j])^p / C`` per
    sample (times ``weight[y]``)."""
    reduction = _reduction(reduction, size_average, reduce)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    _float_tensor(input, "multi_margin_loss")
    _not_differentiable(weight, "multi_margin_loss", "weight")
    x = input if input.ndim == 2 else input.reshape(1, -1)
    t = host_values(target, "multi_margin_loss").reshape(-1)  # (read in NumPy)
    n, c = x.shape
    if t.size != n:
        raise RuntimeError(f"inconsistent target size, expected {n} but got "
                           f"{list(target.shape)}")
    if t.size and (t.min() < 0 or t.max() >= c):
        raise IndexError(f"target out of range (multi_margin_loss: {c} classes)")
    picked = x.gather(1, Tensor(t.reshape(-1, 1)))
    # relu, not clamp_min: PyTorch's kernel counts a term only where it is > 0 (a sample
    # exactly on the margin gets no gradient)
    hinge = relu(margin - picked + x)
    if p == 2:
        hinge = hinge * hinge
    if weight is not None:
        hinge = hinge * weight.index_select(0, Tensor(t)).reshape(-1, 1)
    others = np.ones((n, c), input.dtype)
    others[np.arange(n), t] = 0.0
    loss = (hinge * _const(others, input)).sum(1) / float(c)
    if input.ndim < 2:
        loss = loss.reshape(())
    return _reduce(loss, reduction, "MultiMarginLossBackward0", input)


def _softmax_method(fn, op):
    """Tensor.softmax / log_softmax: ``dim`` is required there (only F.softmax guesses one);
    as PyTorch's method and torch.softmax, not F.softmax, they take NumPy's axis= too."""
    def method(x, dim=None, dtype=None):
        if dim is None:
            raise missing(op, "dim")
        return fn(x, dim, dtype=dtype)
    method.__name__ = method.__qualname__ = op
    return ops.out.with_numpy_names(method)


Tensor.softmax = _softmax_method(softmax, "softmax")
Tensor.log_softmax = _softmax_method(log_softmax, "log_softmax")


# ---- PyTorch's dispatch helpers, for code copied from torch's own functional.py ----------
# tapegrad has no __torch_function__ overrides, so no argument ever has one
def has_torch_function(relevant_args):
    """False: no tapegrad tensor overrides ``__torch_function__``."""
    return False


def has_torch_function_unary(input):
    """False: no tapegrad tensor overrides ``__torch_function__``."""
    return False


def has_torch_function_variadic(*args):
    """False: no tapegrad tensor overrides ``__torch_function__``."""
    return False


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """``public_api(*args, **kwargs)`` (nothing to dispatch to in tapegrad)."""
    return public_api(*args, **kwargs)


def assert_int_or_pair(arg, arg_name, message):
    """Raise ``AssertionError(message.format(arg_name))`` unless ``arg`` is an int or has
    two elements."""
    if not (isinstance(arg, int) or len(arg) == 2):
        raise AssertionError(message.format(arg_name))


def boolean_dispatch(arg_name, arg_index, default, if_true, if_false, module_name, func_name):
    """A function that calls ``if_true`` or ``if_false`` by the boolean argument
    ``arg_name`` (keyword, or positional ``arg_index``; ``default`` when absent)."""
    def fn(*args, **kwargs):
        if arg_name in kwargs:
            flag = kwargs[arg_name]
        elif arg_index < len(args):
            flag = args[arg_index]
        else:
            flag = default
        return if_true(*args, **kwargs) if flag else if_false(*args, **kwargs)

    fn.__module__, fn.__name__ = module_name, func_name
    fn.__doc__ = if_true.__doc__ or if_false.__doc__
    return fn
