"""More of ``torch.nn``'s modules: unpooling and fractional max pooling, the multi-label
margin and CTC losses, ``AdaptiveLogSoftmaxWithLoss``, ``SyncBatchNorm`` (BatchNorm's
semantics: tapegrad runs in one process, where PyTorch's SyncBatchNorm also computes plain
batch statistics) and the deprecated ``Container``.  Each wraps ``nn.functional`` or
composes existing layers, so none needs a rule of its own.

>>> import tapegrad as tg
>>> pool, unpool = tg.nn.MaxPool1d(2, return_indices=True), tg.nn.MaxUnpool1d(2)
>>> unpool(*pool(tg.tensor([[1.0, 3.0, 2.0, 0.0]]))).tolist()
[[0.0, 3.0, 2.0, 0.0]]
"""
import math
import warnings
from collections import namedtuple

import numpy as np

from .. import ops
from ..tensor import Tensor, host_values
from . import functional as F
from .layers import _BatchNorm
from .modules import Linear, Module, ModuleList, Sequential, _Loss, _WeightedLoss
from .windows import _ntuple


class _MaxUnpoolNd(Module):
    _d = 0

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        name = type(self).__name__
        self.kernel_size = _ntuple(kernel_size, self._d, "kernel_size", name)
        self.stride = _ntuple(stride if stride is not None else kernel_size, self._d,
                              "stride", name)
        self.padding = _ntuple(padding, self._d, "padding", name)

    def forward(self, input, indices, output_size=None):
        fn = (None, F.max_unpool1d, F.max_unpool2d, F.max_unpool3d)[self._d]
        return fn(input, indices, self.kernel_size, self.stride, self.padding, output_size)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    """The inverse of MaxPool1d (its indices say where each maximum goes)."""
    _d = 1


class MaxUnpool2d(_MaxUnpoolNd):
    """The inverse of MaxPool2d (its indices say where each maximum goes)."""
    _d = 2


class MaxUnpool3d(_MaxUnpoolNd):
    """The inverse of MaxPool3d (its indices say where each maximum goes)."""
    _d = 3


class _FractionalMaxPoolNd(Module):
    _d = 0

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        super().__init__()
        name, d = type(self).__name__, self._d
        self.kernel_size = _ntuple(kernel_size, d, "kernel_size", name)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = None if output_size is None else \
            _ntuple(output_size, d, "output_size", name)
        self.output_ratio = None if output_ratio is None else \
            (tuple(output_ratio) if isinstance(output_ratio, (list, tuple)) else
             (output_ratio,) * d)
        if output_size is None and output_ratio is None:
            raise ValueError(f"{name} requires specifying either an output size, or a pooling "
                             "ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input):
        fn = F.fractional_max_pool2d if self._d == 2 else F.fractional_max_pool3d
        return fn(input, self.kernel_size, self.output_size, self.output_ratio,
                  self.return_indices, _random_samples=self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    """Fractional max pooling of (N, C, H, W) or (C, H, W)."""
    _d = 2


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    """Fractional max pooling of (N, C, D, H, W) or (C, D, H, W)."""
    _d = 3


class MultiLabelMarginLoss(_Loss):
    def forward(self, input, target):
        return F.multilabel_margin_loss(input, target, reduction=self.reduction)


class CTCLoss(_Loss):
    """The Connectionist Temporal Classification loss (``F.ctc_loss``)."""

    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__(reduction=reduction)
        self.blank, self.zero_infinity = blank, zero_infinity

    def forward(self, log_probs, targets, input_lengths, target_lengths):
        return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank,
                          self.reduction, self.zero_infinity)


class SyncBatchNorm(_BatchNorm):
    """BatchNorm over inputs of at least 2 dims, whose statistics PyTorch syncs across the
    processes of a distributed group; tapegrad runs in one process, where that is plain
    batch normalisation (as PyTorch's without an initialised process group)."""

    _dims = tuple(range(2, 65))  # any input of at least 2 dims

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, process_group=None, device=None, dtype=None, *,
                 bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype, bias=bias)
        self.process_group = process_group

    def forward(self, input):
        if input.ndim < 2:
            raise ValueError(f"expected at least 2D input (got {input.ndim}D input)")
        if input.shape[1] == 0:
            raise ValueError("SyncBatchNorm number of input channels should be non-zero")
        return super().forward(input)

    @classmethod
    def convert_sync_batchnorm(cls, module, process_group=None):
        """``module`` with every BatchNorm*D layer in it replaced by a SyncBatchNorm that
        holds the same parameters and buffers."""
        out = module
        if isinstance(module, _BatchNorm) and not isinstance(module, SyncBatchNorm) and \
                type(module).__name__.startswith("BatchNorm"):
            out = cls(module.num_features, module.eps, module.momentum, module.affine,
                      module.track_running_stats, process_group)
            for name in ("weight", "bias"):
                if getattr(module, name, None) is not None:
                    setattr(out, name, getattr(module, name))
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                out.register_buffer(name, getattr(module, name))
            out.train(module.training)
        for name, child in module.named_children():
            out.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return out


