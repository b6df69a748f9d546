"""The compiled eager forwards (tapegrad/_eager.py) give NumPy's values bit for bit, so that
a value never depends on whether the kernel or NumPy computed it: a broadcast
add/sub/mul/div (IEEE operations, one each) and a sum over a short last axis (NumPy's
pairwise order, from 0: -0.0 rows sum to +0.0); a float64 sigmoid of tapegrad's own formula
(tanh's exp) gives its NumPy fallback's and the replay rule's values bit for bit.  The
kernels run here as plain calls (as Python under NUMBA_DISABLE_JIT=1), then through the ops,
beside torch."""

import time

import numpy as np
import pytest

import tapegrad as tg
from tapegrad import _eager
from tapegrad._jit import DISABLED

OPS = {_eager.ADD: np.add, _eager.SUB: np.subtract, _eager.MUL: np.multiply,
       _eager.DIV: np.true_divide}
# (a, b): short inner runs, a broadcast innermost dim in either operand, 1-d against 4-d
SHAPES = [((40, 1, 16), (1, 30, 16)), ((30, 1), (1, 50)), ((50, 1), (50, 7)),
          ((3, 1, 4, 5), (1, 6, 1, 5)), ((1, 7, 1, 9), (3, 1, 8, 1)), ((9,), (2, 3, 4, 9))]


def _values(rng, shape, dt):
    x = rng.standard_normal(shape) * np.exp(rng.uniform(-30, 30, shape))
    x.reshape(-1)[:4] = [0.0, -0.0, np.inf, np.nan][:x.size]
    return x.astype(dt)


def _run_broadcast(op, a, b):
    shape = np.broadcast_shapes(a.shape, b.shape)
    out = np.empty(shape, a.dtype)
    full = np.array((1,) * (4 - len(shape)) + shape, np.int64)
    _eager._broadcast_binary(op, a.reshape(-1), b.reshape(-1), out.reshape(-1), full,
                             np.array(_eager._strides(a.shape), np.int64),
                             np.array(_eager._strides(b.shape), np.int64))
    return out


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_broadcast_is_numpys(dt):
    rng = np.random.default_rng(0)
    for sa, sb in SHAPES:
        a, b = _values(rng, sa, dt), _values(rng, sb, dt)
        for op, fn in OPS.items():
            for x, y in ((a, b), (b, a)):
                with np.errstate(all="ignore"):
                    want = fn(x, y)
                got = _run_broadcast(op, x, y)
                assert got.dtype == want.dtype
                np.testing.assert_array_equal(got, want, err_msg=f"{sa} {sb} {fn.__name__}")
                assert np.array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_row_sums_are_numpys(dt):
    """Every branch of NumPy's pairwise sum within a block: below 8, multiples of 8 and
    not, up to the block of 128; values over 60 orders of magnitude expose any other order."""
    rng = np.random.default_rng(1)
    for n in (2, 5, 7, 8, 9, 15, 16, 17, 24, 31, 100, 127, 128):
        x = _values(rng, (60, n), dt)
        x[1] = -0.0  # NumPy starts from 0: the sum is +0.0
        out = np.zeros(60, dt)
        _eager._sum_rows(x.reshape(-1), out, n)
        with np.errstate(all="ignore"):
            want = np.add.reduce(x, axis=-1)
        np.testing.assert_array_equal(out, want, err_msg=f"n={n}")
        assert np.array_equal(np.signbit(out), np.signbit(want))


def _sigmoid_points():
    rng = np.random.default_rng(6)
    return np.concatenate([rng.standard_normal(3000) * s for s in (1e-9, 0.1, 1, 5, 40, 400)]
                          + [np.linspace(-750, 750, 30001),
                             np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 36.7,
                                       -36.7, 709.8, -709.8, 745.1, -745.1, 745.2, -745.2,
                                       749.9, -750.0, -750.1, 1e300, -1e300, 5e-324])])


def _sigmoid_kernel(x):
    out = np.empty_like(x)
    _eager._sigmoid(x, out)
    return out


def _same(a, b):
    np.testing.assert_array_equal(a, b)
    assert np.array_equal(np.signbit(a), np.signbit(b))  # (NaN's sign kept, too)


