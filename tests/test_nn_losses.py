"""The loss functions and modules added beside cross_entropy (kl_div, the margin and
embedding losses, the Poisson and Gaussian NLLs, multi-label and multi-class margins) and
the loss modules (NLLLoss, BCELoss, KLDivLoss, SmoothL1Loss, HuberLoss, ...) against
PyTorch in float64: values and the gradients of every differentiable input, each reduction,
reprs, weight buffers in state_dict, and PyTorch's errors."""
import warnings

import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle

N, C = 4, 5
LABELS = np.array([1, 0, 4, 2])
SIGNS = np.array([1.0, -1.0, -1.0, 1.0])


def _inputs(rng):
    probs = rng.uniform(0.05, 0.95, (N, C))
    return {
        "x": rng.standard_normal((N, C)), "y": rng.standard_normal((N, C)),
        "z": rng.standard_normal((N, C)), "p": probs, "t": rng.uniform(0, 1, (N, C)),
        "counts": rng.integers(0, 5, (N, C)).astype(float), "v": rng.uniform(0.1, 2, (N, C)),
        "pm": np.where(rng.standard_normal((N, C)) > 0, 1.0, -1.0), "x1": rng.standard_normal(N),
        "x2": rng.standard_normal(N),
    }


CASES = {  # name: (call(F, L, d) with d the tensors by name, differentiable names)
    "kl_div_batchmean": (lambda F, L, d: F.kl_div(d["x"].log_softmax(1), d["t"].softmax(1),
                                                  reduction="batchmean"), ["x", "t"]),
    "kl_div_log_target_sum": (lambda F, L, d: F.kl_div(d["x"], d["y"], reduction="sum",
                                                       log_target=True), ["x", "y"]),
    "kl_div_zero_target_none": (lambda F, L, d: F.kl_div(d["x"], d["t"] * (d["t"] > 0.5),
                                                         reduction="none"), ["x"]),
    "soft_margin": (lambda F, L, d: F.soft_margin_loss(d["x"], d["pm"]), ["x"]),
    "margin_ranking": (lambda F, L, d: F.margin_ranking_loss(d["x1"], d["x2"],
                                                             L.tensor(SIGNS), 0.3), ["x1", "x2"]),
    "hinge_embedding": (lambda F, L, d: F.hinge_embedding_loss(d["x"], d["pm"], 0.5,
                                                               reduction="sum"), ["x"]),
    "cosine_embedding": (lambda F, L, d: F.cosine_embedding_loss(d["x"], d["y"],
                                                                 L.tensor(SIGNS), 0.1),
                         ["x", "y"]),
    "triplet_margin": (lambda F, L, d: F.triplet_margin_loss(d["x"], d["y"], d["z"]),
                       ["x", "y", "z"]),
    "triplet_margin_swap_p1": (lambda F, L, d: F.triplet_margin_loss(
        d["x"], d["y"], d["z"], margin=2.0, p=1, swap=True, reduction="none"), ["x", "y", "z"]),
    "triplet_with_distance": (lambda F, L, d: F.triplet_margin_with_distance_loss(
        d["x"], d["y"], d["z"], distance_function=lambda a, b: 1.0 - F.cosine_similarity(a, b),
        margin=0.5), ["x", "y", "z"]),
    "poisson_nll": (lambda F, L, d: F.poisson_nll_loss(d["x"], d["counts"]), ["x"]),
    "poisson_nll_full_no_log": (lambda F, L, d: F.poisson_nll_loss(
        d["v"], d["counts"], log_input=False, full=True, reduction="sum"), ["v"]),
    "gaussian_nll": (lambda F, L, d: F.gaussian_nll_loss(d["x"], d["y"], d["v"]),
                     ["x", "y", "v"]),
    "gaussian_nll_per_sample_var_full": (lambda F, L, d: F.gaussian_nll_loss(
        d["x"], d["y"], d["v"][:, :1], full=True, reduction="sum"), ["x", "y", "v"]),
    "multilabel_soft_margin": (lambda F, L, d: F.multilabel_soft_margin_loss(
        d["x"], (d["t"] > 0.5).double()), ["x"]),
    "multi_margin": (lambda F, L, d: F.multi_margin_loss(d["x"], L.tensor(LABELS)), ["x"]),
    "multi_margin_p2_weight": (lambda F, L, d: F.multi_margin_loss(
        d["x"], L.tensor(LABELS), p=2, margin=0.5, weight=d["v"][0], reduction="none"),
        ["x"]),
    "nll": (lambda F, L, d: F.nll_loss(d["x"].log_softmax(1), L.tensor(LABELS)), ["x"]),
    "bce": (lambda F, L, d: F.binary_cross_entropy(d["p"], d["t"], reduction="sum"),
            ["p", "t"]),
    "smooth_l1": (lambda F, L, d: F.smooth_l1_loss(d["x"], d["y"], beta=0.5), ["x", "y"]),
    "huber": (lambda F, L, d: F.huber_loss(d["x"], d["y"], delta=0.7), ["x", "y"]),
}


