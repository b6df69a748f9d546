import torch

x = torch.tensor([-2.0, -0.0, 0.0, 1.0, float("nan"), float("inf")])
print(x.clamp(-1, 1), x.clamp(min=0), torch.nan_to_num(x), torch.nan_to_num(x, nan=0.5, posinf=9.0))
print(x.isnan(), x.isinf(), x.isfinite(), x.isposinf(), x.signbit())
print(torch.where(x.isnan(), torch.zeros_like(x), x))
print(x.sign(), x.sgn(), torch.copysign(torch.ones(6), x))
print(x.max(), x.nan_to_num().max(), torch.nanmean(x[:5]), torch.nansum(x[:5]), torch.fmax(x, torch.zeros(6)), torch.fmin(x, torch.zeros(6)))
print(torch.maximum(x, torch.zeros(6)), torch.minimum(x, torch.zeros(6)))
y = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)
s = torch.where(y > 0, y.sqrt(), torch.zeros_like(y))
s.sum().backward()
print(s, y.grad)
y.grad = None
safe = torch.where(y > 0, y, torch.ones_like(y)).sqrt()
torch.where(y > 0, safe, torch.zeros_like(y)).sum().backward()
print(y.grad)
z = torch.tensor([0.0, 2.0], requires_grad=True)
(z.abs()).sum().backward()
print(z.grad)
z.grad = None
torch.clamp(z, 0, 2).sum().backward()
print(z.grad)
z.grad = None
torch.max(z, torch.tensor([0.0, 2.0])).sum().backward()
print(z.grad)
z.grad = None
z.max().backward()
print(z.grad)
q = torch.tensor([1.0, 1.0, 0.5], requires_grad=True)
q.max().backward()
print(q.grad)
q.grad = None
q.amax().backward()
print(q.grad)
print(torch.tensor([1.0, float("nan")]).sum(), torch.tensor([float("nan"), 1.0]).argmax(), torch.tensor([1.0, float("nan")]).sort())
print(torch.tensor(0.0) / 0, torch.tensor(1.0) / 0, torch.tensor(-1.0).sqrt(), torch.tensor(0.0).log())
