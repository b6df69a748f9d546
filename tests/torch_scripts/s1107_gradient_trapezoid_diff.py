# torch.gradient with spacing and edge_order, trapezoid, cumulative_trapezoid, diff with prepend/append
import torch

y = torch.tensor([1.0, 4.0, 9.0, 16.0, 25.0])
print(torch.gradient(y))
print(torch.gradient(y, spacing=2.0))
print(torch.gradient(y, spacing=(torch.tensor([0.0, 1.0, 1.5, 3.0, 4.0]),), edge_order=2))
M = torch.arange(12.0).view(3, 4) ** 2
print(torch.gradient(M, dim=1), torch.gradient(M)[0])
print(torch.trapezoid(y), torch.trapezoid(y, dx=0.5), torch.trapezoid(y, x=torch.tensor([0.0, 1.0, 3.0, 4.0, 6.0])))
print(torch.cumulative_trapezoid(y), torch.trapz(y, dx=2.0))
print(torch.diff(y, n=2), torch.diff(y, prepend=torch.tensor([0.0]), append=torch.tensor([30.0])))
z = y.clone().requires_grad_()
torch.trapezoid(z ** 2).backward()
print(z.grad)
w = y.clone().requires_grad_()
torch.gradient(w)[0].pow(2).sum().backward()
print(w.grad)
