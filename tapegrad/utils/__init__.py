"""Utilities with PyTorch's names: ``tapegrad.utils.data`` (datasets, samplers, DataLoader),
``tapegrad.utils.checkpoint``, ``tapegrad.utils.benchmark`` (Timer)."""
from . import benchmark, checkpoint, data

__all__ = ["benchmark", "checkpoint", "data"]
