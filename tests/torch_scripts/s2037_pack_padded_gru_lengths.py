import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence, pack_sequence

seqs = [torch.arange(1.0, 5.0).unsqueeze(1), torch.tensor([[0.5], [1.5]]), torch.tensor([[2.0], [1.0], [0.0]])]
lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence(seqs, batch_first=True, padding_value=-1.0)
print(padded.squeeze(-1))
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(packed.data.squeeze(-1), packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
gru = nn.GRU(1, 2, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(gru.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (1 + 0.1 * i))
out, h = gru(packed)
unpacked, lens = pad_packed_sequence(out, batch_first=True, padding_value=0.0)
print(unpacked.shape, lens)
print(unpacked.round(decimals=5))
print(h.round(decimals=5))
idx = (lengths - 1)
last = unpacked[torch.arange(3), idx]
print(torch.allclose(last, h[0]))
h.sum().backward()
print(gru.weight_hh_l0.grad.shape, gru.bias_ih_l0.grad.round(decimals=5))
ps = pack_sequence(seqs, enforce_sorted=False)
print(ps.batch_sizes, torch.equal(ps.data, packed.data))
total, lens2 = pad_packed_sequence(ps, total_length=6)
print(total.shape, lens2)
