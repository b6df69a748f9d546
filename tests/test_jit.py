"""The compiled sweep on a cold cache: the first gradient interpreted while the kernels
compile in the background, warmup(), two processes filling one cache at once in a read-only
install, parity with the JIT disabled, and Numba's stale-cache trap closed.  Each check runs
tapegrad in subprocesses on a cache of this module's own, so no cache of the developer's (or
of another test module) can make it pass.  Cold compiles are the cost of this module (60-150
s of CI each), so the sweep compiles once, and every check shares that cold start (the
``cold`` fixture): a script's default start on the empty cache of a read-only copy of the
package, then two processes at once that load the sweep and race to compile a kernel of one
rule into the same files; after an edited rule only that kernel compiles again (the sweep's
cache is checked emptied, not recompiled).
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from conftest import fresh_env

import tapegrad as tg

pytestmark = pytest.mark.slow

PKG = pathlib.Path(tg.__file__).resolve().parent
EXP_RULE = "adj[a + i] += adj[o + i] * vals[o + i]"
EXP_RULE_DOUBLED = "adj[a + i] += 2.0 * adj[o + i] * vals[o + i]"

DEXP = """
import json, tapegrad
x = tapegrad.tensor(0.0, requires_grad=True)
tapegrad.exp(x).backward()
print(json.dumps({"file": tapegrad.__file__, "grad": x.grad.item()}))
"""


def command(code, cwd, env_extra, prefix=()):
    """argv and env to run ``code`` in a fresh interpreter (``prefix``: a wrapper command)."""
    # these runs test the in-process cache: compile here
    env = fresh_env(TAPEGRAD_BACKGROUND="0", **env_extra)
    return [*prefix, sys.executable, "-c", textwrap.dedent(code)], env


def run(code, cwd, env_extra, prefix=()):
    """Run ``code`` in a fresh interpreter; returns its JSON output."""
    argv, env = command(code, cwd, env_extra, prefix)
    out = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def copy_package(dest):
    shutil.copytree(PKG, dest / "tapegrad", ignore=shutil.ignore_patterns("__pycache__"))
    return dest / "tapegrad"


def edit_rule(pkg, old, new, fn="def exp_rev"):
    """Replace ``old`` by ``new`` inside function ``fn`` of ops/elementwise.py."""
    path = pkg / "ops" / "elementwise.py"
    src = path.read_text()
    start = src.index(fn)
    at = src.index(old, start)
    assert at < src.index("\ndef ", start + 1), f"{old!r} is not in {fn}"
    path.write_text(src[:at] + new + src[at + len(old):])


def cache_files(cache):
    """{name: mtime_ns} of Numba's index (.nbi) and data (.nbc) files under ``cache``."""
    return {p.name: p.stat().st_mtime_ns for p in cache.rglob("*")
            if p.suffix in (".nbi", ".nbc")}


# A kernel of one rule, written into the cold start's package copy: two processes race to
# compile it, and the edited-rule check edits the rule it calls.  Numba keys its cache on
# this file, which no edit there touches, so only ensure_fresh's stamp can make it follow an
# edited rule, as for the sweep that inlines every rule (whose recompile would cost that
# check a cold compile of the whole sweep: ~60-150 s of CI)
PROBE_MODULE = """
from ._jit import njit
from .ops import elementwise as E


@njit
def exp_adjoint(adj, vals):
    E.exp_rev(adj, vals, 1, 0, 1)
"""

# the probe's gradient of exp at 0; ``sweep``: "call" runs DEXP's compiled sweep too,
# "make" only makes its dispatcher (its cache checked for freshness, nothing compiled) and
# names its index file
PROBE = """
import json, numpy as np, tapegrad
from tapegrad import _probe, _sweep
adj, vals = np.array([0.0, 1.0]), np.array([0.0, 1.0])
_probe.exp_adjoint(adj, vals)
out = {{"probe": adj[0]}}
if "{sweep}" == "call":
    x = tapegrad.tensor(0.0, requires_grad=True)
    tapegrad.exp(x).backward()
    out["dexp"] = x.grad.item()
elif "{sweep}" == "make":
    out["sweep_index"] = _sweep._reverse_sweep._cache._cache_file._index_name
print(json.dumps(out))
"""


# ---- the cold start: a read-only install's empty cache, filled by a script's first run

