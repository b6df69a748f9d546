# custom Function with mark_dirty in-place op
import torch

class AddOne_(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g

a = torch.tensor([1.0, 2.0], requires_grad=True)
x = a * 2
y = AddOne_.apply(x)
print(y, y is x)
(y * y).sum().backward()
print(a.grad)
