"""Linear algebra, reductions and elementwise ops of issue 3: what the spec rows cannot say.

Named-tuple returns, PyTorch's conventions at ties, zeros and nan (pinned as literals and
checked against PyTorch), batched matmul broadcasting against PyTorch, errors with PyTorch's
wording that record nothing, and replay following argmax and where at every point.
"""
import math
import warnings

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.tape import current_tape

NAN, INF = math.nan, math.inf


def _grad(fn, *arrays):
    """tapegrad's value of fn and the gradient of its sum, per input (float64)."""
    xs = [tg.tensor(np.asarray(a, np.float64), requires_grad=True) for a in arrays]
    y = fn(*xs)
    if isinstance(y, tuple):
        y = y[0]
    grads = tg.autograd.grad(y.sum(), xs)
    return np.asarray(y.detach()), [np.asarray(g) for g in grads]


def _torch_grad(torch, fn, *arrays):
    xs = [torch.tensor(np.asarray(a, np.float64), requires_grad=True) for a in arrays]
    y = fn(*xs)
    if isinstance(y, tuple):
        y = y[0]
    grads = torch.autograd.grad(y.sum(), xs, allow_unused=True)
    return y.detach().numpy(), [np.zeros(np.shape(a)) if g is None else g.numpy()
                                for a, g in zip(arrays, grads, strict=True)]


# ---- conventions at ties, zeros, nan and infinities (the values are PyTorch 2.13's) -------
CONVENTIONS = {
    "max_all_ties": (lambda x: x.max(), [1.0, 3.0, 3.0], [0.0, 0.5, 0.5]),
    "min_all_ties": (lambda x: x.min(), [1.0, 1.0, 3.0], [0.5, 0.5, 0.0]),
    "max_all_nans": (lambda x: x.max(), [1.0, NAN, NAN], [0.0, 0.5, 0.5]),
    "max_all_nan": (lambda x: x.max(), [1.0, NAN, 3.0], [0.0, 1.0, 0.0]),
    "max_all_infs": (lambda x: x.max(), [INF, INF, 1.0], [0.5, 0.5, 0.0]),
    "max_all_minus_infs": (lambda x: x.max(), [-INF, -INF], [0.5, 0.5]),
    "max_dim_ties": (lambda x: x.max(1).values, [[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]],
                     [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]),
    "min_dim_ties": (lambda x: x.min(1)[0], [[1.0, 3.0, 1.0], [2.0, 2.0, 0.0]],
                     [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]),
    "max_dim_nans": (lambda x: x.max(0).values, [1.0, NAN, NAN], [0.0, 1.0, 0.0]),
    "amax_ties": (lambda x: x.amax(1), [[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]],
                  [[0.0, 0.5, 0.5], [0.5, 0.5, 0.0]]),
    "amin_ties": (lambda x: x.amin(1), [[1.0, 3.0, 1.0], [0.0, 2.0, 0.0]],
                  [[0.5, 0.0, 0.5], [0.5, 0.0, 0.5]]),
    "amax_all_ties": (lambda x: x.amax(), [1.0, 3.0, 3.0], [0.0, 0.5, 0.5]),
    "amax_nan": (lambda x: x.amax(1), [[1.0, NAN, 3.0]], [[NAN, NAN, NAN]]),
    "prod_one_zero": (lambda x: x.prod(), [1.0, 0.0, 3.0], [0.0, 3.0, 0.0]),
    "prod_two_zeros": (lambda x: x.prod(), [0.0, 0.0, 3.0], [0.0, 0.0, 0.0]),
    "prod_dim_zero": (lambda x: x.prod(1), [[1.0, 0.0, 3.0], [2.0, 2.0, 2.0]],
                      [[0.0, 3.0, 0.0], [4.0, 4.0, 4.0]]),
    "prod_nan": (lambda x: x.prod(), [1.0, NAN, 3.0], [NAN, NAN, NAN]),
    "norm2_zero": (lambda x: x.norm(), [0.0, 0.0], [0.0, 0.0]),
    "norm1_zero": (lambda x: x.norm(1), [0.0, 1.0], [0.0, 1.0]),
    "norm_inf_ties": (lambda x: x.norm(INF), [-3.0, 3.0, 1.0], [-0.5, 0.5, 0.0]),
    "norm_minus_inf_ties": (lambda x: x.norm(-INF), [-1.0, 1.0, 3.0], [-0.5, 0.5, 0.0]),
    "norm3_zero": (lambda x: x.norm(3), [0.0, 0.0], [0.0, 0.0]),
    "std_constant": (lambda x: x.std(), [1.0, 1.0, 1.0], [0.0, 0.0, 0.0]),
    "std_pop_constant": (lambda x: x.std(correction=0), [1.0, 1.0], [0.0, 0.0]),
    "var_one_element": (lambda x: x.var(), [1.0], [NAN]),
    "std_one_element": (lambda x: x.std(), [1.0], [NAN]),
    "logsumexp_minus_infs": (lambda x: x.logsumexp(0), [-INF, -INF], [NAN, NAN]),
    "logsumexp_inf": (lambda x: x.logsumexp(0), [INF, 1.0], [NAN, 0.0]),
    "logsumexp_large": (lambda x: x.logsumexp(0), [1000.0, 1000.0], [0.5, 0.5]),
    "cumsum": (lambda x: x.cumsum(0), [1.0, 2.0, 3.0], [3.0, 2.0, 1.0]),
    "clamp_inclusive": (lambda x: x.clamp(0.0, 1.0), [0.0, 1.0, 2.0, -1.0, NAN],
                        [1.0, 1.0, 0.0, 0.0, 0.0]),
    "clamp_min_above_max": (lambda x: x.clamp(2.0, 1.0), [0.0, 1.5, 3.0], [0.0, 0.0, 0.0]),
    "clamp_min_only": (lambda x: x.clamp(min=0.0), [-1.0, 0.0, 1.0], [0.0, 1.0, 1.0]),
    "sign_zero_nan": (lambda x: x.sign(), [0.0, -0.0, NAN, -2.0], [0.0, 0.0, 0.0, 0.0]),
    "round_half_even": (lambda x: x.round(), [0.5, 1.5, 2.5, -0.5], [0.0, 0.0, 0.0, 0.0]),
    "round_decimals": (lambda x: x.round(decimals=-1), [15.0, 25.0, -15.0], [0.0, 0.0, 0.0]),
    "asin_edge": (lambda x: x.asin(), [1.0, -1.0], [INF, INF]),
    "acos_edge": (lambda x: x.acos(), [1.0], [-INF]),
    "softplus_threshold": (lambda x: _softplus(x), [0.0, 21.0, -800.0], [0.5, 1.0, 0.0]),
    "log_sigmoid_ends": (lambda x: _logsigmoid(x), [0.0, -800.0, 800.0], [0.5, 1.0, 0.0]),
}
CONVENTIONS_2 = {
    "maximum_ties_nan": (lambda a, b: a.maximum(b), [1.0, 0.0, 2.0, NAN], [1.0, 1.0, 1.0, 1.0],
                         [0.5, 0.0, 1.0, 1.0], [0.5, 1.0, 0.0, 1.0]),
    "minimum_ties_nan": (lambda a, b: a.minimum(b), [1.0, 0.0, 2.0, NAN], [1.0, 1.0, 1.0, 1.0],
                         [0.5, 1.0, 0.0, 1.0], [0.5, 0.0, 1.0, 1.0]),
    "atan2_origin": (lambda a, b: a.atan2(b), [0.0, 1.0], [0.0, 1.0], [0.0, 0.5],
                     [0.0, -0.5]),
}