SYNC = """
import json, math, numba, tapegrad
out = {"file": tapegrad.__file__}
t = tapegrad.warmup(float32=False, replay=False)  # (float32, replay: ~16 s, ~40 s cold)
out.update(t=t, type=type(t).__name__, again=tapegrad.warmup(float32=False, replay=False))
x = tapegrad.tensor([0.5, 1.5], requires_grad=True)
(x.sin() * x).sum().backward()
out.update(grad=x.grad.tolist(), want=[math.sin(v) + v * math.cos(v) for v in (0.5, 1.5)])
d = tapegrad.tensor(0.0, requires_grad=True)
tapegrad.exp(d).backward()
out["dexp"] = d.grad.item()
"""

PROGRAM = """
import numba, tapegrad as tg, tapegrad.nn.functional as F
x = tg.tensor([[0.3, -1.2, 2.0], [0.7, 0.1, -0.4]], requires_grad=True)
w = tg.tensor([1.5, -0.5, 0.25], requires_grad=True)
s = tg.tensor(0.8, requires_grad=True)
h = (x * w + s).tanh() + (x.abs() + 1.0).log() * s ** 2 - (w / (1.0 + x ** 2)).sigmoid()
z = F.log_softmax(h, dim=1)[:, 1:].sum(0) + h.T.reshape(-1)[::2].mean() * (2.0 ** s)
loss = (z.exp() + z.relu() + ((h.mean(0) - w).abs() + 0.1).sqrt().sum()).sum() / x[1, 2].cos()
loss.backward()
program = {"loss": loss.item(), "x": x.grad.tolist(), "w": w.grad.tolist(),
           "s": s.grad.item(), "jit_disabled": bool(numba.config.DISABLE_JIT)}
"""

# the default: the first gradient runs the rules interpreted while background processes
# compile (tapegrad/_kernels.py, issue 23)
BACKGROUND = """
import json, time, numpy as np, tapegrad as tg
from tapegrad import _kernels, _sweep
x = tg.tensor([0.3, -1.2, 2.0], requires_grad=True)
t0 = time.perf_counter()
(x.sin() * x.exp() + (x * x).tanh()).sum().backward()
first = time.perf_counter() - t0
interpreted = isinstance(_kernels._reverse_sweep, _kernels._Kernel)
g1 = x.grad.tolist()
_kernels._reverse_sweep.loader.join()  # (Numba imported, the background compile started)
_kernels._Background.procs["sweep"].wait(timeout=900)
for _ in range(2):  # the next one starts loading the compiled kernel in a thread
    x.grad = None
    (x.sin() * x.exp() + (x * x).tanh()).sum().backward()
    k = _kernels._reverse_sweep
    if getattr(k, "loader", None) is not None:
        k.loader.join()
y = tg.tensor([0.3, -1.2, 2.0], dtype=tg.float32, requires_grad=True)
(y.sin() * y.exp() + (y * y).tanh()).sum().backward()
groups = sorted(_kernels._Background.procs)
_kernels._Background.procs["float32"].kill()  # (not waited for: ~40 s)
print(json.dumps({"file": tg.__file__, "first_s": first, "interpreted": interpreted,
                  "g1": g1, "g2": x.grad.tolist(), "g32": y.grad.tolist(), "groups": groups,
                  "dtype32": str(y.grad.dtype),
                  "bound": _kernels._reverse_sweep is _sweep._reverse_sweep.dispatcher,
                  "bound32": _kernels._reverse_sweep32 is _sweep._reverse_sweep.dispatcher}))
"""

RACE_GRAD = """
import json, numpy as np, tapegrad as tg
x = tg.tensor([0.3, -1.2, 2.0], requires_grad=True)
(x.sin() * x.exp() + (x * x).tanh()).sum().backward()
out = {"file": tg.__file__, "x": x.grad.tolist()}
"""
RACE = RACE_GRAD + "print(json.dumps(out))\n"

# the racers' first use of the one-rule kernel (both compile it into the same cache files)
USE_PROBE = """
import numpy as np
from tapegrad import _probe
adj, vals = np.array([0.0, 1.0]), np.array([0.0, 1.0])
_probe.exp_adjoint(adj, vals)
"""


def read_only():
    """A wrapper that makes permission bits bind this process even as root (which otherwise
    writes anywhere): the capabilities that override them are dropped."""
    if os.geteuid() != 0:
        return ()
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: cannot make a directory read-only")
    return (setpriv, "--bounding-set", "-dac_override,-dac_read_search")


def expected(x):
    """The gradient of BACKGROUND's and RACE's ``sin(x) exp(x) + tanh(x x)``."""
    return (np.cos(x) + np.sin(x)) * np.exp(x) + 2 * x / np.cosh(x * x) ** 2


