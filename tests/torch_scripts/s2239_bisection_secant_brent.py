import torch


def bisect(f, lo, hi, iters=60):
    lo, hi = lo.clone(), hi.clone()
    for _ in range(iters):
        mid = (lo + hi) / 2
        left = torch.sign(f(mid)) == torch.sign(f(lo))
        lo = torch.where(left, mid, lo)
        hi = torch.where(left, hi, mid)
    return (lo + hi) / 2


f = lambda x: x ** 3 - x - torch.tensor([1.0, 2.0, 5.0])
r = bisect(f, torch.zeros(3), torch.full((3,), 3.0))
print(r.round(decimals=8), f(r).abs().max() < 1e-10)


def secant(f, a, b, iters=20):
    for _ in range(iters):
        fa, fb = f(a), f(b)
        if abs(fb - fa) < 1e-15:
            break
        a, b = b, b - fb * (b - a) / (fb - fa)
    return b


print(round(secant(lambda x: torch.exp(-x) - x, torch.tensor(0.0), torch.tensor(1.0)).item(), 10))
theta = torch.tensor(2.0, requires_grad=True)
g = lambda x: x * torch.exp(x) - theta.detach()
x_star = bisect(g, torch.tensor(0.0), torch.tensor(2.0))
x_imp = x_star + 0 * theta
dfdx = torch.exp(x_star) * (1 + x_star)
x_imp = x_star.detach() + (theta - (x_star * torch.exp(x_star)).detach()) / dfdx.detach()
x_imp.backward()
print(round(x_star.item(), 8), round(theta.grad.item(), 8))
q = torch.linspace(0.1, 0.9, 5)
z = bisect(lambda t: torch.special.ndtr(t) - q, torch.full((5,), -5.0), torch.full((5,), 5.0))
print(z.round(decimals=6))
print(torch.special.ndtri(q).round(decimals=6))
print(torch.erfinv(2 * q - 1).mul(2 ** 0.5).round(decimals=6))
