"""Utilities with PyTorch's names: ``tapegrad.utils.data`` (datasets, samplers, DataLoader),
``tapegrad.utils.checkpoint``, ``tapegrad.utils.benchmark`` (Timer), ``tapegrad.utils.dlpack``."""
from . import benchmark, checkpoint, data, dlpack

__all__ = ["benchmark", "checkpoint", "data", "dlpack"]
