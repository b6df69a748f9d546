"""tapegrad/_malloc.py: with glibc's thresholds raised at import, a loop making and
dropping MB-sized arrays reuses its pages instead of faulting new ones in on each pass
(counted as minor page faults: a behaviour, not a timing)."""
import ctypes
import os
import subprocess
import sys

import pytest

_LOOP = """
import resource, numpy as np, tapegrad as tg
x = tg.ones(500, 500)
for _ in range(3):
    (x * 2 + 1).sum()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(40):
    (x * 2 + 1).sum()  # two 2 MB temporaries a pass
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before,
      tg._malloc.TUNED)
"""


def _faults(**env):
    e = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    e.update(env)
    out = subprocess.run([sys.executable, "-c", _LOOP], env=e, capture_output=True,
                         text=True, check=True).stdout.split()
    return int(out[0]), out[1] == "True"


def _glibc():
    try:
        return bool(ctypes.CDLL(None).gnu_get_libc_version)
    except (OSError, AttributeError):
        return False


@pytest.mark.skipif(not (sys.platform.startswith("linux") and _glibc()),
                    reason="glibc's malloc on Linux only")
def test_thresholds_raised_keep_pages_for_the_next_arrays():
    tuned, took = _faults()
    untuned, left = _faults(TAPEGRAD_MALLOC="0")
    assert took and not left
    # untuned: ~1,000 faults a pass (2 x 512 pages written); tuned: the heap's pages again
    assert untuned > 10_000 and tuned < untuned / 10, (tuned, untuned)


def test_program_own_settings_are_left_alone():
    _, took = _faults(MALLOC_TRIM_THRESHOLD_="1000000")
    assert not took
