"""Complex tensors and torch.fft (tapegrad/_complex.py, tapegrad/fft.py), against PyTorch:
values, printing, gradients (PyTorch's convention: a complex leaf's .grad for a real loss L
is dL/d(re) + i dL/d(im)), finite differences, shape properties, and the refusals."""
import io

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad import _complex
from tapegrad.tensor import EagerOnlyError

pytestmark = pytest.mark.oracle


@pytest.fixture
def torch(torch_float64):
    return torch_float64


def _rand(shape, seed, dtype=np.complex128):
    rng = np.random.default_rng(seed)
    return (rng.normal(size=shape) + 1j * rng.normal(size=shape)).astype(dtype)


def _np(t):
    return t.detach().resolve_conj().numpy()


def _close(ours, theirs, rtol=1e-13, atol=1e-14):
    ours, theirs = _np(ours), _np(theirs)
    assert str(ours.dtype) == str(theirs.dtype), (ours.dtype, theirs.dtype)
    np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=atol)


# ---- dtypes and creation -----------------------------------------------------------------------
def test_dtype_objects(torch):
    assert tg.complex64 is tg.cfloat and tg.complex128 is tg.cdouble
    assert repr(tg.cfloat) == repr(torch.cfloat) == "torch.complex64"
    assert tg.cdouble.is_complex and not tg.float64.is_complex
    assert tg.float32.to_complex() == tg.complex64 and tg.complex128.to_real() == tg.float64
    z = tg.tensor([1 + 2j])
    assert z.dtype is tg.complex128 and z.is_complex() and not z.is_floating_point()
    assert tg.is_complex(z) and not tg.is_complex(tg.ones(2))
    assert z.dtype.itemsize == 16 and tg.complex64.itemsize == 8


@pytest.mark.parametrize("make", [
    lambda L: L.tensor([1 + 2j, 3 - 1j]),
    lambda L: L.tensor(1.5 + 0.25j),
    lambda L: L.tensor([[0.1 + 1j, -2.5 - 0.0j], [3, 1e-3j]]),
    lambda L: L.tensor([1.0, 2.0], dtype=L.cfloat),
    lambda L: L.tensor(np.array([1 + 1j, 2], dtype=np.complex64)),
    lambda L: L.as_tensor(np.array([1j, 2.5])),
    lambda L: L.from_numpy(np.array([[1j, 2.5]])),
    lambda L: L.zeros(2, 3, dtype=L.cfloat),
    lambda L: L.ones(2, dtype=L.cdouble),
    lambda L: L.full((2,), 1 - 1j),
    lambda L: L.zeros_like(L.tensor([1j, 2j])),
    lambda L: L.complex(L.tensor([1.0, -2.0]), L.tensor([0.5, 3.0])),
    lambda L: L.polar(L.tensor([1.0, 2.0]), L.tensor([0.5, -1.0])),
    lambda L: L.view_as_complex(L.tensor([[1.0, 2.0], [3.0, -4.0]])),
    lambda L: L.tensor([0.5, -2.0]).to(L.complex64),
    lambda L: L.tensor([1, 2]).to(L.cdouble),
    lambda L: L.tensor([0.5, -2.0]) * 1j,
    lambda L: L.tensor([1e-5 + 1e5j, -0.0 + 0.0j, 1 - 3j]),
    lambda L: L.tensor([[1.5 + 2j] * 4] * 3, dtype=L.complex64),
    lambda L: L.tensor([1 + 1j, -1], requires_grad=True),
    lambda L: L.tensor([1 + 1j, -1], requires_grad=True) * 2,
    lambda L: L.tensor([1 + 1j, -1], dtype=L.cfloat, requires_grad=True).exp(),
    lambda L: L.arange(2000.0) * (1 + 1j),
    lambda L: L.empty(0, dtype=L.cfloat),
    lambda L: L.tensor([np.complex64(1 + 1j), 2]),
    lambda L: L.sum(L.ones(2, 3), 0, dtype=L.cfloat),
    lambda L: L.ones(2, 3).mean(1, dtype=L.cdouble),
    lambda L: L.zeros(2).new_zeros(2, dtype=L.cfloat),
    lambda L: L.eye(2, dtype=L.cfloat),
    lambda L: L.linspace(0, 1, 3, dtype=L.cdouble),
])
def test_creation_and_printing_as_torch(torch, make):
    ours, theirs = make(tg), make(torch)
    assert repr(ours) == repr(theirs)
    assert str(ours.dtype) == str(theirs.dtype) and tuple(ours.shape) == tuple(theirs.shape)
    a, b = _np(ours), _np(theirs)
    if a.dtype == np.complex64:  # (PyTorch's float32 exp is vectorised: to 2 ulp)
        for part in (np.real, np.imag):
            np.testing.assert_array_max_ulp(part(a), part(b), maxulp=2)
    else:
        np.testing.assert_array_equal(a, b)


