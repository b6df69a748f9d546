"""float64 tanh's eager forward (tapegrad/_eager.py ``_tanh``, issue 20): a vectorised kernel
with its own formula, so (1) its NumPy fallback gives its values bit for bit (a value never
depends on whether the kernel was loaded yet), (2) it is within 1.5 ulp of tanh (a long
double reference; NumPy's is 1.2), signs of zero and NaN kept, and (3) through the op its
values and gradients match torch's, float64 and float32 (float32 stays np.tanh), at edge
shapes.  The kernel runs here as a plain call (Python under NUMBA_DISABLE_JIT=1)."""
import numpy as np
import pytest

import tapegrad as tg
from tapegrad import _eager

torch = pytest.importorskip("torch")

SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 0.625, -0.625, np.nextafter(0.625, 0),
           19.0, 19.1, -19.1, 20.0, 20.5, 1e300, -1e300, 5e-324, -5e-324, 2.2e-308, 1e-9]


def _points():
    rng = np.random.default_rng(0)
    scales = [1e-12, 1e-4, 0.1, 0.5, 1.0, 3.0, 10.0, 30.0]
    return np.concatenate([rng.standard_normal(4000) * s for s in scales]
                          + [np.linspace(-22, 22, 20001), np.array(SPECIAL)])


def _kernel(x):
    out = np.empty_like(x)
    _eager._tanh(x, out)
    return out


def test_fallback_is_the_kernels_bit_for_bit():
    x = _points()
    got, want = _kernel(x), _eager._tanh_numpy(x)
    np.testing.assert_array_equal(got, want)
    assert np.array_equal(np.signbit(got), np.signbit(want))


def test_within_one_and_a_half_ulp():
    x = _points()
    y = _kernel(x)
    finite = np.isfinite(x)
    ref = np.tanh(x[finite].astype(np.longdouble))
    ulp = np.spacing(np.abs(ref).astype(np.float64))
    err = np.abs(y[finite].astype(np.longdouble) - ref) / np.maximum(ulp, 5e-324)
    assert err.max() <= 1.5
    assert np.all(np.abs(y[finite]) <= 1.0)


def test_specials():
    y = _kernel(np.array(SPECIAL))
    want = np.tanh(np.array(SPECIAL))
    np.testing.assert_array_equal(y[:5], want[:5])  # +-0, +-1 at +-inf, NaN
    assert np.array_equal(np.signbit(y), np.signbit(want))
    assert y[8] == float(np.tanh(np.longdouble(19.0))) and y[9] == 1.0 and y[10] == -1.0 and y[11] == 1.0
    assert y[15] == 5e-324 and y[16] == -5e-324  # tanh x = x below ~1e-8
    assert y[18] == 1e-9


@pytest.mark.parametrize("shape", [(), (1,), (0,), (5,), (3, 0), (2, 3, 4), (257, 33)])
@pytest.mark.parametrize("dt", ["float64", "float32"])
def test_op_values_and_gradients_match_torch(shape, dt):
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(shape) * 4).astype(dt)
    a, b = tg.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    ya, yb = a.tanh(), b.tanh()
    g = rng.standard_normal(shape).astype(dt)
    ya.backward(tg.tensor(g))
    yb.backward(torch.tensor(g))
    rtol = 1e-6 if dt == "float32" else 1e-15
    assert ya.dtype == tg.float64 if dt == "float64" else ya.dtype == tg.float32
    np.testing.assert_allclose(ya.detach().numpy(), yb.detach().numpy(), rtol=rtol, atol=rtol)
    np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=4 * rtol, atol=4 * rtol)


def test_op_paths():
    """No grad, a view's values, a read-only array, an int tensor, nn.functional and the
    in-place form give the kernel's values."""
    rng = np.random.default_rng(4)
    x = rng.standard_normal((6, 7)) * 2
    want = _kernel(x.reshape(-1)).reshape(6, 7)
    np.testing.assert_array_equal(tg.tensor(x).tanh().numpy(), want)
    np.testing.assert_array_equal(tg.tensor(x).t().tanh().numpy(), want.T)
    np.testing.assert_array_equal(tg.tensor(x)[:, 2:5].tanh().numpy(), want[:, 2:5])
    ro = x.copy()
    ro.flags.writeable = False
    np.testing.assert_array_equal(_eager.tanh(ro), want)
    np.testing.assert_array_equal(tg.nn.functional.tanh(tg.tensor(x)).numpy(), want)
    y = tg.tensor(x)
    y.tanh_()
    np.testing.assert_array_equal(y.numpy(), want)
    i = tg.tensor([[0, 1, -3]])
    np.testing.assert_array_equal(i.tanh().numpy(), _kernel(np.array([0.0, 1.0, -3.0]))[None])
    np.testing.assert_allclose(i.tanh().numpy(), torch.tensor([[0, 1, -3]]).tanh().numpy(),
                               rtol=1e-7)  # (torch: float32 for an int tensor)


