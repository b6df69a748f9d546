import torch

x = torch.arange(12.0).reshape(3, 4).requires_grad_()
idx = torch.tensor([2, 0, 2])
out = x.index_select(0, idx) * torch.tensor([[1.0], [2.0], [3.0]])
out.sum().backward()
print(x.grad)
x.grad = None
y = x.gather(1, torch.tensor([[0, 0], [3, 1], [2, 2]]))
(y * y).sum().backward()
print(x.grad)
x.grad = None
z = torch.zeros(3, 4).index_copy(0, torch.tensor([1]), x[:1] * 2)
z.sum().backward()
print(x.grad)
x.grad = None
m = x.masked_select(x > 5)
print(m.detach())
m.sum().backward()
print(x.grad)
x.grad = None
t = x.take(torch.tensor([0, 5, 11, 5]))
t.sum().backward()
print(x.grad)
x.grad = None
print(torch.take_along_dim(x, x.argmax(dim=1, keepdim=True), dim=1).detach())
base = torch.zeros(3, 4, requires_grad=True)
filled = base.index_fill(1, torch.tensor([1, 3]), 9.0).masked_scatter(torch.eye(3, 4, dtype=torch.bool), x)
filled.sum().backward()
print(filled.detach(), base.grad, x.grad)
v = torch.arange(5.0, requires_grad=True)
r = v.put(torch.tensor([0, 4]), torch.tensor([10.0, 20.0]))
r.pow(2).sum().backward()
print(r.detach(), v.grad)
print(torch.nonzero(x > 8, as_tuple=True), torch.argwhere(x.detach() % 5 == 0))
