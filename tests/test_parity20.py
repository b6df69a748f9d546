"""Four parity differences with PyTorch, each against it: index_put's value gradient at
repeated positions, views saved together sharing memory after load, remainder's and fmod's
divisor gradient at an infinite divisor (floor division's value), and forward_ad's dual
tensors through linalg's Functions."""
import io
import math

import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


def _np(t):
    return np.asarray(t.detach().numpy() if hasattr(t, "numpy") else t)


# ---- index_put / x[idx] = v with repeated indices ---------------------------------------
WRITES = {
    "index_put": lambda L, x, i, v: x.index_put((i,), v),
    "index_put_": lambda L, x, i, v: x.clone().index_put_((i,), v),
    "setitem": lambda L, x, i, v: _set(x.clone(), i, v),
    "setitem_2d": lambda L, x, i, v: _set(x.clone().view(2, 3), (i % 2, i % 3), v).view(-1),
    "index_put_broadcast": lambda L, x, i, v: x.index_put((i,), v.sum()),
}


def _set(x, i, v):
    x[i] = v
    return x


@pytest.mark.parametrize("name", sorted(WRITES))
def test_index_put_repeated_positions_give_each_value_its_gradient(name, torch_float64):
    torch = torch_float64
    idx = [1, 4, 1, 0, 4]
    w = np.arange(1.0, 7.0)
    rng = np.random.default_rng(0)
    xs, vs = rng.standard_normal(6), rng.standard_normal(5)
    got = []
    for L in (torch, tg):
        x = L.tensor(xs, requires_grad=True)
        v = L.tensor(vs, requires_grad=True)
        y = WRITES[name](L, x, L.tensor(idx), v)
        (y * L.tensor(w)).sum().backward()
        got.append((_np(y), _np(x.grad), _np(v.grad)))
    for ours, theirs in zip(got[1], got[0], strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-14, atol=1e-15)  # (v.sum()'s order)
    if name == "index_put":  # (and by hand: v[j] gets w at its position, every time)
        np.testing.assert_array_equal(got[1][2], w[idx])


def test_index_put_repeated_positions_second_order(torch_float64):
    torch = torch_float64
    # (finite differences see no effect of an overwritten value: PyTorch's gradient is not
    # the derivative there, so the oracle is PyTorch's own double backward)
    got = []
    for L in (torch, tg):
        x = L.tensor([0.5, -1.0, 2.0], requires_grad=True)
        v = L.tensor([0.3, 0.7, -1.2], requires_grad=True)
        y = (x.index_put((L.tensor([2, 2, 0]),), v * v) ** 2).sum()
        gx, gv = L.autograd.grad(y, (x, v), create_graph=True)
        ((gv * gv).sum() + (gx ** 3).sum()).backward()
        got.append((_np(gv), _np(x.grad), _np(v.grad)))
    for ours, theirs in zip(got[1], got[0], strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-14)


def test_index_put_unique_positions_against_finite_differences():
    idx = tg.tensor([2, 0])

    def f(x, v):
        return (x.index_put((idx,), v * v) ** 2).sum()

    x = tg.tensor([0.5, -1.0, 2.0], requires_grad=True)
    v = tg.tensor([0.7, -1.2], requires_grad=True)
    assert tg.autograd.gradcheck(f, (x, v))
    assert tg.autograd.gradgradcheck(f, (x, v))


# ---- views saved together share memory after load ---------------------------------------
def _round_trip(L, obj):
    buf = io.BytesIO()
    L.save(obj, buf)
    buf.seek(0)
    return L.load(buf)


@pytest.mark.parametrize("view", ["slice", "row", "column", "transpose", "strided", "view"])
def test_saved_view_writes_into_its_saved_base(view, torch_float64):
    torch = torch_float64
    make = {"slice": lambda b: b.view(-1)[2:5], "row": lambda b: b[1],
            "column": lambda b: b[:, 2], "transpose": lambda b: b.t(),
            "strided": lambda b: b[1:, ::2], "view": lambda b: b.view(4, 3)}[view]
    out = []
    for L in (torch, tg):
        base = L.tensor(np.arange(12.0).reshape(3, 4))  # (a tensor of its own)
        back = _round_trip(L, {"base": base, "v": make(base), "n": 1})
        v = back["v"]
        assert (v.stride(), v.storage_offset()) == (make(base).stride(),
                                                    make(base).storage_offset())
        v.mul_(-2.0)
        v.select(0, 0).fill_(100.0)  # (through a view of the loaded view)
        out.append((_np(back["base"]), _np(v)))
    np.testing.assert_array_equal(out[1][0], out[0][0])
    np.testing.assert_array_equal(out[1][1], out[0][1])


def test_views_of_a_saved_view_of_an_unsaved_tensor_write_into_it(torch_float64):
    torch = torch_float64
    out = []
    for L in (torch, tg):
        x = L.arange(12.0, dtype=L.float64).reshape(3, 4)  # (a view of arange's result)
        back = _round_trip(L, {"x": x, "r": x[1], "c": x[:, 2]})
        back["r"].mul_(-1.0)
        back["c"][0] = 50.0
        out.append(_np(back["x"]))
    np.testing.assert_array_equal(out[1], out[0])


