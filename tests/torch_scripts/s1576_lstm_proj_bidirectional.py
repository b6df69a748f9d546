# LSTM with proj_size, bidirectional, two layers: shapes, state shapes and parameter names
import torch
import torch.nn as nn

lstm = nn.LSTM(input_size=3, hidden_size=4, num_layers=2, bidirectional=True, proj_size=2)
print(lstm)
print([(n, tuple(p.shape)) for n, p in lstm.named_parameters()][:6])
with torch.no_grad():
    for p in lstm.parameters():
        p.copy_(torch.linspace(-0.3, 0.3, p.numel()).reshape(p.shape))
x = torch.linspace(-1, 1, 5 * 2 * 3).reshape(5, 2, 3)
out, (h, c) = lstm(x)
print(out.shape, h.shape, c.shape)
print(out[-1].detach())
out.sum().backward()
print(lstm.weight_hr_l0.grad)
cell = nn.LSTMCell(3, 2)
with torch.no_grad():
    for p in cell.parameters():
        p.fill_(0.1)
hc = cell(x[0])
print(hc[0], hc[1].grad_fn.name())
try:
    nn.LSTM(3, 4, proj_size=4)
except ValueError as e:
    print(e)
