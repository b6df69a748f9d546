"""create_graph=True (double backward) for every op in the op table, gradgradcheck, and
Hessians against PyTorch on composite functions.

Per spec row: the recorded first-order gradient equals the compiled sweep's; the second
derivative ``d/dx <J(x)^T u, v>`` matches central differences of the compiled gradient and
HIPS autograd's grad-of-grad; and the derivative with respect to the seed ``u`` is ``J v``
(the double-vjp trick jvp relies on).
"""
import os

import autograd
import autograd.numpy as anp
import numpy as np
import pytest

import tapegrad as tg
from tapegrad.ops import SPECS
from tapegrad.ops.control import GUARD, GUARD_EQ
from tapegrad.ops.custom import CUSTOM
from tapegrad.ops.registry import OPS, VJP

SPEC_CASES = [pytest.param(spec, shape, id=f"{spec.name}-shape{shape}")
              for spec in SPECS for shape in spec.shapes]
ONE_SHAPE = [pytest.param(spec, spec.shapes[-1], id=f"{spec.name}-shape{spec.shapes[-1]}")
             for spec in SPECS]  # the second-order checks: the largest shape of each row
NO_ADJOINT = {GUARD, GUARD_EQ, CUSTOM}  # no output to differentiate, or a Python backward


def _setup(spec, shape, rng, draw):
    xs = draw(spec, shape, rng)
    out_shape = np.shape(spec.ref(np, *xs))
    u = rng.standard_normal(out_shape)
    vs = [rng.standard_normal(x.shape) for x in xs]
    return xs, u, vs


def _first(spec, ts, u, create_graph=True):
    out = spec.fn(*ts)
    return tg.autograd.grad(out, ts, grad_outputs=tg.tensor(u), create_graph=create_graph,
                            allow_unused=True, materialize_grads=True)


def _s(spec, xs, u, vs):
    """<J(x)^T u, v> from the compiled sweep (plain floats)."""
    ts = [tg.tensor(x, requires_grad=True) for x in xs]
    gs = _first(spec, ts, u, create_graph=False)
    return sum(float(np.vdot(np.asarray(g), v)) for g, v in zip(gs, vs, strict=True))


def _second(spec, xs, u, vs):
    ts = [tg.tensor(x, requires_grad=True) for x in xs]
    gs = _first(spec, ts, u)
    s = sum((g * tg.tensor(v)).sum() for g, v in zip(gs, vs, strict=True))
    if not s.requires_grad:  # a linear op: no second derivative
        return [np.zeros(x.shape) for x in xs]
    hs = tg.autograd.grad(s, ts, allow_unused=True, materialize_grads=True)
    return [np.asarray(h, np.float64) for h in hs]


def test_every_op_has_an_adjoint():
    missing = sorted(f"{c} {d.node}" for c, d in OPS.items()
                     if c not in VJP and c not in NO_ADJOINT)
    assert not missing, f"opcodes declared without a create_graph vjp (registry.py): {missing}"


@pytest.mark.parametrize("spec, shape", SPEC_CASES)
def test_recorded_gradient_equals_sweep(spec, shape, rng, draw):
    xs, u, _ = _setup(spec, shape, rng, draw)
    ts = [tg.tensor(x, requires_grad=True) for x in xs]
    recorded = _first(spec, ts, u)
    ts2 = [tg.tensor(x, requires_grad=True) for x in xs]
    swept = _first(spec, ts2, u, create_graph=False)
    for a, b in zip(recorded, swept, strict=True):
        np.testing.assert_allclose(np.asarray(a.detach()), np.asarray(b.detach()), rtol=1e-12,
                                   atol=1e-14)


