"""The documentation is true: every ```python block of README.md and docs/*.md runs (the
blocks of one file in order, in one namespace, so later blocks use earlier names), every
other fence says it is not meant to run (```bash, ```text), the site builds with
``mkdocs build --strict`` (a broken reference or a missing page fails it), the README's
links point at files, and ``tapegrad --version`` prints the version."""
import gc
import os
import pathlib
import re
import subprocess
import sys

import pytest

import tapegrad as tg
from tapegrad.tape import current_tape

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
NO_JIT = os.environ.get("NUMBA_DISABLE_JIT", "0") == "1"
FENCE = re.compile(r"^```(\S*)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
SHOWN = {"bash", "text"}  # fences that are shown, not run
BATCHES = re.compile(r"_batch\(|\.hessian\(")  # batch replay, Hessians by replay


def blocks(path):
    """``(language, line of the first code line, code)`` of each fenced block of a page."""
    text = path.read_text()
    return [(m.group(1), text.count("\n", 0, m.start(2)) + 1, m.group(2))
            for m in FENCE.finditer(text)]


def page_id(path):
    return str(path.relative_to(ROOT))


RUNNABLE = [pytest.param(p, id=page_id(p)) for p in PAGES
            if any(lang == "python" for lang, _, _ in blocks(p))]


def test_the_pages_are_found():
    names = {page_id(p) for p in PAGES}
    assert {"README.md", "docs/index.md", "docs/replay.md"} <= names
    assert len(RUNNABLE) >= 6


def test_every_fence_is_python_or_says_it_does_not_run():
    odd = [f"{page_id(p)}:{line - 1}: ```{lang}" for p in PAGES
           for lang, line, _ in blocks(p) if lang != "python" and lang not in SHOWN]
    assert not odd, f"use ```python (run by this test) or one of {sorted(SHOWN)}: {odd}"


@pytest.mark.filterwarnings("ignore:Anomaly Detection has been enabled",
                            "ignore:Error detected in")  # what docs/debugging.md shows
@pytest.mark.parametrize("path", RUNNABLE)
def test_code_blocks_run(path, tmp_path, monkeypatch):
    """Each block compiles under the page's own name and line numbers, so a traceback
    points at the page; the blocks run in a temporary directory (nothing lands in docs/)."""
    code = "".join(code for lang, _, code in blocks(path) if lang == "python")
    if NO_JIT and BATCHES.search(code):
        pytest.skip("NUMBA_DISABLE_JIT=1: this page replays batches of thousands of points, "
                    "10-20 s in pure Python")
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": f"docs_{path.stem.replace('-', '_')}"}
    try:
        for lang, line, code in blocks(path):
            if lang == "python":
                exec(compile("\n" * (line - 1) + code, str(path), "exec"), namespace)
    finally:
        # the page's functions hold the namespace as their globals, a cycle that would keep
        # its tensors (and so the thread's tape) alive into the tests that run after it
        namespace.clear()
        gc.collect()
    tape = current_tape()
    tg.tensor(1.0, requires_grad=True) * 2.0  # (an op: a tape whose graphs died resets)
    assert tape.nrows <= 1, f"{page_id(path)} left {tape.nrows} rows alive on the tape"


def test_readme_links_point_at_files():
    text = (ROOT / "README.md").read_text()
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    missing = [link for link in links
               if "://" not in link and not (ROOT / link).exists()]
    assert links and not missing


@pytest.mark.slow  # (a minute: griffe imports and reads the whole package)
def test_mkdocs_build_strict(tmp_path):
    pytest.importorskip("mkdocs", reason="the docs extra is not installed: "
                        'pip install -e ".[docs]"')
    pytest.importorskip("mkdocstrings_handlers.python", reason="the docs extra is not "
                        'installed: pip install -e ".[docs]"')
    site = tmp_path / "site"
    out = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                          "--site-dir", str(site)],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-4000:]
    # the reference pages hold the objects, not just their headings: a module that failed
    # to load, or a filter that hid everything, would build an empty page without a warning
    expected = {
        "api/tapegrad": ["tapegrad.exp", "tapegrad.zeros", "tapegrad.creation.tensor"],
        "api/tensor": ["tapegrad.Tensor.backward", "tapegrad.Tensor.exp"],
        "api/autograd": ["tapegrad.autograd.grad", "tapegrad.autograd.functional.hessian"],
        "api/nn": ["tapegrad.nn.functional.cross_entropy", "tapegrad.nn.Linear"],
        "api/optim": ["tapegrad.optim.Adam"],
        "api/replay": ["tapegrad.replay.compile", "tapegrad.replay.Traced.grad_batch"],
    }
    for page, ids in expected.items():
        html = (site / page / "index.html").read_text()
        assert [i for i in ids if f'id="{i}"' not in html] == [], page


def tapegrad_cli(*args):
    out = subprocess.run([sys.executable, "-m", "tapegrad.cli", *args], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def test_version():
    assert tapegrad_cli("--version") == f"tapegrad {tg.__version__}\n"


def test_version_is_the_packages():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert tg.__version__ == project["version"]
