"""Default BLAS threads (issue 20): the MLP step of bench_mlp.py and a linear layer's backward
(``F.linear(x, W, b).sum().backward()``, x 256 x 100, W 256 x 100) with OpenBLAS left to
choose its threads, beside the same under ``OPENBLAS_NUM_THREADS=1``.

tapegrad's eager forward multiplies with NumPy's OpenBLAS and its compiled backward with
SciPy's (Numba's np.dot): two pools.  While a sweep runs, SciPy's pool is held to one thread
(tapegrad/_blas.py); ``tapegrad (unheld)`` runs with that off (``_blas.HOLD = False``), as
before the fix, when the two pools' spinning workers starved each other.

OpenBLAS reads its thread variables once, when it loads, and benchmarks are usually run with
them set to 1 (bench_mlp.py's command): so each environment gets a child interpreter of its
own, ``default`` without OPENBLAS_NUM_THREADS, OMP_NUM_THREADS, MKL_NUM_THREADS and
GOTO_NUM_THREADS, ``one thread`` with all four at 1.  A round is ``CALLS`` calls in the
child, timed from here (the pipe's round trip, ~50 us, is spread over them);
``extra_info["per_call_s"]`` is the median round over ``CALLS``, and
``ratio_to_numpy`` / ``ratio_to_one_thread`` are taken from the medians of this run (numpy
and the one-thread child are measured first).  Run::

    python -m pytest benchmarks/bench_blas_threads.py --benchmark-only \
        --benchmark-columns=median,iqr,rounds --benchmark-sort=name

Timings are only reported.  On a machine whose load is above its core count any
multi-threaded BLAS (NumPy's by hand too) is slowed many times; read the load averages in
the benchmark JSON's machine_info.
"""
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
CALLS = 20  # calls per round
THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
               "GOTO_NUM_THREADS")
ENVS = ("one thread", "default")
LIBRARIES = ("numpy", "torch", "tapegrad", "tapegrad (unheld)")
CASES = ("mlp step", "linear backward")

CHILD = r"""
import sys, time
import bench_mlp
from profile_blas_threads import linear_backward  # (the same call, interleaved there)

def build(case, lib):
    base = lib.split(" ")[0]
    if base == "tapegrad":
        import tapegrad
        from tapegrad import _blas
        tapegrad.warmup(float32=False, replay=False)
        _blas.HOLD = lib == "tapegrad"
    if case == "mlp step":
        return bench_mlp.BUILDERS[base]("float64")[0]
    return linear_backward(base)

calls = {}
for line in sys.stdin:
    case, lib, n = line.rstrip("\n").split("|")
    key = case, lib
    if key not in calls:
        calls[key] = build(case, lib)
        time.sleep(0.3)  # (the last library's BLAS workers asleep)
        for _ in range(10):
            calls[key]()
    call = calls[key]
    for _ in range(int(n)):
        call()
    print("ok", flush=True)
"""


class Child:
    """A child interpreter running ``CHILD`` in one environment."""

    def __init__(self, env_name):
        env = {k: v for k, v in os.environ.items() if k not in THREAD_VARS}
        if env_name == "one thread":
            env.update(dict.fromkeys(THREAD_VARS, "1"))
        root = os.path.dirname(HERE)
        env["PYTHONPATH"] = os.pathsep.join([root, HERE, env.get("PYTHONPATH", "")])
        self.proc = subprocess.Popen([sys.executable, "-c", CHILD], env=env, cwd=root,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def run(self, case, lib, n):
        self.proc.stdin.write(f"{case}|{lib}|{n}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if line != "ok\n":
            raise RuntimeError(f"the {lib} child stopped ({self.proc.wait()})")

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


@pytest.fixture(scope="module")
def children():
    kids = {}
    yield kids
    for kid in kids.values():
        kid.close()


MEDIANS = {}  # (env, case, lib) -> seconds per call, this run


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("env", ENVS)
def test_default_threads(phase, children, env, case, lib):
    if env == "one thread" and lib == "tapegrad (unheld)":
        pytest.skip("one thread: nothing is held")
    pytest.importorskip("torch" if lib == "torch" else "numpy")
    if env not in children:
        children[env] = Child(env)
    kid = children[env]
    n = 1 if phase.benchmark.disabled else CALLS
    kid.run(case, lib, 1)  # built and warmed up untimed
    med = phase(lambda: kid.run(case, lib, n), group=f"{case}, BLAS threads: {env}",
                library=lib, phase="fwd+bwd", ops=None, calls_per_round=n, env=env)
    if med is None:
        return
    per_call = med / n
    MEDIANS[env, case, lib] = per_call
    info = phase.benchmark.extra_info
    info["per_call_s"] = per_call
    if (env, case, "numpy") in MEDIANS:
        info["ratio_to_numpy"] = per_call / MEDIANS[env, case, "numpy"]
    one = MEDIANS.get(("one thread", case, lib.split(" ")[0]))
    if one:
        info["ratio_to_one_thread"] = per_call / one
