"""Shared machinery for the benchmarks: rounds chosen by a time budget, fresh graphs per
round, and the ``extra_info`` every benchmark reports.

Timings are reported (medians, ratios), never asserted.  The garbage collector stays ON
while timing: libraries that keep a Python object per op pay for it in real programs,
and that cost is part of what DESIGN.md asks to measure.  Between tests the collector
runs once, so one library's leftover cyclic garbage is never collected inside another
library's timed rounds.
"""
import gc
import os
import time
from importlib import metadata

import pytest

BUDGET_S = 2.0  # measured seconds per benchmark (setup time comes on top)
MIN_ROUNDS = 5
MAX_ROUNDS = 500


_LOAD = {}
PEERS = ("tapegrad", "torch", "autograd", "micrograd", "numba", "numpy", "jax")


def _loadavg():
    try:
        return os.getloadavg()
    except OSError:
        return None


def pytest_sessionstart(session):
    _LOAD["start"] = _loadavg()


def pytest_benchmark_update_machine_info(config, machine_info):
    """Record what else was running (load averages) and the peers' versions."""
    machine_info["cpu_count"] = os.cpu_count()
    machine_info["loadavg_start"] = _LOAD.get("start")
    machine_info["loadavg_end"] = _loadavg()
    versions = {}
    for name in PEERS:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    machine_info["peer_versions"] = versions


@pytest.fixture(autouse=True)
def _collect_between_tests(request):
    # with --benchmark-disable (CI) nothing is timed, and a full collection with torch and
    # jax loaded takes 0.2-0.7 s: two per test were ~1 min of CI
    if request.config.getoption("benchmark_disable", False):
        yield
        return
    gc.collect()
    yield
    gc.collect()


def rounds_for(seconds_per_call, budget=BUDGET_S, lo=MIN_ROUNDS, hi=MAX_ROUNDS):
    """How many rounds fit in the budget, clamped to [lo, hi]."""
    return max(lo, min(hi, int(budget / max(seconds_per_call, 1e-9))))


def median_s(benchmark):
    """The median round in seconds, or None when benchmarks are disabled."""
    stats = getattr(benchmark, "stats", None)
    return None if stats is None else stats.stats.median


class Phase:
    """Runs one timed phase through ``benchmark.pedantic`` and fills ``extra_info``.

    ``target`` is timed; ``setup`` (untimed) runs before every round.  One untimed
    calibration call (a warm-up) picks the number of rounds that fits ``budget``.
    """

    def __init__(self, benchmark):
        self.benchmark = benchmark

    def __call__(self, target, setup=None, *, group, library, phase, ops, budget=BUDGET_S,
                 min_rounds=MIN_ROUNDS, max_rounds=MAX_ROUNDS, **extra):
        bm = self.benchmark
        bm.group = group
        bm.extra_info.update(library=library, phase=phase, ops=ops, **extra)
        if bm.disabled:
            rounds = 1
        else:
            if setup is not None:
                setup()
            t0 = time.perf_counter()
            target()
            rounds = rounds_for(time.perf_counter() - t0, budget, min_rounds, max_rounds)
        bm.pedantic(target, setup=setup, rounds=rounds, iterations=1)
        med = median_s(bm)
        if med is not None:
            bm.extra_info["median_s"] = med
            if ops:
                bm.extra_info["ns_per_op"] = med / ops * 1e9
        return med


@pytest.fixture
def phase(benchmark):
    """``phase(target, setup, group=..., library=..., phase=..., ops=...)``: see Phase."""
    return Phase(benchmark)
