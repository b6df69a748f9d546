"""``tapegrad.utils.benchmark``: ``Timer`` and ``Measurement`` with the parts of
``torch.utils.benchmark``'s API that scripts use (``timeit``, ``blocked_autorange``,
``.times``, ``.mean``, ``.median``, printing).  Wall-clock time by ``time.perf_counter``.

>>> from tapegrad.utils.benchmark import Timer
>>> m = Timer("sum(range(10))").timeit(3)
>>> len(m.times), m.number_per_run
(1, 3)
"""
import statistics
import time
import timeit as _timeit

__all__ = ["Measurement", "Timer"]


class Measurement:
    """The result of ``Timer.timeit`` / ``blocked_autorange``: ``times`` holds the mean
    seconds per run of each measured block; ``raw_times`` the seconds of each block."""

    def __init__(self, number_per_run, raw_times, task_spec):
        self.number_per_run = number_per_run
        self.raw_times = list(raw_times)
        self.times = [t / number_per_run for t in self.raw_times]
        self.task_spec = task_spec
        self.stmt = task_spec["stmt"]
        self.label = task_spec["label"]
        self.sub_label = task_spec["sub_label"]
        self.description = task_spec["description"]
        self.num_threads = task_spec["num_threads"]

    @property
    def mean(self):
        return statistics.fmean(self.times)

    @property
    def median(self):
        return statistics.median(self.times)

    @property
    def iqr(self):
        if len(self.times) < 2:
            return 0.0
        q = statistics.quantiles(self.times, n=4)
        return q[2] - q[0]

    def __repr__(self):
        head = " ".join(x for x in (self.label, self.sub_label, self.description) if x)
        t = self.median
        unit, scale = next(((u, s) for u, s in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6))
                            if t >= s), ("ns", 1e-9))
        n = len(self.times)
        return (f"<tapegrad.utils.benchmark.Measurement object at {hex(id(self))}>\n"
                f"{head + chr(10) if head else ''}{self.stmt}\n"
                f"  {'Median: ' if n > 1 else ''}{t / scale:.2f} {unit}\n"
                f"  {n} measurement{'s' if n > 1 else ''}, {self.number_per_run} runs , "
                f"{self.num_threads} thread{'s' if self.num_threads > 1 else ''}")


class Timer:
    """Times ``stmt`` after ``setup`` in a namespace holding ``globals``, as
    ``torch.utils.benchmark.Timer``."""

    def __init__(self, stmt="pass", setup="pass", global_setup="", timer=time.perf_counter,
                 globals=None, label=None, sub_label=None, description=None,  # noqa: A002
                 env=None, num_threads=1, language="python"):
        if language not in ("python", "py"):
            raise ValueError(f"Timer: only Python statements are timed, got language "
                             f"{language!r}")
        self._spec = {"stmt": stmt, "label": label, "sub_label": sub_label,
                      "description": description, "num_threads": num_threads, "env": env}
        self._timer = _timeit.Timer(stmt=stmt, setup=setup, timer=timer,
                                    globals=dict(globals or {}))

    def timeit(self, number=1000000):
        """One block of ``number`` runs (after one warm-up run, as PyTorch does)."""
        self._timer.timeit(number=1)
        return Measurement(number, [self._timer.timeit(number=number)], self._spec)

    def repeat(self, repeat=-1, number=-1):
        raise NotImplementedError("Timer.repeat: use timeit or blocked_autorange")

    def blocked_autorange(self, callback=None, min_run_time=0.2):
        """Blocks of runs, each block long enough to time well (about 1 ms or more),
        until ``min_run_time`` seconds have been spent measuring."""
        number = 1
        while True:  # grow the block until it takes at least a millisecond
            t = self._timer.timeit(number=number)
            if t >= 1e-3 or number >= 1 << 20:
                break
            number *= 10
        raw, total = [], 0.0
        while total < min_run_time or not raw:
            t = self._timer.timeit(number=number)
            raw.append(t)
            total += t
            if callback is not None:
                callback(number, t)
        return Measurement(number, raw, self._spec)

    def adaptive_autorange(self, threshold=0.1, *, min_run_time=0.01, max_run_time=10.0,
                           callback=None):
        return self.blocked_autorange(callback=callback, min_run_time=min_run_time)
