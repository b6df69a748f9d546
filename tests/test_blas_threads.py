"""SciPy's BLAS pool (the compiled sweep's np.dot) held to one thread while a sweep runs
beside NumPy's pool (tapegrad/_blas.py, issue 20): the count is put back, holds nest and
count across threads, nothing is held where it would not help, and the gradients are the
ones a one-thread sweep gives.  Timings: benchmarks/bench_blas_threads.py."""
import threading

import numpy as np
import pytest

import tapegrad as tg
from tapegrad import _blas, _kernels


@pytest.fixture
def pools(monkeypatch):
    """(SciPy's pool, NumPy's pool), both at two threads for the test, found as the first
    compiled np.dot finds them; put back as they were after it."""
    pytest.importorskip("scipy.linalg.cython_blas")  # (what Numba's np.dot calls)
    kernels, mine = _blas.kernel_pool(), _blas.numpy_pool()
    if kernels is None or mine is None:
        pytest.skip("SciPy's and NumPy's BLAS are not two OpenBLAS pools here")
    saved = kernels.get(), mine.get()
    for name, value in (("found", True), ("kernels", kernels), ("numpy", mine),
                        ("running", 0), ("restore", 0)):
        monkeypatch.setattr(_blas._Held, name, value)
    monkeypatch.setattr(_blas, "HOLD", True)
    kernels.set(2)
    mine.set(2)
    yield kernels, mine
    kernels.set(saved[0])
    mine.set(saved[1])


def test_two_pools_in_wheels(pools):
    kernels, mine = pools
    assert kernels.address != mine.address
    assert kernels.get() == 2 and mine.get() == 2


def test_hold_holds_one_thread_and_release_puts_back(pools):
    kernels, mine = pools
    held = _blas.hold()
    assert held and kernels.get() == 1
    assert mine.get() == 2  # NumPy's pool, the user's, keeps its threads
    _blas.release(held)
    assert kernels.get() == 2 and _blas._Held.running == 0


def test_the_count_put_back_is_the_one_found(pools):
    kernels, _ = pools
    kernels.set(3)
    held = _blas.hold()
    assert kernels.get() == 1
    _blas.release(held)
    assert kernels.get() == 3


def test_holds_nest(pools):
    kernels, _ = pools
    outer = _blas.hold()
    inner = _blas.hold()
    _blas.release(inner)
    assert kernels.get() == 1  # the outer sweep still runs
    _blas.release(outer)
    assert kernels.get() == 2


def test_holds_count_across_threads(pools):
    kernels, _ = pools
    n = 8
    start, seen = threading.Barrier(n), []

    def run():
        start.wait()
        for _ in range(200):
            held = _blas.hold()
            seen.append(kernels.get())
            _blas.release(held)

    threads = [threading.Thread(target=run) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert set(seen) == {1}
    assert kernels.get() == 2 and _blas._Held.running == 0


@pytest.mark.parametrize("one", ["kernels", "numpy"])
def test_a_pool_of_one_thread_holds_nothing(pools, one):
    # one thread already (OPENBLAS_NUM_THREADS=1, threadpoolctl): nothing spins beside the
    # other pool, and nothing is changed
    kernels, mine = pools
    (kernels if one == "kernels" else mine).set(1)
    held = _blas.hold()
    assert (kernels.get(), mine.get()) == ((1, 2) if one == "kernels" else (2, 1))
    _blas.release(held)
    assert (kernels.get(), mine.get()) == ((1, 2) if one == "kernels" else (2, 1))


def test_held_runs_the_kernel_held_and_puts_back_on_error(pools):
    kernels, _ = pools
    assert _blas.held(lambda a, b: (kernels.get(), a + b), 1, 2) == (1, 3)

    def failing():
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        _blas.held(failing)
    assert kernels.get() == 2 and _blas._Held.running == 0


def test_held_counts_unless_the_pool_was_at_one_already(pools):
    kernels, _ = pools
    running = lambda: _blas._Held.running  # noqa: E731
    assert _blas.held(running) == 1  # held: counted
    outer = _blas.hold()  # another sweep holds the pool at one: this one must count too
    assert _blas.held(running) == 2
    _blas.release(outer)
    kernels.set(1)  # one thread by the user's choice: the lock-free path, nothing counted
    assert _blas.held(running) == 0
    assert kernels.get() == 1


def test_hold_off(pools, monkeypatch):
    kernels, _ = pools
    monkeypatch.setattr(_blas, "HOLD", False)
    held = _blas.hold()
    assert kernels.get() == 2
    _blas.release(held)
    assert kernels.get() == 2


def test_one_library_is_one_pool(pools, monkeypatch):
    # NumPy and SciPy linked to one OpenBLAS (conda, distributions): no second pool
    kernels, _ = pools
    monkeypatch.setattr(_blas, "numpy_pool", lambda: kernels)
    assert _blas.kernel_pool() is None


def test_no_openblas_found(monkeypatch):
    # SciPy on MKL or Accelerate, or its BLAS not reached: nothing is held, backward works
    monkeypatch.setattr(_blas, "pool_of", lambda path: None)
    monkeypatch.setattr(_blas._Held, "found", False)
    monkeypatch.setattr(_blas._Held, "kernels", None)
    assert _blas.kernel_pool() is None and _blas.numpy_pool() is None
    assert _blas.hold() is False
    _blas.release(False)
    w = tg.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
    (tg.tensor(np.ones((4, 3))) @ w.T).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), np.full((2, 3), 4.0))


