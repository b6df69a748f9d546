import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

def fill(m, s=0.2):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.7 + i).reshape(p.shape) * s)
    return m

cell = fill(nn.LSTMCell(3, 4))
gcell = fill(nn.GRUCell(3, 4))
rcell = fill(nn.RNNCell(3, 4, nonlinearity="relu"))
xs = torch.linspace(-1, 1, 5 * 2 * 3).reshape(5, 2, 3)
h = torch.zeros(2, 4); c = torch.zeros(2, 4); g = torch.zeros(2, 4); r = torch.zeros(2, 4)
for t in range(5):
    h, c = cell(xs[t], (h, c))
    g = gcell(xs[t], g)
    r = rcell(xs[t], r)
print(h, c, g, r, sep="\n")
print(rcell(xs[0]), cell(xs[0])[0].shape)
lstm = fill(nn.LSTM(3, 4, batch_first=True))
seqs = [torch.ones(3, 3) * 0.5, torch.arange(15.0).reshape(5, 3) / 15, torch.full((2, 3), -0.3)]
lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence(seqs, batch_first=True)
print(padded.shape, lengths)
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
out, (hn, cn) = lstm(packed)
unpacked, lens = pad_packed_sequence(out, batch_first=True)
print(unpacked.shape, lens, hn.shape)
print(hn[0])
print(torch.stack([unpacked[i, l - 1] for i, l in enumerate(lens)]))
full, _ = lstm(padded)
print(torch.allclose(full[1], unpacked[1]), torch.allclose(full[0, :3], unpacked[0, :3]))
gru = fill(nn.GRU(3, 2, num_layers=2, bidirectional=True))
o, hh = gru(xs)
print(o.shape, hh.shape, o[-1], hh[-1])
loss = o.pow(2).sum()
loss.backward()
print(gru.weight_ih_l0.grad.norm(), gru.bias_hh_l1_reverse.grad)
print(pad_sequence([torch.tensor([1, 2]), torch.tensor([3])], padding_value=-1), pad_sequence([torch.tensor([1, 2]), torch.tensor([3])], batch_first=True, padding_side="left"))
