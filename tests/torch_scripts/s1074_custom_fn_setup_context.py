# Custom autograd.Function in the setup_context style, with vmap via generate_vmap_rule
import torch
from torch.autograd import Function

class Cube(Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x, k):
        return x ** 3 * k

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, k = inputs
        ctx.save_for_backward(x)
        ctx.k = k

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * ctx.k * g, None

x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
y = Cube.apply(x, 2.0)
y.sum().backward()
print(y, x.grad)
print(torch.func.grad(lambda v: Cube.apply(v, 1.0).sum())(torch.tensor([2.0, 3.0])))
print(torch.func.vmap(lambda v: Cube.apply(v, 1.0))(torch.tensor([[1.0, 2.0], [3.0, 4.0]])))
print(y.grad_fn.name() if hasattr(y.grad_fn, "name") else type(y.grad_fn).__name__)
