# custom Function with generate_vmap_rule=True works under vmap and grad
import torch
from torch.func import vmap, grad

class MyExp(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x.exp()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y

x = torch.tensor([[0.0, 1.0], [2.0, -1.0]])
print(vmap(MyExp.apply)(x))
print(vmap(grad(lambda t: MyExp.apply(t).sum()))(x))