def test_default_dtype_float32_makes_complex64(torch):
    tg.set_default_dtype(tg.float32)
    try:
        z = tg.tensor([1 + 2j])
        assert z.dtype is tg.complex64 and repr(z) == "tensor([1.+2.j])"
        assert tg.zeros(1, dtype=tg.cdouble).dtype is tg.complex128
        assert repr(tg.tensor([1j], dtype=tg.cdouble)) == \
            "tensor([0.+1.j], dtype=torch.complex128)"
    finally:
        tg.set_default_dtype(tg.float64)


def test_values_out(torch):
    z = tg.tensor([1 + 2j, 3 - 1j])
    assert z[0].item() == 1 + 2j and complex(z[1]) == 3 - 1j
    assert z.tolist() == [1 + 2j, 3 - 1j]
    assert z.numpy().dtype == np.complex128
    assert tg.tensor([1j], dtype=tg.cfloat).numpy().dtype == np.complex64
    assert f"{tg.tensor(1 + 2j)}" == f"{torch.tensor(1 + 2j)}" == "(1+2j)"
    assert f"{tg.tensor(1 + 2j):.2f}" == "1.00+2.00j"
    with pytest.raises(RuntimeError, match="Can't call numpy"):
        tg.tensor([1j], requires_grad=True).numpy()
    assert (z == tg.tensor([1 + 2j, 0j])).tolist() == [True, False]
    assert (z != z).tolist() == [False, False]
    assert tg.allclose(z, z + 1e-12) and not tg.allclose(z, z + 1e-3j)
    assert tg.isclose(z, z + 1e-3).tolist() == [False, False]
    tg.testing.assert_close(z, z.clone())
    with pytest.raises(AssertionError, match="not close"):
        tg.testing.assert_close(z, z + 1e-3j)
    r = tg.view_as_real(z)
    assert r.tolist() == [[1.0, 2.0], [3.0, -1.0]]


def test_random_complex_draws_both_parts(torch):
    for L in (tg, torch):
        n = L.randn(20000, dtype=L.cfloat)
        assert str(n.dtype) == "torch.complex64"
        for part in (n.real, n.imag):  # PyTorch's: variance 1/2 in each part
            assert abs(part.var().item() - 0.5) < 0.03 and abs(part.mean().item()) < 0.03
        u = L.rand(20000, dtype=L.cdouble)
        assert 0 <= u.imag.min().item() and u.imag.max().item() < 1
        assert abs(u.imag.mean().item() - 0.5) < 0.02
        like = L.randn_like(L.zeros(20000, dtype=L.cdouble))
        assert abs(like.imag.var().item() - 0.5) < 0.03


def test_save_and_load_round_trip_complex():
    z = tg.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    c = tg.tensor([[1j, -2.5]], dtype=tg.cfloat)
    buf = io.BytesIO()
    tg.save({"z": z, "c": c, "dtype": tg.cfloat, "x": tg.ones(2)}, buf)
    buf.seek(0)
    back = tg.load(buf)
    assert repr(back["z"]) == repr(z) and back["z"].is_leaf and back["z"].requires_grad
    assert repr(back["c"]) == repr(c) and back["dtype"] is tg.complex64
    np.testing.assert_array_equal(back["c"].numpy(), c.numpy())


