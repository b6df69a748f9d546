# A ConvLSTM cell (Shi et al.) written as a module: one Conv2d producing the four gates
# from cat([x, h]), torch.split into gates, unrolled over frames of a moving-square video,
# trained to predict the next frame with BCE-with-logits
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

T, S = 5, 6
frames = np.zeros((2, T + 1, 1, S, S))
for b, (r, dc) in enumerate([(1, 1), (3, -1)]):
    for t in range(T + 1):
        c = (1 + dc * t) % (S - 1)
        frames[b, t, 0, r:r + 2, c:c + 2] = 1.0
V = torch.from_numpy(frames)


class ConvLSTMCell(nn.Module):
    def __init__(self, cin, ch, k=3):
        super().__init__()
        self.ch = ch
        self.conv = nn.Conv2d(cin + ch, 4 * ch, k, padding=k // 2)

    def forward(self, x, state):
        h, c = state
        i, f, o, g = torch.split(self.conv(torch.cat([x, h], 1)), self.ch, dim=1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        return h, c


class Predictor(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = ConvLSTMCell(1, 4)
        self.out = nn.Conv2d(4, 1, 1)

    def forward(self, video):
        b = video.size(0)
        h = c = torch.zeros(b, 4, S, S)
        outs = []
        for t in range(video.size(1)):
            h, c = self.cell(video[:, t], (h, c))
            outs.append(self.out(h))
        return torch.stack(outs, 1)


model = Predictor()
rng = np.random.default_rng(791)
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.3, tuple(p.shape))))
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for it in range(6):
    opt.zero_grad()
    pred = model(V[:, :T])
    loss = F.binary_cross_entropy_with_logits(pred, V[:, 1:])
    loss.backward()
    opt.step()
    print(it, f"{loss.item():.6f}")
with torch.no_grad():
    p = torch.sigmoid(model(V[:1, :T]))[0, -1, 0]
print(p.numpy().round(2))
print(model.cell.conv.weight.grad.shape, model.cell.conv.bias.grad[:4].numpy().round(6))
