import torch
import torch.nn as nn

# unrolled LSTMCell/GRUCell/RNNCell loops with manual state handling
cells = {"rnn": nn.RNNCell(3, 4, nonlinearity="relu"), "gru": nn.GRUCell(3, 4), "lstm": nn.LSTMCell(3, 4)}
xs = torch.linspace(-1, 1, 5 * 2 * 3).view(5, 2, 3)
for name, cell in cells.items():
    with torch.no_grad():
        for i, p in enumerate(cell.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel()) + 2.0 * i).view_as(p) * 0.5)
    h = torch.zeros(2, 4)
    c = torch.zeros(2, 4)
    outs = []
    for t in range(xs.size(0)):
        if name == "lstm":
            h, c = cell(xs[t], (h, c))
        else:
            h = cell(xs[t], h)
        outs.append(h)
    out = torch.stack(outs)
    out.sum().backward()
    print(name, out.shape, round(out.sum().item(), 6), type(h.grad_fn).__name__)
    print([round(p.grad.norm().item(), 6) for p in cell.parameters()])
print(cells["lstm"], cells["rnn"])
one = cells["gru"](torch.ones(3))
print(one.shape)
lstm = nn.LSTM(3, 4, batch_first=False)
with torch.no_grad():
    lstm.weight_ih_l0.copy_(cells["lstm"].weight_ih)
    lstm.weight_hh_l0.copy_(cells["lstm"].weight_hh)
    lstm.bias_ih_l0.copy_(cells["lstm"].bias_ih)
    lstm.bias_hh_l0.copy_(cells["lstm"].bias_hh)
o, (hn, cn) = lstm(xs)
h = c = torch.zeros(2, 4)
with torch.no_grad():
    for t in range(5):
        h, c = cells["lstm"](xs[t], (h, c))
print(torch.allclose(hn[0], h), torch.allclose(cn[0], c))
try:
    cells["gru"](torch.ones(2, 5))
except RuntimeError as e:
    print("RuntimeError:", e)