def test_torch_complex_refuses_as_torch(torch):
    for L in (tg, torch):
        with pytest.raises(RuntimeError, match="Expected object of scalar type Double but got "
                                               "scalar type Float"):
            L.complex(L.ones(1), L.ones(1, dtype=L.float32))
        with pytest.raises(RuntimeError, match="last dimension of size 2"):
            L.view_as_complex(L.ones(3))
        with pytest.raises(RuntimeError, match="grad can be implicitly created only for real "
                                               "scalar outputs"):
            (L.tensor([1j], requires_grad=True) * 2).sum().backward()
        with pytest.raises(RuntimeError, match="expected m1 and m2 to have the same dtype"):
            L.tensor([[1j]]) @ L.ones(1, 1)


# ---- ops: values and gradients against torch -------------------------------------------------
UNARY = {
    "neg": lambda L, z: -z, "conj": lambda L, z: z.conj(), "exp": lambda L, z: L.exp(z),
    "log": lambda L, z: z.log(), "sqrt": lambda L, z: L.sqrt(z), "sin": lambda L, z: z.sin(),
    "cos": lambda L, z: L.cos(z), "square": lambda L, z: z ** 2, "cube": lambda L, z: z ** 3,
    "pow-1": lambda L, z: z ** -1, "pow1.5": lambda L, z: z ** 1.5,
    "pow-0.5": lambda L, z: z ** -0.5, "reciprocal": lambda L, z: z.reciprocal(),
    "add": lambda L, z: z + z.conj() * 2, "sub_scalar": lambda L, z: 2 - z,
    "mul_cplx": lambda L, z: z * (1.5 - 2j), "div": lambda L, z: z / (z.conj() + 3),
    "rdiv": lambda L, z: (1 + 1j) / z, "z_conj": lambda L, z: z * z.conj(),
    "sum": lambda L, z: z.sum(0), "mean": lambda L, z: L.mean(z, 1, keepdim=True),
    "reshape": lambda L, z: z.reshape(-1)[1:5].flip(0), "t": lambda L, z: z.t() @ z,
    "index": lambda L, z: z[:, 1:2] * z[0], "cat": lambda L, z: L.cat([z, z * 1j], 1),
    "stack": lambda L, z: L.stack([z, z.exp()]), "mm": lambda L, z: L.mm(z, z.T),
    "roll": lambda L, z: z.roll(1, 0), "unsqueeze": lambda L, z: z.unsqueeze(0).squeeze(),
    "sinh": lambda L, z: z.sinh(), "cosh": lambda L, z: L.cosh(z),
    "tanh": lambda L, z: L.tanh(z * 0.5), "sgn": lambda L, z: L.sgn(z),
    "einsum": lambda L, z: L.einsum("ij,kj->ik", z, z.exp()),
    "einsum3": lambda L, z: L.einsum("ij,jk,k->i", z, z.T, z[:, 0]),
    "where": lambda L, z: L.where(z.real > 0, z, z * 2j), "outer": lambda L, z: L.outer(z[0], z[1]),
    "vdot": lambda L, z: L.vdot(z[0], z[1]), "dot": lambda L, z: z[1].dot(z[2]),
}
REAL = {  # complex in, real out
    "abs": lambda L, z: z.abs(), "abs2": lambda L, z: L.abs(z) ** 2,
    "angle": lambda L, z: z.angle(), "real": lambda L, z: (z * z).real,
    "imag": lambda L, z: L.imag(z.exp()), "view_as_real": lambda L, z: L.view_as_real(z * 2),
    "vector_norm": lambda L, z: L.linalg.vector_norm(z), "norm1": lambda L, z: z.norm(1, dim=0),
    "linalg.norm": lambda L, z: L.linalg.norm(z, float("inf"), dim=1),
    "matrix_1norm": lambda L, z: L.linalg.norm(z[:3, :3], 1), "norm": lambda L, z: L.norm(z),
}


def _pair(L, data, requires_grad=True):
    return L.tensor(data, requires_grad=requires_grad)


