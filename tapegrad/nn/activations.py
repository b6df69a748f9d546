"""More activations (``nn.functional`` names), composed from primitives with PyTorch's
gradients at the kinks: each piece is a ``where`` over PyTorch's own masks (hardtanh passes
the gradient only strictly inside (min_val, max_val), hardswish takes the middle piece's
slope at -3 and 3, ...), pinned by tests/test_nn_activations.py.

>>> import tapegrad as tg, tapegrad.nn.functional as F
>>> F.hardtanh(tg.tensor([-2.0, 0.5, 2.0])).tolist()
[-1.0, 0.5, 1.0]
"""
import warnings

import numpy as np

from .. import creation, ops
from ..grad_mode import is_grad_enabled
from ..ops._record import named_result
from ..tensor import Tensor, _wrap_dim
from ._refusals import non_float

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _float(x, op):
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(x).__name__}")
    if x.dtype.kind != "f":
        raise non_float(x, op, f"{op}(): expected a floating point input, got {x.dtype} "
                        "(convert it with .double() or .float())")
    return x


def _const(value, like):
    return Tensor(np.asarray(value, like.dtype))


# PyTorch's in-place forms of these save their result, not the input: other nodes (...Backward1)
_RESULT_SAVING = {"LeakyReluBackward0", "EluBackward0", "CeluBackward0", "ThresholdBackward0",
                  "RreluWithNoiseBackward0"}


def _out(input, result, inplace, name=None, *inputs):
    """``result`` as a node named ``name`` (PyTorch's node for the op) whose next_functions
    lead to ``inputs`` (default: ``input``); if ``inplace``, written into ``input`` (copy_:
    the op's rows may have saved input's old values), whose node then takes that name."""
    if inplace:
        input.copy_(result)
        if name is None:
            return input
        return named_result(input, name[:-1] + "1" if name in _RESULT_SAVING else name)
    return result if name is None else named_result(result, name, *(inputs or (input,)))


def _operand(input, inplace):
    """What the rows of an op written back into ``input`` read: a copy of it when they will
    be differentiated and save its values (silu, mish, hardswish), since the write changes
    them; PyTorch's in-place forms keep the original self the same way."""
    return input.clone() if inplace and input.requires_grad and is_grad_enabled() else input


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """``clamp(x, min_val, max_val)``; the gradient passes strictly inside the interval."""
    _float(input, "hardtanh")
    if max_val < min_val:
        raise ValueError("min_val cannot be greater than max_val")
    # (nested wheres, not (x > lo) & (x < hi): & of traced masks cannot be traced; NaN
    # passes through, as PyTorch's)
    above = ops.where(input >= max_val, _const(max_val, input), input)
    return _out(input, ops.where(input <= min_val, _const(min_val, input), above), inplace,
                "HardtanhBackward0")


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return hardtanh(input, min_val, max_val, True)


def relu6(input, inplace=False):
    """``min(max(x, 0), 6)`` (hardtanh(0, 6))."""
    return hardtanh(input, 0.0, 6.0, inplace)


def relu_(input):
    """``relu`` in place."""
    return _out(input, ops.relu(input), True, "ReluBackward0")


def threshold(input, threshold, value, inplace=False):
    """``value`` where ``x <= threshold``, else ``x`` (NaN kept, with its gradient, as
    PyTorch's kernel)."""
    _float(input, "threshold")
    return _out(input, ops.where(input <= threshold, _const(value, input), input), inplace,
                "ThresholdBackward0")


def threshold_(input, threshold_value, value):
    return threshold(input, threshold_value, value, True)


def softsign(input):
    """``x / (1 + |x|)``."""
    _float(input, "softsign")
    return input / (1.0 + input.abs())


def tanhshrink(input):
    """``x - tanh(x)``."""
    _float(input, "tanhshrink")
    return input - input.tanh()


def _check_lambd(lambd, x):
    if lambd < 0:
        top = np.finfo(x.dtype).max
        raise RuntimeError(f"lambda must be in range [0, {top:g}] for input dtype "
                           f"{'Double' if x.dtype == np.float64 else 'Float'}, but found "
                           f"{lambd:g}")


