# ctx.needs_input_grad decides which grads to compute
import torch

class MulAdd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, c):
        ctx.save_for_backward(a, b)
        return a * b + c

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        print("needs", ctx.needs_input_grad)
        ga = g * b if ctx.needs_input_grad[0] else None
        gb = g * a if ctx.needs_input_grad[1] else None
        gc = g if ctx.needs_input_grad[2] else None
        return ga, gb, gc

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0])
c = torch.tensor([0.5, 0.5], requires_grad=True)
MulAdd.apply(a, b, c).sum().backward()
print(a.grad, c.grad)
MulAdd.apply(a, b, 1.0).sum().backward()
print(a.grad)
