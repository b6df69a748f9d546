# Actor-critic with generalised advantage estimation on fixed rollouts: shared trunk, Categorical
# policy head, value head, returns by reversed loop, entropy bonus, clipped PPO ratio
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=3, n_actions=2):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh())
        self.pi = nn.Linear(16, n_actions)
        self.v = nn.Linear(16, 1)

    def forward(self, obs):
        h = self.body(obs)
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


ac = ActorCritic()
with torch.no_grad():
    for i, p in enumerate(ac.parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.59 + i).view_as(p))
T = 8
obs = torch.stack([torch.cos(torch.arange(T) * 0.5), torch.sin(torch.arange(T) * 0.3), torch.ones(T)], 1)
actions = torch.tensor([0, 1, 1, 0, 1, 0, 0, 1])
rewards = torch.tensor([1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0])
dones = torch.tensor([0, 0, 0, 1, 0, 0, 0, 0], dtype=torch.float64)
gamma, lam = 0.99, 0.95
with torch.no_grad():
    dist, values = ac(obs)
    old_logp = dist.log_prob(actions)
    next_value = torch.tensor(0.5)
advantages = torch.zeros(T)
last = 0.0
for t in reversed(range(T)):
    nv = next_value if t == T - 1 else values[t + 1]
    nonterminal = 1.0 - dones[t]
    delta = rewards[t] + gamma * nv * nonterminal - values[t]
    last = delta + gamma * lam * nonterminal * last
    advantages[t] = last
returns = advantages + values
print(advantages.round(decimals=4), returns.shape)
adv = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
opt = torch.optim.Adam(ac.parameters(), lr=3e-3, eps=1e-5)
for epoch in range(4):
    dist, v = ac(obs)
    logp = dist.log_prob(actions)
    ratio = torch.exp(logp - old_logp)
    surr1 = ratio * adv
    surr2 = torch.clamp(ratio, 0.8, 1.2) * adv
    policy_loss = -torch.min(surr1, surr2).mean()
    value_loss = F.mse_loss(v, returns)
    entropy = dist.entropy().mean()
    loss = policy_loss + 0.5 * value_loss - 0.01 * entropy
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(ac.parameters(), 0.5)
    opt.step()
    clipfrac = ((ratio - 1).abs() > 0.2).float().mean()
    print(f"epoch {epoch}: pi {policy_loss.item():.5f} v {value_loss.item():.5f} ent {entropy.item():.5f} clip {clipfrac.item():.2f}")
print(ratio.detach().round(decimals=4))
