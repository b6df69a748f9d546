import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

lstm = nn.LSTM(input_size=2, hidden_size=3, num_layers=2, bidirectional=True)
with torch.no_grad():
    for i, (name, p) in enumerate(lstm.named_parameters()):
        p.copy_(torch.cos(torch.arange(p.numel()) * 0.37 + i).reshape(p.shape) * 0.3)
T, B = 4, 3
x = torch.sin(torch.arange(T * B * 2.0)).reshape(T, B, 2)
lengths = [4, 3, 1]
packed = pack_padded_sequence(x, lengths)
out, (h, c) = lstm(packed)
o, l = pad_packed_sequence(out)
print(o.shape, l, h.shape, c.shape)
print(o[:, :, :3].round(decimals=4))
print(h.round(decimals=4))
full, (hf, cf) = lstm(x)
print(torch.allclose(full[:, 0], o[:, 0]), torch.allclose(hf[:, 0], h[:, 0]))
print(o[1:, 2].abs().sum().item())
loss = h[-1].sum() + c[-2].sum()
loss.backward()
print(lstm.weight_ih_l1_reverse.grad.shape, round(lstm.weight_ih_l0.grad.abs().sum().item(), 5))
h0 = torch.zeros(4, 3, 3)
c0 = torch.full((4, 3, 3), 0.1)
out2, _ = lstm(packed, (h0, c0))
print(out2.data.shape, type(out2).__name__)
