# REINFORCE with Categorical on a tiny deterministic bandit-chain; actions chosen by argmax/probs
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical


class Policy(nn.Module):
    def __init__(self):
        super(Policy, self).__init__()
        self.affine1 = nn.Linear(4, 16)
        self.dropout = nn.Dropout(p=0.6)
        self.affine2 = nn.Linear(16, 2)
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        x = self.affine1(x)
        x = self.dropout(x)
        x = F.relu(x)
        action_scores = self.affine2(x)
        return F.softmax(action_scores, dim=1)


policy = Policy()
policy.eval()  # dropout off so the run is deterministic
with torch.no_grad():
    for i, p in enumerate(policy.parameters()):
        p.copy_(0.25 * torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 1.3 + i).view_as(p))
optimizer = optim.Adam(policy.parameters(), lr=1e-2)
eps = torch.finfo(torch.float32).eps
gamma = 0.99


def select_action(state, step):
    state = torch.from_numpy(state).unsqueeze(0)
    probs = policy(state)
    m = Categorical(probs)
    action = torch.tensor([step % 2])  # a fixed behaviour in place of m.sample()
    policy.saved_log_probs.append(m.log_prob(action))
    return action.item(), m.entropy()


def finish_episode():
    R = 0
    policy_loss = []
    returns = []
    for r in policy.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for log_prob, R in zip(policy.saved_log_probs, returns):
        policy_loss.append(-log_prob * R)
    optimizer.zero_grad()
    policy_loss = torch.cat(policy_loss).sum()
    policy_loss.backward()
    optimizer.step()
    del policy.rewards[:]
    del policy.saved_log_probs[:]
    return policy_loss.item()


import numpy as np
for episode in range(3):
    for t in range(6):
        state = np.array([np.cos(t), np.sin(t), t / 6.0, 1.0])
        action, ent = select_action(state, t + episode)
        policy.rewards.append(1.0 if action == 1 else 0.0)
    print(f"episode {episode} loss {finish_episode():.5f} entropy {ent.item():.5f}")
print(Categorical(logits=torch.tensor([0.0, 1.0, 2.0])).probs.round(decimals=4))
print(Categorical(probs=torch.tensor([[0.2, 0.8]])).log_prob(torch.tensor([1])).shape)
