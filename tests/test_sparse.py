"""tapegrad.sparse: patterns read from the tape, colourings, compressed Jacobians and
Hessians by replay, against the dense ones of tapegrad and torch.func."""
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad.ops.registry import OPS, no_gradient
from tapegrad.sparse import coloring, pattern

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(0)
A = RNG.standard_normal((3, 3))  # a block of the block-diagonal maps
M = RNG.standard_normal((8, 12)) * (RNG.random((8, 12)) < 0.25)  # a fixed sparse matrix
I1, I2 = RNG.integers(0, 12, 10), RNG.integers(0, 12, 10)  # random gathers
W_IH, W_HH, B8 = RNG.standard_normal((8, 3)), RNG.standard_normal((8, 2)), RNG.standard_normal(8)


def _const(lib, a):
    return lib.tensor(a, dtype=lib.float64)


# vector functions of x (12,): written once for tapegrad and torch (lib)
VECTOR = {
    "banded": lambda lib, x: lib.cat([10 * (x[1:] - x[:-1] ** 2), 1 - x[:-1]]),
    "arrow": lambda lib, x: lib.cat([(x[0] * x[1:]).sin(), (x ** 2).sum().reshape(1)]),
    "block_diagonal": lambda lib, x: (x.reshape(4, 3) @ _const(lib, A)).tanh().reshape(-1),
    "random_sparse": lambda lib, x: x[I1] * x[I2].exp() + x[I2],
    "const_sparse_matrix": lambda lib, x: _const(lib, M) @ x.sin(),
    "softmax_groups": lambda lib, x: x.reshape(3, 4).softmax(1).reshape(-1),
    "cumsum_max": lambda lib, x: lib.cat([x.reshape(3, 4).cumsum(1).reshape(-1),
                                          x.reshape(3, 4).amax(1)]),
    "stack_prod": lambda lib, x: lib.stack([x[:-1], x[1:], x[:-1] * 2]).prod(0),
    "outer_where": lambda lib, x: lib.where(x[:3].reshape(3, 1) > 0,
                                            x[:3].reshape(3, 1) * x[3:6].reshape(1, 3),
                                            -x[6:9].reshape(1, 3)).reshape(-1),
    "linear_logsumexp": lambda lib, x: lib.cat([
        lib.nn.functional.linear(x.reshape(4, 3), _const(lib, A)).reshape(-1),
        x.reshape(2, 6).logsumexp(1), x.reshape(3, 4).norm(dim=1)]),
    # one fused step (ops/nn.py LSTM_CELL, LSTM_H, GRU_CELL): input (2, 3), state (2, 2)
    "lstm_cell": lambda lib, x: lib.cat([s.reshape(-1) for s in lib.lstm_cell(
        x[:6].reshape(2, 3), (x[4:8].reshape(2, 2), x[8:].reshape(2, 2)),
        _const(lib, W_IH), _const(lib, W_HH), _const(lib, B8), _const(lib, B8))]),
    "gru_cell": lambda lib, x: lib.gru_cell(x[:6].reshape(2, 3), x[6:10].reshape(2, 2) * x[10:],
                                            _const(lib, W_IH[:6]), _const(lib, W_HH[:6]),
                                            _const(lib, B8[:6]), _const(lib, B8[:6])).reshape(-1),
}

