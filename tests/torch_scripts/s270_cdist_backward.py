import torch

a = torch.tensor([[0.0, 0.0], [1.0, 1.0], [2.0, 0.5]], requires_grad=True)
b = torch.tensor([[1.0, 0.0], [0.0, 2.0]], requires_grad=True)
d = torch.cdist(a, b)
print(d.round(decimals=5), type(d.grad_fn).__name__)
d.sum().backward()
print(a.grad.round(decimals=5), b.grad.round(decimals=5))
a.grad = None
d1 = torch.cdist(a, b, p=1)
print(d1)
d1.sum().backward()
print(a.grad)
dinf = torch.cdist(a.detach(), b.detach(), p=float("inf"))
print(dinf)
batch = torch.cdist(torch.ones(2, 3, 2), torch.zeros(2, 1, 2))
print(batch.shape, batch[0, 0])
print(torch.pdist(a.detach()).round(decimals=5))
print(torch.nn.functional.pairwise_distance(a[:2].detach(), b.detach()).round(decimals=5))
