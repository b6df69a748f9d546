# Post-hoc calibration by temperature scaling (Guo et al.): a frozen classifier's logits,
# a single nn.Parameter temperature fitted with LBFGS on validation NLL, expected
# calibration error before/after with torch.bucketize bins; the parameter printed as is
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(961)
N, C = 200, 4
true = rng.integers(0, C, N)
logits_np = rng.standard_normal((N, C)) * 1.0
logits_np[np.arange(N), true] += 2.0
logits = torch.from_numpy(logits_np * 3.0)
labels = torch.from_numpy(true)


class TemperatureScaler(nn.Module):
    def __init__(self):
        super().__init__()
        self.temperature = nn.Parameter(torch.tensor(1.0))

    def forward(self, logits):
        return logits / self.temperature


def ece(probs, labels, n_bins=10):
    conf, pred = probs.max(1)
    acc = (pred == labels).double()
    bins = torch.bucketize(conf, torch.linspace(0, 1, n_bins + 1)[1:-1])
    total = torch.zeros(())
    for b in range(n_bins):
        m = bins == b
        if m.any():
            total = total + m.double().mean() * (conf[m].mean() - acc[m].mean()).abs()
    return total


scaler = TemperatureScaler()
print(scaler.temperature)
print(f"before: nll {F.cross_entropy(logits, labels).item():.5f} ece {ece(logits.softmax(1), labels).item():.5f}")
opt = torch.optim.LBFGS(scaler.parameters(), lr=0.05, max_iter=50)


def closure():
    opt.zero_grad()
    loss = F.cross_entropy(scaler(logits), labels)
    loss.backward()
    return loss


opt.step(closure)
with torch.no_grad():
    probs = scaler(logits).softmax(1)
print(f"after:  nll {F.cross_entropy(scaler(logits), labels).item():.5f} ece {ece(probs, labels).item():.5f}")
print(f"{scaler.temperature}")
print(f"T = {scaler.temperature.item():.4f}", scaler.temperature.grad.abs().item() < 1e-3)
print(torch.bucketize(torch.tensor([0.05, 0.1, 0.55, 1.0]), torch.linspace(0, 1, 11)[1:-1]).tolist(),
      torch.bucketize(torch.tensor([0.1, 0.5]), torch.tensor([0.1, 0.5]), right=True).tolist())
