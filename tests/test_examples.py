"""The examples run, and quickstart.py prints what PyTorch prints for the same code."""
import importlib.util
import pathlib
import subprocess
import sys

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"


def _run(path, *args):
    out = subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True,
                         timeout=300, check=True)
    return out.stdout


def test_quickstart_prints_the_tutorial_numbers():
    lines = _run(EXAMPLES / "quickstart.py", "--no-timing").splitlines()
    text = "\n".join(lines)
    assert "a.grad, b.grad:       3.0 None" in text
    assert "grads of a, b, d:                 12.0 8.0 6.0" in text
    assert "[16.0] [8.0]" in text
    assert "6.0 = 2.0 * 3.0" in text
    assert "1.221403" in text


@pytest.mark.oracle
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="PyTorch not installed")
def test_quickstart_matches_pytorch(tmp_path):
    """The only change from the PyTorch original is the two import lines."""
    src = (EXAMPLES / "quickstart.py").read_text()
    torch_src = src.replace("import tapegrad as torch\n", "import torch\n").replace(
        "import tapegrad.nn.functional as F\n", "import torch.nn.functional as F\n")
    changed = [a for a, b in zip(src.splitlines(), torch_src.splitlines()) if a != b]
    assert changed == ["import tapegrad as torch", "import tapegrad.nn.functional as F"]
    original = tmp_path / "quickstart_torch.py"
    original.write_text(torch_src)
    assert _run(original, "--no-timing") == _run(EXAMPLES / "quickstart.py", "--no-timing")
