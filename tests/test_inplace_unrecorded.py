"""In-place arithmetic that records nothing (an optimizer step written by hand:
``w.data -= lr * w.grad``, ``p -= lr * p.grad`` under no_grad, ``x *= y`` on constants).
Two operands of one float dtype and shape are computed straight into the tensor's storage
(ops/inplace.py ``_write_ufunc``); each program below runs in tapegrad and in PyTorch and
must give the same values bit for bit, the same versions, gradients and errors, through
the tensor's views, NumPy views, ``.data`` and ``detach()`` aliases."""
import warnings

import numpy as np
import pytest

import tapegrad as tg
import tapegrad.nn.functional as tF

pytestmark = pytest.mark.oracle

DTYPES = ("float32", "float64")


def _arr(L, a, **kw):
    return L.tensor(a.copy(), **kw)


def _np(t):
    return np.asarray(t.detach()).copy()


# ---- programs: (L, F, rng data) -> dict of named results (arrays, versions, grads) -------
def _data_step(L, F, d):
    """``w.data -= lr * w.grad`` after a backward, twice, then one more backward."""
    w = _arr(L, d["w"], requires_grad=True)
    x = _arr(L, d["x"])
    out = {}
    for i in range(2):
        w.grad = None
        (F.linear(x, w).tanh() ** 2).sum().backward()
        w.data -= 0.125 * w.grad
        out[f"w{i}"] = _np(w)
        out[f"version{i}"] = w._version
    (F.linear(x, w) ** 2).sum().backward()
    out["grad"] = _np(w.grad)
    return out


def _no_grad_step(L, F, d):
    """``p -= lr * p.grad``, ``p *= c``, ``p /= c``, ``p += c`` under no_grad (a tensor c of
    p's shape): each bumps p's version, as PyTorch's."""
    p = _arr(L, d["w"], requires_grad=True)
    c = _arr(L, d["v"])
    (p * p).sum().backward()
    out = {}
    with L.no_grad():
        p -= 0.125 * p.grad
        out["sub"], out["v_sub"] = _np(p), p._version
        p *= c
        out["mul"], out["v_mul"] = _np(p), p._version
        p /= c
        out["div"], out["v_div"] = _np(p), p._version
        p += c
        p.sub_(c)
        p.add_(c)
        out["add"], out["v_add"] = _np(p), p._version
    (p * c).sum().backward()  # the new values, read by a fresh graph
    out["grad"] = _np(p.grad)
    return out


def _aliases(L, F, d):
    """A write reaches p's views, a detach() and a NumPy view of its storage; a view's own
    write reaches p."""
    p = _arr(L, d["w"])
    row = p[1]
    col = p[:, 2]
    det = p.detach()
    host = p.numpy()
    p -= _arr(L, d["v"])
    row *= _arr(L, d["v"][0])
    out = {"p": _np(p), "row": _np(row), "col": _np(col), "det": _np(det),
           "host": host.copy(), "versions": (p._version, row._version, col._version)}
    det += _arr(L, d["v"])
    out["p2"], out["v2"] = _np(p), p._version
    return out


def _overlap(L, F, d):
    """Operands that share the written tensor's memory: itself, and a view of its base
    over the same elements.  (A partial overlap, ``base[:-3] += base[3:]``, is left out:
    PyTorch refuses it, tapegrad computes it, before this fast path as after.)"""
    a = _arr(L, d["v"])
    a -= a
    b = _arr(L, d["w"])
    b *= b
    base = _arr(L, d["w"].reshape(-1))
    tail = base[3:]
    tail += base[3:]
    tail /= _arr(L, d["v"].reshape(-1)[3:])
    return {"a": _np(a), "b": _np(b), "base": _np(base), "tail": _np(tail),
            "versions": (base._version, tail._version)}


def _zeroed(L, F, d):
    """``g.zero_()`` on a gradient and ``p.data.zero_()`` (written into the storage:
    _write_in_place): views, versions, and the next backward's accumulation."""
    p = _arr(L, d["w"], requires_grad=True)
    (p * p).sum().backward()
    g = p.grad
    gv = g[2]
    v0 = g._version  # (a fresh .grad's version is PyTorch's own business: 1 there, 0 here)
    g.zero_()
    out = {"g": _np(g), "gv": _np(gv), "vg": (g._version - v0, gv._version - v0)}
    row = p[1]
    p.data.zero_()
    out["p"], out["row"], out["vp"] = _np(p), _np(row), p._version
    (p * _arr(L, d["v"]) + row).sum().backward()  # into the zeroed .grad, in place
    out["g2"], out["same"] = _np(p.grad), p.grad is g
    return out


