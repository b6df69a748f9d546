"""_fp.fma's compiled kernel (tapegrad/_eager.py ``_fma``, the multiply-add of add with
alpha, lerp, addcmul, linspace and the optimizers' updates) against its NumPy operations,
which a read-only operand still takes: the same bits everywhere, special values too, and
PyTorch's optimizer step on small parameters."""
import numpy as np
import pytest

import tapegrad as tg
from tapegrad import _eager, _fp

SPECIAL = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e300, -1e300, 5e-324, 1e-310,
           2.0 ** 27 + 1, 1.0 + 2.0 ** -52, 0.1, 1e16, -1e-16]


def _numpy_path(a, b, c):
    """The same call with one operand read-only: the kernel declines it, NumPy computes."""
    c = np.array(c, np.float64)
    c.flags.writeable = False
    return _fp.fma(a, b, c)


def _same_bits(x, y):
    x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
    assert x.shape == y.shape
    np.testing.assert_array_equal(x.view(np.int64) if x.ndim else x, y.view(np.int64) if y.ndim
                                  else y)


@pytest.fixture(autouse=True, scope="module")
def compiled():
    if _eager.DISABLED:
        pytest.skip("NUMBA_DISABLE_JIT=1: no kernel to compare with NumPy's operations")
    tg.warmup()  # (the kernel loaded: _eager.fma answers instead of declining)
    a = np.ones(3)
    assert _eager.fma(a, a, a) is not None


def test_kernel_matches_numpy_on_random_and_special_values():
    rng = np.random.default_rng(30)
    n = 4000
    a = rng.standard_normal(n) * 10.0 ** rng.integers(-30, 30, n)
    b = rng.standard_normal(n) * 10.0 ** rng.integers(-30, 30, n)
    c = -a * b * (1 + rng.standard_normal(n) * 1e-12)  # (cancellation: the rounding matters)
    grid = np.array(np.meshgrid(SPECIAL, SPECIAL, SPECIAL)).reshape(3, -1)
    for x, y, z in ((a, b, c), tuple(grid)):
        got = _fp.fma(x, y, z)
        want = _numpy_path(x, y, z)
        assert got.dtype == np.float64
        _same_bits(np.where(np.isnan(got), np.nan, got), np.where(np.isnan(want), np.nan, want))


@pytest.mark.parametrize("shapes", [((), (5,), (5,)), ((2, 3), (2, 3), ()), ((), (), ()),
                                    ((4,), (), (4,)), ((0,), (0,), ())])
def test_scalars_and_shapes(shapes):
    rng = np.random.default_rng(1)
    a, b, c = (rng.standard_normal(s) for s in shapes)
    got = _fp.fma(a, b, c)
    _same_bits(got, _numpy_path(a, b, c))


def test_sgd_and_adam_steps_match_torch_bit_for_bit(torch):
    rng = np.random.default_rng(2)
    ws = [rng.standard_normal(s) for s in ((4, 2), (4,), (1, 4), (1,))]
    gs = [rng.standard_normal(w.shape) for w in ws]
    out = []
    for L, opt_cls, kw in ((tg, "SGD", {"lr": 0.37, "momentum": 0.9}),
                           (torch, "SGD", {"lr": 0.37, "momentum": 0.9}),
                           (tg, "Adam", {"lr": 0.01}), (torch, "Adam", {"lr": 0.01})):
        ps = [L.tensor(w.copy(), dtype=L.float64, requires_grad=True) for w in ws]
        opt = getattr(L.optim, opt_cls)(ps, **kw)
        for _ in range(3):
            for p, g in zip(ps, gs):
                p.grad = L.tensor(g, dtype=L.float64)
            opt.step()
        out.append([np.asarray(p.detach()) for p in ps])
    for ours, theirs in ((out[0], out[1]), (out[2], out[3])):
        for a, b in zip(ours, theirs, strict=True):
            _same_bits(a, b)
