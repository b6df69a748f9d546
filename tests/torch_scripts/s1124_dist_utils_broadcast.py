# distributions.utils helpers and batch broadcasting / expand / sample shape rules
import torch
from torch.distributions import Normal, Categorical, Bernoulli
from torch.distributions.utils import logits_to_probs, probs_to_logits, broadcast_all, clamp_probs

print(logits_to_probs(torch.tensor([0.0, 1.0, 2.0])), logits_to_probs(torch.tensor([0.0, 2.0]), is_binary=True))
print(probs_to_logits(torch.tensor([0.25, 0.75])), probs_to_logits(torch.tensor([0.25, 0.75]), is_binary=True))
a, b = broadcast_all(torch.tensor([1.0, 2.0]), 3.0)
print(a, b)
print(clamp_probs(torch.tensor([0.0, 1.0])) > 0)
n = Normal(torch.zeros(2, 1), torch.ones(3))
print(n.batch_shape, n.sample((4,)).shape, n.log_prob(torch.zeros(5, 2, 3)).shape)
c = Categorical(logits=torch.zeros(2, 4))
print(c.sample((3,)).shape, c.log_prob(torch.tensor([[0], [3]])).shape, c.expand((5, 2)).batch_shape)
print(Bernoulli(0.3).sample((2, 2)).shape, Normal(0.0, 1.0).batch_shape, Normal(0.0, 1.0).expand([3]).batch_shape)
try:
    Normal(torch.tensor([0.0]), torch.tensor([-1.0]))
except ValueError as e:
    print("ValueError", str(e)[:60])
print(Normal(0.0, 1.0, validate_args=False).log_prob(torch.tensor(0.0)))
