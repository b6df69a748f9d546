"""Eager small-tensor graph ``y = tanh(y * a + sin(y * b))``, K = 100 steps, then
``y.sum()``: 5 ops per step, 501 ops, on vectors of n = 4 and 256 values.

Groups ``eager vector n=<n> <phase>`` (float64) and ``eager vector n=<n> float32 <phase>``;
phases as in bench_eager.py (``forward`` records, ``backward`` sweeps a graph recorded
untimed before each round, ``fwd+bwd``), ``ns_per_op`` over the 501 ops.  ``a`` and ``b``
require grad, ``y0`` does not.  Libraries: tapegrad and PyTorch (one thread) on tensors,
HIPS autograd on NumPy arrays.

Where the scalar graph measures the Python cost per op, here n = 4 adds the per-op cost
of small arrays (NumPy calls, arena copies) and n = 256 some arithmetic.  y stays in
[0.1, 0.85] and each step scales the adjoints by 0.57-0.82 near the fixed point, so after
100 steps they are above 1e-25: normal in float32 (no denormals, no exact zeros).
``test_gradient_matches_tapegrad`` checks every library's loss and gradients.
"""
import gc

import numpy as np
import peers
import pytest

K = 100
OPS = 5 * K + 1  # mul, mul, sin, add, tanh per step; the sum
CASES = ((4, "float64"), (256, "float64"), (256, "float32"))
PHASES = ("forward", "backward", "fwd+bwd")
LIBRARIES = ("tapegrad", "torch", "hips-autograd")
RTOL = {"float64": 1e-10, "float32": 1e-5}


def _inputs(n, dtype):
    """a, b in [0.55, 0.65] and y0 in [0.1, 0.9]: NumPy arrays of ``dtype``."""
    rng = np.random.default_rng(n)
    return tuple(rng.uniform(lo, hi, n).astype(dtype)
                 for lo, hi in ((0.55, 0.65), (0.55, 0.65), (0.1, 0.9)))


def _tensors(library, mod, n, dtype):
    """tapegrad's and PyTorch's workload: ``mod.tensor`` takes the arrays as they are."""
    a, b, y0 = _inputs(n, dtype)
    a = mod.tensor(a, requires_grad=True)
    b = mod.tensor(b, requires_grad=True)
    y0 = mod.tensor(y0)

    def record():
        y = y0
        for _ in range(K):
            y = (y * a + (y * b).sin()).tanh()
        return y.sum()

    def readout(loss):
        return loss.item(), a.grad.numpy(), b.grad.numpy()

    w = peers.tensor_workload(library, OPS, record, (a, b), readout)
    w.grad()  # untimed: tapegrad's Numba sweep loads (float32 has its own), torch warms up
    return w


def tapegrad_vector(n, dtype):
    tg = pytest.importorskip("tapegrad")
    # the sweeps loaded now: else the first seconds of rounds sweep interpreted while a
    # thread loads them from Numba's cache (tapegrad/_kernels.py; float32 measured 40x slow)
    tg.warmup(float32=dtype == "float32", replay=False)
    return _tensors("tapegrad", tg, n, dtype)


def torch_vector(n, dtype):
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)  # n <= 256: threads would only add hand-off costs
    return _tensors(f"torch {torch.__version__}", torch, n, dtype)


def hips_vector(n, dtype):
    """HIPS autograd on NumPy arrays, gradients in (a, b)."""
    anp = pytest.importorskip("autograd.numpy")
    a, b, y0 = _inputs(n, dtype)

    def f(a, b):
        y = y0
        for _ in range(K):
            y = anp.tanh(y * a + anp.sin(y * b))
        return anp.sum(y)

    return peers.hips_workload(OPS, f, (a, b), (0, 1),
                               lambda loss, g: (float(loss), g[0], g[1]))


BUILDERS = {"tapegrad": tapegrad_vector, "torch": torch_vector, "hips-autograd": hips_vector}


def _group(n, dtype, phase_name):
    return f"eager vector n={n} {'' if dtype == 'float64' else dtype + ' '}{phase_name}"


@pytest.mark.parametrize("phase_name,lib,n,dtype", [
    pytest.param(phase, lib, n, dtype, id=f"{phase}-{lib}-{n}-{dtype}")
    for n, dtype in CASES for phase in PHASES for lib in LIBRARIES])
def test_eager_vector(phase, phase_name, lib, n, dtype):
    w = BUILDERS[lib](n, dtype)
    target, setup, graph = peers.phase_callables(w, phase_name)
    phase(target, setup, group=_group(n, dtype, phase_name), library=w.library,
          phase=phase_name, ops=OPS, n=n, dtype=dtype)
    graph.clear()


_REFERENCE = {}


def _tapegrad_reference(n, dtype):
    if (n, dtype) not in _REFERENCE:
        _REFERENCE[n, dtype] = tapegrad_vector(n, dtype).grad()
    return _REFERENCE[n, dtype]


@pytest.mark.parametrize("lib,n,dtype", [
    pytest.param(lib, n, dtype, id=f"{lib}-{n}-{dtype}")
    for n, dtype in CASES for lib in LIBRARIES if lib != "tapegrad"])
def test_gradient_matches_tapegrad(lib, n, dtype):
    """Loss, dL/da and dL/db equal tapegrad's, in the input dtype (1e-10 relative in
    float64, 1e-5 in float32; a correctness check, untimed)."""
    loss, ga, gb = BUILDERS[lib](n, dtype).grad()
    loss_ref, ga_ref, gb_ref = _tapegrad_reference(n, dtype)
    rtol = RTOL[dtype]
    assert loss == pytest.approx(loss_ref, rel=rtol, abs=0)
    for g, g_ref in ((ga, ga_ref), (gb, gb_ref)):
        assert g.dtype == g_ref.dtype == np.dtype(dtype), (g.dtype, g_ref.dtype)
        np.testing.assert_allclose(g, g_ref, rtol=rtol, atol=0)


def test_tapegrad_records_one_row_per_op():
    """The ns/op figures divide by OPS: tapegrad's tape must hold exactly that many rows
    (no hidden EXPAND or copy rows), in the arena dtype of the inputs."""
    from tapegrad.tape import current_tape
    gc.collect()  # an earlier test's graph left in a cycle would keep its rows on the tape
    for n, dtype in CASES:
        loss = tapegrad_vector(n, dtype).record()
        tape = current_tape()
        assert tape.nrows == OPS, (n, dtype, tape.nrows)
        assert loss.dtype == getattr(pytest.importorskip("tapegrad"), dtype)
        del loss
