"""The compiled sweep: Numba's stale-cache trap is closed, warmup(), and parity with the
JIT disabled.  Each check runs tapegrad in a subprocess with a NUMBA_CACHE_DIR of this
module's own, so no cache of the developer's (or of another test module) can make it pass.
Cold compiles are the cost of this module, so the checks share them: one cold start (the
``cold`` fixture) serves warmup(), the no-JIT parity and the stale-cache test, and one
race of two cold processes in a read-only install serves both of those claims.
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


COLD = """
import json, math, numba, tapegrad
out = {"file": tapegrad.__file__}
t = tapegrad.warmup(float32=False, replay=False)  # (cold, these would add ~16 s, ~40 s)
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


@pytest.fixture(scope="module")
def cold(tmp_path_factory):
    """ONE cold start that the checks below share (each cold compile costs 15-70 s of CI):
    a copy of the package (test_edited_rule_recompiles edits its rules), an empty
    NUMBA_CACHE_DIR, and one process that runs warmup(), DEXP's gradient and PROGRAM.
    ``files``: the cache files as that process left them."""
    root = tmp_path_factory.mktemp("cold")
    pkg = copy_package(root)
    cache = root / "numba_cache"
    env = {"PYTHONPATH": str(root), "NUMBA_CACHE_DIR": str(cache)}
    out = run(COLD + PROGRAM + "out['program'] = program\nprint(json.dumps(out))\n", root, env)
    assert pathlib.Path(out["file"]).resolve().parent == pkg.resolve()
    return {"root": root, "pkg": pkg, "cache": cache, "env": env, "out": out,
            "files": cache_files(cache)}


def test_warmup_returns_seconds_and_backward_works(cold):
    out = cold["out"]
    assert out["type"] == "float" and out["t"] > 0.0
    assert out["again"] < out["t"]  # compiled (and cached) by the first call
    np.testing.assert_allclose(out["grad"], out["want"], rtol=1e-15)
    # and in this process
    t = tg.warmup()
    assert isinstance(t, float) and t >= 0.0
    x = tg.tensor(2.0, requires_grad=True)
    (x * x).exp().backward()
    assert x.grad.item() == pytest.approx(4.0 * np.exp(4.0), rel=1e-15)


def test_no_jit_gives_the_jitted_gradient(tmp_path, cold):
    """With NUMBA_DISABLE_JIT=1 the rules run as plain Python: the same numbers as the
    compiled sweep of the cold start (which ran an unedited copy of this package)."""
    jitted = cold["out"]["program"]
    plain = run(PROGRAM + "import json\nprint(json.dumps(program))\n", tmp_path,
                {"NUMBA_CACHE_DIR": str(tmp_path / "cache"), "NUMBA_DISABLE_JIT": "1"})
    assert jitted["jit_disabled"] is False and plain["jit_disabled"] is True
    assert np.isfinite(jitted["loss"])
    for k in ("loss", "x", "w", "s"):
        np.testing.assert_allclose(plain[k], jitted[k], rtol=1e-13, err_msg=k)
    assert np.any(np.asarray(jitted["x"]) != 0.0)


def test_edited_rule_recompiles(cold):
    """Numba keys a cache on the cached function's own file: an edited rule in ops/ would
    run stale from a warm cache.  tapegrad/_jit.py's ensure_fresh must prevent it.
    (It edits the cold start's package copy: the other users of ``cold`` only read its
    output, and run before it.)"""
    pkg, cache, env, tmp_path = cold["pkg"], cold["cache"], cold["env"], cold["root"]
    assert cold["out"]["dexp"] == 1.0
    files = cold["files"]
    assert any(n.startswith("_sweep._reverse_sweep") and n.endswith(".nbi") for n in files)
    assert any(n.startswith("_sweep._reverse_sweep") and n.endswith(".nbc") for n in files)

    # unchanged package: the second run loads from the cache and rewrites nothing
    second = run(DEXP, tmp_path, env)
    assert second["grad"] == 1.0
    assert cache_files(cache) == files

    # the rules' file changes and every rule in it moves down a line, but no compiled code
    # changes (as when a message or a Python-side check is edited): the warm cache is used
    path = pkg / "ops" / "elementwise.py"
    path.write_text('"""An edited docstring."""\n' + path.read_text())
    assert run(DEXP, tmp_path, env)["grad"] == 1.0
    assert cache_files(cache) == files

    # the rule changes, _sweep.py does not: the gradient must follow the new rule
    edit_rule(pkg, EXP_RULE, EXP_RULE_DOUBLED)
    third = run(DEXP, tmp_path, env)
    assert third["grad"] == 2.0
    rewritten = cache_files(cache)
    assert any(rewritten[n] != files[n] for n in files if n.startswith("_sweep._reverse_sweep"))

    # control: with ensure_fresh switched off, the same kind of edit does run stale, so the
    # check above is not vacuous (the trap is real in this Numba)
    jit = pkg / "_jit.py"
    src = jit.read_text()
    head = "def ensure_fresh(*dispatchers):\n"
    assert head in src
    jit.write_text(src.replace(head, head + "    return\n", 1))
    edit_rule(pkg, EXP_RULE_DOUBLED, EXP_RULE)
    stale = run(DEXP, tmp_path, env)
    assert stale["grad"] == 2.0  # the old, doubled rule from the cache


