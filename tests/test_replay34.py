"""Replay against eager, round 34.

- The default dtype (``set_default_dtype``) is state every f reads: ``tensor(0.1)``,
  ``ones(3)``, ``arange(3.0)`` inside f make float32 constants under a float32 default.  A
  compiled f traced under one default kept its trace after a switch to the other, and
  replayed the old constants (0.1 as float64 where eager multiplies by float32's
  0.100000001...); a ``Traced`` replayed them without a word.  torch.compile guards the
  default dtype; now a compiled f traces again and a ``Traced`` raises, as for any other
  state f reads that moved.  Compared with f run eagerly, and with PyTorch.
- An in-place write into an expand that PyTorch lets through (through a view naming each
  element once, ``e[1].mul_(x)``, ``e[0] = v``; one value under no_grad, ``e.zero_()``)
  stayed in the expand's own copy: the base kept its values, the expand's other copies
  theirs, and no version error came where PyTorch raises one (found by
  tests/fuzz_replay_views25.py --start 3400000 --count 150: 2 eager-vs-torch failures).
  It goes into the base now; tapegrad.trace refuses it.
- ``compile(f)`` called with tensors, for an f whose trace is refused because a value
  leaves the tape (``if (x > 0.5).any():``, ``(x > 0) & (x < 1)``, ``x.clamp(min=x[0])``):
  it raised that refusal, where docs/replay.md has it run f eagerly (torch.compile's graph
  break).  Compared with PyTorch.
"""
import numpy as np
import pytest
import torch

import tapegrad as tg
import user_funcs34

X = np.array([0.3, -0.7, 1.1])


def _eager(f, x):
    xt = tg.tensor(x, requires_grad=True)
    y = f(tg, xt)
    g, = tg.autograd.grad(y, xt)
    return float(y), g.numpy()


def _torch(f, x):
    xt = torch.tensor(x, requires_grad=True)
    y = f(torch, xt)
    y.backward()
    return float(y), xt.grad.numpy()


def _scalar(T, x):
    return (x * T.tensor(0.1)).sum()


def _ones(T, x):
    return (x * (T.ones(3) / 3)).sum()


def _arange(T, x):
    return (x * (T.arange(3.0) * 0.1)).sum() + (x * T.tensor([0.1, 0.2, 0.3])).sum()


def _full(T, x):
    return (x * T.full((3,), 1 / 3)).sum() + x.sum() * T.linspace(0, 1, 7)[1]


@pytest.fixture
def restore_default():
    yield
    tg.set_default_dtype(tg.float64)
    torch.set_default_dtype(torch.float32)


@pytest.mark.parametrize("f", [_scalar, _ones, _arange, _full])
@pytest.mark.parametrize("first", ["float64", "float32"])
def test_default_dtype_switched_between_calls(f, first, restore_default):
    C = tg.compile(lambda x: f(tg, x))
    T = tg.jit.trace(lambda x: f(tg, x), X) if first == "float64" else None
    for dt in [first, "float32" if first == "float64" else "float64", first]:
        tg.set_default_dtype(getattr(tg, dt))
        torch.set_default_dtype(getattr(torch, dt))
        v, g = _eager(f, X)
        vt, gt = _torch(f, X)
        assert v == vt  # (the oracle: f eagerly is PyTorch's, bit for bit)
        np.testing.assert_array_equal(g, gt)
        assert float(C(X)) == v
        np.testing.assert_array_equal(C.grad(X), g)
        V, G = C.value_and_grad_batch(np.stack([X, 2 * X]))
        assert V.tolist() == [v, _eager(f, 2 * X)[0]]
        np.testing.assert_array_equal(G[0], g)
        if T is not None and dt != first:
            with pytest.raises(RuntimeError, match="trace f again"):
                T.value(X)
        elif T is not None:
            assert float(T.value(X)) == v


def test_default_dtype_unchanged_keeps_one_trace(restore_default):
    C = tg.compile(lambda x: _scalar(tg, x))
    C(X)
    tg.set_default_dtype(tg.float64)  # (set to what it was: no change)
    C(X)
    C.grad(X)
    assert sum(len(ts) for ts in C.traces.values()) == 1


# ---- writes into an expand -----------------------------------------------------------------
# (tests/fuzz_replay_views25.py --start 3400056: eager tapegrad's values differed from
# PyTorch's, and no version error where PyTorch raises one)
X2 = np.arange(12.0).reshape(3, 4) / 10 - 0.4  # (X2[1, 0] == 0: a write of the value there)


