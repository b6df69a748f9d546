"""The losses' cheaper eager paths (issue 20, loss31): cross_entropy's common case (2-D
logits, int64 class indices, no weight, no ignored target, no smoothing, mean or sum) records
its LOG_SOFTMAX and NLL rows in one call (ops.nn.log_softmax_nll), the class-index check takes
one pass for that case, huber_loss with delta 1 records one row fewer, binary_cross_entropy
checks its input's range once.  Values, gradients and second derivatives against PyTorch
(float64 to rounding, float32 close), the same rows and values as the general path, a traced
loss replayed at other points against eager, and PyTorch's errors."""
import numpy as np
import pytest

import tapegrad as tg
import tapegrad.nn.functional as F
from tapegrad.tape import current_tape

torch = pytest.importorskip("torch")
TF = torch.nn.functional

DTYPES = [(np.float64, tg.float64, torch.float64, 1e-13),
          (np.float32, tg.float32, torch.float32, 2e-6)]


def _both(fn_tg, fn_torch, xs, dtype, grads=(0,)):
    """Value, first and second derivatives (of sum(g * v) for a fixed v, through
    create_graph: a Hessian-vector product, which sees a second derivative where g is 0)
    of each library's loss at the same arrays ``xs``; gradients with respect to xs[i], i in
    grads."""
    out = []
    for lib, fn in ((tg, fn_tg), (torch, fn_torch)):
        ts = [lib.tensor(x, dtype=dtype[1] if lib is tg else dtype[2], requires_grad=i in grads)
              if x.dtype.kind == "f" else lib.tensor(x) for i, x in enumerate(xs)]
        loss = fn(*ts)
        up = lib.ones_like(loss) * 0.75
        gs = lib.autograd.grad(loss, [ts[i] for i in grads], up, create_graph=True)
        hs = [None] * len(grads)
        if any(g.requires_grad for g in gs):  # (nll_loss's gradient is a constant)
            vs = [lib.tensor(np.linspace(0.5 + j, 1.5 - 3 * j, g.numel()).reshape(
                tuple(g.shape)), dtype=g.dtype) for j, g in enumerate(gs)]  # (v's differ:
            # a target's gradient is often minus the input's)
            hs = lib.autograd.grad(sum((g * v).sum() for g, v in zip(gs, vs)),
                                   [ts[i] for i in grads], allow_unused=True)
        out.append([loss.detach().numpy()] + [g.detach().numpy() for g in gs] +
                   [np.zeros(xs[i].shape) if h is None else h.numpy()
                    for i, h in zip(grads, hs)])
    return out


def _close(a, b, tol):
    for u, v in zip(a, b):
        np.testing.assert_allclose(u, v, rtol=tol, atol=tol)


# ---- cross_entropy's common case -----------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES, ids=["float64", "float32"])
@pytest.mark.parametrize("shape", [(4, 3), (8, 10), (256, 10), (1, 1), (3, 1), (2, 7)])
@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_cross_entropy_common_case_against_torch(dtype, shape, reduction):
    rng = np.random.default_rng(sum(shape))
    x = (rng.normal(size=shape) * 3).astype(dtype[0])
    t = rng.integers(0, shape[1], size=shape[0])
    a, b = _both(lambda x, t: F.cross_entropy(x, t, reduction=reduction),
                 lambda x, t: TF.cross_entropy(x, t, reduction=reduction), [x, t], dtype)
    _close(a, b, dtype[3])


@pytest.mark.parametrize("edge", ["large", "neg_inf", "neg_inf_target", "ties"])
def test_cross_entropy_common_case_edges(edge):
    x = np.array([[1e300, -1e300, 0.0], [700.0, 710.0, -720.0], [0.5, 0.25, -0.125],
                  [2.0, 2.0, 2.0]])
    t = np.array([1, 0, 2, 1])
    if edge == "neg_inf":
        x[2, 0] = -np.inf
    if edge == "neg_inf_target":
        x[2, 2] = -np.inf  # the target's logit: the loss is inf (PyTorch's too)
    if edge == "ties":
        x[:] = 3.0
    a, b = _both(lambda x, t: F.cross_entropy(x, t), lambda x, t: TF.cross_entropy(x, t),
                 [x, t], DTYPES[0])
    for u, v in zip(a, b):  # (exp(-10) terms; atol: cancellation beside the row's scale)
        finite = np.abs(v[np.isfinite(v)])
        np.testing.assert_allclose(u, v, rtol=1e-11, atol=1e-14 * finite.max(initial=0.0))