# -- the cache in hostile places (issue 8).  NUMBA_CACHE_DIR honoured: the cache files of
# test_edited_rule_recompiles appear there; NUMBA_DISABLE_JIT=1: .ci/run runs the fast tests
# so, and test_no_jit_gives_the_jitted_gradient compares both.

def read_only(tmp_path):
    """A wrapper that makes permission bits bind this process even as root (which otherwise
    writes anywhere): the capabilities that override them are dropped."""
    if os.geteuid() != 0:
        return ()
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: cannot make a directory read-only")
    return (setpriv, "--bounding-set", "-dac_override,-dac_read_search")


RACE = """
import json, numpy as np, tapegrad as tg
x = tg.tensor([0.3, -1.2, 2.0], requires_grad=True)
(x.sin() * x.exp() + (x * x).tanh()).sum().backward()
print(json.dumps({"file": tg.__file__, "x": x.grad.tolist()}))
"""


def test_read_only_install_two_processes_warming_its_empty_cache_at_once(tmp_path):
    """tapegrad installed where nothing may be written (site-packages of a system Python):
    no NUMBA_CACHE_DIR, Numba caches in the user's cache dir instead.  Two processes start
    on that empty cache at once (as dask workers starting together do): both compile the
    sweep and write the same cache files at the same time, both get the right gradient, and
    a third process loads what they left.  (One test for both claims: each cold start costs
    15-30 s of CI.  The eager sweep only: each replay kernel would add ~30 s of compiling,
    and Numba caches every kernel the same way.)"""
    site = tmp_path / "site"
    pkg = copy_package(site)  # also a snapshot: edits in the working tree cannot recompile it
    subprocess.run(["chmod", "-R", "a-w", str(site)], check=True)
    home = tmp_path / "home"
    home.mkdir()
    env = {"PYTHONPATH": str(site), "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}
    try:
        prefix = read_only(tmp_path)
        argv, full_env = command(RACE, tmp_path, env, prefix)
        procs = [subprocess.Popen(argv, cwd=tmp_path, env=full_env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(2)]
        outs = [p.communicate(timeout=600) for p in procs]
        for p, (_, err) in zip(procs, outs, strict=True):
            assert p.returncode == 0, err
        results = [json.loads(out.strip().splitlines()[-1]) for out, _ in outs]
        assert not list(site.rglob("__pycache__/*.nb*")), "wrote into the read-only package"
        cached = cache_files(home)
        assert any(n.startswith("_sweep._reverse_sweep") and n.endswith(".nbc") for n in cached)
        third = run(RACE, tmp_path, env, prefix)
        assert cache_files(home) == cached  # a warm cache: nothing compiled or rewritten
    finally:
        subprocess.run(["chmod", "-R", "u+w", str(site)], check=True)
    x = np.array([0.3, -1.2, 2.0])
    want = (np.cos(x) + np.sin(x)) * np.exp(x) + 2 * x / np.cosh(x * x) ** 2
    for r in (*results, third):
        assert pathlib.Path(r["file"]).resolve().parent == pkg.resolve()
        np.testing.assert_allclose(r["x"], want, rtol=1e-14)
        assert r == results[0]
