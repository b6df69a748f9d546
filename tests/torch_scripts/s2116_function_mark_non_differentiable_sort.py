import torch

class SortWithIdx(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        vals, idx = torch.sort(x, dim=-1, descending=True)
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        ctx.set_materialize_grads(False)
        return vals, idx

    @staticmethod
    def backward(ctx, gvals, gidx):
        (idx,) = ctx.saved_tensors
        if gvals is None:
            return None
        g = torch.zeros_like(gvals)
        g.scatter_(-1, idx, gvals)
        return g

x = torch.tensor([[0.3, -1.0, 2.0], [5.0, 4.0, 6.0]], requires_grad=True)
vals, idx = SortWithIdx.apply(x)
print(vals, idx)
print(vals.requires_grad, idx.requires_grad, idx.dtype)
w = torch.tensor([1.0, 10.0, 100.0])
(vals * w).sum().backward()
print(x.grad)
x.grad = None
vals2, idx2 = SortWithIdx.apply(x)
(vals2[:, 0] * 0 + idx2[:, 0].double()).sum().backward()
print(x.grad)
