import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence, pack_sequence, unpad_sequence, unpack_sequence

torch.manual_seed(0)
seqs = [torch.linspace(-1, 1, 4 * 3).view(4, 3), torch.linspace(0, 1, 2 * 3).view(2, 3), torch.linspace(1, 2, 3 * 3).view(3, 3).cos()]
lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence(seqs, batch_first=True, padding_value=-9.0)
print(padded.shape, padded[1])
lstm = nn.LSTM(3, 2, num_layers=1, batch_first=True, bidirectional=True)
with torch.no_grad():
    for n, p in lstm.named_parameters():
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).view_as(p))
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices, packed.data.shape)
out, (h, c) = lstm(packed)
unpacked, lens = pad_packed_sequence(out, batch_first=True, total_length=5, padding_value=0.0)
print(unpacked.shape, lens)
print(unpacked[1].round(decimals=5))
print(h.shape, h.round(decimals=5))
loss = unpacked.pow(2).sum() + h.sum()
loss.backward()
print(round(lstm.weight_ih_l0.grad.sum().item(), 6), round(lstm.bias_hh_l0_reverse.grad.abs().sum().item(), 6))
ps = pack_sequence(seqs, enforce_sorted=False)
print(ps.batch_sizes, [s.shape for s in unpack_sequence(ps)])
print([s.shape for s in unpad_sequence(padded, lengths, batch_first=True)])
print(torch.equal(unpad_sequence(padded, lengths, batch_first=True)[2], seqs[2]))
sorted_seqs = sorted(seqs, key=len, reverse=True)
p2 = pack_sequence(sorted_seqs)
print(p2.sorted_indices, p2.batch_sizes)
try:
    pack_sequence(seqs)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
gru = nn.GRU(3, 4, batch_first=True)
o2, h2 = gru(packed)
print(type(o2).__name__, h2.shape)
