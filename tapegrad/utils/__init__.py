"""Utilities with PyTorch's names: ``tapegrad.utils.data`` (datasets, samplers, DataLoader)."""
from . import data

__all__ = ["data"]