@pytest.fixture(scope="module")
def cold(tmp_path_factory):
    """ONE cold start that every check below shares.  tapegrad installed where nothing may
    be written (site-packages of a system Python): no NUMBA_CACHE_DIR, Numba caches in the
    user's cache dir instead.  ``background`` starts on that empty cache as a script does by
    default (the sweep compiles in a background process).  Then two processes start at once
    (as dask workers starting together do), load the sweep it cached and both compile the
    one-rule kernel (``PROBE_MODULE``), writing the same cache files at the same time:
    ``sync`` in-process (warmup(), DEXP, PROGRAM) and ``race``.  (The eager sweep compiles
    once: each compile of it is 60-150 s of CI, each replay kernel ~30 s more, and Numba
    caches every kernel the same way.)"""
    root = tmp_path_factory.mktemp("cold")
    site = root / "site"
    pkg = copy_package(site)  # also a snapshot: edits in the working tree cannot recompile it
    (pkg / "_probe.py").write_text(PROBE_MODULE)
    home = root / "home"
    home.mkdir()
    env = {"PYTHONPATH": str(site), "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}
    subprocess.run(["chmod", "-R", "a-w", str(site)], check=True)
    try:
        prefix = read_only()
        code = {"sync": SYNC + PROGRAM + USE_PROBE
                + "out.update(program=program, probe=adj[0])\nprint(json.dumps(out))\n",
                "race": RACE_GRAD + USE_PROBE + "out['probe'] = adj[0]\nprint(json.dumps(out))\n"}
        argv = {"background": ([*prefix, sys.executable, "-c", textwrap.dedent(BACKGROUND)],
                               fresh_env(**env)),
                **{k: command(c, root, env, prefix) for k, c in code.items()}}
        outs = {}
        for group in (["background"], ["sync", "race"]):
            procs = {k: subprocess.Popen(argv[k][0], cwd=root, env=argv[k][1],
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         text=True) for k in group}
            outs.update({k: p.communicate(timeout=1200) for k, p in procs.items()})
            for k, p in procs.items():
                assert p.returncode == 0, f"{k}: {outs[k][1]}"
        res = {k: json.loads(o.strip().splitlines()[-1]) for k, (o, _) in outs.items()}
        for r in res.values():
            assert pathlib.Path(r["file"]).resolve().parent == pkg.resolve()
        yield {"root": root, "site": site, "pkg": pkg, "home": home, "env": env,
               "prefix": prefix, "stderr": {k: e for k, (_, e) in outs.items()}, **res}
    finally:
        subprocess.run(["chmod", "-R", "u+w", str(site)], check=True)


def test_warmup_returns_seconds_and_backward_works(cold):
    out = cold["sync"]
    assert out["type"] == "float" and out["t"] > 0.0
    assert out["again"] < out["t"]  # compiled (and cached) by the first call
    np.testing.assert_allclose(out["grad"], out["want"], rtol=1e-15)
    # and in this process
    t = tg.warmup()
    assert isinstance(t, float) and t >= 0.0
    x = tg.tensor(2.0, requires_grad=True)
    (x * x).exp().backward()
    assert x.grad.item() == pytest.approx(4.0 * np.exp(4.0), rel=1e-15)


def test_cold_cache_first_gradient_is_interpreted_then_compiled(cold):
    r = cold["background"]
    assert cold["stderr"]["background"].count("compiling kernels in the background") == 1
    assert r["interpreted"] and r["bound"]  # interpreted first, compiled after the compile
    # a float32 graph after the float64 sweep is bound: interpreted, its group started
    assert not r["bound32"] and r["groups"] == ["float32", "sweep"]
    assert r["dtype32"].endswith("float32")
    x = np.array([0.3, -1.2, 2.0])
    np.testing.assert_allclose(r["g1"], expected(x), rtol=1e-13)
    np.testing.assert_allclose(r["g2"], r["g1"], rtol=1e-14)
    np.testing.assert_allclose(r["g32"], expected(x), rtol=1e-6)


def test_no_jit_gives_the_jitted_gradient(tmp_path, cold):
    """With NUMBA_DISABLE_JIT=1 the rules run as plain Python: the same numbers as the
    compiled sweep of the cold start (which ran an unedited copy of this package)."""
    jitted = cold["sync"]["program"]
    plain = run(PROGRAM + "import json\nprint(json.dumps(program))\n", tmp_path,
                {"NUMBA_CACHE_DIR": str(tmp_path / "cache"), "NUMBA_DISABLE_JIT": "1"})
    assert jitted["jit_disabled"] is False and plain["jit_disabled"] is True
    assert np.isfinite(jitted["loss"])
    for k in ("loss", "x", "w", "s"):
        np.testing.assert_allclose(plain[k], jitted[k], rtol=1e-13, err_msg=k)
    assert np.any(np.asarray(jitted["x"]) != 0.0)


def test_read_only_install_two_processes_warming_its_empty_cache_at_once(cold):
    """Both racing processes got the right gradients and kernel results, wrote nothing into
    the read-only package, and left the compiled sweep and the kernel they raced to compile
    in the user's cache, which a third process loads: nothing compiled or rewritten."""
    site, home = cold["site"], cold["home"]
    assert not list(site.rglob("__pycache__/*.nb*")), "wrote into the read-only package"
    assert cold["sync"]["probe"] == cold["race"]["probe"] == 1.0
    np.testing.assert_allclose(cold["race"]["x"], expected(np.array([0.3, -1.2, 2.0])),
                               rtol=1e-14)
    cached = cache_files(home)
    for kernel in ("_sweep._reverse_sweep", "_probe.exp_adjoint"):
        assert any(n.startswith(kernel) and n.endswith(".nbc") for n in cached), kernel
    third = run(RACE, cold["root"], cold["env"], cold["prefix"])
    assert cache_files(home) == cached  # a warm cache: nothing compiled or rewritten
    np.testing.assert_allclose(third["x"], expected(np.array([0.3, -1.2, 2.0])), rtol=1e-14)
    assert third["x"] == cold["background"]["g2"]  # what the compiled sweep gave there


def test_edited_rule_recompiles(cold):
    """Numba keys a cache on the cached function's own file: an edited rule in ops/ would
    run stale from a warm cache.  tapegrad/_jit.py's ensure_fresh must prevent it: an edited
    rule empties the cache index of the sweep and of a one-rule kernel (``PROBE_MODULE``),
    and the kernel compiles again with the new rule.  (It edits the cold start's package
    copy: the other users of ``cold`` run before it.)"""
    pkg, home, root = cold["pkg"], cold["home"], cold["root"]
    env, prefix = cold["env"], cold["prefix"]
    assert cold["sync"]["dexp"] == 1.0
    files = cache_files(home)  # (the probe compiled by the racers)
    for kernel in ("_sweep._reverse_sweep", "_probe.exp_adjoint"):
        assert any(n.startswith(kernel) and n.endswith(".nbi") for n in files), kernel
    # the files edited below become writable; their directories stay read-only, so Numba
    # keeps caching in the user's cache dir
    for path in (pkg / "ops" / "elementwise.py", pkg / "_jit.py"):
        path.chmod(path.stat().st_mode | 0o200)

    def probe(sweep=""):
        return run(PROBE.format(sweep=sweep), root, env, prefix)

    # unchanged package: the next run loads from the cache and rewrites nothing
    assert probe("call") == {"probe": 1.0, "dexp": 1.0}
    assert cache_files(home) == files

    # the rules' file changes and every rule in it moves down a line, but no compiled code
    # changes (as when a message or a Python-side check is edited): the warm cache is used
    path = pkg / "ops" / "elementwise.py"
    path.write_text('"""An edited docstring."""\n' + path.read_text())
    assert probe("call") == {"probe": 1.0, "dexp": 1.0}
    assert cache_files(home) == files

    # the rule changes, _probe.py and _sweep.py do not: the gradient must follow the new
    # rule, and the sweep's index is emptied when its dispatcher is made (the sweep then
    # compiles afresh at its first call, as the probe did)
    edit_rule(pkg, EXP_RULE, EXP_RULE_DOUBLED)
    made = probe("make")
    index = made.pop("sweep_index")
    assert made == {"probe": 2.0}
    rewritten = cache_files(home)
    assert any(rewritten[n] != files[n] for n in files if n.startswith("_probe.exp_adjoint"))
    assert index in files and rewritten[index] != files[index]  # the sweep's, emptied

    # control: with ensure_fresh switched off, the same kind of edit does run stale, so the
    # check above is not vacuous (the trap is real in this Numba)
    jit = pkg / "_jit.py"
    src = jit.read_text()
    head = "def ensure_fresh(*dispatchers):\n"
    assert head in src
    jit.write_text(src.replace(head, head + "    return\n", 1))
    edit_rule(pkg, EXP_RULE_DOUBLED, EXP_RULE)
    assert probe() == {"probe": 2.0}  # the old, doubled rule from the cache
