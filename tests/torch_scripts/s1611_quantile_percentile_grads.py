# quantiles: interpolation methods, dims, keepdim, and gradients through linear interpolation
import torch

x = torch.tensor([3.0, 1.0, 4.0, 1.5, 9.0, 2.0], requires_grad=True)
for m in ["linear", "lower", "higher", "nearest", "midpoint"]:
    print(m, torch.quantile(x.detach(), torch.tensor([0.1, 0.5, 0.9]), interpolation=m))
q = torch.quantile(x, 0.3)
q.backward()
print(q, x.grad, q.grad_fn.name())
M = torch.arange(12.0).reshape(3, 4)
print(M.quantile(0.5, dim=1), M.quantile(torch.tensor([0.25, 0.75]), dim=0, keepdim=True).shape)
print(torch.median(M, dim=1), M.median())
try:
    torch.quantile(x.detach(), 1.5)
except RuntimeError as e:
    print(e)
try:
    torch.quantile(torch.tensor([1, 2]), 0.5)
except RuntimeError as e:
    print(e)
