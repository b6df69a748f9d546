import torch
import torch.nn as nn


def init(m, scale):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.7 + i).reshape(p.shape) * scale)


x = torch.cos(torch.arange(2 * 4 * 3, dtype=torch.float64) * 0.3).reshape(2, 4, 3).requires_grad_()
lstm = nn.LSTM(3, 4, num_layers=2, batch_first=True, bidirectional=True, proj_size=2)
init(lstm, 0.3)
out, (h, c) = lstm(x)
print(out.shape, h.shape, c.shape)
print(out[0, -1].detach().round(decimals=5))
out.sum().backward()
print(x.grad[1, 0].round(decimals=5))
print([n for n, _ in lstm.named_parameters()][:6])
gru = nn.GRU(3, 2, bidirectional=True)
init(gru, 0.4)
o, hn = gru(x.detach().transpose(0, 1), torch.zeros(2, 2, 2))
print(o.shape, hn[1, 0].detach().round(decimals=5))
rnn = nn.RNN(3, 2, nonlinearity="relu", bias=False)
init(rnn, 0.5)
print(rnn(x.detach()[0])[0].detach().round(decimals=5))
cell = nn.LSTMCell(3, 2)
init(cell, 0.2)
hx, cx = torch.zeros(2), torch.zeros(2)
for t in range(4):
    hx, cx = cell(x.detach()[0, t], (hx, cx))
print(hx.detach().round(decimals=5), cx.detach().round(decimals=5))
