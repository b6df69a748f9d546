# once_differentiable: double backward through it raises
import torch
from torch.autograd.function import once_differentiable

class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g

x = torch.tensor([1.0, 3.0], requires_grad=True)
y = Sq.apply(x).sum()
(g,) = torch.autograd.grad(y, x, create_graph=True)
print(g, g.requires_grad)
try:
    g.sum().backward()
    print("no error", x.grad)
except RuntimeError as e:
    print("RuntimeError")
