# Time-series forecasting with a transformer encoder: sliding windows made with
# Tensor.unfold, a linear value embedding plus sinusoidal positions, last-token readout
# to a multi-step horizon, MSE training, and an autoregressive rollout under no_grad
import math
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(1041)
t = np.arange(120)
series = torch.from_numpy(np.sin(2 * np.pi * t / 24) + 0.3 * np.sin(2 * np.pi * t / 7) + 0.05 * rng.standard_normal(120))
W, Hz, D = 16, 4, 8
windows = series.unfold(0, W + Hz, 3)
Xw, Yw = windows[:, :W].unsqueeze(-1), windows[:, W:]
print(windows.shape, Xw.shape, Yw.shape)
pos = torch.arange(W).unsqueeze(1)
div = torch.exp(torch.arange(0, D, 2) * (-math.log(10000.0) / D))
pe = torch.zeros(W, D)
pe[:, 0::2] = torch.sin(pos * div)
pe[:, 1::2] = torch.cos(pos * div)


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(1, D)
        layer = nn.TransformerEncoderLayer(D, 2, 16, dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 1, enable_nested_tensor=False)
        self.out = nn.Linear(D, Hz)

    def forward(self, x):
        return self.out(self.enc(self.inp(x) + pe)[:, -1])


model = Forecaster()
with torch.no_grad():
    for n, p in model.named_parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.2, tuple(p.shape))) if p.dim() > 1 else p * 0 + (1.0 if "norm" in n and "weight" in n else 0.0))
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for epoch in range(8):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(Xw), Yw)
    loss.backward()
    opt.step()
    if epoch % 2 == 1:
        print(epoch, f"{loss.item():.6f}")
model.eval()
with torch.no_grad():
    ctx = series[-W:].clone()
    preds = []
    for _ in range(2):
        step = model(ctx.view(1, W, 1))[0]
        preds.append(step)
        ctx = torch.cat([ctx[Hz:], step])
print(torch.cat(preds).numpy().round(4))
