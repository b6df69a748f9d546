# custom Function returning a tensor and a python int, with a None input grad for an int arg
import torch

class TopSum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        v, i = x.topk(k)
        ctx.save_for_backward(i)
        ctx.n = x.shape[0]
        return v.sum(), int(i[0])

    @staticmethod
    def backward(ctx, g, _):
        (i,) = ctx.saved_tensors
        out = torch.zeros(ctx.n)
        out[i] = g
        return out, None

x = torch.tensor([0.5, 3.0, 1.0, 2.0], requires_grad=True)
s, first = TopSum.apply(x, 2)
print(s, first, type(first).__name__)
s.backward()
print(x.grad)