def _saved_then_written(L, F, d):
    """A value a row saved, changed in place under no_grad: PyTorch's error at backward."""
    w = _arr(L, d["w"], requires_grad=True)
    x = _arr(L, d["x"])
    y = (w * w).sum()  # saves w
    with L.no_grad():
        w -= _arr(L, d["w"])
    try:
        y.backward()
    except RuntimeError as e:
        return {"error": "modified by an inplace operation" in str(e)}
    return {"error": None, "x": _np(x)}


def _kept_aside_then_data(L, F, d):
    """linear(x, W) with x constant keeps W's values aside unread (Tape.push_array); a
    ``.data`` write then changes W before a later row reads it, with retain_graph."""
    w = _arr(L, d["w"], requires_grad=True)
    x = _arr(L, d["x"])
    z = F.linear(x, w)
    w.data -= _arr(L, d["w"]) * 0.5
    loss = (z * z).sum() + (w * w).sum()
    loss.backward(retain_graph=True)
    g1 = _np(w.grad)
    with L.no_grad():
        w -= 0.25 * w.grad
    return {"g1": g1, "w": _np(w), "z": _np(z), "version": w._version}


def _non_leaf_live(L, F, d):
    """no_grad in-place on a non-leaf of the live graph: it keeps its history (tapegrad
    gives it a new slot: _write), the later ops read the new values."""
    w = _arr(L, d["w"], requires_grad=True)
    y = w * 2.0
    with L.no_grad():
        y -= _arr(L, d["v"])
    (y * w).sum().backward()
    return {"y": _np(y), "grad": _np(w.grad), "version": y._version,
            "fn": type(y.grad_fn).__name__}


PROGRAMS = {f.__name__.lstrip("_"): f for f in (
    _data_step, _no_grad_step, _aliases, _overlap, _zeroed, _saved_then_written,
    _kept_aside_then_data, _non_leaf_live)}


def _data(rng, dtype):
    # 64 x 64: 4096 values, as many as Tape.push_array keeps aside unread (LAZY_MIN)
    return {"w": rng.standard_normal((64, 64)).astype(dtype),
            "v": rng.uniform(0.5, 2.0, (64, 64)).astype(dtype),
            "x": rng.standard_normal((8, 64)).astype(dtype)}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_unrecorded_inplace_matches_torch(name, dtype, rng, torch):
    d = _data(rng, dtype)
    ours = PROGRAMS[name](tg, tF, d)
    theirs = PROGRAMS[name](torch, torch.nn.functional, d)
    assert ours.keys() == theirs.keys()
    for k in ours:
        a, b = ours[k], theirs[k]
        if isinstance(a, np.ndarray):
            assert a.dtype == b.dtype, k
            if name in ("data_step", "kept_aside_then_data"):  # (from BLAS sums, in
                tol = 1e-4 if dtype == "float32" else 1e-12  # PyTorch's own order)
                np.testing.assert_allclose(a, b, rtol=tol, atol=tol * np.abs(b).max(),
                                           err_msg=k)
            else:  # elementwise arithmetic: bit for bit
                np.testing.assert_array_equal(a, b, err_msg=k)
        else:
            assert a == b, k


def test_written_into_the_same_storage():
    """The fast path writes where _write's copy wrote: a NumPy view of the tensor and its
    ``.data`` alias see the values, and the result is NumPy's ufunc bit for bit."""
    rng = np.random.default_rng(5)
    for dt in DTYPES:
        a0, b0 = rng.standard_normal((2, 33, 7)).astype(dt)
        t, u = tg.tensor(a0.copy()), tg.tensor(b0)
        host = t.numpy()
        t /= u
        assert np.shares_memory(host, np.asarray(t))
        np.testing.assert_array_equal(host, a0 / b0)
        d = t.data
        d *= u
        np.testing.assert_array_equal(host, a0 / b0 * b0)
        np.testing.assert_array_equal(np.asarray(t), a0 / b0 * b0)


@pytest.mark.parametrize("dtype", DTYPES)
def test_floating_point_errors_ignored_as_torch(dtype, torch):
    """Division by zero and overflow in the fast path give inf and nan without a NumPy
    warning, as PyTorch's kernels (and the out-of-place ops) do."""
    a0 = np.array([1.0, -1.0, 0.0, 2.0, 3e38], dtype)
    b0 = np.array([0.0, 0.0, 0.0, 4.0, 10.0], dtype)
    out = []
    for L in (tg, torch):
        a, b = L.tensor(a0.copy()), L.tensor(b0)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            a /= b
            c = L.tensor(a0.copy())
            c *= L.tensor(b0 + 1e30)
        out.append((np.asarray(a), np.asarray(c)))
    for x, y in zip(out[0], out[1]):
        np.testing.assert_array_equal(x, y)
