import torch
from torch.autograd.functional import jvp, vjp


def polar(r, theta):
    return torch.stack([r * torch.cos(theta), r * torch.sin(theta)])


r = torch.tensor(2.0)
th = torch.tensor(0.6)
out, (gr, gth) = vjp(polar, (r, th), torch.tensor([1.0, 0.5]))
print(out.round(decimals=6), round(gr.item(), 6), round(gth.item(), 6))
out2, tangent = jvp(polar, (r, th), (torch.tensor(0.1), torch.tensor(1.0)))
print(tangent.round(decimals=6))


def field(x):
    return torch.stack([x[0] ** 2 * x[1], torch.exp(x[1]) - x[0], x[0] * x[1] * x[2]])


x = torch.tensor([1.0, 0.5, -2.0])
v = torch.tensor([1.0, 0.0, 2.0])
_, Jtv = vjp(field, x, v)
_, Jv = jvp(field, x, v)
J = torch.autograd.functional.jacobian(field, x)
print(torch.allclose(Jtv, J.T @ v), torch.allclose(Jv, J @ v))
print(Jtv.round(decimals=5), Jv.round(decimals=5))
xg = x.clone().requires_grad_()
_, g = vjp(field, xg, v, create_graph=True)
g.sum().backward()
print(xg.grad.round(decimals=5))
scalar_out, sv = vjp(lambda a: (a ** 3).sum(), x)
print(scalar_out.item(), sv)
_, none_v = jvp(lambda a: a.sum() * 2, torch.ones(1))
print(none_v)
try:
    vjp(lambda a: torch.zeros(3), x, v, strict=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:80])
print(vjp(lambda a: torch.zeros(3), x, v)[1])
