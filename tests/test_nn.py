"""tapegrad.nn.functional: values and gradients against PyTorch (1e-10, float64) and finite
differences, float32 kept end to end, and PyTorch's errors with nothing recorded."""
import functools
import warnings

import numpy as np
import pytest

import tapegrad as tg
import tapegrad.nn.functional as F
from tapegrad.tape import current_tape

_r = np.random.default_rng(20240501)
T4 = _r.integers(0, 5, 4)  # class indices for (4, 5) logits
T4_IGN = T4.copy()
T4_IGN[1] = -100
T4_IGN7 = T4.copy()
T4_IGN7[2] = 3  # ignore_index=3 below
T_K = _r.integers(0, 3, (2, 4))  # (N, d1) targets for (2, 3, 4) logits
P45 = _r.dirichlet(np.ones(5), 4)  # class probabilities for (4, 5)
W5 = _r.uniform(0.2, 2.0, 5)
W3 = _r.uniform(0.2, 2.0, 3)
B23 = (_r.uniform(size=(2, 3)) > 0.5).astype(float)  # binary targets
Y23 = _r.uniform(-1, 1, (2, 3))  # regression targets
PW3 = _r.uniform(0.5, 3.0, 3)


def _t(L, a):
    """A constant in float64 (float arrays) or int64 (int arrays)."""
    a = np.asarray(a)
    return L.tensor(a, dtype=L.float64 if a.dtype.kind == "f" else L.int64)


class Case:
    """``fn(L, F, *xs)`` with library ``L`` and its functional module ``F``; ``shapes`` of
    the differentiable inputs, drawn from ``domain``."""

    def __init__(self, fn, shapes, domain=(-2.0, 2.0), float32=True):
        self.fn, self.shapes, self.domain, self.float32 = fn, shapes, domain, float32


