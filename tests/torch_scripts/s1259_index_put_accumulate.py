# index_put_ with accumulate=True and duplicate indices, gradients through index_put
import torch

x = torch.zeros(5)
idx = torch.tensor([0, 1, 1, 4, 0])
x.index_put_((idx,), torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0]), accumulate=True)
print(x)
y = torch.zeros(5)
y.index_put_((torch.tensor([2, 3]),), torch.tensor(7.0))
print(y)
z = torch.zeros(3, 3)
z.index_put_((torch.tensor([0, 2, 0]), torch.tensor([1, 1, 1])), torch.tensor([1.0, 1.0, 1.0]), accumulate=True)
print(z)
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
base = torch.ones(4, requires_grad=True)
out = base.index_put((torch.tensor([0, 0, 3]),), v * 2, accumulate=True)
(out * torch.tensor([1.0, 10.0, 100.0, 1000.0])).sum().backward()
print(out, v.grad, base.grad)
