# Custom autograd.Functions used inside a model: a straight-through quantizer and a
# gradient-reversal layer (domain-adaptation style), checked with gradcheck
import numpy as np
import torch
import torch.nn as nn


class QuantizeSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, levels):
        ctx.save_for_backward(x)
        return torch.round(x * levels) / levels

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * (x.abs() <= 1).to(grad_out.dtype), None


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lam):
        ctx.lam = lam
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):
        return -ctx.lam * g, None


class DANN(nn.Module):
    def __init__(self):
        super().__init__()
        self.feat = nn.Linear(4, 6)
        self.label = nn.Linear(6, 2)
        self.domain = nn.Linear(6, 2)

    def forward(self, x, lam=1.0):
        f = QuantizeSTE.apply(torch.tanh(self.feat(x)), 4)
        return self.label(f), self.domain(GradReverse.apply(f, lam))


rng = np.random.default_rng(101)
X = torch.from_numpy(rng.standard_normal((16, 4)))
yl = torch.from_numpy(rng.integers(0, 2, 16))
yd = torch.from_numpy(np.repeat([0, 1], 8))
model = DANN()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.6 * torch.sin(torch.arange(p.numel()) * 0.71 + i).view_as(p))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
ce = nn.CrossEntropyLoss()
for step in range(5):
    lam = 2.0 / (1.0 + np.exp(-10 * step / 5)) - 1
    opt.zero_grad()
    out_l, out_d = model(X, lam)
    loss = ce(out_l, yl) + ce(out_d, yd)
    loss.backward()
    opt.step()
    print(step, f"lam {lam:.4f} loss {loss.item():.6f} feat-grad {model.feat.weight.grad.norm().item():.6f}")

x = torch.linspace(-1.5, 1.5, 7, requires_grad=True)
q = QuantizeSTE.apply(x, 2)
q.sum().backward()
print(q.detach().numpy(), x.grad.numpy())
print(type(q.grad_fn).__name__, q.grad_fn.next_functions[0][0] is not None)
inp = torch.linspace(-1, 1, 5, requires_grad=True)
print(torch.autograd.gradcheck(lambda t: GradReverse.apply(t, 0.5), (inp,), raise_exception=False))
print(torch.autograd.gradcheck(lambda t: GradReverse.apply(t, -1.0), (inp,)))
z = torch.ones(3, requires_grad=True)
(g,) = torch.autograd.grad(GradReverse.apply(z * 2, 0.25).sum(), z)
print(g)