def _weights(shape, seed=7):
    return _rand(shape, seed)


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_complex_ops_values_and_grads(torch, name, dtype):
    data = _rand((3, 4), 1, dtype)
    f = UNARY[name]
    z, zt = _pair(tg, data), _pair(torch, data)
    y, yt = f(tg, z), f(torch, zt)
    tight = dtype == np.complex128
    _close(y, yt, *((1e-13, 1e-14) if tight else (2e-6, 2e-6)))
    assert str(y.dtype) == str(yt.dtype)
    w = _weights(tuple(yt.shape))
    (y * tg.tensor(w)).real.sum().backward()  # L = Re(sum(w * y)): a real loss
    (yt * torch.tensor(w)).real.sum().backward()
    _close(z.grad, zt.grad, *((1e-12, 1e-13) if tight else (2e-5, 2e-5)))


@pytest.mark.parametrize("name", sorted(REAL))
def test_complex_to_real_ops(torch, name):
    data = _rand((3, 4), 2)
    f = REAL[name]
    z, zt = _pair(tg, data), _pair(torch, data)
    y, yt = f(tg, z), f(torch, zt)
    _close(y, yt)
    w = np.random.default_rng(3).normal(size=tuple(yt.shape))
    (y * tg.tensor(w)).sum().backward()
    (yt * torch.tensor(w)).sum().backward()
    _close(z.grad, zt.grad, 1e-12, 1e-13)


def test_abs_squared_gradient_is_2z(torch):
    z = tg.tensor([1 + 2j, -3 + 0.5j, 0j], requires_grad=True)
    (z.abs() ** 2).sum().backward()
    np.testing.assert_allclose(z.grad.numpy(), 2 * z.detach().numpy(), atol=1e-15)
    zt = torch.tensor([1 + 2j, -3 + 0.5j, 0j], requires_grad=True)
    (zt.abs() ** 2).sum().backward()
    _close(z.grad, zt.grad)  # (0 at z = 0, not nan)


def test_branch_cuts_and_special_points(torch):
    """sqrt on both sides of its cut (the sign of a zero imaginary part decides), angle's
    zero gradient at 0, a retained non-leaf grad, NumPy complex operands."""
    vals = [4 + 0j, -4 + 0j, complex(-4, -0.0), 1j, -1j, 2 - 3j, -2 + 3j, -2 - 3j]
    res = {}
    for L in (tg, torch):
        z = L.tensor(vals, requires_grad=True)
        s = z.sqrt()
        (s.real.sum() + 2 * s.imag.sum()).backward()
        z0 = L.tensor([0j, 1 + 1j], requires_grad=True)
        z0.angle().sum().backward()
        w = L.tensor([1 + 1j], requires_grad=True)
        y = w * 2
        y.retain_grad()
        y.abs().sum().backward()
        x = L.tensor([1.0, 2.0])
        res[L] = (s, z.grad, z0.grad, y.grad, x * np.complex128(1j))
    for o, t in zip(res[tg], res[torch], strict=True):
        _close(o, t)
    assert repr(res[tg][0]) == repr(res[torch][0])


def test_real_leaves_through_complex_intermediates(torch):
    def loss(L, x, w):
        z = L.complex(x, 2 * x) * L.polar(w, x.detach() + 1) + 1j * x
        return (z * z.conj()).real.sum() + (z / (w + 1j)).abs().sum() + z.sqrt().imag.sum()
    xs, ws = np.array([0.3, -1.2, 2.0]), np.array([1.5, 0.4, 2.2])
    x, w = tg.tensor(xs, requires_grad=True), tg.tensor(ws, requires_grad=True)
    xt, wt = torch.tensor(xs, requires_grad=True), torch.tensor(ws, requires_grad=True)
    lo, lt = loss(tg, x, w), loss(torch, xt, wt)
    assert abs(lo.item() - lt.item()) < 1e-12
    lo.backward()
    lt.backward()
    _close(x.grad, xt.grad, 1e-12)
    _close(w.grad, wt.grad, 1e-12)


