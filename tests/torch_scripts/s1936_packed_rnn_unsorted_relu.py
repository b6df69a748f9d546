# A character-level classifier over names of different lengths: pack_sequence with
# enforce_sorted=False, an nn.RNN with relu nonlinearity and two layers, the packed
# sequence's sorted/unsorted indices, unpack_sequence and unpad_sequence round trips
import torch
import torch.nn as nn
from torch.nn.utils.rnn import (pack_sequence, pad_packed_sequence, pad_sequence,
                                unpack_sequence, unpad_sequence)

seqs = [torch.sin(torch.arange(n * 2, dtype=torch.float64) + n).view(n, 2) for n in (3, 5, 2)]
packed = pack_sequence(seqs, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices, packed.data.shape)
rnn = nn.RNN(2, 4, num_layers=2, nonlinearity="relu")
head = nn.Linear(4, 2)
with torch.no_grad():
    for i, p in enumerate(list(rnn.parameters()) + list(head.parameters())):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) * 0.7 + i).view_as(p) * 0.5)
opt = torch.optim.SGD(list(rnn.parameters()) + list(head.parameters()), lr=0.1)
y = torch.tensor([1, 0, 1])
for step in range(3):
    out, h = rnn(packed)
    loss = nn.functional.cross_entropy(head(h[-1]), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.6f}", h.shape)
padded, lens = pad_packed_sequence(out, batch_first=True)
print(padded.shape, lens)
back = unpack_sequence(packed)
print([torch.equal(a, b) for a, b in zip(back, seqs)])
pad = pad_sequence(seqs, batch_first=True, padding_side="left")
print(pad[:, :, 0].numpy().round(4))
un = unpad_sequence(pad_sequence(seqs, batch_first=True), torch.tensor([3, 5, 2]), batch_first=True)
print([t.shape for t in un])
print(type(packed).__name__, packed._fields if hasattr(packed, "_fields") else None)
