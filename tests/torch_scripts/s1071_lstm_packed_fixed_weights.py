# LSTM over a packed batch with constant weights: h_n for each sequence, output padded back
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

lstm = nn.LSTM(input_size=2, hidden_size=3, batch_first=True, bidirectional=True)
for name, p in lstm.named_parameters():
    nn.init.constant_(p, 0.1 if "weight" in name else 0.0)
x = torch.arange(16.0).view(2, 4, 2) / 10
packed = pack_padded_sequence(x, torch.tensor([4, 2]), batch_first=True)
out, (h, c) = lstm(packed)
out, lens = pad_packed_sequence(out, batch_first=True)
print(out.shape, lens, h.shape)
print(torch.round(h, decimals=6))
print(torch.round(out[1], decimals=6))
out.sum().backward()
print(lstm.weight_ih_l0.grad.shape, round(lstm.weight_hh_l0_reverse.grad.sum().item(), 6))
