# custom autograd.Function with save_for_backward and a differentiable backward (double backward)
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

x = torch.tensor([1.0, 2.0, -0.5], requires_grad=True)
y = Cube.apply(x)
print(y, y.grad_fn.__class__.__name__)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g)
(gg,) = torch.autograd.grad(g.sum(), x)
print(gg)
print(torch.autograd.gradcheck(Cube.apply, (torch.tensor([0.3, -0.7], requires_grad=True),)))
print(torch.autograd.gradgradcheck(Cube.apply, (torch.tensor([0.3, -0.7], requires_grad=True),)))
