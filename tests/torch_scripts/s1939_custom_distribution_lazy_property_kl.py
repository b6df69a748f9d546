# A custom distribution as a probabilistic-programming blog defines one: a Distribution
# subclass with arg_constraints, support, has_rsample, a lazy_property-derived parameter,
# log_prob/cdf/entropy/mean, register_kl against Normal, validate_args errors, expand,
# and fitting its parameters by maximum likelihood
import math
import torch
from torch.distributions import Distribution, Normal, constraints, kl_divergence, register_kl
from torch.distributions.utils import broadcast_all, euler_constant, lazy_property


class Gumbel2(Distribution):
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        super().__init__(self.loc.shape, validate_args=validate_args)

    @lazy_property
    def log_scale(self):
        return self.scale.log()

    @property
    def mean(self):
        return self.loc + self.scale * euler_constant

    @property
    def variance(self):
        return (math.pi ** 2 / 6) * self.scale.pow(2)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) / self.scale
        return -(z + torch.exp(-z)) - self.log_scale

    def cdf(self, value):
        return torch.exp(-torch.exp(-(value - self.loc) / self.scale))

    def entropy(self):
        return self.log_scale + 1 + euler_constant

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        u = torch.linspace(0.05, 0.95, int(torch.Size(shape).numel())).view(shape)
        return self.loc - self.scale * torch.log(-torch.log(u))

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Gumbel2, _instance)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        super(Gumbel2, new).__init__(torch.Size(batch_shape), validate_args=False)
        return new


@register_kl(Gumbel2, Normal)
def _kl_gumbel_normal(p, q):
    return (-p.entropy() + q.scale.log() + 0.5 * math.log(2 * math.pi)
            + (p.variance + (p.mean - q.loc).pow(2)) / (2 * q.scale.pow(2)))


d = Gumbel2(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]), validate_args=True)
print(d.batch_shape, d.event_shape, "log_scale" in d.__dict__)
print(d.log_prob(torch.tensor([0.5, 0.5])), "log_scale" in d.__dict__)
print(d.cdf(torch.tensor([0.0, 3.0])), d.entropy(), d.mean, d.stddev)
print(kl_divergence(d, Normal(0.0, 1.0)))
print(d.rsample((3,)).shape, d.expand((4, 2)).batch_shape, d.expand((4, 2)).loc.shape)
for bad in (lambda: Gumbel2(torch.tensor([0.0]), torch.tensor([-1.0]), validate_args=True),
            lambda: d.log_prob(torch.tensor([float("nan"), 0.0]))):
    try:
        bad()
    except ValueError as e:
        print("ValueError", str(e).split("\n")[0][:80])
data = torch.tensor([0.3, 1.2, -0.4, 2.5, 0.9, 1.7, 0.1, 3.1])
loc = torch.tensor(0.0, requires_grad=True)
log_s = torch.tensor(0.0, requires_grad=True)
opt = torch.optim.Adam([loc, log_s], lr=0.1)
for step in range(5):
    nll = -Gumbel2(loc, log_s.exp()).log_prob(data).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    print(step, f"{nll.item():.6f}")
print(Gumbel2(loc, log_s.exp()))
