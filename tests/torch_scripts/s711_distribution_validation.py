import torch
import torch.distributions as D


def attempt(label, fn):
    try:
        r = fn()
        print(label, "ok", r)
    except Exception as e:
        print(label, type(e).__name__, str(e).splitlines()[0][:75])


attempt("normal scale 0", lambda: D.Normal(0.0, 0.0))
attempt("normal scale neg", lambda: D.Normal(torch.tensor([0.0]), torch.tensor([-1.0])))
attempt("normal no check", lambda: D.Normal(0.0, -1.0, validate_args=False).scale)
attempt("bernoulli probs", lambda: D.Bernoulli(probs=torch.tensor(1.5)))
attempt("both args", lambda: D.Bernoulli(probs=0.5, logits=0.0))
attempt("neither", lambda: D.Categorical())
attempt("categorical unnormalized", lambda: D.Categorical(probs=torch.tensor([1.0, 3.0])).probs)
attempt("log_prob outside", lambda: D.Uniform(0.0, 1.0).log_prob(torch.tensor(2.0)))
attempt("log_prob outside nocheck", lambda: D.Uniform(0.0, 1.0, validate_args=False).log_prob(torch.tensor(2.0)))
attempt("poisson negative value", lambda: D.Poisson(torch.tensor(2.0)).log_prob(torch.tensor(-1.0)))
try:
    D.Beta(torch.tensor(0.0), torch.tensor(1.0))
except ValueError:
    print("beta ValueError")
attempt("dirichlet log_prob", lambda: D.Dirichlet(torch.ones(3)).log_prob(torch.tensor([0.5, 0.5, 0.5])))
attempt("mvn not pd", lambda: D.MultivariateNormal(torch.zeros(2), torch.tensor([[1.0, 2.0], [2.0, 1.0]])))
attempt("categorical value", lambda: D.Categorical(logits=torch.zeros(3)).log_prob(torch.tensor(3)))
b = D.Bernoulli(logits=torch.tensor([0.0, 2.0]))
print(b.probs.round(decimals=6), b.entropy().round(decimals=6), b.log_prob(torch.tensor([1.0, 0.0])).round(decimals=6))
print(b.enumerate_support(), D.Categorical(logits=torch.zeros(2, 3)).enumerate_support(expand=False).shape)
print(D.Normal(1.0, 2.0).icdf(torch.tensor([0.1, 0.5])).round(decimals=6), D.Exponential(2.0).icdf(torch.tensor(0.5)).round(decimals=6))
print(D.Normal(torch.zeros(2), 1.0).expand((3, 2)).batch_shape, D.Normal(0.0, 1.0).support, D.Categorical(torch.ones(3)).support)
oh = D.OneHotCategorical(probs=torch.tensor([0.2, 0.8]))
print(oh.log_prob(torch.tensor([0.0, 1.0])).round(decimals=6), oh.enumerate_support(), oh.mean)
rb = D.RelaxedBernoulli(torch.tensor(0.5), probs=torch.tensor(0.3))
print(rb.log_prob(torch.tensor(0.4)).round(decimals=5))
