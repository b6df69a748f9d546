"""The gaps found by the second round of outsiders' scripts (tests/torch_scripts/s40_*
and up, run by tests/test_torch_scripts13.py), each checked against PyTorch."""
import numpy as np
import pytest

import tapegrad as tg

SIZE_KEYWORD = [lambda L: L.zeros(size=(2, 1)), lambda L: L.ones(size=[3]),
                lambda L: L.empty(size=(0, 2)), lambda L: L.zeros(size=(2,), dtype=L.int64),
                lambda L: L.ones(size=(), requires_grad=True),
                lambda L: L.empty(2, 3, memory_format=L.contiguous_format, pin_memory=False)]


@pytest.mark.parametrize("make", SIZE_KEYWORD)
def test_creation_takes_size_by_keyword(make, torch):
    ours, theirs = make(tg), make(torch)
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert ours.requires_grad == theirs.requires_grad
    assert str(ours.dtype).replace("64", "32") == str(theirs.dtype).replace("64", "32")


@pytest.mark.parametrize("call", [lambda L: L.zeros(2, foo=1), lambda L: L.ones(2, size=(3,)),
                                  lambda L: L.empty(1, size=(2,))])
def test_creation_refuses_a_second_size_or_an_unknown_keyword(call, raises_as_torch):
    raises_as_torch(call)


def _create_graph_grads(L):
    x = L.tensor([2.0, -1.0], dtype=L.float64, requires_grad=True)
    w = L.tensor([0.5, 3.0], dtype=L.float64, requires_grad=True)
    got = []
    for _ in range(2):  # the first is copied into .grad, the second added to it
        (x ** 3 * w).sum().backward(create_graph=True)
        got.append((type(x.grad.grad_fn).__name__, x.grad.tolist()))
    first = x.grad
    (x.grad * x).sum().backward()  # (through both: d/dx sum(2 * 3x^2 w * x) = 18 x^2 w)
    got.append(w.grad.tolist())
    v = L.tensor([1.0], dtype=L.float64, requires_grad=True)
    (v * 2).sum().backward(create_graph=True)  # a constant gradient: nothing recorded
    got.append((v.grad.grad_fn, v.grad.requires_grad, first.requires_grad))
    return got


def test_backward_with_create_graph_copies_the_first_gradient_into_grad(torch):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # (the reference-cycle warning)
        ours, theirs = _create_graph_grads(tg), _create_graph_grads(torch)
    assert ours[:2] == theirs[:2] == [
        ("CopyBackwards", [6.0, 9.0]), ("AddBackward0", [12.0, 18.0])]
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-14)
    assert ours[3] == theirs[3]


def test_a_copied_gradient_owns_its_values():
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    (g,) = tg.autograd.grad(y, x, create_graph=True)
    copied = tg.ops.shape.named_result(g, "CopyBackwards", copy=True)
    copied.data.zero_()
    assert g.tolist() == [2.0, 4.0] and copied.grad_fn.next_functions[0][0] is g.grad_fn


@pytest.mark.parametrize("name", ["hann_window", "hamming_window", "blackman_window",
                                  "bartlett_window"])
@pytest.mark.parametrize("periodic", [True, False])
def test_windows_are_pytorchs_to_the_bit(name, periodic, torch):
    """PyTorch's formulas in its order (blackman's ends were -1.4e-17 and printed as -0.;
    bartlett's halves rounded apart)."""
    for n in range(12):
        ours = getattr(tg, name)(n, periodic=periodic, dtype=tg.float64).numpy()
        theirs = getattr(torch, name)(n, periodic=periodic, dtype=torch.float64).numpy()
        assert np.array_equal(ours, theirs) and np.array_equal(np.signbit(ours),
                                                               np.signbit(theirs)), n
    ours = tg.hamming_window(7, True, 0.6, 0.3, dtype=tg.float64)
    assert ours.tolist() == torch.hamming_window(7, True, 0.6, 0.3, dtype=torch.float64).tolist()


def _net(L):
    net = L.nn.Sequential(L.nn.Conv2d(1, 2, 3), L.nn.BatchNorm2d(2), L.nn.Flatten(),
                          L.nn.Linear(8, 3))
    net.heads = L.nn.ModuleDict({"cls": L.nn.Linear(3, 2), "reg": L.nn.Linear(3, 1)})
    return net


def test_module_stores_are_plain_dicts_as_pytorchs(torch):
    ours, theirs = _net(tg), _net(torch)
    for name in ("_modules", "_parameters", "_buffers"):
        assert type(getattr(ours, name)) is type(getattr(theirs, name)) is dict
    assert repr(ours.heads.keys()) == repr(theirs.heads.keys()) == "dict_keys(['cls', 'reg'])"
    assert type(ours.heads.values()).__name__ == type(theirs.heads.values()).__name__
    assert ours._get_name() == theirs._get_name() == "Sequential"


def test_get_name_names_the_module_in_its_repr(torch):
    for L in (tg, torch):
        class Renamed(L.nn.Module):
            def _get_name(self):
                return "Shown"
        m = Renamed()
        m.lin = L.nn.Linear(1, 1)
        assert repr(m).startswith("Shown(\n  (lin): Linear(") and repr(Renamed()) == "Shown()"


def _partial_loads(L):
    net = _net(L)
    got = []
    for drop_metadata in (True, False):
        sd = net.state_dict()
        partial = {k: v for k, v in sd.items() if k.startswith("3.")}
        if not drop_metadata:  # (an OrderedDict keeping the versions: nothing upgraded)
            partial = type(sd)(partial)
            partial._metadata = sd._metadata
        res = _net(L).load_state_dict(partial, strict=False)
        got.append((res.missing_keys, res.unexpected_keys))
    got.append(dict(net.state_dict()._metadata))
    return got


def test_state_dict_versions_and_the_batch_norm_upgrade(torch):
    """A state_dict without _metadata is a version-1 one: BatchNorm's num_batches_tracked
    is filled in (kept), never reported missing; with the versions it is."""
    ours, theirs = _partial_loads(tg), _partial_loads(torch)
    assert ours == theirs
    assert "1.num_batches_tracked" not in ours[0][0] and "1.num_batches_tracked" in ours[1][0]
    assert ours[2]["1"] == {"version": 2} and ours[2][""] == {"version": 1}


def test_batch_norm_upgrade_keeps_the_count_and_leaves_the_callers_dict():
    bn = tg.nn.BatchNorm1d(2)
    bn(tg.ones(4, 2))
    sd = {k: v.clone() for k, v in bn.state_dict().items() if k != "num_batches_tracked"}
    assert not bn.load_state_dict(sd).missing_keys
    assert bn.num_batches_tracked.item() == 1 and "num_batches_tracked" not in sd


def test_inference_tensor_refuses_requires_grad_outside_inference_mode(raises_as_torch, torch):
    def made_inside(L):
        with L.inference_mode():
            return L.ones(2)
    raises_as_torch(lambda L: made_inside(L).requires_grad_())
    raises_as_torch(lambda L: setattr(made_inside(L), "requires_grad", True))
    for L in (tg, torch):
        with L.inference_mode():
            t = L.ones(2)
            assert t.requires_grad_().requires_grad  # (inside: allowed)
        assert not made_inside(L).requires_grad_(False).requires_grad
        assert L.ones(2).requires_grad_().requires_grad
