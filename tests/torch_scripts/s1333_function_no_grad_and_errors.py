# custom Function under no_grad, apply with wrong number of grads returned, saved_tensors twice
import torch

class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * 2 + y

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        x2, y2 = ctx.saved_tensors
        return g * 2, g

class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1

    @staticmethod
    def backward(ctx, g):
        return g, g

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0, 4.0], requires_grad=True)
with torch.no_grad():
    o = Double.apply(x, y)
print(o, o.requires_grad, o.grad_fn)
Double.apply(x, y).sum().backward()
print(x.grad, y.grad)
try:
    Bad.apply(x).sum().backward()
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