# scalar functions for Hessians
SCALAR = {
    "rosenbrock": lambda lib, x: (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum(),
    "arrow": lambda lib, x: (x[0] * x[1:]).sin().sum() + (x[1:] * x[:-1]).cos().sum(),
    "block_diagonal": lambda lib, x: ((x.reshape(4, 3) @ _const(lib, A)).tanh() ** 2).sum(),
    "random_sparse": lambda lib, x: (x[I1] * x[I2]).cos().sum() + (x ** 4).sum(),
    "groups": lambda lib, x: x.reshape(3, 4).logsumexp(1).sum()
    + x.reshape(4, 3).softmax(1)[:, 0].sum(),
}


def _points():
    return [RNG.uniform(0.2, 1.5, 12) for _ in range(2)]


def _check_plan(make_plan, fn, torch_transform, dense_method, rtol):
    """A plan of tapegrad's fn at one point, evaluated there and at another point (reuse),
    against torch.func's transform and tapegrad's dense method; returns (plan, torch's
    matrix at the second point)."""
    f = lambda x: fn(tg, x)  # noqa: E731
    x0, x1 = _points()
    plan = make_plan(f, x0)
    for x in (x0, x1):
        got = plan(x)
        assert isinstance(got, sp.csr_matrix)
        want = torch_transform(lambda x: fn(torch, x))(torch.tensor(x)).numpy()
        np.testing.assert_allclose(got.toarray(), want.reshape(got.shape), rtol=rtol,
                                   atol=rtol)
        dense = getattr(tg.compile(f), dense_method)(x)
        np.testing.assert_allclose(got.toarray(), dense.reshape(got.shape), rtol=rtol,
                                   atol=rtol)
    return plan, want.reshape(got.shape)


@pytest.mark.parametrize("name", sorted(VECTOR))
def test_jacobian_equals_dense_and_torch(name):
    plan, want = _check_plan(tg.sparse.jacobian_plan, VECTOR[name], torch.func.jacrev,
                             "jacobian", 1e-12)
    # the pattern covers every nonzero and is no denser than the function
    P = plan.pattern.toarray()
    assert not (np.abs(want) > 0)[~P].any()
    assert P.sum() < P.size


def test_patterns_are_tight():
    x = np.ones(12)
    assert tg.sparse.jacobian_sparsity(lambda x: VECTOR["banded"](tg, x), x).nnz == 22 + 11
    P = tg.sparse.jacobian_sparsity(lambda x: VECTOR["const_sparse_matrix"](tg, x), x)
    np.testing.assert_array_equal(P.toarray(), M != 0)  # zeros of a constant matrix kept
    P = tg.sparse.jacobian_sparsity(lambda x: VECTOR["block_diagonal"](tg, x), x)
    np.testing.assert_array_equal(P.toarray(), np.kron(np.eye(4), np.ones((3, 3))) > 0)
    P = tg.sparse.jacobian_sparsity(lambda x: x.cumsum(0), np.ones(5))
    np.testing.assert_array_equal(P.toarray(), np.tril(np.ones((5, 5))) > 0)
    H = tg.sparse.hessian_sparsity(lambda x: SCALAR["rosenbrock"](tg, x), x)
    np.testing.assert_array_equal(H.toarray(), np.abs(np.subtract.outer(
        np.arange(12), np.arange(12))) <= 1)


@pytest.mark.parametrize("mode", ["forward", "reverse"])
def test_jacobian_modes_agree(mode):
    f = lambda x: VECTOR["random_sparse"](tg, x)  # noqa: E731
    x = _points()[0]
    plan = tg.sparse.jacobian_plan(f, x, mode=mode)
    assert plan.mode == mode
    assert coloring.is_distance2(plan.pattern if mode == "forward" else plan.pattern.T,
                                 plan.colors)
    np.testing.assert_allclose(plan(x).toarray(), tg.compile(f).jacobian(x), rtol=1e-13)
    v, J = plan.value_and_jacobian(x)
    np.testing.assert_allclose(v, f(tg.tensor(x)).detach().numpy(), rtol=1e-13)


def test_auto_mode_picks_fewer_sweeps():
    # an arrow's dense row: column colours need n, row colours few
    f = lambda x: tg.cat([x[1:] * x[:-1], (x ** 2).sum().reshape(1)])  # noqa: E731
    plan = tg.sparse.jacobian_plan(f, np.ones(40))
    assert plan.mode == "reverse" and plan.ncolors <= 3
    # a dense column (x[0] in every output): row colours need m, column colours few
    g = lambda x: x[1:] * x[:-1] + x[0]  # noqa: E731
    plan = tg.sparse.jacobian_plan(g, np.ones(40))
    assert plan.mode == "forward" and plan.ncolors <= 3
    np.testing.assert_allclose(plan(np.arange(40.0)).toarray(),
                               tg.compile(g).jacobian(np.arange(40.0)), rtol=1e-13)


@pytest.mark.parametrize("name", sorted(SCALAR))
def test_hessian_equals_dense_and_torch(name):
    plan, want = _check_plan(tg.sparse.hessian_plan, SCALAR[name], torch.func.hessian,
                             "hessian", 1e-11)
    assert want.shape == (12, 12) and (plan.pattern != plan.pattern.T).nnz == 0
    assert not (np.abs(want) > 0)[~plan.pattern.toarray()].any()


def test_hessian_of_big_arrow_uses_few_colours():
    def f(x):  # a band plus a dense first row and column
        return (x[0] * x[1:]).sin().sum() + (x[1:] * x[:-1]).sum() + (x ** 3).sum()
    x = RNG.uniform(size=2000)
    plan = tg.sparse.hessian_plan(f, x)
    assert plan.ncolors <= 5
    H = plan(x)
    hv = tg.compile(f).hvp(x, np.eye(2000)[0] + np.eye(2000)[7])
    np.testing.assert_allclose(H @ (np.eye(2000)[0] + np.eye(2000)[7]), hv, rtol=1e-12)


# -- colourings: properties over random patterns ------------------------------------------
def _random_pattern(seed, m, n, density):
    r = np.random.default_rng(seed)
    return sp.csr_matrix(r.random((m, n)) < density)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 30), st.integers(1, 30),
       st.floats(0.0, 0.6))
