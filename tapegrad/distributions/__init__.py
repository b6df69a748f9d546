"""``torch.distributions``: parameterised distributions with sample, rsample
(reparameterised, gradients to the parameters), log_prob, entropy, moments and KL
divergences, written in tapegrad ops."""
from . import constraints, transforms
from .counts import Multinomial, NegativeBinomial, Pareto, Weibull
from .continuous import Beta, Dirichlet, Exponential, Gamma, Laplace, LogNormal, Normal, Uniform
from .discrete import Bernoulli, Categorical, OneHotCategorical
from .distribution import Distribution
from .kl import kl_divergence, register_kl
from .more import (
                   Binomial,
                   Cauchy,
                   Chi2,
                   Geometric,
                   Gumbel,
                   HalfCauchy,
                   HalfNormal,
                   MixtureSameFamily,
                   Poisson,
                   StudentT,
)
from .multivariate import Independent, MultivariateNormal
from .transforms import (
                   AbsTransform,
                   AffineTransform,
                   ComposeTransform,
                   ExpTransform,
                   PowerTransform,
                   SigmoidTransform,
                   SoftplusTransform,
                   TanhTransform,
                   Transform,
                   TransformedDistribution,
)

__all__ = ["Bernoulli", "Beta", "Binomial", "Categorical", "Cauchy", "Chi2", "Dirichlet",
           "Distribution", "Exponential", "Gamma", "Geometric", "Gumbel", "HalfCauchy",
           "HalfNormal", "Independent", "Laplace", "LogNormal", "MixtureSameFamily",
           "MultivariateNormal", "Normal", "OneHotCategorical", "Poisson", "StudentT", "Uniform",
           "constraints", "kl_divergence", "register_kl", "transforms", "AbsTransform",
           "AffineTransform", "ComposeTransform", "ExpTransform", "PowerTransform",
           "SigmoidTransform", "SoftplusTransform", "TanhTransform", "Transform",
           "TransformedDistribution", "Multinomial", "NegativeBinomial", "Pareto", "Weibull"]
