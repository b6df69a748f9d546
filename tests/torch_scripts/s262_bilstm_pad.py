import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence, pad_packed_sequence

torch.manual_seed(0)
seqs = [torch.linspace(0, 1, 12).reshape(4, 3), torch.linspace(-1, 0, 6).reshape(2, 3),
        torch.ones(3, 3) * 0.1]
padded = pad_sequence(seqs, batch_first=True)
print(padded.shape, padded[1])
padded2 = pad_sequence(seqs, padding_value=-1.0)
print(padded2.shape, padded2[:, 1, 0])
lstm = nn.LSTM(3, 2, bidirectional=True, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(lstm.parameters()):
        p.copy_(torch.linspace(-0.3, 0.3, p.numel()).reshape(p.shape) * (i + 1))
out, (h, c) = lstm(padded)
print(out.shape, type(out.grad_fn).__name__, h.shape, type(h.grad_fn).__name__)
print(out[0, -1].round(decimals=4))
packed = pack_padded_sequence(padded, torch.tensor([4, 2, 3]), batch_first=True,
                              enforce_sorted=False)
po, (ph, pc) = lstm(packed)
unpacked, lengths = pad_packed_sequence(po, batch_first=True)
print(unpacked.shape, lengths)
print(unpacked[1, 2:].abs().sum().item())
print(ph[1].round(decimals=4))
gru = nn.GRU(3, 2, bidirectional=True)
o, hn = gru(padded2)
print(o.shape, type(o.grad_fn).__name__, hn.shape)
