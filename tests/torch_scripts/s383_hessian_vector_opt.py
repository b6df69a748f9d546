import torch


def rosen(x):
    return ((1 - x[:-1]) ** 2 + 100 * (x[1:] - x[:-1] ** 2) ** 2).sum()


x = torch.tensor([-1.2, 1.0, -0.5, 0.8], requires_grad=True)
for it in range(8):
    f = rosen(x)
    g, = torch.autograd.grad(f, x, create_graph=True)

    def Hv(v):
        return torch.autograd.grad(g, x, grad_outputs=v, retain_graph=True)[0]

    p = torch.zeros_like(x)
    r = -g.detach()
    d = r.clone()
    for _ in range(10):
        Hd = Hv(d)
        dHd = d @ Hd
        if dHd <= 0:
            break
        a = (r @ r) / dHd
        p = p + a * d
        r_new = r - a * Hd
        if r_new.norm() < 1e-10:
            break
        d = r_new + (r_new @ r_new) / (r @ r) * d
        r = r_new
    with torch.no_grad():
        step = 1.0
        while rosen(x + step * p) > f - 1e-4 * step * (g.detach() @ (-p)) * -1 and step > 1e-4:
            step *= 0.5
        x += step * p
    print(it, f"{f.item():.6f}", f"{g.norm().item():.6f}", round(step, 4))
print(x.detach().round(decimals=4))
H = torch.autograd.functional.hessian(rosen, x.detach())
print(torch.linalg.eigvalsh(H).min() > 0, H.shape)
