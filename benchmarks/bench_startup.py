"""Start-up: ``import tapegrad`` plus the first backward and the first replay (a compiled
Rosenbrock's value and gradient at one point), in a fresh interpreter.

- ``warm``: a temporary NUMBA_CACHE_DIR is filled by one untimed run, then timed runs
  load the compiled sweep from it;
- ``cold``: every round gets a fresh, empty NUMBA_CACHE_DIR: the kernels compile in a
  background process while the first gradients run interpreted (``tapegrad/_kernels.py``);
  the child stops that process when it is done, since its cache is thrown away.

The benchmark's own time is the subprocess's wall time.  The child measures itself with
``time.perf_counter`` and prints it; ``extra_info`` carries the medians of its
``import_s``, ``first_backward_s`` and ``total_s``, and ``interpreter_s`` (wall minus the
child's total: interpreter start-up and exit) apart.

Only the Numba cache differs between the two: Python's bytecode cache is warm in both.
The child writes and reads bytecode under a session-wide PYTHONPYCACHEPREFIX (filled by
one untimed run), so a PYTHONDONTWRITEBYTECODE in the environment, or a source tree
being edited, cannot make every import compile from source, and the tree stays clean.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import pytest

CHILD = r"""
import time
t0 = time.perf_counter()
import tapegrad as tg
t1 = time.perf_counter()
x = tg.tensor(2.0, requires_grad=True)
y = (x * x).sin()
y.backward()
t2 = time.perf_counter()
f = tg.compile(lambda v: (100 * (v[1:] - v[:-1] ** 2) ** 2 + (1 - v[:-1]) ** 2).sum())
value, grad = f.value_and_grad(tg.tensor([0.5, 1.5, -0.5]).numpy())
t3 = time.perf_counter()
import json, math
assert abs(x.grad.item() - 4.0 * math.cos(4.0)) < 1e-12, x.grad
assert abs(float(value) - 913.0) < 1e-9 and abs(float(grad[2]) - 200 * (-0.5 - 2.25)) < 1e-9
from tapegrad import _kernels
_kernels._Exit.settle()  # (the first calls' threads done: the compiles they start seen)
for _proc in _kernels._Background.procs.values():  # the cache is the round's own: stop
    _proc.kill()
print(json.dumps({"import_s": t1 - t0, "first_backward_s": t2 - t1,
                  "first_replay_s": t3 - t2, "total_s": t2 - t0}))
"""
GROUP = "startup: import tapegrad + first backward (subprocess wall)"


@pytest.fixture(scope="module")
def filled(request, tmp_path_factory):
    """(bytecode cache, Numba cache) for the children, both filled by one untimed run: the
    ``warm`` case times loads from that Numba cache.  Under ``--benchmark-disable`` (CI runs
    each benchmark once as a test) the fill uses this process's own NUMBA_CACHE_DIR when one
    is set, which the benchmarks before this file have filled: a cold compile of every kernel
    is minutes on a loaded 2-core machine, and CI checks that the start-up runs, not its time."""
    prefix = str(tmp_path_factory.mktemp("pyc"))
    warm_dir = os.environ.get("NUMBA_CACHE_DIR") if request.config.getoption(
        "benchmark_disable", False) else None
    warm_dir = warm_dir or str(tmp_path_factory.mktemp("numba-warm"))
    _run_child(warm_dir, [], prefix, TAPEGRAD_BACKGROUND="0")  # compiles all it uses, here
    return prefix, warm_dir


def _run_child(cache_dir, runs, pyc_prefix, **extra_env):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, PYTHONPYCACHEPREFIX=pyc_prefix,
               **extra_env)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True,
                         text=True, check=True, timeout=1800)  # a cold compile, loaded: minutes
    wall = time.perf_counter() - t0
    r = json.loads(out.stdout.strip().splitlines()[-1])
    r["wall_s"] = wall
    runs.append(r)


@pytest.mark.parametrize("cache", ["warm", "cold"])
def test_startup(benchmark, cache, tmp_path, filled):
    pytest.importorskip("tapegrad")
    if os.environ.get("NUMBA_DISABLE_JIT", "0") == "1":
        pytest.skip("NUMBA_DISABLE_JIT=1: nothing is compiled or cached, start-up is moot")
    if cache == "warm" and os.environ.get("TAPEGRAD_CACHE", "1") == "0":
        pytest.skip("TAPEGRAD_CACHE=0: there is no warm cache")
    benchmark.group = GROUP
    runs = []
    pyc_prefix, warm_dir = filled

    if cache == "warm":
        def target():
            _run_child(warm_dir, runs, pyc_prefix)
        setup = None
        rounds = 5
    else:
        holder = {}

        def setup():
            if holder:
                shutil.rmtree(holder.pop("dir"), ignore_errors=True)
            holder["dir"] = tempfile.mkdtemp(prefix="numba-cold-", dir=tmp_path)

        def target():
            _run_child(holder["dir"], runs, pyc_prefix)
        rounds = 3
    benchmark.pedantic(target, setup=setup, rounds=1 if benchmark.disabled else rounds,
                       iterations=1)

    info = benchmark.extra_info
    info.update(library=f"tapegrad ({cache} Numba cache)", phase=f"startup-{cache}", ops=0,
                rounds=len(runs))
    for key in ("import_s", "first_backward_s", "first_replay_s", "total_s", "wall_s"):
        info[key] = statistics.median(r[key] for r in runs)
    info["interpreter_s"] = statistics.median(r["wall_s"] - r["total_s"] for r in runs)


WARMUP = {  # how: the command, on an empty Numba cache
    "tapegrad warmup (two processes)": [sys.executable, "-m", "tapegrad.cli", "warmup"],
    "tapegrad.warmup() (one process)": [sys.executable, "-c",
                                        "import tapegrad; tapegrad.warmup()"],
}


@pytest.mark.parametrize("how", list(WARMUP))
def test_warmup_cold(benchmark, how, tmp_path):
    """The cold compile of every kernel a float64 program uses (the float32 sweep compiles
    only when first needed): wall time of a fresh process on an empty cache."""
    if os.environ.get("NUMBA_DISABLE_JIT", "0") == "1":
        pytest.skip("NUMBA_DISABLE_JIT=1: nothing is compiled")
    if benchmark.disabled:
        pytest.skip("a cold compile of every kernel per round: run with benchmarks enabled")
    benchmark.group = "startup: cold compile of every kernel (subprocess wall)"
    dirs = []

    def setup():
        dirs.append(tempfile.mkdtemp(prefix="numba-warmup-", dir=tmp_path))

    def target():
        env = dict(os.environ, NUMBA_CACHE_DIR=dirs[-1])
        subprocess.run(WARMUP[how], env=env, capture_output=True, check=True, timeout=1200)
        files = os.listdir(next(os.scandir(dirs[-1])).path)
        assert sum(f.endswith(".nbc") for f in files) == 5, files  # every kernel, once

    benchmark.pedantic(target, setup=setup, rounds=2, iterations=1)
    benchmark.extra_info.update(library=f"tapegrad: {how}", phase="warmup-cold", ops=0)