def _linear_grads(shape):
    M, K, N = shape
    rng = np.random.default_rng(0)
    x = tg.tensor(rng.standard_normal((M, K)), requires_grad=True)
    w = tg.tensor(rng.standard_normal((N, K)), requires_grad=True)
    b = tg.tensor(rng.standard_normal(N), requires_grad=True)
    tg.nn.functional.linear(x, w, b).tanh().sum().backward()
    return [t.grad.numpy().copy() for t in (x, w, b)]


def test_backward_sweeps_on_one_thread(pools, monkeypatch):
    kernels, mine = pools
    seen = []
    sweep = _kernels.reverse_sweep

    def watched(vals):
        kernel = sweep(vals)

        def run(*args):
            seen.append(kernels.get())
            return kernel(*args)
        return run

    monkeypatch.setattr(_kernels, "reverse_sweep", watched)
    _linear_grads((64, 32, 16))
    assert seen and set(seen) == {1}
    assert kernels.get() == 2 and mine.get() == 2 and _blas._Held.running == 0


def test_a_failing_sweep_puts_the_count_back(pools, monkeypatch):
    kernels, _ = pools

    def failing(vals):
        def run(*args):
            raise KeyboardInterrupt
        return run

    monkeypatch.setattr(_kernels, "reverse_sweep", failing)
    with pytest.raises(KeyboardInterrupt):
        _linear_grads((8, 4, 2))
    assert kernels.get() == 2 and _blas._Held.running == 0


# (256, 100, 256) is the MLP's first layer; OpenBLAS's sums for (129, 517, 333) depend on
# its thread count (they differed in the last bits between 1 and 2 threads, up to 8e-14):
# held, the gradients are a one-thread sweep's whatever the count the pool had
@pytest.mark.parametrize("shape", [(256, 100, 256), (129, 517, 333)])
def test_gradients_are_a_one_thread_sweeps(pools, shape):
    kernels, _ = pools
    held = _linear_grads(shape)
    kernels.set(1)
    one = _linear_grads(shape)
    for g, r in zip(held, one, strict=True):
        np.testing.assert_array_equal(g, r)


def test_interrupted_hold_heals_and_reset_puts_the_pool_back(pools, monkeypatch):
    """A KeyboardInterrupt between hold's lines: a change cut off mid-way (gen left odd)
    is healed by the next hold, and a lost release (the count left running) is undone by
    reset(), which interrupt_inject.py calls between its runs."""
    kernels, _ = pools
    monkeypatch.setattr(_blas._Held, "gen", 0)
    calls = []

    def interrupted():
        calls.append(kernels.get())
        raise KeyboardInterrupt

    with monkeypatch.context() as m, pytest.raises(KeyboardInterrupt):
        m.setattr(_blas, "release", lambda held: None)  # the release lost
        _blas.held(interrupted)
    assert calls == [1] and kernels.get() == 1 and _blas._Held.running == 1
    _blas._Held.gen += 1  # a change cut off between its first and last line
    held = _blas.hold()
    assert _blas._Held.gen % 2 == 0  # healed under the lock: seqlock reads work again
    _blas.release(held)
    assert kernels.get() == 1  # the lost release still holds the pool
    _blas.reset()
    assert kernels.get() == 2 and _blas._Held.running == 0 and _blas._Held.restore == 0
