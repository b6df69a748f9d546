# A DDPM in miniature: linear beta schedule, q_sample with noise drawn by NumPy, sinusoidal
# timestep embedding, an MLP noise predictor trained with MSE, and deterministic DDIM sampling
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

T = 50
betas = torch.linspace(1e-4, 0.05, T)
alphas = 1.0 - betas
alphas_cumprod = torch.cumprod(alphas, dim=0)
sqrt_ac = alphas_cumprod.sqrt()
sqrt_1m_ac = (1 - alphas_cumprod).sqrt()
rng = np.random.default_rng(261)
data = torch.from_numpy(np.concatenate([rng.normal(-1, 0.1, (32, 2)), rng.normal(1, 0.1, (32, 2))]))


def timestep_embedding(t, dim=8):
    half = dim // 2
    freqs = torch.exp(-math.log(10000) * torch.arange(half) / half)
    args = t.double().unsqueeze(1) * freqs.unsqueeze(0)
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 + 8, 32), nn.SiLU(), nn.Linear(32, 32), nn.SiLU(),
                                 nn.Linear(32, 2))

    def forward(self, x, t):
        return self.net(torch.cat([x, timestep_embedding(t)], 1))


def q_sample(x0, t, noise):
    return sqrt_ac[t].unsqueeze(1) * x0 + sqrt_1m_ac[t].unsqueeze(1) * noise


model = Denoiser()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.3, tuple(p.shape))))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for step in range(10):
    t = torch.from_numpy(rng.integers(0, T, 64))
    noise = torch.from_numpy(rng.standard_normal((64, 2)))
    x_t = q_sample(data, t, noise)
    loss = F.mse_loss(model(x_t, t), noise)
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if step % 3 == 0:
        print(step, f"{loss.item():.6f}")


@torch.no_grad()
def ddim_sample(x):
    for i in reversed(range(0, T, 10)):
        t = torch.full((x.size(0),), i, dtype=torch.long)
        eps = model(x, t)
        x0 = (x - sqrt_1m_ac[i] * eps) / sqrt_ac[i]
        prev = alphas_cumprod[i - 10] if i >= 10 else torch.tensor(1.0)
        x = prev.sqrt() * x0 + (1 - prev).sqrt() * eps
    return x


xT = torch.from_numpy(rng.standard_normal((4, 2)))
print(ddim_sample(xT).numpy().round(4))
print(alphas_cumprod[[0, 10, 49]].numpy().round(6), timestep_embedding(torch.tensor([3]))[0, :3].numpy().round(5))
