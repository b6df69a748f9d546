import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=4)
n, d = 6, 4
base = torch.stack([torch.cos(torch.arange(d, dtype=torch.float64) * (k + 1)) for k in range(n)])
view1 = base + 0.05 * torch.sin(torch.arange(n * d, dtype=torch.float64)).view(n, d)
view2 = base - 0.05 * torch.cos(torch.arange(n * d, dtype=torch.float64)).view(n, d)
proj = nn.Linear(d, 3, bias=False)
with torch.no_grad():
    proj.weight.copy_(torch.tensor([[0.5, -0.2, 0.1, 0.3], [0.0, 0.4, -0.6, 0.2], [0.3, 0.3, 0.3, -0.1]]))
temp = 0.2


def info_nce(a, b):
    za = F.normalize(proj(a), dim=1)
    zb = F.normalize(proj(b), dim=1)
    logits = za @ zb.T / temp
    labels = torch.arange(len(a))
    return (F.cross_entropy(logits, labels) + F.cross_entropy(logits.T, labels)) / 2, logits


loss, logits = info_nce(view1, view2)
print(round(loss.item(), 6), logits.shape)
print(logits.diagonal())
loss.backward()
print(proj.weight.grad)
sim = F.cosine_similarity(view1[:, None, :], view2[None, :, :], dim=-1)
print(sim.argmax(dim=1), (sim.argmax(dim=1) == torch.arange(n)).all())
# NT-Xent with both views concatenated and self-similarity masked
z = F.normalize(torch.cat([view1, view2]), dim=1)
s = z @ z.T / temp
s = s.masked_fill(torch.eye(2 * n, dtype=torch.bool), float("-inf"))
targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
print(round(F.cross_entropy(s, targets).item(), 6))
print(F.pairwise_distance(view1, view2).round(decimals=4)[:3])
print(F.triplet_margin_loss(view1, view2, view2.roll(1, 0), margin=0.5).item() >= 0)
