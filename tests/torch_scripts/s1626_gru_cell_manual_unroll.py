# a GRUCell unrolled by hand over a sequence; gradients w.r.t. the initial state and weights
import torch
import torch.nn as nn

cell = nn.GRUCell(2, 3)
with torch.no_grad():
    for i, p in enumerate(cell.parameters()):
        p.copy_(torch.linspace(-0.4, 0.4, p.numel()).reshape(p.shape) * (-1) ** i)
xs = torch.tensor([[[1.0, 0.0]], [[0.5, -0.5]], [[0.0, 1.0]]])
h0 = torch.zeros(1, 3, requires_grad=True)
h = h0
for x in xs:
    h = cell(x, h)
print(h, h.grad_fn.name())
h.pow(2).sum().backward()
print(h0.grad, cell.bias_hh.grad)
print(cell, cell(xs[0]).shape)
