"""The single-point fast path of replay (``Traced._point``): one compiled call with the plan
packed once per trace.  It must answer exactly as the general path does, hand every case it
does not cover (other dtypes, layouts, read-only arrays, diverging guards) to that path,
and never compile another kernel signature."""
import numpy as np
import pytest

import tapegrad as tg
from tapegrad import _point


def rosen(x):
    return (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()


def _general(t, *args):
    """The general path's answer (what every call gave before the fast path)."""
    V, G = t._batch(t._stack(args, batch=False), grad=True)
    return V[0], t._split(G, batched=False)


@pytest.mark.parametrize("f,args,argnums", [
    (rosen, (np.linspace(-1, 1, 10),), 0),
    (lambda a: (a.exp() @ a.T).sum(), (np.arange(6.0).reshape(2, 3) / 7,), 0),
    (lambda s: s.sin() * s, (np.array(0.7),), 0),
    (lambda a, b: (a * b.sum()).sum(), (np.ones(3), np.arange(4.0)), (0, 1)),
    (lambda a, b: (a * b.sum()).sum(), (np.ones(3), np.arange(4.0)), 1),
])
def test_fast_path_equals_the_general_path(f, args, argnums):
    c = tg.compile(f, argnums=argnums)
    v, g = c.value_and_grad(*args)
    t = c.traces[tuple(a.shape for a in args)][0]
    assert t._point(args, True) is not None  # the fast path served it
    v0, g0 = _general(t, *args)
    assert v == v0 and type(v) is type(v0)
    for a, b in zip(g if isinstance(g, tuple) else (g,), g0 if isinstance(g0, tuple) else (g0,)):
        np.testing.assert_array_equal(a, b)
        assert type(a) is type(b) and np.shape(a) == np.shape(b)
    assert c(*args) == v0 and t.value(*args) == v0
    np.testing.assert_array_equal(c.grad(*args) if argnums != (0, 1) else c.grad(*args)[0],
                                  g0 if argnums != (0, 1) else g0[0])


def test_other_inputs_take_the_general_path_and_compile_nothing():
    c = tg.compile(rosen)
    x = np.linspace(-1, 1, 10)
    v, g = c.value_and_grad(x)
    def signatures():  # (none under NUMBA_DISABLE_JIT=1)
        return len(getattr(_point._replay_point, "signatures", ()))
    before = signatures()
    ro = x.copy()
    ro.flags.writeable = False
    for y in (x.astype(np.float32), np.repeat(x, 2)[::2], ro, list(x),
              x.astype(">f8")):
        vy, gy = c.value_and_grad(y)
        np.testing.assert_allclose(vy, v, rtol=1e-6)
        np.testing.assert_allclose(gy, g, rtol=1e-6)
    assert signatures() == before
    g2 = c.grad(x + 1)  # each call's gradient is its own array
    assert not np.array_equal(g, g2) and g is not g2


def _branchy(x):
    if x[0] > 0:
        return (x * x).sum()
    return x.sin().sum()


def test_a_diverging_point_is_retraced_or_raises_never_wrong():
    c = tg.compile(_branchy)
    for x in (np.array([1.0, 2.0]), np.array([-1.0, 2.0]), np.array([3.0, 1.0])):
        v, g = c.value_and_grad(x)
        if x[0] > 0:
            np.testing.assert_allclose(g, 2 * x)
        else:
            np.testing.assert_allclose(g, np.cos(x))
    t = tg.jit.trace(_branchy, np.array([1.0, 2.0]))
    with pytest.raises(tg.replay.DivergenceError, match="another branch"):
        t.value_and_grad(np.array([-1.0, 2.0]))
    t.value_batch(np.array([[1.0, 2.0], [-1.0, 0.0]]), on_divergence="mask")
    assert t.mask is not None
    t.value_and_grad(np.array([1.0, 2.0]))
    assert t.mask is None  # the mask of this thread's last call


@pytest.mark.parametrize("fused", [False, True])
def test_points_from_threads_on_traces_of_several_sizes(fused):
    """The interpreter's work buffer is one per thread, shared by every trace (grown to
    the largest arena): threads alternating between a small and a larger trace, each
    through the signature's shortcut (``Compiled._hot``) and its look-up, get what one
    thread gets, bit for bit, and every gradient is an array of its own."""
    import threading
    f = tg.compile(rosen, fused=fused)
    xs = [np.linspace(-1, 1, n) + 0.01 * k for k in range(4) for n in (3, 40)]
    if fused:
        f.compile_fused(xs[0], wait=True)
        f.compile_fused(xs[1], wait=True)
    want = [f.value_and_grad(x) for x in xs]
    got, errors = {}, []

    def run(k):
        try:
            got[k] = [f.value_and_grad(x) for _ in range(50) for x in xs[k:] + xs[:k]]
        except BaseException as e:  # noqa: BLE001 (reported in the main thread)
            errors.append(e)
    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors, errors[0]
    for k, res in got.items():
        order = want[k:] + want[:k]
        for i, (v, g) in enumerate(res):
            assert v == order[i % len(xs)][0]
            np.testing.assert_array_equal(g, order[i % len(xs)][1])
    assert len({id(g) for res in got.values() for _, g in res[:8]}) == 32
