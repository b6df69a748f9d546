"""The kernels' two forms (tapegrad/_kernels.py, issue 23): a warm cache's first gradient runs
the rules interpreted while a thread imports Numba and loads the compiled kernel, the Python
form of each kernel gives the compiled one's gradient (nan and inf included), and a script
ending at its first gradient still leaves the background compile behind.  (A cold cache's
first gradient is tested in tests/test_jit.py, which shares one cold start among its checks.)"""
import concurrent.futures
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from conftest import fresh_env

import tapegrad as tg
from tapegrad import _jit, _kernels, _sweep


def expected(x):
    return np.cos(x) * np.exp(x) + np.sin(x) * np.exp(x) + 2 * x / np.cosh(x * x) ** 2


def _both_sweeps(y):
    """The adjoints of ``y``'s tape swept by the compiled kernel and by its Python form (its
    dispatchers' functions, rebound recursively)."""
    tape = y._tok.tape
    rows, offs, vals, consts, meta = tape.arrays()
    out = [_sweep._reverse_sweep, _kernels._plain(_sweep._reverse_sweep)]
    adjs = []
    for k in out:
        adj = np.zeros_like(vals)
        reach = np.zeros(len(offs) - 1, np.uint8)
        adj[offs[y._slot]] = 1.0
        reach[y._slot] = 1
        assert k(rows, offs, vals, consts, meta, adj, reach, 0, len(rows), 1) == -1
        adjs.append(adj)
    return adjs


def test_interpreted_kernels_match_the_compiled_ones():
    """The Python form of each kernel gives the compiled kernel's gradient on a graph of
    many op kinds."""
    x = tg.tensor(np.linspace(-1, 1, 12).reshape(3, 4), requires_grad=True)
    y = ((x.sin() * x.exp()).sum(1) / (1 + (x * x).mean())).log1p().softmax(0)
    adjs = _both_sweeps(y)
    assert np.abs(adjs[0]).sum() > 0
    np.testing.assert_allclose(adjs[1], adjs[0], rtol=1e-13, atol=1e-15)
    assert _kernels._plain(_sweep._reverse_sweep) is _kernels._plain(_sweep._reverse_sweep)


@pytest.mark.parametrize("f", [
    lambda x: x.log(), lambda x: x.sqrt(), lambda x: x ** 0.5, lambda x: x.pow(x),
    lambda x: x.sin(), lambda x: x.cos(), lambda x: x.tan(), lambda x: x.exp(),
    lambda x: x.log1p(), lambda x: x.log2(), lambda x: x.asin(), lambda x: x.acos()],
    ids=["log", "sqrt", "pow_const", "pow", "sin", "cos", "tan", "exp", "log1p", "log2",
         "asin", "acos"])
def test_interpreted_kernels_give_nan_and_inf_where_compiled_ones_do(f):
    """Outside an op's domain the Python form gives the compiled nan/inf (tapegrad/
    _ieee_math.py): CPython's math raises there, which made a cold cache's first gradient
    of log(-1) a ValueError."""
    x = tg.tensor([-2.0, -1.0, -0.0, 0.0, 1.0, 2.5, 800.0, np.inf, -np.inf, np.nan],
                  requires_grad=True)
    with np.errstate(all="ignore"):
        adjs = _both_sweeps(f(x).sum())
    assert not np.isfinite(adjs[0]).all()  # the inputs do leave the domain
    np.testing.assert_allclose(adjs[1], adjs[0], rtol=1e-13, atol=1e-15)


WARM = """
import ast, builtins, json, sys, threading, tapegrad as tg
from tapegrad import _kernels, _sweep
parsed = []  # ast.parse calls made on tapegrad's threads (see _eager.start_thread)
def compile(source, *args, _compile=builtins.compile, **kw):
    flags = args[2] if len(args) > 2 else kw.get("flags", 0)
    if flags & ast.PyCF_ONLY_AST and threading.current_thread() is not threading.main_thread():
        parsed.append(threading.current_thread().name)
    return _compile(source, *args, **kw)
builtins.compile = compile
out = {"numba_at_import": "numba" in sys.modules}
x = tg.tensor([0.3, -1.2, 2.0], requires_grad=True)
(x.sin() * x.exp() + (x * x).tanh()).sum().backward()
k = _kernels._reverse_sweep
out.update(interpreted=isinstance(k, _kernels._Kernel), thread=k.loader is not None,
           g1=x.grad.tolist())
k.loader.join()  # Numba imported, the dispatchers made, the kernel loaded from the cache
x.grad = None
(x.sin() * x.exp() + (x * x).tanh()).sum().backward()
out.update(g2=x.grad.tolist(), numba="numba" in sys.modules, parsed=parsed,
           bound=_kernels._reverse_sweep is _sweep._reverse_sweep.dispatcher)
print(json.dumps(out))
"""


