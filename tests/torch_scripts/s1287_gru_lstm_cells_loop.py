# GRUCell / LSTMCell / RNNCell unrolled by hand with fixed weights
import torch
import torch.nn as nn

def fill(m):
    with torch.no_grad():
        for p in m.parameters():
            p.copy_(torch.linspace(-0.3, 0.3, p.numel()).reshape(p.shape))
    return m

xs = torch.tensor([[[1.0, 0.0]], [[0.0, 1.0]], [[0.5, 0.5]]])
gru = fill(nn.GRUCell(2, 2))
lstm = fill(nn.LSTMCell(2, 2))
rnn = fill(nn.RNNCell(2, 2, nonlinearity="relu"))
h = torch.zeros(1, 2)
hc = (torch.zeros(1, 2), torch.zeros(1, 2))
r = torch.zeros(1, 2)
for x in xs:
    h = gru(x, h)
    hc = lstm(x, hc)
    r = rnn(x, r)
print(h, hc[0], hc[1], r)
print(gru(xs[0]).shape, lstm(xs[0].squeeze(0))[0].shape)
