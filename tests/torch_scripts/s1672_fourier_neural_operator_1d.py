# A 1-D Fourier neural operator layer: rfft, multiply the lowest modes by complex weights
# (a complex nn.Parameter, cfloat), irfft back; trained with Adam on a smoothing operator
import numpy as np
import torch
import torch.nn as nn

N, MODES, W = 32, 6, 4
rng = np.random.default_rng(221)
grid = np.linspace(0, 1, N, endpoint=False)
A = rng.standard_normal((20, 3))
u = np.stack([a[0] * np.sin(2 * np.pi * grid) + a[1] * np.cos(6 * np.pi * grid)
              + a[2] * np.sin(10 * np.pi * grid) for a in A])
k = np.fft.rfftfreq(N, 1.0 / N)
target = np.fft.irfft(np.fft.rfft(u, axis=1) * np.exp(-0.02 * k ** 2), n=N, axis=1)
U = torch.from_numpy(u).unsqueeze(1)
Y = torch.from_numpy(target).unsqueeze(1)


class SpectralConv1d(nn.Module):
    def __init__(self, cin, cout, modes):
        super().__init__()
        self.modes = modes
        scale = 1 / (cin * cout)
        g = np.random.default_rng(5)
        w = g.random((cin, cout, modes)) + 1j * g.random((cin, cout, modes))
        self.weights = nn.Parameter(torch.tensor(scale * w, dtype=torch.cdouble))

    def forward(self, x):
        x_ft = torch.fft.rfft(x)
        out_ft = torch.zeros(x.size(0), self.weights.size(1), x.size(-1) // 2 + 1,
                             dtype=torch.cdouble)
        out_ft[:, :, :self.modes] = torch.einsum("bix,iox->box", x_ft[:, :, :self.modes],
                                                 self.weights)
        return torch.fft.irfft(out_ft, n=x.size(-1))


class FNO(nn.Module):
    def __init__(self):
        super().__init__()
        self.lift = nn.Conv1d(1, W, 1)
        self.spec = SpectralConv1d(W, W, MODES)
        self.w = nn.Conv1d(W, W, 1)
        self.proj = nn.Conv1d(W, 1, 1)

    def forward(self, x):
        h = self.lift(x)
        h = nn.functional.gelu(self.spec(h) + self.w(h))
        return self.proj(h)


model = FNO()
with torch.no_grad():
    for name, p in model.named_parameters():
        if not p.is_complex():
            p.copy_(0.4 * torch.cos(torch.arange(p.numel()) * 1.7).view_as(p))
print(model.spec.weights.dtype, model.spec.weights.shape)
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for ep in range(8):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(U), Y)
    loss.backward()
    opt.step()
    if ep % 2 == 1:
        print(ep, f"{loss.item():.7f}")
gw = model.spec.weights.grad
print(gw.dtype, gw[0, 0, :3].numpy().round(6))
print(isinstance(model.spec.weights, nn.Parameter), [n for n, _ in model.named_parameters()])
print(opt.state[model.lift.weight]["exp_avg_sq"].view(-1).numpy().round(10))
with torch.no_grad():
    print(model(U[:1])[0, 0, :5].numpy().round(5))
