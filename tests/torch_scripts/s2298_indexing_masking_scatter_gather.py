import torch

x = torch.arange(12.0).view(3, 4)
print(x[1], x[:, 1], x[1:, ::2], x[..., -1], x[None].shape, x[:, None, :].shape)
print(x[[0, 2]], x[[0, 2], [1, 3]], x[x > 5], x[torch.tensor([True, False, True])])
y = x.clone()
y[y > 8] = 0
y[:, 0] += 100
print(y)
idx = torch.tensor([[0, 1], [2, 3], [1, 1]])
print(torch.gather(x, 1, idx))
z = torch.zeros(3, 5).scatter_(1, torch.tensor([[0], [4], [2]]), 1.0)
print(z)
print(torch.zeros(5).scatter_add_(0, torch.tensor([0, 1, 0, 4]), torch.tensor([1.0, 2.0, 3.0, 4.0])))
print(x.masked_fill(x % 2 == 0, -1), torch.where(x > 6, x, torch.zeros_like(x)))
print(x.index_select(1, torch.tensor([3, 0])), torch.nonzero(x > 9), (x > 9).nonzero(as_tuple=True))
print(x.argmax(), x.argmax(dim=1), torch.topk(x.flatten(), 3), x.max(1))
w = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
out = w[[0, 0, 3]] * torch.tensor([1.0, 2.0, 3.0])
out.sum().backward()
print(w.grad, out.grad_fn.name())
print(torch.take(x, torch.tensor([0, 5, 11])), x.flatten()[-3:], x.unbind(1)[2])
print(x.narrow(1, 1, 2), x.chunk(2, dim=1)[1].shape, [t.shape for t in x.split([1, 3], dim=1)])
