import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pack_sequence, pad_sequence, unpad_sequence, unpack_sequence

seqs = [torch.tensor([[1.0], [2.0], [3.0]]), torch.tensor([[4.0]]), torch.tensor([[5.0], [6.0]])]
lengths = torch.tensor([3, 1, 2])
padded = pad_sequence(seqs, batch_first=True, padding_value=-1.0)
print(padded.squeeze(-1))
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(packed.data.squeeze(-1), packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
out, lens = pad_packed_sequence(packed, batch_first=True, padding_value=0.0)
print(out.squeeze(-1), lens)
ps = pack_sequence(seqs, enforce_sorted=False)
print(type(ps).__name__, ps.data.shape, ps.batch_sizes)
print([s.squeeze(-1) for s in unpack_sequence(ps)])
print([s.squeeze(-1) for s in unpad_sequence(padded, lengths, batch_first=True)])
gru = nn.GRU(1, 2, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(gru.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.9 + i).reshape(p.shape) * 0.5)
po, h = gru(packed)
o, ol = pad_packed_sequence(po, batch_first=True)
print(o.round(decimals=5), h.round(decimals=5))
full, hf = gru(padded[:1])
print(torch.allclose(full[0, -1], h[0, 0]), ol)
lstm = nn.LSTM(1, 2)
with torch.no_grad():
    for i, p in enumerate(lstm.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) + i).reshape(p.shape) * 0.3)
sorted_packed = pack_padded_sequence(pad_sequence([seqs[0], seqs[2], seqs[1]]), torch.tensor([3, 2, 1]))
lo, (hn, cn) = lstm(sorted_packed)
print(lo.data.round(decimals=5).squeeze(), hn.round(decimals=5), cn.shape)
loss = hn.pow(2).sum()
loss.backward()
print(lstm.weight_hh_l0.grad.round(decimals=5))
try:
    pack_padded_sequence(padded, torch.tensor([3, 1, 2]), batch_first=True)
except RuntimeError as e:
    print("RuntimeError", str(e)[:50])
