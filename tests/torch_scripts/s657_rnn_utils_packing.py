import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence, pad_packed_sequence, pack_sequence, unpad_sequence, unpack_sequence

seqs = [torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0]), torch.tensor([5.0, 6.0])]
padded = pad_sequence(seqs, batch_first=True, padding_value=-1.0)
print(padded)
print(pad_sequence(seqs).shape)
print(pad_sequence(seqs, batch_first=True, padding_side="left"))
lengths = torch.tensor([3, 1, 2])
packed = pack_padded_sequence(padded.unsqueeze(-1), lengths, batch_first=True, enforce_sorted=False)
print(packed.data.squeeze(-1), packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
gru = nn.GRU(1, 2, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(gru.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1) / 4)
out, h = gru(packed)
unpacked, lens = pad_packed_sequence(out, batch_first=True, total_length=4)
print(unpacked.shape, lens)
print(h.detach().round(decimals=5))
print(unpacked[1].detach().round(decimals=5))
ps = pack_sequence([s.unsqueeze(-1) for s in seqs], enforce_sorted=False)
print([t.squeeze(-1) for t in unpack_sequence(ps)])
print(unpad_sequence(padded, lengths, batch_first=True))
