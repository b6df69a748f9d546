# pad_sequence with padding_value, pack_sequence, and GRU hidden per sequence
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence, pack_sequence, pad_packed_sequence

seqs = [torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0]), torch.tensor([5.0, 6.0])]
print(pad_sequence(seqs, batch_first=True, padding_value=-1.0))
print(pad_sequence(seqs).shape)
packed = pack_sequence([s.unsqueeze(-1) for s in seqs], enforce_sorted=False)
print(packed.data.squeeze(-1), packed.batch_sizes)
gru = nn.GRU(1, 1)
with torch.no_grad():
    for p in gru.parameters():
        p.fill_(0.5)
out, h = gru(packed)
print(h)
print(pad_packed_sequence(out, total_length=4)[0].squeeze(-1))
