# a custom sort returning values and indices, indices marked non-differentiable
import torch

class MySort(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        v, i = torch.sort(x)
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(i)
        return v, i

    @staticmethod
    def backward(ctx, gv, gi):
        (i,) = ctx.saved_tensors
        print("gi is", gi)
        out = torch.zeros_like(gv)
        out[i] = gv
        return out

x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
v, i = MySort.apply(x)
print(v, i, v.requires_grad, i.requires_grad)
(v * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(x.grad)
