import torch
import torch.nn as nn

cell = nn.RNNCell(3, 4, nonlinearity="relu")
rnn = nn.RNN(3, 4, nonlinearity="relu", batch_first=True)
with torch.no_grad():
    cell.weight_ih.copy_(torch.linspace(-0.5, 0.5, 12).view(4, 3))
    cell.weight_hh.copy_(torch.linspace(0.3, -0.3, 16).view(4, 4))
    cell.bias_ih.fill_(0.1)
    cell.bias_hh.fill_(-0.05)
    rnn.weight_ih_l0.copy_(cell.weight_ih)
    rnn.weight_hh_l0.copy_(cell.weight_hh)
    rnn.bias_ih_l0.copy_(cell.bias_ih)
    rnn.bias_hh_l0.copy_(cell.bias_hh)
x = torch.sin(torch.arange(2 * 5 * 3.0)).view(2, 5, 3)
h = torch.zeros(2, 4)
steps = []
for t in range(5):
    h = cell(x[:, t], h)
    steps.append(h)
manual = torch.stack(steps, 1)
out, hn = rnn(x)
print(torch.allclose(manual, out), torch.allclose(hn[0], h))
print(out[:, -1].round(decimals=5))
single = cell(x[0, 0])
print(single.shape, single.round(decimals=4))
tanh_cell = nn.RNNCell(3, 4, bias=False)
with torch.no_grad():
    tanh_cell.weight_ih.fill_(0.2)
    tanh_cell.weight_hh.fill_(-0.1)
print(tanh_cell(x[:, 0]).round(decimals=5), tanh_cell.bias_ih)
xr = x.clone().requires_grad_()
h = torch.zeros(2, 4)
for t in range(5):
    h = cell(xr[:, t], h)
h.sum().backward()
print(xr.grad[0].round(decimals=4))
print(cell)
