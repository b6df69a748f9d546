# Running an LSTM step by step with explicit (h, c), comparing with the full-sequence call,
# batch_first, and reading weight_ih_l0 shapes; all weights set deterministically
import torch
import torch.nn as nn

lstm = nn.LSTM(input_size=2, hidden_size=3, batch_first=True)
with torch.no_grad():
    for i, (n, p) in enumerate(lstm.named_parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=p.dtype) + i).view_as(p) * 0.4)
print([(n, tuple(p.shape)) for n, p in lstm.named_parameters()])
x = torch.linspace(-1, 1, 2 * 4 * 2).view(2, 4, 2)
out, (h, c) = lstm(x)
print(out.shape, h.shape, c.shape)
hs, cs = torch.zeros(1, 2, 3), torch.zeros(1, 2, 3)
steps = []
for t in range(4):
    o, (hs, cs) = lstm(x[:, t:t + 1], (hs, cs))
    steps.append(o)
print(torch.allclose(torch.cat(steps, 1), out), torch.allclose(hs, h), torch.allclose(cs, c))
print(out[:, -1], h[0])
cell = nn.LSTMCell(2, 3)
with torch.no_grad():
    cell.weight_ih.copy_(lstm.weight_ih_l0)
    cell.weight_hh.copy_(lstm.weight_hh_l0)
    cell.bias_ih.copy_(lstm.bias_ih_l0)
    cell.bias_hh.copy_(lstm.bias_hh_l0)
hh = cc = torch.zeros(2, 3)
for t in range(4):
    hh, cc = cell(x[:, t], (hh, cc))
print(torch.allclose(hh, h[0]), torch.allclose(cc, c[0]))
out.sum().backward()
print(lstm.weight_hh_l0.grad.shape, round(lstm.bias_ih_l0.grad.sum().item(), 8))