@pytest.mark.skipif(not _kernels.ON or not _jit.CACHE,
                    reason="the background machinery and Numba's disk cache are both on")
def test_warm_cache_first_gradient_runs_while_numba_loads(tmp_path):
    """``import tapegrad`` imports no Numba; with the kernel in the cache, the first small
    gradient runs interpreted while a thread imports Numba and loads the kernel, and the
    next one runs compiled (issue 23: import plus first gradient under 0.5 s).  The thread
    builds no Python AST: beside the caller's own ``ast.parse`` (pytest importing a test
    module) that fails one of them on CPython 3.11 (python/cpython#106905)."""
    # the cache is filled by a process of the child's own environment: tg.warmup() here
    # compiled nothing when this process already held the kernels, so a cache that another
    # process had emptied since (a different digest, e.g. an edited rule) stayed empty and
    # the child compiled: what failed in CI's whole-suite runs on a fresh cache
    env = fresh_env(**{k: v for k, v in os.environ.items() if k == "NUMBA_CACHE_DIR"})
    subprocess.run([sys.executable, "-c", "import tapegrad; tapegrad.warmup(replay=False)"],
                   env=env, cwd=tmp_path, check=True, capture_output=True, timeout=900)
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(WARM)], env=env,
                         cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "compiling" not in out.stderr, out.stderr  # nothing compiled: loaded
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert not r["numba_at_import"] and r["numba"]
    assert r["interpreted"] and r["thread"] and r["bound"]
    assert r["parsed"] == [], r["parsed"]
    x = np.array([0.3, -1.2, 2.0])
    np.testing.assert_allclose(r["g1"], expected(x), rtol=1e-13)
    np.testing.assert_allclose(r["g2"], r["g1"], rtol=1e-14)


def _twice(x):
    return 2.0 * x


def _twice_plus_one(x):
    return _TWICE(x) + 1.0


_TWICE = None  # a Jitted rule, set by the test (pytest's look at the module would make it)


@pytest.mark.skipif(_jit.DISABLED, reason="NUMBA_DISABLE_JIT=1: kernels are their functions")
def test_a_kernel_makes_its_dispatcher_once_and_compiles_the_rules_it_calls(monkeypatch):
    """tapegrad/_jit.py: threads that first use a kernel at once share one dispatcher, and
    a kernel calling a rule that is not made yet compiles it in (Numba types the rule as
    its dispatcher).  Uncached: nothing is written to disk."""
    rule = _jit.Jitted(_twice, dict(_jit._DEFAULTS))
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        made = list(pool.map(lambda _: rule.dispatcher, range(32)))
    assert all(d is made[0] for d in made)
    monkeypatch.setattr(sys.modules[__name__], "_TWICE", _jit.Jitted(_twice, dict(_jit._DEFAULTS)))
    kernel = _jit.Jitted(_twice_plus_one, dict(_jit._DEFAULTS))
    assert not _TWICE.ready and not kernel.ready
    assert kernel(1.5) == 4.0
    assert _TWICE.ready and kernel.ready and len(kernel.signatures) == 1


SHORT = """
import tapegrad as tg
x = tg.tensor(2.0, requires_grad=True)
(x * x).sin().backward()
print(x.grad.item())
"""


@pytest.mark.skipif(not _kernels.ON or not _jit.CACHE,
                    reason="the background machinery and Numba's disk cache are both on")
def test_a_script_ending_at_its_first_gradient_leaves_the_compile_behind(tmp_path):
    """On an empty cache, a script that ends right after its first gradient (interpreted,
    Numba still importing in a thread) still starts the background compile that fills the
    cache for the next run: exit waits for that thread."""
    cache = tmp_path / "cache"
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(SHORT)], cwd=tmp_path,
                         env=fresh_env(NUMBA_CACHE_DIR=str(cache)), capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert float(out.stdout) == pytest.approx(4.0 * np.cos(4.0), rel=1e-14)
    assert "compiling kernels in the background" in out.stderr
    locks = list(cache.rglob("tapegrad-sweep.compiling"))
    assert len(locks) == 1  # the compile's lock file, holding its pid
    os.kill(int(locks[0].read_text()), 9)  # (its cache is thrown away)
