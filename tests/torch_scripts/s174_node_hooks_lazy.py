import torch
import torch.nn as nn
from torch.nn.utils.fusion import fuse_conv_bn_eval

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.exp()
z = (y * 2).sum()
log = []
h1 = z.grad_fn.register_prehook(lambda grad_outputs: log.append(("pre", grad_outputs[0].item())))
h2 = y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: log.append(
    ("post", [g.round(decimals=3).tolist() for g in grad_inputs])))
z.backward()
print(log, x.grad.round(decimals=4))
h1.remove()
h2.remove()

packed = []


def pack(t):
    packed.append(tuple(t.shape))
    return t


with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
    w = torch.ones(2, 2, requires_grad=True)
    out = (w * w).sin().sum()
print(len(packed) > 0, out.item().__round__(6))
out.backward()
print(w.grad.round(decimals=5))

lazy = nn.LazyLinear(3)
print(lazy)
print(lazy.weight.__class__.__name__)
lazy(torch.ones(4, 5))
print(lazy, lazy.weight.shape, lazy.in_features)
conv = nn.Conv2d(1, 2, 3, bias=True).eval()
bn = nn.BatchNorm2d(2).eval()
with torch.no_grad():
    conv.weight.copy_(torch.linspace(-1, 1, 18).reshape(2, 1, 3, 3))
    conv.bias.copy_(torch.tensor([0.1, -0.2]))
    bn.running_mean.copy_(torch.tensor([0.5, -0.5]))
    bn.running_var.copy_(torch.tensor([2.0, 0.5]))
    bn.weight.copy_(torch.tensor([1.5, 0.7]))
    bn.bias.copy_(torch.tensor([0.0, 0.3]))
fused = fuse_conv_bn_eval(conv, bn)
img = torch.arange(25.0).reshape(1, 1, 5, 5) / 10
print(torch.allclose(fused(img), bn(conv(img))), fused.bias.round(decimals=5))
