"""``tapegrad.utils.benchmark``: ``Timer``, ``Measurement``, ``TaskSpec`` and ``Compare``
with the parts of ``torch.utils.benchmark``'s API that scripts use (``timeit``,
``blocked_autorange``, ``adaptive_autorange``, ``.times``, ``.mean``, ``.median``,
``.iqr``, ``significant_figures``, ``merge``, PyTorch's printed layouts).  Wall-clock time
by ``time.perf_counter``; Python statements only (no Callgrind).

>>> from tapegrad.utils.benchmark import Timer
>>> m = Timer("sum(range(10))").timeit(3)
>>> len(m.times), m.number_per_run
(1, 3)
"""
import dataclasses
import math
import textwrap
import time
import timeit as _timeit

import numpy as np

__all__ = ["Compare", "Measurement", "TaskSpec", "Timer", "select_unit"]

_MAX_SIGFIGS = 4
_MIN_CI = 25e-9  # (seconds: no figure is trusted below this spread)
_WARN_IQR, _GROSS_IQR = 0.1, 0.25
_UNITS = {"ns": ("nanosecond", 1e-9), "us": ("microsecond", 1e-6),
          "ms": ("millisecond", 1e-3), "s": ("second", 1.0)}


def select_unit(t):
    """(unit, scale) that print ``t`` seconds with one to three leading digits."""
    unit = {-3: "ns", -2: "us", -1: "ms"}.get(math.floor(math.log10(t) / 3), "s") \
        if t > 0 else "ns"
    return unit, _UNITS[unit][1]


@dataclasses.dataclass(frozen=True)
class TaskSpec:
    """What a Timer measures (all but its globals): the key of ``Measurement.merge``."""

    stmt: str
    setup: str
    global_setup: str = ""
    label: str = None
    sub_label: str = None
    description: str = None
    env: str = None
    num_threads: int = 1

    def __repr__(self):  # (PyTorch's TaskSpec has object's repr)
        return object.__repr__(self)

    @property
    def title(self):
        sub = f": {self.sub_label}" if self.sub_label else ""
        if self.label is not None:
            return self.label + sub
        if "\n" not in self.stmt:
            return self.stmt + sub
        return (f"stmt:{f' ({self.sub_label})' if self.sub_label else ''}\n"
                + textwrap.indent(self.stmt, "  "))

    def setup_str(self):
        if self.setup in ("pass", "", None):
            return ""
        if "\n" in self.setup:
            return "setup:\n" + textwrap.indent(self.setup, "  ")
        return f"setup: {self.setup}"

    def summarize(self):
        parts = [p for p in (self.title, self.description or "", self.setup_str()) if p]
        return "\n".join(p + "\n" if "\n" in p else p for p in parts)


_SPEC_FIELDS = {f.name for f in dataclasses.fields(TaskSpec)}