def test_two_views_of_an_unsaved_base_share_it(torch_float64):
    torch = torch_float64
    for L in (torch, tg):
        base = L.arange(6.0, dtype=L.float64)
        back = _round_trip(L, [base[1:4], base[3:]])
        back[0][2] = -7.0  # element 3 of the base, in both views
        back[1].add_(0.0)  # (an in-place op on the second refreshes it from the base here)
        assert back[1].tolist() == [-7.0, 4.0, 5.0]


@pytest.mark.parametrize("kind", ["plain", "parameter", "requires_grad"])
def test_a_tensor_and_its_detach_share_after_load(kind, torch_float64):
    torch = torch_float64
    got = []
    for L in (torch, tg):
        w = {"plain": lambda: L.arange(4.0),
             "parameter": lambda: L.nn.Parameter(L.arange(4.0)),
             "requires_grad": lambda: L.arange(4.0, requires_grad=True)}[kind]()
        back = _round_trip(L, {"w": w, "d": w.detach()})
        with L.no_grad():
            back["d"][0] = 7.0
        got.append((_np(back["w"]), back["w"].requires_grad, type(back["w"]).__name__,
                    back["d"].requires_grad))
    np.testing.assert_array_equal(got[1][0], got[0][0])  # (7 written through d, in w)
    assert got[1][1:] == got[0][1:]


def test_stale_view_is_saved_with_the_values_it_shows():
    base = tg.arange(4.0)
    v = base[1:3]
    base.add_(10.0)  # the view is not refreshed (docs/limits.md): it still shows 1, 2
    shown = v.tolist()
    back = _round_trip(tg, {"b": base, "v": v})
    assert back["v"].tolist() == shown and back["b"].tolist() == base.tolist()


def test_view_entries_of_a_file_are_checked():
    import json
    import zipfile
    base = tg.arange(6.0)
    buf = io.BytesIO()
    tg.save({"b": base, "v": base[2:4]}, buf)

    def altered(change):
        src = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
        header = json.loads(src.read("tapegrad.json"))
        change(header["tensors"])
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as z:
            for n in src.namelist():
                z.writestr(n, json.dumps(header) if n == "tapegrad.json" else src.read(n))
        out.seek(0)
        return out

    def entry(ts):
        return next(t for t in ts if "view_of" in t)

    bad = {"offset past the end": lambda ts: entry(ts).update(offset=5),
           "negative stride": lambda ts: entry(ts).update(stride=[-1]),
           "other values": lambda ts: entry(ts).update(offset=0),
           "base out of range": lambda ts: entry(ts).update(view_of=9),
           "itself": lambda ts: entry(ts).update(view_of=ts.index(entry(ts))),
           "float offset": lambda ts: entry(ts).update(offset=2.0),
           "bool stride": lambda ts: entry(ts).update(stride=[True])}
    for why, change in bad.items():
        with pytest.raises(ValueError, match="not a valid tapegrad.save file"):
            tg.load(altered(change))
    assert tg.load(altered(lambda ts: None))["v"].tolist() == [2.0, 3.0]
    buf = io.BytesIO()  # an alias (t.detach()) entry too
    tg.save({"b": base, "d": base.detach(), "o": tg.ones(6)}, buf)

    def alias(ts):
        return next(t for t in ts if "same_as" in t)

    bad = {"another shape": lambda ts: alias(ts).update(shape=[2, 3]),
           "other values": lambda ts: alias(ts).update(same_as=2),
           "itself": lambda ts: alias(ts).update(same_as=1),
           "a parameter": lambda ts: alias(ts).update(parameter=True),
           "out of range": lambda ts: alias(ts).update(same_as=-1)}
    for why, change in bad.items():
        with pytest.raises(ValueError, match="not a valid tapegrad.save file"):
            tg.load(altered(change))
    assert tg.load(altered(lambda ts: None))["d"].tolist() == base.tolist()


# ---- remainder / fmod: the divisor's gradient at an infinite divisor ------------------
INF, NAN = math.inf, math.nan
XS = [1.5, -1.5, 0.0, -0.0, 1.0, -5.5, INF, -INF, NAN]
YS = [INF, -INF, 0.1, -0.1, 2.0, -3.0, 0.0, NAN]


@pytest.mark.parametrize("op", ["remainder", "fmod"])
def test_remainder_divisor_gradient_is_floor_divisions_value(op, torch_float64):
    torch = torch_float64
    a = np.repeat(XS, len(YS))
    b = np.tile(YS, len(XS))
    got = []
    for L in (torch, tg):
        x = L.tensor(a, requires_grad=True)
        y = L.tensor(b, requires_grad=True)
        out = getattr(L, op)(x, y)
        out.backward(L.ones(len(a)))
        got.append((_np(out), _np(x.grad), _np(y.grad)))
    for ours, theirs in zip(got[1], got[0], strict=True):
        np.testing.assert_array_equal(ours, theirs)  # (NaNs equal; zeros' signs aside)
    finite = np.isfinite(a) & np.isfinite(b) & (b != 0)  # and by hand: -q, q floor's / trunc's
    q = np.floor_divide(a, b) if op == "remainder" else np.trunc(a / b)
    np.testing.assert_array_equal(got[1][2][finite], -q[finite])


