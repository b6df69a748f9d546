import torch
from torch.autograd.functional import hessian, jacobian, hvp, vhp, jvp, vjp

def rosen(p):
    return (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2

p = torch.tensor([-1.2, 1.0])
for k in range(8):
    g = jacobian(rosen, p)
    H = hessian(rosen, p)
    p = p - torch.linalg.solve(H, g)
    print(k, p.round(decimals=6), round(rosen(p).item(), 10))
v = torch.tensor([1.0, -1.0])
q = torch.tensor([0.5, 0.2])
out, hv = hvp(rosen, q, v)
out2, vh = vhp(rosen, q, v)
print(round(out.item(), 6), hv, vh, torch.allclose(hv, vh))
def field(x, y):
    return torch.stack([x[0] * y.sum(), x[1] ** 2 - y[0]]), (x * y).sum()
xs, ys = torch.tensor([1.0, 2.0]), torch.tensor([3.0, -1.0])
Jx, Jy = jacobian(lambda a, b: field(a, b)[0], (xs, ys))
print(Jx, Jy)
Jv = jacobian(lambda a: a.exp().outer(a), xs, vectorize=True)
print(Jv.shape, Jv[0, 1])
Jf = jacobian(lambda a: a.sin() * a, xs, strategy="forward-mode", vectorize=True)
print(Jf)
H2 = hessian(lambda a, b: (a * b.exp()).sum(), (xs, ys))
print(type(H2).__name__, len(H2), H2[0][1], H2[1][1])
o, jv = jvp(lambda a: a ** 3, xs, torch.ones(2))
o2, vj = vjp(lambda a: a ** 3, xs, torch.tensor([1.0, 0.5]))
print(o, jv, vj)
Hc = hessian(rosen, torch.tensor([1.0, 1.0]), create_graph=False)
print(Hc, torch.linalg.eigvalsh(Hc).round(decimals=4))
