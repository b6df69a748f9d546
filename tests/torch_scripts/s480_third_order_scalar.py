import torch

x = torch.tensor(0.7, requires_grad=True)
f = torch.exp(torch.sin(x)) * x ** 3
d1, = torch.autograd.grad(f, x, create_graph=True)
d2, = torch.autograd.grad(d1, x, create_graph=True)
d3, = torch.autograd.grad(d2, x, create_graph=True)
d4, = torch.autograd.grad(d3, x)
print([round(v.item(), 6) for v in (f, d1, d2, d3, d4)])
y = torch.tensor([0.5, 1.5], requires_grad=True)


def nth(fun, inp, n):
    out = fun(inp)
    ds = []
    for _ in range(n):
        out, = torch.autograd.grad(out.sum(), inp, create_graph=True)
        ds.append(out.detach())
    return ds


for fn in (torch.tanh, torch.sigmoid, torch.log1p, torch.atan, torch.special.erf, lambda t: torch.softplus(t) if hasattr(torch, "softplus") else torch.nn.functional.softplus(t)):
    print([d.round(decimals=5).tolist() for d in nth(fn, y, 3)])
z = torch.tensor([1.0, 2.0], requires_grad=True)
g = torch.autograd.grad((z[0] ** 2 * z[1] ** 3), z, create_graph=True)[0]
H = torch.stack([torch.autograd.grad(g[i], z, create_graph=True)[0] for i in range(2)])
T = torch.stack([torch.stack([torch.autograd.grad(H[i, j], z, retain_graph=True)[0] for j in range(2)]) for i in range(2)])
print(g.detach(), H.detach(), T)
w = torch.tensor(2.0, requires_grad=True)
u = w.pow(4)
g1 = torch.autograd.grad(u, w, create_graph=True)[0]
print(g1.grad_fn is not None, g1.requires_grad, torch.autograd.grad(g1, w)[0])
