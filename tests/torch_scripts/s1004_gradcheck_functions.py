# torch.autograd.gradcheck / gradgradcheck on double-precision functions, a failing check caught with raise_exception=False
import torch
from torch.autograd import gradcheck, gradgradcheck

x = torch.tensor([0.3, -0.7, 1.1], dtype=torch.double, requires_grad=True)
W = torch.tensor([[0.5, 1.0, -1.0], [2.0, 0.1, 0.3]], dtype=torch.double, requires_grad=True)
print(gradcheck(lambda a, b: torch.tanh(b @ a), (x, W)))
print(gradgradcheck(lambda a: (a.sin() * a.exp()).sum(), (x,)))
print(gradcheck(torch.linalg.norm, (x,)))
print(gradcheck(lambda a: torch.nn.functional.softplus(a, beta=2.0), (x,), eps=1e-6, atol=1e-5))

class Wrong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a ** 2
    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * a

print(gradcheck(Wrong.apply, (x,), raise_exception=False))
try:
    gradcheck(Wrong.apply, (x,))
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
print(gradcheck(lambda a: a.cumsum(0).prod(), (x,), fast_mode=True))
