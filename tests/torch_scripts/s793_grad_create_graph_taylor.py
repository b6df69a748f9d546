# Higher-order terms with autograd.grad(create_graph=True): a Taylor series of sin at 0.3,
# the Laplacian of a scalar field, and a mixed partial
import math
import torch

x = torch.tensor(0.3, requires_grad=True)
f = torch.sin(x)
derivs = [f]
for k in range(4):
    (d,) = torch.autograd.grad(derivs[-1], x, create_graph=True)
    derivs.append(d)
print([round(d.item(), 10) for d in derivs])
h = 0.1
approx = sum(d.item() * h ** k / math.factorial(k) for k, d in enumerate(derivs))
print(round(approx, 10), round(math.sin(0.4), 10))

p = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
phi = (p ** 2).sum() * p.prod() + torch.exp(p[0]) * p[1]
(g,) = torch.autograd.grad(phi, p, create_graph=True)
lap = sum(torch.autograd.grad(g[i], p, retain_graph=True)[0][i] for i in range(3))
print(g, lap)

u = torch.tensor(1.5, requires_grad=True)
v = torch.tensor(-0.5, requires_grad=True)
z = u ** 3 * v ** 2 + torch.sin(u * v)
(du,) = torch.autograd.grad(z, u, create_graph=True)
(duv,) = torch.autograd.grad(du, v)
print(du, duv)
print(du.grad_fn is not None, duv.requires_grad)