def _general(x, t, reduction):
    """The composition the common case stands for: log_softmax's row, then nll_loss's."""
    return F.nll_loss(F.log_softmax(x, 1), t, reduction=reduction)


@pytest.mark.parametrize("dtype", [tg.float64, tg.float32])
@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_cross_entropy_common_case_is_the_composition_bit_for_bit(dtype, reduction):
    """The same rows (LOG_SOFTMAX, NLL), the same node names and the same values, gradients
    and second derivatives as log_softmax then nll_loss."""
    rng = np.random.default_rng(5)
    x0 = rng.normal(size=(6, 5))
    t = tg.tensor(rng.integers(0, 5, size=6))
    got = []
    for fn in (lambda x: F.cross_entropy(x, t, reduction=reduction),
               lambda x: _general(x, t, reduction)):
        x = tg.tensor(x0, dtype=dtype, requires_grad=True)
        n0 = current_tape().nrows
        loss = fn(x)
        rows = current_tape().nrows - n0
        (g,) = tg.autograd.grad(loss, x, create_graph=True)
        (h,) = tg.autograd.grad((g * g).sum(), x)
        node = loss.grad_fn
        names = (node.name(), node.next_functions[0][0].name(),
                 node.next_functions[0][0].next_functions[0][0].name())
        got.append((rows, names, loss.item(), g.detach().numpy(), h.numpy()))
    (r0, n0_, v0, g0, h0), (r1, n1, v1, g1, h1) = got
    assert r0 == r1 == 2
    assert n0_ == n1 and n0_[:2] == ("NllLossBackward0", "LogSoftmaxBackward0")
    assert v0 == v1
    np.testing.assert_array_equal(g0, g1)
    np.testing.assert_array_equal(h0, h1)


def test_cross_entropy_common_case_without_grad():
    x = tg.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 4.0]])
    t = tg.tensor([2, 0])
    want = TF.cross_entropy(torch.tensor(x.numpy()), torch.tensor(t.numpy())).item()
    assert abs(F.cross_entropy(x, t).item() - want) < 1e-15
    x.requires_grad_()
    with tg.no_grad():
        loss = F.cross_entropy(x, t)
    assert not loss.requires_grad and loss.grad_fn is None
    assert abs(loss.item() - want) < 1e-15


def test_cross_entropy_common_case_replays_at_other_points():
    """A traced loss replays at new logits as eager computes it there (the targets are
    constants of the trace)."""
    t = np.array([2, 0, 1, 1])
    f = tg.compile(lambda x: F.cross_entropy(x, tg.tensor(t)))
    rng = np.random.default_rng(3)
    for _ in range(4):
        x = rng.normal(size=(4, 3)) * 4
        X = tg.tensor(x, requires_grad=True)
        want = F.cross_entropy(X, tg.tensor(t))
        (gw,) = tg.autograd.grad(want, X)
        v, g = f.value_and_grad(x)
        np.testing.assert_allclose(v, want.item(), rtol=1e-14)
        np.testing.assert_allclose(g, np.asarray(gw), rtol=1e-13, atol=1e-16)
        xt = torch.tensor(x, requires_grad=True)
        lt = TF.cross_entropy(xt, torch.tensor(t))
        lt.backward()
        np.testing.assert_allclose(g, xt.grad.numpy(), rtol=1e-12, atol=1e-16)


# ---- class-index checks (the one-pass case and the cases it hands on) -----------------------
@pytest.mark.parametrize("fn, case", [
    (f, c) for f in ["cross_entropy", "nll_loss"]
    for c in ["ignored", "ignored_negative", "uint8", "weight", "none", "smoothing"]
    if (f, c) != ("nll_loss", "smoothing")])  # (nll_loss has no label_smoothing)
