"""``tapegrad.signal`` (PyTorch's ``torch.signal``): its ``windows``."""
from . import windows

__all__ = ["windows"]
