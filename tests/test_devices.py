"""Device idioms of PyTorch code run unchanged on the CPU, and other devices fail as
PyTorch built without CUDA fails; clone, empty and empty_like as in PyTorch."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


def _outcome(fn):
    try:
        return ("ok", fn())
    except Exception as e:  # noqa: BLE001 (the type is what is compared)
        return (type(e).__name__, None)


@pytest.mark.parametrize("spec", ["cpu", "cpu:0", "cpu:1", "cuda", "cuda:1", "mps", "meta",
                                  "foo", "cuda:x", 0])
def test_device_names_as_pytorch(spec, torch):
    ours, theirs = _outcome(lambda: tg.device(spec)), _outcome(lambda: torch.device(spec))
    assert ours[0] == theirs[0]
    if ours[0] == "ok":
        assert (repr(ours[1]), str(ours[1]), ours[1].type, ours[1].index) == (
            repr(theirs[1]), str(theirs[1]), theirs[1].type, theirs[1].index)


def test_device_equality_and_hash_as_pytorch(torch):
    for L in (tg, torch):
        assert L.device("cpu") == L.device("cpu") and L.device("cpu") != L.device("cpu", 0)
        assert (L.device("cpu") == "cpu") is False  # a string is not a device
        assert len({L.device("cpu"), L.device("cpu")}) == 1
        assert L.device(L.device("cuda", 1)) == L.device("cuda:1")


@pytest.mark.parametrize("make", [
    lambda L, d: L.zeros(2, 3, device=d), lambda L, d: L.ones(2, device=d),
    lambda L, d: L.full((2,), 1.5, device=d), lambda L, d: L.arange(3, device=d),
    lambda L, d: L.linspace(0, 1, 4, device=d), lambda L, d: L.eye(2, device=d),
    lambda L, d: L.rand(2, device=d).shape, lambda L, d: L.randn(2, device=d).shape,
    lambda L, d: L.empty(2, device=d).shape, lambda L, d: L.tensor([1.0], device=d),
    lambda L, d: L.as_tensor([1.0], device=d),
    lambda L, d: L.zeros_like(L.ones(2), device=d), lambda L, d: L.ones_like(L.ones(2), device=d),
    lambda L, d: L.full_like(L.ones(2), 3.0, device=d),
    lambda L, d: L.empty_like(L.ones(2), device=d).shape,
    lambda L, d: L.ones(2).to(d), lambda L, d: L.ones(2).to(d, L.float32),
    lambda L, d: L.ones(2).to(device=d, dtype=L.float32),
    lambda L, d: L.nn.Linear(2, 1, device=d).to(d).weight.shape,
], ids=lambda f: "")
@pytest.mark.parametrize("dev", ["cpu", "cuda", "cuda:0"])
def test_creation_and_moves_take_device_as_pytorch_does(make, dev, torch):
    ours, theirs = _outcome(lambda: make(tg, dev)), _outcome(lambda: make(torch, dev))
    assert ours[0] == theirs[0]  # ok on the CPU, AssertionError for CUDA
    if ours[0] == "ok":
        o, t = ours[1], theirs[1]
        if isinstance(t, torch.Tensor):
            np.testing.assert_allclose(np.asarray(o), t.numpy(), rtol=1e-7)  # (default
            #   float dtypes differ on purpose: float64 here, float32 in PyTorch)
        else:
            assert tuple(o) == tuple(t)


def test_tensor_device_attributes(torch):
    for L in (tg, torch):
        x = L.ones(2, requires_grad=True)
        dev = L.device("cuda" if L.cuda.is_available() else "cpu")
        assert x.device == dev == L.device("cpu") and not x.is_cuda and x.is_cpu
        assert x.cpu() is x and x.to(dev) is x and x.to(x.device) is x
        assert x.to(L.zeros(1, dtype=L.float32)).dtype == L.float32
        with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
            x.cuda()
    assert tg.cuda.device_count() == 0 == torch.cuda.device_count()
    assert not tg.backends.mps.is_available()
    tg.set_default_device("cpu")
    assert tg.get_default_device() == tg.device("cpu")


def test_clone_copies_and_differentiates_as_pytorch(torch):
    out = {}
    for L in (tg, torch):
        x = L.tensor([0.5, -1.0, 2.0], dtype=L.float64, requires_grad=True)
        y = x.clone()
        z = (y * y.clone().detach().clone() + L.clone(x).sin()).sum()
        z.backward()
        d = x.detach().clone()
        d[0] = 7.0  # a clone of a detached tensor is a copy: x keeps its values
        out[L.__name__] = (y.grad_fn.name(), x.grad.numpy().tolist(),
                           x.detach().numpy().tolist(), d.requires_grad)
    assert out["tapegrad"] == out["torch"]


def test_empty_is_shaped_typed_and_zero():
    e = tg.empty(2, 3, dtype=tg.float32, requires_grad=True)
    assert tuple(e.shape) == (2, 3) and e.dtype == tg.float32 and e.requires_grad
    assert not np.asarray(e.detach()).any()  # zeros: no garbage from the allocator
    like = tg.empty_like(tg.ones(4, dtype=tg.int64))
    assert like.dtype == tg.int64 and tuple(like.shape) == (4,)
