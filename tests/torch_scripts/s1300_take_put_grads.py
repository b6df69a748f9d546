# take / take_along_dim / put_ accumulate with gradients
import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
t = torch.take(x, torch.tensor([[0, 5], [5, 2]]))
print(t)
ta = torch.take_along_dim(x, torch.tensor([[2], [0]]), dim=1)
print(ta)
(t.sum() + 3 * ta.sum()).backward()
print(x.grad)
y = torch.zeros(2, 3)
y.put_(torch.tensor([1, 1, 4]), torch.tensor([1.0, 2.0, 3.0]), accumulate=True)
print(y)
print(torch.take_along_dim(x, x.argsort(dim=1, descending=True), dim=1))