def test_matmul_with_real_and_python_numbers(torch):
    a, b = _rand((3, 2), 4), np.random.default_rng(5).normal(size=(2, 3))
    for L in (tg, torch):
        A, B = L.tensor(a, requires_grad=True), L.tensor(b, requires_grad=True)
        out = ((A @ B.to(L.cdouble)) * 2 + 1).abs().sum() + (B * (1 - 1j)).angle().sum()
        out.backward()
        if L is tg:
            ours = (out, A.grad, B.grad)
        else:
            theirs = (out, A.grad, B.grad)
    for o, t in zip(ours, theirs, strict=True):
        _close(o, t, 1e-12)


def test_autograd_grad_and_complex_outputs(torch):
    res = {}
    for L in (tg, torch):
        z = L.tensor(_rand(3, 6), requires_grad=True)
        x = L.tensor([0.5, -2.0, 1.5], requires_grad=True)
        w = z * x + z.exp()
        g = L.autograd.grad((w.abs() ** 2).sum(), [z, x], create_graph=True)
        h = L.autograd.grad(g[0].real.sum() + g[1].sum(), [z], retain_graph=True)
        v = L.autograd.grad(w, [z, x], grad_outputs=L.tensor([1j, 2, 1 + 1j]),
                            retain_graph=True)
        w.backward(L.tensor([1j, 2, 1 + 1j]))
        res[L] = (*g, *h, *v, z.grad, x.grad)
    for o, t in zip(res[tg], res[torch], strict=True):
        _close(o, t, 1e-12)


def test_gradient_descent_on_a_complex_leaf(torch):
    """z -= lr * z.grad under no_grad, zero_: the leaf and its .grad stay."""
    target = _rand(4, 9)
    outs = []
    for L in (tg, torch):
        z = L.zeros(4, dtype=L.cdouble, requires_grad=True)
        for _ in range(5):
            loss = ((z - L.tensor(target)).abs() ** 2).sum()
            loss.backward()
            with L.no_grad():
                z -= 0.1 * z.grad
            z.grad.zero_()
        outs.append(z)
        assert z.is_leaf and z.requires_grad
    _close(outs[0], outs[1])


@pytest.mark.parametrize("name,kw", [("Adam", dict(lr=0.05)), ("SGD", dict(lr=0.01, momentum=0.9)),
                                     ("RMSprop", dict(lr=0.01)),
                                     ("AdamW", dict(lr=0.05, weight_decay=0.1))])
def test_optimisers_step_complex_parameters_as_torch(torch, name, kw):
    A = [[1 + 1j, 2 - 0.5j], [0.5j, -1 + 0j], [3 + 0j, 1 + 2j]]
    outs = []
    for L in (tg, torch):
        w = L.zeros(2, dtype=L.cdouble, requires_grad=True)
        opt = getattr(L.optim, name)([w], **kw)
        for _ in range(20):
            opt.zero_grad()
            ((L.tensor(A) @ w - L.tensor([1 + 1j, 2.0, -1j])).abs() ** 2).sum().backward()
            opt.step()
        outs.append(w)
    _close(outs[0], outs[1], 1e-12)


def test_old_style_data_updates(torch):
    outs = []
    for L in (tg, torch):
        z = L.tensor([1 + 1j, -2j], requires_grad=True)
        (z.abs() ** 2).sum().backward()
        z.data -= 0.25 * z.grad.data
        z.data = z.data * 2
        outs.append(z)
        assert z.is_leaf and z.requires_grad
    _close(outs[0], outs[1])


def _fd_grad(f, z, eps=1e-6):
    """dL/d(re) + i dL/d(im) of real f at complex array z, by central differences."""
    g = np.zeros_like(z)
    for idx in np.ndindex(z.shape):
        for unit in (1.0, 1j):
            zp, zm = z.copy(), z.copy()
            zp[idx] += eps * unit
            zm[idx] -= eps * unit
            d = (f(zp) - f(zm)) / (2 * eps)
            g[idx] += d * unit
    return g


