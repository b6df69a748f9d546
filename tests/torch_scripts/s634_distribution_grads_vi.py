import torch
import torch.distributions as D

# a reparameterized variational fit (pathwise gradients through rsample's formula with fixed noise)
mu = torch.tensor([0.5, -0.3], requires_grad=True)
log_sigma = torch.tensor([0.0, -0.5], requires_grad=True)
eps = torch.tensor([[0.3, -1.2], [1.1, 0.4], [-0.7, 0.9]])
opt = torch.optim.Adam([mu, log_sigma], lr=0.05)
prior = D.Normal(torch.zeros(2), torch.ones(2))
target = D.Normal(torch.tensor([1.0, -1.0]), torch.tensor([0.5, 0.8]))
for step in range(5):
    opt.zero_grad()
    q = D.Normal(mu, log_sigma.exp())
    z = mu + log_sigma.exp() * eps
    elbo = (target.log_prob(z).sum(-1) - q.log_prob(z).sum(-1)).mean()
    kl = D.kl_divergence(q, prior).sum()
    loss = -elbo + 0.1 * kl
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))
print(mu.detach().round(decimals=5), log_sigma.detach().round(decimals=5))
logits = torch.tensor([0.1, 0.5, -0.2], requires_grad=True)
c = D.Categorical(logits=logits)
c.entropy().backward()
print(logits.grad.round(decimals=5), c.probs.detach().round(decimals=5))
a1 = torch.tensor(2.0, requires_grad=True)
a0 = torch.tensor(3.0, requires_grad=True)
D.Beta(a1, a0).log_prob(torch.tensor(0.3)).backward()
print(a1.grad, a0.grad)
