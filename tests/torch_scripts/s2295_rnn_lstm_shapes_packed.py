import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

lstm = nn.LSTM(input_size=3, hidden_size=4, num_layers=2, batch_first=True)
with torch.no_grad():
    for name, p in lstm.named_parameters():
        p.copy_(torch.linspace(-0.3, 0.3, p.numel()).view_as(p))
print([(n, tuple(p.shape)) for n, p in lstm.named_parameters()][:4])
x = torch.linspace(-1, 1, 2 * 5 * 3).view(2, 5, 3)
out, (h, c) = lstm(x)
print(out.shape, h.shape, c.shape)
print(torch.allclose(out[:, -1], h[-1]), out[0, -1].round(decimals=5))
lengths = torch.tensor([5, 3])
packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=True)
print(type(packed).__name__, packed.data.shape, packed.batch_sizes)
pout, (ph, pc) = lstm(packed)
unpacked, lens = pad_packed_sequence(pout, batch_first=True)
print(unpacked.shape, lens, unpacked[1, 3:].abs().sum().item())
print(ph[-1, 1].round(decimals=5), unpacked[1, 2].round(decimals=5))
gru = nn.GRU(3, 2, bidirectional=True)
with torch.no_grad():
    for p in gru.parameters():
        p.fill_(0.1)
o, hn = gru(x.transpose(0, 1))
print(o.shape, hn.shape, o[-1, 0].round(decimals=5))
cell = nn.RNNCell(3, 2, nonlinearity="relu")
with torch.no_grad():
    for p in cell.parameters():
        p.fill_(0.2)
hx = torch.zeros(2, 2)
for t in range(5):
    hx = cell(x[:, t], hx)
print(hx.round(decimals=5), hx.grad_fn is not None)
