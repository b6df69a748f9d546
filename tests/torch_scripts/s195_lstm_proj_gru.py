import torch
import torch.nn as nn


def fill_(m):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(0.3 * torch.sin(torch.arange(p.numel()) * 0.53 + i).reshape(p.shape))


lstm = nn.LSTM(input_size=3, hidden_size=4, num_layers=2, batch_first=True, bidirectional=True, proj_size=2)
fill_(lstm)
print([(n, tuple(p.shape)) for n, p in lstm.named_parameters()][:6])
x = torch.linspace(-1, 1, 2 * 5 * 3).reshape(2, 5, 3).requires_grad_()
out, (h, c) = lstm(x)
print(out.shape, h.shape, c.shape)
print(out[0, -1].round(decimals=5), h[-1].round(decimals=5))
out.sum().backward()
print(x.grad[1, 0].round(decimals=5), lstm.weight_hr_l0.grad.round(decimals=5))
gru = nn.GRU(3, 4, num_layers=1, bidirectional=True)
fill_(gru)
seq = x.detach().transpose(0, 1)
o, hn = gru(seq, torch.zeros(2, 2, 4))
print(o.shape, hn.shape, torch.allclose(o[-1, :, :4], hn[0]), torch.allclose(o[0, :, 4:], hn[1]))
print(hn.round(decimals=5))
single = gru(seq[:, 0])
print(single[0].shape, single[1].shape)
rnn = nn.RNN(3, 2, nonlinearity="relu", bias=False)
fill_(rnn)
print(rnn(seq)[0][-1].round(decimals=5), rnn)
