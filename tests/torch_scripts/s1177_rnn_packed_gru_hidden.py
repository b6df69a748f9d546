# GRU on a packed sequence with a given initial hidden state, PackedSequence.to(dtype), sorting bookkeeping
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, PackedSequence

gru = nn.GRU(1, 2, batch_first=True)
for n, p in gru.named_parameters():
    nn.init.constant_(p, 0.2 if "weight" in n else -0.1)
x = torch.tensor([[[1.0], [2.0], [0.0]], [[3.0], [0.0], [0.0]], [[0.5], [1.0], [1.5]]])
lengths = torch.tensor([2, 1, 3])
packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
h0 = torch.tensor([[[0.1, 0.0], [0.0, 0.2], [0.3, 0.3]]])
out, hn = gru(packed, h0)
print(isinstance(out, PackedSequence), out.batch_sizes, out.sorted_indices)
pad, lens = pad_packed_sequence(out, batch_first=True, padding_value=-9.0)
print(torch.round(pad, decimals=6), lens)
print(torch.round(hn, decimals=6))
print(torch.allclose(hn[0, 0], pad[0, 1]), torch.allclose(hn[0, 1], pad[1, 0]))
p32 = packed.to(torch.float32)
print(p32.data.dtype, p32.batch_sizes.dtype, packed.is_cuda if hasattr(packed, "is_cuda") else False)
