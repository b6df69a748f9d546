"""ops/strided.py ``strided_runs``: a strided map walked as runs, its inner dims merged into
longer runs where they continue the last dim's walk.  (1) The runs send every element to the
source element ``strided_index`` gives, in element order, for maps of any shape and stride
(0, size-1 dims, negative, empty); (2) through the ops, an expand's gradient is the sum of
its adjoints in element order, bit for bit (``np.add.at`` adds in that order), float64 and
float32, non-contiguous sources included, and equals torch's to rounding."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad.ops import strided as T


def _py(f):
    return getattr(f, "py_func", f)  # (the rule's Python: no compile in this test)


@st.composite
def maps(draw):
    nd = draw(st.integers(1, 4))
    shape = draw(st.lists(st.integers(0, 4), min_size=nd, max_size=nd))
    # strides: C-contiguous ones (so dims merge), 0 (broadcast), or anything, signed
    c = [int(np.prod(shape[d + 1:])) for d in range(nd)]
    strides = [draw(st.sampled_from([c[d], 0, -c[d], draw(st.integers(-7, 7))]))
               for d in range(nd)]
    base = draw(st.integers(0, 50))
    return nd, base, shape, strides


@settings(max_examples=300, deadline=None)
@given(maps(), st.booleans())
def test_runs_walk_the_map_in_element_order(m, merge):
    nd, base, shape, strides = m
    meta = np.array([7, 7, nd, base, *shape, *strides], np.int64)  # (the map at k = 2)
    n = int(np.prod(shape))
    starts, length, step = _py(T.strided_runs)(meta, 2, n, merge)
    got = [int(starts[r] + i * step) for r in range(len(starts)) for i in range(length)]
    want = [int(_py(T.strided_index)(i, meta, 2)) for i in range(n)]
    assert got == want
    if not merge and n:  # runs along the last dim only
        assert length == shape[-1]
    assert len(_py(T.strided_runs)(meta, 2, 0, merge)[0]) == 0  # (no runs asked: none)
    inner = [int(np.prod(shape[d + 1:])) for d in range(1, nd)]
    if merge and n and nd > 1 and all(s == c for s, c in zip(strides[1:], inner)):
        assert length >= int(np.prod(shape[1:]))  # the contiguous inner dims: one run


def test_runs_merge_kmeans_expand():
    meta = np.array([3, 0, 1000, 100, 16, 0, 16, 1], np.int64)
    starts, length, step = _py(T.strided_runs)(meta, 0, 1000 * 100 * 16)
    assert (length, step) == (1600, 1) and len(starts) == 1000 and not starts.any()
    # a sum over the last two dims: one run onto each output element
    meta = np.array([3, 0, 5, 4, 3, 1, 0, 0], np.int64)
    starts, length, step = _py(T.strided_runs)(meta, 0, 60)
    assert (length, step, starts.tolist()) == (12, 0, [0, 1, 2, 3, 4])


def _expand_grad_reference(src_shape, out_shape, g, dt):
    """A broadcast source's gradient: each adjoint added onto its source element in element
    order, in ``dt``."""
    idx = np.broadcast_to(np.arange(int(np.prod(src_shape))).reshape(src_shape), out_shape)
    acc = np.zeros(int(np.prod(src_shape)), dt)
    np.add.at(acc, idx.ravel(), g.astype(dt).ravel())
    return acc.reshape(src_shape)


@st.composite
def expands(draw):
    out = draw(st.lists(st.integers(1, 6), min_size=1, max_size=4))
    src = [draw(st.sampled_from([1, n])) for n in out]
    lead = draw(st.integers(0, len(out) - 1))  # src may have fewer dims (broadcast rules)
    return (tuple(src[lead:]), tuple(out), draw(st.booleans()),
            draw(st.sampled_from(["float64", "float32"])),
            draw(st.sampled_from(["expand", "broadcast"])))


@settings(max_examples=80, deadline=None)
@given(expands())
def test_expand_gradient_is_the_element_order_sum(case):
    """x.expand(...) sums its adjoints in x's dtype; an operand broadcast by a binary op (an
    EXPAND row, expand_rev) in float64, rounded once.  Both in element order, whatever
    runs the map is walked in."""
    src_shape, out_shape, transposed, dt, how = case
    rng = np.random.default_rng(len(src_shape) * 7 + len(out_shape))
    x_np = rng.standard_normal(src_shape[::-1] if transposed else src_shape).astype(dt)
    g = rng.standard_normal(out_shape).astype(dt)
    x = tg.tensor(x_np, requires_grad=True)
    src = x.permute(*reversed(range(x.ndim))) if transposed else x  # (a non-contiguous view)
    if how == "expand":
        (src.expand(*out_shape) * tg.tensor(g)).sum().backward()
    else:
        (src * tg.tensor(g)).sum().backward()
    got = x.grad.numpy()
    if transposed:
        got = got.transpose(*reversed(range(got.ndim)))
    want = _expand_grad_reference(src_shape, out_shape, g, dt)
    if how == "broadcast" and dt == "float32" and not np.array_equal(got, want):
        # (an EXPAND row sums in float64; some one-element operands take a scalar's row)
        want = _expand_grad_reference(src_shape, out_shape, g, np.float64).astype(dt)
    np.testing.assert_array_equal(got, want)


def test_kmeans_gradients_beside_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(1)
    p, c = rng.standard_normal((200, 16)), rng.standard_normal((30, 16))
    grads = []
    for lib in (tg, torch):
        pts, cen = lib.tensor(p), lib.tensor(c, requires_grad=True)
        d2 = ((pts[:, None, :] - cen[None, :, :]) ** 2).sum(-1)
        d2.min(dim=1).values.sum().backward()
        grads.append(cen.grad.numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-12, atol=1e-12)
    g = np.zeros_like(c)  # and the hand-written gradient: 2 (c_k - p) over k's points
    j = ((p[:, None, :] - c[None]) ** 2).sum(-1).argmin(1)
    np.add.at(g, j, 2 * (c[j] - p))
    np.testing.assert_allclose(grads[0], g, rtol=1e-12, atol=1e-12)
