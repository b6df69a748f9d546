"""Loaders against crafted files, round 35.

- A regular file the kernel makes up as it is read (``/proc/self/status``) reports a size
  of 0 and cannot be seeked from its end: tapegrad.load, tapegrad.jit.load and the trace
  loader raised a bare OSError ("Invalid argument") from the first seek of the zip
  checks.  Its bytes are read to the end now, and refused as any file of those bytes is.
"""
import os
import shutil

import pytest

import tapegrad as tg

MADE_UP = [p for p in ("/proc/self/status", "/proc/self/maps", "/proc/version")
           if os.path.exists(p)]


def _message(fn, f):
    with pytest.raises(ValueError) as e:
        fn(f)
    return str(e.value)


@pytest.mark.parametrize("path", MADE_UP)
@pytest.mark.parametrize("fn", [tg.load, tg.jit.load, tg.replay.load])
@pytest.mark.parametrize("how", ["path", "file"])
def test_file_of_no_reported_size_is_read_and_refused_as_any_file(path, fn, how, tmp_path):
    copy = tmp_path / "copy"
    with open(path, "rb") as fh:
        data = fh.read()
    copy.write_bytes(data)
    assert os.stat(path).st_size == 0 and data  # (what makes it odd)
    if how == "path":
        got, want = _message(fn, path), _message(fn, str(copy))
    else:
        with open(path, "rb") as a, open(copy, "rb") as b:
            got, want = _message(fn, a), _message(fn, b)
    def same(m, name):  # (the file object shows as its bytes, read whole: validate._Read)
        return m.replace(name, "F").replace("<_io.BufferedReader name='F'>", "<F>").replace(
            "<the bytes of 'F'>", "<F>")
    assert same(got, path) == same(want, str(copy))
    assert "not a" in got or "neither" in got


def test_file_of_no_reported_size_is_read_within_max_bytes(tmp_path):
    with pytest.raises(ValueError, match="max_bytes=16"):
        tg.load(MADE_UP[0], max_bytes=16)
    with pytest.raises(ValueError, match="max_bytes=16"):
        tg.jit.load(MADE_UP[0], max_bytes=16)
