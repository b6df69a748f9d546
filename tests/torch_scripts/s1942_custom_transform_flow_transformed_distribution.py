# A normalizing flow assembled of torch.distributions pieces as a Pyro-style blog does:
# a custom Transform subclass (a SinhArcsinh bijection with learnable
# parameters) with domain/codomain, bijective, sign, _call/_inverse/log_abs_det_jacobian,
# composed with AffineTransform inside TransformedDistribution, fitted by max likelihood
import torch
from torch.distributions import Normal, TransformedDistribution, constraints
from torch.distributions.transforms import AffineTransform, ComposeTransform, Transform


class SinhArcsinh(Transform):
    domain = constraints.real
    codomain = constraints.real
    bijective = True
    sign = +1

    def __init__(self, skew, log_tail, cache_size=0):
        super().__init__(cache_size=cache_size)
        self.skew, self.log_tail = skew, log_tail

    def __eq__(self, other):
        return isinstance(other, SinhArcsinh) and self.skew is other.skew

    def _call(self, x):
        return torch.sinh((torch.asinh(x) + self.skew) * self.log_tail.exp())

    def _inverse(self, y):
        return torch.sinh(torch.asinh(y) * torch.exp(-self.log_tail) - self.skew)

    def log_abs_det_jacobian(self, x, y):
        d = self.log_tail.exp()
        inner = (torch.asinh(x) + self.skew) * d
        return torch.log(d * torch.cosh(inner)) - 0.5 * torch.log1p(x * x)


skew = torch.tensor(0.1, requires_grad=True)
log_tail = torch.tensor(0.0, requires_grad=True)
loc = torch.tensor(0.0, requires_grad=True)
log_scale = torch.tensor(0.0, requires_grad=True)
data = torch.tensor([0.2, 1.5, -0.3, 2.8, 0.9, 4.0, 0.4, 1.1])


def dist():
    t = ComposeTransform([SinhArcsinh(skew, log_tail), AffineTransform(loc, log_scale.exp())])
    return TransformedDistribution(Normal(0.0, 1.0), t)


opt = torch.optim.Adam([skew, log_tail, loc, log_scale], lr=0.05)
for step in range(5):
    nll = -dist().log_prob(data).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    print(step, f"{nll.item():.6f}", f"{skew.grad.item():+.6f}")
d = dist()
t = SinhArcsinh(skew, log_tail)
x = torch.linspace(-2, 2, 5)
print(torch.allclose(t.inv(t(x)), x), t.inv.inv is t, t.sign, t.bijective)
print(d.cdf(torch.tensor([0.0, 1.0])).detach() if False else d.support, d.batch_shape, d.event_shape)
print(d.log_prob(torch.tensor([0.5, 1.0])).detach().numpy().round(6))
print(d.rsample((4,)).shape, isinstance(d.transforms[0], ComposeTransform) or len(d.transforms))
j = torch.autograd.functional.jacobian(lambda v: t(v), x).diagonal()
print(torch.allclose(j.log(), t.log_abs_det_jacobian(x, t(x))))
print(repr(t), t.event_dim, t.domain, t.codomain)
