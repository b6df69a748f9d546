"""float64 sin and cos of tapegrad's own formula (tapegrad/_trig.py, issue 20): its four runs
(the vectorised kernels, their NumPy twins, the small arrays' ufuncs, the one-value rules)
give the same bits; it is within 1 ulp of the exact value (a long double reference, and
mpmath at the doubles nearest k pi/2, where the reduction cancels most), keeps the sign of
zero, and is libm's beyond NEAR and at inf and NaN; eager values and gradients are the
replay rules' bit for bit, and torch's to rounding."""
import numpy as np
import pytest

import tapegrad as tg
from tapegrad import _trig
from tapegrad._jit import DISABLED

torch = pytest.importorskip("torch")

SPECIAL = [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1e-9, -1e-300, np.inf,
           -np.inf, np.nan, _trig.NEAR, -_trig.NEAR, np.nextafter(_trig.NEAR, np.inf), 1e22,
           -1e300, np.pi / 4, np.pi / 2, np.pi, 3 * np.pi / 2, 2 * np.pi]
KERNELS = {"sin": (_trig._sin, _trig.sin_numpy, np.sin, _trig.sin),
           "cos": (_trig._cos, _trig.cos_numpy, np.cos, _trig.cos)}


def _near_multiples():
    """The doubles nearest k pi/2 and their neighbours, both signs (k up to NEAR's)."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.prec = 300
    ks = np.r_[1:400, np.random.default_rng(7).integers(400, int(_trig.NEAR / 1.5707), 400)]
    x = [float(mpmath.mpf(int(k)) * mpmath.pi / 2) for k in ks]
    x = np.concatenate([x, np.nextafter(x, 0), np.nextafter(x, np.inf)])
    return np.concatenate([x, -x])


def _points():
    rng = np.random.default_rng(0)
    sign = rng.choice([-1.0, 1.0], 20000)
    return np.concatenate([rng.uniform(-np.pi / 4, np.pi / 4, 20000),
                           rng.standard_normal(20000) * 3, rng.uniform(-1e3, 1e3, 20000),
                           rng.uniform(-_trig.NEAR, _trig.NEAR, 20000),
                           sign * np.exp(rng.uniform(np.log(5e-324), np.log(1e6), 20000)),
                           np.exp(rng.uniform(np.log(1e6), np.log(1e300), 2000)),
                           np.array(SPECIAL)])


def _kernel(k, x):
    out = np.empty_like(x)
    k(x, out)
    return out


def _same_bits(a, b):
    return np.array_equal(a.view(np.int64), b.view(np.int64))


@pytest.mark.parametrize("name", KERNELS)
def test_numpy_twin_is_the_kernels_bit_for_bit(name):
    kernel, twin, _, _ = KERNELS[name]
    x = np.concatenate([_points(), _near_multiples()])
    assert _same_bits(_kernel(kernel, x), twin(x))


@pytest.mark.skipif(DISABLED, reason="no ufunc is compiled under NUMBA_DISABLE_JIT=1")
@pytest.mark.parametrize("name", KERNELS)
def test_small_arrays_ufunc_is_the_kernels_bit_for_bit(name):
    kernel, _, _, eager = KERNELS[name]
    x = _points()
    with np.errstate(all="ignore"):  # (a ufunc: inf and nan set FP flags, as np.sin's)
        assert _same_bits(eager.small.build()(x), _kernel(kernel, x))
        for n in (1, 4, _trig.UFUNC_MAX, _trig.UFUNC_MAX + 1, 300):
            assert _same_bits(eager(x[-n:]), _kernel(kernel, x[-n:]))


@pytest.mark.parametrize("name", KERNELS)
def test_within_one_ulp(name):
    kernel, _, npfn, _ = KERNELS[name]
    x = _points()
    x = x[np.isfinite(x)]
    y = _kernel(kernel, x)
    ref = npfn(x.astype(np.longdouble))  # (11 bits beyond a double's)
    ulp = np.spacing(np.abs(ref).astype(np.float64)).astype(np.longdouble)
    assert (np.abs(y - ref) / ulp).max() < 1.0


@pytest.mark.parametrize("name", KERNELS)
def test_within_one_ulp_near_multiples_of_half_pi(name):
    mpmath = pytest.importorskip("mpmath")
    kernel, _, _, _ = KERNELS[name]
    x = _near_multiples()
    y = _kernel(kernel, x)
    f = getattr(mpmath, name)
    for xi, yi in zip(x.tolist(), y.tolist(), strict=True):
        ref = f(mpmath.mpf(xi))
        assert abs(mpmath.mpf(yi) - ref) < np.spacing(abs(float(ref))), xi


@pytest.mark.parametrize("name", KERNELS)
def test_specials_zero_signs_and_libm_beyond_near(name):
    kernel, _, npfn, _ = KERNELS[name]
    x = np.array(SPECIAL)
    y = _kernel(kernel, x)
    with np.errstate(all="ignore"):
        libm = npfn(x)
    far = ~(np.abs(x) <= _trig.NEAR)
    assert far.sum() == 6 and _same_bits(y[far], libm[far])  # (inf, -inf, nan, 3 far ones)
    if name == "sin":
        assert _same_bits(y[:4], x[:4])  # +-0 and +-denormals are themselves
    else:
        assert np.all(y[:7] == 1.0)
    assert np.isnan(y[7:10]).all()


@pytest.mark.parametrize("name", KERNELS)
@pytest.mark.parametrize("shape", [(), (1,), (0,), (5,), (3, 0), (2, 3, 4), (257, 33)])
@pytest.mark.parametrize("dt", ["float64", "float32"])
def test_op_values_and_gradients_match_torch(name, shape, dt):
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(shape) * 4).astype(dt)
    a, b = tg.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    ya, yb = getattr(a, name)(), getattr(b, name)()
    g = rng.standard_normal(shape).astype(dt)
    ya.backward(tg.tensor(g))
    yb.backward(torch.tensor(g))
    tol = 1e-6 if dt == "float32" else 1e-15
    assert ya.dtype == (tg.float64 if dt == "float64" else tg.float32)
    np.testing.assert_allclose(ya.detach().numpy(), yb.detach().numpy(), rtol=tol, atol=tol)
    np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=4 * tol, atol=4 * tol)


@pytest.mark.parametrize("name", KERNELS)
def test_op_paths_give_the_kernels_values(name):
    """Any layout, read-only arrays, in-place forms and int tensors take the formula;
    float32 arrays and 0-d values are NumPy's (libm's, as a Python float's)."""
    kernel, _, npfn, eager = KERNELS[name]
    x = np.random.default_rng(4).standard_normal((6, 7)) * 5
    want = _kernel(kernel, x.reshape(-1)).reshape(6, 7)
    f = getattr(tg, name)
    assert _same_bits(f(tg.tensor(x)).numpy(), want)
    assert _same_bits(f(tg.tensor(x).t()).numpy(), want.T.copy())
    assert _same_bits(f(tg.tensor(x)[:, 2:5]).numpy(), want[:, 2:5].copy())
    ro = x.copy()
    ro.flags.writeable = False
    assert _same_bits(eager(ro), want)
    y = tg.tensor(x)
    getattr(y, name + "_")()
    assert _same_bits(y.numpy(), want)
    i = np.array([[0, 1, -3]])
    assert _same_bits(f(tg.tensor(i)).numpy(), _kernel(kernel, i[0].astype(float))[None])
    assert f(tg.tensor(x[0, 0])).item() == npfn(x[0, 0])
    x32 = x.astype(np.float32)
    np.testing.assert_array_equal(f(tg.tensor(x32)).numpy(), npfn(x32))


