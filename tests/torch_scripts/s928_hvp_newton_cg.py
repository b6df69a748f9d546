# truncated Newton step: conjugate gradients using only Hessian-vector products
import torch

A = torch.tensor([[4.0, 1.0, 0.0], [1.0, 3.0, 0.5], [0.0, 0.5, 2.0]])
b = torch.tensor([1.0, -2.0, 0.5])
def loss(w):
    return 0.5 * w @ A @ w - b @ w + 0.1 * (w ** 4).sum()

w = torch.zeros(3, requires_grad=True)
for it in range(4):
    g, = torch.autograd.grad(loss(w), w, create_graph=True)
    hvp = lambda v: torch.autograd.grad(g, w, v, retain_graph=True)[0]
    p = torch.zeros(3); r = -g.detach().clone(); d = r.clone()
    for _ in range(3):
        Hd = hvp(d)
        a = (r @ r) / (d @ Hd)
        p = p + a * d
        r_new = r - a * Hd
        d = r_new + (r_new @ r_new) / (r @ r) * d
        r = r_new
    with torch.no_grad():
        w += p
    print(it, round(loss(w).item(), 8), round(g.norm().item(), 8))
print(w.detach().round(decimals=6))
