# PPO's clipped surrogate for a Gaussian policy: Normal(mu, exp(log_std)) with a learned
# state-independent log_std parameter, old log-probs detached, ratio clipping, value loss,
# entropy bonus, several epochs over minibatches of one rollout (actions from NumPy)
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Normal

rng = np.random.default_rng(271)
obs = torch.from_numpy(rng.standard_normal((32, 3)))
actions = torch.from_numpy(rng.standard_normal((32, 1)) * 0.5)
rewards = -(obs[:, :1] - actions).pow(2).squeeze(1)


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
        self.v = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
        self.log_std = nn.Parameter(torch.full((1,), -0.5))

    def dist(self, s):
        return Normal(self.pi(s), self.log_std.exp())

    def evaluate(self, s, a):
        d = self.dist(s)
        return d.log_prob(a).sum(-1), d.entropy().sum(-1), self.v(s).squeeze(-1)


ac = ActorCritic()
with torch.no_grad():
    for n, p in ac.named_parameters():
        if n != "log_std":
            p.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(p.shape))))
with torch.no_grad():
    old_logp, _, values = ac.evaluate(obs, actions)
adv = rewards - values
adv = (adv - adv.mean()) / (adv.std() + 1e-8)
returns = rewards
opt = torch.optim.Adam(ac.parameters(), lr=3e-3, eps=1e-5)
clip = 0.2
for epoch in range(3):
    for mb in torch.arange(32).split(8):
        logp, ent, v = ac.evaluate(obs[mb], actions[mb])
        ratio = (logp - old_logp[mb]).exp()
        s1 = ratio * adv[mb]
        s2 = torch.clamp(ratio, 1 - clip, 1 + clip) * adv[mb]
        pg = -torch.min(s1, s2).mean()
        vf = 0.5 * (returns[mb] - v).pow(2).mean()
        loss = pg + 0.5 * vf - 0.01 * ent.mean()
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(ac.parameters(), 0.5)
        opt.step()
    clipfrac = ((ratio - 1).abs() > clip).double().mean()
    print(epoch, f"pg {pg.item():.6f} vf {vf.item():.6f} clipfrac {clipfrac.item():.3f}")
print("log_std", ac.log_std.detach().numpy().round(6), ac.log_std.grad.numpy().round(6))
with torch.no_grad():
    logp, ent, v = ac.evaluate(obs[:3], actions[:3])
    kl = (old_logp[:3] - logp).mean()
print(logp.numpy().round(5), ent.numpy().round(5), round(kl.item(), 6))
