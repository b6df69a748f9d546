# bidirectional LSTM on packed sequence: final h of backward direction equals output at t=0
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

torch.manual_seed(0)
lstm = nn.LSTM(2, 3, bidirectional=True, batch_first=True)
x = torch.randn(3, 4, 2)
lens = torch.tensor([4, 2, 3])
out, (h, c) = lstm(pack_padded_sequence(x, lens, batch_first=True, enforce_sorted=False))
pad, l = pad_packed_sequence(out, batch_first=True)
print(pad.shape, l)
print(torch.allclose(pad[:, 0, 3:], h[1]))
print(torch.allclose(pad[1, 1, :3], h[0][1]), torch.allclose(pad[2, 2, :3], h[0][2]))
print((pad[1, 2:] == 0).all().item())
