# RNNCell/GRUCell/LSTMCell unrolled by hand with fixed weights; BPTT gradient on the input
import torch
import torch.nn as nn

for Cell in (nn.RNNCell, nn.GRUCell, nn.LSTMCell):
    cell = Cell(2, 3)
    with torch.no_grad():
        for i, p in enumerate(cell.parameters()):
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (1 + 0.1 * i))
    xs = torch.tensor([[[1.0, 0.0]], [[0.5, -0.5]], [[0.0, 1.0]]], requires_grad=True)
    h = torch.zeros(1, 3)
    c = torch.zeros(1, 3)
    for t in range(3):
        if Cell is nn.LSTMCell:
            h, c = cell(xs[t], (h, c))
        else:
            h = cell(xs[t], h)
    h.sum().backward()
    print(Cell.__name__, torch.round(h.detach(), decimals=6))
    print(torch.round(xs.grad.squeeze(1), decimals=6))
