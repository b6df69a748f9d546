# set_materialize_grads(False): backward sees None for an unused output
import torch


class TwoOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g1, g2):
        x, = ctx.saved_tensors
        print("g1", None if g1 is None else g1.tolist(), "g2", None if g2 is None else g2.tolist())
        total = torch.zeros_like(x)
        if g1 is not None:
            total = total + 2 * g1
        if g2 is not None:
            total = total + 3 * g2
        return total


x = torch.tensor([1.0, 2.0], requires_grad=True)
a, b = TwoOut.apply(x)
a.sum().backward()
print(x.grad)
x.grad = None
a, b = TwoOut.apply(x)
(a.sum() + b.sum()).backward()
print(x.grad)


class Materialized(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x + 1, x - 1

    @staticmethod
    def backward(ctx, g1, g2):
        print("materialized", g1.tolist(), g2.tolist())
        return g1 + g2


y = torch.tensor([5.0], requires_grad=True)
p, q = Materialized.apply(y)
q.backward()
print(y.grad)
