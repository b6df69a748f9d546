import torch
from torch.autograd.function import once_differentiable

class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, beta):
        ctx.save_for_backward(x)
        ctx.beta = beta
        return torch.log1p(torch.exp(beta * x)) / beta

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * torch.sigmoid(ctx.beta * x), None

x = torch.tensor([-2.0, 0.0, 3.0], requires_grad=True)
y = Softplus.apply(x, 2.0)
print(y.round(decimals=5))
ref = torch.nn.functional.softplus(x, beta=2.0)
print(torch.allclose(y, ref))
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g.round(decimals=5), g.requires_grad)
try:
    g.sum().backward()
    print("second order ran")
except RuntimeError as e:
    print("RuntimeError:", "once_differentiable" in str(e) or "trying to differentiate twice" in str(e))
z = Softplus.apply(x, 1.0)
z.backward(torch.tensor([1.0, 2.0, 3.0]))
print(x.grad.round(decimals=5))
