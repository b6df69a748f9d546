# GRU batch_first bidirectional: shapes and hidden relation to outputs
import torch
import torch.nn as nn

torch.manual_seed(0)
gru = nn.GRU(input_size=3, hidden_size=4, num_layers=2, batch_first=True, bidirectional=True)
x = torch.randn(2, 5, 3)
out, h = gru(x)
print(out.shape, h.shape)
print(torch.allclose(out[:, -1, :4], h[2]), torch.allclose(out[:, 0, 4:], h[3]))
print([(n, tuple(p.shape)) for n, p in gru.named_parameters()][:4])
print(gru)