def test_class_targets_beside_the_common_case(fn, case):
    rng = np.random.default_rng(11)
    x = rng.normal(size=(6, 4))
    t = rng.integers(0, 4, size=6)
    kw = {}
    if case == "ignored":
        t[1] = 2
        kw["ignore_index"] = 2
    if case == "ignored_negative":
        t[[0, 3]] = -1
        kw["ignore_index"] = -1
    if case == "uint8":
        t = t.astype(np.uint8)
    if case == "weight":
        kw["weight"] = np.array([0.5, 2.0, 1.0, 3.0])
    if case == "none":
        kw["reduction"] = "none"
    if case == "smoothing":
        kw["label_smoothing"] = 0.2
    if fn == "nll_loss":
        x = x - np.log(np.exp(x).sum(1, keepdims=True))
    w = kw.pop("weight", None)

    def run(lib, F_):
        def f(x, t):
            return getattr(F_, fn)(x, t, weight=None if w is None else lib.tensor(w), **kw)
        return f
    a, b = _both(run(tg, F), run(torch, TF), [x, t], DTYPES[0])
    _close(a, b, 1e-13)


@pytest.mark.parametrize("fn", ["cross_entropy", "nll_loss"])
@pytest.mark.parametrize("bad", [4, -1, 7])
def test_out_of_range_target_is_pytorchs_error(fn, bad):
    x = tg.tensor(np.zeros((3, 4)), requires_grad=True)
    t = tg.tensor([0, bad, 1])
    n0 = current_tape().nrows
    with pytest.raises(IndexError, match=f"Target {bad} is out of bounds"):
        getattr(F, fn)(x, t)
    with pytest.raises(IndexError, match=f"Target {bad} is out of bounds"):
        getattr(TF, fn)(torch.zeros(3, 4), torch.tensor([0, bad, 1]))
    assert current_tape().nrows == n0  # (nothing recorded)


def test_batch_mismatch_is_pytorchs_error():
    with pytest.raises(ValueError, match=r"Expected input batch_size \(3\) to match target "
                                         r"batch_size \(2\)"):
        F.cross_entropy(tg.zeros(3, 4, requires_grad=True), tg.tensor([0, 1]))


# ---- huber_loss ---------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES, ids=["float64", "float32"])
@pytest.mark.parametrize("delta", [1.0, 0.5, 2.0])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_huber_against_torch(dtype, delta, reduction):
    rng = np.random.default_rng(7)
    x = (rng.normal(size=(5, 4)) * 2).astype(dtype[0])
    y = rng.normal(size=(5, 4)).astype(dtype[0])
    y[0, 0] = x[0, 0] + delta  # at the kink (|d| = delta: the linear piece, as PyTorch)
    y[0, 1] = x[0, 1] - delta
    y[0, 2] = x[0, 2]  # d = 0
    a, b = _both(lambda x, y: F.huber_loss(x, y, reduction=reduction, delta=delta),
                 lambda x, y: TF.huber_loss(x, y, reduction=reduction, delta=delta),
                 [x, y], dtype, grads=(0, 1))
    # second derivatives too: PyTorch's huber double backward is 1 where |d| < delta (at
    # d = 0 too: the square of |d| gave 0 there, through |d|'s sign 0) and 0 at and beyond
    _close(a, b, dtype[3])


@pytest.mark.parametrize("dtype", DTYPES, ids=["float64", "float32"])
@pytest.mark.parametrize("beta", [1.0, 0.5, 2.0])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_smooth_l1_against_torch(dtype, beta, reduction):
    rng = np.random.default_rng(8)
    x = (rng.normal(size=(5, 4)) * 2).astype(dtype[0])
    y = rng.normal(size=(5, 4)).astype(dtype[0])
    y[0, 0] = x[0, 0] + beta
    y[0, 1] = x[0, 1] - beta
    y[0, 2] = x[0, 2]  # d = 0: PyTorch's second derivative 1 / beta
    a, b = _both(lambda x, y: F.smooth_l1_loss(x, y, reduction=reduction, beta=beta),
                 lambda x, y: TF.smooth_l1_loss(x, y, reduction=reduction, beta=beta),
                 [x, y], dtype, grads=(0, 1))
    _close(a, b, dtype[3])


