import torch
from torch.autograd import Function, gradcheck, gradgradcheck


class WrongSquare(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x  # should be 2x


class GoodSquare(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * g * x


x = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
print(gradcheck(WrongSquare.apply, (x,), raise_exception=False))
print(gradcheck(GoodSquare.apply, (x,)))
print(gradgradcheck(GoodSquare.apply, (x,)))
try:
    gradcheck(WrongSquare.apply, (x,))
except Exception as e:
    print(type(e).__name__, str(e).split("\n")[0])
print(gradcheck(lambda a, b: (a @ b).tanh(), (torch.rand(2, 3).requires_grad_(), torch.rand(3, 2).requires_grad_())))
print(gradgradcheck(lambda a: torch.linalg.det(a), (torch.eye(3).add(0.1).requires_grad_(),)))
print(gradcheck(torch.sin, (torch.tensor([1.0, 2.0], requires_grad=True),), eps=1e-6, atol=1e-5, fast_mode=True))
try:
    gradcheck(torch.sin, (torch.tensor([1.0], dtype=torch.float32, requires_grad=True),))
except Exception as e:
    print(type(e).__name__, str(e).split("\n")[0])
