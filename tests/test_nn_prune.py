"""nn.utils.prune against PyTorch: the masks of l1_unstructured, ln_structured,
global_unstructured, custom_from_mask and iterative pruning (PruningContainer), the
reparametrization (weight_orig, weight_mask, the forward pre-hook, gradients), remove and
is_pruned, the random methods' counts, and PyTorch's errors."""
import importlib

import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


@pytest.fixture(autouse=True)
def _torch_prune(torch):
    importlib.import_module("torch.nn.utils.prune")  # (torch does not import it itself)


def _pair(torch, layer, *args):
    tm = getattr(torch.nn, layer)(*args).double()
    m = getattr(tg.nn, layer)(*args)
    m.load_state_dict({k: tg.tensor(v.detach().numpy()) for k, v in tm.state_dict().items()})
    return m, tm


def _same_masks(m, tm, *names):
    for name in names:
        np.testing.assert_array_equal(np.asarray(getattr(m, name + "_mask")),
                                      getattr(tm, name + "_mask").numpy())


def test_iterative_pruning_matches_torch(torch):
    P, tP = tg.nn.utils.prune, torch.nn.utils.prune
    m, tm = _pair(torch, "Linear", 4, 5)
    opt = tg.optim.SGD(m.parameters(), lr=0.1)
    for call in (lambda p, mod: p.l1_unstructured(mod, "weight", amount=0.3),
                 lambda p, mod: p.l1_unstructured(mod, "weight", amount=0.5),
                 lambda p, mod: p.ln_structured(mod, "weight", amount=1, n=2, dim=0)):
        call(P, m)
        call(tP, tm)
        _same_masks(m, tm, "weight")
    assert list(m.state_dict()) == list(tm.state_dict())
    assert type(next(iter(m._forward_pre_hooks.values()))).__name__ == "PruningContainer"
    x = np.random.default_rng(0).standard_normal((3, 4))
    y, ty = m(tg.tensor(x)), tm(torch.tensor(x))
    y.sum().backward()
    ty.sum().backward()
    np.testing.assert_allclose(np.asarray(y.detach()), ty.detach().numpy(), atol=1e-14)
    np.testing.assert_allclose(np.asarray(m.weight_orig.grad), tm.weight_orig.grad.numpy())
    opt.step()  # the optimizer made before pruning holds weight_orig
    assert P.is_pruned(tg.nn.Sequential(m))
    P.remove(m, "weight")
    tP.remove(tm, "weight")
    assert list(m.state_dict()) == list(tm.state_dict()) and not P.is_pruned(m)
    assert np.all(np.asarray(m.weight.detach())[np.asarray(tm.weight.detach()) == 0] == 0)


def test_structured_global_and_custom_masks_match_torch(torch):
    P, tP = tg.nn.utils.prune, torch.nn.utils.prune
    (a, ta), (b, tb) = _pair(torch, "Conv2d", 3, 6, 3), _pair(torch, "Linear", 5, 4)
    for p, conv, lin in ((P, a, b), (tP, ta, tb)):
        p.ln_structured(conv, "weight", amount=0.5, n=1, dim=1)
        p.global_unstructured([(conv, "weight"), (lin, "weight"), (lin, "bias")],
                              pruning_method=p.L1Unstructured, amount=40)
        p.custom_from_mask(lin, "bias", mask=type(lin.bias)(np.array([1.0, 0.0, 1.0, 1.0]))
                           if p is P else torch.tensor([1.0, 0.0, 1.0, 1.0]))
    _same_masks(a, ta, "weight")
    _same_masks(b, tb, "weight", "bias")


def test_random_methods_prune_the_asked_counts():
    P = tg.nn.utils.prune
    m = tg.nn.Linear(4, 8)
    P.random_structured(m, "weight", amount=0.25, dim=0)
    assert (np.asarray(m.weight_mask).sum(1) == 0).sum() == 2
    P.random_unstructured(m, "weight", amount=5)
    assert (np.asarray(m.weight_mask) == 0).sum() == 2 * 4 + 5
    P.identity(m, "bias")
    assert np.asarray(m.bias_mask).all()


@pytest.mark.parametrize("call", [
    lambda p, L: p.l1_unstructured(L.nn.Linear(4, 5), "weight", amount=25),
    lambda p, L: p.l1_unstructured(L.nn.Linear(4, 5), "bias", amount=1.5),
    lambda p, L: p.l1_unstructured(L.nn.Linear(4, 5), "bias", amount="x"),
    lambda p, L: p.remove(L.nn.Linear(2, 2), "weight"),
])
def test_prune_errors_as_torch(torch, call):
    errors = []
    for p, L in ((tg.nn.utils.prune, tg), (torch.nn.utils.prune, torch)):
        with pytest.raises(Exception) as info:
            call(p, L)
        errors.append((info.type, str(info.value)))
    assert errors[0] == errors[1]


def test_bad_amount_leaves_the_module_as_it_was(torch):
    P = tg.nn.utils.prune
    m = tg.nn.Linear(4, 5)
    with pytest.raises(ValueError):
        P.l1_unstructured(m, "weight", amount=25)
    assert list(m.state_dict()) == ["weight", "bias"] and not P.is_pruned(m)
    P.l1_unstructured(m, "weight", amount=0.3)
    hooks, mask = dict(m._forward_pre_hooks), np.asarray(m.weight_mask).copy()
    with pytest.raises(ValueError, match="prune=14"):
        P.l1_unstructured(m, "weight", amount=25)
    assert dict(m._forward_pre_hooks) == hooks
    np.testing.assert_array_equal(np.asarray(m.weight_mask), mask)
