"""The short paths of cat (ops/shape.py _cat_plain) and of basic slicing (ops/indexing.py
_plain_slices) against the general paths they skip: the same rows, meta, values, node names
and gradients, which also match PyTorch's and finite differences."""
import threading

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.ops import indexing, shape

torch = pytest.importorskip("torch")

rng = np.random.default_rng(19)
A, B, G, V = (rng.standard_normal(s) for s in [(3, 4), (3, 2), (4, 9), (7,)])
CASES = {
    "cat dim 1": ([A, B], lambda L, a, b: L.cat([a, b], dim=1)),
    "cat dim -1": ([A, B], lambda L, a, b: L.cat([a, b], -1)),
    "cat dim 0": ([A, A], lambda L, a, b: L.cat((a, b * 2.0))),
    "cat three": ([A, B], lambda L, a, b: L.cat([b, a, b], dim=1)),
    "cat 1-d": ([V, V], lambda L, a, b: L.cat([a, b])),
    "slice cols": ([G], lambda L, g: g[:, 2:5]),
    "slice open end": ([G], lambda L, g: g[:, 6:]),
    "slice rows and cols": ([G], lambda L, g: g[1:3, :4]),
    "slice negative": ([G], lambda L, g: g[-3:, -2:]),
    "slice all": ([G], lambda L, g: g[:, :]),
    "slice dim 0": ([G], lambda L, g: g[1:]),
    "slice 1-d": ([V], lambda L, v: v[2:6]),
}


def _general(monkeypatch):
    monkeypatch.setattr(shape, "_cat_plain", lambda ts, dim: None)
    monkeypatch.setattr(indexing, "_plain_slices", lambda x, d, key: None)


def _record(arrays, f):
    """f's rows, meta, value, node name and gradients, recorded on a thread of its own (a
    fresh tape)."""
    out = {}

    def run():
        xs = [tg.tensor(a, requires_grad=True) for a in arrays]
        y = f(tg, *xs)
        tape = y._tok.tape
        rows, _, _, _, meta = tape.arrays()[:5]
        out.update(rows=rows.copy(), meta=meta.copy(), value=y.detach().numpy().copy(),
                   name=type(y.grad_fn).__name__)
        del rows, meta
        (y * tg.tensor(np.cos(np.arange(y.numel())).reshape(y.shape))).sum().backward()
        out["grads"] = [x.grad.numpy().copy() for x in xs]

    th = threading.Thread(target=run)
    th.start()
    th.join()
    return out


@pytest.mark.parametrize("name", list(CASES))
def test_short_path_records_what_the_general_path_does(name, monkeypatch):
    arrays, f = CASES[name]
    fast = _record(arrays, f)
    _general(monkeypatch)
    slow = _record(arrays, f)
    np.testing.assert_array_equal(fast["rows"], slow["rows"])
    np.testing.assert_array_equal(fast["meta"], slow["meta"])
    np.testing.assert_array_equal(fast["value"], slow["value"])
    assert fast["name"] == slow["name"]
    for a, b in zip(fast["grads"], slow["grads"], strict=True):
        np.testing.assert_array_equal(a, b)
    # PyTorch
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    y = f(torch, *ts)
    assert fast["name"] == type(y.grad_fn).__name__
    np.testing.assert_allclose(fast["value"], y.detach().numpy())
    (y * torch.tensor(np.cos(np.arange(y.numel())).reshape(y.shape))).sum().backward()
    for a, t in zip(fast["grads"], ts, strict=True):
        np.testing.assert_allclose(a, t.grad.numpy(), rtol=1e-12, atol=1e-12)
    # finite differences of the same weighted sum
    def obj(*xs):
        y = f(_NP, *xs)
        return float((y * np.cos(np.arange(y.size)).reshape(y.shape)).sum())
    for i, a in enumerate(arrays):
        num = np.zeros_like(a)
        for j in np.ndindex(a.shape):
            hi, lo = [x.copy() for x in arrays], [x.copy() for x in arrays]
            hi[i][j] += 1e-6
            lo[i][j] -= 1e-6
            num[j] = (obj(*hi) - obj(*lo)) / 2e-6
        np.testing.assert_allclose(fast["grads"][i], num, rtol=1e-6, atol=1e-6)


class _NP:
    """NumPy under cat's name (for the finite differences)."""
    @staticmethod
    def cat(xs, dim=0):
        return np.concatenate(xs, axis=dim)


def test_cat_short_path_leaves_odd_operands_to_the_general_path():
    """Mixed dtypes, a 1-d empty operand, a bad dim and mismatched sizes give what they did."""
    a = tg.tensor(A, requires_grad=True)
    assert tg.cat([a, tg.tensor(B, dtype=tg.float32)], 1).dtype == tg.float64
    assert tg.cat([tg.zeros(0), a]).shape == (3, 4)
    with pytest.raises(IndexError, match="Dimension out of range"):
        tg.cat([a, a], dim=2)
    with pytest.raises(RuntimeError, match="Sizes of tensors must match except in dimension 1"):
        tg.cat([a, tg.tensor(A.T)], dim=1)
    with pytest.raises(RuntimeError, match="zero-dimensional"):
        tg.cat([tg.tensor(1.0), tg.tensor(2.0)])


def _narrow_by_key(input, src, d, start, length, name):
    """narrow's piece with its offset read off the key (_view_base), as before the stride
    shortcut."""
    key = (slice(None),) * d + (slice(start, start + length),)
    return shape._strided(input, src, src[key], name, key=key)


PIECES = {
    "chunk 4 dim 1": ((5, 12), lambda L, x: L.cat(x.chunk(4, 1), 0)),
    "chunk 3 dim 0": ((7, 3), lambda L, x: L.cat(x.chunk(3, 0), 0)),
    "chunk 3-d dim 2": ((2, 3, 7), lambda L, x: L.cat(x.chunk(3, 2)[1:], 2)),
    "split sizes dim 1": ((3, 9, 2), lambda L, x: L.cat(x.split([4, 0, 5], 1)[::-1], 1)),
    "narrow dim 1": ((4, 6), lambda L, x: x.narrow(1, 2, 3)),
    "narrow 3-d dim 0": ((5, 2, 3), lambda L, x: x.narrow(0, 1, 3)),
}


@pytest.mark.parametrize("name", list(PIECES))
def test_narrow_offset_from_the_stride_is_the_keys(name, monkeypatch):
    """chunk/split/narrow's STRIDED rows, whose base offset is read off the stride, are the
    rows the key-based offset gives; values and gradients are PyTorch's."""
    sh, f = PIECES[name]
    arrays = [np.random.default_rng(3).standard_normal(sh)]
    fast = _record(arrays, f)
    monkeypatch.setattr(shape, "_narrow", _narrow_by_key)
    slow = _record(arrays, f)
    np.testing.assert_array_equal(fast["rows"], slow["rows"])
    np.testing.assert_array_equal(fast["meta"], slow["meta"])
    t = torch.tensor(arrays[0], requires_grad=True)
    y = f(torch, t)
    np.testing.assert_array_equal(fast["value"], y.detach().numpy())
    (y * torch.tensor(np.cos(np.arange(y.numel())).reshape(y.shape))).sum().backward()
    np.testing.assert_allclose(fast["grads"][0], t.grad.numpy(), rtol=1e-12, atol=1e-12)