class Container(Module):
    """Deprecated (PyTorch's too): a Module holding the modules given as keywords."""

    def __init__(self, **kwargs):
        super().__init__()
        warnings.warn("`nn.Container` is deprecated. All of its functionality is now "
                      "implemented in `nn.Module`. Subclass that instead.", FutureWarning,
                      stacklevel=2)
        for key, value in kwargs.items():
            self.add_module(key, value)


_ASMoutput = namedtuple("_ASMoutput", ["output", "loss"])


class AdaptiveLogSoftmaxWithLoss(Module):
    """Grave et al.'s adaptive softmax: the ``cutoffs[0]`` most frequent classes and one
    entry per tail cluster share the ``head`` Linear; each cluster's classes get their own
    two-layer projection (``in_features // div_value ** (i + 1)`` hidden).  ``forward``
    gives the target classes' log-probabilities and their mean negative as the loss."""

    def __init__(self, in_features, n_classes, cutoffs, div_value=4.0, head_bias=False,
                 device=None, dtype=None):
        super().__init__()
        cutoffs = list(cutoffs)
        if len(cutoffs) == 0:
            raise ValueError("cutoffs should be a sequence of length larger than 0")
        if (cutoffs != sorted(cutoffs) or min(cutoffs) <= 0 or max(cutoffs) > n_classes - 1
                or len(set(cutoffs)) != len(cutoffs)
                or any(int(c) != c for c in cutoffs)):
            raise ValueError("cutoffs should be a sequence of unique, positive integers sorted "
                             "in an increasing order, where each value is between 1 and "
                             "n_classes-1")
        self.in_features, self.n_classes = in_features, n_classes
        self.cutoffs = cutoffs + [n_classes]
        self.div_value = div_value
        self.head_bias = head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head = Linear(in_features, self.head_size, bias=head_bias, device=device,
                           dtype=dtype)
        self.tail = ModuleList()
        for i in range(self.n_clusters):
            hidden = int(in_features // (div_value ** (i + 1)))
            size = self.cutoffs[i + 1] - self.cutoffs[i]
            self.tail.append(Sequential(
                Linear(in_features, hidden, bias=False, device=device, dtype=dtype),
                Linear(hidden, size, bias=False, device=device, dtype=dtype)))

    def reset_parameters(self):
        self.head.reset_parameters()
        for block in self.tail:
            for layer in block:
                layer.reset_parameters()

    def _batched(self, input, target):
        if target.ndim == 1:
            if input.ndim == 0 or input.shape[0] != target.shape[0]:
                raise RuntimeError("Input and target should have the same size in the batch "
                                   "dimension.")
            if input.ndim != 2:
                raise RuntimeError("1D target tensor expects 2D input tensors, but found "
                                   f"inputs with size torch.Size({list(input.shape)})")
            return input, target
        if target.ndim == 0:
            if input.ndim != 1:
                raise RuntimeError("0D target tensor expects 1D input tensors, but found "
                                   f"inputs with size torch.Size({list(input.shape)})")
            return input.unsqueeze(0), target.unsqueeze(0)
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")

    def forward(self, input_, target_):
        input, target = self._batched(input_, target_)
        t = host_values(target, "AdaptiveLogSoftmaxWithLoss").astype(np.int64)
        if t.size and (t.min() < 0 or t.max() >= self.n_classes):
            raise RuntimeError(f"Target values should be in [0, {self.n_classes - 1}], but "
                               f"values in range [{int(t.min())}, {int(t.max())}] were found. ")
        # the head's column for each row: its class (shortlist) or its cluster's entry
        column = t.copy()
        output = None
        for i in range(1, len(self.cutoffs)):
            low, high = self.cutoffs[i - 1], self.cutoffs[i]
            rows = np.nonzero((t >= low) & (t < high))[0]
            if rows.size == 0:
                continue
            column[rows] = self.shortlist_size + i - 1
            logp = F.log_softmax(self.tail[i - 1](input.index_select(0, Tensor(rows))), dim=1)
            local = logp.gather(1, Tensor((t[rows] - low)[:, None])).squeeze(1)
            part = Tensor(np.zeros(t.size, local.dtype)).index_add(0, Tensor(rows), local)
            output = part if output is None else output + part
        head = F.log_softmax(self.head(input), dim=1)
        picked = head.gather(1, Tensor(column[:, None])).squeeze(1)
        output = picked if output is None else picked + output
        loss = (-output).mean()
        if target_.ndim == 0:
            output = output.squeeze(0)
        return _ASMoutput(output, loss)

    def _full_log_prob(self, input, head_output):
        head = F.log_softmax(head_output, dim=1)
        parts = [head[:, :self.shortlist_size]]
        for i, block in enumerate(self.tail):
            cluster = F.log_softmax(block(input), dim=1)
            parts.append(cluster + head[:, self.shortlist_size + i].unsqueeze(1))
        return ops.cat(parts, 1)

    def log_prob(self, input):
        """The log-probabilities of every class: (N, n_classes) (or (n_classes,))."""
        x = input if input.ndim == 2 else input.unsqueeze(0)
        out = self._full_log_prob(x, self.head(x))
        return out if input.ndim == 2 else out.squeeze(0)

    def predict(self, input):
        """The most likely class of each row (the argmax of ``log_prob``)."""
        return self.log_prob(input).argmax(-1)



class LinearCrossEntropyLoss(_WeightedLoss):
    """A Linear head (``linear``: in_features -> num_classes * prod(out_features)) followed
    by cross-entropy: ``F.linear_cross_entropy`` with the head's weight reshaped to
    (num_classes, *out_features, in_features)."""

    def __init__(self, in_features, num_classes, *, out_features=(), bias=False, device=None,
                 dtype=None, reduction="mean", weight=None, ignore_index=None,
                 label_smoothing=0.0, options=None):
        if weight is not None and tuple(weight.shape) != (num_classes,):
            raise RuntimeError(f"expected weight shape to be {(num_classes,)}, got "
                               f"{tuple(weight.shape)}")
        if label_smoothing < 0 or label_smoothing > 1.0:
            raise RuntimeError(f"expected label_smoothing to be in range [0, 1], got "
                               f"{label_smoothing}")
        super().__init__(weight, reduction=reduction)
        self.num_classes, self.out_features = num_classes, tuple(out_features)
        self.ignore_index, self.label_smoothing = ignore_index, label_smoothing
        self.linear = Linear(in_features, num_classes * math.prod(self.out_features), bias=bias,
                             device=device, dtype=dtype)
        self.options = options

    def forward(self, input, target):
        w = self.linear.weight.reshape(self.num_classes, *self.out_features,
                                       self.linear.in_features)
        b = None if self.linear.bias is None else \
            self.linear.bias.reshape(self.num_classes, *self.out_features)
        return F.linear_cross_entropy(input, w, target, linear_bias=b, weight=self.weight,
                                      reduction=self.reduction, ignore_index=self.ignore_index,
                                      label_smoothing=self.label_smoothing,
                                      options=self.options)

    def extra_repr(self):
        return (f"in_features={self.linear.in_features}, num_classes={self.num_classes}, "
                f"out_features={self.out_features}, bias={self.linear.bias is not None}, "
                f"reduction={self.reduction}, ignore_index={self.ignore_index}, "
                f"label_smoothing={self.label_smoothing}, options={self.options}")


class CrossMapLRN2d(Module):
    """Legacy (Lua Torch) local response normalisation across the channels of (N, C, H, W):
    ``x / (k + alpha / size * s)^beta``, ``s`` the sum of x^2 over channels
    ``c - r .. c + r``, ``r = int((size - 1) / 2 + 1) - 1``, as PyTorch's forward computes it
    (its running sum never drops channel 0, so s includes channel 0 for every c; values
    match PyTorch's).  The gradient is this forward's exact derivative; PyTorch's legacy
    backward assumes a centred window of ``size`` channels instead, so its gradients
    differ where the two windows do."""

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input):
        if input.ndim != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.ndim}D "
                             "instead.")
        reach = int((self.size - 1) / 2 + 1) - 1
        sq = input * input
        c = input.shape[1]
        total = sq
        for off in range(1, min(reach, c - 1) + 1):
            zeros = sq[:, :off] * 0.0
            total = total + ops.cat([sq[:, off:], zeros], 1) + ops.cat([zeros, sq[:, :-off]], 1)
        if c > reach + 1:  # channel 0 stays in every later channel's sum
            first = sq[:, :1].expand(-1, c - reach - 1, -1, -1)
            total = total + ops.cat([sq[:, :reach + 1] * 0.0, first], 1)
        scale = total * (self.alpha / self.size) + self.k
        return input * scale.pow(-self.beta)

    def extra_repr(self):
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
