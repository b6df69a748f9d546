"""``torch.distributed`` as a program that runs in one process sees it: tapegrad has no
process groups or backends, so ``is_available()`` and ``is_initialized()`` are False (the
checks training scripts make before any collective), and what needs a process group raises
PyTorch's error for a group that was never initialized."""

_NOT_INITIALIZED = ("Default process group has not been initialized, please make sure to "
                    "call init_process_group.")


def is_available():
    """False: tapegrad runs in one process, with no distributed backend."""
    return False


def is_initialized():
    """False: no process group can be made here."""
    return False


def is_torchelastic_launched():
    return False


def init_process_group(*args, **kwargs):
    raise RuntimeError("init_process_group: tapegrad runs in one process and has no "
                       "distributed backend (tapegrad.distributed.is_available() is False); "
                       "run the program without a process group")


def _needs_group(name):
    def collective(*args, **kwargs):
        raise ValueError(_NOT_INITIALIZED)
    collective.__name__ = collective.__qualname__ = name
    collective.__doc__ = f"``{name}``: raises, as PyTorch's without a process group."
    return collective


for _name in ("get_rank", "get_world_size", "get_backend", "barrier", "all_reduce",
              "all_gather", "all_gather_object", "broadcast", "broadcast_object_list",
              "reduce", "gather", "scatter", "reduce_scatter", "all_to_all", "send", "recv",
              "isend", "irecv", "new_group", "destroy_process_group", "monitored_barrier"):
    globals()[_name] = _needs_group(_name)
del _name
