"""Anomaly detection: ``detect_anomaly()``, ``set_detect_anomaly(True)``.

PyTorch's semantics: while anomaly mode is on, the forward remembers where each op was
recorded, and the backward raises at the first function that returns NaN ("Function
'MulBackward0' returned nan values in its 0th output."), after a UserWarning that shows the
traceback of the forward call that recorded it.  Like PyTorch, only NaN is an anomaly
(an infinite gradient, such as sqrt's at 0, is a legitimate value), and the mode is
process-wide.

What it costs, and only while it is on:

- record time: each tape notes which user code recorded every row, in ``tape.sites``.  The
  ops append their rows with one ``tape.rbuf.extend(...)``, and anomaly mode swaps that
  pending-rows list for one whose ``extend`` also walks the caller's frames (tape.py's
  ``_SiteRows``), so the recording hot path has no check at all when the mode is off;
- backward: the engine sweeps row by row from Python (``checked_sweep``: stretches of one
  row of the same compiled interpreter) and checks the adjoints each row wrote.  With the
  mode off the engine never comes here.
"""
import linecache
import sys
import warnings
from contextlib import ContextDecorator

import numpy as np

from .. import _kernels as compiled  # (module attributes: tests patch them)
from .._state import anomaly, state
from ..tape import _PKG, frame_lines, set_site_rows
from .graph import input_slots, views

_ENABLED_WARNING = ("Anomaly Detection has been enabled. This mode will increase the runtime "
                    "and should only be enabled for debugging.")


def is_anomaly_enabled():
    """True while anomaly detection is on."""
    return anomaly.enabled


def is_anomaly_check_nan_enabled():
    """True while anomaly detection checks the backward for NaN."""
    return anomaly.check_nan


def _set(mode, check_nan):
    anomaly.enabled = bool(mode)
    anomaly.check_nan = bool(check_nan)
    if state.tape is not None:  # this thread's tape notes record sites from now on (or not)
        set_site_rows(state.tape, anomaly.enabled)


class detect_anomaly(ContextDecorator):  # noqa: N801 (PyTorch's name)
    """Context manager (and decorator) that turns anomaly detection on.

    >>> import tapegrad as tg
    >>> with tg.autograd.detect_anomaly():  # doctest: +ELLIPSIS
    ...     x = tg.tensor(0.0, requires_grad=True)
    ...     y = x * tg.log(x)
    ...     y.backward()
    Traceback (most recent call last):
    RuntimeError: Function 'LogBackward0' returned nan values in its 0th output.
    The op was recorded at ...: y = x * tg.log(x)
    """

    def __init__(self, check_nan=True):
        self.check_nan = check_nan
        self.prev = None
        warnings.warn(_ENABLED_WARNING, UserWarning, stacklevel=2)

    def __enter__(self):
        self.prev = (anomaly.enabled, anomaly.check_nan)
        _set(True, self.check_nan)
        return self

    def __exit__(self, *exc):
        _set(*self.prev)
        return False


class set_detect_anomaly:  # noqa: N801 (PyTorch's name)
    """Turn anomaly detection on or off: as a call, or as a context manager."""

    def __init__(self, mode, check_nan=True):
        self.prev = (anomaly.enabled, anomaly.check_nan)
        _set(mode, check_nan)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _set(*self.prev)
        return False


def checked_sweep(tape, rows, offs, vals, consts, meta, adj, reach, lo, hi):
    """The reverse sweep of rows ``hi-1 .. lo``, one compiled call per row, raising at the
    first row whose input adjoints hold NaN.  Returns like ``_reverse_sweep``."""
    # the slots PyTorch computes gradients for: op outputs and leaves that require grad
    # (the sweep also fills constants' adjoints, which no one reads: not an anomaly)
    wanted = np.zeros(len(reach), bool)
    outs = rows[:, 1]
    wanted[outs[outs >= 0]] = True
    wanted[[s for s, _ in tape.leaves]] = True
    for r in range(hi - 1, lo - 1, -1):
        o = rows[r, 1]
        if o < 0 or not reach[o]:
            continue
        stop = compiled.reverse_sweep(vals)(rows, offs, vals, consts, meta, adj, reach, r, r + 1, 1)
        if stop >= 0:
            return stop
        for i, s in enumerate(input_slots(rows, meta, r)):
            if wanted[s] and np.isnan(adj[offs[s]:offs[s + 1]]).any():
                raise _nan_error(tape, r, i)
    return -1


def _nan_error(tape, r, i):
    """PyTorch's warning (the forward traceback) and error, plus the recording line."""
    name = views(tape).name(r)
    frames = frame_lines(tape.sites.get(r, ()))
    msg = f"Function '{name}' returned nan values in its {i}th output."
    if frames:
        warnings.warn(f"Error detected in {name}. Traceback of forward call that caused the "
                      f"error:\n{format_frames(frames)}", UserWarning, stacklevel=_user_level())
        file, line, func = frames[0]
        code = linecache.getline(file, line).strip()
        msg += f"\nThe op was recorded at {file}:{line} in {func}" + (f": {code}" if code else "")
    else:
        warnings.warn(f"Error detected in {name}. No forward pass information available. "
                      "Enable detect anomaly during forward pass for more information.",
                      UserWarning, stacklevel=_user_level())
        msg += ("\n(No forward pass information: the op was recorded while anomaly mode was "
                "off; enable it before the forward pass to see where.)")
    return RuntimeError(msg)


def _user_level():
    """warnings.warn's stacklevel of the innermost caller outside tapegrad."""
    f = sys._getframe(1)
    level = 1
    while f is not None and f.f_code.co_filename.startswith(_PKG):
        f = f.f_back
        level += 1
    return level


def format_frames(frames):
    """Frames (innermost first) as a traceback, outermost first."""
    out = []
    for file, line, func in reversed(frames):
        out.append(f'  File "{file}", line {line}, in {func}\n')
        code = linecache.getline(file, line).strip()
        if code:
            out.append(f"    {code}\n")
    return "".join(out)


__all__ = ["detect_anomaly", "is_anomaly_check_nan_enabled", "is_anomaly_enabled",
           "set_detect_anomaly"]
