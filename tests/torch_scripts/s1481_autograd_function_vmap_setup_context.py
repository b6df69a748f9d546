# autograd.Function with setup_context (the torch.func-compatible style) used by grad and autograd
import torch

class MySin(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.sin()

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x.cos()

x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
MySin.apply(x).sum().backward()
print(x.grad)
print(torch.func.grad(lambda t: MySin.apply(t).sum())(torch.tensor([0.5, 1.5])))
