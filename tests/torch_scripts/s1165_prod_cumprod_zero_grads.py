# prod/cumprod gradients with zeros (one zero, two zeros), logsumexp with -inf, softplus beta/threshold
import torch
import torch.nn.functional as F

for vals in ([2.0, 3.0, 4.0], [2.0, 0.0, 4.0], [0.0, 0.0, 4.0]):
    x = torch.tensor(vals, requires_grad=True)
    g, = torch.autograd.grad(x.prod(), x)
    c, = torch.autograd.grad(x.cumprod(0).sum(), x)
    print(vals, g, c)
m = torch.tensor([[1.0, 0.0], [2.0, 3.0]], requires_grad=True)
print(torch.autograd.grad(m.prod(dim=1).sum(), m)[0])
l = torch.tensor([[float("-inf"), float("-inf")], [0.0, float("-inf")]], requires_grad=True)
v = torch.logsumexp(l, dim=1)
print(v, torch.autograd.grad(v[1], l)[0])
s = torch.tensor([-30.0, 0.0, 5.0, 30.0], requires_grad=True)
y = F.softplus(s, beta=2.0, threshold=10.0)
print(y, torch.autograd.grad(y.sum(), s)[0])
print(torch.logcumsumexp(torch.tensor([float("-inf"), 0.0, 1.0]), 0))
