"""``torch.profiler``: the profiler of ``tapegrad.autograd.profiler`` under PyTorch's newer
names (``profile(activities=..., schedule=...)``, ``ProfilerActivity``, ``schedule``)."""
from .autograd.profiler import (
    ProfilerAction,
    ProfilerActivity,
    profile,
    record_function,
    schedule,
    tensorboard_trace_handler,
)

__all__ = ["ProfilerAction", "ProfilerActivity", "profile", "record_function", "schedule",
           "tensorboard_trace_handler"]