def _nograd(T, fn):
    with T.no_grad():
        fn()


EXPAND_WRITES = {
    "narrow_no_grad": lambda T, x, e: _nograd(T, lambda: e.narrow(0, 1, 1).neg_()),
    "select_no_grad": lambda T, x, e: _nograd(T, lambda: e[0].exp_()),
    "zero_no_grad": lambda T, x, e: _nograd(T, e.zero_),
    "masked_fill_no_grad": lambda T, x, e: _nograd(T, lambda: e.masked_fill_(
        T.tensor(np.arange(e.numel()).reshape(e.shape) % 5 == 0), -1.0)),
    "select_mul": lambda T, x, e: e[1].mul_(x),
    "select_copy": lambda T, x, e: e[-1].copy_(x * 2),
    "row_slice": lambda T, x, e: e[0, 1:].mul_(4),
    "first_copy": lambda T, x, e: e[:1].mul_(3.0),
    "setitem": lambda T, x, e: e.__setitem__(0, x * 2),  # (x * 2 == h at X2[1, 0])
    "setitem_number": lambda T, x, e: e.__setitem__((-1, slice(1, None)), 1.0),
    "setitem_column": lambda T, x, e: e.__setitem__((0, slice(None), 0), x[:, 1]),
    "setitem_no_grad": lambda T, x, e: _nograd(T, lambda: e.__setitem__(-1, 0.0)),
    "zero": lambda T, x, e: e.zero_(),  # (PyTorch's backward refuses these: memory shared)
    "fill": lambda T, x, e: e.fill_(3.0),
    "masked_fill": lambda T, x, e: e.masked_fill_(
        T.tensor(np.arange(e.numel()).reshape(e.shape) % 5 == 0), -1.0),
    "clamp": lambda T, x, e: e.clamp_(max=0.1),
}
EXPANDS = {
    "leading": lambda h: h.expand(2, 3, 4),
    "unsqueezed": lambda h: h.unsqueeze(0).expand(2, 3, 4),
    "one_copy": lambda h: h.expand(1, 3, 4),
}


def _expand_write(T, name, how, x, saved=False):
    h = x * 1.5
    c = h.cos() if saved else None  # (saves h: a write into it after is refused)
    e = EXPANDS[how](h)
    EXPAND_WRITES[name](T, x, e)
    if saved:
        return c.sum()
    return ((h * T.arange(12.0, dtype=T.float64).reshape(3, 4)).sum() + (e * 2.0).sum() +
            (x * x).sum())


def _both(T, name, how, saved=False):
    x = T.tensor(X2, requires_grad=True)
    try:
        y = _expand_write(T, name, how, x, saved)
        v = float(y.detach())
        y.backward()
    except (RuntimeError, IndexError) as e:  # (e[1] of one copy: IndexError in both)
        return f"{type(e).__name__}: {str(e).split('.')[0]}", locals().get("v")
    return v, x.grad.numpy().copy()


@pytest.mark.parametrize("how", EXPANDS)
@pytest.mark.parametrize("name", EXPAND_WRITES)
def test_in_place_write_into_an_expand_writes_its_source(name, how):
    """An expand shares its source's memory in PyTorch: a write through a view of it
    (``e[1].mul_(x)``), or a one-value write, changes the source and every copy the expand
    shows.  tapegrad wrote only into the expand's own copy."""
    want, got = _both(torch, name, how), _both(tg, name, how)
    if isinstance(want[0], str) and want[1] is not None:  # (PyTorch's backward refuses a
        assert got[0] == pytest.approx(want[1], rel=1e-15)  # one-value write into memory
        return  # shared; its forward runs, and tapegrad's values are the same)
    if isinstance(want[0], str):
        assert got == want
        return
    assert got[0] == pytest.approx(want[0], rel=1e-15)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-15, atol=0)


@pytest.mark.parametrize("name", ["select_mul", "narrow_no_grad", "zero_no_grad"])
def test_expand_written_after_its_source_was_saved_is_refused_at_backward(name):
    want, got = _both(torch, name, "leading", saved=True), _both(tg, name, "leading", True)
    assert "modified by an inplace operation" in want[0]
    assert got == want


