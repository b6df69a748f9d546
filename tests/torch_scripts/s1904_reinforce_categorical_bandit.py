# REINFORCE on a contextual bandit with a fixed action sequence (logged data): softmax
# policy, Categorical log_prob/entropy, a running-mean baseline, returns-to-go with a
# discount, and an entropy bonus; printing policy probabilities as they sharpen
import torch
import torch.nn as nn
from torch.distributions import Categorical

policy = nn.Sequential(nn.Linear(3, 6), nn.ReLU(), nn.Linear(6, 4))
with torch.no_grad():
    for i, p in enumerate(policy.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) + i).view_as(p) * 0.4)
opt = torch.optim.RMSprop(policy.parameters(), lr=0.02, alpha=0.9)
states = torch.stack([torch.sin(torch.arange(3.0) + k) for k in range(5)])
actions = torch.tensor([0, 3, 1, 3, 2])
rewards = torch.tensor([0.0, 1.0, 0.2, 1.0, -0.5])
gamma = 0.9
rets, G = [], 0.0
for r in reversed(rewards.tolist()):
    G = r + gamma * G
    rets.insert(0, G)
returns = torch.tensor(rets)
print("returns", returns)
baseline = 0.0
for episode in range(4):
    dist = Categorical(logits=policy(states))
    logp = dist.log_prob(actions)
    adv = returns - baseline
    loss = -(logp * adv).sum() - 0.01 * dist.entropy().sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    baseline = 0.8 * baseline + 0.2 * returns.mean().item()
    print(episode, f"{loss.item():.5f}", dist.probs[1].detach().numpy().round(4))
d = Categorical(probs=torch.tensor([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]]))
print(d.batch_shape, d.event_shape, d.mean if False else d.param_shape, d.logits.exp().sum(-1))
print(d.log_prob(torch.tensor([2, 0])), d.entropy(), d.enumerate_support().shape)
print(torch.distributions.kl_divergence(d, Categorical(logits=torch.zeros(2, 3))))