def softshrink(input, lambd=0.5):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0."""
    _float(input, "softshrink")
    _check_lambd(lambd, input)
    # 0 on [-lambd, lambd]; NaN passes through x + lambd with its gradient (PyTorch's)
    inner = ops.where(input <= lambd, _const(0.0, input), input - lambd)
    return named_result(ops.where(input >= -lambd, inner, input + lambd),
                        "SoftshrinkBackward0", input)


def hardshrink(input, lambd=0.5):
    """``x`` where ``|x| > lambd``, else 0."""
    _float(input, "hardshrink")
    _check_lambd(lambd, input)
    # 0 on [-lambd, lambd], x elsewhere, NaN too (PyTorch's); nested wheres, not a | of
    # masks, which a trace cannot record
    inner = ops.where(input <= lambd, _const(0.0, input), input)
    return named_result(ops.where(input >= -lambd, inner, input), "HardshrinkBackward0",
                        input)


def hardsigmoid(input, inplace=False):
    """``relu6(x + 3) / 6``; the gradient strictly inside (-3, 3) is PyTorch's: 1/6
    rounded to float32 (its kernel's constant), also in float64."""
    _float(input, "hardsigmoid")
    # 0 up to -3, 1 from 3, NaN kept with no gradient (PyTorch's); nested wheres, not an &
    # of masks, which a trace cannot record
    ends = ops.where(input <= -3.0, _const(0.0, input),
                     ops.where(input >= 3.0, _const(1.0, input), input.detach()))
    t = input + 3.0
    sixth = float(np.float32(1.0 / 6.0))
    middle = t * sixth + (t / 6.0 - t * sixth).detach()  # value (x + 3) / 6, slope sixth
    return _out(input, ops.where(input > -3.0, ops.where(input < 3.0, middle, ends), ends),
                inplace, "HardsigmoidBackward0")


def hardswish(input, inplace=False):
    """``x * relu6(x + 3) / 6``: 0 up to -3, ``x`` from 3 (the end pieces' slopes at -3
    and 3, as PyTorch's kernel)."""
    _float(input, "hardswish")
    x = _operand(input, inplace)
    # the product of x inside (-3, 3) only: a zero adjoint of NaN or -inf would meet 0 * nan
    inner = ops.where(x > -3.0, ops.where(x < 3.0, x, _const(0.0, x)), _const(0.0, x))
    middle = inner * (inner + 3.0) / 6.0
    # from 3: PyTorch's value x * 6 / 6 (not always x: a last bit, or inf where x * 6
    # overflows float32) and its gradient, the upstream one, exactly (a detached correction;
    # not where it is x: infinities)
    t = x * 6.0 / 6.0
    top = ops.where(t == x, x, x + (t - x).detach())
    # x * 0 up to -3: PyTorch's x * relu6(x + 3) / 6 there, -0.0 (NaN at -inf) with a zero
    # gradient; NaN takes the top branch (its value, and PyTorch's gradient: the upstream one)
    y = ops.where(x < 3.0, ops.where(x <= -3.0, x * 0.0, middle), top)
    return _out(input, y, inplace, "HardswishBackward0")


def mish(input, inplace=False):
    """``x * tanh(softplus(x))``."""
    _float(input, "mish")
    x = _operand(input, inplace)
    return _out(input, x * ops.softplus(x).tanh(), inplace, "MishBackward0")


def _elu(input, alpha, scale, input_scale, inplace, op):
    _float(input, op)
    # PyTorch's kernel takes the exp branch where x <= 0 (slope alpha * scale * input_scale
    # at 0) but its double backward masks x < 0 (curvature 0 at 0), and NaN takes the linear
    # branch (slope scale).  So the exp branch only where x < 0, of expm1 over a where that
    # keeps the unused side finite (-0.0: elu(-0.0) = -0.0), and the linear branch x times
    # a constant slope, the exp branch's at 0.  Wheres over masks and a constant
    # factor save no value of x, so the in-place form can overwrite x and still be
    # differentiated (test_nn_activations.py; test_torch_scripts32.py pins the points)
    below = ops.where(input < 0, input, _const(-0.0, input))
    neg = (below * input_scale if input_scale != 1.0 else below).expm1()
    if alpha * scale != 1.0:
        neg = neg * (alpha * scale)
    at_zero = alpha * scale * input_scale
    if at_zero == scale:  # (elu with alpha 1, celu: one slope)
        lin = input * scale if scale != 1.0 else input
    else:
        lin = input * ops.where(input == 0, _const(at_zero, input), _const(scale, input))
    return _out(input, ops.where(input < 0, neg, lin), inplace,
                "CeluBackward0" if op == "celu" else "EluBackward0")


def elu(input, alpha=1.0, inplace=False):
    """``x`` where ``x > 0``, else ``alpha * (exp(x) - 1)``."""
    return _elu(input, alpha, 1.0, 1.0, inplace, "elu")


def elu_(input, alpha=1.0):
    return elu(input, alpha, True)


def selu(input, inplace=False):
    """``scale * elu(x, alpha)`` with the self-normalising constants."""
    return _elu(input, _SELU_ALPHA, _SELU_SCALE, 1.0, inplace, "selu")


def selu_(input):
    return selu(input, True)


def celu(input, alpha=1.0, inplace=False):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError")
    return _elu(input, alpha, 1.0, 1.0 / alpha, inplace, "celu")


def celu_(input, alpha=1.0):
    return celu(input, alpha, True)


def glu(input, dim=-1):
    """``a * sigmoid(b)`` for the two halves ``a``, ``b`` of ``input`` along ``dim``."""
    _float(input, "glu")
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    d = _wrap_dim(dim, input.ndim, "glu")
    if input.shape[d] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size "
                           f"{input.shape[d]}")
    a, b = input.chunk(2, d)
    return named_result(a * b.sigmoid(), "GluBackward0", input)


