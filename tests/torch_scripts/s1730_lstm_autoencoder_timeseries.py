# LSTM sequence autoencoder for time series: encoder final hidden state repeated over time
# (repeat / expand), decoder LSTM with proj_size, reversed-target reconstruction, MSE per
# sequence, gradient clipping by value
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(771)
T = 10
t = np.linspace(0, 2 * np.pi, T)
series = np.stack([np.sin(t * f + ph) for f, ph in rng.uniform([0.5, 0], [2, np.pi], (12, 2))])[..., None]
X = torch.from_numpy(series)


class LSTMAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.LSTM(1, 8, batch_first=True)
        self.dec = nn.LSTM(8, 6, batch_first=True, proj_size=1)

    def forward(self, x):
        _, (h, c) = self.enc(x)
        z = h[-1].unsqueeze(1).repeat(1, x.size(1), 1)
        out, (hd, cd) = self.dec(z)
        return out, h[-1], hd.shape, cd.shape


model = LSTMAE()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.3, tuple(p.shape))))
print([(n, tuple(p.shape)) for n, p in model.dec.named_parameters()][:3])
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for it in range(8):
    opt.zero_grad()
    out, z, hs, cs = model(X)
    loss = nn.functional.mse_loss(out, X.flip(1))
    loss.backward()
    nn.utils.clip_grad_value_(model.parameters(), 0.5)
    opt.step()
    if it % 2 == 1:
        print(it, f"{loss.item():.6f}", hs, cs)
with torch.no_grad():
    out, z, _, _ = model(X[:2])
    err = (out - X[:2].flip(1)).pow(2).mean((1, 2))
print(err.numpy().round(6), z.shape, z[0, :3].numpy().round(5))
print(model.dec.weight_hr_l0.grad.numpy().round(6))
