import torch

x = torch.arange(24.0).view(2, 3, 4) / 7 - 1
print(x.sum(dim=(0, 2)), x.mean(dim=[1, 2], keepdim=True).shape, x.amax(dim=(0, 1)), x.amin(-1))
print(x.std(dim=1, correction=0), x.var(dim=(0, 2), unbiased=True), x.norm(p=1, dim=2), x.norm(dim=(1, 2)))
print(x.logsumexp(dim=(1, 2)), x.prod(1).shape, torch.max(x, dim=2, keepdim=True).values.shape, x.max(-1).indices)
print(torch.sum(x, dtype=torch.float32).dtype, torch.mean(x.int().double()), x.sum(()), x.sum(-1, keepdim=True).shape)
xr = x.clone().requires_grad_(True)
(xr.amax(dim=(0, 2)).sum() + xr.std(dim=1).sum() + xr.norm(dim=(1, 2)).sum() + xr.logsumexp(dim=(0, 1)).sum()).backward()
print(xr.grad[0].round(decimals=4))
t = torch.tensor([[1.0, 5.0, 5.0], [2.0, 2.0, 0.0]], requires_grad=True)
t.amax(dim=1).sum().backward()
print(t.grad)
t.grad = None
t.max(dim=1).values.sum().backward()
print(t.grad)
t.grad = None
t.max().backward()
print(t.grad)
t.grad = None
torch.median(t).backward()
print(t.grad)
print(torch.tensor([]).sum(), torch.tensor([]).prod(), torch.tensor([]).amax(dim=0) if False else torch.tensor([]).mean())
try:
    torch.tensor([]).max()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.zeros(0, 3).amax(dim=0)
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
print(torch.zeros(0, 3).amax(dim=1), torch.zeros(0, 3).sum(0), torch.ones(2, 0).mean(1))
