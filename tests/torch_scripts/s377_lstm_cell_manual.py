import torch
import torch.nn as nn

torch.manual_seed(0)
cell = nn.LSTMCell(3, 4)
lstm = nn.LSTM(3, 4, batch_first=False, proj_size=0)
with torch.no_grad():
    for i, p in enumerate(cell.parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) + i).view_as(p))
    lstm.weight_ih_l0.copy_(cell.weight_ih)
    lstm.weight_hh_l0.copy_(cell.weight_hh)
    lstm.bias_ih_l0.copy_(cell.bias_ih)
    lstm.bias_hh_l0.copy_(cell.bias_hh)
seq = torch.linspace(-1, 1, 5 * 2 * 3).view(5, 2, 3)
h = torch.zeros(2, 4)
c = torch.zeros(2, 4)
outs = []
for t in range(5):
    h, c = cell(seq[t], (h, c))
    outs.append(h)
out_manual = torch.stack(outs)
out, (hn, cn) = lstm(seq)
print(torch.allclose(out, out_manual), torch.allclose(cn[0], c))
print(out[-1].round(decimals=5))
Wi, Wf, Wg, Wo = cell.weight_ih.chunk(4, 0)
print(Wi.shape, cell)
h1, c1 = cell(seq[0])
print(h1.shape, c1.shape)
gru = nn.GRUCell(3, 4, bias=False)
rnn = nn.RNNCell(3, 4, nonlinearity="relu")
print(gru(seq[0]).shape, rnn(seq[0], torch.ones(2, 4)).shape, gru)
lp = nn.LSTM(3, 4, proj_size=2, num_layers=2)
o, (hh, cc) = lp(seq)
print(o.shape, hh.shape, cc.shape, [n for n, _ in lp.named_parameters()][:5])
single = cell(seq[0, 0], (torch.zeros(4), torch.zeros(4)))
print(single[0].shape)
(out.sum() + hn.sum()).backward()
print(lstm.weight_hh_l0.grad.norm().round(decimals=5))
