# in-place ops through chains of views: base sees the change, grads flow via CopySlices
import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
y = x.clone()
row = y[1]
col = row[1:]
col.mul_(10)
print(y, y.grad_fn.name(), row.grad_fn.name(), col.grad_fn.name())
y.sum().backward()
print(x.grad)
z = x.detach().clone().requires_grad_()
w = z * 1
w.t()[0].add_(100)
print(w, w._version)
w.pow(2).sum().backward()
print(z.grad)
a = torch.zeros(4, requires_grad=True)
b = a + 0
b.view(2, 2)[:, 0].copy_(torch.tensor([7.0, 8.0]))
print(b, b.grad_fn.name())
b.sum().backward()
print(a.grad)
try:
    leaf = torch.ones(3, requires_grad=True)
    leaf[0].mul_(2)
except RuntimeError as e:
    print(str(e)[:120])
with torch.no_grad():
    v = x[0]
    v.zero_()
print(x, x._version)
