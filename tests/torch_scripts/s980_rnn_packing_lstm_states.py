# LSTM over a packed batch with known weights: output lengths, pad_packed values sum, final states' shapes
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence, pack_sequence

lstm = nn.LSTM(input_size=2, hidden_size=3, num_layers=2, batch_first=True)
for name, p in lstm.named_parameters():
    nn.init.constant_(p, 0.1 if "weight" in name else 0.0)
seqs = [torch.ones(4, 2), torch.ones(2, 2) * 0.5, torch.ones(3, 2) * -1]
lengths = torch.tensor([4, 2, 3])
padded = pad_sequence(seqs, batch_first=True)
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
out, (h, c) = lstm(packed)
un, lens = pad_packed_sequence(out, batch_first=True)
print(un.shape, lens, h.shape, c.shape)
print(un.sum(dim=(1, 2)).round(decimals=5))
print(h[-1].round(decimals=5))
ps = pack_sequence([torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0])], enforce_sorted=True)
print(ps.data, ps.batch_sizes)
print(pad_packed_sequence(ps, padding_value=-1.0, total_length=4))
gru = nn.GRU(2, 2, bidirectional=True)
for p in gru.parameters():
    nn.init.constant_(p, 0.2)
o, hn = gru(torch.ones(3, 1, 2))
print(o.shape, hn.shape, o[-1].round(decimals=4))