def test_huber_default_delta_records_one_row_fewer():
    """delta 1: 7 rows (sub, abs, the square's two, d - 0.5, where, mean), not 8."""
    x = tg.tensor(np.linspace(-3, 3, 6), requires_grad=True)
    y = tg.tensor(np.zeros(6))
    rows = []
    for delta in (1.0, 1.5):
        n0 = current_tape().nrows
        loss = F.huber_loss(x, y, delta=delta)
        rows.append(current_tape().nrows - n0)
        assert loss.grad_fn.name() == "HuberLossBackward0"
        del loss
    assert rows == [7, 8]


def test_huber_replays_at_other_points():
    y = np.array([0.0, 0.5, -1.0, 2.0])
    f = tg.compile(lambda x: F.huber_loss(x, tg.tensor(y)))
    for x in ([0.1, 0.2, 0.3, 0.4], [3.0, -2.0, 1.0, 2.5], [-0.5, 1.5, -1.0, 0.0]):
        x = np.array(x)
        X = tg.tensor(x, requires_grad=True)
        want = F.huber_loss(X, tg.tensor(y))
        (gw,) = tg.autograd.grad(want, X)
        v, g = f.value_and_grad(x)
        assert v == want.item()
        np.testing.assert_array_equal(g, np.asarray(gw))


# ---- binary_cross_entropy's range check --------------------------------------------------
@pytest.mark.parametrize("bad", [1.5, -0.25, np.nan, 1e200, -np.inf])
def test_bce_refuses_inputs_outside_0_1(bad):
    x = np.array([0.25, bad, 0.5])
    with pytest.raises(RuntimeError, match="all elements of input should be between 0 and 1"):
        TF.binary_cross_entropy(torch.tensor(x), torch.tensor([0.0, 1.0, 1.0], dtype=torch.float64))
    X = tg.tensor(x, requires_grad=True)
    n0 = current_tape().nrows
    with pytest.raises(RuntimeError, match="all elements of input should be between 0 and 1"):
        F.binary_cross_entropy(X, tg.tensor([0.0, 1.0, 1.0]))
    assert current_tape().nrows == n0


@pytest.mark.parametrize("dtype", DTYPES, ids=["float64", "float32"])
@pytest.mark.parametrize("edge", [None, 0.0, 1.0, -0.0])
def test_bce_against_torch(dtype, edge):
    rng = np.random.default_rng(9)
    x = rng.uniform(0.01, 0.99, size=(4, 3)).astype(dtype[0])
    t = rng.integers(0, 2, size=(4, 3)).astype(dtype[0])
    if edge is not None:
        x[1, 1] = edge
    a, b = _both(lambda x, t: F.binary_cross_entropy(x, t),
                 lambda x, t: TF.binary_cross_entropy(x, t), [x, t], dtype)
    tol = dtype[3] if edge is None else 1e-5
    _close(a[:2], b[:2], tol)
    # the second derivative (PyTorch's own formula, to ~1e-10), off the edge element: at
    # x = 1 tapegrad's is 1 / eps^2 smaller than PyTorch's (5e23 against 5e35, on main too)
    keep = np.ones(x.shape, bool)
    keep[1, 1] = edge is None
    np.testing.assert_allclose(a[2][keep], b[2][keep], rtol=max(tol, 1e-9) * 10)


def test_targets_computed_from_a_traced_input_are_guarded():
    """Targets a traced f computes from its input (argmin) decide the rows' indices: the
    one-pass check is eager only, so a trace guards them (host_values) and replay at a point
    whose targets differ gives eager's loss, not the traced point's picks."""
    f = tg.compile(lambda x: F.cross_entropy(x, x.argmin(1)))
    for x in ([[0.1, 0.5, 0.2], [1.0, -1.0, 0.0]], [[0.9, 0.5, 0.2], [1.0, 2.0, 3.0]]):
        x = np.array(x)
        X = tg.tensor(x, requires_grad=True)
        want = F.cross_entropy(X, X.argmin(1))
        (gw,) = tg.autograd.grad(want, X)
        v, g = f.value_and_grad(x)
        assert v == want.item()
        np.testing.assert_array_equal(g, np.asarray(gw))
