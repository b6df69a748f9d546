import torch

# Newton's method for sqrt(a): solve f(x) = x^2 - a = 0, then implicit derivative dx/da
a = torch.tensor(2.0, requires_grad=True)
x = torch.tensor(1.0)
for it in range(6):
    x = x.detach().requires_grad_(True)
    f = x ** 2 - a.detach()
    (df,) = torch.autograd.grad(f, x)
    x = x - f / df
    print(it, round(x.item(), 12), round(f.item(), 12))
x_star = x.detach()
# implicit function theorem: dx/da = -(df/dx)^-1 df/da
xs = x_star.clone().requires_grad_(True)
f = xs ** 2 - a
dfdx, dfda = torch.autograd.grad(f, (xs, a))
print("dx/da implicit", (-dfda / dfdx).item(), "exact", 0.5 / 2 ** 0.5)

# Newton on a vector system using the Hessian with create_graph
def rosen(v):
    return (1 - v[0]) ** 2 + 10 * (v[1] - v[0] ** 2) ** 2

v = torch.tensor([-1.2, 1.0], requires_grad=True)
for it in range(8):
    loss = rosen(v)
    (g,) = torch.autograd.grad(loss, v, create_graph=True)
    H = torch.stack([torch.autograd.grad(g[i], v, retain_graph=True)[0] for i in range(2)])
    step = torch.linalg.solve(H, g)
    with torch.no_grad():
        v -= step
    print(it, f"{loss.item():.6e}", [f"{t:.6f}" for t in v.tolist()], f"{g.norm().item():.4e}")

# Hessian-vector product via double backward
w = torch.tensor([0.5, -0.3, 2.0], requires_grad=True)
u = torch.tensor([1.0, 0.0, -1.0])
loss = (w.sin() * w.exp()).sum() + (w[0] * w[1] * w[2])
(g,) = torch.autograd.grad(loss, w, create_graph=True)
(hv,) = torch.autograd.grad(g @ u, w)
print("hvp", hv)
print("hvp func", torch.autograd.functional.hvp(lambda t: (t.sin() * t.exp()).sum() + t[0] * t[1] * t[2], w.detach(), u))
print("vhp func", torch.autograd.functional.vhp(lambda t: (t.sin() * t.exp()).sum() + t.prod(), w.detach(), u))
