# cdist with p values and gradients, cov with weights/correction, corrcoef, pdist
import torch

a = torch.tensor([[0.0, 0.0], [1.0, 2.0], [3.0, 1.0]], requires_grad=True)
b = torch.tensor([[1.0, 1.0], [2.0, -1.0]])
for p in (1.0, 2.0, 3.0, float("inf")):
    d = torch.cdist(a, b, p=p)
    g, = torch.autograd.grad(d.sum(), a)
    print(p, d, g)
print(torch.pdist(a.detach()), torch.nn.functional.pdist(a.detach(), p=1))
X = torch.tensor([[1.0, 2.0, 4.0, 7.0], [0.5, 0.1, -0.3, 0.2]])
print(torch.cov(X), torch.cov(X, correction=0))
print(torch.cov(X, fweights=torch.tensor([1, 2, 1, 3]), aweights=torch.tensor([0.5, 1.0, 1.0, 2.0])))
print(torch.corrcoef(X))
print(torch.cdist(torch.ones(2, 3, 2), torch.zeros(2, 4, 2)).shape)
