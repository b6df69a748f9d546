"""``get_num_threads`` / ``set_num_threads``: the threads batch replay runs on (Numba's
thread pool; the eager sweep is single-threaded, as a reverse pass over one tape is)."""
from ._jit import load_numba  # (Numba is imported when first asked for: issue 23)


def get_num_threads():
    """The number of threads parallel batch replay uses."""
    return load_numba().get_num_threads()


def set_num_threads(num):
    """Use ``num`` threads (1 .. the machine's cores) for parallel batch replay."""
    if isinstance(num, bool) or not isinstance(num, int):
        raise TypeError(f"set_num_threads(): argument 'int' (position 1) must be int, not "
                        f"{type(num).__name__}")
    if num <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    numba = load_numba()
    numba.set_num_threads(min(num, numba.config.NUMBA_NUM_THREADS))


def get_num_interop_threads():
    """1: tapegrad runs no inter-op thread pool."""
    return 1


def set_num_interop_threads(num):
    """Accepted for PyTorch's API (a positive int); tapegrad runs no inter-op thread pool,
    so ``get_num_interop_threads()`` stays 1."""
    if isinstance(num, bool) or not isinstance(num, int):
        raise TypeError(f"set_num_interop_threads(): argument 'int' (position 1) must be int, "
                        f"not {type(num).__name__}")
    if num <= 0:
        raise RuntimeError("Expected positive number of threads")
