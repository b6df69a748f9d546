# LoRA fine-tuning: a frozen pretrained Linear wrapped with low-rank A, B adapters
# (B initialized to zero), only adapter params given to the optimizer, merge for inference
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(351)


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=2, alpha=4):
        super().__init__()
        self.base = base
        self.base.weight.requires_grad_(False)
        self.base.bias.requires_grad_(False)
        self.A = nn.Parameter(torch.from_numpy(rng.normal(0, 0.1, (r, base.in_features))))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scaling = alpha / r
        self.merged = False

    def forward(self, x):
        out = self.base(x)
        if not self.merged:
            out = out + (x @ self.A.t() @ self.B.t()) * self.scaling
        return out

    @torch.no_grad()
    def merge(self):
        self.base.weight += self.B @ self.A * self.scaling
        self.merged = True


base = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 2))
with torch.no_grad():
    for p in base.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.5, tuple(p.shape))))
base[0] = LoRALinear(base[0])
base[2] = LoRALinear(base[2])
trainable = [p for p in base.parameters() if p.requires_grad]
print(len(trainable), sum(p.numel() for p in trainable), sum(p.numel() for p in base.parameters()))
X = torch.from_numpy(rng.standard_normal((24, 6)))
y = torch.from_numpy(rng.standard_normal((24, 2)))
opt = torch.optim.Adam(trainable, lr=0.02)
w0 = base[0].base.weight.clone()
for step in range(8):
    opt.zero_grad()
    loss = nn.functional.mse_loss(base(X), y)
    loss.backward()
    opt.step()
    if step % 2 == 1:
        print(step, f"{loss.item():.6f}")
print("base frozen", torch.equal(w0, base[0].base.weight), base[0].base.weight.grad)
before = base(X[:3]).detach()
for m in base.modules():
    if isinstance(m, LoRALinear):
        m.merge()
after = base(X[:3]).detach()
print("merge equal", torch.allclose(before, after, atol=1e-12), after.numpy().round(5))
print(base[2].B.detach().numpy().round(5))
print([k for k in base.state_dict().keys()])
