import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
mask = torch.tensor([[True, False, True], [False, True, False]])
src = torch.tensor([10.0, 20.0, 30.0, 40.0, 50.0, 60.0], requires_grad=True)
y = x.masked_scatter(mask, src)
print(y.detach())
(y * torch.arange(1.0, 7.0).view(2, 3)).sum().backward()
print(x.grad, src.grad)
x.grad = None
z = x.masked_fill(mask, 0.0)
(z ** 2).sum().backward()
print(x.grad)
x.grad = None
sel = x.masked_select(mask)
sel.pow(3).sum().backward()
print(sel.detach(), x.grad)
row_mask = torch.tensor([True, False, True])
print(x.detach().masked_fill(row_mask, -1.0))
print(x.detach()[:, row_mask], x.detach()[mask.logical_not()])
b = x.detach().clone()
b[mask] = torch.tensor([7.0, 8.0, 9.0])
b[~mask] *= -1
print(b)
print(torch.masked_fill(torch.zeros(2, 2, dtype=torch.long), torch.eye(2, dtype=torch.bool), 5))
