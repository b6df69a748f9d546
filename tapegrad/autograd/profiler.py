"""``torch.autograd.profiler`` (and ``torch.profiler``) for scripts that wrap their code in
a profiler: ``profile`` collects the wall time of the ``record_function`` blocks run inside
it (no per-op events: tapegrad's ops are not instrumented), and ``key_averages().table()``
prints them in PyTorch's layout.  Everything is accepted; nothing is slowed down."""
import enum
import functools
import json
import threading
import time

_ACTIVE = threading.local()  # the profiles open on this thread


class FunctionEventAvg:
    """One name's totals: ``count``, ``cpu_time_total`` (us), ``self_cpu_time_total``."""

    def __init__(self, key):
        self.key, self.count, self.cpu_time_total = key, 0, 0.0

    @property
    def self_cpu_time_total(self):
        return self.cpu_time_total

    @property
    def cpu_time(self):
        return self.cpu_time_total / max(self.count, 1)

    cuda_time_total = device_time_total = self_cuda_time_total = 0.0


class EventList(list):
    """Events (or their averages), with PyTorch's ``table`` and ``total_average``."""

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75,
              max_name_column_width=55, max_shapes_column_width=80, header=None,
              top_level_events_only=False):
        rows = list(self)
        if sort_by:
            key = sort_by.replace("self_", "")  # (self time = total time here)
            rows.sort(key=lambda e: -float(getattr(e, key, 0.0)))
        rows = rows[:row_limit] if row_limit is not None and row_limit >= 0 else rows
        width = max([len("Name")] + [len(e.key) for e in rows])
        line = "-" * (width + 45)
        out = [line, f"{'Name':<{width}}  {'CPU total':>14}  {'CPU time avg':>14}  "
               f"{'# of Calls':>10}", line]
        for e in rows:
            out.append(f"{e.key:<{width}}  {_us(e.cpu_time_total):>14}  {_us(e.cpu_time):>14}  "
                       f"{e.count:>10}")
        out += [line, f"Self CPU time total: {_us(sum(e.cpu_time_total for e in rows))}", ""]
        return "\n".join(out)

    def total_average(self):
        total = FunctionEventAvg("Total")
        for e in self:
            total.count += e.count
            total.cpu_time_total += e.cpu_time_total
        return total

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        return self

    def __str__(self):
        return self.table()


def _us(t):
    return f"{t / 1000:.3f}ms" if t >= 1000 else f"{t:.3f}us"


class profile:  # noqa: N801 (PyTorch's name)
    """A context manager; ``key_averages()`` gives the record_function blocks' times."""

    def __init__(self, enabled=True, *, use_cuda=False, use_device=None, record_shapes=False,
                 with_flops=False, profile_memory=False, with_stack=False, with_modules=False,
                 use_kineto=True, use_cpu=True, experimental_config=None, acc_events=False,
                 custom_trace_id_callback=None, **kwargs):
        self.enabled = enabled
        self._totals = {}

    def __enter__(self):
        if self.enabled:
            stack = getattr(_ACTIVE, "stack", None)
            _ACTIVE.stack = (stack or []) + [self]
        return self

    def __exit__(self, *exc):
        if self.enabled:
            _ACTIVE.stack = [p for p in _ACTIVE.stack if p is not self]
        return False

    def _add(self, name, us):
        e = self._totals.setdefault(name, FunctionEventAvg(name))
        e.count += 1
        e.cpu_time_total += us

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0,
                     group_by_overload_name=False):
        return EventList(self._totals.values())

    @property
    def function_events(self):
        return self.key_averages()

    def table(self, *args, **kwargs):
        return self.key_averages().table(*args, **kwargs)

    def total_average(self):
        return self.key_averages().total_average()

    @property
    def self_cpu_time_total(self):
        return self.total_average().cpu_time_total

    def export_chrome_trace(self, path):
        events = [{"name": e.key, "ph": "X", "ts": 0, "dur": e.cpu_time_total, "pid": 0,
                   "tid": 0, "args": {"count": e.count}} for e in self._totals.values()]
        with open(path, "w") as f:
            json.dump({"traceEvents": events}, f)

    # torch.profiler.profile's schedule API: steps are counted, nothing else changes
    def step(self):
        self.step_num = getattr(self, "step_num", 0) + 1

    def start(self):
        return self.__enter__()

    def stop(self):
        self.__exit__(None, None, None)

    def __str__(self):
        return self.table()


class record_function:  # noqa: N801 (PyTorch's name)
    """A named block (context manager or decorator) timed into the open profiles."""

    def __init__(self, name, args=None):
        self.name = name

    def __enter__(self):
        self._t0 = time.perf_counter()
        return self

    def __exit__(self, *exc):
        us = (time.perf_counter() - self._t0) * 1e6
        for p in getattr(_ACTIVE, "stack", None) or ():
            p._add(self.name, us)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with record_function(self.name):
                return fn(*args, **kwargs)
        return wrapper


class emit_nvtx:  # noqa: N801 (PyTorch's name)
    """Accepted: there is no NVTX on the CPU."""

    def __init__(self, enabled=True, record_shapes=False):
        self.enabled = enabled

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


emit_itt = emit_nvtx


class ProfilerActivity(enum.Enum):
    CPU = 0
    CUDA = 1
    XPU = 2
    MTIA = 3


class ProfilerAction(enum.Enum):
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def schedule(*, wait, warmup, active, repeat=0, skip_first=0, skip_first_wait=0):
    """PyTorch's step schedule (which action each step takes); the profiler here records
    the same whatever the action."""
    def action(step):
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        cycle = wait + warmup + active
        if repeat > 0 and step // cycle >= repeat:
            return ProfilerAction.NONE
        pos = step % cycle
        if pos < wait:
            return ProfilerAction.NONE
        if pos < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if pos < cycle - 1 else ProfilerAction.RECORD_AND_SAVE
    return action


def tensorboard_trace_handler(dir_name, worker_name=None, use_gzip=False):
    """A trace handler that writes nothing (there is no trace to write)."""
    return lambda prof: None


def kineto_available():
    """False: this profiler times tapegrad's ops itself; PyTorch's Kineto is not here."""
    return False


__all__ = ["EventList", "FunctionEventAvg", "ProfilerAction", "ProfilerActivity", "emit_itt",
           "emit_nvtx", "kineto_available", "profile", "record_function", "schedule",
           "tensorboard_trace_handler"]
