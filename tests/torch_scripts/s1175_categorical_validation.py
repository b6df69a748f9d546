# Distribution argument validation messages and support errors for log_prob, Categorical with zero probs entropy
import torch
from torch.distributions import Categorical, Normal, Bernoulli, Beta

c = Categorical(probs=torch.tensor([0.5, 0.5, 0.0]))
print(c.entropy(), c.log_prob(torch.tensor(2)), c.probs, c.logits)
try:
    c.log_prob(torch.tensor(3))
except ValueError as e:
    print("ValueError:", str(e)[:100])
try:
    Normal(0.0, 1.0).log_prob(torch.tensor([1, 2]))
except Exception as e:
    print(type(e).__name__)
try:
    Bernoulli(probs=torch.tensor(1.5))
except ValueError as e:
    print("ValueError:", str(e)[:90])
try:
    Beta(1.0, 1.0).log_prob(torch.tensor(1.5))
except ValueError as e:
    print("ValueError:", str(e)[:70])
try:
    Categorical(probs=torch.tensor([0.2, 0.3]), logits=torch.tensor([0.0, 1.0]))
except ValueError as e:
    print("ValueError:", e)
print(Categorical(logits=torch.tensor([0.0, float("-inf")])).probs, Categorical(probs=torch.tensor([2.0, 6.0])).probs)
