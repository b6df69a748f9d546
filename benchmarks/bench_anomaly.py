"""Anomaly mode off vs on, on the eager scalar graph of bench_eager.py (``y = y * a +
sin(y) * b``), for tapegrad and PyTorch.

Groups ``anomaly N=<n> <phase>``, with ``extra_info["anomaly"]`` "off" or "on":

- ``forward``: recording (anomaly on: every row also notes the user frames that recorded
  it, tape.py ``_SiteRows``);
- ``backward``: the reverse pass (anomaly on: row by row, each row's input adjoints
  checked for NaN, autograd/anomaly.py ``checked_sweep``).

"off" is the ordinary path: the recording hot path has no anomaly check at all, and the
engine tests one flag per backward, so "off" should equal bench_eager.py's tapegrad
numbers within noise (compare the two groups in one run).
"""
import warnings

import peers
import pytest

SIZES = (10**3, 10**4)
PHASES = ("forward", "backward")
CASES = [pytest.param(phase, lib, mode, n, id=f"{phase}-{lib}-{mode}-{n}")
         for n in SIZES for phase in PHASES for lib in ("tapegrad", "torch")
         for mode in ("off", "on")]


def _set_anomaly(lib, on):
    if lib == "tapegrad":
        import tapegrad
        tapegrad.autograd.set_detect_anomaly(on)
    else:
        torch = pytest.importorskip("torch")
        torch.autograd.set_detect_anomaly(on)


@pytest.mark.parametrize("phase_name,lib,mode,n", CASES)
def test_anomaly_overhead(phase, phase_name, lib, mode, n):
    w = peers.BUILDERS[lib](n)
    graph = {}
    if phase_name == "forward":
        def setup():
            graph.clear()

        def target():
            graph["g"] = w.record()
    else:
        def setup():
            graph.clear()
            graph["g"] = w.record()

        def target():
            w.backward(graph["g"])
    _set_anomaly(lib, mode == "on")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            phase(target, setup, group=f"anomaly N={n} {phase_name}", library=w.library,
                  phase=phase_name, ops=n, anomaly=mode)
    finally:
        _set_anomaly(lib, False)
        graph.clear()


def test_anomaly_finds_nothing_on_the_benchmark_graph():
    """The workload is NaN-free: anomaly mode must not change its gradient."""
    import tapegrad
    w = peers.BUILDERS["tapegrad"](400)
    y0, g0 = w.grad()
    tapegrad.autograd.set_detect_anomaly(True)
    try:
        y1, g1 = w.grad()
    finally:
        tapegrad.autograd.set_detect_anomaly(False)
    assert (y0, g0) == (y1, g1)
