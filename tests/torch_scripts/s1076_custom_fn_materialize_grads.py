# set_materialize_grads(False): unused output gives None gradient; once_differentiable
import torch
from torch.autograd.function import once_differentiable

class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g1, g2):
        print("g1 None:", g1 is None, "g2 None:", g2 is None)
        (x,) = ctx.saved_tensors
        out = torch.zeros_like(x)
        if g1 is not None:
            out = out + 2 * g1
        if g2 is not None:
            out = out + 3 * g2
        return out

class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y

x = torch.tensor([1.0, 2.0], requires_grad=True)
a, b = Two.apply(x)
a.sum().backward()
print(x.grad)
e = Exp.apply(torch.tensor([0.0, 1.0], requires_grad=True))
(g,) = torch.autograd.grad(e.sum(), [e.grad_fn.next_functions[0][0].variable] if False else [], allow_unused=True) if False else (None,)
z = torch.tensor([0.0, 1.0], requires_grad=True)
gz = torch.autograd.grad(Exp.apply(z).sum(), z, create_graph=True)[0]
print(gz, gz.requires_grad)
try:
    gz.sum().backward()
except RuntimeError as err:
    print("RuntimeError:", str(err)[:80])
