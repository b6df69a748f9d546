# pack_padded_sequence with unsorted lengths, enforce_sorted=False, pad back
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

lstm = nn.LSTM(1, 2, batch_first=True)
with torch.no_grad():
    for p in lstm.parameters():
        p.fill_(0.1)
x = torch.tensor([[[1.0], [2.0], [0.0]], [[1.0], [2.0], [3.0]], [[5.0], [0.0], [0.0]]])
lengths = torch.tensor([2, 3, 1])
packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
out, (h, c) = lstm(packed)
padded, lens = pad_packed_sequence(out, batch_first=True)
print(padded)
print(lens)
print(h)