@pytest.mark.parametrize("spec, shape", ONE_SHAPE)
def test_second_derivative_fd(spec, shape, rng, draw):
    xs, u, vs = _setup(spec, shape, rng, draw)
    hs = _second(spec, xs, u, vs)
    h = 1e-5
    for i, x in enumerate(xs):
        d = rng.standard_normal(x.shape)
        plus = [x + h * d if j == i else y for j, y in enumerate(xs)]
        minus = [x - h * d if j == i else y for j, y in enumerate(xs)]
        fd = (_s(spec, plus, u, vs) - _s(spec, minus, u, vs)) / (2 * h)
        np.testing.assert_allclose(np.vdot(hs[i], d), fd, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("spec, shape", [p for p in ONE_SHAPE if p.values[0].oracle])
def test_second_derivative_oracle(spec, shape, rng, draw):
    xs, u, vs = _setup(spec, shape, rng, draw)

    def s(*args):
        def loss(*ys):
            return anp.sum(spec.ref(anp, *ys) * u)
        return sum(anp.sum(autograd.grad(loss, i)(*args) * v) for i, v in enumerate(vs))

    try:
        want = [np.asarray(autograd.grad(s, i)(*xs), np.float64) for i in range(len(xs))]
    except (NotImplementedError, TypeError, ValueError) as e:
        pytest.skip(f"HIPS autograd has no second derivative here: {e}")
    for got, w in zip(_second(spec, xs, u, vs), want, strict=True):
        np.testing.assert_allclose(got, w, rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("spec, shape", ONE_SHAPE)
def test_derivative_wrt_seed_is_jvp(spec, shape, rng, draw, fd_dot):
    """d/du <J^T u, v> = J v: checked as <J v, w> against central differences of f."""
    xs, u, vs = _setup(spec, shape, rng, draw)
    ts = [tg.tensor(x, requires_grad=True) for x in xs]
    ut = tg.tensor(u, requires_grad=True)
    gs = tg.autograd.grad(spec.fn(*ts), ts, grad_outputs=ut, create_graph=True,
                          allow_unused=True, materialize_grads=True)
    s = sum((g * tg.tensor(v)).sum() for g, v in zip(gs, vs, strict=True))
    if s.requires_grad:
        (jv,) = tg.autograd.grad(s, ut, allow_unused=True, materialize_grads=True)
    else:  # the gradient does not depend on u: a constant function (x ** 0)
        jv = np.zeros(u.shape)
    w = rng.standard_normal(u.shape)
    want = sum(fd_dot(spec.fn, xs, i, v, w) for i, v in enumerate(vs))
    np.testing.assert_allclose(np.vdot(np.asarray(jv), w), want, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("spec", [s for s in SPECS if s.oracle], ids=lambda s: s.name)
def test_gradgradcheck(spec, rng, draw):
    shape = spec.shapes[-1]
    xs = [tg.tensor(x, requires_grad=True) for x in draw(spec, shape, rng)]
    assert tg.autograd.gradgradcheck(spec.fn, xs, atol=1e-5, rtol=1e-4, fast_mode=True)


# ---- composite functions: Hessians and products against PyTorch ---------------------------
def _mlp(lib, F):
    def f(w):
        w1 = w[:12].reshape(3, 4)
        w2 = w[12:20].reshape(4, 2)
        x = lib.tensor(np.linspace(-1.0, 1.0, 15).reshape(5, 3))
        h = (x @ w1).tanh()
        return F.cross_entropy(h @ w2, lib.tensor([0, 1, 1, 0, 1]))
    return f


def _attention(lib, F):
    def f(w):
        q = w[:6].reshape(2, 3)
        k = w[6:12].reshape(2, 3)
        v = w[12:18].reshape(2, 3)
        return (F.softmax(q @ k.T / 3 ** 0.5, dim=-1) @ v).pow(2).sum()
    return f


def _physics(lib, F):
    def f(w):
        r = (w[:-1] - w[1:]).abs() + 0.5
        return (1 / r).sum() + w.norm() ** 3 + w.clamp(-0.5, 0.5).sum() * w.std() + \
            lib.logsumexp(w, 0) + w.max() * w.cumsum(0).mean()
    return f


@pytest.mark.parametrize("make, n", [(_mlp, 20), (_attention, 18), (_physics, 7)],
                         ids=["mlp-cross-entropy", "attention", "physics"])
def test_hessian_and_hvp_match_torch(make, n):
    torch = pytest.importorskip("torch")
    import torch.nn.functional as TF

    import tapegrad.nn.functional as F
    rng = np.random.default_rng(3)
    w0 = rng.uniform(-0.9, 0.9, n)
    v0 = rng.standard_normal(n)
    f, ft = make(tg, F), make(torch, TF)
    H = tg.autograd.functional.hessian(f, tg.tensor(w0))
    Ht = torch.autograd.functional.hessian(ft, torch.tensor(w0))
    np.testing.assert_allclose(np.asarray(H), Ht.numpy(), rtol=1e-8, atol=1e-10)
    for name in ("hvp", "vhp"):
        out, hv = getattr(tg.autograd.functional, name)(f, tg.tensor(w0), tg.tensor(v0))
        outt, hvt = getattr(torch.autograd.functional, name)(ft, torch.tensor(w0),
                                                               torch.tensor(v0))
        np.testing.assert_allclose(float(out), float(outt), rtol=1e-12)
        np.testing.assert_allclose(np.asarray(hv), hvt.numpy(), rtol=1e-8, atol=1e-10)


def test_backward_create_graph_gives_grad_with_graph():
    x = tg.tensor([0.5, -1.0, 2.0], requires_grad=True)
    with pytest.warns(UserWarning, match="reference cycle"):
        (x ** 3).sum().backward(create_graph=True)
    g = x.grad
    assert g.grad_fn is not None and g.requires_grad
    np.testing.assert_allclose(np.asarray(g.detach()), 3 * np.array([0.5, -1.0, 2.0]) ** 2)
    x.grad = None
    g.sum().backward()  # d/dx sum(3 x^2) = 6 x
    np.testing.assert_allclose(np.asarray(x.grad), 6 * np.array([0.5, -1.0, 2.0]))


def test_third_order_scalar():
    x = tg.tensor(0.7, requires_grad=True)
    y = x.sin() * x.exp()
    (g1,) = tg.autograd.grad(y, x, create_graph=True)
    (g2,) = tg.autograd.grad(g1, x, create_graph=True)
    (g3,) = tg.autograd.grad(g2, x)
    # (sin x e^x)''' = 2 e^x (cos x - sin x)
    np.testing.assert_allclose(float(g3), 2 * np.exp(0.7) * (np.cos(0.7) - np.sin(0.7)))


def test_float32_keeps_dtype():
    x = tg.tensor([1.0, 2.0], dtype=tg.float32, requires_grad=True)
    (g,) = tg.autograd.grad((x ** 3).sum(), x, create_graph=True)
    assert g.dtype == tg.float32
    (h,) = tg.autograd.grad(g.sum(), x)
    assert h.dtype == tg.float32
    np.testing.assert_allclose(np.asarray(h), [6.0, 12.0], rtol=1e-6)


def test_second_backward_through_freed_graph_raises():
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    y = (x.exp() * x).sum()
    y.backward()  # frees the graph
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        tg.autograd.grad(y, x, create_graph=True)


def test_functional_conventions():
    F = tg.autograd.functional
    x = tg.tensor([1.0, 2.0])
    out, g = F.vjp(lambda a: (a * a).sum(), x)
    assert not out.requires_grad and not g.requires_grad
    np.testing.assert_allclose(np.asarray(g), [2.0, 4.0])
    J = F.jacobian(lambda a, b: a * b, (x, tg.tensor([3.0, 4.0])))
    assert isinstance(J, tuple) and len(J) == 2
    np.testing.assert_allclose(np.asarray(J[0]), np.diag([3.0, 4.0]))
    with pytest.raises(RuntimeError, match="independent of input 1"):
        F.jacobian(lambda a, b: a * 2, (x, tg.tensor([3.0, 4.0])), strict=True)
    with pytest.raises(RuntimeError, match="single element"):
        F.hessian(lambda a: a * 2, x)
    with pytest.raises(RuntimeError, match="can only be None"):
        F.vjp(lambda a: a * 2, x)


# ---- second order by replay: tapegrad.compile(f).hvp / hessian / jacobian -----------------
def _rosen(x):
    rosen = (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()
    return rosen + x.sin().sum() * x.exp().mean()


def test_compiled_hvp_hessian_equal_eager_at_many_points():
    rng = np.random.default_rng(5)
    X = rng.uniform(-1.2, 1.2, (6, 5))
    V = rng.standard_normal((6, 5))
    f = tg.compile(_rosen)
    HB = f.hessian_batch(X)
    HV = f.hvp_batch(X, V)
    for b in range(len(X)):
        H = np.asarray(tg.autograd.functional.hessian(_rosen, tg.tensor(X[b])))
        np.testing.assert_allclose(HB[b], H, rtol=1e-12, atol=1e-10)
        np.testing.assert_allclose(HV[b], H @ V[b], rtol=1e-12, atol=1e-10)
        np.testing.assert_allclose(f.hvp(X[b], V[b]), H @ V[b], rtol=1e-12, atol=1e-10)
    np.testing.assert_allclose(f.hessian(X[0]), HB[0], rtol=1e-14)


def test_compiled_jacobian_of_vector_function():
    def fn(x):
        return tg.cat([x.sin() * x.sum(), (x[:2] ** 3)])
    x = np.array([0.3, -0.7, 1.1])
    J = tg.compile(fn).jacobian(x)
    assert J.shape == (5, 3)
    np.testing.assert_allclose(J, np.asarray(tg.autograd.functional.jacobian(fn, tg.tensor(x))),
                               rtol=1e-13)


def test_compiled_hvp_follows_guards():
    def branchy(x):
        return (x ** 3).sum() if float(x[0]) > 0 else (x ** 2).sum()
    f = tg.compile(branchy)  # on_divergence="retrace": one tape per branch
    X = np.array([[1.0, 2.0], [-1.0, 2.0]])
    V = np.ones_like(X)
    np.testing.assert_allclose(f.hvp_batch(X, V), [[6.0, 12.0], [2.0, 2.0]])


PIECEWISE = {  # second-order rules with masks: replay must re-evaluate them at every point
    "relu": lambda x: (x.relu() ** 3).sum(),
    "abs-clamp": lambda x: (x.abs() ** 3).sum() + (x.clamp(-0.3, 0.4) * x.exp()).sum(),
    "maximum": lambda x: (tg.maximum(x, x.flip(0)) ** 3).sum(),
    "max-amax": lambda x: x.max() ** 3 + x.amax() * x.sum(),
    "norms": lambda x: x.norm() ** 3 + x.norm(p=3) * x.norm(p=1) + x.std() * x.var(),
    "where-softplus": lambda x: (tg.where(x > 0, x ** 3, x.sin()) *
                                 tg.nn.functional.softplus(x, beta=2, threshold=0.5)).sum(),
    "pow-atan2": lambda x: ((x.abs() + 0.5) ** x).sum() + tg.atan2(x, x.flip(0) ** 2).sum(),
    "masked_fill": lambda x: (x.masked_fill(x > 0.2, 1.5) ** 3).sum(),
}


@pytest.mark.parametrize("name", list(PIECEWISE))
def test_compiled_hessian_re_evaluates_masks_at_every_point(name):
    fn = PIECEWISE[name]
    X = np.random.default_rng(8).uniform(-1.0, 1.0, (8, 4))
    HB = tg.compile(fn).hessian_batch(X)
    for b in range(len(X)):
        H = np.asarray(tg.autograd.functional.hessian(fn, tg.tensor(X[b])))
        np.testing.assert_allclose(HB[b], H, rtol=1e-11, atol=1e-11)


@pytest.mark.parametrize("fn", [lambda x: x.max(0)[0] ** 3, lambda x: x.prod() ** 2],
                         ids=["max-dim", "prod"])
def test_compiled_second_order_refuses_point_masks(fn):
    f = tg.compile(fn)
    with pytest.raises(NotImplementedError, match="Backward.*autograd.functional"):
        f.hvp(np.array([1.0, -1.0]), np.array([1.0, 1.0]))


def test_double_backward_through_a_custom_function():
    """A custom backward written with tensor ops is recorded under create_graph."""
    from test_function import make_log1pexp  # the log1pexp, written once there
    Log1pexp = make_log1pexp(tg)
    x0 = np.array([-1.0, 0.3, 2.0])
    x = tg.tensor(x0, requires_grad=True)
    (g,) = tg.autograd.grad(Log1pexp.apply(x * 2).sum(), x, create_graph=True)
    (h,) = tg.autograd.grad(g.sum(), x)
    s = 1 / (1 + np.exp(-2 * x0))
    np.testing.assert_allclose(np.asarray(g.detach()), 2 * s, rtol=1e-14)
    np.testing.assert_allclose(np.asarray(h), 4 * s * (1 - s), rtol=1e-13)
    assert tg.autograd.gradgradcheck(Log1pexp.apply, (tg.tensor(x0, requires_grad=True),))


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT", "0") == "1",
                    reason="NUMBA_DISABLE_JIT=1: its hessian_batch replays 50 points in Python")
def test_readme_higher_order_example_runs():
    from pathlib import Path
    text = (Path(__file__).parents[1] / "README.md").read_text()
    section = text[text.index("## Higher order"):]
    start = section.index("```python") + len("```python")
    code = section[start:section.index("```", start)]
    env = {}
    exec(compile(code, "README.md (higher order)", "exec"), env)
    H = np.asarray(env["H"])
    env.clear()  # its lambdas hold env as their globals: a cycle keeping the graph alive
    np.testing.assert_allclose(H, np.diag(np.exp([0.1, 0.2]) * (2 + np.array([0.1, 0.2]))),
                               rtol=1e-13)


def test_gradient_penalty_loop_runs_in_constant_memory():
    """create_graph in a training loop: the adjoint rows go with the graph."""
    import tracemalloc

    import tapegrad.tape as tape_mod
    tape = tape_mod.current_tape()
    # a non-leaf from outside this test would keep the tape in its generation and every
    # row of the loop on it: say so, rather than count those rows as a leak of the loop
    assert tape._token is None or tape._token() is None, (
        f"a non-leaf tensor made before this test still holds this thread's tape "
        f"({tape.nrows} rows; conftest.py release_the_tape)")
    del tape
    w = tg.tensor(np.random.default_rng(0).standard_normal(50), requires_grad=True)
    opt = tg.optim.SGD([w], lr=1e-3)

    def step():
        loss = (w.sin() * w).sum()
        (g,) = tg.autograd.grad(loss, w, create_graph=True)
        pen = loss + (g ** 2).sum()
        opt.zero_grad()
        pen.backward()
        opt.step()

    for _ in range(50):
        step()
    tracemalloc.start()
    try:
        for _ in range(300):
            step()
        current, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert current < 1_000_000, f"{current} bytes still allocated after 300 steps"
    assert tape_mod.current_tape().nrows == 0


def test_hooks_run_with_grad_under_create_graph():
    """As PyTorch: hooks see (and may return) differentiable gradients under create_graph;
    values checked against torch's for the same program."""
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    y.register_hook(lambda g: g * 10)
    x.register_hook(lambda g: g + 1)
    (g,) = tg.autograd.grad(y.sum(), x, create_graph=True)
    assert g.requires_grad
    np.testing.assert_allclose(np.asarray(g.detach()), [21.0, 41.0])
    (h,) = tg.autograd.grad(g.sum(), x)  # the leaf hook adds 1 to this gradient too
    np.testing.assert_allclose(np.asarray(h), [21.0, 21.0])


def test_backward_create_graph_fills_retained_non_leaf_grads():
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    y.retain_grad()
    with pytest.warns(UserWarning, match="reference cycle between the parameter and its"):
        (y * y).sum().backward(create_graph=True)
    np.testing.assert_allclose(np.asarray(y.grad.detach()), [2.0, 8.0])  # d(y^2)/dy = 2y
    np.testing.assert_allclose(np.asarray(x.grad.detach()), [4.0, 32.0])  # 4 x^3
    assert x.grad.requires_grad
    x.grad = None  # break the x -> grad -> tape -> x cycle, as PyTorch's warning advises


PROD_ZEROS = [  # (values, dim): groups with one, two and three zeros, and none
    (np.array([2.0, 0.0, 3.0, -1.5]), None), (np.array([0.0, -1.0, 0.0, 3.0]), None),
    (np.array([0.0, 0.0, 0.0, 2.0]), None),
    (np.array([[2.0, 0.0, 3.0], [1.0, 2.0, 0.5], [0.0, 0.0, 4.0], [0.0, 0.0, 0.0]]), 1),
    (np.array([[2.0, 0.0, 3.0], [1.0, 2.0, 0.5], [0.0, 0.0, 4.0]]), 0),
]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("xs, dim", PROD_ZEROS)
def test_second_and_third_derivatives_of_prod_with_zeros_are_torchs(xs, dim, dtype, torch):
    """The product of the others, at zeros too: Hessian-vector products and a third
    derivative through prod (all or along a dim) equal PyTorch's."""
    def run(lib):
        x = lib.tensor(xs.astype(dtype), requires_grad=True)
        p = x.prod() if dim is None else x.prod(dim)
        w = lib.tensor(np.linspace(0.5, 1.5, p.numel()).reshape(tuple(p.shape)).astype(dtype))
        (gx,) = lib.autograd.grad((p * w).sum(), [x], create_graph=True)
        v = lib.tensor(np.linspace(-1.0, 2.0, xs.size).reshape(xs.shape).astype(dtype))
        (hv,) = lib.autograd.grad((gx * v).sum(), [x], create_graph=True)
        (t,) = lib.autograd.grad((hv * hv).sum(), [x])
        return [a.detach().numpy() for a in (gx, hv, t)]

    for got, want in zip(run(tg), run(torch), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
