# GRU with 2 layers, bidirectional: shapes of output / h_n, separating directions with view,
# last forward and first backward outputs equal h_n's parts, initial hidden state given
import torch
import torch.nn as nn

gru = nn.GRU(input_size=3, hidden_size=2, num_layers=2, bidirectional=True)
with torch.no_grad():
    for i, p in enumerate(gru.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.37 + i).view_as(p) * 0.5)
x = torch.linspace(-1, 1, 5 * 2 * 3).view(5, 2, 3)
out, h = gru(x)
print(out.shape, h.shape)
dirs = out.view(5, 2, 2, 2)
hl = h.view(2, 2, 2, 2)
print(torch.allclose(dirs[-1, :, 0], hl[1, 0]), torch.allclose(dirs[0, :, 1], hl[1, 1]))
print(h[-1], out[-1])
h0 = torch.full((4, 2, 2), 0.1)
out2, h2 = gru(x, h0)
print(out2[0, 0], h2.shape)
print([n for n, _ in gru.named_parameters()][:6], gru)
