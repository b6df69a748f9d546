"""float32 end to end: every op of the spec table keeps float32 values and gives float32
gradients (equal to the float64 gradient at the same points, to float32 accuracy, and to
PyTorch's float32 gradient), and mixed float32/float64 operands promote as PyTorch does."""
import numpy as np
import pytest

import tapegrad as tg
from tapegrad.ops import SPECS

CASES = [pytest.param(spec, shape, id=f"{spec.name}-shape{shape}")
         for spec in SPECS for shape in spec.shapes]


def _inputs(spec, shape, rng, draw):
    return draw(spec, shape, rng, np.float32)


def _grads(fn, arrays, u):
    xs = [tg.tensor(a, requires_grad=True) for a in arrays]
    out = fn(*xs)
    grads = tg.autograd.grad(out, xs, grad_outputs=tg.tensor(u.astype(out.dtype)),
                             allow_unused=True)
    return out, grads


@pytest.mark.parametrize("spec, shape", CASES)
def test_float32_values_and_grads_stay_float32(spec, shape, rng, draw):
    xs = _inputs(spec, shape, rng, draw)
    out, grads = _grads(spec.fn, xs, rng.standard_normal(np.shape(spec.ref(np, *xs))))
    assert out.dtype == tg.float32
    for x, g in zip(xs, grads, strict=True):
        assert g is None or (g.dtype == tg.float32 and tuple(g.shape) == x.shape)


@pytest.mark.parametrize("spec, shape", CASES)
def test_float32_grads_equal_float64_grads_to_float32_accuracy(spec, shape, rng, draw):
    xs = _inputs(spec, shape, rng, draw)
    u = rng.standard_normal(np.shape(spec.ref(np, *xs)))
    _, g32 = _grads(spec.fn, xs, u)
    _, g64 = _grads(spec.fn, [x.astype(np.float64) for x in xs], u)
    for a, b in zip(g32, g64, strict=True):
        if a is None:
            assert b is None
            continue
        b = np.asarray(b)
        np.testing.assert_allclose(np.asarray(a, np.float64), b, rtol=2e-4,
                                   atol=2e-5 * max(1.0, np.abs(b).max(initial=0.0)))


@pytest.mark.oracle
@pytest.mark.parametrize("spec, shape", CASES)
def test_float32_grads_match_torch_float32(spec, shape, rng, draw, torch):
    xs = _inputs(spec, shape, rng, draw)
    u = rng.standard_normal(np.shape(spec.ref(np, *xs))).astype(np.float32)
    out, grads = _grads(spec.fn, xs, u)
    txs = [torch.tensor(x, requires_grad=True) for x in xs]
    try:
        tout = spec.fn(*txs)
    except (TypeError, AttributeError, RuntimeError):
        pytest.skip("this spec's fn is tapegrad-only")
    assert str(tout.dtype) == "torch.float32"
    tg_ = torch.autograd.grad(tout, txs, grad_outputs=torch.tensor(u), allow_unused=True)
    np.testing.assert_allclose(np.asarray(out, np.float64), tout.detach().double().numpy(),
                               rtol=1e-5, atol=1e-5)
    for a, b in zip(grads, tg_, strict=True):
        if b is None:
            continue
        b = b.double().numpy()
        np.testing.assert_allclose(np.asarray(a, np.float64), b, rtol=2e-4,
                                   atol=2e-5 * max(1.0, np.abs(b).max(initial=0.0)))


# ---- mixed dtypes: PyTorch's promotion, and each gradient in its input's dtype ----------
MIXED_OPS = {
    "add": lambda L, a, b: a + b, "sub": lambda L, a, b: a - b, "mul": lambda L, a, b: a * b,
    "div": lambda L, a, b: a / b, "pow": lambda L, a, b: a ** b, "rsub": lambda L, a, b: b - a,
    "rdiv": lambda L, a, b: b / a, "maximum": lambda L, a, b: L.maximum(a, b),
    "atan2": lambda L, a, b: L.atan2(a, b), "where": lambda L, a, b: L.where(a > 0.5, a, b),
    "cat": lambda L, a, b: L.cat([a.reshape(-1), b.reshape(-1)]),
    "clamp_t": lambda L, a, b: L.clamp(a, min=b),
    "masked_fill": lambda L, a, b: a.masked_fill(a > 0.5, b),
}
COMBOS = {  # (dtype, shape) of each operand; "py" is a Python float
    "f32[3] f64[3]": (("float32", (3,)), ("float64", (3,))),
    "f32[3] f64[]": (("float32", (3,)), ("float64", ())),
    "f32[] f64[]": (("float32", ()), ("float64", ())),
    "f64[3] f32[]": (("float64", (3,)), ("float32", ())),
    "f32[] f64[3]": (("float32", ()), ("float64", (3,))),
    "f32[3] py": (("float32", (3,)), ("py", None)),
    "f32[] py": (("float32", ()), ("py", None)),
    "f32[] np.float64": (("float32", ()), ("np", None)),
    "f32[3] np.float64": (("float32", (3,)), ("np", None)),
    "i64[3] f32[]": (("int64", (3,)), ("float32", ())),
    "f32[2,3] f64[3]": (("float32", (2, 3)), ("float64", (3,))),
}