@pytest.mark.parametrize("name", ["exp", "log", "sqrt", "sin", "div", "pow1.5", "t", "mean"])
def test_gradients_by_finite_differences(name):
    data = _rand((3, 3), 11)
    w = tg.tensor(_weights((3, 3) if name != "mean" else (3, 1)))

    def f(a):
        with tg.no_grad():
            return (UNARY[name](tg, tg.tensor(a)) * w).real.sum().item()
    z = tg.tensor(data, requires_grad=True)
    (UNARY[name](tg, z) * w).real.sum().backward()
    np.testing.assert_allclose(z.grad.numpy(), _fd_grad(f, data), rtol=1e-6, atol=1e-7)


# ---- torch.fft -----------------------------------------------------------------------------------
NORMS = [None, "backward", "ortho", "forward"]
C2C = ["fft", "ifft"]
FFT_CASES = [  # (name, input kind, kwargs)
    *[(n, "c", kw) for n in C2C for kw in ({}, {"n": 7}, {"n": 3}, {"dim": 0})],
    *[(n, "r", kw) for n in C2C for kw in ({}, {"n": 6})],
    *[("rfft", "r", kw) for kw in ({}, {"n": 7}, {"n": 4}, {"dim": 0})],
    *[("irfft", "c", kw) for kw in ({}, {"n": 7}, {"n": 8}, {"n": 3}, {"dim": 0})],
    *[("hfft", "c", kw) for kw in ({}, {"n": 7}, {"n": 4})],
    *[("ihfft", "r", kw) for kw in ({}, {"n": 7})],
    *[(n, "c", kw) for n in ("fft2", "ifft2", "fftn", "ifftn")
      for kw in ({}, {"s": (3, 6)}, {"dim": (0,)})],
    ("fftn", "r", {}), ("rfft2", "r", {}), ("rfft2", "r", {"s": (4, 4)}), ("rfftn", "r", {}),
    ("rfftn", "r", {"dim": (0,)}), ("irfft2", "c", {}), ("irfft2", "c", {"s": (5, 7)}),
    ("irfftn", "c", {}), ("irfftn", "c", {"s": (4, 9)}), ("hfft2", "c", {}),
    ("ihfft2", "r", {}), ("hfftn", "c", {"s": (4, 6)}), ("ihfftn", "r", {}),
]


def _fft_input(L, kind, shape=(4, 5), seed=21, dtype=np.float64):
    rng = np.random.default_rng(seed)
    if kind == "r":
        return L.tensor(rng.normal(size=shape).astype(dtype), requires_grad=True)
    cd = np.complex128 if dtype == np.float64 else np.complex64
    return L.tensor(_rand(shape, seed, cd), requires_grad=True)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("case", FFT_CASES, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}")
def test_fft_values_and_grads_as_torch(torch, case, norm):
    name, kind, kw = case
    res = {}
    for L in (tg, torch):
        x = _fft_input(L, kind)
        y = getattr(L.fft, name)(x, norm=norm, **kw)
        w = L.tensor(_rand(tuple(y.shape), 5) if y.is_complex() else
                     np.random.default_rng(5).normal(size=tuple(y.shape)))
        (y * w).real.sum().backward() if y.is_complex() else (y * w).sum().backward()
        res[L] = (y, x.grad)
    (y, g), (yt, gt) = res[tg], res[torch]
    assert repr(y).split("grad_fn")[0] == repr(yt).split("grad_fn")[0]
    assert str(y.dtype) == str(yt.dtype) and tuple(y.shape) == tuple(yt.shape)
    _close(y, yt, 1e-12, 1e-12)
    _close(g, gt, 1e-12, 1e-12)


@pytest.mark.parametrize("name", ["fft", "rfft", "irfft", "hfft", "ihfft", "fft2", "irfftn"])
def test_fft_float32_gives_complex64(torch, name):
    kind = "r" if name in ("rfft", "ihfft") else "c"
    x, xt = (_fft_input(L, kind, dtype=np.float32) for L in (tg, torch))
    y, yt = getattr(tg.fft, name)(x), getattr(torch.fft, name)(xt)
    assert str(y.dtype) == str(yt.dtype)
    _close(y, yt, 1e-5, 1e-5)


