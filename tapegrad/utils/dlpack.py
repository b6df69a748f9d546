"""DLPack exchange (``torch.utils.dlpack``): a tensor's values are a NumPy array, and NumPy
speaks DLPack, so tensors go to and come from NumPy, PyTorch, JAX... sharing memory.

>>> import numpy as np, tapegrad as tg
>>> a = np.arange(3.0)
>>> t = tg.from_dlpack(a)
>>> t[0] = 9.0
>>> a.tolist()
[9.0, 1.0, 2.0]
"""
import ctypes
import enum

import numpy as np

from ..creation import from_numpy
from ..tensor import Tensor


class DLDeviceType(enum.IntEnum):
    """DLPack's device codes (``__dlpack_device__`` answers ``(kDLCPU, 0)``)."""

    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17


_INVALID = ("from_dlpack received an invalid capsule. Note that DLTensor capsules can be "
            "consumed only once, so you might have already constructed a tensor from it once.")


def _dlpack(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    """``Tensor.__dlpack__``: a DLPack capsule of the values (NumPy's), memory shared."""
    if self.requires_grad:
        raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
    values = self.numpy()
    if not values.flags.writeable:  # (NumPy exports no read-only array to old consumers)
        values = values.copy()
    kwargs = {} if max_version is None else {"max_version": max_version}
    return values.__dlpack__(dl_device=dl_device, copy=copy, **kwargs)


def _dlpack_device(self):
    return (DLDeviceType.kDLCPU, 0)


Tensor.__dlpack__ = _dlpack
Tensor.__dlpack_device__ = _dlpack_device


def to_dlpack(tensor):
    """A DLPack capsule of ``tensor``'s values (consumed once, by any ``from_dlpack``)."""
    return np.asarray(tensor.detach().numpy()).__dlpack__()


class _Capsule:
    """A bare capsule offered to NumPy's ``from_dlpack``, which takes objects with
    ``__dlpack__`` only."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return (DLDeviceType.kDLCPU, 0)


_name_of = ctypes.pythonapi.PyCapsule_GetName
_name_of.restype, _name_of.argtypes = ctypes.c_char_p, [ctypes.py_object]


def from_dlpack(ext_tensor):
    """A tensor sharing the memory of ``ext_tensor``: any object with ``__dlpack__`` (NumPy
    arrays, PyTorch or JAX CPU tensors, tapegrad tensors) or an unconsumed DLPack capsule."""
    if not hasattr(ext_tensor, "__dlpack__"):
        if type(ext_tensor).__name__ != "PyCapsule" or \
                _name_of(ext_tensor) not in (b"dltensor", b"dltensor_versioned"):
            raise RuntimeError(_INVALID)
        ext_tensor = _Capsule(ext_tensor)
    return from_numpy(np.from_dlpack(ext_tensor))