def _softplus(x):
    if isinstance(x, tg.Tensor):
        return tg.softplus(x)
    import torch
    return torch.nn.functional.softplus(x)


def _logsigmoid(x):
    if isinstance(x, tg.Tensor):
        return tg.log_sigmoid(x)
    import torch
    return torch.nn.functional.logsigmoid(x)


@pytest.mark.parametrize("name", sorted(CONVENTIONS))
def test_convention(name):
    fn, x, want = CONVENTIONS[name]
    _, (g,) = _grad(fn, x)
    np.testing.assert_allclose(g, np.asarray(want), rtol=1e-13, atol=0)  # nan, inf exactly


@pytest.mark.parametrize("name", sorted(CONVENTIONS_2))
def test_convention_binary(name):
    fn, a, b, want_a, want_b = CONVENTIONS_2[name]
    _, (ga, gb) = _grad(fn, a, b)
    np.testing.assert_array_equal(ga, np.asarray(want_a))
    np.testing.assert_array_equal(gb, np.asarray(want_b))


@pytest.mark.oracle
@pytest.mark.parametrize("name", sorted(CONVENTIONS) + sorted(CONVENTIONS_2))
def test_convention_torch(name, torch):
    fn, *arrays = CONVENTIONS.get(name) or CONVENTIONS_2[name]
    arrays = arrays[:-1] if name in CONVENTIONS else arrays[:2]
    with np.errstate(all="ignore"), pytest.warns() if "one_element" in name else _nothing():
        want_v, want_g = _torch_grad(torch, fn, *arrays)
    got_v, got_g = _grad(fn, *arrays)
    np.testing.assert_allclose(got_v, want_v, rtol=1e-14)
    for got, want in zip(got_g, want_g, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-14)


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


# ---- max / min with dim: (values, indices) -----------------------------------------------
def test_max_min_with_dim_return_named_tuples():
    x = tg.tensor([[1.0, 5.0, 5.0], [7.0, 2.0, 7.0]], requires_grad=True)
    m = x.max(1)
    assert type(m).__name__ == "max" and m._fields == ("values", "indices")
    values, indices = m
    assert values.tolist() == [5.0, 7.0] and indices.tolist() == [1, 0]
    assert indices.dtype == tg.int64 and not indices.requires_grad
    assert values.grad_fn.name() == "MaxBackward0"
    k = tg.min(x, dim=0, keepdim=True)
    assert k.values.shape == (1, 3) and k.indices.tolist() == [[0, 1, 0]]
    assert tg.max(tg.tensor(2.0), 0).indices.tolist() == 0
    assert tg.max(x, tg.tensor(6.0)).tolist() == [[6.0, 6.0, 6.0], [7.0, 6.0, 7.0]]


