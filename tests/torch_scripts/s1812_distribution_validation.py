# distributions: argument validation messages, support checks, validate_args=False, params
import torch
import torch.distributions as D


def show(f):
    try:
        print(f())
    except (ValueError, RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, "|", str(e).split("\n")[0][:88])  # (tapegrad adds context)


show(lambda: D.Normal(0.0, -1.0))
show(lambda: D.Bernoulli(probs=1.5))
show(lambda: D.Categorical(probs=torch.tensor([0.5, -0.5])))
show(lambda: D.Beta(torch.tensor([1.0]), torch.tensor([0.0])))
show(lambda: D.Normal(0.0, 1.0).log_prob(torch.tensor(float("nan"))))
show(lambda: D.Exponential(1.0).log_prob(torch.tensor(-1.0)))
show(lambda: D.Exponential(1.0, validate_args=False).log_prob(torch.tensor(-1.0)))
show(lambda: D.Bernoulli(0.3).log_prob(torch.tensor(0.5)))
show(lambda: D.Bernoulli(probs=0.3, logits=0.1))
show(lambda: D.Categorical())
show(lambda: D.MultivariateNormal(torch.zeros(2), torch.tensor([[1.0, 2.0], [2.0, 1.0]])))
show(lambda: D.Uniform(1.0, 0.0))
show(lambda: D.Poisson(-1.0))
show(lambda: D.Normal(torch.zeros(2), torch.ones(3)))
show(lambda: D.Normal(0.0, 1.0).arg_constraints)
show(lambda: D.Gamma(1.0, 1.0).support)
show(lambda: D.Categorical(torch.tensor([0.2, 0.8])).support)
show(lambda: D.Dirichlet(torch.tensor([1.0, 1.0])).support)
show(lambda: D.Binomial(5, 0.5).support)
show(lambda: D.Uniform(0.0, 2.0).support)
show(lambda: D.Normal(0.0, 1.0).cdf(torch.tensor([0.0, 1.0])))
show(lambda: D.Normal(0.0, 1.0).icdf(torch.tensor([0.5, 0.975])))
show(lambda: D.Categorical(logits=torch.tensor([0.0, 0.0])).probs)
show(lambda: D.Bernoulli(logits=torch.tensor(0.0)).probs)
show(lambda: D.Poisson(2.0).cdf(torch.tensor(1.0)))
show(lambda: D.Normal(0.0, 1.0).expand([2, 3]).batch_shape)
show(lambda: D.Normal(torch.zeros(3), 1.0).expand([2, 3]).loc)
show(lambda: D.Independent(D.Normal(torch.zeros(2, 3), 1.0), 1))
show(lambda: D.Normal(torch.zeros(2), 1.0))
show(lambda: D.Categorical(torch.tensor([[0.5, 0.5]])))
show(lambda: D.Normal(1.0, 2.0).mean + D.Normal(1.0, 2.0).variance + D.Normal(1.0, 2.0).stddev)
show(lambda: D.Gamma(2.0, 3.0).mode)
show(lambda: D.Beta(2.0, 2.0).entropy())
show(lambda: D.Normal(0.0, 1.0).perplexity())
