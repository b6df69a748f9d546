# gather with repeated indices (grad accumulates), take_along_dim with argsort, torch.take, index_select grad
import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
g = torch.gather(x, 1, torch.tensor([[0, 0, 2], [1, 1, 1]]))
g.sum().backward()
print(g, x.grad)
x.grad = None
idx = torch.argsort(x, dim=1, descending=True)
s = torch.take_along_dim(x, idx, dim=1)
(s * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(s, x.grad)
print(torch.take_along_dim(x.detach(), torch.tensor([[5]])), torch.take(x.detach(), torch.tensor([[0, 5], [2, 2]])))
x.grad = None
torch.index_select(x, 0, torch.tensor([1, 1, 0])).sum().backward()
print(x.grad)
print(torch.gather(x.detach(), 0, torch.tensor([[1, 0, 1]])), x.detach().gather(-1, torch.tensor([[2], [0]])))