def _ce(target=T4, **kw):
    """cross_entropy against ``target`` with keyword arguments (arrays become constants)."""
    def fn(L, F, x):
        extra = {k: _t(L, v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
        return F.cross_entropy(x, _t(L, target), **extra)
    return fn


CASES = {
    "linear": Case(lambda L, F, x, w, b: F.linear(x, w, b), [(4, 3), (5, 3), (5,)]),
    "linear_nobias": Case(lambda L, F, x, w: F.linear(x, w), [(2, 4, 3), (5, 3)]),
    "linear_1d_weight": Case(lambda L, F, x, w: F.linear(x, w), [(4, 3), (3,)]),
    "cross_entropy": Case(_ce(), [(4, 5)]),
    "cross_entropy_sum": Case(_ce(reduction="sum"), [(4, 5)]),
    "cross_entropy_none": Case(_ce(reduction="none"), [(4, 5)]),
    "cross_entropy_weight": Case(_ce(weight=W5), [(4, 5)]),
    "cross_entropy_weight_none": Case(_ce(weight=W5, reduction="none"), [(4, 5)]),
    "cross_entropy_ignore": Case(_ce(target=T4_IGN), [(4, 5)]),
    "cross_entropy_ignore_weight": Case(_ce(target=T4_IGN, weight=W5), [(4, 5)]),
    "cross_entropy_ignore_index_3": Case(_ce(target=T4_IGN7, ignore_index=3), [(4, 5)]),
    "cross_entropy_smooth": Case(_ce(label_smoothing=0.2), [(4, 5)]),
    "cross_entropy_smooth_weight": Case(_ce(label_smoothing=0.1, weight=W5), [(4, 5)]),
    "cross_entropy_smooth_ignore_weight": Case(
        _ce(target=T4_IGN, label_smoothing=0.3, weight=W5), [(4, 5)]),
    "cross_entropy_smooth_sum_ignore": Case(
        _ce(target=T4_IGN, label_smoothing=0.3, reduction="sum"), [(4, 5)]),
    "cross_entropy_smooth_none": Case(_ce(label_smoothing=0.3, reduction="none"), [(4, 5)]),
    "cross_entropy_probs": Case(_ce(target=P45), [(4, 5)]),
    "cross_entropy_probs_weight_smooth": Case(
        _ce(target=P45, weight=W5, label_smoothing=0.25), [(4, 5)]),
    "cross_entropy_probs_none": Case(_ce(target=P45, reduction="none"), [(4, 5)]),
    "cross_entropy_kdim": Case(lambda L, F, x: F.cross_entropy(x, _t(L, T_K), weight=_t(L, W3)),
                               [(2, 3, 4)]),
    "cross_entropy_kdim_smooth_none": Case(
        lambda L, F, x: F.cross_entropy(x, _t(L, T_K), label_smoothing=0.2, reduction="none"),
        [(2, 3, 4)]),
    "cross_entropy_1d": Case(lambda L, F, x: F.cross_entropy(x, _t(L, np.array(2))), [(5,)]),
    "nll_loss": Case(lambda L, F, x: F.nll_loss(F.log_softmax(x, 1), _t(L, T4)), [(4, 5)]),
    "nll_loss_weight_ignore": Case(
        lambda L, F, x: F.nll_loss(x, _t(L, T4_IGN), weight=_t(L, W5)), [(4, 5)]),
    "nll_loss_none": Case(lambda L, F, x: F.nll_loss(x, _t(L, T4), reduction="none"), [(4, 5)]),
    "binary_cross_entropy": Case(
        lambda L, F, x: F.binary_cross_entropy(x, _t(L, B23)), [(2, 3)], (0.05, 0.95)),
    "binary_cross_entropy_soft_weight": Case(
        lambda L, F, x, y: F.binary_cross_entropy(x, y, weight=_t(L, W3), reduction="sum"),
        [(2, 3), (2, 3)], (0.05, 0.95)),
    "bce_with_logits": Case(
        lambda L, F, x: F.binary_cross_entropy_with_logits(x, _t(L, B23)), [(2, 3)], (-8, 8)),
    "bce_with_logits_pos_weight": Case(
        lambda L, F, x, y: F.binary_cross_entropy_with_logits(
            x, y, weight=_t(L, W3), pos_weight=_t(L, PW3), reduction="none"),
        [(2, 3), (2, 3)], (-3, 3)),
    "mse_loss": Case(lambda L, F, x: F.mse_loss(x, _t(L, Y23)), [(2, 3)]),
    "mse_loss_sum_both": Case(lambda L, F, x, y: F.mse_loss(x, y, reduction="sum"),
                              [(2, 3), (2, 3)]),
    "l1_loss": Case(lambda L, F, x: F.l1_loss(x, _t(L, Y23)), [(2, 3)]),
    "l1_loss_none": Case(lambda L, F, x, y: F.l1_loss(x, y, reduction="none"), [(2, 3), (2, 3)]),
    "smooth_l1_loss": Case(lambda L, F, x: F.smooth_l1_loss(x, _t(L, Y23)), [(2, 3)]),
    "smooth_l1_loss_beta": Case(
        lambda L, F, x, y: F.smooth_l1_loss(x, y, beta=0.3, reduction="sum"), [(2, 3), (2, 3)]),
    "smooth_l1_loss_beta0": Case(lambda L, F, x: F.smooth_l1_loss(x, _t(L, Y23), beta=0.0),
                                 [(2, 3)]),
    "huber_loss": Case(lambda L, F, x: F.huber_loss(x, _t(L, Y23)), [(2, 3)]),
    "huber_loss_delta": Case(
        lambda L, F, x, y: F.huber_loss(x, y, delta=0.4, reduction="none"), [(2, 3), (2, 3)]),
    "gelu": Case(lambda L, F, x: F.gelu(x), [(2, 3)], (-4, 4)),
    "gelu_tanh": Case(lambda L, F, x: F.gelu(x, approximate="tanh"), [(2, 3)], (-4, 4)),
    "leaky_relu": Case(lambda L, F, x: F.leaky_relu(x), [(2, 3)]),
    "leaky_relu_slope": Case(lambda L, F, x: F.leaky_relu(x, 0.2), [(2, 3)]),
    "elu": Case(lambda L, F, x: F.elu(x), [(2, 3)]),
    "elu_alpha": Case(lambda L, F, x: F.elu(x, alpha=0.5), [(2, 3)]),
    "silu": Case(lambda L, F, x: F.silu(x), [(2, 3)], (-6, 6)),
    "softplus": Case(lambda L, F, x: F.softplus(x), [(2, 3)], (-6, 6)),
    "softplus_beta": Case(lambda L, F, x: F.softplus(x, beta=2.0, threshold=5.0), [(2, 3)],
                          (-4, 4)),
    "relu": Case(lambda L, F, x: F.relu(x), [(2, 3)]),
    "logsigmoid": Case(lambda L, F, x: F.logsigmoid(x), [(2, 3)], (-6, 6)),
    "normalize": Case(lambda L, F, x: F.normalize(x), [(3, 4)]),
    "normalize_p1_dim0": Case(lambda L, F, x: F.normalize(x, p=1.0, dim=0), [(3, 4)]),
    "softmax": Case(lambda L, F, x: F.softmax(x, dim=1), [(3, 4)]),
    "log_softmax": Case(lambda L, F, x: F.log_softmax(x, dim=0), [(3, 4)]),
    "log_softmax_neg_dim": Case(lambda L, F, x: F.log_softmax(x, dim=-1), [(2, 2, 3)]),
    "mlp": Case(lambda L, F, x, w1, b1, w2: F.cross_entropy(
        F.linear(F.linear(x, w1, b1).tanh(), w2), _t(L, T4)), [(4, 3), (6, 3), (6,), (5, 6)]),
}


def _arrays(case, rng, dtype=np.float64):
    lo, hi = case.domain
    return [rng.uniform(lo, hi, s).astype(dtype) for s in case.shapes]


def _tg_run(case, arrays):
    xs = [tg.tensor(a, requires_grad=True) for a in arrays]
    out = case.fn(tg, F, *xs)
    grads = tg.autograd.grad(out.sum(), xs, allow_unused=True)
    return out, grads


@pytest.mark.oracle
@pytest.mark.parametrize("name", list(CASES))
def test_matches_torch_float64(name, rng, torch):
    case = CASES[name]
    arrays = _arrays(case, rng)
    out, grads = _tg_run(case, arrays)
    txs = [torch.tensor(a, requires_grad=True) for a in arrays]
    tout = case.fn(torch, torch.nn.functional, *txs)
    tgrads = torch.autograd.grad(tout.sum(), txs, allow_unused=True)
    assert tuple(out.shape) == tuple(tout.shape)
    np.testing.assert_allclose(np.asarray(out), tout.detach().numpy(), rtol=1e-10, atol=1e-12)
    for g, tgr in zip(grads, tgrads, strict=True):
        np.testing.assert_allclose(np.asarray(g), tgr.numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", list(CASES))
def test_matches_finite_differences(name, rng, fd_dot, tg_vjp):
    case = CASES[name]
    arrays = _arrays(case, rng)
    fn = functools.partial(case.fn, tg, F)
    out = fn(*[tg.tensor(a) for a in arrays])
    u = rng.standard_normal(tuple(out.shape))
    grads = tg_vjp(fn, arrays, u)
    for i, (a, g) in enumerate(zip(arrays, grads, strict=True)):
        v = rng.standard_normal(a.shape)
        assert np.vdot(g, v) == pytest.approx(fd_dot(fn, arrays, i, v, u), rel=1e-6, abs=1e-8)


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if c.float32])
def test_float32_in_float32_out(name, rng):
    case = CASES[name]
    arrays = _arrays(case, rng, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out, grads = _tg_run(_f32(case), arrays)
    assert out.dtype == tg.float32
    assert all(g.dtype == tg.float32 for g in grads)
    out64, grads64 = _tg_run(_f32(case, np.float64), [a.astype(np.float64) for a in arrays])
    np.testing.assert_allclose(np.asarray(out, np.float64), np.asarray(out64), rtol=1e-5,
                               atol=1e-5)
    for g, g64 in zip(grads, grads64, strict=True):
        np.testing.assert_allclose(np.asarray(g, np.float64), np.asarray(g64), rtol=1e-4,
                                   atol=1e-5)


def _f32(case, dtype=np.float32):
    """The case with its float constants (targets, weights) in ``dtype`` as well."""
    class L32:
        def __getattr__(self, name):
            return getattr(tg, name)

        float64 = np.dtype(dtype)

    return Case(lambda L, F_, *xs: case.fn(L32(), F_, *xs), case.shapes, case.domain)


# ---- dropout and one_hot -------------------------------------------------------------------
def test_dropout_is_seeded_and_scales():
    x = tg.ones(1000, requires_grad=True)
    tg.manual_seed(7)
    a = F.dropout(x, p=0.3)
    tg.manual_seed(7)
    b = F.dropout(x, p=0.3)
    assert a.tolist() == b.tolist()
    kept = np.asarray(a.detach()) != 0
    assert 0.6 < kept.mean() < 0.8
    np.testing.assert_allclose(np.asarray(a.detach())[kept], 1 / 0.7)
    a.sum().backward()
    np.testing.assert_allclose(np.asarray(x.grad), np.where(kept, 1 / 0.7, 0.0))


def test_dropout_off_and_extremes():
    x = tg.randn(5, requires_grad=True)
    assert F.dropout(x, 0.5, training=False) is x
    assert F.dropout(x, 0.0) is x
    assert F.dropout(x, 1.0).tolist() == [0.0] * 5
    y = tg.randn(3, dtype=tg.float32)
    assert F.dropout(y, 0.5).dtype == tg.float32
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1, "
                                         "but got 1.5"):
        F.dropout(x, 1.5)


@pytest.mark.oracle
def test_one_hot_matches_torch(torch):
    idx = np.array([[0, 3], [2, 1]])
    assert F.one_hot(tg.tensor(idx)).tolist() == torch.nn.functional.one_hot(
        torch.tensor(idx)).tolist()
    assert F.one_hot(tg.tensor(idx), 6).tolist() == torch.nn.functional.one_hot(
        torch.tensor(idx), 6).tolist()
    assert F.one_hot(tg.tensor([1])).dtype == tg.int64


# ---- bad input ---------------------------------------------------------------------------
def _tape_state():
    t = current_tape()
    t.flush()
    return (t.nrows, t.nslots, t.nvals, len(t.consts), len(t.meta))


BAD = {
    "mse_loss reduction": (lambda L, F, x: F.mse_loss(x, x.detach(), reduction="avg"),
                           ValueError, "avg is not a valid value for reduction"),
    "cross_entropy reduction": (lambda L, F, x: F.cross_entropy(x, _t(L, T4[:2]),
                                                                reduction="bad"),
                                ValueError, "bad is not a valid value for reduction"),
    "softmax dim": (lambda L, F, x: F.softmax(_leaf(L, [1.0, 2.0]), dim=1), IndexError,
                    "Dimension out of range (expected to be in range of [-1, 0], but got 1)"),
    "log_softmax dim": (lambda L, F, x: F.log_softmax(x, dim=-3), IndexError,
                        "Dimension out of range (expected to be in range of [-2, 1], but got -3)"),
    "cross_entropy target out of range": (
        lambda L, F, x: F.cross_entropy(x, _t(L, np.array([0, 7]))), IndexError,
        "Target 7 is out of bounds."),
    "cross_entropy batch mismatch": (
        lambda L, F, x: F.cross_entropy(x, _t(L, np.array([0, 1, 2]))), ValueError,
        "Expected input batch_size (2) to match target batch_size (3)."),
    "cross_entropy float target of another shape": (
        lambda L, F, x: F.cross_entropy(x, _t(L, np.ones((2, 2)))), RuntimeError, None),
    "cross_entropy weight shape": (
        lambda L, F, x: F.cross_entropy(x, _t(L, np.array([0, 1])), weight=_t(L, np.ones(2))),
        RuntimeError, "weight tensor should be defined either for all 3 classes or no classes"),
    "cross_entropy label_smoothing": (
        lambda L, F, x: F.cross_entropy(x, _t(L, np.array([0, 1])), label_smoothing=1.5),
        RuntimeError, "label_smoothing must be between 0.0 and 1.0"),
    "nll_loss float target": (lambda L, F, x: F.nll_loss(x, _t(L, np.array([0.0, 1.0]))),
                              RuntimeError, "expected target dtype to be Long or Byte, but got "
                                            "Double"),
    "bce out of range": (lambda L, F, x: F.binary_cross_entropy(x, x.detach()), RuntimeError,
                         "all elements of input should be between 0 and 1"),
    "bce target size": (lambda L, F, x: F.binary_cross_entropy(
        _leaf(L, [[0.5, 0.5, 0.5]]), _t(L, np.ones(3))), ValueError,
        "that is different to the input size"),
    "bce logits target size": (lambda L, F, x: F.binary_cross_entropy_with_logits(
        x, _t(L, np.ones(3))), ValueError, "must be the same as input size"),
    "linear shapes": (lambda L, F, x: F.linear(x, _t(L, np.ones((4, 2)))), RuntimeError,
                      "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x4)"),
    "gelu approximate": (lambda L, F, x: F.gelu(x, approximate="fast"), RuntimeError, None),
    "one_hot float": (lambda L, F, x: F.one_hot(x), RuntimeError,
                      "one_hot is only applicable to index tensor of type LongTensor."),
    "one_hot too small": (lambda L, F, x: F.one_hot(_t(L, np.array([3])), 2), RuntimeError,
                          "Class values must be smaller than num_classes."),
    "one_hot negative": (lambda L, F, x: F.one_hot(_t(L, np.array([-1]))), RuntimeError,
                         "Class values must be non-negative."),
    "smooth_l1 negative beta": (lambda L, F, x: F.smooth_l1_loss(x, x.detach(), beta=-1.0),
                                RuntimeError, "smooth_l1_loss does not support negative values "
                                              "for beta."),
    "dropout p": (lambda L, F, x: F.dropout(x, -0.1), ValueError,
                  "dropout probability has to be between 0 and 1, but got -0.1"),
}


def _leaf(L, values):
    return L.tensor(values, dtype=L.float64, requires_grad=True)


def _bad_input(L):
    x = L.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], dtype=L.float64, requires_grad=True)
    return x * 1.0  # a non-leaf: a half-recorded op would show on its tape


@pytest.mark.parametrize("name", list(BAD))
def test_bad_input_raises_and_records_nothing(name):
    call, exc, phrase = BAD[name]
    x = _bad_input(tg)
    before = _tape_state()
    with pytest.raises(exc) as info:
        call(tg, F, x)
    if phrase:
        assert phrase in str(info.value)
    assert _tape_state() == before


@pytest.mark.oracle
@pytest.mark.parametrize("name", list(BAD))
def test_torch_raises_the_same(name, torch):
    call, exc, phrase = BAD[name]
    if name == "one_hot float":
        exc = RuntimeError
    with pytest.raises(Exception) as info:
        call(torch, torch.nn.functional, _bad_input(torch))
    assert isinstance(info.value, exc) or (exc is IndexError and
                                           isinstance(info.value, (IndexError, RuntimeError)))
    if phrase:
        assert phrase in str(info.value)
