# GroupNorm, LayerNorm, InstanceNorm and RMSNorm: values and input/weight gradients
import torch
import torch.nn as nn

x = torch.linspace(-2, 2, 2 * 4 * 3).reshape(2, 4, 3).requires_grad_()
gn = nn.GroupNorm(2, 4)
with torch.no_grad():
    gn.weight.copy_(torch.tensor([1.0, 2.0, 0.5, 1.5]))
y = gn(x)
(y * y.detach().sign()).sum().backward()
print(y[0].detach(), x.grad[1], gn.weight.grad, gn.bias.grad)
ln = nn.LayerNorm([4, 3], elementwise_affine=True, bias=False)
print(ln, sorted(n for n, _ in ln.named_parameters()))
x.grad = None
z = ln(x)
z[:, 0].sum().backward()
print(z.grad_fn.name(), x.grad[0])
inorm = nn.InstanceNorm1d(4, affine=True)
print(inorm(x.detach())[0, 0], inorm)
if hasattr(nn, "RMSNorm"):
    rms = nn.RMSNorm(3, eps=1e-6)
    r = rms(x)
    print(r[0, 0].detach(), rms)
print(torch.nn.functional.layer_norm(torch.tensor([1.0, 2.0, 4.0]), (3,)))