def _mixed(L, name, combo, rng_seed):
    rng = np.random.default_rng(rng_seed)
    ops = []
    for dt, shape in COMBOS[combo]:
        if dt in ("py", "np"):
            ops.append(0.75 if dt == "py" else np.float64(0.75))
            continue
        a = rng.uniform(0.2, 1.0, shape)
        if dt == "int64":
            ops.append(L.tensor((a * 4).astype(np.int64)))
        else:
            ops.append(L.tensor(a.astype(dt), requires_grad=True))
    out = MIXED_OPS[name](L, *ops)
    ins = [t for t in ops if isinstance(t, L.Tensor) and t.requires_grad]
    grads = L.autograd.grad(out.sum(), ins)
    return out, grads


BUGS = {}  # (op, combo): the bug, xfail(strict=True) until fixed


@pytest.mark.oracle
@pytest.mark.parametrize("name, combo", [
    pytest.param(n, c, id=f"{n}-{c}", marks=[pytest.mark.xfail(strict=True, reason=BUGS[n, c])]
                 if (n, c) in BUGS else []) for n in MIXED_OPS for c in COMBOS
    if not (n == "cat" and ("py" in c or "np" in c))])  # cat takes tensors only
def test_mixed_promotion_matches_torch(name, combo, torch):
    try:
        tout, tgrads = _mixed(torch, name, combo, 0)
    except (TypeError, RuntimeError) as e:  # PyTorch refuses: so must tapegrad
        with pytest.raises(type(e)):
            _mixed(tg, name, combo, 0)
        return
    out, grads = _mixed(tg, name, combo, 0)
    assert str(out.dtype).split(".")[-1] == str(tout.dtype).split(".")[-1]
    tol = 1e-6 if out.dtype == tg.float32 else 1e-13
    np.testing.assert_allclose(np.asarray(out, np.float64), tout.detach().double().numpy(),
                               rtol=tol, atol=tol)
    for g, tgr in zip(grads, tgrads, strict=True):
        assert str(g.dtype).split(".")[-1] == str(tgr.dtype).split(".")[-1]
        np.testing.assert_allclose(np.asarray(g, np.float64), tgr.double().numpy(),
                                   rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("make", [
    lambda: tg.zeros(2, 3, dtype=tg.float32), lambda: tg.ones(3, dtype=tg.float32),
    lambda: tg.full((2,), 1.5, dtype=tg.float32), lambda: tg.randn(4, dtype=tg.float32),
    lambda: tg.rand(4, dtype=tg.float32), lambda: tg.arange(3, dtype=tg.float32),
    lambda: tg.linspace(0, 1, 5, dtype=tg.float32), lambda: tg.eye(2, dtype=tg.float32),
    lambda: tg.tensor([1.0, 2.0]).float(), lambda: tg.tensor(1.5, dtype=tg.float32),
    lambda: tg.zeros_like(tg.ones(2, dtype=tg.float32)),
])
def test_creation_keeps_float32(make):
    t = make()
    assert t.dtype == tg.float32
    x = t.detach().requires_grad_()
    ((x * 2.0).sin() * x).sum().backward()
    assert x.grad.dtype == tg.float32


def test_scalar_float32_keeps_float32_through_python_numbers():
    x = tg.tensor(0.5, dtype=tg.float32, requires_grad=True)
    y = (x * 3.0 + 1.0) ** 2 / 2.0 - x.exp()
    assert y.dtype == tg.float32
    y.backward()
    assert x.grad.dtype == tg.float32 and x.grad.shape == ()
    x.grad = None
    y = (x * 3.0).sin()
    y.backward()
    assert x.grad.dtype == tg.float32


def test_float32_grad_accumulates_in_float32():
    x = tg.tensor([1.0, 2.0], dtype=tg.float32, requires_grad=True)
    for _ in range(3):
        (x * x).sum().backward()
    assert x.grad.dtype == tg.float32 and x.grad.tolist() == [6.0, 12.0]


# ---- the float32 arena: a float32 graph is recorded and swept in float32 -----------------
def _mlp_grads(L, dtype, seed=0):
    """Gradients of a small MLP with cross-entropy (L is tapegrad or torch)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((16, 5)).astype(dtype)
    y = rng.integers(0, 3, 16)
    ws = [L.tensor((rng.standard_normal(s) * 0.5).astype(dtype), requires_grad=True)
          for s in ((8, 5), (8,), (3, 8), (3,))]
    F = L.nn.functional
    h = L.tanh(F.linear(L.tensor(x), ws[0], ws[1]))
    loss = F.cross_entropy(F.linear(h, ws[2], ws[3]), L.tensor(y))
    return loss, ws


def test_float32_graph_is_recorded_and_swept_in_float32(monkeypatch, torch):
    from tapegrad import arena as tape_mod
    from tapegrad.tape import current_tape
    asked = []
    real = tape_mod.adjoint_arena
    monkeypatch.setattr(tape_mod, "adjoint_arena", lambda n, dt=np.float64: asked.append(
        np.dtype(dt)) or real(n, dt))
    from tapegrad.autograd import engine
    monkeypatch.setattr(engine, "adjoint_arena", tape_mod.adjoint_arena)
    loss, ws = _mlp_grads(tg, np.float32)
    tape = current_tape()
    assert tape.dtype == np.float32 and tape.vals.itemsize == 4
    rows_bytes = tape.nbytes() - 4 * tape.nvals
    assert tape.nbytes() == rows_bytes + 4 * tape.nvals  # 4 bytes a value, not 8
    loss.backward()
    assert asked == [np.float32]  # the sweep's adjoints are float32, as PyTorch's are
    tloss, tws = _mlp_grads(torch, np.float32)
    tloss.backward()
    for w, t in zip(ws, tws, strict=True):
        assert w.grad.dtype == tg.float32
        np.testing.assert_allclose(np.asarray(w.grad), t.grad.numpy(), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("late", ["float64 array", "python-float scalar"])
def test_a_float64_value_promotes_a_float32_arena_exactly(late, torch):
    """A float64 value joining a float32 graph promotes the arena (values kept): the
    gradients are then PyTorch's mixed-dtype gradients."""
    from tapegrad.tape import current_tape

    def run(L):
        x = L.tensor(np.linspace(0.1, 0.9, 6, dtype=np.float32), requires_grad=True)
        h = (x * x).sin()
        z = (L.tensor(np.full(6, 1.0 / 3.0), requires_grad=True) if late == "float64 array"
             else L.tensor(1.0 / 3.0, dtype=L.float64, requires_grad=True))
        out = (h * z).sum()
        return out, L.autograd.grad(out, [x, z])

    out, grads = run(tg)
    assert current_tape().dtype == np.float64
    tout, tgrads = run(torch)
    assert str(out.dtype).split(".")[-1] == str(tout.dtype).split(".")[-1]
    for g, t in zip(grads, tgrads, strict=True):
        assert str(g.dtype).split(".")[-1] == str(t.dtype).split(".")[-1]
        np.testing.assert_allclose(np.asarray(g, np.float64), t.double().numpy(), rtol=1e-6)


def test_traced_float32_function_records_in_float64():
    """Replay is float64: a trace at float32 inputs keeps a float64 arena, so replay at
    float64 points is as exact as a float64 trace."""
    def f(x):
        return (x * x.exp()).sum()
    traced = tg.trace(f, np.array([0.5, 1.5], np.float32))
    ref = tg.trace(f, np.array([0.5, 1.5]))
    X = np.random.default_rng(0).standard_normal((5, 2))
    for a, b in zip(traced.value_and_grad_batch(X), ref.value_and_grad_batch(X), strict=True):
        np.testing.assert_array_equal(a, b)


def test_float32_second_order_and_hooks(torch):
    """create_graph reads the float32 arena; a hook sees float32 gradients."""
    def run(L):
        x = L.tensor(np.array([0.3, -0.7, 1.1], np.float32), requires_grad=True)
        h = x.tanh() * x
        seen = []
        h.register_hook(lambda g: seen.append(str(g.dtype)) or g * 2)
        (g,) = L.autograd.grad(h.pow(3).sum(), [x], create_graph=True)
        (gg,) = L.autograd.grad(g.sum(), [x])
        return g, gg, seen

    g, gg, seen = run(tg)
    tg_, tgg, tseen = run(torch)
    assert len(seen) == len(tseen) == 2 and all(d.endswith("float32") for d in seen + tseen)
    assert g.dtype == tg.float32 and gg.dtype == tg.float32
    np.testing.assert_allclose(np.asarray(g.detach()), tg_.detach().numpy(), rtol=1e-5)
    np.testing.assert_allclose(np.asarray(gg), tgg.numpy(), rtol=1e-5)


@pytest.mark.parametrize("first", [True, False], ids=["written", "added"])
def test_float32_tanh_backward_is_torchs_bit_for_bit(first, torch):
    """A float32 graph's tanh gradient is made in float32 as PyTorch's tanh_backward makes
    it (1 - y^2 rounded to float32, then the product): its bits at tapegrad's own y, where
    the input's adjoint is first reached by the tanh row (written) and where another row
    reached it first (added to)."""
    rng = np.random.default_rng(3)
    xs = (rng.standard_normal(4096) * 2).astype(np.float32)
    g = rng.standard_normal(4096).astype(np.float32)
    c = rng.standard_normal(4096).astype(np.float32)
    x = tg.tensor(xs, requires_grad=True)
    y = x.tanh()
    out = (y * tg.tensor(g)).sum()
    if not first:
        out = out + (x * tg.tensor(c)).sum()
    out.backward()
    want = torch.ops.aten.tanh_backward(torch.tensor(g), torch.tensor(np.asarray(y.detach())))
    if not first:
        want = want + torch.tensor(c)
    assert x.grad.dtype == tg.float32
    np.testing.assert_array_equal(np.asarray(x.grad), want.numpy())