def test_kernel_not_loaded_gives_the_same_values(monkeypatch):
    """Before the kernel is loaded the op computes with NumPy: the same values."""
    x = np.random.default_rng(5).standard_normal((9, 11)) * 5
    want = tg.tensor(x).tanh().numpy()
    monkeypatch.setattr(_eager._TANH, "get", lambda dt, args: None)
    np.testing.assert_array_equal(tg.tensor(x).tanh().numpy(), want)


@pytest.mark.skipif(_eager.DISABLED, reason="no ufunc is compiled under NUMBA_DISABLE_JIT=1")
def test_small_arrays_ufunc_is_the_kernels_bit_for_bit():
    """Arrays of up to UFUNC_MAX values take the formula as a NumPy ufunc (its call costs
    np.tanh's, not the kernel entry point's): the kernel's values bit for bit, any layout,
    and through the op."""
    x = _points()
    with np.errstate(all="ignore"):  # (a ufunc: inf and nan set FP flags, as np.tanh's)
        got = _eager._TANH_SMALL.build()(x)
    want = _kernel(x)
    np.testing.assert_array_equal(got, want)
    assert np.array_equal(np.signbit(got), np.signbit(want))
    small = x[:2 * _eager.UFUNC_MAX].reshape(2, -1)[:, ::2]  # (not C-contiguous)
    out = _eager.tanh(small)
    assert out.flags.c_contiguous and out.size <= _eager.UFUNC_MAX
    np.testing.assert_array_equal(out, want[:2 * _eager.UFUNC_MAX].reshape(2, -1)[:, ::2])
    for n in (1, 4, _eager.UFUNC_MAX, _eager.UFUNC_MAX + 1):
        np.testing.assert_array_equal(tg.tensor(x[-n:]).tanh().numpy(), want[-n:])


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("order", ["tanh last", "tanh first"])
def test_reverse_rule_first_or_second_to_reach_its_input(dtype, order):
    """tanh's reverse rule on an input another row reads too (an MLP's hidden
    pre-activation is read by tanh alone), whether tanh's row is the first or the second
    the sweep reaches: the rule's operations bit for bit in float64 (c (1 - y^2) + 3, the
    adjoint zeroed first, then added to), and torch's values.  A first-contribution write
    in place of the zeroing (as _sweep._writes_once rows do) must keep these."""
    rng = np.random.default_rng(3)
    x, w = rng.standard_normal((6, 5)).astype(dtype), rng.standard_normal(5).astype(dtype)
    c = rng.standard_normal((6, 5)).astype(dtype)
    c[0, :2] = -0.0
    c[1, 0] = 0.0

    def grads(lib, tensor):
        xt, wt = tensor(x, requires_grad=True), tensor(w, requires_grad=True)
        z = xt * wt  # (a row: z's adjoint is swept, not a leaf's)
        if order == "tanh first":  # (recorded last: its row is the first the sweep reaches)
            v = z * 3.0
            u = z.tanh()
        else:
            u = z.tanh()
            v = z * 3.0
        ((u * tensor(c)).sum() + v.sum()).backward()
        return np.asarray(xt.grad), np.asarray(wt.grad), np.asarray(u.detach())

    gx, gw, y = grads(tg, tg.tensor)
    tgx, tgw, _ = grads(torch, torch.tensor)
    assert gx.dtype == np.dtype(dtype) and gw.dtype == np.dtype(dtype)
    if dtype == "float64":  # the rules' operations, in their order (float32's round there)
        np.testing.assert_array_equal(gx, (c * (1 - y * y) + 3.0) * w)
    rtol = 1e-12 if dtype == "float64" else 1e-5
    np.testing.assert_allclose(gx, tgx, rtol=rtol, atol=rtol)
    np.testing.assert_allclose(gw, tgw, rtol=rtol, atol=rtol)


def test_reverse_gives_a_signed_zero_as_zeroing_and_adding():
    """An input of tanh whose adjoint is -0.0 (gy = -0.0) holds +0.0: zeroed, then added
    to (as _rules.add_into's first-contribution write gives it too); a leaf's too."""
    x = tg.tensor([0.5, -0.25], requires_grad=True)
    h = x * 1.0
    (h.tanh() * tg.tensor([-0.0, 2.0])).sum().backward()
    assert not np.signbit(x.grad.numpy()[0]) and x.grad.numpy()[0] == 0.0
    y = tg.tensor([0.5, -0.25], requires_grad=True)
    (y.tanh() * tg.tensor([-0.0, 2.0])).sum().backward()
    assert not np.signbit(y.grad.numpy()[0])
