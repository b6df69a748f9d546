"""PyTorch's refusals of an integer or bool input by the ``nn.functional`` ops whose CPU
kernel has no such dtype: its kernel's ``NotImplementedError`` ('"elu_cpu" not implemented
for 'Long'', as tests/test_parity38.py compares), where tapegrad's own words name the op."""
from .. import dtypes
from .._errors import with_note

# the op -> its kernel's name, and the dtype kinds it refuses (b: bool, i/u: integers);
# an op PyTorch computes for integers (hardtanh, threshold, softsign...) keeps tapegrad's
# refusal, as do those refused by another check first (dropout, kl_div, soft_margin_loss)
KERNELS = {
    "gelu": "GeluKernelImpl", "leaky_relu": "leaky_relu_cpu", "silu": "silu_cpu",
    "elu": "elu_cpu", "selu": "elu_cpu", "celu": "elu_cpu", "mish": "mish_cpu",
    "hardswish": "hardswish_cpu", "hardsigmoid": "hardsigmoid_cpu", "glu": "glu_cpu",
    "prelu": "prelu_cpu", "rrelu": "leaky_relu_cpu", "hardshrink": "hardshrink_cpu",
    "softshrink": "softshrink_check", "binary_cross_entropy": "binary_cross_entropy",
    "binary_cross_entropy_with_logits": "log_sigmoid_cpu",
    "multilabel_soft_margin_loss": "log_sigmoid_cpu",
    "multi_margin_loss": "multi_margin_loss_cpu_kernel", "layer_norm": "LayerNormKernelImpl",
    "group_norm": "GroupNormKernelImpl", "batch_norm": "batch_norm",
    "instance_norm": "batch_norm"}
_BOOL_ONLY = {"threshold": "threshold_cpu"}  # (integers: computed by PyTorch)
# PyTorch's RuntimeErrors from a check on the way ({0}: the input's dtype, {1}: the default
# float dtype, which its scaling by a float makes)
_CAST = "result type {1} can't be cast to the desired output type {0}"
WORDS = {
    "dropout": _CAST, "alpha_dropout": _CAST, "feature_alpha_dropout": _CAST, "soft_margin_loss": _CAST,
    "hinge_embedding_loss": "mean(): could not infer output dtype. Input dtype must be either "
                            "a floating point or complex dtype. Got: {0}",
    "normalize": "linalg.vector_norm: Expected a floating point or complex tensor as input. "
                 "Got {0}",
    "kl_div": "kl_div: Integral inputs not supported."}


def non_float(x, op, words):
    """The error for ``x`` (not floating) given to ``op``: PyTorch's where it has one, else
    a RuntimeError of tapegrad's ``words``."""
    kind = x.dtype.kind
    if kind == "b" and op in ("hardtanh", "relu6"):
        return RuntimeError("Bool inputs not supported for hardtanh")
    if op in WORDS:
        return with_note(RuntimeError(WORDS[op].format(
            dtypes.torch_name(x.dtype), dtypes.torch_name(dtypes.get_default_dtype()))), words)
    kernel = KERNELS.get(op) or (_BOOL_ONLY.get(op) if kind == "b" else None)
    if op == "cross_entropy":  # (its log_softmax over the class dim: the last one in 2-d)
        kernel = "log_softmax_lastdim_kernel_impl" if x.ndim <= 2 else "log_softmax_kernel_impl"
    elif op == "nll_loss" and x.ndim <= 2:
        kernel = "nll_loss_out_frame"
    if kernel is None or kind not in "biu":
        return RuntimeError(words)
    return with_note(NotImplementedError(f'"{kernel}" not implemented for '
                                         f"'{dtypes.torch_name(x.dtype)}'"), words)
