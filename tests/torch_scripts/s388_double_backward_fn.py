import torch


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x ** 2


x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
y = Cube.apply(x).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g)
h, = torch.autograd.grad(g.sum(), x)
print(h)
print(torch.autograd.gradcheck(Cube.apply, (x,)), torch.autograd.gradgradcheck(Cube.apply, (x,)))
# Penalty on gradient norm (WGAN-GP style)
w = torch.tensor([[0.5, -0.3], [0.2, 0.8]], requires_grad=True)
inp = torch.tensor([[1.0, 2.0], [3.0, -1.0]], requires_grad=True)
out = torch.tanh(inp @ w).sum(1)
gi, = torch.autograd.grad(out, inp, grad_outputs=torch.ones_like(out), create_graph=True)
pen = ((gi.norm(2, dim=1) - 1) ** 2).mean()
pen.backward()
print(round(pen.item(), 6), w.grad)
