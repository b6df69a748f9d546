"""nn.utils.parametrize and nn.utils.parametrizations (weight_norm, spectral_norm) against
PyTorch: the parametrized values and gradients, PyTorch's state_dict keys and reprs,
right_inverse on assignment, caching, and removal."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


def _symmetric(nn):
    class Symmetric(nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).mT
    return Symmetric()


def _skew(nn):
    class Skew(nn.Module):
        def forward(self, X):
            A = X.triu(1)
            return A - A.mT

        def right_inverse(self, Z):
            return Z.triu(1)
    return Skew()


def _copy(m, tm):
    m.load_state_dict({k: tg.tensor(v.detach().numpy()) for k, v in tm.state_dict().items()})


def _train_and_eval_match(torch, m, tm, shape):
    """In training and in eval mode: outputs, parameter gradients and (power-iteration)
    buffers equal torch's."""
    x = np.random.default_rng(1).standard_normal(shape)
    for training in (True, False):
        m.train(training)
        tm.train(training)
        y, ty = m(tg.tensor(x)), tm(torch.tensor(x))
        (y * y).sum().backward()
        (ty * ty).sum().backward()
        np.testing.assert_allclose(np.asarray(y.detach()), ty.detach().numpy(), atol=1e-12)
        for (_, p), (_, tp) in zip(m.named_parameters(), tm.named_parameters(), strict=True):
            np.testing.assert_allclose(np.asarray(p.grad), tp.grad.numpy(), rtol=1e-10,
                                       atol=1e-12)
        for (_, b), (_, tb) in zip(m.named_buffers(), tm.named_buffers(), strict=True):
            np.testing.assert_allclose(np.asarray(b), tb.numpy(), atol=1e-12)


def test_register_parametrization_matches_torch(torch):
    m, tm = tg.nn.Linear(3, 3), torch.nn.Linear(3, 3).double()
    _copy(m, tm)
    opt = tg.optim.SGD(m.parameters(), lr=0.1)  # made before: keeps the same tensors
    P, tP = tg.nn.utils.parametrize, torch.nn.utils.parametrize
    P.register_parametrization(m, "weight", _symmetric(tg.nn))
    tP.register_parametrization(tm, "weight", _symmetric(torch.nn))
    assert repr(m) == repr(tm) and list(m.state_dict()) == list(tm.state_dict())
    assert type(m).__name__ == "ParametrizedLinear"
    assert P.type_before_parametrizations(m) is tg.nn.Linear
    assert P.is_parametrized(m) and P.is_parametrized(m, "weight")
    assert not P.is_parametrized(m, "bias")
    x = np.random.default_rng(0).standard_normal((2, 3))
    y, ty = m(tg.tensor(x)), tm(torch.tensor(x))
    np.testing.assert_allclose(np.asarray(y.detach()), ty.detach().numpy(), atol=1e-14)
    y.sum().backward()
    ty.sum().backward()
    np.testing.assert_allclose(np.asarray(m.parametrizations.weight.original.grad),
                               tm.parametrizations.weight.original.grad.numpy(), atol=1e-14)
    opt.step()
    W = np.asarray(m.weight.detach())
    np.testing.assert_allclose(W, W.T)
    with P.cached():
        assert m.weight is m.weight
    P.remove_parametrizations(m, "weight")
    tP.remove_parametrizations(tm, "weight")
    assert type(m) is tg.nn.Linear and list(m.state_dict()) == list(tm.state_dict())
    np.testing.assert_allclose(np.asarray(m.weight.detach()), W)