@pytest.mark.parametrize("name", ["select_mul", "narrow_no_grad"])
def test_expand_write_is_refused_by_trace_and_compile_runs_it_eagerly(name):
    def f(x):
        return _expand_write(tg, name, "leading", x)
    with pytest.raises(RuntimeError, match="tapegrad.trace"):
        tg.jit.trace(f, X2)
    xt = tg.tensor(X2, requires_grad=True)
    y = tg.compile(f)(xt)
    y.backward()
    want = _both(torch, name, "leading")
    assert float(y.detach()) == pytest.approx(want[0], rel=1e-15)
    np.testing.assert_allclose(xt.grad.numpy(), want[1], rtol=1e-15, atol=0)


# ---- a value leaving the tape: compile called with tensors runs f eagerly ------------------
def _any(T, x):
    return x.sum() if (x > 0.5).any() else x.prod()


def _logic(T, x):
    return (x * ((x > 0) & (x < 1)).double()).sum() + (x * ~(x > 0)).sum()


def _clamp_tensors(T, x):
    return x.clamp(min=x[0], max=x[2]).sum() * x[1]


@pytest.mark.parametrize("f", [_any, _logic, _clamp_tensors])
def test_compile_called_with_tensors_runs_f_eagerly_where_a_value_leaves_the_tape(f):
    C = tg.compile(lambda x: f(tg, x))
    for x in (X, -X, np.array([0.9, 0.2, -0.4])):
        xt = tg.tensor(x, requires_grad=True)
        y = C(xt)
        y.backward()
        v, g = _torch(f, x)
        assert float(y.detach()) == pytest.approx(v, rel=1e-15)
        np.testing.assert_allclose(xt.grad.numpy(), g, rtol=1e-15, atol=0)
    with pytest.raises(RuntimeError, match="takes its values out of the tape"):
        C(X)  # (called with arrays: there is no eager answer to give, as before)


# ---- ~120 user functions: eager, compiled (one point, batch), traced, saved and loaded ------
def _close(got, want):
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-14)  # (docs/replay.md: to
    # rounding; eager's NumPy sums and libm against replay's compiled rules)


def _clean_refusal(e):
    return isinstance(e, RuntimeError) and "tapegrad" in str(e)


@pytest.mark.parametrize("name", sorted(user_funcs34.FUNCS))
def test_user_function_replays_as_eager(name, tmp_path):
    """Every path of replay gives eager's value and gradient at new points (half of them
    ties: zeros and halves), or refuses in tapegrad's words; a compiled f called with
    tensors gives eager's always (runs f eagerly where no trace stands for it)."""
    f, n = user_funcs34.FUNCS[name]
    rng = np.random.default_rng(34)
    pts = [rng.uniform(-1.2, 1.2, n) for _ in range(3)] + [np.zeros(n), np.full(n, 0.5)]
    want = []
    C = tg.compile(f, recompile_limit=16)
    for x in pts:
        xt = tg.tensor(x, requires_grad=True)
        try:
            y = f(xt)
            g, = tg.autograd.grad(y, xt, allow_unused=True)
        except RuntimeError as e:  # (x // 0.3: PyTorch's "not implemented" too)
            with pytest.raises(type(e), match=str(e)[:30]):
                C(tg.tensor(x, requires_grad=True)).backward()
            return
        want.append((float(y), np.zeros(n) if g is None else g.numpy()))
    for x, (v, g) in zip(pts, want):
        xt = tg.tensor(x, requires_grad=True)
        y = C(xt)
        y.backward()
        _close(float(y.detach()), v)
        _close(np.zeros(n) if xt.grad is None else xt.grad.numpy(), g)
    try:
        T = tg.jit.trace(f, pts[0])
        V, G = tg.compile(f, recompile_limit=16).value_and_grad_batch(np.stack(pts))
    except RuntimeError as e:
        assert _clean_refusal(e), e
        return
    _close(V, [v for v, _ in want])
    _close(G, np.stack([g for _, g in want]))
    T.save(tmp_path / "t.npz")
    for t in (T, tg.jit.load(tmp_path / "t.npz")):
        V, G = t.value_and_grad_batch(np.stack(pts), on_divergence="mask")
        ok = t.mask if t.mask is not None else np.ones(len(pts), bool)
        assert ok[0]
        _close(V[ok], np.array([v for v, _ in want])[ok])
        _close(G[ok], np.stack([g for _, g in want])[ok])
