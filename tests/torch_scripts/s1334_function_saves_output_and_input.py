# custom Function saving its output (e.g. exp), used twice in a graph, gradcheck and gradgradcheck
import torch

class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y

x = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
y = Exp.apply(x)
z = Exp.apply(y * 0.1)
(y + z).sum().backward()
print(y, z)
print(x.grad)
inp = torch.tensor([0.3, -0.2], requires_grad=True)
print(torch.autograd.gradcheck(Exp.apply, (inp,)), torch.autograd.gradgradcheck(Exp.apply, (inp,)))
