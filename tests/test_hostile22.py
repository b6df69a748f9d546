"""Hostile inputs, round 22: what a trace file's check costs on a cold cache, and guard
names no terminal should be given.

- On a cold Numba cache a kernel call runs interpreted while its estimate of the work is
  small (``_kernels``: up to COMPILE_LIMIT = 800k element operations while a background
  process compiles).  The estimate counts each row's output only, so a crafted file of
  rows that read far more than they write ran interpreted for as long as they read:
  10**5 sums of one 10**4-element input (a 380 kB file, counted as 7 * 10**5 operations)
  took ~10**9 interpreted operations, ~1.4 s of CPU a 200 rows, ~20 min in all.  A trace's
  check now tells the kernels the work ``check_rows`` counted (what every row reads and
  writes, a product's multiply-adds: ``_kernels.counted``), and interprets below
  INTERPRET_LIMIT only.
- A guard's name went as it was into DivergenceError's message: a loaded file's name may
  hold lone surrogates (printing the error raised UnicodeEncodeError: no UTF-8 stream can
  write them), newlines or a terminal's escape codes.  Messages now show such characters
  escaped (``validate.shown_name``); the name itself loads, saves and pickles unchanged.
- An archive whose end record says its directory starts later than it does: zipfile
  shifts every member's offset back, the first one's below 0, and check_archive's seek
  there raised OSError (a file) instead of a load error (found by tests/fuzz_traces.py).
"""
import io
import re
import types

import numpy as np
import pytest

import tapegrad as tg
from tapegrad import _kernels
from tapegrad.replay import DivergenceError, validate
from test_hostile21 import _arrays, _file  # (a trace's arrays; a file of them, re-digested)


def _wide_sums(n, width):
    """A trace of x.sum() over ``width`` elements, its one SUM row copied ``n`` times, each
    copy writing a new one-element slot (its value copied): every row reads all of x."""
    a = _arrays(lambda x: x.sum(), np.ones(width))
    rows, offs, v = a["rows"], a["offs"], a["vals0"]
    (row,) = rows
    new = np.tile(row, (n, 1))
    new[:, 1] = len(offs) - 1 + np.arange(n)
    a["rows"] = np.concatenate([rows, new])
    a["offs"] = np.concatenate([offs, offs[-1] + np.arange(1, n + 1)])
    a["vals0"] = np.concatenate([v, np.full(n, v[offs[row[1]]])])
    return _file(a)


class _ColdKernel(_kernels._Kernel):
    """A kernel being compiled in the background (a cold cache): a call interprets, or
    waits and finds it compiled at its next look.  Logs which it did."""

    def __init__(self, name, real, log):
        super().__init__(name, *_kernels.KERNELS[name])
        self.d = types.SimpleNamespace(ready=True, typeof_pyval=lambda a: None, overloads={})
        self.real, self.log, self.looks = real, log, 0

    def __call__(self, *args):
        self.looks = 0
        return super().__call__(*args)

    def _cached(self, sig):
        self.looks += 1
        return self.looks > 1

    def _interpret(self, args):
        self.log.append(("interpreted", self.name))
        return self.real(*args)

    def _bind(self):
        self.log.append(("compiled", self.name))
        return self.real


@pytest.fixture
def cold(monkeypatch):
    log = []
    proc = types.SimpleNamespace(poll=lambda: None)  # (still compiling)
    monkeypatch.setattr(_kernels._Background, "start", classmethod(lambda cls, g: proc))
    monkeypatch.setattr(_kernels._Background, "waiting", classmethod(lambda cls, n: None))
    for name in ("_forward_replay", "_replay_blocks"):
        real = getattr(_kernels, name)
        if isinstance(real, _kernels._Kernel):  # (its Numba dispatcher: the _Kernel, once
            real = real.d.dispatcher  # it finds the kernel compiled, rebinds the module's name)
        monkeypatch.setattr(_kernels, name, _ColdKernel(name, real, log))
    return log


