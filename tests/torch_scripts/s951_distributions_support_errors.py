# validate_args: log_prob outside the support, bad parameters; Distribution.set_default_validate_args
import torch
from torch.distributions import Normal, Bernoulli, Categorical, Uniform, Beta

def show(fn):
    try:
        print(fn())
    except ValueError as e:
        print("ValueError:", str(e).splitlines()[0][:100])

show(lambda: Normal(0.0, -1.0))
show(lambda: Bernoulli(probs=torch.tensor(1.5)))
show(lambda: Uniform(0.0, 1.0).log_prob(torch.tensor(2.0)))
show(lambda: Uniform(0.0, 1.0, validate_args=False).log_prob(torch.tensor(0.5)))
show(lambda: Beta(2.0, 2.0).log_prob(torch.tensor(1.5)))
show(lambda: Categorical(probs=torch.tensor([0.5, 0.5])).log_prob(torch.tensor(3)))
print(Normal(0.0, 1.0).support, Bernoulli(0.5).support, Uniform(0.0, 2.0).support)
print(Categorical(logits=torch.zeros(3)).support, Beta(1.0, 1.0).arg_constraints)
