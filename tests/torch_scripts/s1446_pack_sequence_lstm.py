# pack_sequence of variable-length sequences through an LSTM; unpacked outputs and lengths
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_sequence, pad_packed_sequence

lstm = nn.LSTM(1, 2, batch_first=True)
with torch.no_grad():
    for p in lstm.parameters():
        p.copy_(torch.linspace(-0.3, 0.3, p.numel()).reshape(p.shape))
seqs = [torch.tensor([[1.0], [2.0], [3.0]]), torch.tensor([[0.5], [-1.0]]), torch.tensor([[2.0]])]
packed = pack_sequence(seqs)
print(packed.batch_sizes, packed.data.shape)
out, (h, c) = lstm(packed)
pad, lens = pad_packed_sequence(out, batch_first=True)
print(lens, pad.shape)
print(torch.round(h.squeeze(0), decimals=6))
print(torch.allclose(pad[1, 1], h[0, 1]), pad[2, 1:].abs().sum().item())
