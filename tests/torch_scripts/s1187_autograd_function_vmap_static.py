# autograd.Function with an explicit vmap staticmethod, used under torch.func.vmap and grad (results only)
import torch

class Square(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g

    @staticmethod
    def vmap(info, in_dims, x):
        return Square.apply(x), in_dims[0]

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(torch.func.vmap(Square.apply)(x))
print(torch.func.vmap(Square.apply, in_dims=1)(x))
print(torch.func.grad(lambda t: Square.apply(t).sum())(torch.tensor([1.0, -3.0])))