def test_a_cold_check_interprets_no_more_than_the_rows_read(cold):
    """200 sums of 1000 elements: 1400 element operations by the kernels' own estimate,
    2 * 10**5 read (main interpreted both replays of the check)."""
    data = _wide_sums(200, 1000)
    cold.clear()  # (what saving it ran)
    t = tg.load(io.BytesIO(data))
    assert ("interpreted", "_forward_replay") not in cold
    assert ("interpreted", "_replay_blocks") not in cold
    assert ("compiled", "_forward_replay") in cold and ("compiled", "_replay_blocks") in cold
    assert np.isclose(t.value(np.full(1000, 0.5)), 500.0)


def test_a_cold_check_of_a_small_trace_still_interprets(cold):
    """A small trace's check does not wait for the compile."""
    data = _file(_arrays(lambda x: (x * x).sum(), np.ones(3)))
    cold.clear()
    t = tg.load(io.BytesIO(data))
    assert cold and all(how == "interpreted" for how, _ in cold)
    assert np.isclose(t.value(np.array([1.0, 2.0, 3.0])), 14.0)


def test_counted_work_is_the_floor_and_ends_with_its_block():
    assert _kernels._COUNTED.get() is None
    with _kernels.counted(123):
        assert _kernels._COUNTED.get() == 123
    assert _kernels._COUNTED.get() is None


def _branchy(x):
    if x[0] > 0:
        return (x * x).sum()
    return x.sum()


NAMES = ["bool at \ud800evil.py:1", "bool at x.py:1\n\x1b[2J\x1b[31mHACKED", "\udfff"]


@pytest.mark.parametrize("name", NAMES)
def test_a_loaded_guard_name_is_escaped_in_the_divergence_error(name):
    a = _arrays(_branchy, np.ones(3))
    assert len(a["guards"]) == 1
    a["guards"] = np.array([name])
    t = tg.load(io.BytesIO(_file(a)))
    assert t.guards == [name]  # (loaded as it was saved)
    with pytest.raises(DivergenceError) as e:
        t.value_batch(-np.ones((2, 3)), on_divergence="raise")
    msg = str(e.value)
    msg.encode("utf-8")  # (main: UnicodeEncodeError for a lone surrogate)
    assert msg.isprintable(), msg  # (no newline, no escape code)
    assert validate.shown_name(name) in msg
    again = io.BytesIO()
    t.save(again)  # (saves, and loads back, unchanged)
    again.seek(0)
    assert tg.load(again).guards == [name]


def test_a_printable_guard_name_is_shown_as_it_is():
    t = tg.trace(_branchy, np.ones(3))
    (name,) = t.guards
    assert validate.shown_name(name) == name
    with pytest.raises(DivergenceError, match=rf"\({re.escape(name)}\) decides"):
        t.value_batch(-np.ones((1, 3)), on_divergence="raise")
    assert validate.shown_name("a\u00e9\u4e2d b") == "a\u00e9\u4e2d b"
    assert validate.shown_name("a\nb\ud800") == "a\\nb\\ud800"


def _directory_claimed_later(data, by):
    """``data`` (a zip archive) with its end record saying the central directory starts
    ``by`` bytes later than it does: zipfile finds it where it is, and shifts every
    member's offset back by ``by`` (before its first member for the first: negative)."""
    raw = bytearray(data)
    end = raw.rfind(b"PK\x05\x06")
    at = int.from_bytes(raw[end + 16:end + 20], "little")
    raw[end + 16:end + 20] = (at + by).to_bytes(4, "little")
    return bytes(raw)


@pytest.mark.parametrize("by", [8, 1 << 20])
def test_a_directory_claimed_beyond_itself_is_a_load_error(by, tmp_path):
    """Found by tests/fuzz_traces.py (a flipped byte): main's OSError "Invalid argument"
    from a file's seek to a member's negative local-header offset (check_archive; a
    BytesIO's said "negative seek value")."""
    t = tg.trace(lambda x: (x * x).sum(), np.ones(3))
    trace, saved = io.BytesIO(), io.BytesIO()
    t.save(trace)
    tg.save({"w": tg.ones(2), "n": 3}, saved)
    for buf in (trace, saved):
        path = tmp_path / "crafted"
        path.write_bytes(_directory_claimed_later(buf.getvalue(), by))
        for f in (path, io.BytesIO(path.read_bytes())):
            with pytest.raises(ValueError, match="has its local header at offset -"):
                tg.load(f)
