# SimCLR NT-Xent loss from a blog: normalize, similarity matrix, mask self-similarity, cross_entropy
import torch
import torch.nn as nn
import torch.nn.functional as F


def nt_xent(z1, z2, temperature=0.5):
    batch_size = z1.shape[0]
    z = torch.cat([z1, z2], dim=0)
    z = F.normalize(z, dim=1)
    sim = torch.matmul(z, z.T) / temperature
    mask = torch.eye(2 * batch_size, dtype=torch.bool)
    sim = sim.masked_fill(mask, float('-inf'))
    targets = torch.cat([torch.arange(batch_size, 2 * batch_size), torch.arange(0, batch_size)])
    return F.cross_entropy(sim, targets)


def nt_xent_manual(z1, z2, temperature=0.5):
    N = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = F.cosine_similarity(z.unsqueeze(1), z.unsqueeze(0), dim=2)
    sim_ij = torch.diag(sim, N)
    sim_ji = torch.diag(sim, -N)
    positives = torch.cat([sim_ij, sim_ji], dim=0)
    nominator = torch.exp(positives / temperature)
    negatives_mask = (~torch.eye(2 * N, 2 * N, dtype=bool)).float()
    denominator = negatives_mask * torch.exp(sim / temperature)
    loss_partial = -torch.log(nominator / torch.sum(denominator, dim=1))
    return torch.sum(loss_partial) / (2 * N)


encoder = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 4))
with torch.no_grad():
    for i, p in enumerate(encoder.parameters()):
        p.copy_(0.4 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.83 + i).view_as(p))
base = torch.cos(torch.arange(30.0).view(5, 6) * 0.4)
view1 = base + 0.05 * torch.sin(torch.arange(30.0).view(5, 6))
view2 = base.flip(1) * 0.9
opt = torch.optim.SGD(encoder.parameters(), lr=0.3)
for step in range(5):
    z1, z2 = encoder(view1), encoder(view2)
    loss = nt_xent(z1, z2)
    ref = nt_xent_manual(z1, z2)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.6f} manual {ref.item():.6f}")
print(torch.diag(torch.arange(9.0).view(3, 3), 1), torch.diag(torch.arange(9.0).view(3, 3), -2))
print(torch.eye(4, dtype=bool).logical_not().sum().item(), (~torch.eye(2, dtype=torch.bool)).tolist())
