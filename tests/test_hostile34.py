"""Saved files, round 34: a path naming a device.

``tapegrad.load("/dev/zero")`` (and ``jit.load``, and a file object opened on it) never
returned: a device seeks, says its size is 0, and reads on without end, and both tapegrad's
look at the archive's tail (``validate._directories``) and zipfile's (``_EndRecData``) read
"to the end".  PyTorch's load refuses such a file at once; so does tapegrad's now, with a
ValueError.  Run in a subprocess with a timeout: before the fix, the test hung.
"""
import os
import subprocess
import sys

import pytest
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEVICES = [d for d in ("/dev/zero", "/dev/urandom", "/dev/null") if os.path.exists(d)]

_PROBE = """
import sys
import tapegrad as tg
path = sys.argv[1]
for name, load in [("load", tg.load), ("jit.load", tg.jit.load),
                   ("file object", lambda p: tg.load(open(p, "rb"))),
                   ("trace loader", tg.replay.load)]:
    try:
        load(path)
    except ValueError as e:
        assert "not a regular file" in str(e), (name, e)
        print(name, "refused")
    else:
        raise SystemExit(name + " loaded " + path)
"""


@pytest.mark.skipif(not DEVICES, reason="no /dev devices here")
@pytest.mark.parametrize("device", DEVICES)
def test_load_refuses_a_device_at_once(device):
    with pytest.raises(Exception):  # (PyTorch refuses it too, at once)
        torch.load(device)
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-c", _PROBE, device], capture_output=True, text=True,
                       timeout=120, env=env, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split("\n")[:4] == [f"{n} refused" for n in
                                       ("load", "jit.load", "file object", "trace loader")]