@pytest.mark.parametrize("name,kind,kw", [
    ("rfft", "r", {}), ("rfft", "r", {"n": 7}), ("irfft", "c", {}), ("irfft", "c", {"n": 7}),
    ("irfft", "c", {"n": 3}), ("hfft", "c", {"n": 6}), ("ihfft", "r", {}),
    ("fft", "c", {"n": 4}), ("irfft2", "c", {"s": (3, 5)}), ("rfftn", "r", {}),
])
@pytest.mark.parametrize("norm", ["backward", "ortho"])
def test_fft_gradients_by_finite_differences(name, kind, kw, norm):
    """irfft ignores the imaginary parts of its zero (and Nyquist) bins: their gradient
    is 0, and the bins that stand for two count twice; finite differences agree."""
    x = _fft_input(tg, kind, shape=(3, 4), seed=31)
    data = x.detach().numpy()
    y = getattr(tg.fft, name)(x, norm=norm, **kw)
    w = (_rand if y.is_complex() else lambda s, k: np.random.default_rng(k).normal(size=s))(
        tuple(y.shape), 8)

    def f(a):
        out = getattr(tg.fft, name)(tg.tensor(a), norm=norm, **kw)
        return (out * tg.tensor(w)).real.sum().item() if out.is_complex() else \
            (out * tg.tensor(w)).sum().item()
    loss = (y * tg.tensor(w)).real.sum() if y.is_complex() else (y * tg.tensor(w)).sum()
    loss.backward()
    fd = _fd_grad(f, data.astype(np.complex128)) if kind == "c" else \
        _fd_grad(lambda a: f(a.real), data.astype(np.complex128)).real
    np.testing.assert_allclose(x.grad.numpy(), fd, rtol=1e-6, atol=1e-7)


def test_fft_double_backward(torch):
    res = {}
    for L in (tg, torch):
        x = L.tensor([0.3, -1.0, 2.0, 0.5, 1.5], requires_grad=True)
        y = (L.fft.rfft(x).abs() ** 3).sum() + L.fft.irfft(L.fft.fft(x * x), n=5).pow(2).sum()
        (g,) = L.autograd.grad(y, x, create_graph=True)
        (h,) = L.autograd.grad((g * g).sum(), x)
        res[L] = (g, h)
    _close(res[tg][0], res[torch][0], 1e-12)
    _close(res[tg][1], res[torch][1], 1e-11)


def test_fft_round_trips_and_helpers(torch):
    x = tg.tensor(np.random.default_rng(2).normal(size=(6,)))
    assert tg.allclose(tg.fft.irfft(tg.fft.rfft(x), n=6), x)
    assert tg.allclose(tg.fft.ifft(tg.fft.fft(x)).real, x)
    z = tg.fft.fftshift(tg.fft.fft(x))
    zt = torch.fft.fftshift(torch.fft.fft(torch.tensor(x.numpy())))
    _close(z, zt, 1e-13)
    for L in (tg, torch):
        with pytest.raises(RuntimeError, match='Invalid normalization mode: "nope"'):
            L.fft.fft(L.ones(4), norm="nope")
        with pytest.raises(RuntimeError, match=r"Invalid number of data points \(0\)"):
            L.fft.fft(L.ones(4), n=0)
        with pytest.raises(RuntimeError, match="expects a real input tensor"):
            L.fft.rfft(L.ones(4) * 1j)


_ONE_FIXTURE = settings(max_examples=25, deadline=None,  # (torch's default dtype: per test)
                        suppress_health_check=[HealthCheck.function_scoped_fixture])


@_ONE_FIXTURE
@given(shape=st.lists(st.integers(1, 5), min_size=1, max_size=3),
       real=st.booleans(), norm=st.sampled_from(["backward", "ortho", "forward"]),
       seed=st.integers(0, 2 ** 16))
