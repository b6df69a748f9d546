"""The compiled sweep: Numba's stale-cache trap is closed, warmup(), and parity with the
JIT disabled.  Each check runs tapegrad in a subprocess with its own NUMBA_CACHE_DIR, so
no cache of the developer's (or of another test) can make it pass.
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


def run(code, cwd, env_extra):
    """Run ``code`` in a fresh interpreter; returns its JSON output."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "TAPEGRAD_"))}
    env.update(env_extra)
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, env=env,
                         capture_output=True, text=True, timeout=600)
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


def test_edited_rule_recompiles(tmp_path):
    """Numba keys a cache on the cached function's own file: an edited rule in ops/ would
    run stale from a warm cache.  tapegrad/_jit.py's ensure_fresh must prevent it."""
    pkg = copy_package(tmp_path)
    cache = tmp_path / "numba_cache"
    env = {"PYTHONPATH": str(tmp_path), "NUMBA_CACHE_DIR": str(cache)}

    first = run(DEXP, tmp_path, env)
    assert pathlib.Path(first["file"]).resolve().parent == pkg.resolve()
    assert first["grad"] == 1.0
    files = cache_files(cache)
    assert any(n.startswith("_sweep._reverse_sweep") and n.endswith(".nbi") for n in files)
    assert any(n.startswith("_sweep._reverse_sweep") and n.endswith(".nbc") for n in files)

    # unchanged package: the second run loads from the cache and rewrites nothing
    second = run(DEXP, tmp_path, env)
    assert second["grad"] == 1.0
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


def test_warmup_returns_seconds_and_backward_works(tmp_path):
    code = """
    import json, math, tapegrad
    t = tapegrad.warmup()
    x = tapegrad.tensor([0.5, 1.5], requires_grad=True)
    (x.sin() * x).sum().backward()
    print(json.dumps({"t": t, "type": type(t).__name__, "grad": x.grad.tolist(),
                      "want": [math.sin(v) + v * math.cos(v) for v in (0.5, 1.5)],
                      "again": tapegrad.warmup()}))
    """
    out = run(code, tmp_path, {"NUMBA_CACHE_DIR": str(tmp_path / "cache")})
    assert out["type"] == "float" and out["t"] > 0.0
    assert out["again"] < out["t"]  # compiled (and cached) by the first call
    np.testing.assert_allclose(out["grad"], out["want"], rtol=1e-15)
    # and in this process
    t = tg.warmup()
    assert isinstance(t, float) and t >= 0.0
    x = tg.tensor(2.0, requires_grad=True)
    (x * x).exp().backward()
    assert x.grad.item() == pytest.approx(4.0 * np.exp(4.0), rel=1e-15)


PROGRAM = """
import json, numpy as np, tapegrad as tg, tapegrad.nn.functional as F
import numba
x = tg.tensor([[0.3, -1.2, 2.0], [0.7, 0.1, -0.4]], requires_grad=True)
w = tg.tensor([1.5, -0.5, 0.25], requires_grad=True)
s = tg.tensor(0.8, requires_grad=True)
h = (x * w + s).tanh() + (x.abs() + 1.0).log() * s ** 2 - (w / (1.0 + x ** 2)).sigmoid()
z = F.log_softmax(h, dim=1)[:, 1:].sum(0) + h.T.reshape(-1)[::2].mean() * (2.0 ** s)
loss = (z.exp() + z.relu() + ((h.mean(0) - w).abs() + 0.1).sqrt().sum()).sum() / x[1, 2].cos()
loss.backward()
print(json.dumps({"loss": loss.item(), "x": x.grad.tolist(), "w": w.grad.tolist(),
                  "s": s.grad.item(), "jit_disabled": bool(numba.config.DISABLE_JIT)}))
"""


def test_no_jit_gives_the_jitted_gradient(tmp_path):
    """With NUMBA_DISABLE_JIT=1 the rules run as plain Python: the same numbers."""
    cache = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    jitted = run(PROGRAM, tmp_path, cache)
    plain = run(PROGRAM, tmp_path, {**cache, "NUMBA_DISABLE_JIT": "1"})
    assert jitted["jit_disabled"] is False and plain["jit_disabled"] is True
    assert np.isfinite(jitted["loss"])
    for k in ("loss", "x", "w", "s"):
        np.testing.assert_allclose(plain[k], jitted[k], rtol=1e-13, err_msg=k)
    assert np.any(np.asarray(jitted["x"]) != 0.0)
