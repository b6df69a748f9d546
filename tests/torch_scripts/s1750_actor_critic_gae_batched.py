# Advantage actor-critic with generalized advantage estimation over a batch of fixed
# trajectories: shared trunk, Categorical policy head, value head, GAE(lambda) computed
# backwards with masks for episode ends, entropy regularization, grad-norm clipping
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical

rng = np.random.default_rng(971)
T, S, A = 12, 4, 3
obs = torch.from_numpy(rng.standard_normal((T + 1, S)))
actions = torch.from_numpy(rng.integers(0, A, T))
rewards = torch.from_numpy(rng.standard_normal(T))
dones = torch.from_numpy((rng.random(T) < 0.2).astype(np.float64))


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(S, 16), nn.Tanh())
        self.pi = nn.Linear(16, A)
        self.v = nn.Linear(16, 1)

    def forward(self, x):
        h = self.trunk(x)
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def gae(rewards, values, dones, gamma=0.99, lam=0.95):
    adv = torch.zeros_like(rewards)
    last = torch.zeros(())
    for t in reversed(range(len(rewards))):
        nonterminal = 1.0 - dones[t]
        delta = rewards[t] + gamma * values[t + 1] * nonterminal - values[t]
        last = delta + gamma * lam * nonterminal * last
        adv[t] = last
    return adv


model = ActorCritic()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.3, tuple(p.shape))))
opt = torch.optim.Adam(model.parameters(), lr=7e-3, eps=1e-5)
for it in range(6):
    dist, values = model(obs)
    with torch.no_grad():
        adv = gae(rewards, values, dones)
        returns = adv + values[:-1]
    logp = dist.log_prob(torch.cat([actions, actions[:1]]))[:-1]
    policy_loss = -(logp * adv).mean()
    value_loss = (returns - values[:-1]).pow(2).mean()
    entropy = dist.entropy()[:-1].mean()
    loss = policy_loss + 0.5 * value_loss - 0.01 * entropy
    opt.zero_grad()
    loss.backward()
    gn = nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    opt.step()
    print(it, f"pi {policy_loss.item():.5f} v {value_loss.item():.5f} H {entropy.item():.5f} gn {gn.item():.4f}")
print(adv[:5].numpy().round(5))
print(dist.probs[0].detach().numpy().round(4))