def test_fftn_property_against_torch(torch, shape, real, norm, seed):
    res = {}
    for L in (tg, torch):
        x = _fft_input(L, "r" if real else "c", tuple(shape), seed)
        y = L.fft.fftn(x, norm=norm)
        back = L.fft.ifftn(y, norm=norm)
        r = L.fft.rfftn(x.real if not real else x, norm=norm)
        loss = (y.abs() ** 2).sum() + (back * 1.5j).real.sum() + (r.abs()).sum()
        loss.backward()
        res[L] = (y, back, r, x.grad)
    np.testing.assert_allclose(_np(res[tg][1]), _np(_fft_input(tg, "r" if real else "c",
                                                              tuple(shape), seed)),
                               atol=1e-12)
    for o, t in zip(res[tg], res[torch], strict=True):
        _close(o, t, 1e-11, 1e-11)


@_ONE_FIXTURE
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=3), seed=st.integers(0, 999))
def test_elementwise_property_against_torch(torch, shape, seed):
    data = _rand(tuple(shape), seed)
    res = {}
    for L in (tg, torch):
        z = L.tensor(data, requires_grad=True)
        y = (z.exp() * z.conj() + z ** 2 / (z + 3)).sum(-1)
        (y.abs() + y.angle()).sum().backward()
        res[L] = (y, z.grad)
    for o, t in zip(res[tg], res[torch], strict=True):
        _close(o, t, 1e-11, 1e-12)


# ---- what complex values do not do ------------------------------------------------------------
@pytest.mark.parametrize("call,name", [
    (lambda z: tg.logsumexp(z, 0), "logsumexp"), (lambda z: tg.sigmoid(z), "sigmoid"),
    (lambda z: z < z, "__lt__"), (lambda z: tg.maximum(z, z), "maximum"),
    (lambda z: z.cumprod(0), "cumprod"), (lambda z: tg.nn.functional.softmax(z, 0), "softmax"),
    (lambda z: z.float(), "float"),
    (lambda z: z ** z, "pow"), (lambda z: tg.nn.functional.relu(z), "relu"),
    (lambda z: z.register_hook(print), "register_hook"),
    (lambda z: z.std(), "std"), (lambda z: tg.fft.fft(z, out=z), "resize_"),
    (lambda z: tg.linalg.norm(z.reshape(1, 2), 2), "linalg.norm"),
])
def test_unsupported_ops_name_themselves(call, name):
    z = tg.tensor([1 + 2j, 3 - 1j])
    with pytest.raises(RuntimeError, match=rf"^{name}.*does not support complex tensors"):
        call(z)


def test_trace_refuses_and_compile_runs_eagerly():
    def f(a):
        return (tg.complex(a, a) * 2).abs().sum()

    def g(a):
        return tg.fft.rfft(a).abs().sum()
    a = tg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    for fn in (f, g):
        with pytest.raises(EagerOnlyError, match="eager-only"):
            tg.trace(fn, a)
    out = tg.compile(g)(a)
    assert abs(out.item() - (6 + 3 ** 0.5)) < 1e-12
    out.backward()
    assert a.grad is not None


def test_real_tensor_still_refuses_imag_and_has_no_complex_storage(torch):
    x = tg.ones(2)
    with pytest.raises(RuntimeError, match="imag is not implemented for tensors with "
                                           "non-complex dtypes"):
        x.imag  # noqa: B018
    assert x.real is x and not x.is_complex()
    z = tg.tensor([1j])
    assert type(z) is _complex.ComplexTensor and isinstance(z, tg.Tensor)


def test_func_transforms_through_complex_values(torch):
    res = {}
    for L in (tg, torch):
        x = L.tensor([1.0, -2.0, 0.5])

        def f(x, L=L):
            return (L.fft.rfft(x * L.complex(x, x).abs()).abs() ** 2).sum()
        res[L] = (L.func.grad(f)(x), L.func.vmap(lambda v, L=L: L.fft.fft(v).abs())(L.ones(2, 3)),
                  L.autograd.functional.jacobian(lambda v, L=L: L.fft.rfft(v).real, x))
    for o, t in zip(res[tg], res[torch], strict=True):
        _close(o, t, 1e-12)
