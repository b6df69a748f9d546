import torch
import torch.nn as nn
import torch.nn.functional as F

N, D = 4, 3
za = torch.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 0.0]])
zb = za + 0.1 * torch.cos(torch.arange(N * D, dtype=torch.float64)).view(N, D)
proj = nn.Linear(D, D, bias=False)
with torch.no_grad():
    proj.weight.copy_(torch.eye(D) + 0.05)
log_temp = nn.Parameter(torch.tensor(0.0))
opt = torch.optim.Adam(list(proj.parameters()) + [log_temp], lr=0.05)
labels = torch.arange(N)
for step in range(15):
    ha = F.normalize(proj(za), dim=1)
    hb = F.normalize(proj(zb), dim=1)
    sim = ha @ hb.T / log_temp.exp()
    loss = 0.5 * (F.cross_entropy(sim, labels) + F.cross_entropy(sim.T, labels))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(step, round(loss.item(), 5), round(log_temp.exp().item(), 4))
acc = (sim.argmax(1) == labels).double().mean()
print(acc.item(), sim.shape)
print(F.cosine_similarity(za, zb).round(decimals=4))
print(torch.cdist(za, zb).diagonal().round(decimals=4))
