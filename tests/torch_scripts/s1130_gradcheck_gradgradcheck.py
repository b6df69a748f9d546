# torch.autograd.gradcheck / gradgradcheck on custom functions, with fast_mode and raise_exception=False
import torch
from torch.autograd import gradcheck, gradgradcheck

class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g

class Wrong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * x

    @staticmethod
    def backward(ctx, g):
        return g

x = torch.tensor([0.5, -1.2, 2.0], requires_grad=True)
print(gradcheck(Sq.apply, (x,)), gradcheck(Sq.apply, (x,), fast_mode=True))
print(gradgradcheck(Sq.apply, (x,)))
print(gradcheck(Wrong.apply, (x,), raise_exception=False))
try:
    gradcheck(Wrong.apply, (x,))
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
print(gradcheck(lambda a, b: (a * b).sum(), (x, torch.tensor([1.0, 2.0, 3.0], requires_grad=True)), eps=1e-6, atol=1e-5))
print(gradcheck(torch.linalg.det, (torch.tensor([[2.0, 1.0], [0.5, 3.0]], requires_grad=True),)))
