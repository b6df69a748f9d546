"""The ``tapegrad`` command (tapegrad/cli.py): warmup and bench, run as subprocesses."""
import os
import pathlib
import re
import subprocess
import sys

import pytest

from tapegrad import cli
from tapegrad.warmup import GROUPS

ROOT = pathlib.Path(__file__).resolve().parents[1]
NO_JIT = os.environ.get("NUMBA_DISABLE_JIT", "0") == "1"


def tapegrad(*args, timeout=600):
    """``tapegrad ARGS`` (as ``python -m tapegrad.cli``, so no install is needed)."""
    out = subprocess.run([sys.executable, "-m", "tapegrad.cli", *args], cwd=ROOT,
                         capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def test_console_script_is_declared():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["tapegrad"] == "tapegrad.cli:main"


def test_import_tapegrad_loads_no_peer():
    """The CLI and its peers stay out of ``import tapegrad``; so do Numba (imported at the
    first compiled use: tapegrad/_jit.py) and SciPy (at the first op that needs it), the
    two costliest imports of a start (issue 23)."""
    code = ("import sys, tapegrad\n"
            "print(sorted(m for m in ('torch', 'jax', 'autograd', 'matplotlib', "
            "'tapegrad.bench', 'tapegrad.cli', 'numba', 'llvmlite', 'scipy') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.skipif(not NO_JIT, reason="the message of a run without the JIT")
def test_warmup_without_the_jit_says_there_is_nothing_to_compile():
    out = tapegrad("warmup")
    assert "NUMBA_DISABLE_JIT=1" in out and "nothing to compile" in out


@pytest.mark.skipif(NO_JIT, reason="NUMBA_DISABLE_JIT=1: nothing compiles")
def test_warmup_prints_each_kernel_and_the_times():
    out = tapegrad("warmup")
    for label in ("reverse sweep (float64)", "forward replay", "batch replay"):
        assert f"  {label} ..." in out  # said when it starts
        assert re.search(rf"  {re.escape(label)} +[0-9.]+ s", out)  # and timed when done
    assert "reverse sweep (float32)" not in out  # only with --float32
    assert re.search(r"total +[0-9.]+ s", out)


def test_warmup_flags_choose_the_groups():
    """``--forward`` adds forward mode's group and ``--float32`` the float32 sweep, each one
    process; every name is a group tapegrad/warmup.py builds."""
    assert cli.groups() == ["sweep", "replay"]
    assert cli.groups(forward=True) == ["sweep", "replay", "forward"]
    assert cli.groups(float32=True, forward=True) == ["sweep", "replay", "forward", "float32"]
    assert set(cli.groups(True, True)) == set(GROUPS)
    assert "--forward" in tapegrad("warmup", "--help")


@pytest.mark.skipif(NO_JIT, reason="NUMBA_DISABLE_JIT=1: replay of 10^4 points in Python")
def test_bench_quick_prints_the_table():
    """A quick run limited to tapegrad and its two hand-written limits (a few seconds)."""
    out = tapegrad("bench", "--quick", "--libraries", "tapegrad,numba,numpy,python-floats")
    assert "vs tapegrad" in out
    for row in ("eager forward, 10,000 ops", "eager backward, 10,000 ops",
                "replay Rosenbrock n=10, 10,000 points", "start-up: import + first gradient"):
        assert row in out
    for lib in ("tapegrad", "numba", "numpy", "python-floats"):
        assert f" {lib} " in out, lib
    assert "torch" not in out  # --libraries is honoured


@pytest.mark.slow
@pytest.mark.skipif(NO_JIT, reason="NUMBA_DISABLE_JIT=1: replay of 10^4 points in Python")
def test_bench_quick_with_every_installed_peer():
    """``tapegrad bench --quick`` against whatever is installed (~20-40 s with torch, jax)."""
    out = tapegrad("bench", "--quick")
    assert "replay Rosenbrock n=10, 10,000 points" in out
    for module, name in (("torch", "torch"), ("jax", "jax"), ("autograd", "hips-autograd")):
        try:
            __import__(module)
        except ImportError:
            continue
        assert name in out
