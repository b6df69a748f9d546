# boolean-mask indexing, index_put_ with accumulate and duplicate indices: gradients
import torch

x = torch.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]], requires_grad=True)
m = x > 0
print(x[m])
(x[m] ** 2).sum().backward()
print(x.grad)
y = torch.zeros(5)
y.index_put_((torch.tensor([0, 2, 0, 4]),), torch.tensor([1.0, 2.0, 3.0, 4.0]), accumulate=True)
print(y)
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
base = torch.zeros(4, requires_grad=True)
out = base.clone().index_put((torch.tensor([1, 1, 3]),), v * 2, accumulate=True)
(out * torch.tensor([1.0, 10.0, 100.0, 1000.0])).sum().backward()
print(out, v.grad, base.grad)
z = torch.zeros(2, 3)
z[torch.tensor([[True, False, True], [False, True, False]])] = torch.tensor([7.0, 8.0, 9.0])
print(z)
w = torch.ones(3, 3, requires_grad=True)
q = w.clone()
q[q.detach() > 0] = 0.5 * q[q.detach() > 0]
q[torch.tensor([0, 2]), torch.tensor([1, 1])] = 0.0
q.sum().backward()
print(w.grad)
