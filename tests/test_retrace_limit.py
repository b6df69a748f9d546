"""Retracing is bounded (issue 18): a branch on an exact value (``x[0].item() > 0``,
``int(x[0])``) needs a trace per point; past ``recompile_limit`` (8, torch.compile's
default) ``tapegrad.compile`` warns once, naming the branch's line and how to write it so
that one trace serves, and keeps only the most recently used traces."""
import warnings

import numpy as np
import pytest

import tapegrad as tg
from tapegrad import replay


def on_item(x):
    if x[0].item() > 0:  # ITEM_LINE
        return (x * x).sum()
    return x.sum()


def on_int(x):
    if int(x[0] * 4) > 0:  # INT_LINE
        return (x * x).sum()
    return x.sum()


def on_tensor(x):
    if x[0] > 0:
        return (x * x).sum()
    return x.sum()


def _line(tag):
    with open(__file__) as f:
        return next(i for i, s in enumerate(f, 1) if s.rstrip().endswith(f"# {tag}"))


def _want(X):
    return np.where(X[:, :1] * 4 >= 1, 2 * X, 1.0)  # both branches agree on (0, 0.25)


X = np.random.default_rng(5).uniform(-1, 1, (30, 3))
X[:, 0] = np.where(X[:, 0] >= 0, 0.3 + 0.7 * X[:, 0], X[:, 0])  # off int()'s (0, 0.25) band


def _ours(caught):
    return [w for w in caught if "recompile limit" in str(w.message)]


@pytest.mark.parametrize("fn,tag,what", [(on_item, "ITEM_LINE", "item()"),
                                         (on_int, "INT_LINE", "int()")])
def test_exact_value_branch_warns_once_naming_the_line_and_stays_bounded(fn, tag, what):
    f = tg.compile(fn)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        G = f.grad_batch(X)
        G2 = f.grad_batch(X[::-1].copy())  # more retraces: no second warning
    np.testing.assert_allclose(G, _want(X), rtol=1e-15)
    np.testing.assert_allclose(G2, _want(X[::-1]), rtol=1e-15)
    ours = _ours(caught)
    assert len(ours) == 1, [str(w.message) for w in caught]
    msg = str(ours[0].message)
    assert f"{what} at {__file__}:{_line(tag)}" in msg
    assert "if x[0] > 0:" in msg and "recompile_limit" in msg and "(8)" in msg
    assert ours[0].filename == __file__  # attributed to the caller's line, not tapegrad's
    assert [len(t) for t in f.traces.values()] == [replay.RECOMPILE_LIMIT]


def test_branch_on_the_tensor_needs_one_trace_per_branch_and_no_warning():
    f = tg.compile(on_tensor)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        G = f.grad_batch(X)
    assert _ours(caught) == []
    np.testing.assert_allclose(G, np.where(X[:, :1] > 0, 2 * X, 1.0), rtol=1e-15)
    assert [len(t) for t in f.traces.values()] == [2]


def test_recompile_limit_is_configurable_and_keeps_the_most_recently_used():
    def g(x):  # a function of its own: the count is per function
        return on_item(x)
    f = tg.compile(g, recompile_limit=3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for i in range(3):
            f.grad(X[i])
        assert _ours(caught) == []  # 2 retraces
        f.grad(X[3])
        f.grad(X[4])  # the 4th retrace warns
        assert len(_ours(caught)) == 1 and "(3)" in str(_ours(caught)[0].message)
    tapes, = f.traces.values()
    assert len(tapes) == 3
    points = [np.asarray(t.vals0[t.in_elems]) for t in tapes]
    np.testing.assert_array_equal(points[0], X[0])  # the first trace stays
    np.testing.assert_array_equal(points[1], X[4])  # then the most recent
    f.grad(X[3])  # a kept trace serves again: it becomes the most recent, nothing traced
    assert len(tapes) == 3 and np.array_equal(tapes[1].vals0[tapes[1].in_elems], X[3])


@pytest.mark.parametrize("bad", [0, -1, 2.5, "8", True])
def test_bad_recompile_limit_is_refused(bad):
    with pytest.raises(ValueError, match="recompile_limit must be a positive int"):
        tg.compile(on_tensor, recompile_limit=bad)


def test_exact_value_branch_under_dask_retraces_right():
    """Under Dask (the threads scheduler, in process) the same function gives the
    one-process gradients; it once failed with 'control flow is not a function of its
    inputs' (_retrace raised when an older trace fitted none of the points)."""
    dask = pytest.importorskip("dask")
    da = pytest.importorskip("dask.array")
    f = tg.compile(on_item)
    with dask.config.set(scheduler="threads"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        G = f.grad_batch(da.from_array(X, chunks=10)).compute()
    np.testing.assert_allclose(G, _want(X), rtol=1e-15)