@pytest.mark.oracle
def test_max_min_with_dim_match_torch(torch):
    data = np.array([[[1.0, 3.0], [3.0, 0.0]], [[2.0, 2.0], [NAN, 1.0]]])
    for op in ("max", "min"):
        for dim in (0, 1, 2, -1):
            for keepdim in (False, True):
                ours = getattr(tg.tensor(data), op)(dim, keepdim)
                theirs = getattr(torch.tensor(data), op)(dim, keepdim)
                np.testing.assert_array_equal(np.asarray(ours.values), theirs.values.numpy())
                np.testing.assert_array_equal(np.asarray(ours.indices), theirs.indices.numpy())


def test_argmax_argmin_are_constants_eagerly():
    x = tg.tensor([[1.0, 3.0, 3.0], [0.0, -1.0, -1.0]], requires_grad=True)
    tape = current_tape()
    before = tape.nrows
    assert x.argmax().tolist() == 1 and x.argmin().tolist() == 4
    assert x.argmax(1).tolist() == [1, 0] and x.argmin(1, keepdim=True).tolist() == [[0], [1]]
    assert not x.argmax().requires_grad and tape.nrows == before


# ---- replay follows argmax, max(dim).indices and where at every point ----------------------
def _check_replay(f, X):
    traced = tg.trace(f, X[0])
    V, G = traced.value_and_grad_batch(X)
    for b, x in enumerate(X):
        t = tg.tensor(x, requires_grad=True)
        y = f(t)
        (g,) = tg.autograd.grad(y, [t])
        np.testing.assert_allclose(V[b], float(y), rtol=1e-13)
        np.testing.assert_allclose(G[b], np.asarray(g), rtol=1e-13, atol=1e-15)
    return traced


@pytest.mark.parametrize("bias", ["constant", "traced slice", "traced product"])
def test_linear_replays_as_one_addmm_row(bias):
    """F.linear traced with a bias: the fused ADDMM row replays (its bias slot sits in the
    meta pool, which replay's plan renumbers); batch replay equals eager at every point,
    and a batch equals the loop over its points bit for bit."""
    F = tg.nn.functional
    rng = np.random.default_rng(9)
    w, c = tg.tensor(rng.normal(size=(4, 3))), tg.tensor(rng.normal(size=4))
    xs = tg.tensor(rng.normal(size=(5, 3)))
    b = {"constant": lambda x: c, "traced slice": lambda x: x[2:6],
         "traced product": lambda x: x[:4] * x[4:8]}[bias]

    def f(x):
        h = F.linear(x[:6].reshape(2, 3), w, b(x)).tanh()
        return F.linear(xs, x[:6].reshape(2, 3), x[6:8]).sum() + h.sum()

    X = rng.normal(size=(7, 8))
    traced = _check_replay(f, X)
    assert traced.stats()["ops"]["AddmmBackward0"] == 2
    V, G = traced.value_and_grad_batch(X)
    for i in range(len(X)):
        v, g = traced.value_and_grad(X[i])
        assert V[i] == v
        np.testing.assert_array_equal(G[i], g)


def test_replay_recomputes_argmax():
    X = np.random.default_rng(0).normal(size=(40, 4))
    traced = _check_replay(lambda x: x.sum() * x.argmax() + x.max(0).indices * x[0], X)
    assert "ArgmaxBackward0" in traced.stats()["ops"]


def test_replay_follows_where():
    X = np.random.default_rng(1).normal(size=(40, 3))
    _check_replay(lambda x: tg.where(x > 0, x * x, -2.0 * x).sum(), X)
    _check_replay(lambda x: tg.where(x[0] > x[1], 1.0, -1.0) * x.sum(), X)


def test_replay_of_reductions_at_ties_and_zeros():
    X = np.array([[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, -1.0, 5.0], [0.0, 0.0, 1.0, 1.0]])
    _check_replay(lambda x: x.max() + x.amin() + x.reshape(2, 2).max(1).values.sum(), X)
    _check_replay(lambda x: x.prod() + x.norm(INF) + x.cumsum(0).sum(), X)


# ---- matmul against PyTorch -----------------------------------------------------------
MATMUL_SHAPES = [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)),
                 ((5, 2, 3), (5, 3, 4)), ((5, 2, 3), (3, 4)), ((2, 3), (5, 3, 4)),
                 ((2, 1, 2, 3), (4, 3, 2)), ((1, 2, 3), (5, 3, 2)), ((3,), (2, 3, 4)),
                 ((2, 2, 3), (3,)), ((2, 0, 3), (3, 4)), ((2, 3), (3, 0)), ((0,), (0,)),
                 ((40, 30), (30, 50)), ((3, 40, 30), (1, 30, 50)), ((256, 100), (100, 256))]


