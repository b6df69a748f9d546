import torch
import torch.nn as nn

lstm = nn.LSTM(input_size=3, hidden_size=4, num_layers=2, batch_first=True, bidirectional=True, dropout=0.0)
with torch.no_grad():
    for i, (n, p) in enumerate(lstm.named_parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.41 + i).reshape(p.shape))
print(lstm)
print([(n, tuple(p.shape)) for n, p in lstm.named_parameters()][:4])
x = torch.cos(torch.arange(2 * 5 * 3, dtype=torch.float64) * 0.3).reshape(2, 5, 3)
out, (h, c) = lstm(x)
print(out.shape, h.shape, c.shape)
print(torch.allclose(out[:, -1, :4], h[2]), torch.allclose(out[:, 0, 4:], h[3]))
print(out[0, -1].detach().round(decimals=4))
h0 = torch.zeros(4, 2, 4)
c0 = torch.full((4, 2, 4), 0.1)
out2, _ = lstm(x, (h0, c0))
print(out2[1, 2, :3].detach().round(decimals=4))


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = lstm
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        _, (h, _) = self.lstm(x)
        feat = torch.cat([h[-2], h[-1]], dim=1)
        return self.head(feat)


clf = Classifier()
with torch.no_grad():
    clf.head.weight.copy_(torch.linspace(-1, 1, 16).reshape(2, 8))
    clf.head.bias.zero_()
logits = clf(x)
loss = nn.functional.cross_entropy(logits, torch.tensor([0, 1]))
loss.backward()
print(logits.detach().round(decimals=4), round(loss.item(), 6))
print(lstm.weight_hh_l1_reverse.grad.shape, lstm.bias_ih_l0.grad.abs().sum() > 0)
single = nn.LSTM(3, 4)
o, (hs, cs) = single(torch.zeros(5, 3))
print(o.shape, hs.shape, single.proj_size, single.batch_first)