def prelu(input, weight):
    """``x`` where ``x > 0``, else ``weight * x``; ``weight`` has one entry, or one per
    channel (dim 1)."""
    _float(input, "prelu")
    if not isinstance(weight, Tensor):
        raise TypeError(f"prelu(): argument 'weight' (position 2) must be Tensor, not "
                        f"{type(weight).__name__}")
    n = weight.numel()
    channels = input.shape[1] if input.ndim >= 2 else (input.shape[0] if input.ndim else 1)
    if n != 1 and n != channels:
        raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found "
                           f"parameter numbers = {n} and channel size = {channels}.")
    if weight.ndim > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {weight.ndim}")
    w = weight.reshape(-1)
    if n > 1 and input.ndim >= 2:
        w = w.reshape(n, *([1] * (input.ndim - 2)))
    elif n == 1:
        w = w.reshape(())
    return named_result(ops.where(input > 0, input, w * input), "PreluKernelBackward0", input,
                        w)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """Leaky relu with slopes drawn from U(lower, upper) per element in training, their
    mean ``(lower + upper) / 2`` otherwise."""
    _float(input, "rrelu")
    if not training:
        slope = _const((lower + upper) / 2, input)
    else:
        slope = Tensor(creation._rng.uniform(lower, upper, tuple(input.shape)).astype(
            input.dtype))
    return _out(input, ops.where(input > 0, input, input * slope), inplace,
                "RreluWithNoiseBackward0")


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return rrelu(input, lower, upper, training, True)


def _get_softmax_dim(name, ndim, stacklevel):
    """PyTorch's deprecated dim of a softmax called without one, with its warning: 0 for
    0-, 1- and 3-d input (one sample, or (seq, batch, ...)), else 1 (batch first)."""
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  "to include dim=X as an argument.", stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """``softmax(-x, dim)``."""
    x = input.to(dtype) if dtype is not None else input
    if dim is None:
        dim = _get_softmax_dim("softmin", input.ndim, _stacklevel)
    dim = _wrap_dim(dim, x.ndim, "softmin")
    if x.ndim == 0:
        return (-x + x).exp()  # 1, as F.softmax of a 0-d tensor
    return ops.nn.softmax(-x, dim)


def gumbel_softmax(logits, tau=1.0, hard=False, eps=1e-10, dim=-1):
    """Samples of the Gumbel-softmax distribution (``hard``: one-hot values, the soft
    sample's gradient)."""
    u = creation._rng.exponential(1.0, tuple(logits.shape))
    gumbels = (logits - _const(np.log(u), logits)) / tau
    d = _wrap_dim(dim, logits.ndim, "gumbel_softmax")
    soft = ops.nn.softmax(gumbels, d)
    if not hard:
        return soft
    index = np.asarray(soft._data).argmax(d)
    one_hot = np.zeros(tuple(logits.shape), logits.dtype)
    np.put_along_axis(one_hot, np.expand_dims(index, d), 1.0, axis=d)
    return _const(one_hot, logits) - soft.detach() + soft

