import torch

# Solve x^3 + a x - b = 0 elementwise by Newton's method without tracking, then attach
# the gradient w.r.t. (a, b) by the implicit function theorem through one Newton step.
a = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
b = torch.tensor([2.0, -1.0, 5.0], requires_grad=True)


def F(x, a, b):
    return x ** 3 + a * x - b


with torch.no_grad():
    x = torch.zeros(3)
    for i in range(50):
        x = x - F(x, a, b) / (3 * x ** 2 + a)
print(x.round(decimals=6), F(x, a, b).abs().max() < 1e-12)
# one differentiable Newton step at the solution gives exact implicit gradients
x_star = x - F(x, a, b) / (3 * x ** 2 + a).detach()
x_star.sum().backward()
print(a.grad, b.grad)
dxda = -x / (3 * x ** 2 + a.detach())
dxdb = 1 / (3 * x ** 2 + a.detach())
print(torch.allclose(a.grad, dxda), torch.allclose(b.grad, dxdb))
# bisection in a vectorised way with torch.where
lo, hi = torch.full((3,), -5.0), torch.full((3,), 5.0)
with torch.no_grad():
    for _ in range(60):
        mid = (lo + hi) / 2
        pos = F(mid, a, b) > 0
        hi = torch.where(pos, mid, hi)
        lo = torch.where(pos, lo, mid)
print(torch.allclose(mid, x, atol=1e-10))
print(torch.isclose(mid, x, rtol=0, atol=1e-12).tolist())
