"""``torch.distributions``: parameterised distributions with sample, rsample
(reparameterised, gradients to the parameters), log_prob, entropy, moments and KL
divergences, written in tapegrad ops."""
import sys
import types

from . import bijections, constraint_registry, constraints, transforms
from .bijections import (
                   CatTransform,
                   CorrCholeskyTransform,
                   CumulativeDistributionTransform,
                   IndependentTransform,
                   LowerCholeskyTransform,
                   PositiveDefiniteTransform,
                   ReshapeTransform,
                   SoftmaxTransform,
                   StackTransform,
                   StickBreakingTransform,
                   identity_transform,
)
from .constraint_registry import biject_to, transform_to
from .counts import Multinomial, NegativeBinomial, Pareto, Weibull
from .continuous import Beta, Dirichlet, Exponential, Gamma, Laplace, LogNormal, Normal, Uniform
from .discrete import Bernoulli, Categorical, OneHotCategorical, _clamped
from .distribution import Distribution, broadcast_all, lazy_property
from .families import ContinuousBernoulli, Wishart
from .kl import kl_divergence, register_kl
from . import kl_more  # noqa: F401,E402 (registers the remaining pairs)
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
from . import relaxed as _relaxed
from .relaxed import (
                   ExponentialFamily,
                   OneHotCategoricalStraightThrough,
                   RelaxedBernoulli,
                   RelaxedOneHotCategorical,
)
from .shaped import (
                   FisherSnedecor,
                   GeneralizedPareto,
                   InverseGamma,
                   Kumaraswamy,
                   LKJCholesky,
                   LogisticNormal,
                   LowRankMultivariateNormal,
                   VonMises,
)
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
           "TransformedDistribution", "Multinomial", "NegativeBinomial", "Pareto", "Weibull",
           "CatTransform", "CorrCholeskyTransform", "CumulativeDistributionTransform",
           "IndependentTransform", "LowerCholeskyTransform", "PositiveDefiniteTransform",
           "ReshapeTransform", "SoftmaxTransform", "StackTransform", "StickBreakingTransform",
           "identity_transform", "biject_to", "transform_to", "constraint_registry",
           "ExponentialFamily", "OneHotCategoricalStraightThrough", "RelaxedBernoulli",
           "RelaxedOneHotCategorical", "FisherSnedecor", "GeneralizedPareto", "InverseGamma",
           "Kumaraswamy", "LKJCholesky", "LogisticNormal", "LowRankMultivariateNormal",
           "VonMises", "ContinuousBernoulli", "Wishart"]

# PyTorch's one-module-per-distribution names (``torch.distributions.normal.Normal``), as
# modules holding the class, so code that spells the full path runs
_SUBMODULES = {
    "bernoulli": "Bernoulli", "beta": "Beta", "binomial": "Binomial", "categorical": "Categorical",
    "cauchy": "Cauchy", "chi2": "Chi2", "dirichlet": "Dirichlet", "distribution": "Distribution",
    "exponential": "Exponential", "gamma": "Gamma", "geometric": "Geometric", "gumbel": "Gumbel",
    "half_cauchy": "HalfCauchy", "half_normal": "HalfNormal", "independent": "Independent",
    "laplace": "Laplace", "log_normal": "LogNormal", "mixture_same_family": "MixtureSameFamily",
    "multinomial": "Multinomial", "multivariate_normal": "MultivariateNormal",
    "negative_binomial": "NegativeBinomial", "normal": "Normal",
    "one_hot_categorical": "OneHotCategorical", "pareto": "Pareto", "poisson": "Poisson",
    "studentT": "StudentT", "transformed_distribution": "TransformedDistribution",
    "uniform": "Uniform", "weibull": "Weibull", "exp_family": "ExponentialFamily",
    "fishersnedecor": "FisherSnedecor", "generalized_pareto": "GeneralizedPareto",
    "inverse_gamma": "InverseGamma", "kumaraswamy": "Kumaraswamy",
    "lkj_cholesky": "LKJCholesky", "logistic_normal": "LogisticNormal",
    "lowrank_multivariate_normal": "LowRankMultivariateNormal",
    "relaxed_bernoulli": "RelaxedBernoulli", "relaxed_categorical": "RelaxedOneHotCategorical",
    "von_mises": "VonMises", "continuous_bernoulli": "ContinuousBernoulli",
    "wishart": "Wishart"}
utils = types.ModuleType(f"{__name__}.utils", "PyTorch's distributions.utils.")


def _probs_to_logits(probs, is_binary=False):
    p = _clamped(probs)
    return p.log() - (-p).log1p() if is_binary else p.log()


def _logits_to_probs(logits, is_binary=False):
    return logits.sigmoid() if is_binary else logits.softmax(-1)


utils.probs_to_logits, utils.logits_to_probs = _probs_to_logits, _logits_to_probs
utils.clamp_probs, utils.broadcast_all = _clamped, broadcast_all
# (custom distributions' helpers: a lazily derived parameter, the tril packing of
# LKJCholesky and LowerCholeskyTransform)
utils.lazy_property, utils.euler_constant = lazy_property, 0.57721566490153286060
utils.vec_to_tril_matrix = bijections.vec_to_tril_matrix
utils.tril_matrix_to_vec = bijections.tril_matrix_to_vec
sys.modules[utils.__name__] = utils

# the transforms module answers for all of PyTorch's transforms, wherever they are written
for _name in bijections.__all__:
    setattr(transforms, _name, getattr(bijections, _name))

for _name, _cls in _SUBMODULES.items():
    _mod = types.ModuleType(f"{__name__}.{_name}", f"PyTorch's module of {_cls}.")
    _mod.__dict__[_cls] = globals()[_cls]
    _mod.__all__ = [_cls]
    sys.modules[_mod.__name__] = globals()[_name] = _mod
# (the relaxed modules hold their logit-space bases too, as PyTorch's do)
relaxed_bernoulli.LogitRelaxedBernoulli = _relaxed.LogitRelaxedBernoulli
relaxed_categorical.ExpRelaxedCategorical = _relaxed.ExpRelaxedCategorical