def test_distance2_colouring_is_valid(seed, m, n, density):
    P = _random_pattern(seed, m, n, density)
    colors = coloring.color_columns(P)
    assert colors.shape == (n,) and coloring.is_distance2(P, colors)
    # and the compressed product gives back every entry
    J = P.multiply(np.random.default_rng(seed).standard_normal((m, n))).tocsr()
    V = np.eye(int(colors.max()) + 1)[colors]
    B = J @ V
    rows = np.repeat(np.arange(m), np.diff(J.indptr))
    np.testing.assert_array_equal(B[rows, colors[J.indices]], J.data)


def _is_star(S, c):
    """Every path on four vertices uses three colours or more (brute force)."""
    n = S.shape[0]
    nb = [set(S.indices[S.indptr[i]:S.indptr[i + 1]]) - {i} for i in range(n)]
    for v in range(n):
        for w in nb[v]:
            if c[v] == c[w]:
                return False
            for x in nb[w] - {v}:
                for y in nb[x] - {v, w}:
                    if c[v] == c[x] and c[w] == c[y]:
                        return False
    return True


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 40), st.floats(0.0, 0.4))
def test_star_colouring_is_valid_and_recovers(seed, n, density):
    P = _random_pattern(seed, n, n, density)
    S = ((P + P.T) > 0).tocsr()
    colors = coloring.star_color(S)
    assert _is_star(S, colors)
    r = np.random.default_rng(seed)
    H = S.multiply(r.standard_normal((n, n))).tocsr()
    H = ((H + H.T) / 2).tocsr()
    Hp = sp.csr_matrix((np.ones(H.nnz), H.indices, H.indptr), shape=H.shape)
    Hp.data[:] = 1
    take = coloring.star_recovery(Hp, colors)
    G = (H @ np.eye(int(colors.max()) + 1)[colors]).T  # (k, n)
    H.sort_indices()
    np.testing.assert_allclose(G.reshape(-1)[take], H.data, rtol=1e-12, atol=1e-12)


def test_star_colouring_gives_hubs_their_own_colour():
    n = 300
    S = sp.lil_matrix((n, n), dtype=bool)
    S[0, :] = True
    S[:, 0] = True
    S.setdiag(True)
    S = S.tocsr()
    c = coloring.star_color(S)
    assert int(c.max()) + 1 == 2 and _is_star(S, c)


def test_every_opcode_has_a_considered_pattern():
    """A new op must be classified here: a rule in pattern.py, the elementwise layout, no
    gradient, or a deliberate dense fallback."""
    dense = {69, 120, 121}  # nll_loss, a custom Function's rows: dense on purpose
    dense |= {122, 123, 127}  # MUL_S, ADD_S, SUB_S: eager tapes only (a trace records EXPAND)
    guards = {29, 30}  # no output
    for code, d in OPS.items():
        known = (code in pattern.RULES or code in dense or code in guards
                 or d.vjp is no_gradient
                 or d.check.__qualname__.startswith("elementwise."))
        assert known, (f"opcode {code} ({d.node}) has no sparsity rule: add one to "
                       "tapegrad/sparse/pattern.py, or list it as dense in this test")


# -- errors ---------------------------------------------------------------------------
def test_errors_are_clear():
    x = np.ones(4)
    with pytest.raises(TypeError, match="f must be callable"):
        tg.sparse.jacobian(3, x)
    with pytest.raises(TypeError, match="cannot be traced.*must return a tapegrad Tensor"):
        tg.sparse.jacobian(lambda x: np.sin(np.ones(3)), x)
    with pytest.raises(ValueError, match="must return a scalar"):
        tg.sparse.hessian(lambda x: x * 2, x)
    with pytest.raises(ValueError, match="mode must be"):
        tg.sparse.jacobian(lambda x: x * 2, x, mode="sideways")
    plan = tg.sparse.jacobian_plan(lambda x: x * 2, x)
    with pytest.raises(ValueError, match=r"made for an input of shape \(4,\), got \(5,\)"):
        plan(np.ones(5))
    hplan = tg.sparse.hessian_plan(lambda x: (x ** 3).sum(), x)
    with pytest.raises(ValueError, match="made for an input of shape"):
        hplan(np.ones((2, 2)))
    with pytest.raises(TypeError, match="real numbers"):
        tg.sparse.jacobian(lambda x: x * 2, np.array(["a", "b"]))


