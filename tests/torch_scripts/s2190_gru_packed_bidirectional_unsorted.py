import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

gru = nn.GRU(input_size=2, hidden_size=3, bidirectional=True, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(gru.parameters()):
        p.copy_(torch.linspace(-0.4, 0.4, p.numel()).view_as(p) * (-1) ** i)
seqs = [torch.tensor([[1.0, 0.0], [0.5, 0.5]]),
        torch.tensor([[0.0, 1.0], [1.0, 1.0], [-1.0, 0.5], [0.2, 0.1]]),
        torch.tensor([[2.0, -1.0]])]
lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence(seqs, batch_first=True)
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
out_p, h_n = gru(packed)
out, out_len = pad_packed_sequence(out_p, batch_first=True, padding_value=-9.0)
print(out.shape, out_len)
print(out[0].round(decimals=4))
print(h_n.shape, h_n[1].round(decimals=4))
for i, s in enumerate(seqs):
    single, hs = gru(s.unsqueeze(0))
    print(i, torch.allclose(single[0], out[i, : len(s)], atol=1e-12), torch.allclose(hs[:, 0], h_n[:, i]))
total, _ = pad_packed_sequence(out_p, batch_first=False, total_length=6)
print(total.shape)
padded.requires_grad_()
o, _ = gru(pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False))
pad_packed_sequence(o, batch_first=True)[0].sum().backward()
print(padded.grad[2].round(decimals=4), padded.grad[0, 2:].abs().sum().item())
