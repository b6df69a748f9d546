# index_put_ with accumulate, duplicate indices, boolean masks and their gradients
import torch

x = torch.zeros(5)
idx = torch.tensor([0, 2, 2, 4, 0])
x.index_put_((idx,), torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0]), accumulate=True)
print(x)
y = torch.zeros(3, 3)
y.index_put_((torch.tensor([0, 1, 0]), torch.tensor([1, 2, 1])), torch.tensor(1.5),
             accumulate=True)
print(y)
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
base = torch.ones(4, requires_grad=True)
z = base.index_put((torch.tensor([1, 1, 3]),), v, accumulate=True)
print(z, z.grad_fn.name())
(z * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
print(base.grad, v.grad)
m = torch.tensor([[True, False], [False, True]])
a = torch.arange(4.0).reshape(2, 2).requires_grad_()
b = a.clone()
b[m] = torch.tensor([10.0, 20.0])
print(b)
b.sum().backward()
print(a.grad)
c = torch.zeros(2, 3)
c[torch.tensor([True, False])] = torch.tensor([7.0, 8.0, 9.0])
print(c)
c[:, torch.tensor([False, True, True])] += 1
print(c)
try:
    torch.zeros(3).index_put_((torch.tensor([5]),), torch.tensor(1.0))
except IndexError as e:
    print(e)
