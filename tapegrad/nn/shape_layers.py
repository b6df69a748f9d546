"""Padding, resizing and pixel-shuffle modules (ZeroPad2d, ConstantPad1d, ReflectionPad2d,
..., Upsample, PixelShuffle) that wrap ``nn.functional``, and the parameter containers
ParameterList and ParameterDict, with PyTorch's arguments and reprs.

>>> import tapegrad as tg
>>> tg.nn.ZeroPad2d((1, 1, 2, 0))(tg.ones(1, 1, 1, 1)).shape
torch.Size([1, 1, 3, 3])
"""
from collections import OrderedDict

from ..tensor import Tensor
from . import functional as F
from .modules import Module
from .parameter import Parameter


# ---- padding -------------------------------------------------------------------------------
class _PadNd(Module):
    _d, _mode = 1, "constant"

    def __init__(self, padding, value=0.0):
        super().__init__()
        n = 2 * self._d
        if isinstance(padding, int):
            padding = (padding,) * n
        padding = tuple(int(p) for p in padding)
        if len(padding) != n:
            raise ValueError(f"{type(self).__name__}: expected padding to be an int or a tuple "
                             f"of {n} ints, got {padding}")
        self.padding, self.value = padding, value

    def forward(self, input):
        if self._mode == "constant":
            return F.pad(input, self.padding, "constant", self.value)
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self):
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding, value):
        super().__init__(padding, value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    _d = 1


class ConstantPad2d(_ConstantPadNd):
    _d = 2


class ConstantPad3d(_ConstantPadNd):
    _d = 3


class ZeroPad1d(ConstantPad1d):
    def __init__(self, padding):
        _ConstantPadNd.__init__(self, padding, 0.0)

    extra_repr = _PadNd.extra_repr


class ZeroPad2d(ConstantPad2d):
    __init__, extra_repr = ZeroPad1d.__init__, ZeroPad1d.extra_repr


class ZeroPad3d(ConstantPad3d):
    __init__, extra_repr = ZeroPad1d.__init__, ZeroPad1d.extra_repr


class _ReflectionPadNd(_PadNd):
    _mode = "reflect"


class ReflectionPad1d(_ReflectionPadNd):
    _d = 1


class ReflectionPad2d(_ReflectionPadNd):
    _d = 2


class ReflectionPad3d(_ReflectionPadNd):
    _d = 3


class _ReplicationPadNd(_PadNd):
    _mode = "replicate"


class ReplicationPad1d(_ReplicationPadNd):
    _d = 1


class ReplicationPad2d(_ReplicationPadNd):
    _d = 2


class ReplicationPad3d(_ReplicationPadNd):
    _d = 3


class _CircularPadNd(_PadNd):
    _mode = "circular"


class CircularPad1d(_CircularPadNd):
    _d = 1


class CircularPad2d(_CircularPadNd):
    _d = 2


class CircularPad3d(_CircularPadNd):
    _d = 3


# ---- resizing ------------------------------------------------------------------------------
class Upsample(Module):
    """Resize by ``F.interpolate`` (``mode`` 'nearest', 'linear', 'bilinear', ...)."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size, self.mode, self.align_corners = size, mode, align_corners
        self.scale_factor = tuple(float(s) for s in scale_factor) if isinstance(
            scale_factor, (list, tuple)) else float(scale_factor) if scale_factor else None
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input):
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self):
        info = f"scale_factor={self.scale_factor!r}" if self.scale_factor is not None else \
            f"size={self.size!r}"
        return info + f", mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


class PixelShuffle(Module):
    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self):
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self):
        return f"downscale_factor={self.downscale_factor}"


# ---- parameter containers ------------------------------------------------------------------
def _as_parameter(value):
    """A Tensor that is not a Parameter becomes one, as PyTorch's containers do."""
    return Parameter(value) if isinstance(value, Tensor) and not isinstance(value, Parameter) \
        else value


def _parameter_line(key, p, type_name):
    """PyTorch's line for one entry: ParameterList names the dtype (torch.float32),
    ParameterDict the tensor type (torch.FloatTensor)."""
    if isinstance(p, Tensor):
        kind = "Parameter" if isinstance(p, Parameter) else "Tensor"
        return f"  ({key}): {kind} containing: [{type_name(p)} of size " \
               f"{'x'.join(str(n) for n in p.shape)}]"
    return f"  ({key}): Object of type: {type(p).__name__}"


class ParameterList(Module):
    """Parameters held in a list, registered as '0', '1', ... (a Tensor given becomes a
    Parameter).

    >>> import tapegrad as tg
    >>> ps = tg.nn.ParameterList([tg.nn.Parameter(tg.ones(2)) for _ in range(3)])
    >>> len(list(ps.parameters()))
    3
    """

    def __init__(self, values=None):
        super().__init__()
        object.__setattr__(self, "_size", 0)
        if values is not None:
            self.extend(values)

    def _index(self, idx):
        if not -self._size <= idx < self._size:
            raise IndexError(f"index {idx} is out of range")
        return str(idx % self._size)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return ParameterList([self[i] for i in range(self._size)[idx]])
        key = self._index(idx)
        return self._parameters[key] if key in self._parameters else getattr(self, key)

    def __setitem__(self, idx, param):
        key = self._index(idx)
        param = _as_parameter(param)
        if isinstance(param, Parameter):
            self.register_parameter(key, param)
        else:
            object.__setattr__(self, key, param)

    def __len__(self):
        return self._size

    def __iter__(self):
        return iter(self[i] for i in range(self._size))

    def __iadd__(self, parameters):
        return self.extend(parameters)

    def __dir__(self):
        return [k for k in super().__dir__() if not k.isdigit()]

    def append(self, value):
        object.__setattr__(self, "_size", self._size + 1)
        self[self._size - 1] = value
        return self

    def extend(self, values):
        for v in values:
            self.append(v)
        return self

    def extra_repr(self):  # (Module's repr lays it out, as PyTorch's does)
        return "\n".join(_parameter_line(k, p, lambda t: t.dtype) for k, p in enumerate(self))


class ParameterDict(Module):
    """Parameters held in an ordered dict, registered under their keys (a Tensor given
    becomes a Parameter)."""

    def __init__(self, parameters=None):
        super().__init__()
        object.__setattr__(self, "_keys", OrderedDict())
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key):
        return self._parameters[key] if key in self._parameters else getattr(self, key)

    def __setitem__(self, key, value):
        self._keys[key] = None
        value = _as_parameter(value)
        if isinstance(value, Parameter):
            self.register_parameter(key, value)
        else:
            object.__setattr__(self, key, value)

    def __delitem__(self, key):
        del self._keys[key]
        delattr(self, key)

    def __len__(self):
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __contains__(self, key):
        return key in self._keys

    def __or__(self, other):
        out = ParameterDict(self.items())
        out.update(other)
        return out

    def __ror__(self, other):  # {"a": p} | pdict: a copy of the dict, updated (PyTorch's)
        out = other.copy()
        out.update(self)
        return out

    def __ior__(self, other):
        self.update(other)
        return self

    def __reversed__(self):
        return reversed(list(self._keys))

    def fromkeys(self, keys, default=None):  # (an instance method in PyTorch)
        return ParameterDict((k, default) for k in keys)

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def popitem(self):
        """The last entry set, removed and returned as ``(key, value)``."""
        if not self._keys:
            raise KeyError("popitem(): dictionary is empty")
        key = next(reversed(self._keys))
        return key, self.pop(key)

    def keys(self):
        return self._keys.keys()

    def items(self):
        return [(k, self[k]) for k in self._keys]

    def values(self):
        return [self[k] for k in self._keys]

    def get(self, key, default=None):
        return self[key] if key in self else default

    def pop(self, key):
        value = self[key]
        del self[key]
        return value

    def clear(self):
        for k in list(self._keys):
            del self[k]

    def copy(self):
        return ParameterDict(self.items())

    def update(self, parameters):
        items = parameters.items() if hasattr(parameters, "items") else parameters
        for key, value in items:
            self[key] = value

    def extra_repr(self):
        return "\n".join(_parameter_line(k, p, lambda t: t.type()) for k, p in self.items())
