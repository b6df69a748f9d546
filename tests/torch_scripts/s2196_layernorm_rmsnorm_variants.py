import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[[1.0, 2.0, 4.0, 8.0], [-1.0, 0.0, 1.0, 2.0]],
                  [[0.5, 0.5, 0.5, 0.5], [3.0, -3.0, 3.0, -3.0]]])
ln = nn.LayerNorm(4, elementwise_affine=False)
print(ln(x).round(decimals=4), ln.weight)
ln_nb = nn.LayerNorm(4, bias=False)
print(ln_nb.bias, ln_nb.weight.shape)
ln2 = nn.LayerNorm([2, 4], eps=1e-3)
with torch.no_grad():
    ln2.weight.copy_(torch.linspace(0.5, 2.0, 8).view(2, 4))
print(ln2(x)[1].round(decimals=4))
rms = nn.RMSNorm(4)
print(rms(x).round(decimals=4))
print(rms.eps, rms)
rms_eps = nn.RMSNorm([2, 4], eps=1e-2, elementwise_affine=False)
print(rms_eps(x)[0].round(decimals=4))
manual = x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)
print(torch.allclose(F.rms_norm(x, (4,), eps=1e-6), manual))
w = torch.tensor([1.0, 0.5, 2.0, -1.0], requires_grad=True)
xr = x.clone().requires_grad_()
F.rms_norm(xr, (4,), weight=w).sum().backward()
print(xr.grad[0].round(decimals=4), w.grad.round(decimals=4))
xr.grad = None
F.layer_norm(xr, (4,), weight=w, bias=torch.zeros(4)).pow(2).sum().backward()
print(xr.grad[1].round(decimals=4))
print(F.layer_norm(x, (2, 4)).std(dim=(1, 2), unbiased=False).round(decimals=4))
