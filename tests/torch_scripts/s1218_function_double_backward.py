# a custom Function whose backward is itself differentiable (written with torch ops)
import torch

class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * g

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Cube.apply(x).sum()
(g,) = torch.autograd.grad(y, x, create_graph=True)
print(g)
(h,) = torch.autograd.grad(g.sum(), x)
print(h)
print(torch.autograd.gradcheck(Cube.apply, (torch.tensor([0.5, -1.5], requires_grad=True),)))
