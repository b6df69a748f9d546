# Concrete (relaxed) distributions: log_prob gradients with respect to logits and temperature
import torch
from torch.distributions import RelaxedBernoulli, RelaxedOneHotCategorical

temp = torch.tensor(0.5, requires_grad=True)
logits = torch.tensor([0.3, -1.0, 2.0], requires_grad=True)
rb = RelaxedBernoulli(temp, logits=logits)
v = torch.tensor([0.2, 0.6, 0.95])
lp = rb.log_prob(v)
print(lp)
lp.sum().backward()
print(logits.grad, temp.grad)
print(rb.has_rsample, rb.batch_shape, rb.probs)
s = rb.rsample((4,))
print(s.shape, bool(((s > 0) & (s < 1)).all()))
probs = torch.tensor([0.2, 0.3, 0.5], requires_grad=True)
ro = RelaxedOneHotCategorical(torch.tensor(0.7), probs=probs)
val = torch.tensor([0.1, 0.2, 0.7])
l2 = ro.log_prob(val)
print(l2)
l2.backward()
print(probs.grad)
print(ro.rsample((2,)).sum(-1))
print(ro.event_shape, ro.support)
