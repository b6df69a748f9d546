# CLIP-style training: two encoders, L2-normalized embeddings, a learnable logit_scale
# (log of 1/0.07) clamped after each step, symmetric cross entropy over the batch
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(311)
Z = rng.standard_normal((16, 4))
img = torch.from_numpy(Z @ rng.standard_normal((4, 10)) + 0.1 * rng.standard_normal((16, 10)))
txt = torch.from_numpy(Z @ rng.standard_normal((4, 7)) + 0.1 * rng.standard_normal((16, 7)))


class CLIP(nn.Module):
    def __init__(self):
        super().__init__()
        self.visual = nn.Sequential(nn.Linear(10, 16), nn.GELU(), nn.Linear(16, 8))
        self.text = nn.Sequential(nn.Linear(7, 16), nn.GELU(), nn.Linear(16, 8))
        self.logit_scale = nn.Parameter(torch.ones([]) * math.log(1 / 0.07))

    def forward(self, image, text):
        i = F.normalize(self.visual(image), dim=-1)
        t = F.normalize(self.text(text), dim=-1)
        scale = self.logit_scale.exp()
        logits = scale * i @ t.t()
        return logits, logits.t()


model = CLIP()
with torch.no_grad():
    for n, p in model.named_parameters():
        if p.dim() > 0:
            p.copy_(torch.from_numpy(rng.normal(0, 0.3, tuple(p.shape))))
opt = torch.optim.AdamW(model.parameters(), lr=5e-3, betas=(0.9, 0.98), weight_decay=0.2)
labels = torch.arange(16)
for step in range(8):
    li, lt = model(img, txt)
    loss = (F.cross_entropy(li, labels) + F.cross_entropy(lt, labels)) / 2
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        model.logit_scale.clamp_(0, math.log(100))
    if step % 2 == 1:
        acc = (li.argmax(1) == labels).double().mean().item()
        print(step, f"{loss.item():.6f}", f"{model.logit_scale.item():.6f}", acc)
print(model.logit_scale.grad.item().__round__(6), model.logit_scale.shape)
with torch.no_grad():
    li, _ = model(img[:4], txt[:4])
print(li.softmax(-1).numpy().round(4))
