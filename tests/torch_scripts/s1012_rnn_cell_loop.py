# RNNCell/LSTMCell/GRUCell loops with constant weights: states per step, gradient wrt initial state
import torch
import torch.nn as nn

cell = nn.LSTMCell(2, 3)
for name, p in cell.named_parameters():
    nn.init.constant_(p, 0.1 if "weight_ih" in name else -0.05 if "weight_hh" in name else 0.0)
h0 = torch.zeros(1, 3, requires_grad=True)
c0 = torch.zeros(1, 3)
h, c = h0, c0
for t in range(3):
    h, c = cell(torch.tensor([[1.0, float(t)]]), (h, c))
    print(t, h.round(decimals=5))
h.sum().backward()
print(h0.grad.round(decimals=6))
g = nn.GRUCell(2, 2, bias=False)
nn.init.constant_(g.weight_ih, 0.3)
nn.init.constant_(g.weight_hh, -0.2)
s = torch.zeros(2)
for t in range(2):
    s = g(torch.tensor([1.0, -1.0]) * (t + 1), s)
print(s.round(decimals=5), s.shape)
r = nn.RNNCell(1, 2, nonlinearity="relu")
for p in r.parameters():
    nn.init.constant_(p, 0.5)
print(r(torch.tensor([[2.0]])), r(torch.tensor([[2.0]]), torch.ones(1, 2)))
print(nn.RNN(2, 3, nonlinearity="tanh", bias=False).weight_ih_l0.shape, nn.GRU(2, 3, proj_size=0 if False else 0).weight_hh_l0.shape if False else nn.LSTM(2, 4, proj_size=2).weight_hr_l0.shape)
