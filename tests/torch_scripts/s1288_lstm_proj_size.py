# LSTM with proj_size: output and h shapes differ from c shape
import torch
import torch.nn as nn

torch.manual_seed(0)
lstm = nn.LSTM(3, 5, proj_size=2, num_layers=2)
x = torch.randn(4, 2, 3)
out, (h, c) = lstm(x)
print(out.shape, h.shape, c.shape)
print([(n, tuple(p.shape)) for n, p in lstm.named_parameters() if "l0" in n])
print(lstm)
