import torch


def newton(f, x0, tol=1e-6, max_iter=50):
    x = x0.clone().requires_grad_(True)
    for k in range(max_iter):
        y = f(x)
        (g,) = torch.autograd.grad(y.sum(), x)
        with torch.no_grad():
            step = y / g
            x -= step
        if step.abs().max() < tol:
            return x.detach(), k + 1
    return x.detach(), max_iter


root, iters = newton(lambda x: x ** 3 - 2 * x - 5, torch.tensor([2.0], dtype=torch.float32))
print(root, root.dtype, iters)
sq, it2 = newton(lambda x: x * x - torch.tensor([2.0, 3.0, 10.0]), torch.ones(3))
print(sq.round(decimals=6), it2, torch.allclose(sq, torch.tensor([2.0, 3.0, 10.0]).sqrt()))
kepler_M = torch.tensor([0.1, 1.0, 2.5])
ecc = 0.3
E, it3 = newton(lambda E: E - ecc * torch.sin(E) - kepler_M, kepler_M.clone())
print(E.round(decimals=6), it3)
p = torch.tensor(1.5, requires_grad=True)
x = torch.tensor(1.0)
for _ in range(30):
    x = x - (x ** 2 - p) / (2 * x)
x.backward()
print(round(x.item(), 6), round(p.grad.item(), 6), round(0.5 / p.item() ** 0.5, 6))


def jac_newton(F, x, steps=8):
    for _ in range(steps):
        J = torch.autograd.functional.jacobian(F, x)
        x = x - torch.linalg.solve(J, F(x))
    return x


sys_root = jac_newton(lambda v: torch.stack([v[0] ** 2 + v[1] ** 2 - 4, v[0] - v[1]]), torch.tensor([1.0, 0.5]))
print(sys_root.round(decimals=6))
f32 = newton(lambda x: torch.cos(x) - x, torch.tensor(1.0, dtype=torch.float32))[0]
print(f32, f32.dtype)
