"""Storages (``t.storage()``, ``t.untyped_storage()``, ``t.storage_type()``): a window on the
NumPy array that holds a tensor's values, as PyTorch's storage is the memory its tensors view.
Views of one tensor have storages with one ``data_ptr``; ``size()``, ``nbytes()``, indexing,
``tolist()`` and printing are PyTorch's.  A storage is taken when asked: a later in-place
op that gives its tensor new memory (a resize) leaves it on the old memory."""
import warnings

import numpy as np

from . import dtypes
from .compat import data_ptr, view_base
from .tensor import Tensor

_TYPED_DEPRECATED = (
    "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be "
    "the only storage class. This should only matter to you if you are using storages "
    "directly.  To access UntypedStorage directly, use tensor.untyped_storage() instead of "
    "tensor.storage()")


def _root(array):
    """The array owning ``array``'s memory (the end of its chain of NumPy views)."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


class _Storage:
    device = "cpu"  # (PyTorch prints device=cpu)

    def __init__(self, values, ptr):
        self._values, self._ptr = values, ptr  # a flat array over the memory, its address

    def data_ptr(self):
        return self._ptr

    def nbytes(self):
        return self._values.nbytes

    def __len__(self):
        return self.size()

    def __iter__(self):
        return iter(self.tolist())

    def __getitem__(self, i):
        n = self.size()
        if not isinstance(i, int) or isinstance(i, bool):
            raise TypeError(f"can't index a {type(self).__name__} with {type(i).__name__}")
        if not -n <= i < n:
            raise IndexError(f"index {i} out of range for storage of size {n}")
        return self.tolist()[i]

    def is_shared(self):
        return False

    def is_pinned(self, device="cuda"):
        return False

    def cpu(self):
        return self

    def __str__(self):
        data = " " + "\n ".join(str(v) for v in self.tolist())
        return f"{data}\n[{self._title()} of size {self.size()}]"

    __repr__ = __str__


class UntypedStorage(_Storage):
    """Bytes: ``size()`` is ``nbytes()``; an item is an int in 0..255."""

    def __init__(self, *args, device=None):
        if args and isinstance(args[0], np.ndarray) and len(args) == 2:  # (from a tensor)
            super().__init__(*args)
            return
        size = args[0] if args else 0
        values = np.zeros(size, np.uint8) if isinstance(size, int) else np.array(size, np.uint8)
        super().__init__(values, values.__array_interface__["data"][0])

    def size(self):
        return self.nbytes()

    def element_size(self):
        return 1

    def tolist(self):
        return self._values.view(np.uint8).tolist()

    def _title(self):
        return "torch.storage.UntypedStorage(device=cpu)"


class TypedStorage(_Storage):
    """Elements of one dtype (PyTorch deprecates it for UntypedStorage; ``t.storage()``)."""

    def __init__(self, *args, dtype=None, device=None, _wrap=None):
        warnings.warn(_TYPED_DEPRECATED, UserWarning, stacklevel=2)
        if _wrap is not None:
            values, ptr = _wrap
        else:
            dt = dtypes.to_dtype(dtype) if dtype is not None else dtypes.default_float()
            size = args[0] if args else 0
            values = np.zeros(size, dt) if isinstance(size, int) else np.array(size, dt)
            ptr = values.__array_interface__["data"][0]
        super().__init__(values, ptr)

    @property
    def dtype(self):
        return dtypes.of(self._values.dtype)

    def size(self):
        return self._values.size

    def element_size(self):
        return self._values.itemsize

    def tolist(self):
        return self._values.tolist()

    def untyped(self):
        return UntypedStorage(self._values, self._ptr)

    def type(self, dtype=None, non_blocking=False):
        return "torch." + _LEGACY[self._values.dtype].__name__ if dtype is None else \
            TypedStorage(self._values.astype(dtypes.to_dtype(dtype)), dtype=dtype)

    def _title(self):
        return f"torch.storage.TypedStorage(dtype={self.dtype}, device=cpu)"


for _cls in (_Storage, UntypedStorage, TypedStorage):
    _cls.__module__ = "torch.storage"  # (torch.typename(s) is torch.storage.TypedStorage)

_LEGACY = {}  # the dtype's legacy class (torch.FloatStorage...), storage_type()'s answer
for _word, _dt in (("Double", dtypes.float64), ("Float", dtypes.float32),
                   ("Half", dtypes.float16), ("Long", dtypes.int64), ("Int", dtypes.int32),
                   ("Short", dtypes.int16), ("Char", dtypes.int8), ("Byte", dtypes.uint8),
                   ("Bool", dtypes.bool), ("ComplexFloat", dtypes.complex64),
                   ("ComplexDouble", dtypes.complex128)):
    _LEGACY[_dt] = type(f"{_word}Storage", (TypedStorage,), {
        "__module__": "torch",
        "__init__": (lambda dt: lambda self, *args, device=None, **kw: TypedStorage.__init__(
            self, *args, dtype=dt, device=device, **kw))(_dt)})


def _window(t):
    """``(flat array over the memory t views, in t's dtype, its address)``."""
    d = view_base(t).detach()
    if type(d._data) is float:  # a 0-d float64 held as a Python float: one element
        return np.asarray([d._data]), data_ptr(t)
    root = _root(d.numpy())
    raw = root.reshape(-1).view(np.uint8) if root.flags.c_contiguous else \
        np.ascontiguousarray(root).reshape(-1).view(np.uint8)
    n = raw.size // t.element_size() * t.element_size()
    return raw[:n].view(np.dtype(t.dtype)), data_ptr(d)


def storage(self):
    """The TypedStorage of this tensor's memory (PyTorch warns that TypedStorage is
    deprecated, as here)."""
    return TypedStorage(_wrap=_window(self))


def untyped_storage(self):
    """The UntypedStorage (bytes) of this tensor's memory."""
    values, ptr = _window(self)
    return UntypedStorage(values.view(np.uint8), ptr)


def storage_type(self):
    """The legacy storage class of this tensor's dtype (``torch.FloatStorage``...)."""
    return _LEGACY.get(np.dtype(self.dtype), TypedStorage)


def is_storage(obj):
    return isinstance(obj, _Storage)


Tensor.storage, Tensor.untyped_storage, Tensor.storage_type = \
    storage, untyped_storage, storage_type
FUNCTIONS = {"TypedStorage": TypedStorage, "UntypedStorage": UntypedStorage,
             "is_storage": is_storage, **{c.__name__: c for c in _LEGACY.values()}}
