"""Activations (nn.functional and their modules), distance modules, padding modules and
pixel shuffling against PyTorch in float64: values and gradients at random points and at
the kinks (where each function's convention is PyTorch's), reprs, and errors."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle

KINKS = np.array([-6.0, -3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0, 6.0, 0.1, -0.1, 25.0, -25.0])

FUNCTIONS = {  # name: call(F, x)
    "hardtanh": lambda F, x: F.hardtanh(x),
    "hardtanh_range": lambda F, x: F.hardtanh(x, -0.5, 3.0),
    "relu6": lambda F, x: F.relu6(x),
    "threshold": lambda F, x: F.threshold(x, 0.5, -2.0),
    "softsign": lambda F, x: F.softsign(x),
    "tanhshrink": lambda F, x: F.tanhshrink(x),
    "softshrink": lambda F, x: F.softshrink(x),
    "softshrink_1": lambda F, x: F.softshrink(x, 1.0),
    "hardshrink": lambda F, x: F.hardshrink(x),
    "hardsigmoid": lambda F, x: F.hardsigmoid(x),
    "hardswish": lambda F, x: F.hardswish(x),
    "mish": lambda F, x: F.mish(x),
    "selu": lambda F, x: F.selu(x),
    "celu": lambda F, x: F.celu(x, 1.5),
    "glu": lambda F, x: F.glu(x.reshape(-1, 2, 13), 1),
    "glu_last": lambda F, x: F.glu(x.reshape(2, -1)[:, :12]),
    "rrelu_eval": lambda F, x: F.rrelu(x),
    "softmin": lambda F, x: F.softmin(x.reshape(2, -1), 1),
    "logsigmoid": lambda F, x: F.logsigmoid(x),
    "elu": lambda F, x: F.elu(x, 0.7),
    "leaky_relu": lambda F, x: F.leaky_relu(x, 0.2),
}


def _points(rng):
    return np.concatenate([KINKS, rng.standard_normal(13) * 3])


def _value_and_grad(L, fn, x, u=None):
    xt = L.tensor(x, requires_grad=True)
    y = fn(L.nn.functional, xt)
    u = np.cos(np.arange(y.numel())).reshape(tuple(y.shape)) if u is None else u
    (g,) = L.autograd.grad((y * L.tensor(u)).sum(), [xt])
    return np.asarray(y.detach()), np.asarray(g)


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_function_matches_torch_at_kinks_and_random_points(name, rng, torch):
    x = _points(rng)
    y, g = _value_and_grad(tg, FUNCTIONS[name], x)
    ty, tgr = _value_and_grad(torch, FUNCTIONS[name], x)
    np.testing.assert_allclose(y, ty, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(g, tgr, rtol=1e-12, atol=1e-14)


def test_prelu_weight_gradients_match_torch(rng, torch):
    x = rng.standard_normal((2, 3, 4))
    x[0, 0, 0] = 0.0
    out = []
    for L, w in ((tg, rng.standard_normal(3)), (torch, None)):
        w = out[0][3] if w is None else w
        xt, wt = L.tensor(x, requires_grad=True), L.tensor(w, requires_grad=True)
        y = L.nn.functional.prelu(xt, wt)
        grads = L.autograd.grad((y * y.detach().cos()).sum(), [xt, wt])
        out.append([np.asarray(y.detach())] + [np.asarray(g) for g in grads] + [w])
    for a, b in zip(out[0][:3], out[1][:3], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_inplace_variants_write_their_input(torch):
    for name in ("relu_", "hardtanh_", "selu_", "celu_", "elu_", "leaky_relu_", "threshold_"):
        args = (0.0, 1.0) if name == "threshold_" else ()
        x, tx = tg.tensor(KINKS.copy()), torch.tensor(KINKS.copy())
        r = getattr(tg.nn.functional, name)(x, *args)
        getattr(torch.nn.functional, name)(tx, *args)
        assert r is x
        np.testing.assert_allclose(np.asarray(x), tx.numpy(), rtol=1e-14)


MODULES = {  # name: (build(nn), input shape, number of inputs)
    "Hardtanh": (lambda nn: nn.Hardtanh(-2.0, 2.0), (3, 4), 1),
    "Hardtanh_inplace": (lambda nn: nn.Hardtanh(-2, 2, True), (3, 4), 1),
    "ReLU6": (lambda nn: nn.ReLU6(), (3, 4), 1),
    "ReLU6_inplace": (lambda nn: nn.ReLU6(True), (3, 4), 1),
    "Threshold": (lambda nn: nn.Threshold(0.1, 20), (3, 4), 1),
    "LogSigmoid": (lambda nn: nn.LogSigmoid(), (3, 4), 1),
    "Softsign": (lambda nn: nn.Softsign(), (3, 4), 1),
    "Tanhshrink": (lambda nn: nn.Tanhshrink(), (3, 4), 1),
    "Softshrink": (lambda nn: nn.Softshrink(), (3, 4), 1),
    "Hardshrink": (lambda nn: nn.Hardshrink(0.3), (3, 4), 1),
    "Hardsigmoid": (lambda nn: nn.Hardsigmoid(), (3, 4), 1),
    "Hardswish": (lambda nn: nn.Hardswish(), (3, 4), 1),
    "Mish": (lambda nn: nn.Mish(), (3, 4), 1),
    "Mish_inplace": (lambda nn: nn.Mish(True), (3, 4), 1),
    "Hardswish_inplace": (lambda nn: nn.Hardswish(True), (4, 5), 1),
    "SiLU_inplace": (lambda nn: nn.SiLU(True), (3, 4), 1),
    "SELU": (lambda nn: nn.SELU(), (3, 4), 1),
    "SELU_inplace": (lambda nn: nn.SELU(True), (3, 4), 1),
    "CELU": (lambda nn: nn.CELU(2.0, True), (3, 4), 1),
    "ELU_inplace": (lambda nn: nn.ELU(0.5, True), (3, 4), 1),
    "LeakyReLU_inplace": (lambda nn: nn.LeakyReLU(0.2, True), (3, 4), 1),
    "PReLU": (lambda nn: nn.PReLU(), (3, 4), 1),
    "PReLU_channels": (lambda nn: nn.PReLU(4, 0.1), (3, 4, 2), 1),
    "GLU": (lambda nn: nn.GLU(), (3, 4), 1),
    "Softmin": (lambda nn: nn.Softmin(1), (3, 4), 1),
    "Softmax2d": (lambda nn: nn.Softmax2d(), (2, 3, 2, 2), 1),
    "RReLU": (lambda nn: nn.RReLU(0.1, 0.3), (3, 4), 1),
    "CosineSimilarity": (lambda nn: nn.CosineSimilarity(), (3, 4), 2),
    "CosineSimilarity_dim0": (lambda nn: nn.CosineSimilarity(0, 1e-6), (3, 4), 2),
    "PairwiseDistance": (lambda nn: nn.PairwiseDistance(), (3, 4), 2),
    "PairwiseDistance_p1": (lambda nn: nn.PairwiseDistance(1.0, keepdim=True), (3, 4), 2),
    "ZeroPad2d": (lambda nn: nn.ZeroPad2d((1, 2, 0, 1)), (1, 2, 3, 3), 1),
    "ZeroPad1d": (lambda nn: nn.ZeroPad1d(2), (2, 3, 3), 1),
    "ZeroPad3d": (lambda nn: nn.ZeroPad3d(1), (1, 1, 2, 2, 2), 1),
    "ConstantPad1d": (lambda nn: nn.ConstantPad1d((1, 0), 3.5), (2, 3, 3), 1),
    "ConstantPad2d": (lambda nn: nn.ConstantPad2d(1, -1.0), (1, 2, 3, 3), 1),
    "ReflectionPad2d": (lambda nn: nn.ReflectionPad2d((1, 2, 2, 0)), (1, 2, 3, 4), 1),
    "ReflectionPad1d": (lambda nn: nn.ReflectionPad1d(2), (2, 3, 4), 1),
    "ReplicationPad2d": (lambda nn: nn.ReplicationPad2d(2), (1, 2, 3, 3), 1),
    "ReplicationPad1d": (lambda nn: nn.ReplicationPad1d((3, 1)), (2, 3, 4), 1),
    "CircularPad2d": (lambda nn: nn.CircularPad2d(1), (1, 2, 3, 3), 1),
    "PixelShuffle": (lambda nn: nn.PixelShuffle(2), (2, 8, 3, 2), 1),
    "PixelUnshuffle": (lambda nn: nn.PixelUnshuffle(2), (2, 2, 4, 6), 1),
}


def _module_step(L, mod, xs):
    xts = [L.tensor(x, requires_grad=True) for x in xs]
    y = mod(*[x * 1.0 for x in xts])  # (inplace modules write a non-leaf)
    params = list(mod.parameters())
    grads = L.autograd.grad((y * y.detach().sin()).sum(), xts + params)
    return [np.asarray(y.detach())] + [np.asarray(g) for g in grads]


@pytest.mark.parametrize("name", list(MODULES))
def test_module_matches_torch(name, rng, torch):
    build, shape, n_inputs = MODULES[name]
    mod, tmod = build(tg.nn), build(torch.nn).double().eval()
    mod.eval()
    assert repr(mod) == repr(tmod)
    assert list(mod.state_dict()) == list(tmod.state_dict())
    mod.load_state_dict({k: tg.tensor(v.numpy()) for k, v in tmod.state_dict().items()})
    xs = [rng.standard_normal(shape) for _ in range(n_inputs)]
    for a, b in zip(_module_step(tg, mod, xs), _module_step(torch, tmod, xs), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


def test_rrelu_training_draws_slopes_in_range():
    x = -tg.ones(1000)
    y = np.asarray(tg.nn.RReLU(0.1, 0.3).train()(x))
    assert (y <= -0.1).all() and (y >= -0.3).all() and y.std() > 0.03


ERRORS = {  # call(nn, F, L)
    "hardtanh_range": lambda nn, F, L: nn.Hardtanh(1.0, -1.0),
    "softshrink_lambda": lambda nn, F, L: F.softshrink(L.zeros(2, dtype=L.float64), -1.0),
    "glu_odd": lambda nn, F, L: F.glu(L.zeros(2, 5)),
    "softmax2d_dims": lambda nn, F, L: nn.Softmax2d()(L.zeros(2, 3)),
    "prelu_channels": lambda nn, F, L: F.prelu(L.zeros(2, 3), L.zeros(2)),
    "pixel_shuffle_channels": lambda nn, F, L: F.pixel_shuffle(L.zeros(1, 5, 2, 2), 2),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(name, raises_as_torch):
    raises_as_torch(lambda L: ERRORS[name](L.nn, L.nn.functional, L))


def test_gumbel_softmax_samples_and_hard_gradient():
    tg.manual_seed(0)
    logits = tg.tensor(np.log([[0.7, 0.2, 0.1]] * 2000), requires_grad=True)
    soft = tg.nn.functional.gumbel_softmax(logits, tau=0.5)
    np.testing.assert_allclose(np.asarray(soft.detach()).sum(1), 1.0)
    hard = tg.nn.functional.gumbel_softmax(logits, tau=0.5, hard=True)
    h = np.asarray(hard.detach())
    assert set(np.unique(h)) == {0.0, 1.0} and (h.sum(1) == 1).all()
    np.testing.assert_allclose(h.mean(0), [0.7, 0.2, 0.1], atol=0.04)  # Gumbel-max sampling
    (g,) = tg.autograd.grad((hard * tg.tensor([1.0, 2.0, 3.0])).sum(), [logits])
    assert np.abs(np.asarray(g)).sum() > 0  # the soft sample's gradient passes through


@pytest.mark.parametrize("name", ["hardsigmoid", "hardshrink", "hardswish", "relu6",
                                  "hardtanh", "softshrink"])
def test_piecewise_activations_keep_nan_and_trace(name, torch):
    """NaN passes through as PyTorch's (hardsigmoid and hardshrink gave 1.0 and 0.0 for it,
    with masks combined by & and |, which a trace cannot record either): eager values and
    gradients against torch, and a compiled function's replay at other points."""
    x = np.array([np.nan, -3.0, 3.0, 0.5, -3.5, 3.5, -0.5, 0.5 + 1e-9, -0.5 - 1e-9, 6.0])
    w = np.arange(1.0, 11.0)
    out = []
    for L in (tg, torch):
        X = L.tensor(x, requires_grad=True)
        y = getattr(L.nn.functional, name)(X)
        (g,) = L.autograd.grad((y * L.tensor(w)).nansum(), X)
        out.append((np.asarray(y.detach()), np.asarray(g)))
    for a, b in zip(out[0], out[1], strict=True):  # (NaN where torch's; hardswish's
        np.testing.assert_allclose(a, b, rtol=1e-15, atol=0)  # slope rounds differently)
    fn = getattr(tg.nn.functional, name)
    f = tg.compile(lambda t: (fn(t) * t).sum())
    for pts in (np.linspace(-4.0, 4.0, 9), np.linspace(-3.5, 6.5, 9)):
        v, grad = f.value_and_grad(pts)
        X = tg.tensor(pts, requires_grad=True)
        y = (fn(X) * X).sum()
        (ge,) = tg.autograd.grad(y, X)
        assert v == y.item()
        np.testing.assert_array_equal(grad, np.asarray(ge))