def test_remainder_gradient_at_infinite_divisor_by_hand():
    x = tg.tensor([-1.5, 1.5, 2.0], requires_grad=True)
    y = tg.tensor([INF, -INF, INF], requires_grad=True)
    tg.remainder(x, y).sum().backward()
    assert y.grad.tolist() == [1.0, 1.0, 0.0]  # -(-1.5 // inf) = 1, as Python's divmod
    assert x.grad.tolist() == [1.0, 1.0, 1.0]


# ---- forward_ad dual tensors through linalg's Functions ----------------------------------
rng = np.random.default_rng(3)
_A = rng.standard_normal((2, 3, 3))
LINALG = {
    "solve": lambda L, a: L.linalg.solve(a, L.ones(2, 3, 2, dtype=a.dtype)),
    "solve_vector": lambda L, a: L.linalg.solve(a, a[..., 0] ** 2),
    "solve_right": lambda L, a: L.linalg.solve(a, a.sin(), left=False),
    "cholesky": lambda L, a: L.linalg.cholesky(a @ a.mT + 3 * L.eye(3, dtype=a.dtype)),
    "cholesky_upper": lambda L, a: L.linalg.cholesky(a @ a.mT + 3 * L.eye(3, dtype=a.dtype),
                                                     upper=True),
    "qr": lambda L, a: L.linalg.qr(a)[1],
    "eigh": lambda L, a: L.linalg.eigh(a @ a.mT)[0],
    "eigh_vectors": lambda L, a: L.linalg.eigh(a @ a.mT)[1].abs(),
    "eigvalsh": lambda L, a: L.linalg.eigvalsh(a + a.mT),
    "svd": lambda L, a: L.linalg.svd(a)[1],
    "svd_U": lambda L, a: L.linalg.svd(a)[0].abs(),
    "matrix_exp": lambda L, a: L.linalg.matrix_exp(a),
    "lu_factor": lambda L, a: L.linalg.lu_factor(a)[0],
    "pinv": lambda L, a: L.linalg.pinv(a),
    "lstsq": lambda L, a: L.linalg.lstsq(a, L.ones(2, 3, 1, dtype=a.dtype)).solution,
}


@pytest.mark.parametrize("name", sorted(LINALG))
def test_forward_ad_dual_through_linalg(name, torch_float64):
    torch = torch_float64
    f = LINALG[name]
    t = rng.standard_normal(_A.shape)
    fw = torch.autograd.forward_ad
    with fw.dual_level():
        theirs = fw.unpack_dual(f(torch, fw.make_dual(torch.tensor(_A), torch.tensor(t))))
    fa = tg.autograd.forward_ad
    with fa.dual_level():
        ours = fa.unpack_dual(f(tg, fa.make_dual(tg.tensor(_A), tg.tensor(t))))
    np.testing.assert_allclose(_np(ours.primal), theirs.primal.numpy(), atol=1e-10)
    np.testing.assert_allclose(_np(ours.tangent), theirs.tangent.numpy(), atol=1e-8)
    h = 1e-6  # and central differences
    fd = (_np(f(tg, tg.tensor(_A + h * t))) - _np(f(tg, tg.tensor(_A - h * t)))) / (2 * h)
    np.testing.assert_allclose(_np(ours.tangent), fd, atol=1e-5)


@pytest.mark.parametrize("fn", ["LinalgSolve", "LinalgCholesky", "LinalgEigh", "LinalgInv",
                                "LinalgDet", "LinalgSlogdet"])
def test_common_linalg_functions_have_their_own_tangent_rule(fn):
    # (the others go by transposition: two reverse sweeps)
    assert getattr(tg.linalg, fn).jvp is not tg.autograd.Function.jvp


def test_forward_ad_cholesky_and_eigh_with_an_unsymmetric_tangent(torch_float64):
    # (the tangent as given, as PyTorch's rules read it, not its symmetric part)
    torch = torch_float64
    S = _A[0] @ _A[0].T + 3 * np.eye(3)
    t = rng.standard_normal((3, 3))
    for f in (lambda L, a: L.linalg.cholesky(a), lambda L, a: L.linalg.eigh(a)[0]):
        got = [L.func.jvp(lambda a: f(L, a), (L.tensor(S),), (L.tensor(t),))[1]
               for L in (torch, tg)]
        fa = tg.autograd.forward_ad
        with fa.dual_level():
            dual = fa.unpack_dual(f(tg, fa.make_dual(tg.tensor(S), tg.tensor(t)))).tangent
        np.testing.assert_allclose(_np(dual), got[0].numpy(), atol=1e-12)


def test_forward_ad_users_function_without_jvp_still_raises():
    class Square(tg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 2 * x * g

    fa = tg.autograd.forward_ad
    with fa.dual_level():
        y = Square.apply(fa.make_dual(tg.tensor([1.0, 2.0]), tg.ones(2)))
        with pytest.raises(NotImplementedError, match="You must implement the jvp function"):
            fa.unpack_dual(y)
