import torch
import torch.distributions as dist

X = torch.tensor([[1.0, -0.5], [0.3, 0.8], [-1.2, 0.1], [0.5, 0.5], [-0.3, -1.0], [2.0, 0.4]])
y = torch.tensor([1.0, 1.0, 0.0, 1.0, 0.0, 1.0])
prior = dist.MultivariateNormal(torch.zeros(2), covariance_matrix=2.0 * torch.eye(2))


def log_joint(w):
    logits = X @ w
    return dist.Bernoulli(logits=logits).log_prob(y).sum() + prior.log_prob(w)


# Laplace approximation: MAP by Newton, then Gaussian with inverse Hessian
w = torch.zeros(2)
for it in range(8):
    g = torch.autograd.functional.jacobian(log_joint, w)
    H = torch.autograd.functional.hessian(log_joint, w)
    w = w - torch.linalg.solve(H, g)
    print(it, [round(v, 6) for v in w.tolist()], round(g.norm().item(), 8))
H = torch.autograd.functional.hessian(log_joint, w)
post = dist.MultivariateNormal(w, precision_matrix=-H)
print([round(v, 6) for v in post.covariance_matrix.flatten().tolist()])
print(round(post.entropy().item(), 6), round(post.log_prob(torch.zeros(2)).item(), 6))
print(post.scale_tril.shape, post.batch_shape, post.event_shape)
loc = torch.zeros(2, requires_grad=True)
scale_tril = torch.tensor([[1.0, 0.0], [0.5, 0.7]], requires_grad=True)
q = dist.MultivariateNormal(loc, scale_tril=scale_tril)
kl = dist.kl_divergence(q, prior)
kl.backward()
print(round(kl.item(), 6), [round(v, 6) for v in scale_tril.grad.flatten().tolist()])
c = dist.Categorical(probs=torch.tensor([0.2, 0.5, 0.3]))
print(c.log_prob(torch.tensor([0, 1, 2])), c.entropy(), c.mean if False else c.param_shape)
d = dist.Dirichlet(torch.tensor([2.0, 3.0, 4.0]))
print(round(d.log_prob(torch.tensor([0.2, 0.3, 0.5])).item(), 6), d.mean, round(d.entropy().item(), 6))
conc = torch.tensor([1.5, 0.5], requires_grad=True)
lp = dist.Dirichlet(conc).log_prob(torch.tensor([0.25, 0.75]))
lp.backward()
print(round(lp.item(), 6), [round(v, 6) for v in conc.grad.tolist()])
try:
    dist.Categorical(probs=torch.tensor([0.2, -0.1, 0.9]))
except ValueError as e:
    print("ValueError:", str(e)[:120])
