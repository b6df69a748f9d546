import torch
import torch.nn as nn


def fill(m):
    with torch.no_grad():
        for i, (n, p) in enumerate(sorted(m.named_parameters())):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.37 + i).view_as(p) * 0.3)


x = torch.cos(torch.arange(2 * 5 * 3, dtype=torch.float64) * 0.1).view(2, 5, 3)
for cls in (nn.RNN, nn.GRU, nn.LSTM):
    m = cls(3, 4, num_layers=2, batch_first=True, bidirectional=True)
    fill(m)
    out, h = m(x)
    hs = h if isinstance(h, tuple) else (h,)
    print(cls.__name__, out.shape, [t.shape for t in hs], out[0, -1].round(decimals=4))
    out.sum().backward()
    print(m.weight_ih_l0.grad.norm().round(decimals=4), sorted(n for n, _ in m.named_parameters())[:3])
cell = nn.GRUCell(3, 2)
fill(cell)
h = torch.zeros(2, 2)
for t in range(5):
    h = cell(x[:, t], h)
print(h.round(decimals=4))
lstm = nn.LSTM(3, 2, proj_size=1)
fill(lstm)
o, (hn, cn) = lstm(x.transpose(0, 1))
print(o.shape, hn.shape, cn.shape)
packed = nn.utils.rnn.pack_padded_sequence(x, torch.tensor([5, 3]), batch_first=True)
po, _ = nn.GRU(3, 2, batch_first=True)(packed)
pad, lens = nn.utils.rnn.pad_packed_sequence(po, batch_first=True)
print(pad.shape, lens, (pad[1, 3:] == 0).all())
