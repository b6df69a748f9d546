import torch


def f(z, x, W):
    return torch.tanh(W @ z + x)


def solve(x, W, iters=100):
    z = torch.zeros_like(x)
    with torch.no_grad():
        for _ in range(iters):
            z = f(z, x, W)
    return z


class FixedPoint(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, W):
        z = solve(x, W)
        ctx.save_for_backward(z, x, W)
        return z

    @staticmethod
    def backward(ctx, gz):
        z, x, W = ctx.saved_tensors
        with torch.enable_grad():
            zz = z.detach().requires_grad_(True)
            xx = x.detach().requires_grad_(True)
            WW = W.detach().requires_grad_(True)
            fz = f(zz, xx, WW)
            J = torch.autograd.functional.jacobian(lambda v: f(v, x, W), z)
            u = torch.linalg.solve((torch.eye(len(z)) - J).T, gz)
            gx, gW = torch.autograd.grad(fz, (xx, WW), u)
        return gx, gW


W = torch.tensor([[0.2, -0.1, 0.05], [0.1, 0.3, -0.2], [0.0, 0.1, 0.1]], requires_grad=True)
x = torch.tensor([0.5, -0.3, 0.8], requires_grad=True)
z = FixedPoint.apply(x, W)
loss = (z ** 2).sum()
loss.backward()
print(z.detach().round(decimals=6), round(loss.item(), 8))
print(x.grad.round(decimals=5))
print(W.grad.round(decimals=5))
x2 = x.detach().clone().requires_grad_(True)
W2 = W.detach().clone().requires_grad_(True)
zu = torch.zeros(3)
for _ in range(100):
    zu = f(zu, x2, W2)
(zu ** 2).sum().backward()
print(torch.allclose(x2.grad, x.grad, atol=1e-8), torch.allclose(W2.grad, W.grad, atol=1e-8))
print(z.grad_fn.__class__.__name__, torch.autograd.gradcheck(FixedPoint.apply, (x.detach().requires_grad_(True), W.detach().requires_grad_(True)), atol=1e-5))
