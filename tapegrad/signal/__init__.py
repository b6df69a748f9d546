"""``torch.signal``: its ``windows``."""
from . import windows

__all__ = ["windows"]