def _run(L, fn, arrays, names):
    d = {k: L.tensor(v, requires_grad=k in names) for k, v in arrays.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y = fn(L.nn.functional, L, d)
    u = np.cos(np.arange(y.numel()) + 1.0).reshape(tuple(y.shape))
    grads = L.autograd.grad((y * L.tensor(u)).sum(), [d[k] for k in names])
    return [np.asarray(y.detach())] + [np.asarray(g) for g in grads]


@pytest.mark.parametrize("name", list(CASES))
def test_loss_matches_torch(name, rng, torch):
    fn, names = CASES[name]
    arrays = _inputs(rng)
    for a, b in zip(_run(tg, fn, arrays, names), _run(torch, fn, arrays, names), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


MODULES = {  # name: (build(nn, L), call(loss, d, L))
    "NLLLoss": (lambda nn, L: nn.NLLLoss(), lambda m, d, L: m(d["x"], L.tensor(LABELS))),
    "NLLLoss_weight_ignore": (
        lambda nn, L: nn.NLLLoss(weight=L.tensor(np.arange(1.0, 6.0)), ignore_index=0),
        lambda m, d, L: m(d["x"], L.tensor(LABELS))),
    "NLLLoss2d": (lambda nn, L: nn.NLLLoss2d(), lambda m, d, L: m(d["x"], L.tensor(LABELS))),
    "BCELoss": (lambda nn, L: nn.BCELoss(), lambda m, d, L: m(d["p"], d["t"])),
    "BCELoss_weight_sum": (lambda nn, L: nn.BCELoss(L.tensor(np.linspace(0.5, 2, C)),
                                                    reduction="sum"),
                           lambda m, d, L: m(d["p"], d["t"])),
    "KLDivLoss": (lambda nn, L: nn.KLDivLoss(reduction="batchmean", log_target=True),
                  lambda m, d, L: m(d["x"], d["y"])),
    "SmoothL1Loss": (lambda nn, L: nn.SmoothL1Loss(beta=0.5), lambda m, d, L: m(d["x"], d["y"])),
    "HuberLoss": (lambda nn, L: nn.HuberLoss(reduction="sum", delta=0.5),
                  lambda m, d, L: m(d["x"], d["y"])),
    "SoftMarginLoss": (lambda nn, L: nn.SoftMarginLoss(), lambda m, d, L: m(d["x"], d["pm"])),
    "MarginRankingLoss": (lambda nn, L: nn.MarginRankingLoss(0.2),
                          lambda m, d, L: m(d["x1"], d["x2"], L.tensor(SIGNS))),
    "CosineEmbeddingLoss": (lambda nn, L: nn.CosineEmbeddingLoss(),
                            lambda m, d, L: m(d["x"], d["y"], L.tensor(SIGNS))),
    "HingeEmbeddingLoss": (lambda nn, L: nn.HingeEmbeddingLoss(),
                           lambda m, d, L: m(d["x"], d["pm"])),
    "TripletMarginLoss": (lambda nn, L: nn.TripletMarginLoss(p=1.0),
                          lambda m, d, L: m(d["x"], d["y"], d["z"])),
    "TripletMarginWithDistanceLoss": (lambda nn, L: nn.TripletMarginWithDistanceLoss(),
                                      lambda m, d, L: m(d["x"], d["y"], d["z"])),
    "PoissonNLLLoss": (lambda nn, L: nn.PoissonNLLLoss(),
                       lambda m, d, L: m(d["x"], d["counts"])),
    "GaussianNLLLoss": (lambda nn, L: nn.GaussianNLLLoss(),
                        lambda m, d, L: m(d["x"], d["y"], d["v"])),
    "MultiLabelSoftMarginLoss": (lambda nn, L: nn.MultiLabelSoftMarginLoss(),
                                 lambda m, d, L: m(d["x"], (d["t"] > 0.5).double())),
    "MultiMarginLoss": (lambda nn, L: nn.MultiMarginLoss(),
                        lambda m, d, L: m(d["x"], L.tensor(LABELS))),
    "MSELoss_legacy_args": (lambda nn, L: nn.MSELoss(size_average=False),
                            lambda m, d, L: m(d["x"], d["y"])),
    "CrossEntropyLoss_weight": (lambda nn, L: nn.CrossEntropyLoss(L.tensor(np.ones(C))),
                                lambda m, d, L: m(d["x"], L.tensor(LABELS))),
    "BCEWithLogitsLoss_pos_weight": (
        lambda nn, L: nn.BCEWithLogitsLoss(pos_weight=L.tensor(np.full(C, 2.0))),
        lambda m, d, L: m(d["x"], d["t"])),
}


@pytest.mark.parametrize("name", list(MODULES))
def test_loss_module_matches_torch(name, rng, torch):
    build, call = MODULES[name]
    arrays = _inputs(rng)
    names = ["x", "y", "z", "p", "v", "x1", "x2"]
    out = []
    for L in (tg, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m = build(L.nn, L)
        d = {k: L.tensor(v, requires_grad=k in names) for k, v in arrays.items()}
        loss = call(m, d, L)
        grads = L.autograd.grad(loss, [d[k] for k in names], allow_unused=True)
        out.append((repr(m), list(m.state_dict()), loss.item(),
                    [None if g is None else np.asarray(g) for g in grads]))
    assert out[0][:2] == out[1][:2]
    np.testing.assert_allclose(out[0][2], out[1][2], rtol=1e-10)
    for a, b in zip(out[0][3], out[1][3], strict=True):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


ERRORS = {
    "kl_div_reduction": lambda F, L: F.kl_div(L.zeros(2), L.zeros(2), reduction="bad"),
    "gaussian_var_size": lambda F, L: F.gaussian_nll_loss(L.zeros(3, 4), L.zeros(3, 4),
                                                          L.ones(3, 2)),
    "gaussian_var_negative": lambda F, L: F.gaussian_nll_loss(L.zeros(3, 4), L.zeros(3, 4),
                                                              -L.ones(3, 4)),
    "multi_margin_p": lambda F, L: F.multi_margin_loss(L.zeros(3, 4), L.tensor([0, 1, 2]),
                                                       p=3),
    "margin_ranking_dims": lambda F, L: F.margin_ranking_loss(L.zeros(3, 4), L.zeros(3, 4),
                                                              L.ones(3)),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(name, raises_as_torch):
    raises_as_torch(lambda L: ERRORS[name](L.nn.functional, L), prefix=True)


def test_kl_div_mean_warns_as_torch():
    with pytest.warns(UserWarning, match="'batchmean' divides only by the batch size"):
        tg.nn.functional.kl_div(tg.zeros(2), tg.ones(2))
