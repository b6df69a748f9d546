# Printing module outputs as tutorials do: RNN/GRU/LSTM outputs and hidden states, conv
# and pooling outputs, attention outputs and weights -- each repr with its grad_fn
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(371)


def fixed(m, scale=0.3):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.from_numpy(np.random.default_rng(i).normal(0, scale, tuple(p.shape)).round(2)))
    return m


x = torch.from_numpy(rng.standard_normal((2, 3, 2)).round(2))
rnn = fixed(nn.RNN(2, 3, batch_first=True))
out, h = rnn(x)
print(out[0], h)
gru = fixed(nn.GRU(2, 2, num_layers=2, batch_first=True))
out, h = gru(x)
print(out[:, -1], h[-1])
lstm = fixed(nn.LSTM(2, 2, batch_first=True, bidirectional=True))
out, (h, c) = lstm(x)
print(out[1], c[1])
cell = fixed(nn.LSTMCell(2, 2))
hx, cx = cell(x[:, 0])
print(hx, cx)
img = torch.from_numpy(rng.standard_normal((1, 1, 4, 4)).round(2))
conv = fixed(nn.Conv2d(1, 2, 2))
y = conv(img)
print(y[0, 0])
print(nn.MaxPool2d(2)(y)[0], nn.AvgPool2d(2, stride=1)(y)[0, 1])
print(nn.AdaptiveAvgPool2d((1, 1))(y).flatten(), nn.Upsample(scale_factor=2)(y)[0, 0, :2])
bn = fixed(nn.BatchNorm2d(2))
print(bn(y)[0, 1])
mha = fixed(nn.MultiheadAttention(4, 2, batch_first=True))
q = torch.from_numpy(rng.standard_normal((1, 3, 4)).round(2))
o, w = mha(q, q, q)
print(o, w)
o2, w2 = mha(q, q, q, average_attn_weights=False, need_weights=True)
print(w2.shape, w2[0, 1])
