# REINFORCE with a categorical policy on a small chain MDP: Categorical(logits=...),
# log_prob of actions, discounted returns with baseline normalization, entropy bonus.
# Actions are sampled with NumPy from the policy's probabilities (deterministic run).
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical

N_STATES, N_ACT, GAMMA = 5, 2, 0.9
rng = np.random.default_rng(8)


def env_step(s, a):
    s2 = min(s + 1, N_STATES - 1) if a == 1 else max(s - 1, 0)
    r = 1.0 if s2 == N_STATES - 1 else -0.05
    return s2, r, s2 == N_STATES - 1


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(N_STATES, 8)
        self.l2 = nn.Linear(8, N_ACT)

    def forward(self, s):
        return self.l2(torch.relu(self.l1(s)))


policy = Policy()
with torch.no_grad():
    for i, p in enumerate(policy.parameters()):
        p.copy_(0.3 * torch.cos(torch.arange(p.numel()) * 1.1 + i).view_as(p))
optimizer = torch.optim.Adam(policy.parameters(), lr=0.05)
eye = torch.eye(N_STATES)
for episode in range(8):
    s, log_probs, rewards, entropies = 0, [], [], []
    for t in range(12):
        dist = Categorical(logits=policy(eye[s]))
        a = int(rng.random() < dist.probs[1].item())
        log_probs.append(dist.log_prob(torch.tensor(a)))
        entropies.append(dist.entropy())
        s, r, done = env_step(s, a)
        rewards.append(r)
        if done:
            break
    R, returns = 0.0, []
    for r in reversed(rewards):
        R = r + GAMMA * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    if len(returns) > 1:
        returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    loss = -(torch.stack(log_probs) * returns).sum() - 0.01 * torch.stack(entropies).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"ep {episode} len {len(rewards)} return {sum(rewards):.3f} loss {loss.item():.5f}")

with torch.no_grad():
    probs = torch.softmax(policy(eye), dim=-1)
print(probs.numpy().round(4))
d = Categorical(probs=probs)
print(d.entropy().numpy().round(4), d.log_prob(torch.ones(N_STATES, dtype=torch.long)).numpy().round(4))
print(d.batch_shape, d.event_shape, d.sample().shape)
