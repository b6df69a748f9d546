"""tapegrad.nn: ``functional`` (activations and losses composed from primitives), ``Parameter``
and a minimal ``Module`` with the layers small models need."""
from . import functional
from .modules import (
    GELU,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    Dropout,
    Identity,
    L1Loss,
    Linear,
    Module,
    MSELoss,
    ReLU,
    Sequential,
    Sigmoid,
    SiLU,
    Tanh,
)
from .parameter import Parameter

__all__ = ["BCEWithLogitsLoss", "CrossEntropyLoss", "Dropout", "GELU", "Identity", "L1Loss",
           "Linear", "MSELoss", "Module", "Parameter", "ReLU", "Sequential", "SiLU", "Sigmoid",
           "Tanh", "functional"]
