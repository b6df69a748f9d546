# index_put_ with accumulate and repeated indices, put_/take, boolean-mask assignment into views, grads
import torch

t = torch.zeros(5)
t.index_put_((torch.tensor([0, 0, 3]),), torch.tensor([1.0, 2.0, 3.0]), accumulate=True)
print(t)
m = torch.zeros(2, 3)
m.index_put_((torch.tensor([0, 1]), torch.tensor([2, 0])), torch.tensor(7.0))
print(m)
p = torch.arange(6.0).view(2, 3)
p.put_(torch.tensor([0, 5]), torch.tensor([-1.0, -2.0]))
print(p, p.take(torch.tensor([[0, 5]])))
print(torch.arange(4.0).put(torch.tensor([1, 1]), torch.tensor([1.0, 2.0]), accumulate=True))
v = torch.zeros(3, 3)
row = v[1]
row[row == 0] = 4.0
print(v)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.zeros(4).index_put((torch.tensor([1, 1, 3]),), x * 2, accumulate=True)
(y * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
print(y, x.grad)
