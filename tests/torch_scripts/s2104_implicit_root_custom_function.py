import torch

class CubicRoot(torch.autograd.Function):
    """Real root of x^3 + a x - b = 0 (a > 0), solved by Newton, differentiated implicitly."""
    @staticmethod
    def forward(ctx, a, b):
        x = torch.zeros_like(b)
        for _ in range(50):
            f = x ** 3 + a * x - b
            x = x - f / (3 * x ** 2 + a)
        ctx.save_for_backward(x, a)
        return x

    @staticmethod
    def backward(ctx, gx):
        x, a = ctx.saved_tensors
        dfdx = 3 * x ** 2 + a
        return gx * (-x / dfdx), gx / dfdx

a = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
b = torch.tensor([2.0, -1.0, 3.0], requires_grad=True)
x = CubicRoot.apply(a, b)
print(x.round(decimals=6))
print((x ** 3 + a * x - b).abs().max() < 1e-10)
x.sum().backward()
print(a.grad.round(decimals=6), b.grad.round(decimals=6))
ok = torch.autograd.gradcheck(CubicRoot.apply, (a.detach().requires_grad_(), b.detach().requires_grad_()))
print("gradcheck", ok)
print(x.grad_fn.__class__.__name__)
