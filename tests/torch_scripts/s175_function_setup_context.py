import torch
from torch.autograd import Function


class Cube(Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x ** 3, 3 * x ** 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        _, dx = output
        ctx.save_for_backward(x, dx)

    @staticmethod
    def backward(ctx, grad_out, grad_dx):
        x, dx = ctx.saved_tensors
        return grad_out * dx + grad_dx * 6 * x


x = torch.tensor([1.0, 2.0, -0.5], requires_grad=True)
y, dy = Cube.apply(x)
print(y, dy, repr(y.grad_fn).split(" at ")[0])
(y.sum() + dy.sum()).backward()
print(x.grad)
print(torch.func.grad(lambda t: Cube.apply(t)[0].sum())(x.detach()))
print(torch.vmap(lambda t: Cube.apply(t)[0])(torch.arange(6.0).reshape(3, 2)))
print(torch.func.jacrev(lambda t: Cube.apply(t)[0])(torch.tensor([1.0, 2.0])))


calls = []


class Scale(Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, g):
        calls.append(ctx.needs_input_grad)
        return g * ctx.k, None


z = Scale.apply(x, 4.0)
z.sum().backward()
print(x.grad, calls)
print(torch.autograd.gradcheck(lambda t: Scale.apply(t, 2.5), (x.detach().clone().requires_grad_(),)))
