# split/chunk/unbind and stack/cat gradients, including unequal splits
import torch

x = torch.arange(10.0, requires_grad=True)
a, b, c = x.split([2, 3, 5])
(a.sum() * 1 + b.sum() * 2 + c.sum() * 3).backward()
print(x.grad)
x.grad = None
parts = x.view(2, 5).chunk(3, dim=1)
print([p.shape for p in parts])
torch.cat([parts[2], parts[0]], 1).pow(2).sum().backward()
print(x.grad)
x.grad = None
rows = x.view(5, 2).unbind(0)
torch.stack(rows[::2], dim=1).sum(1).mul(torch.tensor([1.0, -1.0])).sum().backward()
print(x.grad)
print(torch.hstack([torch.ones(2), torch.zeros(1)]), torch.vstack([torch.ones(2), torch.zeros(2)]).shape, torch.dstack([torch.ones(2), torch.ones(2)]).shape)
