# autograd.Function with separate forward/setup_context and saved tensors plus non-tensor state
import torch

class ScaledCube(torch.autograd.Function):
    @staticmethod
    def forward(x, scale):
        return x ** 3 * scale

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, scale = inputs
        ctx.save_for_backward(x)
        ctx.scale = scale

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x ** 2 * ctx.scale, None

x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
y = ScaledCube.apply(x, 2.0)
print(y)
print(type(y.grad_fn).__name__)
y.sum().backward()
print(x.grad)
