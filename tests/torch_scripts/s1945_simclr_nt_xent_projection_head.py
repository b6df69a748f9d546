# SimCLR's NT-Xent loss as the reference implementations write it: two deterministic
# "augmented" views, an encoder + projection head, F.normalize, the 2N x 2N similarity
# matrix with the diagonal masked by fill_diagonal_ / masked_fill, positives by index
# arithmetic, cross_entropy over temperature-scaled logits, LARS-free SGD steps
import torch
import torch.nn as nn
import torch.nn.functional as F

N, T = 4, 0.5
base = torch.stack([torch.sin(torch.arange(6.0) * (k + 1) * 0.4) for k in range(N)])
view1 = base + 0.1 * torch.cos(torch.arange(24.0).view(N, 6))
view2 = base.flip(1) * 0.9
enc = nn.Sequential(nn.Linear(6, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 8))
proj = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 4))
params = list(enc.parameters()) + list(proj.parameters())
with torch.no_grad():
    for i, p in enumerate(params):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) * 0.83 + i).view_as(p) * 0.5)
opt = torch.optim.SGD(params, lr=0.1, momentum=0.9, weight_decay=1e-4)


def nt_xent(z1, z2):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.T / T
    mask = torch.eye(2 * N, dtype=torch.bool)
    sim = sim.masked_fill(mask, float("-inf"))
    targets = torch.cat([torch.arange(N, 2 * N), torch.arange(0, N)])
    return F.cross_entropy(sim, targets), sim


for step in range(4):
    loss, sim = nt_xent(proj(enc(view1)), proj(enc(view2)))
    opt.zero_grad()
    loss.backward()
    opt.step()
    top1 = (sim.argmax(1) == torch.cat([torch.arange(N, 2 * N), torch.arange(N)])).double().mean()
    print(step, f"{loss.item():.6f}", top1.item())
s = torch.ones(3, 3)
s.fill_diagonal_(0.0)
print(s, torch.isinf(sim).sum().item())
enc.eval()
with torch.no_grad():
    h = F.normalize(enc(base), dim=1)
print(F.cosine_similarity(h[:, None], h[None], dim=-1).numpy().round(4))
