# packed sequences: pack_padded_sequence, pad_packed_sequence, pad_sequence, a GRU over them
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
from torch.nn.utils.rnn import pack_sequence

seqs = [torch.tensor([[1.0], [2.0], [3.0]]), torch.tensor([[4.0]]), torch.tensor([[5.0], [6.0]])]
padded = pad_sequence(seqs, batch_first=True)
print(padded.squeeze(-1))
lengths = torch.tensor([3, 1, 2])
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(packed.data.squeeze(-1), packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
gru = nn.GRU(1, 2, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(gru.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (1 + i % 2))
out, h = gru(packed)
unpacked, lens = pad_packed_sequence(out, batch_first=True)
print(unpacked.shape, lens)
print(h)
h.sum().backward()
print(gru.weight_hh_l0.grad)
ps = pack_sequence([torch.tensor([1.0, 2.0]), torch.tensor([3.0])])
print(ps.batch_sizes, pad_sequence([torch.ones(2), torch.ones(1)], padding_value=-1))
try:
    pack_padded_sequence(padded, torch.tensor([1, 3, 2]), batch_first=True)
except RuntimeError as e:
    print(str(e)[:100])
