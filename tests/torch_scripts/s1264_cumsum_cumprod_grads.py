# cumsum/cumprod forward and backward along dims, with zeros in cumprod, reverse cumsum via flip
import torch

x = torch.tensor([[1.0, 2.0, 3.0], [0.5, 0.0, 4.0]], requires_grad=True)
cs = x.cumsum(1)
cp = x.cumprod(1)
print(cs, cp)
(cs * torch.tensor([1.0, 2.0, 3.0])).sum().backward(retain_graph=True)
print(x.grad)
x.grad = None
cp.sum().backward()
print(x.grad)
x.grad = None
rev = x.flip(1).cumsum(1).flip(1)
print(rev)
torch.cumsum(x, dim=0).sum().backward()
print(x.grad)
print(torch.cumsum(torch.tensor([1, 2, 3]), 0).dtype, torch.cumsum(torch.tensor([1, 2]), 0, dtype=torch.float32))
