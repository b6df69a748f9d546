import torch

class Square(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x ** 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = Square.apply(x)
y.sum().backward()
print(x.grad)
print(torch.func.grad(lambda t: Square.apply(t).sum())(torch.tensor([1.0, 4.0])))
print(torch.vmap(Square.apply)(torch.arange(6.0).reshape(2, 3)))
print(torch.func.vmap(torch.func.grad(lambda t: Square.apply(t)))(torch.tensor([0.5, 1.5])))

class Clamp01(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(0, 1)

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * ((x > 0) & (x < 1)).to(g.dtype)

z = torch.tensor([-0.5, 0.25, 0.75, 2.0], requires_grad=True)
out = Clamp01.apply(z)
out.backward(torch.ones(4) * 2)
print(out, z.grad)
print(torch.autograd.gradcheck(Clamp01.apply, (torch.tensor([0.2, 0.4, 0.6], requires_grad=True),)))
