import torch
import torch.nn as nn
from torch.nn.utils.fusion import fuse_conv_bn_eval, fuse_linear_bn_eval
from torch.nn.utils.stateless import functional_call

conv = nn.Conv2d(2, 3, 3, padding=1)
bn = nn.BatchNorm2d(3)
with torch.no_grad():
    conv.weight.copy_(torch.sin(torch.arange(54.0)).reshape(3, 2, 3, 3))
    conv.bias.copy_(torch.tensor([0.1, -0.1, 0.2]))
    bn.running_mean.copy_(torch.tensor([0.5, -0.5, 0.0]))
    bn.running_var.copy_(torch.tensor([2.0, 0.5, 1.0]))
    bn.weight.copy_(torch.tensor([1.5, 0.5, 1.0]))
    bn.bias.copy_(torch.tensor([0.0, 0.3, -0.3]))
conv.eval()
bn.eval()
x = torch.cos(torch.arange(2 * 2 * 4 * 4, dtype=torch.float64)).reshape(2, 2, 4, 4)
fused = fuse_conv_bn_eval(conv, bn)
print(torch.allclose(fused(x), bn(conv(x)), atol=1e-10), fused.bias.detach().round(decimals=5))
lin = nn.Linear(3, 2)
bn1 = nn.BatchNorm1d(2).eval()
with torch.no_grad():
    bn1.running_var.fill_(4.0)
lin.eval()
fl = fuse_linear_bn_eval(lin, bn1)
print(torch.allclose(fl(torch.ones(1, 3)), bn1(lin(torch.ones(1, 3)))))
net = nn.Linear(2, 1)
out = functional_call(net, {"weight": torch.tensor([[2.0, 3.0]]), "bias": torch.tensor([1.0])}, (torch.tensor([[1.0, 1.0]]),))
print(out, net.weight.shape)
out = torch.func.functional_call(net, ({"weight": torch.tensor([[1.0, 1.0]])}, {"bias": torch.tensor([0.0])}), torch.tensor([[1.0, 2.0]]))
print(out)