def test_right_inverse_on_assignment_and_stacked_parametrizations(torch):
    m = tg.nn.Linear(3, 3)
    P = tg.nn.utils.parametrize
    P.register_parametrization(m, "weight", _skew(tg.nn))
    Z = np.triu(np.arange(9.0).reshape(3, 3), 1)
    Z = Z - Z.T
    m.weight = tg.tensor(Z)
    np.testing.assert_allclose(np.asarray(m.weight.detach()), Z)
    P.register_parametrization(m, "weight", tg.nn.Tanh())
    assert len(m.parametrizations.weight) == 2
    np.testing.assert_allclose(np.asarray(m.weight.detach()), np.tanh(Z))
    with pytest.raises(ValueError, match="does not have a parametrization"):
        P.remove_parametrizations(m, "bias")
    with pytest.raises(ValueError, match="does not have a parameter, a buffer"):
        P.register_parametrization(m, "missing", tg.nn.Tanh())


@pytest.mark.parametrize("kind,layer,kwargs", [
    ("weight_norm", ("Linear", (4, 3)), {}), ("weight_norm", ("Conv2d", (2, 3, 3)),
                                              {"dim": None}),
    ("spectral_norm", ("Linear", (4, 3)), {}), ("spectral_norm", ("Conv2d", (2, 3, 3)), {}),
    ("spectral_norm", ("ConvTranspose2d", (2, 3, 3)), {"n_power_iterations": 2}),
])
def test_weight_and_spectral_norm_match_torch(torch, kind, layer, kwargs):
    name, args = layer
    m = getattr(tg.nn.utils.parametrizations, kind)(getattr(tg.nn, name)(*args), **kwargs)
    tm = getattr(torch.nn.utils.parametrizations, kind)(
        getattr(torch.nn, name)(*args).double(), **kwargs)
    assert list(m.state_dict()) == list(tm.state_dict()) and repr(m) == repr(tm)
    _copy(m, tm)  # (spectral_norm's power-iteration vectors too)
    _train_and_eval_match(torch, m, tm, (2, 4) if name == "Linear" else (1, 2, 5, 5))


def test_spectral_norm_divides_by_the_largest_singular_value():
    # singular values 3, 1, 0.5, 0.2: 30 power iterations converge from any start (a random
    # Linear's top two could lie close, and the test then depended on the RNG's state, that
    # is on the test files an xdist worker ran before this one)
    u, _ = np.linalg.qr(np.random.default_rng(0).normal(size=(4, 4)))
    v, _ = np.linalg.qr(np.random.default_rng(1).normal(size=(5, 4)))
    lin = tg.nn.Linear(5, 4)
    with tg.no_grad():
        lin.weight.copy_(tg.tensor(u @ np.diag([3.0, 1.0, 0.5, 0.2]) @ v.T))
    m = tg.nn.utils.parametrizations.spectral_norm(lin, n_power_iterations=30)
    m(tg.ones(1, 5))
    assert abs(np.linalg.svd(np.asarray(m.weight.detach()), compute_uv=False)[0] - 1) < 1e-6



@pytest.mark.parametrize("layer,args,shape", [("Linear", (4, 3), (2, 4)),
                                              ("Conv2d", (2, 3, 3), (1, 2, 5, 5)),
                                              ("ConvTranspose2d", (2, 3, 3), (1, 2, 4, 4))])
def test_hook_spectral_norm_matches_torch(torch, layer, args, shape):
    m = tg.nn.utils.spectral_norm(getattr(tg.nn, layer)(*args), n_power_iterations=2)
    tm = torch.nn.utils.spectral_norm(getattr(torch.nn, layer)(*args).double(),
                                      n_power_iterations=2)
    assert list(m.state_dict()) == list(tm.state_dict()) == ["bias", "weight_orig",
                                                             "weight_u", "weight_v"]
    _copy(m, tm)
    _train_and_eval_match(torch, m, tm, shape)
    tg.nn.utils.remove_spectral_norm(m)
    torch.nn.utils.remove_spectral_norm(tm)
    assert list(m.state_dict()) == list(tm.state_dict())
    np.testing.assert_allclose(np.asarray(m.weight.detach()), tm.weight.detach().numpy(),
                               atol=1e-12)
    with pytest.raises(ValueError, match="spectral_norm of 'weight' not found"):
        tg.nn.utils.remove_spectral_norm(m)
