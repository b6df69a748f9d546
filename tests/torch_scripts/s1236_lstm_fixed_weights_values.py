# LSTM with constant weights: deterministic values and grads
import torch
import torch.nn as nn

lstm = nn.LSTM(2, 3, batch_first=True)
with torch.no_grad():
    for n, p in lstm.named_parameters():
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape))
x = torch.tensor([[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]], requires_grad=True)
out, (h, c) = lstm(x)
print(out)
print(h, c)
out.sum().backward()
print(x.grad)
print(lstm.weight_hh_l0.grad)
