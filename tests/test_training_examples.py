"""examples/moons_mlp.py and examples/linear_regression.py train to their targets, and run
unchanged on PyTorch with only the imports swapped."""
import importlib.util
import os
import pathlib
import re
import subprocess
import sys

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"
IMPORTS = {
    "import tapegrad as torch\n": "import torch\n",
    "import tapegrad.nn as nn\n": "import torch.nn as nn\n",
    "import tapegrad.nn.functional as F\n": "import torch.nn.functional as F\n",
}


def _run(path):
    out = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_moons_mlp_classifies_the_moons():
    text = _run(EXAMPLES / "moons_mlp.py")
    assert len(re.findall(r"^step +\d+ +loss", text, re.M)) >= 5
    assert float(re.search(r"final accuracy ([\d.]+)%", text).group(1)) > 95.0


def test_linear_regression_reaches_least_squares():
    text = _run(EXAMPLES / "linear_regression.py")
    assert len(re.findall(r"^epoch +\d+ +loss", text, re.M)) >= 5
    fit = re.search(r"fitted w = ([-\d.]+), b = ([-\d.]+)", text)
    assert abs(float(fit.group(1)) - 2.5) < 0.05 and abs(float(fit.group(2)) + 1.0) < 0.05


@pytest.mark.oracle
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="PyTorch not installed")
@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT", "0") == "1",
                    reason="NUMBA_DISABLE_JIT=1: the swapped script runs no tapegrad code")
@pytest.mark.parametrize("name", ["moons_mlp.py", "linear_regression.py"])
def test_example_runs_on_pytorch_with_the_imports_swapped(name, tmp_path):
    src = (EXAMPLES / name).read_text()
    torch_src = src
    for mine, theirs in IMPORTS.items():
        torch_src = torch_src.replace(mine, theirs)
    changed = [a for a, b in zip(src.splitlines(), torch_src.splitlines(), strict=True)
               if a != b]
    assert changed and all(line.startswith("import tapegrad") for line in changed)
    path = tmp_path / name
    path.write_text(torch_src)
    _run(path)  # exits non-zero if PyTorch does not reach the target either
