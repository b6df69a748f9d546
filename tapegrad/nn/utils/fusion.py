"""``nn.utils.fusion``: a convolution or Linear followed by an eval-mode BatchNorm folded
into one layer (``w' = w * gamma / sqrt(var + eps)``, ``b' = (b - mean) * gamma /
sqrt(var + eps) + beta``), as PyTorch's.

>>> import tapegrad as tg
>>> conv, bn = tg.nn.Conv2d(1, 2, 3).eval(), tg.nn.BatchNorm2d(2).eval()
>>> x = tg.ones(1, 1, 4, 4)
>>> fused = tg.nn.utils.fusion.fuse_conv_bn_eval(conv, bn)
>>> bool(((fused(x) - bn(conv(x))).abs() < 1e-12).all())
True
"""
import copy

from ..parameter import Parameter


def fuse_conv_bn_weights(conv_w, conv_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b, transpose=False):
    """The (weight, bias) Parameters of the convolution that equals conv then BatchNorm."""
    conv_b = conv_b if conv_b is not None else bn_rm.detach() * 0.0
    bn_w = bn_w if bn_w is not None else bn_rm.detach() * 0.0 + 1.0
    bn_b = bn_b if bn_b is not None else bn_rm.detach() * 0.0
    rsqrt = (bn_rv + bn_eps).rsqrt()
    shape = [1, -1] if transpose else [-1, 1]
    shape += [1] * (conv_w.ndim - 2)
    fused_w = (conv_w * (bn_w * rsqrt).reshape(*shape)).to(conv_w.dtype)
    fused_b = ((conv_b - bn_rm) * rsqrt * bn_w + bn_b).to(conv_b.dtype)
    return (Parameter(fused_w.detach(), conv_w.requires_grad),
            Parameter(fused_b.detach(), conv_b.requires_grad))


def fuse_conv_bn_eval(conv, bn, transpose=False):
    """A copy of ``conv`` (eval mode) whose output equals ``bn(conv(x))`` (eval mode)."""
    if conv.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("fuse_conv_bn_eval needs the BatchNorm's running statistics")
    fused = copy.deepcopy(conv)
    fused.weight, fused.bias = fuse_conv_bn_weights(
        fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias,
        transpose)
    return fused


def fuse_linear_bn_weights(linear_w, linear_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b):
    """The (weight, bias) Parameters of the Linear that equals Linear then BatchNorm."""
    linear_b = linear_b if linear_b is not None else bn_rm.detach() * 0.0
    scale = bn_w * (bn_rv + bn_eps).rsqrt()
    fused_w = linear_w * scale.unsqueeze(-1)
    fused_b = (linear_b - bn_rm) * scale + bn_b
    return (Parameter(fused_w.detach(), linear_w.requires_grad),
            Parameter(fused_b.detach(), linear_b.requires_grad))


def fuse_linear_bn_eval(linear, bn):
    """A copy of ``linear`` (eval mode) whose output equals ``bn(linear(x))`` (eval mode)."""
    if linear.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    if not (linear.out_features == bn.num_features or bn.num_features == 1):
        raise AssertionError("To fuse, linear.out_features must equal bn.num_features or "
                             "bn.num_features must be 1")
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("fuse_linear_bn_eval needs the BatchNorm's running statistics")
    fused = copy.deepcopy(linear)
    fused.weight, fused.bias = fuse_linear_bn_weights(
        fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias)
    return fused
