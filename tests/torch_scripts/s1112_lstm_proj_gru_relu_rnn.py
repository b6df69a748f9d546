# LSTM with proj_size, RNN with relu nonlinearity, GRU multi-layer dropout=0 shapes and constant-weight values
import torch
import torch.nn as nn

lstm = nn.LSTM(3, 4, proj_size=2, num_layers=2, batch_first=True)
print([(n, tuple(p.shape)) for n, p in lstm.named_parameters()])
for p in lstm.parameters():
    nn.init.constant_(p, 0.05)
x = torch.linspace(-1, 1, 30).view(2, 5, 3)
out, (h, c) = lstm(x)
print(out.shape, h.shape, c.shape)
print(torch.round(out[:, -1], decimals=6))
rnn = nn.RNN(3, 2, nonlinearity="relu", bias=False)
for p in rnn.parameters():
    nn.init.constant_(p, 0.3)
o, hn = rnn(x.transpose(0, 1))
print(o.shape, torch.round(hn, decimals=6))
gru = nn.GRU(3, 2, num_layers=2)
for p in gru.parameters():
    nn.init.constant_(p, -0.1)
o2, h2 = gru(x[0], torch.zeros(2, 2))
print(o2.shape, torch.round(h2, decimals=6))
print(lstm)
