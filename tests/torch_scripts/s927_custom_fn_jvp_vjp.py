# torch.autograd.Function with backward and save_for_backward used under autograd.grad twice
import torch

class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x ** 2

x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
y = Cube.apply(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(y, g, g.requires_grad)
gg, = torch.autograd.grad(g.sum(), x)
print(gg)
print(y.grad_fn.name() if hasattr(y.grad_fn, "name") else None, type(y.grad_fn).__name__)
print(torch.autograd.gradcheck(Cube.apply, (torch.tensor([0.3, 1.1], requires_grad=True),)))
