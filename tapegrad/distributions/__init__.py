"""``torch.distributions``: parameterised distributions with sample, rsample
(reparameterised, gradients to the parameters), log_prob, entropy, moments and KL
divergences, written in tapegrad ops."""
from . import constraints
from .continuous import Beta, Dirichlet, Exponential, Gamma, Laplace, LogNormal, Normal, Uniform
from .discrete import Bernoulli, Categorical, OneHotCategorical
from .distribution import Distribution
from .kl import kl_divergence, register_kl
from .multivariate import Independent, MultivariateNormal

__all__ = ["Bernoulli", "Beta", "Categorical", "Dirichlet", "Distribution", "Exponential",
           "Gamma", "Independent", "Laplace", "LogNormal", "MultivariateNormal", "Normal",
           "OneHotCategorical", "Uniform", "constraints", "kl_divergence", "register_kl"]