class Measurement:
    """Blocks of ``number_per_run`` runs of a statement: ``raw_times`` holds the seconds of
    each block, ``times`` the mean seconds per run of each; statistics over ``times``
    (quantiles by linear interpolation, as PyTorch's)."""

    def __init__(self, number_per_run, raw_times, task_spec, metadata=None):
        self.number_per_run = number_per_run
        self.raw_times = list(raw_times)
        self.task_spec = task_spec
        self.metadata = metadata

    def __getattr__(self, name):  # stmt, label, num_threads, ...: the task's
        if name in _SPEC_FIELDS:
            return getattr(self.__dict__["task_spec"], name)
        raise AttributeError(f"'Measurement' object has no attribute '{name}'")

    def __eq__(self, other):
        return isinstance(other, Measurement) and (
            self.number_per_run, self.raw_times, self.task_spec, self.metadata) == (
            other.number_per_run, other.raw_times, other.task_spec, other.metadata)

    __hash__ = None

    @property
    def times(self):
        return [t / self.number_per_run for t in self.raw_times]

    def _q(self, q):
        return float(np.quantile(np.asarray(self.times, np.float64), q))

    @property
    def median(self):
        return self._q(0.5)

    @property
    def mean(self):
        return float(np.mean(self.times))

    @property
    def iqr(self):
        return self._q(0.75) - self._q(0.25)

    def meets_confidence(self, threshold=_WARN_IQR):
        return self.iqr / self.median < threshold

    @property
    def has_warnings(self):
        return not self.meets_confidence(_WARN_IQR)

    def _warnings(self):
        if self.meets_confidence(_WARN_IQR):
            return []
        why = ("This suggests significant environmental influence."
               if not self.meets_confidence(_GROSS_IQR)
               else "This could indicate system fluctuation.")
        return [f"  WARNING: Interquartile range is {self.iqr / self.median * 100:.1f}% of "
                f"the median measurement.\n           {why}"]

    @property
    def significant_figures(self):
        """Digits the middle half of the times supports (1 to 4): the median over a 90%
        confidence interval of its mean, as PyTorch estimates it for ``Compare``."""
        t = sorted(self.times)
        mid = np.asarray(t[len(t) // 4:math.ceil(3 * len(t) / 4)], np.float64)
        ci = max(1.645 * float(mid.std()) / math.sqrt(len(mid)), _MIN_CI)
        return min(max(math.floor(math.log10(self.median / ci)), 1), _MAX_SIGFIGS)

    @property
    def title(self):
        return self.task_spec.title

    @property
    def env(self):
        return "Unspecified env" if self.task_spec.env is None else self.task_spec.env

    @property
    def as_row_name(self):
        return self.sub_label or self.stmt or "[Unknown]"

    def __repr__(self):
        n = len(self.times)
        unit, scale = select_unit(self.median)
        lines = [f"<tapegrad.utils.benchmark.Measurement object at {hex(id(self))}>",
                 self.task_spec.summarize(),
                 f"  {'Median: ' if n > 1 else ''}{self.median / scale:.2f} {unit}"]
        if n >= 4:
            lines.append(f"  IQR:    {self.iqr / scale:.2f} {unit} ({self._q(0.25) / scale:.2f}"
                         f" to {self._q(0.75) / scale:.2f})")
        lines.append(f"  {n} measurement{'s' if n > 1 else ''}, {self.number_per_run} runs "
                     f"{'per measurement,' if n > 1 else ','} {self.num_threads} "
                     f"thread{'s' if self.num_threads > 1 else ''}")
        return "\n".join(lines + self._warnings()).strip()

    @staticmethod
    def merge(measurements):
        """One Measurement per task: the times of its replicates, one run per block (their
        metadata dropped: it may differ between replicates)."""
        groups = {}
        for m in measurements:
            groups.setdefault(m.task_spec, []).extend(m.times)
        return [Measurement(1, times, spec) for spec, times in groups.items()]


class Timer:
    """Times ``stmt`` after ``setup`` in a namespace holding ``globals``, as
    ``torch.utils.benchmark.Timer``."""

    def __init__(self, stmt="pass", setup="pass", global_setup="", timer=time.perf_counter,
                 globals=None, label=None, sub_label=None, description=None,  # noqa: A002
                 env=None, num_threads=1, language="python"):
        if language not in ("python", "py"):
            raise ValueError(f"Timer: only Python statements are timed, got language "
                             f"{language!r}")
        if not isinstance(stmt, str):
            raise ValueError("Currently only a `str` stmt is supported.")
        self._task_spec = TaskSpec(stmt, setup, global_setup, label, sub_label, description,
                                   env, num_threads)
        self._timer = _timeit.Timer(stmt=stmt, setup=setup, timer=timer,
                                    globals=dict(globals or {}))

    def timeit(self, number=1000000):
        """One block of ``number`` runs (after one warm-up run, as PyTorch does)."""
        self._timer.timeit(number=1)
        return Measurement(number, [self._timer.timeit(number=number)], self._task_spec)

    def repeat(self, repeat=-1, number=-1):
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def autorange(self, callback=None):
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def _block_size(self):
        """Runs a block needs to take at least a millisecond (timer resolution)."""
        number = 1
        while self._timer.timeit(number=number) < 1e-3 and number < 1 << 20:
            number *= 10
        return number

    def blocked_autorange(self, callback=None, min_run_time=0.2):
        """Blocks of runs, each long enough to time well, until ``min_run_time`` seconds
        have been spent measuring."""
        number = self._block_size()
        raw, total = [], 0.0
        while total < min_run_time or not raw:
            t = self._timer.timeit(number=number)
            raw.append(t)
            total += t
            if callback is not None:
                callback(number, t)
        return Measurement(number, raw, self._task_spec)

    def adaptive_autorange(self, threshold=0.1, *, min_run_time=0.01, max_run_time=10.0,
                           callback=None):
        """Blocks until their spread is under ``threshold`` (IQR / median) after at least
        ``min_run_time`` seconds, or ``max_run_time`` seconds have passed."""
        number = self._block_size()
        raw, total = [], 0.0
        while True:
            t = self._timer.timeit(number=number)
            raw.append(t)
            total += t
            if callback is not None:
                callback(number, t)
            m = Measurement(number, raw, self._task_spec)
            if total >= max_run_time or (total >= min_run_time and len(raw) > 3
                                         and m.meets_confidence(threshold)):
                return m


def _trim(x, digits):
    """``x`` rounded to ``digits`` significant figures."""
    scale = 10.0 ** (math.ceil(math.log10(abs(x))) - digits) if x else 1.0
    return round(x / scale) * scale


class Compare:
    """Measurements as PyTorch's table: one table per label, a column per description, a
    row per sub_label (or stmt) under a rule per thread count, times in one unit."""

    _COLORS = {"best": "\033[92m\033[1m", "good": "\033[34m\033[1m", "bad": "\033[2m\033[91m",
               "very bad": "\033[31m\033[1m"}

    def __init__(self, results):
        self._results = []
        self.extend_results(results)
        self._trim, self._colorize, self._warn = False, None, False

    def extend_results(self, results):
        for r in results:
            if not isinstance(r, Measurement):
                raise ValueError(f"Expected an instance of `Measurement`, got {type(r)} "
                                 "instead.")
        self._results.extend(results)

    def trim_significant_figures(self):
        self._trim = True

    def colorize(self, rowwise=False):
        self._colorize = "rowwise" if rowwise else "columnwise"

    def highlight_warnings(self):
        self._warn = True

    def print(self):
        print(str(self))

    def __str__(self):
        tables = {}
        for m in Measurement.merge(self._results):
            tables.setdefault(m.label, []).append(m)
        return "\n".join(self._table(ms) for ms in tables.values())

    def _table(self, ms):
        unit, scale = select_unit(min(m.median for m in ms))
        rows = list(dict.fromkeys((m.num_threads, m.env, m.as_row_name) for m in ms))
        rows.sort(key=lambda k: k[:2])  # (stable: statements keep their order)
        cols = list(dict.fromkeys(m.description for m in ms))
        cell = {((m.num_threads, m.env, m.as_row_name), m.description): m for m in ms}
        envs = {m.env for m in ms}
        show_env = len(envs) > 1
        env_width = max(map(len, envs)) if show_env else 0
        # each column's number format: as many integer digits as its largest time, one
        # decimal (or, trimmed, the fewest significant figures its times support), and
        # room for a spread note if warnings are shown and one of its times has one
        fmts = []
        for c in cols:
            col = [(cell[r, c], math.ceil(math.log10(cell[r, c].median / scale)))
                   for r in rows if (r, c) in cell]
            decimals = min(max(m.significant_figures - d, 0) for m, d in col) \
                if self._trim else 1
            width = max(d for _, d in col) + decimals + (1 if decimals else 0)
            fmts.append((f"{{:>{width}.{decimals}f}}",
                         self._warn and any(m.has_warnings for m, _ in col)))

        def number(m, fmt):
            fmt, warn = fmt
            note = " " * 7 if warn else ""
            if m is None:
                return " " * len(fmt.format(1.0) + note)
            v = m.median / scale
            if warn and m.has_warnings:
                note = f" (! {m.iqr / m.median * 100:.0f}%)"
            return fmt.format(_trim(v, m.significant_figures) if self._trim else v) + note

        text = [[""] + [str(c) for c in cols]]
        prev_env = None
        for r in rows:
            env = f"({r[1]})" if show_env and r[1] != prev_env else ""
            prev_env = r[1]
            text.append(["  " + env.ljust(env_width + 4) + r[2]]
                        + [number(cell.get((r, c)), f) for c, f in zip(cols, fmts)])
        widths = [max(len(t[i]) for t in text) for i in range(len(text[0]))]
        head = "  |  ".join(t.center(w) for t, w in zip(text[0], widths))
        out, prev_threads = [head], None
        for r, t in zip(rows, text[1:]):
            if r[0] != prev_threads:
                out.append(f"{r[0]} threads: ".ljust(len(head), "-"))
                prev_threads = r[0]
            cells = [t[0].ljust(widths[0])]
            for j, (s, w) in enumerate(zip(t[1:], widths[1:])):
                cells.append(self._paint(s.center(w), r, cols[j], rows, cols, cell))
            out.append("  |  ".join(cells))
        label = ms[0].label or ""
        title = f"[{(' ' + label + ' ').center(len(head) - 2, '-')}]"
        warn = self._warn and any(m.has_warnings for m in ms)
        tail = (f"\nTimes are in {_UNITS[unit][0]}s ({unit}).\n"
                + ("(! XX%) Measurement has high variance, where XX is the IQR / median "
                   "* 100.\n" if warn else ""))
        return "\n".join([title] + out) + "\n" + tail

    def _paint(self, s, r, c, rows, cols, cell):
        m = cell.get((r, c))
        if self._colorize is None or m is None:
            return s
        if self._colorize == "rowwise":
            peers = [cell[r, k] for k in cols if (r, k) in cell]
        else:  # (the column, within its thread count's group)
            peers = [cell[k, c] for k in rows if k[0] == r[0] and (k, c) in cell]
        best, v = min(p.median for p in peers), m.median
        if v <= best * 1.01 or v <= best + 100e-9:
            color = "best"
        elif v <= best * 1.1:
            color = "good"
        elif v >= best * 5:
            color = "very bad"
        elif v >= best * 2:
            color = "bad"
        else:
            return s
        return self._COLORS[color] + s + "\033[0m" * 2
