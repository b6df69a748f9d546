# DQN update from a replay buffer stored as NumPy arrays: Q(s).gather(1, a), target network
# synced with load_state_dict every few steps, soft (Polyak) update variant, Huber loss
import copy
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(281)
N, S, A, GAMMA = 64, 4, 3, 0.95
buf_s = rng.standard_normal((N, S))
buf_a = rng.integers(0, A, N)
buf_r = rng.standard_normal(N)
buf_s2 = rng.standard_normal((N, S))
buf_d = rng.random(N) < 0.1


class QNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(S, 24), nn.ReLU(), nn.Linear(24, A))

    def forward(self, x):
        return self.layers(x)


policy = QNet()
with torch.no_grad():
    for p in policy.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.3, tuple(p.shape))))
target = copy.deepcopy(policy)
target.eval()
for p in target.parameters():
    p.requires_grad = False
opt = torch.optim.RMSprop(policy.parameters(), lr=1e-3, alpha=0.95, centered=True)
for step in range(12):
    idx = rng.choice(N, 16, replace=False)
    s = torch.from_numpy(buf_s[idx])
    a = torch.from_numpy(buf_a[idx]).unsqueeze(1)
    r = torch.from_numpy(buf_r[idx])
    s2 = torch.from_numpy(buf_s2[idx])
    done = torch.from_numpy(buf_d[idx])
    q = policy(s).gather(1, a).squeeze(1)
    with torch.no_grad():
        best = policy(s2).argmax(1, keepdim=True)
        q_next = target(s2).gather(1, best).squeeze(1)
        y = r + GAMMA * q_next * (~done)
    loss = F.smooth_l1_loss(q, y)
    opt.zero_grad()
    loss.backward()
    for p in policy.parameters():
        p.grad.data.clamp_(-1, 1)
    opt.step()
    if step % 4 == 3:
        target.load_state_dict(policy.state_dict())
        print(step, f"{loss.item():.6f}", "synced")
tau = 0.1
with torch.no_grad():
    for tp, pp in zip(target.parameters(), policy.parameters()):
        tp.mul_(1 - tau).add_(pp, alpha=tau)
print(target.layers[2].bias.numpy().round(6))
print(policy(torch.from_numpy(buf_s[:3])).detach().numpy().round(5))
print(opt.state[policy.layers[0].bias]["grad_avg"][:4].numpy().round(8))
print(all(not p.requires_grad for p in target.parameters()), target.training)
