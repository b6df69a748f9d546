# An audio classifier front end written with tensor ops: framing by Tensor.unfold, a Hann
# window (torch.hann_window), magnitude spectrum by torch.fft.rfft, a triangular mel-like
# filterbank matrix, log compression, then Conv1d layers with global average pooling
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(1131)
sr, n = 800, 800
t = torch.arange(n) / sr
freqs = [60.0, 150.0, 300.0]
waves = torch.stack([torch.sin(2 * np.pi * f * t) + 0.1 * torch.from_numpy(rng.standard_normal(n)) for f in freqs for _ in range(3)])
labels = torch.arange(3).repeat_interleave(3)
frame, hop, nb = 64, 32, 8
window = torch.hann_window(frame)
bins = frame // 2 + 1
centers = torch.linspace(0, bins - 1, nb + 2)
k = torch.arange(bins).unsqueeze(0)
left, mid, right = centers[:-2].unsqueeze(1), centers[1:-1].unsqueeze(1), centers[2:].unsqueeze(1)
fbank = torch.clamp(torch.minimum((k - left) / (mid - left), (right - k) / (right - mid)), min=0)


def features(x):
    frames = x.unfold(-1, frame, hop) * window
    mag = torch.fft.rfft(frames).abs() ** 2
    return torch.log(mag @ fbank.T + 1e-6).transpose(1, 2)


feats = features(waves)
print(feats.shape, fbank.sum(1).numpy().round(3))
net = nn.Sequential(nn.Conv1d(nb, 12, 3, padding=1), nn.ReLU(), nn.Conv1d(12, 12, 3, padding=1),
                    nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(12, 3))
with torch.no_grad():
    for q in net.parameters():
        q.copy_(torch.from_numpy(rng.normal(0, 0.2, tuple(q.shape))))
mu, sd = feats.mean((0, 2), keepdim=True), feats.std((0, 2), keepdim=True)
opt = torch.optim.Adam(net.parameters(), lr=0.01)
for it in range(8):
    opt.zero_grad()
    logits = net((feats - mu) / sd)
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    opt.step()
    if it % 2 == 1:
        print(it, f"{loss.item():.6f}", (logits.argmax(1) == labels).sum().item())
print(window[:4].numpy().round(5), feats[0, :3, 0].numpy().round(4))
