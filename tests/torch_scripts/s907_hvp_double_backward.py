# Hessian-vector products by double backward (Pearlmutter), checked against the full Hessian
import torch

def f(w):
    return (w[0] ** 2 * w[1] + torch.sin(w[1] * w[2]) + w.pow(4).sum() / 4)

w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
v = torch.tensor([1.0, 0.0, -1.0])
g, = torch.autograd.grad(f(w), w, create_graph=True)
hv, = torch.autograd.grad(g, w, grad_outputs=v)
H = torch.autograd.functional.hessian(f, w.detach())
print(g.round(decimals=6))
print(hv.round(decimals=6), (H @ v).round(decimals=6))
print(torch.allclose(hv, H @ v), H.shape)
g2, = torch.autograd.grad(f(w), w, create_graph=True)
hv2, = torch.autograd.grad(g2 @ v, w)
print(torch.equal(hv.round(decimals=10), hv2.round(decimals=10)))
