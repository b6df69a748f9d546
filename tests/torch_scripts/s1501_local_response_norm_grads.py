# local response normalisation as in AlexNet: values, gradients and the module's repr
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.linspace(-2.0, 2.0, 2 * 5 * 3).reshape(2, 5, 3).requires_grad_()
y = F.local_response_norm(x, size=3, alpha=1e-2, beta=0.75, k=1.0)
print(y.shape, y.dtype, y.requires_grad)
print(y[0].detach())
y.pow(2).sum().backward()
print(x.grad[1])
lrn = nn.LocalResponseNorm(2)
print(lrn)
z = torch.arange(2 * 4 * 2 * 2, dtype=torch.float64).reshape(2, 4, 2, 2) / 10
z.requires_grad_(True)
out = lrn(z)
print(out.shape, out.sum())
out.sum().backward()
print(z.grad[0, :, 0, 0])
w = torch.ones(1, 3, 4, requires_grad=True)
print(F.local_response_norm(w, 5).detach())
try:
    F.local_response_norm(torch.ones(3), 2)
except Exception as e:
    print(type(e).__name__, e)
