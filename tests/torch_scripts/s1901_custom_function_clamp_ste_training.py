# A straight-through quantiser as a custom autograd.Function trained inside a loop: the
# forward saves tensors, marks an index output non-differentiable, and backward reads
# ctx.needs_input_grad; the model is a tiny quantised regression fitted with SGD
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


class QuantSTE(Function):
    @staticmethod
    def forward(ctx, x, scale):
        q = torch.round(x / scale)
        idx = q.to(torch.long)
        ctx.save_for_backward(x, scale)
        ctx.mark_non_differentiable(idx)
        return q * scale, idx

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out, grad_idx):
        x, scale = ctx.saved_tensors
        print("needs", ctx.needs_input_grad, grad_idx is None or float(grad_idx.abs().sum()))
        gx = grad_out * (x.abs() <= 4 * scale).to(grad_out.dtype) if ctx.needs_input_grad[0] else None
        gs = (grad_out * (torch.round(x / scale) - x / scale)).sum().reshape(scale.shape) \
            if ctx.needs_input_grad[1] else None
        return gx, gs


x = torch.linspace(-2, 2, 9).unsqueeze(1)
y = 0.7 * x.squeeze(1) + 0.1
w = torch.nn.Parameter(torch.tensor([[0.3]]))
scale = torch.nn.Parameter(torch.tensor(0.25))
opt = torch.optim.SGD([w, scale], lr=0.05)
for step in range(4):
    opt.zero_grad()
    qw, idx = QuantSTE.apply(w, scale)
    pred = (x @ qw).squeeze(1)
    loss = (pred - y).pow(2).mean()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.6f}", idx.tolist(), idx.requires_grad, qw.grad_fn is not None)
print(w.data, scale.data)
scale.requires_grad_(False)
qw, idx = QuantSTE.apply(w, scale)
qw.sum().backward()
print(w.grad, scale.grad)
try:
    qw2, _ = QuantSTE.apply(w, scale)
    g, = torch.autograd.grad(qw2.sum(), w, create_graph=True)
    g.sum().backward()
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
