"""Eager scalar graph ``y = y * a + sin(y) * b`` (4 ops per step), N = 10^3 and 10^5 ops.

Groups ``eager N=<n> <phase>``, phases measured apart:

- ``forward``: recording the graph (for python-floats and numba: just computing it);
- ``backward``: one reverse pass over a graph recorded fresh, untimed, before each round;
- ``fwd+bwd``: both in one call (HIPS ``autograd.grad`` exists only in this form).

Graphs are released in the untimed setup of the next round, so no library's timed
round pays for freeing the previous one (tapegrad's tape reset, torch's node graph).
``test_gradient_matches_tapegrad`` checks y and dy/da of every peer against tapegrad.
"""
import math
import sys

import peers
import pytest

SIZES = (10**3, 10**5)
PHASES = ("forward", "backward", "fwd+bwd")
LIBRARIES = {  # library -> phases it has
    "tapegrad": PHASES,
    "torch": PHASES,
    "micrograd": PHASES,
    "hips-autograd": PHASES,
    "python-floats": ("forward",),
    "numba": PHASES,
}
REL = 1e-9


def pytest_generate_tests(metafunc):
    """Under --benchmark-disable (CI) the timed cases run at 10^3 ops only: they time
    nothing there, and test_gradient_matches_tapegrad still checks every peer at 10^5."""
    if metafunc.function is test_eager:
        smoke = metafunc.config.getoption("benchmark_disable", False)
        metafunc.parametrize("phase_name,lib,n", [
            pytest.param(phase, lib, n, id=f"{phase}-{lib}-{n}")
            for n in (SIZES[:1] if smoke else SIZES) for phase in PHASES
            for lib, phases in LIBRARIES.items() if phase in phases])


def _recursion_skip(lib, n):
    pytest.skip(f"{lib} backward raises RecursionError at N={n} ops: its topological sort "
                f"recurses once per graph level (default recursion limit "
                f"{sys.getrecursionlimit()})")


def test_eager(phase, phase_name, lib, n):
    w = peers.BUILDERS[lib](n)
    graph = {}
    if phase_name == "forward":
        def setup():
            graph.clear()

        def target():
            graph["g"] = w.record()
    elif phase_name == "backward":
        def setup():
            graph.clear()
            graph["g"] = w.record()

        def target():
            w.backward(graph["g"])
    else:
        setup = graph.clear
        target = w.fwd_bwd

    extra = {"unary": w.unary}
    if w.note:
        extra["note"] = w.note
    try:
        phase(target, setup, group=f"eager N={n} {phase_name}", library=w.library,
              phase=phase_name, ops=n, **extra)
    except RecursionError:
        graph.clear()
        _recursion_skip(w.library, n)
    if phase_name == "forward" and w.tape_bytes is not None:
        from tapegrad.tape import current_tape
        tape = current_tape()
        phase.benchmark.extra_info["tape_rows"] = tape.nrows
        phase.benchmark.extra_info["tape_bytes_per_op"] = w.tape_bytes(graph["g"]) / tape.nrows
    graph.clear()


_REFERENCE = {}


def _tapegrad_reference(n, unary):
    key = (n, unary)
    if key not in _REFERENCE:
        _REFERENCE[key] = peers.tapegrad_eager(n, unary).grad()
    return _REFERENCE[key]


GRAD_CASES = [pytest.param(lib, n, id=f"{lib}-{n}") for n in SIZES
              for lib, phases in LIBRARIES.items() if lib != "tapegrad" and "backward" in phases]


@pytest.mark.parametrize("lib,n", GRAD_CASES)
def test_gradient_matches_tapegrad(lib, n):
    """y and dy/da agree with tapegrad's to 1e-9 relative (a correctness check, untimed)."""
    w = peers.BUILDERS[lib](n)
    try:
        y, dyda = w.grad()
    except RecursionError:
        _recursion_skip(w.library, n)
    y_ref, dyda_ref = _tapegrad_reference(n, w.unary)
    assert math.isclose(y, y_ref, rel_tol=REL), (w.library, y, y_ref)
    assert math.isclose(dyda, dyda_ref, rel_tol=REL), (w.library, dyda, dyda_ref)


def test_tapegrad_gradient_is_right():
    """tapegrad's dy/da against the closed-form recurrence, computed in plain floats."""
    n = 10**3
    y, ga = peers.Y0, 0.0
    for _ in range(peers.steps(n)):  # forward-mode: dy'/da = y + (a + b cos y) dy/da
        y, ga = y * peers.A + math.sin(y) * peers.B, y + (peers.A + peers.B * math.cos(y)) * ga
    y_ref, dyda_ref = _tapegrad_reference(n, "sin")
    assert math.isclose(y_ref, y, rel_tol=REL)
    assert math.isclose(dyda_ref, ga, rel_tol=REL)
