"""glibc malloc's two thresholds, raised once at import (Linux with glibc; elsewhere, or
with ``TAPEGRAD_MALLOC=0``, or the program's own ``MALLOC_*_THRESHOLD_``, left alone).

glibc maps an allocation of 128 KB or more on its own pages and gives free memory at the
heap's top back to the kernel (its thresholds start there and grow with freed blocks). A
tensor op makes a NumPy array and drops temporaries, so a loop over arrays of a few MB
got new pages on each pass, and the kernel faults each page in when it is first written:
on a VM ~10 us a 4 KB page. Measured on this project's 2-core VM (docs/performance.md):
``tapegrad.zeros(500, 500)`` 3.6 ms against 69 us, bench_scripts' k-means step 9.6 ms
against 6.4. Raised, an array below MMAP comes from the heap, and up to TRIM of free heap
is kept for the next arrays instead of returned (tests/test_malloc.py counts the faults).
"""
import ctypes
import os
import sys

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # (glibc's malloc.h)
MMAP = 32 << 20  # (glibc's largest on 64-bit: HEAP_MAX_SIZE / 2)
TRIM = 64 << 20


def tune():
    """Raise the thresholds; True if glibc took both."""
    if not sys.platform.startswith("linux") or os.environ.get("TAPEGRAD_MALLOC") == "0" or \
            "MALLOC_MMAP_THRESHOLD_" in os.environ or "MALLOC_TRIM_THRESHOLD_" in os.environ:
        return False
    try:
        libc = ctypes.CDLL(None)
        libc.gnu_get_libc_version  # (glibc's: musl's mallopt does nothing)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP)) & bool(mallopt(M_TRIM_THRESHOLD, TRIM))


TUNED = tune()