def test_a_point_on_another_branch_raises():
    def f(x):
        if x[0] > 0:
            return x * x
        return x[1:] * x[:-1]
    for mode in ("reverse", "forward"):  # (forward: checked before f is recorded eagerly)
        plan = tg.sparse.jacobian_plan(f, np.ones(3), mode=mode)
        with pytest.raises(tg.DivergenceError, match="another branch.*new plan"):
            plan(-np.ones(3))


def test_inputs_of_any_shape_are_flattened():
    f = lambda x: (x * x).sum(1)  # noqa: E731
    x = RNG.standard_normal((3, 2))
    J = tg.sparse.jacobian(f, x)
    assert J.shape == (3, 6)
    np.testing.assert_allclose(J.toarray(), tg.compile(f).jacobian(x).reshape(3, 6))
    H = tg.sparse.hessian(lambda x: (x ** 3).sum(), x)
    np.testing.assert_allclose(H.diagonal(), 6 * x.reshape(-1))


def _declining(monkeypatch):
    """Make the tangent sweep decline, as it does on a graph it has no rule for."""
    monkeypatch.setattr(tg.sparse.tangent, "sweep", lambda *a, **k: None)


def test_forward_mode_by_tangent_sweep_and_its_fallback(monkeypatch):
    f = lambda x: VECTOR["random_sparse"](tg, x)  # noqa: E731
    x, y = _points()[:2]
    calls = []
    sweep = tg.sparse.tangent.sweep
    monkeypatch.setattr(tg.sparse.tangent, "sweep",
                        lambda *a, **k: calls.append(a[3]) or sweep(*a, **k))
    plan = tg.sparse.jacobian_plan(f, x, mode="forward")
    assert plan.vjp_traced is None and calls == [plan.ncolors]  # one sweep, a lane per colour
    for p in (x, y):
        np.testing.assert_allclose(plan(p).toarray(), tg.compile(f).jacobian(p), rtol=1e-13)
        v, J = plan.value_and_jacobian(p)
        np.testing.assert_allclose(v, f(tg.tensor(p)).detach().numpy(), rtol=1e-13)
    monkeypatch.setattr(tg.sparse, "SEED_VALUES", 1)  # lanes in chunks: one colour each
    calls.clear()
    np.testing.assert_allclose(plan(y).toarray(), tg.compile(f).jacobian(y), rtol=1e-13)
    assert calls == [1] * plan.ncolors
    _declining(monkeypatch)  # the fallback: reverse sweeps of the J.T u tape
    np.testing.assert_allclose(plan(y).toarray(), tg.compile(f).jacobian(y), rtol=1e-13)
    assert plan.vjp_traced is not None and not plan._by_sweep
    declined = tg.sparse.jacobian_plan(f, x, mode="forward")
    assert declined.mode == "forward" and declined.vjp_traced is not None
    v, J = declined.value_and_jacobian(y)
    np.testing.assert_allclose(J.toarray(), tg.compile(f).jacobian(y), rtol=1e-13)
    np.testing.assert_allclose(v, f(tg.tensor(y)).detach().numpy(), rtol=1e-13)


def test_forward_mode_without_sweep_needs_second_order_rules(monkeypatch):
    # prod along a dim has a tangent rule but no create_graph rule yet: forward mode runs
    # by the tangent sweep; where the sweep declines, "auto" falls back to reverse sweeps,
    # "forward" says why it cannot
    g = lambda x: x.reshape(4, 3).prod(1).repeat(3) + x[0]  # noqa: E731
    x = RNG.uniform(0.5, 1.5, 12)
    plan = tg.sparse.jacobian_plan(g, x, mode="forward")
    np.testing.assert_allclose(plan(x).toarray(), tg.compile(g).jacobian(x), rtol=1e-13)
    _declining(monkeypatch)
    plan = tg.sparse.jacobian_plan(g, x)
    assert plan.mode == "reverse"
    np.testing.assert_allclose(plan(x).toarray(), tg.compile(g).jacobian(x), rtol=1e-13)
    with pytest.raises(NotImplementedError, match="mode='forward'.*use mode='reverse'"):
        tg.sparse.jacobian_plan(g, x, mode="forward")


def test_hessian_of_a_linear_function_is_zero():
    H = tg.sparse.hessian(lambda x: 3 * x.sum() - x[0], np.arange(4.0))
    assert H.shape == (4, 4) and H.nnz == 0
