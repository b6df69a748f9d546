# nn.utils.rnn: pack_sequence unsorted, pad_packed total_length, unpad/unpack, PackedSequence attrs
import torch
import torch.nn as nn
from torch.nn.utils.rnn import (pack_padded_sequence, pack_sequence, pad_packed_sequence,
                                pad_sequence, unpack_sequence, unpad_sequence)

seqs = [torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0]), torch.tensor([6.0])]
p = pack_sequence(seqs, enforce_sorted=False)
print(p.data, p.batch_sizes, p.sorted_indices, p.unsorted_indices)
print(type(p).__name__, p._fields if hasattr(p, "_fields") else None)
out, lens = pad_packed_sequence(p, batch_first=True, padding_value=-1.0, total_length=4)
print(out, lens)
print(unpack_sequence(p))
padded = pad_sequence(seqs, batch_first=True, padding_value=0.0)
print(padded)
print(pad_sequence(seqs, padding_side="left", batch_first=True))
print(unpad_sequence(padded, torch.tensor([2, 3, 1]), batch_first=True))
try:
    pack_sequence(seqs)
except RuntimeError as e:
    print("RuntimeError", e)
pp = pack_padded_sequence(padded, torch.tensor([2, 3, 1]), batch_first=True, enforce_sorted=False)
print(pp.batch_sizes, pp.is_cuda, pp.to(torch.float32).data.dtype)
rnn = nn.GRU(1, 2, batch_first=True)
o, hn = rnn(pack_sequence([s.unsqueeze(-1) for s in seqs], enforce_sorted=False))
print(type(o).__name__, o.data.shape, hn.shape)
print(pad_packed_sequence(o, batch_first=True)[0].shape)
x2 = [torch.ones(2, 3), torch.ones(4, 3)]
print(pad_sequence(x2).shape, pad_sequence(x2, batch_first=True).shape)
