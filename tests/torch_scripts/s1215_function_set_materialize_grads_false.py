# set_materialize_grads(False): unused outputs give None grads in backward
import torch

class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g1, g2):
        print("g1 None:", g1 is None, "g2 None:", g2 is None)
        out = torch.zeros(2)
        if g1 is not None:
            out = out + 2 * g1
        if g2 is not None:
            out = out + 3 * g2
        return out

x = torch.tensor([1.0, 2.0], requires_grad=True)
a, b = Two.apply(x)
a.sum().backward()
print(x.grad)
x.grad = None
a, b = Two.apply(x)
(a.sum() + b.sum()).backward()
print(x.grad)