def test_sigmoid_paths_agree(monkeypatch):
    """The kernel's values are its NumPy fallback's (ops/elementwise.py's path while the
    kernel loads, and for 0-d values), the Python-number path's and the replay rule's
    (``sigmoid_fwd``), bit for bit, sign bits and NaN included."""
    from tapegrad.ops import elementwise as E
    x = _sigmoid_points()
    got = _sigmoid_kernel(x)
    _same(_eager._sigmoid_numpy(x), got)
    vals = np.concatenate([x, np.zeros_like(x)])
    E.sigmoid_fwd(vals, len(x), 0, len(x))
    _same(vals[len(x):], got)
    monkeypatch.setattr(_eager, "sigmoid", lambda x: None)  # (the kernel not loaded yet)
    _same(E._sigmoid_np(x), got)
    n = len(x) // 7 * 7
    view = x[:n].reshape(-1, 7)[:, 1:5]  # (not C-contiguous)
    _same(E._sigmoid_np(view), got[:n].reshape(-1, 7)[:, 1:5])
    _same(np.array([E._sigmoid_np(np.array(v)) for v in x[::3]]), got[::3])
    _same(np.array([E._sigmoid_py(float(v)) for v in x[::3]]), got[::3])


def test_sigmoid_is_accurate():
    """Within 2.5 ulp of sigmoid (a long double reference; libm's exp in the formula taken
    before: 2.3), 1.25 from 0 up (where a gradient reads 1 - y), subnormal results included; exact at the ends: 1/2 at +-0, 1 and 0 at +-inf and
    beyond 745.2, 5e-324 at -745.1, NaN kept."""
    x = _sigmoid_points()
    got = _sigmoid_kernel(x)
    ok = ~np.isnan(x)
    xl = x[ok].astype(np.longdouble)
    with np.errstate(over="ignore"):
        ref = np.where(xl >= 0, 1 / (1 + np.exp(-xl)), np.exp(xl) / (1 + np.exp(xl)))
    ulp = np.spacing(np.abs(ref.astype(np.float64))).astype(np.longdouble)
    err = np.abs((got[ok].astype(np.longdouble) - ref) / ulp).astype(np.float64)
    assert err.max() <= 2.5, (err.max(), x[ok][err.argmax()])
    assert err[x[ok] >= 0].max() <= 1.25
    at = dict(zip(x[-20:].tolist(), got[-20:].tolist(), strict=True))
    assert at[0.0] == at[-0.0] == 0.5 and at[np.inf] == at[745.2] == at[1e300] == 1.0
    assert at[-np.inf] == at[-745.2] == at[-750.1] == at[-1e300] == 0.0
    assert at[-745.1] == 5e-324
    assert np.isnan(got[np.isnan(x)]).all()


@pytest.fixture
def compiled(monkeypatch):
    """The ops use the kernels at once (compiled now, not loaded by a thread meanwhile)."""
    if DISABLED:
        pytest.skip("the ops use the kernels only compiled")
    monkeypatch.setattr(_eager, "BACKGROUND", False)


@pytest.mark.parametrize("dt", ["float64", "float32"])
def test_ops_use_the_kernels_beside_torch(compiled, dt):
    """A k-means objective's broadcast difference and row sums (sizes over MIN_SIZE): the
    kernels ran, and values and gradients are torch's (float64: to the last bits torch's
    own different summation order allows)."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(2)
    p, c = rng.standard_normal((200, 16)), rng.standard_normal((30, 16))
    rtol = 1e-5 if dt == "float32" else 1e-13
    outs = []
    for mod in (tg, torch):
        points = mod.tensor(p, dtype=getattr(mod, dt))
        cent = mod.tensor(c, dtype=getattr(mod, dt), requires_grad=True)
        pc, cc = points[:, None, :], cent[None]
        diff = pc - cc  # 96,000 values
        d2 = (diff * diff).sum(-1)
        more = (pc * cc + pc / (cc + 5.0) + (pc + cc) ** 3).sum(-1)
        (d2.min(dim=1).values.sum() + more.sum()).backward()
        outs.append((diff.detach().numpy(), d2.detach().numpy(), more.detach().numpy(),
                     cent.grad.numpy()))
    for g, w in zip(outs[0], outs[1], strict=True):
        np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol)
    assert np.array_equal(outs[0][0], p[:, None, :].astype(dt) - c[None].astype(dt))
    assert _eager._BINARY.ready.get(np.dtype(dt).char) is not None  # (the kernels ran)
    assert _eager._SUM.ready.get(np.dtype(dt).char) is not None


def test_sigmoid_op_uses_the_kernel_beside_torch(compiled):
    """An LSTM gate's sigmoid, a slice of a (8, 512) product: the kernel ran, values and
    gradients are torch's (each library's sigmoid is within ~2 ulp, so near y = 1 the
    gradient's 1 - y differs in its last bits: an absolute 1e-15 there); float32 and 0-d
    stay NumPy's."""
    torch = pytest.importorskip("torch")
    g = np.random.default_rng(7).standard_normal((8, 512)) * 3
    outs = []
    for mod in (tg, torch):
        x = mod.tensor(g, requires_grad=True)
        y = x[:, 128:256].sigmoid()
        (y * y).sum().backward()
        outs.append((y.detach().numpy(), x.grad.numpy()))
    for a, b in zip(outs[0], outs[1], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-15)
    assert _eager._SIGMOID.ready.get("d") is not None
    assert tg.tensor(g, dtype=tg.float32).sigmoid().dtype == tg.float32
    assert _eager.sigmoid(np.array(2.0)) is None
    assert _eager.sigmoid(g.astype(np.float32)) is None


