"""Deep chain ``y = y * 1.000001``: 10^6 ops for tapegrad, 10^5 for torch.

One benchmark round (``pedantic(rounds=1)``) times recording plus the backward; then the
memory is measured in separate passes, because a tracer slows recording down:

- ``tracemalloc_bytes_per_op`` (tapegrad only): tracemalloc peak minus the baseline
  while recording, over ops.  Growth transients (buffer reallocation) are included.
  torch allocates in C++, out of tracemalloc's sight, so it gets no such figure.
- ``rss_bytes_per_op`` (both): in a fresh subprocess, the peak resident set size
  (``VmHWM`` in /proc/self/status, its high-water mark reset through
  /proc/self/clear_refs) minus the resident size before recording, over ops.  Page
  granular, and glibc may reuse freed memory, so it is a footing shared by both
  libraries rather than an exact count.

With ``--benchmark-disable`` (CI) the chains shrink to 10^4 ops: the code still runs
and the gradient is still checked, in a fraction of a second.
"""
import gc
import json
import math
import os
import subprocess
import sys
import time
import tracemalloc

import pytest

C = 1.000001
N_TAPEGRAD = 10**6
N_TORCH = 10**5
N_SMOKE = 10**4
GROUP = "deep chain y = y * 1.000001 (record + backward)"

CHILD = r"""
import gc, json, sys, time
lib, n, c = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])

def status_kb(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])

def reset_peak():
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False

if lib == "tapegrad":
    import tapegrad as m
    x0 = m.tensor(1.0, requires_grad=True)
else:
    import torch as m
    x0 = m.tensor(1.0, dtype=m.float64, requires_grad=True)

def chain(k):
    x = x0.detach().requires_grad_(True)
    y = x
    for _ in range(k):
        y = y * c
    return x, y

x, y = chain(100)  # warm-up: kernels loaded, first-op set-up paid, not counted
y.backward()
del x, y
gc.collect()
peak_reset = reset_peak()
base = status_kb("VmRSS")
t0 = time.perf_counter()
x, y = chain(n)
t1 = time.perf_counter()
peak_record = status_kb("VmHWM")
after_record = status_kb("VmRSS")
y.backward()
t2 = time.perf_counter()
print(json.dumps({
    "peak_reset": peak_reset, "base_kb": base, "peak_record_kb": peak_record,
    "after_record_kb": after_record, "peak_backward_kb": status_kb("VmHWM"),
    "record_s": t1 - t0, "backward_s": t2 - t1, "grad": x.grad.item(),
}))
"""


def _expected_grad(n):
    g = 1.0
    for _ in range(n):  # the sweep multiplies the same constants in the same order
        g *= C
    return g


def rss_per_op(lib, n):
    """RSS growth while recording n ops, measured in a fresh interpreter."""
    out = subprocess.run([sys.executable, "-c", CHILD, lib, str(n), repr(C)],
                         capture_output=True, text=True, check=True, timeout=600)
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert math.isclose(r["grad"], _expected_grad(n), rel_tol=1e-9), r
    r["rss_bytes_per_op"] = (r["peak_record_kb"] - r["base_kb"]) * 1024 / n
    return r


def _timed_chain(make, n, info):
    """Record n ops then backward; the two phases' times go to ``info``."""
    def run():
        x = make()
        t0 = time.perf_counter()
        y = x
        for _ in range(n):
            y = y * C
        t1 = time.perf_counter()
        y.backward()
        t2 = time.perf_counter()
        info["record_ns_per_op"] = (t1 - t0) / n * 1e9
        info["backward_ns_per_op"] = (t2 - t1) / n * 1e9
        g = x.grad.item()
        assert math.isclose(g, _expected_grad(n), rel_tol=1e-9), (g, C ** n)
        return g
    return run


def test_chain_tapegrad(benchmark):
    tg = pytest.importorskip("tapegrad")
    from tapegrad.tape import current_tape
    n = N_SMOKE if benchmark.disabled else N_TAPEGRAD
    benchmark.group = GROUP
    info = benchmark.extra_info
    info.update(library="tapegrad", phase="record+backward", ops=n)
    tg.warmup()

    def make():
        return tg.tensor(1.0, requires_grad=True)

    benchmark.pedantic(_timed_chain(make, n, info), rounds=1, iterations=1)
    if benchmark.stats is not None:
        info["ns_per_op"] = benchmark.stats.stats.median / n * 1e9

    # tracemalloc pass: peak growth while recording (the tape's buffers, the last tensor)
    x = make()
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    y = x
    for _ in range(n):
        y = y * C
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    tape = current_tape()
    info["tape_bytes_per_op"] = tape.nbytes() / tape.nrows
    info["tracemalloc_bytes_per_op"] = (peak - base) / n
    y.backward()
    assert math.isclose(x.grad.item(), _expected_grad(n), rel_tol=1e-9)
    del x, y

    r = rss_per_op("tapegrad", n)
    info["rss_bytes_per_op"] = r["rss_bytes_per_op"]
    info["rss_peak_reset"] = r["peak_reset"]
    n_small = N_SMOKE if benchmark.disabled else N_TORCH  # torch's N, for a like-for-like row
    info[f"rss_bytes_per_op_at_{n_small}"] = rss_per_op("tapegrad", n_small)["rss_bytes_per_op"]


def test_chain_torch(benchmark):
    torch = pytest.importorskip("torch")
    n = N_SMOKE if benchmark.disabled else N_TORCH
    benchmark.group = GROUP
    info = benchmark.extra_info
    info.update(library=f"torch {torch.__version__}", phase="record+backward", ops=n)

    def make():
        return torch.tensor(1.0, dtype=torch.float64, requires_grad=True)

    _timed_chain(make, 100, {})()  # first-op set-up, not counted
    benchmark.pedantic(_timed_chain(make, n, info), rounds=1, iterations=1)
    if benchmark.stats is not None:
        info["ns_per_op"] = benchmark.stats.stats.median / n * 1e9
    r = rss_per_op("torch", n)
    info["rss_bytes_per_op"] = r["rss_bytes_per_op"]
    info["rss_peak_reset"] = r["peak_reset"]


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux /proc")
def test_rss_probe_sees_growth():
    """The RSS probe is not blind: 80 MB of touched memory shows up as ~80 MB."""
    probe = CHILD.split("if lib ==")[0] + (
        "reset_peak(); b = status_kb('VmRSS'); x = b'1' * (80 << 20)\n"
        "print((status_kb('VmHWM') - b) * 1024)\n")
    out = subprocess.run([sys.executable, "-c", probe, "none", "0", "1"], capture_output=True,
                         text=True, check=True)
    grown = int(out.stdout.split()[-1])
    assert 0.9 * (80 << 20) < grown < 1.2 * (80 << 20)
