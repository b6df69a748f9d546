"""``linear_cross_entropy`` (PyTorch 2.13's fused head): the cross-entropy of the logits
``linear(input, linear_weight, linear_bias)``, the weight (C, *out_features, in_features)
giving K-dimensional losses.  PyTorch's optional chunked path (``options``) computes the
same values in pieces to save memory; tapegrad always takes the reference path (one linear,
one cross_entropy), so ``options`` is accepted and changes nothing in the results.

>>> import tapegrad as tg, tapegrad.nn.functional as F
>>> round(F.linear_cross_entropy(tg.ones(1, 2), tg.zeros(3, 2), tg.tensor([1])).item(), 6)
1.098612
"""
import dataclasses

from ..tensor import Tensor


@dataclasses.dataclass(slots=True, frozen=True)
class LinearCrossEntropyOptions:
    """PyTorch's settings of the chunked ``linear_cross_entropy``; tapegrad keeps them for
    compatibility and computes the reference path, whose values they do not change."""

    allow_retain_graph: bool = False
    batch_chunk_size: int | None = None
    chunking_method: str = "auto"
    acc_policy: str = "auto"
    acc_dtype: object = None


def _check(input, linear_weight, linear_bias):
    if not isinstance(input, Tensor) or not isinstance(linear_weight, Tensor):
        raise TypeError("linear_cross_entropy(): input and linear_weight must be Tensors")
    if input.ndim < 1 or input.ndim > 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.ndim}")
    if linear_weight.ndim < 2:
        raise RuntimeError(f"expected linear_weight with dimensionality at least 2, got "
                           f"{linear_weight.ndim}")
    if input.shape[-1] != linear_weight.shape[-1]:
        raise RuntimeError("expected equal input and linear_weight last dimensions "
                           f"(in_features), got {input.shape[-1]} and "
                           f"{linear_weight.shape[-1]}, respectively")
    classes = tuple(linear_weight.shape[:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != classes:
        raise RuntimeError(f"expected linear_bias shape {classes}, got "
                           f"{tuple(linear_bias.shape)}")
    if len(classes) > 1 and input.ndim == 1:
        raise RuntimeError(f"K-dimensional loss defined by linear_weight shape "
                           f"{tuple(linear_weight.shape)} requires batched input, (N, "
                           f"{input.shape[-1]}), got unbatched input with shape "
                           f"{tuple(input.shape)}")
    return classes


def logits_of(input, linear_weight, linear_bias):
    """(*batch, C, *out_features) logits, or PyTorch's errors for mismatched shapes."""
    classes = _check(input, linear_weight, linear_bias)
    flat = linear_weight.reshape(-1, linear_weight.shape[-1])
    logits = input.matmul(flat.mT)
    logits = logits.reshape(*input.shape[:-1], *classes)
    return logits if linear_bias is None else logits + linear_bias
