"""tapegrad.nn: functional building blocks (``tapegrad.nn.functional``)."""
from . import functional

__all__ = ["functional"]
