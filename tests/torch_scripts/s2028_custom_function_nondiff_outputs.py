import torch

class SortWithIndex(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        vals, idx = torch.sort(x)
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return vals, idx

    @staticmethod
    def backward(ctx, g_vals, g_idx):
        idx, = ctx.saved_tensors
        print("g_idx is None:", g_idx is None)
        grad = torch.zeros_like(g_vals)
        grad[idx] = g_vals
        return grad

x = torch.tensor([3.0, 1.0, 2.0, 0.5], requires_grad=True)
vals, idx = SortWithIndex.apply(x)
print(vals, idx, idx.requires_grad, vals.requires_grad)
(vals * torch.arange(4.0)).sum().backward()
print(x.grad)

class Materialize(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g1, g2):
        print("grads:", g1 is None, g2 is None)
        out = torch.zeros(())
        if g1 is not None:
            out = out + 2 * g1
        if g2 is not None:
            out = out + 3 * g2
        return out

y = torch.tensor(1.5, requires_grad=True)
a, b = Materialize.apply(y)
a.backward()
print(y.grad)

class Materialized(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g1, g2):
        print("materialized:", g1, g2)
        return 2 * g1 + 3 * g2

z = torch.tensor(1.5, requires_grad=True)
a, b = Materialized.apply(z)
b.backward()
print(z.grad)
