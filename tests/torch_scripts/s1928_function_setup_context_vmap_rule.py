# A custom autograd.Function written the torch.func-compatible way (forward without ctx,
# setup_context, generate_vmap_rule=True) used with vmap, grad, jacrev and in an ordinary
# training step; a second Function with an explicit vmap staticmethod
import torch
from torch.func import grad, jacrev, vmap


class SoftClamp(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x, limit):
        return limit * torch.tanh(x / limit)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, limit = inputs
        ctx.save_for_backward(x)
        ctx.limit = limit

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * (1 - torch.tanh(x / ctx.limit) ** 2), None


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 3

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * g * x ** 2

    @staticmethod
    def vmap(info, in_dims, x):
        return Cube.apply(x), in_dims[0]


x = torch.linspace(-3, 3, 7)
print(SoftClamp.apply(x, 2.0).numpy().round(5))
print(vmap(lambda v: SoftClamp.apply(v, 2.0))(x.view(7, 1)).squeeze(1).numpy().round(5))
print(grad(lambda v: SoftClamp.apply(v, 2.0).sum())(x).numpy().round(5))
print(jacrev(lambda v: Cube.apply(v))(x[:3]))
print(vmap(Cube.apply)(x.view(7, 1)).squeeze(1))
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
inp = torch.stack([torch.linspace(-1, 1, 3), torch.linspace(1, -1, 3) * 2])
for step in range(3):
    out = SoftClamp.apply(inp * w, 1.5).sum(1)
    loss = (Cube.apply(out) - 1).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.6f}", w.detach().numpy().round(5))
