"""Binomial, Geometric, NegativeBinomial and ContinuousBernoulli keep only the parameter
given (probs or logits) and derive the other when first read, as PyTorch's lazy_property:
their printouts show what has been made so far, and values and gradients are unchanged."""
import numpy as np
import pytest

import tapegrad as tg

MAKE = {"Binomial": lambda D, p, lg: D.Binomial(5, **{lg: p}),
        "Geometric": lambda D, p, lg: D.Geometric(**{lg: p}),
        "NegativeBinomial": lambda D, p, lg: D.NegativeBinomial(3, **{lg: p}),
        "ContinuousBernoulli": lambda D, p, lg: D.ContinuousBernoulli(**{lg: p})}
P = np.array([0.2, 0.35, 0.7])


def _run(L, name, given, read):
    p = L.tensor(P if given == "probs" else np.log(P / (1 - P)), requires_grad=True)
    d = MAKE[name](L.distributions, p, given)
    shown = [str(d)]
    for attr in read:
        getattr(d, attr)
        shown.append(str(d))
    e = d.expand((2, 3))
    shown.append(str(e))
    x = L.tensor([1.0, 2.0, 0.0]) if name != "ContinuousBernoulli" else L.tensor([0.1, 0.5, 0.9])
    lp = d.log_prob(x).sum() + e.mean.sum()
    (g,) = L.autograd.grad(lp, p)
    return shown, lp.item(), g.numpy()


@pytest.mark.parametrize("name", MAKE)
@pytest.mark.parametrize("given", ["probs", "logits"])
@pytest.mark.parametrize("read", [(), ("logits",), ("probs",), ("logits", "probs")])
def test_printouts_values_and_grads_as_pytorch(name, given, read, torch_float64):
    ours, theirs = _run(tg, name, given, read), _run(torch_float64, name, given, read)
    assert ours[0] == theirs[0]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-13)
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-12)


@pytest.mark.parametrize("name", ["Binomial", "Geometric", "NegativeBinomial"])
def test_derived_parameter_made_under_no_grad_still_has_a_graph(name, torch_float64):
    """A distribution made under no_grad derives its other parameter when read (with grad
    on, as PyTorch's lazy_property): it leads back to the given one.  (ContinuousBernoulli
    clamps the given probs when made: under no_grad that copy has no graph, in both.)"""
    for L in (tg, torch_float64):
        p = L.tensor(P, requires_grad=True)
        with L.no_grad():
            d = MAKE[name](L.distributions, p, "probs")
        assert d.logits.requires_grad
        (g,) = L.autograd.grad(d.logits.sum(), p)
        np.testing.assert_allclose(g.numpy(), 1 / (P * (1 - P)), rtol=1e-12)


@pytest.mark.parametrize("name", ["Binomial", "Geometric", "NegativeBinomial"])
def test_invalid_given_parameter_is_refused_as_pytorch(name, raises_as_torch, torch_float64):
    raises_as_torch(lambda L: MAKE[name](L.distributions, L.tensor([0.5, 1.5]), "probs"),
                    torch_float64)
