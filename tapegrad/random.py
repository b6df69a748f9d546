"""``torch.random``: the default generator's seed and state, and ``fork_rng``."""
import contextlib

from .creation import get_rng_state, initial_seed, manual_seed, seed, set_rng_state


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices",
             device_type="cuda"):
    """Draws inside leave the default generator as it was on entry (PyTorch's fork_rng;
    there are no device generators here).

    >>> import tapegrad as tg
    >>> _ = tg.manual_seed(0)
    >>> with fork_rng():
    ...     _ = tg.rand(3)
    >>> a = tg.rand(1)
    >>> _ = tg.manual_seed(0)
    >>> bool(tg.rand(1) == a)
    True
    """
    if not enabled:
        yield
        return
    saved = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(saved)


__all__ = ["fork_rng", "get_rng_state", "initial_seed", "manual_seed", "seed",
           "set_rng_state"]