@pytest.mark.parametrize("dt", ["float64", "float32"])
def test_cube_is_torchs(dt):
    """``x ** 3`` is PyTorch's ``(x * x) * x`` bit for bit, eager and replayed (pow_c_fwd)."""
    torch = pytest.importorskip("torch")
    x = np.random.default_rng(4).standard_normal(3000) * 3
    x[:4] = [-0.0, np.inf, -np.inf, np.nan]
    want = (torch.tensor(x, dtype=getattr(torch, dt)) ** 3).numpy()
    got = (tg.tensor(x, dtype=getattr(tg, dt)) ** 3).numpy()
    np.testing.assert_array_equal(got, want)
    assert np.array_equal(np.signbit(got), np.signbit(want))
    f = tg.compile(lambda t: t ** 3)
    f(tg.tensor(x[4:20]))  # (traced here; replayed below)
    v = tg.tensor(x[20:36])
    np.testing.assert_array_equal(f(v).numpy(), (v ** 3).numpy())


@pytest.mark.parametrize("key", [np.s_[:, 1:3], np.s_[1:3], np.s_[:, :], np.s_[-2:, :, 1:],
                                 np.s_[:, 0:6], np.s_[:, -6:], np.s_[:, 2:100], np.s_[:, :-1],
                                 np.s_[0:4], np.s_[3:1]])
def test_plain_slices_beside_torch(key):
    """Slices without steps (indexing._plain_slices): values, node names and gradients."""
    torch = pytest.importorskip("torch")
    x0 = np.random.default_rng(5).standard_normal((4, 6, 5))
    w = np.random.default_rng(6).standard_normal(x0[key].shape)
    out = []
    for mod in (tg, torch):
        x = mod.tensor(x0, requires_grad=True)
        y, z = x[key], (x * 1.0)[key]
        ((y + z) * mod.tensor(w)).sum().backward()
        out.append((y.detach().numpy(), y.grad_fn.name(), z.grad_fn.name(), x.grad.numpy()))
    for g, want in zip(*out, strict=True):
        assert np.array_equal(g, want) if isinstance(g, np.ndarray) else g == want


@pytest.mark.skipif(DISABLED, reason="no entry point under NUMBA_DISABLE_JIT=1")
def test_sigmoid_entry_point_gives_the_kernels_values():
    """Once loaded, a C-contiguous writeable array of any dims calls the kernel's entry point
    (no dispatcher typing); others go through the dispatcher: the same values."""
    x = _sigmoid_points()[:30000]
    want = _sigmoid_kernel(x)
    _eager._SIGMOID.get(np.dtype(np.float64), (x, x.copy()))
    for _ in range(1200):  # (loading in a thread: at most ~2 min)
        if _eager.sigmoid(x) is not None:
            break
        time.sleep(0.1)
    assert _eager._SIGMOID.entry is not None
    for a, w in ((x, want), (x.reshape(100, 300), want.reshape(100, 300))):
        _same(_eager.sigmoid(a), w)
        ro = a.copy()
        ro.flags.writeable = False  # (not the entry point's signature: the dispatcher)
        _same(_eager.sigmoid(ro), w)
    _same(_eager.sigmoid(x.reshape(100, 300)[:, ::3]), want.reshape(100, 300)[:, ::3])