@pytest.mark.oracle
@pytest.mark.parametrize("sa, sb", MATMUL_SHAPES, ids=str)
def test_matmul_matches_torch(sa, sb, torch):
    rng = np.random.default_rng(len(sa) * 10 + len(sb))
    a, b = rng.normal(size=sa), rng.normal(size=sb)
    u = rng.normal(size=np.matmul(a, b).shape)
    ta, tb = (tg.tensor(v, requires_grad=True) for v in (a, b))
    y = ta @ tb
    ga, gb = tg.autograd.grad(y, [ta, tb], grad_outputs=tg.tensor(u))
    qa, qb = (torch.tensor(v, requires_grad=True) for v in (a, b))
    z = qa @ qb
    wa, wb = torch.autograd.grad(z, [qa, qb], grad_outputs=torch.tensor(u))
    assert tuple(y.shape) == tuple(z.shape)
    np.testing.assert_allclose(np.asarray(y.detach()), z.detach().numpy(), rtol=1e-12,
                               atol=1e-12)
    np.testing.assert_allclose(np.asarray(ga), wa.numpy(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(np.asarray(gb), wb.numpy(), rtol=1e-12, atol=1e-12)


# products above the BLAS threshold whose operand adjoints are reached first by the product
# (written by BLAS directly, ops/linalg.py matmul_rev) or not: fan-out in both orders, x @ x
# (one slot, two products into it), a broadcast batch operand (its batches summed)
BLAS_FANOUT = {
    "product_first": lambda a, b: (a @ b).sum() + (a * a).sum(),
    "product_last": lambda a, b: (a * 2.0).sum() + ((a * 1.0) @ b).tanh().sum(),
    "two_products": lambda a, b: (a @ b).sum() + (a @ (b * b)).sin().sum(),
    "x_at_x": lambda a, b: (a[0] @ a[0]).sum() + b.sum(),
    "broadcast_batch": lambda a, b: (a[:1] @ b).cos().sum(),
    "square_chain": lambda a, b: ((a @ b) @ b.transpose(1, 2)).sum(),
}


@pytest.mark.oracle
@pytest.mark.parametrize("name", list(BLAS_FANOUT))
def test_blas_products_reaching_their_operands_match_torch(name, torch):
    rng = np.random.default_rng(11)
    a, b = rng.normal(size=(3, 40, 40)), rng.normal(size=(3, 40, 30))
    if name == "x_at_x":
        b = b[0]
    fn = BLAS_FANOUT[name]
    got_v, got_g = _grad(fn, a, b)
    want_v, want_g = _torch_grad(torch, fn, a, b)
    np.testing.assert_allclose(got_v, want_v, rtol=1e-12)
    for got, want in zip(got_g, want_g, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.oracle
def test_product_spellings_match_torch(torch):
    rng = np.random.default_rng(7)
    cases = [("mm", (2, 3), (3, 4)), ("mv", (2, 3), (3,)), ("dot", (3,), (3,)),
             ("bmm", (4, 2, 3), (4, 3, 5)), ("outer", (2,), (3,)), ("matmul", (3,), (3, 2))]
    for name, sa, sb in cases:
        a, b = rng.normal(size=sa), rng.normal(size=sb)
        got_v, got_g = _grad(getattr(tg, name), a, b)
        want_v, want_g = _torch_grad(torch, getattr(torch, name), a, b)
        np.testing.assert_allclose(got_v, want_v, rtol=1e-13, err_msg=name)
        for got, want in zip(got_g, want_g, strict=True):
            np.testing.assert_allclose(got, want, rtol=1e-13, err_msg=name)


EINSUMS = [("ij,jk->ik", (2, 3), (3, 4)), ("ij,kj->ik", (2, 3), (4, 3)),
           ("bij,bjk->bik", (2, 2, 3), (2, 3, 4)), ("bhqd,bhkd->bhqk", (2, 2, 3, 4), (2, 2, 5, 4)),
           ("i,i->", (3,), (3,)), ("i,j->ij", (2,), (3,)), ("ij,ij->i", (2, 3), (2, 3)),
           ("ij,j->i", (2, 3), (3,)), ("ij,jk", (2, 3), (3, 4)), ("ji,jk", (3, 2), (3, 4)),
           ("ijk,ik->j", (2, 3, 4), (2, 4)), ("ij,kl->ijkl", (2, 1), (1, 3)),
           ("ij,jk->ik", (1, 3), (3, 1)), ("ij,jk->ki", (2, 3), (1, 4))]


@pytest.mark.oracle
@pytest.mark.parametrize("eq, sa, sb", EINSUMS, ids=[e[0] for e in EINSUMS])
def test_einsum_matches_torch(eq, sa, sb, torch):
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=sa), rng.normal(size=sb)
    got_v, got_g = _grad(lambda x, y: tg.einsum(eq, x, y), a, b)
    want_v, want_g = _torch_grad(torch, lambda x, y: torch.einsum(eq, x, y), a, b)
    np.testing.assert_allclose(got_v, want_v, rtol=1e-13)
    for got, want in zip(got_g, want_g, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-15)


def test_matmul_records_one_row_and_skips_constant_operands():
    tape = current_tape()
    anchor = tg.tensor(0.0, requires_grad=True) * 1.0  # keeps this tape's generation
    w = tg.tensor(np.arange(12.0).reshape(3, 4), requires_grad=True)
    x = tg.tensor(np.ones((5, 2, 3)))
    before = tape.nrows
    y = x @ w
    assert tape.nrows == before + 1 and y.grad_fn.name() == "UnsafeViewBackward0"  # (PyTorch's)
    y.sum().backward()
    np.testing.assert_array_equal(np.asarray(w.grad), np.full((3, 4), 10.0))
    assert x.grad is None
    del anchor


def test_matmul_keeps_float32():
    a = tg.tensor(np.ones((2, 3), np.float32), requires_grad=True)
    y = a @ tg.tensor(np.ones(3, np.float32))
    assert y.dtype == tg.float32
    y.sum().backward()
    assert a.grad.dtype == tg.float32 and a.grad.tolist() == [[1.0] * 3] * 2


def test_matmul_replay_above_the_blas_threshold_is_exact_across_batches():
    rng = np.random.default_rng(4)
    x = tg.tensor(rng.normal(size=(24, 16)))
    f = lambda w: (x @ w.reshape(16, 20)).tanh().sum()  # noqa: E731
    W = rng.normal(size=(5, 320))
    traced = tg.trace(f, W[0])
    V, G = traced.value_and_grad_batch(W)
    for b in range(len(W)):
        v, g = traced.value_and_grad(W[b])
        assert V[b] == v
        np.testing.assert_array_equal(G[b], g)
        t = tg.tensor(W[b], requires_grad=True)
        y = f(t)
        y.backward()
        np.testing.assert_allclose(v, float(y), rtol=1e-13)
        np.testing.assert_allclose(g, np.asarray(t.grad), rtol=1e-12, atol=1e-13)


@pytest.mark.oracle
def test_grad_fn_names_match_torch(torch):
    r = np.random.default_rng(0).normal(size=(2, 3))
    exprs = ["x.prod()", "x.prod(1)", "x.max()", "x.max(1)[0]", "x.min()", "x.amax(1)",
             "x.amin()", "x.logsumexp(1)", "x.norm()", "x.norm(1, dim=0)", "x.var()",
             "x.std(1)", "x.cumsum(1)", "x.clamp(0, 1)", "x.clamp(min=0)", "x.clip(max=1)",
             "x.sign()", "x.floor()", "x.ceil()", "x.round()", "x.round(decimals=1)",
             "x.asin()", "x.arccos()", "x.atan()", "x.sinh()", "x.cosh()", "x.erf()",
             "x.maximum(x)", "x.minimum(x)", "x.atan2(x)", "L.where(x > 0, x, 0.0)",
             "x @ x.T", "x @ x[0]", "x[0] @ x[1]", "L.bmm(x[None], x.T[None])",
             "L.outer(x[0], x[1])"]
    for e in exprs:
        ours = eval(e, {"x": tg.tensor(r, requires_grad=True), "L": tg})
        theirs = eval(e, {"x": torch.tensor(r, requires_grad=True), "L": torch})
        assert ours.grad_fn.name() == theirs.grad_fn.name(), e


# ---- F.linear and cross_entropy: fused rows (LINEAR / ADDMM, LOG_SOFTMAX) -------------------
def test_linear_and_cross_entropy_record_few_rows():
    F = tg.nn.functional
    tape = current_tape()
    anchor = tg.tensor(0.0, requires_grad=True) * 1.0  # keeps this tape's generation
    rng = np.random.default_rng(5)
    x = tg.tensor(rng.normal(size=(4, 3)))
    w = tg.tensor(rng.normal(size=(5, 3)), requires_grad=True)
    b = tg.tensor(rng.normal(size=5), requires_grad=True)
    before = tape.nrows
    z = F.linear(x, w, b)
    assert tape.nrows == before + 1 and z.grad_fn.name() == "AddmmBackward0"
    assert F.linear(x, w).grad_fn.name() == "MmBackward0" and tape.nrows == before + 2
    loss = F.cross_entropy(z, tg.tensor([0, 1, 4, 1]))
    assert tape.nrows == before + 4  # log_softmax, nll: PyTorch's two nodes
    assert loss.grad_fn.name() == "NllLossBackward0"
    assert loss.grad_fn.next_functions[0][0].name() == "LogSoftmaxBackward0"
    loss.backward()
    p = np.exp(np.asarray(F.log_softmax(z, 1).detach()))
    p[range(4), [0, 1, 4, 1]] -= 1  # d loss / d z = (softmax - onehot) / N
    np.testing.assert_allclose(np.asarray(b.grad), p.sum(0) / 4, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(np.asarray(w.grad), p.T @ np.asarray(x) / 4, rtol=1e-13,
                               atol=1e-15)
    assert x.grad is None
    del anchor


@pytest.mark.parametrize("dt", ["float64", "float32"])
@pytest.mark.parametrize("M, K, N", [(256, 100, 256), (256, 256, 10), (3, 700, 5), (2, 300, 9),
                                     (1, 100, 64), (64, 1000, 64), (4, 3, 5)])
def test_linear_values_are_numpys_bit_for_bit(M, K, N, dt):
    """F.linear with a bias: NumPy's ``x @ w.T + b`` bit for bit, whether it takes the one
    gemm adding into the bias (ops/linalg.py _addmm: BLAS-sized, K <= 256, M, N >= 2) or
    NumPy's matmul and add; with and without grad; special values as IEEE arithmetic gives
    them; the gradients are the rule's (gb = column sums of g, gW = g^T x)."""
    F = tg.nn.functional
    rng = np.random.default_rng(M + K + N)
    x, w, b = (rng.normal(size=s).astype(dt) for s in ((M, K), (N, K), (N,)))
    x[0, 0], b[-1] = np.inf, -0.0
    want = x @ w.T + b
    for rg in (False, True):
        wt, bt = tg.tensor(w, requires_grad=rg), tg.tensor(b, requires_grad=rg)
        y = F.linear(tg.tensor(x), wt, bt)
        got = np.asarray(y.detach())
        assert got.dtype == np.dtype(dt)
        np.testing.assert_array_equal(got, want)
        assert np.array_equal(np.signbit(got), np.signbit(want))
    g = rng.normal(size=(M, N)).astype(dt)
    y.backward(tg.tensor(g))
    np.testing.assert_allclose(np.asarray(bt.grad), g.sum(0), rtol=1e-5 if dt == "float32"
                               else 1e-13, atol=1e-4 if dt == "float32" else 1e-12)
    xf = np.where(np.isinf(x), 0.0, x)  # (inf * 0 = nan in gW's first column: not compared)
    np.testing.assert_allclose(np.asarray(wt.grad)[:, 1:], (g.T @ xf)[:, 1:],
                               rtol=1e-4 if dt == "float32" else 1e-12,
                               atol=1e-3 if dt == "float32" else 1e-11)


@pytest.mark.parametrize("dt", ["float64", "float32"])
@pytest.mark.parametrize("M, K, N", [(256, 100, 256), (4, 3, 5)])  # one gemm; matmul + add
def test_linear_warns_of_no_special_values(M, K, N, dt):
    """F.linear of infs and nans (inf * 0 = nan inside the product, inf - inf in the bias
    add) warns of nothing, as PyTorch's, whether it takes the one gemm adding into the bias
    (ops/linalg.py _addmm) or NumPy's matmul and add; values IEEE's."""
    F = tg.nn.functional
    rng = np.random.default_rng(K)
    x, w, b = (rng.normal(size=s).astype(dt) for s in ((M, K), (N, K), (N,)))
    x[0, 0], w[:, 0], x[1, 1], b[0] = np.inf, 0.0, np.nan, -np.inf
    x[2, 2], w[0, 2] = np.inf, 1.0  # (row 2, column 0: inf - inf)
    with np.errstate(all="ignore"):
        want = x @ w.T + b
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for rg in (False, True):
            y = F.linear(tg.tensor(x), tg.tensor(w, requires_grad=rg), tg.tensor(b))
            np.testing.assert_array_equal(np.asarray(y.detach()), want)
    assert np.isnan(want[0]).all() and np.isnan(want[1]).all() and np.isnan(want[2, 0])


@pytest.mark.parametrize("M, K, N", [(2, 3, 4), (24, 16, 20)])  # plain loops, BLAS
def test_addmm_rules_at_several_points_equal_single_points(M, K, N):
    """ADDMM's rules with w = 3 points side by side (batch replay's layout) give each point's
    w = 1 result exactly (also reached through tracing, below)."""
    from tapegrad._sweep import _forward_replay, _reverse_sweep
    rng = np.random.default_rng(6)
    tape = current_tape()
    ts = [tg.tensor(rng.normal(size=s), requires_grad=True) for s in ((M, K), (N, K), (N,))]
    y = tg.nn.functional.linear(*ts)
    rows, offs, vals, consts, meta = (a.copy() for a in tape.arrays())
    row = rows[-1:]
    assert row[0, 1] == y._slot
    w = 3
    points = [vals * (1.0 + 0.25 * p) for p in range(w)]
    seeds = [np.where(np.arange(len(vals)) >= offs[y._slot], rng.normal(size=len(vals)), 0.0)
             for _ in range(w)]
    reach = np.ones(len(offs) - 1, np.uint8)
    batch, adj = np.stack(points, axis=1).ravel(), np.stack(seeds, axis=1).ravel()
    bad = np.zeros(w, np.int64)
    assert _forward_replay(row, offs, batch, consts, meta, 0, 1, w, bad) == -1
    assert _reverse_sweep(row, offs, batch, consts, meta, adj, reach, 0, 1, w) == -1
    for p in range(w):
        assert _forward_replay(row, offs, points[p], consts, meta, 0, 1, 1, bad) == -1
        assert _reverse_sweep(row, offs, points[p], consts, meta, seeds[p], reach, 0, 1, 1) == -1
        np.testing.assert_array_equal(batch.reshape(-1, w)[:, p], points[p])
        np.testing.assert_array_equal(adj.reshape(-1, w)[:, p], seeds[p])
    np.testing.assert_allclose(points[0][offs[y._slot]:], np.asarray(y.detach()).ravel(),
                               rtol=1e-13, atol=1e-14)


LOG_SOFTMAX_SPECIAL = np.array([[-INF, -INF, 0.0], [INF, 1.0, 2.0], [NAN, 1.0, 0.0],
                                [1000.0, 0.0, -1000.0], [-INF, -INF, -INF], [INF, -INF, 0.0]])


@pytest.mark.oracle
@pytest.mark.parametrize("dim", [0, 1])
def test_log_softmax_at_inf_and_nan_matches_torch_and_replays(dim, torch):
    """A group holding a nan or an inf, or only -infs, is nan throughout (PyTorch's values and
    gradients), in eager NumPy and in the replay rule alike."""
    from tapegrad._sweep import _forward_replay
    u = np.arange(18.0).reshape(6, 3)
    x = tg.tensor(LOG_SOFTMAX_SPECIAL, requires_grad=True)
    xt = torch.tensor(LOG_SOFTMAX_SPECIAL, requires_grad=True)
    y, yt = tg.nn.functional.log_softmax(x, dim), torch.log_softmax(xt, dim)
    rows, offs, vals, consts, meta = (a.copy() for a in y._tok.tape.arrays())
    o = slice(offs[y._slot], offs[y._slot + 1])
    replayed = vals.copy()
    replayed[o] = 0.0
    assert _forward_replay(rows[-1:], offs, replayed, consts, meta, 0, 1, 1,
                           np.zeros(1, np.int64)) == -1
    np.testing.assert_array_equal(replayed[o], vals[o])
    np.testing.assert_array_equal(np.asarray(y.detach()), yt.detach().numpy())
    (y * tg.tensor(u)).sum().backward()
    (yt * torch.tensor(u)).sum().backward()
    np.testing.assert_allclose(np.asarray(x.grad), xt.grad.numpy(), rtol=1e-14)  # nan = nan


# ---- bad input: PyTorch's words, raised before anything is recorded ---------------------
def _t(*shape, dtype=np.float64):
    return tg.tensor(np.ones(shape, dtype), requires_grad=dtype == np.float64)


ERRORS = [
    (lambda: _t(2, 3) @ _t(4, 5), RuntimeError,
     r"mat1 and mat2 shapes cannot be multiplied \(2x3 and 4x5\)"),
    (lambda: _t(4) @ _t(3, 5), RuntimeError,
     r"mat1 and mat2 shapes cannot be multiplied \(1x4 and 3x5\)"),
    (lambda: _t(3) @ _t(4), RuntimeError,
     r"inconsistent tensor size, expected tensor \[3\] and src \[4\]"),
    (lambda: _t(2, 3) @ _t(4), RuntimeError, r"size mismatch, got input \(2\), mat \(2x3\), vec"),
    (lambda: _t(2, 3, 4) @ _t(5), RuntimeError, r"size mismatch, got input \(6\), mat \(6x4\)"),
    (lambda: _t(5, 2, 3) @ _t(4, 2), RuntimeError, r"cannot be multiplied \(10x3 and 4x2\)"),
    (lambda: _t(5, 2, 3) @ _t(5, 4, 2), RuntimeError,
     r"Expected size for first two dimensions of batch2 tensor to be: \[5, 3\] but got: "
     r"\[5, 4\]"),
    (lambda: _t(5, 2, 3) @ _t(4, 3, 2), RuntimeError,
     r"The size of tensor a \(5\) must match the size of tensor b \(4\) at non-singleton "
     r"dimension 0"),
    (lambda: tg.tensor(1.0) @ _t(3), RuntimeError,
     "both arguments to matmul need to be at least 1D, but they are 0D and 1D"),
    (lambda: _t(2, 3) @ _t(3, 2, dtype=np.int64), RuntimeError,
     "expected m1 and m2 to have the same dtype, but got: double != long"),
    (lambda: tg.mm(_t(3), _t(3, 2)), RuntimeError, "self must be a matrix"),
    (lambda: tg.mm(_t(2, 3), _t(3)), RuntimeError, "mat2 must be a matrix"),
    (lambda: tg.mv(_t(3), _t(3)), RuntimeError, "vector \\+ matrix @ vector expected, got 1, 1"),
    (lambda: tg.dot(_t(2, 3), _t(3)), RuntimeError, "1D tensors expected, but got 2D and 1D"),
    (lambda: tg.dot(_t(3), _t(3, dtype=np.int64)), RuntimeError,
     "dot : expected both vectors to have same dtype, but found Double and Long"),
    (lambda: tg.bmm(_t(2, 3), _t(3, 2)), RuntimeError, "batch1 must be a 3D tensor"),
    (lambda: tg.bmm(_t(2, 2, 3), _t(3, 3, 2)), RuntimeError,
     r"batch2 tensor to be: \[2, 3\] but got: \[3, 3\]"),
    (lambda: tg.outer(_t(2, 2), _t(3)), RuntimeError, "outer: Expected 1-D argument self"),
    (lambda: tg.einsum("ij,jk->ik", _t(2, 3), _t(4, 5)), RuntimeError,
     "einsum\\(\\): subscript j has size 4 for operand 1 which does not broadcast with "
     "previously seen size 3"),
    (lambda: tg.einsum("ij,jk->ik", _t(2, 3, 1), _t(3, 5)), RuntimeError,
     r"the number of subscripts in the equation \(2\) does not match the number of "
     r"dimensions \(3\) for operand 0"),
    (lambda: _t(0).max(), RuntimeError,
     "max\\(\\): Expected reduction dim to be specified for input.numel\\(\\) == 0"),
    (lambda: _t(0, 3).max(0), IndexError, "max\\(\\): Expected reduction dim 0 to have "
     "non-zero size"),
    (lambda: _t(0).amax(), RuntimeError, "amax\\(\\): Expected reduction dim to be specified"),
    (lambda: _t(2, 3).max(2), IndexError,
     r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)"),
    (lambda: _t(2, 3).logsumexp(2), IndexError, "Dimension out of range"),
    (lambda: _t(2, 3).cumsum(-3), IndexError, "Dimension out of range"),
    (lambda: _t(2, 3).amax((0, 0)), RuntimeError, "dim 0 appears multiple times in the list"),
    (lambda: _t(3).norm("nuc"), RuntimeError,  # (tests/test_linalg_ops.py: nuc of matrices)
     "linalg.matrix_norm: The input tensor A must have at least 2 dimensions."),
    (lambda: _t(2, 3).norm("abc"), RuntimeError, "linalg.matrix_norm: Order abc not supported"),
    (lambda: tg.tensor([1, 2]).norm(), RuntimeError,
     "linalg.vector_norm: Expected a floating point or complex tensor as input. Got"),
    (lambda: tg.tensor([1, 2]).var(), RuntimeError,
     "std and var only support floating point and complex dtypes"),
    (lambda: _t(3).clamp(), RuntimeError,
     "torch.clamp: At least one of 'min' or 'max' must not be None"),
    (lambda: tg.maximum(_t(3), 2.0), TypeError,
     r"maximum\(\): argument 'other' \(position 2\) must be Tensor, not float"),
    (lambda: tg.atan2(_t(3), 2.0), TypeError, "atan2\\(\\): argument 'other'"),
    (lambda: tg.where(_t(3), _t(3), _t(3)), RuntimeError,
     "where expected condition to be a boolean tensor, but got a tensor with dtype Double"),
    (lambda: tg.where(_t(3) > 0, _t(3), _t(4)), RuntimeError,
     r"The size of tensor a \(3\) must match the size of tensor b \(4\)"),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_bad_input_raises_pytorch_words_and_records_nothing(i):
    call, exc, pattern = ERRORS[i]
    tape = current_tape()
    anchor = tg.tensor(0.0, requires_grad=True) * 1.0  # keeps this tape's generation
    before = (tape.nrows, len(tape.meta), len(tape.consts))
    with pytest.raises(exc, match=pattern):
        call()
    assert (tape.nrows, len(tape.meta), len(tape.consts)) == before
    del anchor


# ---- odds and ends ---------------------------------------------------------------------
def test_where_promotes_and_broadcasts_like_torch():
    x = tg.tensor([[1.0, -2.0, 3.0]], requires_grad=True)
    y = tg.where(tg.tensor([[True], [False]]), x, 0.5)
    assert y.shape == (2, 3) and y.tolist() == [[1.0, -2.0, 3.0], [0.5, 0.5, 0.5]]
    y.sum().backward()
    assert x.grad.tolist() == [[1.0, 1.0, 1.0]]
    assert tg.where(tg.tensor([True, False]), 1, 0).dtype == tg.int64
    f32 = tg.tensor(np.ones(2, np.float32))
    assert tg.where(tg.tensor([True, False]), f32, 0.0).dtype == tg.float32
    assert x.where(x > 0, -x).tolist() == [[1.0, 2.0, 3.0]]


def test_clamp_with_tensor_bounds_and_dtypes():
    x = tg.tensor([-2.0, 0.5, 3.0], requires_grad=True)
    lo = tg.tensor([0.0, 1.0, 0.0], requires_grad=True)
    y = x.clamp(min=lo, max=tg.full((3,), 2.0))  # (a number and a Tensor: TypeError)
    assert y.tolist() == [0.0, 1.0, 2.0]
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0] and lo.grad.tolist() == [1.0, 1.0, 0.0]
    assert tg.tensor([1, 5]).clamp(2, 3).dtype == tg.int64
    assert tg.tensor([1, 5]).clamp(2.5).dtype == tg.float64
    assert tg.tensor(np.ones(2, np.float32)).clamp(0, 0.5).dtype == tg.float32


def test_var_std_signatures():
    x = tg.tensor([[1.0, 2.0, 4.0], [0.0, 0.0, 3.0]])
    d = np.asarray(x)
    np.testing.assert_allclose(np.asarray(x.var(1)), d.var(1, ddof=1))
    np.testing.assert_allclose(np.asarray(x.var(1, False)), d.var(1))
    np.testing.assert_allclose(np.asarray(x.std(unbiased=False)), d.std())
    np.testing.assert_allclose(np.asarray(x.std(0, correction=0, keepdim=True)),
                               d.std(0, keepdims=True))
    np.testing.assert_allclose(float(x.var(False)), d.var())


@pytest.mark.parametrize("product", [
    lambda L, x, w, b: x @ w.T, lambda L, x, w, b: L.mm(x, w.T),
    lambda L, x, w, b: L.nn.functional.linear(x, w, b), lambda L, x, w, b: L.matmul(x[0], w[0]),
    lambda L, x, w, b: L.dot(x[0], w[0]), lambda L, x, w, b: L.mv(w, x[0]),
], ids=["matmul", "mm", "linear", "matmul_1d", "dot", "mv"])
def test_float32_data_meets_float64_parameters(product, torch):
    """Code written for PyTorch's float32 default feeds float32 data to tapegrad's float64
    parameters: the product promotes (as elementwise ops do) instead of raising, and equals
    PyTorch's float64 product of the same values; the float32 input's gradient is float32."""
    rng = np.random.default_rng(0)
    xs, ws, bs = rng.standard_normal((2, 3)), rng.standard_normal((4, 3)), rng.standard_normal(4)
    x = tg.tensor(xs.astype(np.float32), requires_grad=True)
    w, b = tg.tensor(ws, requires_grad=True), tg.tensor(bs, requires_grad=True)
    y = product(tg, x, w, b)
    assert y.dtype == tg.float64
    y.sum().backward()
    tx = torch.tensor(xs.astype(np.float32).astype(np.float64), requires_grad=True)
    tw, tb = torch.tensor(ws, requires_grad=True), torch.tensor(bs, requires_grad=True)
    ty = product(torch, tx, tw, tb)
    ty.sum().backward()
    np.testing.assert_allclose(np.asarray(y.detach()), ty.detach().numpy(), rtol=1e-12)
    assert x.grad.dtype == tg.float32
    np.testing.assert_allclose(np.asarray(x.grad), tx.grad.numpy(), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(w.grad), tw.grad.numpy(), rtol=1e-12)