@pytest.mark.parametrize("name", KERNELS)
def test_kernel_not_loaded_gives_the_same_values(name, monkeypatch):
    kernel, _, _, eager = KERNELS[name]
    x = np.random.default_rng(5).standard_normal((9, 11)) * 5
    want = _kernel(kernel, x.reshape(-1)).reshape(9, 11)
    ready = eager.__closure__[[c.cell_contents.__class__.__name__ for c in
                               eager.__closure__].index("_Ready")].cell_contents
    monkeypatch.setattr(ready, "get", lambda dt, args: None)
    assert _same_bits(getattr(tg, name)(tg.tensor(x.T)).numpy(), want.T.copy())


def _f(x):
    # (its gradient reads both forwards' values and both reverse rules' cos and sin, each
    # element on its own: no sum's order in it)
    return (x.sin() * x.cos() + x.sin() * 1.5).sum()


@pytest.mark.parametrize("n", [1, 5, 300])
@pytest.mark.parametrize("far", [False, True])
def test_eager_and_replay_agree_bit_for_bit(n, far):
    """The replay rules (sin_fwd, cos_fwd, and the reverse rules' cos and sin) are the eager
    kernels' formula: a traced f's gradient at new points equals eager's exactly (and its
    value, one element: no sum), values beyond NEAR among them or not (the rules'
    per-value path); batch replay gives each point's."""
    rng = np.random.default_rng(n)
    x1, x2 = rng.standard_normal(n) * 4, rng.standard_normal(n) * 4
    if far:
        x2[0] = 3e7
    traced = tg.trace(_f, x1)
    v, g = traced.value_and_grad(x2)
    xt = tg.tensor(x2, requires_grad=True)
    y = _f(xt)
    y.backward()
    assert v == y.item() if n == 1 else np.isclose(v, y.item(), rtol=1e-14)
    assert _same_bits(np.asarray(g, np.float64).reshape(-1), xt.grad.numpy())
    vb, gb = traced.value_and_grad_batch(np.stack([x2, x1]))
    assert vb[0] == v and _same_bits(np.asarray(gb)[0], np.asarray(g).reshape(-1))
