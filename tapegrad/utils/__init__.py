"""Utilities with PyTorch's names: ``tapegrad.utils.data`` (datasets, samplers, DataLoader),
``tapegrad.utils.checkpoint``."""
from . import checkpoint, data

__all__ = ["checkpoint", "data"]
