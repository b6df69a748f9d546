import torch
from torch.autograd import Function, gradcheck, gradgradcheck


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * g


class BadGrad(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sin()

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x.cos() * 1.1


class ScaleShift(Function):
    @staticmethod
    def forward(ctx, x, a, b: float):
        ctx.save_for_backward(x, a)
        ctx.b = b
        return a * x + b

    @staticmethod
    def backward(ctx, g):
        x, a = ctx.saved_tensors
        return g * a, (g * x).sum().reshape(a.shape), None


x = torch.linspace(-1, 1, 5).requires_grad_()
print(gradcheck(Cube.apply, (x,), eps=1e-6, atol=1e-4))
print(gradcheck(BadGrad.apply, (x,), raise_exception=False))
try:
    gradcheck(BadGrad.apply, (x,))
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[0])
a = torch.tensor([2.0], requires_grad=True)
print(gradcheck(ScaleShift.apply, (x, a, 0.5)))
print(gradgradcheck(lambda t: (t ** 2).sin(), (x,)))
print(gradcheck(lambda t: torch.linalg.norm(t), (x,)), gradcheck(torch.tanh, x))
y = Cube.apply(x)
print(y.grad_fn.__class__.__name__, y.requires_grad)
y.sum().backward()
print(x.grad)
out = ScaleShift.apply(x, a, 1.0)
out.backward(torch.ones(5))
print(a.grad, type(out.grad_fn).__name__)
try:
    gradcheck(Cube.apply, (x.float(),))
except Exception as e:
    print(type(e).__name__)
