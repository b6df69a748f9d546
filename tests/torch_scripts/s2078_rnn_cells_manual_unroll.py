import torch
import torch.nn as nn

cell = nn.LSTMCell(2, 3)
gcell = nn.GRUCell(2, 3)
rcell = nn.RNNCell(2, 3, nonlinearity="relu")
for c in (cell, gcell, rcell):
    with torch.no_grad():
        for i, p in enumerate(c.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel()) * 0.41 + i).reshape(p.shape) * 0.5)
xs = torch.cos(torch.arange(4 * 2 * 2.0)).reshape(4, 2, 2)
h = torch.zeros(2, 3); c = torch.zeros(2, 3)
hg = torch.zeros(2, 3); hr = torch.zeros(2, 3)
for t in range(4):
    h, c = cell(xs[t], (h, c))
    hg = gcell(xs[t], hg)
    hr = rcell(xs[t], hr)
print(h.round(decimals=5), c.round(decimals=5))
print(hg.round(decimals=5), hr.round(decimals=5))
lstm = nn.LSTM(2, 3)
with torch.no_grad():
    lstm.weight_ih_l0.copy_(cell.weight_ih); lstm.weight_hh_l0.copy_(cell.weight_hh)
    lstm.bias_ih_l0.copy_(cell.bias_ih); lstm.bias_hh_l0.copy_(cell.bias_hh)
out, (hn, cn) = lstm(xs)
print(torch.allclose(hn[0], h), torch.allclose(cn[0], c))
(h.sum() + hg.sum() + hr.sum()).backward()
print(cell.weight_hh.grad.abs().sum().round(decimals=4), gcell.bias_hh.grad.round(decimals=4))
print(cell(xs[0])[0].shape, gcell(xs[0, 0]).shape)
proj = nn.LSTM(2, 4, proj_size=2, batch_first=True)
print([tuple(p.shape) for p in proj.parameters()])
o, (hp, cp) = proj(torch.ones(1, 3, 2))
print(o.shape, hp.shape, cp.shape)
rnn = nn.RNN(2, 3, num_layers=2, nonlinearity="tanh", bias=False)
print([n for n, _ in rnn.named_parameters()])
